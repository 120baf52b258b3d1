"""Chapter 10, the Byzantine Action Phase (being written: see the rule index).

Until chapter 10 is built the phase offers one choice: to end it.
"""

from __future__ import annotations

import attrs

from byzantium.sword_of_orthodoxy.engine import Context, ask_choice
from byzantium.sword_of_orthodoxy.state import Decline, SooAction, SooState, Task

__all__ = ["ActionPhase"]


@attrs.frozen
class ActionPhase(Task):
    """The Byzantine Action Phase: for now, only ending it."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            return ask_choice(state, self, "10.0", "Byzantine Action Phase", [Decline()])
        ctx.log("10.0", "the Byzantine Action Phase ends")
        return state
