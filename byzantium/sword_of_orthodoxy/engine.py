"""The procedure engine: tasks on a stack, run until one needs an answer.

A :class:`~byzantium.sword_of_orthodoxy.state.Task` is one step of the Sequence of
Play, carried as data in the state. :func:`settle` pops and runs tasks until the
stack is empty, the game has ended, or a task asks for something: a die roll
(:func:`ask_roll`), a draw from a mug (:func:`ask_draw`) or a decision
(:func:`ask_choice`). The answer (an action) is handed back to the same task's
``run``. Tasks push the tasks that follow them with :func:`push`, so a step that
triggers a Siege in the middle of an advance simply pushes the Siege on top.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

import attrs

from byzantium.core.game import Event
from byzantium.core.procedure import ProcedureContext, push, replace, run_task
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.state import (
    Board,
    Catalog,
    Ending,
    Request,
    RequestKind,
    SooAction,
    SooState,
    Task,
)

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = [
    "BoardMemo",
    "Context",
    "Offer",
    "StandingRule",
    "ask_again",
    "ask_choice",
    "ask_draw",
    "ask_roll",
    "board_query",
    "end_game",
    "push",
    "run_task",
    "settle",
]

#: A rule that holds "at any point": it looks at the board after every step of the
#: procedure and returns the state, changed if the rule now applies (8.4.1 Ravenna).
StandingRule = Callable[["Context", SooState], SooState]


class BoardMemo:
    """The answers of board queries (:func:`board_query`) for the last board asked.

    A board is immutable, so what a query answers for it never changes; the memo
    keeps the board itself, so that its identity cannot be reused while it is kept.
    One memo per game, as the answers depend on the game's catalogue and options.
    """

    __slots__ = ("kept",)

    def __init__(self) -> None:
        #: The board and the answers for it, replaced together (one assignment).
        self.kept: tuple[Board | None, dict[tuple[object, ...], object]] = (None, {})


class Context(ProcedureContext):
    """What a running task may consult: the game (catalogue, options) and the event log."""

    __slots__ = ("cat", "game", "memo", "standing")

    def __init__(self, game: SwordOfOrthodoxy, events: list[Event] | None) -> None:
        super().__init__(game.options, events)
        self.game = game
        self.cat: Catalog = game.catalog
        self.standing: tuple[StandingRule, ...] = game.STANDING_RULES
        self.memo: BoardMemo = game.board_memo


P = ParamSpec("P")
R = TypeVar("R")


def board_query(
    query: Callable[Concatenate[Context, SooState, P], R],
) -> Callable[Concatenate[Context, SooState, P], R]:
    """Decorator: a query that reads the board alone is answered once per board.

    The Action Phase menu asks the same questions (the Armies of a Zone, the Army
    carrying the Stolos, the legal targets) many times over one board; the first
    answer is kept (:class:`BoardMemo`) until a query sees another board. Only a
    function whose answer depends on nothing but ``state.board``, its arguments and
    the game may be a board query. A list answer is copied, so that a caller may
    change its own copy.
    """

    @functools.wraps(query)
    def answer(ctx: Context, state: SooState, /, *args: P.args, **kwargs: P.kwargs) -> R:
        board = state.board
        kept, answers = ctx.memo.kept
        if kept is not board:
            answers = {}
            ctx.memo.kept = (board, answers)
        key = (query, *args, *kwargs.items()) if kwargs else (query, *args)
        try:
            found = answers[key]
        except KeyError:
            found = answers[key] = query(ctx, state, *args, **kwargs)
        if type(found) is list:
            return found.copy()  # type: ignore[return-value]
        return found  # type: ignore[return-value]

    return answer


def _standing(ctx: Context, state: SooState) -> SooState:
    for rule in ctx.standing:
        state = rule(ctx, state)
    return state


def settle(ctx: Context, state: SooState) -> SooState:
    """Run tasks until one waits for an answer, the stack empties or the game ends.

    The game's standing rules (rules that apply "at any point", such as 8.4.1
    Ravenna) are checked before the first task and after every one, so whatever step
    changes the board, the rule sees the change at once.
    """
    state = _standing(ctx, state)
    while state.pending is None and state.stack and state.ending is None:
        task = state.stack[-1]
        state = replace(state, "stack", state.stack[:-1])
        state = _standing(ctx, run_task(ctx, state, task, None))
    return state


@attrs.frozen
class Offer:
    """An action the player may take in the Byzantine Action Phase (10.0).

    ``item`` is the text of the :class:`~byzantium.sword_of_orthodoxy.state.Select`
    that chooses it (for example ``"attack army-delta-persia"``); ``task`` carries it
    out. Offers are listed only when legal and affordable, and every offered action
    uses something up (money, a tile, a once-per-Turn right), so the phase ends.
    """

    item: str
    task: Task


def _wait(state: SooState, request: Request) -> SooState:
    return replace(state, "pending", request)


def ask_roll(
    state: SooState,
    task: Task,
    rule: str,
    prompt: str,
    dice: int = 1,
    *,
    path: Path | None = None,
) -> SooState:
    """Wait for ``dice`` dice; ``task`` is run again with a :class:`Roll`.

    ``path`` marks a roll that applies to that Path alone (a battle, a Taurus roll, a
    Social tie...): an Akritai on the Path may then adjust it (10.4.2).
    """
    return _wait(state, Request(RequestKind.ROLL, rule, prompt, task, dice=dice, path=path))


def ask_draw(state: SooState, task: Task, rule: str, prompt: str, space: str) -> SooState:
    """Wait for a random draw from the tiles on ``space``; ``task`` gets a :class:`Draw`."""
    return _wait(state, Request(RequestKind.DRAW, rule, prompt, task, space=space))


def ask_choice(
    state: SooState, task: Task, rule: str, prompt: str, options: Sequence[SooAction]
) -> SooState:
    """Wait for the player to pick one of ``options`` (simplest first)."""
    if not options:
        raise ValueError(f"rule {rule}: a choice needs at least one option")
    return _wait(state, Request(RequestKind.CHOOSE, rule, prompt, task, options=tuple(options)))


def end_game(ctx: Context, state: SooState, rule: str, reason: str, *, defeat: bool) -> SooState:
    """Finish the game now (a defeat, or the end of the last Turn)."""
    ctx.log(rule, reason, "end")
    return attrs.evolve(state, ending=Ending(defeat, rule, reason), stack=(), pending=None)


def ask_again(ctx: Context, state: SooState, task: Task) -> SooState:
    """``state`` (with no request) after ``task`` asks its question again.

    A task is asked again by running it without an answer, unless it has a
    ``reask(ctx, state)`` method: a task that waits at a later step of its procedure
    (after a first roll, say) asks that step's question again there, without doing
    again what it did before asking. ``Game.validate`` compares the question with the
    request a state holds.
    """
    reask = getattr(task, "reask", None)
    if reask is not None:
        again: SooState = reask(ctx, state)
        return again
    return run_task(ctx, state, task, None)
