"""What the player of Sword of Orthodoxy sees: everything.

A solitaire game has nobody to hide anything from, so the player's observation is the
state itself (the contents of the mugs included: the player put the tiles in).
:data:`SooObservation` names that type for frontends and bots, so that
``game.observation(state, 0)`` is typed.
"""

from __future__ import annotations

from typing import TypeAlias

from byzantium.sword_of_orthodoxy.state import SooState

__all__ = ["SooObservation", "observe"]

#: The player's view of a state: the state itself.
SooObservation: TypeAlias = SooState


def observe(state: SooState, player: int) -> SooObservation:
    """What ``player`` (the only one, 0) may see of ``state``: all of it."""
    del player
    return state
