"""Where land counters may be (16.32, 19.5, 21.2): never loose on an all-sea hex.

A land counter crosses the sea only on board a Fleet, and gets on board only by
embarking in a port or on a coast (19.5). Every way of putting a counter on the map
goes through one test (:func:`.world.may_stand`, inside :func:`.world.can_place`),
so a Leader gained with the Leader marker (21.2) is never put with a Fleet at sea.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.levy import GAIN_LEADER, LEADER_STRATAGEM, LevyPhase, leader_places
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import EMPIRE, FIRST_HEX, BelState, Place, Select
from byzantium.belisarius.world import available, can_place, may_be_at, may_stand
from byzantium.core.game import CHANCE, TERMINAL
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    SCENARIOS,
    answer_unchecked,
    belisarius,
    blank_state,
    give,
)
from tests.belisarius.test_whole_games import DEEP, OPTION_SETS, random_play

RULEBOOK = "belisarius"

SEA = min(h for h in CAT.map.hexes() if not CAT.is_land(h))
THRACE = min(h for h in CAT.regions[CAT.region("Thracia")].hexes if CAT.is_land(h))


def _put(state: BelState, unit: int, where: int) -> BelState:
    return attrs.evolve(state, units=state.units.move(unit, where))


def _fleet_at_sea(loaded: bool) -> BelState:
    """The Empire's Levy Phase: a Thracian Fleet alone on an all-sea hex (with a
    Thracian Garrison on board if ``loaded``), a Thracian Garrison ashore, and the
    Leader marker in hand."""
    state = blank_state("levy", EMPIRE, turn=0, control={"Thracia": Control.EMPIRE})
    fleet = available(CAT, state, "thracia", UnitKind.FLEET)[0]
    state = _put(state, fleet, SEA)
    garrisons = available(CAT, state, "thracia", UnitKind.GARRISON)
    state = _put(state, garrisons[0], THRACE)
    if loaded:
        state = _put(state, garrisons[1], SEA)
        state = attrs.evolve(state, units=state.units.embark(garrisons[1], fleet))
    return give(state, EMPIRE, LEADER_STRATAGEM)


@pytest.mark.rule("21.2", "16.32", "19.5", "11.3")
@pytest.mark.parametrize("loaded", [False, True])
def test_the_leader_marker_never_puts_a_leader_with_a_fleet_at_sea(loaded: bool) -> None:
    state = _fleet_at_sea(loaded)
    belisarius_ = CAT.counter("belisarius")
    assert leader_places(CTX, state, belisarius_, EMPIRE) == [THRACE]
    assert not can_place(CAT, state, belisarius_, SEA, EMPIRE)
    asked = settle(CTX, push(state, LevyPhase()))
    asked = answer_unchecked(GAME, asked, Select(GAIN_LEADER))
    asked = answer_unchecked(GAME, asked, Select("belisarius"))
    assert asked.pending is not None
    assert set(asked.pending.options) == {Place(THRACE)}


@pytest.mark.rule("16.32", "19.1", "16.33", "18.3")
@given(
    unit=st.integers(0, len(CAT.counters) - 1),
    where=st.sampled_from([*range(1, len(CAT.peripherals) + 1), *sorted(CAT.map.hexes())]),
)
def test_may_stand_keeps_land_counters_on_land_and_fleets_on_water(unit: int, where: int) -> None:
    fits = may_stand(CAT, unit, where)
    if where < FIRST_HEX:
        assert fits == (
            CAT.home[unit] == CAT.box_region[where - 1]
            and (not CAT.naval[unit] or CAT.peripherals[where - 1].port)
        )
    elif CAT.naval[unit]:
        assert fits == (not CAT.is_land(where) or CAT.map.is_coastal(where))
    else:
        assert fits == CAT.is_land(where)
    # Placing follows the same test: nothing goes where its type may not stand.
    empty = blank_state("levy", EMPIRE, turn=0)
    if not fits:
        assert not can_place(CAT, empty, unit, where, EMPIRE)


def _play_checking(game: Belisarius, seed: int) -> None:
    """A whole random game (no ending by agreement), every counter in play checked at
    every state: where it is, its type may be (:func:`.world.may_be_at`)."""
    cat = game.catalog
    rivers = game.options.get("river_movement") is True
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(20_000):
        for unit in state.units.in_play():
            where = state.units.where[unit]
            assert may_be_at(cat, state, unit, where, rivers=rivers), (
                cat.counters[unit].id,
                where,
                state.turn,
                state.phase,
            )
        actor = game.current_player(state)
        if actor == TERMINAL:
            return
        if actor == CHANCE:
            outcomes = game.chance_outcomes(state)
            weights = [float(p) for _, p in outcomes]
            action = rng.choices([a for a, _ in outcomes], weights)[0]
        else:
            action = random_play(game, state, rng)
        state = game.step(state, action).state
    raise AssertionError("the game did not end")


@pytest.mark.rule("16.32", "19.5", "19.1", "21.2", "11.1", "11.2", "34.0")
@pytest.mark.parametrize("options", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=6 if DEEP else 2)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_land_counter_is_ever_loose_at_sea_in_a_whole_game(
    scenario: int, options: str, seed: int
) -> None:
    _play_checking(belisarius(scenario, **OPTION_SETS[options]), seed)
