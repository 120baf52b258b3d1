"""``byzantium simulate GAME --games N``: many games and a designer's summary of them.

The games are those of :func:`byzantium.core.simulate.simulate`: game ``i`` is
seeded from ``--seed`` and ``i`` alone, so ``--jobs`` (worker processes) never
changes the result. A progress bar goes to standard error when it is a terminal;
``--json FILE`` (``-`` for standard output) writes the summary as data and ``--png
DIR`` saves its histograms as pictures (needs ``byzantium[plot]``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_game_options, parse_option
from byzantium.core.game import OptionValue
from byzantium.core.registry import game_class
from byzantium.core.simulate import DEFAULT_MAX_STEPS, save_histograms_png, simulate

__all__ = ["progress_bar", "register", "run"]

#: Width of the progress bar, in characters.
PROGRESS_WIDTH = 30


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` command."""
    parser = commands.add_parser(
        "simulate",
        help="play many games (in parallel) and summarise them",
        description=__doc__.split("\n")[0] if __doc__ else None,
    )
    add_game_options(parser)
    parser.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)"
    )
    parser.add_argument(
        "--policy", default="random", help="random, first, or one of the game's own policies"
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help="count a game as unfinished after this many steps",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the summary as JSON to FILE (- for stdout)"
    )
    parser.add_argument(
        "--per-game", action="store_true", help="with --json: include every game's summary"
    )
    parser.add_argument(
        "--png", type=Path, metavar="DIR", help="save the histograms as PNG files (matplotlib)"
    )
    parser.set_defaults(run=run)


def progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback drawing a bar on ``stream`` (a terminal)."""

    def progress(done: int, total: int) -> None:
        filled = PROGRESS_WIDTH * done // total
        bar = "#" * filled + "." * (PROGRESS_WIDTH - filled)
        stream.write(f"\r[{bar}] {done}/{total}")
        if done == total:
            stream.write("\n")
        stream.flush()

    return progress


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the simulation and print (and save) its summary."""
    options: dict[str, OptionValue] = dict(args.option)
    if args.scenario is not None:
        options["scenario"] = parse_option(f"scenario={args.scenario}")[1]
    title = game_class(args.game).TITLE
    bar = None
    if sys.stderr.isatty():
        bar = progress_bar(sys.stderr)
    summary = simulate(
        args.game,
        options,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        policy=args.policy,
        max_steps=args.max_steps,
        progress=bar,
    )
    to_stdout = args.json == "-"
    data = json.dumps(summary.to_json(per_game=args.per_game), indent=1, ensure_ascii=False)
    if to_stdout:
        out.write(data + "\n")
    else:
        out.write("\n".join(summary.lines(title)) + "\n")
        if args.json is not None:
            Path(args.json).write_text(data + "\n", encoding="utf-8")
            out.write(f"JSON summary written to {args.json}\n")
    if args.png is not None:
        written = save_histograms_png(summary, args.png)
        message = f"{len(written)} PNG histograms written to {args.png}\n"
        (sys.stderr if to_stdout else out).write(message)
    return 0
