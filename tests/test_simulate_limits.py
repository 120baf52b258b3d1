"""Bounds of a simulation (issue 14): a huge number of games is refused at once with
one line, jobs are built lazily, and no more worker processes start than there are
processors, with the same results."""

from __future__ import annotations

import io
import os
import time

import pytest

import tests.pig  # noqa: F401  (registers Pig)
from byzantium.cli import main
from byzantium.core.simulate import (
    MAX_GAMES,
    SimulationError,
    simulate,
    simulation_jobs,
    worker_count,
)


def test_more_games_than_the_bound_are_refused_before_any_work() -> None:
    began = time.perf_counter()
    with pytest.raises(SimulationError, match="at most"):
        simulate("pig", games=10**12)
    with pytest.raises(SimulationError, match="at most"):
        simulation_jobs("pig", games=MAX_GAMES + 1)
    assert time.perf_counter() - began < 1


def test_the_command_line_refuses_a_huge_simulation_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    began = time.perf_counter()
    assert (
        main(["--import", "tests.pig", "simulate", "pig", "--games", str(10**12)], io.StringIO())
        == 2
    )
    assert time.perf_counter() - began < 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "at most" in err[0]


def test_workers_never_outnumber_the_processors_nor_the_games() -> None:
    processors = os.cpu_count() or 1
    assert worker_count(10_000, 12) == min(12, processors)
    assert worker_count(10_000, 1) == 1
    assert worker_count(1, 50) == 1
    assert worker_count(3, 50) == min(3, processors)


def test_many_jobs_asked_give_the_same_summary() -> None:
    alone = simulate("pig", {"target": 10}, games=20, seed=3)
    crowded = simulate("pig", {"target": 10}, games=20, seed=3, jobs=10_000)
    assert crowded == alone
