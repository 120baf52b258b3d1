"""Procedures as data: a stack of steps in the state, run until one needs an answer.

Board games are long procedures with questions in the middle: roll a die, draw a
marker, choose a region. Both games keep what remains to be done as a stack of
*tasks* inside their immutable state. :func:`settle` pops and runs tasks until the
stack is empty, the game has ended, or a task has set the state's ``pending``
request (a roll, a draw or a decision). The action that answers the request is
handed back to the same task's ``run`` (see :func:`run_task`).

A task is a frozen attrs record deriving from the game's own
:class:`~byzantium.core.codec.Tagged` base, so that states with tasks in them
serialise like any other value. The state type needs the three fields of
:class:`ProcedureState`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Protocol, TypeVar, cast

import attrs

from byzantium.core.errors import InvalidStateError
from byzantium.core.game import Event

__all__ = [
    "ProcedureContext",
    "ProcedureState",
    "push",
    "replace",
    "require_same_request",
    "run_task",
    "settle",
]


class ProcedureContext:
    """What every running task may consult: the game's options and the event log.

    Games subclass it to add their game and catalogue.
    """

    __slots__ = ("events", "options")

    def __init__(self, options: Mapping[str, object], events: list[Event] | None) -> None:
        self.options = options
        self.events = events

    def log(self, rule: str, text: str, kind: str = "") -> None:
        """Record an event of the transition (skipped on the fast path)."""
        if self.events is not None:
            self.events.append(Event(rule, text, kind))

    def option(self, name: str) -> bool:
        """Whether a boolean game option is on."""
        return self.options.get(name) is True


class ProcedureState(Protocol):
    """What the procedure engine needs of a state: its stack, request and ending."""

    @property
    def stack(self) -> tuple[object, ...]:
        """Tasks still to run, the next one last."""

    @property
    def pending(self) -> object | None:
        """The request the game waits on, if any."""

    @property
    def ending(self) -> object | None:
        """Set once the game is over."""


S = TypeVar("S", bound=ProcedureState)
C = TypeVar("C")
#: Any attrs record.
R = TypeVar("R")


@cache
def _replacer(cls: type, name: str) -> Callable[[object, object], object]:
    """A function building a copy of an instance of the attrs class ``cls`` with the
    field ``name`` replaced: one constructor call, the other fields passed through."""
    fields = [f for f in attrs.fields(cls) if f.init]
    if name not in {f.name for f in fields}:
        raise TypeError(f"{cls.__name__} has no field {name!r} set by its constructor")
    args = ", ".join(
        f"{f.alias}=value" if f.name == name else f"{f.alias}=state.{f.name}" for f in fields
    )
    namespace: dict[str, object] = {"cls": cls}
    exec(f"def replace(state, value):\n    return cls({args})\n", namespace)
    function = namespace["replace"]
    assert callable(function)
    return function


def replace(state: R, name: str, value: object) -> R:
    """``state`` with one field replaced, like ``attrs.evolve(state, name=value)``
    (the same constructor, validators and converters run) but without evolve's
    per-call look-up of every field: the procedure engine does this at every step."""
    cls: type = type(state)
    return cast(R, _replacer(cls, name)(state, value))


def push(state: S, *tasks: object) -> S:
    """Schedule ``tasks`` to run next, the first one first."""
    if not tasks:
        return state
    return replace(state, "stack", state.stack + tuple(reversed(tasks)))


def run_task(ctx: C, state: S, task: object, answer: object | None) -> S:
    """Run one task (with the answer to its request, if it asked for one)."""
    run = getattr(task, "run", None)
    if run is None:  # pragma: no cover - every concrete task defines run
        raise TypeError(f"{type(task).__name__} has no run method")
    result: S = run(ctx, state, answer)
    return result


def settle(ctx: C, state: S) -> S:
    """Run tasks until one waits for an answer, the stack empties or the game ends."""
    while state.pending is None and state.stack and state.ending is None:
        task = state.stack[-1]
        state = replace(state, "stack", state.stack[:-1])
        state = run_task(ctx, state, task, None)
    return state


def _question(request: object) -> str:
    """A request in a few words for an error message: its rule and prompt."""
    if request is None:
        return "nothing"
    rule = getattr(request, "rule", "")
    prompt = str(getattr(request, "prompt", ""))[:80]
    return f"rule {rule} {prompt!r}"


def require_same_request(game_id: str, stored: object, asked: object) -> None:
    """Refuse a state whose stored request (``stored``, with its ``task`` and ``rule``)
    is not the one its task asks when asked again (``asked``): the validation both
    games use so that legal actions are never read from outside input.

    Raises :class:`~byzantium.core.errors.InvalidStateError`.
    """
    if asked != stored:
        task = type(getattr(stored, "task", None)).__name__
        raise InvalidStateError(
            "the pending request is not the one the procedure asks here "
            f"(the {task} step asks {_question(asked)}, the state holds {_question(stored)})",
            rule=str(getattr(stored, "rule", "")),
            game=game_id,
        )
