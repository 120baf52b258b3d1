"""Whether a state of Sword of Orthodoxy is one the rules could have produced.

``Game.validate`` (and so every state read from JSON) runs :func:`validate_state`,
which names the first inconsistency in an
:class:`~byzantium.core.errors.InvalidStateError`:

* every tile and Turn Chit of the box is on exactly one space that exists, shows a
  back face only if it has one, and lies on its track within the printed 0-12 (the
  Military Event tile on one of the Strategikon's spaces);
* the Turn is one of the game's 27 (0 before the first), the remembered counters
  are named once each and never negative;
* the pending request is the one the procedure asks in this position: the task that
  asked is asked again, without an answer, and must ask exactly the same question
  (rule, prompt, dice, mug and options). The legal actions and chance outcomes of
  an accepted state are therefore those the engine computes for it.

A task is asked again by :func:`~byzantium.sword_of_orthodoxy.engine.ask_again`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from byzantium.core.dice import MAX_OUTCOMES
from byzantium.core.errors import InvalidStateError
from byzantium.core.procedure import replace, require_same_request
from byzantium.sword_of_orthodoxy.end_of_turn import LAST_TURN
from byzantium.sword_of_orthodoxy.engine import Context, ask_again
from byzantium.sword_of_orthodoxy.state import RequestKind, SooState
from byzantium.sword_of_orthodoxy.world import MAX_TRACK

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["MAX_DICE", "validate_state"]

#: The most dice one roll asks for (6 ** MAX_DICE outcomes at most).
MAX_DICE = 6
assert 6**MAX_DICE <= MAX_OUTCOMES


def _refuse(game: SwordOfOrthodoxy, reason: str, rule: str = "") -> InvalidStateError:
    return InvalidStateError(reason, rule=rule, game=game.ID)


def validate_state(game: SwordOfOrthodoxy, state: SooState) -> None:
    """Raise :class:`~byzantium.core.errors.InvalidStateError` at the first inconsistency."""
    _check_board(game, state)
    _check_sequence(game, state)
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
    names = [name for name, _ in state.counters]
    if len(set(names)) != len(names) or names != sorted(names):
        raise _refuse(game, "remembered counters named twice or out of order")
    negative = [name for name, value in state.counters if value < 0]
    if negative:
        raise _refuse(game, f"the counter {negative[0]!r} is negative")
    if state.ending is not None:
        if state.pending is not None or state.stack:
            raise _refuse(game, "the game is over but the procedure goes on")
    elif state.pending is None:
        raise _refuse(game, "the game is not over but nothing is asked")


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
