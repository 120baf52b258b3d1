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
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Final, Generic, TypeVar, cast

import attrs

from byzantium.core.errors import ArgumentError, IllegalActionError
from byzantium.core.guards import is_guarded, with_check

if TYPE_CHECKING:
    from byzantium.core.game import Game

__all__ = ["ActionNumberError", "ActionSpace"]

S = TypeVar("S")
A = TypeVar("A")


class ActionNumberError(ArgumentError, IndexError):
    """An action number outside the space (also an ``IndexError``, as a sequence's)."""


#: The public methods of a space, with what each positional argument must be:
#: ``"state"`` (a state of the game), ``"action"`` (an action of it), ``"number"`` (an
#: integer), ``"slot"`` (an integer below :attr:`ActionSpace.size`) or ``"record"`` (a
#: typed record, an attrs instance). :meth:`ActionSpace.__init_subclass__` puts the
#: checks in front of a space's own versions, and the generic ones are wrapped below.
_GUARDED: Final[dict[str, tuple[str, ...]]] = {
    "index": ("state", "action"),
    "action": ("state", "number"),
    "legal_indices": ("state",),
    "indices": ("state",),
    "mask": ("state",),
    "legal_records": ("state",),
    "label": ("slot",),
    "record": ("slot",),
    "decision": ("slot",),
    "number": ("record",),
}


def _check(space: ActionSpace[object, object], kind: str, value: object) -> None:
    game = space.game
    if kind == "state":
        game.check_state(value)
    elif kind == "action":
        if not game.is_action(value):
            raise ArgumentError(
                f"{game.ID}: a {type(value).__name__[:60]} is not an action of {game.ID}"
            )
    elif kind in ("number", "slot"):
        if type(value) is not int:
            raise ArgumentError(f"{game.ID}: an action number is an integer, not {value!r}"[:200])
        if kind == "slot" and not 0 <= value < space.size:
            last = space.size - 1
            raise ActionNumberError(f"{game.ID}: action numbers are 0 to {last}, not {value}")
    elif kind == "record" and not (isinstance(value, space.RECORD_TYPE) and attrs.has(type(value))):
        raise ArgumentError(f"{game.ID}: a {type(value).__name__[:60]} is not a typed action")


def _guarded(
    name: str, method: Callable[..., object], kinds: tuple[str, ...]
) -> Callable[..., object]:
    def check(
        self: object, args: tuple[object, ...], kw: dict[str, object]
    ) -> tuple[tuple[object, ...], dict[str, object]]:
        space = cast("ActionSpace[object, object]", self)
        for kind, value in zip(kinds, args, strict=False):
            _check(space, kind, value)
        return args, kw

    return with_check(name, method, check)


class ActionSpace(abc.ABC, Generic[S, A]):
    """The stable numbering of a game's decisions.

    A subclass gives :attr:`size`, :meth:`index` (an action offered in a state to
    its number) and :meth:`action` (a number back to the action it stands for in a
    state where it is legal), and :meth:`label`, what a slot means for people. The
    numbering must not depend on the state: the same number always stands for the
    same decision, whatever else is on the board, and two different legal actions of
    one state never share a number.
    """

    #: The base class of the game's typed records (what :meth:`number` takes, where a
    #: space numbers typed records).
    RECORD_TYPE: ClassVar[type] = object

    def __init__(self, game: Game[S, A]) -> None:
        self.game = game

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Put the argument checks (:data:`_GUARDED`) in front of a space's own public
        methods: a state of another game, or a value of the wrong type, is the
        library's error, never a Python one."""
        super().__init_subclass__(**kwargs)
        for name, kinds in _GUARDED.items():
            method = cls.__dict__.get(name)
            if callable(method) and not is_guarded(method):
                setattr(cls, name, _guarded(name, method, kinds))

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

    def indices(self, state: S) -> list[int]:
        """The numbers of the legal actions of ``state`` in
        :meth:`~byzantium.core.game.Game.legal_actions` order: the state is checked
        once, not once per action as :meth:`index` checks it."""
        method = type(self).index
        number = getattr(method, "__wrapped__", method)
        return [number(self, state, action) for action in self.game.legal_actions(state)]

    def mask(self, state: S) -> list[bool]:
        """One flag per number: ``True`` where the number is a legal action of ``state``."""
        flags = [False] * self.size
        for index in self.legal_indices(state):
            flags[index] = True
        return flags


for _name, _kinds in _GUARDED.items():
    _method = ActionSpace.__dict__.get(_name)
    if callable(_method) and not getattr(_method, "__isabstractmethod__", False):
        setattr(ActionSpace, _name, _guarded(_name, _method, _kinds))
