"""The Chronicle Synopsis Phase (chapter 8): the Synopsis roll, Military and Political Events.

Boards are the Campaign setup with a few tiles moved. Tasks that other chapters
carry out (an Advance, a free attack, a Repulse, the Rise of Islam, Carthage) are
checked as scheduled rather than run, except in the worked example of 8.1, which
runs the whole phase.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import Attack, Repulse, stolos_carrier
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import RiseOfIslam, modified_roll, schism_level
from byzantium.sword_of_orthodoxy.engine import Context, run_task
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Pay,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.synopsis import (
    POLITICAL_EVENTS,
    AlexandriaEvent,
    ArabianTribesMove,
    ArmenianRevoltEvent,
    BaptismOfTheRusEvent,
    BulgarsEvent,
    CarthageEvent,
    CatholicCharityEvent,
    CopticRevoltEvent,
    DavidEvent,
    EruditeEmperorEvent,
    FallOfRomeEvent,
    GokturksEvent,
    GreeksEvent,
    HenotikonEvent,
    KievEvent,
    KleidionEvent,
    KleidionVictory,
    LombardsEvent,
    MagyarPrincessEvent,
    MagyarsEvent,
    OstrogothsEvent,
    OttomansEvent,
    PechenegsEvent,
    PlagueEvent,
    PornocracyEvent,
    RavennaEvent,
    ResolveMilitaryEvent,
    ResolvePoliticalEvents,
    RiotsEvent,
    RotrudeEvent,
    SeljukColonists,
    SeljuksEvent,
    SerbsEvent,
    SicilyEvent,
    SilkwormTheftEvent,
    SkanderbegEvent,
    SlavsEvent,
    StolosEvent,
    SynopsisPhase,
    TricameronEvent,
    TricameronVictory,
    UprisingOfAsenAndPeterEvent,
    VeniceEvent,
    WarInTheEast,
    WhiteHunsEvent,
    event_spent,
    mountains_controlled,
    ottoman_drms,
    ottoman_paths,
    place_military_event,
    ravenna_to_holy_roman_empire,
    special_attack,
    synopsis_row,
    war_in_the_east_row,
    yihad,
)
from byzantium.sword_of_orthodoxy.turn_start import Carthage, CrusadesBegin, RoundLetter
from byzantium.sword_of_orthodoxy.world import (
    change_tribe,
    eastern_army,
    marker,
    remember,
    set_counter,
    set_marker,
    tribe,
    zone_armies,
)
from tests.sword_of_orthodoxy.strategies import start_of_turn_states
from tests.sword_of_orthodoxy.support import answer, campaign, ctx, idle, put, start, where

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
TWO_ROLLS = ctx(SwordOfOrthodoxy({"two_synopsis_rolls": True}))
ROUND_LETTERS = ctx(SwordOfOrthodoxy({"round_letters": True}))
BASE = idle(campaign())
STRATEGIKON = [event.name for event in CAT.components.strategikon]


# -- helpers ------------------------------------------------------------------------------


def back(state: SooState, tile_id: str) -> bool:
    return state.board.back[CAT.tile(tile_id)]


def at_turn(turn: int, state: SooState = BASE) -> SooState:
    return attrs.evolve(state, turn=turn)


def solidus(state: SooState, amount: int) -> SooState:
    return set_marker(CTX, state, "solidus", amount)


def run(
    state: SooState, task: Task, action: SooAction | None = None, context: Context = CTX
) -> SooState:
    """Run one task on its own; what it schedules stays on the stack."""
    return run_task(context, attrs.evolve(state, pending=None), task, action)


def reply(state: SooState, action: SooAction, context: Context = CTX) -> SooState:
    """Answer the request the last task made."""
    assert state.pending is not None
    return run(state, state.pending.task, action, context)


def scheduled(state: SooState) -> tuple[Task, ...]:
    return tuple(reversed(state.stack))


def tribe_id(state: SooState, path: Path) -> str:
    tile = tribe(CTX, state, path)
    return "" if tile is None else CAT.tiles[tile].id


def army_id(state: SooState, path: Path) -> str:
    army = eastern_army(CTX, state, path)
    return "" if army is None else CAT.tiles[army].id


def asked(state: SooState, kind: RequestKind) -> bool:
    return state.pending is not None and state.pending.kind is kind


def options(state: SooState) -> tuple[SooAction, ...]:
    assert state.pending is not None
    return state.pending.options


# -- 8.1, 8.2, Appendix D --------------------------------------------------------------------


@pytest.mark.rule("8.1", "D")
def test_example_turn_10_roll_2_reads_row_11_12() -> None:
    row = synopsis_row(CTX, 10 + 2)
    assert (row.low, row.high) == (11, 12)
    assert row.military == "Iconoclasm"
    assert set(row.political) == {
        "Lombards",
        "Slavs",
        "Riots",
        "Armenian Revolt",
        "Plague",
        "Coptic Revolt",
    }


@pytest.mark.rule("8.1", "D")
@given(st.integers(1, 27), st.integers(1, 6))
def test_every_turn_and_roll_has_a_row(turn: int, roll: int) -> None:
    row = synopsis_row(CTX, turn + roll)
    assert row.low <= turn + roll <= row.high


@pytest.mark.rule("8.1")
@given(st.integers(1, 27), st.integers(1, 6))
def test_one_roll_gives_both_the_military_and_the_political_events(turn: int, roll: int) -> None:
    state = run(at_turn(turn), SynopsisPhase())
    assert asked(state, RequestKind.ROLL)
    state = reply(state, Roll((roll,)))
    row = synopsis_row(CTX, turn + roll)
    assert scheduled(state) == (
        ResolveMilitaryEvent(row.military),
        ResolvePoliticalEvents(row.political, row.optional),
    )


@pytest.mark.rule("8.2")
@given(st.integers(1, 27), st.integers(1, 6), st.integers(1, 6))
def test_two_rolls_separate_military_and_political_events(
    turn: int, first: int, second: int
) -> None:
    state = run(at_turn(turn), SynopsisPhase(), context=TWO_ROLLS)
    state = reply(state, Roll((first,)), TWO_ROLLS)
    assert asked(state, RequestKind.ROLL) and state.stack == ()
    state = reply(state, Roll((second,)), TWO_ROLLS)
    military = synopsis_row(CTX, turn + first)
    political = synopsis_row(CTX, turn + second)
    assert scheduled(state) == (
        ResolveMilitaryEvent(military.military),
        ResolvePoliticalEvents(political.political, political.optional),
    )


@pytest.mark.rule("8.1", "8.3", "8.4", "8.4.1")
def test_example_turn_10_roll_2_played_out() -> None:
    state = start(at_turn(10), SynopsisPhase())
    state = answer(state, Roll((2,)))
    assert state.pending is None and state.ending is None
    assert where(state, "marker-military-event") == "strategikon"
    assert (
        state.board.value[CAT.tile("marker-military-event")] == STRATEGIKON.index("Iconoclasm") + 1
    )
    assert tribe_id(state, Path.BETA) == "tribe-beta-lombards"  # Lombards
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-slavs"  # Slavs
    assert back(state, "basileus-golden")  # Plague
    assert where(state, "riot-1") == "constantinople"  # Riots
    assert army_id(state, Path.DELTA) == "army-delta-persia"  # no Armenian Revolt
    assert not back(state, "outpost-egypt")  # no Coptic Revolt


# -- 8.3 Military Events ------------------------------------------------------------------


@pytest.mark.rule("8.3")
@given(st.sampled_from(STRATEGIKON))
def test_the_military_event_tile_goes_on_its_strategikon_space(name: str) -> None:
    state = place_military_event(CTX, BASE, name)
    assert where(state, "marker-military-event") == "strategikon"
    assert state.board.value[CAT.tile("marker-military-event")] == STRATEGIKON.index(name) + 1


@pytest.mark.rule("8.3")
def test_no_military_event_no_tile() -> None:
    state = run(BASE, ResolveMilitaryEvent(""))
    assert where(state, "marker-military-event") == "strategikon-waiting"
    assert state.stack == ()


def ottomans_everywhere_but_alpha(state: SooState) -> SooState:
    state = change_tribe(CTX, state, Path.BETA, "tribe-beta-ottomans", "test")
    state = change_tribe(CTX, state, Path.GAMMA, "tribe-gamma-ottomans", "test")
    for old, new, space in (
        ("army-delta-persia", "army-delta-ottomans", "lesser-armenia"),
        ("army-epsilon-persia", "army-epsilon-ottomans", "melitene"),
        ("army-zeta-nomads", "army-zeta-ottomans", "cilicia"),
    ):
        state = put(put(state, old, "counter-tray", back=False), new, space, back=False)
    return state


@pytest.mark.rule("8.3")
def test_example_yihad_on_turn_25() -> None:
    state = ottomans_everywhere_but_alpha(at_turn(25))
    assert synopsis_row(CTX, 25 + 4).military == "Yihad"
    state = run(state, ResolveMilitaryEvent("Yihad"))
    assert state.board.value[CAT.tile("marker-military-event")] == STRATEGIKON.index("Yihad") + 1
    paths = (Path.BETA, Path.GAMMA, Path.DELTA, Path.EPSILON, Path.ZETA)
    assert scheduled(state) == tuple(Advance(path, "8.3") for path in paths)


@pytest.mark.rule("8.3")
def test_yihad_moves_only_muslim_barbarians() -> None:
    assert yihad(CTX, BASE).stack == ()
    state = change_tribe(CTX, BASE, Path.ALPHA, "tribe-alpha-saracens", "test")
    state = put(
        put(state, "army-delta-persia", "counter-tray", back=False),
        "army-delta-saracens",
        "iberia",
        back=False,
    )
    assert scheduled(yihad(CTX, state)) == (Advance(Path.ALPHA, "8.3"), Advance(Path.DELTA, "8.3"))


def war_example(money: int = 1) -> SooState:
    """8.3's example: Nomads in Jerusalem, Persians in Amorion and Lesser Armenia."""
    state = put(at_turn(5), "army-zeta-nomads", "jerusalem", back=False)
    state = put(state, "army-epsilon-persia", "amorion", back=False)
    state = put(state, "army-delta-persia", "lesser-armenia", back=False)
    return solidus(state, money)


@pytest.mark.rule("8.3", "Tables")
def test_example_war_in_the_east_roll_3_4_with_one_mountain() -> None:
    state = run(war_example(), ResolveMilitaryEvent("War in the East"))
    assert scheduled(state) == (WarInTheEast(),)
    state = run(attrs.evolve(state, stack=()), WarInTheEast())
    assert state.counter("war-in-the-east") == 1
    assert army_id(state, Path.ZETA) == "army-zeta-persia"
    assert where(state, "army-zeta-persia") == "jerusalem"
    assert mountains_controlled(CTX, state) == 1  # only Cilicia
    assert asked(state, RequestKind.ROLL) and state.pending is not None
    assert state.pending.dice == 2
    state = reply(state, Roll((3, 4)))  # 7 + 1 = 8: 8 Ruins, Persians Advance 1
    assert where(state, "marker-ruins") == "omnibus"
    assert marker(CTX, state, "ruins") == 8
    assert scheduled(state) == (
        Advance(Path.DELTA, "8.3"),
        Advance(Path.EPSILON, "8.3"),
        Advance(Path.ZETA, "8.3"),
        ArabianTribesMove(""),
    )
    state = run(attrs.evolve(state, stack=()), ArabianTribesMove(""))
    assert {where(state, t) for t in ("marker-colonist-1", "marker-colonist-2")} == {
        "syria",
        "persia",
    }
    assert not back(state, "marker-colonist-1") and not back(state, "marker-colonist-2")


@pytest.mark.rule("8.3")
def test_war_in_the_east_counterattack_costs_4_and_keeps_the_new_roll() -> None:
    state = run(war_example(money=5), WarInTheEast())
    state = reply(state, Roll((3, 4)))
    assert asked(state, RequestKind.CHOOSE)
    assert options(state) == (Decline(), Pay(4))
    state = reply(state, Pay(4))
    assert marker(CTX, state, "solidus") == 1
    assert asked(state, RequestKind.ROLL)
    state = reply(state, Roll((6, 6)))  # 12 + 1 = 13: Byzantine victory, PR 3
    assert marker(CTX, state, "ruins") == 3
    retreats = [Repulse(p, "8.3") for p in (Path.DELTA, Path.EPSILON, Path.ZETA) for _ in range(3)]
    assert scheduled(state) == (*retreats, ArabianTribesMove("byzantine"))


@pytest.mark.rule("8.3")
def test_war_in_the_east_declined_counterattack_keeps_the_first_roll() -> None:
    state = run(war_example(money=4), WarInTheEast())
    state = reply(reply(state, Roll((1, 1))), Decline())  # 2 + 1 = 3: Persian victory
    assert marker(CTX, state, "solidus") == 4
    assert marker(CTX, state, "ruins") == 1
    assert scheduled(state)[-1] == ArabianTribesMove("persian")
    assert len(scheduled(state)) == 1 + 3 * 3


@pytest.mark.rule("8.3")
@pytest.mark.parametrize(
    ("victory", "zeta_colonist", "epsilon_colonist"),
    [("persian", True, False), ("byzantine", False, True), ("", True, True)],
)
def test_the_pagans_leave_arabia(victory: str, zeta_colonist: bool, epsilon_colonist: bool) -> None:
    state = run(BASE, ArabianTribesMove(victory))
    by_space = {where(state, t): t for t in ("marker-colonist-1", "marker-colonist-2")}
    assert set(by_space) == {"syria", "persia"}
    assert back(state, by_space["syria"]) is not zeta_colonist
    assert back(state, by_space["persia"]) is not epsilon_colonist


@pytest.mark.rule("8.3", "Tables")
@given(st.integers(2, 15))
def test_war_in_the_east_table_gives_ruins_one_to_nine(total: int) -> None:
    row = war_in_the_east_row(CTX, total)
    assert 1 <= row.ruins <= 9
    assert (row.persians > 0) is (total <= 8)
    assert row.victory == ("persian" if total <= 5 else "byzantine" if total >= 13 else "")


@pytest.mark.rule("8.3")
def test_war_in_the_east_second_time_brings_islam_and_later_nothing() -> None:
    state = set_counter(war_example(), "war-in-the-east", 1)
    second = run(state, WarInTheEast())
    assert scheduled(second) == (RiseOfIslam("8.3"),)
    assert second.pending is None
    third = run(attrs.evolve(second, stack=()), WarInTheEast())
    assert third.counter("war-in-the-east") == 3
    assert third.stack == () and third.pending is None
    assert third.board == second.board


# -- 8.4 --------------------------------------------------------------------------------------


@pytest.mark.rule("8.4")
def test_political_events_come_in_the_printed_order() -> None:
    row = synopsis_row(CTX, 12)
    state = run(BASE, ResolvePoliticalEvents(row.political, row.optional))
    assert scheduled(state) == tuple(POLITICAL_EVENTS[name]() for name in row.political)


@pytest.mark.rule("8.4", "8.4.1")
def test_every_political_event_of_the_table_has_its_procedure() -> None:
    names = {event.name for event in CAT.components.political_events}
    assert set(POLITICAL_EVENTS) == names
    for row in CAT.components.synopsis:
        assert set(row.political) <= names


@pytest.mark.rule("8.4")
def test_a_starred_event_that_took_effect_does_not_recur() -> None:
    names = ("Fall of Rome", "Greeks", "Ostrogoths")
    state = remember(remember(BASE, "event:Fall of Rome"), "event:Greeks")
    assert event_spent(CTX, state, "Fall of Rome")
    assert not event_spent(CTX, state, "Greeks")  # not marked ✹: it may recur
    state = run(state, ResolvePoliticalEvents(names))
    assert scheduled(state) == (GreeksEvent(), OstrogothsEvent())


@pytest.mark.rule("8.4")
def test_circled_events_only_with_the_optional_rule() -> None:
    ignored = run(BASE, ResolvePoliticalEvents(("Alexandria",), ("Ⓑ",)))
    assert scheduled(ignored) == (AlexandriaEvent(),)
    used = run(BASE, ResolvePoliticalEvents(("Alexandria",), ("Ⓑ",)), context=ROUND_LETTERS)
    assert scheduled(used) == (AlexandriaEvent(), RoundLetter("Ⓑ", rule="8.4"))


# -- 8.4.1 each Political Event ------------------------------------------------------------------


@pytest.mark.rule("8.4.1")
def test_alexandria_pays_one_solidus_while_egypt_is_held() -> None:
    assert marker(CTX, run(BASE, AlexandriaEvent()), "solidus") == 2
    fallen = put(BASE, "outpost-egypt", "egypt", back=True)
    assert marker(CTX, run(fallen, AlexandriaEvent()), "solidus") == 1


@pytest.mark.rule("8.4.1")
def test_armenian_revolt_replaces_the_saracens_of_delta() -> None:
    state = put(
        put(BASE, "army-delta-persia", "counter-tray", back=False),
        "army-delta-saracens",
        "paphlagonia",
        back=False,
    )
    state = run(state, ArmenianRevoltEvent())
    assert army_id(state, Path.DELTA) == "army-delta-armenia"
    assert where(state, "army-delta-armenia") == "paphlagonia"
    assert run(BASE, ArmenianRevoltEvent()).board == BASE.board


@pytest.mark.rule("8.4.1", "1.1")
@given(st.integers(1, 6), st.integers(1, 6), st.booleans())
def test_baptism_of_the_rus_succeeds_below_the_payment(
    paid: int, natural: int, cross: bool
) -> None:
    state = solidus(BASE, 8)
    if cross:
        state = put(
            put(state, "basileus-theodosius", "basileus-mug", back=False),
            "basileus-basil-constantine",
            "basileus",
            back=False,
        )
    state = run(state, BaptismOfTheRusEvent())
    assert options(state) == tuple(Pay(n) for n in range(9))
    state = reply(state, Pay(paid))
    assert marker(CTX, state, "solidus") == 8 - paid
    state = reply(state, Roll((natural,)))
    converted = modified_roll(natural, -1 if cross else 0) < paid
    assert back(state, "marker-kiev") is converted


@pytest.mark.rule("8.4.1", "1.1")
def test_baptism_of_the_rus_a_natural_six_stays_six() -> None:
    state = put(
        put(solidus(BASE, 6), "basileus-theodosius", "basileus-mug", back=False),
        "basileus-basil-constantine",
        "basileus",
        back=False,
    )
    state = reply(reply(run(state, BaptismOfTheRusEvent()), Pay(6)), Roll((6,)))
    assert not back(state, "marker-kiev")


@pytest.mark.rule("8.4.1")
def test_baptism_of_the_rus_needs_a_pagan_kiev_and_money() -> None:
    state = reply(run(BASE, BaptismOfTheRusEvent()), Pay(0))
    assert state.pending is None and not back(state, "marker-kiev")
    orthodox = put(BASE, "marker-kiev", "kiev", back=True)
    assert run(orthodox, BaptismOfTheRusEvent()).pending is None


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("paid", "roll", "orthodox"), [(2, 2, True), (2, 3, False), (0, 0, False)])
def test_bulgars_arrive_and_choose_a_church(paid: int, roll: int, orthodox: bool) -> None:
    state = run(solidus(BASE, 3), BulgarsEvent())
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-bulgars"
    assert all(CAT.face(state.board, a).strength >= 1 for a in zone_armies(CTX, state, Path.GAMMA))
    assert options(state) == (Pay(0), Pay(1), Pay(2), Pay(3))
    state = reply(state, Pay(paid))
    if paid:
        state = reply(state, Roll((roll,)))
    assert where(state, "marker-bulgarian-church") == "bulgarian-church"
    assert back(state, "marker-bulgarian-church") is not orthodox
    assert marker(CTX, state, "solidus") == 3 - paid


@pytest.mark.rule("8.4.1")
def test_bulgars_only_replace_slavs_ostrogoths_or_huns() -> None:
    state = change_tribe(CTX, BASE, Path.GAMMA, "tribe-gamma-bulgars-weak", "test")
    after = run(state, BulgarsEvent())
    assert after.pending is None and tribe_id(after, Path.GAMMA) == "tribe-gamma-bulgars-weak"


@pytest.mark.rule("8.4.1")
def test_carthage_refers_to_the_migration_event() -> None:
    assert scheduled(run(BASE, CarthageEvent())) == (Carthage("8.4.1"),)


@pytest.mark.rule("8.4.1")
def test_catholic_charity_before_and_after_the_east_west_schism() -> None:
    state = reply(run(BASE, CatholicCharityEvent()), Roll((4,)))
    assert marker(CTX, state, "solidus") == 5
    mean = put(BASE, "marker-pope", "pope", back=True)
    assert run(mean, CatholicCharityEvent()).pending is None
    split = remember(put(BASE, "marker-pope", "discarded", back=False), "east-west-schism")
    assert asked(run(split, CatholicCharityEvent()), RequestKind.ROLL)
    assert run(set_marker(CTX, split, "schism", 2), CatholicCharityEvent()).pending is None


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("roll", "held"), [(2, True), (3, False)])
def test_coptic_revolt_can_win_back_a_fallen_egypt(roll: int, held: bool) -> None:
    state = put(solidus(BASE, 2), "outpost-egypt", "egypt", back=True)
    state = reply(reply(run(state, CopticRevoltEvent()), Pay(2)), Roll((roll,)))
    assert back(state, "outpost-egypt") is not held
    assert marker(CTX, state, "solidus") == 0


@pytest.mark.rule("8.4.1")
def test_coptic_revolt_needs_a_fallen_christian_egypt() -> None:
    assert run(BASE, CopticRevoltEvent()).pending is None
    fallen = put(BASE, "outpost-egypt", "egypt", back=True)
    muslim = put(fallen, "army-zeta-egypt", "egyptian-religion", back=True)
    assert run(muslim, CopticRevoltEvent()).pending is None
    active = change_tribe(CTX, fallen, Path.ALPHA, "tribe-alpha-egypt", "test")
    assert run(active, CopticRevoltEvent()).pending is None


@pytest.mark.rule("8.4.1", "8.4")
def test_david_takes_lazica_once() -> None:
    state = run(BASE, DavidEvent())
    assert where(state, "outpost-lazica") == "discarded"
    assert event_spent(CTX, state, "David")
    assert run(state, ResolvePoliticalEvents(("David",))).stack == ()


@pytest.mark.rule("8.4.1")
def test_fall_of_rome_makes_three_outposts_available() -> None:
    state = run(BASE, FallOfRomeEvent())
    for outpost in ("outpost-rome", "outpost-hispania", "outpost-sicily"):
        assert where(state, outpost) == "available-outposts"
    assert event_spent(CTX, state, "Fall of Rome")


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize("event", [GokturksEvent(), WhiteHunsEvent()])
def test_gokturks_and_white_huns_give_free_attacks_on_delta_and_epsilon(event: Task) -> None:
    expected = (Attack("8.4.1", (Path.DELTA,)), Attack("8.4.1", (Path.EPSILON,)))
    assert scheduled(run(BASE, event)) == expected


@pytest.mark.rule("8.4.1")
def test_greeks_pay_for_greek_themas_with_the_reforms() -> None:
    assert marker(CTX, run(BASE, GreeksEvent()), "solidus") == 1
    reformed = put(solidus(BASE, 0), "marker-reforms", "reforms", back=False)
    assert marker(CTX, run(reformed, GreeksEvent()), "solidus") == 4  # all three
    lost = put(reformed, "army-epsilon-persia", "cappadocia", back=False)
    assert marker(CTX, run(lost, GreeksEvent()), "solidus") == 2


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("dice", "in_mug"), [((6, 6), True), ((6, 5), False)])
def test_henotikon_needs_double_six(dice: tuple[int, int], in_mug: bool) -> None:
    state = run(BASE, HenotikonEvent())
    assert state.pending is not None and state.pending.dice == 2
    state = reply(state, Roll(dice))
    assert (where(state, "marker-schism") == "turn-chit-mug") is in_mug
    mean = put(BASE, "marker-pope", "pope", back=True)
    assert run(mean, HenotikonEvent()).pending is None


@pytest.mark.rule("8.4.1")
def test_kleidion_allows_attacking_the_last_bulgar_army_this_turn() -> None:
    state = change_tribe(CTX, at_turn(18), Path.GAMMA, "tribe-gamma-bulgars", "test")
    assert special_attack(CTX, state, "kleidion") is None
    state = run(state, KleidionEvent())
    assert "kleidion-turn-18" in state.done
    attack = special_attack(CTX, state, "kleidion")
    assert attack == Attack("8.4.1", (Path.GAMMA,), lone=True, on_success=(KleidionVictory(),))
    assert special_attack(CTX, at_turn(19, state), "kleidion") is None
    crowded = put(state, "army-gamma-2", "zone-gamma", back=False)
    assert special_attack(CTX, crowded, "kleidion") is None
    won = run(state, KleidionVictory())
    assert where(won, "marker-bulgar-thema") == "zone-gamma"
    assert event_spent(CTX, won, "Kleidion")
    assert special_attack(CTX, won, "kleidion") is None


@pytest.mark.rule("8.4.1")
def test_tricameron_allows_attacking_the_last_vandal_army_this_turn() -> None:
    state = run(at_turn(3), TricameronEvent())
    assert "tricameron-turn-3" in state.done
    attack = special_attack(CTX, state, "tricameron")
    assert attack == Attack("8.4.1", (Path.ALPHA,), lone=True, on_success=(TricameronVictory(),))
    won = run(state, TricameronVictory())
    assert tribe_id(won, Path.ALPHA) == "tribe-alpha-moors"
    assert special_attack(CTX, won, "tricameron") is None


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("turn", "path"), [(14, Path.DELTA), (13, Path.GAMMA)])
def test_pagan_kiev_raids_by_turn_parity(turn: int, path: Path) -> None:
    assert scheduled(run(at_turn(turn), KievEvent())) == (Advance(path, "8.4.1"),)


@pytest.mark.rule("8.4.1")
def test_orthodox_kiev_trades_and_empty_kiev_does_nothing() -> None:
    orthodox = put(BASE, "marker-kiev", "kiev", back=True)
    assert marker(CTX, run(orthodox, KievEvent()), "solidus") == 2
    empty = put(BASE, "marker-kiev", "counter-tray", back=False)
    assert run(empty, KievEvent()) == empty


@pytest.mark.rule("8.4.1")
def test_lombards_conquer_the_goths() -> None:
    state = run(BASE, LombardsEvent())
    assert tribe_id(state, Path.BETA) == "tribe-beta-lombards"
    (army,) = zone_armies(CTX, state, Path.BETA)
    assert not back(state, CAT.tiles[army].id)  # Lombards ride horses: strong side
    assert tribe_id(run(state, LombardsEvent()), Path.BETA) == "tribe-beta-lombards"


@pytest.mark.rule("8.4.1")
def test_magyar_princess_schism_or_solidus() -> None:
    state = run(set_marker(CTX, BASE, "schism", 3), MagyarPrincessEvent())
    assert options(state) == (Select("reduce-schism"), Select("gain-solidus"))
    assert schism_level(CTX, reply(state, Select("reduce-schism"))) == 2
    assert marker(CTX, reply(state, Select("gain-solidus")), "solidus") == 2


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(
    ("event", "unit"),
    [(MagyarsEvent(), "support-magyars"), (SkanderbegEvent(), "support-skanderbeg")],
)
def test_support_units_join_zone_beta_against_the_ottomans(event: Task, unit: str) -> None:
    assert where(run(BASE, event), unit) == "counter-tray"
    state = change_tribe(CTX, BASE, Path.BETA, "tribe-beta-ottomans", "test")
    assert where(run(state, event), unit) == "zone-beta"


@pytest.mark.rule("8.4.1")
def test_skanderbeg_happens_once() -> None:
    state = change_tribe(CTX, BASE, Path.BETA, "tribe-beta-ottomans", "test")
    assert event_spent(CTX, run(state, SkanderbegEvent()), "Skanderbeg")
    assert not event_spent(CTX, run(BASE, SkanderbegEvent()), "Skanderbeg")


@pytest.mark.rule("8.4.1")
def test_ostrogoths_and_slavs_on_gamma() -> None:
    state = run(BASE, OstrogothsEvent())
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-ostrogoths"
    state = run(state, SlavsEvent())
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-slavs"
    assert tribe_id(run(state, OstrogothsEvent()), Path.GAMMA) == "tribe-gamma-slavs"
    assert tribe_id(run(BASE, SlavsEvent()), Path.GAMMA) == "tribe-gamma-slavs"


def ottoman_example() -> SooState:
    """8.4.1's example: Turn 22, no Taurus held, Α one Army (Venice), Β and Γ two, Italy."""
    state = at_turn(22)
    state = put(
        put(state, "army-delta-persia", "counter-tray", back=False),
        "army-delta-seljuks",
        "paphlagonia",
        back=False,
    )
    state = put(
        put(state, "army-epsilon-persia", "counter-tray", back=False),
        "army-epsilon-il-khan",
        "cappadocia",
        back=False,
    )
    state = put(
        put(state, "army-zeta-nomads", "counter-tray", back=False),
        "army-zeta-il-khan",
        "ephesus",
        back=False,
    )
    state = change_tribe(CTX, state, Path.ALPHA, "tribe-alpha-venice", "test")
    state = put(state, "army-beta-2", "zone-beta", back=False)
    return put(state, "army-gamma-2", "zone-gamma", back=False)


@pytest.mark.rule("8.4.1", "Tables")
def test_example_ottomans_on_turn_22() -> None:
    state = ottoman_example()
    drms = ottoman_drms(CTX, state)
    assert sorted(m.value for m in drms) == [-1, 1, 1]  # Zone Α; Ephesus, Cappadocia
    assert sum(m.value for m in drms) == 1
    state = reply(run(state, OttomansEvent()), Roll((5,)))  # 5 + 1 = 6
    # Table 3 reads 6 as Β Γ Δ Ε Ζ; the example's "Β ΔΕ" contradicts it (see the
    # rulings). Β is still Italy, so it does not turn Ottoman.
    assert ottoman_paths(CTX, state, 6) == (Path.GAMMA, Path.DELTA, Path.EPSILON, Path.ZETA)
    assert tribe_id(state, Path.BETA) == "tribe-beta-goths"
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-ottomans"
    assert army_id(state, Path.DELTA) == "army-delta-ottomans"
    assert where(state, "army-delta-ottomans") == "paphlagonia"
    assert army_id(state, Path.EPSILON) == "army-epsilon-ottomans"
    assert army_id(state, Path.ZETA) == "army-zeta-ottomans"
    paths = (Path.GAMMA, Path.DELTA, Path.EPSILON, Path.ZETA)
    assert scheduled(state) == tuple(Advance(path, "8.4.1") for path in paths)
    assert event_spent(CTX, state, "Ottomans")


@pytest.mark.rule("8.4.1", "Tables")
@given(st.integers(-3, 8), st.booleans())
def test_ottoman_table_paths(result: int, balkans: bool) -> None:
    state = put(BASE, "marker-zone-beta", "zone-name-beta", back=balkans)
    paths = ottoman_paths(CTX, state, result)
    table = {1: "Δ", 2: "ΔΕ", 3: "ΒΔΕ", 4: "ΓΔΕΖ"}
    letters = "" if result <= 0 else table.get(result, "ΒΓΔΕΖ")
    if not balkans:
        letters = letters.replace("Β", "")
    assert "".join(p.letter for p in paths) == letters


@pytest.mark.rule("8.4.1", "1.1")
def test_ottomans_natural_one_and_no_empire() -> None:
    state = ottoman_example()
    one = reply(run(state, OttomansEvent()), Roll((1,)))
    assert army_id(one, Path.DELTA) == "army-delta-ottomans"  # a natural 1 is 1: Δ
    assert army_id(one, Path.EPSILON) == "army-epsilon-il-khan"
    held = put(state, "army-zeta-il-khan", "jerusalem", back=False)  # Cilicia held, Ephesus freed
    held = put(held, "army-epsilon-il-khan", "amorion", back=False)
    held = put(held, "army-delta-seljuks", "iberia", back=False)  # Greater Armenia held
    # Greater Armenia and Cilicia held (-2), Zone Α (-1), Cappadocia in Muslim hands (+1).
    assert sum(m.value for m in ottoman_drms(CTX, held)) == -2
    none = reply(run(held, OttomansEvent()), Roll((2,)))  # 2 - 2 = 0: no Empire
    assert none.stack == ()
    assert not event_spent(CTX, none, "Ottomans")


@pytest.mark.rule("8.4.1")
def test_ottomans_need_a_muslim_delta_and_two_il_khans() -> None:
    assert run(BASE, OttomansEvent()).pending is None
    state = put(ottoman_example(), "army-zeta-il-khan", "counter-tray", back=False)
    state = put(state, "army-zeta-seljuks", "ephesus", back=False)
    assert run(state, OttomansEvent()).pending is None


@pytest.mark.rule("8.4.1")
def test_pechenegs_discard_the_church_then_advance_and_attack() -> None:
    state = put(BASE, "marker-bulgarian-church", "bulgarian-church", back=False)
    state = run(state, PechenegsEvent())
    assert where(state, "marker-bulgarian-church") == "discarded"
    assert scheduled(state) == (Advance(Path.GAMMA, "8.4.1"), Attack("8.4.1", (Path.GAMMA,)))


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("roll", "cured"), [(4, True), (3, False)])
def test_plague_strikes_the_golden_basileus(roll: int, cured: bool) -> None:
    state = run(BASE, PlagueEvent())
    assert back(state, "basileus-golden") and state.pending is None
    hospitals = put(
        put(BASE, "hospital-1", "zone-alpha", back=False), "hospital-2", "nicaea", back=False
    )
    state = run(hospitals, PlagueEvent())
    assert options(state) == (Decline(), Select("use-hospitals"))
    assert reply(state, Decline()).pending is None
    state = reply(reply(state, Select("use-hospitals")), Roll((roll,)))
    assert back(state, "hospital-1") and back(state, "hospital-2")
    assert back(state, "basileus-golden") is not cured


@pytest.mark.rule("8.4.1")
def test_plague_spares_an_absent_basileus() -> None:
    away = put(BASE, "basileus-golden", "chronographia-4", back=False)
    assert run(away, PlagueEvent()) == away


@pytest.mark.rule("8.4.1")
def test_pornocracy_makes_the_pope_mean() -> None:
    assert back(run(BASE, PornocracyEvent()), "marker-pope")
    split = put(BASE, "marker-pope", "discarded", back=False)
    assert run(split, PornocracyEvent()) == split


@pytest.mark.rule("8.4.1")
def test_ravenna_is_placed_in_italy_and_turns_holy_roman_empire_later() -> None:
    state = run(at_turn(5), RavennaEvent())
    assert where(state, "marker-ravenna") == "zone-beta"
    assert event_spent(CTX, state, "Ravenna")
    crowded = state
    for army in ("army-beta-2", "army-beta-3", "army-beta-4"):
        crowded = put(crowded, army, "zone-beta", back=False)
    assert not back(ravenna_to_holy_roman_empire(CTX, crowded), "marker-ravenna")  # same Turn
    later = at_turn(6, crowded)
    assert back(ravenna_to_holy_roman_empire(CTX, later), "marker-ravenna")
    assert not back(ravenna_to_holy_roman_empire(CTX, at_turn(6, state)), "marker-ravenna")
    balkans = put(BASE, "marker-zone-beta", "zone-name-beta", back=True)
    assert where(run(balkans, RavennaEvent()), "marker-ravenna") == "counter-tray"


@pytest.mark.rule("8.4.1")
def test_riots_need_a_riot_tile() -> None:
    state = run(BASE, RiotsEvent())
    assert where(state, "riot-1") == "constantinople" and not back(state, "riot-1")
    for n in range(1, 7):
        state = put(state, f"riot-{n}", "constantinople", back=False)
    assert run(state, RiotsEvent()) == state


@pytest.mark.rule("8.4.1")
def test_rotrude_marriage_on_a_six() -> None:
    state = run(set_marker(CTX, BASE, "schism", 5), RotrudeEvent())
    failed = reply(state, Roll((5,)))
    assert failed.pending is None and not event_spent(CTX, failed, "Rotrude")
    state = reply(reply(state, Roll((6,))), Roll((4,)))
    assert options(state) == (Select("gain-solidus"), Select("reduce-schism"))
    assert schism_level(CTX, reply(state, Select("reduce-schism"))) == 1
    assert marker(CTX, reply(state, Select("gain-solidus")), "solidus") == 5
    assert event_spent(CTX, state, "Rotrude")


@pytest.mark.rule("8.4.1")
def test_rotrude_with_a_mean_pope_brings_money_and_nothing_after_the_split() -> None:
    mean = put(BASE, "marker-pope", "pope", back=True)
    state = reply(reply(run(mean, RotrudeEvent()), Roll((6,))), Roll((3,)))
    assert marker(CTX, state, "solidus") == 4
    split = remember(put(BASE, "marker-pope", "discarded", back=False), "east-west-schism")
    assert run(split, RotrudeEvent()).pending is None


@pytest.mark.rule("8.4.1")
def test_erudite_emperor_needs_the_university() -> None:
    assert marker(CTX, run(BASE, EruditeEmperorEvent()), "solidus") == 1
    university = put(BASE, "patriarch-nestorius", "constantinople", back=True)
    university = put(university, "outpost-sicily", "outpost-sicily", back=False)
    assert marker(CTX, run(university, EruditeEmperorEvent()), "solidus") == 3  # Egypt, Sicily


@pytest.mark.rule("8.4.1")
def test_seljuks_replace_the_muslim_armies_then_advance() -> None:
    state = put(
        put(BASE, "army-delta-persia", "counter-tray", back=False),
        "army-delta-saracens",
        "iberia",
        back=False,
    )
    state = put(
        put(state, "army-epsilon-persia", "counter-tray", back=False),
        "army-epsilon-buyids",
        "melitene",
        back=False,
    )
    state = put(
        put(state, "army-zeta-nomads", "counter-tray", back=False),
        "army-zeta-saracens",
        "cilicia",
        back=False,
    )
    state = run(state, SeljuksEvent())
    for path, space in ((Path.DELTA, "iberia"), (Path.EPSILON, "melitene"), (Path.ZETA, "cilicia")):
        assert army_id(state, path).endswith("seljuks")
        assert where(state, army_id(state, path)) == space
    advances = tuple(Advance(p, "8.4.1") for p in (Path.DELTA, Path.EPSILON, Path.ZETA))
    assert scheduled(state) == (*advances, SeljukColonists())
    assert run(BASE, SeljuksEvent()).stack == ()


@pytest.mark.rule("8.4.1")
def test_seljuk_colonists_move_up_and_the_crusades_begin() -> None:
    state = put(
        put(BASE, "army-epsilon-persia", "counter-tray", back=False),
        "army-epsilon-seljuks",
        "cappadocia",
        back=False,
    )
    state = put(
        put(state, "army-zeta-nomads", "counter-tray", back=False),
        "army-zeta-seljuks",
        "damascus",
        back=False,
    )
    state = put(state, "marker-colonist-1", "persia", back=False)
    state = put(state, "marker-colonist-2", "jerusalem", back=False)
    state = run(state, SeljukColonists())
    assert where(state, "marker-colonist-1") == "cappadocia"
    assert where(state, "marker-colonist-2") == "jerusalem"  # Damascus is not closer
    assert scheduled(state) == (CrusadesBegin("8.4.1"),)
    begun = remember(attrs.evolve(state, stack=()), "crusades")
    assert run(begun, SeljukColonists()).stack == ()


@pytest.mark.rule("8.4.1")
def test_serbs_take_the_balkans() -> None:
    state = put(
        put(BASE, "army-beta-2", "zone-beta", back=False), "army-beta-4", "zone-beta", back=False
    )
    state = put(state, "marker-ravenna", "zone-beta", back=False)
    state = run(state, SerbsEvent())
    assert tribe_id(state, Path.BETA) == "tribe-beta-serbs"
    assert [CAT.tiles[a].id for a in zone_armies(CTX, state, Path.BETA)] == ["army-beta-4"]
    assert back(state, "marker-zone-beta")  # Balkans
    assert where(state, "marker-ravenna") == "discarded"
    assert "strategic-retreat:Β" in state.done
    assert run(state, SerbsEvent()) == state


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("roll", "lost"), [(5, True), (6, True), (4, False)])
def test_sicily_falls_on_five_or_six(roll: int, lost: bool) -> None:
    state = reply(run(BASE, SicilyEvent()), Roll((roll,)))
    assert (where(state, "outpost-sicily") == "discarded") is lost


@pytest.mark.rule("8.4.1")
def test_the_silkworm_theft_pays_a_die() -> None:
    state = reply(run(BASE, SilkwormTheftEvent()), Roll((3,)))
    assert marker(CTX, state, "solidus") == 4
    assert event_spent(CTX, state, "The Silkworm Theft")


@pytest.mark.rule("8.4.1")
def test_stolos_in_the_east_rides_the_only_army() -> None:
    state = reply(run(BASE, StolosEvent()), Roll((5,)))
    assert where(state, "marker-stolos") == "persia"
    assert stolos_carrier(CTX, state) == CAT.tile("army-epsilon-persia")


@pytest.mark.rule("8.4.1")
def test_stolos_in_a_zone_sails_with_the_chosen_army() -> None:
    state = put(
        put(BASE, "army-beta-2", "zone-beta", back=False), "army-beta-4", "zone-beta", back=False
    )
    state = reply(run(state, StolosEvent()), Roll((2,)))
    assert options(state)[0] == Select("army-beta-4")  # the weakest first
    state = reply(state, Select("army-beta-2"))
    assert stolos_carrier(CTX, state) == CAT.tile("army-beta-2")
    lone = reply(run(BASE, StolosEvent()), Roll((1,)))
    assert stolos_carrier(CTX, lone) == CAT.tile("army-alpha-1")


@pytest.mark.rule("8.4.1")
def test_stolos_only_sails_from_lurking() -> None:
    out = put(BASE, "marker-stolos", "chronographia-6", back=False)
    assert run(out, StolosEvent()).pending is None
    whale = set_counter(at_turn(6), "porphyrios", 6)
    assert run(whale, StolosEvent()).pending is None


@pytest.mark.rule("8.4.1")
def test_uprising_of_asen_and_peter_ends_the_bulgar_thema() -> None:
    state = change_tribe(CTX, BASE, Path.GAMMA, "tribe-gamma-bulgars", "test")
    assert run(state, UprisingOfAsenAndPeterEvent()) == state
    state = put(state, "marker-bulgar-thema", "zone-gamma", back=False)
    state = run(state, UprisingOfAsenAndPeterEvent())
    assert where(state, "marker-bulgar-thema") == "discarded"
    assert tribe_id(state, Path.GAMMA) == "tribe-gamma-bulgars-weak"


@pytest.mark.rule("8.4.1")
def test_venice_takes_crete_at_once() -> None:
    crete = put(BASE, "marker-zone-alpha", "zone-name-alpha", back=True)
    assert tribe_id(run(crete, VeniceEvent()), Path.ALPHA) == "tribe-alpha-venice"


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize(("roll", "venice"), [(2, True), (1, False)])
def test_venice_in_africa_must_beat_the_barbarians(roll: int, venice: bool) -> None:
    state = reply(run(BASE, VeniceEvent()), Roll((roll,)))  # one Army in Zone Α
    assert (tribe_id(state, Path.ALPHA) == "tribe-alpha-venice") is venice
    assert back(state, "marker-zone-alpha") is venice  # Africa becomes Crete


# -- the whole phase from random boards ----------------------------------------------------------


@st.composite
def synopsis_boards(draw: st.DrawFn) -> tuple[SwordOfOrthodoxy, SooState]:
    """A start-of-Turn board with random Tribes, eastern Armies and event tiles."""
    game, state = draw(start_of_turn_states())
    context = ctx(game)
    state = idle(attrs.evolve(state, turn=draw(st.integers(1, 27))))
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        tribes = list(CAT.tiles_of(TileKind.TRIBE, path))
        new = CAT.tiles[draw(st.sampled_from(tribes))].id
        state = change_tribe(context, state, path, new, "test")
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        old = eastern_army(context, state, path)
        armies = [
            a for a in CAT.tiles_of(TileKind.ARMY, path) if CAT.tiles[a].id != "army-zeta-egypt"
        ]
        chosen = draw(st.sampled_from(armies))
        if old is not None and old != chosen:
            state = put(
                put(state, CAT.tiles[chosen].id, where(state, CAT.tiles[old].id), back=False),
                CAT.tiles[old].id,
                "counter-tray",
                back=False,
            )
    for colonist, space in (("marker-colonist-1", "syria"), ("marker-colonist-2", "persia")):
        if draw(st.booleans()):
            state = put(state, colonist, space, back=draw(st.booleans()))
    for tile_id, space in (
        ("marker-kiev", "kiev"),
        ("marker-pope", "pope"),
        ("outpost-egypt", "egypt"),
        ("marker-zone-alpha", "zone-name-alpha"),
        ("marker-zone-beta", "zone-name-beta"),
    ):
        state = put(state, tile_id, space, back=draw(st.booleans()))
    if draw(st.booleans()):
        state = put(state, "marker-ruins", "omnibus", value=draw(st.integers(1, 9)), back=False)
    return game, state


@pytest.mark.rule("8.1", "8.3", "8.4", "8.4.1")
@settings(max_examples=150)
@given(synopsis_boards(), st.data())
def test_the_phase_always_finishes_and_keeps_the_board_whole(
    board: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = board
    state = start(state, SynopsisPhase(), game=game)
    for _ in range(400):
        if state.pending is None or state.ending is not None:
            break
        actions = game.legal_actions(state)
        state = game.apply(state, actions[data.draw(st.integers(0, len(actions) - 1))])
    else:
        raise AssertionError("the Synopsis Phase did not finish")
    assert 0 <= marker(CTX, state, "solidus") <= 12
    assert 0 <= marker(CTX, state, "schism") <= 12
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        assert (
            len(zone_armies(CTX, state, path))
            + len(CAT.on(state.board, CAT.reserves(path), CAT.tiles_of(TileKind.ARMY, path)))
            == 5
        )
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        themas = set(CAT.themas(path))
        assert (
            sum(1 for a in CAT.tiles_of(TileKind.ARMY, path) if state.board.where[a] in themas) <= 1
        )
