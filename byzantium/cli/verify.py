"""``byzantium verify RECORD``: check a game record made elsewhere.

The record (``byzantium-record/1``, documented in :mod:`byzantium.core.records`) may
come from another program or be the transcription of a table-top game. Every step is
re-applied: the recorded actor must be the one to act, the action must be legal (a
chance outcome possible), and recorded state digests must match. The report is
either ``valid`` with the result of the game, or the first step that does not check
out: its number (counted from 1, as a chronicle counts, with its index in the
record's ``steps``), the rule it breaks, why, and a short view of the state at that
point; ``--state FILE`` also saves that state (``byzantium-state/1``) for
``byzantium explain``.

A record must reach the end of the game unless ``--partial`` is given. ``--game``
names the game the record must be of.

Exit status: 0 valid, 1 invalid (a step breaks a rule, a digest differs, the record
is of another game or component data, or stops before the end), 2 unreadable (no
such file, not JSON, not a record, an unknown game or option).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

import attrs

from byzantium.cli.common import add_components_option, print_result, read_json, shown
from byzantium.core.codec import DecodeError, JSONValue
from byzantium.core.errors import RecordError
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.core.records import (
    GameRecord,
    RecordCheck,
    check_record,
    record_from_json,
    state_to_json,
)
from byzantium.core.registry import game_class

__all__ = ["checked_record", "register", "run"]

VALID, INVALID = 0, 1


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser(
        "verify", help="check a game record: valid, or the first step that breaks a rule"
    )
    parser.add_argument("record", type=Path)
    parser.add_argument("--game", help="the game the record must be of")
    parser.add_argument(
        "--state", type=Path, metavar="FILE", help="save the state where the record goes wrong"
    )
    parser.add_argument(
        "--partial", action="store_true", help="accept a record that stops before the end"
    )
    add_components_option(parser)
    parser.set_defaults(run=run)


@attrs.frozen
class _Finding:
    """The first thing in a record that does not check out."""

    step: int | None  # index in the record's steps; None for the final digest
    total: int  # steps in the record file
    rule: str
    reason: str
    state: object
    after: bool = False  # ``state`` is the state the step produced


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Check the record and report; see the module documentation for the exit status."""
    if args.game is not None:
        game_class(args.game)  # an unknown game is unreadable input, not an invalid record
    data = read_json(args.record)
    name = data.get("game") if isinstance(data, dict) else None
    path = shown(args.record, 120)
    if args.game is not None and isinstance(name, str) and name != args.game:
        out.write(f"{path}: invalid: the record is of {shown(repr(name))}, not {args.game!r}\n")
        return INVALID
    game, record, unreadable = _read(data, args.components)
    assert isinstance(data, dict) and isinstance(data["steps"], list)
    total = len(data["steps"])
    changed = [
        f"{spec.name}={game.options[spec.name]}"
        for spec in game.OPTIONS
        if game.options[spec.name] != spec.default
    ]
    who = f"{path}: {game.ID}" + (f" ({shown(', '.join(changed))})" if changed else "")
    try:
        check = check_record(game, record)
    except RecordError as exc:  # another game's component data, for one
        out.write(f"{who}: invalid: {exc}\n")
        return INVALID
    finding: _Finding | None = None
    if check.error is not None:
        finding = _finding(game, record, check, total)
    elif unreadable is not None:
        # Every step before the malformed one checks out: that one is the first bad step.
        step, problem = unreadable
        finding = _Finding(step, total, "", f"malformed action: {problem}", check.state)
    elif not game.is_terminal(check.state) and not args.partial:
        actor = _actor_name(game, game.current_player(check.state))
        reason = (
            f"the record stops after {len(record)} steps, before the end of the game "
            f"({actor} to act; --partial accepts it)"
        )
        finding = _Finding(len(record), total, "", reason, check.state)
    if finding is not None:
        _report(out, game, who, finding)
        _save(args, out, game, finding.state)
        return INVALID
    out.write(f"{who}: valid: {len(record)} steps")
    out.write(", digests checked.\n" if record.digests or record.final else ".\n")
    print_result(game, check.state, out)
    _save(args, out, game, check.state)
    return VALID


def checked_record(
    data: JSONValue, components: str | None, what: str = "the record"
) -> tuple[Game[object, object], GameRecord[object]]:
    """The game and record of JSON ``data`` that checks out as ``verify --partial``
    checks it (the header, component digest, every actor, action and state digest,
    the final digest), for the commands that draw a record (``view``, ``render``):
    otherwise one line saying where it goes wrong (:class:`RecordError`)."""
    game, record, unreadable = _read(data, components)
    assert isinstance(data, dict) and isinstance(data["steps"], list)
    try:
        check = check_record(game, record)
    except RecordError as exc:
        raise RecordError(f"{what} does not check out: {exc}") from None
    if check.error is not None:
        finding = _finding(game, record, check, len(data["steps"]))
    elif unreadable is not None:
        step, problem = unreadable
        total = len(data["steps"])
        finding = _Finding(step, total, "", f"malformed action: {problem}", check.state)
    else:
        return game, record
    where = "at the end" if finding.step is None else f"at step {finding.step + 1}"
    ruled = f", rule {finding.rule}" if finding.rule else ""
    reason = finding.reason.split("\n", 1)[0]
    raise RecordError(
        f"{what} does not check out {where}{ruled}: {reason} (byzantium verify says more)"
    )


def _finding(
    game: Game[object, object], record: GameRecord[object], check: RecordCheck[object], total: int
) -> _Finding:
    assert check.error is not None
    step = check.error.step
    if check.illegal is not None:
        rule, reason = check.illegal.rule, check.illegal.reason
    else:
        rule, reason = "", str(check.error).removeprefix(f"step {step}: ")
        if step is not None and not check.after:  # the wrong actor: the sequence of play
            rule = game.decision_rule(check.state)
    if step is not None:
        action = json.dumps(game.encode_action(record.actions[step]), ensure_ascii=False)
        reason += f"\n  recorded: {_actor_name(game, record.actors[step])} {action}"
        if check.after and record.digests:
            replayed = game.state_digest(check.state)
            reason += f"\n  state digest: recorded {record.digests[step]}, replayed {replayed}"
    elif check.after and record.final:
        replayed = game.state_digest(check.state)
        reason += f"\n  state digest: recorded {record.final}, replayed {replayed}"
    return _Finding(step, total, rule, reason, check.state, check.after)


def _read(
    data: JSONValue, components: str | None
) -> tuple[Game[object, object], GameRecord[object], tuple[int, str] | None]:
    """The game and record; a step whose action cannot be read ends the record there."""
    try:
        game, record = record_from_json(data, components_dir=components)
        return game, record, None
    except RecordError as exc:
        if exc.step is None or not isinstance(exc.__cause__, DecodeError):
            raise
        assert isinstance(data, dict) and isinstance(data["steps"], list)
        problem = str(exc.__cause__)
        step = exc.step
    head = {**data, "steps": data["steps"][:step], "final": ""}
    game, record = record_from_json(head, components_dir=components)
    return game, record, (step, problem)


def _actor_name(game: Game[object, object], actor: int) -> str:
    if actor == CHANCE:
        return "chance"
    if actor == TERMINAL:
        return "nobody (the game is over)"
    return game.player_name(actor)


def _report(out: TextIO, game: Game[object, object], who: str, finding: _Finding) -> None:
    """Where the record goes wrong, why, and the state at that point."""
    step, total = finding.step, finding.total
    if step is None:
        at, label = "at the end", "final state"
    elif step >= total:
        at, label = f"after step {step}", "last state"
    else:
        at = f"at step {step + 1} (steps[{step}])"
        label = f"state {'after' if finding.after else 'before'} step {step + 1}"
    ruled = f", rule {finding.rule}" if finding.rule else ""
    out.write(f"{who}: invalid {at}{ruled}\n  {finding.reason}\n{label}:\n")
    for line in game.render(finding.state).splitlines():
        out.write(f"  {line}\n")


def _save(args: argparse.Namespace, out: TextIO, game: Game[object, object], state: object) -> None:
    if args.state is not None:
        text = json.dumps(state_to_json(game, state), indent=1, ensure_ascii=False)
        args.state.write_text(text + "\n", encoding="utf-8")
        out.write(f"State written to {args.state}\n")
