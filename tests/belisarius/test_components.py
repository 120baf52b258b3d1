"""Belisarius components: the shipped files load, carry provenance, bad files are refused."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius import RULES
from byzantium.belisarius.components import (
    D66,
    DATA_FILES,
    UNNUMBERED_TEXT,
    CombatTable,
    ComponentError,
    Components,
    DisbandingOutcome,
    OddsColumn,
    Operation,
    Provenance,
    RevoltOutcome,
    Side,
    SolidusItem,
    Source,
    UnitKind,
    crt_cost,
    crt_result,
    force_operations_points,
    load_components,
    odds_column,
    units_lost,
)

RULEBOOK = "belisarius"

DATA = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"
COMPONENTS = load_components()


def rule(ref: str) -> Source:
    return Source(Provenance.RULEBOOK, ref)


def source_of(record: object, field: str) -> Source:
    default: Source = getattr(record, "source")  # noqa: B009
    overrides: dict[str, Source] = dict(getattr(record, "sources"))  # noqa: B009
    return overrides.get(field, default)


def user_copy(tmp_path: Path) -> Path:
    for name in DATA_FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def edit(directory: Path, name: str, old: str, new: str) -> None:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# -- the shipped files ----------------------------------------------------------------


def test_the_shipped_files_load_and_a_user_copy_matches(tmp_path: Path) -> None:
    copy = load_components(user_copy(tmp_path))
    assert copy.unit_types == COMPONENTS.unit_types
    assert copy.crt == COMPONENTS.crt
    assert copy.digest == COMPONENTS.digest


def test_every_datum_has_a_rule_id_of_the_index_or_a_rationale() -> None:
    kinds = set()
    for label, field, source in COMPONENTS.provenance():
        kinds.add(source.kind)
        assert source.ref, (label, field)
        if source.kind is Provenance.RULEBOOK:
            assert source.ref in RULES, (label, field)
    assert kinds == {Provenance.RULEBOOK, Provenance.PROVISIONAL}
    assert set(UNNUMBERED_TEXT.values()) <= {entry.id for entry in RULES}


@pytest.mark.rule("2.31", "12.2", "4.12")
def test_every_unit_type_and_its_sides() -> None:
    assert {t.kind for t in COMPONENTS.unit_types} == set(UnitKind)
    both = frozenset(Side)
    for kind in (UnitKind.FIELD_ARMY, UnitKind.WARBAND, UnitKind.GARRISON, UnitKind.FLEET):
        assert COMPONENTS.unit_type(kind).sides == both
    assert COMPONENTS.unit_type(UnitKind.GUARD).sides == {Side.EMPIRE}
    assert COMPONENTS.unit_type(UnitKind.MUTINYING_GUARD).sides == {Side.BARBARIAN}
    assert COMPONENTS.unit_type(UnitKind.FLEET).naval


@pytest.mark.rule("14.21")
def test_operations_values_of_the_14_21_example() -> None:
    for kind, value in (
        (UnitKind.LEADER, 24),
        (UnitKind.GARRISON, 8),
        (UnitKind.FIELD_ARMY, 20),
    ):
        unit = COMPONENTS.unit_type(kind)
        assert unit.operations == value
        assert source_of(unit, "operations") == rule("14.21")
    assert force_operations_points([24, 8, 20], roll=3, stars=1) == 14


@pytest.mark.rule("21.21#2")
def test_leader_stars_multiply_the_operations_roll() -> None:
    assert force_operations_points([20], roll=2) == 22
    assert force_operations_points([20], roll=2, stars=1) == 24
    assert force_operations_points([20], roll=2, stars=2) == 26
    with pytest.raises(ValueError, match="bad roll"):
        force_operations_points([20], roll=7)


@pytest.mark.rule("11.131", "11.7")
def test_field_armies_leaders_and_guards_are_never_levied() -> None:
    for kind in (UnitKind.FIELD_ARMY, UnitKind.LEADER, UnitKind.GUARD):
        assert not COMPONENTS.unit_type(kind).levy
    assert COMPONENTS.unit_type(UnitKind.WARBAND).levy
    assert COMPONENTS.unit_type(UnitKind.LEADER).recruit is None


@pytest.mark.rule("35.0")
def test_the_persian_nomad_is_3_24_per_the_q_and_a() -> None:
    persian = next(
        c
        for c in COMPONENTS.counter_mix
        if c.nationality == "persia" and c.kind is UnitKind.NOMAD_HORDE
    )
    assert (persian.combat, persian.operations) == (3, 24)
    assert source_of(persian, "combat") == source_of(persian, "operations") == rule("35.0")


@pytest.mark.rule("21.31", "21.32", "21.4", "34.1")
def test_every_named_leader() -> None:
    leaders = {leader.id: leader for leader in COMPONENTS.leaders}
    assert set(leaders) == {
        "justinian",
        "belisarius",
        "solomon",
        "mihr-mihroe",
        "kavadh",
        "vitiges",
        "buccelin",
    }
    assert leaders["vitiges"].nationality == "ostrogoths"
    assert leaders["belisarius"].nationality == "guard"
    assert leaders["mihr-mihroe"].nationality == leaders["kavadh"].nationality == "persia"
    assert not leaders["justinian"].replaceable
    assert source_of(leaders["justinian"], "replaceable") == rule("21.4")
    assert all(leader.replaceable for lid, leader in leaders.items() if lid != "justinian")


@pytest.mark.rule("2.6")
def test_section_2_errata_solomon_and_single_star_buccelin() -> None:
    buccelin = COMPONENTS.leader("buccelin")
    assert buccelin.stars == 1
    assert buccelin.nationality == "franks"
    assert source_of(buccelin, "stars") == rule("2.6")
    solomon = COMPONENTS.leader("solomon")
    assert solomon.name == "Solomon"
    assert solomon.nationality == "guard"


PRINTED_SET_UPS = {
    ("persia", UnitKind.FIELD_ARMY): (2, "34.1"),
    ("persia", UnitKind.NOMAD_HORDE): (1, "34.1"),
    ("persia", UnitKind.GARRISON): (9, "34.1"),
    ("ostrogoths", UnitKind.WARBAND): (3, "34.1"),
    ("ostrogoths", UnitKind.FLEET): (1, "34.1"),
    ("ostrogoths", UnitKind.GARRISON): (10, "34.1"),
    ("scythia", UnitKind.NOMAD_HORDE): (3, "34.2"),
    ("franks", UnitKind.WARBAND): (3, "34.2"),
    ("franks", UnitKind.GARRISON): (2, "34.2"),
}


@pytest.mark.rule("34.1", "34.2", "11.6")
def test_the_counter_mix_holds_what_the_scenarios_place() -> None:
    for (nationality, kind), (printed, ref) in PRINTED_SET_UPS.items():
        units = next(
            u for u in COMPONENTS.counter_mix if (u.nationality, u.kind) == (nationality, kind)
        )
        assert units.count >= printed
        assert units.source == rule(ref)
        # A count above the printed set-up is our own sizing, and says so.
        expected = Provenance.RULEBOOK if units.count == printed else Provenance.PROVISIONAL
        assert source_of(units, "count").kind is expected
    assert COMPONENTS.counters("persia")[UnitKind.NOMAD_HORDE] == 1
    assert COMPONENTS.counters("franks") == {UnitKind.WARBAND: 8, UnitKind.GARRISON: 6}
    peripheral = {n.id for n in COMPONENTS.nationalities if n.peripheral}
    assert peripheral == {"franks", "lombards", "scythia", "persia"}


@pytest.mark.rule("11.6", "11.7", "12.2", "2.4")
def test_guard_and_imperial_province_counters() -> None:
    # A Mutinying Guard is a Guard counter's reverse face: no line of its own.
    assert COMPONENTS.counters("guard") == {UnitKind.GUARD: 8}
    assert all(u.kind is not UnitKind.MUTINYING_GUARD for u in COMPONENTS.counter_mix)
    ids = {n.id for n in COMPONENTS.nationalities}
    provinces = ("thracia", "lydia", "aegyptus", "illyricum", "achaea", "cappadocia", "syria")
    for nationality in provinces:
        assert nationality in ids
        mix = COMPONENTS.counters(nationality)
        assert mix.get(UnitKind.GARRISON, 0) >= 6
        assert UnitKind.FIELD_ARMY in mix
        assert UnitKind.WARBAND not in mix
    assert COMPONENTS.counters("thracia") == {
        UnitKind.FIELD_ARMY: 2,
        UnitKind.GARRISON: 8,
        UnitKind.FLEET: 2,
    }
    assert UnitKind.FLEET not in COMPONENTS.counters("cappadocia")  # no port


# -- combat -----------------------------------------------------------------------------


@pytest.mark.rule("17.71", "17.72", "17.73")
def test_odds_columns_and_the_17_71_examples() -> None:
    assert [r.column for r in COMPONENTS.odds_columns] == list(OddsColumn)
    assert [c.value for c in OddsColumn] == ["1/3", "1/2", "1/1", "1.5/1", "2/1", "3/1", "4/1"]
    assert all(r.source.kind is Provenance.RULEBOOK for r in COMPONENTS.odds_columns)
    assert odds_column(14, 5) is OddsColumn.TWO_ONE
    assert odds_column(6, 10) is OddsColumn.ONE_TWO
    assert odds_column(7, 4) is OddsColumn.THREE_TWO
    assert odds_column(1, 9) is OddsColumn.ONE_THREE
    assert odds_column(50, 3) is OddsColumn.FOUR_ONE
    assert odds_column(5, 5) is OddsColumn.ONE_ONE


@given(st.integers(1, 200), st.integers(1, 200))
def test_odds_column_is_monotonic_and_within_the_table(attacker: int, defender: int) -> None:
    column = odds_column(attacker, defender)
    order = list(OddsColumn)
    assert order.index(odds_column(attacker + 1, defender)) >= order.index(column)
    assert order.index(odds_column(attacker, defender + 1)) <= order.index(column)
    if attacker >= defender:
        assert Fraction(attacker, defender) >= column.ratio


def test_crt_rows_have_one_result_per_odds_column_for_every_roll() -> None:
    for table in CombatTable:
        rows = sorted((r for r in COMPONENTS.crt if r.table is table), key=lambda r: r.roll)
        assert [r.roll for r in rows] == [1, 2, 3, 4, 5, 6]
        for row in rows:
            assert len(row.results) == len(OddsColumn)
            for code in row.results:
                COMPONENTS.combat_result(code)


def test_no_column_guarantees_a_bloodless_victory() -> None:
    for table in CombatTable:
        for column in OddsColumn:
            results = [crt_result(COMPONENTS, table, column, roll) for roll in range(1, 7)]
            assert any(r.attacker_loss > 0 for r in results), (table, column)


@pytest.mark.rule("35.0")
def test_fractional_losses_round_up() -> None:
    dd = COMPONENTS.combat_result("DD")
    assert dd.defender_units_lost(3) == 2
    assert dd.defender_units_lost(1) == 1
    assert units_lost(Fraction(1, 3), 4) == 2
    assert units_lost(Fraction(0), 5) == 0


@pytest.mark.rule("17.61")
def test_assault_costs_4_and_maneuver_8() -> None:
    assert crt_cost(COMPONENTS, CombatTable.ASSAULT) == 4
    assert crt_cost(COMPONENTS, CombatTable.MANEUVER) == 8
    for line in COMPONENTS.operations:
        if line.operation in (Operation.ASSAULT, Operation.MANEUVER):
            assert line.source == rule("17.61")


def test_crt_lookup_reads_the_roll_row_and_the_odds_column() -> None:
    worst = crt_result(COMPONENTS, CombatTable.ASSAULT, OddsColumn.ONE_THREE, 1)
    best = crt_result(COMPONENTS, CombatTable.ASSAULT, OddsColumn.FOUR_ONE, 6)
    assert worst.attacker_loss == 1
    assert best.defender_loss == 1
    with pytest.raises(ValueError, match="1-6"):
        crt_result(COMPONENTS, CombatTable.MANEUVER, OddsColumn.ONE_ONE, 0)


# -- the other tables -------------------------------------------------------------------


def test_every_table_covers_its_range_without_gaps() -> None:
    def contiguous(rows: list[tuple[int, int]], low: int, high: int) -> bool:
        expected = low
        for a, b in rows:
            if a != expected or b < a:
                return False
            expected = b + 1
        return expected == high + 1

    assert contiguous([(r.low, r.high) for r in COMPONENTS.diplomacy], -99, 99)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.revolt], -99, 99)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.disbanding], -99, 99)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.pillage], 1, 10)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.colonization], 1, 99)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.raising_taxes], 1, 6)
    assert contiguous([(r.low, r.high) for r in COMPONENTS.victory_levels], 0, 9999)
    for rows in (COMPONENTS.diplomacy, COMPONENTS.pillage, COMPONENTS.colonization):
        assert all(len(row.results) == 6 for row in rows)
    assert [COMPONENTS.event(roll).low <= roll for roll in D66] == [True] * 36
    assert {RevoltOutcome(r.outcome) for r in COMPONENTS.revolt} == set(RevoltOutcome)
    assert {DisbandingOutcome(r.outcome) for r in COMPONENTS.disbanding} == set(DisbandingOutcome)


@pytest.mark.rule("6.1")
def test_random_events_as_printed_and_per_the_errata() -> None:
    printed = {
        11: "Forces Rally",
        12: "Forces Rally",
        13: "Constantinopolis Corn Supply",
        16: "Attrition/Bandits/Pirates",
        21: "Barbarian Migrations",
        22: "Northern War",
        23: "African War",
        24: "Eastern War",
        25: "Religious Crisis",
        26: "Prosperity",
        31: "Plague",
        32: "Plague",
        35: "Corruption",
    }
    for roll, name in printed.items():
        event = COMPONENTS.event(roll)
        assert event.name == name
        assert source_of(event, "name") == rule("34.3")
    assert COMPONENTS.event(66).source.kind is Provenance.PROVISIONAL
    with pytest.raises(ValueError, match="11-66"):
        COMPONENTS.event(17)


@pytest.mark.rule("16.21", "16.22", "17.74", "18.5", "18.21", "19.7")
def test_terrain_effects_chart_rulebook_values() -> None:
    capital = COMPONENTS.terrain_type("constantinopolis")
    assert capital.forage == 6
    assert source_of(capital, "forage") == rule("34.3")
    assert capital.defense == 3
    for terrain_id in ("city", "rough", "marsh"):
        terrain = COMPONENTS.terrain_type(terrain_id)
        assert terrain.defense == 2
        assert source_of(terrain, "defense") == rule("17.74")
    assert COMPONENTS.hexside("river").defense == 2
    assert COMPONENTS.hexside("pass").defense == 2
    assert COMPONENTS.hexside("road").movement == Fraction(1, 2)
    assert COMPONENTS.hexside("pass").movement == 1
    sea = COMPONENTS.terrain_type("sea")
    assert sea.forage == 0
    assert sea.movement is None
    periphery = COMPONENTS.terrain_type("peripheral-area")
    assert periphery.forage == 10
    assert periphery.movement == 5


@pytest.mark.rule("17.61", "18.21", "19.52", "29.1", "8.43", "17.57")
def test_operations_points_chart_rulebook_values() -> None:
    stated = {
        Operation.ASSAULT: (4, "17.61"),
        Operation.MANEUVER: (8, "17.61"),
        Operation.ENTER_PERIPHERAL_AREA: (5, "18.21"),
        Operation.SEA_HEX_FROM_PORT: (1, "19.52"),
        Operation.SEA_HEX_FROM_COAST: (2, "19.52"),
        Operation.RIVER_MOVEMENT_HEX: (1, "29.1"),
        Operation.EMBARK_OR_DEBARK: (0, "19.52"),
        Operation.PLAY_STRATAGEM: (0, "8.43"),
        Operation.WITHDRAWAL: (0, "17.57"),
    }
    for line in COMPONENTS.operations:
        if line.operation in stated:
            cost, ref = stated[line.operation]
            assert line.cost == cost
            assert line.source == rule(ref)
    assert {o.operation for o in COMPONENTS.operations} == set(Operation)


@pytest.mark.rule("10.11")
def test_solidus_income_of_10_11() -> None:
    stated = {
        SolidusItem.CONSTANTINOPOLIS: 4,
        SolidusItem.TREASURY_CITY: 2,
        SolidusItem.OTHER_CITY: 1,
        SolidusItem.COLONY: 1,
        SolidusItem.PUBLIC_WORKS_BONUS: 1,
        SolidusItem.PERSIAN_PERIPHERAL_AREA: 6,
        SolidusItem.FRANK_PERIPHERAL_AREA: 3,
    }
    for item, points in stated.items():
        assert item.income
        assert COMPONENTS.solidus_points(item) == points
    for line in COMPONENTS.solidus:
        expected = Provenance.RULEBOOK if line.item.income else Provenance.PROVISIONAL
        assert line.source.kind is expected


@pytest.mark.rule("32.1", "32.2")
def test_disbanding_modifiers_for_irregulars_abroad() -> None:
    values = {m.source.ref: m.value for m in COMPONENTS.modifiers_of("disbanding")}
    assert values["32.1"] == -2
    assert values["32.2"] == -1


@pytest.mark.rule("9.0", "9.5")
def test_stratagem_pool_and_diplomacy_values() -> None:
    diplomacy = {s.id: s.diplomacy for s in COMPONENTS.stratagems}
    assert (diplomacy["agent"], diplomacy["basileus"]) == (1, 3)
    assert diplomacy["blue-faction"] == diplomacy["green-faction"] == 2
    for marker in ("agent", "orthodoxy", "tolerance", "blue-faction", "green-faction"):
        assert diplomacy[marker] > 0
    assert diplomacy["forced-march"] == 0
    assert all(s.count > 0 for s in COMPONENTS.stratagems)
    assert {"end-of-campaign", "disease-breaks-out", "theodora-intervenes"} <= set(diplomacy)


@pytest.mark.rule("23.2")
def test_levels_of_victory() -> None:
    names = [(v.low, v.name) for v in COMPONENTS.victory_levels]
    assert names == [
        (0, "Collapse"),
        (20, "Decline"),
        (40, "Stalemate"),
        (60, "Triumphant Victory"),
        (80, "Imperial Victory"),
    ]


@pytest.mark.rule("13.1", "8.3", "11.8", "19.51", "17.74")
def test_printed_limits() -> None:
    assert COMPONENTS.constant("stacking-limit") == 10
    assert COMPONENTS.constant("stratagem-hand-limit") == 15
    assert COMPONENTS.constant("peripheral-reinforcements") == 10
    assert COMPONENTS.constant("fleet-capacity") == 3
    assert COMPONENTS.constant("max-multiplier") == 4
    assert all(c.source.kind is Provenance.RULEBOOK for c in COMPONENTS.constants)


# -- bad user files -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "old", "new", "key", "reason"),
    [
        (
            "counters.toml",
            'kind = "warband"\nname = "Warband"',
            'kind = "chariot"\nname = "Warband"',
            "unit_types[2].kind",
            "'chariot' is not one of",
        ),
        (
            "counters.toml",
            "combat = 3\noperations = 16",
            "combat = -3\noperations = 16",
            "unit_types[2].combat",
            "-3 is negative",
        ),
        (
            "counters.toml",
            "stars = 2",
            "stars = 3",
            "leaders[1].stars",
            "one or two stars",
        ),
        (
            "counters.toml",
            'nationality = "ostrogoths"\nsource',
            'nationality = "huns"\nsource',
            "leaders[5].nationality",
            "unknown nationality 'huns'",
        ),
        (
            "counters.toml",
            'id = "armenia"\nname = "Armenia"\nsource = "34.1"',
            'id = "armenia"\nname = "Armenia"\nsource = "99.9"',
            "nationalities[4].source",
            "'99.9' is not a rule id",
        ),
        (
            "counters.toml",
            'id = "guard"\nname = "Guard"\nsource = "2.4"',
            'id = "guard"\nname = "Guard"\nsource = "provisional:"',
            "nationalities[0].source",
            "needs its rationale",
        ),
        (
            "tables.toml",
            'results = ["AE", "AE", "AD", "AD", "EX", "EX", "EX"]',
            'results = ["AE", "AE", "AD", "AD", "EX", "EX"]',
            "crt[0].results",
            "6 results for 7 odds columns",
        ),
        (
            "tables.toml",
            'results = ["AE", "AE", "AD", "AD", "EX", "EX", "EX"]',
            'results = ["AE", "AE", "AD", "AD", "EX", "EX", "ZZ"]',
            "crt[0].results",
            "unknown result code 'ZZ'",
        ),
        (
            "tables.toml",
            "low = 3\nhigh = 4\nper_city = 0",
            "low = 4\nhigh = 4\nper_city = 0",
            "raising_taxes[2]",
            "should start at 3",
        ),
        (
            "tables.toml",
            'low = 2\nhigh = 3\noutcome = "neutral"',
            'low = 3\nhigh = 3\noutcome = "neutral"',
            "revolt[1]",
            "should start at 2",
        ),
        (
            "tables.toml",
            "low = 51\nhigh = 66",
            "low = 51\nhigh = 65",
            "events",
            "rows stop before 66",
        ),
        (
            "tables.toml",
            "low = 41\nhigh = 43",
            "low = 42\nhigh = 43",
            "events[14]",
            "should start at 41",
        ),
        (
            "tables.toml",
            "results = [-1, -1, -1, 0, 1, 1]",
            "results = [-1, -1, -1, 0, 1]",
            "pillage[0].results",
            "one per die roll",
        ),
        (
            "tables.toml",
            'attacker_loss = "1/2"\nsource',
            'attacker_loss = "3/2"\nsource',
            "combat_results[1].attacker_loss",
            "not a fraction 0-1",
        ),
        (
            "tables.toml",
            'movement = "1/2"',
            'movement = "half"',
            "hexsides[0].movement",
            "expected a number or a fraction",
        ),
        (
            "tables.toml",
            "forage = 6",
            "forage = -6",
            "terrain[5].forage",
            "-6 is negative",
        ),
        (
            "tables.toml",
            'column = "1.5/1"',
            'column = "2/1"',
            "odds_columns",
            "columns must be",
        ),
        (
            "tables.toml",
            "[[constants]]",
            "[[constant]]",
            "constant",
            "unknown table",
        ),
        (
            "tables.toml",
            'operation = "colonization"',
            'operation = "pillage"',
            "operations[12]",
            "listed twice",
        ),
        (
            "tables.toml",
            'name = "Prosperity"',
            'name = "Prosperity"\ncolour = "gold"',
            "events[8]",
            "unknown field(s) colour",
        ),
    ],
)
def test_bad_user_files_are_refused_naming_file_key_and_reason(
    tmp_path: Path, *, file: str, old: str, new: str, key: str, reason: str
) -> None:
    directory = user_copy(tmp_path)
    edit(directory, file, old, new)
    with pytest.raises(ComponentError) as caught:
        load_components(directory)
    error = caught.value
    assert error.file == str(directory / file)
    assert error.key.startswith(key), error
    assert reason in error.reason, error


def test_a_missing_or_broken_file_is_refused(tmp_path: Path) -> None:
    directory = user_copy(tmp_path)
    (directory / "tables.toml").unlink()
    with pytest.raises(ComponentError, match="component file is missing"):
        load_components(directory)
    user_copy(tmp_path)
    (directory / "counters.toml").write_text("[[unit_types]\n", encoding="utf-8")
    with pytest.raises(ComponentError, match="not valid TOML") as caught:
        load_components(directory)
    assert caught.value.key == "-"


def test_components_is_exported_typed() -> None:
    assert isinstance(COMPONENTS, Components)
