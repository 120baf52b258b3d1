"""Belisarius combat arithmetic: multipliers, odds, withdrawal, results (17.5-17.8, 21.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius import RULES
from byzantium.belisarius.combat import (
    MAX_MULTIPLIER,
    CombatLosses,
    StratagemChange,
    apply_result,
    combat_strength,
    force_multiplier,
    leader_stars,
    odds,
    stratagem_change,
    withdrawal_allowed,
)
from byzantium.belisarius.components import CombatResult, OddsColumn, UnitKind
from tests.belisarius.support import non_leaders, set_up_game

RULEBOOK = "belisarius"

COLUMNS = list(OddsColumn)
stars = st.integers(0, 2)
terrains = st.sampled_from((1, 2, 3))
strengths = st.integers(0, 200)


def mult(stars: int = 0, terrain: int = 1, advantage: bool = False, capital: bool = False) -> int:
    return force_multiplier(stars, terrain, advantage, constantinople=capital)


# -- registration ---------------------------------------------------------------------


@pytest.mark.rule("17.74", "17.51", "17.8", "21.4", "21.22#2")
def test_functions_are_registered_for_their_rules() -> None:
    def names(rule: str) -> set[str]:
        return {impl.qualname for impl in RULES.implementations(rule)}

    assert {"force_multiplier", "leader_stars"} <= names("17.74")
    assert "force_multiplier" in names("21.22#2")
    assert "withdrawal_allowed" in names("17.51")
    assert "apply_result" in names("17.8")
    assert "stratagem_change" in names("21.4")
    assert "odds" in names("17.71")


# -- multipliers (17.74, 21.22) -------------------------------------------------------


@pytest.mark.rule("17.74", "21.22#2")
def test_each_source_alone() -> None:
    assert mult() == 1
    assert mult(stars=1) == 2
    assert mult(stars=2) == 3
    assert mult(terrain=2) == 2
    assert mult(terrain=3) == 3
    assert mult(capital=True) == 3
    assert mult(advantage=True) == 2


@pytest.mark.rule("17.74")
def test_doubling_sources_combine_by_steps() -> None:
    # two sources triple, three quadruple (not 4x and 8x)
    assert mult(stars=1, terrain=2) == 3
    assert mult(stars=1, advantage=True) == 3
    assert mult(terrain=2, advantage=True) == 3
    assert mult(stars=1, terrain=2, advantage=True) == 4


@pytest.mark.rule("17.74", "21.22#2")
def test_tripled_force_gets_one_more_step_only() -> None:
    # a two-star Leader or Constantinopolis triples; one more source makes four
    assert mult(stars=2, advantage=True) == 4
    assert mult(stars=2, terrain=2) == 4
    assert mult(capital=True, advantage=True) == 4
    assert mult(stars=1, capital=True) == 4
    # never more than quadrupled, however many sources
    assert mult(stars=2, terrain=2, advantage=True) == MAX_MULTIPLIER
    assert mult(stars=2, capital=True) == MAX_MULTIPLIER
    assert mult(stars=2, capital=True, advantage=True) == MAX_MULTIPLIER


@pytest.mark.rule("17.74")
def test_constantinople_triples_terrain_once() -> None:
    # the capital is also a City (and perhaps behind a river): terrain counts once
    assert mult(terrain=2, capital=True) == 3
    assert mult(terrain=3, capital=True) == 3


@pytest.mark.rule("17.74")
def test_bad_multiplier_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="stars"):
        mult(stars=3)
    with pytest.raises(ValueError, match="stars"):
        mult(stars=-1)
    with pytest.raises(ValueError, match="terrain"):
        mult(terrain=4)
    with pytest.raises(ValueError, match="terrain"):
        mult(terrain=0)


@pytest.mark.rule("17.74", "21.22#2")
@given(stars, terrains, st.booleans(), st.booleans())
def test_multiplier_is_between_one_and_four(
    s: int, terrain: int, advantage: bool, capital: bool
) -> None:
    m = mult(s, terrain, advantage, capital)
    assert 1 <= m <= MAX_MULTIPLIER
    # any source at all multiplies; a missing source never helps
    assert (m > 1) == (s > 0 or terrain > 1 or advantage or capital)
    assert mult(0, terrain, advantage, capital) <= m
    assert mult(s, terrain, False, capital) <= m


@pytest.mark.rule("17.74", "21.22#2")
def test_only_the_best_leader_counts() -> None:
    cat = set_up_game().catalog
    leaders = [c for c in cat.counters if c.kind is UnitKind.LEADER]
    assert leaders
    best = max(c.stars for c in leaders)
    troop = next(c for c in cat.counters if c.kind is not UnitKind.LEADER)
    plain = non_leaders(troop.nationality, 1)
    assert leader_stars(cat, plain) == 0
    assert leader_stars(cat, []) == 0
    assert leader_stars(cat, [c.index for c in leaders]) == best
    one = next(c for c in leaders if c.stars == 1)
    assert leader_stars(cat, [one.index, one.index]) == 1


# -- strength and odds (17.71-17.73) --------------------------------------------------


@pytest.mark.rule("17.71", "21.22#2")
def test_strength_multiplies_every_unit_leaders_included() -> None:
    cat = set_up_game().catalog
    leader = next(c for c in cat.counters if c.kind is UnitKind.LEADER and c.stars == 2)
    troop = next(c for c in cat.counters if c.kind is not UnitKind.LEADER and c.combat > 0)
    units = [*non_leaders(troop.nationality, 2), leader.index]
    total = sum(cat.counters[u].combat for u in units)
    assert total > 0
    m = mult(stars=leader_stars(cat, units))
    assert m == 3
    assert combat_strength(cat, units, m) == 3 * total
    assert combat_strength(cat, [], 4) == 0
    with pytest.raises(ValueError, match="multiplier"):
        combat_strength(cat, units, 5)


@pytest.mark.rule("17.71")
def test_rulebook_examples_of_17_71() -> None:
    assert odds(14, 5) is OddsColumn.TWO_ONE  # 2.8 drops to 2
    assert odds(6, 10) is OddsColumn.ONE_TWO  # 1/1.67 rounds to 1/2


@pytest.mark.rule("17.73")
def test_rulebook_example_of_17_73() -> None:
    assert odds(7, 4) is OddsColumn.THREE_TWO
    assert odds(6, 4) is OddsColumn.THREE_TWO  # exactly half as much again
    assert odds(5, 4) is OddsColumn.ONE_ONE
    assert odds(8, 4) is OddsColumn.TWO_ONE


@pytest.mark.rule("17.72")
def test_odds_beyond_the_table_use_its_ends() -> None:
    assert odds(1, 10) is OddsColumn.ONE_THREE
    assert odds(1, 3) is OddsColumn.ONE_THREE
    assert odds(50, 5) is OddsColumn.FOUR_ONE
    assert odds(20, 5) is OddsColumn.FOUR_ONE
    assert odds(19, 5) is OddsColumn.THREE_ONE
    assert odds(0, 5) is OddsColumn.ONE_THREE
    assert odds(3, 0) is OddsColumn.FOUR_ONE
    with pytest.raises(ValueError, match="negative"):
        odds(-1, 3)


@pytest.mark.rule("17.71", "17.72", "17.73")
@given(strengths, strengths, st.integers(1, 50))
def test_odds_are_monotone_in_attacker_strength(a: int, d: int, extra: int) -> None:
    assert COLUMNS.index(odds(a, d)) <= COLUMNS.index(odds(a + extra, d))
    # and antitone in the defender's
    assert COLUMNS.index(odds(a, d + extra)) <= COLUMNS.index(odds(a, d))


@pytest.mark.rule("17.71", "17.74")
@given(st.integers(1, 30), st.integers(1, 30), stars, st.booleans())
def test_multiplying_the_attacker_never_lowers_the_odds(
    a: int, d: int, s: int, advantage: bool
) -> None:
    m = mult(s, 1, advantage)
    assert COLUMNS.index(odds(a * m, d)) >= COLUMNS.index(odds(a, d))


# -- withdrawal (17.51) ---------------------------------------------------------------


@pytest.mark.rule("17.51")
def test_defender_withdraws_only_with_the_greater_total() -> None:
    assert withdrawal_allowed(8, 3, 8, 4)
    assert not withdrawal_allowed(8, 3, 8, 3)  # a tie: Stand
    assert not withdrawal_allowed(10, 1, 8, 2)
    assert withdrawal_allowed(4, 6, 8, 3)
    with pytest.raises(ValueError, match="roll"):
        withdrawal_allowed(8, 0, 8, 3)
    with pytest.raises(ValueError, match="roll"):
        withdrawal_allowed(8, 3, 8, 7)


@pytest.mark.rule("17.51")
@given(st.integers(0, 40), st.integers(1, 6), st.integers(0, 40), st.integers(1, 6))
def test_withdrawal_is_a_strict_comparison(ao: int, ar: int, do: int, dr: int) -> None:
    allowed = withdrawal_allowed(ao, ar, do, dr)
    assert allowed == (do + dr > ao + ar)
    # the two sides can never both "win": swapped, at most one withdraws
    assert not (allowed and withdrawal_allowed(do, dr, ao, ar))


# -- applying results (17.8, 17.9, 35.0) ----------------------------------------------


DD = CombatResult("DD", defender_loss=Fraction(1, 2))
EX = CombatResult("EX", attacker_loss=Fraction(1, 2), defender_loss=Fraction(1, 2))
AE = CombatResult("AE", attacker_loss=Fraction(1), attacker_retreat=2)
DR2 = CombatResult("DR2", defender_retreat=2, attacker_stratagems=1)
DE = CombatResult("DE", defender_loss=Fraction(1), attacker_stratagems=1, defender_stratagems=-1)


@pytest.mark.rule("35.0", "17.8")
def test_qa_rounding_dd_on_three_units_loses_two() -> None:
    out = apply_result(DD, 5, 3)
    assert out == CombatLosses(0, 2, 0, 0)
    assert not out.defender_eliminated


@pytest.mark.rule("17.8", "17.9", "35.0")
def test_losses_then_retreats() -> None:
    assert apply_result(EX, 3, 1) == CombatLosses(2, 1, 0, 0, defender_eliminated=True)
    assert apply_result(DR2, 2, 2) == CombatLosses(0, 0, 0, 2)
    # a force wiped out first has nothing left to retreat
    wiped = apply_result(AE, 4, 2)
    assert wiped.attacker_lost == 4 and wiped.attacker_eliminated
    assert wiped.attacker_retreat == 0
    with pytest.raises(ValueError, match="units"):
        apply_result(DD, 0, 3)


@pytest.mark.rule("17.8", "35.0")
@given(st.integers(1, 20), st.integers(1, 20), st.integers(0, 4), st.integers(0, 4))
def test_losses_round_up_and_never_exceed_the_force(
    a: int, d: int, a_quarters: int, d_quarters: int
) -> None:
    result = CombatResult(
        "X",
        attacker_loss=Fraction(a_quarters, 4),
        defender_loss=Fraction(d_quarters, 4),
        attacker_retreat=1,
        defender_retreat=2,
    )
    out = apply_result(result, a, d)
    assert a * Fraction(a_quarters, 4) <= out.attacker_lost <= a
    assert out.attacker_lost - a * Fraction(a_quarters, 4) < 1
    assert d * Fraction(d_quarters, 4) <= out.defender_lost <= d
    assert (out.attacker_lost > 0) == (a_quarters > 0)
    assert out.attacker_eliminated == (out.attacker_lost == a)
    assert out.attacker_retreat == (0 if out.attacker_eliminated else 1)
    assert out.defender_retreat == (0 if out.defender_eliminated else 2)


# -- Stratagems and Justinian (21.4) --------------------------------------------------


@pytest.mark.rule("21.4")
def test_justinian_doubles_only_the_empire_change() -> None:
    assert stratagem_change(DE, False, empire_attacking=True) == StratagemChange(1, -1)
    assert stratagem_change(DE, True, empire_attacking=True) == StratagemChange(2, -1)
    # Justinian defending: the Empire's loss doubles, the Barbarian gain does not
    assert stratagem_change(DE, True, empire_attacking=False) == StratagemChange(1, -2)
    assert stratagem_change(DD, True, empire_attacking=True) == StratagemChange(0, 0)


@pytest.mark.rule("21.4")
@given(st.integers(-2, 2), st.integers(-2, 2), st.booleans(), st.booleans())
def test_justinian_doubling_property(a: int, d: int, justinian: bool, empire_att: bool) -> None:
    result = CombatResult("X", attacker_stratagems=a, defender_stratagems=d)
    change = stratagem_change(result, justinian, empire_attacking=empire_att)
    empire, other = (
        (change.attacker, change.defender) if empire_att else (change.defender, change.attacker)
    )
    base_empire, base_other = (a, d) if empire_att else (d, a)
    assert empire == (2 * base_empire if justinian else base_empire)
    assert other == base_other
