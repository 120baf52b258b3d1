"""Belisarius scenarios: the shipped file loads, printed facts carry their rule, bad files fail."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius import RULES
from byzantium.belisarius.components import (
    ComponentError,
    Components,
    Nationality,
    Provenance,
    Side,
    UnitKind,
    load_components,
)
from byzantium.belisarius.hexmap import HexMap, load_map
from byzantium.belisarius.scenarios import (
    GUARD,
    SCENARIO_FILE,
    Control,
    Placement,
    Scenario,
    SetupGroup,
    check_nationalities,
    load_scenarios,
    turn_of_year,
)

RULEBOOK = "belisarius"

T = TypeVar("T")

DATA = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"
SCENARIOS = {s.number: s for s in load_scenarios()}
MAP = load_map()
COMPONENTS = load_components()
CODES = {r.name: r.code for r in MAP.regions}


def units(s: Scenario, group: SetupGroup, region: str) -> dict[tuple[UnitKind, bool], int]:
    got: Counter[tuple[UnitKind, bool]] = Counter()
    for p in s.placements_in(CODES[region]):
        if p.group is group and p.kind is not UnitKind.LEADER:
            got[(p.kind, p.peripheral)] += p.count
    return dict(got)


def test_shipped_file_loads_and_user_copy_matches(tmp_path: Path) -> None:
    shutil.copy(DATA / SCENARIO_FILE, tmp_path / SCENARIO_FILE)
    copy = load_scenarios(tmp_path)
    assert [s.number for s in copy] == [1, 2, 3]
    assert copy == tuple(SCENARIOS.values())


def test_every_source_is_a_rule_or_provisional() -> None:
    for s in SCENARIOS.values():
        for group in (s.control, s.treasuries, s.placements, s.special_rules, s.region_victory):
            for record in group:
                src = record.source
                assert src.kind is Provenance.PROVISIONAL or src.ref in RULES


@pytest.mark.rule("34.1")
def test_scenario_1_printed_facts() -> None:
    s = SCENARIOS[1]
    assert (s.first_turn, s.last_turn, s.turns) == (turn_of_year(527), turn_of_year(539), 4)
    assert s.first_player is Side.BARBARIAN and s.sets_up_first is Side.BARBARIAN
    barbarian = s.treasury(Side.BARBARIAN)
    assert (barbarian.solidus, barbarian.stratagems, barbarian.source.ref) == (10, 3, "34.1")
    for name in ("Armenia", "Persia"):
        assert s.control_of(CODES[name]) is Control.BARBARIAN
    for name in ("Suevii", "Ostrogoths", "Vandals", "Lazica", "Garamantes", "Slavs", "Scythia"):
        assert s.control_of(CODES[name]) is Control.NEUTRAL
    assert units(s, SetupGroup.BARBARIAN, "Persia") == {
        (UnitKind.FIELD_ARMY, False): 1,
        (UnitKind.NOMAD_HORDE, False): 1,
        (UnitKind.GARRISON, False): 9,
        (UnitKind.FIELD_ARMY, True): 1,
    }
    kavadh = next(p for p in s.placements if p.leader == "kavadh")
    assert kavadh.peripheral and kavadh.source.ref == "34.1"
    assert units(s, SetupGroup.NEUTRAL, "Ostrogoths") == {
        (UnitKind.WARBAND, False): 3,
        (UnitKind.FLEET, False): 1,
        (UnitKind.GARRISON, False): 10,
    }
    assert all(p.source.ref == "34.1" for p in s.placements if p.group is not SetupGroup.EMPIRE)


@pytest.mark.rule("34.1")
def test_visigoths_are_neutral_in_scenarios_1_and_2() -> None:
    for number in (1, 2):
        assert SCENARIOS[number].control_of(CODES["Visigoths"]) is Control.NEUTRAL


@pytest.mark.rule("34.2")
def test_scenario_2_printed_facts() -> None:
    s = SCENARIOS[2]
    assert (s.first_turn, s.turns) == (turn_of_year(535), 5)
    assert s.first_player is Side.EMPIRE and s.sets_up_first is Side.BARBARIAN
    barbarian = s.treasury(Side.BARBARIAN)
    assert (barbarian.solidus, barbarian.stratagems) == (18, 6)
    assert s.control_of(CODES["Ostrogoths"]) is Control.BARBARIAN
    assert s.control_of(CODES["Persia"]) is Control.NEUTRAL
    vandals = next(c for c in s.control if c.region == CODES["Vandals"])
    assert vandals.control is Control.EMPIRE and vandals.source.ref == "2.6"
    hordes = [p for p in s.placements_in(CODES["Mauretania"]) if p.group is SetupGroup.BARBARIAN]
    assert [(p.kind, p.count, p.not_near_city) for p in hordes] == [
        (UnitKind.NOMAD_HORDE, 2, "Tingis")
    ]
    scythia = s.placements_in(CODES["Scythia"])
    assert [(p.count, p.not_near_city) for p in scythia] == [(3, "Bosporus")]
    assert units(s, SetupGroup.NEUTRAL, "Franks") == {
        (UnitKind.WARBAND, False): 3,
        (UnitKind.GARRISON, False): 2,
    }


@pytest.mark.rule("34.3")
def test_scenario_3_repeats_scenario_1() -> None:
    one, three = SCENARIOS[1], SCENARIOS[3]
    assert (three.first_turn, three.last_turn) == (1, turn_of_year(563))
    assert three.first_player is Side.BARBARIAN
    for name in ("control", "treasuries", "placements", "special_rules", "region_victory"):
        assert getattr(three, name) == getattr(one, name)


@pytest.mark.rule("4.1")
def test_every_region_has_a_status_in_every_scenario() -> None:
    for s in SCENARIOS.values():
        assert sorted(c.region for c in s.control) == sorted(CODES.values())


@pytest.mark.rule("11.6")
def test_deployments_fit_the_counter_mix() -> None:
    components = load_components()
    leaders = {leader.id for leader in components.leaders}
    for s in SCENARIOS.values():
        used: Counter[tuple[str, UnitKind]] = Counter()
        for p in s.placements:
            if p.kind is UnitKind.LEADER:
                assert p.leader in leaders
            else:
                used[(p.nationality, p.kind)] += p.count
        for (nationality, kind), count in used.items():
            assert count <= components.counters(nationality).get(kind, 0)


@pytest.mark.rule("35.0", "4.2", "11.11")
def test_victory_points_are_the_levy_values_and_neutral_counts_half() -> None:
    levy = {r.code: r.levy for r in MAP.regions}
    for s in SCENARIOS.values():
        assert sorted(v.region for v in s.region_victory) == sorted(CODES.values())
        for v in s.region_victory:
            assert v.points == levy[v.region]
            assert v.neutral_points * 2 == v.points
            if v.region == CODES["Thracia"]:
                assert (v.points, v.source.ref) == (2, "35.0")
            else:
                assert v.source.kind is Provenance.PROVISIONAL
    thracia = next(v for v in SCENARIOS[1].region_victory if v.region == CODES["Thracia"])
    assert thracia.neutral_points == Fraction(1)


ARMENIAN = 'kind = "garrison"\nnationality = "armenia"'
MIHR = 'region = "P"\nkind = "leader"\nleader = "mihr-mihroe"'
BREAKS = [
    ('region = "A"', 'region = "?"', "control[", "unknown region code"),
    ("count = 9", "count = 19", "placements[", "counter mix has 18"),
    ('leader = "kavadh"', 'leader = "xerxes"', ".leader", "unknown leader"),
    ('nationality = "vandals"', 'nationality = "huns"', ".nationality", "unknown nationality"),
    ('kind = "fleet"', 'kind = "galley"', ".kind", "is not one of"),
    ("last_turn = 4 ", "last_turn = 0 ", ".last_turn", "before first turn"),
    ('not_near_city = "Tingis"', 'not_near_city = "Atlantis"', "not_near_city", "unknown city"),
    ('source = "34.1"', 'source = "99.9"', ".source", "not a rule id"),
    ("stratagems = 3\n", "stratagems = 16\n", ".stratagems", "8.3"),
    (ARMENIAN, ARMENIAN.replace('"armenia"', '"persia"'), ".region", "start in their own region"),
    (ARMENIAN, 'kind = "guard"\nnationality = "guard"', ".region", "only in Empire regions"),
    (ARMENIAN, ARMENIAN.replace('"garrison"', '"guard"'), ".kind", "and only they, have the Guard"),
    ('group = "barbarian"\nregion = "A"', 'group = "neutral"\nregion = "A"', ".group", "starts"),
    (MIHR, MIHR.replace('"P"', '"A"'), ".region", "persia counters start in their own region"),
]


@pytest.mark.parametrize(("old", "new", "key", "reason"), BREAKS)
def test_bad_user_files_are_refused(
    tmp_path: Path, old: str, new: str, key: str, reason: str
) -> None:
    text = (DATA / SCENARIO_FILE).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / SCENARIO_FILE).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_scenarios(tmp_path)
    assert info.value.file == str(tmp_path / SCENARIO_FILE)
    assert key in info.value.key
    assert reason in info.value.reason


def test_missing_region_and_missing_file_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="scenario file is missing"):
        load_scenarios(tmp_path)
    text = (DATA / SCENARIO_FILE).read_text(encoding="utf-8")
    start = text.index("[[scenario.control]]  # Lazica")
    end = text.index("[[scenario.control]]", start + 1)
    (tmp_path / SCENARIO_FILE).write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_scenarios(tmp_path)
    assert info.value.key == "scenario[0].control" and "'Z'" in info.value.reason


# -- new-data cross-checks: nationalities, counter mix, levies ---------------------------


@pytest.mark.rule("2.4", "2.13", "11.11")
def test_every_map_region_is_a_nationality_and_back() -> None:
    nationalities = {n.id: n for n in COMPONENTS.nationalities}
    peripheral = {area.region for area in MAP.peripheral_areas}
    for region in MAP.regions:
        assert region.nationality == region.name.lower()
        assert nationalities[region.nationality].peripheral == (region.name in peripheral)
    assert set(nationalities) == {r.nationality for r in MAP.regions} | {GUARD}
    check_nationalities(COMPONENTS, MAP)


def _without(items: tuple[T, ...], drop: Callable[[T], bool]) -> tuple[T, ...]:
    return tuple(item for item in items if not drop(item))


@pytest.mark.rule("2.4", "11.6")
@pytest.mark.parametrize(
    ("change", "key", "reason"),
    [
        (
            lambda c: attrs.evolve(
                c, nationalities=_without(c.nationalities, lambda n: n.id == "nubia")
            ),
            "nationalities",
            "no nationality 'nubia' for Nubia",
        ),
        (
            lambda c: attrs.evolve(
                c,
                nationalities=tuple(
                    attrs.evolve(n, peripheral=True) if n.id == "slavs" else n
                    for n in c.nationalities
                ),
            ),
            "nationalities.slavs.peripheral",
            "should be False",
        ),
        (
            lambda c: attrs.evolve(
                c, nationalities=(*c.nationalities, Nationality("huns", "Huns"))
            ),
            "nationalities[",
            "'huns' is neither the Guard nor a map region",
        ),
        (
            lambda c: attrs.evolve(
                c, counter_mix=_without(c.counter_mix, lambda u: u.nationality == "nubia")
            ),
            "counter_mix",
            "nubia: 0 levyable counters for a Levy of 1",
        ),
    ],
)
def test_counters_that_disagree_with_the_map_are_refused(
    change: Callable[[Components], Components], key: str, reason: str
) -> None:
    with pytest.raises(ComponentError) as info:
        check_nationalities(change(COMPONENTS), MAP)
    assert info.value.file == "counters.toml"
    assert info.value.key.startswith(key)
    assert reason in info.value.reason


def _levyable(nationality: str) -> int:
    return sum(
        count
        for kind, count in COMPONENTS.counters(nationality).items()
        if COMPONENTS.unit_type(kind).levy
    )


def _placed(s: Scenario, nationality: str, kinds: Callable[[UnitKind], bool]) -> int:
    return sum(
        p.count
        for p in s.placements
        if p.kind is not UnitKind.LEADER and p.nationality == nationality and kinds(p.kind)
    )


@pytest.mark.rule("11.6", "11.11", "11.131")
def test_the_mix_holds_three_turns_of_levies_beyond_every_set_up() -> None:
    for region in MAP.regions:
        nationality = region.nationality
        levyable = _levyable(nationality)
        assert levyable >= region.levy >= 1, region.name
        for s in SCENARIOS.values():
            set_up = _placed(s, nationality, lambda k: COMPONENTS.unit_type(k).levy)
            assert levyable - set_up >= 3 * region.levy, (s.number, region.name)
    # Barbarian Migrations (event 21) may bring up to six units of one of these at once.
    for name in ("Lombards", "Slavs", "Scythia", "Arabia"):
        nationality = name.lower()
        for s in SCENARIOS.values():
            assert _levyable(nationality) - _placed(s, nationality, lambda k: True) >= 6


@pytest.mark.rule("11.131", "11.63", "12.2", "35.0")
def test_field_armies_fleets_and_guards_only_where_they_belong() -> None:
    ports = {
        region.nationality
        for region in MAP.regions
        if any(city.port for city in MAP.cities_in(region.name))
    } | {MAP.region(area.region).nationality for area in MAP.peripheral_areas if area.port}
    empire = {"thracia", "lydia", "aegyptus", "illyricum", "achaea", "cappadocia", "syria"}
    for units in COMPONENTS.counter_mix:
        if units.kind is UnitKind.FIELD_ARMY:
            assert units.nationality in empire | {"persia", "armenia"}, units
        if units.kind is UnitKind.FLEET:
            assert units.nationality in ports, units
        assert (units.kind is UnitKind.GUARD) == (units.nationality == GUARD)
        assert units.kind is not UnitKind.MUTINYING_GUARD  # the Guard's reverse face
    assert COMPONENTS.counters(GUARD) == {UnitKind.GUARD: 8}
    assert COMPONENTS.counters("persia")[UnitKind.NOMAD_HORDE] == 1  # the "single" one
    for nationality in empire:
        assert COMPONENTS.counters(nationality).get(UnitKind.FIELD_ARMY, 0) >= 1


# -- set-up feasibility (34.0) -------------------------------------------------------------


def forage(hex_map: HexMap, hex_number: int) -> int:
    """A hex's Forage value (20.1), as the map computes it."""
    return hex_map.forage(hex_number)


def allowed_hexes(hex_map: HexMap, p: Placement, hexes: frozenset[int]) -> frozenset[int]:
    """Hexes of ``hexes`` a placement's counters may start in (34.0, 19.1)."""
    found = {h for h in hexes if hex_map.is_land(h) and forage(hex_map, h) > 0}
    if p.not_near_city:
        city = hex_map.city(p.not_near_city).hex
        found -= {city, *hex_map.neighbours(city)}
    if p.kind is UnitKind.FLEET:
        found = {h for h in found if hex_map.is_coastal(h)}
    return frozenset(found)


def fill(
    hex_map: HexMap, region: str, placements: Sequence[Placement], taken: frozenset[int]
) -> dict[int, int] | None:
    """Greedy set-up of one group's on-map counters in a region, or None if they do not fit.

    Each hex holds at most min(Forage, stacking limit) counters (34.0, 13.1; Leaders
    count, 13.11); hexes ``taken`` by another group are out (13.12). The most
    constrained counters go first, each to an empty city if it may (34.0), else to
    the hex with the most room left.
    """
    stacking = COMPONENTS.constant("stacking-limit")
    hexes = hex_map.region(region).hexes - taken
    cities = sorted(c.hex for c in hex_map.cities_in(region) if c.hex in hexes)
    units = sorted(
        (
            allowed_hexes(hex_map, p, hexes)
            for p in placements
            if not p.peripheral
            for _ in range(p.count)
        ),
        key=len,
    )
    load: dict[int, int] = {}

    def room(h: int) -> int:
        return min(forage(hex_map, h), stacking) - load.get(h, 0)

    for allowed in units:
        free = [h for h in allowed if room(h) > 0]
        if not free:
            return None
        empty = [h for h in cities if h in free and h not in load]
        target = empty[0] if empty else max(free, key=lambda h: (room(h), -h))
        load[target] = load.get(target, 0) + 1
    return load


def set_up(s: Scenario, name: str) -> dict[SetupGroup, dict[int, int] | None]:
    """Each group's greedy fill of a region, in set-up order (34.1, 34.2)."""
    code = CODES[name]
    taken: frozenset[int] = frozenset()
    found: dict[SetupGroup, dict[int, int] | None] = {}
    for group in SetupGroup:
        group_placements = [p for p in s.placements_in(code) if p.group is group]
        if not group_placements:
            continue
        load = fill(MAP, name, group_placements, taken)
        found[group] = load
        taken |= frozenset(load or ())
    return found


def held_cities(s: Scenario, name: str) -> set[str]:
    hexes = {h for load in set_up(s, name).values() for h in (load or {})}
    return {city.name for city in MAP.cities_in(name) if city.hex in hexes}


@pytest.mark.rule("34.0", "13.1", "20.1")
def test_every_deployment_fits_forage_and_stacking() -> None:
    stacking = COMPONENTS.constant("stacking-limit")
    for s in SCENARIOS.values():
        for name, code in CODES.items():
            for group, load in set_up(s, name).items():
                assert load is not None, (s.number, name, group)
                for h, count in load.items():
                    assert MAP.region_at(h) == MAP.region(name)
                    assert count <= min(forage(MAP, h), stacking)
            box = [p for p in s.placements_in(code) if p.peripheral]
            if box:
                area = next(a for a in MAP.peripheral_areas if a.region == name)
                assert sum(p.count for p in box) <= area.forage


@pytest.mark.rule("34.0")
def test_every_empire_city_starts_with_a_unit() -> None:
    for s in SCENARIOS.values():
        for name, code in CODES.items():
            if s.control_of(code) is Control.EMPIRE:
                cities = {city.name for city in MAP.cities_in(name)}
                assert held_cities(s, name) == cities, (s.number, name)


@pytest.mark.rule("34.0", "34.1", "34.2")
def test_regions_whose_printed_set_up_leaves_cities_empty() -> None:
    # Our copy's set-up lists are cut short (no units for several listed neutrals), and
    # two printed restrictions keep units off a city (Tingis, Bosporus).
    short = {
        s.number: {
            name for name in CODES if held_cities(s, name) != {c.name for c in MAP.cities_in(name)}
        }
        for s in SCENARIOS.values()
    }
    not_printed_1 = {
        "Franks", "Burgundy", "Gepidae", "Scythia", "Mauretania", "Garamantes", "Arabia",
        "Lazica",
    }  # fmt: skip
    assert short[1] == short[3] == not_printed_1
    assert short[2] == {"Scythia", "Mauretania", "Garamantes", "Arabia", "Persia", "Armenia"}
    assert held_cities(SCENARIOS[2], "Mauretania") == {"Iol Caesarea"}


@given(st.sampled_from(sorted(CODES)), st.integers(0, 60))
def test_fill_places_identical_units_iff_the_region_has_room(name: str, count: int) -> None:
    stacking = COMPONENTS.constant("stacking-limit")
    room = sum(min(forage(MAP, h), stacking) for h in MAP.region(name).hexes)
    placement = Placement(SetupGroup.NEUTRAL, CODES[name], UnitKind.GARRISON, "x", count)
    load = fill(MAP, name, [placement], frozenset())
    assert (load is not None) == (count <= room)
    if load is not None:
        assert sum(load.values()) == count


@pytest.mark.rule("34.0")
def test_fill_respects_not_near_city_and_fleets_on_the_coast() -> None:
    s = SCENARIOS[2]
    tingis = MAP.city("Tingis").hex
    for h in set_up(s, "Mauretania")[SetupGroup.BARBARIAN] or {}:
        assert h != tingis and h not in MAP.neighbours(tingis)
    for h in set_up(s, "Ostrogoths")[SetupGroup.BARBARIAN] or {}:
        assert MAP.region_at(h) == MAP.region("Ostrogoths")
    fleet = next(p for p in s.placements if p.kind is UnitKind.FLEET)
    assert all(MAP.is_coastal(h) for h in allowed_hexes(MAP, fleet, MAP.region("Ostrogoths").hexes))
