"""``byzantium trace [GAME]``: the rule -> code -> tests matrix; exits 1 while a rule
is pending or inconsistent."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from byzantium.core.rules import get_rulebook, registered_rulebooks
from byzantium.core.trace import check, format_report, scan_tests

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("trace", help="rule -> code -> tests matrix")
    parser.add_argument("game", nargs="?")
    parser.add_argument("--tests", type=Path, default=Path("tests"), help="test directory to scan")
    parser.add_argument("--summary", action="store_true", help="print only problems and counts")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the matrix of one or every rule book."""
    books = [get_rulebook(args.game)] if args.game else list(registered_rulebooks().values())
    tests = scan_tests(args.tests) if args.tests.is_dir() else []
    if not args.tests.is_dir():
        out.write(f"note: no test directory {args.tests}; every test count is 0\n")
    status = 0
    for book in books:
        report = check(book, tests)
        out.write(format_report(report, verbose=not args.summary) + "\n")
        if not report.complete:
            status = 1
    if not books:
        out.write("no rule books are registered\n")
    return status
