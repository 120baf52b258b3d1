"""Belisarius Random Events (6.0-6.2) and every event of the Events Chart.

Each event is forced by answering the phase's two-dice chance node with the event's
number (tens die first, 6.1); later dice are forced the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.events import (
    LEGAL_REFORMS,
    MIGRANT_REGIONS,
    WAR_REGIONS,
    PlagueEvent,
    RandomEventsPhase,
    ReligiousCrisisEvent,
    event_task,
    migrant_locations,
    ravage,
)
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    GONE,
    BelAction,
    BelState,
    Done,
    Draw,
    Markers,
    Place,
    RequestKind,
    Roll,
    Select,
    Task,
)
from byzantium.belisarius.world import enemy_zoc, in_play, units_at
from byzantium.core.game import CHANCE, Event
from tests.belisarius import support
from tests.belisarius.support import CAT, CTX, GAME, as_played, blank_state, pending, with_control

RULEBOOK = "belisarius"

CONSTANTINOPOLIS = CAT.map.city("Constantinopolis").hex
HADRIANOPOLIS = CAT.map.city("Hadrianopolis").hex
ALEXANDRIA = CAT.map.city("Alexandria").hex
ROMA = CAT.map.city("Roma").hex
SIRMIUM = CAT.map.city("Sirmium").hex


# -- helpers --------------------------------------------------------------------------


#: Scenario 1's opening control, every counter in the stock, every marker in the Pool.
EMPTY = blank_state("random events", EMPIRE, solidus=10)


def counter(nationality: str, kind: UnitKind, n: int = 0) -> str:
    """The id of the n-th counter of a nationality and type."""
    return CAT.counters[list(CAT.of_nationality(nationality, kind))[n]].id


def put(state: BelState, *placed: tuple[str, int], mutiny: bool = False) -> BelState:
    """Counters (by id) at locations; Guard counters Mutinying if asked."""
    units = state.units
    for counter_id, where in placed:
        unit = CAT.counter(counter_id)
        units = units.move(unit, where)
        if mutiny:
            units = units.flip([unit], True)
    return attrs.evolve(state, units=units)


def give(state: BelState, player: int, **counts: int) -> BelState:
    """Move markers (type ids with '_' for '-') from the Pool to a hand."""
    markers = [name.replace("_", "-") for name, count in counts.items() for _ in range(count)]
    return support.give(state, player, *markers)


def start(state: BelState, *tasks: Task) -> BelState:
    return settle(CTX, push(state, *tasks))


def act(state: BelState, *actions: BelAction) -> BelState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def events(state: BelState, *actions: BelAction) -> list[Event]:
    found: list[Event] = []
    for action in actions:
        step = GAME.step(state, action)
        found.extend(step.events)
        state = step.state
    return found


def force(state: BelState, tens: int, ones: int) -> BelState:
    """Start a Random Events Phase and answer its roll with event ``tens ones``."""
    state = start(state, RandomEventsPhase())
    assert state.pending is not None
    assert state.pending.kind is RequestKind.ROLL and state.pending.dice == 2
    return act(state, Roll((tens, ones)))


def options(state: BelState) -> tuple[BelAction, ...]:
    """The options of the pending request, asserted to be a choice."""
    assert pending(state).kind is RequestKind.CHOOSE
    return pending(state).options


def chooser(state: BelState) -> int:
    return pending(state).player


def finish(state: BelState, rng: random.Random) -> BelState:
    """Answer every request at random until the tasks are done."""
    while state.pending is not None:
        if GAME.current_player(state) == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
    return state


def where(state: BelState, counter_id: str) -> int:
    return state.units.where[CAT.counter(counter_id)]


def land_hexes(region: str) -> list[int]:
    return [h for h in sorted(CAT.regions[CAT.region(region)].hexes) if CAT.is_land(h)]


def total_markers(state: BelState) -> tuple[int, ...]:
    s = state.stratagems
    return tuple(p + a + b for p, a, b in zip(s.pool, s.hands[0], s.hands[1], strict=True))


def draws(state: BelState, *ids: str) -> BelState:
    return act(state, *(Draw(i) for i in ids))


hands = st.lists(st.integers(0, len(CAT.stratagem_ids) - 1), max_size=15)


def with_hands(state: BelState, empire: Iterable[int], barbarian: Iterable[int]) -> BelState:
    stratagems = state.stratagems
    for player, kinds in ((EMPIRE, empire), (BARBARIAN, barbarian)):
        for kind in kinds:
            if stratagems.pool[kind] > 0:
                stratagems = stratagems.transfer(kind, player, True)
    return attrs.evolve(state, stratagems=stratagems)


# -- 6.0, 6.1, 6.2: the phase ---------------------------------------------------------------


@pytest.mark.rule("6.0", "6.1")
@pytest.mark.parametrize("tens", range(1, 7))
@pytest.mark.parametrize("ones", range(1, 7))
def test_two_dice_read_as_tens_and_ones_pick_the_table_row(tens: int, ones: int) -> None:
    state = start(EMPTY, RandomEventsPhase())
    assert state.pending is not None and state.pending.dice == 2
    assert GAME.current_player(state) == CHANCE
    assert len(GAME.chance_outcomes(state)) == 36
    row = CAT.components.event(10 * tens + ones)
    logged = [e.text for e in events(state, Roll((tens, ones)))]
    assert f"Random event {10 * tens + ones}: {row.name}" in logged


@pytest.mark.rule("6.1", "6.2")
def test_every_event_of_the_table_has_a_procedure() -> None:
    quiet = {"no-event"}
    for row in CAT.components.events:
        assert (event_task(row.id) is None) == (row.id in quiet), row.id


@pytest.mark.rule("6.1")
def test_the_example_of_6_1_a_one_and_a_two_is_forces_rally() -> None:
    assert CAT.components.event(12).id == "forces-rally"
    assert CAT.components.event(21).id == "barbarian-migrations"


@pytest.mark.rule("6.0")
def test_no_event_leaves_the_board_alone() -> None:
    state = put(EMPTY, ("thracia-garrison-1", CONSTANTINOPOLIS))
    after = force(state, 5, 1)
    assert after.pending is None
    assert after.units == state.units and after.solidus == state.solidus


# -- 11-12 Forces Rally ----------------------------------------------------------------------


@pytest.mark.rule("11.4", "6.2")
def test_forces_rally_brings_a_counter_beside_its_comrades() -> None:
    state = put(EMPTY, ("thracia-garrison-1", CONSTANTINOPOLIS))
    state = force(state, 1, 1)
    assert chooser(state) == EMPIRE
    offered = {a.item for a in options(state) if isinstance(a, Select)}
    # Thracian counters (a Region he controls) and Guard counters with no Guard on the
    # map have a place only beside Thracians: only Thracians are offered.
    assert offered
    assert all(CAT.counters[CAT.counter(i)].nationality == "thracia" for i in offered)
    assert "justinian" not in offered
    field_army = counter("thracia", UnitKind.FIELD_ARMY)
    state = act(state, Select(field_army))
    assert options(state) == (Place(CONSTANTINOPOLIS),)
    state = act(state, Place(CONSTANTINOPOLIS))
    assert state.pending is None
    assert where(state, field_army) == CONSTANTINOPOLIS


@pytest.mark.rule("11.4")
def test_forces_rally_guard_joins_guard_and_the_barbarian_has_no_guard() -> None:
    state = put(EMPTY, ("guard-guard-1", HADRIANOPOLIS), ("persia-garrison-1", 6837))
    empire = force(state, 1, 2)
    offered = {a.item for a in options(empire) if isinstance(a, Select)}
    assert "belisarius" in offered and "guard-guard-2" in offered
    assert "justinian" not in offered
    after = act(empire, Select("belisarius"))
    assert options(after) == (Place(HADRIANOPOLIS),)
    barbarian = force(attrs.evolve(state, phasing=BARBARIAN), 1, 2)
    assert chooser(barbarian) == BARBARIAN
    offered = {a.item for a in options(barbarian) if isinstance(a, Select)}
    assert offered and all(CAT.counters[CAT.counter(i)].nationality == "persia" for i in offered)


@pytest.mark.rule("11.4", "12.31")
def test_forces_rally_may_instead_restore_a_mutinying_guard_stack() -> None:
    state = put(EMPTY, ("guard-guard-1", SIRMIUM), ("guard-guard-2", SIRMIUM), mutiny=True)
    state = force(state, 1, 1)
    assert Select(f"restore {SIRMIUM}") in options(state)
    state = act(state, Select(f"restore {SIRMIUM}"))
    assert state.pending is None
    assert not any(state.units.mutiny)


@pytest.mark.rule("11.4")
def test_forces_rally_with_nothing_to_rally_does_nothing() -> None:
    state = force(EMPTY, 1, 1)
    assert state.pending is None and state.units == EMPTY.units


# -- 13-14 Constantinopolis Corn Supply ----------------------------------------------------


@pytest.mark.rule("6.2", "8.51")
def test_corn_supply_without_a_fleet_costs_a_die_of_markers() -> None:
    state = put(EMPTY, ("thracia-garrison-1", CONSTANTINOPOLIS))
    state = give(state, EMPIRE, agent=3)
    state = attrs.evolve(state, phasing=BARBARIAN)  # applies to the holder, phasing or not
    state = force(state, 1, 3)
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    state = act(state, Roll((2,)))
    assert state.pending is not None and state.pending.hand == EMPIRE
    state = draws(state, "agent", "agent")
    assert state.pending is None
    assert state.stratagems.held(EMPIRE) == 1


@pytest.mark.rule("6.2")
def test_corn_supply_with_a_fleet_in_alexandria_is_harmless() -> None:
    state = put(
        EMPTY,
        ("thracia-garrison-1", CONSTANTINOPOLIS),
        (counter("aegyptus", UnitKind.FLEET), ALEXANDRIA),
    )
    state = give(state, EMPIRE, agent=3)
    after = force(state, 1, 4)
    assert after.pending is None and after.stratagems == state.stratagems


@pytest.mark.rule("6.2")
def test_corn_supply_with_constantinopolis_empty_does_nothing() -> None:
    state = give(EMPTY, EMPIRE, agent=3)
    after = force(state, 1, 3)
    assert after.pending is None and after.stratagems == state.stratagems


# -- 15-16 Attrition --------------------------------------------------------------------


def _army(state: BelState) -> BelState:
    return put(
        state,
        ("belisarius", HADRIANOPOLIS),
        ("guard-guard-1", HADRIANOPOLIS),
        ("thracia-garrison-1", CONSTANTINOPOLIS),
        ("thracia-garrison-2", CONSTANTINOPOLIS),
        ("persia-garrison-1", 6837),
    )


@pytest.mark.rule("6.2", "21.3")
def test_attrition_even_roll_takes_a_leader_first() -> None:
    state = force(_army(EMPTY), 1, 5)
    state = act(state, Roll((2,)))
    assert chooser(state) == EMPIRE
    assert options(state) == (Select("belisarius"),)
    state = act(state, Select("belisarius"))
    offered = {a.item for a in options(state) if isinstance(a, Select)}
    # one Thracian garrison stands for its identical twin; enemy counters are never offered
    assert offered == {"guard-guard-1", "thracia-garrison-1"}
    state = act(state, Select("thracia-garrison-1"))
    assert state.pending is None
    assert where(state, "belisarius") == AVAILABLE
    assert where(state, "thracia-garrison-1") == AVAILABLE
    assert where(state, "persia-garrison-1") == 6837


@pytest.mark.rule("6.2")
def test_attrition_odd_roll_is_the_players_choice_and_stops_when_he_runs_out() -> None:
    state = force(_army(EMPTY), 1, 6)
    state = act(state, Roll((5,)))
    offered = {a.item for a in options(state) if isinstance(a, Select)}
    assert "thracia-garrison-1" in offered and "belisarius" in offered
    state = finish(state, random.Random(3))
    mine = [u for u in in_play(state) if CAT.counters[u].nationality != "persia"]
    assert mine == []
    assert where(state, "persia-garrison-1") == 6837


@pytest.mark.rule("6.2", "21.4")
def test_attrition_may_kill_justinian_for_good() -> None:
    state = put(EMPTY, ("justinian", CONSTANTINOPOLIS), ("guard-guard-1", CONSTANTINOPOLIS))
    state = give(state, EMPIRE, agent=2)
    state = act(force(state, 1, 5), Roll((4,)))
    assert options(state) == (Select("justinian"),)
    state = act(state, Select("justinian"))
    assert where(state, "justinian") == GONE
    assert state.stratagems.held(EMPIRE) == 0


# -- 21 Barbarian Migrations ---------------------------------------------------------------


@pytest.mark.rule("11.4", "6.2")
def test_migrations_take_over_the_region_and_place_levy_types_only() -> None:
    slavs = land_hexes("Slavs")
    guard_hex = slavs[len(slavs) // 2]
    state = put(EMPTY, ("guard-guard-1", guard_hex))
    state = force(state, 2, 1)
    state = act(state, Roll((3,)))
    assert chooser(state) == BARBARIAN
    assert options(state) == tuple(Select(r) for r in MIGRANT_REGIONS)
    state = act(state, Select("Slavs"))
    assert state.control[CAT.region("Slavs")] is Control.BARBARIAN
    kinds = {a.item for a in options(state) if isinstance(a, Select)}
    assert kinds == {"warband", "nomad-horde"}
    zoc = enemy_zoc(CAT, state, BARBARIAN)
    for _ in range(3):
        if state.pending is not None and isinstance(options(state)[0], Select):
            state = act(state, Select("warband"))
        places = [a.where for a in options(state) if isinstance(a, Place)]
        assert places and guard_hex not in places and not set(places) & zoc
        assert all(p in slavs for p in places)
        state = act(state, Place(places[0]))
    assert state.pending is None
    placed = [u for u in in_play(state) if CAT.counters[u].nationality == "slavs"]
    assert len(placed) == 3
    assert all(CAT.counters[u].kind is UnitKind.WARBAND for u in placed)


@pytest.mark.rule("11.4", "18.3", "4.6")
def test_migrations_from_an_empire_region_may_go_to_its_box() -> None:
    state = with_control(GAME, EMPTY, "Lombards", EMPIRE)
    box = CAT.box_of(CAT.region("Lombards"))
    pillaged = set(land_hexes("Lombards")[:3])
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset(pillaged)))
    state = act(force(state, 2, 1), Roll((1,)), Select("Lombards"))
    assert state.control[CAT.region("Lombards")] is Control.BARBARIAN
    places = [a.where for a in options(state) if isinstance(a, Place)]
    assert places[0] == box and not set(places) & pillaged
    state = act(state, Place(box))
    assert state.pending is None
    assert len(units_at(state, box)) == 1


@pytest.mark.rule("11.4", "13.1")
@given(st.sampled_from(MIGRANT_REGIONS), st.integers(1, 6), st.randoms(use_true_random=False))
@settings(max_examples=20)
def test_migrants_always_land_in_their_region(region: str, roll: int, rng: random.Random) -> None:
    state = act(force(EMPTY, 2, 1), Roll((roll,)), Select(region))
    state = finish(state, rng)
    index = CAT.region(region)
    placed = [u for u in in_play(state) if CAT.home[u] == index]
    assert 0 < len(placed) <= roll
    assert all(CAT.region_of(state.units.where[u]) == index for u in placed)
    assert all(CAT.components.unit_type(CAT.counters[u].kind).levy for u in placed)


@pytest.mark.rule("11.4")
def test_migrant_locations_avoid_enemy_zoc() -> None:
    hexes = land_hexes("Arabia")
    enemy = hexes[len(hexes) // 2]
    state = put(with_control(GAME, EMPTY, "Arabia", BARBARIAN), ("guard-guard-1", enemy))
    unit = CAT.counter(counter("arabia", UnitKind.WARBAND))
    places = migrant_locations(CAT, state, unit, CAT.region("Arabia"))
    assert enemy not in places
    assert not set(places) & set(CAT.map.neighbours(enemy))


# -- 22-24 wars -----------------------------------------------------------------------------


@pytest.mark.rule("6.2")
@pytest.mark.parametrize(
    ("ones", "war"), [(2, "northern-war"), (3, "african-war"), (4, "eastern-war")]
)
def test_wars_bar_their_regions_this_turn(ones: int, war: str) -> None:
    assert set(WAR_REGIONS[war]) <= set(CAT.region_index)
    state = force(EMPTY, 2, ones)
    assert state.pending is None
    assert state.barred == frozenset(WAR_REGIONS[war])


# -- 25 Religious Crisis -------------------------------------------------------------------


@pytest.mark.rule("6.2", "8.51")
@given(hands, hands, st.randoms(use_true_random=False))
@settings(max_examples=40)
def test_religious_crisis_halves_both_hands_rounding_the_loss_up(
    empire: list[int], barbarian: list[int], rng: random.Random
) -> None:
    state = with_hands(EMPTY, empire, barbarian)
    before = [state.stratagems.held(p) for p in (EMPIRE, BARBARIAN)]
    after = finish(start(state, ReligiousCrisisEvent()), rng)
    for player, held in zip((EMPIRE, BARBARIAN), before, strict=True):
        assert after.stratagems.held(player) == held - math.ceil(held / 2)
    assert total_markers(after) == total_markers(state)


@pytest.mark.rule("6.2", "8.51")
def test_religious_crisis_forced() -> None:
    state = give(EMPTY, EMPIRE, agent=3)
    state = give(state, BARBARIAN, basileus=1)
    state = force(state, 2, 5)
    state = draws(state, "agent", "agent", "basileus")
    assert state.pending is None
    assert state.stratagems.held(EMPIRE) == 1 and state.stratagems.held(BARBARIAN) == 0


# -- 26 Prosperity -------------------------------------------------------------------------


@pytest.mark.rule("6.2", "27.31")
def test_prosperity_pays_each_occupied_unpillaged_city() -> None:
    colony = land_hexes("Persia")[0]
    state = put(
        EMPTY,
        ("thracia-garrison-1", CONSTANTINOPOLIS),
        ("thracia-garrison-2", HADRIANOPOLIS),
        ("guard-guard-1", ROMA),
        ("persia-garrison-1", colony),
    )
    state = attrs.evolve(
        state, markers=Markers(pillaged=frozenset({ROMA}), colonies=frozenset({colony}))
    )
    state = force(state, 2, 6)
    assert state.pending is None
    assert state.solidus == (12, 11)


# -- 31-32 Plague ---------------------------------------------------------------------------


@pytest.mark.rule("6.2")
def test_plague_kills_a_struck_stack_ravages_cities_and_costs_markers() -> None:
    thracia = CAT.region("Thracia")
    state = put(
        EMPTY,
        ("thracia-garrison-1", CONSTANTINOPOLIS),
        ("persia-garrison-1", 6837),
    )
    state = attrs.evolve(state, markers=Markers(works=frozenset({CONSTANTINOPOLIS})))
    state = give(state, EMPIRE, agent=2)
    state = force(state, 3, 1)
    # areas are rolled in map order, skipping those where nothing could happen
    prompts: list[str] = []
    while state.pending is not None and "Plague in" in state.pending.prompt:
        prompts.append(state.pending.prompt)
        struck = "Thracia" in state.pending.prompt
        state = act(state, Roll((6,) if struck else (1,)))
    assert any("Thracia" in p for p in prompts) and any("Persia" in p for p in prompts)
    assert any("Gepidae" in p for p in prompts)  # Sirmium could be ravaged
    assert not any("Slavs" in p for p in prompts)  # no city, no counter
    # step 2: the stack at Constantinopolis rolls and dies
    assert state.pending is not None and str(CONSTANTINOPOLIS) in state.pending.prompt
    state = act(state, Roll((2,)))
    assert where(state, "thracia-garrison-1") == AVAILABLE
    # step 3: every unpillaged city of Thracia rolls; the first is ravaged
    cities = sorted(c.hex for c in CAT.map.cities if CAT.region_of_hex(c.hex) == thracia)
    for n, city in enumerate(cities):
        assert state.pending is not None and str(city) in state.pending.prompt
        state = act(state, Roll((1,) if n == 0 else (3,)))
    assert state.markers.pillaged == frozenset({cities[0]})
    if cities[0] == CONSTANTINOPOLIS:
        assert CONSTANTINOPOLIS not in state.markers.works
    # step 4: the Empire (holding markers) rolls, the Barbarian (holding none) does not
    state = act(state, Roll((1,)), Draw("agent"))
    assert state.pending is None
    assert state.stratagems.held(EMPIRE) == 1
    assert where(state, "persia-garrison-1") == 6837


@pytest.mark.rule("6.2")
def test_plague_strikes_peripheral_boxes_too() -> None:
    box = CAT.box_of(CAT.region("Persia"))
    state = put(EMPTY, ("persia-garrison-1", box), ("persia-garrison-2", box))
    state = force(state, 3, 2)
    while state.pending is not None and "Peripheral" not in state.pending.prompt:
        state = act(state, Roll((1,)))  # the map Regions are spared
    assert state.pending is not None and "Persia Peripheral Area" in state.pending.prompt
    state = act(state, Roll((5,)), Roll((1,)))
    assert state.pending is None
    assert units_at(state, box) == []


@pytest.mark.rule("6.2")
def test_plague_removes_a_colony_and_its_public_works() -> None:
    colony = land_hexes("Gepidae")[0]
    markers = Markers(colonies=frozenset({colony}), works=frozenset({colony}))
    assert ravage(markers, colony) == Markers()
    city = Markers(works=frozenset({SIRMIUM}))
    assert ravage(city, SIRMIUM) == Markers(pillaged=frozenset({SIRMIUM}))


@pytest.mark.rule("6.2", "8.51")
@given(hands, hands, st.randoms(use_true_random=False))
@settings(max_examples=15)
def test_plague_conserves_markers_and_never_adds_counters(
    empire: list[int], barbarian: list[int], rng: random.Random
) -> None:
    state = _army(with_hands(EMPTY, empire, barbarian))
    after = finish(start(state, PlagueEvent()), rng)
    assert total_markers(after) == total_markers(state)
    assert set(in_play(after)) <= set(in_play(state))
    assert after.markers.pillaged >= state.markers.pillaged


# -- 33 Region Resists -----------------------------------------------------------------------


@pytest.mark.rule("4.41", "4.42")
def test_region_resists_sides_with_the_enemy_of_the_trespasser() -> None:
    state = put(EMPTY, ("thracia-garrison-1", SIRMIUM))
    assert state.control[CAT.region("Gepidae")] is Control.NEUTRAL
    state = force(state, 3, 3)
    assert state.pending is None
    assert state.control[CAT.region("Gepidae")] is Control.BARBARIAN


@pytest.mark.rule("4.41")
def test_region_resists_with_two_candidates_the_enemy_chooses() -> None:
    slavs = land_hexes("Slavs")[0]
    state = put(EMPTY, ("thracia-garrison-1", SIRMIUM), ("thracia-garrison-2", slavs))
    state = force(state, 3, 3)
    assert chooser(state) == BARBARIAN
    assert set(options(state)) == {Select("Gepidae"), Select("Slavs")}
    state = act(state, Select("Slavs"))
    assert state.control[CAT.region("Slavs")] is Control.BARBARIAN
    assert state.control[CAT.region("Gepidae")] is Control.NEUTRAL


@pytest.mark.rule("4.41")
def test_region_resists_without_trespassers_does_nothing() -> None:
    state = put(EMPTY, ("thracia-garrison-1", CONSTANTINOPOLIS))
    after = force(state, 3, 3)
    assert after.pending is None and after.control == state.control


# -- 34 Guard Mutiny -------------------------------------------------------------------------


@pytest.mark.rule("12.21", "12.3")
def test_guard_mutiny_spares_justinians_stack() -> None:
    state = put(
        EMPTY,
        ("justinian", CONSTANTINOPOLIS),
        ("guard-guard-1", CONSTANTINOPOLIS),
        ("guard-guard-2", HADRIANOPOLIS),
        ("solomon", HADRIANOPOLIS),
    )
    state = force(state, 3, 4)
    assert state.pending is None
    assert state.units.mutiny[CAT.counter("guard-guard-2")]
    assert state.units.mutiny[CAT.counter("solomon")]
    assert not state.units.mutiny[CAT.counter("guard-guard-1")]


@pytest.mark.rule("12.21", "12.4")
def test_guard_mutiny_barbarian_picks_the_stack() -> None:
    state = put(
        EMPTY,
        ("guard-guard-1", SIRMIUM),
        ("guard-guard-2", HADRIANOPOLIS),
        ("thracia-garrison-1", HADRIANOPOLIS),
    )
    state = force(state, 3, 4)
    assert chooser(state) == BARBARIAN
    assert set(options(state)) == {Select(str(SIRMIUM)), Select(str(HADRIANOPOLIS))}
    state = act(state, Select(str(HADRIANOPOLIS)))
    assert state.units.mutiny[CAT.counter("guard-guard-2")]
    assert not state.units.mutiny[CAT.counter("guard-guard-1")]
    # 12.4: the two sides cannot share the hex; one of them is gone
    survivors = {CAT.counters[u].guard for u in units_at(state, HADRIANOPOLIS)}
    assert len(survivors) == 1


# -- 35 Corruption --------------------------------------------------------------------------


@pytest.mark.rule("6.2")
@pytest.mark.parametrize(("treasury", "roll", "left"), [(10, 3, 7), (4, 6, 0)])
def test_corruption_costs_the_phasing_player_a_die_of_solidus(
    treasury: int, roll: int, left: int
) -> None:
    state = attrs.evolve(EMPTY, phasing=BARBARIAN, solidus=(9, treasury))
    state = act(force(state, 3, 5), Roll((roll,)))
    assert state.pending is None
    assert state.solidus == (9, left)


# -- 36 Leader Arises -----------------------------------------------------------------------


@pytest.mark.rule("21.2", "21.21")
def test_leader_arises_empire_leader_on_any_empire_counter() -> None:
    state = put(
        EMPTY,
        ("thracia-garrison-1", CONSTANTINOPOLIS),
        ("guard-guard-1", SIRMIUM),
        ("persia-garrison-1", 6837),
    )
    state = force(state, 3, 6)
    assert chooser(state) == EMPIRE
    offered = {a.item for a in options(state) if isinstance(a, Select)}
    assert {"justinian", "belisarius", "solomon"} <= offered
    assert not offered & {"kavadh", "mihr-mihroe", "vitiges", "buccelin"}
    state = act(state, Select("belisarius"))
    assert set(options(state)) == {Place(CONSTANTINOPOLIS), Place(SIRMIUM)}
    state = act(state, Place(CONSTANTINOPOLIS))
    assert state.pending is None and where(state, "belisarius") == CONSTANTINOPOLIS


@pytest.mark.rule("21.2", "21.22", "21.31")
def test_leader_arises_barbarian_leader_only_on_his_own_nation() -> None:
    armenia = land_hexes("Armenia")[0]
    state = put(
        EMPTY,
        ("persia-garrison-1", 6837),
        (counter("armenia", UnitKind.GARRISON), armenia),
    )
    state = attrs.evolve(state, phasing=BARBARIAN)
    state = force(state, 3, 6)
    offered = {a.item for a in options(state) if isinstance(a, Select)}
    assert offered == {"kavadh", "mihr-mihroe"}
    state = act(state, Select("kavadh"))
    assert options(state) == (Place(6837),)


@pytest.mark.rule("21.1", "21.4")
def test_leader_arises_never_returns_a_dead_justinian() -> None:
    state = put(EMPTY, ("thracia-garrison-1", CONSTANTINOPOLIS))
    state = attrs.evolve(state, units=state.units.move(CAT.justinian, GONE))
    state = force(state, 3, 6)
    assert Select("justinian") not in options(state)


# -- 41-43 Revolt and Legal Reforms --------------------------------------------------------


@pytest.mark.rule("4.71", "4.72", "4.41")
def test_revolt_rolls_for_every_region_in_map_order() -> None:
    state = force(EMPTY, 4, 2)
    rolled: list[str] = []
    while state.pending is not None:
        assert state.pending.kind is RequestKind.ROLL
        rolled.append(state.pending.prompt)
        # the Franks (Neutral) roll a 1: they go over to the Barbarian
        state = act(state, Roll((1,) if not rolled[1:] else (6,)))
    assert rolled == [f"Revolt check for {r.name}" for r in CAT.regions]
    assert state.control[CAT.region("Franks")] is Control.BARBARIAN
    changed = [i for i, c in enumerate(state.control) if c is not EMPTY.control[i]]
    assert changed == [CAT.region("Franks")]


@pytest.mark.rule("8.41", "8.42", "4.71")
def test_legal_reforms_spares_one_region_before_its_roll() -> None:
    state = give(EMPTY, EMPIRE, legal_reforms=1)
    state = force(state, 4, 1)
    assert chooser(state) == EMPIRE
    assert options(state) == (Done(), Select(LEGAL_REFORMS))
    state = act(state, Select(LEGAL_REFORMS))
    assert state.stratagems.held(EMPIRE) == 0
    assert state.stratagems.pool == EMPTY.stratagems.pool
    # the first Region's check is gone: the next request is the second Region's roll
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    assert state.pending.prompt == f"Revolt check for {CAT.regions[1].name}"


@pytest.mark.rule("8.41", "4.71")
def test_legal_reforms_may_be_played_in_the_enemys_random_events_phase() -> None:
    state = give(attrs.evolve(EMPTY, phasing=BARBARIAN), EMPIRE, legal_reforms=1)
    state = give(state, BARBARIAN, legal_reforms=1)
    state = force(state, 4, 3)
    assert chooser(state) == BARBARIAN
    state = act(state, Done())
    assert chooser(state) == EMPIRE
    state = act(state, Done())
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    assert state.pending.prompt == f"Revolt check for {CAT.regions[0].name}"


# -- 44 Troops Rally ------------------------------------------------------------------------


@pytest.mark.rule("12.31")
def test_troops_rally_restores_one_mutinying_stack_if_the_empire_wishes() -> None:
    state = put(EMPTY, ("guard-guard-1", SIRMIUM), ("guard-guard-2", HADRIANOPOLIS), mutiny=True)
    state = attrs.evolve(state, phasing=BARBARIAN)
    state = force(state, 4, 4)
    assert chooser(state) == EMPIRE
    assert options(state)[0] == Done()
    assert set(options(state)[1:]) == {Select(str(SIRMIUM)), Select(str(HADRIANOPOLIS))}
    declined = act(state, Done())
    assert declined.units == state.units
    state = act(state, Select(str(SIRMIUM)))
    assert not state.units.mutiny[CAT.counter("guard-guard-1")]
    assert state.units.mutiny[CAT.counter("guard-guard-2")]


# -- 45-46 Intrigue -------------------------------------------------------------------------


@pytest.mark.rule("8.2", "6.2")
@pytest.mark.parametrize("phasing", [EMPIRE, BARBARIAN])
def test_intrigue_gives_the_phasing_player_two_markers(phasing: int) -> None:
    state = attrs.evolve(EMPTY, phasing=phasing)
    state = force(state, 4, 6)
    state = draws(state, "agent", "forced-march")
    assert state.pending is None
    assert state.stratagems.held(phasing) == 2
    assert state.stratagems.held(1 - phasing) == 0
    assert total_markers(state) == total_markers(EMPTY)


# -- any event: conservation ----------------------------------------------------------------


@pytest.mark.rule("6.1", "6.2", "8.1")
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    hands,
    hands,
    st.sampled_from([EMPIRE, BARBARIAN]),
    st.randoms(use_true_random=False),
)
@settings(max_examples=60)
def test_any_event_keeps_the_stratagem_markers_and_the_counter_mix(  # noqa: PLR0917
    tens: int,
    ones: int,
    empire: list[int],
    barbarian: list[int],
    phasing: int,
    rng: random.Random,
) -> None:
    state = _army(with_hands(attrs.evolve(EMPTY, phasing=phasing), empire, barbarian))
    state = put(state, ("guard-guard-3", SIRMIUM), mutiny=True)
    after = finish(force(state, tens, ones), rng)
    assert total_markers(after) == total_markers(state)
    assert len(after.units.where) == len(state.units.where)
    for player in (EMPIRE, BARBARIAN):
        assert after.stratagems.held(player) <= max(15, state.stratagems.held(player))
    assert min(after.solidus) >= 0


# -- smoke ---------------------------------------------------------------------------------


@pytest.mark.rule("3.1", "6.0")
def test_whole_games_run_through_random_events() -> None:
    rng = random.Random(7)
    for scenario in (1, 3):
        game = Belisarius({"scenario": scenario, "capitulation": False})
        state = game.initial_state()
        seen = 0
        for _ in range(20000):
            if game.is_terminal(state):
                break
            if game.current_player(state) == CHANCE:
                outcomes = game.chance_outcomes(state)
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                action = rng.choice(game.legal_actions(state))
            if state.pending is not None and state.pending.rule == "6.1":
                seen += 1
            state = game.apply(state, action)
        assert game.is_terminal(state)
        assert seen >= 2


@pytest.mark.rule("6.1")
@given(st.integers(1, 6), st.integers(1, 6), st.randoms(use_true_random=False))
@settings(max_examples=30)
def test_states_in_the_middle_of_an_event_round_trip_through_the_codec(
    tens: int, ones: int, rng: random.Random
) -> None:
    state = _army(give(EMPTY, EMPIRE, legal_reforms=1, agent=2))
    state = put(state, ("guard-guard-3", SIRMIUM), mutiny=True)
    state = force(state, tens, ones)
    while state.pending is not None:
        assert GAME.decode_state(GAME.encode_state(as_played(state))) == as_played(state)
        state = finish_one(state, rng)


def finish_one(state: BelState, rng: random.Random) -> BelState:
    """Answer the current request at random."""
    if GAME.current_player(state) == CHANCE:
        outcomes = GAME.chance_outcomes(state)
        return GAME.apply(state, rng.choice([a for a, _ in outcomes]))
    return GAME.apply(state, rng.choice(GAME.legal_actions(state)))
