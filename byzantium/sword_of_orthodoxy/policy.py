"""A sensible built-in player for Sword of Orthodoxy (the main job's policy).

It looks one decision ahead: each legal choice is tried, the dice that follow are
averaged over, and the resulting position is scored by :func:`evaluate`, a
heuristic built on the victory points of 12.3 and on the threats that end games
early (Armies about to besiege Constantinople, the Schism near 12, few Factions left
to lose). It is deterministic and plays a full game in seconds; it is a sparring
partner and a baseline, not a strong player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from byzantium.core.drivers import Policy, greedy_policy
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.end_of_turn import BANKING_LIMITS
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.state import SooAction, SooState
from byzantium.sword_of_orthodoxy.world import (
    barbarian_themas,
    eastern_position,
    marker,
    tiles_on,
    zone_armies,
)

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["evaluate", "sensible_policy"]

#: Penalty for Barbarians poised to besiege Constantinople, by Zone count / position.
_ZONE_DANGER = {4: 3.0, 5: 9.0}
_EAST_DANGER = {1: 9.0, 2: 3.0}


def _bank_limit(ctx: Context, state: SooState) -> int:
    monasteries = [
        t
        for t in ctx.cat.tiles_of(TileKind.MONASTERY)
        if ctx.cat.spaces[state.board.where[t]].path is not None and not state.board.back[t]
    ]
    return BANKING_LIMITS[min(len(monasteries), 2)]


def evaluate(ctx: Context, state: SooState) -> float:
    """How good a position is for the Empire (higher is better)."""
    board = state.board
    cat = ctx.cat
    score = 30.0
    for path in Path:
        if path.western:
            armies = len(zone_armies(ctx, state, path))
            score -= armies + _ZONE_DANGER.get(armies, 0.0)
        else:
            score -= barbarian_themas(ctx, state, path)
            score -= _EAST_DANGER.get(eastern_position(ctx, state, path), 0.0)
    factions = tiles_on(ctx, state, "constantinople", TileKind.FACTION)
    # Each Faction is a point at the end and a margin against the Siege roll (12.1):
    # losing the last few is what ends games.
    score += 3.0 * len(factions) - 1.5 * max(0, 8 - len(factions)) ** 2
    if cat.tile("faction-walls") in factions:
        score += 4.0
    schism = marker(ctx, state, "schism")
    score -= 0.4 * max(0, schism - 5) ** 2
    solidus = marker(ctx, state, "solidus")
    keep = _bank_limit(ctx, state)
    score += min(solidus, keep) + 0.1 * max(0, solidus - keep)
    score += 0.5 * min(marker(ctx, state, "nike"), 3)
    score += 2.0 * len(tiles_on(ctx, state, "constantinople", TileKind.GOLDEN_BASILEUS))
    for kind in (TileKind.HOSPITAL, TileKind.MONASTERY):
        score += 2.0 * sum(1 for t in cat.tiles_of(kind) if cat.spaces[board.where[t]].path)
    return score


def sensible_policy(game: SwordOfOrthodoxy) -> Policy[SooState, SooAction]:
    """The built-in player: one-step lookahead on :func:`evaluate`."""
    ctx = Context(game, None)

    def value(state: SooState, player: int) -> float:
        del player
        return evaluate(ctx, state)

    return greedy_policy(value, chance_depth=1)
