"""The Turn Start Phase (chapter 5): the Chronographia, the Turn Chit's events, the Crusades.

Boards are built from the Campaign setup with a few tiles moved; the properties
check each rule against what the rulebook says of the board, and the rulebook's
worked examples are concrete cases. Tasks that other chapters carry out (an
Advance, a free attack, the Rise of Islam) are checked as scheduled, not run.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import Attack
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import RiseOfIslam
from byzantium.sword_of_orthodoxy.engine import run_task
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Draw,
    Pay,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.turn import draw_turn_chit
from byzantium.sword_of_orthodoxy.turn_start import (
    Buyids,
    Carthage,
    ChronographiaDeployments,
    ChronographiaEvents,
    CrusaderShields,
    Crusades,
    CrusadesBegin,
    CrusadesContinue,
    EastWestSchism,
    EcumenicalCouncil,
    EgyptRises,
    EphesusAndChalcedon,
    HunsLeave,
    IslamEvent,
    MagisterMilitum,
    Mongols,
    Normans,
    RandomBarbarians,
    Reforms,
    RoundLetter,
    TurnChitEvents,
    TurnStartPhase,
    carthage_due,
    chit_fires,
    civil_war_this_turn,
    crusade_targets,
)
from byzantium.sword_of_orthodoxy.world import (
    change_tribe,
    marker,
    move,
    set_counter,
    set_marker,
    tribe,
    zone_armies,
)
from tests.sword_of_orthodoxy.support import (
    GAME,
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
CAMPAIGN = idle(campaign())
CHITS = {chit.number: chit for chit in CAT.components.chits}
ROUND_LETTERS = SwordOfOrthodoxy({"round_letters": True})
RED_DICE = SwordOfOrthodoxy({"red_dice": True})
ISLAM = SwordOfOrthodoxy({"islam": True})


# -- helpers ----------------------------------------------------------------------------


def back(state: SooState, tile: str) -> bool:
    return state.board.back[CAT.tile(tile)]


def on_turn(turn: int, chit: int = 0, base: SooState = CAMPAIGN) -> SooState:
    """A board on ``turn`` with chit ``chit`` (if any) on that Turn's Chronographia space."""
    state = attrs.evolve(idle(base), turn=turn)
    if chit:
        state = put(state, f"chit-{chit}", f"chronographia-{turn}", back=False)
    return state


def feed(state: SooState, action: SooAction, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Answer the pending request by running its task once, without running what it pushes."""
    assert state.pending is not None
    task = state.pending.task
    return run_task(ctx(game), attrs.evolve(state, pending=None), task, action)


def once(state: SooState, task: Task, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Run one task on an idle board, without running what it pushes."""
    return run_task(ctx(game), idle(state), task, None)


def scheduled(state: SooState) -> list[Task]:
    """The tasks on the stack, next first."""
    return list(reversed(state.stack))


def set_eastern(state: SooState, path: Path, army: str, position: int) -> SooState:
    """Put ``army`` on ``position`` of an eastern Path; the Path's other Armies leave."""
    for tile in CAT.tiles_of(TileKind.ARMY, path):
        if CAT.spaces[state.board.where[tile]].path is path:
            state = move(CTX, state, tile, "counter-tray")
    space = CAT.spaces[CAT.themas(path)[position - 1]].id
    return put(state, army, space, back=False)


def schism(state: SooState) -> int:
    return marker(CTX, state, "schism")


def solidus(state: SooState) -> int:
    return marker(CTX, state, "solidus")


# -- Appendix C: the order of the phase ---------------------------------------------------


@pytest.mark.rule("C", "5.2.1", "5.3.4")
def test_turn_one_runs_the_councils_then_the_chits_red_disc() -> None:
    state = start(on_turn(1, chit=1), TurnStartPhase())
    assert state.pending is not None and state.pending.rule == "5.2.1"
    state = answer(state, Roll((4,)))
    assert state.pending is not None and state.pending.rule == "5.2.1"
    state = answer(state, Roll((1,)))
    assert schism(state) == 3
    # Chit 1 has a red disc and the Campaign banks 1 $: the Reforms are offered.
    assert state.pending is not None and state.pending.rule == "5.3.4"
    assert state.pending.options == (Decline(), Pay(1))


@pytest.mark.rule("4.1", "5.3.2", "5.3.7", "5.3.6")
def test_example_chit_12_drawn_for_turn_2() -> None:
    """4.1's example: after Turn 1, chit 12 goes on the Turn 2 space, then 5.0 follows."""
    state = put(on_turn(1), "chit-3", "chronographia-1")
    state = attrs.evolve(state, turn=2)
    state = draw_turn_chit(CTX, state, CAT.tile("chit-12"), TurnStartPhase())
    assert where(state, "chit-12") == "chronographia-2"
    assert not back(state, "chit-12")
    assert chit_fires(CTX, state) == 1  # a Social Event waits for 6.7
    # One shield on the map is far from six; its red die is ignored without the option.
    done = start(state, TurnStartPhase())
    assert "crusades" not in done.done
    assert done.pending is None


# -- 5.1 Chronographia deployments --------------------------------------------------------


def justinian_ready(turn: int = 3) -> SooState:
    state = on_turn(turn, chit=5)
    state = put(state, "basileus-theodosius", f"chronographia-{turn}", back=True)
    state = put(state, "basileus-alexios-leo", "basileus")
    state = put(state, "dynasty-theodosian", "dynasty")
    return state


@pytest.mark.rule("5.1")
def test_example_justinian_takes_the_throne_on_turn_3() -> None:
    state = once(justinian_ready(), ChronographiaDeployments())
    assert where(state, "basileus-theodosius") == "basileus"
    assert back(state, "basileus-theodosius")  # the Justinian side
    assert where(state, "basileus-alexios-leo") == "basileus-mug"
    assert where(state, "dynasty-justinian") == "dynasty"
    assert where(state, "dynasty-theodosian") == "discarded"
    assert "justinian-turn" in state.done
    assert state.counter("justinian-turn") == 3


@pytest.mark.rule("5.1")
def test_justinian_overthrows_zoe_and_her_husband_alike() -> None:
    state = put(justinian_ready(), "basileus-zoe-theodora", "basileus")
    state = once(state, ChronographiaDeployments())
    assert where(state, "basileus-zoe-theodora") == "basileus-mug"
    assert where(state, "basileus-alexios-leo") == "basileus-mug"
    assert CAT.on(state.board, CAT.space("basileus")) == [CAT.tile("basileus-theodosius")]


@pytest.mark.rule("5.1")
def test_justinian_needs_both_his_tiles_on_the_turn_space() -> None:
    state = put(justinian_ready(), "basileus-theodosius", "counter-tray")
    state = once(state, ChronographiaDeployments())
    assert where(state, "dynasty-theodosian") == "dynasty"
    assert where(state, "dynasty-justinian") == "chronographia-3"
    assert "justinian-turn" not in state.done


EXILES = ("basileus-golden", "marker-kan", "marker-caliph", "marker-stolos", "social-2")
HOME = {
    "basileus-golden": "constantinople",
    "marker-kan": "arabia",
    "marker-caliph": "arabia",
    "marker-stolos": "lurking",
    "social-2": "counter-tray",
}


@pytest.mark.rule("5.1")
@given(
    turn=st.integers(1, 26),
    exiles=st.lists(st.sampled_from(EXILES), unique=True),
    later=st.lists(st.sampled_from(EXILES), unique=True),
)
def test_exiles_come_back_in_the_last_turn_of_their_exile(
    turn: int, exiles: list[str], later: list[str]
) -> None:
    """Tiles on this Turn's space return; those placed on a later Turn stay in exile."""
    later = [tile for tile in later if tile not in exiles]
    state = on_turn(turn, chit=7)
    for tile in exiles:
        state = put(state, tile, f"chronographia-{turn}", back=tile == "social-2")
    for tile in later:
        state = put(state, tile, f"chronographia-{turn + 1}")
    state = once(state, ChronographiaDeployments())
    for tile in exiles:
        assert where(state, tile) == HOME[tile]
    for tile in later:
        assert where(state, tile) == f"chronographia-{turn + 1}"
    assert where(state, "chit-7") == f"chronographia-{turn}"


@pytest.mark.rule("5.1")
def test_kan_leaves_the_turn_5_space_in_the_campaign() -> None:
    state = on_turn(5, chit=2)
    assert where(state, "marker-kan") == "chronographia-5"
    state = once(state, ChronographiaDeployments())
    assert where(state, "marker-kan") == "arabia"


# -- 5.1 and 5.2: the Battle of Carthage --------------------------------------------------

ZETA_ARMIES = ("army-zeta-nomads", "army-zeta-saracens", "army-zeta-persia", "army-zeta-seljuks")


def carthage_board(
    *,
    egypt: str = "fallen",
    zeta: str = "army-zeta-saracens",
    position: int = 3,
    africa: bool = True,
    alpha_tribe: str = "tribe-alpha-vandals",
    converted: bool = False,
    turn: int = 9,
) -> SooState:
    state = on_turn(turn, chit=3)
    if egypt == "fallen":
        state = put(state, "outpost-egypt", "egypt", back=True)
    elif egypt == "abandoned":
        state = put(state, "outpost-egypt", "counter-tray", back=False)
    state = set_eastern(state, Path.ZETA, zeta, position)
    state = put(state, "marker-zone-alpha", "zone-name-alpha", back=not africa)
    state = change_tribe(CTX, state, Path.ALPHA, alpha_tribe, "test")
    return put(state, "army-zeta-egypt", "egyptian-religion", back=converted)


@pytest.mark.rule("5.1")
@given(
    egypt=st.sampled_from(("held", "fallen", "abandoned")),
    zeta=st.sampled_from(ZETA_ARMIES),
    africa=st.booleans(),
    alpha_tribe=st.sampled_from(("tribe-alpha-vandals", "tribe-alpha-saracens")),
)
def test_the_battle_of_carthage_is_fought_only_when_its_conditions_hold(
    egypt: str, zeta: str, africa: bool, alpha_tribe: str
) -> None:
    state = carthage_board(egypt=egypt, zeta=zeta, africa=africa, alpha_tribe=alpha_tribe)
    expected = (
        egypt != "held"
        and zeta in ("army-zeta-saracens", "army-zeta-seljuks")
        and africa
        and alpha_tribe != "tribe-alpha-saracens"
    )
    assert carthage_due(CTX, state) is expected
    after = start(state, Carthage("5.1"))
    asked = after.pending is not None and after.pending.kind is RequestKind.ROLL
    assert asked is expected


@pytest.mark.rule("5.2", "5.2.3", "1.1")
@given(
    natural=st.integers(1, 6),
    position=st.integers(1, 5),
    converted=st.booleans(),
    rule=st.sampled_from(("5.1", "5.2.3")),
)
def test_the_battle_of_carthage_roll(
    natural: int, position: int, converted: bool, rule: str
) -> None:
    """d6 + Muslim-held spaces of Ζ (Syria included) + 2 for Muslim Egypt; 6+ wins.

    A natural 1 stays a 1 and a natural 6 a 6 (1.1). The fall of Carthage costs
    the Hispania Outpost.
    """
    state = carthage_board(position=position, converted=converted)
    state = put(state, "outpost-hispania", "outpost-hispania")
    after = answer(start(state, Carthage(rule)), Roll((natural,)))
    held = 6 - position
    falls = natural == 6 or (natural != 1 and natural + held + 2 * converted >= 6)
    saracens = tribe(CTX, after, Path.ALPHA) == CAT.tile("tribe-alpha-saracens")
    assert saracens is falls
    assert (where(after, "outpost-hispania") == "discarded") is falls
    if falls:  # the Armies of Α now show the Saracens' weak side
        assert all(back(after, CAT.tiles[a].id) for a in CAT.tiles_of(TileKind.ARMY, Path.ALPHA))


@pytest.mark.rule("5.2.3")
def test_carthage_is_printed_on_turn_8() -> None:
    tasks = scheduled(once(on_turn(8, chit=4), ChronographiaEvents()))
    assert Carthage("5.2.3") in tasks


# -- 5.2 Chronographia events -------------------------------------------------------------


@pytest.mark.rule("5.2.1", "2.6")
@given(start_level=st.integers(0, 12), first=st.integers(1, 6), second=st.integers(1, 6))
def test_ephesus_raises_then_chalcedon_lowers_schism(
    start_level: int, first: int, second: int
) -> None:
    state = set_marker(CTX, on_turn(1, chit=9), "schism", start_level)
    state = start(state, EphesusAndChalcedon())
    state = answer(state, Roll((first,)))
    if start_level + first > 12:
        assert state.ending is not None and state.ending.defeat
        return
    state = answer(state, Roll((second,)))
    assert schism(state) == max(0, start_level + first - second)


@pytest.mark.rule("5.2")
def test_turn_1_prints_ephesus_and_chalcedon() -> None:
    tasks = scheduled(once(on_turn(1, chit=2), ChronographiaEvents()))
    assert tasks == [EphesusAndChalcedon()]


@pytest.mark.rule("5.2", "5.2.2")
@given(turn=st.integers(1, 27))
def test_a_magister_militum_arrives_on_the_turns_that_print_one(turn: int) -> None:
    row = CAT.components.chronographia[turn - 1]
    tasks = scheduled(once(on_turn(turn, chit=2), ChronographiaEvents()))
    assert (MagisterMilitum(row.magister) in tasks) is bool(row.magister)
    state = start(on_turn(turn, chit=2), ChronographiaEvents())
    if row.magister:
        assert where(state, "magister-militum") == "constantinople"
    else:
        assert where(state, "magister-militum") == "counter-tray"


@pytest.mark.rule("5.2.2")
def test_belisarius_commands_on_turn_3() -> None:
    state = start(on_turn(3, chit=2), MagisterMilitum("magister-belisarius"))
    assert where(state, "magister-militum") == "constantinople"


# -- 5.2.3 Migration Events ---------------------------------------------------------------


@pytest.mark.rule("5.2.3")
@given(
    army=st.sampled_from(("army-epsilon-saracens", "army-epsilon-persia")),
    position=st.integers(1, 5),
)
def test_buyids_replace_the_saracens_of_epsilon(army: str, position: int) -> None:
    state = start(set_eastern(on_turn(15, chit=2), Path.EPSILON, army, position), Buyids())
    space = CAT.spaces[CAT.themas(Path.EPSILON)[position - 1]].id
    if army == "army-epsilon-saracens":
        assert where(state, "army-epsilon-buyids") == space
        assert where(state, army) == "counter-tray"
    else:
        assert where(state, army) == space
        assert where(state, "army-epsilon-buyids") == "counter-tray"


@pytest.mark.rule("5.2.3")
@given(pagan=st.booleans(), position=st.integers(1, 5))
def test_egypt_rises_only_with_a_pagan_tile_in_syria(pagan: bool, position: int) -> None:
    state = set_eastern(on_turn(14, chit=2), Path.ZETA, "army-zeta-nomads", position)
    state = put(state, "marker-colonist-1", "syria", back=pagan)
    state = start(state, EgyptRises())
    space = CAT.spaces[CAT.themas(Path.ZETA)[position - 1]].id
    if pagan:
        assert tribe(CTX, state, Path.ALPHA) == CAT.tile("tribe-alpha-egypt")
        assert where(state, "army-zeta-egypt") == space
        assert not back(state, "army-zeta-egypt")
        assert where(state, "army-zeta-nomads") == "counter-tray"
        assert where(state, "outpost-egypt") == "discarded"
        assert "egypt-independent" in state.done
    else:
        assert tribe(CTX, state, Path.ALPHA) == CAT.tile("tribe-alpha-vandals")
        assert where(state, "army-zeta-nomads") == space
        assert where(state, "outpost-egypt") == "egypt"


@pytest.mark.rule("5.2.3")
@given(option=st.booleans(), wars=st.integers(0, 2))
def test_optional_islam_rises_on_turn_6_after_war_in_the_east(option: bool, wars: int) -> None:
    game = ISLAM if option else GAME
    state = set_counter(on_turn(6, chit=2), "war-in-the-east", wars)
    tasks = scheduled(once(state, IslamEvent(), game))
    assert (tasks == [RiseOfIslam("5.2.3")]) is (option and wars > 0)


@pytest.mark.rule("5.2.3")
def test_islam_is_printed_on_turn_6() -> None:
    assert IslamEvent() in scheduled(once(on_turn(6, chit=2), ChronographiaEvents()))


@pytest.mark.rule("5.2.3")
@given(epsilon=st.integers(1, 5), zeta=st.integers(1, 5), orthodox=st.booleans())
def test_mongols_replace_epsilon_and_zeta_and_close_kiev(
    epsilon: int, zeta: int, orthodox: bool
) -> None:
    state = set_eastern(on_turn(21, chit=2), Path.EPSILON, "army-epsilon-seljuks", epsilon)
    state = set_eastern(state, Path.ZETA, "army-zeta-saracens", zeta)
    state = put(state, "marker-kiev", "kiev", back=orthodox)
    state = start(state, Mongols())
    assert (
        where(state, "marker-mongols-epsilon")
        == CAT.spaces[CAT.themas(Path.EPSILON)[epsilon - 1]].id
    )
    assert where(state, "marker-mongols-zeta") == CAT.spaces[CAT.themas(Path.ZETA)[zeta - 1]].id
    assert where(state, "army-epsilon-seljuks") == "counter-tray"
    assert where(state, "army-zeta-saracens") == "counter-tray"
    assert CAT.on(state.board, CAT.space("kiev")) == []


def normans_board(count: int, italy: bool = True) -> SooState:
    state = on_turn(17, chit=2)
    beta = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.ARMY, Path.BETA)]
    for i, army in enumerate(beta):
        state = put(state, army, "zone-beta" if i < count else "reserves-beta")
    state = put(state, "marker-zone-beta", "zone-name-beta", back=not italy)
    return put(state, "marker-ravenna", "zone-beta", back=True)


@pytest.mark.rule("5.2.3")
@given(count=st.integers(1, 5), roll=st.integers(1, 6))
def test_normans_expel_the_empire_from_italy(count: int, roll: int) -> None:
    state = answer(start(normans_board(count), Normans()), Roll((roll,)))
    if roll > count:
        assert not back(state, "marker-zone-beta")
        assert len(zone_armies(CTX, state, Path.BETA)) == count
        assert tribe(CTX, state, Path.BETA) == CAT.tile("tribe-beta-goths")
        return
    assert back(state, "marker-zone-beta")  # the Balkans
    assert [CAT.tiles[t].id for t in zone_armies(CTX, state, Path.BETA)] == [
        f"army-beta-{count}"  # the weakest of the Armies that were there
    ]
    assert tribe(CTX, state, Path.BETA) == CAT.tile("tribe-beta-normans")
    assert where(state, "marker-ravenna") == "discarded"


@pytest.mark.rule("5.2.3")
def test_normans_do_nothing_once_italy_is_lost() -> None:
    state = start(normans_board(5, italy=False), Normans())
    assert state.pending is None
    assert len(zone_armies(CTX, state, Path.BETA)) == 5


@pytest.mark.rule("5.2", "5.2.3")
@given(turn=st.integers(1, 27))
def test_every_printed_migration_event_is_scheduled(turn: int) -> None:
    row = CAT.components.chronographia[turn - 1]
    names = {
        type(task).__name__
        for task in scheduled(once(on_turn(turn, chit=2), ChronographiaEvents()))
    }
    expected = {
        "Buyids": "Buyids",
        "Carthage": "Carthage",
        "Egypt": "EgyptRises",
        "Islam": "IslamEvent",
        "Mongols": "Mongols",
        "Normans": "Normans",
        "Ephesus and Chalcedon": "EphesusAndChalcedon",
    }
    assert {expected[e] for e in row.events} <= names


# -- 5.3 Turn Chit events -----------------------------------------------------------------


@pytest.mark.rule("5.3.1", "1.1")
@given(natural=st.integers(1, 6), mean=st.booleans(), level=st.integers(0, 6))
def test_an_ecumenical_council_raises_schism(natural: int, mean: bool, level: int) -> None:
    state = put(on_turn(5, chit=4), "marker-pope", "pope", back=mean)
    state = set_marker(CTX, state, "schism", level)
    state = answer(start(state, EcumenicalCouncil()), Roll((natural,)))
    rise = natural + 1 if mean and natural not in (1, 6) else natural
    assert schism(state) == level + rise


@pytest.mark.rule("5.3.1", "2.6")
def test_a_council_above_twelve_loses_the_game() -> None:
    state = set_marker(CTX, on_turn(5, chit=4), "schism", 10)
    state = answer(start(state, EcumenicalCouncil()), Roll((3,)))
    assert state.ending is not None and state.ending.defeat


@pytest.mark.rule("5.3.1")
@given(number=st.integers(1, 28))
def test_a_council_is_convened_exactly_by_the_patriarch_chits(number: int) -> None:
    tasks = scheduled(once(on_turn(12, chit=number), TurnChitEvents()))
    assert (EcumenicalCouncil() in tasks) is CHITS[number].patriarch


SHIELDS = [n for n, chit in CHITS.items() if chit.crusader_shield]
PLAIN = [n for n, chit in CHITS.items() if not chit.crusader_shield]


def shields_on_map(numbers: list[int], current: int, base: SooState = CAMPAIGN) -> SooState:
    """Chits ``numbers`` on the first Turns of the Chronographia, ``current`` on the next."""
    turn = base.turn + len(numbers) + 1
    state = on_turn(turn, chit=current, base=base)
    for t, number in enumerate(numbers, start=base.turn + 1):
        state = put(state, f"chit-{number}", f"chronographia-{t}")
    return state


@pytest.mark.rule("5.3.2", "5.4.1")
def test_example_the_sixth_shield_begins_the_crusades() -> None:
    state = shields_on_map([2, 6, 8, 9, 12], current=14)
    assert scheduled(once(state, CrusaderShields())) == [CrusadesBegin("5.3.2")]
    state = start(state, CrusaderShields())
    assert "crusades" in state.done
    assert where(state, "marker-crusade") == "crusades-a"


@pytest.mark.rule("5.3.2")
@given(earlier=st.integers(0, 5), current=st.sampled_from(SHIELDS), plain=st.integers(0, 3))
def test_the_crusades_begin_when_six_shields_are_on_the_map(
    earlier: int, current: int, plain: int
) -> None:
    others = [n for n in SHIELDS if n != current][:earlier] + PLAIN[:plain]
    state = shields_on_map(others, current)
    began = scheduled(once(state, CrusaderShields())) == [CrusadesBegin("5.3.2")]
    assert began is (earlier == 5)


@pytest.mark.rule("5.3.2")
@given(number=st.integers(1, 28))
def test_only_shield_chits_count_the_shields(number: int) -> None:
    tasks = scheduled(once(on_turn(12, chit=number), TurnChitEvents()))
    assert (CrusaderShields() in tasks) is CHITS[number].crusader_shield


@pytest.mark.rule("5.3.2", "E")
def test_millennium_first_shield_begins_the_crusades() -> None:
    state = on_turn(15, chit=SHIELDS[-1], base=idle(millennium()))
    tasks = scheduled(once(state, CrusaderShields(), MILLENNIUM))
    assert tasks == [CrusadesBegin("5.3.2")]


@pytest.mark.rule("5.3.2")
def test_shields_are_ignored_once_the_crusades_have_begun() -> None:
    state = on_turn(20, chit=SHIELDS[-1], base=idle(millennium()))
    state = attrs.evolve(state, done=state.done | {"crusades"})
    assert scheduled(once(state, CrusaderShields(), MILLENNIUM)) == []
    state = shields_on_map([2, 6, 8, 9, 12], current=14)
    state = attrs.evolve(state, done=state.done | {"crusades"})
    assert scheduled(once(state, CrusaderShields())) == []


@pytest.mark.rule("5.3.3")
@given(number=st.integers(1, 28))
def test_chit_16_discards_the_pope(number: int) -> None:
    state = on_turn(16, chit=number)
    tasks = scheduled(once(state, TurnChitEvents()))
    assert (EastWestSchism() in tasks) is (number == 16)
    if number == 16:
        state = start(state, EastWestSchism())
        assert where(state, "marker-pope") == "discarded"
        assert "east-west-schism" in state.done


@pytest.mark.rule("5.3.4")
@given(level=st.integers(0, 12), roll=st.integers(1, 6), saved=st.integers(1, 3))
def test_reforms_cost_one_saved_solidus_and_move_the_tile(
    level: int, roll: int, saved: int
) -> None:
    state = put(on_turn(4, chit=4), "marker-reforms", "omnibus", level)
    state = set_marker(CTX, state, "solidus", saved)
    state = start(state, Reforms())
    assert state.pending is not None and state.pending.options == (Decline(), Pay(1))
    state = answer(state, Pay(1), Roll((roll,)))
    assert solidus(state) == saved - 1
    if level + roll > 12:
        assert where(state, "marker-reforms") == "reforms"
    else:
        assert where(state, "marker-reforms") == "omnibus"
        assert marker(CTX, state, "reforms") == level + roll


@pytest.mark.rule("5.3.4")
def test_reforms_may_be_declined_and_need_a_saved_solidus() -> None:
    state = put(on_turn(4, chit=4), "marker-reforms", "omnibus", 5)
    declined = answer(start(state, Reforms()), Decline())
    assert marker(CTX, declined, "reforms") == 5 and solidus(declined) == solidus(state)
    broke = start(set_marker(CTX, state, "solidus", 0), Reforms())
    assert broke.pending is None
    achieved = start(put(state, "marker-reforms", "reforms"), Reforms())
    assert achieved.pending is None


@pytest.mark.rule("5.3.4")
@given(number=st.integers(1, 28))
def test_the_red_disc_offers_the_reforms(number: int) -> None:
    tasks = scheduled(once(on_turn(4, chit=number), TurnChitEvents()))
    assert (Reforms() in tasks) is CHITS[number].red_disc


@pytest.mark.rule("5.3.5")
@given(number=st.integers(1, 28))
def test_crossed_swords_mean_civil_war(number: int) -> None:
    state = on_turn(7, chit=number)
    assert civil_war_this_turn(CTX, state) is (number in (5, 23, 24))


@pytest.mark.rule("5.3.6")
def test_example_random_barbarians_one_on_alpha_two_on_beta() -> None:
    state = start(on_turn(20, chit=28), RandomBarbarians())
    assert state.pending is not None and state.pending.dice == 3
    state = feed(state, Roll((1, 2, 2)))
    assert scheduled(state) == [
        Advance(Path.ALPHA, "5.3.6"),
        Advance(Path.BETA, "5.3.6"),
        Advance(Path.BETA, "5.3.6"),
    ]


@pytest.mark.rule("5.3.6", "9.2")
def test_random_barbarians_are_carried_out_at_once() -> None:
    state = on_turn(20, chit=28)
    before = {p: len(zone_armies(CTX, state, p)) for p in (Path.ALPHA, Path.BETA)}
    state = answer(start(state, RandomBarbarians()), Roll((1, 2, 2)))
    assert len(zone_armies(CTX, state, Path.ALPHA)) == before[Path.ALPHA] + 1
    assert len(zone_armies(CTX, state, Path.BETA)) == before[Path.BETA] + 2


@pytest.mark.rule("5.3.6")
@given(number=st.integers(1, 28), option=st.booleans())
def test_red_die_icons_count_only_under_the_option(number: int, option: bool) -> None:
    game = RED_DICE if option else GAME
    state = start(on_turn(20, chit=number), RandomBarbarians(), game=game)
    chit = CHITS[number]
    dice = chit.white_dice + (chit.red_dice if option else 0)
    if dice:
        assert state.pending is not None and state.pending.dice == dice
    else:
        assert state.pending is None


@pytest.mark.rule("5.3.7")
@given(number=st.integers(1, 28))
def test_fire_icons_are_counted_for_the_social_events(number: int) -> None:
    assert chit_fires(CTX, on_turn(7, chit=number)) == CHITS[number].fires
    assert CHITS[2].fires == 1  # the rulebook's example


# -- 5.3.8 round-letter events (Appendix F) ------------------------------------------------


@pytest.mark.rule("5.3.8")
@given(number=st.integers(1, 28), option=st.booleans())
def test_round_letters_apply_only_under_the_option(number: int, option: bool) -> None:
    game = ROUND_LETTERS if option else GAME
    tasks = scheduled(once(on_turn(7, chit=number), TurnChitEvents(), game))
    letter = CHITS[number].round_letter
    expected = RoundLetter(letter) if letter else None
    assert (expected in tasks) is bool(option and letter)


@pytest.mark.rule("5.3.8", "F")
@given(roll=st.integers(1, 6))
def test_letter_a_earthquake_drops_the_walls(roll: int) -> None:
    state = answer(start(on_turn(1, chit=1), RoundLetter("Ⓐ")), Roll((roll,)))
    assert where(state, "faction-walls") == "omnibus"
    assert state.board.value[CAT.tile("faction-walls")] == roll


def huns_board(count: int, huns: bool = True) -> SooState:
    state = on_turn(2, chit=2)
    gamma = [CAT.tiles[t].id for t in CAT.tiles_of(TileKind.ARMY, Path.GAMMA)]
    for i, army in enumerate(gamma):
        state = put(state, army, "zone-gamma" if i < count else "reserves-gamma")
    if not huns:
        state = change_tribe(CTX, state, Path.GAMMA, "tribe-gamma-slavs", "test")
    return state


@pytest.mark.rule("5.3.8", "F")
@given(count=st.integers(1, 5), roll=st.integers(1, 6), data=st.data())
def test_letter_b_honoria_sends_hun_armies_home(count: int, roll: int, data: st.DataObject) -> None:
    state = answer(start(huns_board(count), RoundLetter("Ⓑ")), Roll((roll,)))
    while state.pending is not None:
        assert state.pending.kind is RequestKind.CHOOSE
        state = answer(state, data.draw(st.sampled_from(state.pending.options)))
    assert len(zone_armies(CTX, state, Path.GAMMA)) == max(1, count - roll)
    assert "honoria" in state.done
    again = start(huns_board(count), RoundLetter("Ⓑ"))
    assert again.pending is not None
    assert start(attrs.evolve(again, done=state.done), RoundLetter("Ⓑ")).pending is None


@pytest.mark.rule("F")
def test_letter_b_needs_the_huns_and_offers_each_strength_once() -> None:
    assert start(huns_board(4, huns=False), RoundLetter("Ⓑ")).pending is None
    state = feed(start(huns_board(5), RoundLetter("Ⓑ")), Roll((1,)))
    state = start(state, *scheduled(state))
    assert state.pending is not None
    assert isinstance(state.pending.task, HunsLeave)
    # Armies of equal strength are alike: one option per strength, weakest first.
    assert state.pending.options == (
        Select("army-gamma-4"),
        Select("army-gamma-2"),
        Select("army-gamma-1"),
    )
    state = answer(state, Select("army-gamma-1"))
    assert where(state, "army-gamma-1") == "reserves-gamma"


@pytest.mark.rule("F")
@given(roll=st.integers(1, 6), saved=st.integers(0, 12))
def test_letter_c_fiscal_reforms_fill_the_treasury(roll: int, saved: int) -> None:
    state = set_marker(CTX, on_turn(3, chit=3), "solidus", saved)
    state = answer(start(state, RoundLetter("Ⓒ")), Roll((roll,)))
    assert solidus(state) == min(12, saved + roll)


@pytest.mark.rule("F")
@given(space=st.sampled_from(("lurking", "zone-alpha", "cilicia")))
def test_letter_d_porphyrios_drives_the_stolos_away(space: str) -> None:
    state = start(put(on_turn(6, chit=6), "marker-stolos", space), RoundLetter("Ⓓ"))
    assert where(state, "marker-stolos") == "lurking"
    assert state.counter("porphyrios") == 6


@pytest.mark.rule("F")
@given(held=st.booleans(), saved=st.integers(0, 5))
def test_letter_e_pisan_pirates(held: bool, saved: int) -> None:
    state = set_marker(CTX, on_turn(7, chit=7), "solidus", saved)
    if held:
        state = put(state, "outpost-holy-land", "outpost-holy-land")
    state = start(state, RoundLetter("Ⓔ"))
    assert solidus(state) == (max(0, saved - 2) if held else saved)


@pytest.mark.rule("F")
@given(turn=st.integers(1, 27))
def test_letter_f_khazar_allies_between_turns_5_and_14(turn: int) -> None:
    tasks = scheduled(once(on_turn(turn, chit=8), RoundLetter("Ⓕ")))
    expected = [Attack("5.3.8", paths=(Path.DELTA, Path.EPSILON, Path.ZETA))] * 3
    assert tasks == (expected if 5 <= turn <= 14 else [])


@pytest.mark.rule("F")
@given(turn=st.integers(2, 27))
def test_letter_g_dark_ages_close_the_university(turn: int) -> None:
    state = put(on_turn(turn, chit=9), "patriarch-nestorius", "constantinople", back=True)
    state = start(state, RoundLetter("Ⓖ"))
    closed = 10 <= turn <= 13
    assert (where(state, "patriarch-nestorius") == "counter-tray") is closed


@pytest.mark.rule("F")
@given(roll=st.integers(1, 6))
def test_letter_h_refugees_pay_when_the_university_stands(roll: int) -> None:
    state = put(on_turn(10, chit=10), "patriarch-nestorius", "constantinople", back=True)
    state = set_marker(CTX, state, "solidus", 2)
    state = answer(start(state, RoundLetter("Ⓗ")), Roll((roll,)))
    assert solidus(state) == 2 + roll


@pytest.mark.rule("F")
def test_letter_h_refugees_may_build_the_university_for_3() -> None:
    state = put(on_turn(10, chit=10), "patriarch-nestorius", "discarded", back=True)
    state = set_marker(CTX, state, "solidus", 4)
    state = start(state, RoundLetter("Ⓗ"))
    assert state.pending is not None and state.pending.options == (Decline(), Pay(3))
    built = answer(state, Pay(3))
    assert where(built, "patriarch-nestorius") == "constantinople"
    assert back(built, "patriarch-nestorius") and solidus(built) == 1
    assert where(answer(state, Decline()), "patriarch-nestorius") == "discarded"
    # Not while Nestorius is still the Patriarch, nor without 3 $.
    in_office = put(on_turn(1, chit=10), "patriarch-nestorius", "patriarch", back=False)
    assert start(set_marker(CTX, in_office, "solidus", 5), RoundLetter("Ⓗ")).pending is None
    poor = set_marker(CTX, state, "solidus", 2)
    assert start(idle(poor), RoundLetter("Ⓗ")).pending is None


@pytest.mark.rule("F")
@given(roll=st.integers(1, 6))
def test_letter_i_cyril_and_methodius(roll: int) -> None:
    state = answer(start(on_turn(11, chit=11), RoundLetter("Ⓘ")), Roll((roll,)))
    assert back(state, "marker-kiev") is (roll == 6)
    orthodox = put(on_turn(11, chit=11), "marker-kiev", "kiev", back=True)
    assert start(orthodox, RoundLetter("Ⓘ")).pending is None


@pytest.mark.rule("F", "5.3.8")
@given(symbol=st.sampled_from(["Ⓙ", "Ⓠ", "Ⓢ", "Ⓣ", "Ⓤ", "①", "②", "③"]))
def test_announced_and_unknown_letters_have_no_effect(symbol: str) -> None:
    state = on_turn(13, chit=13)
    assert start(state, RoundLetter(symbol)).board == state.board


# -- 5.4 the Crusades ---------------------------------------------------------------------


@pytest.mark.rule("5.4.1")
def test_the_first_crusade_begins() -> None:
    state = set_eastern(on_turn(16, chit=2), Path.ZETA, "army-zeta-seljuks", 2)
    state = once(state, CrusadesBegin("5.3.2"))
    assert where(state, "marker-crusade") == "crusades-a"
    assert where(state, "outpost-holy-land") == "outpost-holy-land"
    assert "crusades" in state.done and state.counter("crusades-began") == 16
    assert scheduled(state) == [Attack("5.4.1", paths=(Path.ZETA,), ignore_drms=True)] * 2
    assert once(state, CrusadesBegin("8.4.1")).board == state.board  # only once


@pytest.mark.rule("5.4.1")
@given(
    alpha=st.sampled_from(("tribe-alpha-vandals", "tribe-alpha-saracens")),
    delta=st.sampled_from(("army-delta-persia", "army-delta-saracens", "army-delta-armenia")),
    epsilon=st.sampled_from(("army-epsilon-persia", "army-epsilon-buyids")),
    zeta=st.sampled_from(("army-zeta-nomads", "army-zeta-persia", "army-zeta-saracens")),
)
def test_crusaders_strike_muslims_or_else_persia(
    alpha: str, delta: str, epsilon: str, zeta: str
) -> None:
    state = change_tribe(CTX, on_turn(16, chit=2), Path.ALPHA, alpha, "test")
    state = set_eastern(state, Path.DELTA, delta, 3)
    state = set_eastern(state, Path.EPSILON, epsilon, 3)
    state = set_eastern(state, Path.ZETA, zeta, 3)
    placed = {Path.ALPHA: alpha, Path.DELTA: delta, Path.EPSILON: epsilon, Path.ZETA: zeta}
    muslim = tuple(p for p, t in placed.items() if "saracens" in t or "buyids" in t)
    persian = tuple(p for p, t in placed.items() if "persia" in t)
    assert crusade_targets(CTX, state) == (muslim or persian)


@pytest.mark.rule("5.4.2")
@given(began=st.integers(10, 20), turn=st.integers(10, 21))
def test_crusades_continue_only_after_the_turn_they_began(began: int, turn: int) -> None:
    state = put(on_turn(turn, chit=2), "marker-crusade", "crusades-b")
    state = set_counter(
        attrs.evolve(state, done=state.done | {"crusades"}), "crusades-began", began
    )
    tasks = scheduled(once(state, Crusades()))
    assert (tasks == [CrusadesContinue()]) is (began < turn)


def crusading(space: str, level: int = 4) -> SooState:
    state = put(on_turn(18, chit=2), "marker-crusade", space)
    state = attrs.evolve(state, done=state.done | {"crusades"})
    state = set_counter(state, "crusades-began", 16)
    return set_marker(CTX, state, "schism", level)


@pytest.mark.rule("5.4.2", "Tables")
@given(space=st.sampled_from(("crusades-a", "crusades-b", "crusades-c")), roll=st.integers(1, 2))
def test_the_crusade_advances_and_rolls(space: str, roll: int) -> None:
    state = start(crusading(space), CrusadesContinue())
    nxt = "crusades-" + chr(ord(space[-1]) + 1)
    assert where(state, "marker-crusade") == nxt
    after = answer(state, Roll((roll,)))
    assert after.board == state.board  # sporadic warfare: no effect


@pytest.mark.rule("5.4.2")
def test_the_crusades_end_after_space_d() -> None:
    state = start(crusading("crusades-d"), CrusadesContinue())
    assert state.pending is None
    assert where(state, "marker-crusade") == "discarded"
    assert start(state, Crusades()).pending is None


@pytest.mark.rule("5.4.2", "Tables")
@given(level=st.integers(0, 12), riots=st.integers(0, 2), university=st.booleans())
def test_constantinople_betrayed(level: int, riots: int, university: bool) -> None:
    state = crusading("crusades-a", level)
    for i in range(1, riots + 1):
        state = put(state, f"riot-{i}", "constantinople", back=False)
    if university:
        state = put(state, "patriarch-nestorius", "constantinople", back=True)
    state = answer(start(state, CrusadesContinue()), Roll((3,)))
    in_city = [
        CAT.tiles[t].id
        for t in CAT.on(state.board, CAT.space("constantinople"))
        if CAT.tiles[t].kind is TileKind.RIOT
    ]
    assert len(in_city) == riots + min(level, 6, 6 - riots)
    assert all(back(state, riot) for riot in in_city)  # all Latins now
    assert where(state, "patriarch-nestorius") != "constantinople"
    assert "constantinople-betrayed" in state.done
    # It can only happen once.
    again = answer(
        start(put(state, "marker-crusade", "crusades-b"), CrusadesContinue()), Roll((4,))
    )
    assert [
        t
        for t in CAT.on(again.board, CAT.space("constantinople"))
        if CAT.tiles[t].kind is TileKind.RIOT
    ] == [CAT.tile(t) for t in in_city]


@pytest.mark.rule("5.4.2", "Tables")
@given(
    egypt=st.sampled_from(("held", "fallen", "withdrawn", "independent")), roll=st.integers(5, 6)
)
def test_landing_in_egypt(egypt: str, roll: int) -> None:
    state = crusading("crusades-c")
    if egypt == "fallen":
        state = put(state, "outpost-egypt", "egypt", back=True)
    elif egypt == "withdrawn":
        state = put(state, "outpost-egypt", "counter-tray")
    elif egypt == "independent":
        state = put(state, "outpost-egypt", "discarded")
        state = attrs.evolve(state, done=state.done | {"egypt-independent"})
    state = answer(start(state, CrusadesContinue()), Roll((roll,)))
    if egypt == "independent":
        assert where(state, "outpost-egypt") == "discarded"
    else:
        assert where(state, "outpost-egypt") == "egypt"
        assert not back(state, "outpost-egypt")


@pytest.mark.rule("C", "5.4.2")
def test_a_whole_turn_start_with_the_crusades_under_way() -> None:
    state = put(crusading("crusades-a"), "chit-2", "chronographia-18")
    state = start(state, TurnStartPhase())
    assert state.pending is not None and state.pending.rule == "5.4.2"
    assert where(state, "marker-crusade") == "crusades-b"


@pytest.mark.rule("C")
def test_the_tile_draw_leads_into_the_turn_start() -> None:
    state = answer(campaign(), Draw("chit-28"))
    assert where(state, "chit-28") == "chronographia-1"
    assert state.pending is not None and state.pending.rule == "5.2.1"
