"""The caches behind the hot queries give the answers of a fresh computation.

The last Zones of Control worked out are kept with the catalogue (and the enemy's
projection reused while only other counters move), and so are step costs into hexes
without a Colony; a change of control, of markers or of counters must never return a
stale answer.
"""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from byzantium.belisarius import engine, operations, world
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import HexsideFeature
from byzantium.belisarius.movement import neighbour_costs, step_cost
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.provisioning import feeders, underfed
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    BelState,
    Done,
    Markers,
    Request,
    RequestKind,
    Units,
)
from byzantium.belisarius.world import enemy_zoc
from tests.belisarius.support import CAT, CTX, blank_state, boards, controls

RULEBOOK = "belisarius"


def fresh(state: BelState) -> BelState:
    """The same state with new, empty caches."""
    units = state.units
    return attrs.evolve(state, units=Units(units.where, units.mutiny, units.aboard))


def uncached_zoc(state: BelState, player: int, naval: bool) -> frozenset[int]:
    """The zones worked out from nothing: the catalogue's memory of zones emptied first."""
    world._last_zones(CAT).clear()
    return enemy_zoc(CAT, fresh(state), player, naval=naval)


@pytest.mark.rule("15.0", "15.12#2", "4.2")
@settings(max_examples=40)
@given(boards(), controls(), st.booleans())
def test_zones_follow_control_and_markers_on_the_same_counters(
    state: BelState, control: tuple[Control, ...], naval: bool
) -> None:
    for player in (EMPIRE, BARBARIAN):
        before = enemy_zoc(CAT, state, player, naval=naval)
        assert before == uncached_zoc(state, player, naval)
        changed = attrs.evolve(state, control=control)  # the very same Units object
        assert changed.units is state.units
        assert enemy_zoc(CAT, changed, player, naval=naval) == uncached_zoc(changed, player, naval)
        occupied = sorted(set(state.units.where) & set(CAT.map.hexes()))
        colonies = attrs.evolve(state, markers=Markers(colonies=frozenset(occupied[:3])))
        assert enemy_zoc(CAT, colonies, player, naval=naval) == uncached_zoc(
            colonies, player, naval
        )


@pytest.mark.rule("16.1", "27.31")
@settings(max_examples=30)
@given(st.sampled_from(sorted(CAT.map.hexes())), st.data())
def test_step_costs_with_and_without_a_colony_match_a_fresh_catalogue(
    hex_: int, data: st.DataObject
) -> None:
    neighbour = data.draw(st.sampled_from(sorted(CAT.map.neighbours(hex_))))
    plain = blank_state("operations", EMPIRE)
    colony = attrs.evolve(plain, markers=Markers(colonies=frozenset({hex_})))
    # Asked in both orders on the shared catalogue, and once on new catalogues.
    first = (step_cost(CAT, plain, neighbour, hex_), step_cost(CAT, colony, neighbour, hex_))
    again = (step_cost(CAT, plain, neighbour, hex_), step_cost(CAT, colony, neighbour, hex_))
    new_plain, new_colony = Belisarius().catalog, Belisarius().catalog
    fresh_costs = (
        step_cost(new_plain, plain, neighbour, hex_),
        step_cost(new_colony, colony, neighbour, hex_),
    )
    assert first == again == fresh_costs
    if first[0] is not None and CAT.map.city_at(hex_) is None:
        assert first[1] is not None  # a Colony never makes a land hex impassable


def chart_cost(a: int, b: int, colony: bool) -> Fraction | None:
    """The step cost from ``a`` into ``b`` read from the chart and the hexside with no
    table at all (16.1, 16.21-16.24, 16.32, 27.31): the cheapest of the road's rate
    (plus a strait's extra), the pass's (plus the river's and strait's extras) and
    the hex's own line plus the extras; None into all-sea or across an all-sea
    hexside that is no strait."""
    comps, hexmap = CAT.components, CAT.map
    features = hexmap.features(a, b)
    if not hexmap.terrain_at(b).land or (
        HexsideFeature.SEA in features and HexsideFeature.STRAIT not in features
    ):
        return None
    strait = comps.hexside("strait").extra if HexsideFeature.STRAIT in features else 0
    river = comps.hexside("river").extra if HexsideFeature.RIVER in features else 0
    city = hexmap.city_at(b)
    if city is not None:
        line = "constantinopolis" if city.capital else "city"
    else:
        line = "city" if colony else hexmap.terrain_at(b).value
    ground = comps.terrain_type(line).movement
    road, passage = comps.hexside("road").movement, comps.hexside("pass").movement
    assert road is not None and passage is not None
    options = []
    if HexsideFeature.ROAD in features:
        options.append(road + strait)
    if HexsideFeature.PASS in features:
        options.append(passage + river + strait)
    if ground is not None:
        options.append(ground + river + strait)
    return Fraction(min(options)) if options else None


@pytest.mark.rule("16.1", "16.21", "16.22", "16.23", "16.24", "16.32", "27.31")
def test_every_step_cost_of_the_map_is_the_chart_read_afresh() -> None:
    """Each kind of step (hexside features, land or sea, chart line) is priced once per
    catalogue and shared by every hexside of that kind: every hexside of the map, with
    and without a Colony in the hex entered, in a new catalogue and again in a warm
    one, costs what the chart and the hexside give read directly."""
    plain = blank_state("operations", EMPIRE)
    for cat in (Belisarius().catalog, CAT):
        for a in CAT.map.hexes():
            for b in CAT.map.neighbours(a):
                colony = attrs.evolve(plain, markers=Markers(colonies=frozenset({b})))
                assert step_cost(cat, plain, a, b) == chart_cost(a, b, colony=False)
                assert step_cost(cat, colony, a, b) == chart_cost(a, b, colony=True)
                assert dict(neighbour_costs(cat, plain, a))[b] == chart_cost(a, b, False)


@pytest.mark.rule("15.0", "15.11", "15.12#2")
@settings(max_examples=40)
@given(boards(), st.booleans(), st.data())
def test_zones_after_counters_move_match_zones_worked_out_afresh(
    state: BelState, naval: bool, data: st.DataObject
) -> None:
    """Moving counters one after another (the player's own, which keep the enemy's
    projection, or the enemy's, which change it; into a City too) never leaves a stale
    zone."""
    playing = sorted(state.units.in_play())
    assume(playing)  # a board with no counter in play has no counter to move
    hexes = {state.units.where[u] for u in playing} & set(CAT.map.hexes())
    spots = sorted({*CAT.cities, *(h for w in hexes for h in CAT.map.neighbours(w))})
    player = data.draw(st.sampled_from((EMPIRE, BARBARIAN)))
    enemy_zoc(CAT, state, player, naval=naval)
    for _ in range(4):
        unit = data.draw(st.sampled_from(playing))
        to = data.draw(st.sampled_from(spots))
        state = attrs.evolve(state, units=state.units.move(unit, to))
        moved = enemy_zoc(CAT, state, player, naval=naval)
        assert moved == uncached_zoc(state, player, naval)


@pytest.mark.rule("16.1")
@settings(max_examples=30)
@given(st.sampled_from(sorted(CAT.map.hexes())))
def test_neighbour_costs_are_the_step_costs_of_every_neighbour(hex_: int) -> None:
    plain = blank_state("operations", EMPIRE)
    table = neighbour_costs(CAT, plain, hex_)
    assert [b for b, _ in table] == list(CAT.map.neighbours(hex_))
    assert all(cost == step_cost(CAT, plain, hex_, b) for b, cost in table)


@pytest.mark.rule("13.1", "16.1")
@settings(max_examples=40)
@given(boards(), st.data())
def test_moving_a_force_at_once_is_moving_its_counters_one_by_one(
    state: BelState, data: st.DataObject
) -> None:
    """:meth:`Units.move_all` gives the counters, and the answers of their indexes by
    place and of those in play, of :meth:`Units.move` of each in turn."""
    units = state.units
    units.at(0)  # the index by place built, so that it is carried over
    force = data.draw(st.lists(st.integers(0, len(units.where) - 1), max_size=8, unique=True))
    to = data.draw(st.sampled_from(sorted({*CAT.cities, 1, 0})))
    one_by_one = units
    for unit in force:
        one_by_one = one_by_one.move(unit, to)
    at_once = units.move_all(force, to)
    assert at_once == one_by_one
    assert at_once.in_play() == fresh_units(at_once).in_play()
    for where in {*units.where, to}:
        assert at_once.at(where) == fresh_units(at_once).at(where)


def fresh_units(units: Units) -> Units:
    """The same counters with new, empty caches."""
    return Units(units.where, units.mutiny, units.aboard)


@pytest.mark.rule("4.3", "4.12", "12.2")
@settings(max_examples=30)
@given(boards(), controls())
def test_the_controllers_table_follows_control_and_guard_faces(
    state: BelState, control: tuple[Control, ...]
) -> None:
    guards = [u for u, c in enumerate(CAT.counters) if c.guard]
    changed = attrs.evolve(state, control=control)
    rebels = attrs.evolve(state, units=state.units.flip(guards, True))
    for board in (state, changed, rebels, state):
        table = world.controllers(CAT, board)
        assert table == tuple(world.controller(CAT, board, u) for u in range(len(CAT.counters)))


@pytest.mark.rule("13.1", "16.1")
@settings(max_examples=40)
@given(boards(), st.data())
def test_a_whole_stack_stepping_on_is_its_counters_moved_one_by_one(
    state: BelState, data: st.DataObject
) -> None:
    """A force that is every counter of its place (the index drops the place at once),
    or part of it, moved with :meth:`Units.move_all`: the same board, indexes and
    memory of what moved as :meth:`Units.move` of each counter in turn."""
    units = state.units
    occupied = sorted(w for w in units.index() if w > 0)
    assume(occupied)  # a board with no counter in play has no stack to move
    origin = data.draw(st.sampled_from(occupied))
    stack = units.at(origin)
    force = stack if data.draw(st.booleans()) else stack[: max(1, len(stack) - 1)]
    near = CAT.map.neighbours(origin) if origin >= FIRST_HEX else ()
    to = data.draw(st.sampled_from(sorted({*CAT.cities, *near} - {origin})))
    one_by_one = units
    for unit in force:
        one_by_one = one_by_one.move(unit, to)
    at_once = units.move_all(force, to)
    assert at_once == one_by_one
    assert dict(at_once.index()) == dict(fresh_units(at_once).index())
    assert at_once.in_play() == fresh_units(at_once).in_play()
    assert at_once.moved_since(units.where) == tuple(force)


@pytest.mark.rule("20.2", "20.7")
@settings(max_examples=40)
@given(boards(), st.sampled_from((EMPIRE, BARBARIAN)))
def test_underfed_places_are_those_with_more_feeders_than_forage(
    state: BelState, player: int
) -> None:
    """:func:`.provisioning.underfed`, counted in one pass, lists the places whose
    :func:`.provisioning.feeders` outnumber what the place feeds."""
    state = attrs.evolve(state, phasing=player)
    places = sorted({w for w in state.units.where if w > 0})
    leaving = tuple(u for u in state.units.in_play()[::3])
    for gone in ((), leaving):
        expected = [
            w for w in places if len(feeders(CTX, state, w, gone)) > CAT.forage(w, state.markers)
        ]
        assert underfed(CTX, state, gone) == expected


@pytest.mark.rule("2.1")
@settings(max_examples=40)
@given(st.sampled_from(sorted(CAT.map.hexes())), st.data())
def test_hexside_features_kept_per_pair_are_the_map_file_s(hex_: int, data: st.DataObject) -> None:
    """The features the map keeps per pair of hexes, asked in either order and again,
    are those of the map file's hexsides; a pair that is not adjacent is refused every
    time it is asked."""
    hexmap = CAT.map
    other = data.draw(st.sampled_from(hexmap.neighbours(hex_)))
    recorded = frozenset(
        side.feature for side in hexmap.hexsides if {side.a, side.b} == {hex_, other}
    )
    for a, b in ((hex_, other), (other, hex_), (hex_, other)):
        assert hexmap.features(a, b) == recorded
    far = next(h for h in hexmap.hexes() if h != hex_ and h not in hexmap.neighbours(hex_))
    for _ in range(2):
        with pytest.raises(ValueError, match="not adjacent"):
            hexmap.features(hex_, far)


@pytest.mark.rule("2.1")
@pytest.mark.parametrize("value", [True, 0, 100, 3720.0, "3720", 99999, 7347])
def test_a_hex_look_up_refuses_what_is_not_a_hex_of_the_map(value: object) -> None:
    """The look-ups of a hex (terrain, city, region) accept the map's whole hex numbers
    only: not a bool, a float or a text equal to one, nor a number off the map."""
    for look_up in (CAT.map.terrain_at, CAT.map.city_at, CAT.map.region_at):
        with pytest.raises(KeyError, match="is not on the"):
            look_up(value)  # type: ignore[arg-type]


@pytest.mark.rule("3.1")
def test_requests_are_built_as_their_constructor_builds_them() -> None:
    """The engine's request maker (every transition makes one) gives the record
    :class:`~byzantium.belisarius.state.Request`'s constructor gives, defaults
    included."""
    task = OperationsPhase()
    assert engine._request(RequestKind.ROLL, "14.21", "roll", task, dice=2) == Request(
        RequestKind.ROLL, "14.21", "roll", task, dice=2
    )
    choice = engine._request(RequestKind.CHOOSE, "16.1", "move", task, 1, options=(Done(),))
    assert choice == Request(RequestKind.CHOOSE, "16.1", "move", task, 1, options=(Done(),))
    assert attrs.asdict(choice) == attrs.asdict(
        Request(RequestKind.CHOOSE, "16.1", "move", task, 1, options=(Done(),))
    )


@pytest.mark.rule("14.31")
@settings(max_examples=60)
@given(
    st.fractions(min_value=0, max_value=40, max_denominator=6),
    st.fractions(min_value=0, max_value=10, max_denominator=6),
)
def test_points_left_after_a_step_are_the_fractions_subtracted(
    points: Fraction, cost: Fraction
) -> None:
    """The differences kept per catalogue (by the integers of the two fractions) are
    the subtraction worked out afresh, asked first on a new catalogue and again on the
    shared one."""
    fresh_cat = Belisarius().catalog
    for cat in (fresh_cat, CAT, CAT):
        left = operations._less(cat, points, cost)
        assert type(left) is Fraction
        assert left == points - cost
        assert (left.numerator, left.denominator) == (
            (points - cost).numerator,
            (points - cost).denominator,
        )
