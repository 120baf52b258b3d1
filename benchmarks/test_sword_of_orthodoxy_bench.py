"""Sword of Orthodoxy benchmarks (``tox -e bench``): whole random games and single steps."""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from byzantium import play, playout
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

GAME = SwordOfOrthodoxy()
MILLENNIUM = SwordOfOrthodoxy({"scenario": "millennium"})

pytestmark = pytest.mark.benchmark(group="sword-of-orthodoxy")


def test_initial_state(benchmark: BenchmarkFixture) -> None:
    benchmark(GAME.initial_state)


def test_random_playout_campaign(benchmark: BenchmarkFixture) -> None:
    rng = random.Random(1)
    start = GAME.initial_state()
    benchmark(lambda: playout(GAME, start, rng))


def test_random_playout_millennium(benchmark: BenchmarkFixture) -> None:
    rng = random.Random(2)
    start = MILLENNIUM.initial_state()
    benchmark(lambda: playout(MILLENNIUM, start, rng))


def test_recorded_game_with_digests(benchmark: BenchmarkFixture) -> None:
    seeds = iter(range(10**6))
    benchmark(lambda: play(GAME, seed=next(seeds)))


def test_sensible_policy_game(benchmark: BenchmarkFixture) -> None:
    policy = GAME.policies()["sensible"]
    seeds = iter(range(10**6))
    benchmark.pedantic(  # type: ignore[no-untyped-call]
        lambda: play(GAME, policy, seed=next(seeds)), rounds=3, iterations=1
    )
