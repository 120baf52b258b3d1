"""The Belisarius hex map: grid arithmetic (kernel properties), the shipped map, validation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius import hexmap
from byzantium.belisarius.hexmap import (
    HexMap,
    HexsideFeature,
    MapEdge,
    MapError,
    Provenance,
    Source,
    Terrain,
    TerrainKind,
    distance,
    from_cube,
    grid_neighbours,
    is_adjacent,
    load_map,
    to_cube,
)

RULEBOOK = "belisarius"

DATA = Path(hexmap.__file__).parent / "data" / "map.toml"

hexes = st.builds(lambda c, r: c * 100 + r, st.integers(1, 99), st.integers(1, 99))
interior = st.builds(lambda c, r: c * 100 + r, st.integers(2, 98), st.integers(2, 98))


@pytest.fixture(scope="module")
def shipped() -> HexMap:
    return load_map()


# -- grid arithmetic (kernel) -------------------------------------------------------


@given(hexes)
def test_offset_cube_round_trip(h: int) -> None:
    assert from_cube(to_cube(h)) == h
    cube = to_cube(h)
    assert cube.x + cube.y + cube.z == 0


@given(hexes, hexes)
def test_neighbour_symmetry(a: int, b: int) -> None:
    assert (b in grid_neighbours(a)) == (a in grid_neighbours(b))


@given(hexes)
def test_neighbours_are_symmetric_for_each_neighbour(a: int) -> None:
    for b in grid_neighbours(a):
        assert a in grid_neighbours(b)


@given(interior)
def test_interior_hex_has_six_distinct_neighbours(h: int) -> None:
    found = grid_neighbours(h)
    assert len(found) == len(set(found)) == 6
    assert h not in found


@given(hexes, hexes)
def test_distance_zero_iff_equal_and_symmetric(a: int, b: int) -> None:
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a) >= 0


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a: int, b: int, c: int) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_one_iff_neighbours(a: int, b: int) -> None:
    assert (distance(a, b) == 1) == (b in grid_neighbours(a)) == is_adjacent(a, b)


@given(hexes)
def test_neighbours_are_at_distance_one(h: int) -> None:
    assert all(distance(h, n) == 1 for n in grid_neighbours(h))


def test_even_columns_sit_half_a_hex_lower() -> None:
    # Odd column 37: its even neighbours are rows 19 and 20; even column 36: rows 21 and 22.
    assert set(grid_neighbours(3720)) == {3719, 3721, 3619, 3620, 3819, 3820}
    assert set(grid_neighbours(3621)) == {3620, 3622, 3521, 3522, 3721, 3722}
    assert distance(101, 9999) == 98 + 49


def test_bad_hex_numbers_are_rejected() -> None:
    for bad in (0, 100, 1, 10000, 3700):
        with pytest.raises(ValueError, match="hex number"):
            to_cube(bad)


# -- the shipped map ----------------------------------------------------------------


@pytest.mark.rule("2.1")
def test_shipped_map_loads_with_every_hex(shipped: HexMap) -> None:
    assert (shipped.columns, shipped.rows) == (72, 46)
    assert len(list(shipped.hexes())) == 72 * 46
    assert shipped.terrain.keys() == set(shipped.hexes())


@pytest.mark.rule("2.1")
@given(st.data())
def test_map_neighbours_stay_on_the_map(data: st.DataObject) -> None:
    the_map = load_map()
    h = data.draw(st.sampled_from(sorted(the_map.hexes())))
    found = the_map.neighbours(h)
    assert all(n in the_map for n in found)
    assert (len(found) == 6) == (not the_map.edges(h))
    assert all(h in the_map.neighbours(n) for n in found)


@pytest.mark.rule("2.1")
def test_edges(shipped: HexMap) -> None:
    assert shipped.edges(101) == {MapEdge.NORTH, MapEdge.WEST}
    assert shipped.edges(7246) == {MapEdge.SOUTH, MapEdge.EAST}
    assert shipped.edges(3720) == frozenset()
    assert len(shipped.edge_hexes(MapEdge.NORTH)) == 72


@pytest.mark.rule("2.6")
@pytest.mark.parametrize(
    ("name", "hex_number"),
    [("Tolosa", 3511), ("Ravenna", 3720), ("Massena", 2927), ("Nicaea", 3324), ("Heraclea", 3535)],
)
def test_errata_cities_sit_at_their_hexes(shipped: HexMap, name: str, hex_number: int) -> None:
    city = shipped.city(name)
    assert city.hex == hex_number
    assert shipped.city_at(hex_number) == city
    assert city.source.kind is Provenance.RULEBOOK
    assert city.source.ref == "2.6"


@pytest.mark.rule("2.11")
def test_every_land_hex_is_in_exactly_one_region(shipped: HexMap) -> None:
    for h in shipped.hexes():
        region = shipped.region_at(h)
        assert (region is None) == (shipped.terrain_at(h) is Terrain.SEA)
        if region is not None:
            assert h in region.hexes
    total = sum(len(region.hexes) for region in shipped.regions)
    assert total == sum(1 for h in shipped.hexes() if shipped.is_land(h))


@pytest.mark.rule("2.11")
def test_regions_and_cities_the_rules_name_are_on_the_map(shipped: HexMap) -> None:
    regions = {region.name for region in shipped.regions}
    named = {
        "Thracia", "Lydia", "Aegyptus", "Armenia", "Persia", "Visigoths", "Suevii", "Basques",
        "Ostrogoths", "Vandals", "Franks", "Burgundy", "Lombards", "Gepidae", "Slavs",
        "Scythia", "Lazica", "Arabia", "Nubia", "Mauretania", "Garamantes",
    }  # fmt: skip
    assert named <= regions
    for city in ("Constantinopolis", "Roma", "Alexandria", "Carthago", "Tingis", "Bosporus"):
        assert shipped.city(city)
    assert shipped.region_at(shipped.city("Tingis").hex) == shipped.region("Mauretania")
    assert shipped.region_at(shipped.city("Bosporus").hex) == shipped.region("Scythia")
    assert shipped.region_at(shipped.city("Constantinopolis").hex) == shipped.region("Thracia")


@pytest.mark.rule("2.12", "4.2", "11.11")
def test_every_region_has_a_levy_and_thracia_levies_two(shipped: HexMap) -> None:
    thracia = shipped.region("Thracia")
    assert thracia.levy == 2
    assert dict(thracia.sources)["levy"] == Source(Provenance.RULEBOOK, "4.2")
    for region in shipped.regions:
        assert region.levy >= 1, region.name
        assert region.nationality == region.name.lower()
        if region.name != "Thracia":
            assert dict(region.sources)["levy"].kind is Provenance.PROVISIONAL, region.name
    labels = dict(shipped.provenance())
    assert labels["region Thracia.levy"].ref == "4.2"
    # Provisional sizing: the rival great power levies the most.
    assert shipped.region("Persia").levy == max(r.levy for r in shipped.regions)


def test_every_terrain_and_hexside_feature_is_used(shipped: HexMap) -> None:
    kinds = set().union(*(shipped.terrain_kinds(h) for h in shipped.hexes()))
    assert kinds == set(TerrainKind)
    for feature in HexsideFeature:
        assert shipped.sides_with(feature), feature
    assert shipped.rating(TerrainKind.CAPITAL_CITY).forage == 6
    assert shipped.rating(TerrainKind.SEA).forage == 0
    assert shipped.rating(TerrainKind.COASTAL).forage is None


def test_cities_are_on_land_and_ports_are_coastal(shipped: HexMap) -> None:
    for city in shipped.cities:
        assert shipped.is_land(city.hex)
        if city.port:
            assert shipped.is_coastal(city.hex)
    assert [c.name for c in shipped.cities if c.capital] == ["Constantinopolis"]


def test_straits_join_land_across_water(shipped: HexMap) -> None:
    hellespont = [s for s in shipped.sides_with(HexsideFeature.STRAIT) if s.name == "Hellespontus"]
    assert len(hellespont) == 1
    side = hellespont[0]
    assert side.source.ref == "16.24"
    assert shipped.region_at(side.a) != shipped.region_at(side.b)
    assert shipped.is_coastal(side.a)
    assert shipped.is_coastal(side.b)


def test_peripheral_areas(shipped: HexMap) -> None:
    assert {area.name for area in shipped.peripheral_areas} == {
        "Franks",
        "Lombards",
        "Scythia",
        "Persia",
    }
    for area in shipped.peripheral_areas:
        assert area.forage == 10
        entry = shipped.entry_hexes(area.name)
        assert entry
        for h in entry:
            if shipped.is_land(h):
                assert shipped.region_at(h) == shipped.region(area.region)
                assert shipped.edges(h) & area.edges
    persia = shipped.peripheral("Persia")
    assert persia.port
    assert (persia.solidus, shipped.peripheral("Franks").solidus) == (6, 3)
    # The box's port serves the Sinus Persicus, not the Caspian (18.22, 19.9).
    caspian = shipped.sea_area("Pontus Caspium").hexes
    assert not caspian & shipped.entry_hexes("Persia")
    assert shipped.sea_area("Sinus Persicus").hexes <= shipped.entry_hexes("Persia")


def test_every_datum_has_a_provenance(shipped: HexMap) -> None:
    sources = list(shipped.provenance())
    assert sources
    for label, source in sources:
        assert source.kind in (Provenance.RULEBOOK, Provenance.PROVISIONAL), label
        assert source.ref, label


# -- validation of user files -------------------------------------------------------


def _broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = DATA.read_text(encoding="utf-8")
    assert old in text, old
    (tmp_path / "map.toml").write_text(text.replace(old, new, count), encoding="utf-8")
    return tmp_path


def test_a_copy_of_the_shipped_file_loads(tmp_path: Path) -> None:
    shutil.copy(DATA, tmp_path / "map.toml")
    assert load_map(tmp_path).cities == load_map().cities


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="missing"):
        load_map(tmp_path)


@pytest.mark.parametrize(
    ("old", "new", "key", "reason"),
    [
        ('symbol = "%"', 'symbol = "&"', "layers.terrain hex", "unknown terrain symbol"),
        ("[terrain.marsh]", "[terrain.swamp]", "terrain.swamp", "unknown TerrainKind"),
        ("hex = 3720", "hex = 7347", "city[2].hex", "outside the 72x46 map"),
        ("hex = 3720", "hex = 3820", "city[2].hex", "all-sea hex"),
        ("hex = 3511\n", "hex = 3511\nport = true\n", "city[1].port", "not coastal"),
        ("sides = [[5226, 5327]]", "sides = [[5226, 5328]]", "strait[0].sides[0]", "adjacent"),
        ('code = "N"', 'code = "n"', "layers.regions hex", "unknown region code 'N'"),
        ('code = "N"', 'code = "T"', "region[19].code", "used twice"),
        (
            '[[region]]\nname = "Franks"',
            '[[region]]\nname = "Atlantis"\ncode = "@"\nlevy = 0\nsource = "provisional: x"\n\n'
            '[[region]]\nname = "Franks"',
            "region[0]",
            "has no hexes",
        ),
        ("columns = 72", "columns = 71", "layers.terrain row 01", "72 hexes, not 71"),
        ('source = "2.6"', 'source = "2.99"', "city[1].source", "not a rule id"),
        ('source = "2.6"', 'source = "provisional:"', "city[1].source", "rationale"),
        ('region = "Franks"', 'region = "Francia"', "peripheral[0].region", "no region"),
        ('name = "Lombards"\nregion', 'name = "Gepids"\nregion', "peripheral", "needs each"),
        ("capital = true\n", "", "city", "exactly one capital"),
        (
            "path = [1913, 1914,",
            "path = [1912, 1913, 1914,",
            "pass Summus Pyrenaeus 1912/",
            "rough",
        ),
        ("[map]", "[mapp]", "mapp", "unknown table"),
        ('code = "T"\nlevy = 2', 'code = "T"\nlevy = -2', "region[19].levy", "negative"),
        ('code = "T"\nlevy = 2', 'code = "T"\nlevy = "two"', "region[19].levy", "an integer"),
        ('code = "T"\nlevy = 2\n', 'code = "T"\n', "region[19]", "missing field 'levy'"),
        ('sources = { levy = "4.2" }', 'sources = { levy = "4.99" }', "region[19].sources", "rule"),
        (
            'sources = { levy = "4.2" }',
            'sources = { hexes = "4.2" }',
            "region[19].sources",
            "not a",
        ),
    ],
)
def test_bad_user_files_name_file_key_and_reason(
    tmp_path: Path, old: str, new: str, key: str, reason: str
) -> None:
    directory = _broken(tmp_path, old, new)
    with pytest.raises(MapError) as caught:
        load_map(directory)
    error = caught.value
    assert error.file == str(directory / "map.toml")
    assert error.key.startswith(key), error
    assert re.search(reason, error.reason), error


def test_a_land_hex_without_region_is_rejected(tmp_path: Path) -> None:
    text = DATA.read_text(encoding="utf-8")
    layer_start = text.index('regions = """') + len('regions = """\n')
    # Row 01 column 13 is land (Franks): blank its region code.
    broken = text[: layer_start + 12] + "~" + text[layer_start + 13 :]
    (tmp_path / "map.toml").write_text(broken, encoding="utf-8")
    with pytest.raises(MapError, match=r"layers\.regions hex 1301: a land hex must belong"):
        load_map(tmp_path)


def test_a_sea_area_with_land_is_rejected(tmp_path: Path) -> None:
    directory = _broken(tmp_path, '"7108-7219"', '"7008-7219"')
    with pytest.raises(MapError, match=r"sea_area\[0\]: Pontus Caspium holds land"):
        load_map(directory)
