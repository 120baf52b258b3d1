"""Belisarius's counters and tables as typed records, loaded from TOML with provenance.

The data lives in ``data/counters.toml`` (unit types, named Leaders, nationalities and
the counter mix) and ``data/tables.toml`` (the two Combat Results Tables, Diplomacy,
Revolt, Pillage, Colonization, Raising Taxes and Disbanding tables, the Terrain
Effects Chart, the Operations Points and Solidus Points charts, the Random Events
table, the Stratagem chart, victory levels and a few printed limits). Each datum says
where it comes from:

* a rule id of the rule index (``"14.21"``, ``"12.3#2"``): the rulebook states it,
  possibly only in an example or in the Designer Q&A (``"35.0"``). The rulebook also
  prints text without a number of its own; such a datum cites the numbered rule whose
  text it follows in the index's line order (see :data:`UNNUMBERED_TEXT`): the
  counter errata of section 2 cite ``"2.6"``; the Events Chart, the Stratagem Markers
  Chart and the closing errata cite ``"34.3"``;
* ``"provisional: <why>"``: our copy of the rulebook does not print it (most of the
  game's tables are printed on the map and charts, not in the rules); a plausible
  value for this game system, with its rationale.

A record carries a default ``source`` and, in ``sources``, the fields whose source
differs. :func:`load_components` validates everything and raises
:class:`ComponentError` naming the file, the key and the reason of the first problem;
users may load their own complete pair of files.
"""

from __future__ import annotations

import enum
import hashlib
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.bounds import check_numbers
from byzantium.core.provenance import (
    ComponentError,
    Provenance,
    RecordReader,
    Source,
    field_sources,
    load_toml,
    read_component_file,
)

__all__ = [
    "DATA_FILES",
    "UNNUMBERED_TEXT",
    "ColonizationRow",
    "CombatResult",
    "CombatTable",
    "ComponentError",
    "Components",
    "Constant",
    "CrtRow",
    "DiplomacyOutcome",
    "DiplomacyRow",
    "DisbandingOutcome",
    "DisbandingRow",
    "EventRow",
    "HexsideFeature",
    "Leader",
    "Modifier",
    "Nationality",
    "OddsColumn",
    "OddsColumnRecord",
    "Operation",
    "OperationCost",
    "Phase",
    "PillageRow",
    "Provenance",
    "RevoltOutcome",
    "RevoltRow",
    "Side",
    "SolidusItem",
    "SolidusValue",
    "Source",
    "Stratagem",
    "TaxRow",
    "Terrain",
    "UnitCount",
    "UnitKind",
    "UnitType",
    "VictoryLevel",
    "crt_cost",
    "crt_result",
    "force_operations_points",
    "load_components",
    "odds_column",
    "units_lost",
]

#: The component files, in load order.
DATA_FILES = ("counters.toml", "tables.toml")

#: Rulebook text printed without a number, and the numbered rule it follows (the
#: rule a datum printed there cites as its source).
UNNUMBERED_TEXT: dict[str, str] = {
    "counter and map errata of section 2": "2.6",
    "Events Chart": "34.3",
    "Stratagem Markers Chart": "34.3",
    "errata and clarifications at the end of the rules": "34.3",
}

#: Open ends of tables read with a modified roll or a differential.
OPEN_LOW, OPEN_HIGH = -99, 99
#: The 36 results of two dice read as tens and ones (6.1).
D66 = tuple(10 * tens + ones for tens in range(1, 7) for ones in range(1, 7))


_UNSET = Source(Provenance.PROVISIONAL, "unset")


# -- enums --------------------------------------------------------------------------


class Side(enum.Enum):
    """The two players (2.31: Empire on the front of a counter, Barbarian on its back)."""

    EMPIRE = "empire"
    BARBARIAN = "barbarian"


class UnitKind(enum.Enum):
    """Combat unit types (2.31) plus the Guard's two faces (12.0, 12.2)."""

    LEADER = "leader"
    FIELD_ARMY = "field-army"
    WARBAND = "warband"
    GARRISON = "garrison"
    NOMAD_HORDE = "nomad-horde"
    FLEET = "fleet"
    GUARD = "guard"
    MUTINYING_GUARD = "mutinying-guard"


class OddsColumn(enum.Enum):
    """The odds columns of both CRTs, weakest first (17.71-17.73)."""

    ONE_THREE = "1/3"
    ONE_TWO = "1/2"
    ONE_ONE = "1/1"
    THREE_TWO = "1.5/1"
    TWO_ONE = "2/1"
    THREE_ONE = "3/1"
    FOUR_ONE = "4/1"

    @property
    def ratio(self) -> Fraction:
        """Attacker strength over defender strength at the column's lower edge."""
        attacker, defender = self.value.split("/")
        return Fraction(attacker) / Fraction(defender)


class CombatTable(enum.Enum):
    """The two Combat Results Tables (17.6)."""

    ASSAULT = "assault"
    MANEUVER = "maneuver"


class Operation(enum.Enum):
    """Lines of the Operations Points chart (14.3)."""

    ASSAULT = "assault"
    MANEUVER = "maneuver"
    ENTER_PERIPHERAL_AREA = "enter-peripheral-area"
    SEA_HEX_FROM_PORT = "sea-hex-from-port"
    SEA_HEX_FROM_COAST = "sea-hex-from-coast"
    RIVER_MOVEMENT_HEX = "river-movement-hex"
    EMBARK_OR_DEBARK = "embark-or-debark"
    WITHDRAWAL = "withdrawal"
    RETREAT = "retreat"
    PLAY_STRATAGEM = "play-stratagem"
    DIPLOMACY = "diplomacy"
    PILLAGE = "pillage"
    COLONIZATION = "colonization"


class SolidusItem(enum.Enum):
    """Lines of the Solidus Points chart: income (10.11) and expenditures (10.3)."""

    CONSTANTINOPOLIS = "constantinopolis"
    TREASURY_CITY = "treasury-city"
    OTHER_CITY = "other-city"
    COLONY = "colony"
    PUBLIC_WORKS_BONUS = "public-works-bonus"
    PERSIAN_PERIPHERAL_AREA = "persian-peripheral-area"
    FRANK_PERIPHERAL_AREA = "frank-peripheral-area"
    BUY_STRATAGEM = "buy-stratagem"
    PUBLIC_WORKS = "public-works"
    REMOVE_PILLAGE = "remove-pillage"
    COLONIZATION = "colonization"

    @property
    def income(self) -> bool:
        """Whether the line is taxation income (else it is a cost)."""
        return self not in _COSTS


_COSTS = frozenset(
    {
        SolidusItem.BUY_STRATAGEM,
        SolidusItem.PUBLIC_WORKS,
        SolidusItem.REMOVE_PILLAGE,
        SolidusItem.COLONIZATION,
    }
)


class DiplomacyOutcome(enum.Enum):
    """Results of the Diplomacy Table (9.0, 4.6, 9.5, 12.22, 12.32, 22.1).

    ``control``: the phasing player gains the target (a Neutral or enemy Region
    defects; a loyal Guard stack mutinies, a Mutinying one is restored). ``neutral``:
    an enemy Region reverts to Neutral (no effect on a Neutral). ``intelligence``: the
    phasing player sees the enemy's Stratagems and Solidus Points. ``reaction``: the
    attempt backfires and the other player gains a Neutral target (Orthodoxy doubles
    it, Tolerance negates it, 9.5).
    """

    NO_EFFECT = "no-effect"
    INTELLIGENCE = "intelligence"
    NEUTRAL = "neutral"
    CONTROL = "control"
    REACTION = "reaction"


class RevoltOutcome(enum.Enum):
    """Results of the Revolt Table (4.72)."""

    NO_EFFECT = "no-effect"
    NEUTRAL = "neutral"
    BARBARIAN = "barbarian"


class DisbandingOutcome(enum.Enum):
    """Results of the Disbanding Table (30.0, 30.4): quiet, amok, or mutiny."""

    DISBAND = "disband"
    AMOK = "amok"
    MUTINY = "mutiny"


class Phase(enum.Enum):
    """When a Stratagem is played (3.1; the errata: there is no Stratagem phase)."""

    RANDOM_EVENTS = "random-events"
    DIPLOMACY = "diplomacy"
    TAXATION = "taxation"
    RECRUITING = "recruiting"
    LEVY = "levy"
    OPERATIONS = "operations"
    COMBAT = "combat"


# -- records ------------------------------------------------------------------------


@attrs.frozen
class UnitType:
    """A combat unit type: its printed factors and its chart costs."""

    kind: UnitKind
    name: str
    #: Sides that may field the type (regional counters are printed on both faces).
    sides: frozenset[Side]
    combat: int
    operations: int
    #: Solidus Points per Provisioning phase when it cannot forage (20.2).
    provisioning: int
    #: Solidus Points to recruit one as a Mercenary (10.31); None: never recruited.
    recruit: int | None = None
    #: Whether it may be raised by Levy (11.131, 11.7).
    levy: bool = True
    naval: bool = False
    #: Colonization Points it adds to a colonizing force (27.1).
    colonization: int = 0
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Nationality:
    """An identity printed on counters: a Region of origin or the Guard (2.4)."""

    id: str
    name: str
    #: Whether the nationality has a Peripheral Area box (2.13, 18.0).
    peripheral: bool = False
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Leader:
    """A named Leader counter (21.0)."""

    id: str
    name: str
    stars: int
    nationality: str
    #: Whether an eliminated Leader may come back (21.3; not Justinian, 21.4).
    replaceable: bool = True
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class UnitCount:
    """Counters of one type and nationality in the mix (11.6: the mix is a limit).

    ``combat`` and ``operations`` override the type's factors for this nationality
    (0: use the type's).
    """

    nationality: str
    kind: UnitKind
    count: int
    combat: int = 0
    operations: int = 0
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class CombatResult:
    """One result code of the CRTs, as typed effects (17.8, 17.9, 8.2, 8.5).

    Losses are fractions of the force's units, rounded up (35.0); retreats are hexes;
    stratagem changes are markers drawn (positive) or returned (negative).
    """

    code: str
    attacker_loss: Fraction = Fraction(0)
    defender_loss: Fraction = Fraction(0)
    attacker_retreat: int = 0
    defender_retreat: int = 0
    attacker_stratagems: int = 0
    defender_stratagems: int = 0
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()

    def attacker_units_lost(self, units: int) -> int:
        """Attacking units eliminated from a force of ``units`` (fractions round up)."""
        return units_lost(self.attacker_loss, units)

    def defender_units_lost(self, units: int) -> int:
        """Defending units eliminated from a force of ``units`` (fractions round up)."""
        return units_lost(self.defender_loss, units)


@attrs.frozen
class CrtRow:
    """One die roll of a CRT: a result code per odds column, weakest first."""

    table: CombatTable
    roll: int
    results: tuple[str, ...]
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class OddsColumnRecord:
    """An odds column as the rules define it (for provenance)."""

    column: OddsColumn
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class DiplomacyRow:
    """A Diplomacy Table column: a band of the modified differential, results by die."""

    low: int
    high: int
    results: tuple[DiplomacyOutcome, ...]
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Modifier:
    """A modifier of a table: to the die roll, or to the Diplomacy differential (9.1)."""

    table: str
    name: str
    value: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class RevoltRow:
    """Revolt Table: a band of the modified roll (4.71, 4.72)."""

    low: int
    high: int
    outcome: RevoltOutcome
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class PillageRow:
    """Pillage Table column: a band of units in the force (26.1), Solidus per die roll.

    A result of ``-1`` is a failed Pillage; ``n >= 0`` places the Pillaged marker and
    loots ``n`` Solidus Points.
    """

    low: int
    high: int
    results: tuple[int, ...]
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class ColonizationRow:
    """Colonization Table column: a band of Colonization Points (27.1), success by die."""

    low: int
    high: int
    results: tuple[bool, ...]
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class TaxRow:
    """Raising Taxes Table (10.2): a die band, the change per occupied city or colony."""

    low: int
    high: int
    per_city: int
    #: Whether the Region must then make a Revolt check (4.71).
    revolt_check: bool = False
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class DisbandingRow:
    """Disbanding Table (30.1): a band of the modified roll."""

    low: int
    high: int
    outcome: DisbandingOutcome
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Terrain:
    """A line of the Terrain Effects Chart for a hex.

    ``movement`` is None where land units may not enter (16.32); ``defense`` is the
    defender's multiplier (17.74).
    """

    id: str
    name: str
    forage: int
    movement: Fraction | None = None
    defense: int = 1
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class HexsideFeature:
    """A line of the Terrain Effects Chart for a route or hexside (16.2).

    ``movement`` replaces the hex's cost when moving along it (roads, passes);
    ``extra`` is added when crossing it (rivers, straits).
    """

    id: str
    name: str
    movement: Fraction | None = None
    extra: Fraction = Fraction(0)
    defense: int = 1
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class OperationCost:
    """A line of the Operations Points chart (14.3)."""

    operation: Operation
    cost: Fraction
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class SolidusValue:
    """A line of the Solidus Points chart: income per hex or area, or a cost."""

    item: SolidusItem
    points: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class EventRow:
    """A Random Events Table entry over a range of the two-dice roll (6.1)."""

    low: int
    high: int
    id: str
    name: str
    summary: str = ""
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Stratagem:
    """A Stratagem marker type and how many the pool holds (8.0, 8.1)."""

    id: str
    name: str
    count: int
    phase: Phase
    #: Diplomacy Value (9.0); 0 for markers that are not used in Diplomacy.
    diplomacy: int = 0
    #: Whether it may be played in the enemy's player turn (8.41).
    enemy_turn: bool = False
    summary: str = ""
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class VictoryLevel:
    """A level of victory by Victory Points (23.2)."""

    low: int
    high: int
    name: str
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


@attrs.frozen
class Constant:
    """A printed limit or count (stacking, hand size...)."""

    id: str
    value: int
    source: Source = _UNSET
    sources: tuple[tuple[str, Source], ...] = ()


#: Constants the tables file must define.
CONSTANTS = frozenset(
    {
        "stacking-limit",
        "stratagem-hand-limit",
        "peripheral-reinforcements",
        "fleet-capacity",
        "justinian-stratagems",
        "max-multiplier",
        "max-stars",
    }
)


@attrs.frozen
class Components:
    """Every counter and table of the game, as loaded and validated."""

    unit_types: tuple[UnitType, ...]
    nationalities: tuple[Nationality, ...]
    leaders: tuple[Leader, ...]
    counter_mix: tuple[UnitCount, ...]
    odds_columns: tuple[OddsColumnRecord, ...]
    combat_results: tuple[CombatResult, ...]
    crt: tuple[CrtRow, ...]
    diplomacy: tuple[DiplomacyRow, ...]
    modifiers: tuple[Modifier, ...]
    revolt: tuple[RevoltRow, ...]
    pillage: tuple[PillageRow, ...]
    colonization: tuple[ColonizationRow, ...]
    raising_taxes: tuple[TaxRow, ...]
    disbanding: tuple[DisbandingRow, ...]
    terrain: tuple[Terrain, ...]
    hexsides: tuple[HexsideFeature, ...]
    operations: tuple[OperationCost, ...]
    solidus: tuple[SolidusValue, ...]
    events: tuple[EventRow, ...]
    stratagems: tuple[Stratagem, ...]
    victory_levels: tuple[VictoryLevel, ...]
    constants: tuple[Constant, ...]
    #: Digest of the files' bytes (for game records).
    digest: str = ""

    # -- look-ups ---------------------------------------------------------------

    def unit_type(self, kind: UnitKind) -> UnitType:
        """The type record of ``kind``."""
        return next(t for t in self.unit_types if t.kind is kind)

    def leader(self, leader_id: str) -> Leader:
        """A named Leader by id."""
        for leader in self.leaders:
            if leader.id == leader_id:
                return leader
        raise KeyError(leader_id)

    def counters(self, nationality: str) -> dict[UnitKind, int]:
        """The counter mix of a nationality, by unit type."""
        return {c.kind: c.count for c in self.counter_mix if c.nationality == nationality}

    def combat_result(self, code: str) -> CombatResult:
        """A CRT result code's effects."""
        for result in self.combat_results:
            if result.code == code:
                return result
        raise KeyError(code)

    def operation_cost(self, operation: Operation) -> Fraction:
        """Operations Points an operation costs."""
        return next(o.cost for o in self.operations if o.operation is operation)

    def solidus_points(self, item: SolidusItem) -> int:
        """A Solidus Points chart line."""
        return next(s.points for s in self.solidus if s.item is item)

    def terrain_type(self, terrain_id: str) -> Terrain:
        """A Terrain Effects Chart line by id."""
        for terrain in self.terrain:
            if terrain.id == terrain_id:
                return terrain
        raise KeyError(terrain_id)

    def hexside(self, feature_id: str) -> HexsideFeature:
        """A route or hexside line of the Terrain Effects Chart by id."""
        for feature in self.hexsides:
            if feature.id == feature_id:
                return feature
        raise KeyError(feature_id)

    def event(self, roll: int) -> EventRow:
        """The Random Event of a two-dice roll read as tens and ones (6.1)."""
        if roll not in D66:
            raise ValueError(f"{roll} is not a roll of 11-66 with digits 1-6")
        return next(e for e in self.events if e.low <= roll <= e.high)

    def stratagem(self, stratagem_id: str) -> Stratagem:
        """A Stratagem marker type by id."""
        for stratagem in self.stratagems:
            if stratagem.id == stratagem_id:
                return stratagem
        raise KeyError(stratagem_id)

    def constant(self, constant_id: str) -> int:
        """A printed limit by id."""
        return next(c.value for c in self.constants if c.id == constant_id)

    def modifiers_of(self, table: str) -> tuple[Modifier, ...]:
        """The modifiers of one table."""
        return tuple(m for m in self.modifiers if m.table == table)

    def records(self) -> Iterator[tuple[str, attrs.AttrsInstance]]:
        """Every record with a label."""
        for field in attrs.fields(Components):
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                for i, record in enumerate(value):
                    yield f"{field.name}[{i}]", record

    def provenance(self) -> Iterator[tuple[str, str, Source]]:
        """Every datum as (record, field, source), for listing by provenance."""
        for label, record in self.records():
            yield from field_sources(label, record)


# -- mechanics built on the tables ----------------------------------------------------


@RULES.implements("35.0")
def units_lost(fraction: Fraction, units: int) -> int:
    """Units a loss of ``fraction`` of a force costs: fractions round up (35.0).

    >>> units_lost(Fraction(1, 2), 3)
    2
    """
    if units < 0 or not 0 <= fraction <= 1:
        raise ValueError(f"bad loss {fraction} of {units} units")
    return math.ceil(fraction * units)


@RULES.implements("17.71", "17.72", "17.73")
def odds_column(attacker: int, defender: int) -> OddsColumn:
    """The CRT column of final (already multiplied, 17.74) strengths.

    A stronger attacker drops fractions (17.71a), a stronger defender rounds them up
    (17.71b); 1.5/1 is for at least half as much again but under double (17.73); odds
    beyond the table use its end columns (17.72).

    >>> odds_column(14, 5).value, odds_column(6, 10).value, odds_column(7, 4).value
    ('2/1', '1/2', '1.5/1')
    """
    if attacker < 0 or defender <= 0:
        raise ValueError(f"strengths must be positive: {attacker} against {defender}")
    if attacker == 0:
        return OddsColumn.ONE_THREE
    if attacker >= defender:
        ratio = Fraction(attacker, defender)
        if ratio < 2:
            return OddsColumn.THREE_TWO if ratio >= Fraction(3, 2) else OddsColumn.ONE_ONE
        return {2: OddsColumn.TWO_ONE, 3: OddsColumn.THREE_ONE}.get(
            math.floor(ratio), OddsColumn.FOUR_ONE
        )
    against = math.ceil(Fraction(defender, attacker))
    return OddsColumn.ONE_TWO if against == 2 else OddsColumn.ONE_THREE


@RULES.implements("17.6")
def crt_result(
    components: Components, table: CombatTable, column: OddsColumn, roll: int
) -> CombatResult:
    """Cross-index a die roll with an odds column on the attacker's chosen CRT (17.6)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a die roll is 1-6, not {roll}")
    row = next(r for r in components.crt if r.table is table and r.roll == roll)
    return components.combat_result(row.results[list(OddsColumn).index(column)])


@RULES.implements("17.61")
def crt_cost(components: Components, table: CombatTable) -> Fraction:
    """Operations Points the chosen CRT costs: Assault 4, Maneuver 8 (17.61)."""
    operation = Operation.ASSAULT if table is CombatTable.ASSAULT else Operation.MANEUVER
    return components.operation_cost(operation)


@RULES.implements("14.21", "21.21#2")
def force_operations_points(operations: Sequence[int], roll: int, stars: int = 0) -> int:
    """A force's Operations Points: its lowest unit value plus the die roll (14.21),
    doubled with a one-star Leader and tripled with a two-star one (21.21#2).

    ``stars`` is that of the force's best Leader (0: no Leader).

    >>> force_operations_points([24, 8, 20], roll=3, stars=1)
    14
    """
    if not operations:
        raise ValueError("a force needs at least one unit")
    if not 1 <= roll <= 6 or not 0 <= stars <= 2:
        raise ValueError(f"bad roll {roll} or stars {stars}")
    return min(operations) + roll * (1 + stars)


# -- loading ------------------------------------------------------------------------


def _reader(file: str) -> RecordReader:
    """The TOML reader of these files: rule ids or provisional values, ``source`` required."""
    return RecordReader(RULES, file, allow_peer=False, require_source=True)


_LAYOUT: dict[str, dict[str, type]] = {
    "counters.toml": {
        "unit_types": UnitType,
        "nationalities": Nationality,
        "leaders": Leader,
        "counter_mix": UnitCount,
    },
    "tables.toml": {
        "odds_columns": OddsColumnRecord,
        "combat_results": CombatResult,
        "crt": CrtRow,
        "diplomacy": DiplomacyRow,
        "modifiers": Modifier,
        "revolt": RevoltRow,
        "pillage": PillageRow,
        "colonization": ColonizationRow,
        "raising_taxes": TaxRow,
        "disbanding": DisbandingRow,
        "terrain": Terrain,
        "hexsides": HexsideFeature,
        "operations": OperationCost,
        "solidus": SolidusValue,
        "events": EventRow,
        "stratagems": Stratagem,
        "victory_levels": VictoryLevel,
        "constants": Constant,
    },
}


def _read_files(directory: str | Path | None) -> dict[str, bytes]:
    blobs = {}
    for name in DATA_FILES:
        if directory is None:
            blobs[name] = resources.files(__package__).joinpath("data", name).read_bytes()
        else:
            path = Path(directory) / name
            if not path.exists():
                raise ComponentError(str(path), "-", "component file is missing")
            blobs[name] = read_component_file(path)
    return blobs


def load_components(directory: str | Path | None = None) -> Components:
    """Load and validate the component files (the shipped ones, or a user's directory).

    A user's directory must hold both :data:`DATA_FILES`; the first problem found is
    raised as a :class:`ComponentError` naming the file, the key and the reason.
    """
    blobs = _read_files(directory)
    names = {name: name if directory is None else str(Path(directory) / name) for name in blobs}
    loaded: dict[str, tuple[object, ...]] = {}
    tables: dict[str, dict[str, object]] = {}
    for name, layout in _LAYOUT.items():
        data = load_toml(blobs[name], names[name])
        tables[name] = data
        unknown = sorted(set(data) - set(layout))
        if unknown:
            raise ComponentError(names[name], unknown[0], "unknown table")
        reader = _reader(names[name])
        for table, kind in layout.items():
            loaded[table] = reader.records(data, table, kind, required=True)
    digest = hashlib.sha256(b"".join(blobs[name] for name in DATA_FILES)).hexdigest()[:16]
    components = Components(**loaded, digest=digest)  # type: ignore[arg-type]
    _validate_counters(components, names["counters.toml"])
    _validate_tables(components, names["tables.toml"])
    # Last, so that the checks of what a number means speak first (a mix over its limit).
    for name, data in tables.items():
        check_numbers(data, names[name])
    return components


# -- validation ---------------------------------------------------------------------


def _check(condition: bool, file: str, key: str, reason: str) -> None:
    if not condition:
        raise ComponentError(file, key, reason)


def _unique(ids: Sequence[object], file: str, table: str) -> None:
    seen: set[object] = set()
    for i, item in enumerate(ids):
        _check(item not in seen, file, f"{table}[{i}]", f"{item!r} is listed twice")
        seen.add(item)


def _covers(rows: Sequence[tuple[int, int]], low: int, high: int, file: str, table: str) -> None:
    """Rows (low, high) must tile [low, high] in order, without gaps or overlaps."""
    expected = low
    for i, (a, b) in enumerate(rows):
        _check(a == expected, file, f"{table}[{i}]", f"row {a}-{b} should start at {expected}")
        _check(b >= a, file, f"{table}[{i}]", f"row {a}-{b} ends before it starts")
        expected = b + 1
    _check(expected == high + 1, file, table, f"rows stop at {expected - 1}, not {high}")


def _die_results(rows: Sequence[tuple[object, ...]], file: str, table: str) -> None:
    for i, results in enumerate(rows):
        _check(
            len(results) == 6,
            file,
            f"{table}[{i}].results",
            f"{len(results)} results, one per die roll 1-6 is 6",
        )


def _validate_counters(c: Components, file: str) -> None:
    _unique([t.kind for t in c.unit_types], file, "unit_types")
    missing = set(UnitKind) - {t.kind for t in c.unit_types}
    _check(not missing, file, "unit_types", f"no record for {sorted(k.value for k in missing)}")
    for i, unit in enumerate(c.unit_types):
        key = f"unit_types[{i}]"
        for name in ("combat", "operations", "provisioning", "colonization"):
            value = getattr(unit, name)
            _check(value >= 0, file, f"{key}.{name}", f"{value} is negative")
        _check(unit.operations > 0, file, f"{key}.operations", "a unit needs Operations Points")
        _check(unit.recruit is None or unit.recruit > 0, file, f"{key}.recruit", "not positive")
        _check(bool(unit.sides), file, f"{key}.sides", "a unit type needs a side")
    _unique([n.id for n in c.nationalities], file, "nationalities")
    nationalities = {n.id for n in c.nationalities}
    _unique([leader.id for leader in c.leaders], file, "leaders")
    for i, leader in enumerate(c.leaders):
        key = f"leaders[{i}]"
        _check(1 <= leader.stars <= 2, file, f"{key}.stars", "a Leader has one or two stars")
        _check(
            leader.nationality in nationalities,
            file,
            f"{key}.nationality",
            f"unknown nationality {leader.nationality!r}",
        )
    _unique([(u.nationality, u.kind) for u in c.counter_mix], file, "counter_mix")
    for i, units in enumerate(c.counter_mix):
        key = f"counter_mix[{i}]"
        _check(
            units.nationality in nationalities,
            file,
            f"{key}.nationality",
            f"unknown nationality {units.nationality!r}",
        )
        _check(units.kind is not UnitKind.LEADER, file, f"{key}.kind", "Leaders are named")
        for name in ("count", "combat", "operations"):
            value = getattr(units, name)
            _check(value >= 0, file, f"{key}.{name}", f"{value} is negative")
        _check(units.count > 0, file, f"{key}.count", "a counter mix line needs counters")
        _check(units.count <= MAX_COUNT, file, f"{key}.count", f"more than {MAX_COUNT}")


#: The most counters of one counter mix line, or markers of one Stratagem type, a
#: component file may ask for (the mix is a few hundred counters in all).
MAX_COUNT = 1_000


def _validate_tables(c: Components, file: str) -> None:
    columns = [record.column for record in c.odds_columns]
    _check(
        columns == list(OddsColumn),
        file,
        "odds_columns",
        f"columns must be {', '.join(col.value for col in OddsColumn)} in order",
    )
    _unique([r.code for r in c.combat_results], file, "combat_results")
    for i, result in enumerate(c.combat_results):
        key = f"combat_results[{i}]"
        for name in ("attacker_loss", "defender_loss"):
            value = getattr(result, name)
            _check(0 <= value <= 1, file, f"{key}.{name}", f"{value} is not a fraction 0-1")
        for name in ("attacker_retreat", "defender_retreat"):
            value = getattr(result, name)
            _check(0 <= value <= 6, file, f"{key}.{name}", f"{value} hexes is not 0-6")
    codes = {r.code for r in c.combat_results}
    for table in CombatTable:
        rolls = [(r.roll, r.roll) for r in c.crt if r.table is table]
        _covers(rolls, 1, 6, file, f"crt {table.value}")
    for i, row in enumerate(c.crt):
        key = f"crt[{i}].results"
        _check(
            len(row.results) == len(OddsColumn),
            file,
            key,
            f"{len(row.results)} results for {len(OddsColumn)} odds columns",
        )
        for code in row.results:
            _check(code in codes, file, key, f"unknown result code {code!r}")
    _covers([(r.low, r.high) for r in c.diplomacy], OPEN_LOW, OPEN_HIGH, file, "diplomacy")
    _die_results([r.results for r in c.diplomacy], file, "diplomacy")
    tables = {"diplomacy", "revolt", "disbanding"}
    for i, modifier in enumerate(c.modifiers):
        _check(
            modifier.table in tables,
            file,
            f"modifiers[{i}].table",
            f"{modifier.table!r} is not one of {sorted(tables)}",
        )
    _covers([(r.low, r.high) for r in c.revolt], OPEN_LOW, OPEN_HIGH, file, "revolt")
    _covers([(r.low, r.high) for r in c.disbanding], OPEN_LOW, OPEN_HIGH, file, "disbanding")
    stacking = next((k.value for k in c.constants if k.id == "stacking-limit"), 10)
    _covers([(r.low, r.high) for r in c.pillage], 1, stacking, file, "pillage")
    _die_results([r.results for r in c.pillage], file, "pillage")
    for i, pillage in enumerate(c.pillage):
        _check(min(pillage.results) >= -1, file, f"pillage[{i}].results", "below -1 (failure)")
    _covers([(r.low, r.high) for r in c.colonization], 1, OPEN_HIGH, file, "colonization")
    _die_results([r.results for r in c.colonization], file, "colonization")
    _covers([(r.low, r.high) for r in c.raising_taxes], 1, 6, file, "raising_taxes")
    _unique([t.id for t in c.terrain], file, "terrain")
    for i, terrain in enumerate(c.terrain):
        key = f"terrain[{i}]"
        _check(terrain.forage >= 0, file, f"{key}.forage", f"{terrain.forage} is negative")
        _check(terrain.movement is None or terrain.movement > 0, file, f"{key}.movement", "not > 0")
        _check(1 <= terrain.defense <= 4, file, f"{key}.defense", "a multiplier is 1-4")
    _unique([h.id for h in c.hexsides], file, "hexsides")
    for i, feature in enumerate(c.hexsides):
        _check(feature.extra >= 0, file, f"hexsides[{i}].extra", "is negative")
    _unique([o.operation for o in c.operations], file, "operations")
    missing_ops = set(Operation) - {o.operation for o in c.operations}
    _check(
        not missing_ops, file, "operations", f"no cost for {sorted(o.value for o in missing_ops)}"
    )
    for i, op in enumerate(c.operations):
        _check(op.cost >= 0, file, f"operations[{i}].cost", f"{op.cost} is negative")
    _unique([s.item for s in c.solidus], file, "solidus")
    missing_items = set(SolidusItem) - {s.item for s in c.solidus}
    _check(
        not missing_items, file, "solidus", f"no line for {sorted(s.value for s in missing_items)}"
    )
    for i, line in enumerate(c.solidus):
        _check(line.points >= 0, file, f"solidus[{i}].points", f"{line.points} is negative")
    _validate_events(c, file)
    _unique([s.id for s in c.stratagems], file, "stratagems")
    for i, stratagem in enumerate(c.stratagems):
        key = f"stratagems[{i}]"
        _check(stratagem.count > 0, file, f"{key}.count", "the pool holds at least one")
        _check(stratagem.count <= MAX_COUNT, file, f"{key}.count", f"more than {MAX_COUNT}")
        _check(0 <= stratagem.diplomacy <= 6, file, f"{key}.diplomacy", "not 0-6")
    levels = [(v.low, v.high) for v in c.victory_levels]
    _covers(levels, 0, 9999, file, "victory_levels")
    _unique([k.id for k in c.constants], file, "constants")
    missing_constants = CONSTANTS - {k.id for k in c.constants}
    _check(not missing_constants, file, "constants", f"missing {sorted(missing_constants)}")


def _validate_events(c: Components, file: str) -> None:
    """Every two-dice result 11-66 (digits 1-6) falls in exactly one event row."""
    _unique([e.id for e in c.events], file, "events")
    expected = 0
    for i, event in enumerate(c.events):
        key = f"events[{i}]"
        _check(
            event.low in D66 and event.high in D66 and event.low <= event.high,
            file,
            key,
            f"{event.low}-{event.high} is not a range of rolls 11-66 with digits 1-6",
        )
        first = D66.index(event.low)
        _check(
            first == expected,
            file,
            key,
            f"row {event.low}-{event.high} should start at {D66[expected]}",
        )
        expected = D66.index(event.high) + 1
    _check(expected == len(D66), file, "events", f"rows stop before {D66[min(expected, 35)]}")
