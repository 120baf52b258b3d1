"""The picture of a state of Sword of Orthodoxy.

Every space of the component files is drawn as a box with what stands on it: the
Paths (western Zones with their Reserves and Tribe, eastern Themas from
Constantinople to the Homeland), Constantinople, the Omnibus Track and the
Strategikon, the rulers, the Pope, the Outposts, the other holding boxes, the
Chronographia and the mugs (by count only: what is in a mug is not to be seen).
Each tile is a ``<g class="tile">`` carrying ``data-tile``, ``data-kind`` and
``data-space`` (its space id), so that a program can check the picture.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, TypeVar

from byzantium.render._svg import document, el, text, to_string
from byzantium.sword_of_orthodoxy.components import MapSpace, SpaceKind, TileKind
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
_COLOURS = {
    TileKind.ARMY: "#c9302c",
    TileKind.TRIBE: "#8a6d3b",
    TileKind.SIEGE: "#555555",
    TileKind.FACTION: "#6f42c1",
    TileKind.OUTPOST: "#2e7d32",
    TileKind.MARKER: "#1565c0",
    TileKind.BASILEUS: "#b8860b",
    TileKind.GOLDEN_BASILEUS: "#b8860b",
    TileKind.DYNASTY: "#b8860b",
    TileKind.PATRIARCH: "#00838f",
}
_W = 1180
_TILE_H = 15


class _Drawer:
    def __init__(self, game: SwordOfOrthodoxy, state: SooState, marks: dict[str, str]) -> None:
        self.ctx = Context(game, None)
        self.cat = self.ctx.cat
        self.state = state
        self.marks = marks
        self.on: dict[int, list[int]] = {}
        for tile, where in enumerate(state.board.where):
            self.on.setdefault(where, []).append(tile)

    def tiles(self, space: MapSpace) -> list[int]:
        return self.on.get(self.cat.space_index[space.id], [])

    def label(self, tile: int) -> str:
        face = self.cat.face(self.state.board, tile)
        kind = self.cat.tiles[tile].kind
        if kind is TileKind.ARMY:
            return f"{face.name} ({army_strength(self.ctx, self.state, tile)})"
        return face.name

    def box(  # noqa: PLR0917 - a box is its space and its rectangle
        self,
        parent: ET.Element,
        space: MapSpace,
        x: float,
        y: float,
        w: float,
        h: float,
        title: str | None = None,
        *,
        values: bool = False,
    ) -> None:
        mark = self.marks.get(space.id, "")
        group = el(parent, "g", class_="space", data_space=space.id)
        stroke = {"last": "#e65100", "highlight": "#d81b60"}.get(mark, "#666")
        el(
            group,
            "rect",
            x=x,
            y=y,
            width=w,
            height=h,
            rx=4,
            fill="#fbf7ee",
            stroke=stroke,
            stroke_width=3 if mark else 1,
        )
        if mark:
            group.set("data-mark", mark)
        text(group, x + 4, y + 12, title or space.name, font_size=11, font_weight="bold")
        row = y + 17
        for tile in self.tiles(space):
            if row + _TILE_H > y + h:
                text(group, x + 4, row + 11, "…", font_size=10)
                break
            kind = self.cat.tiles[tile].kind
            colour = _COLOURS.get(kind, "#424242")
            item = el(
                group,
                "g",
                class_="tile",
                data_tile=self.cat.tiles[tile].id,
                data_kind=kind.value,
                data_space=space.id,
            )
            el(item, "rect", x=x + 3, y=row, width=w - 6, height=_TILE_H - 2, rx=2, fill=colour)
            name = self.label(tile)
            if values:
                name += f": {self.state.board.value[tile]}"
            text(item, x + 6, row + 10, name[: int(w / 6)], font_size=10, fill="white")
            row += _TILE_H


def draw(game: Game[S, A], state: S, *, highlight: set[str], last_move: set[str]) -> str:
    """The SVG of a Sword of Orthodoxy state (the game has no hidden information)."""
    assert isinstance(game, SwordOfOrthodoxy)
    assert isinstance(state, SooState)
    marks = dict.fromkeys(highlight, "highlight") | dict.fromkeys(last_move, "last")
    d = _Drawer(game, state, marks)
    cat = d.cat
    spaces = {s.id: s for s in cat.spaces}
    root = document(_W, 1000)
    el(root, "rect", x=0, y=0, width=_W, height=1000, fill="#efe6d2")
    heading = game.chronicle_heading(state).split("\n", 1)[0] or "Set-up"
    text(
        root, 10, 22, f"Sword of Orthodoxy: {heading.strip('= ')}", font_size=16, font_weight="bold"
    )
    text(root, 10, 40, _pending(state)[:170], font_size=11, class_="pending")
    # The western Paths: Zone name, Tribe, Zone, Reserves.
    y0 = 52.0
    bottom = 390.0
    for i, path in enumerate(WESTERN):
        x = 10 + i * 130
        text(root, x, y0 + 12, f"Path {path.letter}", font_size=13, font_weight="bold")
        parts = [
            s
            for s in cat.spaces
            if s.path is path and s.kind in (SpaceKind.ZONE, SpaceKind.RESERVES)
        ]
        extra = [
            spaces[n]
            for n in (f"tribe-{path.name.lower()}", f"zone-name-{path.name.lower()}")
            if n in spaces
        ]
        y = y0 + 18.0
        for space in [*extra, *parts]:
            h = 30 + 15 * len(d.tiles(space))
            d.box(root, space, x, y, 124, h)
            y += h + 4
            bottom = max(bottom, y)
    # Constantinople.
    city = spaces.get("constantinople")
    if city is not None:
        d.box(root, city, 400, y0, 180, max(330, 30 + 15 * len(d.tiles(city))))
        bottom = max(bottom, y0 + 30 + 15 * len(d.tiles(city)))
    # The eastern Paths: Themas from Constantinople outward.
    for i, path in enumerate(EASTERN):
        x = 590 + i * 196
        text(root, x, y0 + 12, f"Path {path.letter}", font_size=13, font_weight="bold")
        y = y0 + 18.0
        for index in cat.themas(path):
            space = cat.spaces[index]
            h = 30 + 15 * len(d.tiles(space))
            d.box(root, space, x, y, 190, h, f"{space.position}. {space.name}")
            y += h + 4
            bottom = max(bottom, y)
    # The Omnibus Track and the Strategikon.
    y = bottom + 10
    omnibus = spaces.get("omnibus")
    if omnibus is not None:
        y += _track(d, root, omnibus, y)
    strategikon = spaces.get("strategikon")
    if strategikon is not None:
        d.box(root, strategikon, 10, y + 90, 380, 110, values=True)
    # Holding boxes: rulers, Pope, Outposts, the others that are in play.
    drawn = {"constantinople", "omnibus", "strategikon", *_MUGS, *_NOT_DRAWN}
    boxes = [
        s
        for s in cat.spaces
        if s.kind in (SpaceKind.HOLDING, SpaceKind.TRACK)
        and s.id not in drawn
        and not s.id.startswith(("chronographia-", "tribe-", "zone-name-"))
    ]
    y += 90
    per_row = int((_W - 400) // 150)
    for start in range(0, len(boxes), per_row):
        row = boxes[start : start + per_row]
        h = 36 + 15 * max(len(d.tiles(s)) for s in row)
        for k, space in enumerate(row):
            d.box(root, space, 400 + 150 * k, y, 146, h)
        y += h + 4
    y = max(y, 700.0) - 70
    # The Chronographia: one cell per Turn.
    y += 80
    text(root, 10, y + 12, "Chronographia", font_size=13, font_weight="bold")
    chrono = [s for s in cat.spaces if s.id.startswith("chronographia-")]
    tall = 58 + 15 * max(0, max((len(d.tiles(s)) for s in chrono), default=0) - 2)
    for i, space in enumerate(chrono):
        cx = 10 + (i % 9) * 130
        cy = y + 18 + (i // 9) * (tall + 4)
        title = space.name.replace("Chronographia ", "")
        if i + 1 == state.turn:
            marks.setdefault(space.id, "highlight")
        d.box(root, space, cx, cy, 126, tall, title)
    y += 18 + 3 * (tall + 4)
    # The mugs: counts only.
    mugs = [spaces[m] for m in _MUGS if m in spaces]
    line = ", ".join(f"{m.name}: {len(d.tiles(m))}" for m in mugs)
    mug_text = text(root, 10, y + 14, f"Mugs: {line}", font_size=12, class_="mugs")
    for m in mugs:
        mug_text.set(f"data-{m.id}", str(len(d.tiles(m))))
    _legend(root, y + 30)
    root.set("height", str(y + 60))
    root.set("viewBox", f"0 0 {_W} {y + 60}")
    root[0].set("height", str(y + 60))
    return to_string(root)


def _track(d: _Drawer, root: ET.Element, space: MapSpace, y: float) -> float:
    group = el(root, "g", class_="space", data_space=space.id)
    text(group, 10, y + 12, space.name, font_size=13, font_weight="bold")
    cell = 88.0
    on = d.tiles(space)
    counts = [
        sum(1 for t in on if min(d.state.board.value[t], MAX_TRACK) == v)
        for v in range(MAX_TRACK + 1)
    ]
    tall = max(60, 18 + 11 * max(counts))
    for value in range(MAX_TRACK + 1):
        x = 10 + value * cell
        el(group, "rect", x=x, y=y + 18, width=cell - 2, height=tall, fill="#fbf7ee", stroke="#666")
        text(group, x + 3, y + 29, str(value), font_size=10, fill="#666")
        here = [t for t in on if min(d.state.board.value[t], MAX_TRACK) == value]
        for k, tile in enumerate(here):
            item = el(
                group,
                "g",
                class_="tile",
                data_tile=d.cat.tiles[tile].id,
                data_kind=d.cat.tiles[tile].kind.value,
                data_space=space.id,
                data_value=d.state.board.value[tile],
            )
            el(
                item,
                "rect",
                x=x + 2,
                y=y + 32 + k * 11,
                width=cell - 6,
                height=10,
                rx=2,
                fill="#1565c0",
            )
            text(item, x + 4, y + 40 + k * 11, d.label(tile)[:15], font_size=8, fill="white")
    return tall - 60


def _legend(root: ET.Element, y: float) -> None:
    x = 10.0
    text(root, x, y + 12, "Legend:", font_size=11, font_weight="bold")
    x += 55
    for kind, colour in [
        (TileKind.ARMY, "#c9302c"),
        (TileKind.TRIBE, "#8a6d3b"),
        (TileKind.SIEGE, "#555555"),
        (TileKind.FACTION, "#6f42c1"),
        (TileKind.OUTPOST, "#2e7d32"),
        (TileKind.MARKER, "#1565c0"),
    ]:
        el(root, "rect", x=x, y=y + 3, width=12, height=12, fill=colour)
        text(
            root,
            x + 15,
            y + 13,
            kind.value.title() + (" (strength)" if kind is TileKind.ARMY else ""),
            font_size=11,
        )
        x += 120
    el(
        root,
        "rect",
        x=x,
        y=y + 3,
        width=12,
        height=12,
        fill="none",
        stroke="#e65100",
        stroke_width=3,
    )
    text(root, x + 15, y + 13, "last move", font_size=11)
    el(
        root,
        "rect",
        x=x + 90,
        y=y + 3,
        width=12,
        height=12,
        fill="none",
        stroke="#d81b60",
        stroke_width=3,
    )
    text(root, x + 105, y + 13, "highlighted / current Turn", font_size=11)
