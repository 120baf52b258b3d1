"""Chapter 9: the Barbarian Phase, Barbarian Advances and what blocks them."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.game import Event
from byzantium.sword_of_orthodoxy.barbarians import (
    Advance,
    BarbarianPhase,
    chit_advances,
    leader_advances,
    muslim_barbarians,
    support_options,
)
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import push, settle
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    army_strength,
    change_tribe,
    eastern_army,
    flip,
    marker,
    move,
    reserve_armies,
    set_marker,
    tiles_on,
    zone_armies,
)
from tests.sword_of_orthodoxy.support import (
    GAME,
    answer,
    campaign,
    ctx,
    fill_zone,
    idle,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

BASE = idle(campaign())
C = ctx()
CAT = C.cat


# -- building states ----------------------------------------------------------------


def tile(tile_id: str) -> int:
    return CAT.tile(tile_id)


def zone_with(state: SooState, path: Path, ids: Iterable[str]) -> SooState:
    """Exactly these Armies of a western Path in its Zone, the others in Reserves."""
    wanted = set(ids)
    name = path.name.lower()
    for army in CAT.tiles_of(TileKind.ARMY, path):
        inside = CAT.tiles[army].id in wanted
        state = move(C, state, army, f"zone-{name}" if inside else f"reserves-{name}")
    return state


def place_east(state: SooState, path: Path, army_id: str, space: str) -> SooState:
    """One Army on an eastern Path (the Path's other Armies go to the Counter Tray)."""
    for army in CAT.tiles_of(TileKind.ARMY, path):
        state = move(C, state, army, "counter-tray")
    return put(state, army_id, space)


def position(state: SooState, path: Path) -> int:
    army = eastern_army(C, state, path)
    assert army is not None
    return CAT.themas(path).index(state.board.where[army]) + 1


def thema(path: Path, pos: int) -> str:
    return CAT.spaces[CAT.themas(path)[pos - 1]].id


def with_chit(state: SooState, number: int) -> SooState:
    return put(state, f"chit-{number}", f"chronographia-{state.turn}")


def ids(tiles: Iterable[int]) -> list[str]:
    return [CAT.tiles[t].id for t in tiles]


def roll(state: SooState, *faces: int) -> SooState:
    return answer(state, Roll(faces))


def drive(state: SooState, die: int) -> SooState:
    """Answer every roll with ``die`` until a choice, the end, or nothing is left."""
    while state.pending is not None and state.pending.kind is RequestKind.ROLL:
        state = answer(state, Roll((die,) * state.pending.dice))
    return state


def option_items(state: SooState) -> list[SooAction]:
    assert state.pending is not None and state.pending.kind is RequestKind.CHOOSE
    return list(state.pending.options)


# Eastern Armies by strength, per Path: (army, strength).
EAST_ARMIES = {
    Path.DELTA: ("army-delta-armenia", "army-delta-saracens", "army-delta-persia"),
    Path.EPSILON: ("army-epsilon-buyids", "army-epsilon-saracens", "army-epsilon-persia"),
    Path.ZETA: ("army-zeta-nomads", "army-zeta-saracens", "army-zeta-persia"),
}
# The Taurus Mountain space of each eastern Path (9.5.1) and its position.
TAURUS = {Path.DELTA: 4, Path.EPSILON: 3, Path.ZETA: 2}

western = st.sampled_from(WESTERN)
eastern = st.sampled_from(EASTERN)
die = st.integers(1, 6)


# -- 9.1, 9.1.1 ---------------------------------------------------------------------


@pytest.mark.rule("9.1")
@given(st.integers(1, 28))
def test_the_chit_letters_are_the_advances_in_path_order(number: int) -> None:
    state = with_chit(BASE, number)
    chit = next(c for c in CAT.components.chits if c.number == number)
    assert chit_advances(C, state) == tuple(sorted(chit.paths))
    assert chit_advances(C, BASE) == ()  # no chit drawn: no advance


@pytest.mark.rule("9.1", "9.2", "9.3")
@given(st.integers(1, 27))
def test_each_letter_advances_its_path_once(number: int) -> None:
    """Campaign start, no blockers: every letter is one advance, nothing else moves.

    Rolls of 1 never beat a Taurus Mountain, so every eastern Army moves one space.
    """
    state = with_chit(BASE, number)
    paths = chit_advances(C, state)
    after = drive(start(state, BarbarianPhase()), 1)
    assert after.pending is None and after.stack == ()
    for path in WESTERN:
        grew = len(zone_armies(C, after, path)) - len(zone_armies(C, state, path))
        assert grew == (1 if path in paths else 0)
    for path in EASTERN:
        moved = position(state, path) - position(after, path)
        assert moved == (1 if path in paths else 0)


@pytest.mark.rule("9.1")
def test_advances_are_made_alpha_to_zeta() -> None:
    events: list[Event] = []
    state = settle(ctx(events=events), push(idle(with_chit(BASE, 1)), BarbarianPhase()))
    while state.pending is not None:  # Taurus rolls of 1: the Army crosses
        step = GAME.step(state, Roll((1,)))
        events.extend(step.events)
        state = step.state
    moves = [e.text.split(":")[0] for e in events if e.rule in ("9.2", "9.3")]
    assert moves == [f"Path {p}" for p in "ΑΒΓΔΕΖ"]


@pytest.mark.rule("9.1.1")
def test_muslim_barbarians_are_those_with_the_muslim_icon() -> None:
    assert not muslim_barbarians(C, BASE, Path.ALPHA)  # Vandals
    saracens = change_tribe(C, BASE, Path.ALPHA, "tribe-alpha-saracens", "test")
    assert muslim_barbarians(C, saracens, Path.ALPHA)
    assert not muslim_barbarians(C, BASE, Path.DELTA)  # Persia
    arabs = place_east(BASE, Path.DELTA, "army-delta-saracens", "iberia")
    assert muslim_barbarians(C, arabs, Path.DELTA)
    ottomans = change_tribe(C, BASE, Path.BETA, "tribe-beta-ottomans", "test")
    assert muslim_barbarians(C, ottomans, Path.BETA)


# -- 9.2 -------------------------------------------------------------------------


@pytest.mark.rule("9.2")
def test_example_9_2_the_strength_3_army_deploys() -> None:
    """9.2's example: Β Reserves hold a 3 and two 1s; the 3 goes to Zone Β."""
    state = zone_with(BASE, Path.BETA, ["army-beta-2", "army-beta-3"])
    assert sorted(army_strength(C, state, t) for t in reserve_armies(C, state, Path.BETA)) == [
        1,
        1,
        3,
    ]
    after = start(state, Advance(Path.BETA, "9.1"))
    assert after.pending is None
    assert where(after, "army-beta-1") == "zone-beta"
    assert sorted(ids(reserve_armies(C, after, Path.BETA))) == ["army-beta-4", "army-beta-5"]
    assert where(after, "siege-2") == "reserves-beta"


TRIBES = {
    (Path.ALPHA, True): "tribe-alpha-vandals",
    (Path.ALPHA, False): "tribe-alpha-moors",
    (Path.BETA, True): "tribe-beta-lombards",
    (Path.BETA, False): "tribe-beta-goths",
    (Path.GAMMA, True): "tribe-gamma-slavs",
    (Path.GAMMA, False): "tribe-gamma-huns",
}


def no_retreats(state: SooState) -> SooState:
    """Africa and Italy already abandoned: Sieges there are ordinary (12.2)."""
    state = put(state, "marker-zone-alpha", "zone-name-alpha", back=True)
    return put(state, "marker-zone-beta", "zone-name-beta", back=True)


@pytest.mark.rule("9.2")
@given(western, st.lists(st.booleans(), min_size=5, max_size=5), st.booleans())
def test_a_western_advance_deploys_the_strongest_and_never_overfills(
    path: Path, inside: list[bool], horse: bool
) -> None:
    armies = CAT.tiles_of(TileKind.ARMY, path)
    chosen = [CAT.tiles[a].id for a, i in zip(armies, inside, strict=True) if i]
    state = change_tribe(
        C, zone_with(no_retreats(BASE), path, chosen), path, TRIBES[path, horse], "t"
    )
    before = zone_armies(C, state, path)
    reserves = reserve_armies(C, state, path)
    after = start(state, Advance(path, "9.1"))
    now = zone_armies(C, after, path)
    assert len(now) <= 5
    if reserves:
        assert after.pending is None
        (new,) = set(now) - set(before)
        assert army_strength(C, after, new) == max(army_strength(C, state, r) for r in reserves)
        assert len(now) == len(before) + 1
    else:  # five in the Zone: the Siege tile comes, and its roll is asked at once
        assert now == before
        assert tiles_on(C, after, f"zone-{path.name.lower()}", TileKind.SIEGE)
        assert after.pending is not None and after.pending.rule == "12.1"


@pytest.mark.rule("9.2", "9.6")
def test_a_full_zone_sends_the_siege_tile_and_resolves_it() -> None:
    state = fill_zone(BASE, Path.GAMMA, 5)
    after = start(state, Advance(Path.GAMMA, "9.1"))
    assert where(after, "siege-3") == "zone-gamma"
    assert after.pending is not None and after.pending.rule == "12.1"
    assert after.pending.kind is RequestKind.ROLL and after.pending.dice == 2


# -- 9.3 -------------------------------------------------------------------------


@pytest.mark.rule("9.3")
def test_example_9_3_lesser_armenia_to_paphlagonia() -> None:
    state = place_east(BASE, Path.DELTA, "army-delta-persia", "lesser-armenia")
    after = start(state, Advance(Path.DELTA, "9.1"))
    assert after.pending is None
    assert where(after, "army-delta-persia") == "paphlagonia"


@pytest.mark.rule("9.3", "9.6")
@given(eastern, st.integers(1, 5), st.integers(0, 2), die)
def test_an_eastern_advance_moves_one_space_or_besieges(
    path: Path, start_at: int, which: int, face: int
) -> None:
    army = EAST_ARMIES[path][which]
    state = place_east(BASE, path, army, thema(path, start_at))
    after = drive(start(state, Advance(path, "9.1")), face)
    if start_at == 1:
        assert position(after, path) == 1
        sieges = list(tiles_on(C, after, thema(path, 1), TileKind.SIEGE))
        # The siege roll (face, face) is resolved: the tile is back unless the City fell.
        assert after.ending is not None or not sieges
        assert after.ending is not None or after.pending is not None  # Factions to send
    else:
        thrown_back = start_at - 1 == TAURUS[path] and face > army_strength(C, state, tile(army))
        assert position(after, path) == (start_at if thrown_back else start_at - 1)


@pytest.mark.rule("9.3")
def test_the_siege_tile_goes_next_to_constantinople_and_the_army_stays() -> None:
    state = place_east(BASE, Path.ZETA, "army-zeta-nomads", "ephesus")
    after = start(state, Advance(Path.ZETA, "9.1"))
    assert where(after, "army-zeta-nomads") == "ephesus"
    assert [CAT.tiles[t].id for t in tiles_on(C, after, "ephesus", TileKind.SIEGE)] == ["siege-4"]
    assert after.pending is not None and after.pending.rule == "12.1"


@pytest.mark.rule("9.3", "10.13")
@given(eastern, st.integers(2, 5))
def test_an_unopposed_eastern_advance_moves_exactly_one_space(path: Path, start_at: int) -> None:
    state = place_east(BASE, path, EAST_ARMIES[path][0], thema(path, start_at))
    state = put(state, "marker-tribute", thema(path, 5))
    state = put(state, "hospital-1", thema(path, start_at - 1))
    after = start(state, Advance(path, "10.13", unopposed=True))
    assert after.pending is None
    assert position(after, path) == start_at - 1


@pytest.mark.rule("9.3", "9.5.1")
def test_the_mongols_advance_in_place_of_the_army() -> None:
    state = BASE
    for army in CAT.tiles_of(TileKind.ARMY, Path.EPSILON):
        state = move(C, state, army, "counter-tray")
    state = put(state, "marker-mongols-epsilon", "nisibis")
    asked = start(state, Advance(Path.EPSILON, "9.1"))
    assert where(asked, "marker-mongols-epsilon") == "melitene"
    assert asked.pending is not None and asked.pending.rule == "9.5.1"
    assert where(roll(asked, 5), "marker-mongols-epsilon") == "nisibis"  # 5 > 4
    assert where(roll(asked, 4), "marker-mongols-epsilon") == "melitene"


# -- 9.4 -------------------------------------------------------------------------


def saracen_alpha_with_leaders(number: int) -> SooState:
    state = change_tribe(C, BASE, Path.ALPHA, "tribe-alpha-saracens", "test")
    state = put(state, "marker-kan", "zone-alpha")
    state = put(state, "marker-caliph", "zone-alpha", back=False)
    return with_chit(state, number)


@pytest.mark.rule("9.4")
def test_example_9_4_no_advance_on_alpha_with_chit_3() -> None:
    """9.4's example: Kan and Caliph on Saracen Α, but chit 3 calls only Δ and Ζ."""
    state = saracen_alpha_with_leaders(3)
    assert leader_advances(C, state, Path.ALPHA) == 0
    after = drive(start(state, BarbarianPhase()), 1)
    assert len(zone_armies(C, after, Path.ALPHA)) == 1
    assert position(after, Path.DELTA) == 4 and position(after, Path.ZETA) == 4


@pytest.mark.rule("9.4")
def test_example_9_4_three_advances_when_the_chit_calls_alpha() -> None:
    state = saracen_alpha_with_leaders(2)  # chit 2: Α Β
    assert leader_advances(C, state, Path.ALPHA) == 2
    after = start(state, BarbarianPhase())
    assert after.pending is None
    assert len(zone_armies(C, after, Path.ALPHA)) == 1 + 3
    assert len(zone_armies(C, after, Path.BETA)) == 1 + 1


@pytest.mark.rule("9.4")
def test_the_caliph_needs_its_caliph_side_and_a_muslim_path() -> None:
    fitna = flip(C, saracen_alpha_with_leaders(2), tile("marker-caliph"), True)
    assert leader_advances(C, fitna, Path.ALPHA) == 1  # the Kan only
    vandals = change_tribe(C, saracen_alpha_with_leaders(2), Path.ALPHA, "tribe-alpha-vandals", "t")
    assert leader_advances(C, vandals, Path.ALPHA) == 1
    rex = flip(C, vandals, tile("marker-kan"), True)
    assert leader_advances(C, rex, Path.ALPHA) == 1  # "Rex" is still the Kan
    elsewhere = put(saracen_alpha_with_leaders(2), "marker-kan", "iberia")
    assert leader_advances(C, elsewhere, Path.ALPHA) == 1


@pytest.mark.rule("9.4")
def test_the_kan_on_an_eastern_homeland_adds_an_advance() -> None:
    state = put(with_chit(BASE, 8), "marker-kan", "persia")  # chit 8: Ε Ζ
    assert leader_advances(C, state, Path.EPSILON) == 1
    assert leader_advances(C, state, Path.ZETA) == 0
    after = drive(start(state, BarbarianPhase()), 1)  # the second step enters Melitene
    assert after.pending is None
    assert position(after, Path.EPSILON) == 3 and position(after, Path.ZETA) == 4


@pytest.mark.rule("9.4", "9.6", "12.1")
def test_several_advances_on_a_full_zone_bring_several_sieges() -> None:
    state = fill_zone(BASE, Path.GAMMA, 5)
    state = put(state, "marker-kan", "zone-gamma")
    state = with_chit(state, 12)  # Γ only
    after = start(state, BarbarianPhase())
    assert after.pending is not None and after.pending.rule == "12.1"
    after = roll(after, 1, 1)  # 1+1+3 (no Walls) = 5 <= 9 Factions: the City holds
    assert where(after, "siege-3") == "reserves-gamma"
    after = answer(after, Select("faction-3"), Decline())
    while after.pending is not None and after.pending.rule == "10.6":
        after = answer(after, Decline())
    assert after.pending is not None and after.pending.rule == "12.1"  # the second Siege
    assert where(after, "siege-3") == "zone-gamma"


# -- 9.5.1 and 9.5.2 ------------------------------------------------------------


@pytest.mark.rule("9.5.1")
@given(eastern, st.integers(0, 2), die)
def test_taurus_roll_above_strength_throws_the_army_back(path: Path, which: int, face: int) -> None:
    army = EAST_ARMIES[path][which]
    origin = thema(path, TAURUS[path] + 1)
    state = place_east(BASE, path, army, origin)
    asked = start(state, Advance(path, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.1"
    assert where(asked, army) == thema(path, TAURUS[path])  # it entered, then rolls
    after = roll(asked, face)
    strength = army_strength(C, state, tile(army))
    assert where(after, army) == (origin if face > strength else thema(path, TAURUS[path]))


@pytest.mark.rule("9.5.1")
@given(eastern, st.integers(1, 5))
def test_only_entering_a_taurus_space_rolls(path: Path, start_at: int) -> None:
    state = place_east(BASE, path, EAST_ARMIES[path][0], thema(path, start_at))
    after = start(state, Advance(path, "9.1"))
    entering = start_at - 1 == TAURUS[path]
    assert (after.pending is not None and after.pending.rule == "9.5.1") == entering


@pytest.mark.rule("9.5.2")
@given(eastern, st.integers(2, 5), die, st.booleans())
def test_an_eastern_hospital_acts_like_a_taurus_space(
    path: Path, start_at: int, face: int, used: bool
) -> None:
    army = EAST_ARMIES[path][1]  # strength 3
    state = place_east(BASE, path, army, thema(path, start_at))
    state = put(state, "hospital-2", thema(path, start_at - 1), back=used)
    after = start(state, Advance(path, "9.1"))
    if start_at - 1 == TAURUS[path]:
        after = roll(after, 1)  # the mountains do not stop it
    if used:  # a Used Hospital has already served this Turn
        assert after.pending is None
        assert position(after, path) == start_at - 1
        return
    assert after.pending is not None and after.pending.rule == "9.5.2"
    after = roll(after, face)
    assert position(after, path) == (start_at if face > 3 else start_at - 1)


@pytest.mark.rule("9.5.1", "9.5.2")
def test_a_taurus_space_with_a_hospital_rolls_twice() -> None:
    state = place_east(BASE, Path.EPSILON, "army-epsilon-persia", "nisibis")
    state = put(state, "hospital-1", "melitene")
    asked = start(state, Advance(Path.EPSILON, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.1"
    asked = roll(asked, 4)  # not above 4: it crosses the mountains
    assert asked.pending is not None and asked.pending.rule == "9.5.2"
    assert where(roll(asked, 5), "army-epsilon-persia") == "nisibis"
    assert where(roll(asked, 4), "army-epsilon-persia") == "melitene"
    thrown = roll(start(state, Advance(Path.EPSILON, "9.1")), 5)  # the mountains stop it
    assert thrown.pending is None and where(thrown, "army-epsilon-persia") == "nisibis"


@pytest.mark.rule("9.5.2")
@given(western, st.integers(0, 4), die)
def test_a_western_hospital_sends_the_army_back_to_the_reserves(
    path: Path, inside: int, face: int
) -> None:
    state = fill_zone(BASE, path, inside)
    state = put(state, "hospital-1", f"zone-{path.name.lower()}")
    reserves = reserve_armies(C, state, path)
    asked = start(state, Advance(path, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.2"
    after = roll(asked, face)
    strength = max(army_strength(C, state, r) for r in reserves)
    assert len(zone_armies(C, after, path)) == inside + (0 if face > strength else 1)


@pytest.mark.rule("9.5.2")
def test_a_hospital_does_not_stop_the_siege_tile() -> None:
    state = fill_zone(BASE, Path.GAMMA, 5)
    state = put(state, "hospital-1", "zone-gamma")
    after = start(state, Advance(Path.GAMMA, "9.1"))
    assert after.pending is not None and after.pending.rule == "12.1"


# -- 9.5.3 -------------------------------------------------------------------------


def ottoman_beta(*units: str, solidus: int = 3) -> SooState:
    state = change_tribe(C, BASE, Path.BETA, "tribe-beta-ottomans", "test")
    state = put(state, "marker-zone-beta", "zone-name-beta", back=True)
    for unit in units:
        state = put(state, unit, "zone-beta")
    return set_marker(C, state, "solidus", solidus)


@pytest.mark.rule("9.5.3")
def test_support_unit_options_are_decline_sacrifice_prop() -> None:
    state = ottoman_beta("support-magyars")
    asked = start(state, Advance(Path.BETA, "9.1"))
    assert option_items(asked) == [
        Decline(),
        Select("sacrifice support-magyars"),
        Select("prop support-magyars"),
    ]
    two = ottoman_beta("support-magyars", "support-skanderbeg")
    assert len(support_options(C, two, Path.BETA)) == 5
    broke = ottoman_beta("support-magyars", "support-skanderbeg", solidus=0)
    assert support_options(C, broke, Path.BETA) == (
        Decline(),
        Select("sacrifice support-magyars"),
        Select("sacrifice support-skanderbeg"),
    )
    goths = put(BASE, "support-magyars", "zone-beta")  # not Ottomans: no choice at all
    assert support_options(C, goths, Path.BETA) == ()
    assert start(goths, Advance(Path.BETA, "9.1")).pending is None


@pytest.mark.rule("9.5.3")
def test_sacrificing_a_support_unit_blocks_the_deployment() -> None:
    state = ottoman_beta("support-magyars")
    after = answer(start(state, Advance(Path.BETA, "9.1")), Select("sacrifice support-magyars"))
    assert after.pending is None
    assert where(after, "support-magyars") == "counter-tray"
    assert len(zone_armies(C, after, Path.BETA)) == 1
    assert marker(C, after, "solidus") == 3


@pytest.mark.rule("9.5.3")
def test_declining_lets_the_ottomans_deploy() -> None:
    state = ottoman_beta("support-magyars")
    after = answer(start(state, Advance(Path.BETA, "9.1")), Decline())
    assert len(zone_armies(C, after, Path.BETA)) == 2
    assert where(after, "support-magyars") == "zone-beta"


@pytest.mark.rule("9.5.3")
@given(st.sampled_from(["support-magyars", "support-skanderbeg"]), die)
def test_a_propped_unit_holds_unless_the_ottomans_roll_above_it(unit: str, face: int) -> None:
    state = ottoman_beta("support-magyars", "support-skanderbeg")
    asked = answer(start(state, Advance(Path.BETA, "9.1")), Select(f"prop {unit}"))
    assert marker(C, asked, "solidus") == 2
    assert asked.pending is not None and asked.pending.rule == "9.5.3"
    after = roll(asked, face)
    value = CAT.face(state.board, tile(unit)).strength
    beaten = face > value
    assert where(after, unit) == ("counter-tray" if beaten else "zone-beta")
    assert len(zone_armies(C, after, Path.BETA)) == (2 if beaten else 1)


# -- 9.5.4 and 9.5.5 --------------------------------------------------------------


@pytest.mark.rule("9.5.4")
@given(st.sampled_from(list(Path)), die)
def test_tribute_blocks_unless_a_six(path: Path, face: int) -> None:
    if path.western:
        state = put(BASE, "marker-tribute", f"zone-{path.name.lower()}")
    else:
        state = place_east(BASE, path, EAST_ARMIES[path][0], thema(path, 2))
        state = put(state, "marker-tribute", thema(path, 5))
    asked = start(state, Advance(path, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.4"
    after = roll(asked, face)
    moved = len(zone_armies(C, after, path)) == 2 if path.western else position(after, path) == 1
    assert moved == (face == 6)
    assert where(after, "marker-tribute") == (
        "counter-tray" if face == 6 else where(state, "marker-tribute")
    )


@pytest.mark.rule("9.5.4")
def test_tribute_rolls_again_on_every_attempt() -> None:
    state = put(with_chit(BASE, 12), "marker-tribute", "zone-gamma")
    state = put(state, "marker-kan", "zone-gamma")  # two advances on Γ
    after = roll(start(state, BarbarianPhase()), 3)
    assert after.pending is not None and after.pending.rule == "9.5.4"
    after = roll(after, 2)
    assert after.pending is None and len(zone_armies(C, after, Path.GAMMA)) == 1


@pytest.mark.rule("9.5.5")
@given(st.sampled_from(list(Path)), die)
def test_kastron_one_to_four_blocks_five_falls_six_stays(path: Path, face: int) -> None:
    if path.western:
        state = put(BASE, "marker-kastron", f"zone-{path.name.lower()}")
    else:
        state = place_east(BASE, path, EAST_ARMIES[path][0], thema(path, 3))
        state = put(state, "marker-kastron", thema(path, 1))
    asked = start(state, Advance(path, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.5"
    after = drive(roll(asked, face), 1)
    moved = len(zone_armies(C, after, path)) == 2 if path.western else position(after, path) == 2
    assert moved == (face >= 5)
    expected = "counter-tray" if face == 5 else where(state, "marker-kastron")
    assert where(after, "marker-kastron") == expected


@pytest.mark.rule("9.5.5")
def test_a_kastron_behind_the_front_does_not_roll() -> None:
    state = place_east(BASE, Path.DELTA, "army-delta-persia", "paphlagonia")
    state = put(state, "marker-kastron", "lesser-armenia")  # overrun earlier
    after = start(state, Advance(Path.DELTA, "9.1"))
    assert after.pending is None and where(after, "army-delta-persia") == "nicaea"


# -- 9.5: the order of several blockers ---------------------------------------------


@pytest.mark.rule("9.5", "9.5.4", "9.5.5")
def test_tribute_rolls_before_the_kastron_and_a_block_ends_the_advance() -> None:
    state = place_east(BASE, Path.EPSILON, "army-epsilon-persia", "nisibis")
    state = put(state, "marker-tribute", "persia")
    state = put(state, "marker-kastron", "amorion")
    asked = start(state, Advance(Path.EPSILON, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.4"
    assert roll(asked, 2).pending is None  # bought off: the Kastron is not rolled
    kastron = roll(asked, 6)
    assert kastron.pending is not None and kastron.pending.rule == "9.5.5"
    taurus = roll(kastron, 6)  # the Kastron is slipped past; Melitene is a mountain
    assert taurus.pending is not None and taurus.pending.rule == "9.5.1"


@pytest.mark.rule("9.5", "9.5.3", "9.5.4")
def test_in_the_west_tribute_comes_before_the_support_units() -> None:
    state = put(ottoman_beta("support-magyars"), "marker-tribute", "zone-beta")
    asked = start(state, Advance(Path.BETA, "9.1"))
    assert asked.pending is not None and asked.pending.rule == "9.5.4"
    support = roll(asked, 6)  # the treaty fails: then the Support Unit's choice
    assert support.pending is not None and support.pending.rule == "9.5.3"


@pytest.mark.rule("10.13", "9.5.3", "9.5.4", "9.5.5")
def test_an_unopposed_western_advance_ignores_every_blocker() -> None:
    state = put(ottoman_beta("support-magyars"), "marker-tribute", "zone-beta")
    state = put(state, "marker-kastron", "zone-beta")
    state = put(state, "hospital-1", "zone-beta")
    after = start(state, Advance(Path.BETA, "10.13", unopposed=True))
    assert after.pending is None and len(zone_armies(C, after, Path.BETA)) == 2


# -- 9.7 -------------------------------------------------------------------------


@pytest.mark.rule("9.7")
@given(st.sampled_from([Path.BETA, Path.GAMMA]), st.integers(1, 5))
def test_a_monastery_is_isolated_when_the_zone_fills(path: Path, inside: int) -> None:
    state = fill_zone(BASE, path, inside)
    state = put(state, "monastery-1", f"zone-{path.name.lower()}")
    state = put(state, "marker-zone-beta", "zone-name-beta", back=True)
    state = with_chit(state, 2 if path is Path.BETA else 12)  # chit 2: Α Β; chit 12: Γ
    after = start(state, BarbarianPhase())
    if after.pending is not None:  # a Siege: survive it and send one Faction
        after = answer(after, Roll((1, 1)), Select("faction-3"), Decline())
        while after.pending is not None:
            after = answer(after, Decline())
    full = len(zone_armies(C, after, path)) == 5
    assert after.board.back[tile("monastery-1")] == full
    assert full == (inside >= 4)
