"""Belisarius benchmarks (``tox -e bench``): whole random games and single steps.

Scenario 1 without capitulation offers, so that random games run to the last turn.
"""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from byzantium import load_game, play, playout

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
