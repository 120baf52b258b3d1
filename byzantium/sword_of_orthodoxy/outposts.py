"""Byzantine Action Phase, rules 10.1, 10.2, 10.5, 10.5.1: Outposts and Greek Fire."""

from __future__ import annotations

from byzantium.sword_of_orthodoxy.engine import Context, Offer
from byzantium.sword_of_orthodoxy.state import SooState

__all__ = ["offers"]


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The actions of these rules the player may take now (none yet)."""
    del ctx, state
    return []
