"""``byzantium schema GAME [--kind KIND]``: the JSON Schemas of a game's JSON.

Prints one JSON Schema (draft 2020-12) document: ``record`` (a game record, the
default), ``action``, ``state``, ``observation`` or ``state-file`` (a saved
position); see :mod:`byzantium.core.schema`. ``--out DIR`` writes all of them
instead, as ``DIR/GAME.KIND.schema.json``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_game_options, game_from_args
from byzantium.core.schema import KINDS, game_schemas

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("schema", help="print the JSON Schema of a game's records etc.")
    add_game_options(parser)
    parser.add_argument("--kind", choices=KINDS, default="record")
    parser.add_argument("--out", type=Path, metavar="DIR", help="write every schema into DIR")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the schema asked for, or write them all."""
    game = game_from_args(args)
    schemas = game_schemas(game)
    if args.out is None:
        out.write(json.dumps(schemas[args.kind], indent=1, ensure_ascii=False) + "\n")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for kind, schema in schemas.items():
        path = args.out / f"{game.ID}.{kind}.schema.json"
        path.write_text(json.dumps(schema, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        out.write(f"{path}\n")
    return 0
