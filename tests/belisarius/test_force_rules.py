"""Forces, Operations Points, Zones of Control and movement stated as rules (13-16).

Each test names the rules it checks; where a rule holds over many positions it is
stated as a property (Hypothesis over hexes, forces and rolls, or over whole seeded
random games), otherwise on a board built by hand.
"""

from __future__ import annotations

from functools import cache

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Retreat
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.hexmap import HexsideFeature, distance
from byzantium.belisarius.movement import land_zoc, step_cost
from byzantium.belisarius.operations import OperationsPhase, force_points
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    BelState,
    Done,
    Markers,
    Place,
    Roll,
    Select,
)
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    SCENARIOS,
    answer,
    attacks,
    belisarius,
    blank_state,
    give,
    options,
    pending_task,
    places,
    put,
    start,
    through_draws,
    trail_of,
)
from tests.belisarius.test_operations import begin, open_line, road

RULEBOOK = "belisarius"

MAP = CAT.map
CONTROL = {
    "Thracia": Control.EMPIRE,
    "Lydia": Control.EMPIRE,
    "Slavs": Control.BARBARIAN,
}


def board(phasing: int = EMPIRE) -> BelState:
    """An empty map in ``phasing``'s Operations Phase; every other Region Neutral."""
    return blank_state("operations", phasing, control=CONTROL)


# -- 13.2, 13.22: forces ------------------------------------------------------------------


@pytest.mark.rule("13.2", "13.23")
def test_three_counters_of_one_hex_may_operate_as_three_forces() -> None:
    # The example of 13.23: three units in a hex may form three one-unit forces.
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=3)
    units = state.units.at(a)
    state = start(GAME, state, OperationsPhase())
    forces: list[tuple[int, ...]] = []
    for unit in units:
        assert Select(f"force {a}") in options(state)
        state = answer(GAME, state, Select(f"force {a}"))
        for other in pending_task(state, OperationsPhase).force:
            if other != unit and len(pending_task(state, OperationsPhase).force) > 1:
                state = answer(GAME, state, Select(f"drop {CAT.counters[other].id}"))
        forces.append(pending_task(state, OperationsPhase).force)
        state = answer(GAME, state, Done())
        state = answer(GAME, state, Roll((2,)))
        state = answer(GAME, state, Place(b))
        state = answer(GAME, state, Done())
    assert forces == [(u,) for u in units]
    # Each operated on its own, and every one of them ended at b.
    assert all(state.units.where[u] == b for u in units)
    assert state.pending is None


@pytest.mark.rule("13.22", "16.1", "13.21")
@settings(max_examples=40)
@given(
    soldiers=st.integers(1, 4),
    roll=st.integers(1, 6),
    picks=st.lists(st.integers(0, 40), min_size=1, max_size=8),
)
def test_a_force_moves_as_one_and_leaves_the_others_behind(
    soldiers: int, roll: int, picks: list[int]
) -> None:
    start_hex, _ = road()
    state = put(board(), "thracia", UnitKind.GARRISON, start_hex, count=soldiers + 1)
    staying, *force = state.units.at(start_hex)
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"force {start_hex}"))
    state = answer(GAME, state, Select(f"drop {CAT.counters[staying].id}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((roll,)))
    for pick in picks:
        steps = [o for o in options(state) if isinstance(o, Place)]
        if not steps:
            break
        state = answer(GAME, state, steps[pick % len(steps)])
        here = state.units.where[force[0]]
        # Every counter of the force is where the force is; the one left out stays.
        assert {state.units.where[u] for u in force} == {here}
        assert state.units.where[staying] == start_hex
        if pending_task(state, OperationsPhase).stage != "move":
            break
        assert pending_task(state, OperationsPhase).where == here


# -- 14.11, 14.2, 14.4: Operations Points -----------------------------------------------


@pytest.mark.rule("14.11", "17.25", "15.2")
def test_a_force_moves_fights_and_moves_again_in_one_operation() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a, count=2)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    state = begin(state, a, 6)  # 20 + 6 points
    state = answer(GAME, state, Place(b))  # into the warband's zone: it must stop
    assert (
        pending_task(state, OperationsPhase).points == 25
        and not places(state)
        and attacks(state) == {c}
    )
    state = answer(GAME, state, Select(f"attack {c}"))
    state = answer(GAME, state, Select("stand"))
    state = answer(GAME, state, Select("assault"))
    state = through_draws(answer(GAME, state, Roll((6,))))  # 8 against 3: 2/1, a 6: DE
    assert not state.units.at(c)
    # The zone is gone with its unit, so the force moves on with what is left.
    assert (
        pending_task(state, OperationsPhase).stage == "move"
        and pending_task(state, OperationsPhase).points == 21
    )
    assert c in places(state)
    state = answer(GAME, state, Place(c))
    assert (
        pending_task(state, OperationsPhase).where == c
        and pending_task(state, OperationsPhase).points == 20
    )


def _forces_roll_before_acting(scenario: int, seed: int) -> tuple[int, int]:
    _, trail = trail_of(scenario, seed)
    rolled = True
    forces = acts = 0
    for *_, events in trail:
        for event in events:
            if event.kind == "force":
                rolled = False
                forces += 1
            elif event.rule == "14.21":
                rolled = True
            elif event.kind in {"move", "attack"}:
                assert rolled, f"{event} before the force's Operations Points roll"
                acts += 1
    return forces, acts


@pytest.mark.rule("14.2", "14.21", "14.1")
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_force_rolls_its_operations_points_before_it_acts(scenario: int, seed: int) -> None:
    forces, acts = _forces_roll_before_acting(scenario, seed)
    assert forces and acts


@pytest.mark.rule("14.2", "14.21")
@given(
    roll=st.integers(1, 6),
    garrisons=st.integers(0, 3),
    armies=st.integers(0, 2),
    guards=st.integers(0, 3),
)
def test_a_forces_points_are_its_lowest_operations_value_plus_its_roll(
    roll: int, garrisons: int, armies: int, guards: int
) -> None:
    where = open_line()[0]
    state = board()
    for nationality, kind, count in (
        ("thracia", UnitKind.GARRISON, garrisons),
        ("thracia", UnitKind.FIELD_ARMY, armies),
        ("guard", UnitKind.GUARD, guards),
    ):
        if count:
            state = put(state, nationality, kind, where, count=count)
    force = state.units.at(where)
    if not force:
        return
    lowest = min(CAT.counters[u].operations for u in force)
    assert force_points(CTX, force, roll) == lowest + roll
    state = begin(state, where, roll)
    assert pending_task(state, OperationsPhase).points == lowest + roll


@pytest.mark.rule("14.4")
@given(first=st.integers(1, 6), second=st.integers(1, 6), steps=st.integers(0, 2))
def test_unused_points_are_lost_and_never_pass_to_the_next_force(
    first: int, second: int, steps: int
) -> None:
    a, b, c = open_line()
    other = road()[0]
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "thracia", UnitKind.GARRISON, other)
    state = begin(state, a, first)
    for hex_ in (b, c)[:steps]:
        state = answer(GAME, state, Place(hex_))
    left = pending_task(state, OperationsPhase).points
    assert left == 8 + first - steps > 0
    state = answer(GAME, state, Done())
    # The first force is finished with points left over; the next force starts from
    # its own roll only.
    assert (
        pending_task(state, OperationsPhase).stage == "pick"
        and pending_task(state, OperationsPhase).points == 0
    )
    state = answer(GAME, state, Select(f"force {other}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((second,)))
    assert pending_task(state, OperationsPhase).points == 8 + second
    # Both forces have operated: the phase is over, nothing carried anywhere.
    assert answer(GAME, state, Done()).pending is None


# -- 15.0, 15.2, 15.31, 15.32: Zones of Control ------------------------------------------------


@cache
def _inland() -> tuple[int, ...]:
    """Land hexes with six land neighbours and no all-sea hexside."""
    return tuple(
        h
        for h in sorted(MAP.hexes())
        if CAT.is_land(h)
        and len(MAP.neighbours(h)) == 6
        and all(
            CAT.is_land(n) and HexsideFeature.SEA not in MAP.features(h, n)
            for n in MAP.neighbours(h)
        )
    )


@pytest.mark.rule("15.0", "15.11")
@settings(max_examples=60)
@given(where=st.sampled_from(_inland()), side=st.sampled_from([EMPIRE, BARBARIAN]))
def test_a_zone_of_control_is_the_six_hexes_around_a_unit(where: int, side: int) -> None:
    if side == EMPIRE:
        state = put(board(), "thracia", UnitKind.GARRISON, where)
    else:
        state = put(board(), "slavs", UnitKind.WARBAND, where)
    assert land_zoc(CAT, state, 1 - side) == frozenset(MAP.neighbours(where))
    assert land_zoc(CAT, state, side) == frozenset()


@pytest.mark.rule("15.31", "17.23")
def test_a_force_in_an_enemy_zone_need_not_attack() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, b)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    (enemy,) = state.units.at(c)
    state = begin(state, b, 6)
    assert b in land_zoc(CAT, state, EMPIRE)
    assert Done() in options(state) and c in attacks(state)
    state = answer(GAME, state, Done())
    # No battle: the force is done (and the phase with it), the enemy untouched.
    assert state.pending is None
    assert state.units.where[enemy] == c and len(state.units.at(b)) == 1
    assert state.units.at(a) == ()


def _stopped_forces_stay(scenario: int, seed: int) -> int:
    """Walk a random game; a force that entered an enemy zone is never offered a step
    into a hex while an enemy zone still holds its hex, until it rolls again (a step
    into its own box is, 18.211). Returns how many
    such positions were met."""
    game = belisarius(scenario)
    _, trail = trail_of(scenario, seed)
    stopped = False
    checked = 0
    for state, _, _, events in trail:
        request = state.pending
        if stopped and request is not None and isinstance(request.task, OperationsPhase):
            ops = request.task
            if ops.stage == "move" and ops.where >= FIRST_HEX:
                zone = land_zoc(game.catalog, state, request.player)
                if ops.where in zone:
                    checked += 1
                    # Only its own Peripheral Area box stays open (18.211).
                    hexes = [o for o in request.options if isinstance(o, Place)]
                    assert all(o.where < FIRST_HEX for o in hexes), ops
        for event in events:
            if event.kind == "zoc":
                stopped = True
            elif event.kind == "force" or event.rule == "14.21":
                stopped = False
    return checked


@pytest.mark.rule("15.2", "16.5")
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_in_random_games_a_force_stopped_by_a_zone_never_moves_on(scenario: int, seed: int) -> None:
    _stopped_forces_stay(scenario, seed)


@pytest.mark.rule("15.2", "17.25")
def test_a_force_stopped_by_a_zone_stays_stopped_after_a_battle_that_leaves_the_zone() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    state = begin(state, a, 6)  # 8 + 6 = 14
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Select(f"attack {c}"))
    state = answer(GAME, state, Select("stand"))
    state = answer(GAME, state, Select("assault"))
    state = answer(GAME, state, Roll((1,)))  # 5 against 3: 1.5/1, a 1 is AD
    loser = state.units.at(b)[0]
    state = answer(GAME, state, Select(f"lose {CAT.counters[loser].id}"))
    # The warband is still there: the force may fight again or stop, never step on.
    assert state.units.at(c) and b in land_zoc(CAT, state, EMPIRE)
    assert pending_task(state, OperationsPhase).points == 13 - 4
    assert not places(state)
    assert options(state) == (Done(), Select(f"attack {c}"))


@cache
def _surrounded() -> tuple[int, tuple[int, ...]]:
    """An open hex and the ring two hexes out."""
    centre = open_line()[1]
    ring = tuple(
        sorted(
            h for n in MAP.neighbours(centre) for h in MAP.neighbours(n) if distance(h, centre) == 2
        )
    )
    return centre, ring


@pytest.mark.rule("15.32", "17.9")
@pytest.mark.parametrize("gap", [False, True])
def test_a_retreat_with_only_enemy_zones_to_enter_eliminates_the_force(gap: bool) -> None:
    centre, ring = _surrounded()
    state = put(board(BARBARIAN), "slavs", UnitKind.WARBAND, centre, count=2)
    fleeing = state.units.at(centre)
    # Empire garrisons on the ring two hexes out: every neighbour is in their zones.
    spots = list(ring)
    if gap:
        # Leave the hexes around one neighbour empty: it is the one way out.
        way_out = MAP.neighbours(centre)[0]
        spots = [h for h in spots if distance(h, way_out) > 1]
    stock = ["thracia"] * 8 + ["lydia"] * 10
    for spot, nationality in zip(spots, stock, strict=False):
        state = put(state, nationality, UnitKind.GARRISON, spot)
    zone = land_zoc(CAT, state, BARBARIAN)
    free = [n for n in MAP.neighbours(centre) if n not in zone]
    state = start(GAME, state, Retreat(BARBARIAN, fleeing, 1, "17.9"))
    if gap:
        assert free == [MAP.neighbours(centre)[0]]
        assert options(state) == (Place(free[0]),)
        state = answer(GAME, state, Place(free[0]))
        assert all(state.units.where[u] == free[0] for u in fleeing)
    else:
        assert not free
        assert state.pending is None
        assert all(state.units.where[u] == AVAILABLE for u in fleeing)


@cache
def _city_beside_a_field() -> tuple[int, int, int, int]:
    """Tolosa (a City) with: the hex the stack retreats from, an enemy next to the City,
    and an open hex next to that enemy too (both within the stack's reach)."""
    city_hex = MAP.city("Tolosa").hex
    for here in MAP.neighbours(city_hex):
        for open_hex in MAP.neighbours(here):
            if open_hex == city_hex or distance(open_hex, city_hex) != 1:
                continue
            for enemy in MAP.neighbours(city_hex):
                if (
                    enemy not in (here, open_hex)
                    and distance(enemy, open_hex) == 1
                    and distance(enemy, here) > 1
                ):
                    return city_hex, here, open_hex, enemy
    raise AssertionError("no such hexes round Tolosa")


@pytest.mark.rule("15.32", "15.12#2", "17.9")
def test_friends_shelter_a_retreat_from_a_zone_only_inside_a_city() -> None:
    city_hex, here, open_hex, enemy = _city_beside_a_field()
    control = {"Franks": Control.BARBARIAN, "Thracia": Control.EMPIRE}
    state = blank_state("operations", EMPIRE, control=control)
    state = put(state, "franks", UnitKind.WARBAND, here)
    state = put(state, "franks", UnitKind.GARRISON, city_hex)
    state = put(state, "franks", UnitKind.GARRISON, open_hex)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, enemy)
    fleeing = (state.units.at(here)[0],)
    zone = land_zoc(CAT, state, BARBARIAN)
    assert open_hex in zone and city_hex not in zone
    state = start(GAME, state, Retreat(BARBARIAN, fleeing, 1, "17.9"))
    offered = places(state)
    assert city_hex in offered and open_hex not in offered


# -- 16.34: markers -------------------------------------------------------------------------


@pytest.mark.rule("16.34")
@settings(max_examples=80)
@given(
    where=st.sampled_from(sorted(h for h in MAP.hexes() if CAT.is_land(h))),
    marker=st.sampled_from(["pillaged", "colonies", "works"]),
)
def test_a_marker_never_closes_a_hex_to_movement(where: int, marker: str) -> None:
    plain = board()
    marked = attrs.evolve(plain, markers=attrs.evolve(Markers(), **{marker: frozenset({where})}))
    for other in MAP.neighbours(where):
        before = step_cost(CAT, plain, other, where)
        after = step_cost(CAT, marked, other, where)
        assert (before is None) == (after is None), (other, where)


@pytest.mark.rule("16.34", "16.1", "27.31")
@pytest.mark.parametrize("marker", ["pillaged", "colonies"])
def test_a_force_steps_into_a_pillaged_hex_or_a_colony(marker: str) -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = attrs.evolve(state, markers=attrs.evolve(Markers(), **{marker: frozenset({b})}))
    state = begin(state, a, 1)
    assert b in places(state)
    state = answer(GAME, state, Place(b))
    assert pending_task(state, OperationsPhase).where == b
    cost = CAT.components.terrain_type("city").movement if marker == "colonies" else 1
    assert cost is not None and pending_task(state, OperationsPhase).points == 9 - cost


# -- 16.73: re-forming before a Forced March --------------------------------------------------


def _marched_into_friends() -> tuple[BelState, int, tuple[int, ...], tuple[int, ...], int]:
    """A one-garrison force has moved from a into b, where two garrisons already stand
    (the first of them has operated this phase); the player holds a Forced March
    marker, and has one more garrison elsewhere."""
    a, b, _ = open_line()
    elsewhere = road()[0]
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "thracia", UnitKind.GARRISON, b, count=2)
    state = put(state, "thracia", UnitKind.GARRISON, elsewhere)
    state = give(state, EMPIRE, "forced-march")
    force = state.units.at(a)
    waiting = state.units.at(b)
    state = start(GAME, state, OperationsPhase(used=(waiting[0],)))
    state = answer(GAME, state, Select(f"force {a}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((1,)))
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Select(f"forced march {b}"))
    return state, b, force, waiting, elsewhere


@pytest.mark.rule("16.73", "16.7", "16.71")
def test_a_forced_march_may_take_along_any_friendly_counters_of_the_hex() -> None:
    state, b, force, waiting, elsewhere = _marched_into_friends()
    # Every other friendly counter in the hex may join, operated or not (16.73's
    # example: the newly arrived and those that were there before).
    assert options(state) == (
        Done(),
        *(Select(f"join {CAT.counters[u].id}") for u in waiting),
    )
    for unit in waiting:
        state = answer(GAME, state, Select(f"join {CAT.counters[unit].id}"))
    assert pending_task(state, OperationsPhase).force == tuple(sorted((*force, *waiting)))
    # The attrition roll then falls on the re-formed force (16.71).
    assert state.pending is not None and state.pending.rule == "16.71"
    state = answer(GAME, state, Roll((3,)))
    lost = waiting[1]
    assert Select(f"lose {CAT.counters[lost].id}") in options(state)
    state = answer(GAME, state, Select(f"lose {CAT.counters[lost].id}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((2,)))
    assert pending_task(state, OperationsPhase).force == tuple(sorted((*force, waiting[0])))
    assert (
        pending_task(state, OperationsPhase).points == 8 + 2
        and pending_task(state, OperationsPhase).where == b
    )
    # Whoever took part has operated: none may form a force again this phase.
    state = answer(GAME, state, Done())
    assert pending_task(state, OperationsPhase).stage == "pick"
    assert options(state) == (Done(), Select(f"force {elsewhere}"))


@pytest.mark.rule("16.73", "13.23")
def test_counters_left_out_of_a_forced_march_stay_and_may_still_operate() -> None:
    state, b, force, waiting, elsewhere = _marched_into_friends()
    operated, fresh = waiting
    state = answer(GAME, state, Select(f"join {CAT.counters[operated].id}"))
    state = answer(GAME, state, Done())  # go with what has joined
    state = answer(GAME, state, Roll((6,)))  # no attrition
    assert pending_task(state, OperationsPhase).force == tuple(sorted((*force, operated)))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((1,)))
    c = open_line()[2]
    state = answer(GAME, state, Place(c))
    state = answer(GAME, state, Done())
    assert state.units.where[fresh] == b
    assert all(state.units.where[u] == c for u in (*force, operated))
    # The counter left out has not operated: it may still form a force of its own.
    assert pending_task(state, OperationsPhase).stage == "pick"
    assert set(options(state)) == {Done(), Select(f"force {b}"), Select(f"force {elsewhere}")}


@pytest.mark.rule("16.73", "16.72")
def test_a_forced_march_offers_no_re_forming_when_the_force_is_alone() -> None:
    a, b, _ = open_line()
    state = give(put(board(), "thracia", UnitKind.GARRISON, a), EMPIRE, "forced-march")
    state = begin(state, a, 1)
    state = answer(GAME, state, Place(b))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Select(f"forced march {b}"))
    assert state.pending is not None and state.pending.rule == "16.71"
    assert pending_task(state, OperationsPhase).force == state.units.at(b)
