"""The Operations Phase: forces, Operations Points, land moves, Forced March (13-16)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from byzantium.belisarius.components import UnitKind, force_operations_points
from byzantium.belisarius.hexmap import HexsideFeature, distance
from byzantium.belisarius.movement import land_zoc, step_cost
from byzantium.belisarius.operations import OperationsPhase, force_points
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    EMPIRE,
    BelState,
    Done,
    Place,
    Roll,
    Select,
)
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    answer,
    blank_state,
    give,
    move,
    options,
    pending_task,
    put,
    random_game,
    start,
)

RULEBOOK = "belisarius"

MAP = CAT.map
CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN}


def board() -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL)


def plain(hex_: int) -> bool:
    return (
        CAT.is_land(hex_)
        and MAP.city_at(hex_) is None
        and len(MAP.neighbours(hex_)) == 6
        and all(step_cost(CAT, board(), hex_, n) == 1 for n in MAP.neighbours(hex_))
    )


@cache
def open_line() -> tuple[int, int, int]:
    """Hexes a, b, c in a row-ish: b next to a and c, c two steps from a, all plain."""
    for a in sorted(MAP.hexes()):
        if not plain(a):
            continue
        for b in MAP.neighbours(a):
            if not plain(b):
                continue
            for c in MAP.neighbours(b):
                if distance(a, c) == 2 and plain(c):
                    return a, b, c
    raise AssertionError("no open ground")


@cache
def road() -> tuple[int, int]:
    for a in sorted(MAP.hexes()):
        for b in MAP.neighbours(a):
            if HexsideFeature.ROAD in MAP.features(a, b) and CAT.is_land(a) and CAT.is_land(b):
                return a, b
    raise AssertionError("no road")


def begin(state: BelState, where: int, roll: int) -> BelState:
    """Start the phase, pick the force at ``where``, keep it whole, roll ``roll``."""
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"force {where}"))
    state = answer(GAME, state, Done())
    return answer(GAME, state, Roll((roll,)))


@pytest.mark.rule("14.1", "3.1")
def test_done_ends_the_phase_without_moving() -> None:
    a, _, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = start(GAME, state, OperationsPhase())
    assert options(state)[0] == Done()
    assert Select(f"force {a}") in options(state)
    after = answer(GAME, state, Done())
    assert after.pending is None and after.stack == ()
    assert after.units == state.units


@pytest.mark.rule("16.21", "14.3", "14.31")
def test_a_road_step_costs_half_a_point() -> None:
    a, b = road()
    assert step_cost(CAT, board(), a, b) == Fraction(1, 2)
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = begin(state, a, 1)
    points = pending_task(state, OperationsPhase).points
    assert points == 8 + 1
    assert Place(b) in options(state)
    state = answer(GAME, state, Place(b))
    assert pending_task(state, OperationsPhase).points == points - Fraction(1, 2)
    assert pending_task(state, OperationsPhase).where == b
    assert all(state.units.where[u] == b for u in pending_task(state, OperationsPhase).force)


@pytest.mark.rule("15.2", "16.5")
def test_a_force_stops_on_entering_an_enemy_zone_of_control() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    elsewhere = road()[0]
    state = put(state, "thracia", UnitKind.GARRISON, elsewhere)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert b in zoc and a not in zoc
    state = begin(state, a, 6)
    assert Place(b) in options(state)
    state = answer(GAME, state, Place(b))
    # No step is left: the force is finished and the next force is asked for.
    # The force may still fight from there (17.25), but never step on (15.2).
    assert pending_task(state, OperationsPhase).stage == "move"
    assert not any(isinstance(o, Place) for o in options(state))
    assert len(state.units.at(b)) == 1


@pytest.mark.rule("15.21", "15.22")
def test_never_from_one_enemy_zone_of_control_straight_into_another() -> None:
    a, b, c = open_line()
    # The force starts at b, next to the enemy at c: it may leave, but only for hexes
    # out of every enemy Zone of Control.
    state = put(board(), "thracia", UnitKind.GARRISON, b)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert b in zoc
    state = begin(state, b, 6)
    places = {o.where for o in options(state) if isinstance(o, Place)}
    assert a in places
    assert places
    assert not places & zoc


@pytest.mark.rule("13.21", "13.23", "16.4")
def test_counters_left_out_form_another_force_and_none_operates_twice() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=2)
    left_out, kept = state.units.at(a)
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"force {a}"))
    state = answer(GAME, state, Select(f"drop {CAT.counters[left_out].id}"))
    assert pending_task(state, OperationsPhase).force == (kept,)
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((3,)))
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    assert state.units.where[left_out] == a and state.units.where[kept] == b
    # The counter left out before the roll forms a force of its own (13.23); the one
    # that moved may not operate again (13.21).
    assert Select(f"force {a}") in options(state)
    assert Select(f"force {b}") not in options(state)
    state = answer(GAME, state, Select(f"force {a}"))
    assert pending_task(state, OperationsPhase).force == (left_out,)
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((3,)))
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    # Both have operated: no force is left, so the phase is over.
    assert state.pending is None and state.stack == ()


@pytest.mark.rule("14.21", "21.21#2")
def test_operations_points_use_the_lowest_value_and_the_leader() -> None:
    assert force_operations_points([24, 8, 20], roll=3, stars=1) == 14
    leader = next(
        c.index
        for c in CAT.counters
        if c.nationality == "guard" and c.stars == 1 and c.index != CAT.justinian
    )
    state = move(board(), [leader], open_line()[0])
    state = put(state, "thracia", UnitKind.GARRISON, open_line()[0])
    state = put(state, "thracia", UnitKind.FIELD_ARMY, open_line()[0])
    force = state.units.at(open_line()[0])
    assert sorted(CAT.counters[u].operations for u in force) == [8, 20, 24]
    assert force_points(CTX, force, 3) == 14
    state = begin(state, open_line()[0], 3)
    assert pending_task(state, OperationsPhase).points == 14
    # Without the Leader the roll is not doubled.
    assert force_points(CTX, tuple(u for u in force if u != leader), 3) == 11


@pytest.mark.rule("16.7", "16.71", "16.72", "16.84")
def test_forced_march_attrition_then_a_new_move() -> None:
    a, b, c = open_line()
    state = give(put(board(), "thracia", UnitKind.GARRISON, a, count=2), EMPIRE, "forced-march")
    force = state.units.at(a)
    state = begin(state, a, 1)
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    assert options(state) == (Done(), Select(f"forced march {b}"))
    state = answer(GAME, state, Select(f"forced march {b}"))
    assert state.stratagems.hands[EMPIRE][CAT.stratagem("forced-march")] == 0
    state = answer(GAME, state, Roll((2,)))  # 1-3: one counter is lost
    lost = force[0]
    state = answer(GAME, state, Select(f"lose {CAT.counters[lost].id}"))
    assert state.units.where[lost] == AVAILABLE
    state = answer(GAME, state, Done())  # no further drops
    state = answer(GAME, state, Roll((4,)))
    assert pending_task(state, OperationsPhase).points == 8 + 4 and pending_task(
        state, OperationsPhase
    ).force == (force[1],)
    state = answer(GAME, state, Place(c))
    assert state.units.where[force[1]] == c


@pytest.mark.rule("16.71")
def test_forced_march_without_loss_on_four_to_six() -> None:
    a, b, _ = open_line()
    state = give(put(board(), "thracia", UnitKind.GARRISON, a, count=2), EMPIRE, "forced-march")
    force = state.units.at(a)
    state = begin(state, a, 1)
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Select(f"forced march {b}"))
    state = answer(GAME, state, Roll((5,)))
    assert (
        pending_task(state, OperationsPhase).stage == "drop"
        and pending_task(state, OperationsPhase).force == force
    )
    assert all(state.units.where[u] == b for u in force)


@pytest.mark.rule("14.0", "3.1")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_games_with_movement_still_end(seed: int) -> None:
    final, trail = random_game(GAME, seed, cap=20_000)
    assert final.ending is not None
    assert len(trail) < 10_000
    moves = [e for *_, events in trail for e in events if e.rule == "16.1"]
    assert moves
