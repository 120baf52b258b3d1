"""The figures of issue 8 (printed at the end of the run), and checks of the harness.

The checks make sure the harness measures what it says: the playout loop plays the
same games as :func:`byzantium.playout`, the round trip gives back an equal state,
the OpenSpiel anchors play to the end. None of them looks at a time.
``BYZANTIUM_BENCH_SECONDS`` sets the playout time per game (default 6).
"""

from __future__ import annotations

import os
import random

import pytest

from benchmarks.action_phase import _timed_menus, measure_menus
from benchmarks.conftest import REPORT
from benchmarks.harness import (
    byzantium_subject,
    decision_positions,
    deep_size,
    measure_memory,
    open_spiel_subject,
    parents,
    playout,
    time_children,
    time_decisions,
    trajectory,
)
from benchmarks.operations import measure_operations
from benchmarks.report import Report, collect, format_report
from byzantium import load_game
from byzantium import playout as library_playout
from byzantium.sword_of_orthodoxy import action_phase

GAMES = {
    "sword-of-orthodoxy": {},
    "belisarius": {"scenario": 1, "capitulation": False},
}


def test_figures(request: pytest.FixtureRequest) -> None:
    seconds = float(os.environ.get("BYZANTIUM_BENCH_SECONDS", "6"))
    report = collect(seconds)
    request.config.stash[REPORT] = report
    names = [figures.name for figures in report.figures]
    assert names[:2] == ["sword-of-orthodoxy", "belisarius"]
    assert all(report.figures[i].decisions is not None for i in range(2))


@pytest.mark.parametrize("name", GAMES)
def test_loop_plays_the_library_playout(name: str) -> None:
    game = load_game(name, **GAMES[name])
    subject = byzantium_subject(name, game)
    for seed in range(2):
        states = trajectory(subject, random.Random(seed))
        assert playout(subject, random.Random(seed)) == len(states) - 1
        final = library_playout(game, game.initial_state(), random.Random(seed))
        assert states[-1] == final
        assert game.is_terminal(final)


@pytest.mark.parametrize("name", GAMES)
def test_round_trip_gives_back_the_state(name: str) -> None:
    game = load_game(name, **GAMES[name])
    subject = byzantium_subject(name, game)
    states = trajectory(subject, random.Random(3))
    assert all(subject.round_trip(state) == state for state in states[::7])


def test_deep_size_counts_a_shared_object_once() -> None:
    part = tuple(range(300, 400))
    assert deep_size((part, part)) < 2 * deep_size(part)
    assert deep_size((part, part)) > deep_size(part)


def test_memory_of_a_chain_is_positive() -> None:
    subject = byzantium_subject("sword-of-orthodoxy", load_game("sword-of-orthodoxy"))
    per_state, method = measure_memory(subject, 50)
    assert per_state is not None
    assert per_state > 0
    assert method.startswith("tracemalloc")


@pytest.mark.parametrize("name", ["backgammon", "python_tic_tac_toe"])
def test_anchor_plays_to_the_end(name: str) -> None:
    pytest.importorskip("pyspiel")
    subject = open_spiel_subject(name)
    assert subject is not None
    states = trajectory(subject, random.Random(1))
    assert states[-1].is_terminal()  # type: ignore[attr-defined]
    assert not states[0].is_terminal()  # type: ignore[attr-defined]  # a kept copy
    assert playout(subject, random.Random(1)) == len(states) - 1


def test_operations_figures_measure_real_menus() -> None:
    ops = measure_operations(min_menus=40)
    assert ops.menus >= 40
    assert ops.reachable_places > 100
    assert ops.busy_menu_actions >= ops.menu_actions > 1


def test_menu_figures_time_only_the_menus_built() -> None:
    menus = measure_menus(seconds=0.6, rounds=2)
    assert menus.games >= 1
    # A random Campaign game asks the Action Phase question many times, and the
    # menus are part, not all, of the playout's time.
    assert menus.transitions > menus.menus > menus.games
    assert 0 < menus.menu_seconds < menus.seconds
    assert menus.without_menus > menus.transitions_per_second


def test_menu_timing_leaves_the_games_alone() -> None:
    built = action_phase._menu
    subject = byzantium_subject("sword-of-orthodoxy", load_game("sword-of-orthodoxy"))
    plain = [playout(subject, random.Random(seed)) for seed in range(3)]
    with _timed_menus() as kept:
        timed = [playout(subject, random.Random(seed)) for seed in range(3)]
    assert timed == plain
    assert kept[1] > 0
    assert action_phase._menu is built


@pytest.mark.parametrize("name", GAMES)
def test_children_are_every_legal_child_of_each_parent(name: str) -> None:
    game = load_game(name, **GAMES[name])
    subject = byzantium_subject(name, game)
    nodes = parents(subject, 30)
    assert len(nodes) == 30
    assert not any(game.is_terminal(node) for node in nodes)
    found = time_children([subject], 30, rounds=1)[name]
    assert found.parents == 30
    assert found.children == sum(len(game.legal_actions(node)) for node in nodes)


def test_children_of_an_anchor_leave_its_parents_alone() -> None:
    pytest.importorskip("pyspiel")
    subject = open_spiel_subject("backgammon")
    assert subject is not None
    nodes = parents(subject, 20)
    before = [node.serialize() for node in nodes]  # type: ignore[attr-defined]
    found = time_children([subject], 20, rounds=1)["backgammon"]
    assert [node.serialize() for node in nodes] == before  # type: ignore[attr-defined]
    assert found.children == sum(len(subject.legal_actions(node)) for node in nodes)


@pytest.mark.parametrize("name", GAMES)
def test_expert_decides_fixed_positions_with_legal_actions(name: str) -> None:
    game = load_game(name, **GAMES[name])
    subject = byzantium_subject(name, game)
    assert subject.expert is not None
    positions = decision_positions(subject, 4)
    assert positions == decision_positions(subject, 4)  # the same positions every run
    assert all(len(game.legal_actions(state)) > 1 for state in positions)
    for i, state in enumerate(positions[:2]):
        assert subject.expert(state, random.Random(i)) in game.legal_actions(state)
    found = time_decisions([subject], seconds=0.0, count=4)[name]
    assert found.decisions == 1  # the time is up after the first decision
    assert found.positions == 4
    assert found.per_second > 0


def test_anchors_have_no_expert_and_the_report_prints_the_absolute_figure() -> None:
    pytest.importorskip("pyspiel")
    anchor = open_spiel_subject("backgammon")
    assert anchor is not None
    assert anchor.expert is None
    assert time_decisions([anchor], seconds=0.0) == {}


def test_report_prints_expert_decisions_per_second() -> None:
    report: Report = collect(0.3, rounds=1, anchors=False, operations=False, expert_seconds=0.2)
    text = format_report(report)
    assert "expert decisions per second" in text
    assert "no ratio" in text
    for figures in report.figures[:2]:
        assert figures.decisions is not None
        assert figures.decisions.decisions >= 1
