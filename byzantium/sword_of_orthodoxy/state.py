"""The state of a game of Sword of Orthodoxy, and the catalogue it is read with.

Every tile of the box is always somewhere: :class:`Board` records, per tile, the
space it is on, whether its back face is up, and its position when it lies on a
track (the Omnibus Track, the Strategikon). Tile conservation is therefore built
into the shape of the state. What is still to be done this Turn is a stack of
procedure steps (:class:`Task`); when a step needs a die roll, a draw from a mug
or a decision of the player, the state holds that :class:`Request` until an
action answers it.

The :class:`Catalog` is the static side: the loaded components with integer
indexes for tiles and spaces, so that rules read the board without string look-ups.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable

import attrs

from byzantium.core.codec import Tagged
from byzantium.core.procedure import LazyOptions
from byzantium.sword_of_orthodoxy.components import (
    Components,
    Face,
    Icon,
    MapSpace,
    Path,
    SpaceKind,
    Tile,
    TileKind,
    TurnChit,
)

__all__ = [
    "Board",
    "Catalog",
    "Decline",
    "Draw",
    "Ending",
    "Pay",
    "Request",
    "RequestKind",
    "Roll",
    "Select",
    "SooAction",
    "SooState",
    "Task",
]


# -- actions ----------------------------------------------------------------------


@attrs.frozen
class Roll:
    """Chance: the faces the dice show, in the order they were rolled."""

    dice: tuple[int, ...]


@attrs.frozen
class Draw:
    """Chance: the tile drawn at random from a mug."""

    tile: str


@attrs.frozen
class Pay:
    """The player spends this many solidus (0 for nothing) on the matter asked."""

    amount: int


@attrs.frozen
class Select:
    """The player picks one of the offered items: a tile, a Path letter, a space, an option."""

    item: str


@attrs.frozen
class Decline:
    """The player does not take the optional step offered."""


SooAction = Roll | Draw | Pay | Select | Decline


# -- procedure --------------------------------------------------------------------


class Task(Tagged):
    """A step of the procedure still to be carried out.

    Concrete tasks are frozen attrs subclasses with a ``run`` method (see
    :mod:`byzantium.sword_of_orthodoxy.engine`).
    """

    __slots__ = ()


class RequestKind(enum.Enum):
    """What the game waits for."""

    ROLL = "roll"
    DRAW = "draw"
    CHOOSE = "choose"


@attrs.frozen
class Request(LazyOptions):
    """The game waits for an answer; ``task`` continues with it.

    The menu of a decision (``options``) may be built the first time it is read
    (:func:`~byzantium.sword_of_orthodoxy.engine.ask_menu`); it is a function of the
    rest of the state, so equality and the hash leave it out (a state read from
    outside is checked with its menu, :func:`~byzantium.core.procedure.require_same_request`).
    """

    kind: RequestKind
    rule: str
    prompt: str
    task: Task
    #: ROLL: how many dice.
    dice: int = 0
    #: DRAW: the space (mug) drawn from.
    space: str = ""
    #: CHOOSE: the legal answers, simplest first.
    options: tuple[SooAction, ...] = attrs.field(default=(), eq=False)
    #: ROLL: the Path a single-die roll applies to alone, if any (an Akritai there may
    #: adjust it, 10.4.2).
    path: Path | None = None


@attrs.frozen
class Ending:
    """Why and how the game ended."""

    defeat: bool
    rule: str
    reason: str


# -- the board --------------------------------------------------------------------


@attrs.frozen
class Board:
    """Where every tile is: a space index, the face up, and a track position."""

    where: tuple[int, ...]
    back: tuple[bool, ...]
    value: tuple[int, ...]

    def on(self, space: int) -> list[int]:
        """The tiles on a space, in index order."""
        # tuple.index scans in C: one call per tile found, instead of a Python loop
        # over every tile of the box.
        where = self.where
        found: list[int] = []
        at = -1
        try:
            while True:
                at = where.index(space, at + 1)
                found.append(at)
        except ValueError:
            return found

    def move(self, tile: int, space: int, value: int = 0) -> Board:
        """The board after moving one tile (keeping its face)."""
        where = list(self.where)
        values = list(self.value)
        where[tile] = space
        values[tile] = value
        return Board(tuple(where), self.back, tuple(values))

    def flip(self, tile: int, back: bool) -> Board:
        """The board with one tile's back face up (``back``) or front face up."""
        if self.back[tile] is back:
            return self
        faces = list(self.back)
        faces[tile] = back
        return Board(self.where, tuple(faces), self.value)

    def set_value(self, tile: int, value: int) -> Board:
        """The board with one tile moved along its track."""
        values = list(self.value)
        values[tile] = value
        return Board(self.where, self.back, tuple(values))


@attrs.frozen(cache_hash=True)
class SooState:
    """A state of Sword of Orthodoxy.

    ``turn`` is the current Game Turn (0 before the first chit is drawn);
    ``done`` names one-time things that have happened (once-only events, the rise
    of Islam, strategic retreats...); ``counters`` holds the few numbers the rules
    remember that no tile shows (e.g. how often War in the East came up).
    """

    turn: int
    board: Board
    stack: tuple[Task, ...] = ()
    pending: Request | None = None
    done: frozenset[str] = frozenset()
    counters: tuple[tuple[str, int], ...] = ()
    ending: Ending | None = None

    def counter(self, name: str) -> int:
        """The value of a named counter (0 if never set)."""
        for key, value in self.counters:
            if key == name:
                return value
        return 0


# -- the catalogue ------------------------------------------------------------------


class Catalog:
    """Components with integer indexes: tiles first, then the Turn Chits."""

    def __init__(self, components: Components) -> None:
        self.components = components
        chit_tiles = [_chit_tile(chit) for chit in components.chits]
        self.tiles: tuple[Tile, ...] = components.tiles + tuple(chit_tiles)
        self.chits: dict[int, TurnChit] = {}
        self.tile_index: dict[str, int] = {tile.id: i for i, tile in enumerate(self.tiles)}
        for chit in components.chits:
            self.chits[self.tile_index[chit.id]] = chit
        self.spaces: tuple[MapSpace, ...] = components.spaces
        self.space_index: dict[str, int] = {s.id: i for i, s in enumerate(self.spaces)}
        # The catalogue never changes: the look-ups rules make all the time are answered
        # from tables built here (per Path) or on first use (tiles by kind).
        self._tiles_of: dict[tuple[TileKind, Path | None], tuple[int, ...]] = {}
        self._armies = {path: self.tiles_of(TileKind.ARMY, path) for path in Path}
        self._mongols = {
            path: tuple(
                t for t in self.tiles_of(TileKind.MARKER, path) if self.tiles[t].front.strength
            )
            for path in Path
        }
        self._themas = {path: self._line_of(path) for path in Path}
        self._zones: dict[Path, int] = {}
        self._reserves: dict[Path, int] = {}
        for i, space in enumerate(self.spaces):
            if space.path is not None and space.kind is SpaceKind.ZONE:
                self._zones.setdefault(space.path, i)
            if space.path is not None and space.kind is SpaceKind.RESERVES:
                self._reserves.setdefault(space.path, i)
        # The look-ups asked most often (tens of times a transition) are the tables'
        # own bound look-ups, called without a Python function in between.
        #: Index of a tile id (raises KeyError for an unknown id).
        self.tile: Callable[[str], int] = self.tile_index.__getitem__
        #: Index of a space id (raises KeyError for an unknown id).
        self.space: Callable[[str], int] = self.space_index.__getitem__
        #: Indexes of a Path's Army tiles (``tiles_of(TileKind.ARMY, path)``).
        self.armies: Callable[[Path], tuple[int, ...]] = self._armies.__getitem__
        #: The markers of a Path with a strength: the Mongols, who stand in for its Army.
        self.mongols: Callable[[Path], tuple[int, ...]] = self._mongols.__getitem__
        #: Space indexes of an eastern Path, from Constantinople's neighbour to the Homeland.
        self.themas: Callable[[Path], tuple[int, ...]] = self._themas.__getitem__
        #: Space index of a western Path's Zone (KeyError for an eastern Path).
        self.zone: Callable[[Path], int] = self._zones.__getitem__
        #: Space index of a western Path's Reserves (KeyError for an eastern Path).
        self.reserves: Callable[[Path], int] = self._reserves.__getitem__

    # -- look-ups ---------------------------------------------------------------

    def tiles_of(self, kind: TileKind, path: Path | None = None) -> tuple[int, ...]:
        """Indexes of the tiles of a kind (and Path)."""
        key = (kind, path)
        found = self._tiles_of.get(key)
        if found is None:
            found = self._tiles_of[key] = tuple(
                i
                for i, tile in enumerate(self.tiles)
                if tile.kind is kind and (path is None or tile.path is path)
            )
        return found

    def face(self, board: Board, tile: int) -> Face:
        """The face of a tile that is up."""
        record = self.tiles[tile]
        if board.back[tile] and record.back is not None:
            return record.back
        return record.front

    def has(self, board: Board, tile: int, icon: Icon) -> bool:
        """Whether the face up shows an icon."""
        return icon in self.face(board, tile).icons

    def on(self, board: Board, space: int, tiles: Iterable[int] | None = None) -> list[int]:
        """The tiles (among ``tiles``, default all) on a space."""
        where = board.where
        if tiles is None:
            return board.on(space)
        return [i for i in tiles if where[i] == space]

    def _line_of(self, path: Path) -> tuple[int, ...]:
        line = sorted(
            (s for s in self.spaces if s.path is path and s.position), key=lambda s: s.position
        )
        return tuple(self.space_index[s.id] for s in line)


def _chit_tile(chit: TurnChit) -> Tile:
    return Tile(chit.id, TileKind.TURN_CHIT, Face(f"Turn Chit {chit.number}"), source=chit.source)
