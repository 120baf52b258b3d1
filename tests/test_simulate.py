"""``byzantium simulate`` and :mod:`byzantium.core.simulate`: many games, one summary."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import pytest

from byzantium.cli import main
from byzantium.core.drivers import play
from byzantium.core.errors import UnknownGameError, UnknownOptionError
from byzantium.core.game import Event
from byzantium.core.registry import load_game
from byzantium.core.simulate import (
    GameJob,
    GameSummary,
    SimulationError,
    SimulationSummary,
    ending_cause,
    game_seed,
    histogram,
    play_one,
    policy_for,
    run_job,
    simulate,
    simulation_jobs,
    summarise,
)
from tests.pig import Face, PigAction, PigGame, PigState

ROOT = Path(__file__).resolve().parent.parent
COMMAND = (sys.executable, "-m", "byzantium", "--import", "tests.pig", "simulate", "pig")
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
T = TypeVar("T")
R = TypeVar("R")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["--import", "tests.pig", *argv], out)
    return status, out.getvalue()


def assert_adds_up(summary: SimulationSummary, games: int) -> None:
    assert summary.games == games == len(summary.per_game)
    assert sum(n for _, n in summary.outcomes) == games
    assert sum(n for _, n in summary.levels) == games
    assert sum(c.games for c in summary.causes) == games
    assert sum(row.count for row in summary.turns.rows) == games
    for cause in summary.causes:
        assert sum(row.count for row in cause.turns.rows) == cause.games
    for score in summary.scores:
        assert sum(row.count for row in score.histogram.rows) == score.games <= games
        assert score.min <= Fraction(score.mean) <= score.max
    for tally in summary.tallies:
        assert 0 <= tally.games <= games
        assert tally.games <= tally.total or tally.total == 0
    assert summary.min_steps <= summary.mean_steps <= summary.max_steps


# -- reproducibility -------------------------------------------------------------------------


def test_pig_same_seed_same_json_with_one_and_two_jobs() -> None:
    one = simulate("pig", {"target": 20}, games=4, seed=11, jobs=1, keep_games=True)
    two = simulate("pig", {"target": 20}, games=4, seed=11, jobs=2, keep_games=True)
    assert one == two
    assert json.dumps(one.to_json(per_game=True)) == json.dumps(two.to_json(per_game=True))
    assert_adds_up(one, 4)


def test_sword_of_orthodoxy_same_seed_same_json_with_one_and_two_jobs() -> None:
    one = simulate("sword-of-orthodoxy", games=3, seed=2, jobs=1, keep_games=True)
    two = simulate("sword-of-orthodoxy", games=3, seed=2, jobs=2, keep_games=True)
    assert json.dumps(one.to_json(per_game=True)) == json.dumps(two.to_json(per_game=True))
    assert_adds_up(one, 3)
    # Random play loses quickly: the Defeats have causes and turns.
    assert all(game.turn >= 1 for game in one.per_game)
    assert all(cause.cause.startswith("[") for cause in one.causes)


def test_different_seeds_give_different_games() -> None:
    first = simulate("pig", games=6, seed=1, keep_games=True)
    second = simulate("pig", games=6, seed=2, keep_games=True)
    assert [g.seed for g in first.per_game] != [g.seed for g in second.per_game]
    assert first.to_json(per_game=True) != second.to_json(per_game=True)
    assert len({g.seed for g in first.per_game}) == 6


def test_game_seeds_depend_only_on_the_simulation_seed_and_the_index() -> None:
    jobs = simulation_jobs("pig", games=5, seed=9)
    assert [job.seed for job in jobs] == [game_seed(9, i) for i in range(5)]
    assert simulation_jobs("pig", games=3, seed=9) == jobs[:3]
    assert all(job.module == "tests.pig" for job in jobs)


def test_each_game_is_the_game_play_gives_for_its_seed() -> None:
    game = load_game("pig")
    seed = game_seed(4, 2)
    summary = play_one("pig", {}, "random", seed)
    record = play(game, policy_for(game, "random"), seed=seed)
    assert summary.steps == len(record)
    final = game.apply_all(game.initial_state(), record.actions)
    assert summary.scores == tuple(
        (game.player_name(p), Fraction(s)) for p, s in enumerate(game.result(final).scores)
    )
    assert summary.winners == tuple(game.player_name(p) for p in game.result(final).winners)


def test_any_map_executor_runs_the_jobs() -> None:
    calls: list[int] = []

    class Serial:
        def map(self, fn: Callable[[T], R], iterable: Iterable[T], /) -> Iterator[R]:
            items = list(iterable)
            calls.append(len(items))
            return iter([fn(item) for item in items])

    through_executor = simulate("pig", games=5, seed=3, executor=Serial())
    assert calls == [5]
    assert through_executor == simulate("pig", games=5, seed=3)
    by_hand = summarise([run_job(job) for job in simulation_jobs("pig", games=5, seed=3)], seed=3)
    assert by_hand == through_executor


def test_progress_is_reported_for_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate("pig", games=3, seed=0, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


# -- the summary -------------------------------------------------------------------------------


def test_unfinished_games_are_counted_as_such() -> None:
    # Always holding (the first legal action) never ends a game of Pig.
    summary = simulate("pig", games=2, seed=0, policy="first", max_steps=30)
    assert summary.finished == 0
    assert summary.outcomes == (("unfinished", 2),)
    assert summary.levels == (("unfinished", 2),)
    assert [c.cause for c in summary.causes] == ["unfinished"]
    assert summary.scores == ()
    assert summary.min_steps == summary.max_steps == 30


def test_pig_scores_and_outcomes() -> None:
    summary = simulate("pig", {"target": 10}, games=8, seed=5, keep_games=True)
    assert_adds_up(summary, 8)
    assert [s.player for s in summary.scores] == ["player 0", "player 1"]
    assert {name for name, _ in summary.outcomes} <= {"player 0", "player 1"}
    assert summary.causes[0].cause == "[3.1] player # reached # points"
    winners = sum(1 for g in summary.per_game for name, s in g.scores if s >= 10)
    assert winners == 8


def test_ending_causes_drop_the_details() -> None:
    assert ending_cause("12.1", "Constantinople falls (13 > 9)") == "[12.1] Constantinople falls"
    assert ending_cause("3.1", "the Empire capitulates; Empire 26 VP") == (
        "[3.1] the Empire capitulates"
    )
    assert ending_cause("12.3", "Turn 27 is over: the Empire survives with 40 VP") == (
        "[12.3] Turn # is over"
    )


def test_histogram_rows() -> None:
    assert [(r.label, r.count) for r in histogram([2, 4, 4]).rows] == [("2", 1), ("3", 0), ("4", 2)]
    assert len(histogram(list(range(1, 21))).rows) == 20
    wide = histogram(list(range(1, 22)))
    assert len(wide.rows) == 10
    assert sum(r.count for r in wide.rows) == 21
    assert wide.rows[-1].count == 3  # 19, 20 and 21: the last bin includes its top
    assert len(histogram([Fraction(1, 2), Fraction(5, 2)]).rows) == 5
    assert len(histogram([0.25, 0.75]).rows) == 10
    assert histogram([7.5]).rows[0].count == 1
    assert histogram([]).rows == ()
    lines = histogram([1, 1, 1, 1, 2, 3]).lines(width=8)
    assert len(lines) == 3
    assert lines[0] == "1 | ######## 4"
    assert lines[1] == "2 | ##       1"


def test_summary_text_has_one_histogram_row_per_turn() -> None:
    summary = simulate("sword-of-orthodoxy", games=3, seed=7, keep_games=True)
    text = "\n".join(summary.lines("Sword of Orthodoxy"))
    turns = [g.turn for g in summary.per_game]
    block = text.split("Turn at the end")[1].split("Ending causes")[0]
    bars = [line for line in block.splitlines() if " | " in line]
    assert len(bars) == max(turns) - min(turns) + 1
    assert "Tallies (games in which it occurred, total count)" in text


def test_summarise_rejects_mixed_or_empty_input() -> None:
    pig = play_one("pig", {}, "random", 1)
    other = play_one("pig", {"target": 10}, "random", 1)
    with pytest.raises(SimulationError, match="differ"):
        summarise([pig, other])
    with pytest.raises(SimulationError, match="no games"):
        summarise([])


def test_bad_arguments_raise_library_errors() -> None:
    with pytest.raises(SimulationError, match="at least one game"):
        simulate("pig", games=0)
    with pytest.raises(SimulationError, match="jobs"):
        simulate("pig", games=1, jobs=0)
    with pytest.raises(UnknownOptionError, match="no policy 'smart'"):
        simulate("pig", games=1, policy="smart")
    with pytest.raises(UnknownGameError):
        simulate("chess", games=1)


def test_a_game_that_fails_names_its_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An engine that fails on a six stands for a bug met deep in a simulation.
    advance = PigGame._advance

    def broken(
        self: PigGame, state: PigState, action: PigAction, events: list[Event] | None
    ) -> PigState:
        if action == Face(6):
            raise RuntimeError("no sixes here")
        return advance(self, state, action, events)

    monkeypatch.setattr(PigGame, "_advance", broken)
    with pytest.raises(SimulationError, match=r"pig with policy 'random' and seed \d+ failed"):
        simulate("pig", games=5, seed=1)
    status, text = run("simulate", "pig", "--games", "5")
    err = capsys.readouterr().err
    assert status == 2 and text == ""
    assert err.count("\n") == 1 and "RuntimeError: no sixes here" in err


def test_jobs_and_summaries_are_picklable() -> None:
    import pickle

    job = GameJob("pig", (("target", 10),), "random", 3)
    result = run_job(job)
    assert isinstance(result, GameSummary)
    assert pickle.loads(pickle.dumps(job)) == job
    assert pickle.loads(pickle.dumps(result)) == result


# -- the games' tallies -------------------------------------------------------------------------


def test_sword_of_orthodoxy_tallies_name_synopsis_events_and_facts() -> None:
    summary = simulate("sword-of-orthodoxy", games=3, seed=1, keep_games=True)
    names = {t.name for t in summary.tallies}
    assert {"Rise of Islam", "Crusades begin", "East-West Schism"} <= names
    political = [t for t in summary.tallies if t.name.startswith("political event: ")]
    military = [t for t in summary.tallies if t.name.startswith("military event: ")]
    assert political and military
    # Every game resolves at least one Synopsis row (8.1) before it can end.
    assert all(
        any(name.startswith("political event: ") and n for name, n in g.tallies)
        for g in summary.per_game
        if g.turn >= 2
    )


def test_sword_of_orthodoxy_tallies_count_a_political_event_once_per_synopsis() -> None:
    from byzantium.sword_of_orthodoxy.tallies import game_tallies

    game = load_game("sword-of-orthodoxy")
    state = game.initial_state()
    events = [
        Event("8.1", "Synopsis: 1 + Turn 1 = 2", "synopsis"),
        Event("8.4.1", "Seljuks: they take Paths ΔΕ", "event"),
        Event("8.4.1", "Seljuks: the Crusades begin", "event"),
        Event("8.4.1", "Riots break out in Constantinople", "event"),
        Event("8.3", "Military Event: Yihad", "military"),
        Event("8.1", "Synopsis: 2 + Turn 2 = 4", "synopsis"),
        Event("8.4.1", "Seljuks: the Buyids do not hold Path Ε", "event"),
        Event("5.2.3", "Path Ε: Mongols now stand in Melitene", "army"),
    ]
    tallies = dict(game_tallies(game, state, events))
    assert tallies["political event: Seljuks"] == 2
    assert tallies["political event: Riots"] == 1
    assert tallies["military event: Yihad"] == 1
    assert tallies["arrives: Mongols"] == 1
    assert tallies["Rise of Islam"] == 0


def test_belisarius_tallies_count_events_diplomacy_and_capitulations() -> None:
    summary = simulate("belisarius", games=4, seed=3, keep_games=True)
    assert_adds_up(summary, 4)
    tallies = {t.name: t for t in summary.tallies}
    capitulations = sum(t.total for name, t in tallies.items() if name.startswith("capitulation"))
    assert capitulations == dict(summary.levels).get("capitulation", 0)
    assert {"capitulation: Empire", "capitulation: Barbarian"} <= set(tallies)
    assert any(name.startswith("random event: ") for name in tallies)
    assert [s.player for s in summary.scores] == ["Empire", "Barbarian"]


def test_belisarius_tallies_read_the_engine_lines() -> None:
    from byzantium.belisarius.tallies import game_tallies

    game = load_game("belisarius")
    state = game.initial_state()
    row = game.components.event(11)
    events = [
        Event("6.1", f"Random event 11: {row.name}", "event"),
        Event("9.1", "the Empire attempts Diplomacy on Armenia", "diplomacy"),
        Event("9.1", "Diplomacy on Armenia: differential +2, die 5: control", "diplomacy"),
        Event("4.72", "Revolt check in Syria: 6+1 gives barbarian", "revolt"),
        Event("4.72", "Syria becomes Neutral", "control"),
    ]
    tallies = dict(game_tallies(game, state, events))
    assert tallies[f"random event: {row.id}"] == 1
    assert tallies["diplomacy attempt"] == 1
    assert tallies["diplomacy: control"] == 1
    assert tallies["revolt check: barbarian"] == 1
    assert tallies["revolt: control changes"] == 1
    assert tallies["capitulation: Empire"] == 0


# -- the command line ------------------------------------------------------------------------------


def test_cli_prints_a_summary_and_writes_json(tmp_path: Path) -> None:
    target = tmp_path / "summary.json"
    status, text = run("simulate", "pig", "--games", "5", "--seed", "4", "--json", str(target))
    assert status == 0
    assert "Pig: 5 games, policy random, seed 4" in text
    assert "Outcome (winners)" in text and "Score of player 0" in text
    assert "[3.1] player # reached # points: 5 (100.0%)" in text
    data = json.loads(target.read_text())
    assert data["games"] == 5 and sum(data["outcomes"].values()) == 5
    assert data == simulate("pig", games=5, seed=4).to_json()


def test_cli_json_to_stdout_with_options_and_scenario() -> None:
    status, text = run(
        "simulate", "pig", "--games", "3", "--option", "target=10", "--json", "-", "--per-game"
    )
    assert status == 0
    data = json.loads(text)
    assert data["options"] == {"target": 10}
    assert len(data["per_game"]) == 3
    status, text = run(
        "simulate", "sword-of-orthodoxy", "--games", "1", "--scenario", "campaign", "--json", "-"
    )
    assert status == 0
    assert json.loads(text)["options"]["scenario"] == "campaign"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("simulate", "chess", "--games", "2"), "unknown game 'chess'"),
        (("simulate", "pig", "--games", "2", "--policy", "smart"), "no policy 'smart'"),
        (("simulate", "pig", "--games", "0"), "at least one game"),
        (("simulate", "pig", "--games", "2", "--jobs", "0"), "jobs must be at least 1"),
        (("simulate", "pig", "--games", "2", "--option", "target=11"), "must be one of"),
    ],
)
def test_cli_bad_input_is_one_error_line(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = run(*argv)
    err = capsys.readouterr().err
    assert status == 2
    assert text == ""
    assert err.count("\n") == 1 and err.startswith("byzantium: ")
    assert message in err


def test_cli_subprocess_gives_the_same_json_with_one_and_two_jobs() -> None:
    outputs = []
    for jobs in ("1", "2"):
        done = subprocess.run(
            [*COMMAND, "--games", "4", "--seed", "8", "--jobs", jobs, "--json", "-"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""  # no progress bar when stderr is not a terminal
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])["games"] == 4


def test_cli_png_without_matplotlib_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if HAS_MATPLOTLIB:
        pytest.skip("matplotlib is installed")
    status, _ = run("simulate", "pig", "--games", "2", "--png", str(tmp_path / "png"))
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "byzantium[plot]" in err


def test_cli_png_saves_the_histograms(tmp_path: Path) -> None:
    if not HAS_MATPLOTLIB:
        pytest.skip("matplotlib is not installed (the byzantium[plot] extra)")
    status, text = run("simulate", "pig", "--games", "4", "--png", str(tmp_path))
    assert status == 0
    pngs = sorted(tmp_path.glob("*.png"))
    # The turns, one per player's score, one per ending cause.
    assert len(pngs) == 1 + 2 + 1
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)
    assert "4 PNG histograms written" in text
