"""Byzantine Action Phase, rules 10.9-10.12, 10.15: Orthodoxy, divisions, Ruins, Factions, Niké."""

from __future__ import annotations

from byzantium.sword_of_orthodoxy.engine import Context, Offer
from byzantium.sword_of_orthodoxy.state import SooState

__all__ = ["offers"]


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The actions of these rules the player may take now (none yet)."""
    del ctx, state
    return []
