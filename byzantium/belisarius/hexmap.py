"""The Belisarius hex map: grid arithmetic, terrain, hexsides, cities, regions (2.1, 2.11).

Hexes are addressed by the four-digit numbers printed on wargame maps: ``XXYY`` with
``XX`` the column (01 at the west edge, growing eastward) and ``YY`` the row (01 at the
north edge, growing southward), so hex ``3720`` is column 37, row 20.

Layout convention
    Flat-topped hexes in vertical columns. Every even-numbered column (02, 04, ...) sits
    half a hex *lower* than the odd-numbered columns beside it. Hence hex ``0101`` touches
    ``0201`` (to its south-east) and ``0202`` touches ``0101`` (to its north-west). In
    cube coordinates (``x + y + z == 0``) the conversion is exact integer arithmetic; the
    distance between two hexes is the cube distance (number of hex steps).

The map itself lives in ``data/map.toml`` beside this module (our rulebook copy prints no
map, so nearly all of it is provisional; see that file). :func:`load_map` reads and
validates it, raising :class:`MapError` (file, key, reason) on the first problem. Each
datum carries its provenance like the Sword of Orthodoxy components: a rule id of the
Belisarius index, ``"peer"`` or ``"provisional: <why>"``.

Terrain kinds follow the rulebook's mentions: clear, rough, marsh, desert and all-sea
ground (16.3, 17.58, 17.74, 27.2), coastal hexes (19.1), cities and the capital city
(10.11, 17.74, end-of-rules errata). Hexside features: river (16.23), strait (16.24),
all-sea hexside (15.12, 16.32), road (16.21) and pass (16.22). The four Peripheral Areas
(2.13, 18.x) are off-map boxes entered from map edges or adjoining sea areas.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.bounds import check_numbers
from byzantium.core.provenance import (
    ComponentError,
    Provenance,
    Source,
    load_toml,
    parse_source,
    read_component_file,
)

__all__ = [
    "DIRECTIONS",
    "MAP_FILE",
    "City",
    "Cube",
    "HexMap",
    "Hexside",
    "HexsideFeature",
    "MapEdge",
    "MapError",
    "PeripheralArea",
    "Provenance",
    "Region",
    "SeaArea",
    "Source",
    "Terrain",
    "TerrainKind",
    "TerrainRating",
    "column_of",
    "distance",
    "from_cube",
    "grid_neighbours",
    "hex_id",
    "hexside_key",
    "is_adjacent",
    "is_hex_id",
    "load_map",
    "row_of",
    "to_cube",
]

#: The map file inside ``data/``.
MAP_FILE = "map.toml"
#: Largest column or row a four-digit hex number can hold.
MAX_INDEX = 99


class MapError(ComponentError):
    """A map file that is malformed or inconsistent (names file, key and reason)."""


# -- grid arithmetic ------------------------------------------------------------------


@attrs.frozen
class Cube:
    """Cube coordinates of a hex: ``x`` is the column axis; ``x + y + z == 0``."""

    x: int
    y: int
    z: int

    def __attrs_post_init__(self) -> None:
        if self.x + self.y + self.z != 0:
            raise ValueError(f"cube coordinates must sum to zero: {self}")

    def __add__(self, other: Cube) -> Cube:
        return Cube(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other: Cube) -> Cube:
        return Cube(self.x - other.x, self.y - other.y, self.z - other.z)

    def length(self) -> int:
        """Hex steps from the origin."""
        return max(abs(self.x), abs(self.y), abs(self.z))


#: The six directions, clockwise from north: N, NE, SE, S, SW, NW.
DIRECTIONS: tuple[Cube, ...] = (
    Cube(0, 1, -1),
    Cube(1, 0, -1),
    Cube(1, -1, 0),
    Cube(0, -1, 1),
    Cube(-1, 0, 1),
    Cube(-1, 1, 0),
)


def is_hex_id(value: int) -> bool:
    """Whether ``value`` is a four-digit hex number with column and row 01-99."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 1 <= value // 100 <= MAX_INDEX
        and 1 <= value % 100 <= MAX_INDEX
        and value < 100 * (MAX_INDEX + 1)
    )


def _check_hex(value: int) -> None:
    if not is_hex_id(value):
        raise ValueError(f"not a hex number XXYY with column and row 01-99: {value!r}")


def hex_id(column: int, row: int) -> int:
    """The hex number of a column and row: ``hex_id(37, 20) == 3720``."""
    value = column * 100 + row
    if not (1 <= column <= MAX_INDEX and 1 <= row <= MAX_INDEX):
        raise ValueError(f"column {column} / row {row} outside 1-{MAX_INDEX}")
    return value


def column_of(hex_number: int) -> int:
    """The column ``XX`` of ``XXYY``."""
    _check_hex(hex_number)
    return hex_number // 100


def row_of(hex_number: int) -> int:
    """The row ``YY`` of ``XXYY``."""
    _check_hex(hex_number)
    return hex_number % 100


def to_cube(hex_number: int) -> Cube:
    """Cube coordinates of a hex (even columns sit half a hex lower).

    >>> to_cube(101), to_cube(201)
    (Cube(x=0, y=0, z=0), Cube(x=1, y=-1, z=0))
    """
    _check_hex(hex_number)
    q = hex_number // 100 - 1
    r = hex_number % 100 - 1
    z = r - (q - (q & 1)) // 2
    return Cube(q, -q - z, z)


def from_cube(cube: Cube) -> int:
    """The hex number of cube coordinates (ValueError off the 01-99 numbering).

    >>> from_cube(to_cube(3720))
    3720
    """
    q = cube.x
    r = cube.z + (q - (q & 1)) // 2
    return hex_id(q + 1, r + 1)


def grid_neighbours(hex_number: int) -> tuple[int, ...]:
    """The hexes sharing a side with ``hex_number`` that have a four-digit number.

    Ignores any particular map's bounds (see :meth:`HexMap.neighbours`).

    >>> grid_neighbours(3720)
    (3719, 3819, 3820, 3721, 3620, 3619)
    >>> grid_neighbours(3621)
    (3620, 3721, 3722, 3622, 3522, 3521)
    """
    origin = to_cube(hex_number)
    found = []
    for direction in DIRECTIONS:
        try:
            found.append(from_cube(origin + direction))
        except ValueError:
            continue
    return tuple(found)


def distance(a: int, b: int) -> int:
    """Hex steps between two hexes.

    >>> distance(3511, 3720), distance(3324, 3324)
    (10, 0)
    """
    return (to_cube(a) - to_cube(b)).length()


def is_adjacent(a: int, b: int) -> bool:
    """Whether two hexes share a side."""
    return distance(a, b) == 1


def hexside_key(a: int, b: int) -> tuple[int, int]:
    """The hexside between two adjacent hexes, as (lower number, higher number)."""
    if not is_adjacent(a, b):
        raise ValueError(f"hexes {a:04d} and {b:04d} are not adjacent")
    return (a, b) if a < b else (b, a)


# -- records ------------------------------------------------------------------------


_PROVISIONAL = Source(Provenance.PROVISIONAL, "no map in our rulebook copy")


class Terrain(enum.Enum):
    """The ground of a hex, one character per hex in the terrain layer."""

    CLEAR = "clear"
    ROUGH = "rough"
    MARSH = "marsh"
    DESERT = "desert"
    #: An all-sea hex (16.32, 19.1).
    SEA = "sea"

    @property
    def land(self) -> bool:
        """Every ground but all-sea holds land."""
        return self is not Terrain.SEA


class TerrainKind(enum.Enum):
    """The lines of the Terrain Effects Chart the rules mention."""

    CLEAR = "clear"
    ROUGH = "rough"
    MARSH = "marsh"
    DESERT = "desert"
    SEA = "sea"
    COASTAL = "coastal"
    CITY = "city"
    CAPITAL_CITY = "capital-city"


class HexsideFeature(enum.Enum):
    """What a hexside may carry."""

    RIVER = "river"
    STRAIT = "strait"
    #: All-sea hexside between two land hexes (15.12, 16.32, 19.62).
    SEA = "all-sea"
    ROAD = "road"
    PASS = "pass"


class MapEdge(enum.Enum):
    """The four edges of the map."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"


@attrs.frozen
class TerrainRating:
    """A Terrain Effects Chart line: its layer symbol (ground only) and Forage value (20.1).

    ``forage`` is None for a line with no Forage value of its own (a coastal hex forages
    as its land part, 19.7).
    """

    kind: TerrainKind
    forage: int | None
    symbol: str = ""
    source: Source = _PROVISIONAL
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class City:
    """A printed city."""

    name: str
    hex: int
    #: Treasury cities pay 2 Solidus Points (10.11).
    treasury: bool = False
    port: bool = False
    #: Constantinopolis, the "Capital City" of the chart (10.11, 17.74).
    capital: bool = False
    source: Source = _PROVISIONAL
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Region:
    """A Region (2.11): its name, its code letter in the region layer, its hexes.

    ``levy`` is the Levy column of the Region Control Chart (2.12, 11.11): the units
    its controller raises free each friendly Levy phase. Its nationality on the
    counters is the lower-cased name (``"Thracia"`` -> ``"thracia"``).
    """

    name: str
    code: str
    hexes: frozenset[int]
    levy: int = attrs.field(default=0, kw_only=True)
    source: Source = _PROVISIONAL
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def nationality(self) -> str:
        """The nationality id its counters carry (2.4): the lower-cased name."""
        return self.name.lower()


@attrs.frozen
class Hexside:
    """One feature on one hexside (``a < b``), with the name of its river, road..."""

    a: int
    b: int
    feature: HexsideFeature
    name: str = ""
    source: Source = _PROVISIONAL


@attrs.frozen
class SeaArea:
    """A named body of all-sea hexes (e.g. the Pontus Caspium of 18.2)."""

    name: str
    hexes: frozenset[int]
    source: Source = _PROVISIONAL


@attrs.frozen
class PeripheralArea:
    """An off-map Peripheral Area box (2.13, 18.x)."""

    name: str
    #: The Region whose controller controls the box (18.1).
    region: str
    #: Map edges whose land hexes of ``region`` lead into the box (18.2).
    edges: frozenset[MapEdge]
    #: Sea areas whose hexes lead into the box by sea (18.2, 18.22).
    sea_areas: tuple[str, ...] = ()
    port: bool = False
    forage: int = 10
    #: Solidus Points its controller collects (10.11); 0 for none.
    solidus: int = 0
    source: Source = _PROVISIONAL
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class HexMap:
    """The map as loaded and validated."""

    columns: int
    rows: int
    terrain: Mapping[int, Terrain] = attrs.field(repr=False)
    chart: tuple[TerrainRating, ...] = attrs.field(repr=False)
    regions: tuple[Region, ...] = attrs.field(repr=False)
    cities: tuple[City, ...] = attrs.field(repr=False)
    hexsides: tuple[Hexside, ...] = attrs.field(repr=False)
    sea_areas: tuple[SeaArea, ...] = attrs.field(repr=False)
    peripheral_areas: tuple[PeripheralArea, ...] = attrs.field(repr=False)
    source: Source = _PROVISIONAL
    #: Digest of the file's bytes (for game records).
    digest: str = ""
    _region_at: dict[int, str] = attrs.field(init=False, repr=False, eq=False)
    _city_at: dict[int, City] = attrs.field(init=False, repr=False, eq=False)
    _features: dict[tuple[int, int], frozenset[HexsideFeature]] = attrs.field(
        init=False, repr=False, eq=False
    )
    #: Answers of :meth:`neighbours` and :meth:`is_coastal`, filled in as asked.
    _neighbours: dict[int, tuple[int, ...]] = attrs.field(init=False, repr=False, eq=False)
    _coastal: dict[int, bool] = attrs.field(init=False, repr=False, eq=False)
    #: Every hex of the map (:meth:`hexes`), for the membership test the look-ups
    #: of a hex start with.
    _on_map: frozenset[int] = attrs.field(init=False, repr=False, eq=False)
    #: Answers of :meth:`features` by (a, b) as asked, adjacency checked once a pair.
    _sides: dict[tuple[int, int], frozenset[HexsideFeature]] = attrs.field(
        init=False, repr=False, eq=False
    )

    def __attrs_post_init__(self) -> None:
        region_at = {h: region.name for region in self.regions for h in region.hexes}
        features: dict[tuple[int, int], set[HexsideFeature]] = {}
        for side in self.hexsides:
            features.setdefault((side.a, side.b), set()).add(side.feature)
        object.__setattr__(self, "_region_at", region_at)
        object.__setattr__(self, "_city_at", {city.hex: city for city in self.cities})
        object.__setattr__(
            self, "_features", {key: frozenset(value) for key, value in features.items()}
        )
        object.__setattr__(self, "_neighbours", {})
        object.__setattr__(self, "_coastal", {})
        object.__setattr__(self, "_on_map", frozenset(self.hexes()))
        object.__setattr__(self, "_sides", {})

    # -- the grid -----------------------------------------------------------------

    def __contains__(self, hex_number: object) -> bool:
        return (
            isinstance(hex_number, int)
            and is_hex_id(hex_number)
            and hex_number // 100 <= self.columns
            and hex_number % 100 <= self.rows
        )

    def hexes(self) -> Iterator[int]:
        """Every hex of the map, column by column."""
        for column in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                yield column * 100 + row

    def _require(self, hex_number: int) -> None:
        if type(hex_number) is int and hex_number in self._on_map:
            return  # what the full test below finds of a whole number on the map
        if hex_number not in self:
            raise KeyError(f"hex {hex_number!r} is not on the {self.columns}x{self.rows} map")

    @RULES.implements("2.1")
    def neighbours(self, hex_number: int) -> tuple[int, ...]:
        """The on-map hexes sharing a side with ``hex_number`` (fewer at the edges)."""
        found = self._neighbours.get(hex_number)
        if found is None:
            self._require(hex_number)
            found = tuple(h for h in grid_neighbours(hex_number) if h in self)
            self._neighbours[hex_number] = found
        return found

    def edges(self, hex_number: int) -> frozenset[MapEdge]:
        """The map edges a hex lies on (empty for an interior hex)."""
        self._require(hex_number)
        column, row = hex_number // 100, hex_number % 100
        found = set()
        if row == 1:
            found.add(MapEdge.NORTH)
        if row == self.rows:
            found.add(MapEdge.SOUTH)
        if column == 1:
            found.add(MapEdge.WEST)
        if column == self.columns:
            found.add(MapEdge.EAST)
        return frozenset(found)

    def edge_hexes(self, edge: MapEdge) -> tuple[int, ...]:
        """The hexes along one edge of the map."""
        return tuple(h for h in self.hexes() if edge in self.edges(h))

    # -- terrain ------------------------------------------------------------------

    def terrain_at(self, hex_number: int) -> Terrain:
        """The ground of a hex."""
        self._require(hex_number)
        return self.terrain[hex_number]

    def is_land(self, hex_number: int) -> bool:
        """A hex that is not all-sea."""
        return self.terrain_at(hex_number).land

    def is_coastal(self, hex_number: int) -> bool:
        """A land hex touching water: an all-sea neighbour, or an all-sea or strait side."""
        found = self._coastal.get(hex_number)
        if found is None:
            found = self._coastal[hex_number] = self._touches_water(hex_number)
        return found

    def _touches_water(self, hex_number: int) -> bool:
        if not self.is_land(hex_number):
            return False
        for other in self.neighbours(hex_number):
            if not self.terrain[other].land:
                return True
            if self.features(hex_number, other) & {HexsideFeature.SEA, HexsideFeature.STRAIT}:
                return True
        return False

    def terrain_kinds(self, hex_number: int) -> frozenset[TerrainKind]:
        """The Terrain Effects Chart lines that apply to a hex."""
        kinds = {TerrainKind(self.terrain_at(hex_number).value)}
        if self.is_coastal(hex_number):
            kinds.add(TerrainKind.COASTAL)
        city = self.city_at(hex_number)
        if city is not None:
            kinds.add(TerrainKind.CAPITAL_CITY if city.capital else TerrainKind.CITY)
        return frozenset(kinds)

    def rating(self, kind: TerrainKind) -> TerrainRating:
        """The chart line of a terrain kind."""
        for rating in self.chart:
            if rating.kind is kind:
                return rating
        raise KeyError(kind)

    def forage(self, hex_number: int) -> int:
        """A hex's printed Forage value (20.1): its City's line if it holds one (the
        capital's for Constantinopolis), else its ground's; a coastal hex forages as
        its land part (19.7) and all-sea gives nothing.
        """
        city = self.city_at(hex_number)
        if city is not None:
            kind = TerrainKind.CAPITAL_CITY if city.capital else TerrainKind.CITY
        else:
            kind = TerrainKind(self.terrain_at(hex_number).value)
        value = self.rating(kind).forage
        return 0 if value is None else value

    # -- hexsides -----------------------------------------------------------------

    def features(self, a: int, b: int) -> frozenset[HexsideFeature]:
        """The features on the hexside between two adjacent hexes."""
        found = self._sides.get((a, b))
        if found is None or type(a) is not int or type(b) is not int:
            found = self._features.get(hexside_key(a, b), frozenset())
            self._sides[a, b] = found
        return found

    def sides_with(self, feature: HexsideFeature) -> tuple[Hexside, ...]:
        """Every hexside carrying a feature."""
        return tuple(side for side in self.hexsides if side.feature is feature)

    # -- cities and regions -------------------------------------------------------

    def city_at(self, hex_number: int) -> City | None:
        """The city in a hex, if any."""
        self._require(hex_number)
        return self._city_at.get(hex_number)

    def city(self, name: str) -> City:
        """A city by name."""
        for city in self.cities:
            if city.name == name:
                return city
        raise KeyError(name)

    @RULES.implements("2.11")
    def region_at(self, hex_number: int) -> Region | None:
        """The Region a hex belongs to (None for all-sea hexes)."""
        self._require(hex_number)
        name = self._region_at.get(hex_number)
        return None if name is None else self.region(name)

    def region(self, name: str) -> Region:
        """A Region by name."""
        for region in self.regions:
            if region.name == name:
                return region
        raise KeyError(name)

    def cities_in(self, region: str) -> tuple[City, ...]:
        """The cities of a Region."""
        hexes = self.region(region).hexes
        return tuple(city for city in self.cities if city.hex in hexes)

    def sea_area(self, name: str) -> SeaArea:
        """A sea area by name."""
        for area in self.sea_areas:
            if area.name == name:
                return area
        raise KeyError(name)

    # -- peripheral areas ---------------------------------------------------------

    def peripheral(self, name: str) -> PeripheralArea:
        """A Peripheral Area by name."""
        for area in self.peripheral_areas:
            if area.name == name:
                return area
        raise KeyError(name)

    def entry_hexes(self, name: str) -> frozenset[int]:
        """The map hexes leading into a Peripheral Area (its edge land hexes, sea areas)."""
        area = self.peripheral(name)
        region = self.region(area.region).hexes
        found = {
            h
            for edge in area.edges
            for h in self.edge_hexes(edge)
            if h in region and self.is_land(h)
        }
        for sea in area.sea_areas:
            found |= self.sea_area(sea).hexes
        return frozenset(found)

    # -- provenance ---------------------------------------------------------------

    def provenance(self) -> Iterator[tuple[str, Source]]:
        """Every record's label and default source, for listing by provenance."""
        yield "map", self.source
        for rating in self.chart:
            yield f"terrain {rating.kind.value}", rating.source
        for region in self.regions:
            yield f"region {region.name}", region.source
            for field, source in region.sources:
                yield f"region {region.name}.{field}", source
        for city in self.cities:
            yield f"city {city.name}", city.source
            for field, source in city.sources:
                yield f"city {city.name}.{field}", source
        for side in self.hexsides:
            yield f"{side.feature.value} {side.a:04d}/{side.b:04d}", side.source
        for sea in self.sea_areas:
            yield f"sea area {sea.name}", sea.source
        for area in self.peripheral_areas:
            yield f"peripheral {area.name}", area.source
            for field, source in area.sources:
                yield f"peripheral {area.name}.{field}", source


# -- loading ------------------------------------------------------------------------

#: The Peripheral Areas of 2.13 / 18.1.
PERIPHERAL_NAMES = frozenset({"Franks", "Lombards", "Scythia", "Persia"})
#: Region-layer character for "no region" (all-sea hexes).
NO_REGION = "~"


class _Reader:
    """Typed access to TOML values, naming file and key on every error."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, key: str, reason: str) -> MapError:
        return MapError(self.file, key, reason)

    def table(self, raw: object, key: str) -> dict[str, object]:
        if not isinstance(raw, dict):
            raise self.fail(key, f"expected a table, not {raw!r}")
        return raw

    def rows(self, data: Mapping[str, object], key: str) -> list[dict[str, object]]:
        raw = data.get(key, [])
        if not isinstance(raw, list):
            raise self.fail(key, "expected an array of tables ([[...]])")
        return [self.table(item, f"{key}[{i}]") for i, item in enumerate(raw)]

    def fields(self, raw: Mapping[str, object], key: str, allowed: Iterable[str]) -> None:
        unknown = sorted(set(raw) - set(allowed))
        if unknown:
            raise self.fail(key, f"unknown field(s) {', '.join(unknown)}")

    def string(self, raw: Mapping[str, object], name: str, key: str, default: str | None) -> str:
        value = raw.get(name, default)
        if value is None:
            raise self.fail(key, f"missing field {name!r}")
        if not isinstance(value, str):
            raise self.fail(f"{key}.{name}", f"expected a string, not {value!r}")
        return value

    def integer(self, raw: Mapping[str, object], name: str, key: str, default: int | None) -> int:
        value = raw.get(name, default)
        if value is None:
            raise self.fail(key, f"missing field {name!r}")
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(f"{key}.{name}", f"expected an integer, not {value!r}")
        return value

    def boolean(self, raw: Mapping[str, object], name: str, key: str) -> bool:
        value = raw.get(name, False)
        if not isinstance(value, bool):
            raise self.fail(f"{key}.{name}", f"expected true or false, not {value!r}")
        return value

    def strings(self, raw: Mapping[str, object], name: str, key: str) -> tuple[str, ...]:
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{key}.{name}", f"expected a list of strings, not {value!r}")
        return tuple(value)

    def source(self, raw: Mapping[str, object], key: str) -> Source:
        return self.parse_source(raw.get("source"), f"{key}.source")

    def parse_source(self, text: object, key: str) -> Source:
        """A rule id of the Belisarius index, ``"peer"`` or ``"provisional: why"``."""
        try:
            return parse_source(text, RULES, self.file, key)
        except ComponentError as exc:
            raise self.fail(key, exc.reason) from None

    def overrides(
        self, raw: Mapping[str, object], key: str, allowed: Iterable[str]
    ) -> tuple[tuple[str, Source], ...]:
        table = raw.get("sources", {})
        if not isinstance(table, dict):
            raise self.fail(f"{key}.sources", "expected a table of field = source")
        names = set(allowed)
        found = []
        for field, text in sorted(table.items()):
            if field not in names:
                raise self.fail(f"{key}.sources", f"{field!r} is not a field here")
            found.append((field, self.parse_source(text, f"{key}.sources.{field}")))
        return tuple(found)

    def hex_number(self, value: object, key: str, columns: int, rows: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not is_hex_id(value):
            raise self.fail(key, f"{value!r} is not a hex number XXYY")
        if value // 100 > columns or value % 100 > rows:
            raise self.fail(key, f"hex {value:04d} is outside the {columns}x{rows} map")
        return value

    def enum(self, kind: type[enum.Enum], value: object, key: str) -> enum.Enum:
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(str(member.value) for member in kind)
            raise self.fail(key, f"unknown {kind.__name__} {value!r} (one of {choices})") from None


def _layer(reader: _Reader, text: object, key: str, columns: int, rows: int) -> list[str]:
    """The lines of a text layer: exactly ``rows`` lines of ``columns`` characters."""
    if not isinstance(text, str):
        raise reader.fail(key, "expected a multi-line string")
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    if len(lines) != rows:
        raise reader.fail(key, f"{len(lines)} lines, the map has {rows} rows")
    for index, line in enumerate(lines, start=1):
        if len(line) != columns:
            raise reader.fail(f"{key} row {index:02d}", f"{len(line)} hexes, not {columns}")
    return lines


def _hex_ranges(reader: _Reader, raw: object, key: str, columns: int, rows: int) -> set[int]:
    """Hexes from a list of ``"XXYY"`` or ``"XXYY-XXYY"`` (rectangle between two corners)."""
    if not isinstance(raw, list) or not raw:
        raise reader.fail(key, "expected a non-empty list of hexes or ranges")
    found: set[int] = set()
    for i, item in enumerate(raw):
        label = f"{key}[{i}]"
        if not isinstance(item, str):
            raise reader.fail(label, f"expected 'XXYY' or 'XXYY-XXYY', not {item!r}")
        first, _, last = item.partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise reader.fail(label, f"expected 'XXYY' or 'XXYY-XXYY', not {item!r}") from None
        low = reader.hex_number(low, label, columns, rows)
        high = reader.hex_number(high, label, columns, rows)
        for column in range(min(low, high) // 100, max(low, high) // 100 + 1):
            for row in range(min(low % 100, high % 100), max(low % 100, high % 100) + 1):
                found.add(column * 100 + row)
    return found


def _sides(
    reader: _Reader, raw: object, key: str, columns: int, rows: int
) -> list[tuple[int, int]]:
    """A list of ``[a, b]`` pairs of adjacent hexes."""
    if not isinstance(raw, list) or not raw:
        raise reader.fail(key, "expected a non-empty list of [hex, hex] pairs")
    found = []
    for i, pair in enumerate(raw):
        label = f"{key}[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise reader.fail(label, f"expected a [hex, hex] pair, not {pair!r}")
        a = reader.hex_number(pair[0], label, columns, rows)
        b = reader.hex_number(pair[1], label, columns, rows)
        if not is_adjacent(a, b):
            raise reader.fail(label, f"hexes {a:04d} and {b:04d} are not adjacent")
        found.append(hexside_key(a, b))
    return found


def _path(reader: _Reader, raw: object, key: str, columns: int, rows: int) -> list[tuple[int, int]]:
    """The hexsides crossed by a path of hexes, each next to the one before."""
    if not isinstance(raw, list) or len(raw) < 2:
        raise reader.fail(key, "expected a list of at least two hexes")
    hexes = [reader.hex_number(h, f"{key}[{i}]", columns, rows) for i, h in enumerate(raw)]
    found = []
    for i, (a, b) in enumerate(itertools.pairwise(hexes)):
        if not is_adjacent(a, b):
            raise reader.fail(f"{key}[{i + 1}]", f"hex {b:04d} is not next to {a:04d}")
        found.append(hexside_key(a, b))
    return found


def _read_bytes(directory: str | Path | None) -> tuple[str, bytes]:
    if directory is None:
        return MAP_FILE, resources.files(__package__).joinpath("data", MAP_FILE).read_bytes()
    path = Path(directory) / MAP_FILE
    if not path.exists():
        raise MapError(str(path), "-", "map file is missing")
    return str(path), read_component_file(path, MapError)


_TOP_LEVEL = frozenset(
    {"map", "terrain", "layers", "region", "city", "sea_area", "peripheral"}
    | {"river", "strait", "sea_side", "road", "pass"}
)
_SIDE_TABLES = {
    "river": HexsideFeature.RIVER,
    "strait": HexsideFeature.STRAIT,
    "sea_side": HexsideFeature.SEA,
}
_PATH_TABLES = {"road": HexsideFeature.ROAD, "pass": HexsideFeature.PASS}


def load_map(directory: str | Path | None = None) -> HexMap:
    """Load and validate ``map.toml`` (the shipped one, or the one in a user's directory).

    The first problem found is raised as a :class:`MapError` naming file, key and reason.
    """
    file, blob = _read_bytes(directory)
    reader = _Reader(file)
    data = load_toml(blob, file, MapError)
    check_numbers(data, file, MapError)
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise reader.fail(unknown[0], "unknown table")

    head = reader.table(data.get("map"), "map")
    reader.fields(head, "map", ("columns", "rows", "source"))
    columns = reader.integer(head, "columns", "map", None)
    rows = reader.integer(head, "rows", "map", None)
    for name, value in (("columns", columns), ("rows", rows)):
        if not 1 <= value <= MAX_INDEX:
            raise reader.fail(f"map.{name}", f"{value} is outside 1-{MAX_INDEX}")
    map_source = reader.source(head, "map")

    chart = _read_chart(reader, data)
    symbols = {r.symbol: Terrain(r.kind.value) for r in chart if r.symbol}
    layers = reader.table(data.get("layers"), "layers")
    reader.fields(layers, "layers", ("terrain", "regions"))
    terrain: dict[int, Terrain] = {}
    for r, line in enumerate(
        _layer(reader, layers.get("terrain"), "layers.terrain", columns, rows)
    ):
        for c, char in enumerate(line):
            if char not in symbols:
                raise reader.fail(
                    f"layers.terrain hex {(c + 1) * 100 + r + 1:04d}",
                    f"unknown terrain symbol {char!r}",
                )
            terrain[(c + 1) * 100 + r + 1] = symbols[char]

    regions = _read_regions(
        reader, data=data, layers=layers, terrain=terrain, columns=columns, rows=rows
    )
    cities = _read_cities(reader, data, columns, rows)
    hexsides: list[Hexside] = []
    for table, feature in (*_SIDE_TABLES.items(), *_PATH_TABLES.items()):
        for i, raw in enumerate(reader.rows(data, table)):
            key = f"{table}[{i}]"
            field = "path" if table in _PATH_TABLES else "sides"
            reader.fields(raw, key, ("name", field, "source"))
            name = reader.string(raw, "name", key, "")
            source = reader.source(raw, key)
            read = _path if table in _PATH_TABLES else _sides
            for a, b in read(reader, raw.get(field), f"{key}.{field}", columns, rows):
                hexsides.append(Hexside(a, b, feature, name, source))
    sea_areas = []
    for i, raw in enumerate(reader.rows(data, "sea_area")):
        key = f"sea_area[{i}]"
        reader.fields(raw, key, ("name", "hexes", "source"))
        hexes = _hex_ranges(reader, raw.get("hexes"), f"{key}.hexes", columns, rows)
        sea_areas.append(
            SeaArea(
                reader.string(raw, "name", key, None), frozenset(hexes), reader.source(raw, key)
            )
        )
    peripherals = _read_peripherals(reader, data)

    hex_map = HexMap(
        columns=columns,
        rows=rows,
        terrain=terrain,
        chart=chart,
        regions=regions,
        cities=cities,
        hexsides=tuple(hexsides),
        sea_areas=tuple(sea_areas),
        peripheral_areas=peripherals,
        source=map_source,
        digest=hashlib.sha256(blob).hexdigest()[:16],
    )
    validate(hex_map, file)
    return hex_map


def _read_chart(reader: _Reader, data: Mapping[str, object]) -> tuple[TerrainRating, ...]:
    table = reader.table(data.get("terrain"), "terrain")
    chart = []
    for name, raw in table.items():
        key = f"terrain.{name}"
        kind = reader.enum(TerrainKind, name, key)
        assert isinstance(kind, TerrainKind)
        row = reader.table(raw, key)
        reader.fields(row, key, ("symbol", "forage", "source", "sources"))
        symbol = reader.string(row, "symbol", key, "")
        ground = kind.value in {t.value for t in Terrain}
        if ground and len(symbol) != 1:
            raise reader.fail(f"{key}.symbol", "a ground terrain needs a one-character symbol")
        if not ground and symbol:
            raise reader.fail(f"{key}.symbol", "only ground terrains appear in the layer")
        forage = reader.integer(row, "forage", key, -1) if "forage" in row else None
        if forage is not None and forage < 0:
            raise reader.fail(f"{key}.forage", "a Forage value cannot be negative")
        chart.append(
            TerrainRating(
                kind,
                forage,
                symbol,
                reader.source(row, key),
                reader.overrides(row, key, ("symbol", "forage")),
            )
        )
    missing = sorted({k.value for k in TerrainKind} - {r.kind.value for r in chart})
    if missing:
        raise reader.fail("terrain", f"no line for terrain {', '.join(missing)}")
    symbols = [r.symbol for r in chart if r.symbol]
    if len(set(symbols)) != len(symbols):
        raise reader.fail("terrain", "two terrains share a symbol")
    return tuple(chart)


def _read_regions(
    reader: _Reader,
    *,
    data: Mapping[str, object],
    layers: Mapping[str, object],
    terrain: Mapping[int, Terrain],
    columns: int,
    rows: int,
) -> tuple[Region, ...]:
    declared: dict[str, tuple[str, int, Source, tuple[tuple[str, Source], ...]]] = {}
    names: set[str] = set()
    for i, raw in enumerate(reader.rows(data, "region")):
        key = f"region[{i}]"
        fields = ("name", "code", "levy")
        reader.fields(raw, key, (*fields, "source", "sources"))
        name = reader.string(raw, "name", key, None)
        code = reader.string(raw, "code", key, None)
        levy = reader.integer(raw, "levy", key, None)
        if levy < 0:
            raise reader.fail(f"{key}.levy", f"a Levy of {levy} units is negative")
        if len(code) != 1 or code == NO_REGION:
            raise reader.fail(
                f"{key}.code", f"a region code is one character other than {NO_REGION!r}"
            )
        if code in declared:
            raise reader.fail(f"{key}.code", f"code {code!r} is used twice")
        if name in names:
            raise reader.fail(f"{key}.name", f"region {name!r} is listed twice")
        names.add(name)
        declared[code] = (name, levy, reader.source(raw, key), reader.overrides(raw, key, fields))
    members: dict[str, set[int]] = {code: set() for code in declared}
    lines = _layer(reader, layers.get("regions"), "layers.regions", columns, rows)
    for r, line in enumerate(lines):
        for c, char in enumerate(line):
            hex_number = (c + 1) * 100 + r + 1
            label = f"layers.regions hex {hex_number:04d}"
            land = terrain[hex_number].land
            if char == NO_REGION:
                if land:
                    raise reader.fail(label, "a land hex must belong to a region")
                continue
            if char not in declared:
                raise reader.fail(label, f"unknown region code {char!r}")
            if not land:
                raise reader.fail(label, "an all-sea hex belongs to no region")
            members[char].add(hex_number)
    regions = []
    for i, (code, (name, levy, source, sources)) in enumerate(declared.items()):
        if not members[code]:
            raise reader.fail(f"region[{i}]", f"region {name!r} has no hexes")
        regions.append(
            Region(name, code, frozenset(members[code]), levy=levy, source=source, sources=sources)
        )
    return tuple(regions)


def _read_cities(
    reader: _Reader, data: Mapping[str, object], columns: int, rows: int
) -> tuple[City, ...]:
    cities = []
    for i, raw in enumerate(reader.rows(data, "city")):
        key = f"city[{i}]"
        fields = ("name", "hex", "treasury", "port", "capital")
        reader.fields(raw, key, (*fields, "source", "sources"))
        cities.append(
            City(
                name=reader.string(raw, "name", key, None),
                hex=reader.hex_number(raw.get("hex"), f"{key}.hex", columns, rows),
                treasury=reader.boolean(raw, "treasury", key),
                port=reader.boolean(raw, "port", key),
                capital=reader.boolean(raw, "capital", key),
                source=reader.source(raw, key),
                sources=reader.overrides(raw, key, fields),
            )
        )
    return tuple(cities)


def _read_peripherals(reader: _Reader, data: Mapping[str, object]) -> tuple[PeripheralArea, ...]:
    areas = []
    for i, raw in enumerate(reader.rows(data, "peripheral")):
        key = f"peripheral[{i}]"
        fields = ("name", "region", "edges", "sea_areas", "port", "forage", "solidus")
        reader.fields(raw, key, (*fields, "source", "sources"))
        edges = frozenset(
            MapEdge(reader.enum(MapEdge, edge, f"{key}.edges[{j}]").value)
            for j, edge in enumerate(reader.strings(raw, "edges", key))
        )
        areas.append(
            PeripheralArea(
                name=reader.string(raw, "name", key, None),
                region=reader.string(raw, "region", key, None),
                edges=edges,
                sea_areas=reader.strings(raw, "sea_areas", key),
                port=reader.boolean(raw, "port", key),
                forage=reader.integer(raw, "forage", key, 10),
                solidus=reader.integer(raw, "solidus", key, 0),
                source=reader.source(raw, key),
                sources=reader.overrides(raw, key, fields),
            )
        )
    return tuple(areas)


def _check(condition: bool, file: str, key: str, reason: str) -> None:
    if not condition:
        raise MapError(file, key, reason)


def validate(hex_map: HexMap, file: str) -> None:
    """Cross-checks: cities on land, sensible hexsides, sea areas, Peripheral Areas."""
    seen_names: set[str] = set()
    seen_hexes: set[int] = set()
    for i, city in enumerate(hex_map.cities):
        key = f"city[{i}]"
        _check(city.name not in seen_names, file, f"{key}.name", f"{city.name!r} is listed twice")
        _check(city.hex not in seen_hexes, file, f"{key}.hex", f"two cities in {city.hex:04d}")
        seen_names.add(city.name)
        seen_hexes.add(city.hex)
        _check(hex_map.is_land(city.hex), file, f"{key}.hex", f"{city.name} is in an all-sea hex")
        if city.port:
            _check(
                hex_map.is_coastal(city.hex),
                file,
                f"{key}.port",
                f"{city.name} ({city.hex:04d}) is a port but not coastal",
            )
    capitals = [city.name for city in hex_map.cities if city.capital]
    _check(len(capitals) == 1, file, "city", f"needs exactly one capital city, found {capitals}")

    tables = {feature: table for table, feature in (*_SIDE_TABLES.items(), *_PATH_TABLES.items())}
    seen_sides: set[tuple[int, int, HexsideFeature, str]] = set()
    for side in hex_map.hexsides:
        key = f"{tables[side.feature]} {side.name or '?'} {side.a:04d}/{side.b:04d}"
        entry = (side.a, side.b, side.feature, side.name)
        _check(entry not in seen_sides, file, key, "this hexside is listed twice")
        seen_sides.add(entry)
        a_land, b_land = hex_map.is_land(side.a), hex_map.is_land(side.b)
        if side.feature in (HexsideFeature.RIVER, HexsideFeature.ROAD, HexsideFeature.PASS):
            _check(a_land and b_land, file, key, "runs into an all-sea hex")
        if side.feature in (HexsideFeature.STRAIT, HexsideFeature.SEA):
            _check(a_land and b_land, file, key, "only a side between two land hexes is marked")
        if side.feature is HexsideFeature.PASS:
            rough = {hex_map.terrain[side.a], hex_map.terrain[side.b]} & {Terrain.ROUGH}
            _check(bool(rough), file, key, "a pass leads into or out of rough terrain")
    for side in hex_map.hexsides:
        if side.feature is HexsideFeature.STRAIT:
            both = hex_map.features(side.a, side.b)
            _check(
                HexsideFeature.SEA not in both,
                file,
                f"strait {side.name} {side.a:04d}/{side.b:04d}",
                "a side is either a strait or an all-sea side",
            )

    names = [area.name for area in hex_map.sea_areas]
    _check(len(set(names)) == len(names), file, "sea_area", "a sea area is listed twice")
    for i, area in enumerate(hex_map.sea_areas):
        land = sorted(h for h in area.hexes if hex_map.is_land(h))
        _check(not land, file, f"sea_area[{i}]", f"{area.name} holds land hexes {land[:3]}")

    regions = {region.name for region in hex_map.regions}
    found = {area.name for area in hex_map.peripheral_areas}
    _check(
        found == PERIPHERAL_NAMES and len(found) == len(hex_map.peripheral_areas),
        file,
        "peripheral",
        f"needs each of {sorted(PERIPHERAL_NAMES)} once, found {sorted(found)}",
    )
    for i, periph in enumerate(hex_map.peripheral_areas):
        key = f"peripheral[{i}]"
        _check(periph.region in regions, file, f"{key}.region", f"no region {periph.region!r}")
        _check(bool(periph.edges), file, f"{key}.edges", "needs at least one map edge")
        for sea in periph.sea_areas:
            _check(sea in names, file, f"{key}.sea_areas", f"no sea area {sea!r}")
        _check(periph.forage >= 0, file, f"{key}.forage", "a Forage value cannot be negative")
        _check(
            any(hex_map.is_land(h) for h in hex_map.entry_hexes(periph.name)),
            file,
            f"{key}.edges",
            f"{periph.region} has no land hex on the {sorted(e.value for e in periph.edges)} edge",
        )
