"""Game records: every action of a game, chance included, with a replay check.

A record names the game, its options and a digest of the component data, the seed
that was used, and each step: who acted, the action, and (optionally) a digest of the
state it produced. :func:`replay` re-applies the steps one by one, checking each, and
returns the identical final state; the first step that does not check out is named
in the :class:`~byzantium.core.errors.RecordError`.
"""

from __future__ import annotations

import json
from typing import Generic, TypeVar

import attrs

from byzantium.core.codec import DecodeError, JSONValue
from byzantium.core.errors import IllegalActionError, RecordError, UnknownOptionError
from byzantium.core.game import Game, OptionValue
from byzantium.core.registry import load_game

__all__ = [
    "RECORD_FORMAT",
    "GameRecord",
    "dumps_record",
    "loads_record",
    "record_from_json",
    "record_to_json",
    "replay",
]

S = TypeVar("S")
A = TypeVar("A")

#: Format tag written into every record.
RECORD_FORMAT = "byzantium-record/1"


@attrs.frozen
class GameRecord(Generic[A]):
    """Everything needed to reproduce a game exactly."""

    game: str
    options: tuple[tuple[str, OptionValue], ...]
    components: str
    seed: int | None
    actors: tuple[int, ...]
    actions: tuple[A, ...]
    #: Digest of the state after each step (empty when not recorded).
    digests: tuple[str, ...] = ()
    #: Digest of the final state ("" when not recorded).
    final: str = ""

    def __len__(self) -> int:
        return len(self.actions)


def record_to_json(game: Game[S, A], record: GameRecord[A]) -> dict[str, JSONValue]:
    """A record as a JSON object."""
    steps: list[JSONValue] = []
    for i, (actor, action) in enumerate(zip(record.actors, record.actions, strict=True)):
        step: dict[str, JSONValue] = {"actor": actor, "action": game.encode_action(action)}
        if record.digests:
            step["state"] = record.digests[i]
        steps.append(step)
    return {
        "format": RECORD_FORMAT,
        "game": record.game,
        "options": dict(record.options),
        "components": record.components,
        "seed": record.seed,
        "steps": steps,
        "final": record.final,
    }


def _field(data: dict[str, JSONValue], name: str, kind: type | tuple[type, ...]) -> JSONValue:
    value = data.get(name)
    if not isinstance(value, kind):
        raise RecordError(f"record field {name!r} is missing or malformed: {value!r}"[:200])
    return value


def record_from_json(data: JSONValue) -> tuple[Game[object, object], GameRecord[object]]:
    """The game (with the record's options) and the typed record of a JSON record."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}; want {RECORD_FORMAT}")
    name = _field(data, "game", str)
    options = _field(data, "options", dict)
    assert isinstance(name, str) and isinstance(options, dict)
    try:
        game = load_game(name, **options)
    except (UnknownOptionError, LookupError) as exc:
        raise RecordError(str(exc)) from exc
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int):
        raise RecordError(f"record seed must be an integer or null, not {seed!r}")
    steps = _field(data, "steps", list)
    assert isinstance(steps, list)
    actors: list[int] = []
    actions: list[object] = []
    digests: list[str] = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or type(step.get("actor")) is not int:
            raise RecordError("a step needs an integer 'actor' and an 'action'", step=i)
        try:
            actions.append(game.decode_action(step.get("action")))
        except DecodeError as exc:
            raise RecordError(f"malformed action: {exc}", step=i) from exc
        actor = step["actor"]
        assert isinstance(actor, int)
        actors.append(actor)
        if "state" in step:
            digest = step["state"]
            if not isinstance(digest, str) or len(digests) != i:
                raise RecordError("state digests must be strings on every step or none", step=i)
            digests.append(digest)
    if digests and len(digests) != len(actions):
        raise RecordError("state digests must be strings on every step or none")
    final = data.get("final", "")
    if not isinstance(final, str):
        raise RecordError("record field 'final' must be a string")
    components = _field(data, "components", str)
    assert isinstance(components, str)
    record = GameRecord(
        game=name,
        options=tuple(sorted(game.options.items())),
        components=components,
        seed=seed,
        actors=tuple(actors),
        actions=tuple(actions),
        digests=tuple(digests),
        final=final,
    )
    return game, record


def dumps_record(game: Game[S, A], record: GameRecord[A], *, indent: int | None = None) -> str:
    """A record as JSON text."""
    return json.dumps(record_to_json(game, record), indent=indent, ensure_ascii=False)


def loads_record(text: str) -> tuple[Game[object, object], GameRecord[object]]:
    """Parse JSON text written by :func:`dumps_record`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from exc
    return record_from_json(data)


def replay(game: Game[S, A], record: GameRecord[A]) -> S:
    """Re-apply every step of ``record`` and return the final state.

    Checks the game id, options and component digest, then at each step that the
    recorded actor is the one to move, that the action is legal (a chance outcome
    must be possible) and that the state digest matches when one was recorded.
    """
    if record.game != game.ID:
        raise RecordError(f"record is of {record.game!r}, not {game.ID!r}")
    if dict(record.options) != dict(game.options):
        raise RecordError(f"record options {dict(record.options)} differ from {game.options}")
    if record.components != game.components_digest():
        raise RecordError(
            f"component data differ: record {record.components}, game {game.components_digest()}"
        )
    if len(record.actors) != len(record.actions):
        raise RecordError("record has a different number of actors and actions")
    state = game.initial_state()
    for i, (actor, action) in enumerate(zip(record.actors, record.actions, strict=True)):
        to_move = game.current_player(state)
        if actor != to_move:
            raise RecordError(f"recorded actor {actor} but {to_move} is to move", step=i)
        try:
            state = game.apply(state, action)
        except IllegalActionError as exc:
            raise RecordError(str(exc), step=i) from exc
        if record.digests and game.state_digest(state) != record.digests[i]:
            raise RecordError("state after this step differs from the recorded digest", step=i)
    if record.final and game.state_digest(state) != record.final:
        raise RecordError("final state differs from the recorded digest")
    return state
