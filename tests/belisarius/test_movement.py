"""Land movement of a force (13.1, 15.2, 16.1-16.5, 18.2): costs and reachable places."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.hexmap import HexsideFeature, Terrain, distance
from byzantium.belisarius.movement import (
    box_entry_hexes,
    exceeds_stacking,
    land_zoc,
    may_end_at,
    reachable,
    step_cost,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import EMPIRE, FIRST_HEX, BelState
from tests.belisarius.support import CAT, blank_state, put

RULEBOOK = "belisarius"

HALF = Fraction(1, 2)
MAP = CAT.map
CONTROL = {
    "Thracia": Control.EMPIRE,
    "Lydia": Control.EMPIRE,
    "Slavs": Control.BARBARIAN,
    "Ostrogoths": Control.BARBARIAN,
    "Persia": Control.BARBARIAN,
    "Armenia": Control.BARBARIAN,
}


def board() -> BelState:
    """Empty map, Empire's Operations Phase; Achaea (among others) stays Neutral."""
    return blank_state("operations", EMPIRE, control=CONTROL)


def units_at(state: BelState, where: int) -> tuple[int, ...]:
    return state.units.at(where)


def ground(hex_: int) -> Fraction:
    cost = CAT.components.terrain_type(MAP.terrain_at(hex_).value).movement
    assert cost is not None
    return cost


def plain(hex_: int) -> bool:
    """A land hex of a Region with no City, no hexside features and clear ground."""
    return (
        MAP.terrain_at(hex_) is Terrain.CLEAR
        and MAP.city_at(hex_) is None
        and CAT.region_of_hex(hex_) >= 0
        and len(MAP.neighbours(hex_)) == 6
        and not any(MAP.features(hex_, n) for n in MAP.neighbours(hex_))
    )


@cache
def ball(centre: int, radius: int) -> tuple[int, ...]:
    """The on-map hexes within ``radius`` steps of ``centre``, nearest first."""
    found = [centre]
    seen = {centre}
    edge = [centre]
    for _ in range(radius):
        step: list[int] = []
        for h in edge:
            for n in MAP.neighbours(h):
                if n not in seen:
                    seen.add(n)
                    step.append(n)
        edge = step
        found.extend(edge)
    return tuple(found)


@cache
def open_country() -> int:
    """A hex whose whole three-hex neighbourhood is plain (no roads, rivers, cities)."""
    flat = {h for h in MAP.hexes() if plain(h)}
    for hex_ in sorted(flat):
        around = ball(hex_, 3)
        if len(around) == 37 and all(h in flat for h in around):
            return hex_
    raise AssertionError("no open country on the map")


def ring(centre: int, radius: int) -> list[int]:
    return [h for h in ball(centre, radius) if distance(h, centre) == radius]


# -- costs of single steps ----------------------------------------------------------------


@pytest.mark.rule("16.1")
def test_a_plain_step_costs_the_ground_line() -> None:
    state = board()
    start = open_country()
    for other in MAP.neighbours(start):
        assert step_cost(CAT, state, start, other) == ground(other) == 1


@pytest.mark.rule("16.1", "27.31")
def test_cities_and_colonies_use_the_city_line() -> None:
    state = board()
    city_cost = CAT.components.terrain_type("city").movement
    rough = next(
        h
        for h in MAP.hexes()
        if MAP.terrain_at(h) is Terrain.ROUGH
        and MAP.city_at(h) is None
        and any(
            MAP.is_land(n) and not MAP.features(h, n) and MAP.terrain_at(n) is Terrain.CLEAR
            for n in MAP.neighbours(h)
        )
    )
    source = next(
        n
        for n in MAP.neighbours(rough)
        if MAP.is_land(n) and not MAP.features(rough, n) and MAP.terrain_at(n) is Terrain.CLEAR
    )
    assert step_cost(CAT, state, source, rough) == ground(rough) == 2
    colonised = attrs.evolve(
        state, markers=attrs.evolve(state.markers, colonies=frozenset({rough}))
    )
    assert step_cost(CAT, colonised, source, rough) == city_cost
    colonised = put(colonised, "thracia", UnitKind.GARRISON, source)
    force = units_at(colonised, source)
    assert reachable(CAT, colonised, force, source, 2)[rough] == city_cost
    assert rough not in reachable(
        CAT, put(state, "thracia", UnitKind.GARRISON, source), force, source, 1
    )
    capital = CAT.capital
    for n in MAP.neighbours(capital):
        if MAP.is_land(n) and not MAP.features(n, capital):
            assert step_cost(CAT, state, n, capital) == 1


@pytest.mark.rule("16.21")
def test_every_road_hexside_costs_half_a_point_rivers_free() -> None:
    state = board()
    roads = MAP.sides_with(HexsideFeature.ROAD)
    assert roads
    for side in roads:
        for a, b in ((side.a, side.b), (side.b, side.a)):
            extra = Fraction(1) if HexsideFeature.STRAIT in MAP.features(a, b) else Fraction(0)
            assert step_cost(CAT, state, a, b) == HALF + extra


@pytest.mark.rule("16.21")
def test_a_road_path_costs_halves() -> None:
    state = board()
    chain = next(
        (a, b, c)
        for road in MAP.sides_with(HexsideFeature.ROAD)
        for a, b in ((road.a, road.b), (road.b, road.a))
        for c in MAP.neighbours(b)
        if distance(a, c) == 2
        and HexsideFeature.ROAD in MAP.features(b, c)
        and not units_at(state, c)
    )
    a, b, c = chain
    state = put(state, "thracia", UnitKind.GARRISON, a)
    force = units_at(state, a)
    reach = reachable(CAT, state, force, a, 1)
    assert reach[b] == HALF
    assert reach[c] == 1
    off_road = [
        n for n in MAP.neighbours(a) if HexsideFeature.ROAD not in MAP.features(a, n) and n in reach
    ]
    assert all(reach[n] >= 1 for n in off_road)


@pytest.mark.rule("16.22")
def test_a_pass_replaces_the_rough_cost() -> None:
    state = board()
    passes = MAP.sides_with(HexsideFeature.PASS)
    assert passes
    for side in passes:
        for a, b in ((side.a, side.b), (side.b, side.a)):
            river = Fraction(1) if HexsideFeature.RIVER in MAP.features(a, b) else Fraction(0)
            cost = step_cost(CAT, state, a, b)
            assert cost is not None
            assert cost <= 1 + river
            if MAP.terrain_at(b) is Terrain.ROUGH and MAP.city_at(b) is None:
                assert ground(b) + river > cost


@pytest.mark.rule("16.23")
def test_crossing_a_river_costs_extra() -> None:
    state = board()
    river_extra = CAT.components.hexside("river").extra
    assert river_extra > 0
    crossings = [
        (a, b)
        for side in MAP.sides_with(HexsideFeature.RIVER)
        for a, b in ((side.a, side.b), (side.b, side.a))
        if not MAP.features(a, b) & {HexsideFeature.ROAD, HexsideFeature.PASS}
        and MAP.city_at(b) is None
    ]
    assert crossings
    for a, b in crossings:
        assert step_cost(CAT, state, a, b) == ground(b) + river_extra
    # A river crossing far from any road: one point does not get the force across.
    a, b = next(
        (a, b)
        for a, b in crossings
        if ground(b) == 1
        and not any(
            HexsideFeature.ROAD in MAP.features(h, n) for h in ball(a, 2) for n in MAP.neighbours(h)
        )
    )
    state = put(state, "thracia", UnitKind.GARRISON, a)
    force = units_at(state, a)
    assert b not in reachable(CAT, state, force, a, 1)
    assert reachable(CAT, state, force, a, 2)[b] == 2


@pytest.mark.rule("16.24", "16.32")
def test_land_units_cross_water_only_at_straits() -> None:
    state = board()
    strait_extra = CAT.components.hexside("strait").extra
    straits = MAP.sides_with(HexsideFeature.STRAIT)
    assert straits
    for side in straits:
        a, b = side.a, side.b
        cost = step_cost(CAT, state, a, b)
        assert cost == ground(b) + strait_extra
        here = put(state, "thracia", UnitKind.GARRISON, a)
        force = units_at(here, a)
        assert reachable(CAT, here, force, a, cost)[b] == cost
        assert b not in reachable(CAT, here, force, a, cost - HALF)
    for side in MAP.sides_with(HexsideFeature.SEA):
        assert step_cost(CAT, state, side.a, side.b) is None
        assert step_cost(CAT, state, side.b, side.a) is None
    coast, sea = next(
        (h, n)
        for h in MAP.hexes()
        if MAP.is_land(h)
        for n in MAP.neighbours(h)
        if not MAP.is_land(n)
    )
    assert step_cost(CAT, state, coast, sea) is None


# -- counters in the way ----------------------------------------------------------------


@pytest.mark.rule("16.31")
def test_never_into_enemy_or_neutral_hexes_but_through_friends() -> None:
    start = open_country()
    state = board()
    state = put(state, "thracia", UnitKind.GARRISON, start)
    force = units_at(state, start)
    enemy, neutral, friend = ring(start, 2)[:3]
    state = put(state, "slavs", UnitKind.WARBAND, enemy)
    state = put(state, "achaea", UnitKind.GARRISON, neutral)
    # Nine friends: with the force, ten, within the limit (13.1 holds in passing too).
    state = put(state, "lydia", UnitKind.GARRISON, friend, count=9)
    reach = reachable(CAT, state, force, start, 6)
    assert enemy not in reach
    assert neutral not in reach
    assert reach[friend] == 2


# -- zones of control --------------------------------------------------------------------


def line(start: int) -> tuple[int, int, int, int, int]:
    """S, M, T in a straight line, and the two hexes Y1, Y2 beside both M and T."""
    far = ring(start, 2)
    for t in far:
        middles = [m for m in MAP.neighbours(start) if distance(m, t) == 1]
        if len(middles) == 1:
            m = middles[0]
            y1, y2 = (y for y in MAP.neighbours(m) if distance(y, t) == 1)
            return start, m, t, y1, y2
    raise AssertionError("no straight line")


@pytest.mark.rule("15.2", "15.21", "16.5")
def test_entering_an_enemy_zone_ends_the_move() -> None:
    s, m, t, y1, _y2 = line(open_country())
    state = put(board(), "thracia", UnitKind.GARRISON, s)
    force = units_at(state, s)
    assert reachable(CAT, state, force, s, 2)[t] == 2
    state = put(state, "slavs", UnitKind.WARBAND, y1)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert m in zoc and s not in zoc
    reach = reachable(CAT, state, force, s, 3)
    assert reach[m] == 1
    # The only two-point way to T goes on through M: the force must go round.
    assert reach[t] == 3
    assert t not in reachable(CAT, state, force, s, 2)


@pytest.mark.rule("15.2", "16.5")
def test_a_force_stops_in_a_zone_even_if_the_next_hex_is_free() -> None:
    # P -> M -> T bends; Z is the other hex beside both P and T (a Neutral stands
    # there: no zone, but a wall), W the hex beside M touching neither P nor T.
    p = open_country()
    m = MAP.neighbours(p)[0]
    t, z = next(
        (t, z)
        for t in MAP.neighbours(m)
        if distance(t, p) == 2
        for z in MAP.neighbours(p)
        if z != m and distance(z, t) == 1
    )
    (w,) = (n for n in MAP.neighbours(m) if distance(n, p) == 2 and distance(n, t) == 2)
    state = put(board(), "thracia", UnitKind.GARRISON, p)
    state = put(state, "achaea", UnitKind.GARRISON, z)
    force = units_at(state, p)
    assert reachable(CAT, state, force, p, 2)[t] == 2
    state = put(state, "slavs", UnitKind.WARBAND, w)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert m in zoc and t not in zoc and p not in zoc
    reach = reachable(CAT, state, force, p, 2)
    assert reach[m] == 1
    assert t not in reach


@pytest.mark.rule("15.21", "15.22", "16.5")
def test_never_from_one_enemy_zone_straight_into_another() -> None:
    start = open_country()
    state = put(board(), "thracia", UnitKind.GARRISON, start)
    force = units_at(state, start)
    enemy = MAP.neighbours(start)[0]
    state = put(state, "slavs", UnitKind.WARBAND, enemy)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert start in zoc
    beside = [n for n in MAP.neighbours(start) if distance(n, enemy) == 1]
    away = [n for n in MAP.neighbours(start) if distance(n, enemy) == 2]
    assert len(beside) == 2 and len(away) == 3
    reach = reachable(CAT, state, force, start, 1)
    assert all(n not in reach for n in beside)
    assert all(reach[n] == 1 for n in away)
    # Leaving first, the force may come back into the zone (and stop there).
    reach = reachable(CAT, state, force, start, 2)
    assert all(reach[n] == 2 for n in beside)


@pytest.mark.rule("19.4")
def test_enemy_fleets_do_not_hinder_land_moves() -> None:
    coastal = next(
        h
        for h in MAP.hexes()
        if MAP.is_land(h)
        and MAP.is_coastal(h)
        and CAT.region_of_hex(h) >= 0
        and MAP.city_at(h) is None
        and sum(1 for n in MAP.neighbours(h) if MAP.is_land(n)) >= 3
    )
    sea = next(n for n in MAP.neighbours(coastal) if not MAP.is_land(n))
    state = put(board(), "ostrogoths", UnitKind.FLEET, sea)
    assert coastal not in land_zoc(CAT, state, EMPIRE)


# -- Peripheral Areas -----------------------------------------------------------------


def persia() -> tuple[int, int]:
    box = CAT.box_of(CAT.region("Persia"))
    edge = next(
        h
        for h in box_entry_hexes(CAT, box)
        if MAP.city_at(h) is None
        and any(
            MAP.is_land(n) and HexsideFeature.SEA not in MAP.features(h, n)
            for n in MAP.neighbours(h)
        )
    )
    return box, edge


@pytest.mark.rule("18.2#2", "18.21")
def test_entering_the_own_box_costs_five() -> None:
    box, edge = persia()
    assert box_entry_hexes(CAT, box)
    assert all(CAT.region_of_hex(h) == CAT.region("Persia") for h in box_entry_hexes(CAT, box))
    state = put(board(), "persia", UnitKind.GARRISON, edge)
    force = units_at(state, edge)
    assert reachable(CAT, state, force, edge, 5)[box] == 5
    assert box not in reachable(CAT, state, force, edge, Fraction(9, 2))
    # Only Persian counters may enter the Persian box.
    other = put(board(), "armenia", UnitKind.GARRISON, edge)
    assert box not in reachable(CAT, other, units_at(other, edge), edge, 20)


@pytest.mark.rule("18.21", "18.211")
def test_leaving_a_box_costs_the_hex_and_zones_do_not_bar_the_box() -> None:
    box, edge = persia()
    state = put(board(), "persia", UnitKind.GARRISON, box)
    force = units_at(state, box)
    reach = reachable(CAT, state, force, box, 2)
    assert reach[box] == 0
    for h in box_entry_hexes(CAT, box):
        if MAP.city_at(h) is None and ground(h) <= 2:
            assert reach[h] == ground(h)
    # An Empire counter beside the edge hex puts it in a Zone of Control: the force
    # still steps in from there.
    neighbour = next(
        n
        for n in MAP.neighbours(edge)
        if MAP.is_land(n) and HexsideFeature.SEA not in MAP.features(edge, n)
    )
    state = put(board(), "persia", UnitKind.GARRISON, edge)
    state = put(state, "thracia", UnitKind.GARRISON, neighbour)
    force = units_at(state, edge)
    assert edge in land_zoc(CAT, state, 1)
    assert reachable(CAT, state, force, edge, 5)[box] == 5


# -- stacking at the end -------------------------------------------------------------


@pytest.mark.rule("13.1", "13.11", "18.4", "13.132")
def test_stacking_is_checked_where_the_move_ends() -> None:
    start, target = open_country(), MAP.neighbours(open_country())[0]
    state = put(board(), "thracia", UnitKind.GARRISON, target, count=8)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, target, count=2)
    state = put(state, "lydia", UnitKind.GARRISON, start)
    mover = units_at(state, start)
    # 13.1 holds at any time: a full hex is not even entered in passing.
    assert target not in reachable(CAT, state, mover, start, 1)
    assert exceeds_stacking(CAT, state, mover, target)
    assert not may_end_at(CAT, state, mover, target)
    assert not exceeds_stacking(CAT, state, units_at(state, target), target)
    box = CAT.box_of(CAT.region("Persia"))
    assert not exceeds_stacking(CAT, state, units_at(state, target), box)
    # Barbarian stacks hold one Region each (13.132).
    state = put(board(), "ostrogoths", UnitKind.WARBAND, target)
    state = put(state, "slavs", UnitKind.WARBAND, start)
    mover = units_at(state, start)
    assert not may_end_at(CAT, state, mover, target)
    assert may_end_at(CAT, state, mover, start)


# -- properties ----------------------------------------------------------------------

LAND = [h for h in MAP.hexes() if MAP.is_land(h) and CAT.region_of_hex(h) >= 0]


@st.composite
def positions(draw: st.DrawFn) -> tuple[BelState, tuple[int, ...], int, Fraction]:
    start = draw(st.sampled_from(LAND))
    near = [h for h in ball(start, 3)[1:] if MAP.is_land(h)]
    state = put(board(), "thracia", UnitKind.GARRISON, start, count=draw(st.integers(1, 3)))
    force = units_at(state, start)
    enemies = draw(st.lists(st.sampled_from(near), max_size=4, unique=True)) if near else []
    for h in enemies:
        state = put(state, "slavs", UnitKind.WARBAND, h)
    spare = [h for h in near if h not in enemies]
    neutrals = draw(st.lists(st.sampled_from(spare), max_size=2, unique=True)) if spare else []
    for h in neutrals:
        state = put(state, "achaea", UnitKind.GARRISON, h)
    colonies = draw(st.lists(st.sampled_from(near), max_size=3, unique=True)) if near else []
    markers = attrs.evolve(state.markers, colonies=frozenset(colonies))
    state = attrs.evolve(state, markers=markers)
    points = Fraction(draw(st.integers(0, 16)), 2)
    return state, force, start, points


@pytest.mark.rule("16.1", "16.31", "15.2", "15.21", "14.31")
@settings(max_examples=60)
@given(positions())
def test_costs_are_monotone_and_explained(
    position: tuple[BelState, tuple[int, ...], int, Fraction],
) -> None:
    state, force, start, points = position
    reach = reachable(CAT, state, force, start, points)
    zoc = land_zoc(CAT, state, EMPIRE)
    assert reach[start] == 0
    for where, cost in reach.items():
        assert 0 <= cost <= points
        if where == start:
            continue
        assert where >= FIRST_HEX  # Thracian counters have no box
        assert not any(u not in force for u in units_at(state, where))
        # Some reachable neighbour is cheaper, and a legal last step explains the cost.
        before = [
            n
            for n in MAP.neighbours(where)
            if n in reach
            and reach[n] < cost
            and (n == start or n not in zoc)
            and not (n in zoc and where in zoc)
            and reach[n] + (step_cost(CAT, state, n, where) or points + 1) == cost
        ]
        assert before


def test_reachable_in_the_middle_of_the_map_is_quick() -> None:
    import time

    middle = min(LAND, key=lambda h: distance(h, 3623))
    state = put(board(), "thracia", UnitKind.GARRISON, middle)
    force = units_at(state, middle)
    began = time.perf_counter()
    reach = reachable(CAT, state, force, middle, 20)
    elapsed = time.perf_counter() - began
    assert len(reach) > 100
    assert elapsed < 2.0
