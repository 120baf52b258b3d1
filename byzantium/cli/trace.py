"""``byzantium trace [GAME]``: the rule -> code -> tests matrix; exits 1 while a rule
is pending or inconsistent.

The tests are read from ``--tests DIR`` or, by default, from the ``tests/`` folder
beside the installed ``byzantium`` package (a checkout or an editable install), so
the answer does not depend on the current directory. An installed package has no
tests: the command then says so and checks the rules against their code only.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

import byzantium
from byzantium.core.errors import ByzantiumError
from byzantium.core.rules import get_rulebook, registered_rulebooks
from byzantium.core.trace import TestRef, check, format_report, scan_tests

__all__ = ["project_tests", "register", "run"]

#: A file that only this project's test folder has: a folder named ``tests`` beside
#: the package that lacks it belongs to something else.
TESTS_MARKER = "test_traceability.py"


def project_tests() -> Path | None:
    """The project's ``tests/`` folder beside the ``byzantium`` package, if installed."""
    folder = Path(byzantium.__file__).resolve().parent.parent / "tests"
    return folder if (folder / TESTS_MARKER).is_file() else None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser(
        "trace",
        help="rule -> code -> tests matrix",
        description="The rule -> code -> tests matrix of one or every rule book; "
        "exits 1 while a rule is pending or inconsistent.",
    )
    parser.add_argument("game", nargs="?")
    parser.add_argument(
        "--tests",
        type=Path,
        default=None,
        metavar="DIR",
        help="test directory to scan (default: the project's tests/ beside the package)",
    )
    parser.add_argument("--summary", action="store_true", help="print only problems and counts")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the matrix of one or every rule book."""
    books = [get_rulebook(args.game)] if args.game else list(registered_rulebooks().values())
    folder: Path | None = args.tests
    tests: list[TestRef] | None
    if folder is not None:
        if not folder.is_dir():
            raise ByzantiumError(f"no test directory {folder}")
        tests = scan_tests(folder)
    else:
        folder = project_tests()
        tests = scan_tests(folder) if folder is not None else None
    if tests is None:
        out.write(
            "note: the tests are not installed (they ship with the source, not the "
            "package): checking rules against their code only; pass --tests DIR "
            "(a checkout's tests/) to check the tests too\n"
        )
    status = 0
    for book in books:
        report = check(book, tests)
        out.write(format_report(report, verbose=not args.summary) + "\n")
        if not report.complete:
            status = 1
    if not books:
        out.write("no rule books are registered\n")
    return status
