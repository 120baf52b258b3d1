"""Optional rule 29, River Movement (option ``river_movement``)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Retreat
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.hexmap import HexsideFeature, Terrain
from byzantium.belisarius.movement import land_zoc, step_cost
from byzantium.belisarius.naval import (
    fleet_reachable,
    fleet_step_cost,
    fleet_targets,
    is_port,
    river_hex,
    river_step,
    sea_retreat_steps,
)
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.recruiting import recruit_places
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    BelState,
    Done,
    Place,
    Roll,
    Select,
)
from byzantium.belisarius.world import enemy_zoc
from tests.belisarius.support import (
    CAT,
    answer,
    belisarius,
    blank_state,
    check_invariants,
    city,
    move,
    options,
    pending_task,
    put,
    random_game,
    start,
)

RULEBOOK = "belisarius"

RIVERS = belisarius(river_movement=True)
MAP = CAT.map
#: The Danubius: its mouth on the Pontus Euxinus (a coastal river hex) and the river
#: hexes upstream of it, all in Thracia.
MOUTH, UP, UPPER = 5120, 5020, 4920
CONTROL = {"Thracia": Control.EMPIRE, "Gepidae": Control.BARBARIAN, "Slavs": Control.BARBARIAN}


def board() -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL, game=RIVERS)


def sail(state: BelState, where: int, roll: int) -> BelState:
    state = start(RIVERS, state, OperationsPhase())
    state = answer(RIVERS, state, Select(f"fleet {where}"))
    state = answer(RIVERS, state, Done())
    return answer(RIVERS, state, Roll((roll,)))


def test_the_danubius_runs_where_the_tests_think() -> None:
    assert MAP.is_coastal(MOUTH) and not MAP.is_coastal(UP) and not MAP.is_coastal(UPPER)
    assert all(river_hex(CAT, h) for h in (MOUTH, UP, UPPER))
    assert river_step(CAT, MOUTH, UP) and river_step(CAT, UP, UPPER)


@pytest.mark.rule("29.0", "29.1", "29.4")
def test_up_the_river_one_point_a_hex_only_with_the_option() -> None:
    state = put(board(), "thracia", UnitKind.FLEET, MOUTH)
    fleet = state.units.at(MOUTH)
    # Without the rule a Fleet never enters a hex with no water (16.33).
    assert UP not in fleet_reachable(CAT, state, fleet, MOUTH, 20)
    up = fleet_reachable(CAT, state, fleet, MOUTH, 20, rivers=True)
    # The mouth is a coast without a port: sea hexes cost 2 (19.52, 29.4), river hexes 1.
    assert up[UP] == 1 and up[UPPER] == 2
    sea = next(h for h in MAP.neighbours(MOUTH) if not CAT.is_land(h))
    assert up[sea] == 2
    after = sail(state, MOUTH, 1)
    assert Place(UP) in options(after)
    points = pending_task(after, OperationsPhase).points
    after = answer(RIVERS, after, Place(UP))
    assert pending_task(after, OperationsPhase).points == points - 1


@pytest.mark.rule("29.1")
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(h for h in MAP.hexes() if CAT.is_land(h))))
def test_a_river_step_joins_two_hexes_beside_one_river(hex_: int) -> None:
    names = {side.name for side in MAP.sides_with(HexsideFeature.RIVER) if hex_ in (side.a, side.b)}
    for other in MAP.neighbours(hex_):
        priced = fleet_step_cost(CAT, board(), hex_, other, Fraction(2), rivers=True)
        if priced is not None and priced[1]:
            others = {
                side.name
                for side in MAP.sides_with(HexsideFeature.RIVER)
                if other in (side.a, side.b)
            }
            assert names & others and priced[0] == 1
        if not MAP.is_coastal(other) and CAT.is_land(other):
            assert (priced is not None) == bool(river_step(CAT, hex_, other))


@pytest.mark.rule("29.1", "16.23", "19.52")
def test_every_inland_river_step_costs_one_whatever_the_terrain_and_the_sea_rate() -> None:
    """29.1's 1 a hex replaces the hex's terrain cost, the river-crossing extra (16.23)
    and the sea rate (19.52): a force that pays 2 a sea hex pays 1 a river hex."""
    state = board()
    terrains = set()
    dearer_on_foot = 0
    for a in sorted(h for h in MAP.hexes() if CAT.is_land(h) and river_hex(CAT, h)):
        for b in MAP.neighbours(a):
            if not CAT.is_land(b) or MAP.is_coastal(b) or not river_step(CAT, a, b):
                continue
            assert fleet_step_cost(CAT, state, a, b, Fraction(2), rivers=True) == (
                Fraction(1),
                True,
            )
            assert fleet_step_cost(CAT, state, a, b, Fraction(2)) is None  # only by river
            terrains.add(MAP.terrain_at(b))
            on_foot = step_cost(CAT, state, a, b)
            dearer_on_foot += on_foot is not None and on_foot > 1
    assert {Terrain.CLEAR, Terrain.ROUGH, Terrain.DESERT, Terrain.MARSH} <= terrains
    assert dearer_on_foot > 0  # land units would pay more on some of these steps


@pytest.mark.rule("29.2", "29.3")
def test_land_zones_stop_river_fleets_which_have_none_themselves() -> None:
    state = put(board(), "thracia", UnitKind.FLEET, MOUTH)
    fleet = state.units.at(MOUTH)
    enemy = next(
        h
        for h in MAP.neighbours(UPPER)
        if CAT.is_land(h) and h != UP and UP not in MAP.neighbours(h)
    )
    state = put(state, "slavs", UnitKind.WARBAND, enemy)
    assert UPPER in land_zoc(CAT, state, EMPIRE)
    assert UP not in land_zoc(CAT, state, EMPIRE)
    # Enemy land units' zones bind a Fleet on a river (29.3) but not at sea (19.4).
    after = sail(state, MOUTH, 6)
    after = answer(RIVERS, after, Place(UP))
    assert pending_task(after, OperationsPhase).moved is True
    after = answer(RIVERS, after, Place(UPPER))
    assert pending_task(after, OperationsPhase).moved is None
    assert not any(isinstance(o, Place) for o in options(after))
    # A Fleet up the river has no Zone of Control, nor have its passengers (29.3); at
    # the mouth it is at sea and has one (29.4).
    up = put(move(board(), fleet, UP), "thracia", UnitKind.GARRISON, UP)
    passenger = next(u for u in up.units.at(UP) if u not in fleet)
    up = attrs.evolve(up, units=up.units.embark(passenger, fleet[0]))
    assert enemy_zoc(CAT, up, BARBARIAN) == frozenset()
    mouth = move(board(), fleet, MOUTH)
    assert set(CAT.zoc_reach(MOUTH, True)) <= enemy_zoc(CAT, mouth, BARBARIAN)


@pytest.mark.rule("29.2")
def test_a_river_fleet_that_cannot_follow_its_river_in_retreat_is_lost() -> None:
    state = put(board(), "thracia", UnitKind.FLEET, UP)
    fleet = state.units.at(UP)
    way_out = [h for h in MAP.neighbours(UP) if river_step(CAT, UP, h)]
    assert way_out
    assert set(sea_retreat_steps(CAT, state, EMPIRE, fleet, UP, (), True, True)) == set(way_out)
    for hex_ in way_out:
        state = put(state, "gepidae", UnitKind.WARBAND, hex_)
    assert sea_retreat_steps(CAT, state, EMPIRE, fleet, UP, (), True, True) == []
    after = start(RIVERS, state, Retreat(EMPIRE, fleet, 1, "17.9"))
    assert after.units.where[fleet[0]] == AVAILABLE


@pytest.mark.rule("29.2", "17.28")
def test_a_river_fleet_attacks_along_its_river() -> None:
    state = put(board(), "thracia", UnitKind.FLEET, UP)
    state = put(state, "gepidae", UnitKind.WARBAND, UPPER)
    fleet = state.units.at(UP)
    assert UPPER in fleet_targets(CAT, state, fleet, UP, rivers=True)
    assert UPPER not in fleet_targets(CAT, state, fleet, UP, rivers=False)


@pytest.mark.rule("29.5")
def test_river_cities_are_ports_under_the_rule() -> None:
    lugdunum = city("Lugdunum")
    state = board()
    assert river_hex(CAT, lugdunum) and not MAP.city("Lugdunum").port
    assert not is_port(CAT, state, lugdunum)
    assert is_port(CAT, state, lugdunum, rivers=True)


@pytest.mark.rule("29.0", "19.0", "3.1")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_random_games_with_river_movement_keep_fleets_and_passengers_consistent(
    scenario: int,
) -> None:
    game = belisarius(scenario, river_movement=True)
    final, trail = random_game(game, scenario, check=check_invariants)
    assert final.ending is not None
    assert any(e.rule in ("19.52", "29.1") for *_, events in trail for e in events)


@pytest.mark.rule("29.5", "11.63")
def test_a_river_city_takes_mercenary_fleets_only_under_the_rule() -> None:
    ctesiphon = city("Ctesiphon")
    assert river_hex(CAT, ctesiphon) and not MAP.city("Ctesiphon").port
    state = blank_state("recruiting", BARBARIAN, control={"Persia": Control.BARBARIAN}, game=RIVERS)
    state = put(state, "persia", UnitKind.GARRISON, ctesiphon)
    fleets = recruit_places(CAT, state, BARBARIAN, "persia", UnitKind.FLEET, rivers=True)
    assert ctesiphon in recruit_places(CAT, state, BARBARIAN, "persia", UnitKind.GARRISON)
    assert ctesiphon in fleets
    assert ctesiphon not in recruit_places(CAT, state, BARBARIAN, "persia", UnitKind.FLEET)
