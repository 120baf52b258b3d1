"""``byzantium data GAME`` (also ``components GAME``): every component datum with its
source: a rule, a peer transcription, or provisional."""

from __future__ import annotations

import argparse
from typing import TextIO

from byzantium.cli.common import add_game_options, game_from_args

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command (and its alias ``components``) to the parser."""
    for name in ("data", "components"):
        parser = commands.add_parser(name, help="component data of a game, by provenance")
        add_game_options(parser)
        parser.add_argument(
            "--provenance",
            choices=["rulebook", "peer transcription", "provisional"],
            help="list only the data of this provenance",
        )
        parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the data (of one provenance), then the counts per provenance."""
    game = game_from_args(args)
    data = game.data_provenance()
    counts: dict[str, int] = {}
    for datum in data:
        counts[datum.provenance] = counts.get(datum.provenance, 0) + 1
        if args.provenance in (None, datum.provenance):
            ref = f" ({datum.reference})" if datum.reference else ""
            out.write(f"{datum.record}.{datum.field}: {datum.provenance}{ref}\n")
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "no data"
    out.write(f"{game.ID}: {len(data)} data: {summary}\n")
    return 0
