"""Optional rule 31, Additional Unit Placement: Mercenaries with a Leader (31.1) and
levied Warbands on Warbands of their Region (31.2)."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.levy import LevyPhase, levy_places, warband_sites
from byzantium.belisarius.recruiting import (
    RecruitingPhase,
    guard_sites,
    leader_sites,
    recruit_places,
    recruitable,
    regional_sites,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    PLAYERS,
    BelAction,
    BelState,
    Done,
    Markers,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import (
    available,
    can_place,
    controller,
    enemy_zoc,
    region_controller,
    units_at,
)
from tests.belisarius.support import (
    CAT,
    belisarius,
    blank_state,
    boards,
    city,
    context,
    drive,
    move,
    put,
)

RULEBOOK = "belisarius"

#: Scenario 1 with and without optional rule 31.
PLACING = belisarius(additional_placement=True)
PLAIN = belisarius()
ON, OFF = context(PLACING), context(PLAIN)

BELISARIUS = CAT.counter("belisarius")
SOLOMON = CAT.counter("solomon")
KAVADH = CAT.counter("kavadh")
LYDIAN_INLAND = next(
    h
    for h in sorted(CAT.regions[CAT.region("Lydia")].hexes)
    if not CAT.map.is_coastal(h) and h not in CAT.cities
)
LYDIAN_COAST = next(
    h
    for h in sorted(CAT.regions[CAT.region("Lydia")].hexes)
    if CAT.map.is_coastal(h) and h not in CAT.cities
)


def desert(region: str) -> int:
    return next(
        h
        for h in sorted(CAT.regions[CAT.region(region)].hexes)
        if CAT.map.terrain_at(h) is Terrain.DESERT
    )


def clear(region: str, skip: int = 0) -> int:
    found = [
        h
        for h in sorted(CAT.regions[CAT.region(region)].hexes)
        if CAT.map.terrain_at(h) is Terrain.CLEAR and h not in CAT.cities
    ]
    return found[skip]


def blank(phase: str, phasing: int = EMPIRE, **control: Control) -> BelState:
    return blank_state(phase, phasing, control=control, solidus=100, game=PLACING)


def recruit_state() -> BelState:
    """The Empire holds Thracia (a garrison in Constantinopolis) and Belisarius stands
    in an inland Lydian hex, Lydia being Neutral."""
    state = blank("recruiting", Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    return move(state, [BELISARIUS], LYDIAN_INLAND)


def places(state: BelState, nationality: str, kind: UnitKind, *, on: bool = True) -> list[int]:
    player = state.phasing
    return recruit_places(CAT, state, player, nationality, kind, with_leaders=on)


# -- 31.1: Mercenaries with a Leader -----------------------------------------------------------


@pytest.mark.rule("31.1")
def test_a_mercenary_may_join_a_friendly_leader_anywhere() -> None:
    state = recruit_state()
    assert places(state, "thracia", UnitKind.GARRISON, on=False) == [CAT.capital]
    assert places(state, "thracia", UnitKind.GARRISON) == [CAT.capital, LYDIAN_INLAND]
    assert leader_sites(CAT, state, EMPIRE) == [LYDIAN_INLAND]
    assert leader_sites(CAT, state, BARBARIAN) == []


@pytest.mark.rule("31.1", "11.223")
def test_one_mercenary_a_leaders_hex_however_many_leaders() -> None:
    state = move(recruit_state(), [SOLOMON], LYDIAN_INLAND)
    wanted = [Select("recruit thracia garrison"), Place(LYDIAN_INLAND)]

    def choose(request: Request) -> BelAction:
        if not wanted:
            return Done()
        action = wanted.pop(0)
        assert action in request.options, (action, request.options)
        return action

    after, _, requests = drive(state, RecruitingPhase(), choose, game=PLACING)
    assert len(units_at(after, LYDIAN_INLAND)) == 3
    # the same phase offers the hex no more: the next Thracian recruit goes to the capital
    assert after.pending is None
    menu = requests[-1]
    assert menu.rule == "10.3"
    assert Select("recruit thracia garrison") in menu.options
    assert places(after, "thracia", UnitKind.GARRISON) == [CAT.capital, LYDIAN_INLAND]
    task = RecruitingPhase(started=True, used=(LYDIAN_INLAND,))
    asked = settle(ON, push(after, task))
    asked = PLACING.apply(asked, Select("recruit thracia garrison"))
    assert asked.pending is not None
    assert [o for o in asked.pending.options if isinstance(o, Place)] == [Place(CAT.capital)]


@pytest.mark.rule("31.1")
def test_not_in_a_desert_or_pillaged_hex() -> None:
    state = recruit_state()
    sand = move(state, [BELISARIUS], desert("Syria"))
    assert places(sand, "thracia", UnitKind.GARRISON) == [CAT.capital]
    sacked = attrs.evolve(state, markers=Markers(pillaged=frozenset({LYDIAN_INLAND})))
    assert places(sacked, "thracia", UnitKind.GARRISON) == [CAT.capital]


@pytest.mark.rule("31.1", "13.1")
def test_not_in_a_full_hex() -> None:
    state = put(recruit_state(), "thracia", UnitKind.GARRISON, LYDIAN_INLAND, 6)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, LYDIAN_INLAND, 2)
    assert LYDIAN_INLAND in places(state, "thracia", UnitKind.GARRISON)
    full = put(state, "thracia", UnitKind.GARRISON, LYDIAN_INLAND, 1)
    assert len(units_at(full, LYDIAN_INLAND)) == CAT.constant("stacking-limit")
    assert LYDIAN_INLAND not in places(full, "thracia", UnitKind.GARRISON)


@pytest.mark.rule("31.1", "13.132", "11.221")
def test_barbarian_leaders_take_only_their_own_people_of_regions_he_controls() -> None:
    state = blank("recruiting", BARBARIAN, Persia=Control.BARBARIAN, Armenia=Control.BARBARIAN)
    lombard = clear("Lombards")
    state = move(state, [KAVADH], lombard)
    assert lombard in places(state, "persia", UnitKind.GARRISON)
    assert lombard not in places(state, "armenia", UnitKind.GARRISON)  # 13.132
    assert places(state, "thracia", UnitKind.GARRISON) == []  # not his Region
    # the Empire gains nothing from a Barbarian Leader
    assert leader_sites(CAT, state, EMPIRE) == []


@pytest.mark.rule("31.1", "11.5")
def test_a_neutral_leader_opens_no_hex() -> None:
    state = blank("recruiting", EMPIRE, Thracia=Control.EMPIRE)
    state = move(state, [CAT.counter("vitiges")], clear("Lombards"))
    assert leader_sites(CAT, state, EMPIRE) == leader_sites(CAT, state, BARBARIAN) == []


@pytest.mark.rule("31.1", "11.63")
def test_mercenary_fleets_join_a_leader_only_in_a_port() -> None:
    state = recruit_state()
    beach = move(state, [BELISARIUS], LYDIAN_COAST)
    assert LYDIAN_COAST in places(beach, "thracia", UnitKind.GARRISON)
    assert LYDIAN_COAST not in places(beach, "thracia", UnitKind.FLEET)
    ephesus = city("Ephesus")
    harbour = move(state, [BELISARIUS], ephesus)
    assert ephesus in places(harbour, "thracia", UnitKind.FLEET)


@pytest.mark.rule("31.1", "11.7")
def test_guard_mercenaries_may_join_a_leader_too() -> None:
    state = recruit_state()
    assert LYDIAN_INLAND not in places(state, "guard", UnitKind.GUARD, on=False)
    assert LYDIAN_INLAND in places(state, "guard", UnitKind.GUARD)


@pytest.mark.rule("31.1", "11.221")
def test_barred_regions_recruit_nothing_even_with_a_leader() -> None:
    state = attrs.evolve(recruit_state(), barred=frozenset({"Thracia"}))
    assert places(state, "thracia", UnitKind.GARRISON) == []


def _regular_sites(state: BelState, player: int, nationality: str, kind: UnitKind) -> set[int]:
    if kind is UnitKind.GUARD:
        return set(guard_sites(CAT, state))
    region = CAT.home[available(CAT, state, nationality, kind)[0]]
    return set(regional_sites(CAT, state, player, region))


@pytest.mark.rule("31.1", "13.1", "13.12", "13.132")
@settings(max_examples=40)
@given(state=boards(), player=st.sampled_from(PLAYERS))
def test_extra_mercenary_places_are_hexes_with_a_friendly_leader(
    state: BelState, player: int
) -> None:
    for nationality, kind in recruitable(CAT, state, player):
        without = recruit_places(CAT, state, player, nationality, kind)
        with_ = recruit_places(CAT, state, player, nationality, kind, with_leaders=True)
        assert set(without) <= set(with_)
        unit = available(CAT, state, nationality, kind)[0]
        for where in set(with_) - set(without):
            assert where >= FIRST_HEX
            assert where not in _regular_sites(state, player, nationality, kind)
            assert any(
                CAT.counters[u].kind is UnitKind.LEADER and controller(CAT, state, u) == player
                for u in units_at(state, where)
            )
            assert where not in state.markers.pillaged
            assert CAT.map.terrain_at(where) is not Terrain.DESERT
            assert can_place(CAT, state, unit, where, player)


@pytest.mark.rule("31.1", "11.223")
@settings(max_examples=25)
@given(state=boards(), player=st.sampled_from(PLAYERS), seed=st.integers(0, 2**16))
def test_a_random_recruiting_phase_puts_at_most_one_recruit_a_hex(
    state: BelState, player: int, seed: int
) -> None:
    state = attrs.evolve(state, phasing=player, solidus=(60, 60), phase="recruiting")
    rng = random.Random(seed)
    after = settle(ON, push(state, RecruitingPhase()))
    arrivals: Counter[int] = Counter()
    while after.pending is not None:
        request = after.pending
        if request.kind is RequestKind.CHOOSE:
            action: BelAction = rng.choice(request.options)
        elif request.kind is RequestKind.ROLL:
            action = Roll((rng.randint(1, 6),))
        else:
            action = PLACING.chance_outcomes(after)[0][0]
        if isinstance(action, Place) and action.where >= FIRST_HEX:
            arrivals[action.where] += 1
        after = PLACING.apply(after, action)
    assert all(n == 1 for n in arrivals.values())
    for unit, (a, b) in enumerate(zip(state.units.where, after.units.where, strict=True)):
        if a != b:
            assert a == AVAILABLE and controller(CAT, after, unit) == player


@pytest.mark.rule("31.1")
@settings(max_examples=25)
@given(state=boards(), player=st.sampled_from(PLAYERS))
def test_with_the_option_off_the_recruiting_menus_are_unchanged(
    state: BelState, player: int
) -> None:
    state = attrs.evolve(state, phasing=player, solidus=(60, 60), phase="recruiting")
    plain = settle(OFF, push(state, RecruitingPhase(started=True)))
    for action in plain.pending.options if plain.pending else ():
        if isinstance(action, Select) and action.item.startswith("recruit "):
            nationality, _, kind = action.item.removeprefix("recruit ").partition(" ")
            offered = PLAIN.apply(plain, action)
            assert offered.pending is not None
            assert {o.where for o in offered.pending.options if isinstance(o, Place)} == set(
                recruit_places(CAT, state, player, nationality, UnitKind(kind))
            )


# -- 31.2: levied Warbands on Warbands ------------------------------------------------------------


FRANKS = CAT.region("Franks")
FRANKISH_WARBANDS = list(CAT.of_nationality("franks", UnitKind.WARBAND))
LOMBARD = clear("Lombards", 5)


def levy_state(player: int = BARBARIAN) -> BelState:
    """The Franks are the player's; a Frankish Warband stands in a Lombard hex."""
    control = Control.BARBARIAN if player == BARBARIAN else Control.EMPIRE
    state = blank_state("levy", player, turn=0, control={"Franks": control}, game=PLACING)
    return move(state, FRANKISH_WARBANDS[:1], LOMBARD)


@pytest.mark.rule("31.2")
def test_a_levied_warband_may_join_a_warband_of_its_region_anywhere() -> None:
    state = levy_state()
    assert LOMBARD in levy_places(ON, state, FRANKS, UnitKind.WARBAND)
    assert LOMBARD not in levy_places(OFF, state, FRANKS, UnitKind.WARBAND)
    # Warbands only, and only onto a Warband of the same Region
    assert LOMBARD not in levy_places(ON, state, FRANKS, UnitKind.GARRISON)
    assert warband_sites(ON, state, FRANKS) == [LOMBARD]
    assert warband_sites(ON, state, CAT.region("Lombards")) == []
    # the Region's own hexes are still offered as always
    own = levy_places(OFF, state, FRANKS, UnitKind.WARBAND)
    assert set(own) < set(levy_places(ON, state, FRANKS, UnitKind.WARBAND))


@pytest.mark.rule("31.2")
def test_only_the_barbarian_player_levies_warbands_onto_warbands() -> None:
    state = levy_state(EMPIRE)
    assert LOMBARD not in levy_places(ON, state, FRANKS, UnitKind.WARBAND)


@pytest.mark.rule("31.2")
def test_not_onto_a_desert_or_pillaged_hex() -> None:
    state = levy_state()
    sand = move(state, FRANKISH_WARBANDS[:1], desert("Vandals"))
    assert desert("Vandals") not in levy_places(ON, sand, FRANKS, UnitKind.WARBAND)
    sacked = attrs.evolve(state, markers=Markers(pillaged=frozenset({LOMBARD})))
    assert LOMBARD not in levy_places(ON, sacked, FRANKS, UnitKind.WARBAND)


@pytest.mark.rule("31.2", "11.13", "15.11")
def test_not_into_an_enemy_zone_of_control() -> None:
    state = levy_state()
    state = attrs.evolve(
        state,
        control=tuple(
            Control.EMPIRE if r.name == "Thracia" else c
            for r, c in zip(CAT.regions, state.control, strict=True)
        ),
    )
    neighbour = next(h for h in CAT.map.neighbours(LOMBARD) if CAT.is_land(h))
    watched = put(state, "thracia", UnitKind.GARRISON, neighbour)
    assert LOMBARD in enemy_zoc(CAT, watched, BARBARIAN)
    assert LOMBARD not in levy_places(ON, watched, FRANKS, UnitKind.WARBAND)


@pytest.mark.rule("31.2", "13.1")
def test_not_onto_a_full_hex() -> None:
    state = move(levy_state(), FRANKISH_WARBANDS[1:7], LOMBARD)
    state = put(state, "franks", UnitKind.GARRISON, LOMBARD, 2)
    assert LOMBARD in levy_places(ON, state, FRANKS, UnitKind.WARBAND)
    full = put(state, "franks", UnitKind.GARRISON, LOMBARD, 1)
    assert len(units_at(full, LOMBARD)) == CAT.constant("stacking-limit")
    assert LOMBARD not in levy_places(ON, full, FRANKS, UnitKind.WARBAND)


@pytest.mark.rule("31.2", "11.12")
def test_one_warband_a_hex_in_this_way() -> None:
    state = levy_state()
    asked = settle(ON, push(state, LevyPhase(cursor=FRANKS)))
    asked = PLACING.apply(asked, Select(UnitKind.WARBAND.value))
    assert asked.pending is not None and Place(LOMBARD) in asked.pending.options
    asked = PLACING.apply(asked, Place(LOMBARD))
    assert len(units_at(asked, LOMBARD)) == 2
    asked = PLACING.apply(asked, Select(UnitKind.WARBAND.value))
    assert asked.pending is not None
    assert Place(LOMBARD) not in asked.pending.options


#: Land hexes a roaming Warband may be put on: the Cities and three hexes a Region.
ROAMING = sorted(
    {*CAT.cities}
    | {h for hexes in CAT.region_land for h in hexes[:3]}
    | {desert("Vandals"), desert("Syria")}
)


@st.composite
def roaming_boards(draw: st.DrawFn) -> BelState:
    """A legal random board, plus a Warband of a Barbarian Region set down somewhere."""
    state = attrs.evolve(draw(boards()), phasing=BARBARIAN)
    mine = [
        r
        for r, record in enumerate(CAT.regions)
        if region_controller(state, r) == BARBARIAN
        and available(CAT, state, record.nationality, UnitKind.WARBAND)
    ]
    if mine:
        region = draw(st.sampled_from(mine))
        unit = available(CAT, state, CAT.regions[region].nationality, UnitKind.WARBAND)[0]
        where = draw(st.sampled_from(ROAMING))
        if can_place(CAT, state, unit, where, BARBARIAN):
            state = move(state, [unit], where)
    return state


@pytest.mark.rule("31.2", "11.13", "13.1", "13.132")
@settings(max_examples=40)
@given(state=roaming_boards())
def test_extra_levy_places_hold_a_warband_of_the_region(state: BelState) -> None:
    zoc = enemy_zoc(CAT, state, BARBARIAN)
    for region, record in enumerate(CAT.regions):
        for kind in (UnitKind.WARBAND, UnitKind.GARRISON, UnitKind.NOMAD_HORDE):
            without = levy_places(OFF, state, region, kind)
            with_ = levy_places(ON, state, region, kind)
            assert set(without) <= set(with_)
            extra = set(with_) - set(without)
            if kind is not UnitKind.WARBAND:
                assert not extra
            for where in extra:
                assert CAT.region_of(where) != region
                assert any(
                    CAT.counters[u].kind is UnitKind.WARBAND
                    and CAT.counters[u].nationality == record.nationality
                    for u in units_at(state, where)
                )
                assert where not in state.markers.pillaged and where not in zoc
                assert CAT.map.terrain_at(where) is not Terrain.DESERT


@pytest.mark.rule("31.2")
@settings(max_examples=25)
@given(state=boards())
def test_the_empire_levies_as_ever_with_the_option_on(state: BelState) -> None:
    state = attrs.evolve(state, phasing=EMPIRE)
    for region in range(len(CAT.regions)):
        for kind in (UnitKind.WARBAND, UnitKind.GARRISON):
            assert levy_places(ON, state, region, kind) == levy_places(OFF, state, region, kind)
