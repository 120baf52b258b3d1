"""The ``byzantium`` command line.

``byzantium games``
    the games that can be played and the rule books that are indexed;
``byzantium play GAME``
    play a whole game with built-in policies and print its chronicle (with
    ``--interactive``, a person takes seats in the terminal);
``byzantium resume RECORD``
    go on with a game saved during interactive play;
``byzantium simulate GAME --games N``
    many games, in parallel processes, and a designer's summary of them;
``byzantium merge PART ...``
    the summary of a simulation played in shards (``simulate --shard K/N --part``);
``byzantium verify RECORD``
    check a game record made elsewhere: valid, or the first step that breaks a rule;
``byzantium explain STATE`` (or ``RECORD --step N``)
    the text view of a saved state (or of a record at a step), who acts, every legal
    action with its rule, every chance outcome;
``byzantium schema GAME [--kind KIND] [--out DIR]``
    the JSON Schemas (draft 2020-12) of a game's records, actions, states,
    observations and saved positions;
``byzantium data GAME`` (or ``components GAME``) ``[--provenance KIND]``
    every component datum with its source (rule, peer transcription, provisional);
``byzantium replay RECORD``
    re-check a saved game record step by step;
``byzantium render FILE -o out.svg``
    a picture of a saved position or of a record at a step (see :mod:`byzantium.render`);
``byzantium view RECORD -o game.html``
    one self-contained HTML file to step through a recorded game;
``byzantium serve [--database PATH|URL] [--host H] [--port P]``
    the game server: play across machines over HTTP and WebSocket (the ``server``
    extra; see docs/server.rst);
``byzantium trace [GAME]``
    the rule -> code -> tests matrix; exits 1 while a rule is pending or inconsistent.

``byzantium --version`` prints the version. ``--import MODULE`` (before the command)
imports a module that registers extra games, for example the test-only game of the
test suite: ``byzantium --import tests.pig play pig``. Importing a module runs its
code, and the current directory is put first on the module path, so a file of that
name there is what runs: use it only with modules you trust, from a directory you
trust. Bad input (an unknown game, option or policy,
a bad option value, a missing, special or malformed file, a module that fails to
import) ends with one line on standard error and exit status 2; the usage text is
printed only by ``--help``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import re
import sys
import typing
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

import byzantium
from byzantium.cli import (
    data,
    explain,
    games,
    merge,
    play,
    render,
    replay,
    schema,
    serve,
    simulate,
    trace,
    verify,
    view,
)
from byzantium.cli.common import SafeOutput, parse_option, shown
from byzantium.cli.data import problem_line
from byzantium.core.errors import ByzantiumError
from byzantium.core.provenance import ComponentError

__all__ = ["COMMANDS", "ArgumentParser", "UsageError", "main", "parse_option"]


class UsageError(ByzantiumError):
    """A command line that the parser does not accept (an unknown option, a bad value)."""


class ArgumentParser(argparse.ArgumentParser):
    """A parser whose complaints are one line (:class:`UsageError`), not the usage text
    and an exit: the usage is for ``--help``."""

    def format_help(self) -> str:
        """The help text in plain words: no reStructuredText markup (``code``, roles)."""
        return _plain(super().format_help())

    def error(self, message: str) -> typing.NoReturn:
        command = self.prog.removeprefix("byzantium").strip()
        raise UsageError(f"{command}: {message}" if command else message)


#: The command modules, in the order ``--help`` lists them.
COMMANDS: tuple[ModuleType, ...] = (
    games,
    play,
    simulate,
    merge,
    verify,
    explain,
    schema,
    data,
    replay,
    render,
    view,
    serve,
    trace,
)


def _plain(text: str) -> str:
    """``x`` -> x and :role:`x` -> x (docstrings double as help texts)."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return text.replace("``", "")


class _VersionRequested(Exception):
    """``--version`` was given: :func:`main` prints the version to its output."""


class _VersionAction(argparse.Action):
    """``--version``: stops parsing (no command needed) without exiting the process."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, *args: object, **kwargs: object) -> typing.NoReturn:
        raise _VersionRequested


def _parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="byzantium",
        description="Play, check and explain games of Sword of Orthodoxy and Belisarius.",
    )
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module that registers extra games or rule books (this runs its "
        "code; the current directory comes first on the module path)",
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="print the version of byzantium and stop"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.register(commands)
    return parser


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status.

    ``out`` and ``inp`` replace standard output and input (for interactive play).
    """
    if out is None:
        if sys.stdout is None:  # started with standard output closed
            return _fail("standard output is closed")
        _tolerant(sys.stdout)
        _tolerant(sys.stderr)
    stream = SafeOutput(out if out is not None else sys.stdout)
    arguments = list(sys.argv[1:] if argv is None else argv)
    if any("\x00" in argument for argument in arguments):
        return _fail("an argument holds a NUL character")
    try:
        try:
            args = _parser().parse_args(arguments)
        except _VersionRequested:
            stream.write(f"byzantium {byzantium.__version__}\n")
            stream.flush()
            return 0
        args.input = inp
        if args.imports and os.getcwd() not in sys.path:
            # Like ``python -m``: modules named by --import may live in the current
            # directory (the test game lives in the repository's tests/).
            sys.path.insert(0, os.getcwd())
        for module in args.imports:
            _import(module)
        status: int = args.run(args, stream)
        stream.flush()
        return status
    except BrokenPipeError:
        # The reader went away (``byzantium games | head -0``): nothing more to say
        # there; stop writing to it.
        if out is None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return _fail("standard output was closed")
    except ComponentError as exc:
        # A component file's problem: with its line, as ``data --check`` gives it.
        try:
            return _fail(problem_line(exc))
        except (ByzantiumError, OSError):
            return _fail(str(exc))
    except (ByzantiumError, OSError, ImportError, json.JSONDecodeError) as exc:
        return _fail(str(exc))


def _fail(message: str) -> int:
    """One line on standard error (escaped and cut) and exit status 2."""
    with contextlib.suppress(OSError, AttributeError):  # no standard error either
        sys.stderr.write(f"byzantium: {shown(message, 500)}\n")
    return 2


def _tolerant(stream: TextIO | None) -> None:
    """Let a terminal that cannot show a character get an escape for it instead."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


def _import(module: str) -> None:
    if not module or not all(part.isidentifier() for part in module.split(".")):
        raise ImportError(f"--import takes a module name, not {shown(repr(module), 80)}")
    try:
        importlib.import_module(module)
    except Exception as exc:  # the module's own code failed, or it is not there
        reason = str(exc) if isinstance(exc, ImportError) else f"{type(exc).__name__}: {exc}"
        raise UsageError(f"--import {module} failed: {reason}") from None
