"""Belisarius random playouts in every scenario, as same-run ratios to backgammon's.

``python -m benchmarks.belisarius_scenarios [--seconds S] [--rounds R]`` plays the
benchmark report's loop (:func:`benchmarks.harness.time_playouts`: seeded random
games, rounds interleaved between games, the best round counts) on OpenSpiel's
backgammon and on Belisarius scenarios 1, 2 and 3 with the report's options (no
capitulation offers, so that random games run to their last turn), and prints each
scenario's transitions per second and its ratio to backgammon's from the same run,
against issue 16's target (:data:`benchmarks.report.SEARCH_RATIO`). It measures and
prints; it never fails on a figure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from benchmarks.harness import ANCHOR, SomeSubject, byzantium_subject, open_spiel_subject
from benchmarks.harness import time_playouts as _time_playouts
from benchmarks.report import SEARCH_RATIO
from byzantium.core.registry import load_game

__all__ = ["SCENARIOS", "main", "measure_scenarios"]

#: The scenarios measured.
SCENARIOS = (1, 2, 3)


def measure_scenarios(seconds: float, rounds: int) -> tuple[float | None, dict[int, float]]:
    """Backgammon's transitions per second (None without open_spiel) and each
    scenario's, from one run of the report's loop."""
    subjects: list[SomeSubject] = []
    anchor = open_spiel_subject(ANCHOR)
    if anchor is not None:
        subjects.append(anchor)
    for scenario in SCENARIOS:
        game = load_game("belisarius", scenario=scenario, capitulation=False)
        subjects.append(byzantium_subject(f"belisarius scenario {scenario}", game))
    rates = _time_playouts(subjects, seconds, rounds)
    ours = {n: rates[f"belisarius scenario {n}"].transitions_per_second for n in SCENARIOS}
    return (rates[ANCHOR].transitions_per_second if anchor is not None else None), ours


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.belisarius_scenarios", description=__doc__
    )
    parser.add_argument(
        "--seconds", type=float, default=24.0, help="playout time per game (default 24)"
    )
    parser.add_argument("--rounds", type=int, default=6, help="rounds, best counts (default 6)")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        sys.stderr.write("error: --seconds must be positive and --rounds at least 1\n")
        return 2
    anchor, ours = measure_scenarios(args.seconds, args.rounds)
    if anchor is not None:
        sys.stdout.write(f"{ANCHOR}: {anchor:,.0f} transitions/s\n")
    for scenario, rate in ours.items():
        line = f"Belisarius scenario {scenario}: {rate:,.0f} transitions/s"
        if anchor is not None:
            ratio = rate / anchor
            met = "met" if ratio >= SEARCH_RATIO else "not met"
            line += f", {ratio:.3f} of {ANCHOR}'s (target {SEARCH_RATIO}: {met})"
        sys.stdout.write(line + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
