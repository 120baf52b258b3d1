"""Putting counters somewhere (13.1x, 18.4) and Zones of Control (15.1x) on the shipped map.

Hexes are found by searching the map (a land hex beside the sea, an all-sea hexside
between two land hexes, a City...), never guessed, so that the tests follow the
provisional map as it is refined.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.hexmap import HexsideFeature
from byzantium.belisarius.state import AVAILABLE, BARBARIAN, EMPIRE, NOBODY, BelState
from byzantium.belisarius.world import (
    can_place,
    change_control,
    city_hexes,
    controller,
    enemy_zoc,
    in_play,
    may_stand,
    units_at,
)
from tests.belisarius.support import (
    CAT,
    assert_legal,
    boards,
    empty_board,
    move,
    non_leaders,
    set_control,
    set_up_context,
    set_up_state,
)

RULEBOOK = "belisarius"


# -- helpers ------------------------------------------------------------------------------


def _limit() -> int:
    return CAT.components.constant("stacking-limit")


def _find_hex(test: Callable[[int], bool], what: str) -> int:
    cat = CAT
    for hex_ in cat.map.hexes():
        if test(hex_):
            return hex_
    pytest.skip(f"the shipped map has no {what}")


def _cities() -> set[int]:
    return {c.hex for c in CAT.map.cities}


def _sea_side(a: int, b: int) -> bool:
    return HexsideFeature.SEA in CAT.map.features(a, b)


def _plain(hex_: int) -> bool:
    """A land hex without a City."""
    return CAT.is_land(hex_) and hex_ not in _cities()


def _empire(n: int) -> list[int]:
    """``n`` non-Leader counters the Empire controls in the set-up state (any Region)."""
    cat = CAT
    state = set_up_state()
    found = [
        c.index
        for c in cat.counters
        if c.kind is not UnitKind.LEADER
        and c.index != cat.justinian
        and controller(cat, state, c.index) == EMPIRE
    ]
    assert len(found) >= n
    return found[:n]


def _barbarian_state() -> tuple[BelState, int, int]:
    """The empty board with Persia and Armenia Barbarian; their indexes."""
    cat = CAT
    persia, armenia = cat.region("Persia"), cat.region("Armenia")
    state = set_control(set_control(empty_board(), persia, BARBARIAN), armenia, BARBARIAN)
    return state, persia, armenia


def _enemy_at(state: BelState, units: Iterable[int], where: int) -> BelState:
    return move(state, units, where)


def _persian(n: int = 1, kind: UnitKind | None = None) -> list[int]:
    cat = CAT
    found = [
        u
        for u in cat.of_nationality("persia", kind)
        if cat.counters[u].kind is not UnitKind.LEADER and not cat.counters[u].naval
    ]
    assert len(found) >= n
    return found[:n]


# -- 13.1, 13.11, 18.4: stacking limits -------------------------------------------------


@pytest.mark.rule("13.1", "13.11")
def test_a_hex_holds_ten_counters_leaders_included() -> None:
    cat = CAT
    assert _limit() == 10
    hex_ = _find_hex(_plain, "land hex")
    belisarius = cat.counter("belisarius")
    troops = _empire(_limit())
    full = move(empty_board(), [belisarius, *troops[: _limit() - 1]], hex_)
    extra = troops[_limit() - 1]
    assert len(units_at(full, hex_)) == _limit()
    assert not can_place(cat, full, extra, hex_, EMPIRE)
    nine = move(full, [belisarius], AVAILABLE)
    assert can_place(cat, nine, extra, hex_, EMPIRE)
    assert can_place(cat, nine, belisarius, hex_, EMPIRE)


@pytest.mark.rule("18.4")
def test_a_peripheral_area_box_has_no_stacking_limit() -> None:
    cat = CAT
    state, persia, _ = _barbarian_state()
    box = cat.box_of(persia)
    assert box > 0
    troops = [
        u for u in cat.of_nationality("persia") if cat.counters[u].kind is not UnitKind.LEADER
    ]
    assert len(troops) > _limit()
    state = move(state, troops[:-1], box)
    assert len(units_at(state, box)) >= _limit()
    assert can_place(cat, state, troops[-1], box, BARBARIAN)


@pytest.mark.rule("18.2#2", "18.3")
def test_only_the_boxs_own_nationality_may_be_put_in_it() -> None:
    cat = CAT
    state, persia, _armenia = _barbarian_state()
    box = cat.box_of(persia)
    armenian = non_leaders("armenia", 1)[0]
    assert not can_place(cat, state, armenian, box, BARBARIAN)


# -- 13.12, 13.132: who may share a hex ---------------------------------------------------


@pytest.mark.rule("13.12")
def test_enemies_and_neutrals_never_share_a_hex() -> None:
    cat = CAT
    state, _persia, _ = _barbarian_state()
    hex_ = _find_hex(_plain, "land hex")
    thracian = non_leaders("thracia", 1)[0]
    state = set_control(state, cat.region("Thracia"), EMPIRE)
    with_persian = move(state, _persian(1), hex_)
    assert not can_place(cat, with_persian, thracian, hex_, EMPIRE)
    neutral_region = next(
        i for i, c in enumerate(state.control) if c.value == "neutral" and cat.regions[i].name
    )
    neutral = next(u for u in range(len(cat.counters)) if cat.home[u] == neutral_region)
    with_neutral = move(state, [neutral], hex_)
    assert controller(cat, with_neutral, neutral) == NOBODY
    assert not can_place(cat, with_neutral, thracian, hex_, EMPIRE)
    assert not can_place(cat, with_neutral, _persian(1)[0], hex_, BARBARIAN)


@pytest.mark.rule("13.132", "13.131")
def test_barbarian_stacks_hold_one_region_and_the_empire_may_mix() -> None:
    cat = CAT
    state, _persia, _ = _barbarian_state()
    hex_ = _find_hex(_plain, "land hex")
    persians = _persian(2)
    armenian = non_leaders("armenia", 1)[0]
    leader = cat.counter("mihr-mihroe")
    guard = next(u for u in cat.of_nationality("guard", UnitKind.GUARD))
    stack = move(state, persians[:1], hex_)
    assert can_place(cat, stack, persians[1], hex_, BARBARIAN)
    assert can_place(cat, stack, leader, hex_, BARBARIAN)
    assert not can_place(cat, stack, armenian, hex_, BARBARIAN)
    rebel = attrs.evolve(stack, units=stack.units.flip([guard], True))
    assert controller(cat, rebel, guard) == BARBARIAN
    assert not can_place(cat, rebel, guard, hex_, BARBARIAN)
    # A Mutinying Guard stack is a Region of its own (13.132).
    mutineers = move(rebel, [guard], _find_hex(lambda h: _plain(h) and h != hex_, "hex"))
    where = mutineers.units.where[guard]
    other_guard = next(u for u in cat.of_nationality("guard", UnitKind.GUARD) if u != guard)
    mutineers = attrs.evolve(mutineers, units=mutineers.units.flip([other_guard], True))
    assert can_place(cat, mutineers, other_guard, where, BARBARIAN)
    assert not can_place(cat, mutineers, persians[1], where, BARBARIAN)
    # The Empire may stack counters of different Regions (13.131).
    empire = set_control(
        set_control(empty_board(), cat.region("Thracia"), EMPIRE), cat.region("Lydia"), EMPIRE
    )
    mixed = move(empire, non_leaders("thracia", 1), hex_)
    assert can_place(cat, mixed, non_leaders("lydia", 1)[0], hex_, EMPIRE)
    assert can_place(cat, mixed, guard, hex_, EMPIRE)


@pytest.mark.rule("13.1", "13.12", "13.132", "18.4")
@given(boards(), st.data())
def test_what_can_place_allows_keeps_the_board_legal(state: BelState, data: st.DataObject) -> None:
    cat = CAT
    occupied = sorted({state.units.where[u] for u in in_play(state)})
    if not occupied:
        return
    where = data.draw(st.sampled_from(occupied))
    unit = data.draw(st.integers(0, len(cat.counters) - 1))
    if state.units.where[unit] != AVAILABLE:
        return
    owner = controller(cat, state, unit)
    if owner == NOBODY:
        return
    if can_place(cat, state, unit, where, owner):
        after = move(state, [unit], where)
        assert_legal(cat, after)
        if where >= 101:
            assert len(units_at(after, where)) <= _limit()
    else:
        there = units_at(state, where)
        assert (
            not may_stand(cat, unit, where)  # a Fleet inland, say (19.1, 16.32)
            or (where >= 101 and len(there) >= _limit())
            or (where < 101 and cat.box_region[where - 1] != cat.home[unit])
            or any(controller(cat, state, u) != owner for u in there)
            or owner == BARBARIAN
        )


# -- 15.1x: Zones of Control -----------------------------------------------------------


def _inland() -> int:
    """A land hex with six land neighbours, no all-sea side and no City around."""
    cat = CAT

    def ok(hex_: int) -> bool:
        around = cat.map.neighbours(hex_)
        return (
            _plain(hex_)
            and len(around) == 6
            and all(_plain(n) and not _sea_side(hex_, n) for n in around)
        )

    return _find_hex(ok, "inland hex")


@pytest.mark.rule("15.11", "15.1#2")
def test_a_unit_projects_into_its_six_neighbours_occupied_or_not() -> None:
    cat = CAT
    state, _persia, _ = _barbarian_state()
    hex_ = _inland()
    state = _enemy_at(state, _persian(1), hex_)
    around = set(cat.map.neighbours(hex_))
    assert enemy_zoc(cat, state, EMPIRE) == around
    assert enemy_zoc(cat, state, BARBARIAN) == frozenset()
    # Empire counters next door do not negate it (15.1#2).
    thracia = cat.region("Thracia")
    neighbour = sorted(around)[0]
    with_empire = move(set_control(state, thracia, EMPIRE), non_leaders("thracia", 1), neighbour)
    assert neighbour in enemy_zoc(cat, with_empire, EMPIRE)
    assert hex_ in enemy_zoc(cat, with_empire, BARBARIAN)


@pytest.mark.rule("15.12")
def test_land_zones_stop_at_the_sea() -> None:
    cat = CAT
    hex_ = _find_hex(
        lambda h: _plain(h) and any(not cat.is_land(n) for n in cat.map.neighbours(h)),
        "land hex beside the sea",
    )
    state, _persia, _ = _barbarian_state()
    state = _enemy_at(state, _persian(1), hex_)
    zoc = enemy_zoc(cat, state, EMPIRE)
    for n in cat.map.neighbours(hex_):
        reaches = cat.is_land(n) and not _sea_side(hex_, n)
        assert (n in zoc) == reaches, n


@pytest.mark.rule("15.12")
def test_land_zones_do_not_cross_an_all_sea_hexside() -> None:
    cat = CAT
    sides = [
        s
        for s in cat.map.sides_with(HexsideFeature.SEA)
        if cat.is_land(s.a) and cat.is_land(s.b) and s.b not in _cities()
    ]
    if not sides:
        pytest.skip("the shipped map has no all-sea hexside between land hexes")
    side = sides[0]
    state, _persia, _ = _barbarian_state()
    state = _enemy_at(state, _persian(1), side.a)
    assert side.b in cat.map.neighbours(side.a)
    assert side.b not in enemy_zoc(cat, state, EMPIRE)


def _fleet(nationality: str) -> int:
    cat = CAT
    fleets = list(cat.of_nationality(nationality, UnitKind.FLEET))
    assert fleets, f"{nationality} has a Fleet"
    return fleets[0]


@pytest.mark.rule("15.13")
def test_naval_zones_stay_off_dry_land() -> None:
    cat = CAT
    # A Fleet in port: a coastal land hex with a land neighbour that touches no water.
    port = _find_hex(
        lambda h: (
            _plain(h)
            and cat.map.is_coastal(h)
            and any(cat.is_land(n) and not cat.map.is_coastal(n) for n in cat.map.neighbours(h))
        ),
        "coastal hex beside an inland hex",
    )
    region = cat.region_of_hex(port)
    nationality = cat.regions[region].name.lower()
    fleets = list(cat.of_nationality(nationality, UnitKind.FLEET))
    fleet = fleets[0] if fleets else _fleet("vandals")
    owner_region = cat.home[fleet]
    state = set_control(empty_board(), owner_region, BARBARIAN)
    state = move(state, [fleet], port)
    zoc = enemy_zoc(cat, state, EMPIRE)
    for n in cat.map.neighbours(port):
        dry = cat.is_land(n) and not cat.map.is_coastal(n)
        # Nor across an all-land hexside between two coastal hexes (15.13).
        if dry or not cat.water_side(port, n):
            assert n not in zoc, n
        elif n not in _cities():
            assert n in zoc, n


@pytest.mark.rule("15.13", "15.12")
def test_a_fleet_at_sea_projects_where_a_land_unit_cannot() -> None:
    cat = CAT
    sea = _find_hex(
        lambda h: (
            not cat.is_land(h)
            and any(_plain(n) for n in cat.map.neighbours(h))
            and all(n not in _cities() for n in cat.map.neighbours(h))
        ),
        "sea hex beside land",
    )
    fleet = _fleet("vandals")
    state = set_control(empty_board(), cat.home[fleet], BARBARIAN)
    state = move(state, [fleet], sea)
    assert enemy_zoc(cat, state, EMPIRE) == set(cat.map.neighbours(sea))


def _city_beside_land() -> tuple[int, int]:
    """A City and a land neighbour without a City, no all-sea side between them."""
    cat = CAT
    for city in sorted(_cities()):
        for n in cat.map.neighbours(city):
            if _plain(n) and not _sea_side(city, n):
                return city, n
    pytest.skip("no City with a land neighbour")


@pytest.mark.rule("15.12#2", "15.1#2")
def test_zones_stay_out_of_cities_held_by_the_other_side_or_neutrals() -> None:
    cat = CAT
    city, beside = _city_beside_land()
    state, _persia, _ = _barbarian_state()
    state = _enemy_at(state, _persian(1), beside)
    assert city in enemy_zoc(cat, state, EMPIRE)  # an empty City is not protected
    thracia = cat.region("Thracia")
    held = move(set_control(state, thracia, EMPIRE), non_leaders("thracia", 1), city)
    assert city not in enemy_zoc(cat, held, EMPIRE)
    neutral_region = next(i for i, c in enumerate(state.control) if c.value == "neutral")
    neutral = next(u for u in range(len(cat.counters)) if cat.home[u] == neutral_region)
    by_neutral = move(state, [neutral], city)
    assert city not in enemy_zoc(cat, by_neutral, EMPIRE)
    # A City held by the projecting side is in its zone like any hex.
    own = move(state, _persian(2)[1:], city)
    assert city in enemy_zoc(cat, own, EMPIRE)


@pytest.mark.rule("15.12#2")
def test_units_inside_a_city_project_outside_it() -> None:
    cat = CAT
    city, beside = _city_beside_land()
    state, _persia, _ = _barbarian_state()
    state = _enemy_at(state, _persian(1), city)
    assert beside in enemy_zoc(cat, state, EMPIRE)


@pytest.mark.rule("15.13#2", "4.31", "4.42")
def test_neutrals_have_no_zone_until_they_enter_the_war() -> None:
    cat = CAT
    hex_ = _inland()
    region = cat.region_of_hex(hex_)
    own = [u for u in range(len(cat.counters)) if cat.home[u] == region]
    if not own:
        pytest.skip("the inland hex's Region has no counters")
    state = set_control(empty_board(), region, NOBODY)
    state = move(state, own[:1], hex_)
    assert enemy_zoc(cat, state, EMPIRE) == frozenset()
    assert enemy_zoc(cat, state, BARBARIAN) == frozenset()
    at_war = change_control(set_up_context(), state, region, BARBARIAN, "9.0")
    assert enemy_zoc(cat, at_war, EMPIRE) == set(cat.map.neighbours(hex_))


@pytest.mark.rule("18.211", "15.11")
def test_counters_in_a_box_project_nothing() -> None:
    cat = CAT
    state, persia, _ = _barbarian_state()
    state = move(state, _persian(3), cat.box_of(persia))
    assert enemy_zoc(cat, state, EMPIRE) == frozenset()


@pytest.mark.rule("12.2", "15.11")
def test_mutinying_guards_project_against_the_empire() -> None:
    cat = CAT
    hex_ = _inland()
    guard = next(u for u in cat.of_nationality("guard", UnitKind.GUARD))
    state = move(empty_board(), [guard], hex_)
    assert enemy_zoc(cat, state, BARBARIAN) == set(cat.map.neighbours(hex_))
    rebel = attrs.evolve(state, units=state.units.flip([guard], True))
    assert enemy_zoc(cat, rebel, EMPIRE) == set(cat.map.neighbours(hex_))
    assert enemy_zoc(cat, rebel, BARBARIAN) == frozenset()


@pytest.mark.rule("15.11", "15.12", "15.13", "15.1#2", "15.12#2", "15.13#2")
@given(boards(), st.sampled_from((EMPIRE, BARBARIAN)))
def test_every_zone_hex_is_next_to_an_enemy_and_unprotected(state: BelState, player: int) -> None:
    cat = CAT
    enemy = 1 - player
    zoc = enemy_zoc(cat, state, player)
    sources = [
        state.units.where[u]
        for u in in_play(state)
        if state.units.where[u] >= 101 and controller(cat, state, u) == enemy
    ]
    cities = set(city_hexes(cat, state))
    for hex_ in zoc:
        assert any(hex_ in cat.map.neighbours(s) for s in sources)
        if hex_ in cities:
            assert all(controller(cat, state, u) == enemy for u in units_at(state, hex_))
    for unit in in_play(state):
        where = state.units.where[unit]
        if where < 101 or controller(cat, state, unit) != enemy or cat.counters[unit].naval:
            continue
        for n in cat.map.neighbours(where):
            protected = n in cities and any(
                controller(cat, state, u) != enemy for u in units_at(state, n)
            )
            if cat.is_land(n) and not _sea_side(where, n) and not protected:
                assert n in zoc
