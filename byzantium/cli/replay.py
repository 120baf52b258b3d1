"""``byzantium replay RECORD``: re-check a saved game record step by step.

The verdict is ``byzantium verify``'s: a record replays only if every step checks
out and, unless ``--partial`` is given, it reaches the end of the game. Exit status
0 when it replays; otherwise one line says why, with exit status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_components_option, print_result, read_json, shown
from byzantium.core.errors import RecordError
from byzantium.core.records import record_from_json, replay

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("replay", help="re-check a game record")
    parser.add_argument("record", type=Path)
    parser.add_argument(
        "--partial", action="store_true", help="accept a record that stops before the end"
    )
    add_components_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Replay the record; say where it stops checking out, if it does."""
    path = shown(args.record, 120)
    game, record = record_from_json(read_json(args.record), components_dir=args.components)
    state = replay(game, record)
    if not game.is_terminal(state) and not args.partial:
        raise RecordError(
            f"{path}: the record stops after {len(record)} steps, before the end of the game "
            "(--partial accepts it)"
        )
    out.write(f"{path}: {len(record)} steps of {game.ID} replay exactly.\n")
    print_result(game, state, out)
    return 0
