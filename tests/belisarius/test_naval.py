"""Naval Operations (19.0-19.9, 14.23, 15.14, 16.33, 17.52, 17.53, 18.22, 30.4 in part)."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Battle, LoseCounters, attack_targets
from byzantium.belisarius.components import Operation, UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.movement import land_zoc, may_end_at, reachable
from byzantium.belisarius.naval import (
    fleet_may_enter,
    fleet_reachable,
    fleet_step_cost,
    fleet_targets,
    fleet_zoc,
    is_port,
    naval_points,
    retreating_stacks,
    sea_rate,
    shore,
)
from byzantium.belisarius.operations import OperationsPhase, operable
from byzantium.belisarius.provisioning import provisioning_bill
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Place,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import eliminate, enemy_zoc
from byzantium.core.codec import codec_for
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    answer,
    belisarius,
    blank_state,
    check_invariants,
    city,
    drive,
    move,
    options,
    pending_task,
    places,
    put,
    start,
)
from tests.belisarius.test_battle import pick_roll_off_units

RULEBOOK = "belisarius"

MAP = CAT.map
ALEXANDRIA = city("Alexandria")
#: All-sea hexes off Alexandria, a coastal hex without a port beside it, and the land.
SEA_NORTH, SEA_EAST, SEA_WEST = 5339, 5439, 5239
COAST = 5440
INLAND = 5341
CONTROL = {
    "Aegyptus": Control.EMPIRE,
    "Thracia": Control.EMPIRE,
    "Vandals": Control.BARBARIAN,
    "Persia": Control.BARBARIAN,
}


def board() -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL)


def at(state: BelState, where: int) -> tuple[int, ...]:
    return state.units.at(where)


def loaded_fleet(riders: int) -> tuple[BelState, int, list[int]]:
    """An Aegyptus Fleet at SEA_NORTH carrying ``riders`` Aegyptus Garrisons:
    (the board, the Fleet, its passengers)."""
    state = put(board(), "aegyptus", UnitKind.FLEET, SEA_NORTH)
    state = put(state, "aegyptus", UnitKind.GARRISON, SEA_NORTH, count=riders)
    fleet, *passengers = sorted(at(state, SEA_NORTH), key=lambda u: not CAT.naval[u])
    units = state.units
    for unit in passengers:
        units = units.embark(unit, fleet)
    return attrs.evolve(state, units=units), fleet, passengers


def leader_of(nationality: str, stars: int) -> int:
    return next(
        c.index
        for c in CAT.counters
        if c.kind is UnitKind.LEADER
        and c.nationality == nationality
        and c.stars == stars
        and c.index != CAT.justinian
    )


def sail(state: BelState, where: int, roll: int, embark: tuple[int, ...] = ()) -> BelState:
    """Start the phase, pick the fleet force at ``where``, embark, go, roll."""
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"fleet {where}"))
    for unit in embark:
        state = answer(GAME, state, Select(f"embark {CAT.counters[unit].id}"))
    state = answer(GAME, state, Done())
    return answer(GAME, state, Roll((roll,)))


# -- forces and Operations Points ----------------------------------------------------------


@pytest.mark.rule("19.2", "14.1", "19.5")
def test_fleets_form_fleet_forces_and_their_passengers_no_land_force() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=2)
    fleet, g1, g2 = at(state, ALEXANDRIA)[2], *at(state, ALEXANDRIA)[:2]
    assert CAT.naval[fleet] and not CAT.naval[g1]
    state = attrs.evolve(state, units=state.units.embark(g1, fleet))
    ashore = operable(CTX, state, ())
    assert ashore == {ALEXANDRIA: (g2,)}
    state = start(GAME, state, OperationsPhase())
    assert Select(f"force {ALEXANDRIA}") in options(state)
    assert Select(f"fleet {ALEXANDRIA}") in options(state)
    state = answer(GAME, state, Select(f"fleet {ALEXANDRIA}"))
    assert pending_task(state, OperationsPhase).force == (g1, fleet)


@pytest.mark.rule("14.23", "19.8", "19.52")
@given(roll=st.integers(1, 6), stars=st.sampled_from([0, 1, 2]))
def test_fleet_operations_points_ignore_passengers_and_use_leaders(roll: int, stars: int) -> None:
    fleet = next(c for c in CAT.counters if c.naval)
    garrison = next(c for c in CAT.counters if c.kind is UnitKind.GARRISON)
    force = [fleet.index, garrison.index]
    if stars:
        force.append(leader_of("guard", stars))
    assert garrison.operations < fleet.operations
    assert naval_points(CAT, force, roll) == fleet.operations + roll * (1 + stars)


@pytest.mark.rule("14.23", "14.22")
def test_the_lowest_fleet_fixes_the_points() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA, count=2)
    fleets = at(state, ALEXANDRIA)
    state = sail(state, ALEXANDRIA, 4)
    assert (
        pending_task(state, OperationsPhase).points
        == min(CAT.counters[f].operations for f in fleets) + 4
    )
    state = answer(GAME, state, Place(SEA_NORTH))
    # The points left are kept and counted down as they are spent (14.22).
    assert (
        pending_task(state, OperationsPhase).points
        == min(CAT.counters[f].operations for f in fleets) + 4 - 1
    )


# -- where Fleets go -----------------------------------------------------------------------


@pytest.mark.rule("16.33", "19.1", "15.13")
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(MAP.hexes())))
def test_fleets_never_enter_all_land_hexes_nor_cross_all_land_sides(hex_: int) -> None:
    for other in MAP.neighbours(hex_):
        priced = fleet_step_cost(CAT, board(), hex_, other, Fraction(1))
        if priced is not None:
            assert fleet_may_enter(CAT, other)
            assert not CAT.is_land(other) or MAP.is_coastal(other)
            assert CAT.water_side(hex_, other)
        if CAT.is_land(other) and not MAP.is_coastal(other):
            assert priced is None
    for other in CAT.zoc_reach(hex_, True):
        assert fleet_may_enter(CAT, other) and CAT.water_side(hex_, other)


@pytest.mark.rule("16.33", "19.1", "19.2")
@settings(max_examples=25, deadline=None)
@given(
    start_hex=st.sampled_from(
        sorted(h for h in MAP.hexes() if fleet_may_enter(CAT, h) and CAT.region_of_hex(h) < 0)
    ),
    points=st.integers(1, 30),
)
def test_a_fleet_only_ever_reaches_water(start_hex: int, points: int) -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, start_hex)
    fleet = at(state, start_hex)
    found = fleet_reachable(CAT, state, fleet, start_hex, points)
    assert found[start_hex] == 0
    for where, cost in found.items():
        assert cost <= points
        assert where < 101 or fleet_may_enter(CAT, where)


@pytest.mark.rule("19.52")
def test_from_a_port_one_point_a_hex_from_a_bare_coast_two() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    assert is_port(CAT, state, ALEXANDRIA) and not is_port(CAT, state, COAST)
    assert sea_rate(CAT, state, ALEXANDRIA) == 1
    assert sea_rate(CAT, state, COAST) == 2
    assert sea_rate(CAT, state, SEA_NORTH) == 1
    after = sail(state, ALEXANDRIA, 1)
    points = pending_task(after, OperationsPhase).points
    after = answer(GAME, after, Place(SEA_EAST))
    assert pending_task(after, OperationsPhase).points == points - 1
    # The same Fleet starting on the coast beside the port pays two a hex.
    state = move(state, at(state, ALEXANDRIA), COAST)
    after = sail(state, COAST, 1)
    points = pending_task(after, OperationsPhase).points
    assert places(after) >= {SEA_EAST, ALEXANDRIA}
    after = answer(GAME, after, Place(SEA_EAST))
    assert pending_task(after, OperationsPhase).points == points - 2
    assert {w for w, c in fleet_reachable(CAT, state, at(state, COAST), COAST, 4).items()} >= {
        SEA_EAST,
        SEA_NORTH,
    }


@pytest.mark.rule("19.3", "16.31")
def test_enemy_land_units_on_a_coast_block_fleets_and_fleets_block_land_units() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.WARBAND, COAST)
    fleet = at(state, ALEXANDRIA)
    assert COAST not in fleet_reachable(CAT, state, fleet, ALEXANDRIA, 10)
    # An enemy Fleet on the coast keeps land units out as any counter would.
    state = put(board(), "aegyptus", UnitKind.GARRISON, INLAND)
    state = put(state, "vandals", UnitKind.FLEET, COAST)
    garrison = at(state, INLAND)
    assert COAST in MAP.neighbours(INLAND)
    assert COAST not in reachable(CAT, state, garrison, INLAND, 10)


@pytest.mark.rule("19.4", "15.2")
def test_fleet_zones_stop_fleets_but_not_land_units_and_the_reverse() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.FLEET, 5337)
    assert SEA_NORTH not in MAP.neighbours(5337)
    zoc = fleet_zoc(CAT, state, EMPIRE)
    assert 5338 in zoc and SEA_NORTH not in zoc
    # A Fleet's zone does not touch land units (19.4) ...
    assert not land_zoc(CAT, state, EMPIRE) & zoc
    state = sail(state, ALEXANDRIA, 1)
    state = answer(GAME, state, Place(SEA_NORTH))
    state = answer(GAME, state, Place(5338))
    # ... but it stops a fleet force entering it (15.2).
    assert pending_task(state, OperationsPhase).moved is None
    assert not places(state)
    # Land units' zones do not stop a fleet force (19.4).
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.WARBAND, 5241)
    assert COAST in MAP.neighbours(ALEXANDRIA) and 5240 in land_zoc(CAT, state, EMPIRE)
    state = sail(state, ALEXANDRIA, 1)
    state = answer(GAME, state, Place(5240))
    assert pending_task(state, OperationsPhase).moved is True
    assert places(state)


# -- naval transport -----------------------------------------------------------------------


@pytest.mark.rule("19.5", "19.51", "19.52")
def test_three_land_units_a_fleet_leaders_included() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=3)
    leader = leader_of("guard", 1)
    state = move(state, [leader], ALEXANDRIA)
    land = [u for u in at(state, ALEXANDRIA) if not CAT.naval[u]]
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"fleet {ALEXANDRIA}"))
    offered = {o.item for o in options(state) if isinstance(o, Select)}
    assert offered == {f"embark {CAT.counters[u].id}" for u in land}
    for unit in land[:3]:
        state = answer(GAME, state, Select(f"embark {CAT.counters[unit].id}"))
    # The Fleet is full: the fourth (here the Leader) stays ashore.
    assert not any(isinstance(o, Select) for o in options(state))
    fleet = next(u for u in at(state, ALEXANDRIA) if CAT.naval[u])
    assert state.units.passengers(fleet) == tuple(sorted(land[:3]))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((2,)))
    # Embarking cost nothing (19.52).
    assert pending_task(state, OperationsPhase).points == CAT.counters[fleet].operations + 2 * (
        1 + max(CAT.counters[u].stars for u in land[:3])
    )


@pytest.mark.rule("19.5", "19.51")
def test_two_fleets_carry_six() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA, count=2)
    state = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=7)
    land = [u for u in at(state, ALEXANDRIA) if not CAT.naval[u]]
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"fleet {ALEXANDRIA}"))
    for unit in land[:6]:
        state = answer(GAME, state, Select(f"embark {CAT.counters[unit].id}"))
    assert not any(isinstance(o, Select) and o.item.startswith("embark") for o in options(state))
    loads = Counter(f for _, f in state.units.aboard)
    assert sorted(loads.values()) == [3, 3]


@pytest.mark.rule("19.5")
def test_no_embarking_inland() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, SEA_NORTH)
    assert not shore(CAT, state, SEA_NORTH)
    assert shore(CAT, state, COAST) and shore(CAT, state, ALEXANDRIA)
    assert not shore(CAT, state, INLAND)
    assert shore(CAT, state, 4)  # the Persian box has a port (18.22)
    assert not shore(CAT, state, 1)


@pytest.mark.rule("19.5", "19.54", "13.21", "16.32")
def test_a_landing_party_sails_lands_and_operates_no_more() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=2)
    fleet = next(u for u in at(state, ALEXANDRIA) if CAT.naval[u])
    g1, g2 = (u for u in at(state, ALEXANDRIA) if not CAT.naval[u])
    state = put(state, "aegyptus", UnitKind.GARRISON, INLAND)
    state = sail(state, ALEXANDRIA, 3, embark=(g1, g2))
    state = answer(GAME, state, Place(SEA_NORTH))
    # At sea nobody lands, and the passengers are with their Fleet.
    assert Select("debark") not in options(state)
    assert state.units.where[g1] == state.units.where[g2] == state.units.where[fleet] == SEA_NORTH
    state = answer(GAME, state, Place(SEA_WEST))
    state = answer(GAME, state, Place(5240))
    assert Select("debark") in options(state)
    assert Select(f"debark {CAT.counters[g1].id}") in options(state)
    state = answer(GAME, state, Select(f"debark {CAT.counters[g1].id}"))
    assert state.units.carrier(g1) == -1 and state.units.carrier(g2) == fleet
    assert pending_task(state, OperationsPhase).force == (g2, fleet)
    # The Fleet goes on with the other one (19.54).
    state = answer(GAME, state, Place(SEA_WEST))
    state = answer(GAME, state, Done())
    assert state.units.where[g1] == 5240 and state.units.where[g2] == SEA_WEST
    # The landed counter operates no more this phase, nor does the fleet force.
    assert Select(f"force {INLAND}") in options(state)
    assert Select("force 5240") not in options(state)
    assert Select(f"fleet {SEA_WEST}") not in options(state)


@pytest.mark.rule("19.55", "19.5")
def test_passengers_may_stay_on_board_into_the_next_phase() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA)
    garrison = next(u for u in at(state, ALEXANDRIA) if not CAT.naval[u])
    state = sail(state, ALEXANDRIA, 3, embark=(garrison,))
    state = answer(GAME, state, Place(COAST))
    state = answer(GAME, state, Done())
    assert state.units.carrier(garrison) >= 0
    # A new phase: the garrison is still on board, not a land force of its own.
    state = start(GAME, state, OperationsPhase())
    assert Select(f"fleet {COAST}") in options(state)
    assert Select(f"force {COAST}") not in options(state)


@pytest.mark.rule("19.53", "13.1", "19.7", "20.6")
def test_embarked_units_count_for_stacking_and_forage() -> None:
    state, _, _ = loaded_fleet(3)
    # At sea nothing forages: all four are paid for (19.7, 20.6).
    bill = sum(CAT.counters[u].provisioning for u in at(state, SEA_NORTH))
    assert provisioning_bill(CTX, state, SEA_NORTH) == bill > 0
    # Seven more land counters at the port make eleven with the force sailing in.
    crowded = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=7)
    assert not may_end_at(CAT, crowded, at(state, SEA_NORTH), ALEXANDRIA)
    fewer = put(state, "aegyptus", UnitKind.GARRISON, ALEXANDRIA, count=6)
    assert may_end_at(CAT, fewer, at(state, SEA_NORTH), ALEXANDRIA)


@pytest.mark.rule("15.14", "19.64")
def test_land_units_on_board_have_no_zone_of_control() -> None:
    state = put(board(), "vandals", UnitKind.FLEET, COAST)
    state = put(state, "vandals", UnitKind.WARBAND, COAST)
    fleet, warband = sorted(at(state, COAST), key=lambda u: not CAT.naval[u])
    ashore = enemy_zoc(CAT, state, EMPIRE)
    assert INLAND in ashore
    state = attrs.evolve(state, units=state.units.embark(warband, fleet))
    aboard = enemy_zoc(CAT, state, EMPIRE)
    assert INLAND not in aboard  # the Fleet's zone does not reach all-land hexes
    assert INLAND not in land_zoc(CAT, state, EMPIRE)
    assert ALEXANDRIA in aboard  # the Fleet's own zone stands


# -- combat ---------------------------------------------------------------------------------


@pytest.mark.rule("19.61", "19.62", "17.28", "35.0")
def test_who_may_attack_whom_across_the_shore() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, SEA_NORTH)
    state = put(state, "vandals", UnitKind.WARBAND, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.FLEET, SEA_EAST)
    fleet = at(state, SEA_NORTH)
    # A Fleet attacks land units on a coast and Fleets at sea.
    assert set(fleet_targets(CAT, state, fleet, SEA_NORTH)) == {ALEXANDRIA, SEA_EAST}
    # Land units never attack a Fleet at sea ...
    state = put(board(), "aegyptus", UnitKind.GARRISON, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.FLEET, SEA_NORTH)
    state = put(state, "vandals", UnitKind.FLEET, COAST)
    targets = attack_targets(CAT, state, at(state, ALEXANDRIA), ALEXANDRIA)
    assert SEA_NORTH not in targets
    # ... but do attack one on a coast over land (35.0).
    assert COAST in targets
    # A Fleet never attacks an all-land hex.
    state = put(board(), "aegyptus", UnitKind.FLEET, COAST)
    state = put(state, "vandals", UnitKind.WARBAND, 5541)
    assert 5541 in MAP.neighbours(COAST)
    assert 5541 not in fleet_targets(CAT, state, at(state, COAST), COAST)


@pytest.mark.rule("19.63", "19.6", "17.24", "19.8")
def test_passengers_fight_with_their_fleet() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "aegyptus", UnitKind.FIELD_ARMY, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.FLEET, SEA_EAST)
    fleet, army = sorted(at(state, ALEXANDRIA), key=lambda u: not CAT.naval[u])
    enemy = at(state, SEA_EAST)[0]
    state = sail(state, ALEXANDRIA, 6, embark=(army,))
    assert Select(f"attack {SEA_EAST}") in options(state)
    state = answer(GAME, state, Select(f"attack {SEA_EAST}"))
    battle = state.pending.task if state.pending else None
    assert isinstance(battle, Battle) and battle.force == (army, fleet)
    state = answer(GAME, state, Select("stand"))
    while state.pending is not None and state.pending.rule != "17.7":
        state = answer(GAME, state, options(state)[0])
    step = GAME.step(state, Roll((3,)))
    text = next(e.text for e in step.events if e.rule == "17.71")
    ours = CAT.counters[fleet].combat + CAT.counters[army].combat
    assert text.startswith(f"strength {ours} (x1) against {CAT.counters[enemy].combat} ")


@pytest.mark.rule("17.52", "17.53", "17.54")
def test_a_mixed_stack_withdraws_by_sea_and_by_land_on_one_die() -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, ALEXANDRIA)
    state = put(state, "vandals", UnitKind.FLEET, COAST)
    state = put(state, "vandals", UnitKind.WARBAND, COAST, count=2)
    fleet, rider, ashore = sorted(at(state, COAST), key=lambda u: not CAT.naval[u])
    state = attrs.evolve(state, units=state.units.embark(rider, fleet))
    assert retreating_stacks(CAT, state, at(state, COAST)) == [(rider, fleet), (ashore,)]
    attacker = at(state, ALEXANDRIA)
    resume = OperationsPhase(stage="move", force=attacker, where=ALEXANDRIA, points=Fraction(20))
    state = start(GAME, state, Battle(attacker, ALEXANDRIA, COAST, Fraction(20), resume))
    state = pick_roll_off_units(answer(GAME, state, Select("withdraw")))
    state = answer(GAME, state, Roll((1, 6)))  # the defender wins the roll-off
    state = answer(GAME, state, Roll((1,)))  # one hex, for both stacks (17.53)
    assert state.pending is not None and state.pending.player == BARBARIAN
    sea_places = places(state)
    assert sea_places and all(fleet_may_enter(CAT, h) for h in sea_places)
    assert 5540 in sea_places and SEA_EAST not in sea_places  # the attacker's zone (19.4)
    state = answer(GAME, state, Place(5540))
    land_places = places(state)
    assert land_places and all(CAT.is_land(h) for h in land_places)
    assert {5541, 5441} <= land_places
    state = answer(GAME, state, Place(5541))
    where = state.units.where
    assert where[fleet] == where[rider] == 5540 and where[ashore] == 5541
    assert state.units.carrier(rider) == fleet


# -- losing a Fleet ----------------------------------------------------------------------------


@pytest.mark.rule("30.4", "19.5", "21.3")
@given(data=st.data())
def test_a_fleet_lost_for_any_reason_takes_its_passengers(data: st.DataObject) -> None:
    state = put(board(), "aegyptus", UnitKind.FLEET, SEA_NORTH, count=2)
    state = put(state, "aegyptus", UnitKind.GARRISON, SEA_NORTH, count=4)
    fleets = [u for u in at(state, SEA_NORTH) if CAT.naval[u]]
    land = [u for u in at(state, SEA_NORTH) if not CAT.naval[u]]
    board_ = state.units
    for unit in land:
        board_ = board_.embark(unit, data.draw(st.sampled_from(fleets)))
    state = attrs.evolve(state, units=board_)
    lost = data.draw(st.sampled_from(fleets))
    riders = state.units.passengers(lost)
    after = eliminate(CTX, state, [lost], "20.3")
    assert all(after.units.where[u] == AVAILABLE for u in (lost, *riders))
    assert all(after.units.where[u] == SEA_NORTH for u in set(land) - set(riders))
    assert all(lost not in pair and pair[0] not in riders for pair in after.units.aboard)


@pytest.mark.rule("30.4", "17.8")
def test_choosing_a_fleet_as_a_combat_loss_sinks_its_passengers() -> None:
    state, fleet, _ = loaded_fleet(2)
    after, events, _ = drive(
        state,
        LoseCounters(EMPIRE, at(state, SEA_NORTH), 1),
        lambda r: Select(f"lose {CAT.counters[fleet].id}"),
    )
    assert not after.units.at(SEA_NORTH)
    assert sum(e.rule == "30.4" for e in events) == 2


# -- the Persian box -------------------------------------------------------------------------


@pytest.mark.rule("18.22", "19.9", "18.21", "18.2#2")
def test_the_persian_port_opens_on_the_sinus_persicus_only() -> None:
    persia = CAT.box_of(CAT.region("Persia"))
    gulf = min(MAP.sea_area("Sinus Persicus").hexes)
    caspian = min(MAP.sea_area("Pontus Caspium").hexes)
    state = put(board(), "persia", UnitKind.FLEET, gulf)
    fleet = at(state, gulf)
    box_price = CAT.components.operation_cost(Operation.ENTER_PERIPHERAL_AREA)
    assert fleet_reachable(CAT, state, fleet, gulf, 5)[persia] == box_price
    state = move(state, fleet, caspian)
    assert persia not in fleet_reachable(CAT, state, fleet, caspian, 30)
    # Out of the box into the gulf at a port's rate.
    state = move(state, fleet, persia)
    out = fleet_reachable(CAT, state, fleet, persia, 1)
    assert gulf in out and out[gulf] == 1 and caspian not in out
    # Only Persian counters go in (18.2#2).
    state = put(board(), "vandals", UnitKind.FLEET, gulf)
    assert persia not in fleet_reachable(CAT, state, at(state, gulf), gulf, 20)


# -- whole games ------------------------------------------------------------------------------


def _seafaring(game: Belisarius, state: BelState, rng: random.Random) -> BelAction:
    """A random answer that prefers fleet forces, embarking and landing when offered."""
    request = state.pending
    assert request is not None
    if request.kind is RequestKind.CHOOSE:
        naval = [
            o
            for o in request.options
            if isinstance(o, Select) and o.item.split(" ")[0] in ("fleet", "embark", "debark")
        ]
        if naval and rng.random() < 0.8:
            return rng.choice(naval)
        return rng.choice(request.options)
    return (
        game.chance_outcomes(state)[0][0]
        if request.kind is RequestKind.DRAW
        else Roll(tuple(rng.randint(1, 6) for _ in range(request.dice)))
    )


@pytest.mark.rule("19.5", "19.51", "19.54", "19.55", "16.33", "19.0")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_seafaring_random_play_keeps_passengers_with_their_fleets(scenario: int) -> None:
    game = belisarius(scenario)
    rng = random.Random(scenario)
    state = game.initial_state()
    seen: Counter[str] = Counter()
    for _ in range(30_000):
        check_invariants(game, state)
        if state.ending is not None:
            break
        action = _seafaring(game, state, rng)
        step = game.step(state, action)
        seen.update(e.rule for e in step.events if e.rule in ("19.5", "19.54", "19.52"))
        state = step.state
    assert state.ending is not None
    assert seen["19.5"] and seen["19.52"] and seen["19.54"]


@pytest.mark.rule("19.5")
def test_who_is_on_board_survives_a_json_round_trip() -> None:
    state, fleet, riders = loaded_fleet(2)
    units = state.units
    codec = codec_for(BelState)
    again = codec.decode(json.loads(json.dumps(codec.encode(state))))
    assert again == state
    assert again.units.passengers(fleet) == tuple(riders)
    # A counter leaving play leaves the table, as passenger or as Fleet.
    assert units.move(riders[0], AVAILABLE).aboard == ((riders[1], fleet),)
    assert units.move(fleet, AVAILABLE).aboard == ()
    assert units.debark(riders[1]).aboard == ((riders[0], fleet),)
