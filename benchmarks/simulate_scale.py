"""Figures of ``byzantium simulate`` at scale (issue 40): games per second and peak memory.

Memory first: the peak resident set (``ru_maxrss`` of the command and its processes,
from ``wait4``) of ``--jobs 2`` runs of random Sword of Orthodoxy games at each count
of ``--memory``. Then throughput: for each game and policy, the same seeded games
through ``--jobs 2`` and through ``--cluster local:2`` (a Dask LocalCluster of two
worker processes), each run sized from a short calibration to last about
``--seconds`` seconds; the figure is games divided by the wall time of the whole
command (start-up of the processes or of the cluster included).

Every figure is appended to ``--out`` as one JSON line as soon as it is measured, so
an interrupted run keeps what it measured. The machine's load changes the figures:
run it alone where possible. From the repository root, e.g.::

    nice -n 5 python -m benchmarks.simulate_scale --out /tmp/scale.jsonl \\
        --seconds 90 --memory 10000 100000
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from byzantium.core.simulate import play_one

GAMES = ("sword-of-orthodoxy", "belisarius")
POLICIES = ("random", "sensible")
BACKENDS = (("jobs 2", ["--jobs", "2"]), ("cluster local:2", ["--cluster", "local:2"]))


def seconds_per_game(game: str, policy: str, budget: float) -> float:
    """The mean CPU seconds of one game in this process, over ``budget`` seconds or more."""
    start, count = time.process_time(), 0
    while count < 3 or time.process_time() - start < budget:
        play_one(game, None, policy, seed=10_000 + count)
        count += 1
    return (time.process_time() - start) / count


def run(argv: list[str]) -> dict[str, object]:
    """Run ``byzantium ARGV`` and give its wall time, CPU time and peak memory."""
    start = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "byzantium", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    error = process.stderr.read().decode() if process.stderr else ""
    return {
        "status": os.waitstatus_to_exitcode(status),
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "max_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "stderr": error[-300:],
    }


def record(out: Path, row: dict[str, object]) -> None:
    row = {"when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"), **row}
    with out.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(row) + "\n")
    print(json.dumps(row), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    parser.add_argument("--seconds", type=float, default=90, help="target length of a run")
    parser.add_argument("--memory", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--policies", nargs="*", default=list(POLICIES))
    args = parser.parse_args(argv)
    record(
        args.out,
        {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs", "load": os.getloadavg()},
    )
    for games in args.memory:
        command = ["simulate", "sword-of-orthodoxy", "--games", str(games), "--seed", "1"]
        figures = run([*command, "--quiet", "--jobs", "2"])
        record(args.out, {"kind": "memory", "games": games, "load": os.getloadavg(), **figures})
    for game in args.games:
        for policy in args.policies:
            each = seconds_per_game(game, policy, budget=min(10.0, args.seconds / 6))
            games = max(20, round(2 * args.seconds / each))
            for label, flags in BACKENDS:
                command = ["simulate", game, "--policy", policy, "--games", str(games)]
                figures = run([*command, "--seed", "1", "--quiet", *flags])
                wall = float(str(figures["wall_seconds"]))
                record(
                    args.out,
                    {
                        "kind": "throughput",
                        "game": game,
                        "policy": policy,
                        "backend": label,
                        "games": games,
                        "calibrated_cpu_seconds_per_game": round(each, 5),
                        "games_per_second": round(games / wall, 2),
                        "load": os.getloadavg(),
                        **figures,
                    },
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
