"""Belisarius benchmarks (``tox -e bench``): whole random games and single steps.

Scenario 1 without capitulation offers, so that random games run to the last turn.
"""

from __future__ import annotations

import random

import attrs
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from byzantium import load_game, play, playout
from byzantium.belisarius.movement import reachable
from byzantium.belisarius.state import AVAILABLE

GAME = load_game("belisarius", scenario=1, capitulation=False)

pytestmark = pytest.mark.benchmark(group="belisarius")


def test_initial_state(benchmark: BenchmarkFixture) -> None:
    benchmark(GAME.initial_state)


def test_random_playout_scenario_1(benchmark: BenchmarkFixture) -> None:
    rng = random.Random(1)
    start = GAME.initial_state()
    benchmark(lambda: playout(GAME, start, rng))


def test_recorded_game_with_digests(benchmark: BenchmarkFixture) -> None:
    seeds = iter(range(10**6))
    benchmark(lambda: play(GAME, seed=next(seeds)))


def test_state_round_trip(benchmark: BenchmarkFixture) -> None:
    state = playout(GAME, GAME.initial_state(), random.Random(1), max_steps=200)
    benchmark(lambda: GAME.decode_state(GAME.encode_state(state)))


def test_reachable_hexes_of_a_force_in_mid_map(benchmark: BenchmarkFixture) -> None:
    """Every place a one-counter force at hex 3623 reaches with 20 Operations Points
    (16.x; the movement query the Operations Phase of issue 6 will use)."""
    cat = GAME.catalog
    state = GAME.initial_state()
    unit = next(u for u in cat.of_nationality("thracia") if state.units.where[u] == AVAILABLE)
    state = attrs.evolve(state, units=state.units.move(unit, 3623))
    reach = benchmark(reachable, cat, state, (unit,), 3623, 20)
    assert len(reach) > 100
