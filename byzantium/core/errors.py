"""Exceptions shared by every game.

Every error the library raises on purpose derives from :class:`ByzantiumError`, so a
frontend can catch the library's complaints without catching its own bugs.
"""

from __future__ import annotations

__all__ = [
    "ArgumentError",
    "ByzantiumError",
    "IllegalActionError",
    "InvalidStateError",
    "RecordError",
    "RuleIndexError",
    "UnknownGameError",
    "UnknownOptionError",
]


class ByzantiumError(Exception):
    """Base class of the library's deliberate errors."""


class IllegalActionError(ByzantiumError):
    """An action that the rules forbid in the given state.

    ``rule`` is the id of the rule the action breaks (for example ``"10.6.5"``) and
    ``reason`` says why in plain words. Raising it never changes the state: states
    are immutable, so the caller still holds the untouched original.
    """

    def __init__(self, rule: str, reason: str, *, game: str = "") -> None:
        self.rule = rule
        self.reason = reason
        self.game = game
        where = f"{game} " if game else ""
        super().__init__(f"illegal action ({where}rule {rule}): {reason}")


class InvalidStateError(ByzantiumError, ValueError):
    """A state that the rules could not have produced (``Game.validate``).

    ``rule`` is the id of the rule the inconsistency breaks when one can be named
    (``""`` otherwise) and ``reason`` says what is inconsistent, for example a
    counter on a hex that is not on the map, or a pending question that the
    procedure would not ask in this position.
    """

    def __init__(self, reason: str, *, rule: str = "", game: str = "") -> None:
        self.rule = rule
        self.reason = reason
        self.game = game
        where = f"{game} " if game else ""
        ruled = f", rule {rule}" if rule else ""
        super().__init__(f"inconsistent {where}state{ruled}: {reason}")


class UnknownGameError(ByzantiumError, LookupError):
    """``load_game`` was asked for a game id that is not registered."""


class UnknownOptionError(ByzantiumError, ValueError):
    """A game option that the game does not define, or a value it does not accept."""


class RecordError(ByzantiumError, ValueError):
    """A game record that is malformed or does not replay.

    ``step`` is the index of the first bad step in the record's action list, or
    ``None`` when the record is bad as a whole (wrong game, options, data digest...).
    """

    def __init__(self, message: str, *, step: int | None = None) -> None:
        self.step = step
        prefix = f"step {step}: " if step is not None else ""
        super().__init__(prefix + message)


class RuleIndexError(ByzantiumError, ValueError):
    """A rule index file or a rule registration that is not well formed."""


class ArgumentError(ByzantiumError, ValueError, TypeError):
    """A value of the wrong type or out of range given to the library: a player index
    that is no seat, an action of another game to describe, a number of dice it does
    not roll. (A state of another game, or no state, is an :class:`InvalidStateError`.)"""
