"""Belisarius against backgammon in CPU time, interleaved game by game.

On a shared machine the wall-clock rounds of :mod:`benchmarks.report` swing with
other people's work. Here each seeded Belisarius random playout (through the loop of
:mod:`benchmarks.harness`) is followed by as many backgammon transitions, and both
sides are timed with ``time.process_time``, so that whatever load there is falls on
both alike and their ratio stays put. Run ``python -m benchmarks.interleaved
[GAMES]`` (default 5 games a scenario); it prints one line a scenario. Needs
``open_spiel``. Nothing here asserts anything about time.
"""

from __future__ import annotations

import random
import sys
import time

from benchmarks.harness import SomeSubject, byzantium_subject, open_spiel_subject, playout
from byzantium.core.registry import load_game

__all__ = ["interleaved_ratio"]


def interleaved_ratio(scenario: int, games: int, anchor: SomeSubject) -> tuple[float, float]:
    """(Belisarius transitions per CPU second, backgammon's) over ``games`` seeded
    random playouts of ``scenario`` without capitulation, seeds 0, 1..., each followed
    by backgammon games until the anchor has played as many transitions."""
    clock = time.process_time
    game = load_game("belisarius", scenario=scenario, capitulation=False)
    ours = byzantium_subject("belisarius", game)
    playout(ours, random.Random(99))  # the per-catalogue tables, built once
    steps = [0, 0]
    spent = [0.0, 0.0]
    anchor_seed = 0
    for seed in range(games):
        start = clock()
        steps[0] += playout(ours, random.Random(seed))
        spent[0] += clock() - start
        while steps[1] < steps[0]:
            start = clock()
            steps[1] += playout(anchor, random.Random(anchor_seed))
            spent[1] += clock() - start
            anchor_seed += 1
    return steps[0] / spent[0], steps[1] / spent[1]


def main(argv: list[str]) -> int:
    """Print the ratio for every scenario."""
    try:
        games = int(argv[0]) if argv else 5
    except ValueError:
        games = 0
    if games < 1 or len(argv) > 1:
        sys.stderr.write(
            "usage: python -m benchmarks.interleaved [GAMES], GAMES a positive number\n"
        )
        return 2
    anchor = open_spiel_subject("backgammon")
    if anchor is None:
        sys.stderr.write("open_spiel is not installed: nothing to compare with\n")
        return 1
    for scenario in (1, 2, 3):
        ours, theirs = interleaved_ratio(scenario, games, anchor)
        sys.stdout.write(
            f"belisarius scenario {scenario}: {ours:,.0f} transitions per CPU second, "
            f"backgammon {theirs:,.0f}, ratio {ours / theirs:.4f}\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
