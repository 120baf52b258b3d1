"""Chapter 11, the End of Turn Phase (being written: see the rule index)."""

from __future__ import annotations

import attrs

from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.state import SooAction, SooState, Task

__all__ = ["EndOfTurnPhase"]


@attrs.frozen
class EndOfTurnPhase(Task):
    """The End of Turn Phase (not yet implemented: it passes)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return state
