"""The Sequence of Play (Appendix C) and the Tile Draw Phase (4.0, 4.1).

:class:`NextTurn` opens a Turn: it pushes the phases in order, ending with the next
:class:`NextTurn`. Each phase is a task of its chapter's module.
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.end_of_turn import LAST_TURN, game_over
from byzantium.sword_of_orthodoxy.engine import Context, ask_draw, end_game, push
from byzantium.sword_of_orthodoxy.phases import PHASES
from byzantium.sword_of_orthodoxy.state import Draw, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import move, set_marker

__all__ = ["LAST_TURN", "TURN_SEQUENCE", "NextTurn", "TileDraw", "draw_turn_chit"]


@attrs.frozen
class NextTurn(Task):
    """Begin the next Turn with its phases, in the order of Appendix C."""

    @RULES.implements("C")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        over = game_over(ctx, state)  # 11.11: normally the End of Turn Phase has ended it
        if over is not None:
            return over
        state = replace(state, "turn", state.turn + 1)
        ctx.log("C", f"Turn {state.turn} begins", "turn")
        return push(state, *(step() for step in TURN_SEQUENCE), NextTurn())


@attrs.frozen
class TileDraw(Task):
    """4.1: draw a Turn Chit from the mug and place it on the Chronographia."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if not ctx.cat.on(state.board, ctx.cat.space("turn-chit-mug")):
                return end_game(ctx, state, "11.11", "the Turn Chit mug is empty", defeat=False)
            return ask_draw(state, self, "4.1", "draw a Turn Chit", "turn-chit-mug")
        assert isinstance(answer, Draw)
        return draw_turn_chit(ctx, state, ctx.cat.tile(answer.tile), self)


#: The steps :class:`NextTurn` pushes, the first to run first: the Tile Draw (4.1),
#: then the phases (Appendix C). Validation reads the order of a Turn from here.
TURN_SEQUENCE: tuple[type[Task], ...] = (TileDraw, *PHASES)


@RULES.implements("4.1")
def draw_turn_chit(ctx: Context, state: SooState, tile: int, task: Task) -> SooState:
    """Place the drawn chit face up on the current Turn's Chronographia space.

    The Schism tile may be in the mug (8.4.1 Henotikon): drawing it puts it back on
    the Omnibus Track at zero, and another tile is drawn.
    """
    if tile == ctx.cat.tile("marker-schism"):
        ctx.log("8.4.1", "the Schism tile comes out of the mug: Schism returns at 0", "draw")
        state = move(ctx, state, tile, "omnibus")
        state = set_marker(ctx, state, "schism", 0)
        return push(state, task)
    state = move(ctx, state, tile, f"chronographia-{state.turn}")
    state = replace(state, "board", state.board.flip(tile, False))
    ctx.log("4.1", f"Turn {state.turn}: {ctx.cat.tiles[tile].name} drawn", "draw")
    return state
