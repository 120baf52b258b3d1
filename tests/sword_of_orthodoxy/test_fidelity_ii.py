"""Rules fidelity II (issue 13): the readings an audit and a peer implementation dispute.

Each test names the rule it checks. Boards are the Campaign setup with a few tiles
moved, as in the chapter test files.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.combat import Attack, round_letter_drm
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.concepts import schism_level
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.leadership import SocialVictory
from byzantium.sword_of_orthodoxy.state import Decline, Pay, RequestKind, Roll, Select, SooState
from byzantium.sword_of_orthodoxy.statecraft import orthodoxy_offers
from byzantium.sword_of_orthodoxy.synopsis import synopsis_row
from byzantium.sword_of_orthodoxy.turn import NextTurn
from byzantium.sword_of_orthodoxy.turn_start import (
    Carthage,
    ChronographiaDeployments,
    RoundLetter,
    TurnStartPhase,
    carthage_due,
    random_barbarian_dice,
    tamerlane_drms,
)
from byzantium.sword_of_orthodoxy.world import marker, set_counter, set_marker, zone_armies
from tests.sword_of_orthodoxy.support import (
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    fill_zone,
    idle,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
BASE = idle(campaign())


def _ravenna_placed_on(turn: int, state: SooState = BASE) -> SooState:
    """Ravenna on Path Β, placed by the Synopsis of ``turn`` (8.4.1)."""
    state = put(state, "marker-ravenna", "zone-beta", back=False)
    return attrs.evolve(set_counter(state, "ravenna-turn", turn), turn=turn)


def _holy_roman(state: SooState) -> bool:
    return (
        where(state, "marker-ravenna") == "zone-beta"
        and state.board.back[CAT.tile("marker-ravenna")]
    )


# -- 10. Ravenna "at any point" (8.4.1) -------------------------------------------------


@pytest.mark.rule("8.4.1")
@pytest.mark.parametrize("armies", [4, 5])
def test_a_zone_already_crowded_when_the_next_turn_begins_turns_ravenna(armies: int) -> None:
    crowded = fill_zone(_ravenna_placed_on(5), Path.BETA, armies)
    assert not _holy_roman(start(crowded))  # the Turn of its placement: not yet
    after = start(crowded, NextTurn())
    assert after.turn == 6
    assert _holy_roman(after)


@pytest.mark.rule("8.4.1")
def test_three_armies_at_the_turn_boundary_leave_ravenna_alone() -> None:
    state = start(fill_zone(_ravenna_placed_on(5), Path.BETA, 3), NextTurn())
    assert not _holy_roman(state)


@pytest.mark.rule("8.4.1", "6.7.3.1")
def test_a_fourth_army_from_a_doubled_dynatoi_turns_ravenna() -> None:
    state = attrs.evolve(fill_zone(_ravenna_placed_on(5), Path.BETA, 3), turn=6)
    after = start(state, SocialVictory(Path.BETA))
    assert len(zone_armies(CTX, after, Path.BETA)) == 4
    assert _holy_roman(after)


@pytest.mark.rule("8.4.1", "6.7.3.1")
def test_a_fourth_army_on_the_turn_of_placement_does_not_turn_ravenna() -> None:
    state = fill_zone(_ravenna_placed_on(5), Path.BETA, 3)
    after = start(state, SocialVictory(Path.BETA))
    assert len(zone_armies(CTX, after, Path.BETA)) == 4
    assert not _holy_roman(after)


# -- 11. Component data corrected in the peer sheet ---------------------------------------

RED_DICE = ctx(SwordOfOrthodoxy({"red_dice": True}))


def _with_chit(number: int, state: SooState = BASE) -> SooState:
    return put(state, f"chit-{number}", f"chronographia-{state.turn}")


@pytest.mark.rule("5.3.6")
@pytest.mark.parametrize(("number", "dice"), [(2, 1), (12, 1), (13, 2), (14, 1), (21, 2), (25, 1)])
def test_red_die_icons_per_chit(number: int, dice: int) -> None:
    assert random_barbarian_dice(RED_DICE, _with_chit(number)) == dice
    assert random_barbarian_dice(CTX, _with_chit(number)) == 0  # the option is off


@pytest.mark.rule("D", "5.3.8")
@pytest.mark.parametrize("result", [15, 16])
def test_synopsis_row_15_16_carries_the_circled_three(result: int) -> None:
    assert synopsis_row(CTX, result).optional == ("③",)


# -- 12. Round-letter events after Ⓘ (5.3.8, peer) ----------------------------------------


def _turn(turn: int, solidus: int = 0) -> SooState:
    return set_marker(CTX, attrs.evolve(BASE, turn=turn), "solidus", solidus)


@pytest.mark.rule("5.3.8")
def test_k_a_mean_pope_overthrows_the_dynasty() -> None:
    nice = _turn(13)
    assert start(nice, RoundLetter("Ⓚ")).board == nice.board
    mean = put(nice, "marker-pope", "pope", back=True)
    asked = start(mean, RoundLetter("Ⓚ"))
    assert where(asked, "dynasty-theodosian") == "discarded"
    assert asked.pending is not None and asked.pending.kind is RequestKind.DRAW


@pytest.mark.rule("5.3.8")
@pytest.mark.parametrize("turn", [14, 15, 19, 20])
def test_l_trading_rights_cost_3_and_build_a_hospital(turn: int) -> None:
    state = _turn(turn, 5)
    after = start(state, RoundLetter("Ⓛ"))
    if turn not in range(15, 20):
        assert after.board == state.board
        return
    assert marker(CTX, after, "solidus") == 2
    assert after.pending is not None and after.pending.kind is RequestKind.CHOOSE
    site = after.pending.options[0]
    assert isinstance(site, Select)
    built = answer(after, site)
    assert where(built, "hospital-1") == site.item


@pytest.mark.rule("5.3.8")
@pytest.mark.parametrize("die", [1, 2, 3])
def test_m_malik_shah_sends_forward_seljuks_back_to_the_mountains(die: int) -> None:
    state = put(_turn(18, 4), "army-epsilon-persia", "counter-tray")
    state = put(state, "army-epsilon-seljuks", "amorion", back=False)
    asked = start(state, RoundLetter("Ⓜ"))
    assert asked.pending is not None and Pay(4) in asked.pending.options
    rolled = answer(answer(asked, Pay(3)), Roll((die,)))
    assert marker(CTX, rolled, "solidus") == 1
    expected = "melitene" if die < 3 else "amorion"
    assert where(rolled, "army-epsilon-seljuks") == expected
    far = put(state, "army-epsilon-seljuks", "nisibis")
    assert start(far, RoundLetter("Ⓜ")).pending is None


@pytest.mark.rule("5.3.8")
def test_n_a_riot_enters_constantinople() -> None:
    after = start(_turn(20), RoundLetter("Ⓝ"))
    assert where(after, "riot-1") == "constantinople"


@pytest.mark.rule("5.3.8", "10.6.9.1")
def test_p_sicilian_vespers_help_against_the_latins_this_turn() -> None:
    state = put(_turn(22), "riot-1", "constantinople", back=True)
    latins = CAT.tile("riot-1")
    after = start(state, RoundLetter("Ⓟ"))
    assert [m.value for m in round_letter_drm(CTX, after, latins)] == [1]
    assert round_letter_drm(CTX, attrs.evolve(after, turn=23), latins) == ()
    assert start(_turn(22), RoundLetter("Ⓟ")).counters == _turn(22).counters


@pytest.mark.rule("5.3.8")
@given(die=st.integers(1, 6), schism=st.integers(0, 12))
def test_4_blachernae_lowers_the_schism(die: int, schism: int) -> None:
    state = set_marker(CTX, _turn(19), "schism", schism)
    asked = start(state, RoundLetter("④"))
    if schism == 0:
        assert asked.pending is None
        return
    assert schism_level(CTX, answer(asked, Roll((die,)))) == max(0, schism - die)


@pytest.mark.rule("5.3.8", "5.1")
@pytest.mark.parametrize(("turn", "die"), [(21, 3), (25, 3)])
def test_5_heresy_trials_close_the_university_for_a_while(turn: int, die: int) -> None:
    state = put(_turn(turn), "patriarch-nestorius", "constantinople", back=True)
    after = answer(start(state, RoundLetter("⑤")), Roll((die,)))
    if turn + die > 27:
        assert where(after, "patriarch-nestorius") == "discarded"
        return
    assert where(after, "patriarch-nestorius") == f"chronographia-{turn + die}"
    back = start(attrs.evolve(after, turn=turn + die), ChronographiaDeployments())
    assert where(back, "patriarch-nestorius") == "constantinople"


@pytest.mark.rule("5.3.8", "10.6")
def test_6_the_comet_hinders_only_the_next_attack() -> None:
    state = put(_turn(25), "army-alpha-2", "zone-alpha")
    state = start(state, RoundLetter("⑥"))
    target = CAT.tile("army-alpha-2")
    assert [m.value for m in round_letter_drm(CTX, state, target)] == [-1]
    attacked = start(state, Attack("test", target="army-alpha-2", optional=False))
    assert attacked.pending is not None
    rolled = answer(attacked, Roll((3,)))
    assert round_letter_drm(CTX, rolled, target) == ()


@pytest.mark.rule("5.3.8")
def test_7_galata_tower_pays_one() -> None:
    assert marker(CTX, start(_turn(27, 2), RoundLetter("⑦")), "solidus") == 3


@pytest.mark.rule("5.3.8", "1.1")
@pytest.mark.parametrize(("die", "expelled"), [(3, False), (4, True), (6, False)])
def test_8_tamerlane_needs_seven_with_the_mountains(die: int, expelled: bool) -> None:
    state = put(_turn(29 - 2), "army-delta-persia", "counter-tray")
    for old in ("army-epsilon-persia", "army-zeta-nomads"):
        state = put(state, old, "counter-tray")
    # on their Homelands, behind the three Taurus spaces, which the player holds
    state = put(state, "army-delta-ottomans", "iberia", back=False)
    state = put(state, "army-epsilon-ottomans", "persia", back=False)
    state = put(state, "army-zeta-ottomans", "syria", back=False)
    assert [m.value for m in tamerlane_drms(CTX, state)] == [3]
    after = answer(start(state, RoundLetter("⑧")), Roll((die,)))
    assert (where(after, "army-delta-armenia") == "iberia") is expelled
    assert (where(after, "army-zeta-nomads") == "syria") is expelled


@pytest.mark.rule("5.3.8")
def test_9_better_cannons_cost_two_and_do_nothing_else() -> None:
    state = _turn(27, 3)
    asked = start(state, RoundLetter("⑨"))
    assert asked.pending is not None and asked.pending.options == (Decline(), Pay(2))
    after = answer(answer(asked, Pay(2)), Roll((6,)))
    assert marker(CTX, after, "solidus") == 1
    assert set_marker(CTX, after, "solidus", 3).board == state.board
    assert start(_turn(27, 1), RoundLetter("⑨")).pending is None


# -- 13. Readings the audit and the peer dispute ------------------------------------------


def _carthage_ready(turn: int) -> SooState:
    """Egypt abandoned, Saracens on Path Ζ, Africa still Roman: 5.1's conditions hold."""
    state = put(_turn(turn), "outpost-egypt", "discarded")
    state = put(state, "army-zeta-nomads", "counter-tray")
    state = put(state, "army-zeta-saracens", "jerusalem", back=False)
    return put(state, f"chit-{3}", f"chronographia-{turn}", back=False)


@pytest.mark.rule("5.1", "5.2.3")
@pytest.mark.parametrize("turn", [7, 8, 9, 12])
def test_carthage_is_fought_on_turn_8_not_at_every_turn_start(turn: int) -> None:
    state = _carthage_ready(turn)
    assert carthage_due(CTX, state)
    after = start(state, TurnStartPhase())
    asked = after.pending is not None and after.pending.rule == "5.2"
    assert asked is (turn == 8)


@pytest.mark.rule("5.1", "8.4.1")
def test_carthage_drawn_on_the_synopsis_is_fought_on_any_turn() -> None:
    after = start(_carthage_ready(12), Carthage("8.4.1"))
    assert after.pending is not None and after.pending.rule == "5.2"


@pytest.mark.rule("F", "5.3.8")
def test_khazar_attacks_may_all_strike_the_same_eastern_path() -> None:
    state = put(_turn(8), "army-delta-persia", "lesser-armenia")
    after = start(state, RoundLetter("Ⓕ"))
    attacks = [t for t in after.stack if isinstance(t, Attack)] + (
        [after.pending.task] if after.pending and isinstance(after.pending.task, Attack) else []
    )
    assert len(attacks) == 3
    assert all(a.paths == (Path.DELTA, Path.EPSILON, Path.ZETA) for a in attacks)


@pytest.mark.rule("E", "6.3", "10.7.12")
def test_millennium_patriarch_is_placed_and_nestorius_waits_as_the_university() -> None:
    state = millennium()
    assert where(state, "patriarch-nicholas", game=MILLENNIUM) == "patriarch"
    assert where(state, "patriarch-nestorius", game=MILLENNIUM) == "counter-tray"
    assert state.board.back[CAT.tile("patriarch-nestorius")]


@pytest.mark.rule("10.9.1")
@pytest.mark.parametrize("solidus", [0, 1])
def test_a_saints_free_roll_comes_with_a_purchase(solidus: int) -> None:
    state = put(_turn(12, solidus), "patriarch-nestorius", "counter-tray")
    state = put(state, "patriarch-antony", "patriarch", back=False)  # a Saint (✚)
    state = set_marker(CTX, state, "schism", 4)
    offers = [o.item for o in orthodoxy_offers(CTX, state)]
    if solidus:
        assert offers == ["orthodoxy", "orthodoxy saint-ignore", "orthodoxy saint-free"]
    else:
        assert offers == []
