"""Belisarius's three scenarios (34.1-34.3) as typed records, loaded from TOML.

``data/scenarios.toml`` holds, per scenario: its turns, who moves and who sets up
first, the control status of every map region at the start, each side's treasury and
Stratagem draw, the counters each region receives (the hex-by-hex placement is a
player action, not data), short named special rules and the Victory Points. Every
datum cites a rule id of the index or says ``"provisional: why"``, as in the other
data files. Scenario 3 repeats Scenario 1's set-up, Victory Points and special rules
(34.3): its TOML names ``same_as = 1`` and the loader copies them.

Regions are named by their code letter of ``data/map.toml``; counters by the unit
kinds, nationalities and Leader ids of ``data/counters.toml``.

The setup procedure itself (placing counters in hexes, 34.0) is not implemented here,
so no rule is registered with ``RULES.implements``.
"""

from __future__ import annotations

import enum
import hashlib
from collections import Counter
from fractions import Fraction
from importlib import resources
from pathlib import Path

import attrs

from byzantium.belisarius.bounds import check_numbers
from byzantium.belisarius.components import (
    _UNSET,
    ComponentError,
    Components,
    Side,
    Source,
    UnitKind,
    _reader,
    load_components,
)
from byzantium.belisarius.hexmap import HexMap, load_map
from byzantium.core.provenance import load_toml, read_component_file

__all__ = [
    "FIRST_YEAR",
    "GUARD",
    "SCENARIO_FILE",
    "YEARS_PER_TURN",
    "CityVictory",
    "Control",
    "Placement",
    "RegionControl",
    "RegionVictory",
    "Scenario",
    "SetupGroup",
    "SpecialRule",
    "Treasury",
    "check_nationalities",
    "load_scenarios",
    "scenario_file_digest",
    "turn_of_year",
]

SCENARIO_FILE = "scenarios.toml"
#: Game turn 1 begins in 527 AD (34.1, 34.3) and each turn is four years (2.5).
FIRST_YEAR = 527
YEARS_PER_TURN = 4


def turn_of_year(year: int) -> int:
    """The game turn whose four years begin in ``year`` (2.5)."""
    turn, rest = divmod(year - FIRST_YEAR, YEARS_PER_TURN)
    if rest or turn < 0:
        raise ValueError(f"no game turn begins in {year}")
    return turn + 1


class Control(enum.Enum):
    """The three states of a region (4.1)."""

    EMPIRE = "empire"
    BARBARIAN = "barbarian"
    NEUTRAL = "neutral"


class SetupGroup(enum.Enum):
    """Who a deployment belongs to; the scenarios set them up in this order."""

    BARBARIAN = "barbarian"
    NEUTRAL = "neutral"
    EMPIRE = "empire"


@attrs.frozen
class RegionControl:
    """A region's control status at the start (4.11), by its map code."""

    region: str
    control: Control
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Treasury:
    """A side's starting Solidus Points and the Stratagem markers it picks (8.1)."""

    side: Side
    solidus: int
    stratagems: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Placement:
    """Counters a region receives at the start: ``count`` units, or one named Leader.

    ``peripheral``: placed in the region's Peripheral Area box (18.0) rather than on
    the map; ``not_near_city``: not on or adjacent to that city's hex.
    """

    group: SetupGroup
    region: str
    kind: UnitKind
    nationality: str = ""
    count: int = 1
    leader: str = ""
    peripheral: bool = False
    not_near_city: str = ""
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class SpecialRule:
    """A scenario special rule as a short named flag."""

    id: str
    summary: str
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class RegionVictory:
    """Victory Points of a region: ``points`` to its controller at the end (23.1).

    A neutral region scores half of them for the Barbarian player (35.0).
    """

    region: str
    points: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def neutral_points(self) -> Fraction:
        """What the Barbarian player scores if the region ends the game neutral."""
        return Fraction(self.points, 2)


@attrs.frozen
class CityVictory:
    """Victory Points of a city: to the player occupying it at the end (5.0, 23.1)."""

    city: str
    points: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Scenario:
    """One scenario of 34.x."""

    number: int
    name: str
    first_turn: int
    last_turn: int
    #: The side whose player turn comes first each game turn (3.1).
    first_player: Side
    #: The side that sets up first (its neutrals follow, then the other side).
    sets_up_first: Side
    control: tuple[RegionControl, ...]
    treasuries: tuple[Treasury, ...]
    placements: tuple[Placement, ...]
    special_rules: tuple[SpecialRule, ...]
    region_victory: tuple[RegionVictory, ...]
    city_victory: tuple[CityVictory, ...]
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()

    @property
    def turns(self) -> int:
        """Number of game turns played."""
        return self.last_turn - self.first_turn + 1

    def control_of(self, region: str) -> Control:
        """Start status of a region by its map code."""
        return next(c.control for c in self.control if c.region == region)

    def treasury(self, side: Side) -> Treasury:
        """A side's starting treasury."""
        return next(t for t in self.treasuries if t.side is side)

    def placements_in(self, region: str) -> tuple[Placement, ...]:
        """The counters a region receives."""
        return tuple(p for p in self.placements if p.region == region)

    def special(self, rule_id: str) -> bool:
        """Whether the scenario has a special rule flag."""
        return any(r.id == rule_id for r in self.special_rules)


@attrs.frozen
class _Header:
    """The scalar part of a ``[[scenario]]`` table."""

    number: int
    name: str
    first_turn: int
    last_turn: int
    first_player: Side
    sets_up_first: Side
    same_as: int = 0
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


_LISTS: dict[str, type] = {
    "control": RegionControl,
    "treasuries": Treasury,
    "placements": Placement,
    "special_rules": SpecialRule,
    "region_victory": RegionVictory,
    "city_victory": CityVictory,
}


def _read(directory: str | Path | None) -> tuple[str, bytes]:
    if directory is None:
        blob = resources.files(__package__).joinpath("data", SCENARIO_FILE).read_bytes()
        return SCENARIO_FILE, blob
    path = Path(directory) / SCENARIO_FILE
    if not path.exists():
        raise ComponentError(str(path), "-", "scenario file is missing")
    return str(path), read_component_file(path)


def scenario_file_digest(directory: str | Path | None = None) -> str:
    """A digest of the scenario file (of a user's directory), for records' digests."""
    return hashlib.sha256(_read(directory)[1]).hexdigest()[:16]


def load_scenarios(
    directory: str | Path | None = None,
    *,
    components: Components | None = None,
    hex_map: HexMap | None = None,
) -> tuple[Scenario, ...]:
    """Load and validate ``scenarios.toml`` (shipped, or in a user's directory).

    Validated against the counters and the map (the shipped ones unless given); the
    first problem is raised as a :class:`ComponentError` naming file, key and reason.
    """
    file, blob = _read(directory)
    data = load_toml(blob, file)
    check_numbers(data, file)
    unknown = sorted(set(data) - {"scenario"})
    if unknown:
        raise ComponentError(file, unknown[0], "unknown table")
    rows = data.get("scenario")
    if not isinstance(rows, list) or not rows:
        raise ComponentError(file, "scenario", "expected a non-empty array of [[scenario]]")
    components = components if components is not None else load_components()
    hex_map = hex_map if hex_map is not None else load_map()
    check_nationalities(components, hex_map)
    reader = _reader(file)
    scenarios: list[Scenario] = []
    for i, raw in enumerate(rows):
        key = f"scenario[{i}]"
        if not isinstance(raw, dict):
            raise ComponentError(file, key, "expected a table")
        header_raw = {k: v for k, v in raw.items() if k not in _LISTS}
        header = reader.record(_Header, header_raw, key)
        lists: dict[str, tuple[object, ...]] = {}
        for name, kind in _LISTS.items():
            items = raw.get(name, [])
            if not isinstance(items, list):
                raise ComponentError(file, f"{key}.{name}", "expected an array of tables")
            lists[name] = tuple(
                reader.record(kind, item, f"{key}.{name}[{j}]") for j, item in enumerate(items)
            )
        if header.same_as:
            base = next((s for s in scenarios if s.number == header.same_as), None)
            if base is None:
                raise ComponentError(
                    file, f"{key}.same_as", f"no earlier scenario {header.same_as}"
                )
            if any(lists.values()):
                raise ComponentError(file, key, "a 'same_as' scenario lists no data of its own")
            lists = {name: getattr(base, name) for name in _LISTS}
        scenario = Scenario(
            number=header.number,
            name=header.name,
            first_turn=header.first_turn,
            last_turn=header.last_turn,
            first_player=header.first_player,
            sets_up_first=header.sets_up_first,
            source=header.source,
            sources=header.sources,
            **lists,  # type: ignore[arg-type]
        )
        _validate(scenario, key, file, components, hex_map)
        scenarios.append(scenario)
    numbers = [s.number for s in scenarios]
    for i, number in enumerate(numbers):
        if number in numbers[:i]:
            raise ComponentError(file, f"scenario[{i}].number", f"scenario {number} twice")
    return tuple(scenarios)


def _check(condition: bool, file: str, key: str, reason: str) -> None:
    if not condition:
        raise ComponentError(file, key, reason)


#: The identity of Guard counters and Leaders, which have no Region (2.4, 12.0).
GUARD = "guard"


def check_nationalities(components: Components, hex_map: HexMap) -> None:
    """Counters and map agree (2.4, 11.6, 11.11): raise :class:`ComponentError` if not.

    Every Region's counters carry its lower-cased name as nationality, which must exist
    (and be flagged peripheral exactly when the Region has a Peripheral Area, 2.13);
    every nationality but the Guard is a Region; a Region with a Levy holds at least
    that many levyable counters in the mix, or it could never levy.
    """
    file = "counters.toml"
    nationalities = {n.id: n for n in components.nationalities}
    peripheral = {area.region for area in hex_map.peripheral_areas}
    levyable = {t.kind for t in components.unit_types if t.levy}
    for region in hex_map.regions:
        nationality = nationalities.get(region.nationality)
        if nationality is None:
            raise ComponentError(
                file, "nationalities", f"no nationality {region.nationality!r} for {region.name}"
            )
        _check(
            nationality.peripheral == (region.name in peripheral),
            file,
            f"nationalities.{nationality.id}.peripheral",
            f"should be {region.name in peripheral}: Peripheral Areas are {sorted(peripheral)}",
        )
        mix = components.counters(region.nationality)
        have = sum(count for kind, count in mix.items() if kind in levyable)
        _check(
            have >= region.levy,
            file,
            "counter_mix",
            f"{region.nationality}: {have} levyable counters for a Levy of {region.levy} (11.6)",
        )
    regions = {region.nationality for region in hex_map.regions}
    for i, nationality in enumerate(components.nationalities):
        _check(
            nationality.id == GUARD or nationality.id in regions,
            file,
            f"nationalities[{i}].id",
            f"{nationality.id!r} is neither the Guard nor a map region",
        )


def _validate(s: Scenario, key: str, file: str, c: Components, m: HexMap) -> None:
    _check(s.number > 0, file, f"{key}.number", "scenario numbers start at 1")
    _check(s.first_turn >= 1, file, f"{key}.first_turn", "game turns start at 1")
    _check(
        s.last_turn >= s.first_turn,
        file,
        f"{key}.last_turn",
        f"last turn {s.last_turn} is before first turn {s.first_turn}",
    )
    codes = {r.code: r.name for r in m.regions}
    seen: Counter[str] = Counter()
    for j, rc in enumerate(s.control):
        label = f"{key}.control[{j}].region"
        _check(rc.region in codes, file, label, f"unknown region code {rc.region!r}")
        _check(rc.region not in seen, file, label, f"region {rc.region!r} listed twice")
        seen[rc.region] += 1
    missing = sorted(set(codes) - set(seen))
    _check(not missing, file, f"{key}.control", f"no start status for region(s) {missing}")

    sides = [t.side for t in s.treasuries]
    _check(
        sorted(x.value for x in sides) == sorted(x.value for x in Side),
        file,
        f"{key}.treasuries",
        "needs exactly one treasury per side",
    )
    limit = c.constant("stratagem-hand-limit")
    for j, t in enumerate(s.treasuries):
        label = f"{key}.treasuries[{j}]"
        _check(t.solidus >= 0, file, f"{label}.solidus", "negative Solidus Points")
        _check(
            0 <= t.stratagems <= limit,
            file,
            f"{label}.stratagems",
            f"{t.stratagems} is outside 0-{limit} (8.3)",
        )

    nationalities = {n.id for n in c.nationalities}
    leaders = {leader.id: leader for leader in c.leaders}
    start = {rc.region: rc.control for rc in s.control}
    region_nationality = {r.code: r.nationality for r in m.regions}
    peripheral = {p.region for p in m.peripheral_areas}
    cities = {city.name for city in m.cities}
    used: Counter[tuple[str, UnitKind]] = Counter()
    placed_leaders: set[str] = set()
    for j, p in enumerate(s.placements):
        label = f"{key}.placements[{j}]"
        _check(p.region in codes, file, f"{label}.region", f"unknown region code {p.region!r}")
        _check(p.count > 0, file, f"{label}.count", "a placement needs counters")
        _check(
            p.group.value == start[p.region].value,
            file,
            f"{label}.group",
            f"{p.group.value} units set up in {codes[p.region]}, which starts "
            f"{start[p.region].value} (4.1, 34.0)",
        )
        if p.peripheral:
            _check(
                codes[p.region] in peripheral,
                file,
                f"{label}.peripheral",
                f"region {codes[p.region]} has no Peripheral Area",
            )
        if p.not_near_city:
            _check(
                p.not_near_city in cities,
                file,
                f"{label}.not_near_city",
                f"unknown city {p.not_near_city!r}",
            )
        if p.kind is UnitKind.LEADER:
            _check(p.leader in leaders, file, f"{label}.leader", f"unknown leader {p.leader!r}")
            _check(p.count == 1, file, f"{label}.count", "a named Leader is one counter")
            _check(
                p.leader not in placed_leaders,
                file,
                f"{label}.leader",
                f"leader {p.leader!r} is placed twice",
            )
            placed_leaders.add(p.leader)
            _placed_at_home(
                leaders[p.leader].nationality, p, region_nationality, start, file=file, label=label
            )
            continue
        _check(not p.leader, file, f"{label}.leader", "only a Leader placement names a leader")
        _check(
            p.nationality in nationalities,
            file,
            f"{label}.nationality",
            f"unknown nationality {p.nationality!r}",
        )
        _check(
            (p.kind is UnitKind.GUARD) == (p.nationality == GUARD),
            file,
            f"{label}.kind",
            "Guard counters, and only they, have the Guard identity (12.0)",
        )
        _placed_at_home(p.nationality, p, region_nationality, start, file=file, label=label)
        used[(p.nationality, p.kind)] += p.count
        have = c.counters(p.nationality).get(p.kind, 0)
        _check(
            used[(p.nationality, p.kind)] <= have,
            file,
            f"{label}.count",
            f"{used[(p.nationality, p.kind)]} {p.nationality} {p.kind.value} placed, "
            f"the counter mix has {have} (11.6)",
        )

    seen_vp: set[str] = set()
    for j, rv in enumerate(s.region_victory):
        label = f"{key}.region_victory[{j}].region"
        _check(rv.region in codes, file, label, f"unknown region code {rv.region!r}")
        _check(rv.region not in seen_vp, file, label, f"region {rv.region!r} listed twice")
        _check(rv.points >= 0, file, label, "negative Victory Points")
        seen_vp.add(rv.region)
    missing = sorted(set(codes) - seen_vp)
    _check(not missing, file, f"{key}.region_victory", f"no Victory Points for {missing}")
    for j, cv in enumerate(s.city_victory):
        label = f"{key}.city_victory[{j}].city"
        _check(cv.city in cities, file, label, f"unknown city {cv.city!r}")
        _check(cv.points >= 0, file, label, "negative Victory Points")
    _unique_ids([r.id for r in s.special_rules], file, f"{key}.special_rules")


def _placed_at_home(
    nationality: str,
    p: Placement,
    region_nationality: dict[str, str],
    start: dict[str, Control],
    *,
    file: str,
    label: str,
) -> None:
    """A counter starts in the Region of its name (34.0); Guards in an Empire one (4.12)."""
    if nationality == GUARD:
        _check(
            start[p.region] is Control.EMPIRE,
            file,
            f"{label}.region",
            f"Guard counters start only in Empire regions, not {p.region!r} (4.12, 11.7)",
        )
        return
    _check(
        nationality == region_nationality[p.region],
        file,
        f"{label}.region",
        f"{nationality} counters start in their own region, not {p.region!r} (34.0)",
    )


def _unique_ids(ids: list[str], file: str, key: str) -> None:
    for i, item in enumerate(ids):
        _check(item not in ids[:i], file, f"{key}[{i}]", f"{item!r} is listed twice")
