"""The picture of a state of Belisarius.

The hex map comes from the component data (:mod:`byzantium.belisarius.hexmap`):
terrain, Regions (outlined, named with their control), cities, roads, rivers and
straits, sea areas and the Peripheral Area boxes. Counters are drawn as counters:
the nationality's colour, a rim in the colour of the side that controls it, a
symbol of the unit type, the nationality's first letters and the printed factors
(combat, operations, provisioning); a Leader shows his name and stars. A stack shows
its top counter (a Leader, else the strongest) with the number of counters under a
badge; each stack is a ``<g class="stack">`` whose ``data-counters`` lists its
counters, and a hidden ``<g class="stack-open">`` with the same ``data-where`` draws
them all with their names (the record viewer shows it on a click). Labels (Regions,
cities, seas) are placed where they cover no other label, city marker or counter.
Pillaged, Colony and Public Works markers mark their hexes; the treasuries and
Stratagem hands are written as far as the viewer may know them. Given a
perspective, every state fact drawn comes from that player's observation (22.0,
22.1), never from the state. Each counter is a ``<g class="counter">`` carrying
``data-counter`` and ``data-where`` (its hex number, or ``box N``).
"""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import HexsideFeature, Terrain, column_of, row_of
from byzantium.belisarius.movement import reachable
from byzantium.belisarius.observation import BelObservation, observe
from byzantium.belisarius.render import _controller
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    PLAYERS,
    BelState,
    Catalog,
)
from byzantium.belisarius.world import enemy_zoc
from byzantium.core.game import SPECTATOR
from byzantium.render._fonts import text_box, text_width
from byzantium.render._svg import document, el, text, to_string

if TYPE_CHECKING:
    from byzantium.core.game import Game

__all__ = ["board", "draw"]

S = TypeVar("S")
A = TypeVar("A")

_R = 15.0  # hex radius
_DX = 1.5 * _R
_DY = math.sqrt(3) * _R
_MARGIN = 6.0  # left of the map
_TOP = 58.0  # above the map: the title and the notice
_K = 22.0  # a counter's side
_CITY = 9.0  # a city marker's side
_TERRAIN = {
    Terrain.CLEAR: "#e8e3b5",
    Terrain.ROUGH: "#c2a878",
    Terrain.MARSH: "#9fc3a0",
    Terrain.DESERT: "#f1d9a0",
    Terrain.SEA: "#a9cbe8",
}
_CONTROL = {Control.EMPIRE: "#7b1fa2", Control.BARBARIAN: "#2e7d32", Control.NEUTRAL: "#616161"}
_SIDE = {EMPIRE: "#7b1fa2", BARBARIAN: "#2e7d32"}
_NAME = {EMPIRE: "Empire", BARBARIAN: "Barbarian"}
_NEUTRAL_RIM = "#757575"
#: Counter colours by nationality (a colour made from the name for any other).
_NATION = {
    "guard": "#f3d36b",
    "thracia": "#d9b3ea",
    "illyricum": "#c5b7f0",
    "achaea": "#e7c6f5",
    "lydia": "#f2b6d4",
    "cappadocia": "#c9a0dc",
    "syria": "#e0a6c8",
    "aegyptus": "#f5c9a8",
    "persia": "#9fd5a0",
    "armenia": "#c4e3a2",
    "lazica": "#a8e0cc",
    "arabia": "#efe09a",
    "nubia": "#d7c08c",
    "garamantes": "#e8cf9e",
    "ostrogoths": "#9ec5f0",
    "visigoths": "#a9d8f5",
    "franks": "#f5a9a0",
    "burgundy": "#e6a3a3",
    "vandals": "#b5c7d9",
    "lombards": "#b8e6e0",
    "gepidae": "#d4e6b8",
    "slavs": "#f0d0a8",
    "scythia": "#d9d2b0",
    "suevii": "#c7d8a8",
    "basques": "#e3c0b0",
    "mauretania": "#f0e0c0",
}
Rect = tuple[float, float, float, float]


@functools.lru_cache(maxsize=8192)
def centre(hex_number: int) -> tuple[float, float]:
    """The centre of a hex on the picture (flat-topped, even columns half a hex lower)."""
    col, row = column_of(hex_number), row_of(hex_number)
    x = _R + (col - 1) * _DX + _MARGIN
    y = _DY / 2 + (row - 1) * _DY + (_DY / 2 if col % 2 == 0 else 0) + _TOP
    return x, y


def _corners(x: float, y: float) -> str:
    return " ".join(
        f"{x + _R * math.cos(math.pi / 3 * k):.1f},{y + _R * math.sin(math.pi / 3 * k):.1f}"
        for k in range(6)
    )


def _outline(parent: ET.Element, hex_number: int, kind: str, **style: str | float) -> None:
    """An overlay polygon over one hex: its ``class`` is ``kind``, its ``data-hex`` the
    hex number, and ``style`` its fill and stroke."""
    x, y = centre(hex_number)
    el(
        parent,
        "polygon",
        points=_corners(x, y),
        **style,
        class_=kind,
        data_hex=f"{hex_number:04d}",
    )


def _side(a: int, b: int) -> tuple[float, float, float, float]:
    """The two ends of the hexside between adjacent hexes."""
    ax, ay = centre(a)
    bx, by = centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy) or 1.0
    half = _R / 2
    return (
        mx - dy / length * half,
        my + dx / length * half,
        mx + dy / length * half,
        my - dx / length * half,
    )


def _name(game: Belisarius, unit: int) -> str:
    counter = game.catalog.counters[unit]
    if counter.leader:
        return counter.leader.replace("-", " ").title() + "*" * counter.stars
    return f"{counter.nationality.title()} {counter.kind.value}"


def map_layer(game: Belisarius) -> ET.Element:
    """The static map (the same in every state), as an SVG group ``id="map"``."""
    hexmap = game.catalog.map
    group = ET.Element("g", {"id": "map"})
    terrain = el(group, "g", class_="terrain")
    for h in hexmap.hexes():
        x, y = centre(h)
        el(
            terrain,
            "polygon",
            points=_corners(x, y),
            fill=_TERRAIN[hexmap.terrain_at(h)],
            stroke="#ffffff",
            stroke_width=0.3,
            data_hex=f"{h:04d}",
        )
    sides = el(group, "g", class_="hexsides")
    colours = {
        HexsideFeature.RIVER: ("#1e88e5", 2.2),
        HexsideFeature.STRAIT: ("#0d47a1", 3.0),
        HexsideFeature.SEA: ("#64b5f6", 2.0),
        HexsideFeature.PASS: ("#6d4c41", 2.5),
    }
    for side in hexmap.hexsides:
        if side.feature is HexsideFeature.ROAD:
            (ax, ay), (bx, by) = centre(side.a), centre(side.b)
            el(
                sides,
                "line",
                x1=ax,
                y1=ay,
                x2=bx,
                y2=by,
                stroke="#8d6e63",
                stroke_width=1.6,
                stroke_dasharray="3,1",
            )
            continue
        colour, width = colours[side.feature]
        x1, y1, x2, y2 = _side(side.a, side.b)
        el(sides, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=width)
    borders = el(group, "g", class_="region-borders")
    for h in hexmap.hexes():
        here = hexmap.region_at(h)
        for n in hexmap.neighbours(h):
            if n > h and hexmap.region_at(n) != here:
                x1, y1, x2, y2 = _side(h, n)
                el(borders, "line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#3e2723", stroke_width=1.2)
    cities = el(group, "g", class_="cities")
    for city in hexmap.cities:
        x, y = centre(city.hex)
        el(
            cities,
            "rect",
            x=x - _CITY / 2,
            y=y - _CITY / 2,
            width=_CITY,
            height=_CITY,
            fill="#b71c1c" if city.capital else "#424242",
            stroke="white",
            stroke_width=0.8,
            class_="city",
            data_city=city.name,
        )
    return group


def _nation_colour(nationality: str) -> str:
    found = _NATION.get(nationality)
    if found is not None:
        return found
    hue = sum(ord(c) * 31**k for k, c in enumerate(nationality)) % 360
    return f"hsl({hue}, 55%, 78%)"


def _symbol(parent: ET.Element, kind: UnitKind, x: float, y: float) -> None:
    """The unit-type symbol in a 12 by 8 box whose top left corner is (x, y)."""
    ink = {"stroke": "#212121", "stroke_width": 0.9, "fill": "none"}
    if kind is UnitKind.LEADER:
        return
    if kind is UnitKind.FLEET:
        el(parent, "path", d=f"M{x} {y + 4}h12l-2.5 4h-7z", fill="#212121")
        el(parent, "path", d=f"M{x + 6} {y + 4}V{y}l3.5 3z", **ink)
        return
    if kind is UnitKind.GARRISON:
        d = f"M{x + 1} {y + 8}V{y}h2.5v2h2.5v-2h2.5v2h2.5v-2H{x + 11}v8z"
        el(parent, "path", d=d, **ink)
        return
    el(parent, "rect", x=x, y=y, width=12, height=8, **ink)
    if kind in (UnitKind.FIELD_ARMY, UnitKind.GUARD, UnitKind.MUTINYING_GUARD):
        el(parent, "path", d=f"M{x} {y}l12 8M{x} {y + 8}l12 -8", **ink)
    elif kind is UnitKind.WARBAND:
        el(parent, "path", d=f"M{x} {y + 8}l12 -8", **ink)
    elif kind is UnitKind.NOMAD_HORDE:
        el(parent, "path", d=f"M{x} {y + 8}l12 -8", **ink)
        el(parent, "ellipse", cx=x + 6, cy=y + 4, rx=3, ry=1.8, **ink)
    if kind is UnitKind.GUARD:
        el(parent, "path", d=f"M{x + 3} {y - 1}h6", stroke="#212121", stroke_width=1.2)


def _counter(
    parent: ET.Element,
    game: Belisarius,
    view: BelObservation,
    unit: int,
    *,
    x: float,
    y: float,
    label: str,
) -> ET.Element:
    """One counter, its top left corner at (x, y): a ``<g class="counter">``."""
    cat = game.catalog
    counter = cat.counters[unit]
    owner = _side_of(cat, view, unit)
    group = el(
        parent,
        "g",
        class_="counter",
        transform=f"translate({x:.1f},{y:.1f})",
        data_counter=counter.id,
        data_where=label,
        data_side=str(owner),
    )
    el(
        group,
        "rect",
        x=0.8,
        y=0.8,
        width=_K - 1.6,
        height=_K - 1.6,
        rx=2,
        fill=_nation_colour(counter.nationality),
        stroke=_SIDE.get(owner, _NEUTRAL_RIM),
        stroke_width=1.6,
    )
    middle = _K / 2
    if counter.leader:
        text(group, middle, 7.5, "\u2605" * counter.stars, font_size=6, text_anchor="middle")
        name = _leader_name(counter.leader)
        size = min(5.5, 19 * 5.5 / text_width(name, 5.5, bold=True))
        text(
            group,
            middle,
            13.8,
            name,
            font_size=round(size, 1),
            font_weight="bold",
            text_anchor="middle",
        )
    else:
        _symbol(group, counter.kind, middle - 6, 2.8)
        text(
            group,
            middle,
            15.2,
            counter.nationality[:3].title(),
            font_size=5,
            text_anchor="middle",
            font_weight="bold",
        )
    text(
        group,
        middle,
        20.3,
        f"{counter.combat}-{counter.operations}-{counter.provisioning}",
        font_size=5.5,
        text_anchor="middle",
    )
    return group


def _leader_name(leader: str) -> str:
    return leader.replace("-", " ").title()


def _top(game: Belisarius, units: list[int]) -> int:
    """The counter a stack shows on top: a Leader, else the strongest (the first)."""
    counters = game.catalog.counters
    return min(units, key=lambda u: (not counters[u].leader, -counters[u].combat, u))


def _place_name(game: Belisarius, at: int) -> str:
    hexmap = game.catalog.map
    city = next((c.name for c in hexmap.cities if c.hex == at), "")
    region = hexmap.region_at(at)
    where = city or f"hex {at:04d}"
    return where if region is None else f"{where} ({region.name})"


class _Space:
    """The boxes already taken on the picture, by a coarse grid for quick tests."""

    def __init__(self, bounds: Rect, cell: float = 40.0) -> None:
        self.bounds = bounds
        self.cell = cell
        self.grid: dict[tuple[int, int], list[Rect]] = {}
        #: Every box taken, in order.
        self.taken: list[Rect] = []

    def _cells(self, box: Rect) -> list[tuple[int, int]]:
        c = self.cell
        return [
            (i, j)
            for i in range(int(box[0] // c), int(box[2] // c) + 1)
            for j in range(int(box[1] // c), int(box[3] // c) + 1)
        ]

    def take(self, box: Rect) -> None:
        self.taken.append(box)
        for key in self._cells(box):
            self.grid.setdefault(key, []).append(box)

    def free(self, box: Rect, pad: float = 1.0) -> bool:
        left, top, right, bottom = self.bounds
        if box[0] < left or box[1] < top or box[2] > right or box[3] > bottom:
            return False
        for key in self._cells(box):
            for o in self.grid.get(key, ()):
                if (
                    box[0] < o[2] + pad
                    and o[0] < box[2] + pad
                    and box[1] < o[3] + pad
                    and o[1] < box[3] + pad
                ):
                    return False
        return True


def _label(
    parent: ET.Element,
    space: _Space,
    spots: list[tuple[float, float]],
    content: str,
    size: float,
    *,
    bold: bool = True,
    **attrs: object,
) -> ET.Element:
    """A label centred on the first of ``spots`` where it covers nothing taken, in
    a smaller size where none is free at its own (on the first spot when none is free
    at all), taking its box."""

    def box_at(x: float, y: float, size: float) -> tuple[float, Rect]:
        # (x, y) is the wanted centre of the text's box; the baseline is below it.
        baseline = y + (0.93 - 0.24) * size / 2
        return baseline, text_box(x, baseline, content, size, bold=bold, anchor="middle")

    chosen = None
    for shrink in (1.0, 0.85, 0.72):
        for x, y in spots:
            baseline, box = box_at(x, y, round(size * shrink, 1))
            if space.free(box):
                chosen = (x, baseline, box)
                break
        if chosen is not None:
            size = round(size * shrink, 1)
            break
    if chosen is None:
        x, y = spots[0]
        baseline, box = box_at(x, y, size)
        chosen = (x, baseline, box)
    x, baseline, box = chosen
    space.take(box)
    group = el(parent, "g", class_="label")
    el(
        group,
        "rect",
        x=box[0] - 1.5,
        y=box[1],
        width=box[2] - box[0] + 3,
        height=box[3] - box[1],
        rx=2,
        fill="#f5f5f0",
        fill_opacity=0.8,
        class_="plate",
    )
    return text(
        group,
        x,
        baseline,
        content,
        font_size=size,
        text_anchor="middle",
        **({"font_weight": "bold"} if bold else {}),
        **attrs,
    )


def _around(hexes: list[int]) -> list[tuple[float, float]]:
    """Spots for a label over an area: its hexes' centres, and the points between
    neighbouring centres, nearest the area's middle first."""
    return list(_spots(tuple(hexes)))


@functools.lru_cache(maxsize=512)
def _spots(hexes: tuple[int, ...]) -> tuple[tuple[float, float], ...]:
    if not hexes:
        return ()
    points = [centre(h) for h in hexes]
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    spots = points + [(x, y + _DY / 2) for x, y in points]
    return tuple(sorted(spots, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2))


def draw(
    game: Game[S, A],
    state: S,
    perspective: int | None,
    *,
    highlight: set[int],
    last_move: set[int],
    reachable_for: tuple[int, ...] | None,
    zoc: bool,
    with_map: bool | None = True,
    labels_cache: dict[object, ET.Element] | None = None,
) -> str:
    """The SVG of a Belisarius state, as ``perspective`` may see it (all when None).

    ``with_map`` False refers to the map layer as ``#map`` (a page that holds it once);
    None leaves it out and draws the backdrop around it only: the overlay that,
    drawn over :func:`board` at the same origin and scale, gives the same picture.

    ``labels_cache`` (one dict for the pictures of one game, as the record viewer
    draws them) keeps the placed labels: they follow only from the boxes the counters
    and markers take and from the Regions' control, which seldom change between steps.
    """
    assert isinstance(game, Belisarius)
    assert isinstance(state, BelState)
    cat = game.catalog
    hexmap = cat.map
    ctx = Context(game, None)
    view = observe(ctx, state, EMPIRE if perspective is None else perspective)
    map_right = _MARGIN + 2 * _R + (hexmap.columns - 1) * _DX + 4
    map_bottom = _TOP + hexmap.rows * _DY + _DY / 2 + 4
    box_x = map_right + 10
    box_w = 8 * (_K + 3) + 10
    width = box_x + box_w + 8
    # Stacks: counters by place.
    places: dict[int, list[int]] = {}
    for unit, at in enumerate(view.units.where):
        if at > AVAILABLE:
            places.setdefault(at, []).append(unit)
    # Peripheral Area boxes: a header and rows of counters, as tall as they need.
    box_tops: list[tuple[float, float]] = []
    y = _TOP
    for i, _area in enumerate(cat.peripherals):
        rows = max(1, math.ceil(len(places.get(i + 1, [])) / 8))
        tall = 34 + rows * (_K + 3) + 4
        box_tops.append((y, tall))
        y += tall + 8
    body_bottom = max(map_bottom, y)
    root = document(0, 0)  # sized below, once the text under the map is laid out
    if with_map is None:
        # The backdrop with a hole where the board lies (even-odd: the hole is unpainted).
        backdrop = el(root, "path", d="", fill="#f5f5f0", fill_rule="evenodd")
    else:
        backdrop = el(root, "rect", x=0, y=0, width=0, height=0, fill="#f5f5f0")
    if with_map:
        root.append(map_layer(game))
    elif with_map is not None:
        el(root, "use", href="#map")
    _title(root, game, view, perspective, width)
    overlay = el(root, "g", class_="overlay")
    _overlays(
        overlay, game, state, highlight=highlight, last_move=last_move, force=reachable_for, zoc=zoc
    )
    space = _Space((0, _TOP, map_right, map_bottom))
    for city in hexmap.cities:
        x, y = centre(city.hex)
        space.take((x - _CITY / 2, y - _CITY / 2, x + _CITY / 2, y + _CITY / 2))
    stacks = el(root, "g", class_="stacks")
    opened = ET.Element("g", {"class": "stack-lists"})
    for at, units in sorted(places.items()):
        label = f"box {at}" if at < FIRST_HEX else f"{at:04d}"
        if at < FIRST_HEX:
            top, _tall = box_tops[at - 1]
            group = el(stacks, "g", class_="box-counters", data_where=label)
            for k, unit in enumerate(units):
                cx = box_x + 6 + (k % 8) * (_K + 3)
                cy = top + 34 + (k // 8) * (_K + 3)
                tip = el(_counter(group, game, view, unit, x=cx, y=cy, label=label), "title")
                tip.text = _unit_name(game, unit)
            continue
        x, y = centre(at)
        _stack(stacks, opened, game, view, units, at=at, label=label, x=x, y=y, width=width)
        depth = min(len(units) - 1, 2) * 1.5
        space.take((x - _K / 2 - 1, y - _K / 2 - 1 - depth, x + _K / 2 + 1 + depth, y + _K / 2))
        if len(units) > 1:
            space.take((x + _K / 2 - 6, y - _K / 2 - 7, x + _K / 2 + 7, y - _K / 2 + 6))
    markers = el(root, "g", class_="markers")
    for h, mark_label, colour in (
        [(h, "P", "#000") for h in view.markers.pillaged]
        + [(h, "C", "#1b5e20") for h in view.markers.colonies]
        + [(h, "W", "#0d47a1") for h in view.markers.works]
    ):
        x, y = centre(h)
        mx, my = x - _K / 2 + 1, y - _K / 2 + 1
        mark = el(markers, "g", class_="marker", data_hex=f"{h:04d}", data_marker=mark_label)
        el(mark, "circle", cx=mx, cy=my, r=4.5, fill="white", stroke=colour)
        text(mark, mx, my + 2.5, mark_label, font_size=6.5, text_anchor="middle", fill=colour)
        space.take((mx - 5, my - 5, mx + 5, my + 5))
    key = (tuple(space.taken), view.control)
    labels = None if labels_cache is None else labels_cache.get(key)
    if labels is None:
        labels = ET.Element("g", {"class": "labels"})
        _city_labels(labels, space, game)
        _region_labels(labels, space, game, view)
        _sea_labels(labels, space, game)
        if labels_cache is not None:
            if len(labels_cache) > 256:
                labels_cache.clear()
            labels_cache[key] = labels
    root.append(labels)
    _boxes(root, game, view, box_x=box_x, box_w=box_w, box_tops=box_tops)
    bottom = _text_below(
        root, game, state, view, perspective=perspective, y=body_bottom + 22, width=width
    )
    root.append(opened)
    height = math.ceil(bottom + 8)
    width = math.ceil(width)
    root.attrib.update(
        {"width": f"{width}", "height": f"{height}", "viewBox": f"0 0 {width} {height}"}
    )
    if with_map is None:
        bw, bh = _board_size(game)
        backdrop.set("d", f"M0 0H{width}V{height}H0Z M0 0H{bw}V{bh}H0Z")
    else:
        backdrop.attrib.update({"width": f"{width}", "height": f"{height}"})
    return to_string(root)


def _board_size(game: Belisarius) -> tuple[int, int]:
    """The size of :func:`board`: the map and its margins (every picture is at least
    this wide and tall)."""
    hexmap = game.catalog.map
    map_right = _MARGIN + 2 * _R + (hexmap.columns - 1) * _DX + 4
    map_bottom = _TOP + hexmap.rows * _DY + _DY / 2 + 4
    return math.floor(map_right), math.floor(map_bottom)


def board(game: Game[S, A]) -> str:
    """The map layer alone on its backdrop, as an SVG document: the same for every
    state of a game with these components, so a server sends it once. A state's
    picture is this with :func:`draw`'s overlay (``with_map=None``) drawn over it."""
    assert isinstance(game, Belisarius)
    width, height = _board_size(game)
    root = document(width, height)
    el(root, "rect", x=0, y=0, width=width, height=height, fill="#f5f5f0")
    root.append(map_layer(game))
    return to_string(root)


def _unit_name(game: Belisarius, unit: int) -> str:
    counter = game.catalog.counters[unit]
    factors = f"{counter.combat}-{counter.operations}-{counter.provisioning}"
    if counter.leader:
        return f"{_leader_name(counter.leader)} {'*' * counter.stars} (Leader, {factors})"
    kind = counter.kind.value.replace("-", " ")
    return f"{counter.nationality.title()} {kind} {factors}"


def _stack(
    stacks: ET.Element,
    opened: ET.Element,
    game: Belisarius,
    view: BelObservation,
    units: list[int],
    *,
    at: int,
    label: str,
    x: float,
    y: float,
    width: float,
) -> None:
    """A stack on a hex: the counters under as edges, the top counter, the count;
    and, hidden in ``opened``, every counter of it with its name."""
    cat = game.catalog
    top = _top(game, units)
    order = [top] + [u for u in units if u != top]
    stack = el(
        stacks,
        "g",
        class_="stack",
        data_where=label,
        data_count=str(len(units)),
        data_counters=" ".join(cat.counters[u].id for u in order),
        style="cursor:pointer" if len(units) > 1 else "",
    )
    if len(units) == 1:
        del stack.attrib["style"]
    tip = el(stack, "title")
    tip.text = f"{_place_name(game, at)}: " + "; ".join(_unit_name(game, u) for u in order)
    left, upper = x - _K / 2, y - _K / 2
    for k in range(min(len(units) - 1, 2), 0, -1):
        el(
            stack,
            "rect",
            x=left + 1.5 * k,
            y=upper - 1.5 * k,
            width=_K - 1,
            height=_K - 1,
            rx=2,
            fill="#fafafa",
            stroke="#424242",
            stroke_width=0.6,
        )
    _counter(stack, game, view, top, x=left, y=upper, label=label)
    if len(units) < 2:
        return
    bx, by = left + _K, upper
    el(stack, "circle", cx=bx, cy=by, r=6, fill="#212121", stroke="white", stroke_width=0.8)
    text(
        stack,
        bx,
        by + 2.6,
        str(len(units)),
        font_size=7.5,
        font_weight="bold",
        fill="white",
        text_anchor="middle",
        class_="count",
    )
    # The open stack: every counter with its name, beside the hex.
    names = [_unit_name(game, u) for u in order]
    panel_w = 16 + _K + 6 + max(text_width(n, 8) for n in [*names, _place_name(game, at)])
    panel_h = 26 + len(order) * (_K + 3) + 4
    px = x + _K if x + _K + panel_w < width else x - _K - panel_w
    py = max(_TOP, y - panel_h / 2)
    panel = el(opened, "g", class_="stack-open", data_where=label, display="none")
    el(
        panel,
        "rect",
        x=px,
        y=py,
        width=panel_w,
        height=panel_h,
        rx=4,
        fill="white",
        stroke="#212121",
        stroke_width=1,
        fill_opacity=0.96,
    )
    text(panel, px + 8, py + 16, _place_name(game, at), font_size=9, font_weight="bold")
    for k, unit in enumerate(order):
        cy = py + 24 + k * (_K + 3)
        _counter(panel, game, view, unit, x=px + 8, y=cy, label=label)
        text(panel, px + 8 + _K + 6, cy + _K / 2 + 3, names[k], font_size=8)


def _title(
    root: ET.Element,
    game: Belisarius,
    view: BelObservation,
    perspective: int | None,
    width: float,
) -> None:
    scenario = game.scenario
    if view.turn < 1:
        when = "set-up"
    else:
        first_year = 527 + 4 * (view.turn - 1)
        when = (
            f"Game Turn {view.turn} ({first_year}-{first_year + 3} AD), "
            f"the {_NAME[view.phasing]} player's turn, {view.phase} phase"
        )
    text(
        root,
        _MARGIN + 2,
        22,
        f"Belisarius, scenario {scenario.number} ({scenario.name}): {when}",
        font_size=16,
        font_weight="bold",
        class_="title",
    )
    who = (
        "Everything shown (both players' secrets)"
        if perspective is None
        else "As a spectator sees it (neither player's secrets)"
        if perspective == SPECTATOR
        else f"As the {_NAME[perspective]} player sees it"
    )
    text(root, _MARGIN + 2, 42, who, font_size=11, class_="seat")
    text(
        root,
        width - 8,
        42,
        "PROVISIONAL MAP: a schematic sketch, no printed map in our copy",
        font_size=11,
        fill="#b71c1c",
        text_anchor="end",
        font_weight="bold",
    )


def _overlays(
    overlay: ET.Element,
    game: Belisarius,
    state: BelState,
    *,
    highlight: set[int],
    last_move: set[int],
    force: tuple[int, ...] | None,
    zoc: bool,
) -> None:
    cat = game.catalog
    hexmap = cat.map
    player = state.phasing
    if zoc:
        for h in sorted(enemy_zoc(cat, state, player)):
            _outline(overlay, h, "zoc", fill="#ff7043", fill_opacity=0.35)
    where, points = 0, Fraction(0)
    task = state.pending.task if state.pending is not None else None
    if force == () and task is not None:
        force = tuple(getattr(task, "force", ()))
        where = int(getattr(task, "where", 0))
        points = Fraction(getattr(task, "points", 0))
    elif force:
        where = state.units.where[force[0]]
        points = Fraction(max(cat.counters[u].operations for u in force))
    if force and where >= FIRST_HEX and not any(cat.naval[u] for u in force):
        try:
            hexes = reachable(cat, state, force, where, points)
        except ValueError:
            hexes = {}
        for h in sorted(hexes):
            if h >= FIRST_HEX:
                _outline(overlay, h, "reachable", fill="#ffee58", fill_opacity=0.55)
    for marked, kind, colour in (
        (highlight, "highlight", "#d81b60"),
        (last_move, "last", "#e65100"),
    ):
        for h in sorted(marked):
            if h >= FIRST_HEX and h in hexmap:
                _outline(overlay, h, kind, fill="none", stroke=colour, stroke_width=3)


def _city_labels(labels: ET.Element, space: _Space, game: Belisarius) -> None:
    """City names beside their markers: above, below, right or left of the hex."""
    for city in game.catalog.map.cities:
        x, y = centre(city.hex)
        name = city.name + (" ($)" if city.treasury else "")
        half = text_width(name, 8, bold=True) / 2
        spots = [
            (x, y - _K / 2 - 6),
            (x, y + _K / 2 + 6),
            (x + _K / 2 + 3 + half, y),
            (x - _K / 2 - 3 - half, y),
            (x + _K / 2 + half, y - _K / 2 - 4),
            (x - _K / 2 - half, y - _K / 2 - 4),
            (x + _K / 2 + half, y + _K / 2 + 4),
            (x - _K / 2 - half, y + _K / 2 + 4),
        ]
        for ring in (1.0, 1.5, 2.1, 2.8):
            for k in range(16):
                angle = math.pi * (k / 8 - 0.5)
                spots.append(
                    (
                        x + math.cos(angle) * (_K / 2 + 3 + half) * ring,
                        y + math.sin(angle) * (_K / 2 + 6) * ring,
                    )
                )
        _label(labels, space, spots, name, 8, class_="city-label", data_city=city.name)


def _region_labels(
    labels: ET.Element, space: _Space, game: Belisarius, view: BelObservation
) -> None:
    cat = game.catalog
    for index, region in enumerate(cat.regions):
        land = list(cat.region_land[index] or cat.region_hexes[index])
        land = [h for h in land if h >= FIRST_HEX and h in cat.map]
        if not land:
            continue
        control = view.control[index]
        _label(
            labels,
            space,
            _around(land),
            f"{region.name} ({control.value.title()})",
            10,
            fill=_CONTROL[control],
            class_="region-label",
            data_region=region.name,
            data_control=control.value,
        )


def _sea_labels(labels: ET.Element, space: _Space, game: Belisarius) -> None:
    for sea in game.catalog.map.sea_areas:
        if sea.hexes:
            _label(
                labels,
                space,
                _around(list(sea.hexes)),
                sea.name,
                10,
                bold=False,
                font_style="italic",
                fill="#1a4f7a",
                class_="sea-label",
            )


def _boxes(
    root: ET.Element,
    game: Belisarius,
    view: BelObservation,
    *,
    box_x: float,
    box_w: float,
    box_tops: list[tuple[float, float]],
) -> None:
    """The Peripheral Area boxes, drawn under their counters."""
    cat = game.catalog
    group = ET.Element("g", {"class": "boxes"})
    for i, area in enumerate(cat.peripherals):
        y, tall = box_tops[i]
        control = view.control[cat.region_index[area.region]]
        el(
            group,
            "rect",
            x=box_x,
            y=y,
            width=box_w,
            height=tall,
            fill="#fffde7",
            stroke=_CONTROL[control],
            stroke_width=2,
            class_="box",
            data_box=area.name,
        )
        text(
            group,
            box_x + 6,
            y + 14,
            f"{area.name} ({control.value.title()})",
            font_size=11,
            font_weight="bold",
            fill=_CONTROL[control],
        )
        text(
            group,
            box_x + 6,
            y + 27,
            f"Peripheral Area: Solidus {area.solidus}, Forage {area.forage}",
            font_size=9,
        )
    # Under the counters: before the stacks' layer.
    stacks = next(g for g in root if g.get("class") == "stacks")
    root.insert(list(root).index(stacks), group)


_ID = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b")


def _named(game: Belisarius, words: str) -> str:
    """``words`` with every counter id replaced by the counter's name."""
    names = _counter_names(game.catalog)
    return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), words)


def _counter_names(cat: Catalog) -> dict[str, str]:
    names = {}
    for c in cat.counters:
        if c.leader:
            names[c.id] = _leader_name(c.leader)
        else:
            names[c.id] = f"{c.nationality.title()} {c.kind.value.replace('-', ' ')}"
    return names


def _wrap(content: str, size: float, room: float) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in content.split(" "):
        attempt = f"{line} {word}" if line else word
        if line and text_width(attempt, size) > room:
            lines.append(line)
            line = word
        else:
            line = attempt
    return [*lines, line]


def _text_below(
    root: ET.Element,
    game: Belisarius,
    state: BelState,
    view: BelObservation,
    *,
    perspective: int | None,
    y: float,
    width: float,
) -> float:
    """Treasuries and hands as far as the viewer may know them, the question
    pending, and the legend; returns the bottom."""
    cat = game.catalog
    for p in PLAYERS:
        if perspective is None:
            treasury: int | None = state.solidus[p]
            hand: tuple[int, ...] | None = state.stratagems.hands[p]
        elif p == perspective:
            treasury, hand = view.treasury, view.hand
        else:
            treasury, hand = view.other_treasury, view.other_hand
        money = "treasury hidden" if treasury is None else f"{treasury} Solidus"
        held = f"{view.hand_sizes[p]} Stratagems"
        if hand is not None:
            names = [
                n if c == 1 else f"{n} x{c}"
                for n, c in zip(cat.stratagem_ids, hand, strict=True)
                if c
            ]
            held += ": " + (", ".join(n.replace("-", " ") for n in names) or "none")
        text(
            root,
            _MARGIN + 2,
            y,
            f"{_NAME[p]}: {money}; {held}",
            font_size=12,
            fill=_SIDE[p],
            class_="treasury",
            data_player=str(p),
            font_weight="bold",
        )
        y += 16
    text(root, _MARGIN + 2, y, f"Pool: {view.pool_size} Stratagems", font_size=12)
    y += 16
    pending = view.pending
    if view.ending is not None:
        what = f"Game over: {view.ending.reason} (rule {view.ending.rule})"
    elif pending is None:
        what = "Nothing is asked."
    else:
        asked = _named(game, pending.prompt)
        asked = asked[:1].upper() + asked[1:]
        what = f"Now: {asked} (rule {pending.rule})"
    for line in _wrap(what[:400], 12, width - 2 * _MARGIN - 8):
        text(root, _MARGIN + 2, y, line, font_size=12, class_="pending")
        y += 16
    return _legend(root, y + 6, width)


def _legend(root: ET.Element, y: float, width: float) -> float:
    """The key, in rows that fit the picture's width; returns its bottom."""
    legend = el(root, "g", class_="legend")
    right = width - _MARGIN
    x = _MARGIN + 2
    row = y

    def room(need: float) -> tuple[float, float]:
        nonlocal x, row
        if x + need > right:
            x = _MARGIN + 2
            row += 22
        at = (x, row)
        x += need + 14
        return at

    text(legend, x, row + 12, "Key:", font_size=10, font_weight="bold")
    x += 30
    for kind, name in (
        (UnitKind.FIELD_ARMY, "Field Army"),
        (UnitKind.WARBAND, "Warband"),
        (UnitKind.NOMAD_HORDE, "Nomad Horde"),
        (UnitKind.GARRISON, "Garrison"),
        (UnitKind.FLEET, "Fleet"),
        (UnitKind.GUARD, "Guard"),
    ):
        ax, ay = room(16 + text_width(name, 10))
        _symbol(legend, kind, ax, ay + 5)
        text(legend, ax + 16, ay + 12, name, font_size=10)
    note = "a counter: nationality colour and letters, type, combat-operations-provisioning"
    ax, ay = room(text_width(note, 10))
    text(legend, ax, ay + 12, note, font_size=10)
    for colour, name in (
        (_SIDE[EMPIRE], "rim: Empire counter"),
        (_SIDE[BARBARIAN], "rim: Barbarian counter"),
        (_NEUTRAL_RIM, "rim: Neutral counter"),
    ):
        ax, ay = room(16 + text_width(name, 10))
        el(
            legend,
            "rect",
            x=ax,
            y=ay + 2,
            width=12,
            height=12,
            fill="white",
            stroke=colour,
            stroke_width=2,
        )
        text(legend, ax + 16, ay + 12, name, font_size=10)
    note = "black badge: counters in the stack (click to list them)"
    ax, ay = room(text_width(note, 10))
    text(legend, ax, ay + 12, note, font_size=10)
    for colour, name in [(_TERRAIN[t], t.value) for t in Terrain] + [
        ("#ffee58", "reachable"),
        ("#ff7043", "enemy Zone of Control"),
    ]:
        ax, ay = room(16 + text_width(name, 10))
        el(
            legend,
            "rect",
            x=ax,
            y=ay + 2,
            width=12,
            height=12,
            fill=colour,
            stroke="#333",
            stroke_width=0.5,
        )
        text(legend, ax + 16, ay + 12, name, font_size=10)
    for note in (
        "blue hexside: river; dark blue: strait; dashed brown: road",
        "square: city (red: the capital; $: treasury)",
        "P, C, W: Pillaged, Colony, Public Works",
        "orange outline: last move",
    ):
        ax, ay = room(text_width(note, 10))
        text(legend, ax, ay + 12, note, font_size=10)
    return row + 22


def _side_of(cat: Catalog, view: BelObservation, unit: int) -> int:
    return _controller(cat, view, unit)
