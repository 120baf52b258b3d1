"""``byzantium view RECORD.json [--seat P] -o game.html``: a record viewer in one HTML file.

Without ``--seat`` the page shows everything, every player's secrets included (it says
so at its top); with ``--seat P`` it holds only what player P may know.

The record is checked first, as ``byzantium verify --partial`` checks it (a record
that stops before the end of the game may be viewed); one that does not check out
is refused with one line. ``--docs-url`` is the base of the rule links: an
``http://`` or ``https://`` address or a relative path, nothing else (a
``javascript:`` or ``data:`` address would run when a link is clicked).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_components_option, read_json, shown
from byzantium.cli.verify import checked_record
from byzantium.render.viewer import view_html

__all__ = ["docs_url", "register", "run"]

#: A scheme and the ``//`` of an address.
_WEB = re.compile(r"https?://[^/?#\\]", re.IGNORECASE)


def docs_url(text: str) -> str:
    """The ``--docs-url`` value if it is an ``http(s)://`` address or a relative path
    (with ``/`` added at its end); anything else is refused.

    >>> docs_url("https://example.org/byzantium"), docs_url("../docs")
    ('https://example.org/byzantium/', '../docs/')
    >>> docs_url("javascript:alert(1)//")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: an http:// or https:// address or a relative path, not ...
    """
    head = text.split("/", 1)[0]
    unsafe = any(c.isspace() or not c.isprintable() or c in "\\\"'<>`" for c in text)
    if (
        not text
        or unsafe
        or not (_WEB.match(text) or (":" not in head and not text.startswith("//")))
    ):
        raise argparse.ArgumentTypeError(
            f"an http:// or https:// address or a relative path, not {shown(repr(text), 100)}"
        )
    return text if text.endswith("/") else text + "/"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("view", help="one self-contained HTML file to step through a game")
    parser.add_argument("record", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument(
        "--docs-url",
        type=docs_url,
        help="base of the built docs for rule links: an http(s):// address or a relative "
        "path (default: no links; every rule shows its summary in the page)",
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
    game, record = checked_record(read_json(args.record), args.components)
    page = view_html(game, record, docs_url=args.docs_url, seat=args.seat)
    args.output.write_text(page, encoding="utf-8")
    out.write(f"Viewer of {len(record)} steps written to {args.output} ({len(page) // 1024} KiB)\n")
    return 0
