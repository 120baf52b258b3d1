"""Belisarius scenarios: the shipped file loads, printed facts carry their rule, bad files fail."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from byzantium.belisarius import RULES
from byzantium.belisarius.components import (
    ComponentError,
    Provenance,
    Side,
    UnitKind,
    load_components,
)
from byzantium.belisarius.hexmap import load_map
from byzantium.belisarius.scenarios import (
    SCENARIO_FILE,
    Control,
    Scenario,
    SetupGroup,
    load_scenarios,
    turn_of_year,
)

RULEBOOK = "belisarius"

DATA = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"
SCENARIOS = {s.number: s for s in load_scenarios()}
CODES = {r.name: r.code for r in load_map().regions}


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


@pytest.mark.rule("35.0")
def test_victory_points_are_provisional_and_neutral_counts_half() -> None:
    for s in SCENARIOS.values():
        assert sorted(v.region for v in s.region_victory) == sorted(CODES.values())
        for v in s.region_victory:
            assert v.source.kind is Provenance.PROVISIONAL
            assert v.neutral_points * 2 == v.points


BREAKS = [
    ('region = "A"', 'region = "?"', "control[", "unknown region code"),
    ("count = 9", "count = 12", "placements[", "counter mix has 9"),
    ('leader = "kavadh"', 'leader = "xerxes"', ".leader", "unknown leader"),
    ('nationality = "vandals"', 'nationality = "huns"', ".nationality", "unknown nationality"),
    ('kind = "fleet"', 'kind = "galley"', ".kind", "is not one of"),
    ("last_turn = 4 ", "last_turn = 0 ", ".last_turn", "before first turn"),
    ('not_near_city = "Tingis"', 'not_near_city = "Atlantis"', "not_near_city", "unknown city"),
    ('source = "34.1"', 'source = "99.9"', ".source", "not a rule id"),
    ("stratagems = 3\n", "stratagems = 16\n", ".stratagems", "8.3"),
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
