"""Component data: the shipped files load, carry provenance, and bad files are refused."""

from __future__ import annotations

import shutil
from pathlib import Path as FilePath

import pytest
from hypothesis import given, settings

from byzantium.sword_of_orthodoxy.components import (
    APPENDIX_B_COUNTS,
    DATA_FILES,
    TILE_TOTAL,
    ComponentError,
    Icon,
    Path,
    Provenance,
    SpaceKind,
    TileKind,
    load_components,
)
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState
from tests.sword_of_orthodoxy.strategies import start_of_turn_states

RULEBOOK = "sword-of-orthodoxy"

DATA = FilePath(__file__).resolve().parents[2] / "byzantium" / "sword_of_orthodoxy" / "data"
COMPONENTS = load_components()


def user_copy(tmp_path: FilePath) -> FilePath:
    for name in DATA_FILES:
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


def edit(directory: FilePath, name: str, old: str, new: str, count: int = 1) -> None:
    path = directory / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@pytest.mark.rule("2.1", "B")
def test_the_box_holds_176_tiles_with_appendix_b_counts() -> None:
    assert len(COMPONENTS.tiles) + len(COMPONENTS.chits) == TILE_TOTAL == 176
    for (kind, path), count in APPENDIX_B_COUNTS.items():
        assert sum(1 for t in COMPONENTS.tiles if t.kind is kind and t.path is path) == count


@pytest.mark.rule("2.2", "2.2.1")
def test_six_paths_three_zones_and_three_lines_of_five_themas() -> None:
    for path in Path:
        if path.western:
            kinds = {s.kind for s in COMPONENTS.spaces if s.path is path}
            assert {SpaceKind.ZONE, SpaceKind.RESERVES} <= kinds
        else:
            line = sorted(
                (s for s in COMPONENTS.spaces if s.path is path and s.position),
                key=lambda s: s.position,
            )
            assert [s.position for s in line] == [1, 2, 3, 4, 5]
            assert line[-1].kind is SpaceKind.HOMELAND


@pytest.mark.rule("9.3", "9.5.1", "10.9", "8.4.1")
def test_thema_order_and_icons_match_the_rulebook_examples() -> None:
    def line(path: Path) -> list[str]:
        spaces = [s for s in COMPONENTS.spaces if s.path is path and s.position]
        return [s.id for s in sorted(spaces, key=lambda s: s.position)]

    assert line(Path.DELTA) == [
        "nicaea",
        "paphlagonia",
        "lesser-armenia",
        "greater-armenia",
        "iberia",
    ]
    assert line(Path.EPSILON) == ["amorion", "cappadocia", "melitene", "nisibis", "persia"]
    assert line(Path.ZETA) == ["ephesus", "cilicia", "jerusalem", "damascus", "syria"]
    icons = {s.id: s.icons for s in COMPONENTS.spaces}
    assert {s for s, i in icons.items() if Icon.TAURUS in i} == {
        "greater-armenia",
        "melitene",
        "cilicia",
    }
    assert {s for s, i in icons.items() if Icon.GREEK_BANNER in i} == {
        "nicaea",
        "cappadocia",
        "ephesus",
    }
    assert {s for s, i in icons.items() if Icon.HOSTILE_RELIGIOUS_CENTRE in i} == {
        "cilicia",
        "nisibis",
    }


@pytest.mark.rule("9.1", "4.1", "5.3.3", "5.3.6")
def test_chits_stated_by_the_rulebook() -> None:
    chits = {c.number: c for c in COMPONENTS.chits}
    assert chits[17].paths == (Path.ALPHA, Path.BETA, Path.GAMMA, Path.EPSILON)
    assert chits[3].paths == (Path.DELTA, Path.ZETA)
    assert chits[16].east_west_schism
    assert chits[28].white_dice == 3
    assert chits[2].fires >= 1


def test_every_datum_has_a_known_provenance() -> None:
    kinds = {source.kind for _, _, source in COMPONENTS.provenance()}
    assert kinds <= set(Provenance)
    assert Provenance.RULEBOOK in kinds
    assert Provenance.PEER in kinds
    for _, _, source in COMPONENTS.provenance():
        if source.kind is not Provenance.PEER:
            assert source.ref


def test_hispania_is_worth_3_with_gamma_and_one_schism() -> None:
    hispania = COMPONENTS.tile("outpost-hispania")
    assert hispania.kind is TileKind.OUTPOST
    assert hispania.front.solidus == 3
    assert hispania.front.advance is Path.GAMMA
    assert hispania.front.schism == 1
    assert dict(hispania.sources).get("front", hispania.source).kind is Provenance.RULEBOOK


def test_a_user_copy_loads_and_matches(tmp_path: FilePath) -> None:
    assert load_components(user_copy(tmp_path)).tiles == COMPONENTS.tiles


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("map.toml", 'kind = "homeland"', 'kind = "thema"', "space iberia: not a homeland"),
        ("map.toml", 'name = "Nicaea"', 'name = "Nicaea"\ncolour = "blue"', "unknown field"),
        (
            "tiles.toml",
            "[[chit]]",
            '[[chit]]\nnumber = 99\npaths = []\nsource = "peer"\n\n[[chit]]',
            "numbered 1-28",
        ),
        ("tables.toml", "[[synopsis]]\nlow = 2", "[[synopsis]]\nlow = 3", "should start at 2"),
    ],
)
def test_bad_user_files_are_refused_naming_file_key_and_reason(
    tmp_path: FilePath, file: str, old: str, new: str, message: str
) -> None:
    directory = user_copy(tmp_path)
    edit(directory, file, old, new)
    with pytest.raises(ComponentError, match=message) as error:
        load_components(directory)
    assert error.value.file.startswith(str(directory))
    assert error.value.key
    assert error.value.reason


def test_a_tile_id_used_twice_is_refused(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    edit(directory, "tiles.toml", 'id = "hospital-2"', 'id = "hospital-1"')
    with pytest.raises(ComponentError, match="'hospital-1' is used twice"):
        load_components(directory)


def test_a_missing_file_is_named(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    (directory / "tables.toml").unlink()
    with pytest.raises(ComponentError, match=r"tables\.toml.*missing"):
        load_components(directory)


def test_a_missing_tile_breaks_the_count(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    text = (directory / "tiles.toml").read_text(encoding="utf-8")
    start = text.index("[[tile]]")
    end = text.index("[[tile]]", start + 1)
    (directory / "tiles.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(ComponentError, match=r"tiles\.toml: tile: .*(175 tiles|not)"):
        load_components(directory)


def test_an_out_of_range_value_is_refused(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    text = (directory / "tiles.toml").read_text(encoding="utf-8")
    import re

    new, count = re.subn(r"strength = 4\b", "strength = 9", text, count=1)
    assert count == 1
    (directory / "tiles.toml").write_text(new, encoding="utf-8")
    with pytest.raises(ComponentError, match="outside 0-6"):
        load_components(directory)


def test_an_unknown_source_is_refused(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    edit(directory, "map.toml", 'source = "8.3"', 'source = "99.99"')
    with pytest.raises(ComponentError, match="not a rule id"):
        load_components(directory)


def test_an_unknown_space_in_a_setup_is_refused(tmp_path: FilePath) -> None:
    directory = user_copy(tmp_path)
    edit(directory, "scenarios.toml", 'space = "constantinople"', 'space = "atlantis"')
    with pytest.raises(ComponentError, match="unknown space 'atlantis'"):
        load_components(directory)


@pytest.mark.rule("2.3", "B")
def test_28_turn_chits_for_27_turns() -> None:
    assert sorted(chit.number for chit in COMPONENTS.chits) == list(range(1, 29))
    assert [row.turn for row in COMPONENTS.chronographia] == list(range(1, 28))


@pytest.mark.rule("7.1")
def test_incomes_stated_by_the_7_1_example_carry_that_rule() -> None:
    sources = {
        (record, field): source
        for record, field, source in COMPONENTS.provenance()
        if field == "front.solidus"
    }
    for tile, income in (("dynasty-heraclian", 2), ("basileus-basil-constantine", 1)):
        assert COMPONENTS.tile(tile).front.solidus == income
        source = sources[(f"tile {tile}", "front.solidus")]
        assert (source.kind, source.ref) == (Provenance.RULEBOOK, "7.1")


@pytest.mark.rule("2.2", "2.2.1")
def test_each_path_names_its_spaces_by_its_slug_and_its_letter() -> None:
    assert [path.slug for path in Path] == ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    assert "".join(path.letter for path in Path) == "ΑΒΓΔΕΖ"
    ids = {space.id for space in COMPONENTS.spaces}
    for path in Path:
        assert str(path) == path.letter
        if path.western:
            spaces = {f"{kind}-{path.slug}" for kind in ("zone", "reserves", "tribe")}
            assert spaces <= ids


@pytest.mark.rule("2.1")
@settings(max_examples=30, deadline=None)
@given(start_of_turn_states())
def test_the_tiles_on_a_space_are_every_tile_there_in_index_order(
    drawn: tuple[SwordOfOrthodoxy, SooState],
) -> None:
    game, state = drawn
    board = state.board
    for space in range(len(game.catalog.spaces)):
        expected = [tile for tile, there in enumerate(board.where) if there == space]
        assert board.on(space) == expected
        assert game.catalog.on(board, space) == expected
