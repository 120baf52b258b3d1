"""The state of a game of Belisarius, its actions, and the catalogue it is read with.

Every counter of the mix is always somewhere (11.6: the mix is a limit): :class:`Units`
records, per counter, where it is (a hex, a Peripheral Area box, the off-map stock of
available counters, or out of the game for good) and whether a Guard counter shows
its Mutinying face. Control of each Region, both treasuries, both hands of Stratagem
markers and the Pool, and the markers on the map complete the board. Who controls a
counter follows from the control of its Region (4.2), so it is never stored twice.

What is still to be done is a stack of procedure steps (:class:`Task`); when a step
needs a die roll, a draw of a Stratagem marker or a decision of one player, the state
holds that :class:`Request` until an action answers it.

The :class:`Catalog` is the static side: every counter with an integer index, the
Regions, the Stratagem types and the hexes' Forage values.
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import Any, TypeVar

import attrs

from byzantium.belisarius.components import Components, Side, UnitKind, UnitType
from byzantium.belisarius.hexmap import HexMap, HexsideFeature, Terrain, TerrainKind
from byzantium.belisarius.scenarios import Control, Scenario
from byzantium.core.codec import Tagged
from byzantium.core.procedure import LazyOptions

__all__ = [
    "AVAILABLE",
    "BARBARIAN",
    "EMPIRE",
    "GONE",
    "MAX_SOLIDUS",
    "NOBODY",
    "PLAYERS",
    "Agreement",
    "BelAction",
    "BelState",
    "Catalog",
    "Counter",
    "Done",
    "Draw",
    "Ending",
    "Markers",
    "Place",
    "Promise",
    "PromiseKind",
    "Request",
    "RequestKind",
    "Roll",
    "Select",
    "Stratagems",
    "Task",
    "Units",
    "opponent",
    "per_catalog",
    "place",
    "side_of",
]

#: Player indices: the Empire player is player 0, the Barbarian player player 1.
EMPIRE = 0
BARBARIAN = 1
PLAYERS = (EMPIRE, BARBARIAN)
#: "Controlled by nobody": a Neutral counter or Region (4.3).
NOBODY = -1

#: Where a counter is when it is in the off-map stock, free to enter play (11.61, 21.1).
AVAILABLE = 0
#: Where a counter is when it may never come back (Justinian, 21.4).
GONE = -1
#: The most Solidus Points a treasury (or a payment offered, 24.1) may hold. 10.14 sets
#: no limit, so this is the library's own: far more than any game collects (treasuries
#: of random games stay under a hundred), so that play never meets it while a number
#: read from outside stays within what the engine works with.
MAX_SOLIDUS = 99_999

#: Peripheral Area boxes are locations 1 to 4 (in the map file's order); hexes are
#: their XXYY numbers (>= 101).
FIRST_HEX = 101


def opponent(player: int) -> int:
    """The other player."""
    return 1 - player


def side_of(player: int) -> Side:
    """The side a player index plays."""
    return Side.EMPIRE if player == EMPIRE else Side.BARBARIAN


# -- actions ----------------------------------------------------------------------


@attrs.frozen
class Roll:
    """Chance: the faces the dice show, in the order rolled (tens die first, 6.1)."""

    dice: tuple[int, ...]


@attrs.frozen
class Draw:
    """Chance: the Stratagem marker type picked at random (8.1, 8.51)."""

    stratagem: str


@attrs.frozen
class Select:
    """A player picks one of the offered items (a Region, a unit type, a marker...)."""

    item: str


@attrs.frozen
class Place:
    """A player puts the counter in hand at a location (a hex, or a box 1-4)."""

    where: int


@cache
def place(where: int) -> Place:
    """The :class:`Place` of a location, one shared record per location: the menus of
    set-up, levies and movement list many of them, over and over."""
    return Place(where)


@attrs.frozen
class Done:
    """A player declines, or finishes an optional sequence of steps."""


BelAction = Roll | Draw | Select | Place | Done


# -- procedure --------------------------------------------------------------------


class Task(Tagged):
    """A step of the procedure still to be carried out.

    Concrete tasks are frozen attrs subclasses with a
    ``run(ctx, state, answer) -> BelState`` method (see
    :mod:`byzantium.belisarius.engine`).
    """

    __slots__ = ()


class RequestKind(enum.Enum):
    """What the game waits for."""

    ROLL = "roll"
    #: A random Stratagem marker: from the Pool (``hand`` -1) or from a hand (8.51).
    DRAW = "draw"
    CHOOSE = "choose"


@attrs.frozen
class Request(LazyOptions):
    """The game waits for an answer; ``task`` continues with it.

    The menu of a decision (``options``) may be built the first time it is read
    (:func:`~byzantium.belisarius.engine.ask_menu`); it is a function of the rest of
    the state, so equality and the hash leave it out (a state read from outside is
    checked with its menu, :func:`~byzantium.core.procedure.require_same_request`).
    """

    kind: RequestKind
    rule: str
    prompt: str
    task: Task
    #: CHOOSE: the player who decides.
    player: int = NOBODY
    #: ROLL: how many dice.
    dice: int = 0
    #: DRAW: the hand drawn from (a player index), or NOBODY for the Pool.
    hand: int = NOBODY
    #: CHOOSE: the legal answers, simplest first.
    options: tuple[BelAction, ...] = attrs.field(default=(), eq=False)


@attrs.frozen
class Ending:
    """Why the game ended: the last turn played, or a capitulation (3.1)."""

    rule: str
    reason: str
    #: The player who capitulated, or NOBODY.
    capitulated: int = NOBODY


# -- the board --------------------------------------------------------------------


@attrs.frozen
class Units:
    """Where every counter is, which Guard counters show their Mutinying face, and which
    land counters are embarked on which Fleet (19.5).

    ``aboard`` holds a (passenger, fleet) pair for every land counter carried by a
    Fleet, in passenger order; it is empty while nobody is at sea, and a counter that
    leaves play leaves it (as passenger or as fleet).
    """

    where: tuple[int, ...]
    mutiny: tuple[bool, ...]
    aboard: tuple[tuple[int, int], ...] = ()
    #: Caches, not part of the value: the counters at each location, and those in
    #: play, built when first asked for (or carried over from the units moved from, with
    #: the moves made).
    _by_place: dict[int, tuple[int, ...]] | None = attrs.field(
        default=None, init=False, repr=False, eq=False, hash=False
    )
    _in_play: tuple[int, ...] | None = attrs.field(
        default=None, init=False, repr=False, eq=False, hash=False
    )
    #: Cache, not part of the value: the ``where`` of the units these were moved from
    #: and the counters that moved (set by :meth:`move` and :meth:`move_all`), so that
    #: a cache keyed on those units can tell which counters changed place without
    #: comparing every counter (:func:`.world.enemy_zoc`). Only the tuple is kept,
    #: never the older units, so no chain of boards stays alive.
    _moved_from: tuple[tuple[int, ...], tuple[int, ...]] | None = attrs.field(
        default=None, init=False, repr=False, eq=False, hash=False
    )

    def moved_since(self, where: tuple[int, ...]) -> tuple[int, ...] | None:
        """The counters moved to make these units out of units whose places were
        ``where`` (the very tuple), or None when these units were not made so."""
        origin = self._moved_from
        if origin is not None and origin[0] is where:
            return origin[1]
        return None

    def at(self, where: int) -> tuple[int, ...]:
        """The counters at a location, in counter order."""
        by_place = self._by_place
        if by_place is None:
            by_place = self._index_places()
        return by_place.get(where, ())

    def index(self) -> Mapping[int, tuple[int, ...]]:
        """Every occupied location with its counters (:meth:`at` of each), for the loops
        that look at many places; not to be changed."""
        by_place = self._by_place
        if by_place is None:
            by_place = self._index_places()
        return by_place

    def in_play(self) -> tuple[int, ...]:
        """The counters on the map or in a Peripheral Area box, in counter order."""
        playing = self._in_play
        if playing is None:
            playing = tuple(unit for unit, place in enumerate(self.where) if place > AVAILABLE)
            object.__setattr__(self, "_in_play", playing)
        return playing

    def _index_places(self) -> dict[int, tuple[int, ...]]:
        lists: dict[int, list[int]] = {}
        for unit, place in enumerate(self.where):
            units = lists.get(place)
            if units is None:
                lists[place] = [unit]
            else:
                units.append(unit)
        by_place = {place: tuple(units) for place, units in lists.items()}
        object.__setattr__(self, "_by_place", by_place)
        return by_place

    def move(self, unit: int, where: int) -> Units:
        """The units after moving one counter (a Guard counter leaving play turns loyal)."""
        places = list(self.where)
        before = places[unit]
        places[unit] = where
        aboard = self.aboard
        if aboard and where <= AVAILABLE:
            aboard = tuple(pair for pair in aboard if unit not in pair)
        faces = self.mutiny
        if where <= AVAILABLE and faces[unit]:
            turned = list(faces)
            turned[unit] = False
            faces = tuple(turned)
        by_place = self._by_place
        if by_place is not None and before != where:
            by_place = by_place.copy()
            there = by_place[before]
            if len(there) > 1:
                k = there.index(unit)
                by_place[before] = there[:k] + there[k + 1 :]
            else:
                del by_place[before]
            coming = by_place.get(where, ())
            k = bisect.bisect(coming, unit)
            by_place[where] = (*coming[:k], unit, *coming[k:])
        playing = self._in_play
        if playing is not None:
            if before > AVAILABLE >= where:  # leaves play
                k = playing.index(unit)
                playing = playing[:k] + playing[k + 1 :]
            elif where > AVAILABLE >= before:  # enters play
                k = bisect.bisect(playing, unit)
                playing = (*playing[:k], unit, *playing[k:])
        return _units(tuple(places), faces, aboard, by_place, playing, self.where, (unit,))

    def move_all(self, units: Iterable[int], where: int) -> Units:
        """The units after moving several counters, one after the other, to one place in
        play (a force stepping): the same as :meth:`move` of each in turn, built once."""
        if where <= AVAILABLE:
            moved = self
            for unit in units:
                moved = moved.move(unit, where)
            return moved
        before = self.where
        going = [unit for unit in units if before[unit] != where]
        places = list(before)
        for unit in going:
            places[unit] = where
        by_place = self._by_place
        if by_place is not None and going:
            by_place = by_place.copy()
            stack = tuple(going)
            origin = before[going[0]]
            if by_place[origin] == stack:
                del by_place[origin]  # a whole stack steps on (a force alone)
            else:
                leaving = set(going)
                for origin in {before[unit] for unit in going}:
                    left = tuple(u for u in by_place[origin] if u not in leaving)
                    if left:
                        by_place[origin] = left
                    else:
                        del by_place[origin]
            coming = by_place.get(where)
            if coming:
                by_place[where] = tuple(sorted((*coming, *going)))
            else:
                by_place[where] = stack if len(stack) == 1 else tuple(sorted(stack))
        playing = self._in_play
        if playing is not None:
            entering = [unit for unit in going if before[unit] <= AVAILABLE]
            if entering:
                playing = tuple(sorted((*playing, *entering)))
        return _units(tuple(places), self.mutiny, self.aboard, by_place, playing, before, going)

    def flip(self, units: tuple[int, ...] | list[int], mutinying: bool) -> Units:
        """The units with the given Guard counters turned to one face (12.2)."""
        faces = list(self.mutiny)
        for unit in units:
            faces[unit] = mutinying
        flipped = Units(self.where, tuple(faces), self.aboard)
        object.__setattr__(flipped, "_by_place", self._by_place)
        object.__setattr__(flipped, "_in_play", self._in_play)
        return flipped

    def carrier(self, unit: int) -> int:
        """The Fleet a land counter is embarked on, or -1 (19.5)."""
        for passenger, fleet in self.aboard:
            if passenger == unit:
                return fleet
        return -1

    def passengers(self, fleet: int) -> tuple[int, ...]:
        """The land counters a Fleet carries, in counter order (19.5)."""
        return tuple(p for p, f in self.aboard if f == fleet)

    def embarked(self) -> frozenset[int]:
        """Every land counter on board a Fleet (19.5)."""
        return frozenset(p for p, _ in self.aboard)

    def embark(self, unit: int, fleet: int) -> Units:
        """The units with ``unit`` put on board ``fleet`` (off any other first, 19.5)."""
        pairs = sorted((*(pair for pair in self.aboard if pair[0] != unit), (unit, fleet)))
        return self._with_aboard(tuple(pairs))

    def debark(self, unit: int) -> Units:
        """The units with ``unit`` off its Fleet, in the same location (19.54)."""
        return self._with_aboard(tuple(pair for pair in self.aboard if pair[0] != unit))

    def _with_aboard(self, aboard: tuple[tuple[int, int], ...]) -> Units:
        changed = Units(self.where, self.mutiny, aboard)
        object.__setattr__(changed, "_by_place", self._by_place)
        object.__setattr__(changed, "_in_play", self._in_play)
        return changed


#: The slot setters of :class:`Units`, by field name (see :func:`_units`).
_UNIT_SLOTS = {f.name: getattr(Units, f.name).__set__ for f in attrs.fields(Units)}


def _units(  # noqa: PLR0917 - every slot of the record
    where: tuple[int, ...],
    mutiny: tuple[bool, ...],
    aboard: tuple[tuple[int, int], ...],
    by_place: dict[int, tuple[int, ...]] | None,
    in_play: tuple[int, ...] | None,
    moved_from: tuple[int, ...],
    moved: Iterable[int],
) -> Units:
    """``Units(where, mutiny, aboard)`` with its caches already filled in (the index of
    places and the counters in play, or None to build them when asked) and the memory
    of the units it was moved from (``moved_from`` and the counters ``moved``): a force
    steps at almost every transition, and this stores the six slots directly instead
    of running the constructor and then setting the caches one by one."""
    made = object.__new__(Units)
    store = _UNIT_SLOTS
    store["where"](made, where)
    store["mutiny"](made, mutiny)
    store["aboard"](made, aboard)
    store["_by_place"](made, by_place)
    store["_in_play"](made, in_play)
    store["_moved_from"](made, (moved_from, tuple(moved)))
    return made


@attrs.frozen
class Stratagems:
    """Stratagem markers: per type (catalogue order), how many each hand and the Pool hold."""

    pool: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]

    def held(self, player: int) -> int:
        """How many markers a player holds."""
        return sum(self.hands[player])

    def transfer(self, kind: int, player: int, to_hand: bool) -> Stratagems:
        """Move one marker of a type between the Pool and a player's hand."""
        pool = list(self.pool)
        hand = list(self.hands[player])
        step = 1 if to_hand else -1
        pool[kind] -= step
        hand[kind] += step
        if pool[kind] < 0 or hand[kind] < 0:
            raise ValueError("no such Stratagem marker to move")
        hands = (tuple(hand), self.hands[1]) if player == 0 else (self.hands[0], tuple(hand))
        return Stratagems(tuple(pool), hands)


@attrs.frozen
class Markers:
    """Game markers on the map (2.33): Pillaged hexes, Colonies and Public Works."""

    pillaged: frozenset[int] = frozenset()
    colonies: frozenset[int] = frozenset()
    works: frozenset[int] = frozenset()


class PromiseKind(enum.Enum):
    """What a promise of an agreement binds its player to (optional rule 24.1)."""

    #: Not to initiate any combat for the rest of the game turn.
    NO_COMBAT = "no-combat"
    #: To have no units left in a City or Colony hex (``where``) at the turn's end.
    LEAVE_HEX = "leave-hex"
    #: To have no units left in a Region (``region``, its box too) at the turn's end.
    LEAVE_REGION = "leave-region"


@attrs.frozen
class Promise:
    """One player's promise in an agreement, binding until the end of the game turn."""

    player: int
    kind: PromiseKind
    #: LEAVE_HEX: the City or Colony hex.
    where: int = 0
    #: LEAVE_REGION: the Region's name.
    region: str = ""


@attrs.frozen
class Agreement:
    """An accepted written agreement whose promises still bind this game turn (24.1, 24.2)."""

    proposer: int
    promises: tuple[Promise, ...]


@attrs.frozen
class BelState:
    """A state of Belisarius.

    ``turn`` is the game turn (0 during set-up); ``phasing`` the player whose player
    turn it is and ``phase`` the name of its current phase (3.1); ``control`` the
    control of each Region in the map's order (4.1); ``solidus`` both treasuries
    (10.14, 0 to :data:`MAX_SOLIDUS`); ``boxed`` the boxes reinforced this player
    turn (11.8); ``barred`` the Regions where the phasing player may not tax, levy or
    recruit this player turn (events 22-24); ``revealed`` per player whether he may see the other's
    Stratagems and treasury (22.1).
    """

    turn: int
    phasing: int
    phase: str
    units: Units
    control: tuple[Control, ...]
    solidus: tuple[int, int]
    stratagems: Stratagems
    markers: Markers = Markers()
    barred: frozenset[str] = frozenset()
    #: The box of every reinforcement put in a Peripheral Area box this player turn,
    #: whatever put it there (11.8: at most ten a box).
    boxed: tuple[int, ...] = ()
    revealed: tuple[bool, bool] = (False, False)
    stack: tuple[Task, ...] = ()
    pending: Request | None = None
    ending: Ending | None = None
    #: Agreements of the optional Player Negotiations (24.0) whose promises bind until
    #: the end of the game turn.
    agreements: tuple[Agreement, ...] = ()


# -- the catalogue ------------------------------------------------------------------


@attrs.frozen
class Counter:
    """One counter of the mix: its identity (nationality), type and printed factors."""

    index: int
    id: str
    nationality: str
    kind: UnitKind
    combat: int
    operations: int
    provisioning: int
    #: Leaders: the Leader id and stars.
    leader: str = ""
    stars: int = 0

    @property
    def naval(self) -> bool:
        """Whether the counter is a Fleet (19.0)."""
        return self.kind is UnitKind.FLEET

    @property
    def guard(self) -> bool:
        """Whether the counter is a Guard unit or Guard Leader (12.0, 21.32)."""
        return self.nationality == "guard"


class Catalog:
    """The components of one game with integer indexes, and fixed per-hex facts."""

    def __init__(self, components: Components, hexmap: HexMap, scenario: Scenario) -> None:
        #: What :func:`per_catalog` functions built from this catalogue, by function.
        self._built: dict[Callable[[Catalog], Any], Any] = {}
        self.components = components
        self.map = hexmap
        self.scenario = scenario
        counters: list[Counter] = []
        for leader in components.leaders:
            kind = components.unit_type(UnitKind.LEADER)
            counters.append(
                Counter(
                    len(counters),
                    leader.id,
                    leader.nationality,
                    UnitKind.LEADER,
                    kind.combat,
                    kind.operations,
                    kind.provisioning,
                    leader.id,
                    leader.stars,
                )
            )
        for entry in components.counter_mix:
            kind = components.unit_type(entry.kind)
            for n in range(1, entry.count + 1):
                counters.append(
                    Counter(
                        len(counters),
                        f"{entry.nationality}-{entry.kind.value}-{n}",
                        entry.nationality,
                        entry.kind,
                        entry.combat or kind.combat,
                        entry.operations or kind.operations,
                        kind.provisioning,
                    )
                )
        self.counters: tuple[Counter, ...] = tuple(counters)
        self.counter_index = {c.id: c.index for c in counters}
        #: Whether each counter is a Fleet.
        self.naval: tuple[bool, ...] = tuple(c.naval for c in counters)
        #: The Fleets, in counter order, and as a set.
        self.fleets: tuple[int, ...] = tuple(c.index for c in counters if c.naval)
        self.fleet_set: frozenset[int] = frozenset(self.fleets)
        self.regions = hexmap.regions
        self.region_index = {r.name: i for i, r in enumerate(self.regions)}
        self.region_by_code = {r.code: i for i, r in enumerate(self.regions)}
        #: Each Region's nationality id (:attr:`.Region.nationality`), worked out once.
        self.nationalities: tuple[str, ...] = tuple(r.nationality for r in self.regions)
        #: Region index of each counter's nationality (-1 for the Guard).
        self.home: tuple[int, ...] = tuple(
            self._region_of_nationality(c.nationality) for c in counters
        )
        self.peripherals = hexmap.peripheral_areas
        #: Region index of each Peripheral Area box (box number = position + 1).
        self.box_region: tuple[int, ...] = tuple(
            self.region_index[p.region] for p in self.peripherals
        )
        self.stratagem_ids: tuple[str, ...] = tuple(s.id for s in components.stratagems)
        self.stratagem_index = {s: i for i, s in enumerate(self.stratagem_ids)}
        self.justinian = self.counter_index.get("justinian", -1)
        self.capital = next((c.hex for c in hexmap.cities if c.capital), 0)
        self._forage: dict[int, int] = {h: hexmap.forage(h) for h in hexmap.hexes()}
        #: A Colony hex forages as a City (27.31).
        self._colony_forage = hexmap.rating(TerrainKind.CITY).forage or 0
        self._reach: dict[tuple[int, bool], tuple[int, ...]] = {}
        self._water_sides: dict[tuple[int, int], bool] = {}
        self._constants = {c.id: c.value for c in components.constants}
        #: The type record of each unit type (see :meth:`.Components.unit_type`).
        self.unit_types: dict[UnitKind, UnitType] = {}
        for unit_type in components.unit_types:
            self.unit_types.setdefault(unit_type.kind, unit_type)
        self._by_nationality: dict[tuple[str, UnitKind | None], tuple[int, ...]] = {}
        for c in counters:
            for key in ((c.nationality, None), (c.nationality, c.kind)):
                self._by_nationality[key] = (*self._by_nationality.get(key, ()), c.index)
        self._box_of: dict[int, int] = {}
        for i, owner in enumerate(self.box_region):
            self._box_of.setdefault(owner, i + 1)
        # Fixed facts of the map, looked up by the rules over and over.
        self._hex_region = {h: i for i, r in enumerate(self.regions) for h in r.hexes}
        self._land = frozenset(h for h in hexmap.hexes() if hexmap.terrain_at(h) is not Terrain.SEA)
        self._sea = frozenset(hexmap.hexes()) - self._land
        #: The printed City hexes, in the map file's order.
        self.cities: tuple[int, ...] = tuple(c.hex for c in hexmap.cities)
        #: Per Region: its hexes in hex order, its land hexes, the coastal ones among
        #: those, and its printed City hexes in the map file's order.
        self.region_hexes: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(r.hexes)) for r in self.regions
        )
        self.region_land: tuple[tuple[int, ...], ...] = tuple(
            tuple(h for h in hexes if h in self._land) for hexes in self.region_hexes
        )
        self.region_coast: tuple[tuple[int, ...], ...] = tuple(
            tuple(h for h in hexes if hexmap.is_coastal(h)) for hexes in self.region_land
        )
        self.region_cities: tuple[tuple[int, ...], ...] = tuple(
            tuple(h for h in self.cities if self.region_of_hex(h) == i)
            for i in range(len(self.regions))
        )

    def _region_of_nationality(self, nationality: str) -> int:
        for i, region in enumerate(self.regions):
            if region.name.lower() == nationality:
                return i
        return -1

    # -- look-ups -----------------------------------------------------------------

    def counter(self, counter_id: str) -> int:
        """Index of a counter id."""
        return self.counter_index[counter_id]

    def region(self, name: str) -> int:
        """Index of a Region by name."""
        return self.region_index[name]

    def region_of_hex(self, hex_number: int) -> int:
        """Index of the Region a hex lies in (-1 for none, e.g. open sea)."""
        found = self._hex_region.get(hex_number)
        if found is not None:
            return found
        region = self.map.region_at(hex_number)
        return -1 if region is None else self.region_index[region.name]

    def region_of(self, where: int) -> int:
        """Index of the Region of a location: a hex, or a Peripheral Area box (18.0)."""
        if AVAILABLE < where < FIRST_HEX:
            return self.box_region[where - 1]
        if where >= FIRST_HEX:
            return self.region_of_hex(where)
        return -1

    def box_of(self, region: int) -> int:
        """The Peripheral Area box of a Region (0 if it has none)."""
        return self._box_of.get(region, 0)

    def stratagem(self, stratagem_id: str) -> int:
        """Index of a Stratagem type."""
        return self.stratagem_index[stratagem_id]

    def of_nationality(self, nationality: str, kind: UnitKind | None = None) -> Iterator[int]:
        """Counters of a nationality (and type)."""
        return iter(self._by_nationality.get((nationality, kind), ()))

    def constant(self, constant_id: str) -> int:
        """A printed limit by id (see :meth:`.Components.constant`)."""
        return self._constants[constant_id]

    # -- per-hex facts ------------------------------------------------------------

    def forage(self, where: int, markers: Markers) -> int:
        """Units a location feeds (20.1): a box 10 (18.5), a Pillaged hex 0 (20.4), a
        Colony as a City (27.31)."""
        if AVAILABLE < where < FIRST_HEX:
            return self.peripherals[where - 1].forage
        if where in markers.pillaged:
            return 0
        if where in markers.colonies:
            return self._colony_forage
        return self._forage[where]

    def zoc_reach(self, hex_number: int, naval: bool) -> tuple[int, ...]:
        """The neighbours a counter's Zone of Control can reach from a hex, by terrain.

        A land unit's not into all-sea hexes nor across all-sea hexsides (15.12); a
        Fleet's only into hexes with water, all-sea or coastal, and never across an
        all-land hexside (15.13, :meth:`water_side`).
        """
        key = (hex_number, naval)
        reach = self._reach.get(key)
        if reach is None:
            hexmap = self.map
            if naval:
                reach = tuple(
                    h
                    for h in hexmap.neighbours(hex_number)
                    if (not self.is_land(h) or hexmap.is_coastal(h))
                    and self.water_side(hex_number, h)
                )
            else:
                reach = tuple(
                    h
                    for h in hexmap.neighbours(hex_number)
                    if self.is_land(h) and HexsideFeature.SEA not in hexmap.features(hex_number, h)
                )
            self._reach[key] = reach
        return reach

    def water_side(self, a: int, b: int) -> bool:
        """Whether the hexside between adjacent hexes ``a`` and ``b`` has water on it, so
        that it is not an all-land hexside (15.13, 16.33, 19.1).

        So it is when either hex is all-sea, when the side itself is an all-sea or a
        strait hexside, or when it runs down to the sea: one of the two hexes both
        ``a`` and ``b`` touch is all-sea (a coastal hexside, 19.62).
        """
        key = (a, b) if a < b else (b, a)
        found = self._water_sides.get(key)
        if found is None:
            hexmap = self.map
            found = (
                not self.is_land(a)
                or not self.is_land(b)
                or bool(hexmap.features(a, b) & {HexsideFeature.SEA, HexsideFeature.STRAIT})
                or any(
                    not self.is_land(c)
                    for c in set(hexmap.neighbours(a)) & set(hexmap.neighbours(b))
                )
            )
            self._water_sides[key] = found
        return found

    def is_land(self, hex_number: int) -> bool:
        """Whether a hex holds land (everything but all-sea)."""
        if hex_number in self._land:
            return True
        # A number off the map is the map's error (terrain_at refuses it).
        return hex_number not in self._sea and self.map.terrain_at(hex_number) is not Terrain.SEA


_Built = TypeVar("_Built")


def per_catalog(build: Callable[[Catalog], _Built]) -> Callable[[Catalog], _Built]:
    """``build`` run once per catalogue: each result is kept as long as its catalogue lives
    (in the catalogue's own table of built things, keyed by ``build``: one dictionary
    look-up a call), so tables derived from fixed components are built on first use and
    then shared. ``build`` must not return None (None reads as "not built yet")."""

    def cached(cat: Catalog) -> _Built:
        found: _Built | None = cat._built.get(build)
        if found is None:
            found = cat._built[build] = build(cat)
        return found

    cached.__doc__ = build.__doc__
    return cached
