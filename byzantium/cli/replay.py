"""``byzantium replay RECORD``: re-check a saved game record step by step."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import print_result
from byzantium.core.records import loads_record, replay

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("replay", help="re-check a game record")
    parser.add_argument("record", type=Path)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Replay the record; any difference raises an error naming the step."""
    game, record = loads_record(args.record.read_text(encoding="utf-8"))
    state = replay(game, record)
    out.write(f"{args.record}: {len(record)} steps of {game.ID} replay exactly.\n")
    print_result(game, state, out)
    return 0
