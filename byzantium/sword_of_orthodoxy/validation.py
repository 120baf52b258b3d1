"""Whether a state of Sword of Orthodoxy is one the rules could have produced.

``Game.validate`` (and so every state read from JSON) runs :func:`validate_state`,
which names the first inconsistency in an
:class:`~byzantium.core.errors.InvalidStateError`:

* every tile and Turn Chit of the box is on exactly one space that exists, shows a
  back face only if it has one, and lies on its track within the printed 0-12 (the
  Military Event tile on one of the Strategikon's spaces);
* the Turn is one of the game's 27 (0 before the first); the remembered counters
  are the ones the rules keep (:data:`~byzantium.sword_of_orthodoxy.tensor.COUNTERS`),
  named once each, within their bounds (a Turn or a number of Turns, so at most the
  Turn); the ``done`` facts are ones the rules remember
  (:func:`~byzantium.sword_of_orthodoxy.tensor.fact_names`, and the Turn-stamped
  :data:`~byzantium.sword_of_orthodoxy.tensor.TURN_FACTS`), one scenario's, and
  possible by the Turn: a Turn-stamped fact of a Turn played, a once-only Political
  Event not before the first Turn its Synopsis rows can come up (one die plus the
  Turn, 8.1);
* a game not over has a procedure play can produce
  (:func:`~byzantium.core.procedure.check_turn_stack`): the next Turn's step at the
  bottom, the phases of the Turn not yet begun above it in the order of the
  Sequence of Play (:data:`~byzantium.sword_of_orthodoxy.turn.TURN_SEQUENCE`), and
  above them only the work of the phase under way; and the Turn agrees with the
  Chronographia (4.1): a Turn Chit on each Turn's space from the scenario's first
  Turn to the current one (the current one once its Tile Draw is done), none
  after;
* every task of the procedure (the stack, the task that asked, and the tasks they
  hold) carries only numbers in their ranges (dice 1-6, amounts on the 0-12 tracks,
  a Military Event result a die and the Turn can make) and only texts that mean
  something: a component's id or name, a rule of the index, or a word of the code of
  the task's module (its stages and steps);
* the pending request is the one the procedure asks in this position: the task that
  asked is asked again, without an answer, and must ask exactly the same question
  (rule, prompt, dice, mug and options). The legal actions and chance outcomes of
  an accepted state are therefore those the engine computes for it.

A task is asked again by :func:`~byzantium.sword_of_orthodoxy.engine.ask_again`.
"""

from __future__ import annotations

import enum
import weakref
from typing import TYPE_CHECKING

from byzantium.core.dice import MAX_OUTCOMES
from byzantium.core.errors import InvalidStateError
from byzantium.core.procedure import (
    check_turn_stack,
    code_words,
    data_words,
    is_word,
    replace,
    require_same_request,
    task_fields,
)
from byzantium.core.rules import get_rulebook
from byzantium.sword_of_orthodoxy.end_of_turn import LAST_TURN
from byzantium.sword_of_orthodoxy.engine import Context, ask_again
from byzantium.sword_of_orthodoxy.state import Catalog, RequestKind, SooState, Task
from byzantium.sword_of_orthodoxy.tensor import COUNTERS, TURN_FACTS, counter_range, fact_names
from byzantium.sword_of_orthodoxy.turn import TURN_SEQUENCE, NextTurn, TileDraw
from byzantium.sword_of_orthodoxy.world import MAX_TRACK

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["MAX_DICE", "NUMBER_RANGES", "validate_state"]

#: The most dice one roll asks for (6 ** MAX_DICE outcomes at most).
MAX_DICE = 6
assert 6**MAX_DICE <= MAX_OUTCOMES


#: The highest face of a die.
MAX_DIE = 6


#: The range of every whole number a task may carry, by field name: dice, amounts on
#: the tracks (with -1 where a task marks "not yet"), and counts of things in the box
#: (``None`` for the number of tiles). ``military`` is checked against the Turn.
NUMBER_RANGES: dict[str, tuple[int, int | None]] = {
    "die": (1, MAX_DIE),
    "rolls": (1, MAX_DIE),
    "paid": (-1, MAX_TRACK),
    "strength": (-1, MAX_TRACK),
    "cost": (0, MAX_TRACK),
    "amount": (0, MAX_TRACK),
    "total": (0, 3 * MAX_TRACK),
    "count": (0, None),
    "left": (0, None),
    "made": (0, None),
    "remaining": (0, None),
    "index": (0, None),
    "military": (0, None),
}

_WORDS: weakref.WeakKeyDictionary[Catalog, frozenset[str]] = weakref.WeakKeyDictionary()
_EARLIEST: weakref.WeakKeyDictionary[Catalog, dict[str, int]] = weakref.WeakKeyDictionary()


def _earliest_facts(game: SwordOfOrthodoxy) -> dict[str, int]:
    """Every fact of a fixed name the rules may remember, with the first Turn it can
    be remembered on: a once-only Political Event's first possible Synopsis result
    less a die's most (8.1), Turn 1 for the others (their Turns are not checked)."""
    found = _EARLIEST.get(game.catalog)
    if found is None:
        found = dict.fromkeys(fact_names(game), 1)
        most = MAX_DIE
        for event in game.components.political_events:
            lows = [row.low for row in game.components.synopsis if event.name in row.political]
            fact = f"event:{event.name}"
            if not lows:
                del found[fact]  # on no row: it never comes up
            else:
                found[fact] = max(1, min(lows) - most)
        _EARLIEST[game.catalog] = found
    return found


def _words(game: SwordOfOrthodoxy) -> frozenset[str]:
    """The component texts and rule ids a task's text may be."""
    found = _WORDS.get(game.catalog)
    if found is None:
        rules = frozenset(entry.id for entry in get_rulebook(game.ID))
        found = _WORDS[game.catalog] = data_words(game.catalog.components) | rules
    return found


def _refuse(game: SwordOfOrthodoxy, reason: str, rule: str = "") -> InvalidStateError:
    return InvalidStateError(reason, rule=rule, game=game.ID)


def validate_state(game: SwordOfOrthodoxy, state: SooState) -> None:
    """Raise :class:`~byzantium.core.errors.InvalidStateError` at the first inconsistency."""
    _check_board(game, state)
    _check_sequence(game, state)
    _check_memory(game, state)
    _check_procedure(game, state)
    _check_tasks(game, state)
    _check_request(game, state)


def _check_board(game: SwordOfOrthodoxy, state: SooState) -> None:
    cat = game.catalog
    board = state.board
    count = len(cat.tiles)
    if not len(board.where) == len(board.back) == len(board.value) == count:
        raise _refuse(
            game,
            f"{len(board.where)} tile places, {len(board.back)} faces and "
            f"{len(board.value)} track positions for the {count} tiles of the box",
            "2.0",
        )
    spaces = len(cat.spaces)
    # The Military Event tile marks its event's place on the Strategikon track.
    military = cat.tile_index.get("marker-military-event", -1)
    strategikon = len(cat.components.strategikon)
    for tile, (where, back, value) in enumerate(
        zip(board.where, board.back, board.value, strict=True)
    ):
        record = cat.tiles[tile]
        if not 0 <= where < spaces:
            raise _refuse(game, f"{record.id} is on space {where}, no space of the map", "2.0")
        if back and record.back is None:
            raise _refuse(game, f"{record.id} shows a back face it does not have", "2.0")
        top = strategikon if tile == military else MAX_TRACK
        if not 0 <= value <= top:
            raise _refuse(game, f"{record.id} is at {value} on its track, outside 0-{top}", "2.0")


def _check_sequence(game: SwordOfOrthodoxy, state: SooState) -> None:
    if not 0 <= state.turn <= LAST_TURN:
        raise _refuse(game, f"Turn {state.turn} is not one of the {LAST_TURN} Turns", "2.3")
    if state.ending is not None:
        if state.pending is not None or state.stack:
            raise _refuse(game, "the game is over but the procedure goes on")
    elif state.pending is None:
        raise _refuse(game, "the game is not over but nothing is asked")


def _check_memory(game: SwordOfOrthodoxy, state: SooState) -> None:
    """The counters and facts: known names, bounds, and possible by the Turn."""
    names = [name for name, _ in state.counters]
    if len(set(names)) != len(names) or names != sorted(names):
        raise _refuse(game, "remembered counters named twice or out of order")
    low, high = counter_range(state.turn)
    for name, value in state.counters:
        if name not in COUNTERS:
            raise _refuse(game, f"the counter {name[:40]!r} is none the rules keep")
        if not low <= value <= high:
            raise _refuse(game, f"the counter {name!r} is {value}, outside {low}-{high}", "2.3")
    scenarios = [s for s in game.components.scenarios if f"scenario:{s.id}" in state.done]
    if len(scenarios) != 1:
        raise _refuse(game, f"{len(scenarios)} scenarios set up, not one", "3.2")
    first = scenarios[0].first_turn
    if state.counter("first-turn") != first:
        raise _refuse(
            game,
            f"the {scenarios[0].id} scenario begins on Turn {first}, not "
            f"{state.counter('first-turn')}",
            "3.2",
        )
    if state.turn < first:
        raise _refuse(game, f"Turn {state.turn}, before the scenario's first ({first})", "3.2")
    earliest = _earliest_facts(game)
    for fact in sorted(state.done):
        name, stamp, turn = fact.rpartition("-turn-")
        if stamp and name in TURN_FACTS and turn.isdigit() and turn == str(int(turn)):
            if not first <= int(turn) <= state.turn:
                raise _refuse(game, f"the fact {fact!r} is of no Turn played yet", "2.3")
            continue
        if fact not in earliest:
            raise _refuse(game, f"the fact {fact[:40]!r} is nothing the rules remember")
        if earliest[fact] > state.turn:
            raise _refuse(
                game, f"the fact {fact!r} cannot have happened before Turn {earliest[fact]}", "8.1"
            )


def _check_procedure(game: SwordOfOrthodoxy, state: SooState) -> None:
    """The stack as a whole (Appendix C), and the Turn against the Chronographia (4.1)."""
    if state.ending is None:
        asking = state.pending.task if state.pending is not None else None
        check_turn_stack(
            state.stack, asking, NextTurn, TURN_SEQUENCE, game=game.ID, rule=game.SEQUENCE_RULE
        )
    cat = game.catalog
    first = state.counter("first-turn")
    drawn = state.pending is None or not isinstance(state.pending.task, TileDraw)
    for turn in range(1, LAST_TURN + 1):
        chits = [
            tile for tile in state.board.on(cat.space(f"chronographia-{turn}")) if tile in cat.chits
        ]
        if turn == state.turn and state.ending is not None:
            continue  # the game may have ended at the Tile Draw (the mug empty, 11.11)
        expected = int(first <= turn < state.turn or (turn == state.turn and drawn))
        if len(chits) != expected:
            raise _refuse(
                game,
                f"Turn {state.turn} with {len(chits)} Turn Chits on the Chronographia's "
                f"Turn {turn}, not {expected}",
                "4.1",
            )


def _check_tasks(game: SwordOfOrthodoxy, state: SooState) -> None:
    words = _words(game)
    tiles = len(game.catalog.tiles)
    for task, name, value in task_fields(state, Task):
        where = f"{type(task).__name__}.{name}"
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                if not is_word(item, words, code_words(type(task).__module__)):
                    raise _refuse(
                        game, f"the step {where} names {item[:40]!r}, nothing of the game"
                    )
                continue
            assert isinstance(item, int)
            if isinstance(item, enum.Enum):
                continue  # a Path: one of its members, or the decoder refuses it
            if name not in NUMBER_RANGES:
                raise _refuse(game, f"the step {where} holds {item}, a number of no known range")
            low, high = NUMBER_RANGES[name]
            if name == "military" and item:
                low, high = state.turn + 1, state.turn + 6
            top = tiles if high is None else high
            if not low <= item <= top:
                raise _refuse(game, f"the step {where} holds {item}, outside {low}-{top}")


def _check_request(game: SwordOfOrthodoxy, state: SooState) -> None:
    request = state.pending
    if request is None:
        return
    if request.kind is RequestKind.ROLL and not 1 <= request.dice <= MAX_DICE:
        raise _refuse(game, f"a roll of {request.dice} dice", request.rule)
    if request.kind is RequestKind.DRAW and request.space not in game.catalog.space_index:
        raise _refuse(game, f"a draw from {request.space[:40]!r}, no space", request.rule)
    asked = ask_again(Context(game, None), replace(state, "pending", None), request.task)
    require_same_request(game.ID, request, asked.pending)
