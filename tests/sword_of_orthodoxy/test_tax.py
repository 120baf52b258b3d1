"""Chapter 7, the Tax Phase (rules 7.1-7.3)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.state import RequestKind, Roll, SooState
from byzantium.sword_of_orthodoxy.tax import CaliphRoll, Income, KanRoll, TaxPhase, income
from byzantium.sword_of_orthodoxy.world import change_tribe, marker, set_marker
from tests.sword_of_orthodoxy.support import answer, campaign, ctx, idle, millennium, start, where

RULEBOOK = "sword-of-orthodoxy"

C = ctx()
CAMPAIGN = idle(campaign())
BOXES = ["zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria"]


def ids(kind: TileKind) -> list[str]:
    return [C.cat.tiles[t].id for t in C.cat.tiles_of(kind)]


def at(state: SooState, tile: str, space: str, *, back: bool = False) -> SooState:
    index = C.cat.tile(tile)
    board = state.board.move(index, C.cat.space(space)).flip(index, back)
    return attrs.evolve(state, board=board)


def treasury(state: SooState) -> int:
    return marker(C, state, "solidus")


def rulers(
    dynasty: str, basileis: list[tuple[str, bool]], patriarch: str, savings: int, n: int = 8
) -> SooState:
    """The Campaign board on Turn ``n`` with the given rulers and treasury."""
    state = attrs.evolve(CAMPAIGN, turn=n)
    state = at(at(state, "dynasty-theodosian", "dynasty-mug"), dynasty, "dynasty")
    state = at(state, "basileus-theodosius", "discarded", back=True)
    for tile, back in basileis:
        state = at(state, tile, "basileus", back=back)
    state = at(at(state, "patriarch-nestorius", "counter-tray", back=True), patriarch, "patriarch")
    return set_marker(C, state, "solidus", savings)


def settled(state: SooState) -> bool:
    return state.pending is None and not state.stack


# -- 7.1 --------------------------------------------------------------------------------


@pytest.mark.rule("7.1")
def test_example_heraclids_basil_and_a_2_solidus_patriarch_with_1_saved_make_6() -> None:
    state = rulers(
        "dynasty-heraclian", [("basileus-basil-constantine", False)], "patriarch-nicholas", 1
    )
    assert income(C, state) == 5
    after = start(state, Income())
    assert settled(after)
    assert treasury(after) == 6


@pytest.mark.rule("7.1")
@given(
    st.sampled_from(ids(TileKind.DYNASTY)),
    st.sampled_from(
        [
            t
            for t in ids(TileKind.BASILEUS)
            if t not in ("basileus-zoe-theodora", "basileus-theodosius")
        ]
    ),
    st.booleans(),
    st.sampled_from(ids(TileKind.PATRIARCH)[1:]),
    st.integers(0, 12),
)
def test_income_adds_the_three_coins_but_never_above_12(
    dynasty: str, basileus: str, back: bool, patriarch: str, savings: int
) -> None:
    state = rulers(dynasty, [(basileus, back)], patriarch, savings)
    coins = sum(
        C.cat.face(state.board, C.cat.tile(t)).solidus for t in (dynasty, basileus, patriarch)
    )
    after = start(state, Income())
    assert treasury(after) == min(12, savings + coins)
    assert treasury(after) <= 12


@pytest.mark.rule("7.1", "6.2.1")
def test_an_empress_and_her_husband_both_pay() -> None:
    state = rulers(
        "dynasty-macedonian",
        [("basileus-zoe-theodora", False), ("basileus-constantine-romanos", False)],
        "patriarch-john",
        0,
    )
    assert income(C, state) == 4 + 1 + 2 + 3


@pytest.mark.rule("7.1")
def test_anarchy_pays_nothing() -> None:
    state = rulers(
        "dynasty-anarchy-1", [("basileus-john-andronikos", False)], "patriarch-michael", 2
    )
    assert income(C, state) == 0
    assert treasury(start(state, Income())) == 2


# -- 7.2 --------------------------------------------------------------------------------


@pytest.mark.rule("7.2")
@given(st.integers(1, 6))
def test_the_kan_goes_to_the_homeland_or_zone_rolled(natural: int) -> None:
    state = at(attrs.evolve(CAMPAIGN, turn=6), "marker-kan", "zone-gamma")
    state = start(state, KanRoll())
    assert state.pending is not None and state.pending.rule == "7.2"
    state = answer(state, Roll((natural,)))
    assert where(state, "marker-kan") == BOXES[natural - 1]


@pytest.mark.rule("7.2")
def test_the_kan_rolls_only_once_it_is_on_the_map() -> None:
    before = attrs.evolve(CAMPAIGN, turn=4)
    assert where(before, "marker-kan") == "chronographia-5"
    assert settled(start(before, KanRoll()))
    # On its own Turn it has come out of the Chronographia and is placed by its roll.
    due = attrs.evolve(CAMPAIGN, turn=5)
    assert start(due, KanRoll()).pending is not None
    assert settled(start(at(due, "marker-kan", "counter-tray"), KanRoll()))


# -- 7.3 --------------------------------------------------------------------------------


@pytest.mark.rule("7.3")
def test_a_caliph_off_the_map_does_not_roll() -> None:
    state = attrs.evolve(CAMPAIGN, turn=8)
    assert where(state, "marker-caliph") == "counter-tray"
    assert settled(start(state, CaliphRoll()))
    assert settled(start(at(state, "marker-caliph", "chronographia-10"), CaliphRoll()))


@pytest.mark.rule("7.3", "9.1.1")
@given(st.integers(1, 6), st.booleans(), st.integers(0, 12))
def test_the_caliph_shows_fitna_and_pays_1_solidus_where_no_muslim_rules(
    natural: int, was_fitna: bool, savings: int
) -> None:
    # The Millennium: Saracens on Α and Ζ, Buyids on Ε are Muslim; Β Γ Δ are not.
    state = attrs.evolve(idle(millennium()), turn=16)
    state = set_marker(C, at(state, "marker-caliph", "arabia", back=was_fitna), "solidus", savings)
    state = answer(start(state, CaliphRoll()), Roll((natural,)))
    assert settled(state)
    assert where(state, "marker-caliph") == BOXES[natural - 1]
    fitna = natural in (2, 3, 4)
    assert state.board.back[C.cat.tile("marker-caliph")] is fitna
    assert treasury(state) == (min(12, savings + 1) if fitna else savings)


@pytest.mark.rule("7.3")
def test_a_caliph_landing_on_a_christian_path_in_the_campaign_is_a_fitna() -> None:
    state = at(attrs.evolve(CAMPAIGN, turn=9), "marker-caliph", "arabia")
    state = change_tribe(C, state, Path.ALPHA, "tribe-alpha-saracens", "8.4.1")
    state = set_marker(C, state, "solidus", 0)
    muslim = answer(start(state, CaliphRoll()), Roll((1,)))
    assert not muslim.board.back[C.cat.tile("marker-caliph")] and treasury(muslim) == 0
    christian = answer(start(state, CaliphRoll()), Roll((5,)))  # the Persians are not Muslim
    assert christian.board.back[C.cat.tile("marker-caliph")] and treasury(christian) == 1


# -- the phase ----------------------------------------------------------------------------


@pytest.mark.rule("7.1", "7.2", "7.3")
def test_the_tax_phase_takes_income_then_rolls_for_the_kan_then_the_caliph() -> None:
    state = rulers(
        "dynasty-heraclian", [("basileus-basil-constantine", False)], "patriarch-nicholas", 1
    )
    state = at(at(state, "marker-kan", "syria"), "marker-caliph", "persia")
    state = start(state, TaxPhase())
    assert treasury(state) == 6
    assert state.pending is not None and state.pending.rule == "7.2"
    assert state.pending.kind is RequestKind.ROLL
    state = answer(state, Roll((3,)))
    assert where(state, "marker-kan") == "zone-gamma"
    assert state.pending is not None and state.pending.rule == "7.3"
    state = answer(state, Roll((4,)))
    assert where(state, "marker-caliph") == "iberia"
    assert treasury(state) == 7  # the Persians of Δ are not Muslim: a Fitna
    assert settled(state)
