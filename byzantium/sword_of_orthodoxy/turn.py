"""The Sequence of Play (Appendix C) and the Tile Draw Phase (4.0, 4.1).

:class:`NextTurn` opens a Turn: it pushes the phases in order, ending with the next
:class:`NextTurn`. Each phase is a task of its chapter's module.
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.actions import CALL_COUNCIL
from byzantium.sword_of_orthodoxy.end_of_turn import LAST_TURN, game_over
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_draw, end_game, push
from byzantium.sword_of_orthodoxy.phases import PHASES
from byzantium.sword_of_orthodoxy.state import Decline, Draw, Select, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import move, set_marker

__all__ = [
    "CONTROLLED_COUNCILS",
    "LAST_TURN",
    "TURN_SEQUENCE",
    "NextTurn",
    "TileDraw",
    "council_draw",
    "draw_turn_chit",
]

#: The peer app's option: the player says each Turn whether to call a Council (4.1).
CONTROLLED_COUNCILS = "controlled_councils"


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
    """4.1: draw a Turn Chit from the mug and place it on the Chronographia.

    With the peer option Controlled Ecumenical Councils, while a Council chit is in
    the mug, the draw is :class:`CouncilDraw`'s.
    """

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            mug = ctx.cat.on(state.board, ctx.cat.space("turn-chit-mug"))
            if not mug:
                return end_game(ctx, state, "11.11", "the Turn Chit mug is empty", defeat=False)
            if ctx.option(CONTROLLED_COUNCILS) and council_in_mug(ctx, mug):
                return push(state, CouncilDraw())
            return ask_draw(state, self, "4.1", "draw a Turn Chit", "turn-chit-mug")
        assert isinstance(answer, Draw)
        return draw_turn_chit(ctx, state, ctx.cat.tile(answer.tile), self)


def council_in_mug(ctx: Context, mug: list[int]) -> bool:
    """Whether a chit with the Council (Patriarch) symbol is among the tiles of the mug."""
    chits = ctx.cat.chits
    return any(chits[t].patriarch for t in mug if t in chits)


@attrs.frozen
class CouncilDraw(Task):
    """The Tile Draw with the peer option Controlled Ecumenical Councils (4.1).

    The player first says whether to call a Council; ``council`` is ``""`` (not
    asked yet), ``"yes"``, ``"no"`` or ``"redraw"`` (a No drew a Council chit), and
    :func:`council_draw` says when a drawn chit is drawn again.
    """

    council: str = ""

    @RULES.implements("4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if not self.council:
                prompt = "call an Ecumenical Council this Turn?"
                options: list[SooAction] = [Decline(), Select(CALL_COUNCIL)]
                return ask_choice(state, self, "4.1", prompt, options)
            prompt = "draw a Turn Chit"
            if self.council == "yes":
                prompt = "draw a Turn Chit until a Council chit comes out"
            elif self.council == "redraw":
                prompt = "draw a Turn Chit again: this one is final"
            return ask_draw(state, self, "4.1", prompt, "turn-chit-mug")
        if isinstance(answer, Select):
            ctx.log("4.1", "the player calls an Ecumenical Council this Turn", "draw")
            return attrs.evolve(self, council="yes").run(ctx, state, None)
        if isinstance(answer, Decline):
            ctx.log("4.1", "the player calls no Ecumenical Council this Turn", "draw")
            return attrs.evolve(self, council="no").run(ctx, state, None)
        assert isinstance(answer, Draw)
        tile = ctx.cat.tile(answer.tile)
        again = council_draw(ctx, self.council, tile)
        if again is not None:
            return attrs.evolve(self, council=again).run(ctx, state, None)
        return draw_turn_chit(ctx, state, tile, self)


@RULES.implements("4.1", "5.3.1")
def council_draw(ctx: Context, council: str, tile: int) -> str | None:
    """Controlled Ecumenical Councils (peer option): must a drawn chit be drawn again?

    After a Yes every chit without the Council symbol is set aside and the drawing
    goes on until a Council chit comes out; the set-aside chits go back, so this
    is drawing again from the whole mug (the same chances). After a No a Council
    chit stays in the mug and one more chit is drawn, which is final whatever it is
    (see the rulings page). Returns the ``council`` step of the next draw, or None
    when this chit is the Turn's. The Schism tile (8.4.1) never counts as a draw.
    """
    chit = ctx.cat.chits.get(tile)
    if chit is None:
        return None
    if council == "yes" and not chit.patriarch:
        ctx.log("4.1", f"{chit.id} has no Council symbol: set aside, draw again", "draw")
        return "yes"
    if council == "no" and chit.patriarch:
        ctx.log("4.1", f"{chit.id} calls a Council: it goes back, one more draw", "draw")
        return "redraw"
    return None


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
