"""Random playouts through the OpenSpiel adapter, as a ratio to the library's own.

``python -m benchmarks.openspiel_adapter [--seconds S] [--rounds R]`` plays the
benchmark report's loop (:func:`benchmarks.harness.time_playouts`) on each of our
games twice in the same run, once directly (the fast path of search,
:meth:`~byzantium.core.game.Game.apply_unchecked`) and once through
:mod:`byzantium.openspiel` as ``pyspiel`` plays it, beside backgammon, and prints
the adapter's rate as a share of the library's own (issue 41 asks for at least
:data:`ADAPTER_TARGET`). It measures and prints; it never fails on a figure.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from benchmarks.harness import ANCHOR, SomeSubject, byzantium_subject, open_spiel_subject
from benchmarks.harness import time_playouts as _time_playouts
from byzantium.core.registry import load_game

__all__ = ["ADAPTER_TARGET", "GAMES", "main"]

#: Issue 41's target: playouts through the adapter at this share of the library's own.
ADAPTER_TARGET = 0.8

#: The games measured: (our id, options, the adapter's game string), as in the report.
GAMES: tuple[tuple[str, dict[str, object], str], ...] = (
    ("sword-of-orthodoxy", {}, "byzantium_sword_of_orthodoxy"),
    (
        "belisarius",
        {"scenario": 1, "capitulation": False},
        "byzantium_belisarius(scenario=1,capitulation=False)",
    ),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print; 0 always (1 without open_spiel, which is needed here)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.openspiel_adapter")
    parser.add_argument("--seconds", type=float, default=24.0)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    try:
        importlib.import_module("byzantium.openspiel").register_games()
    except ModuleNotFoundError:
        print("open_spiel is not installed: nothing to measure", file=sys.stderr)
        return 1
    subjects: list[SomeSubject] = []
    anchor = open_spiel_subject(ANCHOR)
    if anchor is not None:
        subjects.append(anchor)
    for game_id, options, spiel_name in GAMES:
        subjects.append(byzantium_subject(game_id, load_game(game_id, **options)))
        through = open_spiel_subject(spiel_name)
        if through is not None:
            subjects.append(through)
    rates = _time_playouts(subjects, args.seconds, args.rounds)
    base = rates[ANCHOR].transitions_per_second if ANCHOR in rates else None
    for game_id, _, spiel_name in GAMES:
        own = rates[game_id].transitions_per_second
        adapter = rates[spiel_name].transitions_per_second
        versus = (
            "" if base is None else f" (×{own / base:.3f} and ×{adapter / base:.3f} of {ANCHOR})"
        )
        share = adapter / own
        mark = "met" if share >= ADAPTER_TARGET else "not met"
        print(
            f"{game_id}: own {own:,.0f}/s, through the adapter {adapter:,.0f}/s{versus}; "
            f"share {share:.2f} (target {ADAPTER_TARGET}: {mark})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
