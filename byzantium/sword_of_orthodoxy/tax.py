"""Chapter 7, the Tax Phase: the Turn's income, then where the Kan and the Caliph go.

:class:`TaxPhase` pushes the three steps of Appendix C's part D: the income of the
ruling Dynasty, the grey Basileus and the Patriarch, added to the treasury up to
12 $ (7.1); the Kan's roll (7.2); the Caliph's roll, which may turn him into the
harmless Fitna and pay 1 $ (7.3).
"""

from __future__ import annotations

import attrs

from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import muslim_barbarians
from byzantium.sword_of_orthodoxy.engine import Context, ask_roll, push
from byzantium.sword_of_orthodoxy.leadership import (
    basileis,
    die_space,
    historical_patriarch,
    patriarch,
    ruling_dynasty,
)
from byzantium.sword_of_orthodoxy.state import Roll, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import (
    MAX_TRACK,
    flip,
    marker,
    move,
    set_marker,
    tile_name,
)

__all__ = [
    "FITNA_TRIBUTE",
    "CaliphRoll",
    "Income",
    "KanRoll",
    "TaxPhase",
    "income",
    "on_the_map",
]

#: A Fitna placed by the Caliph roll pays this much into the treasury (7.3).
FITNA_TRIBUTE = 1

#: Spaces that are not on the map: the tray, the discards and the mugs.
_OFF_MAP = (
    "counter-tray",
    "discarded",
    "turn-chit-mug",
    "dynasty-mug",
    "basileus-mug",
    "patriarch-mug",
)


@attrs.frozen
class TaxPhase(Task):
    """The Tax Phase (Appendix C part D): income, the Kan's roll, the Caliph's roll."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return push(state, Income(), KanRoll(), CaliphRoll())


@RULES.implements("7.1")
def income(ctx: Context, state: SooState) -> int:
    """The solidus printed on the ruling Dynasty, the grey Basileus and the Patriarch.

    When Zoe or Theodora reigns with her husband, both their tiles pay (6.2.1:
    both rulers' abilities count). Anarchy pays nothing. With the peer option
    Historical Patriarchs the Patriarch pays the Turn's table value, not his tile's.
    """
    tiles = basileis(ctx, state)
    fixed = historical_patriarch(ctx, state)
    holder = patriarch(ctx, state)
    for tile in (ruling_dynasty(ctx, state), None if fixed else holder):
        if tile is not None:
            tiles.append(tile)
    earned = sum(ctx.cat.face(state.board, tile).solidus for tile in tiles)
    if fixed is not None and holder is not None:
        earned += fixed.solidus
    return earned


@attrs.frozen
class Income(Task):
    """Add this Turn's income to the treasury, never above 12 $ (7.1)."""

    @RULES.implements("7.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        earned = income(ctx, state)
        before = marker(ctx, state, "solidus")
        after = min(MAX_TRACK, before + earned)
        ctx.log("7.1", f"income {earned} $: the treasury goes from {before} to {after} $", "income")
        return set_marker(ctx, state, "solidus", after)


def on_the_map(ctx: Context, state: SooState, tile_id: str) -> bool:
    """Whether a leader tile is in play on the map.

    Not on the Counter Tray, in a mug or discarded, and not exiled to a Turn of
    the Chronographia still to come (10.7.3); on the current Turn's space it has
    just been deployed (5.1).
    """
    space = ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]].id
    if space in _OFF_MAP:
        return False
    if space.startswith("chronographia-"):
        return int(space.removeprefix("chronographia-")) <= state.turn
    return True


@attrs.frozen
class KanRoll(Task):
    """If the Kan! is on the map, a die sends it to the Homeland or Zone rolled (7.2)."""

    @RULES.implements("7.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not on_the_map(ctx, state, "marker-kan"):
            return state
        if answer is None:
            return ask_roll(state, self, "7.2", "Kan roll: the Path the Kan! goes to")
        assert isinstance(answer, Roll)
        space = die_space(ctx, answer.dice[0])
        ctx.log("7.2", f"the Kan! goes to {ctx.cat.components.space(space).name}", "kan")
        return move(ctx, state, ctx.cat.tile("marker-kan"), space)


@attrs.frozen
class CaliphRoll(Task):
    """If the Caliph is on the map, a die sends him to the Homeland or Zone rolled (7.3).

    Where the Path's Barbarians are not Muslim he shows his inert Fitna side, and
    the treasury gains 1 $; where they are, his Caliph side.
    """

    @RULES.implements("7.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not on_the_map(ctx, state, "marker-caliph"):
            return state
        if answer is None:
            return ask_roll(state, self, "7.3", "Caliph roll: the Path the Caliph goes to")
        assert isinstance(answer, Roll)
        caliph = ctx.cat.tile("marker-caliph")
        space = die_space(ctx, answer.dice[0])
        path = ctx.cat.components.space(space).path
        assert path is not None
        state = move(ctx, state, caliph, space)
        fitna = not muslim_barbarians(ctx, state, path)
        state = flip(ctx, state, caliph, fitna)
        name = tile_name(ctx, state, caliph)
        ctx.log("7.3", f"the {name} goes to Path {path}", "caliph")
        if fitna:
            treasury = marker(ctx, state, "solidus")
            ctx.log("7.3", f"the Fitna pays {FITNA_TRIBUTE} $", "income")
            state = set_marker(ctx, state, "solidus", treasury + FITNA_TRIBUTE)
        return state
