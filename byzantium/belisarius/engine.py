"""The procedure engine of Belisarius: tasks on a stack, run until one needs an answer.

The stack machinery is the kernel's (:mod:`byzantium.core.procedure`); this module
adds what Belisarius asks for: die rolls, random Stratagem markers (from the Pool or
from a hand, 8.1 and 8.51) and decisions of one named player. A task asks with
:func:`ask_roll`, :func:`ask_draw` or :func:`ask_choice`; the action that answers is
handed back to the same task's ``run``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import attrs

from byzantium.belisarius.state import (
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Ending,
    Request,
    RequestKind,
    Task,
)
from byzantium.core.game import Event
from byzantium.core.procedure import (
    ProcedureContext,
    builder,
    lazy_request,
    proceed,
    push,
    replace,
    run_task,
    settle,
)

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = [
    "Context",
    "answer",
    "ask_choice",
    "ask_draw",
    "ask_menu",
    "ask_roll",
    "end_game",
    "proceed",
    "push",
    "run_task",
    "settle",
]


class Context(ProcedureContext):
    """What a running task may consult: the game (catalogue, options) and the event log."""

    __slots__ = ("cat", "game")

    def __init__(self, game: Belisarius, events: list[Event] | None) -> None:
        super().__init__(game.options, events)
        self.game = game
        self.cat: Catalog = game.catalog

    @property
    def recording(self) -> bool:
        """Whether the transition's events are kept: hot steps build their event text
        only then (the fast path of search keeps none)."""
        return self.events is not None


def answer(ctx: Context, state: BelState, action: BelAction) -> BelState:
    """The state after ``action`` answers the pending request: the task that asked runs
    with it, then the procedure goes on until the next request (:func:`settle`).

    The answered request stays in the states of the transition until a task asks the
    next one, which replaces it (a task never reads the request it answers): taking it
    out first would copy the whole state once more at every transition. It is gone
    from the state returned.
    """
    request = state.pending
    assert request is not None
    state = run_task(ctx, state, request.task, action)
    while state.pending is request and state.stack and state.ending is None:
        task = state.stack[-1]
        state = replace(state, "stack", state.stack[:-1])
        state = run_task(ctx, state, task, None)
    if state.pending is request:
        return settle(ctx, replace(state, "pending", None))
    if state.pending is not None:
        return state  # a task asked the next question: nothing to settle
    return settle(ctx, state)


def _wait(state: BelState, request: Request) -> BelState:
    return replace(state, "pending", request)


#: :class:`~.state.Request` from its eight fields in order (see :func:`_request`).
_new_request = builder(Request)


def _request(  # noqa: PLR0917 - the fields of the request
    kind: RequestKind,
    rule: str,
    prompt: str,
    task: Task,
    player: int = NOBODY,
    dice: int = 0,
    hand: int = NOBODY,
    options: tuple[BelAction, ...] = (),
) -> Request:
    """``Request(kind, rule, prompt, task, player, dice, hand, options)``, built as
    its constructor does but without its call (a request is made at every
    transition); the defaults are those of :class:`~.state.Request`."""
    made: Request = _new_request(kind, rule, prompt, task, player, dice, hand, options)
    return made


def ask_roll(state: BelState, task: Task, rule: str, prompt: str, dice: int = 1) -> BelState:
    """Wait for ``dice`` dice; ``task`` runs again with a :class:`~.state.Roll`."""
    return _wait(state, _request(RequestKind.ROLL, rule, prompt, task, dice=dice))


def ask_draw(state: BelState, task: Task, rule: str, prompt: str, hand: int = NOBODY) -> BelState:
    """Wait for a random Stratagem marker from the Pool (or from ``hand``, 8.51).

    ``task`` runs again with a :class:`~.state.Draw` naming the marker's type; each
    type comes up with probability proportional to the markers of it left.
    """
    return _wait(state, _request(RequestKind.DRAW, rule, prompt, task, hand=hand))


def ask_choice(  # noqa: PLR0917 - the request names who, why and what
    state: BelState,
    task: Task,
    player: int,
    rule: str,
    prompt: str,
    options: Sequence[BelAction],
) -> BelState:
    """Wait for ``player`` to pick one of ``options`` (simplest first)."""
    if not options:
        raise ValueError(f"rule {rule}: a choice needs at least one option")
    return _wait(
        state, _request(RequestKind.CHOOSE, rule, prompt, task, player, options=tuple(options))
    )


def _checked_menu(
    rule: str, build: Callable[[BelState], Sequence[BelAction]], state: BelState
) -> tuple[BelAction, ...]:
    options = tuple(build(state))
    if not options:
        raise ValueError(f"rule {rule}: a choice needs at least one option")
    return options


def ask_menu(  # noqa: PLR0917 - the request names who, why and what
    state: BelState,
    task: Task,
    player: int,
    rule: str,
    prompt: str,
    build: Callable[[BelState], Sequence[BelAction]],
) -> BelState:
    """Like :func:`ask_choice`, the options being ``build(state)``, called the first
    time the menu is read (the legal actions, a checked answer, the state's
    encoding...): a transition that ends at this decision does not build its menu
    (issue 41).

    ``build`` must give the menu of ``state`` whenever it is called, and may not read
    the request ``state`` still holds (the one just answered, see :func:`answer`):
    the request kept for later is given the state without it when that request's
    own menu was never built, so that no chain of unread menus keeps every earlier
    state alive.
    """
    held = state.pending
    kept = state if held is None or held.options_built() else replace(state, "pending", None)
    menu = partial(_checked_menu, rule, build, kept)
    request = lazy_request(
        Request, menu, kind=RequestKind.CHOOSE, rule=rule, prompt=prompt, task=task, player=player
    )
    return _wait(state, request)


def end_game(
    ctx: Context, state: BelState, rule: str, reason: str, capitulated: int = NOBODY
) -> BelState:
    """Finish the game now (the scenario's last turn is over, or a side capitulates)."""
    ctx.log(rule, reason, "end")
    return attrs.evolve(state, ending=Ending(rule, reason, capitulated), stack=(), pending=None)
