"""Game records: every action of a game, chance included, with a replay check.

A record names the game, its options and a digest of the component data, the seed
that was used, and each step: who acted, the action, and (optionally) a digest of the
state it produced. :func:`replay` re-applies the steps one by one, checking each, and
returns the identical final state; the first step that does not check out is named
in the :class:`~byzantium.core.errors.RecordError`. :func:`check_record` does the same
checks and hands back the state where a record stops checking out, for tools such as
``byzantium verify``.

The JSON form of a record (``byzantium-record/1``) is stable; a program in any
language may write one, and ``byzantium schema GAME --kind record`` prints its JSON
Schema. It is one object:

``format``
    ``"byzantium-record/1"``;
``game``
    the game id (``"sword-of-orthodoxy"``, ``"belisarius"``);
``options``
    the game options by name (missing ones take their defaults);
``components``
    the 16-hex-digit digest of the component data the game was played with
    (``Game.components_digest``): a record made with other data does not replay;
``seed``
    the seed of the random generator that made the choices, or ``null`` (not needed
    to replay: every chance outcome is in the steps);
``steps``
    one object per decision, in order: ``actor`` (the player index, or ``-1`` for
    chance), ``action`` (the action in the game's JSON form, below) and, optionally
    on every step or on none, ``state`` (the digest of the state the step produced,
    ``Game.state_digest``);
``final``
    optionally, the digest of the final state (``""`` or missing when not recorded).

Actions, like states, have the JSON form of :mod:`byzantium.core.codec`: an action
is an object whose ``"type"`` names its class and whose other members are its fields
(``{"type": "Roll", "dice": [3, 5]}``, ``{"type": "Select", "item": "thrace"}``),
with enums by name, fractions as ``"n/d"`` strings, tuples and frozensets as arrays.

A saved position (``byzantium-state/1``, written by ``byzantium verify --state`` and
read by ``byzantium explain``) is an object with the same ``game``, ``options`` and
``components`` members and the encoded state under ``state``: see
:func:`state_to_json` and :func:`state_from_json`.
"""

from __future__ import annotations

import json
from typing import Generic, TypeVar

import attrs

from byzantium.core.codec import DecodeError, JSONValue, loads_json
from byzantium.core.errors import (
    IllegalActionError,
    InvalidStateError,
    RecordError,
    UnknownOptionError,
)
from byzantium.core.game import Game, OptionValue
from byzantium.core.registry import game_class, load_game

__all__ = [
    "RECORD_FORMAT",
    "STATE_FORMAT",
    "GameRecord",
    "RecordCheck",
    "check_record",
    "dumps_record",
    "loads_record",
    "record_from_json",
    "record_to_json",
    "replay",
    "state_from_json",
    "state_to_json",
]

S = TypeVar("S")
A = TypeVar("A")

#: Format tag written into every record.
RECORD_FORMAT = "byzantium-record/1"
#: Format tag of a saved position (:func:`state_to_json`).
STATE_FORMAT = "byzantium-state/1"


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


def _check_arguments(game: object, record: object) -> None:
    """A game and a record, or :class:`RecordError` (one line)."""
    if not isinstance(game, Game):
        raise RecordError(f"a game is needed, not {repr(game)[:60]}")
    if not isinstance(record, GameRecord):
        raise RecordError(f"a GameRecord is needed, not {repr(record)[:60]}")


def record_to_json(game: Game[S, A], record: GameRecord[A]) -> dict[str, JSONValue]:
    """A record as a JSON object."""
    _check_arguments(game, record)
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


def _load(name: str, options: dict[str, JSONValue], components: str | None) -> Game[object, object]:
    """The game of a record or a saved position, with its options.

    A record names its options, but the directory of the user's own component files
    (the ``components`` option) is never taken from it: a record from elsewhere could
    name any directory. The caller passes the one the user named (``--components``),
    and the record's digest of the component data must match it.
    """
    try:
        known = {spec.name for spec in game_class(name).OPTIONS}
        chosen = dict(options)
        if "components" in known:
            if chosen.get("components", "") not in ("", components) and components is None:
                raise RecordError(
                    f"the record was made with component pack {str(chosen['components'])[:80]!r};"
                    " name its directory or installed pack with --components DIR"
                )
            chosen["components"] = components or ""
        return load_game(name, **chosen)
    except (UnknownOptionError, LookupError) as exc:
        raise RecordError(str(exc)) from exc


def record_from_json(
    data: JSONValue, *, components_dir: str | None = None
) -> tuple[Game[object, object], GameRecord[object]]:
    """The game (with the record's options) and the typed record of a JSON record.

    ``components_dir`` is the directory of the user's own component files, if any: a
    record's own ``components`` option is never used (see :func:`_load`).
    """
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}; want {RECORD_FORMAT}")
    name = _field(data, "game", str)
    options = _field(data, "options", dict)
    assert isinstance(name, str) and isinstance(options, dict)
    game = _load(name, options, components_dir)
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
    chosen = dict(game.options)
    if "components" in chosen:
        # The record keeps the pack it names (checked against the one given by digest).
        made_with = options.get("components", "")
        chosen["components"] = made_with if isinstance(made_with, str) else ""
    record = GameRecord(
        game=name,
        options=tuple(sorted(chosen.items())),
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


def loads_record(
    text: str | bytes, *, components_dir: str | None = None
) -> tuple[Game[object, object], GameRecord[object]]:
    """Parse JSON text written by :func:`dumps_record` (within the limits of
    :func:`~byzantium.core.codec.loads_json`)."""
    try:
        data = loads_json(text, "the record")
    except DecodeError as exc:
        raise RecordError(str(exc)) from exc
    return record_from_json(data, components_dir=components_dir)


@attrs.frozen
class RecordCheck(Generic[S]):
    """How far a record checks out (:func:`check_record`).

    ``steps`` counts the steps that checked out. When the record is good, ``error``
    is ``None`` and ``state`` is the final state. Otherwise ``error`` says what is
    wrong (its ``step`` is the index of the bad step, ``None`` for the final digest),
    ``illegal`` holds the rule-naming error of an action the rules forbid, and
    ``state`` is the state the bad step was taken in, or with ``after`` the state it
    produced (a step that is legal but whose recorded digest differs, or the end of
    the game when the final digest differs).
    """

    steps: int
    state: S
    error: RecordError | None = None
    illegal: IllegalActionError | None = None
    after: bool = False

    @property
    def ok(self) -> bool:
        """Whether every step (and the final digest) checked out."""
        return self.error is None


def _check_header(game: Game[S, A], record: GameRecord[A]) -> None:
    if record.game != game.ID:
        raise RecordError(f"record is of {record.game!r}, not {game.ID!r}")
    recorded, options = dict(record.options), dict(game.options)
    made_with = recorded.pop("components", "")
    used = options.pop("components", "")
    if recorded != options:
        raise RecordError(f"record options {dict(record.options)} differ from {game.options}")
    if record.components != game.components_digest() and made_with != used:
        # The same data under another name or path is accepted: the digest decides.
        raise RecordError(
            f"record made with component pack {made_with or '(shipped)'!r} (digest"
            f" {record.components}), not {used or '(shipped)'!r} (digest"
            f" {game.components_digest()})"
        )
    if record.components != game.components_digest():
        raise RecordError(
            f"component data differ: record {record.components}, game {game.components_digest()}"
        )
    if len(record.actors) != len(record.actions):
        raise RecordError("record has a different number of actors and actions")


def check_record(game: Game[S, A], record: GameRecord[A]) -> RecordCheck[S]:
    """Re-apply the steps of ``record`` and say where, if anywhere, it stops checking out.

    The checks are those of :func:`replay`. A record that is bad as a whole (another
    game, other options or other component data) raises
    :class:`~byzantium.core.errors.RecordError`; a bad step is reported in the result
    with the state at that point.
    """
    _check_arguments(game, record)
    _check_header(game, record)
    state = game.initial_state()
    for i, (actor, action) in enumerate(zip(record.actors, record.actions, strict=True)):
        to_move = game.current_player(state)
        if actor != to_move:
            error = RecordError(f"recorded actor {actor} but {to_move} is to move", step=i)
            return RecordCheck(i, state, error)
        try:
            after = game.apply(state, action)
        except IllegalActionError as exc:
            error = RecordError(str(exc), step=i)
            error.__cause__ = exc
            return RecordCheck(i, state, error, exc)
        if record.digests and game.state_digest(after) != record.digests[i]:
            error = RecordError("state after this step differs from the recorded digest", step=i)
            return RecordCheck(i, after, error, after=True)
        state = after
    steps = len(record.actions)
    if record.final and game.state_digest(state) != record.final:
        error = RecordError("final state differs from the recorded digest")
        return RecordCheck(steps, state, error, after=True)
    return RecordCheck(steps, state)


def replay(game: Game[S, A], record: GameRecord[A]) -> S:
    """Re-apply every step of ``record`` and return the final state.

    Checks the game id, options and component digest, then at each step that the
    recorded actor is the one to move, that the action is legal (a chance outcome
    must be possible) and that the state digest matches when one was recorded.
    """
    check = check_record(game, record)
    if check.error is not None:
        raise check.error from check.illegal
    return check.state


def state_to_json(game: Game[S, A], state: S) -> dict[str, JSONValue]:
    """A state saved with its game, options and component digest (``byzantium-state/1``)."""
    if not isinstance(game, Game):
        raise RecordError(f"a game is needed, not {repr(game)[:60]}")
    return {
        "format": STATE_FORMAT,
        "game": game.ID,
        "options": dict(game.options),
        "components": game.components_digest(),
        "state": game.encode_state(state),
    }


def state_from_json(
    data: JSONValue, game: Game[object, object] | None = None, *, components_dir: str | None = None
) -> tuple[Game[object, object], object]:
    """The game and the state of a saved position, or of a bare encoded state.

    A saved position (:func:`state_to_json`) names its game and options; ``game``, if
    given, must be the same game. A bare state (any other JSON value) needs ``game``.
    A position saved with other component data is refused, and so is a state the
    rules could not have produced (``Game.validate``).
    """
    if game is not None and not isinstance(game, Game):
        raise RecordError(f"a game is needed, not {repr(game)[:60]}")
    saved = isinstance(data, dict) and data.get("format") == STATE_FORMAT
    if not saved:
        if game is None:
            raise RecordError(f"not a {STATE_FORMAT} file; name the game to read a bare state")
        try:
            return game, game.decode_state(data)
        except (DecodeError, InvalidStateError) as exc:
            raise RecordError(f"not a state of {game.ID}: {exc}") from exc
    assert isinstance(data, dict)
    name = _field(data, "game", str)
    options = _field(data, "options", dict)
    components = _field(data, "components", str)
    assert isinstance(name, str) and isinstance(options, dict)
    if game is not None and name != game.ID:
        raise RecordError(f"the position is of {name!r}, not {game.ID!r}")
    game = _load(name, options, components_dir)
    if components != game.components_digest():
        raise RecordError(
            f"component data differ: position {components}, game {game.components_digest()}"
        )
    try:
        return game, game.decode_state(data.get("state"))
    except (DecodeError, InvalidStateError) as exc:
        raise RecordError(f"not a state of {game.ID}: {exc}") from exc
