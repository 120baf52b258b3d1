"""Observation tensors: a fixed-shape numeric encoding of what one player may see.

Learning code wants an observation as a vector of numbers of the same length in every
state. A game provides one through
:meth:`~byzantium.core.game.Game.observation_tensor` (a flat list of floats, pure
Python) and describes it with a :class:`TensorLayout`: named segments, each a block
of consecutive numbers with its own shape, bounds and meaning, laid end to end. The
layout of a game instance never changes (it depends on the component data only), so
a segment's offset is the same in every state.

A tensor shows only what the player may see: a game builds it from its
:meth:`~byzantium.core.game.Game.observation`, never from the state directly.

>>> layout = TensorLayout((Segment("scores", (2,), "banked points"), Segment("turn", (1,), "")))
>>> layout.size, layout.offset("turn")
(3, 2)
>>> writer = TensorWriter(layout)
>>> writer.put("scores", [3, 5]).put("turn", [1]).values()
[3.0, 5.0, 1.0]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

import attrs

from byzantium.core.rules import get_rulebook

__all__ = ["Segment", "TensorLayout", "TensorWriter", "flags", "one_hot"]


@attrs.frozen
class Segment:
    """A block of an observation tensor: ``shape`` numbers (row-major) meaning
    ``description``, each between ``low`` and ``high`` (``math.inf`` when unbounded)."""

    name: str
    shape: tuple[int, ...]
    description: str
    low: float = 0.0
    high: float = 1.0
    #: How many numbers the segment holds.
    size: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "size", math.prod(self.shape))


@attrs.frozen
class TensorLayout:
    """The segments of an observation tensor, in order."""

    segments: tuple[Segment, ...]
    #: Where each segment starts, and the length of the tensor (worked out once).
    _starts: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    _size: int = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        names = [segment.name for segment in self.segments]
        if len(set(names)) != len(names):
            raise ValueError(f"a segment name is used twice in {names}")
        starts = [0]
        for segment in self.segments:
            starts.append(starts[-1] + segment.size)
        object.__setattr__(self, "_starts", tuple(starts[:-1]))
        object.__setattr__(self, "_size", starts[-1])

    @property
    def size(self) -> int:
        """The length of the tensor."""
        return self._size

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape: one dimension, :attr:`size` long."""
        return (self.size,)

    def offset(self, name: str) -> int:
        """Where the segment ``name`` starts."""
        for segment, start in zip(self.segments, self._starts, strict=True):
            if segment.name == name:
                return start
        raise KeyError(name)

    def segment(self, name: str) -> Segment:
        """The segment called ``name``."""
        for segment in self.segments:
            if segment.name == name:
                return segment
        raise KeyError(name)

    def bounds(self) -> tuple[list[float], list[float]]:
        """The lowest and the highest value of every number, segment by segment."""
        lows: list[float] = []
        highs: list[float] = []
        for segment in self.segments:
            lows += [segment.low] * segment.size
            highs += [segment.high] * segment.size
        return lows, highs

    def describe(self) -> str:
        """A table of the segments for people: offset, shape, bounds, meaning."""
        lines = []
        start = 0
        for s in self.segments:
            dims = "x".join(map(str, s.shape))
            lines.append(
                f"{start:>6} {s.name:<22} {dims:<8} [{s.low:g}, {s.high:g}] {s.description}"
            )
            start += s.size
        return "\n".join(lines)


class TensorWriter:
    """Builds a tensor segment by segment, in the layout's order, checking every length.

    The tensor starts as zeros: :meth:`put` writes a segment's numbers, :meth:`put_ones`
    the ones of a sparse segment (one-hot rows, flags) by their positions in it.
    """

    def __init__(self, layout: TensorLayout) -> None:
        self.layout = layout
        self._values: list[float] = [0.0] * layout.size
        self._next = 0

    def _segment(self, name: str) -> tuple[int, Segment]:
        segments = self.layout.segments
        if self._next >= len(segments) or segments[self._next].name != name:
            raise ValueError(f"segment {name!r} is not the next one of the layout")
        segment = segments[self._next]
        start = self.layout._starts[self._next]
        self._next += 1
        return start, segment

    def put(self, name: str, values: Iterable[float | int | bool]) -> TensorWriter:
        """Write the numbers of the next segment, which must be called ``name``."""
        start, segment = self._segment(name)
        numbers = list(map(float, values))
        if len(numbers) != segment.size:
            raise ValueError(f"segment {name!r} takes {segment.size} numbers, not {len(numbers)}")
        self._values[start : start + segment.size] = numbers
        return self

    def put_ones(self, name: str, positions: Iterable[int]) -> TensorWriter:
        """Write the next segment, ``name``: ones at ``positions`` (row-major, counted
        from the segment's start), zeros elsewhere."""
        start, segment = self._segment(name)
        values = self._values
        for position in positions:
            if not 0 <= position < segment.size:
                raise ValueError(f"position {position} is outside segment {name!r}")
            values[start + position] = 1.0
        return self

    def values(self) -> list[float]:
        """The finished tensor (every segment must have been put)."""
        if self._next != len(self.layout.segments):
            missing = self.layout.segments[self._next].name
            raise ValueError(f"segment {missing!r} was not put")
        return self._values


def one_hot(index: int, size: int) -> list[float]:
    """``size`` zeros with a one at ``index`` (all zeros when ``index`` is -1)."""
    values = [0.0] * size
    if index >= 0:
        values[index] = 1.0
    return values


def flags(members: Sequence[object], present: Iterable[object]) -> list[float]:
    """One per member: 1 if it is among ``present``."""
    chosen = set(present)
    return [1.0 if member in chosen else 0.0 for member in members]


@functools.cache
def rule_slots(game_id: str) -> dict[str, int]:
    """Each rule of a game's index with its position, in index order: the one-hot
    slots of a tensor segment naming the rule that asks (one more slot, ``len()``,
    stands for a rule outside the index)."""
    return {entry.id: i for i, entry in enumerate(get_rulebook(game_id))}
