"""The terminal view of a state (``game.render``): the board for everybody, secrets only
for their owner (22.0, 22.1)."""

from __future__ import annotations

import attrs
import pytest

from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelState, RequestKind, Stratagems
from byzantium.core.drivers import first_action_policy, play
from byzantium.core.records import replay
from tests.belisarius.support import belisarius, ended

RULEBOOK = "belisarius"

#: The view fits on a terminal screen.
MAX_LINES = 40


def _mid_game() -> BelState:
    """A state some game turns in (first legal actions, seeded dice): hands are held,
    and a player is asked (the first choice from step 150 on)."""
    game = belisarius()
    record = play(game, first_action_policy, seed=3, max_steps=150)
    state = replay(game, record)
    while state.pending is not None and state.pending.kind is not RequestKind.CHOOSE:
        state = game.apply(state, game.legal_actions(state)[0])
    return state


def _secrets(state: BelState, player: int, solidus: int, hand: tuple[int, ...]) -> BelState:
    """The state with one player's treasury and hand replaced (nothing else changed)."""
    treasuries = list(state.solidus)
    treasuries[player] = solidus
    hands = list(state.stratagems.hands)
    hands[player] = hand
    stratagems = Stratagems(state.stratagems.pool, (hands[0], hands[1]))
    return attrs.evolve(state, solidus=(treasuries[0], treasuries[1]), stratagems=stratagems)


def test_the_view_shows_turn_phase_chart_stacks_and_what_is_pending() -> None:
    game = belisarius()
    state = _mid_game()
    text = game.render(state)
    lines = text.splitlines()
    side = game.player_name(state.phasing)
    assert state.turn >= 1
    assert lines[0].startswith(f"== Game turn {state.turn} (")
    assert lines[0].endswith(f"{side} player turn == phase: {state.phase}")
    assert f"Empire: {state.solidus[EMPIRE]} solidus; " in text
    assert f"Barbarian: {state.solidus[BARBARIAN]} solidus; " in text
    assert "Regions (levy, control" in text
    # Every Region of the chart, with its levy and control.
    for region in game.catalog.regions:
        assert any(line.startswith(f"  {region.name} {region.levy} ") for line in lines)
    # Justinian (a loyal Guard Leader, the Empire's) stands in the capital.
    cat = game.catalog
    capital = state.units.where[cat.justinian]
    thracia = cat.regions[cat.region_of(capital)].name
    assert any(line.startswith(f"  {thracia} ") and f"{capital} E" in line for line in lines)
    assert any(line.startswith("  Persia 5 Barbarian: box Persia B") for line in lines)
    assert lines[-1].startswith("Pending [")
    assert len(lines) <= MAX_LINES


def test_the_set_up_and_the_end_render() -> None:
    game = belisarius()
    start = game.initial_state()
    text = game.render(start)
    assert text.startswith("== Set-up == phase: setup")
    assert "Pending [34.0]: Barbarian chooses: place armenia-field-army-1 in Armenia" in text
    over = game.render(ended(start))
    assert over.splitlines()[-1] == "Game over [23.0]: the scenario ends"


@pytest.mark.rule("22.0", "22.1")
@pytest.mark.parametrize("viewer", [EMPIRE, BARBARIAN])
def test_the_other_players_hand_and_treasury_never_show(viewer: int) -> None:
    game = belisarius()
    state = _mid_game()
    other = 1 - viewer
    size = state.stratagems.held(other)
    assert size > 0
    # Same hand size, different composition, and a different treasury.
    pool = state.stratagems.pool
    kinds = [k for k, n in enumerate(pool) if n >= size]
    hand_a = tuple(size if k == kinds[0] else 0 for k in range(len(pool)))
    hand_b = tuple(size if k == kinds[1] else 0 for k in range(len(pool)))
    one = _secrets(state, other, 987, hand_a)
    two = _secrets(state, other, 654, hand_b)
    seen = game.render(one, viewer)
    assert seen == game.render(two, viewer)
    assert "987" not in seen and "654" not in seen
    assert "treasury hidden" in seen and f"{size} Stratagems" in seen
    ids = game.catalog.stratagem_ids
    other_line = next(
        line for line in seen.splitlines() if line.startswith(game.player_name(other) + ":")
    )
    assert ids[kinds[0]] not in other_line and ids[kinds[1]] not in other_line
    # The viewer's own secrets show, and everything shows to an onlooker.
    assert f"{game.player_name(viewer)}: {state.solidus[viewer]} solidus" in seen
    assert game.render(one) != game.render(two)
    assert "987 solidus" in game.render(one)


@pytest.mark.rule("22.1")
def test_a_revealed_hand_and_treasury_show() -> None:
    game = belisarius()
    state = attrs.evolve(_mid_game(), revealed=(True, False))
    seen = game.render(state, EMPIRE)
    assert f"Barbarian: {state.solidus[BARBARIAN]} solidus" in seen
    assert "treasury hidden" not in seen
    assert "Empire: treasury hidden" in game.render(state, BARBARIAN)


@pytest.mark.rule("22.0")
def test_the_prompt_of_the_other_players_choice_is_not_shown() -> None:
    game = belisarius()
    state = _mid_game()
    request = state.pending
    assert request is not None and request.prompt
    chooser = request.player
    assert request.prompt in game.render(state, chooser)
    assert game.render(state, 1 - chooser).splitlines()[-1] == (
        f"Pending [{request.rule}]: {game.player_name(chooser)} chooses"
    )
