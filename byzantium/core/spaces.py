"""A fixed integer action space: every action a game's rules can offer has a stable number.

Machine-learning interfaces (OpenSpiel, PettingZoo, Gymnasium) want the actions of a
game as the integers ``0 .. size-1``, the same integer meaning the same action in
every state, and a mask of the integers legal in the state at hand. A game provides
one through :meth:`~byzantium.core.game.Game.action_space`; this module holds the
contract every such space keeps.

Only decisions are numbered; chance outcomes keep their positions in
:meth:`~byzantium.core.game.Game.chance_outcomes`.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Generic, TypeVar

from byzantium.core.errors import IllegalActionError

if TYPE_CHECKING:
    from byzantium.core.game import Game

__all__ = ["ActionSpace"]

S = TypeVar("S")
A = TypeVar("A")


class ActionSpace(abc.ABC, Generic[S, A]):
    """The stable numbering of a game's decisions.

    A subclass gives :attr:`size`, :meth:`index` (an action offered in a state to
    its number) and :meth:`action` (a number back to the action it stands for in a
    state where it is legal), and :meth:`label`, what a slot means for people. The
    numbering must not depend on the state: the same number always stands for the
    same decision, whatever else is on the board, and two different legal actions of
    one state never share a number.
    """

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """How many numbers there are (every number is below this)."""

    @abc.abstractmethod
    def index(self, state: S, action: A) -> int:
        """The number of ``action``, an action the rules offer in ``state``."""

    @abc.abstractmethod
    def label(self, index: int) -> str:
        """What the slot ``index`` stands for, in words (the same in every state)."""

    def action(self, state: S, index: int) -> A:
        """The legal action of ``state`` numbered ``index``.

        Raises :class:`~byzantium.core.errors.IllegalActionError` when no legal
        action of the state has that number.
        """
        for action in self.game.legal_actions(state):
            if self.index(state, action) == index:
                return action
        what = self.label(index) if 0 <= index < self.size else "out of range"
        raise IllegalActionError(
            self.game.SEQUENCE_RULE,
            f"action number {index} ({what}) is not legal here",
            game=self.game.ID,
        )

    def legal_indices(self, state: S) -> list[int]:
        """The numbers of the legal actions of ``state``, in increasing order."""
        return sorted(self.index(state, action) for action in self.game.legal_actions(state))

    def mask(self, state: S) -> list[bool]:
        """One flag per number: ``True`` where the number is a legal action of ``state``."""
        flags = [False] * self.size
        for index in self.legal_indices(state):
            flags[index] = True
        return flags
