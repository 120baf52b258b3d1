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
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import attrs

from byzantium.core.game import Event
from byzantium.core.procedure import (
    ProcedureContext,
    lazy_request,
    proceed,
    push,
    replacer,
    run_task,
)
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
    "Facet",
    "Offer",
    "StandingRule",
    "ask_again",
    "ask_choice",
    "ask_draw",
    "ask_menu",
    "ask_roll",
    "board_query",
    "end_game",
    "facet_query",
    "make_offer",
    "proceed",
    "push",
    "run_task",
    "settle",
    "with_pending",
    "with_stack",
]

#: A rule that holds "at any point": it looks at the board after every step of the
#: procedure and returns the state, changed if the rule now applies (8.4.1 Ravenna).
#: It reads the board, the Turn and the counters alone, so that a step which changed
#: none of them need not be looked at again (see :func:`settle`).
StandingRule = Callable[["Context", SooState], SooState]


class Facet:
    """A part of the board: the tiles ``select`` picks from a game's catalogue.

    Two boards that put those tiles on the same spaces, the same faces up and the same
    track values agree on everything a query of the facet reads (:func:`facet_query`),
    whatever else differs (the treasury, a Hospital built elsewhere...).
    """

    __slots__ = ("name", "select")

    def __init__(self, name: str, select: Callable[[Catalog], Iterable[int]]) -> None:
        self.name = name
        self.select = select

    def __repr__(self) -> str:
        return f"<Facet {self.name}>"


#: How many distinct facet contents a game keeps answers for before it starts afresh.
FACET_CONTENTS = 2048

_BoardKey = Callable[[Board], tuple[object, ...]]


def _facet_key(tiles: Sequence[int]) -> _BoardKey:
    """The content of the facet made of ``tiles``: their spaces, faces and values."""
    if not tiles:
        return lambda board: ()
    # itemgetter of several indexes gives a tuple; of one index, the value itself.
    pick = operator.itemgetter(*tiles)

    def key(board: Board) -> tuple[object, ...]:
        return (pick(board.where), pick(board.back), pick(board.value))

    return key


class BoardMemo:
    """The answers of board queries (:func:`board_query`) for the last board asked, and
    of facet queries (:func:`facet_query`) for every facet content seen lately.

    A board is immutable, so what a query answers for it never changes; the memo
    keeps the board itself, so that its identity cannot be reused while it is kept.
    One memo per game, as the answers depend on the game's catalogue and options.
    """

    __slots__ = ("contents", "kept", "keys")

    def __init__(self) -> None:
        #: The board and the answers for it, replaced together (one assignment). A
        #: facet's entry (the facet itself as key) is the answers for its content.
        self.kept: tuple[Board | None, dict[object, object]] = (None, {})
        #: The answers of facet queries, per facet and content of the facet.
        self.contents: dict[tuple[Facet, tuple[object, ...]], dict[object, object]] = {}
        #: How to read each facet's content off a board.
        self.keys: dict[Facet, _BoardKey] = {}

    def answers(self, board: Board) -> dict[object, object]:
        """The answers kept for ``board`` (a new, empty table for a new board)."""
        kept, answers = self.kept
        if kept is not board:
            answers = {}
            self.kept = (board, answers)
        return answers

    def facet_answers(self, cat: Catalog, facet: Facet, board: Board) -> dict[object, object]:
        """The answers of ``facet``'s queries for the facet's content on ``board``."""
        answers = self.answers(board)
        found = answers.get(facet)
        if found is None:
            found = answers[facet] = self._content_answers(cat, facet, board)
        assert isinstance(found, dict)
        return found

    def _content_answers(self, cat: Catalog, facet: Facet, board: Board) -> dict[object, object]:
        """:meth:`facet_answers` for a board whose answers hold none for ``facet`` yet."""
        key = self.keys.get(facet)
        if key is None:
            key = self.keys[facet] = _facet_key(tuple(facet.select(cat)))
        content = (facet, key(board))
        found = self.contents.get(content)
        if found is None:
            if len(self.contents) >= FACET_CONTENTS:
                self.contents.clear()
            found = self.contents[content] = {}
        return found


class Context(ProcedureContext):
    """What a running task may consult: the game (catalogue, options) and the event log."""

    __slots__ = ("cat", "game", "memo", "settled", "standing")

    def __init__(self, game: SwordOfOrthodoxy, events: list[Event] | None) -> None:
        super().__init__(game.options, events)
        self.game = game
        self.cat: Catalog = game.catalog
        self.standing: tuple[StandingRule, ...] = game.standing_rules
        self.memo: BoardMemo = game.board_memo
        #: The board, counters and Turn the standing rules last found nothing to do on.
        self.settled: tuple[Board, tuple[tuple[str, int], ...], int] | None = None


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
        memo = ctx.memo
        kept, answers = memo.kept
        if kept is not board:  # a new board: a new table (BoardMemo.answers)
            answers = {}
            memo.kept = (board, answers)
        key = (query, *args, *kwargs.items()) if kwargs else (query, *args)
        found = answers.get(key, _MISSING)
        if found is _MISSING:
            found = answers[key] = query(ctx, state, *args, **kwargs)
        return found.copy() if type(found) is list else found  # type: ignore[return-value]

    return answer


def facet_query(
    facet: Facet | Mapping[Any, Facet],
) -> Callable[
    [Callable[Concatenate[Context, SooState, P], R]],
    Callable[Concatenate[Context, SooState, P], R],
]:
    """Decorator: a query that reads nothing of the state but the tiles of ``facet``
    (where they are, their faces, their track values) is answered once per content of
    the facet.

    The next Action Phase menu is built from the last one this way: after a
    Hospital is built or the treasury pays for an attack that failed, the Barbarians
    stand where they stood, and every question about them (the legal targets, the
    Paths one may withdraw from, the offers made of them) keeps its answer. Only a
    function whose answer depends on nothing but the facet's tiles, its arguments
    and the game may be a facet query: ``tests/sword_of_orthodoxy/test_facets.py``
    compares every facet query with the function itself on the states of many games.
    A list answer is copied, so that a caller may change its own copy.

    ``facet`` may be a table of facets by the query's first argument (a Path, say):
    a query about one Path then reads that Path's tiles alone, and keeps its answer
    while an Army moves on another Path.
    """

    def decorate(
        query: Callable[Concatenate[Context, SooState, P], R],
    ) -> Callable[Concatenate[Context, SooState, P], R]:
        single = facet if isinstance(facet, Facet) else None
        by_argument = {} if isinstance(facet, Facet) else facet

        @functools.wraps(query)
        def answer(ctx: Context, state: SooState, /, *args: P.args, **kwargs: P.kwargs) -> R:
            board = state.board
            memo = ctx.memo
            kept, answers = memo.kept
            if kept is not board:  # a new board: a new table (BoardMemo.answers)
                answers = {}
                memo.kept = (board, answers)
            read = single or by_argument[args[0]]
            table = answers.get(read)
            if table is None:  # BoardMemo.facet_answers, the board's table in hand
                table = answers[read] = memo._content_answers(ctx.cat, read, board)
            assert isinstance(table, dict)
            key = (query, *args, *kwargs.items()) if kwargs else (query, *args)
            found = table.get(key, _MISSING)
            if found is _MISSING:
                found = table[key] = query(ctx, state, *args, **kwargs)
            return found.copy() if type(found) is list else found  # type: ignore[return-value]

        answer.facet = facet  # type: ignore[attr-defined]
        answer.uncached = query  # type: ignore[attr-defined]
        return answer

    return decorate


#: What a memo holds for a question not asked yet.
_MISSING = object()


def _standing(ctx: Context, state: SooState) -> SooState:
    settled = ctx.settled
    if (
        settled is not None
        and settled[0] is state.board
        and settled[1] is state.counters
        and settled[2] == state.turn
    ):
        return state  # nothing a standing rule reads has changed since it last looked
    before = state
    for rule in ctx.standing:
        state = rule(ctx, state)
    if state is before:
        ctx.settled = (state.board, state.counters, state.turn)
    return state


#: ``replace(state, "stack", ...)`` and ``replace(state, "pending", ...)``, the copies
#: the engine makes at every step, looked up once (:func:`~byzantium.core.procedure.replacer`).
with_stack = replacer(SooState, "stack")
with_pending = replacer(SooState, "pending")


def settle(ctx: Context, state: SooState) -> SooState:
    """Run tasks until one waits for an answer, the stack empties or the game ends.

    The game's standing rules (rules that apply "at any point", such as 8.4.1
    Ravenna) are checked before the first task and after every one that changed the
    board, the counters or the Turn, so whatever step changes the board, the rule
    sees the change at once.
    """
    state = _standing(ctx, state)
    while state.pending is None and state.stack and state.ending is None:
        stack = state.stack
        state = _standing(ctx, run_task(ctx, with_stack(state, stack[:-1]), stack[-1], None))
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


@functools.cache
def make_offer(item: str, task: Callable[..., Task], *args: object) -> Offer:
    """The offer ``item`` of the task ``task(*args)``, made once: both are immutable
    records, so the menus of every state share one of each instead of building them
    anew each time the menu is listed."""
    return Offer(item, task(*args))


def _wait(state: SooState, request: Request) -> SooState:
    return with_pending(state, request)


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


def _checked_menu(rule: str, build: Callable[[], Sequence[SooAction]]) -> tuple[SooAction, ...]:
    options = tuple(build())
    if not options:
        raise ValueError(f"rule {rule}: a choice needs at least one option")
    return options


def ask_menu(
    state: SooState,
    task: Task,
    rule: str,
    prompt: str,
    build: Callable[[], Sequence[SooAction]],
) -> SooState:
    """Like :func:`ask_choice`, the options being ``build()``, called the first time
    the menu is read (the legal actions, a checked answer, the state's encoding...):
    a transition that ends at this decision does not build its menu (issue 41).

    ``build`` must give the menu of the state as it is now (the ``state`` given here,
    which it may hold), whenever it is called.
    """
    menu = functools.partial(_checked_menu, rule, build)
    request = lazy_request(
        Request, menu, kind=RequestKind.CHOOSE, rule=rule, prompt=prompt, task=task
    )
    return _wait(state, request)


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
