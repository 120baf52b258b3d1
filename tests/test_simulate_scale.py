"""Simulations at scale (issue 40): summaries that add up, shards and ``merge``,
checkpoints that resume a killed run, per-game rows streamed to a file, Dask clusters.

The Dask tests need ``byzantium[cluster]``; they are skipped without it, except when
``BYZANTIUM_REQUIRE_CLUSTER`` is set (as tox does), where a missing Dask fails them.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.pig  # noqa: F401  (registers Pig)
from byzantium.cli import main
from byzantium.core import simulate as simulate_module
from byzantium.core.simulate import (
    GameSummary,
    SimulationError,
    SimulationPart,
    Tally,
    merge_parts,
    parse_cluster,
    parse_shard,
    run_job,
    shard_games,
    simulate,
    simulate_part,
    simulation_jobs,
    simulation_plan,
    summarise,
)

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = bool(os.environ.get("BYZANTIUM_REQUIRE_CLUSTER"))
HAS_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(
    not HAS_DASK and not REQUIRED,
    reason="Dask is not installed (the byzantium[cluster] extra)",
)
PIG = ("--import", "tests.pig")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main([*PIG, *argv], out)
    return status, out.getvalue()


def one_line_error(capsys: pytest.CaptureFixture[str], status: int) -> str:
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("byzantium: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@functools.cache
def pig_games() -> tuple[GameSummary, ...]:
    """Twelve games of Pig in two seatings (the second seating from game 6 on)."""
    jobs = simulation_jobs("pig", {"target": 10}, games=6, seed=3, policy=("random", "first"))
    swapped = simulation_jobs(
        "pig", {"target": 10}, games=6, seed=3, policy=("random", "first"), swap_seats=True
    )
    assert swapped[:6] == jobs
    return tuple(run_job(job) for job in swapped)


# -- summaries that add up ---------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(range(12)), cuts=st.sets(st.integers(1, 11), max_size=5))
def test_tallies_merge_into_the_same_summary_in_any_order_and_grouping(
    order: list[int], cuts: set[int]
) -> None:
    games = pig_games()
    whole = Tally()
    for index, game in enumerate(games):
        whole.add(index, game)
    bounds = [0, *sorted(cuts), len(order)]
    groups = [order[a:b] for a, b in itertools.pairwise(bounds)]
    parts = []
    for group in groups:
        part = Tally()
        for index in group:
            part.add(index, games[index])
        parts.append(part)
    merged = Tally()
    for part in reversed(parts):
        merged.update(part)
    assert merged == whole
    assert merged.summary(seed=3) == summarise(games, seed=3)
    assert json.dumps(merged.summary(seed=3).to_json()) == json.dumps(
        summarise(games, seed=3).to_json()
    )


def test_a_tally_survives_json_with_half_points_exact() -> None:
    games = [
        attrs.evolve(
            game, scores=tuple((name, score + Fraction(1, 2)) for name, score in game.scores)
        )
        for game in pig_games()
    ]
    tally = Tally()
    for index, game in enumerate(games):
        tally.add(index, game)
    again = Tally.from_json(json.loads(json.dumps(tally.to_json())))
    assert again == tally
    summary = again.summary(seed=3)
    assert summary == summarise(games, seed=3)
    assert all(score.min.denominator == 2 for score in summary.scores)


def test_the_summary_needs_no_more_memory_for_ten_times_the_games() -> None:
    def peak(games: int) -> int:
        tracemalloc.start()
        try:
            simulate("pig", games=games, seed=1)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    simulate("pig", games=5, seed=1)  # load what is loaded once
    small, large = peak(100), peak(1000)
    # Each game kept would take over a kilobyte: 1,000 games, more than a megabyte.
    assert large < 2 * small + 200_000, (small, large)


# -- shards and merge ----------------------------------------------------------------------------


def test_shards_merged_in_any_order_give_the_summary_of_one_run(tmp_path: Path) -> None:
    common: tuple[str, ...] = (
        "simulate",
        "pig",
        "--games",
        "7",
        "--seed",
        "5",
        "--option",
        "target=10",
    )
    common += ("--policy", "0=random,1=first", "--swap-seats")
    status, whole = run(*common, "--json", "-")
    assert status == 0
    parts = [tmp_path / f"part-{k}.json" for k in (1, 2, 3)]
    for k, part in enumerate(parts, 1):
        assert run(*common, "--shard", f"{k}/3", "--part", str(part), "--quiet")[0] == 0
    assert [json.loads(p.read_text())["games"] for p in parts] == [[0, 4], [4, 9], [9, 14]]
    status, merged = run("merge", *map(str, reversed(parts)), "--json", "-")
    assert status == 0
    assert merged == whole
    # A merged whole is a part again, and merges alone into the same summary.
    assert run("merge", *map(str, parts), "--part", str(tmp_path / "all.json"), "--quiet")[0] == 0
    assert run("merge", str(tmp_path / "all.json"), "--json", "-") == (0, whole)
    status, text = run("merge", *map(str, parts))
    assert status == 0 and "Pig: 14 games" in text


def test_merge_in_python_and_the_shard_arithmetic() -> None:
    plan = simulation_plan("pig", {"target": 10}, games=9, seed=2)
    ranges = [shard_games((k, 4), plan.total) for k in (1, 2, 3, 4)]
    assert ranges == [(0, 2), (2, 4), (4, 6), (6, 9)]
    parts = [simulate_part(plan, start=a, stop=b)[0] for a, b in ranges]
    assert merge_parts(parts[::-1]).summary() == simulate("pig", {"target": 10}, games=9, seed=2)
    assert parse_shard(" 3 / 4 ") == (3, 4)


@pytest.fixture
def shards(tmp_path: Path) -> dict[str, Path]:
    """Parts of one simulation (three shards) and of another (another seed)."""
    made = {}
    for name, seed, shard in (("1", 1, "1/3"), ("2", 1, "2/3"), ("3", 1, "3/3"), ("x", 2, "2/3")):
        path = tmp_path / f"{name}.json"
        argv = ("simulate", "pig", "--games", "6", "--seed", str(seed), "--shard", shard)
        assert run(*argv, "--part", str(path), "--quiet")[0] == 0
        made[name] = path
    return made


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["1", "x", "3"], "of another simulation"),
        (["1", "2", "2", "3"], "overlap"),
        (["1", "3"], "games 2 to 3 are in no part"),
        (["1", "2"], "games 4 to 5 are in no part"),
    ],
)
def test_merge_refuses_other_runs_overlaps_and_gaps(
    shards: dict[str, Path],
    names: list[str],
    expected: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run("merge", *(str(shards[n]) for n in names))
    assert expected in one_line_error(capsys, status)
    assert out == ""


def _tampered(data: dict[str, object]) -> list[tuple[str, str]]:
    tally = data["tally"]
    assert isinstance(tally, dict)
    cases: list[tuple[str, object]] = [
        ("not a part", {"hello": 1}),
        ("another version", {**data, "version": 2}),
        ("games as text", {**data, "games": ["0", "2"]}),
        ("games beyond the plan", {**data, "games": [0, 99]}),
        ("a bad fraction", {**data, "tally": {**tally, "turns": [["x", 1]]}}),
        ("counts that do not add up", {**data, "tally": {**tally, "games": 5}}),
        ("a list", [1, 2]),
        ("a negative count", {**data, "tally": {**tally, "finished": -1}}),
        ("no plan", {**data, "plan": None}),
    ]
    return [(name, json.dumps(value)) for name, value in cases] + [
        ("not JSON", "{"),
        ("a deep nest", "[" * 100_000 + "]" * 100_000),
        ("not UTF-8", "\udcff"),
        ("empty", ""),
    ]


def test_malformed_parts_are_refused_in_one_line(
    shards: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(shards["1"].read_text())
    for name, text in _tampered(data):
        path = tmp_path / "bad.json"
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        status, out = run("merge", str(path), str(shards["2"]), str(shards["3"]))
        err = one_line_error(capsys, status)
        assert "bad.json" in err, (name, err)
        assert out == ""
    status, _ = run("merge", str(tmp_path / "missing.json"))
    assert "missing.json" in one_line_error(capsys, status)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("--shard", "0/3", "--part", "p.json"), "a shard is K/N"),
        (("--shard", "4/3", "--part", "p.json"), "a shard is K/N"),
        (("--shard", "1/0", "--part", "p.json"), "a shard is K/N"),
        (("--shard", "two", "--part", "p.json"), "a shard is K/N"),
        (
            (
                "--shard",
                "1/2",
            ),
            "--shard needs --part",
        ),
        (("--shard", "1/9", "--part", "p.json"), "9 shards of 4 games"),
        (("--cluster", "local:0"), "a cluster is local:N"),
        (("--cluster", "local"), "a cluster is local:N"),
        (("--cluster", "udp://host:1"), "a cluster is local:N"),
        (("--cluster", "tcp://host"), "a cluster is local:N"),
        (("--cluster", "tcp://host:99999"), "a cluster is local:N"),
        (("--cluster", "local:2", "--jobs", "2"), "--jobs and --cluster"),
    ],
)
def test_bad_shards_and_cluster_addresses_are_one_line(
    argv: tuple[str, ...],
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))
    status, out = run("simulate", "pig", "--games", "4", *argv)
    assert expected in one_line_error(capsys, status)
    assert out == "" and not (tmp_path / "p.json").exists()


def test_cluster_addresses_parse() -> None:
    assert parse_cluster("local:3") == ("local", 3)
    assert parse_cluster("tcp://[::1]:8786") == ("tcp://[::1]:8786", 0)
    with pytest.raises(SimulationError, match="a cluster is"):
        parse_cluster("local:2000")


# -- per-game rows and checkpoints ---------------------------------------------------------------


def test_per_game_rows_stream_to_a_file_in_game_order(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    kept = simulate("pig", games=9, seed=4, keep_games=True)
    assert simulate("pig", games=9, seed=4, per_game=one) == kept
    assert simulate("pig", games=9, seed=4, jobs=2, per_game=two) == kept
    assert one.read_bytes() == two.read_bytes()
    rows = [json.loads(line) for line in one.read_text().splitlines()]
    assert rows == [{"index": i, **g.to_json()} for i, g in enumerate(kept.per_game)]
    status, _ = run("simulate", "pig", "--games", "9", "--seed", "4", "--per-game", str(one))
    assert status == 0 and one.read_bytes() == two.read_bytes()


SLOW_PIG = ("simulate", "pig", "--games", "1500", "--seed", "8", "--option", "target=100")


def test_a_run_killed_midway_resumes_to_the_same_summary(tmp_path: Path) -> None:
    checkpoint, rows = tmp_path / "run.checkpoint", tmp_path / "rows.jsonl"
    argv = [sys.executable, "-m", "byzantium", *PIG, *SLOW_PIG, "--quiet", "--json", "-"]
    argv += ["--checkpoint", str(checkpoint), "--per-game", str(rows)]
    process = subprocess.Popen([*argv, "--checkpoint-every", "0"], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                if json.loads(checkpoint.read_text())["games"][1] >= 50:
                    break
            assert process.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
        assert process.stdout is not None
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL
    stopped = json.loads(checkpoint.read_text())["games"][1]
    assert 50 <= stopped < 1500
    resumed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
    assert resumed.stderr == ""
    whole = simulate("pig", {"target": 100}, games=1500, seed=8, keep_games=True)
    assert json.loads(resumed.stdout) == whole.to_json()
    expected = [{"index": i, **g.to_json()} for i, g in enumerate(whole.per_game)]
    assert [json.loads(line) for line in rows.read_text().splitlines()] == expected
    # A finished run's checkpoint holds every game: running again replays nothing.
    assert json.loads(checkpoint.read_text())["games"] == [0, 1500]


def test_a_checkpoint_of_another_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "c.json"
    argv = ("simulate", "pig", "--games", "5", "--checkpoint", str(checkpoint), "--quiet")
    assert run(*argv)[0] == 0
    status, text = run(*argv)
    assert status == 0 and "5 games" in text
    status, _ = run(*argv, "--seed", "2")
    assert "is of another run" in one_line_error(capsys, status)
    status, _ = run(*argv, "--per-game", str(tmp_path / "rows.jsonl"))
    assert "without a per-game file" in one_line_error(capsys, status)
    checkpoint.write_text("{}")
    status, _ = run(*argv)
    assert "not a simulation part" in one_line_error(capsys, status)


def test_chunks_of_any_size_give_the_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    plan = simulation_plan("pig", {"target": 10}, games=11, seed=4)
    alone = simulate_part(plan)[0]
    for size in (1, 3, 11, 50):
        assert simulate_part(plan, chunk_size=size)[0].tally == alone.tally
    assert simulate_part(plan, jobs=2, chunk_size=4)[0].tally == alone.tally
    status, _ = run("simulate", "pig", "--games", "3", "--chunk", "0")
    assert "a chunk holds at least one game" in one_line_error(capsys, status)


def test_a_part_summary_is_that_of_its_games() -> None:
    plan = simulation_plan("pig", games=6, seed=1)
    part, kept = simulate_part(plan, start=2, stop=5, keep_games=True)
    assert isinstance(part, SimulationPart) and part.tally.games == 3
    assert [g.seed for g in kept] == [plan.job(i).seed for i in (2, 3, 4)]
    with pytest.raises(SimulationError, match="not games of the plan"):
        simulate_part(plan, start=4, stop=9)


# -- Dask --------------------------------------------------------------------------------------


@needs_dask
def test_a_local_cluster_gives_the_summary_of_one_and_two_processes() -> None:
    pig = {"games": 15, "seed": 6, "policy": ("random", "first"), "swap_seats": True}
    on_cluster = simulate("pig", {"target": 10}, cluster="local:2", keep_games=True, **pig)  # type: ignore[arg-type]
    alone = simulate("pig", {"target": 10}, jobs=1, keep_games=True, **pig)  # type: ignore[arg-type]
    two = simulate("pig", {"target": 10}, jobs=2, keep_games=True, **pig)  # type: ignore[arg-type]
    assert on_cluster == alone == two
    assert json.dumps(on_cluster.to_json(per_game=True)) == json.dumps(alone.to_json(per_game=True))
    sword = simulate("sword-of-orthodoxy", games=4, seed=2, cluster="local:2")
    assert sword == simulate("sword-of-orthodoxy", games=4, seed=2)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def scheduler() -> Iterator[str]:
    """A real ``dask scheduler`` and ``dask worker`` (two processes), started here."""
    if not HAS_DASK and not REQUIRED:
        pytest.skip("Dask is not installed (the byzantium[cluster] extra)")
    address = f"tcp://127.0.0.1:{_free_port()}"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    quiet = {"cwd": ROOT, "env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    dask = [sys.executable, "-m", "dask"]
    port = address.rsplit(":", 1)[1]
    started = [
        subprocess.Popen(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard"],
            **quiet,  # type: ignore[call-overload]
        )
    ]
    try:
        started.append(
            subprocess.Popen(
                [*dask, "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                **quiet,  # type: ignore[call-overload]
            )
        )
        distributed = importlib.import_module("distributed")
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_a_running_scheduler_and_its_workers_give_the_same_summary(scheduler: str) -> None:
    argv = ("simulate", "pig", "--games", "40", "--seed", "9", "--json", "-", "--quiet")
    status, remote = run(*argv, "--cluster", scheduler)
    assert status == 0
    assert remote == run(*argv)[1]
    # A shard run on the cluster merges with one run here.
    assert run(*argv, "--cluster", scheduler, "--shard", "1/2", "--part", os.devnull)[0] == 0


@needs_dask
def test_an_unreachable_scheduler_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(simulate_module, "CONNECT_SECONDS", 2)
    address = f"tcp://127.0.0.1:{_free_port()}"
    status, out = run("simulate", "pig", "--games", "3", "--cluster", address)
    assert "cannot reach the Dask scheduler" in one_line_error(capsys, status)
    assert out == ""


def test_a_part_written_to_a_pipe_leaves_the_pipe_in_place(tmp_path: Path) -> None:
    """A part (or checkpoint) path that is not a regular file is written to, never
    renamed over: ``--part /dev/null`` once replaced the device with a file."""
    import stat
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()), daemon=True)
    reader.start()
    status, _ = run("simulate", "pig", "--games", "2", "--part", str(pipe), "--quiet")
    reader.join(10)
    assert status == 0
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert json.loads(received[0])["games"] == [0, 2]
    assert not list(tmp_path.glob(".pipe.*"))
