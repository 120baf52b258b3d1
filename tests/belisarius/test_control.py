"""Control of Regions and counters (4.x), occupation (5.x), eliminations (21.3, 21.4),
Guard mutiny and restoration (12.x) and Revolt checks (4.71, 4.72).

Boards are built from a scenario's set-up state with ``attrs.evolve``; the random
boards of the properties only ever put a counter where :func:`can_place` allows it,
so they are legal positions (13.1x) with any mix of Region control.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import RevoltOutcome, UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.revolt import RevoltCheck, revolt_modifier, revolt_outcome
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    GONE,
    NOBODY,
    BelState,
    RequestKind,
    Roll,
    Stratagems,
)
from byzantium.belisarius.world import (
    available,
    can_place,
    change_control,
    city_hexes,
    controller,
    eliminate,
    friendly_units,
    guard_stacks,
    in_play,
    mutiny_stack,
    occupied_cities,
    region_controller,
    restore_stack,
    units_at,
)
from byzantium.core.game import Event
from tests.belisarius.support import (
    CAT,
    assert_legal,
    boards,
    controllers_at,
    controls,
    empty_board,
    move,
    non_leaders,
    set_control,
    set_up_context,
    set_up_game,
    set_up_state,
)

RULEBOOK = "belisarius"

PLAYERS_AND_NOBODY = (EMPIRE, BARBARIAN, NOBODY)


# -- helpers --------------------------------------------------------------------------


def _of(nationality: str, kind: UnitKind | None = None, n: int = 1) -> list[int]:
    found = list(CAT.of_nationality(nationality, kind))
    assert len(found) >= n, f"the mix has fewer than {n} {nationality} counters"
    return found[:n]


def _guards(n: int) -> list[int]:
    cat = CAT
    found = list(cat.of_nationality("guard", UnitKind.GUARD))
    assert len(found) >= n
    return found[:n]


def _inland_hex(region: str, avoid: Iterable[int] = ()) -> int:
    """A land hex of a Region with no City, not in ``avoid``."""
    cat = CAT
    cities = set(city_hexes(cat, set_up_state()))
    skip = set(avoid)
    for hex_ in sorted(cat.map.region(region).hexes):
        if cat.is_land(hex_) and hex_ not in cities and hex_ not in skip:
            return hex_
    raise AssertionError(f"{region} has no free land hex")


def _city_outside(region: str) -> int:
    cat = CAT
    inside = cat.map.region(region).hexes
    return next(c.hex for c in cat.map.cities if c.hex not in inside)


# -- random legal boards ----------------------------------------------------------------


def regions() -> st.SearchStrategy[int]:
    """Any Region index."""
    return st.integers(0, len(CAT.regions) - 1)


@st.composite
def boards_and_regions(draw: st.DrawFn) -> tuple[BelState, int]:
    """A board and a Region, often one with counters in a mixed stack or in play."""
    cat = CAT
    state = draw(boards())
    present = sorted({cat.home[u] for u in in_play(state) if cat.home[u] >= 0})
    mixed = sorted(
        {
            cat.home[u]
            for u in in_play(state)
            if cat.home[u] >= 0
            and any(cat.home[o] != cat.home[u] for o in units_at(state, state.units.where[u]))
        }
    )
    for choice in (mixed, present):
        wanted: bool = draw(st.booleans())
        if choice and wanted:
            return state, draw(st.sampled_from(choice))
    return state, draw(regions())


# -- 4.0-4.3: who controls what ----------------------------------------------------------


@pytest.mark.rule("4.0", "4.1", "4.2", "21.31")
@given(controls())
def test_regional_counters_follow_their_regions_control(control: tuple[Control, ...]) -> None:
    cat = CAT
    state = attrs.evolve(set_up_state(), control=control)
    for counter in cat.counters:
        home = cat.home[counter.index]
        if home < 0:
            continue
        expected = region_controller(state, home)
        assert controller(cat, state, counter.index) == expected
        assert expected == {Control.EMPIRE: EMPIRE, Control.BARBARIAN: BARBARIAN}.get(
            state.control[home], NOBODY
        )


@pytest.mark.rule("4.12", "12.0", "12.2", "21.32")
@given(controls(), st.data())
def test_guard_counters_are_never_neutral(
    control: tuple[Control, ...], data: st.DataObject
) -> None:
    cat = CAT
    state = attrs.evolve(set_up_state(), control=control)
    guard = [c.index for c in cat.counters if c.guard]
    assert guard, "the mix has Guard counters"
    rebels = data.draw(st.lists(st.sampled_from(guard), unique=True))
    state = attrs.evolve(state, units=state.units.flip(rebels, True))
    for unit in guard:
        assert controller(cat, state, unit) == (BARBARIAN if unit in rebels else EMPIRE)


@pytest.mark.rule("21.31")
def test_a_leader_with_a_nationality_changes_hands_with_his_region() -> None:
    cat = CAT
    leaders = [c for c in cat.counters if c.kind is UnitKind.LEADER and cat.home[c.index] >= 0]
    assert leaders, "some Leaders belong to a Region"
    leader = leaders[0]
    region = cat.home[leader.index]
    state = set_control(empty_board(), region, BARBARIAN)
    troops = non_leaders(leader.nationality, 1)
    hex_ = _inland_hex(cat.regions[region].name)
    state = move(state, [leader.index, *troops], hex_)
    assert controller(cat, state, leader.index) == BARBARIAN
    after = change_control(set_up_context(), state, region, EMPIRE, "9.0")
    assert controller(cat, after, leader.index) == EMPIRE
    assert after.units.where[leader.index] == hex_


@pytest.mark.rule("4.11", "4.1")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_set_up_records_the_scenarios_control_per_region(scenario: int) -> None:
    cat = set_up_game(scenario).catalog
    state = set_up_state(scenario)
    assert len(state.control) == len(cat.regions)
    given_control = {cat.region_by_code[e.region]: e.control for e in cat.scenario.control}
    for region, control in enumerate(state.control):
        assert control is given_control.get(region, Control.NEUTRAL)


@pytest.mark.rule("4.3", "4.31", "13.12")
@given(boards())
def test_neutral_counters_belong_to_nobody_and_keep_belligerents_out(state: BelState) -> None:
    cat = CAT
    neutral = [u for u in in_play(state) if controller(cat, state, u) == NOBODY]
    for unit in neutral:
        assert region_controller(state, cat.home[unit]) == NOBODY
        for player in (EMPIRE, BARBARIAN):
            assert unit not in friendly_units(cat, state, player)
        where = state.units.where[unit]
        for player in (EMPIRE, BARBARIAN):
            other = next(u for u in range(len(cat.counters)) if cat.home[u] >= 0 and u != unit)
            assert not can_place(cat, state, other, where, player)


@pytest.mark.rule("4.2")
@given(boards())
def test_friendly_units_are_the_counters_in_play_a_player_controls(state: BelState) -> None:
    cat = CAT
    mine = {p: set(friendly_units(cat, state, p)) for p in (EMPIRE, BARBARIAN)}
    assert not mine[EMPIRE] & mine[BARBARIAN]
    for unit in in_play(state):
        owner = controller(cat, state, unit)
        assert (unit in mine.get(owner, set())) == (owner != NOBODY)
    assert all(state.units.where[u] > AVAILABLE for p in mine for u in mine[p])


# -- 5.0, 5.1: occupation ----------------------------------------------------------------


@pytest.mark.rule("5.0", "5.1")
@given(boards())
def test_a_player_occupies_the_cities_his_counters_stand_in(state: BelState) -> None:
    cat = CAT
    hexes = city_hexes(cat, state)
    held: dict[int, set[int]] = {}
    for player in (EMPIRE, BARBARIAN):
        held[player] = set(occupied_cities(cat, state, player))
        expected = {
            h for h in hexes if any(controller(cat, state, u) == player for u in units_at(state, h))
        }
        assert held[player] == expected
        for region in range(len(cat.regions)):
            part = set(occupied_cities(cat, state, player, region))
            assert part == {h for h in expected if cat.region_of_hex(h) == region}
    assert not held[EMPIRE] & held[BARBARIAN]


@pytest.mark.rule("5.0", "5.1")
def test_occupation_not_control_counts_and_ends_when_the_hex_is_abandoned() -> None:
    cat = CAT
    # An Empire counter in a City of a Region the Barbarian controls occupies it (5.1).
    region = next(
        i for i, r in enumerate(cat.regions) if cat.map.cities_in(r.name) and r.name != "Thracia"
    )
    city = cat.map.cities_in(cat.regions[region].name)[0].hex
    state = set_control(empty_board(), region, BARBARIAN)
    thracian = non_leaders("thracia", 1)
    state = set_control(state, cat.region("Thracia"), EMPIRE)
    state = move(state, thracian, city)
    assert city in occupied_cities(cat, state, EMPIRE)
    assert city in occupied_cities(cat, state, EMPIRE, region)
    assert city not in occupied_cities(cat, state, BARBARIAN)
    left = move(state, thracian, AVAILABLE)
    assert city not in occupied_cities(cat, left, EMPIRE)
    # Colonies count as Cities.
    spot = _inland_hex("Thracia")
    colony = attrs.evolve(
        move(left, thracian, spot), markers=attrs.evolve(left.markers, colonies=frozenset({spot}))
    )
    assert spot in occupied_cities(cat, colony, EMPIRE)


# -- changes of control: 4.42, 4.51, 4.6, 13.131 --------------------------------------------


@pytest.mark.rule("4.42", "4.51", "4.6", "13.131", "13.12", "13.132")
@given(boards_and_regions(), st.sampled_from(PLAYERS_AND_NOBODY))
def test_a_change_of_control_never_leaves_mixed_stacks(
    board: tuple[BelState, int], to: int
) -> None:
    cat = CAT
    state, region = board
    assert_legal(cat, state)
    after = change_control(set_up_context(), state, region, to, "test")
    assert region_controller(after, region) == to
    assert_legal(cat, after)


@pytest.mark.rule("4.11", "4.42", "4.51", "4.6")
@given(boards_and_regions(), st.sampled_from(PLAYERS_AND_NOBODY))
def test_a_change_of_control_touches_only_that_regions_counters(
    board: tuple[BelState, int], to: int
) -> None:
    cat = CAT
    state, region = board
    after = change_control(set_up_context(), state, region, to, "test")
    assert [c for i, c in enumerate(after.control) if i != region] == [
        c for i, c in enumerate(state.control) if i != region
    ]
    for unit, where in enumerate(state.units.where):
        if cat.home[unit] != region:
            assert after.units.where[unit] == where
            assert after.units.mutiny[unit] == state.units.mutiny[unit]
        else:
            assert after.units.where[unit] in (where, AVAILABLE)


@pytest.mark.rule("4.51", "13.131")
@given(boards_and_regions())
def test_reversion_keeps_counters_home_or_in_cities(board: tuple[BelState, int]) -> None:
    cat = CAT
    state, region = board
    cities = set(city_hexes(cat, state))
    after = change_control(set_up_context(), state, region, NOBODY, "test")
    for unit in in_play(after):
        if cat.home[unit] != region:
            continue
        where = after.units.where[unit]
        assert cat.region_of(where) == region or where in cities
        assert all(controller(cat, after, other) == NOBODY for other in units_at(after, where)), (
            "a newly Neutral counter shares a hex with belligerents"
        )
    if region_controller(state, region) == NOBODY:
        assert after == state


@pytest.mark.rule("4.51")
@given(boards_and_regions())
def test_reversion_removes_only_what_it_must(board: tuple[BelState, int]) -> None:
    """A counter of the Region at home or in a City, alone or with its own, stays (4.51)."""
    cat = CAT
    state, region = board
    if region_controller(state, region) == NOBODY:
        return
    cities = set(city_hexes(cat, state))
    after = change_control(set_up_context(), state, region, NOBODY, "test")
    for unit in in_play(state):
        if cat.home[unit] != region:
            continue
        where = state.units.where[unit]
        company = {cat.home[o] for o in units_at(state, where)}
        stays = (cat.region_of(where) == region or where in cities) and company == {region}
        assert (after.units.where[unit] == where) == stays


@pytest.mark.rule("4.6", "13.131", "21.31")
@given(boards_and_regions())
def test_defection_hands_over_every_counter_not_stacked_with_old_comrades(
    board: tuple[BelState, int],
) -> None:
    cat = CAT
    state, region = board
    before = region_controller(state, region)
    if before == NOBODY:
        return
    to = 1 - before
    after = change_control(set_up_context(), state, region, to, "9.0")
    for unit in in_play(state):
        if cat.home[unit] != region:
            continue
        where = state.units.where[unit]
        alone = {cat.home[o] for o in units_at(state, where)} == {region}
        assert (after.units.where[unit] == where) == alone
        if alone:
            assert controller(cat, after, unit) == to


@pytest.mark.rule("4.42", "15.13#2")
@given(boards_and_regions(), st.sampled_from((EMPIRE, BARBARIAN)))
def test_belligerency_only_changes_hands(board: tuple[BelState, int], to: int) -> None:
    cat = CAT
    state, region = board
    neutral = set_control(state, region, NOBODY)
    # Making the Region Neutral by hand may leave its counters stacked with others:
    # drop such boards, as a Neutral Region's counters never are.
    if any(len(owners) > 1 for owners in controllers_at(cat, neutral).values()):
        return
    after = change_control(set_up_context(), neutral, region, to, "9.0")
    assert after.units == neutral.units
    for unit in in_play(after):
        if cat.home[unit] == region:
            assert controller(cat, after, unit) == to


@pytest.mark.rule("4.51", "13.131", "4.52")
def test_reversion_concrete_case() -> None:
    """Thracia turns Neutral with counters at home, in a foreign City, in a foreign field
    and stacked with a Lydian counter at home.
    """
    cat = CAT
    thracia = cat.region("Thracia")
    lydia = cat.region("Lydia")
    state = set_control(set_control(empty_board(), thracia, EMPIRE), lydia, EMPIRE)
    home_alone, in_city, in_field, with_lydian = non_leaders("thracia", 4)
    lydian = non_leaders("lydia", 1)[0]
    home = _inland_hex("Thracia")
    mixed = _inland_hex("Thracia", avoid=[home])
    city = _city_outside("Thracia")
    field = _inland_hex("Lydia")
    state = move(state, [home_alone], home)
    state = move(state, [in_city], city)
    state = move(state, [in_field], field)
    state = move(state, [with_lydian, lydian], mixed)
    events: list[Event] = []
    after = change_control(set_up_context(events), state, thracia, NOBODY, "9.0")
    assert after.control[thracia] is Control.NEUTRAL
    assert after.units.where[home_alone] == home
    assert after.units.where[in_city] == city
    assert after.units.where[in_field] == AVAILABLE
    assert after.units.where[with_lydian] == AVAILABLE
    assert after.units.where[lydian] == mixed
    assert controller(cat, after, home_alone) == NOBODY
    assert controller(cat, after, lydian) == EMPIRE
    assert {e.rule for e in events if e.kind == "eliminate"} == {"4.51"}
    # 4.52: it stays Neutral; turning it Neutral again changes nothing.
    assert change_control(set_up_context(), after, thracia, NOBODY, "9.0") == after


@pytest.mark.rule("4.6", "13.131")
def test_defection_concrete_case() -> None:
    """Thracia passes to the Barbarian: its counters follow, except the one with the Guard."""
    cat = CAT
    thracia = cat.region("Thracia")
    state = set_control(empty_board(), thracia, EMPIRE)
    abroad, with_guard = non_leaders("thracia", 2)
    guard = _guards(1)[0]
    far = _inland_hex("Lydia")
    stack = _inland_hex("Thracia")
    state = move(move(state, [abroad], far), [with_guard, guard], stack)
    after = change_control(set_up_context(), state, thracia, BARBARIAN, "9.0")
    assert after.units.where[abroad] == far
    assert controller(cat, after, abroad) == BARBARIAN
    assert after.units.where[with_guard] == AVAILABLE
    assert after.units.where[guard] == stack
    assert controller(cat, after, guard) == EMPIRE


@pytest.mark.rule("4.0")
def test_a_change_to_the_same_control_does_nothing() -> None:
    events: list[Event] = []
    state = set_up_state()
    for region in range(len(state.control)):
        same = region_controller(state, region)
        assert change_control(set_up_context(events), state, region, same, "9.0") is state
    assert events == []


# -- 21.3, 21.4: eliminations ---------------------------------------------------------


@pytest.mark.rule("21.3", "11.61")
def test_an_eliminated_leader_goes_back_to_the_stock() -> None:
    cat = CAT
    leader = next(c for c in cat.counters if c.kind is UnitKind.LEADER and c.index != cat.justinian)
    state = move(empty_board(), [leader.index], _inland_hex("Thracia"))
    events: list[Event] = []
    after = eliminate(set_up_context(events), state, [leader.index], "17.0")
    assert after.units.where[leader.index] == AVAILABLE
    assert leader.index in available(cat, after, leader.nationality, UnitKind.LEADER)
    assert [e.rule for e in events] == ["17.0"]
    assert after.stratagems == state.stratagems


@pytest.mark.rule("21.3")
def test_eliminating_counters_out_of_play_does_nothing() -> None:
    state = empty_board()
    events: list[Event] = []
    assert eliminate(set_up_context(events), state, [0, 1, 2], "17.0") == state
    assert events == []


@st.composite
def hands(draw: st.DrawFn) -> Stratagems:
    """Any split of the catalogue's Stratagem markers between Pool and hands."""
    total = [s.count for s in CAT.components.stratagems]
    pool, empire, barbarian = [], [], []
    for count in total:
        e = draw(st.integers(0, count))
        b = draw(st.integers(0, count - e))
        empire.append(e)
        barbarian.append(b)
        pool.append(count - e - b)
    return Stratagems(tuple(pool), (tuple(empire), tuple(barbarian)))


@pytest.mark.rule("21.4", "8.5", "8.51")
@given(hands())
def test_justinians_death_empties_the_empire_hand_into_the_pool(markers: Stratagems) -> None:
    cat = CAT
    assert cat.justinian >= 0
    state = attrs.evolve(move(empty_board(), [cat.justinian], cat.capital), stratagems=markers)
    events: list[Event] = []
    after = eliminate(set_up_context(events), state, [cat.justinian], "17.0")
    assert after.units.where[cat.justinian] == GONE
    assert cat.justinian not in available(cat, after, "guard", UnitKind.LEADER)
    assert after.stratagems.held(EMPIRE) == 0
    assert after.stratagems.hands[BARBARIAN] == markers.hands[BARBARIAN]
    for kind, count in enumerate(markers.pool):
        assert after.stratagems.pool[kind] == count + markers.hands[EMPIRE][kind]
    assert any(e.rule == "21.4" for e in events) == (markers.held(EMPIRE) > 0)


@pytest.mark.rule("21.4")
def test_justinian_never_returns_and_dies_only_once() -> None:
    cat = CAT
    gone = attrs.evolve(empty_board(), units=empty_board().units.move(cat.justinian, GONE))
    again = eliminate(set_up_context(), gone, [cat.justinian], "17.0")
    assert again == gone
    assert cat.justinian not in in_play(again)


# -- 12.x, 21.32: Guard mutiny and restoration ------------------------------------------


@pytest.mark.rule("12.2", "21.32", "4.12")
def test_a_guard_stack_mutinies_leader_included() -> None:
    cat = CAT
    leader = next(
        c.index
        for c in cat.counters
        if c.guard and c.kind is UnitKind.LEADER and c.index != cat.justinian
    )
    guards = _guards(2)
    where = _inland_hex("Thracia")
    state = move(empty_board(), [*guards, leader], where)
    after = mutiny_stack(set_up_context(), state, where, "6.0")
    for unit in (*guards, leader):
        assert after.units.mutiny[unit]
        assert controller(cat, after, unit) == BARBARIAN
        assert after.units.where[unit] == where
    assert guard_stacks(cat, after, True) == [where]
    assert guard_stacks(cat, after, False) == []


@pytest.mark.rule("12.3", "21.4")
def test_a_stack_with_justinian_never_mutinies() -> None:
    cat = CAT
    guards = _guards(3)
    where = cat.capital
    state = move(empty_board(), [*guards, cat.justinian], where)
    events: list[Event] = []
    after = mutiny_stack(set_up_context(events), state, where, "6.0")
    assert after == state
    assert not any(after.units.mutiny)


@pytest.mark.rule("12.4")
@pytest.mark.parametrize(("guards", "others"), [(1, 1), (1, 3), (2, 1), (3, 3), (1, 6)])
def test_mutiny_in_a_mixed_stack_removes_the_weaker_side(guards: int, others: int) -> None:
    cat = CAT
    rebels = _guards(guards)
    troops = non_leaders("thracia", others)
    where = _inland_hex("Thracia")
    state = set_control(empty_board(), cat.region("Thracia"), EMPIRE)
    state = move(state, [*rebels, *troops], where)
    after = mutiny_stack(set_up_context(), state, where, "9.0")
    guard_strength = sum(cat.counters[u].combat for u in rebels)
    other_strength = sum(cat.counters[u].combat for u in troops)
    if guard_strength >= other_strength:
        assert all(after.units.where[u] == AVAILABLE for u in troops)
        assert all(after.units.where[u] == where and after.units.mutiny[u] for u in rebels)
    else:
        assert all(after.units.where[u] == where for u in troops)
        assert all(after.units.where[u] == AVAILABLE for u in rebels)
        assert not any(after.units.mutiny[u] for u in rebels)
    assert_legal(cat, after)


@pytest.mark.rule("12.2", "12.4", "13.12")
@given(boards(), st.data())
def test_mutiny_never_leaves_a_mixed_stack(state: BelState, data: st.DataObject) -> None:
    cat = CAT
    loyal = guard_stacks(cat, state, False)
    if not loyal:
        return
    where = data.draw(st.sampled_from(loyal))
    after = mutiny_stack(set_up_context(), state, where, "6.0")
    assert_legal(cat, after)
    if cat.justinian in units_at(state, where):
        assert after == state
    else:
        assert not any(
            cat.counters[u].guard and not after.units.mutiny[u] for u in units_at(after, where)
        )


@pytest.mark.rule("12.31", "12.32", "4.12")
def test_restoration_turns_a_mutinying_stack_loyal() -> None:
    cat = CAT
    guards = _guards(2)
    where = _inland_hex("Thracia")
    state = move(empty_board(), guards, where)
    state = attrs.evolve(state, units=state.units.flip(guards, True))
    assert all(controller(cat, state, u) == BARBARIAN for u in guards)
    after = restore_stack(set_up_context(), state, where, "9.0")
    assert all(controller(cat, after, u) == EMPIRE for u in guards)
    assert [after.units.where[u] for u in guards] == [where, where]
    assert restore_stack(set_up_context(), after, where, "9.0") == after


@pytest.mark.rule("12.2")
def test_an_eliminated_mutineer_returns_to_the_stock_loyal() -> None:
    guards = _guards(1)
    where = _inland_hex("Thracia")
    state = move(empty_board(), guards, where)
    state = attrs.evolve(state, units=state.units.flip(guards, True))
    after = eliminate(set_up_context(), state, guards, "17.0")
    assert after.units.where[guards[0]] == AVAILABLE
    assert not after.units.mutiny[guards[0]]


# -- 4.71, 4.72: Revolt checks ----------------------------------------------------------


def _revolt(state: BelState, region: int, face: int) -> BelState:
    game = set_up_game()
    state = settle(set_up_context(), push(state, RevoltCheck(region)))
    assert state.pending is not None
    assert state.pending.kind is RequestKind.ROLL
    assert state.pending.rule == "4.71"
    assert state.pending.dice == 1
    assert game.chance_outcomes(state) == tuple((Roll((n,)), Fraction(1, 6)) for n in range(1, 7))
    return game.apply(state, Roll((face,)))


EXPECTED_REVOLT = {
    RevoltOutcome.NO_EFFECT: {EMPIRE: EMPIRE, BARBARIAN: BARBARIAN, NOBODY: NOBODY},
    RevoltOutcome.NEUTRAL: {EMPIRE: NOBODY, BARBARIAN: NOBODY, NOBODY: NOBODY},
    RevoltOutcome.BARBARIAN: {EMPIRE: NOBODY, BARBARIAN: BARBARIAN, NOBODY: BARBARIAN},
}


@pytest.mark.rule("4.7", "4.71", "4.72")
@given(regions(), st.sampled_from(PLAYERS_AND_NOBODY), st.integers(1, 6))
def test_every_region_rolls_and_the_table_moves_it_towards_the_barbarian(
    region: int, owner: int, face: int
) -> None:
    cat = CAT
    state = set_control(empty_board(), region, owner)
    modifier = revolt_modifier(set_up_context(), state, region)
    outcome = revolt_outcome(set_up_context(), face, modifier)
    rows = [r for r in cat.components.revolt if r.low <= face + modifier <= r.high]
    assert [r.outcome for r in rows] == [outcome]
    after = _revolt(state, region, face)
    assert after.pending is None
    assert region_controller(after, region) == EXPECTED_REVOLT[outcome][owner]


@pytest.mark.rule("4.72")
def test_the_revolt_table_covers_every_modified_roll() -> None:
    cat = CAT
    values = {o for r in cat.components.revolt for o in [r.outcome]}
    assert values <= set(RevoltOutcome)
    for total in range(-3, 12):
        hits = [r for r in cat.components.revolt if r.low <= total <= r.high]
        assert len(hits) == 1


@pytest.mark.rule("4.72", "4.51")
def test_a_revolt_to_neutral_applies_the_reversion_consequences() -> None:
    cat = CAT
    thracia = cat.region("Thracia")
    state = set_control(empty_board(), thracia, EMPIRE)
    abroad = non_leaders("thracia", 1)
    state = move(state, abroad, _inland_hex("Lydia"))
    neutral_faces = [
        f
        for f in range(1, 7)
        if revolt_outcome(set_up_context(), f, revolt_modifier(set_up_context(), state, thracia))
        is RevoltOutcome.NEUTRAL
    ]
    if not neutral_faces:
        pytest.skip("the Revolt Table has no Neutral result for an unmodified roll")
    after = _revolt(state, thracia, neutral_faces[0])
    assert region_controller(after, thracia) == NOBODY
    assert after.units.where[abroad[0]] == AVAILABLE


@pytest.mark.rule("4.72")
def test_holding_every_city_of_a_region_modifies_its_revolt_roll() -> None:
    cat = CAT
    region = next(i for i, r in enumerate(cat.regions) if len(cat.map.cities_in(r.name)) >= 2)
    name = cat.regions[region].name
    cities = [c.hex for c in cat.map.cities_in(name)]
    state = set_control(empty_board(), region, EMPIRE)
    troops = non_leaders(name.lower(), len(cities))
    held_value = sum(
        m.value for m in cat.components.modifiers_of("revolt") if "Public Works" not in m.name
    )
    all_held = state
    for unit, city in zip(troops, cities, strict=True):
        all_held = move(all_held, [unit], city)
    assert revolt_modifier(set_up_context(), all_held, region) == held_value
    one_short = move(all_held, [troops[0]], AVAILABLE)
    assert revolt_modifier(set_up_context(), one_short, region) == 0
    assert revolt_modifier(set_up_context(), set_control(all_held, region, NOBODY), region) == 0
