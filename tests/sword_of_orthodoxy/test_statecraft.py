"""Statecraft in the Byzantine Action Phase (10.9 to 10.12, 10.15, with 1.1).

Imposing Orthodoxy and the Saints, exploiting social divisions, clearing the
Ruins, building Factions and spending Niké. The properties draw boards from a
small description (:func:`boards`) and check the menu and each action against
what the rulebook says of that description; the concrete cases follow the rules'
wording (these rules print no worked example).
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import player_controls, schism_level
from byzantium.sword_of_orthodoxy.engine import Offer
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    RequestKind,
    Roll,
    Select,
    SooState,
)
from byzantium.sword_of_orthodoxy.statecraft import (
    SAINT_FREE,
    SAINT_IGNORE,
    BuildFaction,
    ClearRuins,
    ExploitDivisions,
    ImposeOrthodoxy,
    SpendNike,
    council_turn,
    factions_on_track,
    hostile_centres,
    ignoring_orthodoxy_drms,
    offers,
    orthodoxy_drms,
    orthodoxy_rolls,
    orthodoxy_succeeds,
    saint_available,
    saints,
    use_saint,
)
from byzantium.sword_of_orthodoxy.world import eastern_army, marker, set_marker, socials_on_map
from tests.sword_of_orthodoxy.support import (
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    idle,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
CHITS = {chit.number: chit for chit in CAT.components.chits}
COUNCIL_CHITS = sorted(n for n, chit in CHITS.items() if chit.patriarch)
QUIET_CHITS = sorted(n for n, chit in CHITS.items() if not chit.patriarch)
GREY = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.BASILEUS)]
PATRIARCHS = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.PATRIARCH)]
SOCIALS = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.SOCIAL)]
FACTIONS = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.FACTION)]
SOCIAL_SPACES = ("zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria")


# -- building boards ---------------------------------------------------------------------


def mark(state: SooState, name: str, value: int) -> SooState:
    return set_marker(CTX, state, name, value)


def army_at(state: SooState, path: Path, position: int) -> SooState:
    """The Army of an eastern Path moved to a position (1 next to Constantinople, 5 Homeland)."""
    army = eastern_army(CTX, state, path)
    assert army is not None
    space = CAT.spaces[CAT.themas(path)[position - 1]].id
    return put(state, CAT.tiles[army].id, space)


def ruler(state: SooState, *faces: tuple[str, bool]) -> SooState:
    """These grey Basileus tiles (id, back face up) on the Basileus space; the rest in the mug."""
    for tile in GREY:
        state = put(state, tile, "basileus-mug")
    for tile, back in faces:
        state = put(state, tile, "basileus", back=back)
    return state


def pontiff(state: SooState, tile: str) -> SooState:
    """This Patriarch in office, the others in the mug."""
    for other in PATRIARCHS:
        state = put(state, other, "patriarch-mug")
    return put(state, tile, "patriarch", back=False)


def pope(state: SooState, mood: str) -> SooState:
    """The Pope Nice, Mean, or gone (after the East-West Schism)."""
    if mood == "gone":
        return put(state, "marker-pope", "discarded")
    return put(state, "marker-pope", "pope", back=mood == "mean")


def on_turn(turn: int = 5, chit: int = 2, base: SooState | None = None) -> SooState:
    """An idle board on ``turn``, with chit ``chit`` on its Chronographia space.

    Chit 2 shows no Patriarch; chit 4 does (an Ecumenical Council Turn).
    """
    state = attrs.evolve(idle(base if base is not None else campaign()), turn=turn)
    return put(state, f"chit-{chit}", f"chronographia-{turn}", back=False)


BASE = on_turn()


def board(
    *,
    schism: int = 5,
    solidus: int = 6,
    nike: int = 0,
    chit: int = 2,
    mood: str = "nice",
    epsilon: int = 4,
    zeta: int = 2,
) -> SooState:
    """A board of the Action Phase; by default no Orthodoxy modifier applies."""
    state = on_turn(chit=chit)
    state = mark(mark(mark(state, "schism", schism), "solidus", solidus), "nike", nike)
    state = army_at(army_at(pope(state, mood), Path.EPSILON, epsilon), Path.ZETA, zeta)
    return state


@st.composite
def boards(draw: st.DrawFn) -> SooState:
    """Boards of the Action Phase varying everything these rules read."""
    base = draw(st.sampled_from([campaign(), millennium()]))
    turn = draw(st.integers(2, 27))
    state = on_turn(turn, draw(st.sampled_from(sorted(CHITS))), base)
    state = mark(state, "schism", draw(st.integers(0, 12)))
    if draw(st.integers(0, 9)) == 0:  # a Henotikon put the Schism tile into the mug
        state = put(state, "marker-schism", "turn-chit-mug")
    state = mark(state, "solidus", draw(st.integers(0, 12)))
    state = mark(state, "nike", draw(st.integers(0, 12)))
    state = pope(state, draw(st.sampled_from(["nice", "mean", "gone"])))
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        state = army_at(state, path, draw(st.integers(1, 5)))
    rulers = draw(st.lists(st.sampled_from(GREY), min_size=1, max_size=2, unique=True))
    state = ruler(state, *((tile, draw(st.booleans())) for tile in rulers))
    state = pontiff(state, draw(st.sampled_from(PATRIARCHS)))
    for social in SOCIALS:
        space = draw(st.sampled_from(("counter-tray", "chronographia-27", *SOCIAL_SPACES)))
        state = put(state, social, space, back=draw(st.booleans()))
    ruins = draw(st.integers(0, 9))
    state = put(state, "marker-ruins", "omnibus", ruins) if ruins else state
    for faction in FACTIONS:
        value = draw(st.integers(0, 6))
        state = (
            put(state, faction, "omnibus", value)
            if value
            else put(state, faction, "constantinople")
        )
    if draw(st.booleans()):
        state = attrs.evolve(state, done=state.done | {f"saint-turn-{turn}"})
    return state


def items(state: SooState) -> list[str]:
    return [offer.item for offer in offers(CTX, state)]


def offer(state: SooState, item: str) -> Offer:
    return next(o for o in offers(CTX, state) if o.item == item)


def finish(state: SooState, rolls: list[int]) -> tuple[SooState, int]:
    """Answer the die rolls asked, from ``rolls`` (then 6s); how many were asked."""
    asked = 0
    while state.pending is not None and state.ending is None:
        assert state.pending.kind is RequestKind.ROLL
        face = rolls[asked] if asked < len(rolls) else 6
        state = answer(state, Roll((face,)))
        asked += 1
    return state, asked


def run(state: SooState, item: str, rolls: list[int] | None = None) -> tuple[SooState, int]:
    """Take an offered action and answer its rolls."""
    return finish(start(state, offer(state, item).task), rolls or [])


def schism(state: SooState) -> int:
    return marker(CTX, state, "schism")


def solidus(state: SooState) -> int:
    return marker(CTX, state, "solidus")


def nike(state: SooState) -> int:
    return marker(CTX, state, "nike")


# -- the menu as a whole -------------------------------------------------------------------


@pytest.mark.rule("10.9", "10.9.1", "10.10", "10.11", "10.12", "10.15")
@given(boards(), st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_every_action_is_paid_for_with_money_or_nike(state: SooState, rolls: list[int]) -> None:
    for choice in offers(CTX, state):
        after, _ = run(state, choice.item, rolls)
        assert after.ending is None and after.stack == ()
        spent = solidus(state) - solidus(after)
        used = nike(state) - nike(after)
        assert spent > 0 or used > 0, choice.item
        # The measure 2 Niké + solidus falls with every action, so the phase ends.
        assert 2 * nike(after) + solidus(after) < 2 * nike(state) + solidus(state)
        assert 0 <= solidus(after) <= 12
        assert schism(after) >= 0
        if choice.item == "nike":
            assert nike(after) >= 3


@pytest.mark.rule("10.0", "10.9", "10.10", "10.11", "10.12", "10.15")
@given(boards())
def test_the_menu_is_fixed_and_its_items_are_unique(state: SooState) -> None:
    found = items(state)
    assert found == items(state)
    assert len(set(found)) == len(found)
    verbs = {"orthodoxy", "divisions", "ruins", "faction", "nike"}
    assert {item.split()[0] for item in found} <= verbs
    order = ["orthodoxy", "divisions", "ruins", "faction", "nike"]
    ranks = [order.index(item.split()[0]) for item in found]
    assert ranks == sorted(ranks)


@pytest.mark.rule("10.0", "10.9")
def test_the_action_phase_menu_offers_orthodoxy_and_comes_back() -> None:
    state = start(board(schism=4, solidus=1), ActionPhase())
    assert state.pending is not None
    assert Select("orthodoxy") in state.pending.options
    state = answer(state, Select("orthodoxy"), Roll((3,)), Roll((2,)))
    assert schism(state) == 2 and solidus(state) == 0
    assert state.pending is not None and state.pending.rule == "10.0"
    assert state.pending.options[0] == Decline()
    assert Select("orthodoxy") not in state.pending.options  # no solidus left


# -- 10.9 Imposing Orthodoxy ------------------------------------------------------------


@pytest.mark.rule("10.9")
def test_one_solidus_buys_two_rolls_and_each_success_takes_a_point_of_schism() -> None:
    state = board(schism=5, solidus=3)
    assert items(state)[0] == "orthodoxy"
    assert "orthodoxy saint-free" not in items(state)  # Theodosius and Nestorius are no Saints
    after, asked = run(state, "orthodoxy", [2, 1])
    assert asked == 2
    assert solidus(after) == 2
    assert schism(after) == 4


@pytest.mark.rule("10.9", "5.3.1")
@given(st.sampled_from(COUNCIL_CHITS), st.sampled_from(QUIET_CHITS))
def test_an_ecumenical_council_turn_gives_three_rolls(council: int, quiet: int) -> None:
    assert orthodoxy_rolls(CTX, board(chit=council)) == 3
    assert orthodoxy_rolls(CTX, board(chit=quiet)) == 2
    after, asked = run(board(chit=council, schism=9), "orthodoxy", [3, 3, 3])
    assert asked == 3 and schism(after) == 6 and council_turn(CTX, after)


@pytest.mark.rule("10.9")
def test_council_chits_are_the_ones_the_components_list() -> None:
    assert COUNCIL_CHITS == [4, 7, 10, 11, 15, 22, 26]


@pytest.mark.rule("10.9", "2.2.1")
@given(
    st.sampled_from(["nice", "mean", "gone"]),
    st.integers(1, 5),
    st.integers(1, 5),
)
def test_modifiers_are_a_hostile_pope_and_each_hostile_centre_held(
    mood: str, epsilon: int, zeta: int
) -> None:
    state = board(mood=mood, epsilon=epsilon, zeta=zeta)
    drms = orthodoxy_drms(CTX, state)
    assert all(m.value == -1 for m in drms)
    # Nisibis is Ε's fourth space, Cilicia Ζ's second: held while the Army is beyond.
    expected = (mood == "mean") + (epsilon > 4) + (zeta > 2)
    assert len(drms) == expected
    names = {m.source for m in drms}
    assert ("Nisibis" in names) is (epsilon > 4)
    assert ("Cilicia" in names) is (zeta > 2)


@pytest.mark.rule("10.9")
def test_the_hostile_religious_centres_are_cilicia_and_nisibis() -> None:
    assert sorted(CAT.spaces[s].id for s in hostile_centres(CTX)) == ["cilicia", "nisibis"]
    state = board(epsilon=5, zeta=3)
    assert all(player_controls(CTX, state, s) for s in hostile_centres(CTX))


@pytest.mark.rule("10.9", "A", "E")
def test_the_campaign_holds_cilicia_and_nisibis_from_its_setup() -> None:
    """Every eastern Army starts on its Homeland (A), so both centres are held and each
    Orthodoxy roll takes -2 until an Army reaches them; the Millennium's Armies stand
    on Cilicia and in front of Nisibis (E), leaving only the Hostile Pope's -1."""
    drms = orthodoxy_drms(CTX, campaign())
    assert sorted((m.source, m.value) for m in drms) == [("Cilicia", -1), ("Nisibis", -1)]
    assert not orthodoxy_succeeds(3, drms) and orthodoxy_succeeds(4, drms)
    context = ctx(MILLENNIUM)
    assert [(m.source, m.value) for m in orthodoxy_drms(context, millennium())] == [
        ("Hostile Pope", -1)
    ]


@pytest.mark.rule("10.9", "1.1")
@given(st.integers(1, 6), st.integers(0, 3))
def test_a_roll_succeeds_when_it_is_above_1_after_modifiers(natural: int, minus: int) -> None:
    state = board(mood="mean" if minus >= 1 else "nice", zeta=3 if minus >= 2 else 1)
    state = army_at(state, Path.EPSILON, 5 if minus >= 3 else 1)
    drms = orthodoxy_drms(CTX, state)
    assert sum(m.value for m in drms) == -minus
    success = orthodoxy_succeeds(natural, drms)
    if natural == 1:
        assert not success  # a natural 1 stays 1 (1.1)
    elif natural == 6:
        assert success  # a natural 6 stays 6 (1.1)
    else:
        assert success is (natural - minus > 1)
    # The ruling: with modifiers of -1 to -3, 1.1 never changes an outcome.
    assert success is (natural - minus > 1)


@pytest.mark.rule("10.9", "1.1")
def test_with_all_three_modifiers_a_4_fails_and_a_5_or_6_succeeds() -> None:
    state = board(schism=6, mood="mean", epsilon=5, zeta=3)
    assert sum(m.value for m in orthodoxy_drms(CTX, state)) == -3
    assert not orthodoxy_succeeds(4, orthodoxy_drms(CTX, state))
    after, _ = run(state, "orthodoxy", [4, 5])
    assert schism(after) == 5
    after, _ = run(state, "orthodoxy", [6, 1])
    assert schism(after) == 5


@pytest.mark.rule("10.9", "2.6")
@given(st.integers(0, 12), st.lists(st.integers(1, 6), min_size=3, max_size=3), st.booleans())
def test_the_schism_falls_by_the_successes_and_never_below_0(
    level: int, rolls: list[int], council: bool
) -> None:
    state = board(schism=level, solidus=1, chit=4 if council else 2, mood="mean")
    if level == 0:
        assert "orthodoxy" not in items(state)
        return
    after, asked = run(state, "orthodoxy", rolls)
    count = 3 if council else 2
    drms = orthodoxy_drms(CTX, state)
    successes = 0
    for natural in rolls[:count]:
        if successes < level and orthodoxy_succeeds(natural, drms):
            successes += 1
    assert schism(after) == level - successes >= 0
    assert solidus(after) == 0
    assert asked <= count


@pytest.mark.rule("10.9")
def test_no_roll_is_made_once_the_schism_is_down_to_0() -> None:
    after, asked = run(board(schism=1, chit=4), "orthodoxy", [6])
    assert asked == 1 and schism(after) == 0
    assert "orthodoxy" not in items(after)


@pytest.mark.rule("10.9", "2.6")
def test_orthodoxy_is_not_offered_without_money_or_without_a_schism_to_reduce() -> None:
    assert "orthodoxy" not in items(board(solidus=0))
    assert "orthodoxy" not in items(board(schism=0))
    in_mug = put(board(schism=4), "marker-schism", "turn-chit-mug")
    assert schism_level(CTX, in_mug) == 0
    assert "orthodoxy" not in items(in_mug)


# -- 10.9.1 Saints ------------------------------------------------------------------------


@pytest.mark.rule("10.9.1")
def test_a_cross_basileus_or_a_red_cross_patriarch_is_a_saint() -> None:
    state = pontiff(ruler(BASE, ("basileus-theodosius", False)), "patriarch-nestorius")
    assert saints(CTX, state) == []
    alexios = ruler(state, ("basileus-alexios-leo", False))
    assert [CAT.tiles[s].id for s in saints(CTX, alexios)] == ["basileus-alexios-leo"]
    antony = pontiff(state, "patriarch-antony")
    assert [CAT.tiles[s].id for s in saints(CTX, antony)] == ["patriarch-antony"]
    assert len(saints(CTX, pontiff(alexios, "patriarch-michael"))) == 2
    # An Empress's Turn: Theodora (cross) rules beside her husband (6.2.1).
    couple = ruler(state, ("basileus-zoe-theodora", True), ("basileus-nikephoros-michael", False))
    assert [CAT.tiles[s].id for s in saints(CTX, couple)] == ["basileus-zoe-theodora"]
    zoe = ruler(state, ("basileus-zoe-theodora", False), ("basileus-nikephoros-michael", False))
    assert saints(CTX, zoe) == []


def with_saint(state: SooState) -> SooState:
    return pontiff(ruler(state, ("basileus-theodosius", False)), "patriarch-antony")


@pytest.mark.rule("10.9.1")
@given(boards())
def test_a_saints_favour_is_offered_with_orthodoxy_once_a_turn(state: SooState) -> None:
    found = items(state)
    favours = {"orthodoxy saint-ignore", "orthodoxy saint-free"}
    can_buy = "orthodoxy" in found
    unused = f"saint-turn-{state.turn}" not in state.done
    assert (favours <= set(found)) is (can_buy and bool(saints(CTX, state)) and unused)
    if not favours <= set(found):
        assert not favours & set(found)
    for favour in favours & set(found):
        after, _ = run(state, favour)
        assert not saint_available(CTX, after)
        assert not favours & set(items(after))


@pytest.mark.rule("10.9.1", "10.9")
def test_ignoring_the_minus_ones_holds_for_the_rest_of_the_turn() -> None:
    state = with_saint(board(schism=8, solidus=3, mood="mean", zeta=3))
    assert items(state)[:3] == ["orthodoxy", "orthodoxy saint-ignore", "orthodoxy saint-free"]
    # Without the favour a 3 is a 1 after the two -1s, and fails.
    plain, _ = run(state, "orthodoxy", [3, 3])
    assert schism(plain) == 8
    after, asked = run(state, "orthodoxy saint-ignore", [2, 3])
    assert asked == 2 and schism(after) == 6 and solidus(after) == 2
    assert ignoring_orthodoxy_drms(after)
    assert items(after)[0] == "orthodoxy" and "orthodoxy saint-free" not in items(after)
    # A later purchase the same Turn still ignores them...
    later, _ = run(after, "orthodoxy", [2, 2])
    assert schism(later) == 4
    # ...but not on the next Turn, when the Saint's favour is there again.
    next_turn = on_turn(6, 2, later)
    assert not ignoring_orthodoxy_drms(next_turn)
    assert "orthodoxy saint-ignore" in items(next_turn)
    again, _ = run(next_turn, "orthodoxy", [3, 3])
    assert schism(again) == schism(next_turn)


@pytest.mark.rule("10.9.1", "10.9")
@given(st.booleans())
def test_the_free_roll_is_one_more_roll_in_the_purchase(council: bool) -> None:
    state = with_saint(board(schism=10, solidus=1, chit=4 if council else 2, mood="mean"))
    after, asked = run(state, "orthodoxy saint-free", [2, 2, 2, 2])
    rolls = 4 if council else 3
    assert asked == rolls
    assert solidus(after) == 0
    # The -1 of the Hostile Pope still applies: every 2 is a 1 and fails.
    assert schism(after) == 10
    lucky, _ = run(state, "orthodoxy saint-free", [6, 6, 6, 6])
    assert schism(lucky) == 10 - rolls
    assert not ignoring_orthodoxy_drms(lucky)


@pytest.mark.rule("10.9.1")
def test_no_favour_without_a_saint_and_no_unknown_favour() -> None:
    state = pontiff(ruler(board(), ("basileus-theodosius", False)), "patriarch-john")
    assert [i for i in items(state) if i.startswith("orthodoxy")] == ["orthodoxy"]
    with pytest.raises(ValueError, match="favour"):
        use_saint(CTX, with_saint(board()), "both")
    assert SAINT_IGNORE != SAINT_FREE


# -- 10.10 Exploiting social divisions ----------------------------------------------------


def socials(state: SooState, *spaces: str) -> SooState:
    for social, space in zip(SOCIALS, spaces, strict=False):
        state = put(state, social, space)
    return state


@pytest.mark.rule("10.10")
def test_a_pi_or_chi_basileus_sweeps_every_social_off_the_map_for_2_solidus() -> None:
    state = socials(board(solidus=2), "zone-alpha", "persia", "syria")
    for face in (False, True):  # John (Χ), Andronikos (Π)
        skilled = ruler(state, ("basileus-john-andronikos", face))
        assert "divisions" in items(skilled)
        after, _ = run(skilled, "divisions")
        assert solidus(after) == 0
        assert socials_on_map(CTX, after) == []
        assert {where(after, s) for s in SOCIALS[:3]} == {"counter-tray"}
    alexios = ruler(state, ("basileus-alexios-leo", False))  # Π among his icons
    assert "divisions" in items(alexios)


@pytest.mark.rule("10.10")
def test_divisions_need_the_symbol_the_money_and_a_social_on_the_map() -> None:
    state = socials(board(solidus=2), "zone-beta")
    assert "divisions" not in items(ruler(state, ("basileus-theodosius", False)))
    skilled = ruler(state, ("basileus-john-andronikos", False))
    assert "divisions" not in items(mark(skilled, "solidus", 1))
    bare = ruler(board(solidus=5), ("basileus-john-andronikos", False))
    assert socials_on_map(CTX, bare) == []
    assert "divisions" not in items(bare)


@pytest.mark.rule("10.10")
@given(boards())
def test_divisions_remove_all_socials_or_none(state: SooState) -> None:
    if "divisions" not in items(state):
        return
    before = socials_on_map(CTX, state)
    elsewhere = {s: state.board.where[s] for s in CAT.tiles_of(TileKind.SOCIAL) if s not in before}
    after, _ = run(state, "divisions")
    assert socials_on_map(CTX, after) == []
    assert all(where(after, CAT.tiles[s].id) == "counter-tray" for s in before)
    assert all(after.board.where[s] == space for s, space in elsewhere.items())
    assert solidus(after) == solidus(state) - 2


# -- 10.11 Clearing the Ruins ----------------------------------------------------------------


@pytest.mark.rule("10.11")
def test_two_solidus_clear_a_space_and_the_tile_is_discarded_at_0() -> None:
    state = put(board(solidus=12), "marker-ruins", "omnibus", 3)
    for level in (2, 1):
        state, _ = run(state, "ruins")
        assert where(state, "marker-ruins") == "omnibus"
        assert marker(CTX, state, "ruins") == level
    state, _ = run(state, "ruins")
    assert where(state, "marker-ruins") == "discarded"
    assert solidus(state) == 6
    assert "ruins" not in items(state)


@pytest.mark.rule("10.11")
def test_ruins_are_cleared_only_on_the_track_and_with_2_solidus() -> None:
    assert "ruins" not in items(board(solidus=12))  # the tile is on the Counter Tray
    assert "ruins" not in items(put(board(solidus=1), "marker-ruins", "omnibus", 4))
    assert "ruins" in items(put(board(solidus=2), "marker-ruins", "omnibus", 4))


@pytest.mark.rule("10.11")
@given(st.integers(1, 9), st.integers(0, 12))
def test_clearing_as_often_as_can_be_paid(level: int, money: int) -> None:
    state = put(board(solidus=money), "marker-ruins", "omnibus", level)
    cleared = 0
    while "ruins" in items(state):
        state, _ = run(state, "ruins")
        cleared += 1
    assert cleared == min(level, money // 2)
    assert solidus(state) == money - 2 * cleared
    assert (where(state, "marker-ruins") == "discarded") is (cleared == level)
    if cleared < level:
        assert marker(CTX, state, "ruins") == level - cleared


# -- 10.12 Building Factions --------------------------------------------------------------


@pytest.mark.rule("10.12")
def test_the_walls_and_hagia_sophia_are_built_one_solidus_a_space() -> None:
    state = mark(on_turn(), "solidus", 6)
    assert items(state)[-2:] == ["faction faction-walls", "faction faction-hagia-sophia"]
    for space in (4, 3, 2, 1):
        state, _ = run(state, "faction faction-walls")
        assert where(state, "faction-walls") == "omnibus"
        assert state.board.value[CAT.tile("faction-walls")] == space
    state, _ = run(state, "faction faction-walls")
    assert where(state, "faction-walls") == "constantinople"
    assert solidus(state) == 1
    assert [CAT.tiles[f].id for f in factions_on_track(CTX, state)] == ["faction-hagia-sophia"]
    assert "faction faction-walls" not in items(state)


@pytest.mark.rule("10.12")
@given(st.sampled_from(FACTIONS), st.integers(1, 12), st.integers(0, 12))
def test_a_faction_reaches_constantinople_exactly_at_0(
    faction: str, value: int, money: int
) -> None:
    state = put(board(solidus=money), faction, "omnibus", value)
    built = 0
    while f"faction {faction}" in items(state):
        state, _ = run(state, f"faction {faction}")
        built += 1
        in_city = where(state, faction) == "constantinople"
        assert in_city is (built == value)
        if not in_city:
            assert state.board.value[CAT.tile(faction)] == value - built > 0
    assert built == min(value, money)
    assert solidus(state) == money - built


@pytest.mark.rule("10.12")
def test_no_building_without_money_or_factions_on_the_track() -> None:
    assert not [i for i in items(mark(on_turn(), "solidus", 0)) if i.startswith("faction")]
    assert not [i for i in items(mark(on_turn(base=millennium()), "solidus", 5)) if "faction" in i]


# -- 10.15 Spending Niké --------------------------------------------------------------------


@pytest.mark.rule("10.15")
def test_nike_above_three_buys_solidus_one_for_one() -> None:
    state = board(nike=5, solidus=10)
    assert items(state)[-1] == "nike"
    state, _ = run(state, "nike")
    assert (nike(state), solidus(state)) == (4, 11)
    state, _ = run(state, "nike")
    assert (nike(state), solidus(state)) == (3, 12)
    assert "nike" not in items(state)


@pytest.mark.rule("10.15", "7.1")
@given(st.integers(0, 12), st.integers(0, 12))
def test_the_first_three_nike_stay_and_the_treasury_stops_at_12(
    start_nike: int, money: int
) -> None:
    state = board(nike=start_nike, solidus=money)
    spent = 0
    while "nike" in items(state):
        state, _ = run(state, "nike")
        spent += 1
        assert nike(state) >= 3 and solidus(state) <= 12
    assert spent == min(max(0, start_nike - 3), 12 - money)
    assert nike(state) == start_nike - spent
    assert solidus(state) == money + spent


# -- the tasks on their own ------------------------------------------------------------------


@pytest.mark.rule("10.9", "10.9.1", "10.10", "10.11", "10.12", "10.15")
def test_offers_carry_the_tasks_that_do_them() -> None:
    state = with_saint(put(board(nike=4, solidus=12), "marker-ruins", "omnibus", 1))
    state = socials(ruler(state, ("basileus-alexios-leo", False)), "iberia")
    tasks = {o.item: o.task for o in offers(CTX, state)}
    assert tasks["orthodoxy"] == ImposeOrthodoxy()
    assert "orthodoxy saint-ignore" in tasks  # Alexios is a Saint too
    assert tasks["orthodoxy saint-free"] == ImposeOrthodoxy(SAINT_FREE)
    assert tasks["divisions"] == ExploitDivisions()
    assert tasks["ruins"] == ClearRuins()
    assert tasks["faction faction-walls"] == BuildFaction("faction-walls")
    assert "nike" not in tasks  # the treasury is full
    assert tasks == {o.item: o.task for o in offers(CTX, mark(state, "nike", 4))}
    spend = {o.item: o.task for o in offers(CTX, mark(state, "solidus", 11))}
    assert spend["nike"] == SpendNike()
