"""What the commands of the command line share: option parsing, loading a game,
policies, the chronicle printer and the result printer."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import TextIO

from byzantium.core.drivers import Policy, StepHook, first_action_policy, random_policy
from byzantium.core.errors import UnknownOptionError
from byzantium.core.game import CHANCE, Game, OptionValue, Step
from byzantium.core.registry import load_game

__all__ = [
    "POLICIES",
    "add_game_options",
    "chronicle_hook",
    "game_from_args",
    "parse_option",
    "policy_named",
    "print_result",
    "provisional_note",
]

#: Policies every game offers, beside its own (``Game.policies``).
POLICIES: dict[str, Policy[object, object]] = {
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
    return load_game(args.game, **options)


def policy_named(game: Game[object, object], name: str) -> Policy[object, object]:
    """A policy by name: ``random``, ``first`` or one of the game's own."""
    policies: Mapping[str, Policy[object, object]] = {**POLICIES, **game.policies()}
    if name not in policies:
        known = ", ".join(sorted(policies))
        raise UnknownOptionError(f"{game.ID} has no policy {name!r}; policies: {known}")
    return policies[name]


def chronicle_hook(game: Game[object, object], out: TextIO) -> StepHook[object, object]:
    """A step hook that prints each action, with headings and events, as a chronicle."""
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
