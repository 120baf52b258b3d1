"""``byzantium view RECORD.json [--seat P] -o game.html``: a record viewer in one HTML file.

Without ``--seat`` the page shows everything, every player's secrets included (it says
so at its top); with ``--seat P`` it holds only what player P may know.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_components_option, read_json
from byzantium.core.records import record_from_json
from byzantium.render.viewer import view_html

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("view", help="one self-contained HTML file to step through a game")
    parser.add_argument("record", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument(
        "--docs-url",
        default="docs/",
        help="base of the built docs the rule links point into (default: docs/ beside the file)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        metavar="P",
        help="a page that holds only what player P may know (default: everything, "
        "every player's secrets included: not for a player during a game)",
    )
    add_components_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the viewer."""
    game, record = record_from_json(read_json(args.record), components_dir=args.components)
    docs = args.docs_url if args.docs_url.endswith("/") else args.docs_url + "/"
    page = view_html(game, record, docs_url=docs, seat=args.seat)
    args.output.write_text(page, encoding="utf-8")
    out.write(f"Viewer of {len(record)} steps written to {args.output} ({len(page) // 1024} KiB)\n")
    return 0
