"""Byzantine Action Phase, rules 10.6, 10.8, 10.13: attacks paid for and free (being written)."""

from __future__ import annotations

from byzantium.sword_of_orthodoxy.engine import Context, Offer
from byzantium.sword_of_orthodoxy.state import SooState

__all__ = ["offers"]


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The actions of these rules the player may take now (none yet)."""
    del ctx, state
    return []
