"""Chapter 6, the Leadership Phase (rules 6.0-6.8)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.dice import modified
from byzantium.sword_of_orthodoxy.combat import social_drm
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.leadership import (
    BuildKastron,
    DynastySurvival,
    LeadershipPhase,
    Mutilation,
    NewBasileus,
    NewPatriarch,
    NewPope,
    PayTribute,
    ResetNike,
    SchemingEmpress,
    SocialEvent,
    SocialEvents,
    SocialVictory,
    Standing,
    barbarian_count,
    civil_war_winner,
    dynasty_survives,
    may_mutilate,
    place_social,
    social_event_count,
    standing,
)
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
from byzantium.sword_of_orthodoxy.world import marker, set_counter, set_marker
from tests.sword_of_orthodoxy.support import (
    GAME,
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    idle,
    millennium,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

C = ctx()
CAMPAIGN = idle(campaign())
DYNASTIES = [C.cat.tiles[t].id for t in C.cat.tiles_of(TileKind.DYNASTY)]
RULING_DYNASTIES = [d for d in DYNASTIES if "anarchy" not in d]
GREY = [
    C.cat.tiles[t].id
    for t in C.cat.tiles_of(TileKind.BASILEUS)
    if C.cat.tiles[t].id not in ("basileus-theodosius", "basileus-zoe-theodora")
]
SOCIALS = [C.cat.tiles[t].id for t in C.cat.tiles_of(TileKind.SOCIAL)]
CIVIL_WAR_CHIT = "chit-5"
QUIET_CHIT = "chit-1"  # no fire, no civil war


# -- helpers ----------------------------------------------------------------------------


def at(state: SooState, tile: str, space: str, *, back: bool = False, value: int = 0) -> SooState:
    """The state with a tile on a space, face as given."""
    index = C.cat.tile(tile)
    board = state.board.move(index, C.cat.space(space), value).flip(index, back)
    return attrs.evolve(state, board=board)


def shows_back(state: SooState, tile: str) -> bool:
    return state.board.back[C.cat.tile(tile)]


def on(state: SooState, space: str, kind: TileKind | None = None) -> list[str]:
    index = C.cat.space(space)
    return [
        C.cat.tiles[i].id
        for i, w in enumerate(state.board.where)
        if w == index and (kind is None or C.cat.tiles[i].kind is kind)
    ]


def level(state: SooState, name: str) -> int:
    return marker(C, state, name)


def with_marker(state: SooState, name: str, value: int) -> SooState:
    return set_marker(C, state, name, value)


def turn(n: int, chit: str = QUIET_CHIT, state: SooState = CAMPAIGN) -> SooState:
    """The Campaign board on Turn ``n`` with ``chit`` on its Chronographia space."""
    return at(attrs.evolve(state, turn=n), chit, f"chronographia-{n}")


def ruler(state: SooState, dynasty: str) -> SooState:
    """``dynasty`` rules; the Theodosians go to the Dynasty Mug."""
    state = at(state, "dynasty-theodosian", "dynasty-mug")
    return at(state, dynasty, "dynasty")


def crown(state: SooState, *tiles: tuple[str, bool]) -> SooState:
    """The given grey Basileus tiles (id, back) reign; Theodosius is discarded."""
    state = at(state, "basileus-theodosius", "discarded", back=True)
    for tile, back in tiles:
        state = at(state, tile, "basileus", back=back)
    return state


def asked(state: SooState) -> tuple[str, RequestKind]:
    assert state.pending is not None
    return state.pending.rule, state.pending.kind


def options(state: SooState) -> tuple[object, ...]:
    assert state.pending is not None
    return state.pending.options


def settled(state: SooState) -> bool:
    return state.pending is None and not state.stack


# -- 6.0 ------------------------------------------------------------------------------


@pytest.mark.rule("6.0")
def test_the_campaign_skips_the_whole_phase_on_turn_1() -> None:
    state = turn(1)
    after = start(state, LeadershipPhase())
    assert settled(after)
    assert after.board == state.board


@pytest.mark.rule("6.0", "E")
def test_the_millennium_skips_the_phase_on_its_first_turn_15() -> None:
    state = attrs.evolve(idle(millennium()), turn=15)
    after = start(state, LeadershipPhase(), game=MILLENNIUM)
    assert settled(after)
    assert after.board == state.board
    later = start(attrs.evolve(state, turn=16), LeadershipPhase(), game=MILLENNIUM)
    assert asked(later) == ("6.1", RequestKind.ROLL)


@pytest.mark.rule("6.0", "6.1", "6.2", "6.2.3", "6.3", "6.4", "6.5", "6.7", "6.8")
def test_the_phase_runs_its_steps_in_the_order_of_the_sequence_of_play() -> None:
    state = with_marker(with_marker(turn(5, "chit-2"), "solidus", 2), "nike", 2)
    state = start(state, LeadershipPhase())
    seen = []
    script: dict[str, SooAction] = {
        "6.1": Roll((6,)),
        "6.2.3": Decline(),
        "6.3": Draw("patriarch-john"),
        "6.4": Roll((1,)),
        "6.5": Decline(),
        "6.7.1": Roll((2,)),
    }
    while state.pending is not None:
        rule, kind = asked(state)
        seen.append(rule)
        if rule == "6.2":
            action: SooAction = (
                Draw("basileus-alexios-leo") if kind is RequestKind.DRAW else Roll((1,))
            )
        else:
            action = script[rule]
        state = answer(state, action)
    assert seen == ["6.1", "6.2", "6.2", "6.2.3", "6.3", "6.4", "6.5", "6.7.1"]
    assert where(state, "basileus-alexios-leo") == "basileus"
    assert where(state, "patriarch-john") == "patriarch"
    assert level(state, "nike") == 0


@pytest.mark.rule("6.0", "5.1")
def test_on_justinians_turn_no_other_dynasty_or_basileus_is_chosen() -> None:
    state = at(turn(3, CIVIL_WAR_CHIT), "dynasty-theodosian", "discarded")
    state = at(state, "dynasty-justinian", "dynasty")
    state = at(state, "basileus-theodosius", "basileus", back=True)
    state = set_counter(
        attrs.evolve(state, done=state.done | {"justinian-turn"}), "justinian-turn", 3
    )
    after = start(state, LeadershipPhase())
    assert asked(after) == ("6.3", RequestKind.DRAW)
    assert where(after, "dynasty-justinian") == "dynasty"
    assert where(after, "basileus-theodosius") == "basileus"
    # The fact stays remembered, but on Turn 4 the normal rules apply again.
    later = start(attrs.evolve(state, turn=4), LeadershipPhase())
    assert asked(later) == ("6.1", RequestKind.ROLL)


@pytest.mark.rule("6.0", "6.1")
def test_when_the_dynasties_run_out_all_return_to_the_mug_black_side_up() -> None:
    state = ruler(turn(9), "dynasty-anarchy-1")
    for dynasty in DYNASTIES:
        if dynasty not in ("dynasty-anarchy-1", "dynasty-macedonian"):
            state = at(state, dynasty, "discarded")
    state = at(state, "dynasty-macedonian", "counter-tray")
    after = start(state, DynastySurvival())
    assert asked(after) == ("6.1", RequestKind.DRAW)
    mug = on(after, "dynasty-mug")
    assert sorted(mug) == sorted(DYNASTIES)  # Anarchy was discarded first, then came back
    assert all(shows_back(after, d) for d in mug)
    after = answer(after, Draw("dynasty-macedonian"))
    assert on(after, "dynasty") == ["dynasty-macedonian"]
    assert C.cat.face(after.board, C.cat.tile("dynasty-macedonian")).name == "Lantzid"


# -- 6.1 ------------------------------------------------------------------------------


@pytest.mark.rule("6.1", "1.1")
@given(st.integers(1, 6), st.integers(2, 6), st.integers(0, 12))
def test_survival_needs_the_die_icon_with_a_nike_bonus_and_natural_extremes(
    natural: int, survival: int, nike: int
) -> None:
    bonus = 1 if nike >= 3 else 0
    expected = natural == 6 or (natural != 1 and natural + bonus >= survival)
    assert dynasty_survives(natural, survival, nike) is expected


@pytest.mark.rule("6.1")
@given(st.sampled_from(RULING_DYNASTIES), st.integers(1, 6), st.integers(0, 6))
def test_the_survival_roll_keeps_or_overthrows_the_ruling_dynasty(
    dynasty: str, natural: int, nike: int
) -> None:
    state = with_marker(ruler(turn(6), dynasty), "nike", nike)
    state = start(state, DynastySurvival())
    assert asked(state) == ("6.1", RequestKind.ROLL)
    after = answer(state, Roll((natural,)))
    survival = C.cat.tiles[C.cat.tile(dynasty)].front.survival
    stays = modified(natural, 1 if nike >= 3 else 0, natural_extremes=True) >= survival
    if stays:
        assert settled(after) and where(after, dynasty) == "dynasty"
    else:
        assert where(after, dynasty) == "discarded"
        assert asked(after) == ("6.1", RequestKind.DRAW)
        assert after.pending is not None and after.pending.space == "dynasty-mug"
        new = on(after, "dynasty-mug")[0]
        after = answer(after, Draw(new))
        assert on(after, "dynasty") == [new]


@pytest.mark.rule("6.1")
def test_anarchy_is_discarded_without_a_roll_and_a_new_dynasty_drawn() -> None:
    state = start(ruler(turn(6), "dynasty-anarchy-2"), DynastySurvival())
    assert asked(state) == ("6.1", RequestKind.DRAW)
    assert where(state, "dynasty-anarchy-2") == "discarded"
    after = answer(state, Draw("dynasty-anarchy-1"))
    assert on(after, "dynasty") == ["dynasty-anarchy-1"]


@pytest.mark.rule("6.1")
def test_a_riot_overthrows_the_dynasty_and_takes_a_faction_with_it() -> None:
    state = at(ruler(turn(6), "dynasty-macedonian"), "riot-1", "constantinople")
    state = at(state, "riot-2", "constantinople")
    state = at(state, "riot-3", "constantinople", back=True)  # Latins, not a Riot
    state = start(state, DynastySurvival())
    assert where(state, "dynasty-macedonian") == "discarded"
    assert where(state, "riot-1") == where(state, "riot-2") == "counter-tray"
    assert where(state, "riot-3") == "constantinople"
    state = answer(state, Draw("dynasty-amorian"))
    assert on(state, "dynasty") == ["dynasty-amorian"]
    assert asked(state) == ("6.1", RequestKind.CHOOSE)
    assert Select("faction-walls") not in options(state)
    state = answer(state, Select("faction-5"))
    assert settled(state)
    assert where(state, "faction-5") == "omnibus"
    assert state.board.value[C.cat.tile("faction-5")] == 2


@pytest.mark.rule("6.1")
def test_latins_alone_do_not_overthrow_the_dynasty() -> None:
    state = at(ruler(turn(6), "dynasty-macedonian"), "riot-1", "constantinople", back=True)
    assert asked(start(state, DynastySurvival())) == ("6.1", RequestKind.ROLL)


# -- 6.1.1 ----------------------------------------------------------------------------


@pytest.mark.rule("6.1.1")
def test_example_the_palaiologoi_lose_to_anarchy_despite_2_solidus_and_nike() -> None:
    state = ruler(turn(20, CIVIL_WAR_CHIT), "dynasty-palaiologan")
    state = with_marker(with_marker(state, "solidus", 2), "nike", 3)
    state = start(state, DynastySurvival())
    assert asked(state) == ("6.1.1", RequestKind.DRAW)
    state = answer(state, Draw("dynasty-anarchy-1"))
    assert options(state) == (Pay(0), Pay(1), Pay(2))
    state = answer(state, Pay(2))
    assert level(state, "solidus") == 0
    assert options(state) == (Select("dynasty-palaiologan"), Select("dynasty-anarchy-1"))
    state = answer(state, Select("dynasty-palaiologan"))
    state = answer(state, Roll((2,)))  # the Palaiologoi: 2 + 2 $ + 1 Niké = 5
    state = answer(state, Roll((6,)))  # Anarchy
    assert settled(state)
    assert on(state, "dynasty") == ["dynasty-anarchy-1"]
    assert where(state, "dynasty-palaiologan") == "discarded"


@pytest.mark.rule("6.1.1")
@given(st.integers(1, 6), st.integers(0, 3), st.booleans())
def test_a_civil_war_tie_keeps_the_incumbent(natural: int, paid: int, nike_high: bool) -> None:
    assert civil_war_winner(natural, natural, incumbent=True) == 0
    assert civil_war_winner(natural, natural, incumbent=False) is None
    # Through the task: the incumbent's modified roll equals the challenger's.
    state = ruler(turn(20, CIVIL_WAR_CHIT), "dynasty-komnenid")
    state = with_marker(with_marker(state, "solidus", paid), "nike", 3 if nike_high else 0)
    state = start(state, DynastySurvival())
    state = answer(state, Draw("dynasty-doukid"))
    if paid:
        state = answer(state, Pay(paid), Select("dynasty-doukid"))
    incumbent_natural = 3
    incumbent_value = incumbent_natural + (1 if nike_high else 0)
    challenger_natural = incumbent_value - paid
    if not 2 <= challenger_natural <= 5:
        return
    state = answer(state, Roll((incumbent_natural,)), Roll((challenger_natural,)))
    assert on(state, "dynasty") == ["dynasty-komnenid"]
    assert where(state, "dynasty-doukid") == "dynasty-mug"


@pytest.mark.rule("6.1.1")
def test_a_beaten_challenger_returns_to_the_mug_and_the_money_is_lost() -> None:
    state = with_marker(ruler(turn(20, CIVIL_WAR_CHIT), "dynasty-macedonian"), "solidus", 3)
    state = start(state, DynastySurvival())
    state = answer(state, Draw("dynasty-doukid"), Pay(1), Select("dynasty-macedonian"))
    state = answer(state, Roll((3,)), Roll((5,)))  # 3 + 1 = 4 against 5
    assert on(state, "dynasty") == ["dynasty-doukid"]
    assert where(state, "dynasty-macedonian") == "discarded"
    assert level(state, "solidus") == 2


@pytest.mark.rule("6.1.1")
def test_with_an_empty_treasury_nothing_is_asked_but_the_rolls() -> None:
    state = with_marker(ruler(turn(20, CIVIL_WAR_CHIT), "dynasty-macedonian"), "solidus", 0)
    state = answer(start(state, DynastySurvival()), Draw("dynasty-doukid"))
    assert asked(state) == ("6.1.1", RequestKind.ROLL)
    state = answer(state, Roll((5,)), Roll((4,)))
    assert on(state, "dynasty") == ["dynasty-macedonian"]
    assert where(state, "dynasty-doukid") == "dynasty-mug"


@pytest.mark.rule("6.1.1")
@pytest.mark.parametrize("turn_number", [1, 3])
def test_civil_war_icons_on_turns_1_and_3_have_no_effect(turn_number: int) -> None:
    state = ruler(turn(turn_number, CIVIL_WAR_CHIT), "dynasty-macedonian")
    assert asked(start(state, DynastySurvival())) == ("6.1", RequestKind.ROLL)


@pytest.mark.rule("6.1.1", "6.1")
def test_without_an_incumbent_two_dynasties_are_drawn_and_a_tie_is_rolled_again() -> None:
    state = at(ruler(turn(20, CIVIL_WAR_CHIT), "dynasty-amorian"), "riot-4", "constantinople")
    state = with_marker(state, "solidus", 1)
    state = start(state, DynastySurvival())
    assert where(state, "dynasty-amorian") == "discarded"
    state = answer(state, Draw("dynasty-leonid"), Draw("dynasty-isaurian"))
    state = answer(state, Pay(1), Select("dynasty-isaurian"))
    state = answer(state, Roll((5,)), Roll((4,)))  # 5 against 4 + 1: a tie, no incumbent
    assert asked(state) == ("6.1.1", RequestKind.ROLL)
    state = answer(state, Roll((5,)), Roll((2,)))  # 5 against 3
    assert on(state, "dynasty") == ["dynasty-leonid"]
    assert where(state, "dynasty-isaurian") == "dynasty-mug"
    assert asked(state) == ("6.1", RequestKind.CHOOSE)  # then the rioting Faction


# -- 6.2 ------------------------------------------------------------------------------


@pytest.mark.rule("6.2")
def test_on_turn_2_theodosius_becomes_justinian_and_waits_on_turn_3() -> None:
    state = start(turn(2), NewBasileus())
    assert where(state, "basileus-theodosius") == "chronographia-3"
    assert shows_back(state, "basileus-theodosius")
    assert "basileus-theodosius" not in on(state, "basileus-mug")
    assert asked(state) == ("6.2", RequestKind.DRAW)


@pytest.mark.rule("6.2")
def test_on_turn_4_justinian_is_discarded() -> None:
    state = at(turn(4), "basileus-theodosius", "basileus", back=True)
    state = start(state, NewBasileus())
    assert where(state, "basileus-theodosius") == "discarded"


@pytest.mark.rule("6.2")
@given(st.sampled_from(GREY), st.sampled_from(GREY), st.integers(1, 6))
def test_the_old_basileus_returns_to_the_mug_and_the_new_one_is_tossed(
    old: str, new: str, toss: int
) -> None:
    state = start(crown(turn(7), (old, True)), NewBasileus())
    assert where(state, old) == "basileus-mug"
    state = answer(state, Draw(new))
    assert asked(state) == ("6.2", RequestKind.ROLL)
    state = answer(state, Roll((toss,)))
    assert settled(state)
    assert on(state, "basileus") == [new]
    assert shows_back(state, new) is (toss >= 4)


@pytest.mark.rule("6.2.1")
def test_zoe_or_theodora_takes_the_throne_and_a_husband_is_drawn() -> None:
    state = start(crown(turn(7), ("basileus-john-andronikos", False)), NewBasileus())
    state = answer(state, Draw("basileus-zoe-theodora"), Roll((5,)))
    assert asked(state) == ("6.2", RequestKind.DRAW)
    state = answer(state, Draw("basileus-basil-constantine"), Roll((2,)))
    assert sorted(on(state, "basileus")) == ["basileus-basil-constantine", "basileus-zoe-theodora"]
    assert shows_back(state, "basileus-zoe-theodora")  # Theodora
    assert social_event_count(C, state) == 0
    # Both abilities count: Constantine's fire is the Social Event of the pair.
    flipped = at(state, "basileus-basil-constantine", "basileus", back=True)
    assert social_event_count(C, flipped) == 1


@pytest.mark.rule("6.2.2")
def test_the_scheming_empress_may_pay_1_solidus_to_turn_her_husband_over() -> None:
    state = crown(turn(7), ("basileus-zoe-theodora", False), ("basileus-nikephoros-michael", False))
    state = with_marker(state, "solidus", 1)
    asking = start(state, SchemingEmpress())
    assert options(asking) == (Decline(), Pay(1))
    kept = answer(asking, Decline())
    assert not shows_back(kept, "basileus-nikephoros-michael")
    assert level(kept, "solidus") == 1
    swapped = answer(asking, Pay(1))
    assert shows_back(swapped, "basileus-nikephoros-michael")
    assert level(swapped, "solidus") == 0
    assert settled(start(with_marker(state, "solidus", 0), SchemingEmpress()))


@pytest.mark.rule("6.2.2", "6.2.1")
def test_the_scheming_empress_is_asked_after_the_husband_is_drawn() -> None:
    state = with_marker(turn(7), "solidus", 2)
    state = start(crown(state, ("basileus-john-andronikos", False)), NewBasileus())
    state = answer(state, Draw("basileus-zoe-theodora"), Roll((1,)))
    state = answer(state, Draw("basileus-alexios-leo"), Roll((1,)))
    assert asked(state) == ("6.2.2", RequestKind.CHOOSE)
    state = answer(state, Pay(1))
    assert C.cat.face(state.board, C.cat.tile("basileus-alexios-leo")).name == "Leo"


# -- 6.2.3 ----------------------------------------------------------------------------


@pytest.mark.rule("6.2.3")
@given(st.sampled_from(GREY), st.booleans(), st.booleans())
def test_no_empress_or_husband_of_hers_may_be_mutilated(husband: str, her: bool, his: bool) -> None:
    state = crown(turn(7), ("basileus-zoe-theodora", her), (husband, his))
    assert not may_mutilate(C, state)
    assert settled(start(state, Mutilation()))
    alone = crown(turn(7), ("basileus-zoe-theodora", her))
    assert not may_mutilate(C, alone)
    assert settled(start(alone, Mutilation()))


@pytest.mark.rule("6.2.3")
@given(st.sampled_from(GREY), st.booleans())
def test_a_lone_male_basileus_may_be_mutilated(basileus: str, back: bool) -> None:
    state = start(crown(turn(7), (basileus, back)), Mutilation())
    assert options(state) == (Decline(), Select(basileus))
    assert settled(answer(state, Decline()))


@pytest.mark.rule("6.2.3")
@pytest.mark.parametrize(("mean", "rise"), [(False, 3), (True, 4)])
def test_mutilation_raises_schism_and_the_player_picks_the_new_side(mean: bool, rise: int) -> None:
    state = crown(turn(7), ("basileus-john-andronikos", False))
    state = at(with_marker(state, "schism", 2), "marker-pope", "pope", back=mean)
    state = at(state, "basileus-golden", "chronographia-10")
    state = answer(start(state, Mutilation()), Select("basileus-john-andronikos"))
    assert level(state, "schism") == 2 + rise
    assert asked(state) == ("6.2.3", RequestKind.DRAW)
    assert "basileus-john-andronikos" in on(state, "basileus-mug")
    state = answer(state, Draw("basileus-alexios-leo"))
    assert options(state) == (Select("front"), Select("back"))
    state = answer(state, Select("back"))
    assert on(state, "basileus") == ["basileus-alexios-leo"]
    assert shows_back(state, "basileus-alexios-leo")
    assert options(state) == (Decline(), Select("basileus-golden"))
    back_home = answer(state, Select("basileus-golden"))
    assert where(back_home, "basileus-golden") == "constantinople"
    assert where(answer(state, Decline()), "basileus-golden") == "chronographia-10"


@pytest.mark.rule("6.2.3")
def test_a_mutilation_that_brings_zoe_gives_her_no_husband_and_no_golden_basileus() -> None:
    state = crown(turn(7), ("basileus-john-andronikos", False))
    state = at(state, "basileus-golden", "chronographia-10")
    state = answer(start(state, Mutilation()), Select("basileus-john-andronikos"))
    state = answer(state, Draw("basileus-zoe-theodora"), Select("front"))
    assert settled(state)
    assert on(state, "basileus") == ["basileus-zoe-theodora"]
    assert where(state, "basileus-golden") == "chronographia-10"


@pytest.mark.rule("6.2.3")
def test_without_the_golden_basileus_in_the_chronographia_nothing_more_is_asked() -> None:
    state = crown(turn(7), ("basileus-john-andronikos", False))
    state = answer(start(state, Mutilation()), Select("basileus-john-andronikos"))
    state = answer(state, Draw("basileus-john-andronikos"), Select("front"))
    assert settled(state)
    assert where(state, "basileus-golden") == "constantinople"


@pytest.mark.rule("6.2.3", "2.6")
def test_a_mutilation_that_pushes_schism_past_12_loses_the_game() -> None:
    state = with_marker(crown(turn(7), ("basileus-john-andronikos", False)), "schism", 10)
    state = answer(start(state, Mutilation()), Select("basileus-john-andronikos"))
    assert state.ending is not None and state.ending.defeat


# -- 6.3 ------------------------------------------------------------------------------


@pytest.mark.rule("6.3")
def test_on_turn_2_nestorius_is_deposed_and_becomes_the_university() -> None:
    state = start(turn(2), NewPatriarch())
    assert where(state, "patriarch-nestorius") == "counter-tray"
    assert shows_back(state, "patriarch-nestorius")
    assert asked(state) == ("6.3", RequestKind.DRAW)
    state = answer(state, Draw("patriarch-sergius"))
    assert on(state, "patriarch") == ["patriarch-sergius"]
    assert level(state, "schism") == 1  # a heretic


@pytest.mark.rule("6.3")
@given(st.integers(3, 10), st.sampled_from(["patriarch-john", "patriarch-peter"]))
def test_on_turns_2_to_10_the_patriarch_is_discarded(n: int, new: str) -> None:
    state = at(at(turn(n), "patriarch-nestorius", "discarded"), "patriarch-paul", "patriarch")
    state = answer(start(state, NewPatriarch()), Draw(new))
    assert where(state, "patriarch-paul") == "discarded"
    assert on(state, "patriarch") == [new]
    heretic = new == "patriarch-peter"
    assert level(state, "schism") == (1 if heretic else 0)


@pytest.mark.rule("6.3")
def test_turn_11_the_triumph_of_orthodoxy_returns_the_six_orthodox_patriarchs() -> None:
    state = at(turn(11), "patriarch-nestorius", "counter-tray", back=True)
    for tile in ("patriarch-sergius", "patriarch-anthimus", "patriarch-peter"):
        state = at(state, tile, "discarded")
    orthodox = [
        "patriarch-john",
        "patriarch-nicholas",
        "patriarch-antony",
        "patriarch-paul",
        "patriarch-constantine",
        "patriarch-michael",
    ]
    for tile in orthodox[:-1]:
        state = at(state, tile, "discarded")
    state = at(state, orthodox[-1], "patriarch")
    assert on(state, "patriarch-mug") == []
    state = start(state, NewPatriarch())
    assert sorted(on(state, "patriarch-mug")) == sorted(orthodox)
    assert sorted(on(state, "discarded", TileKind.PATRIARCH)) == [
        "patriarch-anthimus",
        "patriarch-peter",
        "patriarch-sergius",
    ]
    state = answer(state, Draw("patriarch-michael"))
    assert on(state, "patriarch") == ["patriarch-michael"]


@pytest.mark.rule("6.3")
@given(st.integers(12, 27))
def test_from_turn_12_the_patriarch_returns_to_the_mug_and_may_come_back(n: int) -> None:
    state = idle(millennium())
    state = at(attrs.evolve(state, turn=n), QUIET_CHIT, f"chronographia-{n}")
    state = start(state, NewPatriarch(), game=MILLENNIUM)
    assert "patriarch-nicholas" in on(state, "patriarch-mug")
    state = answer(state, Draw("patriarch-nicholas"), game=MILLENNIUM)
    assert on(state, "patriarch") == ["patriarch-nicholas"]
    assert level(state, "schism") == 5


# -- 6.4 ------------------------------------------------------------------------------


@pytest.mark.rule("6.4")
@given(st.integers(1, 6), st.booleans())
def test_the_pope_is_nice_on_1_to_4_and_mean_on_5_or_6(natural: int, was_mean: bool) -> None:
    state = at(turn(8), "marker-pope", "pope", back=was_mean)
    state = answer(start(state, NewPope()), Roll((natural,)))
    assert where(state, "marker-pope") == "pope"
    assert shows_back(state, "marker-pope") is (natural >= 5)


@pytest.mark.rule("6.4")
def test_there_is_no_pope_after_the_east_west_schism() -> None:
    state = at(turn(18), "marker-pope", "discarded")
    after = start(state, NewPope())
    assert settled(after) and where(after, "marker-pope") == "discarded"


# -- 6.5 and 6.6 ------------------------------------------------------------------------


@pytest.mark.rule("6.5")
def test_tribute_costs_2_solidus_and_goes_on_a_homeland_or_zone() -> None:
    state = start(with_marker(turn(8), "solidus", 3), PayTribute())
    assert options(state) == (
        Decline(),
        Select("zone-alpha"),
        Select("zone-beta"),
        Select("zone-gamma"),
        Select("iberia"),
        Select("persia"),
        Select("syria"),
    )
    paid = answer(state, Select("persia"))
    assert where(paid, "marker-tribute") == "persia"
    assert level(paid, "solidus") == 1
    declined = answer(state, Decline())
    assert where(declined, "marker-tribute") == "counter-tray" and level(declined, "solidus") == 3


@pytest.mark.rule("6.5")
def test_no_tribute_without_2_solidus_saved() -> None:
    assert settled(start(with_marker(turn(8), "solidus", 1), PayTribute()))


@pytest.mark.rule("6.6")
def test_a_kastron_needs_the_reforms_and_1_solidus() -> None:
    state = with_marker(turn(12), "solidus", 1)
    assert settled(start(state, BuildKastron()))
    state = start(at(state, "marker-reforms", "reforms"), BuildKastron())
    choices = options(state)
    assert choices[:4] == (
        Decline(),
        Select("zone-alpha"),
        Select("zone-beta"),
        Select("zone-gamma"),
    )
    assert Select("cappadocia") in choices and Select("persia") not in choices
    assert len(choices) == 1 + 3 + 12
    built = answer(state, Select("cappadocia"))
    assert where(built, "marker-kastron") == "cappadocia" and level(built, "solidus") == 0
    broke = with_marker(at(turn(12), "marker-reforms", "reforms"), "solidus", 0)
    assert settled(start(broke, BuildKastron()))


# -- 6.7 ------------------------------------------------------------------------------


@pytest.mark.rule("6.7")
def test_fires_on_the_chit_the_dynasty_and_the_basileus_each_make_a_social_event() -> None:
    state = ruler(turn(8, "chit-2"), "dynasty-komnenid")
    state = crown(state, ("basileus-basil-constantine", True))
    assert social_event_count(C, state) == 3
    state = start(state, SocialEvents())
    assert asked(state) == ("6.7.1", RequestKind.ROLL)
    assert len(state.stack) == 2
    quiet = crown(ruler(turn(8), "dynasty-macedonian"), ("basileus-basil-constantine", False))
    assert social_event_count(C, quiet) == 0
    assert settled(start(quiet, SocialEvents()))


@pytest.mark.rule("6.7")
def test_without_a_social_on_the_counter_tray_there_is_no_event() -> None:
    state = turn(8)
    for social, space in zip(
        SOCIALS, ["zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria"], strict=True
    ):
        state = at(state, social, space)
    assert settled(start(state, SocialEvent()))


@pytest.mark.rule("6.7.1", "6.7.3")
@given(st.integers(1, 6))
def test_the_path_roll_picks_the_path_of_the_same_die(natural: int) -> None:
    state = answer(start(turn(8), SocialEvent()), Roll((natural,)))
    # Campaign setup: one Army per Zone and the eastern Armies on their Homelands.
    assert settled(state)
    box = ["zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria"][natural - 1]
    placed = on(state, box, TileKind.SOCIAL)
    assert len(placed) == 1
    assert shows_back(state, placed[0])  # winning: Dynatoi -1


@pytest.mark.rule("6.7.2")
@given(st.integers(0, 5))
def test_one_or_two_barbarians_is_winning_four_or_five_losing_three_a_tie(count: int) -> None:
    expected = Standing.WINNING if count <= 2 else Standing.LOSING if count >= 4 else Standing.TIED
    assert standing(count) is expected


@pytest.mark.rule("6.7.2")
@given(st.integers(1, 5), st.integers(1, 5))
def test_barbarians_count_armies_in_a_zone_and_held_spaces_on_a_path(
    armies: int, position: int
) -> None:
    state = turn(8)
    for i in range(1, 6):
        state = at(state, f"army-beta-{i}", "zone-beta" if i <= armies else "reserves-beta")
    thema = C.cat.spaces[C.cat.themas(Path.DELTA)[position - 1]].id
    state = at(state, "army-delta-persia", thema)
    assert barbarian_count(C, state, Path.BETA) == armies
    assert barbarian_count(C, state, Path.DELTA) == 6 - position


@pytest.mark.rule("6.7.2", "6.7.3")
@pytest.mark.parametrize(
    ("armies", "tie_roll", "christians"), [(4, None, True), (3, 3, True), (3, 4, False)]
)
def test_losing_places_christians_and_winning_dynatoi(
    armies: int, tie_roll: int | None, christians: bool
) -> None:
    state = turn(8)
    for i in range(1, 6):
        state = at(state, f"army-gamma-{i}", "zone-gamma" if i <= armies else "reserves-gamma")
    state = answer(start(state, SocialEvent()), Roll((3,)))
    if tie_roll is not None:
        assert asked(state) == ("6.7.2", RequestKind.ROLL)
        state = answer(state, Roll((tie_roll,)))
    (social,) = on(state, "zone-gamma", TileKind.SOCIAL)
    assert shows_back(state, social) is not christians


@pytest.mark.rule("6.7.2", "6.7.3", "6.7.4")
def test_example_saracens_in_melitene_a_tie_roll_of_4_puts_dynatoi_in_persia() -> None:
    state = at(turn(12), "army-epsilon-persia", "counter-tray")
    state = at(state, "army-epsilon-saracens", "melitene")
    state = answer(start(state, SocialEvent()), Roll((5,)))
    assert asked(state) == ("6.7.2", RequestKind.ROLL)
    state = answer(state, Roll((4,)))
    (social,) = on(state, "persia", TileKind.SOCIAL)
    assert C.cat.face(state.board, C.cat.tile(social)).name == "Dynatoi"
    # The Dynatoi stays on the Path: -1 on attacks anywhere on Path Ε.
    drms = social_drm(C, state, C.cat.tile("army-epsilon-saracens"))
    assert [m.value for m in drms] == [-1]


@pytest.mark.rule("6.7.3.1")
def test_example_a_christians_and_a_dynatoi_cancel_out() -> None:
    # The example's tie roll of 3 would be "losing" by 6.7.2 (see the rulings):
    # a winning roll places the Dynatoi that cancels the Christians already there.
    state = at(turn(8), "social-1", "zone-alpha")
    for i in (2, 3):
        state = at(state, f"army-alpha-{i}", "zone-alpha")
    state = answer(start(state, SocialEvent()), Roll((1,)), Roll((4,)))
    assert on(state, "zone-alpha", TileKind.SOCIAL) == []
    assert set(SOCIALS) <= set(on(state, "counter-tray"))


@pytest.mark.rule("6.7.3.1")
def test_two_christians_defeat_the_weakest_army_of_a_zone() -> None:
    state = at(turn(8), "social-1", "zone-alpha")
    for i in (2, 4, 5):
        state = at(state, f"army-alpha-{i}", "zone-alpha")
    state = answer(start(state, SocialEvent()), Roll((1,)))  # four Armies: losing
    assert on(state, "zone-alpha", TileKind.SOCIAL) == ["social-1"]
    assert "social-2" in on(state, "counter-tray")
    assert where(state, "army-alpha-5") == "reserves-alpha"
    assert sorted(on(state, "zone-alpha", TileKind.ARMY)) == [
        "army-alpha-1",
        "army-alpha-2",
        "army-alpha-4",
    ]


@attrs.frozen
class _PlaceChristians(Task):
    """Place a Christians tile on a Path whatever the count (a constructed position)."""

    path: Path

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return place_social(ctx, state, self.path, winning=False)


@pytest.mark.rule("6.7.3.1", "10.6")
def test_two_christians_never_take_the_last_army_of_a_zone() -> None:
    """The withdrawal of 6.7.3.1 leaves a Zone's last Army in place (see the rulings)."""
    state = at(turn(8), "social-1", "zone-alpha")
    assert on(state, "zone-alpha", TileKind.ARMY) == ["army-alpha-1"]
    state = start(state, _PlaceChristians(Path.ALPHA))
    assert on(state, "zone-alpha", TileKind.ARMY) == ["army-alpha-1"]
    assert on(state, "zone-alpha", TileKind.SOCIAL) == ["social-1"]
    assert "social-2" in on(state, "counter-tray")


@pytest.mark.rule("6.7.2", "6.7.3.1")
@given(st.integers(1, 5), st.integers(1, 6))
def test_in_play_two_christians_strike_a_zone_of_three_armies_or_more(
    armies: int, tie_roll: int
) -> None:
    """Christians come only where the player is losing or tied (6.7.2), so a doubled
    Christians tile withdraws one Army of three or more and the Zone keeps two."""
    state = at(turn(8), "social-1", "zone-gamma")
    for i in range(1, 6):
        state = at(state, f"army-gamma-{i}", "zone-gamma" if i <= armies else "reserves-gamma")
    state = answer(start(state, SocialEvent()), Roll((3,)))
    if armies == 3:
        state = answer(state, Roll((tie_roll,)))
    left = len(on(state, "zone-gamma", TileKind.ARMY))
    if on(state, "zone-gamma", TileKind.SOCIAL) == ["social-1"]:  # doubled: a defeat
        assert armies >= 3 and left == armies - 1 >= 2
    else:  # a Dynatoi cancelled the Christians: nobody moves
        assert left == armies


@pytest.mark.rule("6.7.3.1")
def test_two_christians_push_an_eastern_army_back() -> None:
    state = at(turn(8), "social-1", "syria")
    state = at(state, "army-zeta-nomads", "ephesus")  # the Barbarians hold 5 spaces
    state = answer(start(state, SocialEvent()), Roll((6,)))
    assert where(state, "army-zeta-nomads") == "cilicia"
    assert on(state, "syria", TileKind.SOCIAL) == ["social-1"]


@pytest.mark.rule("6.7.3.1")
def test_two_dynatoi_deploy_the_weakest_reserve_army_into_the_zone() -> None:
    state = at(turn(8), "social-1", "zone-beta", back=True)
    state = answer(start(state, SocialEvent()), Roll((2,)))  # one Army: winning
    assert where(state, "army-beta-5") == "zone-beta"
    assert sorted(on(state, "zone-beta", TileKind.ARMY)) == ["army-beta-1", "army-beta-5"]
    assert on(state, "zone-beta", TileKind.SOCIAL) == ["social-1"]


@pytest.mark.rule("6.7.3.1", "9.5.2")
@given(st.integers(1, 6))
def test_a_hospital_in_the_zone_rolls_against_the_army_two_dynatoi_deploy(roll: int) -> None:
    """6.7.3.1 resolves the Taurus roll its movement causes, and a Hospital's space is
    entered exactly like a Taurus space (9.5.2): the weakest Army may be thrown back."""
    state = at(at(turn(8), "social-1", "zone-beta", back=True), "hospital-1", "zone-beta")
    state = answer(start(state, SocialEvent()), Roll((2,)))  # one Army: winning
    assert asked(state) == ("9.5.2", RequestKind.ROLL)
    assert where(state, "army-beta-5") == "zone-beta"  # it entered, the Hospital rolls
    state = answer(state, Roll((roll,)))
    strength = C.cat.face(state.board, C.cat.tile("army-beta-5")).strength
    expected = "reserves-beta" if roll > strength else "zone-beta"
    assert where(state, "army-beta-5") == expected


@pytest.mark.rule("6.7.3.1", "9.5.4")
def test_tribute_may_stop_the_deployment_two_dynatoi_bring() -> None:
    """Tribute blocks the next hostile movement or deployment on its Path (9.5.4)."""
    state = at(at(turn(8), "social-1", "zone-beta", back=True), "marker-tribute", "zone-beta")
    state = answer(start(state, SocialEvent()), Roll((2,)))
    assert asked(state) == ("9.5.4", RequestKind.ROLL)
    bought = answer(state, Roll((3,)))
    assert where(bought, "army-beta-5") == "reserves-beta"
    broken = answer(state, Roll((6,)))
    assert where(broken, "army-beta-5") == "zone-beta"


@pytest.mark.rule("6.7.3.1")
def test_a_barbarian_victory_in_a_full_zone_sends_in_the_siege() -> None:
    state = turn(8)
    for i in range(1, 6):
        state = at(state, f"army-gamma-{i}", "zone-gamma")
    assert on(state, "reserves-gamma", TileKind.SIEGE)
    state = start(state, SocialVictory(Path.GAMMA))
    assert on(state, "zone-gamma", TileKind.SIEGE)
    assert on(state, "reserves-gamma", TileKind.SIEGE) == []
    assert asked(state) == ("12.1", RequestKind.ROLL)  # the Siege is resolved at once


@pytest.mark.rule("6.7.3.1")
def test_two_dynatoi_advance_an_eastern_army() -> None:
    state = at(turn(8), "social-1", "iberia", back=True)
    state = answer(start(state, SocialEvent()), Roll((4,)))  # on its Homeland: winning
    assert where(state, "army-delta-persia") == "greater-armenia"
    assert asked(state) == ("9.5.1", RequestKind.ROLL)  # the Taurus roll of the advance
    held = answer(state, Roll((2,)))
    assert where(held, "army-delta-persia") == "greater-armenia"


# -- 6.8 ------------------------------------------------------------------------------


@pytest.mark.rule("6.8")
@given(st.integers(0, 12))
def test_nike_returns_to_zero(nike: int) -> None:
    state = start(with_marker(turn(8), "nike", nike), ResetNike())
    assert level(state, "nike") == 0


# -- a whole game: Turns 1 to 4 -----------------------------------------------------------


@pytest.mark.rule("6.0", "5.1", "6.2")
def test_justinian_comes_and_goes_over_the_first_four_turns_of_the_campaign() -> None:
    """Every chance takes its first outcome and every choice its first option."""
    state = campaign()
    asks: dict[int, list[str]] = {}
    leaders_on_turn_3: tuple[list[str], list[str]] | None = None
    while state.ending is None and state.turn <= 4:
        assert state.pending is not None
        if state.turn == 3 and state.pending.rule == "6.3" and leaders_on_turn_3 is None:
            leaders_on_turn_3 = (on(state, "dynasty"), on(state, "basileus"))
        asks.setdefault(state.turn, []).append(state.pending.rule)
        if state.pending.kind is RequestKind.CHOOSE:
            action = state.pending.options[0]
        else:
            action = GAME.chance_outcomes(state)[0][0]
        state = GAME.apply(state, action)
    assert state.ending is None, state.ending
    leadership = {n: [r for r in rules if r.startswith("6.")] for n, rules in asks.items()}
    assert leadership[1] == []
    assert leadership[2][:3] == ["6.1", "6.1", "6.2"]  # a roll of 1 overthrows the Theodosians
    assert not {"6.1", "6.1.1", "6.2", "6.2.1", "6.2.3"} & set(leadership[3])
    assert leaders_on_turn_3 == (["dynasty-justinian"], ["basileus-theodosius"])
    assert leadership[4][0] == "6.1"
    assert where(state, "basileus-theodosius") == "discarded"
