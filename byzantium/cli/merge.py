"""``byzantium merge PART.json ...``: the summary of a simulation run in parts.

Each part is a file written by ``byzantium simulate ... --shard K/N --part FILE``
(or by ``--checkpoint`` at the end of a run). The parts must come from one
simulation (the same game, options, policies, games, seed and step limit) and
together hold every game once; the summary printed is then the one a single run
would have given. ``--part FILE`` saves the merged whole as a part again,
``--json``, ``--png`` and ``--quiet`` work as for ``simulate``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from byzantium.cli.simulate import report
from byzantium.core.errors import ByzantiumError
from byzantium.core.registry import game_class
from byzantium.core.simulate import merge_parts, read_part, write_atomically

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``merge`` command."""
    parser = commands.add_parser(
        "merge",
        help="merge the parts of a simulation run in shards into its summary",
        description=__doc__.split("\n")[0] if __doc__ else None,
    )
    parser.add_argument("parts", nargs="+", type=Path, metavar="PART", help="part files")
    parser.add_argument(
        "--json", metavar="FILE", help="also write the summary as JSON to FILE (- for stdout)"
    )
    parser.add_argument("--part", type=Path, metavar="FILE", help="save the merged whole as a part")
    parser.add_argument(
        "--png", type=Path, metavar="DIR", help="save the histograms as PNG files (matplotlib)"
    )
    parser.add_argument("--quiet", action="store_true", help="print only the essential result")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Read the parts, check they make one whole, and report its summary."""
    parts = [read_part(path) for path in args.parts]
    whole = merge_parts(parts, [str(path) for path in args.parts])
    if args.part is not None:
        write_atomically(args.part, json.dumps(whole.to_json(), ensure_ascii=False) + "\n")
    try:
        title = game_class(whole.plan.game).TITLE
    except ByzantiumError:
        title = whole.plan.game
    return report(whole.summary(), args, out, title=title)
