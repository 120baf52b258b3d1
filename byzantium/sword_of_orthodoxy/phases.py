"""The phases of a Turn, in the order of the Sequence of Play (Appendix C)."""

from __future__ import annotations

from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.barbarians import BarbarianPhase
from byzantium.sword_of_orthodoxy.end_of_turn import EndOfTurnPhase
from byzantium.sword_of_orthodoxy.leadership import LeadershipPhase
from byzantium.sword_of_orthodoxy.state import Task
from byzantium.sword_of_orthodoxy.synopsis import SynopsisPhase
from byzantium.sword_of_orthodoxy.tax import TaxPhase
from byzantium.sword_of_orthodoxy.turn_start import TurnStartPhase

__all__ = ["PHASES"]

#: After the Tile Draw (4.1), which :class:`~byzantium.sword_of_orthodoxy.turn.NextTurn`
#: pushes itself: B Turn Start, C Leadership, D Tax, E Chronicle Synopsis, F Barbarian,
#: G Byzantine Action, H End of Turn.
PHASES: tuple[type[Task], ...] = (
    TurnStartPhase,
    LeadershipPhase,
    TaxPhase,
    SynopsisPhase,
    BarbarianPhase,
    ActionPhase,
    EndOfTurnPhase,
)
