"""Rules fidelity II (issue 13): the readings an audit and a peer implementation dispute.

Each test names the rule it checks. Boards are the Campaign setup with a few tiles
moved, as in the chapter test files.
"""

from __future__ import annotations

import attrs
import pytest

from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.leadership import SocialVictory
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.synopsis import synopsis_row
from byzantium.sword_of_orthodoxy.turn import NextTurn
from byzantium.sword_of_orthodoxy.turn_start import random_barbarian_dice
from byzantium.sword_of_orthodoxy.world import set_counter, zone_armies
from tests.sword_of_orthodoxy.support import campaign, ctx, fill_zone, idle, put, start, where

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
