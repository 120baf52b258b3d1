"""Pillage (optional rules 26.0-26.5, 15.4, 18.0#2, 28.5, 4.41): the operation and its marker."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import Operation, UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.naval import is_port
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.recruiting import RecruitingPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.special import (
    PILLAGE,
    may_pillage,
    pillage_column,
    pillage_loot,
    pillage_strength,
    sack,
    special_items,
)
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    BelState,
    Done,
    Markers,
    Place,
    Roll,
    Select,
)
from byzantium.belisarius.taxation import paying_cities
from byzantium.belisarius.world import enemy_zoc, functioning_city, region_controller
from tests.belisarius.support import (
    CAT,
    GAME,
    answer,
    belisarius,
    blank_state,
    city,
    context,
    move,
    options,
    pending_task,
    put,
    start,
)
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"

MAP = CAT.map
#: Scenario 1 with both Special Operations.
SPECIAL = belisarius(pillage=True, colonization=True)
SCTX = context(SPECIAL)
CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN}
PILLAGE_COST = CAT.components.operation_cost(Operation.PILLAGE)
THRACIA = CAT.region("Thracia")


def board(solidus: int = 10) -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL, solidus=solidus, game=SPECIAL)


def begin(state: BelState, where: int, roll: int, game: Belisarius = SPECIAL) -> BelState:
    """Start the phase, pick the force at ``where``, keep it whole, roll ``roll``."""
    state = start(game, state, OperationsPhase())
    state = answer(game, state, Select(f"force {where}"))
    state = answer(game, state, Done())
    return answer(game, state, Roll((roll,)))


def leader() -> int:
    """A one-star Guard Leader other than Justinian."""
    return next(
        c.index
        for c in CAT.counters
        if c.nationality == "guard" and c.stars == 1 and c.index != CAT.justinian
    )


@cache
def port_city() -> int:
    """A printed port City of Thracia."""
    return next(h for h in CAT.region_cities[THRACIA] if MAP.city_at(h).port)  # type: ignore[union-attr]


@cache
def sea_hex() -> int:
    return next(h for h in sorted(MAP.hexes()) if not CAT.is_land(h))


@cache
def coast_hex() -> int:
    """A coastal Thracian hex with no City."""
    return next(h for h in CAT.region_coast[THRACIA] if MAP.city_at(h) is None)


# -- the table -----------------------------------------------------------------------------


@pytest.mark.rule("26.1", "26.11")
def test_every_counter_counts_one_leaders_and_fleets_included() -> None:
    guard = leader()
    fleet = next(c.index for c in CAT.counters if c.kind is UnitKind.FLEET)
    assert pillage_strength((guard,)) == 1
    assert pillage_strength((guard, fleet, 5)) == 3
    # One die on the column of the count: roll 4 is 0 loot for 1-2 counters, 1 for 3-5.
    assert pillage_column(CAT, 2).low == 1 and pillage_column(CAT, 3).low == 3
    assert pillage_loot(CAT, 2, 4) == 0 and pillage_loot(CAT, 3, 4) == 1
    assert pillage_loot(CAT, 1, 1) is None
    # Beyond the last column, the last column.
    assert pillage_column(CAT, 40) == CAT.components.pillage[-1]


@given(st.integers(1, 12), st.integers(1, 6))
@pytest.mark.rule("26.1")
def test_loot_never_shrinks_with_a_bigger_force_or_a_higher_die(units: int, roll: int) -> None:
    """The (provisional) table grows with the force and with the die; fails are -1."""
    loot = pillage_loot(CAT, units, roll)
    bigger = pillage_loot(CAT, units + 1, roll)
    higher = pillage_loot(CAT, units, min(6, roll + 1))
    assert loot is None or (bigger is not None and bigger >= loot)
    assert loot is None or (higher is not None and higher >= loot)


# -- the operation ---------------------------------------------------------------------------


@pytest.mark.rule("26.0", "26.1", "26.11", "14.3", "14.31")
def test_pillage_places_the_marker_loots_and_costs_its_points() -> None:
    a, _, _ = open_line()
    state = move(put(board(), "thracia", UnitKind.GARRISON, a, count=2), [leader()], a)
    state = begin(state, a, 2)
    points = pending_task(state, OperationsPhase).points
    assert Select(PILLAGE) in options(state)
    state = answer(SPECIAL, state, Select(PILLAGE))
    assert state.pending is not None and state.pending.rule == "26.1"
    # Three counters (the Leader counts one, and does not multiply): roll 4 loots 1.
    state = answer(SPECIAL, state, Roll((4,)))
    assert a in state.markers.pillaged
    assert state.solidus[EMPIRE] == 10 + 1
    assert pending_task(state, OperationsPhase).points == points - PILLAGE_COST
    assert (
        pending_task(state, OperationsPhase).where == a
        and len(pending_task(state, OperationsPhase).force) == 3
    )
    # Pillaged: no second Pillage here (26.2).
    assert Select(PILLAGE) not in options(state)


@pytest.mark.rule("26.1")
def test_a_failed_pillage_still_costs_its_points() -> None:
    a, _, _ = open_line()
    state = begin(put(board(), "thracia", UnitKind.GARRISON, a), a, 6)
    points = pending_task(state, OperationsPhase).points
    state = answer(SPECIAL, state, Select(PILLAGE))
    state = answer(SPECIAL, state, Roll((1,)))
    assert a not in state.markers.pillaged
    assert state.solidus == (10, 10)
    assert pending_task(state, OperationsPhase).points == points - PILLAGE_COST
    # It may try again, having points left (14.11).
    assert Select(PILLAGE) in options(state)


@pytest.mark.rule("26.0")
def test_no_pillage_without_the_option() -> None:
    a, _, _ = open_line()
    state = put(blank_state("operations", EMPIRE, control=CONTROL), "thracia", UnitKind.GARRISON, a)
    state = begin(state, a, 6, GAME)
    assert Select(PILLAGE) not in options(state)
    assert (
        special_items(
            context(GAME), state, pending_task(state, OperationsPhase).force, a, Fraction(20)
        )
        == []
    )


@pytest.mark.rule("14.31", "26.1")
def test_no_pillage_without_the_points() -> None:
    a, _, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    force = state.units.at(a)
    assert special_items(SCTX, state, force, a, PILLAGE_COST) == [Select(PILLAGE)]
    assert special_items(SCTX, state, force, a, PILLAGE_COST - Fraction(1, 2)) == []


@pytest.mark.rule("14.11", "26.1", "16.1")
def test_move_pillage_and_move_on_in_one_operation() -> None:
    a, b, c = open_line()
    state = begin(put(board(), "thracia", UnitKind.GARRISON, a), a, 6)
    points = pending_task(state, OperationsPhase).points
    state = answer(SPECIAL, state, Place(b))
    state = answer(SPECIAL, state, Select(PILLAGE))
    state = answer(SPECIAL, state, Roll((6,)))
    assert b in state.markers.pillaged
    assert pending_task(state, OperationsPhase).points == points - 1 - PILLAGE_COST
    assert Place(c) in options(state)
    state = answer(SPECIAL, state, Place(c))
    assert pending_task(state, OperationsPhase).where == c
    state = answer(SPECIAL, state, Select(PILLAGE))
    state = answer(SPECIAL, state, Roll((6,)))
    assert state.markers.pillaged == frozenset({b, c})
    assert pending_task(state, OperationsPhase).points == points - 2 - 2 * PILLAGE_COST


# -- restrictions ----------------------------------------------------------------------------


@pytest.mark.rule("26.2", "15.4")
def test_no_pillage_in_an_enemy_zone_of_control() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, b)
    state = put(state, "slavs", UnitKind.WARBAND, c)
    assert b in enemy_zoc(CAT, state, EMPIRE)
    assert not may_pillage(CAT, state, state.units.at(b), b)
    state = begin(state, b, 6)
    assert Select(PILLAGE) not in options(state)
    # Leaving the zone, it may pillage again.
    state = answer(SPECIAL, state, Place(a))
    assert Select(PILLAGE) in options(state)


@pytest.mark.rule("15.4", "15.12#2")
def test_a_city_is_out_of_the_enemy_zone_so_it_may_be_pillaged() -> None:
    here = city("Hadrianopolis")
    state = put(board(), "thracia", UnitKind.GARRISON, here)
    state = put(state, "slavs", UnitKind.WARBAND, MAP.neighbours(here)[0])
    assert here not in enemy_zoc(CAT, state, EMPIRE)
    assert may_pillage(CAT, state, state.units.at(here), here)


@pytest.mark.rule("26.2", "18.0#2", "19.2")
def test_no_pillage_at_sea_nor_in_a_peripheral_area() -> None:
    fleet = next(u for u in CAT.of_nationality("thracia", UnitKind.FLEET))
    state = move(board(), [fleet], sea_hex())
    assert not may_pillage(CAT, state, (fleet,), sea_hex())
    # A Fleet on a coastal hex may (19.2).
    state = move(board(), [fleet], coast_hex())
    assert may_pillage(CAT, state, (fleet,), coast_hex())
    persia = blank_state("operations", EMPIRE, control={"Persia": Control.EMPIRE}, game=SPECIAL)
    box = 1 + next(i for i, p in enumerate(CAT.peripherals) if p.name == "Persia")
    persia = put(persia, "persia", UnitKind.GARRISON, box)
    assert not may_pillage(CAT, persia, persia.units.at(box), box)
    assert special_items(SCTX, persia, persia.units.at(box), box, Fraction(30)) == []


@given(
    st.sampled_from(sorted(MAP.hexes())),
    st.lists(st.sampled_from(sorted(MAP.hexes())), max_size=30, unique=True),
    st.lists(st.sampled_from(sorted(MAP.hexes())), max_size=30, unique=True),
)
@pytest.mark.rule("26.2", "15.4")
def test_pillage_is_allowed_exactly_on_unpillaged_land_out_of_enemy_zones(
    here: int, enemies: list[int], pillaged: list[int]
) -> None:
    state = attrs.evolve(board(), markers=Markers(pillaged=frozenset(pillaged)))
    fleet = CAT.is_land(here) is False
    kind = UnitKind.FLEET if fleet else UnitKind.GARRISON
    state = put(state, "thracia", kind, here)
    spots = [h for h in enemies if h != here][:8]
    warbands = list(CAT.of_nationality("slavs", UnitKind.WARBAND))[: len(spots)]
    for unit, spot in zip(warbands, spots, strict=False):
        state = move(state, [unit], spot)
    expected = (
        CAT.is_land(here)
        and here not in state.markers.pillaged
        and here not in enemy_zoc(CAT, state, EMPIRE)
    )
    assert may_pillage(CAT, state, state.units.at(here), here) == expected


# -- effects ---------------------------------------------------------------------------------


@pytest.mark.rule("27.311", "27.5", "28.5", "26.3")
def test_pillage_destroys_a_colony_and_public_works() -> None:
    a, _, _ = open_line()
    markers = Markers(colonies=frozenset({a}), works=frozenset({a}))
    state = attrs.evolve(put(board(), "thracia", UnitKind.GARRISON, a), markers=markers)
    assert functioning_city(CAT, state, a)
    state = begin(state, a, 6)
    state = answer(SPECIAL, state, Select(PILLAGE))
    state = answer(SPECIAL, state, Roll((6,)))
    assert state.markers == Markers(pillaged=frozenset({a}))
    assert not functioning_city(CAT, state, a)
    # A failed Pillage leaves both markers alone (27.5, 28.5: only a successful one).
    again = attrs.evolve(put(board(), "thracia", UnitKind.GARRISON, a), markers=markers)
    again = begin(again, a, 6)
    again = answer(SPECIAL, again, Select(PILLAGE))
    again = answer(SPECIAL, again, Roll((1,)))
    assert again.markers == markers


@pytest.mark.rule("26.5", "26.4", "20.4", "10.121", "26.3")
def test_lifting_the_marker_restores_the_printed_city_and_forage_not_a_colony() -> None:
    town = port_city()
    a, _, _ = open_line()
    before = Markers(colonies=frozenset({a}))
    state = put(put(board(), "thracia", UnitKind.GARRISON, town), "thracia", UnitKind.GARRISON, a)
    state = attrs.evolve(state, markers=before)
    printed = CAT.forage(town, Markers())
    assert town in paying_cities(CAT, state, EMPIRE, THRACIA, pillage=True)
    assert is_port(CAT, state, town)
    sacked = attrs.evolve(state, markers=sack(sack(before, town), a))
    # Pillaged: no forage (20.4), no taxes (10.121), no port, and the Colony is gone.
    assert CAT.forage(town, sacked.markers) == 0 and CAT.forage(a, sacked.markers) == 0
    assert paying_cities(CAT, sacked, EMPIRE, THRACIA, pillage=True) == []
    assert not is_port(CAT, sacked, town) and not functioning_city(CAT, sacked, town)
    # Lifting both markers (26.4).
    phase = RecruitingPhase()
    lifted = phase.remove_pillage(SCTX, attrs.evolve(sacked, phase="recruiting"), town)
    lifted = phase.remove_pillage(SCTX, lifted, a)
    assert lifted.markers == Markers()
    assert CAT.forage(town, lifted.markers) == printed
    assert CAT.forage(a, lifted.markers) == MAP.forage(a)
    assert paying_cities(CAT, lifted, EMPIRE, THRACIA, pillage=True) == [town]
    assert is_port(CAT, lifted, town) and functioning_city(CAT, lifted, town)
    assert not functioning_city(CAT, lifted, a)


@pytest.mark.rule("26.3", "17.91", "15.12#2")
def test_a_pillaged_printed_city_keeps_its_walls() -> None:
    from byzantium.belisarius.battle import fortified

    here = city("Hadrianopolis")
    state = attrs.evolve(board(), markers=Markers(pillaged=frozenset({here})))
    state = put(state, "thracia", UnitKind.GARRISON, here)
    state = put(state, "slavs", UnitKind.WARBAND, MAP.neighbours(here)[0])
    assert fortified(CAT, state, here)
    assert here not in enemy_zoc(CAT, state, EMPIRE)


@pytest.mark.rule("4.41", "26.0")
def test_pillage_in_a_neutral_region_gives_it_to_the_other_player() -> None:
    a, _, _ = open_line()
    neutral = next(
        r
        for r, region in enumerate(CAT.regions)
        if region.name not in CONTROL
        and any(
            MAP.terrain_at(h) is Terrain.CLEAR and MAP.city_at(h) is None
            for h in CAT.region_land[r]
        )
    )
    spot = next(
        h
        for h in CAT.region_land[neutral]
        if MAP.terrain_at(h) is Terrain.CLEAR and MAP.city_at(h) is None
    )
    state = put(board(), "thracia", UnitKind.GARRISON, spot)
    assert region_controller(state, neutral) == -1
    state = begin(state, spot, 6)
    state = answer(SPECIAL, state, Select(PILLAGE))
    assert region_controller(state, neutral) == BARBARIAN
    state = answer(SPECIAL, state, Roll((1,)))
    assert region_controller(state, neutral) == BARBARIAN
    del a


@pytest.mark.rule("28.6")
def test_public_works_markers_have_no_limit() -> None:
    phase = RecruitingPhase()
    state = blank_state("recruiting", EMPIRE, control=CONTROL, solidus=500, game=SPECIAL)
    built = 0
    for here in CAT.cities:
        state = phase.build_works(SCTX, state, here)
        built += 1
    assert len(state.markers.works) == built == len(CAT.cities)
