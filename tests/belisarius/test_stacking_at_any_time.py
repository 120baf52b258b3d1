"""Stacking at any time (13.1, 13.132, 19.53): not only where a move ends.

13.1 says the limit may never be exceeded at any moment of the game turn and that no
counter is placed, moved or retreated into a hex beyond it; 13.132 keeps a Barbarian
stack to one Region. So a force never enters a hex where it could not stand, not
even in passing: a land march, a voyage, a withdrawal or a retreat.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import retreat_steps
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.movement import may_end_at, reachable
from byzantium.belisarius.naval import fleet_reachable
from byzantium.belisarius.operations import land_steps
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import BARBARIAN, EMPIRE, FIRST_HEX, BelState
from byzantium.belisarius.world import available, controller
from byzantium.core.game import CHANCE, TERMINAL
from tests.belisarius.support import CAT, CTX, SCENARIOS, belisarius, blank_state, put
from tests.belisarius.test_movement import CONTROL, ball, open_country, ring
from tests.belisarius.test_whole_games import DEEP, OPTION_SETS, random_play

RULEBOOK = "belisarius"

MAP = CAT.map
LIMIT = CAT.constant("stacking-limit")


def board(phasing: int = EMPIRE) -> BelState:
    return blank_state("operations", phasing, control={**CONTROL, "Vandals": Control.BARBARIAN})


def corridor() -> tuple[int, int, int]:
    """A start, a neighbour and a hex beyond it in open country."""
    start = open_country()
    beyond = ring(start, 2)[0]
    middle = next(m for m in MAP.neighbours(start) if beyond in MAP.neighbours(m))
    return start, middle, beyond


@pytest.mark.rule("13.1", "16.1", "14.3")
def test_a_march_never_passes_through_a_full_friendly_hex() -> None:
    start, middle, beyond = corridor()
    state = put(board(), "thracia", UnitKind.GARRISON, start)
    state = put(state, "lydia", UnitKind.GARRISON, middle, count=LIMIT)
    force = state.units.at(start)
    # The full hex is neither a step offered nor a hex passed on the way.
    steps = dict(land_steps(CTX, state, force, start, Fraction(6), False, EMPIRE))
    assert middle not in steps and steps
    reach = reachable(CAT, state, force, start, 6)
    assert middle not in reach
    assert beyond in reach  # around it
    # One counter fewer there, and the way through is open again.
    lighter = put(board(), "thracia", UnitKind.GARRISON, start)
    lighter = put(lighter, "lydia", UnitKind.GARRISON, middle, count=LIMIT - 1)
    assert middle in dict(land_steps(CTX, lighter, force, start, Fraction(6), False, EMPIRE))


@pytest.mark.rule("13.132", "16.1")
def test_a_barbarian_march_never_passes_through_a_stack_of_another_region() -> None:
    start, middle, _ = corridor()
    state = put(board(BARBARIAN), "slavs", UnitKind.WARBAND, start)
    state = put(state, "ostrogoths", UnitKind.WARBAND, middle)
    force = state.units.at(start)
    steps = dict(land_steps(CTX, state, force, start, Fraction(6), False, BARBARIAN))
    assert middle not in steps and steps
    assert middle not in reachable(CAT, state, force, start, 6)


def _open_sea() -> tuple[int, int]:
    """Two adjacent all-sea hexes, each with other all-sea neighbours."""
    for hex_ in sorted(MAP.hexes()):
        if CAT.is_land(hex_):
            continue
        seas = [n for n in MAP.neighbours(hex_) if not CAT.is_land(n)]
        if len(seas) == 6:
            return hex_, seas[0]
    raise AssertionError("no open sea")


@pytest.mark.rule("13.132", "13.1", "19.2", "19.53")
def test_a_voyage_never_passes_through_a_stack_it_could_not_join() -> None:
    start, middle = _open_sea()
    state = put(board(BARBARIAN), "vandals", UnitKind.FLEET, start)
    state = put(state, "ostrogoths", UnitKind.FLEET, middle)
    force = state.units.at(start)
    reach = fleet_reachable(CAT, state, force, start, 10)
    assert middle not in reach
    assert len(reach) > 1


@pytest.mark.rule("13.1", "17.9", "17.54")
def test_a_retreat_never_passes_through_a_full_friendly_hex() -> None:
    start, middle, _ = corridor()
    state = put(board(), "thracia", UnitKind.GARRISON, start)
    state = put(state, "lydia", UnitKind.GARRISON, middle, count=LIMIT)
    stack = state.units.at(start)
    for last in (False, True):
        steps = retreat_steps(CAT, state, EMPIRE, stack, start, (), last)
        assert middle not in steps and steps


@pytest.mark.rule("13.1", "13.132", "16.1")
@given(
    crowd=st.lists(
        st.tuples(st.integers(0, 36), st.sampled_from(("lydia", "ostrogoths")), st.integers(1, 10)),
        max_size=8,
    ),
    barbarian=st.booleans(),
    points=st.integers(1, 12),
)
def test_every_hex_a_march_reaches_is_one_the_force_may_stand_in(
    crowd: list[tuple[int, str, int]], barbarian: bool, points: int
) -> None:
    start = open_country()
    player = BARBARIAN if barbarian else EMPIRE
    state = put(
        board(player),
        "slavs" if barbarian else "thracia",
        UnitKind.WARBAND if barbarian else UnitKind.GARRISON,
        start,
    )
    force = state.units.at(start)
    around = ball(start, 3)[1:]
    for index, nationality, count in crowd:
        where = around[index % len(around)]
        stock = len(available(CAT, state, nationality, UnitKind.GARRISON))
        if state.units.at(where) or not stock:
            continue
        state = put(state, nationality, UnitKind.GARRISON, where, count=min(count, stock))
    reach = reachable(CAT, state, force, start, points)
    for where in reach:
        assert may_end_at(CAT, state, force, where), where
    offered = dict(land_steps(CTX, state, force, start, Fraction(points), False, player))
    assert all(may_end_at(CAT, state, force, w) for w in offered)


def check_stacks(game: Belisarius, state: BelState) -> None:
    """No hex of the map over the limit, nor a Barbarian hex holding two Regions (the
    Mutinying Guard one of them), at any moment (13.1, 13.132)."""
    cat = game.catalog
    where_of = state.units.where
    places = Counter(where_of[u] for u in state.units.in_play() if where_of[u] >= FIRST_HEX)
    crowded = {w: n for w, n in places.items() if n > LIMIT}
    assert not crowded, (crowded, state.turn, state.phase)
    regions: dict[int, set[str]] = {}
    for unit in state.units.in_play():
        where = where_of[unit]
        if where >= FIRST_HEX and controller(cat, state, unit) == BARBARIAN:
            counter = cat.counters[unit]
            regions.setdefault(where, set()).add("guard" if counter.guard else counter.nationality)
    mixed = {w: r for w, r in regions.items() if len(r) > 1}
    assert not mixed, (mixed, state.turn, state.phase)


@pytest.mark.rule("13.1", "13.132", "13.11")
@pytest.mark.parametrize("options", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=6 if DEEP else 2)
@given(seed=st.integers(0, 2**32 - 1))
def test_stacking_holds_at_every_moment_of_a_whole_game(
    scenario: int, options: str, seed: int
) -> None:
    game = belisarius(scenario, **OPTION_SETS[options])
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(20_000):
        check_stacks(game, state)
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
