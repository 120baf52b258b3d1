"""The spectator (22.0, 22.1): what every seat may know, and nothing more.

:data:`~byzantium.core.game.SPECTATOR` is the reader of a public game list and of a
game watched by somebody without a seat. In Belisarius he sees the board and the
counts of markers, never a hand or a treasury, nor the question put to a player.

The property, fog-of-war twins again (:mod:`tests.belisarius.test_fog_of_war`): a
twin whose one side holds another hand and a richer treasury, played with the same
public actions, gives the spectator the same observation, the same chronicle texts
and the same picture at every step. Either side's secrets are changed in turn.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.observation import BelObservation
from byzantium.belisarius.state import BARBARIAN, EMPIRE, PLAYERS, BelAction, BelState
from byzantium.core.codec import canonical_json, codec_for
from byzantium.core.errors import ArgumentError
from byzantium.core.game import SPECTATOR, Event
from byzantium.core.registry import load_game
from byzantium.render import layers, stacked, svg
from tests.belisarius.support import SCENARIOS
from tests.belisarius.test_fog_of_war import (
    OPTION_SETS,
    SEEDS,
    game_of,
    played,
    redeal,
    starts,
    twin_move,
)
from tests.belisarius.test_observation import reask

RULEBOOK = "belisarius"


def spectator_reads(
    game: Belisarius, state: BelState, action: BelAction, events: tuple[Event, ...]
) -> list[str]:
    """Everything the spectator reads of one step, as text."""
    lines = [
        canonical_json(codec_for(BelObservation).encode(game.observation(state, SPECTATOR))),
        game.chronicle_heading(state, SPECTATOR),
        game.describe_decision(state, SPECTATOR),
        game.describe_step(state, action, SPECTATOR),
        game.render(state, SPECTATOR),
        str(game.odds_visible(state, SPECTATOR)),
    ]
    lines += [t for t in (game.event_text(e, SPECTATOR) for e in events) if t is not None]
    return lines


def follow_spectator(  # noqa: PLR0917 - the game, its seeded play and the changed side
    game: Belisarius,
    scenario: int,
    optional: str,
    seed: int,
    changed: int,
    rng: random.Random,
    *,
    pictures: int = 2,
) -> int:
    """Play a twin whose side ``changed`` holds other secrets beside the game from a
    drawn start; returns how many steps the spectator read the same."""
    steps, final = played(scenario, optional, seed)
    keeper = 1 - changed  # redeal changes the secrets of the keeper's opponent
    candidates = starts(steps, keeper)
    begin = candidates[rng.randrange(len(candidates))]
    twin = redeal(steps, final, begin, keeper, rng)
    if twin.pending is not None:
        twin = reask(game, twin)
    assert twin.solidus[changed] != steps[begin][0].solidus[changed]
    compared = 0
    drawn = 0
    for state, action in steps[begin:]:
        if state.revealed[keeper] or twin.revealed[keeper]:
            break
        answer = twin_move(game, state, twin, action, keeper)
        if answer is None:
            break
        step, twin_step = game.step(state, action), game.step(twin, answer)
        assert spectator_reads(game, twin, answer, twin_step.events) == spectator_reads(
            game, state, action, step.events
        )
        if drawn < pictures and compared % 25 == 0:
            assert svg(game, twin, SPECTATOR) == svg(game, state, SPECTATOR)
            drawn += 1
        compared += 1
        twin = twin_step.state
    return compared


@pytest.mark.rule("22.0", "22.1", game="belisarius")
@pytest.mark.parametrize("optional", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_twins_differing_in_either_sides_secrets_look_the_same_to_the_spectator(
    scenario: int, optional: str, data: st.DataObject
) -> None:
    game = game_of(scenario, optional)
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    changed = data.draw(st.sampled_from(PLAYERS), label="changed side")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="deal"))
    follow_spectator(game, scenario, optional, seed, changed, rng)


@pytest.mark.rule("22.1", game="belisarius")
def test_the_spectator_twins_follow_long_stretches() -> None:
    """Not vacuous: the twins of each side follow long stretches of a game."""
    game = game_of(1, "off")
    for changed in PLAYERS:
        longest = max(
            follow_spectator(game, 1, "off", 1, changed, random.Random(k), pictures=0)
            for k in range(6)
        )
        assert longest >= 50


@pytest.mark.rule("22.1", game="belisarius")
def test_the_spectator_sees_no_hand_no_treasury_and_no_question() -> None:
    game = game_of(1, "off")
    steps, _ = played(1, "off", 0)
    state = next(s for s, _ in steps if s.turn >= 1 and game.current_player(s) in PLAYERS)
    seen = game.observation(state, SPECTATOR)
    assert seen.player == SPECTATOR
    assert (seen.hand, seen.treasury, seen.other_hand, seen.other_treasury) == (None,) * 4
    assert seen.pending is not None and seen.pending.prompt == "" and seen.pending.options == ()
    assert seen.hand_sizes == (state.stratagems.held(0), state.stratagems.held(1))
    heading = game.chronicle_heading(state, SPECTATOR)
    assert "treasuries: Empire hidden, Barbarian hidden" in heading
    assert game.describe_decision(state, SPECTATOR) == ""
    picture = svg(game, state, SPECTATOR)
    assert "As a spectator sees it" in picture
    assert "treasury hidden" in picture
    for p in PLAYERS:
        assert f"{state.solidus[p]} Solidus" not in picture


def test_a_spectator_has_no_observation_tensor() -> None:
    game = game_of(1, "off")
    with pytest.raises(ArgumentError, match="not the spectator"):
        game.observation_tensor(game.initial_state(), SPECTATOR)


@pytest.mark.parametrize("perspective", [None, EMPIRE, BARBARIAN, SPECTATOR])
def test_board_and_overlay_stack_to_the_picture(perspective: int | None) -> None:
    """The static map layer and the overlay hold the picture's content between them,
    the map in the board only (pixel equality: tests/test_png_outputs-style check in
    tests/server)."""
    game = game_of(2, "off")
    state = played(2, "off", 0)[0][40][0]
    board, overlay = layers(game, state, perspective)
    whole = svg(game, state, perspective)
    assert board is not None
    assert 'class="map"' in board or "<g" in board
    assert len(board) > len(overlay)
    assert len(board) + len(overlay) < len(whole) * 1.1
    assert stacked(board, overlay).count("<text") == whole.count("<text") + board.count("<text")


def test_sword_spectator_reads_as_the_player() -> None:
    game = load_game("sword-of-orthodoxy")
    state = game.initial_state()
    assert game.observation(state, SPECTATOR) == game.observation(state, 0)
    assert game.chronicle_heading(state, SPECTATOR) == game.chronicle_heading(state, 0)
    assert game.describe_decision(state, SPECTATOR) == game.describe_decision(state, 0)
    assert svg(game, state, SPECTATOR) == svg(game, state, 0)
    assert layers(game, state, SPECTATOR) == (None, svg(game, state, 0))
    action = game.legal_actions(state)[0]
    step = game.step(state, action)
    assert game.describe_step(state, action, SPECTATOR) == game.describe_step(state, action, 0)
    assert [game.event_text(e, SPECTATOR) for e in step.events] == [
        game.event_text(e, 0) for e in step.events
    ]
