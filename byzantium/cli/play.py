"""``byzantium play GAME``: play a whole game with built-in policies, print its chronicle.

With ``--interactive`` a person takes seats (``--seat N``, every seat by default) and
plays them in the terminal (see :mod:`byzantium.cli.interactive`); the policy plays
the others (the game's own ``sensible`` player unless ``--policy`` says otherwise), and
``--dice manual`` lets the person type every roll and draw. ``--resume RECORD.json``
(or ``byzantium resume RECORD.json``) goes on with a saved game, interactively.
Without ``--interactive`` the policy (``random`` by default) plays every seat, or
the seats ``--policy 0=expert,1=sensible`` names, or seat 0 with ``--opponent``
playing the others: any game of ``byzantium simulate`` plays again from its seed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import (
    add_game_options,
    chronicle_hook,
    game_from_args,
    policy_named,
    provisional_note,
    read_text,
)
from byzantium.cli.interactive import run_interactive
from byzantium.cli.terminal import COLOR_CHOICES, colour_wanted
from byzantium.core.drivers import play
from byzantium.core.errors import RecordError, UnknownOptionError
from byzantium.core.game import Event, Game, Step
from byzantium.core.records import GameRecord, dumps_record, loads_record, replay
from byzantium.core.simulate import parse_seating

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("play", help="play a game and print its chronicle")
    add_game_options(parser)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--policy",
        help="random, first, or one of the game's own policies (default: random; with "
        "--interactive the game's sensible player, if it has one, plays the other seats)",
    )
    parser.add_argument(
        "--opponent",
        metavar="POLICY",
        help="without --interactive: the policy of the seats --policy leaves (--policy "
        "then plays seat 0, or the seats it names: --policy 0=expert,1=sensible)",
    )
    parser.add_argument("--record", type=Path, help="write the game record (JSON) here")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="print every step, set-up placements too (summed up by Region otherwise)",
    )
    parser.add_argument("--max-steps", type=int, default=1_000_000)
    parser.add_argument("--interactive", action="store_true", help="a person plays in the terminal")
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="with --interactive: a player the person takes (repeatable; default every seat)",
    )
    parser.add_argument(
        "--dice",
        choices=("auto", "manual"),
        default="auto",
        help="with --interactive: sample chance from the seed, or type every roll and draw",
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="RECORD",
        help="go on with the game saved in RECORD, interactively (game and options from it)",
    )
    _add_colour(parser)
    parser.set_defaults(run=run)
    resume = commands.add_parser("resume", help="go on with a saved game in the terminal")
    resume.add_argument("record", type=Path, help="the game record (JSON) to go on from")
    resume.add_argument("--seat", type=int, action="append", default=[], metavar="N")
    resume.add_argument("--policy", help="the policy of the seats the person does not take")
    resume.add_argument("--dice", choices=("auto", "manual"), default="auto")
    resume.add_argument("--record", dest="save", type=Path, help="write the record here at the end")
    resume.add_argument("--max-steps", type=int, default=1_000_000)
    _add_colour(resume)
    resume.set_defaults(run=run_resume)


def _add_colour(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="with --interactive: colour headings, status lines, questions and cautions "
        "(auto: on a terminal, unless NO_COLOR is set or TERM is dumb)",
    )


def _default_policy(game: Game[object, object], interactive: bool) -> str:
    """``random``, or the game's ``sensible`` player for the seats beside a person."""
    return "sensible" if interactive and "sensible" in game.policies() else "random"


def run_resume(args: argparse.Namespace, out: TextIO) -> int:
    """``byzantium resume RECORD``: the saved game goes on, interactively."""
    args.resume, args.record = args.record, args.save
    return _interactive_resumed(args, out)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the game, print the chronicle and the result, write the record if asked."""
    if args.max_steps < 1:
        raise UnknownOptionError(f"--max-steps must be at least 1, not {args.max_steps}")
    if args.opponent is not None and (args.interactive or args.resume is not None):
        raise UnknownOptionError("--opponent is for a game played without --interactive")
    if args.resume is not None:
        return _interactive_resumed(args, out)
    game = game_from_args(args)
    if args.interactive:
        return _interactive(game, args, out)
    name = args.policy or _default_policy(game, False)
    seating = parse_seating(game, name, args.opponent)
    if len(set(seating)) == 1:
        who = f"policy {seating[0]} for every seat"
    else:
        who = "policies " + ", ".join(
            f"{game.player_name(p)}={policy}" for p, policy in enumerate(seating)
        )
    policies = [policy_named(game, policy) for policy in seating]
    out.write(f"{game.TITLE}, seed {args.seed}, {who}; {game.describe_options()}\n")
    if not args.quiet:
        provisional_note(game, out)
    chronicle = None if args.quiet else chronicle_hook(game, out, args.verbose)
    moments: list[tuple[int, Event]] = []

    def hook(before: object, actor: int, action: object, step: Step[object]) -> None:
        if chronicle is not None:
            chronicle(before, actor, action, step)
        turn = game.turn_of(before)
        moments.extend((turn, event) for event in step.events if game.decisive(event))

    record = play(game, policies, seed=args.seed, max_steps=args.max_steps, on_step=hook)
    state = replay(game, record)
    # The number of steps tells a replayed game from another (simulate --per-game):
    # after the chronicle, or after the summary that --quiet prints alone.
    steps = f"{len(record)} steps.\n"
    if not args.quiet:
        out.write(f"\n{steps}")
    for line in game.chronicle_summary(state, moments):
        out.write(f"{line}\n")
    if args.quiet:
        out.write(steps)
    if args.record is not None:
        args.record.write_text(dumps_record(game, record, indent=1), encoding="utf-8")
        out.write(f"Record written to {args.record}\n")
    return 0


def _seats(game: Game[object, object], wanted: list[int]) -> frozenset[int]:
    seats = frozenset(wanted) if wanted else frozenset(range(game.NUM_PLAYERS))
    bad = sorted(s for s in seats if not 0 <= s < game.NUM_PLAYERS)
    if bad:
        raise UnknownOptionError(
            f"{game.ID} has seats 0 to {game.NUM_PLAYERS - 1}, not {', '.join(map(str, bad))}"
        )
    return seats


def _interactive_resumed(args: argparse.Namespace, out: TextIO) -> int:
    """A saved game goes on: its game, options and seed come from the record."""
    game, record = loads_record(read_text(args.resume))
    named = getattr(args, "game", None)
    if named is not None and named != game.ID:
        raise RecordError(f"{args.resume} is a record of {game.ID}, not {named}")
    if record.seed is None:
        raise RecordError("the record has no seed, so its dice cannot go on")
    args.seed = record.seed
    return _interactive(game, args, out, record)


def _interactive(
    game: Game[object, object],
    args: argparse.Namespace,
    out: TextIO,
    start: GameRecord[object] | None = None,
) -> int:
    """A person plays some seats; the input is ``args.input`` or standard input."""
    seats = _seats(game, args.seat)
    name = args.policy or _default_policy(game, True)
    policy = policy_named(game, name)
    inp: TextIO = getattr(args, "input", None) or sys.stdin
    provisional_note(game, out)
    session = run_interactive(
        game,
        seats=seats,
        policy=policy,
        manual_dice=args.dice == "manual",
        seed=args.seed,
        inp=inp,
        out=out,
        max_steps=args.max_steps,
        policy_name=name,
        start=start,
        record_path=args.record,
        colour=colour_wanted(args.color, out, os.environ),
    )
    if args.record is not None:
        args.record.write_text(dumps_record(game, session.record(), indent=1), encoding="utf-8")
        out.write(f"Record written to {args.record}\n")
    return 0
