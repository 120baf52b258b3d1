"""Observation tensors (:mod:`byzantium.core.tensors`): per game and player a fixed-shape
encoding of the player's view, within its declared bounds in every state of random
games, and showing nothing the player may not see (Belisarius 22.0, 22.1)."""

from __future__ import annotations

import random
import re
from typing import TypeVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius import tensor as bel_tensor
from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelState
from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, Game
from byzantium.core.registry import load_game
from byzantium.core.tensors import Segment, TensorLayout, TensorWriter
from byzantium.sword_of_orthodoxy import tensor as soo_tensor
from byzantium.sword_of_orthodoxy.state import SooState
from tests.belisarius.test_fog_of_war import played, redeal, starts
from tests.belisarius.test_observation import reask
from tests.pig import PigGame, PigState

S = TypeVar("S")
A = TypeVar("A")


def walk(game: Game[S, A], seed: int, limit: int = 100_000) -> list[S]:
    """Every state of a seeded random game (chance at its odds)."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not game.is_terminal(state) and len(states) < limit:
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        states.append(state)
    return states


def check_in_layout(game: Game[S, A], state: S, player: int) -> list[float]:
    """The tensor of ``state``: of the declared shape, every number within its bounds."""
    values = game.observation_tensor(state, player)
    layout = game.observation_tensor_layout()
    assert (len(values),) == game.observation_tensor_shape() == layout.shape
    lows, highs = layout.bounds()
    for i, value in enumerate(values):
        assert lows[i] <= value <= highs[i], (i, value)
    return values


def block(layout: TensorLayout, values: list[float], name: str) -> list[float]:
    start = layout.offset(name)
    return values[start : start + layout.segment(name).size]


# -- the layout machinery ------------------------------------------------------------------


def test_a_writer_refuses_a_segment_out_of_order_or_of_the_wrong_length() -> None:
    layout = TensorLayout((Segment("a", (2,), ""), Segment("b", (1,), "")))
    with pytest.raises(ValueError, match="not the next one"):
        TensorWriter(layout).put("b", [1])
    with pytest.raises(ValueError, match="takes 2 numbers, not 3"):
        TensorWriter(layout).put("a", [1, 2, 3])
    with pytest.raises(ValueError, match="'b' was not put"):
        TensorWriter(layout).put("a", [1, 2]).values()
    with pytest.raises(ValueError, match="used twice"):
        TensorLayout((Segment("a", (1,), ""), Segment("a", (1,), "")))


def test_a_game_without_a_tensor_says_so() -> None:
    class Plain(PigGame):
        def observation_tensor_layout(self) -> TensorLayout:
            return Game.observation_tensor_layout(self)

        def observation_tensor(self, state: PigState, player: int) -> list[float]:
            return Game.observation_tensor(self, state, player)

    game = Plain()
    with pytest.raises(NotImplementedError, match="no observation tensor"):
        game.observation_tensor_shape()
    with pytest.raises(NotImplementedError, match="no observation tensor"):
        game.observation_tensor(game.initial_state(), 0)


# -- Pig -------------------------------------------------------------------------------------


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6))
def test_pig_tensors_are_the_public_state(seed: int) -> None:
    game = PigGame()
    for state in walk(game, seed):
        for player in (0, 1):
            values = check_in_layout(game, state, player)
            assert values[:3] == [*state.scores, state.turn_total]
            assert values[3 + state.to_move] == 1.0
            assert values[5] == float(state.awaiting_die)


# -- Sword of Orthodoxy ------------------------------------------------------------------------


#: Facts stamped with a turn (``name-turn-N``).
STAMPED = re.compile(r"^(?P<name>.+)-turn-(?P<turn>\d+)$")


@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
@settings(max_examples=2)
@given(seed=st.integers(0, 10**6), optional=st.booleans())
def test_sword_tensors_keep_their_shape_and_show_the_board(
    scenario: str, seed: int, optional: bool
) -> None:
    flags = {"islam": optional, "round_letters": optional, "two_synopsis_rolls": optional}
    game = load_game("sword-of-orthodoxy", scenario=scenario, **flags)
    layout = game.observation_tensor_layout()
    tiles, spaces = layout.segment("tile space").shape
    facts = soo_tensor.fact_names(game)
    for state in walk(game, seed)[::7]:
        values = check_in_layout(game, state, 0)
        places = block(layout, values, "tile space")
        for tile, where in enumerate(state.board.where):
            row = places[tile * spaces : (tile + 1) * spaces]
            assert row.index(1.0) == where and sum(row) == 1
        # Every remembered fact and number is in the tensor.
        for fact in state.done:
            stamped = STAMPED.match(fact)
            if fact in facts:
                assert block(layout, values, "facts")[facts.index(fact)] == 1.0
            else:
                assert stamped is not None, fact
                assert stamped["name"] in soo_tensor.TURN_FACTS, fact
        for name, _ in state.counters:
            assert name in soo_tensor.COUNTERS
        kind = block(layout, values, "pending kind")
        assert sum(kind) == 1 and kind[0] == float(state.pending is None)
        rules = block(layout, values, "pending rule")
        assert state.pending is None or rules[-1] == 0.0  # a rule of the index asks
    assert tiles == len(game.catalog.tiles)


# -- Belisarius --------------------------------------------------------------------------------


@pytest.mark.rule("22.0", game="belisarius")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_belisarius_tensors_keep_their_shape_over_whole_games(scenario: int) -> None:
    steps, final = played(scenario, "on" if scenario == 2 else "off", 0)
    game = load_game("belisarius", scenario=scenario)
    states = [s for s, _ in steps[::25]] + [final]
    layout = game.observation_tensor_layout()
    for state in states:
        for player in (EMPIRE, BARBARIAN):
            values = check_in_layout(game, state, player)
            assert sum(block(layout, values, "phase")) == 1, state.phase
            assert block(layout, values, "own treasury") == [state.solidus[player]]
            assert block(layout, values, "own hand") == list(state.stratagems.hands[player])
    assert block(layout, values, "ended") == [1.0]


def _secret_free(game_state: tuple[int, str, int], observer: int, data: st.DataObject) -> None:
    scenario, optional, seed = game_state
    game = load_game("belisarius", scenario=scenario)
    steps, final = played(scenario, optional, seed)
    start = data.draw(st.sampled_from(starts(steps, observer)), label="start")
    state = steps[start][0]
    twin = redeal(steps, final, start, observer, random.Random(start))
    if twin.pending is not None:
        twin = reask(game, twin)
    other = 1 - observer
    assert twin.solidus[other] != state.solidus[other]  # the twin differs in secrets
    assert game.observation_tensor(twin, observer) == game.observation_tensor(state, observer)


@pytest.mark.rule("22.0", "22.1", game="belisarius")
@pytest.mark.parametrize("scenario", [1, 2, 3])
@settings(max_examples=4)
@given(data=st.data(), observer=st.sampled_from((EMPIRE, BARBARIAN)))
def test_a_tensor_shows_nothing_of_the_other_players_secrets(
    scenario: int, observer: int, data: st.DataObject
) -> None:
    """Two states that differ only in the other player's hand and treasury (the twins of
    the fog-of-war tests) give the observer the same tensor."""
    _secret_free((scenario, "off", 0), observer, data)


@pytest.mark.rule("22.1", game="belisarius")
def test_a_tensor_shows_the_other_players_secrets_once_he_may_examine_them() -> None:
    """The construction is not blind: the observer's own secrets are in his tensor, and
    the other's once the observer may examine them (22.1)."""
    steps, _ = played(1, "off", 0)
    game = load_game("belisarius", scenario=1)
    state: BelState = steps[len(steps) // 2][0]
    layout = game.observation_tensor_layout()
    richer = attrs.evolve(state, solidus=(state.solidus[0] + 5, state.solidus[1]))
    assert game.observation_tensor(richer, EMPIRE) != game.observation_tensor(state, EMPIRE)
    assert game.observation_tensor(richer, BARBARIAN) == game.observation_tensor(state, BARBARIAN)
    shown = attrs.evolve(richer, revealed=(False, True))
    values = game.observation_tensor(shown, BARBARIAN)
    assert block(layout, values, "other known") == [1.0]
    assert block(layout, values, "other treasury") == [richer.solidus[EMPIRE]]
    assert block(layout, values, "other hand") == list(state.stratagems.hands[EMPIRE])


def test_belisarius_phases_are_the_sequence_of_play() -> None:
    assert bel_tensor.PHASES[0] == "setup"
    assert "operations" in bel_tensor.PHASES
    assert len(set(bel_tensor.PHASES)) == len(bel_tensor.PHASES)


def test_typed_observations() -> None:
    """The typed handles give typed observations (checked by mypy on this file too)."""
    soo = load_game("sword-of-orthodoxy")
    state: SooState = soo.initial_state()
    assert soo.observation(state, 0).turn == state.turn
    bel = load_game("belisarius")
    view = bel.observation(bel.initial_state(), BARBARIAN)
    assert view.treasury == bel.initial_state().solidus[BARBARIAN]
