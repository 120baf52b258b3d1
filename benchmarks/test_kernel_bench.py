"""Kernel benchmarks (``tox -e bench``): transitions, playouts, records, sampling.

These measure; they assert nothing about time. Compare runs with
``pytest benchmarks --benchmark-compare``.
"""

from __future__ import annotations

import random

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from byzantium import play, playout, replay
from byzantium.core.dice import two_d6
from byzantium.core.drivers import sample
from tests.pig import Face, PigGame, PigState, RollDie

GAME = PigGame()

pytestmark = pytest.mark.benchmark(group="kernel")


def test_apply_player_action(benchmark: BenchmarkFixture) -> None:
    state = PigState(scores=(5, 7), turn_total=4)
    benchmark(GAME.apply, state, RollDie())


def test_apply_chance_outcome(benchmark: BenchmarkFixture) -> None:
    state = PigState(scores=(5, 7), turn_total=4, awaiting_die=True)
    benchmark(GAME.apply, state, Face(4))


def test_playout_whole_game(benchmark: BenchmarkFixture) -> None:
    rng = random.Random(1)
    benchmark(playout, GAME, GAME.initial_state(), rng)


def test_play_with_record_and_digests(benchmark: BenchmarkFixture) -> None:
    benchmark(play, GAME, seed=3)


def test_replay_record(benchmark: BenchmarkFixture) -> None:
    record = play(GAME, seed=3)
    benchmark(replay, GAME, record)


def test_state_digest(benchmark: BenchmarkFixture) -> None:
    benchmark(GAME.state_digest, PigState(scores=(5, 7), turn_total=4))


def test_sample_two_d6(benchmark: BenchmarkFixture) -> None:
    rng = random.Random(1)
    outcomes = two_d6()
    benchmark(sample, outcomes, rng)
