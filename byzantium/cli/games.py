"""``byzantium games``: the games that can be played and the rule books indexed."""

from __future__ import annotations

import argparse
from typing import TextIO

from byzantium.core.registry import available_games
from byzantium.core.rules import registered_rulebooks

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("games", help="list games and rule books")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the games and the rule books."""
    del args
    out.write("games: " + (", ".join(available_games()) or "none") + "\n")
    books = registered_rulebooks()
    out.write("rule books: " + (", ".join(sorted(books)) or "none") + "\n")
    return 0
