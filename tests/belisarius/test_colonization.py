"""Colonization (optional rules 27.0-27.6, 10.34, 15.4, 18.0#2, 4.41) and what a Colony does."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.battle import fortified
from byzantium.belisarius.components import Operation, SolidusItem, UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.movement import step_cost
from byzantium.belisarius.naval import is_port
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.recruiting import fleet_may_go, regional_sites
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.special import (
    COLONIZE,
    PILLAGE,
    ColonizationOperation,
    colonists,
    colonization_column,
    colonization_points,
    colonization_succeeds,
    may_colonize,
    special_items,
)
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelState,
    Markers,
    Place,
    Roll,
    Select,
)
from byzantium.belisarius.taxation import city_value, paying_cities
from byzantium.belisarius.world import (
    enemy_zoc,
    functioning_city,
    occupied_cities,
    region_controller,
)
from tests.belisarius.support import (
    CAT,
    GAME,
    answer,
    blank_state,
    check_invariants,
    context,
    move,
    options,
    pending_task,
    put,
    random_game,
    start,
)
from tests.belisarius.test_pillage import (
    SCTX,
    SPECIAL,
    THRACIA,
    begin,
    board,
    leader,
    sea_hex,
)

RULEBOOK = "belisarius"

MAP = CAT.map
COST = CAT.components.operation_cost(Operation.COLONIZATION)
PRICE = CAT.components.solidus_points(SolidusItem.COLONIZATION)
CITY_HEXES = frozenset(CAT.cities)


def plain_site(hex_: int) -> bool:
    """Clear land, no City on it or next to it."""
    return (
        CAT.is_land(hex_)
        and MAP.terrain_at(hex_) is Terrain.CLEAR
        and hex_ not in CITY_HEXES
        and not any(n in CITY_HEXES for n in MAP.neighbours(hex_))
    )


@cache
def site() -> tuple[int, int, int]:
    """A colonization site of Thracia, a clear neighbour b and a clear hex c two steps
    away through b (both fit for a Colony while a is bare)."""
    for a in CAT.region_land[THRACIA]:
        if not plain_site(a) or len(MAP.neighbours(a)) < 6:
            continue
        for b in MAP.neighbours(a):
            if not plain_site(b) or step_cost(CAT, board(), a, b) != 1:
                continue
            for c in MAP.neighbours(b):
                if c != a and c not in MAP.neighbours(a) and plain_site(c):
                    return a, b, c
    raise AssertionError("no colonization site")


@cache
def coastal_site() -> int:
    """A coastal Thracian hex fit for a Colony."""
    return next(
        h
        for h in CAT.region_coast[THRACIA]
        if hex_fit(h) and MAP.terrain_at(h) is not Terrain.DESERT
    )


def hex_fit(hex_: int) -> bool:
    return hex_ not in CITY_HEXES and not any(n in CITY_HEXES for n in MAP.neighbours(hex_))


# -- the table -----------------------------------------------------------------------------


@pytest.mark.rule("27.1")
def test_colonization_points_count_leaders_and_read_the_column() -> None:
    garrisons = tuple(CAT.of_nationality("thracia", UnitKind.GARRISON))[:2]
    armies = tuple(CAT.of_nationality("thracia", UnitKind.FIELD_ARMY))[:1]
    hordes = tuple(CAT.of_nationality("slavs", UnitKind.NOMAD_HORDE))[:1]
    types = CAT.unit_types
    value = types[UnitKind.GARRISON].colonization * 2 + types[UnitKind.LEADER].colonization
    assert colonization_points(CAT, (*garrisons, leader())) == value
    assert colonization_points(CAT, armies) == types[UnitKind.FIELD_ARMY].colonization
    # A force worth nothing has no column.
    assert types[UnitKind.NOMAD_HORDE].colonization == 0
    assert colonization_column(CAT, colonization_points(CAT, hordes)) is None
    row = colonization_column(CAT, 3)
    assert row is not None and row.low <= 3 <= row.high
    assert [colonization_succeeds(CAT, 3, r) for r in range(1, 7)] == list(row.results)


@pytest.mark.rule("27.6")
def test_only_units_settle_never_leaders() -> None:
    garrison = next(CAT.of_nationality("thracia", UnitKind.GARRISON))
    assert colonists(CAT, (leader(), garrison)) == (garrison,)
    assert colonists(CAT, (leader(),)) == ()


# -- the operation ---------------------------------------------------------------------------


@pytest.mark.rule("27.0", "27.1", "27.22", "10.34", "27.6", "14.3")
def test_a_colony_is_paid_for_first_then_settled_by_a_unit_of_the_players_choice() -> None:
    a, _, _ = site()
    state = move(put(board(), "thracia", UnitKind.GARRISON, a, count=2), [leader()], a)
    garrisons = [u for u in state.units.at(a) if u != leader()]
    state = begin(state, a, 6)
    points = pending_task(state, OperationsPhase).points
    assert Select(COLONIZE) in options(state)
    state = answer(SPECIAL, state, Select(COLONIZE))
    # Paid before the die (27.22).
    assert state.solidus[EMPIRE] == 10 - PRICE
    assert state.pending is not None and state.pending.rule == "27.1"
    total = colonization_points(CAT, (*garrisons, leader()))
    roll = next(r for r in range(1, 7) if colonization_succeeds(CAT, total, r))
    state = answer(SPECIAL, state, Roll((roll,)))
    assert a in state.markers.colonies
    # The player picks the settler among the units, the Leader excluded (27.6).
    assert state.pending is not None and state.pending.rule == "27.6"
    assert options(state) == tuple(Select(f"lose {CAT.counters[u].id}") for u in garrisons)
    state = answer(SPECIAL, state, Select(f"lose {CAT.counters[garrisons[1]].id}"))
    assert state.units.where[garrisons[1]] == AVAILABLE
    assert set(pending_task(state, OperationsPhase).force) == {garrisons[0], leader()}
    assert pending_task(state, OperationsPhase).points == points - COST
    assert Select(COLONIZE) not in options(state)
    assert state.solidus[EMPIRE] == 10 - PRICE


@pytest.mark.rule("27.22", "27.1")
def test_a_failed_colonization_loses_the_solidus_but_no_unit() -> None:
    a, _, _ = site()
    state = begin(put(board(), "thracia", UnitKind.GARRISON, a, count=2), a, 6)
    force = pending_task(state, OperationsPhase).force
    points = pending_task(state, OperationsPhase).points
    total = colonization_points(CAT, force)
    roll = next(r for r in range(1, 7) if not colonization_succeeds(CAT, total, r))
    state = answer(SPECIAL, state, Select(COLONIZE))
    state = answer(SPECIAL, state, Roll((roll,)))
    assert state.markers.colonies == frozenset()
    assert state.solidus[EMPIRE] == 10 - PRICE
    assert (
        pending_task(state, OperationsPhase).force == force
        and pending_task(state, OperationsPhase).points == points - COST
    )


@pytest.mark.rule("27.6", "14.1")
def test_a_lone_unit_settles_its_colony_and_the_force_is_over() -> None:
    a, _, _ = site()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    (army,) = state.units.at(a)
    state = begin(state, a, 6)
    state = answer(SPECIAL, state, Select(COLONIZE))
    state = answer(SPECIAL, state, Roll((6,)))
    assert a in state.markers.colonies
    assert state.units.where[army] == AVAILABLE
    # Nothing is left to operate: the phase is over.
    assert state.pending is None


@pytest.mark.rule("14.11", "27.1", "26.1", "16.1")
def test_move_colonize_then_move_and_pillage_in_one_operation() -> None:
    a, b, c = site()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=3)
    state = move(state, [leader()], a)
    state = begin(state, a, 6)  # 8 + 2 x 6 = 20 points
    state = answer(SPECIAL, state, Place(b))
    state = answer(SPECIAL, state, Select(COLONIZE))
    state = answer(SPECIAL, state, Roll((6,)))
    state = answer(SPECIAL, state, options(state)[0])  # the settler
    assert b in state.markers.colonies
    assert pending_task(state, OperationsPhase).points == 20 - 1 - COST
    state = answer(SPECIAL, state, Place(c))
    # c is next to the new Colony: no Colonization there, but Pillage is fine.
    assert Select(COLONIZE) not in options(state)
    assert Select(PILLAGE) in options(state)
    state = answer(SPECIAL, state, Select(PILLAGE))
    state = answer(SPECIAL, state, Roll((6,)))
    assert c in state.markers.pillaged


# -- restrictions ----------------------------------------------------------------------------


@pytest.mark.rule("27.2", "15.4", "18.0#2")
def test_colonization_restrictions() -> None:
    a, b, c = site()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=2)
    force = state.units.at(a)
    assert may_colonize(CAT, state, force, a)

    def with_markers(**kinds: frozenset[int]) -> BelState:
        return attrs.evolve(state, markers=Markers(**kinds))

    assert not may_colonize(CAT, with_markers(colonies=frozenset({a})), force, a)
    assert not may_colonize(CAT, with_markers(colonies=frozenset({b})), force, a)
    assert not may_colonize(CAT, with_markers(pillaged=frozenset({a})), force, a)
    assert may_colonize(CAT, with_markers(pillaged=frozenset({b})), force, a)
    # A City hex, and a hex next to one.
    town = CAT.region_cities[THRACIA][0]
    near = next(n for n in MAP.neighbours(town) if CAT.is_land(n) and n not in CITY_HEXES)
    for where in (town, near):
        there = move(state, force, where)
        assert not may_colonize(CAT, there, force, where)
    # An enemy Zone of Control (15.4).
    enemy = put(state, "slavs", UnitKind.WARBAND, b)
    assert a in enemy_zoc(CAT, enemy, EMPIRE)
    assert not may_colonize(CAT, enemy, force, a)
    # Leaders alone have nobody to settle (27.6).
    alone = move(board(), [leader()], a)
    assert not may_colonize(CAT, alone, (leader(),), a)
    del c


@pytest.mark.rule("27.2", "18.0#2", "19.2")
def test_no_colony_in_a_desert_at_sea_or_in_a_box() -> None:
    desert = next(
        h
        for h in sorted(MAP.hexes())
        if MAP.terrain_at(h) is Terrain.DESERT and hex_fit(h) and not MAP.is_coastal(h)
    )
    garrison = next(CAT.of_nationality("thracia", UnitKind.GARRISON))
    state = move(board(), [garrison], desert)
    assert not may_colonize(CAT, state, (garrison,), desert)
    # The same garrison may colonize a clear hex (the desert alone forbids it).
    assert may_colonize(CAT, move(board(), [garrison], site()[0]), (garrison,), site()[0])
    fleet = next(CAT.of_nationality("thracia", UnitKind.FLEET))
    at_sea = move(board(), [fleet], sea_hex())
    assert not may_colonize(CAT, at_sea, (fleet,), sea_hex())
    # A Fleet on a coastal hex may (19.2).
    coast = move(board(), [fleet], coastal_site())
    assert may_colonize(CAT, coast, (fleet,), coastal_site())
    persia = blank_state("operations", EMPIRE, control={"Persia": Control.EMPIRE}, game=SPECIAL)
    box = 1 + next(i for i, p in enumerate(CAT.peripherals) if p.name == "Persia")
    persia = put(persia, "persia", UnitKind.GARRISON, box)
    assert not may_colonize(CAT, persia, persia.units.at(box), box)


@pytest.mark.rule("27.22", "10.34", "14.31", "27.0")
def test_colonization_needs_its_option_points_and_solidus() -> None:
    a, _, _ = site()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=2)
    force = state.units.at(a)
    assert Select(COLONIZE) in special_items(SCTX, state, force, a, COST)
    assert Select(COLONIZE) not in special_items(SCTX, state, force, a, COST - Fraction(1, 2))
    poor = attrs.evolve(state, solidus=(PRICE - 1, 10))
    assert Select(COLONIZE) not in special_items(SCTX, poor, force, a, Fraction(30))
    assert special_items(context(GAME), state, force, a, Fraction(30)) == []


@given(
    st.sampled_from(sorted(h for h in MAP.hexes() if CAT.is_land(h))),
    st.lists(st.sampled_from(sorted(MAP.hexes())), max_size=12, unique=True),
    st.lists(st.sampled_from(sorted(MAP.hexes())), max_size=12, unique=True),
    st.lists(st.sampled_from(sorted(MAP.hexes())), max_size=6, unique=True),
)
@pytest.mark.rule("27.2", "15.4")
def test_colonization_is_allowed_exactly_where_27_2_does_not_forbid_it(
    here: int, colonies: list[int], pillaged: list[int], enemies: list[int]
) -> None:
    markers = Markers(pillaged=frozenset(pillaged), colonies=frozenset(colonies) - {here})
    state = attrs.evolve(board(), markers=markers)
    state = put(state, "thracia", UnitKind.GARRISON, here)
    warbands = list(CAT.of_nationality("slavs", UnitKind.WARBAND))
    for unit, spot in zip(warbands, [h for h in enemies if h != here], strict=False):
        state = move(state, [unit], spot)
    cities = CITY_HEXES | markers.colonies
    expected = (
        here not in cities
        and not any(n in cities for n in MAP.neighbours(here))
        and here not in markers.pillaged
        and MAP.terrain_at(here) is not Terrain.DESERT
        and here not in enemy_zoc(CAT, state, EMPIRE)
    )
    assert may_colonize(CAT, state, state.units.at(here), here) == expected


# -- what a Colony does ----------------------------------------------------------------------


@pytest.mark.rule("27.31", "27.33", "27.4", "10.11", "20.1")
def test_a_colony_works_as_a_city_and_a_coastal_one_as_a_port() -> None:
    spot = coastal_site()
    inland, _, _ = site()
    state = attrs.evolve(board(), markers=Markers(colonies=frozenset({spot, inland})))
    state = put(state, "thracia", UnitKind.GARRISON, spot)
    assert functioning_city(CAT, state, spot) and is_port(CAT, state, spot)
    assert functioning_city(CAT, state, inland) and not is_port(CAT, state, inland)
    assert fleet_may_go(CAT, state, spot)
    assert city_value(CAT, state, spot) == CAT.components.solidus_points(SolidusItem.COLONY)
    assert spot in paying_cities(CAT, state, EMPIRE, THRACIA, pillage=True)
    assert spot in regional_sites(CAT, state, EMPIRE, THRACIA)
    town = next(h for h in CAT.region_cities[THRACIA] if h != CAT.capital)
    assert CAT.forage(spot, state.markers) == MAP.forage(town)
    assert fortified(CAT, state, spot)
    city_cost = CAT.components.terrain_type("city").movement
    neighbour = next(n for n in MAP.neighbours(inland) if CAT.is_land(n))
    roads = {CAT.components.hexside("road").movement, CAT.components.hexside("pass").movement}
    assert step_cost(CAT, state, neighbour, inland) in {city_cost, *roads}


@pytest.mark.rule("27.4", "27.31", "5.1")
def test_a_colony_pays_whoever_occupies_it() -> None:
    a, _, _ = site()
    state = attrs.evolve(board(), markers=Markers(colonies=frozenset({a})))
    empire = put(state, "thracia", UnitKind.GARRISON, a)
    assert a in occupied_cities(CAT, empire, EMPIRE)
    assert a in paying_cities(CAT, empire, EMPIRE, THRACIA, pillage=True)
    barbarian = put(state, "slavs", UnitKind.WARBAND, a)
    assert a not in occupied_cities(CAT, barbarian, EMPIRE)
    assert a in paying_cities(CAT, barbarian, BARBARIAN, THRACIA, pillage=True)
    # The Colony's Zone of Control exception follows the occupier too (15.12#2).
    neighbour = MAP.neighbours(a)[0]
    barbarian = put(barbarian, "thracia", UnitKind.GARRISON, neighbour)
    assert a not in enemy_zoc(CAT, barbarian, BARBARIAN)


@pytest.mark.rule("4.41", "27.0")
def test_colonizing_in_a_neutral_region_gives_it_to_the_other_player() -> None:
    a, _, _ = site()
    state = blank_state("operations", EMPIRE, control={}, solidus=10, game=SPECIAL)
    guard = tuple(CAT.of_nationality("guard", UnitKind.GUARD))[:2]
    state = move(state, guard, a)
    assert region_controller(state, THRACIA) == NOBODY
    state = start(SPECIAL, state, ColonizationOperation(guard, a, Fraction(10), task_stub()))
    assert region_controller(state, THRACIA) == BARBARIAN
    assert state.solidus[EMPIRE] == 10 - PRICE


def task_stub() -> OperationsPhase:
    """The operating task a Special Operation goes back to."""
    return OperationsPhase(stage="move")


@pytest.mark.rule("27.6")
def test_colony_markers_have_no_limit() -> None:
    a, _, _ = site()
    many = frozenset(h for h in sorted(MAP.hexes()) if CAT.is_land(h) and hex_fit(h))
    many = frozenset(h for h in many if a not in MAP.neighbours(h) and h != a)
    state = attrs.evolve(board(), markers=Markers(colonies=many))
    state = put(state, "thracia", UnitKind.GARRISON, a, count=2)
    force = state.units.at(a)
    if not may_colonize(CAT, state, force, a):
        pytest.skip("the chosen site lies next to another")
    state = start(SPECIAL, state, ColonizationOperation(force, a, Fraction(10), task_stub()))
    state = answer(SPECIAL, state, Roll((6,)))
    assert state.markers.colonies == many | {a}
    assert len(state.markers.colonies) > 50


def colony_invariants(game: Belisarius, state: BelState) -> None:
    """What 27.2 and 27.311 keep true of every Colony, besides the usual invariants."""
    check_invariants(game, state)
    colonies = state.markers.colonies
    assert not colonies & state.markers.pillaged
    for hex_ in colonies:
        assert CAT.is_land(hex_) and MAP.terrain_at(hex_) is not Terrain.DESERT
        assert hex_ not in CITY_HEXES
        assert not any(n in CITY_HEXES or n in colonies for n in MAP.neighbours(hex_))


@pytest.mark.rule("26.0", "27.0", "27.2", "27.311", "14.11")
@pytest.mark.parametrize("seed", [0])
def test_random_games_with_special_operations_keep_colonies_legal(seed: int) -> None:
    final, trail = random_game(SPECIAL, seed, check=colony_invariants, cap=40_000)
    assert final.ending is not None
    rules = {e.rule for *_, events in trail for e in events}
    assert {"26.1", "27.1", "27.22"} <= rules
