"""What the commands of the command line share: option parsing, loading a game,
policies, the chronicle printer and the result printer."""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from byzantium.core import files
from byzantium.core.codec import MAX_JSON_TEXT, JSONValue, loads_json
from byzantium.core.drivers import Policy, StepHook, first_action_policy, random_policy
from byzantium.core.errors import UnknownOptionError
from byzantium.core.files import read_bytes
from byzantium.core.game import CHANCE, Game, OptionValue, Step
from byzantium.core.registry import load_game

__all__ = [
    "MAX_FILE",
    "MAX_LINE",
    "POLICIES",
    "SafeOutput",
    "add_components_option",
    "add_game_options",
    "chronicle_hook",
    "game_from_args",
    "parse_option",
    "policy_named",
    "print_result",
    "provisional_note",
    "read_json",
    "read_text",
    "shown",
]

#: Policies every game offers, beside its own (``Game.policies``).
POLICIES: dict[str, Policy[object, object]] = {
    "random": random_policy,
    "first": first_action_policy,
}


#: Control characters (but newline and tab), DEL, C1 controls and lone surrogates: what
#: must never reach a terminal raw.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: The same and newlines and tabs, for text shown on one line.
_UNSAFE_INLINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: The longest line the command line prints; longer ones are cut.
MAX_LINE = 2_000


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: object, limit: int = 300) -> str:
    r"""User text made safe to print on one line: control characters and lone
    surrogates escaped, and cut after ``limit`` characters.

    >>> shown("ok\x1b[2J\nvalid")
    'ok\\x1b[2J\\x0avalid'
    >>> shown("x" * 400, limit=5)
    'xxxxx... (400 characters)'
    """
    raw = str(text)
    cut = raw if len(raw) <= limit else raw[:limit]
    safe = _UNSAFE_INLINE.sub(_escaped, cut)
    return safe if cut is raw else f"{safe}... ({len(raw)} characters)"


class SafeOutput(io.TextIOBase):
    """A text stream that escapes control characters and lone surrogates (but
    newlines and tabs) and cuts lines longer than :data:`MAX_LINE`, so that nothing
    a record or a position holds can drive the terminal or flood it."""

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target
        self._column = 0
        self._cut = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        pieces = _UNSAFE.sub(_escaped, text).split("\n")
        parts: list[str] = []
        for i, piece in enumerate(pieces):
            if i:
                parts.append("\n")
                self._column, self._cut = 0, False
            room = MAX_LINE - self._column
            if len(piece) > room:
                if not self._cut:
                    parts.append(piece[: max(room, 0)] + " [line cut]")
                    self._cut = True
            else:
                parts.append(piece)
            self._column += len(piece)
        self.target.write("".join(parts))
        return len(text)

    def write_styled(self, text: str, sgr: str) -> None:
        """Write ``text`` (escaped and cut like any other) between the colour codes
        ``ESC [ sgr m`` and ``ESC [ 0 m``, which alone pass as they are; ``sgr`` is
        digits and semicolons (see :data:`byzantium.cli.terminal.STYLES`)."""
        if not sgr or not all(c in "0123456789;" for c in sgr) or "\n" in text:
            self.write(text)
            return
        self.target.write(f"\x1b[{sgr}m")
        self.write(text)
        self.target.write("\x1b[0m")

    def flush(self) -> None:
        self.target.flush()


#: The largest file the command line reads as a record, a saved game or a position
#: (bytes; UTF-8 takes up to four bytes a character).
MAX_FILE = 4 * MAX_JSON_TEXT


def read_json(path: Path) -> JSONValue:
    """The JSON value of a file, read by :func:`~byzantium.core.files.read_bytes` (a
    regular file of at most :data:`MAX_FILE` bytes) and parsed within the limits of
    :func:`~byzantium.core.codec.loads_json`; every refusal is one line naming the file."""
    blob = read_bytes(path, MAX_FILE, kind="record or position")
    return loads_json(blob, shown(path, 120))


def read_text(path: Path) -> str:
    """The UTF-8 text of a file, read as :func:`read_json` reads one."""
    return files.read_text(path, MAX_FILE, kind="record or position")


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


def add_components_option(parser: argparse.ArgumentParser) -> None:
    """``--components DIR``: the user's own component files, for a record or position
    made with them (a file's own ``components`` option is never used)."""
    parser.add_argument(
        "--components",
        metavar="DIR",
        help="your own component pack (a directory, or an installed pack's name), if the"
        " record or position used one",
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The ``GAME`` argument and the ``--option K=V`` / ``--scenario`` options."""
    parser.add_argument("game")
    parser.add_argument("--option", type=parse_option, action="append", default=[], metavar="K=V")
    parser.add_argument(
        "--scenario", help="the game's scenario option (same as --option scenario=...)"
    )


def game_from_args(args: argparse.Namespace) -> Game[object, object]:
    """The game named on the command line, with its options."""
    options: dict[str, object] = dict(args.option)
    scenario = getattr(args, "scenario", None)
    if scenario is not None:
        options["scenario"] = parse_option(f"scenario={scenario}")[1]
    name: str = args.game
    return load_game(name, **options)


def policy_named(game: Game[object, object], name: str) -> Policy[object, object]:
    """A policy by name: ``random``, ``first`` or one of the game's own."""
    policies: Mapping[str, Policy[object, object]] = {**POLICIES, **game.policies()}
    if name not in policies:
        known = ", ".join(sorted(policies))
        raise UnknownOptionError(f"{game.ID} has no policy {name!r}; policies: {known}")
    return policies[name]


def chronicle_hook(
    game: Game[object, object], out: TextIO, verbose: bool = False
) -> StepHook[object, object]:
    """A step hook that prints each action, with headings and events, as a chronicle.

    Routine steps the game names (:meth:`~byzantium.core.game.Game.chronicle_detail`,
    such as set-up placements) are summed up by the game's digest unless ``verbose``."""
    counter = [0]
    heading = [""]
    folded = [False]

    def hook(before: object, actor: int, action: object, step: Step[object]) -> None:
        counter[0] += 1
        title = game.chronicle_heading(before)
        key = title.split("\n", 1)[0]
        if key and key != heading[0]:
            heading[0] = key
            out.write(f"\n{title}\n")
        if not verbose and game.chronicle_detail(before):
            folded[0] = True
            return
        if folded[0]:
            folded[0] = False
            digest = game.chronicle_digest(before)
            if digest:
                out.write(f"{digest}\n")
        who = "chance" if actor == CHANCE else game.player_name(actor)
        out.write(f"{counter[0]:>5}  {who}: {game.describe_step(before, action)}\n")
        for event in step.events:
            text = game.event_text(event)
            if text is not None:
                out.write(f"       {text}\n")

    return hook


def print_result(game: Game[object, object], state: object, out: TextIO) -> None:
    """How a game ended, with its scores and their breakdown."""
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


def provisional_note(game: Game[object, object], out: TextIO) -> None:
    """One line saying how many component values are provisional, if any."""
    provisional = [d for d in game.data_provenance() if d.provenance == "provisional"]
    if provisional:
        out.write(
            f"note: {len(provisional)} component values are provisional "
            f"(byzantium data {game.ID} --provenance provisional)\n"
        )
