"""Helpers for Sword of Orthodoxy tests: build states, run tasks, answer requests.

Typical use::

    state = campaign()                       # setup done, waiting for the first chit
    state = with_board(state, lambda c, s: move(c, s, c.cat.tile("army-delta-persia"), "nicaea"))
    state = start(state, Advance(Path.DELTA, "9.3"))   # run one task on its own
    state = answer(state, Roll((6,)))        # feed the roll it asked for
    GAME.validate(in_play(state))            # a position play could hold, for validation
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import attrs

from byzantium.core.game import Event
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, push, settle
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.turn import NextTurn

GAME = SwordOfOrthodoxy()
MILLENNIUM = SwordOfOrthodoxy({"scenario": "millennium"})


def ctx(game: SwordOfOrthodoxy = GAME, events: list[Event] | None = None) -> Context:
    """A task context for ``game``."""
    return Context(game, events)


def campaign() -> SooState:
    """The Campaign after setup, waiting for Turn 1's chit."""
    return GAME.initial_state()


def millennium() -> SooState:
    """The Millennium scenario after setup, waiting for Turn 15's chit."""
    return MILLENNIUM.initial_state()


def idle(state: SooState) -> SooState:
    """The same board with nothing scheduled and nothing asked."""
    return attrs.evolve(state, stack=(), pending=None)


def in_play(state: SooState, game: SwordOfOrthodoxy = GAME) -> SooState:
    """A state built by these helpers (tasks run on an idle board) set in a position
    play produces, for validation (issue 36): the next Turn's step under its
    procedure, and the current Turn's chit drawn onto the Chronographia (4.1) if it
    is still in the mug. The procedure, the request and the rest of the board are
    kept."""
    cat = game.catalog
    space = cat.space(f"chronographia-{state.turn}")
    board = state.board
    if not any(tile in cat.chits for tile in board.on(space)):
        mug = cat.space("turn-chit-mug")
        chit = next(tile for tile in board.on(mug) if tile in cat.chits)
        board = board.move(chit, space)
    return attrs.evolve(state, board=board, stack=(NextTurn(), *state.stack))


def with_board(
    state: SooState,
    change: Callable[[Context, SooState], SooState],
    game: SwordOfOrthodoxy = GAME,
) -> SooState:
    """Apply a board change written with the world helpers (``move``, ``set_marker``...)."""
    return change(ctx(game), state)


def start(state: SooState, *tasks: Task, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Run ``tasks`` (first one first) on an idle copy of ``state`` until they ask something."""
    context = ctx(game)
    return settle(context, push(idle(state), *tasks))


def answer(state: SooState, *actions: SooAction, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Apply actions in turn through the public contract (legality is checked)."""
    for action in actions:
        state = game.apply(state, action)
    return state


def events_of(
    state: SooState, actions: Iterable[SooAction], game: SwordOfOrthodoxy = GAME
) -> list[Event]:
    """The events of applying ``actions`` in turn."""
    found: list[Event] = []
    for action in actions:
        step = game.step(state, action)
        found.extend(step.events)
        state = step.state
    return found


def where(state: SooState, tile_id: str, game: SwordOfOrthodoxy = GAME) -> str:
    """The id of the space a tile is on."""
    cat = game.catalog
    return cat.spaces[state.board.where[cat.tile(tile_id)]].id


def put(
    state: SooState,
    tile_id: str,
    space: str,
    value: int = 0,
    *,
    back: bool | None = None,
    game: SwordOfOrthodoxy = GAME,
) -> SooState:
    """Move a tile to a space (at ``value`` on a track); ``back`` turns it if given."""
    cat = game.catalog
    tile = cat.tile(tile_id)
    board = state.board.move(tile, cat.space(space), value)
    if back is not None:
        board = board.flip(tile, back)
    return attrs.evolve(state, board=board)


def fill_zone(state: SooState, path: Path, count: int, game: SwordOfOrthodoxy = GAME) -> SooState:
    """The ``count`` first Armies of a western Path in its Zone, the others in its Reserves."""
    cat = game.catalog
    name = path.name.lower()
    for i, army in enumerate(cat.tiles_of(TileKind.ARMY, path)):
        space = f"zone-{name}" if i < count else f"reserves-{name}"
        state = put(state, cat.tiles[army].id, space, game=game)
    return state
