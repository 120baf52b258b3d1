"""``byzantium explain STATE`` (or ``RECORD --step N``): who acts in a saved state, and
every way to go on.

The file is a saved position (``byzantium-state/1``, as ``byzantium verify --state``
writes it, see :mod:`byzantium.core.records`), which names its game, options and
component data; or a bare state (the JSON of ``Game.encode_state``), for which
``--game GAME`` and the ``--option``/``--scenario`` options say which game it is; or a
game record, checked as ``byzantium verify --partial`` checks it, explained at the
state after ``--step N`` of its steps (0 is the start; the last step by default).

The report shows the text view of the state (``Game.render``; ``byzantium render``
draws the picture), who is to act and under which rule, then every legal action,
numbered, with its JSON form (what a record or a frontend sends) and its
description. At a chance node it gives each outcome's exact
probability, as a fraction and as a decimal. At the end of a game it gives the
result.
"""

from __future__ import annotations

import argparse
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import (
    add_components_option,
    parse_option,
    print_result,
    read_json,
    shown,
)
from byzantium.cli.verify import checked_record
from byzantium.core.codec import JSONValue
from byzantium.core.errors import ByzantiumError, RecordError
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import state_from_json
from byzantium.core.registry import load_game

__all__ = ["register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser(
        "explain",
        help="the text view of a saved state (or a record at a step), who acts, and every "
        "legal action with its rule",
    )
    parser.add_argument("state", type=Path, metavar="STATE|RECORD")
    parser.add_argument(
        "--step",
        type=int,
        metavar="N",
        help="of a record: explain the state after its first N steps (default: all of them)",
    )
    parser.add_argument("--game", help="the game of a bare state (a saved position names it)")
    parser.add_argument("--option", type=parse_option, action="append", default=[], metavar="K=V")
    parser.add_argument("--scenario", help="the game's scenario option, for a bare state")
    parser.add_argument(
        "--player", type=int, help="show the state as this player sees it (default: everything)"
    )
    add_components_option(parser)
    parser.set_defaults(run=run)


def _load(args: argparse.Namespace) -> tuple[Game[object, object], object]:
    data = read_json(args.state)
    if _is_record(data):
        return _at_step(args, data)
    if args.step is not None:
        raise RecordError(f"{shown(args.state, 120)} is not a game record: --step is for records")
    game: Game[object, object] | None = None
    if args.game is not None:
        options: dict[str, object] = dict(args.option)
        if args.scenario is not None:
            options["scenario"] = parse_option(f"scenario={args.scenario}")[1]
        if args.components is not None:
            options["components"] = args.components
        game = load_game(args.game, **options)
    return state_from_json(data, game, components_dir=args.components)


def _is_record(data: JSONValue) -> bool:
    return (
        isinstance(data, dict)
        and data.get("format", "") != "byzantium-state/1"
        and isinstance(data.get("steps"), list)
    )


def _at_step(args: argparse.Namespace, data: JSONValue) -> tuple[Game[object, object], object]:
    """The state of a record after ``--step`` steps, the record checked as verify does."""
    if args.game is not None or args.option or args.scenario is not None:
        raise RecordError("a record names its game and options: drop --game, --option, --scenario")
    game, record = checked_record(data, args.components, shown(args.state, 120))
    count = len(record) if args.step is None else args.step
    if not 0 <= count <= len(record):
        raise RecordError(
            f"{shown(args.state, 120)} has {len(record)} steps: --step takes 0 to "
            f"{len(record)}, not {args.step}"
        )
    state = game.initial_state()
    for action in record.actions[:count]:
        state = game.apply(state, action)
    return game, state


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the explanation; bad input raises (one line, exit status 2)."""
    game, state = _load(args)
    try:
        lines = _explain(game, state, args.player)
    except ByzantiumError:
        raise
    except Exception as exc:  # an edited state the rules cannot work with
        problem = f"{type(exc).__name__}: {exc}"[:200]
        raise RecordError(
            f"{shown(args.state, 120)}: the rules cannot work with this state ({problem})"
        ) from exc
    out.write("\n".join(lines) + "\n")
    return 0


def _explain(game: Game[object, object], state: object, player: int | None) -> list[str]:
    if player is not None and not 0 <= player < game.NUM_PLAYERS:
        raise RecordError(f"{game.ID} has players 0 to {game.NUM_PLAYERS - 1}, not {player}")
    options = ", ".join(f"{k}={v}" for k, v in game.options.items())
    lines = [f"{game.TITLE} ({options}), state {game.state_digest(state)}"]
    lines += [f"  {line}" for line in game.render(state, player).splitlines()]
    if game.is_terminal(state):
        lines.append("The game is over.")
        buffer = io.StringIO()
        print_result(game, state, buffer)
        return lines + buffer.getvalue().splitlines()
    actor = game.current_player(state)
    rule = game.decision_rule(state)
    if actor == CHANCE:
        outcomes = game.chance_outcomes(state)
        lines.append(f"Chance decides, rule {rule}: {len(outcomes)} outcomes")
        total = sum((p for _, p in outcomes), Fraction(0))
        for number, (action, p) in enumerate(outcomes, 1):
            lines.append(
                f"{number:>4}. {p} = {float(p):.6f}  {_json(game, action)}  "
                f"{game.describe_action(state, action)}"
            )
        lines.append(f"      total {total}")
        return lines
    actions = game.legal_actions(state)
    who = game.player_name(actor)
    if who != f"player {actor}":
        who += f" (player {actor})"
    lines.append(f"{who} to act, rule {rule}: {len(actions)} legal actions")
    for number, action in enumerate(actions, 1):
        lines.append(
            f"{number:>4}. [{rule}] {_json(game, action)}  {game.describe_action(state, action)}"
        )
    return lines


def _json(game: Game[object, object], action: object) -> str:
    return json.dumps(game.encode_action(action), ensure_ascii=False)
