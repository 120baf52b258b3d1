"""The Operations Phase (3.1). Placeholder until its rules land."""

from __future__ import annotations

import attrs

from byzantium.belisarius.engine import Context
from byzantium.belisarius.state import BelAction, BelState, Task

__all__ = ["OperationsPhase"]


@attrs.frozen
class OperationsPhase(Task):
    """The phasing player's Operations Phase."""

    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del ctx, answer
        return state
