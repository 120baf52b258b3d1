"""Levels of victory (23.2) against the scenarios' Victory Point data (23.1, 35.0).

The Victory Point values are provisional (our copy does not print them), so they
must at least make every level the rulebook prints reachable: for each scenario and
each player, every band of 23.2 holds some total the data can give him.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from byzantium.belisarius.components import Provenance, load_components
from byzantium.belisarius.hexmap import load_map
from byzantium.belisarius.scenarios import Scenario, load_scenarios
from byzantium.belisarius.state import BARBARIAN, EMPIRE, PLAYERS

RULEBOOK = "belisarius"

SCENARIOS = {s.number: s for s in load_scenarios()}
LEVELS = load_components().victory_levels


def attainable(scenario: Scenario, player: int) -> frozenset[Fraction]:
    """Every total ``player`` could end a game of ``scenario`` with, from its data.

    Each Region gives him its points or nothing, and the Barbarian player half of them
    if it ends Neutral (35.0); each City its points or nothing (23.1, 5.0). Public
    Works (optional, 28.3) are left out: the standard rules must reach every level.
    """
    totals = {Fraction(0)}
    for region in scenario.region_victory:
        shares = [Fraction(region.points)]
        if player == BARBARIAN:
            shares.append(region.neutral_points)
        totals |= {t + share for t in totals for share in shares}
    for city in scenario.city_victory:
        totals |= {t + city.points for t in totals}
    return frozenset(totals)


@pytest.mark.rule("23.2", "23.1")
@pytest.mark.parametrize("number", sorted(SCENARIOS))
def test_every_printed_level_of_victory_is_reachable(number: int) -> None:
    scenario = SCENARIOS[number]
    top = max(level.low for level in LEVELS)
    for player in PLAYERS:
        totals = attainable(scenario, player)
        assert max(totals) >= top, f"scenario {number}: at most {max(totals)} VP"
        for level in LEVELS:
            inside = [t for t in totals if level.low <= t <= level.high]
            assert inside, f"scenario {number}: {level.name} unreachable for player {player}"


@pytest.mark.rule("23.1", "35.0", "10.11")
def test_every_city_scores_its_taxation_value_provisionally() -> None:
    """The provisional derivation (rulings, 23.2): a City is worth what it pays in
    taxes (10.11), as a Region is worth its levy (35.0)."""
    cities = load_map().cities
    for scenario in SCENARIOS.values():
        assert sorted(c.city for c in scenario.city_victory) == sorted(c.name for c in cities)
        for entry in scenario.city_victory:
            city = next(c for c in cities if c.name == entry.city)
            assert entry.points == (4 if city.capital else 2 if city.treasury else 1)
            assert entry.source.kind is Provenance.PROVISIONAL
            assert "10.11" in entry.source.ref


@pytest.mark.rule("23.2", "23.3")
def test_the_top_level_takes_more_than_half_of_all_the_points() -> None:
    """Only one player can reach the top level in a game (23.3): it asks for more than
    half of every point the scenario offers."""
    top = max(level.low for level in LEVELS)
    for scenario in SCENARIOS.values():
        assert 2 * top > max(attainable(scenario, EMPIRE))
