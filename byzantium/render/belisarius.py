"""The picture of a state of Belisarius.

The hex map comes from the component data (:mod:`byzantium.belisarius.hexmap`):
terrain, Regions (outlined, named with their control), cities, roads, rivers and
straits, sea areas and the Peripheral Area boxes. Stacks show their counters;
Pillaged, Colony and Public Works markers their hexes; the treasuries and
Stratagem hands as far as the viewer may know them. Given a perspective, every
state fact drawn comes from that player's observation (22.0, 22.1), never from the
state. Each counter is a ``<g class="counter">`` carrying ``data-counter`` and
``data-where`` (its hex number, or ``box N``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

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
from byzantium.belisarius.world import controller, enemy_zoc
from byzantium.render._svg import document, el, text, to_string

if TYPE_CHECKING:
    from byzantium.core.game import Game

__all__ = ["draw"]

S = TypeVar("S")
A = TypeVar("A")

_R = 11.0  # hex radius
_DX = 1.5 * _R
_DY = math.sqrt(3) * _R
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


def centre(hex_number: int) -> tuple[float, float]:
    """The centre of a hex on the picture (flat-topped, even columns half a hex lower)."""
    col, row = column_of(hex_number), row_of(hex_number)
    x = _R + (col - 1) * _DX + 4
    y = _DY / 2 + (row - 1) * _DY + (_DY / 2 if col % 2 == 0 else 0) + 30
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
    for sea in hexmap.sea_areas:
        if sea.hexes:
            xs, ys = zip(*(centre(h) for h in sea.hexes), strict=True)
            text(
                group,
                sum(xs) / len(xs),
                sum(ys) / len(ys),
                sea.name,
                font_size=10,
                font_style="italic",
                fill="#1a4f7a",
                text_anchor="middle",
            )
    cities = el(group, "g", class_="cities")
    for city in hexmap.cities:
        x, y = centre(city.hex)
        el(
            cities,
            "rect",
            x=x - 4,
            y=y - 4,
            width=8,
            height=8,
            fill="#b71c1c" if city.capital else "#424242",
            stroke="white",
            stroke_width=0.8,
        )
        text(
            cities,
            x,
            y - 6,
            city.name + (" ($)" if city.treasury else ""),
            font_size=7,
            text_anchor="middle",
            font_weight="bold",
        )
    return group


def draw(
    game: Game[S, A],
    state: S,
    perspective: int | None,
    *,
    highlight: set[int],
    last_move: set[int],
    reachable_for: tuple[int, ...] | None,
    zoc: bool,
    with_map: bool = True,
) -> str:
    """The SVG of a Belisarius state, as ``perspective`` may see it (all when None)."""
    assert isinstance(game, Belisarius)
    assert isinstance(state, BelState)
    cat = game.catalog
    hexmap = cat.map
    ctx = Context(game, None)
    view = observe(ctx, state, EMPIRE if perspective is None else perspective)
    width = _R + hexmap.columns * _DX + 200
    height = hexmap.rows * _DY + _DY + 140
    root = document(width, height)
    el(root, "rect", x=0, y=0, width=width, height=height, fill="#f5f5f0")
    if with_map:
        root.append(map_layer(game))
    else:
        el(root, "use", href="#map")
    heading = game.chronicle_heading(state).split("\n", 1)[0]
    who = "" if perspective is None else f" (as the {_NAME[perspective]} player sees it)"
    text(
        root,
        8,
        18,
        f"Belisarius: {heading} phase: {view.phase}{who}",
        font_size=14,
        font_weight="bold",
    )
    text(
        root,
        width - 8,
        18,
        "PROVISIONAL MAP: a schematic sketch, no printed map in our copy",
        font_size=11,
        fill="#b71c1c",
        text_anchor="end",
        font_weight="bold",
    )
    # Region names with their control.
    labels = el(root, "g", class_="regions")
    for index, region in enumerate(cat.regions):
        land = cat.region_land[index] or cat.region_hexes[index]
        if not land:
            continue
        xs, ys = zip(*(centre(h) for h in land), strict=True)
        control = view.control[index]
        text(
            labels,
            sum(xs) / len(xs),
            sum(ys) / len(ys) + 12,
            f"{region.name} ({control.value})",
            font_size=9,
            fill=_CONTROL[control],
            text_anchor="middle",
            font_weight="bold",
            data_region=region.name,
            data_control=control.value,
        )
    overlay = el(root, "g", class_="overlay")
    player = state.phasing
    if zoc:
        for h in sorted(enemy_zoc(cat, state, player)):
            _outline(overlay, h, "zoc", fill="#ff7043", fill_opacity=0.35)
    force = reachable_for
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
    for h, label, colour in (
        [(h, "P", "#000") for h in view.markers.pillaged]
        + [(h, "C", "#1b5e20") for h in view.markers.colonies]
        + [(h, "W", "#0d47a1") for h in view.markers.works]
    ):
        x, y = centre(h)
        mark = el(root, "g", class_="marker", data_hex=f"{h:04d}", data_marker=label)
        el(mark, "circle", cx=x + 6, cy=y - 6, r=4, fill="white", stroke=colour)
        text(mark, x + 6, y - 3.5, label, font_size=6, text_anchor="middle", fill=colour)
    # Stacks.
    places: dict[int, list[int]] = {}
    for unit, at in enumerate(view.units.where):
        if at > AVAILABLE:
            places.setdefault(at, []).append(unit)
    stacks = el(root, "g", class_="stacks")
    box_x = _R + hexmap.columns * _DX + 12
    for at, units in sorted(places.items()):
        side = (
            controller(cat, state, units[0])
            if perspective is None
            else _side_of(cat, view, units[0])
        )
        label = f"box {at}" if at < FIRST_HEX else f"{at:04d}"
        stack = el(stacks, "g", class_="stack", data_where=label)
        if at < FIRST_HEX:
            x, y = box_x + 4, 40 + (at - 1) * 110 + 30
        else:
            x, y = centre(at)
            x, y = x - 6, y - 6
        title = "; ".join(_name(game, u) for u in units)
        tip = el(stack, "title")
        tip.text = f"{label}: {title}"
        for k, unit in enumerate(units):
            owner = _side_of(cat, view, unit)
            counter = el(
                stack,
                "g",
                class_="counter",
                data_counter=cat.counters[unit].id,
                data_where=label,
                data_side=str(owner),
            )
            if at < FIRST_HEX:
                cx, cy = x + (k % 4) * 40, y + (k // 4) * 16
                el(
                    counter,
                    "rect",
                    x=cx,
                    y=cy,
                    width=38,
                    height=14,
                    rx=2,
                    fill=_SIDE.get(owner, "#757575"),
                )
                text(counter, cx + 2, cy + 10, _name(game, unit)[:8], font_size=7, fill="white")
            elif k < 3:
                el(
                    counter,
                    "rect",
                    x=x + k * 1.5,
                    y=y + k * 1.5,
                    width=12,
                    height=12,
                    rx=1.5,
                    fill=_SIDE.get(owner, "#757575"),
                    stroke="white",
                    stroke_width=0.6,
                )
        if at >= FIRST_HEX:
            text(
                stack,
                x + 6 + 2,
                y + 9.5,
                str(len(units)),
                font_size=7,
                fill="white",
                text_anchor="middle",
                font_weight="bold",
            )
        del side
    # Peripheral Area boxes.
    for i, area in enumerate(cat.peripherals):
        y = 40 + i * 110
        control = view.control[cat.region_index[area.region]]
        el(
            root,
            "rect",
            x=box_x,
            y=y,
            width=176,
            height=104,
            fill="#fffde7",
            stroke=_CONTROL[control],
            stroke_width=2,
            class_="box",
            data_box=area.name,
        )
        text(
            root,
            box_x + 4,
            y + 14,
            f"{area.name} ({control.value})",
            font_size=11,
            font_weight="bold",
        )
        text(root, box_x + 4, y + 26, f"Solidus {area.solidus}, Forage {area.forage}", font_size=9)
    # Treasuries and hands, as far as the viewer may know them.
    y = hexmap.rows * _DY + _DY + 44
    lines = []
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
        lines.append((p, f"{_NAME[p]}: {money}; {held}"))
    for k, (p, line) in enumerate(lines):
        text(
            root,
            8,
            y + k * 15,
            line,
            font_size=11,
            fill=_SIDE[p],
            class_="treasury",
            data_player=str(p),
        )
    text(root, 8, y + 32, f"Pool: {view.pool_size} Stratagems", font_size=11)
    pending = view.pending
    if view.ending is not None:
        what = f"Game over [{view.ending.rule}]: {view.ending.reason}"
    elif pending is None:
        what = "nothing pending"
    else:
        what = f"Pending [{pending.rule}] {pending.kind.value}: {pending.prompt}"
    text(root, 8, y + 47, what[:180], font_size=11, class_="pending")
    _legend(root, y + 62)
    return to_string(root)


def _side_of(cat: Catalog, view: BelObservation, unit: int) -> int:
    return _controller(cat, view, unit)


def _legend(root: ET.Element, y: float) -> None:
    x = 8.0
    items = [(_TERRAIN[t], t.value) for t in Terrain] + [
        (_SIDE[EMPIRE], "Empire counters"),
        (_SIDE[BARBARIAN], "Barbarian counters"),
        ("#757575", "Neutral counters"),
        ("#ffee58", "reachable"),
        ("#ff7043", "enemy Zone of Control"),
    ]
    for colour, label in items:
        el(
            root,
            "rect",
            x=x,
            y=y,
            width=11,
            height=11,
            fill=colour,
            stroke="#333",
            stroke_width=0.5,
        )
        text(root, x + 14, y + 10, label, font_size=10)
        x += 14 + 6.2 * len(label) + 12
    text(
        root,
        x,
        y + 10,
        "river (blue side), strait (dark blue), road (dashed), "
        "city (square, $ = treasury), P/C/W = Pillaged/Colony/Public Works, "
        "orange outline = last move",
        font_size=10,
    )
