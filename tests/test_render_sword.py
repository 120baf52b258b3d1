"""The Sword of Orthodoxy picture is shaped like the board (issue 37, deliverable 2):
six Paths converge on Constantinople, west on the left and east on the right (2.2,
2.2.1, 2.2.2); every space of the map is drawn; the Factions stand in the City; tiles
carry their names in full and their printed values; no component id and no cut
label reaches the picture. Chromium's measure of the same pictures is in
tests/test_render_sword_browser.py."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from byzantium.core.drivers import chance_policy
from byzantium.core.errors import ByzantiumError
from byzantium.core.game import CHANCE
from byzantium.core.registry import load_game
from byzantium.render import svg
from byzantium.render._text import fit, text_width
from byzantium.sword_of_orthodoxy.components import SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.world import army_strength

NS = "{http://www.w3.org/2000/svg}"
HIDDEN = {
    "counter-tray",
    "discarded",
    "turn-chit-mug",
    "dynasty-mug",
    "basileus-mug",
    "patriarch-mug",
}


def _game(scenario: str = "campaign") -> SwordOfOrthodoxy:
    game = load_game("sword-of-orthodoxy", scenario=scenario)
    assert isinstance(game, SwordOfOrthodoxy)
    return game


def positions(seed: int, count: int, steps: int = 400) -> list[SooState]:
    """``count`` states met in a random game of the Campaign (seeded)."""
    game = _game()
    rng = random.Random(seed)
    state = game.initial_state()
    seen = [state]
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        seen.append(state)
    stride = max(1, len(seen) // count)
    return seen[::stride][:count]


def expert_positions(seed: int, turns: tuple[int, ...]) -> list[SooState]:
    """The states at the start of the given Turns of a Campaign played by the
    ``expert`` player (random games rarely live past Turn 3: these are fuller)."""
    game = _game()
    player = game.policies()["expert"]
    rng = random.Random(seed)
    state = game.initial_state()
    found: list[SooState] = []
    for _ in range(5000):
        if game.is_terminal(state) or len(found) == len(turns):
            break
        if state.turn == turns[len(found)]:
            found.append(state)
        policy = chance_policy if game.current_player(state) == CHANCE else player
        state = game.apply(state, policy(game, state, rng))
    return found


def _root(game: SwordOfOrthodoxy, state: SooState) -> ET.Element:
    return ET.fromstring(svg(game, state))


def _frame(group: ET.Element, *, moved: bool = True) -> tuple[float, float, float, float]:
    """The group's frame (left, top, right, bottom), moved by the group's own
    ``translate`` if it has one (a tile is drawn at its origin and moved), or as the
    group's own texts see it (``moved=False``)."""
    rect = next(r for r in group if r.tag == f"{NS}rect" and r.get("class") == "frame")
    dx, dy = 0.0, 0.0
    shift = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", group.get("transform", ""))
    if shift and moved:
        dx, dy = float(shift.group(1)), float(shift.group(2))
    x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
    return x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0))


def _spaces(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-space", ""): g
        for g in root.iter(f"{NS}g")
        if (g.get("class") or "").split()[:1] == ["space"]
    }


@pytest.mark.rule("2.2", "2.2.1", "2.2.2", game="sword-of-orthodoxy")
@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_six_paths_converge_on_the_city_west_left_east_right(scenario: str) -> None:
    game = _game(scenario)
    root = _root(game, game.initial_state())
    cat = game.catalog
    paths = {g.get("data-path", ""): g for g in root.iter(f"{NS}g") if g.get("class") == "path"}
    assert sorted(paths) == sorted("ΑΒΓΔΕΖ")
    city = _frame(_spaces(root)["constantinople"])
    for letter, group in paths.items():
        inside = _spaces(group)
        boxes = [_frame(g) for g in inside.values()]
        if letter in "ΑΒΓ":
            assert group.get("data-side") == "west"
            slug = {"Α": "alpha", "Β": "beta", "Γ": "gamma"}[letter]
            assert {f"zone-{slug}", f"reserves-{slug}", f"tribe-{slug}"} <= set(inside)
            assert all(right <= city[0] for _, _, right, _ in boxes)
            # The Reserves lie farthest out, the Zone next to the City.
            assert _frame(inside[f"reserves-{slug}"])[0] < _frame(inside[f"zone-{slug}"])[0]
        else:
            assert group.get("data-side") == "east"
            themas = [s for s in cat.spaces if s.path is not None and s.path.letter == letter]
            assert [s.id for s in themas] == list(inside), "the five spaces, City outward"
            assert [s.position for s in themas] == [1, 2, 3, 4, 5]
            assert themas[-1].kind is SpaceKind.HOMELAND
            lefts = [_frame(inside[s.id])[0] for s in themas]
            assert lefts == sorted(lefts) and lefts[0] >= city[2]
    # North above south, on each side: Γ over Β over Α, Δ over Ε over Ζ.
    tops = {k: min(_frame(g)[1] for g in _spaces(v).values()) for k, v in paths.items()}
    assert tops["Γ"] < tops["Β"] < tops["Α"]
    assert tops["Δ"] < tops["Ε"] < tops["Ζ"]


@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_every_space_of_the_map_is_drawn_once(scenario: str) -> None:
    game = _game(scenario)
    root = _root(game, game.initial_state())
    drawn = [
        g.get("data-space", "")
        for g in root.iter(f"{NS}g")
        if (g.get("class") or "").split()[:1] == ["space"]
    ]
    expected = [s.id for s in game.catalog.spaces if s.id not in HIDDEN]
    assert sorted(drawn) == sorted(expected)
    mugs = next(t for t in root.iter(f"{NS}text") if t.get("class") == "mugs")
    for mug in HIDDEN - {"counter-tray", "discarded"}:
        assert mugs.get(f"data-{mug}") is not None


@pytest.mark.rule("2.2.2", game="sword-of-orthodoxy")
@pytest.mark.parametrize("seed", [3, 4])
def test_the_factions_stand_inside_the_city(seed: int) -> None:
    game = _game()
    cat = game.catalog
    city = cat.space("constantinople")
    for state in positions(seed, 6):
        root = _root(game, state)
        group = _spaces(root)["constantinople"]
        left, top, right, bottom = _frame(group)
        drawn = {t.get("data-tile"): _frame(t) for t in group if t.get("class") == "tile"}
        for tile, where in enumerate(state.board.where):
            if where != city:
                continue
            x0, y0, x1, y1 = drawn[cat.tiles[tile].id]
            assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom


def _texts(node: ET.Element) -> list[str]:
    return [t.text or "" for t in node.iter(f"{NS}text")]


@pytest.mark.parametrize("seed", [5, 6])
def test_tiles_show_their_names_in_full_and_their_printed_values(seed: int) -> None:
    """The old picture cut names to the box ("Walls of Theodo"); each tile now holds
    its whole name, wrapped between words, and an Army its strength (10.6)."""
    game = _game()
    cat = game.catalog
    ctx = Context(game, None)
    states = [game.initial_state(), _game("millennium").initial_state(), *positions(seed, 6)]
    for state in states:
        root = _root(game, state)
        for group in root.iter(f"{NS}g"):
            if group.get("class") != "tile":
                continue
            tile = cat.tile(group.get("data-tile", ""))
            name = cat.face(state.board, tile).name
            lines = [t.text or "" for t in group if t.tag == f"{NS}text" and not t.get("class")]
            assert " ".join(lines) == name
            if cat.tiles[tile].kind is TileKind.ARMY and state.board.where[tile] in {
                cat.space(s.id) for s in cat.spaces if s.path is not None
            }:
                values = next(t.text for t in group if t.get("class") == "values")
                assert f"strength {army_strength(ctx, state, tile)}" in (values or "")


def test_the_walls_of_theodosius_are_named_in_full() -> None:
    game = _game()
    texts = " ".join(_texts(_root(game, game.initial_state())))
    assert "Walls of" in texts and "Theodosius" in texts
    assert "Theodo " not in texts + " "


@pytest.mark.parametrize("seed", [7, 8])
def test_no_component_id_and_no_cut_label_in_the_picture(seed: int) -> None:
    game = _game()
    cat = game.catalog
    ids = {s.id for s in cat.spaces} | {t.id for t in cat.tiles}
    ids = {i for i in ids if "-" in i}
    for state in [game.initial_state(), *positions(seed, 8)]:
        root = _root(game, state)
        for line in _texts(root):
            words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", line))
            assert not words & ids, line
            assert "…" not in line or line.startswith("Omnibus"), line
            assert "=" not in line, line


def test_the_title_is_in_words() -> None:
    game = _game()
    root = _root(game, game.initial_state())
    title = next(t.text for t in root.iter(f"{NS}text") if t.get("class") == "title")
    assert title == "Sword of Orthodoxy, Campaign: Turn 1 of 27, the years 421-460"


def _inherited(node: ET.Element, name: str, parents: dict[ET.Element, ET.Element]) -> str:
    """An SVG presentation attribute as the node has it, set on it or inherited."""
    while node.get(name) is None and node in parents:
        node = parents[node]
    return node.get(name, "")


@pytest.mark.parametrize("seed", [9])
def test_every_label_fits_its_box_by_our_measure(seed: int) -> None:
    """The estimate the renderer lays out with: every label no wider than the frame
    of its box (Chromium measures the same pictures in the browser test)."""
    game = _game()
    for state in [game.initial_state(), *positions(seed, 5), *expert_positions(5, (8, 14))]:
        root = _root(game, state)
        parents = {child: parent for parent in root.iter() for child in parent}
        for node in root.iter(f"{NS}text"):
            group = parents[node]
            while not any(r.get("class") == "frame" for r in group if r.tag == f"{NS}rect"):
                group = parents[group]
            left, _, right, _ = _frame(group, moved=False)
            size = float(_inherited(node, "font-size", parents))
            bold = _inherited(node, "font-weight", parents) == "bold"
            span = text_width(node.text or "", size, bold=bold)
            x = float(node.get("x", 0))
            middle = _inherited(node, "text-anchor", parents) == "middle"
            start = x - span / 2 if middle else x
            assert left <= start and start + span <= right + 0.01, node.text


def test_fit_wraps_between_words_and_shrinks_before_it_shortens() -> None:
    size, lines = fit("Walls of Theodosius", 68, 9, lines=2, bold=True)
    assert lines == ["Walls of", "Theodosius"] and size == 9
    assert all(text_width(line, size, bold=True) <= 68 for line in lines)
    size, lines = fit("Constantinople", 50, 10, smallest=6)
    assert lines == ["Constantinople"] and size < 10
    assert text_width("Constantinople", size) <= 50
    size, lines = fit("Hippopotomonstrosesquipedaliophobia", 40, 10, smallest=8)
    assert len(lines) == 1 and lines[0].endswith(".") and text_width(lines[0], size) <= 40


def _components_without(tmp_path: Path, space: str) -> SwordOfOrthodoxy:
    """The game from a copy of the component files without one space (its set-up
    placements moved to the Counter Tray)."""
    source = Path(__file__).parent.parent / "byzantium" / "sword_of_orthodoxy" / "data"
    for file in source.glob("*.toml"):
        (tmp_path / file.name).write_text(file.read_text(encoding="utf-8"), encoding="utf-8")
    board = tmp_path / "map.toml"
    blocks = board.read_text(encoding="utf-8").split("[[space]]")
    board.write_text(
        "[[space]]".join(b for b in blocks if f'id = "{space}"' not in b), encoding="utf-8"
    )
    setups = tmp_path / "scenarios.toml"
    setups.write_text(
        setups.read_text(encoding="utf-8").replace(f'space = "{space}"', 'space = "counter-tray"'),
        encoding="utf-8",
    )
    game = load_game("sword-of-orthodoxy", components=str(tmp_path))
    assert isinstance(game, SwordOfOrthodoxy)
    return game


def test_own_components_without_a_strategikon_still_draw(tmp_path: Path) -> None:
    game = _components_without(tmp_path, "strategikon")
    root = _root(game, game.initial_state())
    assert "strategikon" not in _spaces(root)
    assert "constantinople" in _spaces(root)


def test_own_components_without_the_city_are_refused_in_one_line(tmp_path: Path) -> None:
    game = _components_without(tmp_path, "constantinople")
    with pytest.raises(ByzantiumError, match="no space 'constantinople'"):
        svg(game, game.initial_state())


def test_marked_spaces_are_framed_and_the_current_turn_is_highlighted() -> None:
    game = _game()
    state = game.initial_state()
    root = ET.fromstring(svg(game, state, highlight=["nicaea"], last_move=["zone-alpha"]))
    spaces = _spaces(root)
    assert spaces["nicaea"].get("data-mark") == "highlight"
    assert spaces["zone-alpha"].get("data-mark") == "last"
    assert spaces[f"chronographia-{state.turn}"].get("data-mark") == "highlight"
    assert spaces["paphlagonia"].get("data-mark") is None
