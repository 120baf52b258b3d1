"""Dice, exact outcome distributions and die-roll modifiers.

Everything here is a pure function of the roll. The outcome tables are exact
:class:`fractions.Fraction` distributions, the shape a game returns from
``chance_outcomes``; a driver samples them, a tester forces any face.

>>> [(face, str(p)) for face, p in d6()][:2]
[(1, '1/6'), (2, '1/6')]
>>> dict(two_d6())[7]
Fraction(1, 6)
>>> roll = Roll(6, (Modifier(-2, "Cataphracts"),), natural_extremes=True)
>>> roll.value  # a natural 6 ignores every modifier
6
>>> Roll(4, (Modifier(-2, "Cataphracts"),)).value
2
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import TypeVar

import attrs

from byzantium.core.errors import ArgumentError

__all__ = [
    "MAX_OUTCOMES",
    "Comparison",
    "Distribution",
    "Modifier",
    "Roll",
    "d6",
    "d66",
    "dice",
    "die",
    "modified",
    "probability",
    "total",
    "two_d6",
]

T = TypeVar("T")

#: The most outcomes :func:`dice` enumerates (six dice of six faces): a roll of
#: more is refused rather than listed.
MAX_OUTCOMES = 6**6

#: An exact discrete distribution: outcomes with positive probabilities summing to 1.
Distribution = tuple[tuple[T, Fraction], ...]


def _whole(name: str, value: object) -> int:
    """``value`` if it is an integer (not a bool), else :class:`ArgumentError`."""
    if type(value) is not int:
        raise ArgumentError(f"{name} must be an integer, not {repr(value)[:60]}")
    return value


def die(faces: int = 6) -> Distribution[int]:
    """One fair die numbered 1..``faces``."""
    if _whole("faces", faces) < 1:
        raise ArgumentError("a die needs at least one face")
    return _die(faces)


@cache
def _die(faces: int) -> Distribution[int]:
    p = Fraction(1, faces)
    return tuple((face, p) for face in range(1, faces + 1))


def d6() -> Distribution[int]:
    """One six-sided die."""
    return die(6)


def dice(count: int, faces: int = 6) -> Distribution[tuple[int, ...]]:
    """``count`` distinguishable dice, as ordered tuples of faces (for coloured dice).

    >>> dice(40)
    Traceback (most recent call last):
    ...
    byzantium.core.errors.ArgumentError: 40 dice of 6 faces: more than 46656 outcomes
    """
    if _whole("count", count) < 1:
        raise ArgumentError("roll at least one die")
    if _whole("faces", faces) < 1:
        raise ArgumentError("a die needs at least one face")
    if count > MAX_OUTCOMES.bit_length() or faces**count > MAX_OUTCOMES:
        raise ArgumentError(f"{count} dice of {faces} faces: more than {MAX_OUTCOMES} outcomes")
    return _dice(count, faces)


@cache
def _dice(count: int, faces: int) -> Distribution[tuple[int, ...]]:
    p = Fraction(1, faces**count)
    return tuple((combo, p) for combo in itertools.product(range(1, faces + 1), repeat=count))


@cache
def two_d6() -> Distribution[int]:
    """The sum of two six-sided dice, 2..12."""
    totals: dict[int, Fraction] = {}
    for (a, b), p in dice(2):
        totals[a + b] = totals.get(a + b, Fraction(0)) + p
    return tuple(sorted(totals.items()))


@cache
def d66() -> Distribution[int]:
    """Two dice read as tens and ones (11, 12, ... 16, 21, ... 66), each 1/36."""
    return tuple((10 * a + b, p) for (a, b), p in dice(2))


def probability(distribution: Distribution[T], event: Callable[[T], bool]) -> Fraction:
    """Exact probability that ``event`` holds for an outcome of ``distribution``."""
    return sum((p for outcome, p in distribution if event(outcome)), Fraction(0))


@attrs.frozen
class Modifier:
    """One die-roll modifier with what it comes from (for chronicles and rulings)."""

    value: int
    source: str
    rule: str = ""


def modified(natural: int, drm: int, *, natural_extremes: bool = False, faces: int = 6) -> int:
    """The value of a roll after its summed modifier.

    With ``natural_extremes`` a natural 1 or a natural ``faces`` (6) counts as
    rolled, whatever the modifiers (Sword of Orthodoxy rule 1.1).

    >>> modified(1, +3, natural_extremes=True), modified(1, +3)
    (1, 4)
    """
    if natural_extremes and (natural == 1 or natural == faces):
        return natural
    return natural + drm


@attrs.frozen
class Roll:
    """A die roll with its modifiers, kept together so a chronicle can explain it."""

    natural: int
    modifiers: tuple[Modifier, ...] = ()
    natural_extremes: bool = False
    faces: int = 6

    @property
    def drm(self) -> int:
        """The summed modifier (modifiers are cumulative)."""
        return sum(m.value for m in self.modifiers)

    @property
    def value(self) -> int:
        """The modified value, honouring the natural-roll rule when it applies."""
        return modified(
            self.natural, self.drm, natural_extremes=self.natural_extremes, faces=self.faces
        )

    @property
    def is_natural_extreme(self) -> bool:
        """Whether the roll is a natural 1 or natural top face."""
        return self.natural in (1, self.faces)

    def describe(self) -> str:
        """A short human account: ``"4 -2 (Cataphracts) = 2"``."""
        if not self.modifiers:
            return str(self.natural)
        parts = " ".join(f"{m.value:+d} ({m.source})" for m in self.modifiers)
        suffix = " natural, unmodified" if self.natural_extremes and self.is_natural_extreme else ""
        return f"{self.natural} {parts} = {self.value}{suffix}"


class Comparison(enum.Enum):
    """The comparisons rule texts make between a (modified) roll and a target number."""

    GREATER = ">"
    AT_LEAST = ">="
    EQUAL = "=="
    AT_MOST = "<="
    LESS = "<"

    def holds(self, roll: int, target: int) -> bool:
        """Whether ``roll <op> target``.

        >>> Comparison.GREATER.holds(4, 4), Comparison.AT_LEAST.holds(4, 4)
        (False, True)
        """
        match self:
            case Comparison.GREATER:
                return roll > target
            case Comparison.AT_LEAST:
                return roll >= target
            case Comparison.EQUAL:
                return roll == target
            case Comparison.AT_MOST:
                return roll <= target
            case Comparison.LESS:
                return roll < target
        raise AssertionError(self)  # pragma: no cover

    def chance(
        self,
        target: int,
        drm: int = 0,
        *,
        natural_extremes: bool = False,
        distribution: Sequence[tuple[int, Fraction]] | None = None,
    ) -> Fraction:
        """Exact probability that a modified d6 (or ``distribution``) satisfies the test.

        >>> str(Comparison.GREATER.chance(4, drm=+1, natural_extremes=True))
        '1/2'
        """
        _whole("target", target)
        _whole("drm", drm)
        outcomes = d6() if distribution is None else tuple(distribution)
        return probability(
            outcomes,
            lambda n: self.holds(modified(n, drm, natural_extremes=natural_extremes), target),
        )


def total(modifiers: Iterable[Modifier]) -> int:
    """Sum of a collection of modifiers."""
    return sum(m.value for m in modifiers)
