"""Byzantine Action Phase, rules 10.3, 10.4, 10.14: Hospitals, Monasteries, Akritai."""

from __future__ import annotations

from byzantium.sword_of_orthodoxy.engine import Context, Offer
from byzantium.sword_of_orthodoxy.state import Request, Roll, SooState

__all__ = ["akritai_intercept", "offers"]


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The actions of these rules the player may take now (none yet)."""
    del ctx, state
    return []


def akritai_intercept(
    ctx: Context, state: SooState, request: Request, roll: Roll
) -> SooState | None:
    """10.4.2: before a roll that applies to one Path alone is used, offer the Akritai.

    Returns the state waiting for the player's adjustment, or ``None`` when no
    Akritai can adjust this roll (the roll then goes straight to its task).
    """
    del ctx, state, request, roll
    return None
