"""The picture of a state of Sword of Orthodoxy, laid out like the board.

The six Paths converge on Constantinople in the middle (2.2): the western Paths
(Zones Α, Β, Γ, each with its Tribe and, off the map, its Reserves on the Counter
Tray, 2.2.1) run in from the left, the eastern Paths (Themas Δ, Ε, Ζ from the City
out to the Homeland) run out to the right, north above south. The rulers sit on the
upper edge (2.5); below the Paths come the other spaces of the map, the Omnibus
Track (2.6), the Strategikon track (10.6.2) and the Chronographia (2.3); the mugs by
count only (what is in a mug is not to be seen).

Every tile is drawn as a tile with its name in full and its printed values; each is a
``<g class="tile">`` carrying ``data-tile``, ``data-kind`` and ``data-space`` (its
space id), so that a program can check the picture. Every label is measured before it
is drawn (:mod:`byzantium.render._text`) and sits inside the ``rect class="frame"``
of its group: the box it belongs to.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from byzantium.core.errors import ByzantiumError
from byzantium.render._svg import document, el, text, to_string
from byzantium.render._text import fit, text_width
from byzantium.sword_of_orthodoxy.components import Icon, MapSpace, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.render import _pending
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.world import EASTERN, MAX_TRACK, WESTERN, army_strength

if TYPE_CHECKING:
    from byzantium.core.game import Game

__all__ = ["draw"]

S = TypeVar("S")
A = TypeVar("A")

_MUGS = ("turn-chit-mug", "dynasty-mug", "basileus-mug", "patriarch-mug")
_NOT_DRAWN = ("counter-tray", "discarded")
#: Boxes on the upper edge of the board (2.5: the Basileus space is there).
_RULERS = ("dynasty", "basileus", "patriarch", "pope", "hippodrome", "lurking")
_COLOURS = {
    TileKind.ARMY: "#b71c1c",
    TileKind.TRIBE: "#795548",
    TileKind.SIEGE: "#424242",
    TileKind.FACTION: "#3949ab",
    TileKind.PATRIARCH: "#00838f",
    TileKind.DYNASTY: "#7b1fa2",
    TileKind.BASILEUS: "#616161",
    TileKind.GOLDEN_BASILEUS: "#a67c00",
    TileKind.OUTPOST: "#2e7d32",
    TileKind.TURN_CHIT: "#37474f",
    TileKind.SOCIAL: "#e65100",
    TileKind.RIOT: "#ad1457",
    TileKind.HOSPITAL: "#00695c",
    TileKind.MONASTERY: "#5d4037",
    TileKind.AKRITAI: "#558b2f",
    TileKind.MAGISTER: "#283593",
    TileKind.SUPPORT: "#0277bd",
    TileKind.MARKER: "#1565c0",
}
#: The Paths' names in the rulebook's list (2.2); the eastern ones are their Homelands.
_PATH_NAMES = {
    Path.ALPHA: "the South",
    Path.BETA: "the West",
    Path.GAMMA: "the North",
    Path.DELTA: "Iberia",
    Path.EPSILON: "Persia",
    Path.ZETA: "Syria",
}
#: Printed icons as words on a tile's value line.
_ICON_WORDS = {
    Icon.SWORD: "sword",
    Icon.PI: "Π",
    Icon.CHI: "Χ",
    Icon.CROSS: "cross",
    Icon.FIRE: "fire",
    Icon.SAINT: "saint",
    Icon.HORSE: "horse",
    Icon.MAN: "man",
    Icon.MUSLIM: "Muslim",
}
#: Icons printed on the spaces of the Paths, in words.
_SPACE_ICONS = {
    Icon.GREEK_BANNER: "Greek banner",
    Icon.TAURUS: "Taurus",
    Icon.HOSTILE_RELIGIOUS_CENTRE: "hostile religious centre",
}
_MARK_STROKES = {"last": "#e65100", "highlight": "#d81b60"}
_ID = re.compile(r"\b[a-z0-9]+(?:-[a-z0-9]+)+\b")

_W = 1230.0
_M = 10.0  # margin
_TW = 74.0  # tile width
_TH = 40.0  # tile height
_GAP = 4.0  # between tiles
_PAD = 6.0  # inside a box
_TITLE = 10.0  # font size of a box's title


def _cols_width(cols: int) -> float:
    return cols * (_TW + _GAP) - _GAP + 2 * _PAD


class _Drawer:
    def __init__(self, game: SwordOfOrthodoxy, state: SooState, marks: dict[str, str]) -> None:
        self.ctx = Context(game, None)
        self.cat = self.ctx.cat
        self.state = state
        self.marks = marks
        self.on: dict[int, list[int]] = {}
        for tile, where in enumerate(state.board.where):
            self.on.setdefault(where, []).append(tile)
        self.spaces = {s.id: s for s in self.cat.spaces}
        self.names = {s.id: s.name for s in self.cat.spaces} | {
            t.id: self.cat.face(state.board, i).name for i, t in enumerate(self.cat.tiles)
        }

    def words(self, line: str) -> str:
        """A line with every component id replaced by the component's name."""
        return _ID.sub(lambda m: self.names.get(m.group(0), m.group(0)), line)

    def tiles(self, space: MapSpace) -> list[int]:
        return self.on.get(self.cat.space_index[space.id], [])

    def values(self, tile: int) -> str:
        """The printed values of the tile's face, in a few words."""
        face = self.cat.face(self.state.board, tile)
        kind = self.cat.tiles[tile].kind
        parts: list[str] = []
        if kind is TileKind.ARMY:
            parts.append(f"strength {army_strength(self.ctx, self.state, tile)}")
        elif face.strength:
            parts.append(f"strength {face.strength}")
        if kind is TileKind.TURN_CHIT:
            number = self.cat.tiles[tile].id.rsplit("-", 1)[-1]
            chit = next((c for c in self.cat.components.chits if str(c.number) == number), None)
            if chit is not None:
                parts.append("Paths " + "".join(p.letter for p in chit.paths))
        if face.solidus:
            parts.append(f"${face.solidus}")
        if face.survival:
            parts.append(f"survival {face.survival}")
        if face.schism:
            parts.append("Σ" * face.schism)
        if face.advance is not None:
            parts.append(f"advance {face.advance.letter}")
        parts += [_ICON_WORDS[i] for i in sorted(face.icons, key=str) if i in _ICON_WORDS]
        return " · ".join(parts)

    def tile(self, parent: ET.Element, tile: int, x: float, y: float, space: str) -> None:
        """One tile: its name (up to two lines) and its printed values. The text's
        common attributes sit on the group, which the texts inherit."""
        kind = self.cat.tiles[tile].kind
        item = el(
            parent,
            "g",
            class_="tile",
            data_tile=self.cat.tiles[tile].id,
            data_kind=kind.value,
            data_space=space,
            font_size=9,
            font_weight="bold",
            fill="white",
            text_anchor="middle",
            transform=f"translate({x:.1f} {y:.1f})",
        )
        # Drawn at (0, 0) and moved into place: a tile's insides are the same wherever
        # it stands (the record viewer stores each distinct element once).
        x = y = 0.0
        value = self.state.board.value[tile]
        if value:
            item.set("data-value", str(value))
        el(
            item,
            "rect",
            class_="frame",
            x=x,
            y=y,
            width=_TW,
            height=_TH,
            rx=3,
            fill=_COLOURS.get(kind, "#424242"),
            stroke="#212121",
            stroke_width=0.6,
        )
        name = self.cat.face(self.state.board, tile).name
        values = self.values(tile)
        size, lines = fit(name, _TW - 6, 9, lines=2, smallest=6.5, bold=True)
        top = y + 2 if values else y + (_TH - 1.2 * size * len(lines)) / 2
        for k, line in enumerate(lines):
            node = text(item, x + _TW / 2, top + 0.93 * size + k * 1.2 * size, line)
            if size != 9:
                node.set("font-size", f"{size:g}")
        if values:
            small, (line, *_) = fit(values, _TW - 6, 8, smallest=5.5)
            text(
                item,
                x + _TW / 2,
                y + _TH - 2 - 0.24 * small,
                line,
                font_size=small,
                font_weight="normal",
                fill="#fff8e1",
                class_="values",
            )

    def title_lines(self, title: str, room: float) -> tuple[float, list[str]]:
        return fit(title, room - 2 * _PAD, _TITLE, lines=2, smallest=7, bold=True)

    def note_lines(self, note: str, room: float) -> tuple[float, list[str]]:
        return fit(note, room - 2 * _PAD, 8, lines=2, smallest=6) if note else (0.0, [])

    def height(self, title: str, room: float, count: int, cols: int, note: str = "") -> float:
        size, lines = self.title_lines(title, room)
        small, notes = self.note_lines(note, room)
        rows = -(-count // cols) if count else 0
        tiles = rows * (_TH + _GAP) - _GAP if rows else 0
        top = _PAD + 1.2 * size * len(lines) + 1.2 * small * len(notes)
        return top + (4 if rows else 2) + tiles + _PAD

    def note(self, space: MapSpace) -> str:
        """The icons and the die number printed on a space of a Path, in words."""
        words = [_SPACE_ICONS[i] for i in sorted(space.icons, key=str) if i in _SPACE_ICONS]
        if space.die:
            words.append(f"die {space.die}")
        return ", ".join(words)

    def box(  # noqa: PLR0917 - a box is its space, its rectangle and its layout
        self,
        parent: ET.Element,
        space: MapSpace,
        x: float,
        y: float,
        w: float,
        h: float,
        title: str,
        cols: int,
        *,
        tray: bool = False,
        tiles: Sequence[int] | None = None,
        subtitle_fill: str = "#3e2723",
        note: str = "",
    ) -> ET.Element:
        """A space: its frame, its title (measured), its tiles in ``cols`` columns."""
        mark = self.marks.get(space.id, "")
        size, lines = self.title_lines(title, w)
        group = el(
            parent,
            "g",
            class_="space",
            data_space=space.id,
            font_size=f"{size:g}",
            font_weight="bold",
            fill=subtitle_fill,
        )
        if mark:
            group.set("data-mark", mark)
        frame = el(
            group,
            "rect",
            class_="frame",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=5,
            fill="#f3ead3" if tray else "#fbf7ee",
            stroke=_MARK_STROKES.get(mark, "#8d6e63"),
            stroke_width=3 if mark else 1,
        )
        if tray and not mark:
            frame.set("stroke-dasharray", "5 3")
        for k, line in enumerate(lines):
            text(group, x + _PAD, y + _PAD + 0.93 * size + k * 1.2 * size, line)
        top = y + _PAD + 1.2 * size * len(lines)
        small, notes = self.note_lines(note, w)
        for line in notes:
            text(
                group,
                x + _PAD,
                top + 0.93 * small,
                line,
                font_size=small,
                font_weight="normal",
                fill="#6d4c41",
            )
            top += 1.2 * small
        top += 4
        on = self.tiles(space) if tiles is None else tiles
        for k, tile in enumerate(on):
            self.tile(
                group,
                tile,
                x + _PAD + (k % cols) * (_TW + _GAP),
                top + (k // cols) * (_TH + _GAP),
                space.id,
            )
        return group


def _heading(parent: ET.Element, x: float, y: float, content: str, room: float) -> float:
    """A section heading at (x, y) (its top); the height it takes."""
    size, (line, *_) = fit(content, room, 13, smallest=9, bold=True)
    text(parent, x, y + 0.93 * size, line, font_size=size, font_weight="bold", fill="#3e2723")
    return 1.2 * size + 4


def draw(game: Game[S, A], state: S, *, highlight: set[str], last_move: set[str]) -> str:
    """The SVG of a Sword of Orthodoxy state (the game has no hidden information)."""
    assert isinstance(game, SwordOfOrthodoxy)
    assert isinstance(state, SooState)
    marks = dict.fromkeys(highlight, "highlight") | dict.fromkeys(last_move, "last")
    d = _Drawer(game, state, marks)
    needed = ["constantinople"]
    needed += [f"{kind}-{p.slug}" for p in WESTERN for kind in ("zone", "reserves")]
    missing = [space for space in needed if space not in d.spaces]
    if missing:
        raise ByzantiumError(f"no picture: the components have no space {missing[0]!r}")
    root = document(_W, 1000)
    background = el(root, "rect", class_="frame", x=0, y=0, width=_W, height=1000, fill="#efe6d2")
    drawn = {
        "constantinople",
        "omnibus",
        "strategikon",
        *_RULERS,
        *_MUGS,
        *_NOT_DRAWN,
    }
    others = [
        s
        for s in d.cat.spaces
        if s.kind is SpaceKind.HOLDING
        and s.path is None
        and s.id not in drawn
        and not s.id.startswith("chronographia-")
    ]
    others += [s for s in d.cat.spaces if s.id == "bulgarian-church"]
    rulers = [d.spaces[s] for s in _RULERS if s in d.spaces]
    sections: list[Callable[[ET.Element], float]] = [
        lambda g: _title(d, game, g),
        lambda g: _flow(d, g, rulers, 0, "On the upper edge"),
        lambda g: _paths(d, g, 4),
        lambda g: _flow(d, g, others, 6, "Outposts, neighbours and other spaces of the map"),
    ]
    if "omnibus" in d.spaces:
        sections.append(lambda g: _omnibus(d, g, 6))
    if "strategikon" in d.spaces:
        sections.append(lambda g: _strategikon(d, g, 6))
    sections += [
        lambda g: _chronographia(d, g, 6),
        lambda g: _mugs(d, g, 6),
        lambda g: _legend(g, 6),
    ]
    # Each section is drawn from its own top and moved into place, so that a section
    # that grows moves those below it without changing what is inside them (the
    # record viewer stores each distinct element of a game's pictures once).
    y = 0.0
    for draw_section in sections:
        group = el(root, "g", class_="section")
        if y:
            group.set("transform", f"translate(0 {y:.1f})")
        y += draw_section(group)
    height = y + _M
    root.set("height", f"{height:g}")
    root.set("viewBox", f"0 0 {_W:g} {height:g}")
    background.set("height", f"{height:g}")
    return to_string(root)


def _title(d: _Drawer, game: SwordOfOrthodoxy, root: ET.Element) -> float:
    lines = [line.strip("= ").strip() for line in game.chronicle_heading(d.state).split("\n")]
    heading = lines[0] or "Set-up"
    turns = sum(1 for s in d.cat.spaces if s.id.startswith("chronographia-"))
    found = re.fullmatch(r"Turn (\d+)(?: of \d+)? \((.*)\)", heading)
    if found:
        heading = f"Turn {found.group(1)} of {turns}, the years {found.group(2)}"
    scenario = str(game.options.get("scenario", "")).title()
    title = f"Sword of Orthodoxy, {scenario}: {heading}" if scenario else heading
    y = _M
    size, (line, *_) = fit(title, _W - 2 * _M, 18, smallest=11, bold=True)
    text(root, _M, y + 0.93 * size, line, font_size=size, font_weight="bold", class_="title")
    y += 1.2 * size + 2
    situation = lines[1] if len(lines) > 1 else ""
    if situation:
        size, (line, *_) = fit(d.words(situation), _W - 2 * _M, 12, smallest=8)
        text(root, _M, y + 0.93 * size, line, font_size=size, class_="situation")
        y += 1.2 * size + 2
    pending = d.words(_pending(d.state)).replace("Pending ", "Next ", 1)
    size, wrapped = fit(pending, _W - 2 * _M, 11, lines=2, smallest=8)
    for line in wrapped:
        text(root, _M, y + 0.93 * size, line, font_size=size, class_="pending", fill="#4e342e")
        y += 1.2 * size
    return y + 6


def _flow(d: _Drawer, root: ET.Element, spaces: list[MapSpace], y: float, heading: str) -> float:
    """Boxes side by side, wrapping onto new rows; each as wide as its tiles need."""
    y += _heading(root, _M, y, heading, _W - 2 * _M)
    x = _M
    row: list[tuple[MapSpace, float, int]] = []
    placed: list[list[tuple[MapSpace, float, int]]] = [row]
    for space in spaces:
        count = len(d.tiles(space))
        cols = max(1, min(3, count))
        w = _cols_width(cols)
        if text_width(space.name, _TITLE, bold=True) + 2 * _PAD > w and cols < 2:
            w = _cols_width(2) if count else max(w, min(_cols_width(2), 140.0))
        if x + w > _W - _M and row:
            row = []
            placed.append(row)
            x = _M
        row.append((space, w, cols))
        x += w + 8
    for row in placed:
        if not row:
            continue
        h = max(d.height(s.name, w, len(d.tiles(s)), c) for s, w, c in row)
        x = _M
        for space, w, cols in row:
            d.box(root, space, x, y, w, h, space.name, cols)
            x += w + 8
        y += h + 8
    return y


def _paths(d: _Drawer, root: ET.Element, y: float) -> float:
    """The six Paths around Constantinople: north above south, west left, east right."""
    links = el(root, "g", class_="links")
    w_reserves = _cols_width(2)
    w_side = _cols_width(1)
    w_zone = _cols_width(2)
    x_reserves = _M
    x_side = x_reserves + w_reserves + 14
    x_zone = x_side + w_side + 14
    w_city = _cols_width(3)
    x_city = x_zone + w_zone + 26
    x_east = x_city + w_city + 26
    w_thema = _cols_width(1)
    step = (_W - _M - x_east - w_thema) / 4
    top = y
    rows = list(zip(reversed(WESTERN), EASTERN, strict=True))
    centres: list[tuple[float, float, float]] = []
    for west, east in rows:
        g_west = el(root, "g", class_="path", data_path=west.letter, data_side="west")
        g_east = el(root, "g", class_="path", data_path=east.letter, data_side="east")
        head = _heading(g_west, _M, y, f"Path {west.letter}: {_PATH_NAMES[west]}", x_city - _M - 30)
        _heading(g_east, x_east, y, f"Path {east.letter}: {_PATH_NAMES[east]}", _W - _M - x_east)
        y += head
        slug = west.slug
        reserves = d.spaces[f"reserves-{slug}"]
        zone = d.spaces[f"zone-{slug}"]
        side = [d.spaces[s] for s in (f"tribe-{slug}", f"zone-name-{slug}") if s in d.spaces]
        titles = {
            reserves.id: f"Reserves {west.letter} (Counter Tray)",
            zone.id: zone.name,
            f"tribe-{slug}": "Tribe",
        }
        h_res = d.height(titles[reserves.id], w_reserves, len(d.tiles(reserves)), 2)
        h_zone = d.height(zone.name, w_zone, len(d.tiles(zone)), 2, d.note(zone))
        h_sides = [d.height(titles.get(s.id, s.name), w_side, len(d.tiles(s)), 1) for s in side]
        themas = [d.cat.spaces[i] for i in d.cat.themas(east)]
        t_titles = [
            f"{s.position} {s.name}" + (" (Homeland)" if s.kind is SpaceKind.HOMELAND else "")
            for s in themas
        ]
        h_themas = [
            d.height(t, w_thema, len(d.tiles(s)), 1, d.note(s))
            for s, t in zip(themas, t_titles, strict=True)
        ]
        h = max(h_res, h_zone, sum(h_sides) + 6 * max(0, len(h_sides) - 1), *h_themas)
        d.box(g_west, reserves, x_reserves, y, w_reserves, h, titles[reserves.id], 2, tray=True)
        sy = y
        for space, sh in zip(side, h_sides, strict=True):
            d.box(g_west, space, x_side, sy, w_side, sh, titles.get(space.id, space.name), 1)
            sy += sh + 6
        d.box(g_west, zone, x_zone, y, w_zone, h, zone.name, 2, note=d.note(zone))
        for k, (space, title) in enumerate(zip(themas, t_titles, strict=True)):
            d.box(g_east, space, x_east + k * step, y, w_thema, h, title, 1, note=d.note(space))
        mid = y + min(h, 60) / 2
        _arrow(links, x_reserves + w_reserves, mid, x_zone, mid, dashed=True)
        el(
            links,
            "line",
            x1=x_east,
            y1=mid,
            x2=x_east + 4 * step,
            y2=mid,
            stroke="#8d6e63",
            stroke_width=6,
        )
        centres.append((y, mid, h))
        y += h + 10
    city = d.spaces["constantinople"]
    on = d.tiles(city)
    factions = sum(1 for t in on if d.cat.tiles[t].kind is TileKind.FACTION)
    note = f"{factions} Faction{'s' if factions != 1 else ''} in the City"
    block = y - 10 - top
    h_city = max(180.0, d.height(city.name, w_city, len(on), 3, note))
    # The City as tall as what stands in it, in the middle of the Paths' block.
    y_city = top + max(0.0, (block - h_city) / 2)
    d.box(
        root, city, x_city, y_city, w_city, h_city, city.name, 3, subtitle_fill="#4a148c", note=note
    )
    city_mid = y_city + h_city / 2
    for _, mid, _ in centres:
        # Every Path converges on the City (2.2.2).
        _arrow(links, x_zone + w_zone, mid, x_city, city_mid)
        _arrow(links, x_east, mid, x_city + w_city, city_mid)
    return max(y, y_city + h_city + 10)


def _arrow(
    parent: ET.Element, x1: float, y1: float, x2: float, y2: float, *, dashed: bool = False
) -> None:
    line = el(
        parent,
        "line",
        x1=x1,
        y1=y1,
        x2=x2,
        y2=y2,
        stroke="#8d6e63",
        stroke_width=2 if dashed else 6,
        stroke_linecap="round",
    )
    if dashed:
        line.set("stroke-dasharray", "6 4")


def _cells(  # noqa: PLR0917 - a track is its cells and where they go
    d: _Drawer,
    root: ET.Element,
    y: float,
    cells: list[tuple[str, list[int], str, str]],
    group_space: MapSpace,
    per_row: int,
) -> float:
    """A track: cells (title, tiles, subtitle, mark) side by side, ``per_row`` a row."""
    group = el(root, "g", class_="space track", data_space=group_space.id)
    w = (_W - 2 * _M - (per_row - 1) * _GAP) / per_row
    for start in range(0, len(cells), per_row):
        row = cells[start : start + per_row]
        heights = []
        for title, on, subtitle, _ in row:
            size, lines = fit(title, w - 2 * _PAD, _TITLE, lines=2, smallest=7, bold=True)
            sub = 1.2 * 8 + 2 if subtitle else 0
            tiles = len(on) * (_TH + _GAP) - _GAP if on else 0
            heights.append(_PAD + 1.2 * size * len(lines) + sub + 4 + tiles + _PAD)
        h = max(heights)
        for k, (title, on, subtitle, mark) in enumerate(row):
            x = _M + k * (w + _GAP)
            cell = el(group, "g", class_="cell")
            if mark:
                cell.set("data-mark", mark)
            el(
                cell,
                "rect",
                class_="frame",
                x=x,
                y=y,
                width=w,
                height=h,
                rx=3,
                fill="#fbf7ee",
                stroke=_MARK_STROKES.get(mark, "#8d6e63"),
                stroke_width=3 if mark else 1,
            )
            size, lines = fit(title, w - 2 * _PAD, _TITLE, lines=2, smallest=7, bold=True)
            cell.set("font-size", f"{size:g}")
            cell.set("font-weight", "bold")
            ty = y + _PAD
            for line in lines:
                text(cell, x + _PAD, ty + 0.93 * size, line)
                ty += 1.2 * size
            if subtitle:
                small, (line, *_) = fit(subtitle, w - 2 * _PAD, 8, smallest=6)
                text(
                    cell,
                    x + _PAD,
                    ty + 0.93 * small,
                    line,
                    font_size=small,
                    font_weight="normal",
                    fill="#5d4037",
                )
                ty += 1.2 * 8 + 2
            ty += 4
            for tile in on:
                d.tile(cell, tile, x + (w - _TW) / 2, ty, group_space.id)
                ty += _TH + _GAP
        y += h + _GAP
    return y


def _omnibus(d: _Drawer, root: ET.Element, y: float) -> float:
    space = d.spaces["omnibus"]
    y += _heading(root, _M, y, "Omnibus Track (Schism, treasury, Niké, Factions rebuilding…)", 900)
    on = d.tiles(space)
    cells = [
        (str(v), [t for t in on if min(d.state.board.value[t], MAX_TRACK) == v], "", "")
        for v in range(MAX_TRACK + 1)
    ]
    return _cells(d, root, y, cells, space, MAX_TRACK + 1)


def _strategikon(d: _Drawer, root: ET.Element, y: float) -> float:
    space = d.spaces["strategikon"]
    events = d.cat.components.strategikon
    y += _heading(root, _M, y, "Strategikon: the Military Event of the Turn", 900)
    on = d.tiles(space)
    cells = []
    for index, event in enumerate(events, start=1):
        here = [t for t in on if d.state.board.value[t] == index]
        sign = f"{event.drm:+d} on " + " ".join(p.letter for p in event.paths)
        cells.append((event.name, here, sign if event.paths else "no modifier", ""))
    stray = [t for t in on if not 1 <= d.state.board.value[t] <= len(events)]
    if stray:
        cells.append(("No event", stray, "", ""))
    return _cells(d, root, y, cells, space, min(15, len(cells)))


def _chronographia(d: _Drawer, root: ET.Element, y: float) -> float:
    y += _heading(root, _M, y, "Chronographia: one space a Turn, each 40 years", 900)
    chrono = [s for s in d.cat.spaces if s.id.startswith("chronographia-")]
    group = el(root, "g", class_="chronographia")
    cells = []
    for number, space in enumerate(chrono, start=1):
        mark = d.marks.get(space.id, "highlight" if number == d.state.turn else "")
        title = space.name.removeprefix("Chronographia ")
        cells.append((space, title, mark))
    per_row = 14
    w = (_W - 2 * _M - (per_row - 1) * _GAP) / per_row
    for start in range(0, len(cells), per_row):
        row = cells[start : start + per_row]
        h = max(d.height(t, w, len(d.tiles(s)), 1) for s, t, _ in row)
        for k, (space, title, mark) in enumerate(row):
            if mark:
                d.marks[space.id] = mark
            x = _M + k * (w + _GAP)
            d.box(group, space, x, y, w, h, title, 1)
        y += h + _GAP
    return y


def _mugs(d: _Drawer, root: ET.Element, y: float) -> float:
    mugs = [d.spaces[m] for m in _MUGS if m in d.spaces]
    line = "; ".join(f"{m.name} {len(d.tiles(m))}" for m in mugs)
    content = f"Mugs, tiles drawn at random (how many, not which): {line}"
    size, (fitted, *_) = fit(content, _W - 2 * _M, 11, smallest=8)
    node = text(root, _M, y + 0.93 * size, fitted, font_size=size, class_="mugs")
    for m in mugs:
        node.set(f"data-{m.id}", str(len(d.tiles(m))))
    return y + 1.2 * size + 4


def _legend(root: ET.Element, y: float) -> float:
    """Swatches of the tile kinds and the marks, wrapping onto new rows."""
    group = el(root, "g", class_="legend")
    y += _heading(group, _M, y, "Legend", 200)
    items: list[tuple[str, dict[str, object]]] = [
        (kind.value.replace("-", " ").capitalize(), {"fill": colour})
        for kind, colour in _COLOURS.items()
    ]
    items += [
        ("last move", {"fill": "none", "stroke": _MARK_STROKES["last"], "stroke_width": 3}),
        (
            "highlighted, or the current Turn",
            {"fill": "none", "stroke": _MARK_STROKES["highlight"], "stroke_width": 3},
        ),
        (
            "off the map (Counter Tray)",
            {"fill": "#f3ead3", "stroke": "#8d6e63", "stroke_dasharray": "5 3"},
        ),
    ]
    x = _M
    for label, style in items:
        need = 16 + text_width(label, 10) + 18
        if x + need > _W - _M:
            x = _M
            y += 18
        el(group, "rect", x=x, y=y + 2, width=12, height=12, rx=2, **style)
        text(group, x + 16, y + 12, label, font_size=10)
        x += need
    return y + 20
