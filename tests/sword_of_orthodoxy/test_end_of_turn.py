"""The End of Turn Phase (11.0-11.11): banking, the clean-up steps, the end of the game."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import egypt_religion, player_controls
from byzantium.sword_of_orthodoxy.end_of_turn import (
    Banking,
    CancelMilitaryEvent,
    EgyptianApostasy,
    EndOfTurn,
    EndOfTurnPhase,
    FlipUsedTiles,
    MongolWithdrawal,
    MuslimColonists,
    SocialSkills,
    ThreatToEgypt,
    TreatiesExpire,
    UnsuccessfulStolos,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Pay,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
)
from byzantium.sword_of_orthodoxy.turn import NextTurn
from byzantium.sword_of_orthodoxy.world import marker, set_marker, tiles_on
from tests.sword_of_orthodoxy.support import (
    GAME,
    answer,
    campaign,
    ctx,
    idle,
    in_play,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

BASE = idle(campaign())
C = ctx()
CAT = C.cat
WALLS = "faction-walls"
ROLLS = st.integers(1, 6)


def tile(tile_id: str) -> int:
    return CAT.tile(tile_id)


def treasury(state: SooState, amount: int) -> SooState:
    return set_marker(C, state, "solidus", amount)


def solidus(state: SooState) -> int:
    return marker(C, state, "solidus")


def army(state: SooState, path: Path, army_id: str, space: str) -> SooState:
    """``army_id`` is the only Army (no Mongols) of an eastern Path, standing on ``space``."""
    themas = set(CAT.themas(path))
    for other in (*CAT.tiles_of(TileKind.ARMY, path), *CAT.tiles_of(TileKind.MARKER, path)):
        if state.board.where[other] in themas:
            state = put(state, CAT.tiles[other].id, "counter-tray")
    return put(state, army_id, space, back=False)


def settled(state: SooState) -> bool:
    return state.pending is None and not state.stack and state.ending is None


def asked(state: SooState) -> tuple[str, RequestKind]:
    assert state.pending is not None
    return state.pending.rule, state.pending.kind


# -- 11.0 -------------------------------------------------------------------------------


def busy_end_of_turn() -> SooState:
    """A board on which every step of chapter 11 that can ask something does."""
    state = treasury(BASE, 2)
    state = put(state, "marker-military-event", "strategikon", 3)
    state = put(state, "marker-colonist-1", "nisibis", back=False)
    state = army(state, Path.EPSILON, "army-epsilon-saracens", "melitene")
    state = army(state, Path.ZETA, "army-zeta-saracens", "damascus")
    state = put(state, "outpost-egypt", "egypt", back=True)
    state = put(state, "marker-stolos", "zone-alpha")
    state = put(state, "marker-tribute", "persia")
    state = put(state, "basileus-theodosius", "counter-tray")
    state = put(state, "basileus-alexios-leo", "basileus", back=False)
    state = put(state, "social-1", "zone-beta")
    return put(state, "hospital-1", "zone-gamma", back=True)


@pytest.mark.rule("11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.8", "11.9", "11.10")
def test_the_steps_come_in_the_printed_order() -> None:
    state = start(busy_end_of_turn(), EndOfTurnPhase())
    replies: list[SooAction] = [
        Select("keep 1"),
        Roll((2,)),
        Roll((3,)),
        Pay(1),
        Roll((5,)),
        Select("faction-3"),
        Decline(),
    ]
    order = []
    for reply in replies:
        order.append(asked(state))
        # Validation reads positions of play: the harness's state is set in one.
        position = in_play(state)
        assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(position)))) == position
        state = answer(state, reply)
    assert order == [
        ("11.1", RequestKind.CHOOSE),
        ("11.3", RequestKind.ROLL),
        ("11.4", RequestKind.ROLL),
        ("11.5", RequestKind.CHOOSE),
        ("11.5", RequestKind.ROLL),
        ("11.6", RequestKind.CHOOSE),
        ("11.9", RequestKind.CHOOSE),
    ]
    assert settled(state)
    assert where(state, "marker-military-event") == "strategikon-waiting"
    assert where(state, "marker-tribute") == "counter-tray"
    assert where(state, "marker-stolos") == "lurking"
    assert (where(state, "faction-3"), state.board.value[tile("faction-3")]) == ("omnibus", 4)
    assert where(state, "social-1") == "zone-beta"
    assert not state.board.back[tile("hospital-1")]
    assert solidus(state) == 0  # 1 kept, then spent on Egypt


@pytest.mark.rule("11.0", "11.11")
def test_a_quiet_end_of_turn_asks_nothing() -> None:
    state = start(treasury(BASE, 0), EndOfTurnPhase())
    assert settled(state)
    assert state.board == treasury(BASE, 0).board


# -- 11.1 -------------------------------------------------------------------------------

MONASTERY_SPACES = st.sampled_from(["counter-tray", "zone-beta", "zone-gamma", "discarded"])
MONASTERY = st.tuples(MONASTERY_SPACES, st.booleans())


@pytest.mark.rule("11.1")
@given(st.integers(0, 12), MONASTERY, MONASTERY, st.data())
def test_banking_never_keeps_more_than_the_limit(
    amount: int, first: tuple[str, bool], second: tuple[str, bool], data: st.DataObject
) -> None:
    """A monastery is (space, isolated)."""
    state = treasury(BASE, amount)
    state = put(state, "monastery-1", first[0], back=first[1])
    state = put(state, "monastery-2", second[0], back=second[1])
    working = sum(
        1 for space, isolated in (first, second) if space.startswith("zone-") and not isolated
    )
    limit = {0: 1, 1: 3, 2: 12}[working]
    state = start(state, Banking())
    if amount == 0:
        assert settled(state)
        return
    assert state.pending is not None and state.pending.rule == "11.1"
    keep = [Select(f"keep {n}") for n in range(min(amount, limit) + 1)]
    assert state.pending.options == tuple(keep)
    choice = data.draw(st.sampled_from(keep))
    after = answer(state, choice)
    assert settled(after)
    assert solidus(after) == int(choice.item.split()[1]) <= min(amount, limit)


@pytest.mark.rule("11.1")
def test_banking_with_both_monasteries_keeps_everything() -> None:
    state = put(put(treasury(BASE, 12), "monastery-1", "zone-beta"), "monastery-2", "zone-gamma")
    state = start(state, Banking())
    assert state.pending is not None and state.pending.options[-1] == Select("keep 12")
    assert solidus(answer(state, Select("keep 12"))) == 12
    lost = answer(start(treasury(BASE, 5), Banking()), Select("keep 1"))
    assert solidus(lost) == 1


# -- 11.2 -------------------------------------------------------------------------------


@pytest.mark.rule("11.2")
@given(st.integers(1, 14))
def test_the_military_event_goes_to_its_waiting_space(index: int) -> None:
    state = put(BASE, "marker-military-event", "strategikon", index)
    after = start(state, CancelMilitaryEvent())
    assert where(after, "marker-military-event") == "strategikon-waiting"
    assert after.board.value[tile("marker-military-event")] == 0


# -- 11.3 -------------------------------------------------------------------------------


def example_11_3(zeta_army: str) -> SooState:
    """11.3's example: Colonists in Melitene (Ε) and Jerusalem (Ζ); Seljuks in Melitene (Ε)
    and Cilicia (Ζ)."""
    state = put(BASE, "marker-colonist-1", "melitene", back=False)
    state = put(state, "marker-colonist-2", "jerusalem", back=False)
    state = army(state, Path.EPSILON, "army-epsilon-seljuks", "melitene")
    return army(state, Path.ZETA, zeta_army, "cilicia")


@pytest.mark.rule("11.3")
def test_example_epsilon_colonists_cannot_enter_cappadocia() -> None:
    state = example_11_3("army-zeta-saracens")
    assert player_controls(C, state, CAT.space("cappadocia"))
    after = start(state, MuslimColonists(Path.EPSILON))
    assert settled(after)  # no roll at all
    assert where(after, "marker-colonist-1") == "melitene"


@pytest.mark.rule("11.3")
def test_example_zeta_colonists_roll_a_four_and_stay_in_jerusalem() -> None:
    """The example's Path Ζ, under a Muslim Army that rolls (see the rulings page)."""
    state = start(example_11_3("army-zeta-saracens"), MuslimColonists(Path.ZETA))
    assert state.pending is not None and state.pending.rule == "11.3"
    assert state.pending.kind is RequestKind.ROLL and state.pending.path is Path.ZETA
    stuck = answer(state, Roll((4,)))
    assert where(stuck, "marker-colonist-2") == "jerusalem"
    moved = answer(state, Roll((6,)))
    assert where(moved, "marker-colonist-2") == "cilicia"


@pytest.mark.rule("11.3")
def test_example_with_the_errata_seljuks_colonists_advance_without_a_roll() -> None:
    """As printed, Ζ's Army is the Seljuks: by the errata they bring the Colonists along."""
    after = start(example_11_3("army-zeta-seljuks"), MuslimColonists(Path.ZETA))
    assert settled(after)
    assert where(after, "marker-colonist-2") == "cilicia"


EPSILON_ARMIES = st.sampled_from(
    ["army-epsilon-saracens", "army-epsilon-seljuks", "army-epsilon-persia", "army-epsilon-buyids"]
)


@pytest.mark.rule("11.3")
@given(st.integers(1, 5), st.integers(1, 5), EPSILON_ARMIES, ROLLS)
def test_colonists_advance_only_into_muslim_hands(
    colonist_at: int, army_at: int, army_id: str, roll: int
) -> None:
    themas = [CAT.spaces[s].id for s in CAT.themas(Path.EPSILON)]
    state = put(BASE, "marker-colonist-1", themas[colonist_at - 1], back=False)
    state = army(state, Path.EPSILON, army_id, themas[army_at - 1])
    muslim = army_id != "army-epsilon-persia"
    movable = colonist_at > 1 and muslim and army_at <= colonist_at - 1
    after = start(state, MuslimColonists(Path.EPSILON))
    if movable and army_id != "army-epsilon-seljuks":
        assert after.pending is not None and after.pending.kind is RequestKind.ROLL
        after = answer(after, Roll((roll,)))
        moves = roll == 6
    else:
        moves = movable
    assert settled(after)
    expected = themas[colonist_at - 2] if moves else themas[colonist_at - 1]
    assert where(after, "marker-colonist-1") == expected


@pytest.mark.rule("11.3")
def test_pagan_tiles_and_colonists_in_arabia_stay_put() -> None:
    state = army(BASE, Path.ZETA, "army-zeta-saracens", "ephesus")
    state = put(state, "marker-colonist-2", "jerusalem", back=True)  # Pagan side
    assert settled(start(state, MuslimColonists(Path.ZETA)))
    assert settled(start(BASE, MuslimColonists(Path.EPSILON)))  # both in Arabia


# -- 11.4 -------------------------------------------------------------------------------


@pytest.mark.rule("11.4", "2.7")
@given(
    st.sampled_from(["held", "fallen", "gone"]),
    st.booleans(),
    st.booleans(),
    ROLLS,
)
def test_egypt_turns_muslim_on_a_six_when_lost_to_a_muslim_path(
    egypt: str, muslim_zeta: bool, christian: bool, roll: int
) -> None:
    state = BASE
    if egypt == "gone":
        state = put(state, "outpost-egypt", "counter-tray", back=False)
    else:
        state = put(state, "outpost-egypt", "egypt", back=egypt == "fallen")
    zeta = "army-zeta-saracens" if muslim_zeta else "army-zeta-persia"
    state = army(state, Path.ZETA, zeta, "damascus")
    state = put(state, "army-zeta-egypt", "egyptian-religion", back=not christian)
    after = start(state, EgyptianApostasy())
    due = egypt != "held" and muslim_zeta and christian
    if not due:
        assert settled(after) and after.board == state.board
        return
    assert after.pending is not None and after.pending.rule == "11.4"
    after = answer(after, Roll((roll,)))
    assert egypt_religion(C, after) == ("muslim" if roll == 6 else "christian")


# -- 11.5 -------------------------------------------------------------------------------


@pytest.mark.rule("11.5")
@given(st.integers(1, 5), ROLLS)
def test_egypt_falls_on_a_six_while_the_barbarians_hold_jerusalem(position: int, roll: int) -> None:
    space = CAT.spaces[CAT.themas(Path.ZETA)[position - 1]].id
    state = army(BASE, Path.ZETA, "army-zeta-persia", space)
    after = start(state, ThreatToEgypt())
    if position > 3:  # Jerusalem is the Empire's: a held Egypt is safe
        assert settled(after) and after.board == state.board
        return
    assert after.pending is not None and after.pending.kind is RequestKind.ROLL
    after = answer(after, Roll((roll,)))
    assert where(after, "outpost-egypt") == "egypt"
    assert after.board.back[tile("outpost-egypt")] is (roll == 6)


@pytest.mark.rule("11.5")
@given(st.integers(0, 3), ROLLS)
def test_fallen_egypt_may_be_reconquered_for_one_solidus(money: int, roll: int) -> None:
    state = army(treasury(BASE, money), Path.ZETA, "army-zeta-persia", "damascus")
    state = put(state, "outpost-egypt", "egypt", back=True)
    offered = start(state, ThreatToEgypt())
    if money == 0:
        assert settled(offered)
        return
    assert offered.pending is not None and offered.pending.options == (Decline(), Pay(1))
    declined = answer(offered, Decline())
    assert declined.board == state.board
    after = answer(offered, Pay(1), Roll((roll,)))
    assert solidus(after) == money - 1
    assert after.board.back[tile("outpost-egypt")] is (roll != 6)


@pytest.mark.rule("11.5")
def test_no_reconquest_while_the_barbarians_hold_jerusalem() -> None:
    state = army(treasury(BASE, 5), Path.ZETA, "army-zeta-persia", "jerusalem")
    state = put(state, "outpost-egypt", "egypt", back=True)
    assert settled(start(state, ThreatToEgypt()))


# -- 11.6 -------------------------------------------------------------------------------


@pytest.mark.rule("11.6")
@given(st.sampled_from(["zone-alpha", "zone-gamma", "melitene", "syria", "nicaea"]))
def test_a_stolos_left_on_a_path_costs_a_faction_of_the_players_choice(space: str) -> None:
    state = put(put(BASE, "marker-stolos", space), WALLS, "constantinople")
    asked_for = start(state, UnsuccessfulStolos())
    assert where(asked_for, "marker-stolos") == "lurking"
    assert asked_for.pending is not None and asked_for.pending.rule == "11.6"
    options = asked_for.pending.options
    assert Select(WALLS) not in options
    inside = tiles_on(C, state, "constantinople", TileKind.FACTION)
    assert len(options) == len(inside) - 1
    after = answer(asked_for, options[-1])
    assert isinstance(options[-1], Select)
    chosen = options[-1].item
    assert (where(after, chosen), after.board.value[tile(chosen)]) == ("omnibus", 4)
    assert len(tiles_on(C, after, "constantinople", TileKind.FACTION)) == len(inside) - 1


@pytest.mark.rule("11.6")
def test_a_single_faction_goes_without_asking_and_the_walls_never() -> None:
    state = put(BASE, "marker-stolos", "persia")
    for faction in CAT.tiles_of(TileKind.FACTION):
        state = put(state, CAT.tiles[faction].id, "omnibus", 5)
    state = put(put(state, WALLS, "constantinople"), "faction-7", "constantinople")
    after = start(state, UnsuccessfulStolos())
    assert settled(after)
    assert where(after, "faction-7") == "omnibus" and where(after, WALLS) == "constantinople"
    walls_only = start(put(state, "faction-7", "omnibus", 5), UnsuccessfulStolos())
    assert where(walls_only, WALLS) == "constantinople"
    assert where(walls_only, "marker-stolos") == "lurking"


@pytest.mark.rule("11.6")
@given(st.sampled_from(["lurking", "chronographia-9", "counter-tray"]))
def test_a_stolos_off_the_paths_costs_nothing(space: str) -> None:
    state = put(BASE, "marker-stolos", space)
    after = start(state, UnsuccessfulStolos())
    assert settled(after) and after.board == state.board


# -- 11.7 -------------------------------------------------------------------------------


@pytest.mark.rule("11.7")
@given(
    st.sampled_from(["arabia", "pagan", "homeland", "inside"]),
    st.sampled_from(["arabia", "pagan", "homeland", "inside"]),
)
def test_the_mongols_give_way_to_the_il_khans_or_to_persia_and_egypt(
    epsilon: str, zeta: str
) -> None:
    state = army(BASE, Path.EPSILON, "marker-mongols-epsilon", "cappadocia")
    state = army(state, Path.ZETA, "marker-mongols-zeta", "jerusalem")
    places = {
        Path.EPSILON: ("marker-colonist-1", "persia", "nisibis", epsilon),
        Path.ZETA: ("marker-colonist-2", "syria", "damascus", zeta),
    }
    for colonist, home, inside, case in places.values():
        space = {"arabia": "arabia", "pagan": inside, "homeland": home, "inside": inside}[case]
        state = put(state, colonist, space, back=case == "pagan")
    after = start(state, MongolWithdrawal())
    assert settled(after)
    expected = {
        Path.EPSILON: ("army-epsilon-il-khan", "army-epsilon-persia", "cappadocia"),
        Path.ZETA: ("army-zeta-il-khan", "army-zeta-egypt", "jerusalem"),
    }
    for path, (il_khan, native, space) in expected.items():
        successor = il_khan if places[path][3] == "inside" else native
        assert where(after, successor) == space
        assert not after.board.back[tile(successor)]
        assert where(after, f"marker-mongols-{path.name.lower()}") == "counter-tray"


@pytest.mark.rule("11.7")
def test_no_mongols_no_change() -> None:
    assert start(BASE, MongolWithdrawal()).board == BASE.board


# -- 11.8 -------------------------------------------------------------------------------


@pytest.mark.rule("11.8")
@given(st.sampled_from(["zone-alpha", "zone-beta", "iberia", "persia", "syria"]))
def test_the_tribute_returns_to_the_counter_tray(space: str) -> None:
    after = start(put(BASE, "marker-tribute", space), TreatiesExpire())
    assert where(after, "marker-tribute") == "counter-tray"


# -- 11.9 -------------------------------------------------------------------------------


def socials_placed(state: SooState) -> SooState:
    state = put(state, "social-1", "zone-alpha", back=False)
    state = put(state, "social-2", "persia", back=True)
    return put(state, "social-3", "chronographia-12", back=True)  # exiled Dynatoi (10.7.8)


def ruled_by(state: SooState, basileus: str, back: bool) -> SooState:
    state = put(state, "basileus-theodosius", "counter-tray")
    return put(state, basileus, "basileus", back=back)


@pytest.mark.rule("11.9")
def test_an_impulsive_basileus_removes_every_social() -> None:
    state = ruled_by(socials_placed(BASE), "basileus-john-andronikos", back=False)  # John, Χ
    after = start(state, SocialSkills())
    assert settled(after)
    assert where(after, "social-1") == where(after, "social-2") == "counter-tray"
    assert where(after, "social-3") == "chronographia-12"


@pytest.mark.rule("11.9")
@given(st.booleans())
def test_a_shrewd_basileus_removes_all_or_none(remove: bool) -> None:
    state = ruled_by(socials_placed(BASE), "basileus-john-andronikos", back=True)  # Andronikos, Π
    offered = start(state, SocialSkills())
    assert offered.pending is not None and offered.pending.rule == "11.9"
    assert offered.pending.options == (Decline(), Select("remove socials"))
    after = answer(offered, Select("remove socials") if remove else Decline())
    on_paths = [where(after, "social-1"), where(after, "social-2")]
    assert on_paths == (["counter-tray"] * 2 if remove else ["zone-alpha", "persia"])


@pytest.mark.rule("11.9")
def test_a_basileus_without_pi_or_chi_leaves_the_socials() -> None:
    state = socials_placed(BASE)  # Theodosius
    assert start(state, SocialSkills()).board == state.board


# -- 11.10 ------------------------------------------------------------------------------


@pytest.mark.rule("11.10")
@given(st.lists(st.booleans(), min_size=4, max_size=4), st.booleans(), st.booleans())
def test_used_tiles_and_the_plague_are_flipped_back(
    used: list[bool], plague: bool, hippodrome: bool
) -> None:
    state = BASE
    for tile_id, back, space in zip(
        ("hospital-1", "hospital-2", "akritai-1", "akritai-2"),
        used,
        ("zone-beta", "cappadocia", "ephesus", "amorion"),
        strict=True,
    ):
        state = put(state, tile_id, space, back=back)
    space = "hippodrome" if hippodrome else "constantinople"
    state = put(state, "basileus-golden", space, back=plague)
    after = start(state, FlipUsedTiles())
    for tile_id in ("hospital-1", "hospital-2", "akritai-1", "akritai-2", "basileus-golden"):
        assert not after.board.back[tile(tile_id)]
    assert where(after, "basileus-golden") == "constantinople"
    assert where(after, "hospital-2") == "cappadocia"


@pytest.mark.rule("11.10")
def test_an_exiled_golden_basileus_stays_on_the_chronographia() -> None:
    state = put(BASE, "basileus-golden", "chronographia-4", back=True)
    after = start(state, FlipUsedTiles())
    assert where(after, "basileus-golden") == "chronographia-4"
    assert not after.board.back[tile("basileus-golden")]


# -- 11.11 ------------------------------------------------------------------------------


@pytest.mark.rule("11.11", "12.3")
@given(st.integers(1, 27))
def test_the_game_ends_after_turn_27(turn: int) -> None:
    state = attrs.evolve(BASE, turn=turn)
    after = start(state, EndOfTurn(), NextTurn())
    if turn < 27:
        assert after.ending is None and after.turn == turn + 1
        return
    assert after.ending is not None and not after.ending.defeat
    assert after.ending.rule == "11.11"
    result = GAME.result(after)
    assert result.winners == (0,) and result.rule == "12.3"


@pytest.mark.rule("11.11", "4.1", "12.3")
def test_an_empty_turn_chit_mug_ends_the_game_with_victory_points() -> None:
    state = millennium()
    assert state.pending is not None and state.pending.rule == "4.1"
    emptied = state
    for chit in tiles_on(C, state, "turn-chit-mug"):
        emptied = put(emptied, CAT.tiles[chit].id, "discarded")
    after = start(attrs.evolve(emptied, turn=20), NextTurn())
    assert after.ending is not None and not after.ending.defeat
    result = GAME.result(after)
    assert result.rule == "12.3" and result.scores and result.breakdown
    assert sum(points for _, points in result.breakdown) == result.scores[0]
