"""Sword of Orthodoxy's components as typed records, loaded from TOML with provenance.

The data lives in ``data/*.toml`` beside this module: the map (``map.toml``), every
tile including the Turn Chits (``tiles.toml``), the printed tracks and tables
(``tables.toml``) and the two scenario setups (``scenarios.toml``). Each datum says
where it comes from:

* a rule id of the rulebook's index (``"8.4.1"``, ``"A"``): the rulebook states it,
  possibly only in an example;
* ``"peer"``: read from an independent implementation of the game (a peer
  transcription of printed values our rulebook copy lacks);
* ``"provisional: <why>"``: neither source prints it; a plausible value, with its
  rationale.

A record carries a default ``source`` and, in ``sources``, the fields whose source
differs. :func:`load_components` validates everything and names the file, the key
and the reason of the first problem; users may load their own complete files.
"""

from __future__ import annotations

import enum
import hashlib
import typing
from collections.abc import Iterator
from importlib import resources
from pathlib import Path as FilePath

import attrs

from byzantium.core.provenance import (
    ComponentError,
    Provenance,
    RecordReader,
    Source,
    load_toml,
    read_component_file,
)
from byzantium.sword_of_orthodoxy import RULES

__all__ = [
    "DATA_FILES",
    "ComponentError",
    "Components",
    "Face",
    "HistoricalPatriarch",
    "Icon",
    "MapSpace",
    "Path",
    "Provenance",
    "Source",
    "SpaceKind",
    "Tile",
    "TileKind",
    "TurnChit",
    "load_components",
]

#: The component files, in load order.
DATA_FILES = ("map.toml", "tiles.toml", "tables.toml", "scenarios.toml")


class Path(enum.IntEnum):
    """The six Paths (2.2); the value is the die number printed on its Zone or Homeland."""

    ALPHA = 1
    BETA = 2
    GAMMA = 3
    DELTA = 4
    EPSILON = 5
    ZETA = 6

    #: The Path's name in the ids of its spaces and offers (``"beta"``: ``zone-beta``,
    #: ``reserves-beta``), set once for each Path below: the rules build such ids all
    #: the time, and an enumeration's ``name`` is a Python call each time it is read.
    slug: str

    @property
    def letter(self) -> str:
        """The Greek capital the rulebook uses."""
        return "ΑΒΓΔΕΖ"[self - 1]  # the value, as an int (``value`` is a Python call)

    @property
    def western(self) -> bool:
        """Α, Β and Γ are Zones; Δ, Ε and Ζ are Paths of Themas (2.2.1)."""
        return self <= 3  # compared as an int: faster than reading ``value``

    @classmethod
    def from_letter(cls, letter: str) -> Path:
        """The Path of a Greek letter (``"Δ"``) or of its Latin look-alike (``"D"``)."""
        index = "ΑΒΓΔΕΖ".find(letter)
        if index < 0:
            index = "ABGDEZ".find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"not a Path letter: {letter!r}")
        return cls(index + 1)

    def __str__(self) -> str:
        return self.letter


for _path in Path:
    _path.slug = _path.name.lower()


#: The default provenance of a record: the peer transcription.
_PEER = Source(Provenance.PEER)


class _Symbol(enum.Enum):
    """An enumeration the rules look up all the time (in sets of icons, in tables keyed by
    kind): its members are singletons compared by identity, so they hash by identity,
    which costs nothing (:class:`enum.Enum`'s own hash is a Python call each time)."""

    __hash__ = object.__hash__


class SpaceKind(_Symbol):
    """What a map (or tray) space is."""

    ZONE = "zone"
    RESERVES = "reserves"
    THEMA = "thema"
    HOMELAND = "homeland"
    CONSTANTINOPLE = "constantinople"
    TRACK = "track"
    HOLDING = "holding"


class Icon(_Symbol):
    """Printed icons that rules test for, on spaces and on tile faces."""

    TAURUS = "taurus"
    GREEK_BANNER = "greek-banner"
    HOSTILE_RELIGIOUS_CENTRE = "hostile-religious-centre"
    HORSE = "horse"
    MAN = "man"
    MUSLIM = "muslim"
    SWORD = "sword"
    CROSS = "cross"
    FIRE = "fire"
    PI = "pi"
    CHI = "chi"
    SIGMA = "sigma"
    SAINT = "saint"


class TileKind(_Symbol):
    """Kinds of tile (Appendix B sorts them on the Counter Tray)."""

    ARMY = "army"
    TRIBE = "tribe"
    SIEGE = "siege"
    FACTION = "faction"
    PATRIARCH = "patriarch"
    DYNASTY = "dynasty"
    BASILEUS = "basileus"
    GOLDEN_BASILEUS = "golden-basileus"
    OUTPOST = "outpost"
    TURN_CHIT = "turn-chit"
    SOCIAL = "social"
    RIOT = "riot"
    HOSPITAL = "hospital"
    MONASTERY = "monastery"
    AKRITAI = "akritai"
    MAGISTER = "magister"
    SUPPORT = "support"
    MARKER = "marker"


@attrs.frozen
class MapSpace:
    """A space of the map or of the Counter Tray's Reserves."""

    id: str
    name: str
    kind: SpaceKind
    path: Path | None = None
    #: On an eastern Path: 1 next to Constantinople ... 5 the Homeland.
    position: int = 0
    icons: frozenset[Icon] = frozenset()
    #: Die number printed on a Zone or Homeland (6.7.1, 7.2, 7.3).
    die: int = 0
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Face:
    """One side of a tile."""

    name: str
    strength: int = 0
    #: Dynasty survival die icon (6.1).
    survival: int = 0
    #: Income (7.1), or the solidus gained when an Outpost is abandoned (10.2).
    solidus: int = 0
    #: Σ symbols (an abandoned Outpost's schism penalty, 10.2).
    schism: int = 0
    #: Path letter in an Outpost's golden space: it advances when abandoned (10.2).
    advance: Path | None = None
    icons: frozenset[Icon] = frozenset()


@attrs.frozen
class Tile:
    """A physical tile: both faces, its Path if it belongs to one, and provenance."""

    id: str
    kind: TileKind
    front: Face
    back: Face | None = None
    path: Path | None = None
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def name(self) -> str:
        """The front face's name."""
        return self.front.name


@attrs.frozen
class TurnChit:
    """A Turn Chit (2.3, 5.3, 9.1)."""

    number: int
    paths: tuple[Path, ...]
    patriarch: bool = False
    crusader_shield: bool = False
    red_disc: bool = False
    civil_war: bool = False
    east_west_schism: bool = False
    fires: int = 0
    white_dice: int = 0
    red_dice: int = 0
    round_letter: str = ""
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def id(self) -> str:
        """Tile id of the chit."""
        return f"chit-{self.number}"


class CrusadeOutcome(enum.Enum):
    """Results of the Crusade Table (Table 1)."""

    SPORADIC = "sporadic warfare"
    BETRAYED = "constantinople betrayed"
    EGYPT = "landing in egypt"


@attrs.frozen
class ChronographiaTurn:
    """What the Chronographia prints on one Turn space (5.1, 5.2)."""

    turn: int
    #: Chronographia and Migration Events printed there (5.2.1, 5.2.3).
    events: tuple[str, ...] = ()
    #: The Magister Militum named in red (5.2.2), or "" (one tile serves them all).
    magister: str = ""
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def years(self) -> tuple[int, int]:
        """First and last year of the Turn: 421-460, 461-500, ..."""
        return 421 + 40 * (self.turn - 1), 460 + 40 * (self.turn - 1)


@attrs.frozen
class MilitaryEvent:
    """A space of the Strategikon track (8.3, 10.6.2)."""

    name: str
    #: +1 (blue), -1 (red) or 0 (Yihad, War in the East).
    drm: int
    #: Paths whose attacks the DRM applies to.
    paths: tuple[Path, ...] = ()
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class PoliticalEvent:
    """A Political Event of 8.4.1 (``once``: marked ✹, it happens only once)."""

    name: str
    once: bool = False
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class SynopsisRow:
    """A row of the Synopsis of Histories table (8.1, Appendix D)."""

    low: int
    high: int
    military: str = ""
    political: tuple[str, ...] = ()
    #: Circled letters or numbers: optional round-letter events (5.3.8).
    optional: tuple[str, ...] = ()
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class CrusadeRow:
    """A row of the Crusade Table (Table 1)."""

    low: int
    high: int
    outcome: CrusadeOutcome
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class WarInTheEastRow:
    """A row of the War in the East Table (Table 2); open ends use -99 and 99."""

    low: int
    high: int
    ruins: int
    #: Spaces every Persian Army moves: positive advances, negative retreats.
    persians: int
    #: "persian", "byzantine" or "" (no victory).
    victory: str = ""
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class OttomanRow:
    """A row of the Ottoman Empire Table (Table 3); open ends use -99 and 99."""

    low: int
    high: int
    paths: tuple[Path, ...]
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class RoundLetterEvent:
    """An optional round-letter event (5.3.8, Appendix F): ``Ⓐ`` ... or ``①`` ..."""

    symbol: str
    name: str
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class HistoricalPatriarch:
    """One Turn of the peer app's Historical Patriarchs option (not in our rulebook).

    With the option on, this Turn's Patriarch is fixed: his ``name``, the printed
    Patriarch ``tile`` that stands for him on the Patriarch space, his income in
    solidus and whether he is a heretic (+1 Schism when he takes office, 6.3).
    """

    turn: int
    name: str
    tile: str
    solidus: int = 0
    heretic: bool = False
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Placement:
    """A setup instruction: put a tile, face up, on a space (``value``: track position)."""

    tile: str
    space: str
    face: str = "front"
    value: int = 0
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Scenario:
    """A setup (Appendix A, Appendix E): where every tile starts."""

    id: str
    name: str
    first_turn: int
    placements: tuple[Placement, ...]
    source: Source = _PEER
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Components:
    """Every component of the game, as loaded and validated."""

    spaces: tuple[MapSpace, ...]
    tiles: tuple[Tile, ...]
    chits: tuple[TurnChit, ...]
    chronographia: tuple[ChronographiaTurn, ...]
    strategikon: tuple[MilitaryEvent, ...]
    political_events: tuple[PoliticalEvent, ...]
    synopsis: tuple[SynopsisRow, ...]
    crusade_table: tuple[CrusadeRow, ...]
    war_in_the_east_table: tuple[WarInTheEastRow, ...]
    ottoman_table: tuple[OttomanRow, ...]
    round_letter_events: tuple[RoundLetterEvent, ...]
    scenarios: tuple[Scenario, ...]
    #: The peer app's Historical Patriarchs, Turn by Turn (empty in files without them).
    historical_patriarchs: tuple[HistoricalPatriarch, ...] = ()
    #: Digest of the files' bytes (stored in game records).
    digest: str = ""

    def space(self, space_id: str) -> MapSpace:
        """A map space by id."""
        for space in self.spaces:
            if space.id == space_id:
                return space
        raise KeyError(space_id)

    def tile(self, tile_id: str) -> Tile:
        """A tile by id."""
        for tile in self.tiles:
            if tile.id == tile_id:
                return tile
        raise KeyError(tile_id)

    def provenance(self) -> Iterator[tuple[str, str, Source]]:
        """Every datum as (record, field, source), for listing by provenance."""
        records: list[tuple[str, attrs.AttrsInstance]] = [(f"space {s.id}", s) for s in self.spaces]
        records += [(f"tile {t.id}", t) for t in self.tiles]
        records += [(f"chit {c.number}", c) for c in self.chits]
        records += [(f"chronographia {c.turn}", c) for c in self.chronographia]
        records += [(f"military event {e.name}", e) for e in self.strategikon]
        records += [(f"political event {e.name}", e) for e in self.political_events]
        records += [(f"synopsis {r.low}-{r.high}", r) for r in self.synopsis]
        records += [(f"crusade table {r.low}-{r.high}", r) for r in self.crusade_table]
        records += [(f"war in the east {r.low}-{r.high}", r) for r in self.war_in_the_east_table]
        records += [(f"ottoman table {r.low}-{r.high}", r) for r in self.ottoman_table]
        records += [(f"round letter {e.symbol}", e) for e in self.round_letter_events]
        records += [(f"historical patriarch {r.turn}", r) for r in self.historical_patriarchs]
        for scenario in self.scenarios:
            records.append((f"scenario {scenario.id}", scenario))
            records += [
                (f"scenario {scenario.id} placement {p.tile}", p) for p in scenario.placements
            ]
        for label, record in records:
            default: Source = getattr(record, "source")  # noqa: B009
            overrides: dict[str, Source] = dict(getattr(record, "sources"))  # noqa: B009
            for field in attrs.fields(type(record)):
                if field.name in ("source", "sources"):
                    continue
                value = getattr(record, field.name)
                if isinstance(value, Face):
                    whole = overrides.get(field.name, default)
                    for part in attrs.fields(Face):
                        dotted = f"{field.name}.{part.name}"
                        if getattr(value, part.name) != part.default or dotted in overrides:
                            yield label, dotted, overrides.get(dotted, whole)
                elif field.name == "placements":
                    continue
                elif value != field.default or field.name in overrides:
                    yield label, field.name, overrides.get(field.name, default)


# -- loading ----------------------------------------------------------------------


def _path_letter(raw: object) -> Path:
    try:
        return Path.from_letter(str(raw))
    except ValueError:
        raise ValueError(f"expected a Path letter Α Β Γ Δ Ε Ζ, not {raw!r}") from None


def _reader(file: str) -> RecordReader:
    """The TOML reader of these files (Paths are written as Greek letters)."""
    return RecordReader(RULES, file, converters={Path: _path_letter})


_LAYOUT: dict[str, dict[str, type]] = {
    "map.toml": {"space": MapSpace},
    "tiles.toml": {"tile": Tile, "chit": TurnChit},
    "tables.toml": {
        "chronographia": ChronographiaTurn,
        "military_event": MilitaryEvent,
        "political_event": PoliticalEvent,
        "synopsis": SynopsisRow,
        "crusade": CrusadeRow,
        "war_in_the_east": WarInTheEastRow,
        "ottoman": OttomanRow,
        "round_letter": RoundLetterEvent,
        "historical_patriarch": HistoricalPatriarch,
    },
    "scenarios.toml": {"scenario": Scenario},
}


def _read_files(directory: str | FilePath | None) -> dict[str, bytes]:
    blobs = {}
    for name in DATA_FILES:
        if directory is None:
            blobs[name] = resources.files(__package__).joinpath("data", name).read_bytes()
        else:
            path = FilePath(directory) / name
            if not path.exists():
                raise ComponentError(str(path), "-", "component file is missing")
            blobs[name] = read_component_file(path)
    return blobs


def load_components(directory: str | FilePath | None = None) -> Components:
    """Load and validate the component files (the shipped ones, or a user's directory).

    A user's directory must hold all of :data:`DATA_FILES`; the first problem found is
    raised as a :class:`ComponentError` naming the file, the key and the reason.
    """
    blobs = _read_files(directory)
    loaded: dict[str, dict[str, tuple[object, ...]]] = {}
    for name, layout in _LAYOUT.items():
        label = name if directory is None else str(FilePath(directory) / name)
        data = load_toml(blobs[name], label)
        unknown = sorted(set(data) - set(layout))
        if unknown:
            raise ComponentError(label, unknown[0], "unknown table")
        reader = _reader(label)
        loaded[name] = {table: reader.records(data, table, kind) for table, kind in layout.items()}
    digest = hashlib.sha256(b"".join(blobs[name] for name in DATA_FILES)).hexdigest()[:16]
    tables = loaded["tables.toml"]
    components = Components(
        spaces=typing.cast(tuple[MapSpace, ...], loaded["map.toml"]["space"]),
        tiles=typing.cast(tuple[Tile, ...], loaded["tiles.toml"]["tile"]),
        chits=typing.cast(tuple[TurnChit, ...], loaded["tiles.toml"]["chit"]),
        chronographia=typing.cast(tuple[ChronographiaTurn, ...], tables["chronographia"]),
        strategikon=typing.cast(tuple[MilitaryEvent, ...], tables["military_event"]),
        political_events=typing.cast(tuple[PoliticalEvent, ...], tables["political_event"]),
        synopsis=typing.cast(tuple[SynopsisRow, ...], tables["synopsis"]),
        crusade_table=typing.cast(tuple[CrusadeRow, ...], tables["crusade"]),
        war_in_the_east_table=typing.cast(tuple[WarInTheEastRow, ...], tables["war_in_the_east"]),
        ottoman_table=typing.cast(tuple[OttomanRow, ...], tables["ottoman"]),
        round_letter_events=typing.cast(tuple[RoundLetterEvent, ...], tables["round_letter"]),
        scenarios=typing.cast(tuple[Scenario, ...], loaded["scenarios.toml"]["scenario"]),
        historical_patriarchs=typing.cast(
            tuple[HistoricalPatriarch, ...], tables["historical_patriarch"]
        ),
        digest=digest,
    )
    validate(components, directory)
    return components


#: Tiles in the box, Turn Chits included (2.1).
TILE_TOTAL = 176
#: Tile counts Appendix B prints, by kind and Path (None: not tied to a Path).
APPENDIX_B_COUNTS: dict[tuple[TileKind, Path | None], int] = {
    (TileKind.PATRIARCH, None): 10,
    (TileKind.FACTION, None): 11,
    (TileKind.DYNASTY, None): 14,
    (TileKind.ARMY, Path.ALPHA): 5,
    (TileKind.ARMY, Path.BETA): 5,
    (TileKind.ARMY, Path.GAMMA): 5,
    (TileKind.ARMY, Path.DELTA): 5,
    (TileKind.ARMY, Path.EPSILON): 6,
    (TileKind.ARMY, Path.ZETA): 7,
    (TileKind.TRIBE, Path.ALPHA): 5,
    (TileKind.TRIBE, Path.BETA): 5,
    (TileKind.TRIBE, Path.GAMMA): 6,
}
#: Value ranges a face may take.
_FACE_RANGES = {"strength": (0, 6), "survival": (0, 6), "solidus": (0, 12), "schism": (0, 3)}


def _check(condition: bool, file: str, key: str, reason: str) -> None:
    if not condition:
        raise ComponentError(file, key, reason)


def _unique(ids: list[str], file: str, table: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        _check(item not in seen, file, f"{table}[{i}]", f"id {item!r} is used twice")
        seen.add(item)


def _covers(rows: tuple[tuple[int, int], ...], low: int, high: int, file: str, table: str) -> None:
    """Rows (low, high) must tile [low, high] without gaps or overlaps, in order."""
    expected = low
    for i, (a, b) in enumerate(rows):
        _check(
            a == expected and b >= a,
            file,
            f"{table}[{i}]",
            f"row {a}-{b} should start at {expected}",
        )
        expected = b + 1
    _check(expected == high + 1, file, table, f"rows stop at {expected - 1}, not {high}")


def validate(components: Components, directory: str | FilePath | None = None) -> None:
    """Cross-file consistency: ids, counts, ranges, coverage of tables, setups."""

    def name(file: str) -> str:
        return file if directory is None else str(FilePath(directory) / file)

    _validate_map(components, name("map.toml"))
    validate_tiles(components, name("tiles.toml"))
    _validate_tables(components, name("tables.toml"), name("tiles.toml"))
    _validate_scenarios(components, name("scenarios.toml"))


def _validate_map(components: Components, file: str) -> None:
    _unique([s.id for s in components.spaces], file, "space")
    for path in Path:
        if path.western:
            for kind in (SpaceKind.ZONE, SpaceKind.RESERVES):
                found = [s for s in components.spaces if s.path is path and s.kind is kind]
                _check(len(found) == 1, file, "space", f"Path {path} needs one {kind.value}")
            continue
        line = sorted(
            (s for s in components.spaces if s.path is path and s.position),
            key=lambda s: s.position,
        )
        _check(
            [s.position for s in line] == [1, 2, 3, 4, 5],
            file,
            "space",
            f"Path {path} needs Themas at positions 1-5 exactly once",
        )
        _check(line[4].kind is SpaceKind.HOMELAND, file, f"space {line[4].id}", "not a homeland")
    for space in components.spaces:
        if space.kind in (SpaceKind.ZONE, SpaceKind.HOMELAND):
            _check(
                space.path is not None and space.die == space.path.value,
                file,
                f"space {space.id}.die",
                "a Zone or Homeland carries its Path's die number",
            )


@RULES.implements("2.1", "2.3", "B")
def validate_tiles(components: Components, file: str) -> None:
    """The box: 176 tiles (2.1), 28 Turn Chits (2.3), Appendix B's counts per kind."""
    _unique([t.id for t in components.tiles], file, "tile")
    numbers = sorted(chit.number for chit in components.chits)
    _check(numbers == list(range(1, 29)), file, "chit", "Turn Chits must be numbered 1-28")
    total = len(components.tiles) + len(components.chits)
    _check(total == TILE_TOTAL, file, "tile", f"{total} tiles, the box holds {TILE_TOTAL}")
    for (kind, path), count in APPENDIX_B_COUNTS.items():
        found = sum(1 for t in components.tiles if t.kind is kind and t.path is path)
        where = f" of Path {path}" if path else ""
        _check(found == count, file, "tile", f"{found} {kind.value} tiles{where}, not {count}")
    for tile in components.tiles:
        for side, face in (("front", tile.front), ("back", tile.back)):
            if face is None:
                continue
            for field, (low, high) in _FACE_RANGES.items():
                value = getattr(face, field)
                _check(
                    low <= value <= high,
                    file,
                    f"tile {tile.id}.{side}.{field}",
                    f"{value} is outside {low}-{high}",
                )
        if tile.kind is TileKind.ARMY:
            _check(tile.path is not None, file, f"tile {tile.id}.path", "an Army has a Path")
    for chit in components.chits:
        _check(len(set(chit.paths)) == len(chit.paths), file, chit.id, "a Path letter twice")


def _validate_tables(components: Components, file: str, tiles_file: str) -> None:
    tiles = {tile.id: tile for tile in components.tiles}
    turns = [row.turn for row in components.chronographia]
    _check(turns == list(range(1, 28)), file, "chronographia", "needs Turns 1-27 in order")
    has_magister = any(tile.kind is TileKind.MAGISTER for tile in tiles.values())
    for row in components.chronographia:
        if row.magister:
            _check(
                has_magister,
                file,
                f"chronographia turn {row.turn}.magister",
                "a Magister Militum is named but there is no Magister Militum tile",
            )
    military = {event.name for event in components.strategikon}
    _unique([e.name for e in components.strategikon], file, "military_event")
    for event in components.strategikon:
        _check(event.drm in (-1, 0, 1), file, f"military_event {event.name}", "drm is ±1 or 0")
    political = {event.name for event in components.political_events}
    _unique([e.name for e in components.political_events], file, "political_event")
    symbols = {event.symbol for event in components.round_letter_events}
    _unique([e.symbol for e in components.round_letter_events], file, "round_letter")
    _covers(tuple((r.low, r.high) for r in components.synopsis), 2, 33, file, "synopsis")
    for i, synopsis in enumerate(components.synopsis):
        key = f"synopsis[{i}]"
        unknown_military = f"unknown military event {synopsis.military!r}"
        _check(not synopsis.military or synopsis.military in military, file, key, unknown_military)
        for name in synopsis.political:
            _check(name in political, file, key, f"unknown political event {name!r}")
        for symbol in synopsis.optional:
            _check(symbol in symbols, file, key, f"unknown optional event {symbol!r}")
    for chit in components.chits:
        if chit.round_letter:
            _check(chit.round_letter in symbols, tiles_file, chit.id, "unknown round letter")
    _covers(tuple((r.low, r.high) for r in components.crusade_table), 1, 6, file, "crusade")
    war = tuple((r.low, r.high) for r in components.war_in_the_east_table)
    _covers(war, -99, 99, file, "war_in_the_east")
    _covers(tuple((r.low, r.high) for r in components.ottoman_table), -99, 99, file, "ottoman")
    _validate_historical_patriarchs(components, file, tiles)


def _validate_historical_patriarchs(
    components: Components, file: str, tiles: dict[str, Tile]
) -> None:
    """The optional table, if given: Turns 1-27 in order, each shown by a Patriarch tile."""
    rows = components.historical_patriarchs
    if not rows:
        return
    turns = [row.turn for row in rows]
    _check(turns == list(range(1, 28)), file, "historical_patriarch", "needs Turns 1-27 in order")
    for row in rows:
        key = f"historical_patriarch turn {row.turn}"
        tile = tiles.get(row.tile)
        _check(tile is not None and tile.kind is TileKind.PATRIARCH, file, key, "not a Patriarch")
        _check(0 <= row.solidus <= _FACE_RANGES["solidus"][1], file, key, "solidus out of range")


def _validate_scenarios(components: Components, file: str) -> None:
    spaces = {space.id for space in components.spaces}
    tiles = {tile.id: tile for tile in components.tiles}
    chit_ids = {chit.id for chit in components.chits}
    _unique([s.id for s in components.scenarios], file, "scenario")
    for scenario in components.scenarios:
        label = f"scenario {scenario.id}"
        _check(1 <= scenario.first_turn <= 27, file, label, "first_turn must be 1-27")
        placed: set[str] = set()
        for i, placement in enumerate(scenario.placements):
            key = f"{label}.placement[{i}]"
            known = placement.tile in tiles or placement.tile in chit_ids
            _check(known, file, key, f"unknown tile {placement.tile!r}")
            _check(placement.space in spaces, file, key, f"unknown space {placement.space!r}")
            _check(placement.tile not in placed, file, key, f"{placement.tile} placed twice")
            _check(placement.face in ("front", "back"), file, key, "face is front or back")
            if placement.face == "back" and placement.tile in tiles:
                _check(tiles[placement.tile].back is not None, file, key, "the tile has no back")
            placed.add(placement.tile)
