"""The ``byzantium`` command line.

``byzantium games``
    the games that can be played and the rule books that are indexed;
``byzantium play GAME``
    play a whole game with built-in policies and print its chronicle;
``byzantium data GAME [--provenance KIND]``
    every component datum with its source (rule, peer transcription, provisional);
``byzantium replay RECORD``
    re-check a saved game record step by step;
``byzantium trace [GAME]``
    the rule -> code -> tests matrix; exits 1 while a rule is pending or inconsistent.

``--import MODULE`` (before the command) imports a module that registers extra games,
for example the test-only game of the test suite: ``byzantium --import tests.pig play
pig``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from byzantium.core.drivers import Policy, StepHook, first_action_policy, play, random_policy
from byzantium.core.errors import ByzantiumError, UnknownOptionError
from byzantium.core.game import CHANCE, Game, OptionValue, Step
from byzantium.core.records import dumps_record, loads_record, replay
from byzantium.core.registry import available_games, load_game
from byzantium.core.rules import get_rulebook, registered_rulebooks
from byzantium.core.trace import check, format_report, scan_tests

__all__ = ["main", "parse_option"]

_POLICIES: dict[str, Policy[object, object]] = {
    "random": random_policy,
    "first": first_action_policy,
}


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``name=value`` with ``true``/``false`` as booleans and digits as integers.

    >>> parse_option("optional-events=true"), parse_option("turns=12"), parse_option("x=y")
    (('optional-events', True), ('turns', 12), ('x', 'y'))
    """
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"options are name=value, not {text!r}")
    value: OptionValue
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    elif raw.lstrip("-").isdigit():
        value = int(raw)
    else:
        value = raw
    return name, value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="byzantium", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--import",
        dest="imports",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module that registers extra games or rule books",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    commands.add_parser("games", help="list games and rule books")

    p = commands.add_parser("play", help="play a game and print its chronicle")
    p.add_argument("game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--option", type=parse_option, action="append", default=[], metavar="K=V")
    p.add_argument(
        "--policy", default="random", help="random, first, or one of the game's own policies"
    )
    p.add_argument("--record", type=Path, help="write the game record (JSON) here")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--max-steps", type=int, default=1_000_000)

    d = commands.add_parser("data", help="component data of a game, by provenance")
    d.add_argument("game")
    d.add_argument(
        "--provenance",
        choices=["rulebook", "peer transcription", "provisional"],
        help="list only the data of this provenance",
    )
    d.add_argument("--option", type=parse_option, action="append", default=[], metavar="K=V")

    r = commands.add_parser("replay", help="re-check a game record")
    r.add_argument("record", type=Path)

    t = commands.add_parser("trace", help="rule -> code -> tests matrix")
    t.add_argument("game", nargs="?")
    t.add_argument("--tests", type=Path, default=Path("tests"), help="test directory to scan")
    t.add_argument("--summary", action="store_true", help="print only problems and counts")
    return parser


def _chronicle_hook(game: Game[object, object], out: TextIO) -> StepHook[object, object]:
    counter = [0]
    heading = [""]

    def hook(before: object, actor: int, action: object, step: Step[object]) -> None:
        counter[0] += 1
        title = game.chronicle_heading(before)
        key = title.split("\n", 1)[0]
        if key and key != heading[0]:
            heading[0] = key
            out.write(f"\n{title}\n")
        who = "chance" if actor == CHANCE else game.player_name(actor)
        out.write(f"{counter[0]:>5}  {who}: {game.describe_action(before, action)}\n")
        for event in step.events:
            out.write(f"       {event}\n")

    return hook


def _print_result(game: Game[object, object], state: object, out: TextIO) -> None:
    if not game.is_terminal(state):
        out.write("The game did not reach its end.\n")
        return
    result = game.result(state)
    winners = ", ".join(game.player_name(w) for w in result.winners) or "nobody"
    out.write(f"Result [{result.rule}]: {result.level}; winner: {winners}. {result.reason}\n")
    if result.scores:
        out.write(f"Scores: {', '.join(str(s) for s in result.scores)}\n")
    if result.points:
        out.write(f"Points: {', '.join(str(p) for p in result.points)}\n")
    for label, points in result.breakdown:
        out.write(f"  {label}: {points}\n")


def _play(args: argparse.Namespace, out: TextIO) -> int:
    game = load_game(args.game, **dict(args.option))
    policies = {**_POLICIES, **game.policies()}
    if args.policy not in policies:
        known = ", ".join(sorted(policies))
        raise UnknownOptionError(f"{game.ID} has no policy {args.policy!r}; policies: {known}")
    out.write(f"{game.TITLE}, seed {args.seed}, options {dict(game.options)}\n")
    _provisional_note(game, out)
    hook = None if args.quiet else _chronicle_hook(game, out)
    record = play(
        game,
        policies[args.policy],
        seed=args.seed,
        max_steps=args.max_steps,
        on_step=hook,
    )
    state = replay(game, record)
    out.write(f"{len(record)} steps.\n")
    _print_result(game, state, out)
    if args.record is not None:
        args.record.write_text(dumps_record(game, record, indent=1), encoding="utf-8")
        out.write(f"Record written to {args.record}\n")
    return 0


def _provisional_note(game: Game[object, object], out: TextIO) -> None:
    provisional = [d for d in game.data_provenance() if d.provenance == "provisional"]
    if provisional:
        out.write(
            f"note: {len(provisional)} component values are provisional "
            f"(byzantium data {game.ID} --provenance provisional)\n"
        )


def _data(args: argparse.Namespace, out: TextIO) -> int:
    game = load_game(args.game, **dict(args.option))
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


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    game, record = loads_record(args.record.read_text(encoding="utf-8"))
    state = replay(game, record)
    out.write(f"{args.record}: {len(record)} steps of {game.ID} replay exactly.\n")
    _print_result(game, state, out)
    return 0


def _trace(args: argparse.Namespace, out: TextIO) -> int:
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


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    stream = out if out is not None else sys.stdout
    args = _parser().parse_args(argv)
    try:
        if args.imports and os.getcwd() not in sys.path:
            # Like ``python -m``: modules named by --import may live in the current
            # directory (the test game lives in the repository's tests/).
            sys.path.insert(0, os.getcwd())
        for module in args.imports:
            importlib.import_module(module)
        if args.command == "games":
            stream.write("games: " + (", ".join(available_games()) or "none") + "\n")
            books = registered_rulebooks()
            stream.write("rule books: " + (", ".join(sorted(books)) or "none") + "\n")
            return 0
        if args.command == "play":
            return _play(args, stream)
        if args.command == "data":
            return _data(args, stream)
        if args.command == "replay":
            return _replay(args, stream)
        return _trace(args, stream)
    except ByzantiumError as exc:
        sys.stderr.write(f"byzantium: {exc}\n")
        return 2
