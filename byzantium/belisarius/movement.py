"""Land movement of a force: where it can go with its Operations Points, at what cost.

A pure query on a state (nothing moves here): :func:`reachable` searches outward from
the force's location, cheapest first, and answers every location the force could end
an ordinary land move in, with the fewest Operations Points it costs to get there.

- Each hex entered costs its line of the Terrain Effects Chart (16.1); a City (or a
  Colony, 27.31) uses the City line, Constantinopolis the capital's.
- Crossing a road hexside costs the road's rate instead and waives the river extra
  (16.21); a pass hexside costs the pass's rate instead (16.22); a river hexside
  costs its extra (16.23); a strait hexside is the only way across water and costs
  its extra (16.24, 16.32). The cheapest reading of a hexside is used.
- Never into a hex holding someone else's counters (16.31), nor into all-sea.
- Entering an enemy Zone of Control ends the move; a force never steps from one enemy
  Zone of Control straight into another, which also bounds a force that starts in
  one (15.2, 15.21, 15.22, 16.5). Enemy Fleets' zones do not hinder land units (19.4).
- A force made only of counters of a Peripheral Area's nationality may enter its box
  from the Region's land hexes on the box's map edges for the box's price, and leave
  it into those hexes for their normal price; Zones of Control neither reach into the
  box nor keep a force on an edge hex from stepping in (18.2#2, 18.21, 18.211).

Stacking holds at every moment (13.1 "at any time"), so a force never enters a hex,
even in passing, where it could not stop: more than the limit there, counters of
another side, or for the Barbarian player counters of another Region (13.132). See
:func:`exceeds_stacking` and :func:`may_end_at`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.hexmap import HexsideFeature, Terrain
from byzantium.belisarius.state import (
    BARBARIAN,
    FIRST_HEX,
    BelState,
    Catalog,
    per_catalog,
)
from byzantium.belisarius.world import controller, enemy_zoc

__all__ = [
    "box_entry_hexes",
    "exceeds_stacking",
    "land_zoc",
    "may_end_at",
    "neighbour_costs",
    "neighbour_steps",
    "reachable",
    "step_cost",
]

#: Lines of the Terrain Effects Chart used here (components data ids).
_CITY = "city"
_CAPITAL = "constantinopolis"
_BOX = "peripheral-area"


@attrs.frozen
class _Rates:
    """The chart lines movement reads, looked up once per catalogue."""

    ground: dict[Terrain, Fraction | None]
    city: Fraction | None
    capital: Fraction | None
    box: Fraction
    road: Fraction
    passage: Fraction
    river: Fraction
    strait: Fraction


@attrs.frozen
class _Tables:
    """Per catalogue: the chart rates, each hexside's printed step cost, box edges."""

    rates: _Rates
    #: (the hexside's features, whether the hex entered is land, its chart line: a
    #: :class:`~.hexmap.Terrain`, or "city" or "constantinopolis") -> the step cost
    #: (see :func:`_priced`): the few kinds of step the whole map holds, each priced
    #: once, so that a hexside asked for the first time costs a few look-ups.
    kinds: dict[tuple[frozenset[HexsideFeature], bool, Terrain | str], Fraction | None]
    #: Box number -> the land hexes a force enters it from / leaves it into.
    box_edges: dict[int, tuple[int, ...]]
    #: Hex -> the boxes it leads into.
    edge_boxes: dict[int, tuple[int, ...]]
    #: Costs in whole units of 1/scale point, so the search adds integers.
    scale: int
    #: Hex -> (neighbour, scaled printed cost) for every neighbour land units may
    #: enter, filled in as asked (Colonies, which change, are priced apart).
    steps: dict[int, tuple[tuple[int, int], ...]]
    #: (from, to) -> :func:`step_cost` into a hex without a Colony, filled in as asked.
    printed: dict[tuple[int, int], Fraction | None]
    #: Hex -> (neighbour, :func:`step_cost` into it without Colonies) for every
    #: neighbour, in the map's order, filled in as asked.
    around: dict[int, tuple[tuple[int, Fraction | None], ...]]


@per_catalog
def _tables(cat: Catalog) -> _Tables:
    """The movement tables of a catalogue (built once for each)."""
    comps = cat.components
    ground = {t: comps.terrain_type(t.value).movement for t in Terrain}
    rates = _Rates(
        ground=ground,
        city=comps.terrain_type(_CITY).movement,
        capital=comps.terrain_type(_CAPITAL).movement,
        box=_required(comps.terrain_type(_BOX).movement, _BOX),
        road=_required(comps.hexside("road").movement, "road"),
        passage=_required(comps.hexside("pass").movement, "pass"),
        river=comps.hexside("river").extra,
        strait=comps.hexside("strait").extra,
    )
    box_edges: dict[int, tuple[int, ...]] = {}
    edge_boxes: dict[int, list[int]] = {}
    for number, area in enumerate(cat.peripherals, start=1):
        region = cat.map.region(area.region).hexes
        hexes = sorted(
            h
            for edge in area.edges
            for h in cat.map.edge_hexes(edge)
            if h in region and cat.is_land(h)
        )
        box_edges[number] = tuple(dict.fromkeys(hexes))
        for h in box_edges[number]:
            edge_boxes.setdefault(h, []).append(number)
    prices = [*rates.ground.values(), rates.city, rates.capital, rates.box, rates.road]
    prices += [rates.passage, rates.river, rates.strait]
    scale = math.lcm(*(p.denominator for p in prices if p is not None))
    edges = {h: tuple(b) for h, b in edge_boxes.items()}
    return _Tables(rates, {}, box_edges, edges, scale, {}, {}, {})


def _steps(cat: Catalog, tables: _Tables, state: BelState, a: int) -> tuple[tuple[int, int], ...]:
    found = tables.steps.get(a)
    if found is None:
        found = tuple(
            (b, _scaled(tables, cost))
            for b in cat.map.neighbours(a)
            if (cost := _printed_cost(cat, tables, a, b)) is not None
        )
        tables.steps[a] = found
    return found


def _scaled(tables: _Tables, cost: Fraction) -> int:
    """``cost`` in whole units of ``tables.scale`` (``cost * scale`` as an integer),
    worked out on the two integers of the fraction."""
    scaled, rest = divmod(cost.numerator * tables.scale, cost.denominator)
    if rest:
        raise ValueError(f"cost {cost} is not a multiple of 1/{tables.scale}")
    return scaled


def _required(value: Fraction | None, line: str) -> Fraction:
    if value is None:
        raise ValueError(f"the Terrain Effects Chart line {line!r} has no movement cost")
    return value


def _priced(cat: Catalog, tables: _Tables, a: int, b: int, colony: bool) -> Fraction | None:
    """:func:`step_cost` from ``a`` into ``b``, a Colony hex or not as ``colony`` says:
    what the hexside's features, the hex's being land and its chart line make it,
    each such kind of step worked out once (``tables.kinds``)."""
    features = cat.map.features(a, b)
    line = _chart_line(cat, b, colony)
    key = (features, cat.is_land(b), line)
    if key in tables.kinds:
        return tables.kinds[key]
    rates = tables.rates
    cost: Fraction | None = None
    if key[1] and (HexsideFeature.SEA not in features or HexsideFeature.STRAIT in features):
        strait = rates.strait if HexsideFeature.STRAIT in features else Fraction(0)
        river = rates.river if HexsideFeature.RIVER in features else Fraction(0)
        options = []
        if HexsideFeature.ROAD in features:
            options.append(rates.road + strait)
        if HexsideFeature.PASS in features:
            options.append(rates.passage + river + strait)
        ground = _line_rate(rates, line)
        if ground is not None:
            options.append(ground + (river + strait))
        cost = min(options) if options else None
    tables.kinds[key] = cost
    return cost


def _chart_line(cat: Catalog, hex_: int, colony: bool) -> Terrain | str:
    """The Terrain Effects Chart line of a hex: a City's (Constantinopolis its own),
    a Colony's read as a City's (27.31), else the hex's terrain."""
    city = cat.map.city_at(hex_)
    if city is not None:
        return _CAPITAL if city.capital else _CITY
    return _CITY if colony else cat.map.terrain_at(hex_)


def _line_rate(rates: _Rates, line: Terrain | str) -> Fraction | None:
    """The movement rate of a chart line (:func:`_chart_line`); None: land units may
    not enter."""
    if line == _CAPITAL:
        return rates.capital
    if line == _CITY:
        return rates.city
    assert isinstance(line, Terrain)
    return rates.ground[line]


def _hex_cost(cat: Catalog, tables: _Tables, state: BelState, hex_: int) -> Fraction | None:
    return _line_rate(tables.rates, _chart_line(cat, hex_, hex_ in state.markers.colonies))


@RULES.implements("16.1", "16.21", "16.22", "16.23", "16.24", "16.32", "16.34", "27.31")
def step_cost(cat: Catalog, state: BelState, a: int, b: int) -> Fraction | None:
    """Operations Points for a land force to step from hex ``a`` into adjacent hex ``b``.

    The hex's chart line (a City's, or a Colony's as a City, 27.31) plus the extra of a
    river (16.23) or strait (16.24) hexside; along a road the road's rate instead and no
    river extra (16.21); along a pass the pass's rate instead of the hex's (16.22). The
    cheapest applicable reading counts. None where land units may not go: all-sea hexes
    and all-sea hexsides other than straits (16.32). Counters in the way are not looked
    at here (see :func:`reachable`).
    """
    tables = _tables(cat)
    if b in state.markers.colonies:
        return _priced(cat, tables, a, b, colony=True)
    return _printed_cost(cat, tables, a, b)


def _printed_cost(cat: Catalog, tables: _Tables, a: int, b: int) -> Fraction | None:
    """:func:`step_cost` from ``a`` into ``b`` without a Colony there, kept per pair."""
    key = (a, b)
    if key in tables.printed:
        return tables.printed[key]
    cost = tables.printed[key] = _priced(cat, tables, a, b, colony=False)
    return cost


def neighbour_costs(
    cat: Catalog, state: BelState, a: int
) -> tuple[tuple[int, Fraction | None], ...]:
    """Every neighbour of hex ``a`` in the map's order with :func:`step_cost` into it
    as printed, Colonies aside (a Colony hex is priced as a City, 27.31: the caller
    asks :func:`step_cost` for those). Built once per hex and catalogue."""
    tables = _tables(cat)
    found = tables.around.get(a)
    if found is None:
        found = tuple((b, _printed_cost(cat, tables, a, b)) for b in cat.map.neighbours(a))
        tables.around[a] = found
    return found


@per_catalog
def _neighbour_steps(cat: Catalog) -> dict[int, tuple[tuple[int, Fraction | None, int], ...]]:
    """Hex -> :func:`neighbour_steps` of it, filled in as asked."""
    del cat
    return {}


def neighbour_steps(
    cat: Catalog, state: BelState, a: int
) -> tuple[tuple[int, Fraction | None, int], ...]:
    """:func:`neighbour_costs` of hex ``a`` with each printed cost also in whole units
    of :func:`cost_scale` (-1 where there is none), so that a menu compares integers
    with the force's points (14.31). Built once per hex and catalogue."""
    table = _neighbour_steps(cat)
    found = table.get(a)
    if found is None:
        tables = _tables(cat)
        found = table[a] = tuple(
            (b, cost, -1 if cost is None else _scaled(tables, cost))
            for b, cost in neighbour_costs(cat, state, a)
        )
    return found


def cost_scale(cat: Catalog) -> int:
    """The unit every printed cost is a whole multiple of, as a fraction of a point:
    costs are compared in whole 1/``cost_scale`` points (see :func:`neighbour_steps`)."""
    return _tables(cat).scale


def box_entry_hexes(cat: Catalog, box: int) -> tuple[int, ...]:
    """The land hexes of a Peripheral Area's Region on the box's map edges (18.2#2)."""
    return _tables(cat).box_edges.get(box, ())


@RULES.implements("15.11", "15.12", "19.4")
def land_zoc(cat: Catalog, state: BelState, player: int) -> frozenset[int]:
    """Hexes where enemy Zones of Control hinder ``player``'s land units.

    :func:`.world.enemy_zoc` of the enemy's land units: Fleets' zones do not block land
    movement (19.4).
    """
    return enemy_zoc(cat, state, player, naval=False)


@RULES.implements(
    "13.1",
    "13.132",
    "16.1",
    "16.31",
    "16.5",
    "15.2",
    "15.21",
    "15.22",
    "18.2#2",
    "18.21",
    "18.211",
    "14.31",
)
def reachable(
    cat: Catalog, state: BelState, units: Sequence[int], start: int, points: Fraction | int
) -> dict[int, Fraction]:
    """Every location the force ``units`` (all at ``start``) can move to on land with
    ``points`` Operations Points, with the least cost of getting there.

    The start is included at cost 0. Costs come from :func:`step_cost` (16.1, 16.2x);
    a move never enters a hex holding counters its player does not control (16.31).
    Entering an enemy Zone of Control ends the move, and no step goes from one enemy
    Zone of Control straight into another, so a force starting in one may leave only
    into hexes free of them (15.2, 15.21, 15.22, 16.5; Fleets' zones excepted, 19.4).
    A force of one Peripheral Area's nationality only may step into that box from its
    edge hexes for the box's price, Zones of Control notwithstanding, and out of it
    into those hexes at their own price (18.2#2, 18.21, 18.211). Stacking holds at
    every step (13.1, 13.132): the search never enters a hex where the force could
    not stop (:func:`may_end_at`), so it never passes through one either.
    """
    if not units:
        raise ValueError("a force has at least one counter")
    if any(state.units.where[u] != start for u in units):
        raise ValueError(f"not every counter of the force is at {start}")
    player = controller(cat, state, units[0])
    tables = _tables(cat)
    scale = tables.scale
    budget = math.floor(Fraction(points) * scale)
    zoc = land_zoc(cat, state, player)
    homes = {cat.home[u] for u in units}
    home = next(iter(homes)) if len(homes) == 1 else -1
    own_box = cat.box_of(home) if home >= 0 else 0
    box_cost = _scaled(tables, tables.rates.box)
    colonies = state.markers.colonies
    at = state.units.at

    def blocked(where: int) -> bool:
        return any(controller(cat, state, u) != player for u in at(where))

    best: dict[int, int] = {start: 0}
    frontier: list[tuple[int, int]] = [(0, start)]
    done: set[int] = set()
    while frontier:
        cost, where = heapq.heappop(frontier)
        if where in done:
            continue
        done.add(where)
        steps: list[tuple[int, int]] = []
        if where < FIRST_HEX:
            # In a Peripheral Area box: out into its edge hexes at their own price.
            for hex_ in tables.box_edges.get(where, ()):
                entry = _hex_cost(cat, tables, state, hex_)
                if entry is not None:
                    steps.append((hex_, _scaled(tables, entry)))
        else:
            in_zoc = where in zoc
            if where == start or not in_zoc:
                for other, printed in _steps(cat, tables, state, where):
                    if in_zoc and other in zoc:
                        continue
                    if other in colonies:
                        colony = step_cost(cat, state, where, other)
                        if colony is not None:
                            steps.append((other, _scaled(tables, colony)))
                    else:
                        steps.append((other, printed))
            if own_box and own_box in tables.edge_boxes.get(where, ()):
                steps.append((own_box, box_cost))
        for other, price in steps:
            total = cost + price
            if total > budget or other in done:
                continue
            known = best.get(other)
            if known is not None and known <= total:
                continue
            if other >= FIRST_HEX and (blocked(other) or not may_end_at(cat, state, units, other)):
                continue
            best[other] = total
            heapq.heappush(frontier, (total, other))
    return {where: Fraction(cost, scale) for where, cost in best.items()}


@RULES.implements("13.1", "13.11", "18.4")
def exceeds_stacking(cat: Catalog, state: BelState, units: Iterable[int], where: int) -> bool:
    """Whether moving ``units`` into ``where`` (to stop or to pass through: 13.1 holds
    at any time) would put more than the stacking limit of counters in the hex,
    Leaders included (13.1, 13.11); a Peripheral Area box has no limit (18.4).
    """
    if where < FIRST_HEX:
        return False
    moving = set(units)
    return _over_limit(cat, where, [u for u in state.units.at(where) if u not in moving], moving)


def _over_limit(cat: Catalog, where: int, staying: Sequence[int], moving: set[int]) -> bool:
    """:func:`exceeds_stacking` for the counters already sorted out: those staying in
    ``where`` and those moving in (13.1, 13.11; no limit in a box, 18.4)."""
    return where >= FIRST_HEX and len(staying) + len(moving) > cat.constant("stacking-limit")


@RULES.implements("13.1", "13.12", "13.132")
def may_end_at(cat: Catalog, state: BelState, units: Sequence[int], where: int) -> bool:
    """Whether ``units`` may be at ``where`` as far as stacking goes: where a move
    ends, and every hex it enters on the way (13.1 "at any time").

    Within the limit (:func:`exceeds_stacking`, 13.1), never with counters of another
    side or Neutrals (13.12), and for the Barbarian player never with counters of
    another Region, the Mutinying Guard counting as one of its own (13.132).
    """
    moving = set(units)
    others = [u for u in state.units.at(where) if u not in moving]
    if _over_limit(cat, where, others, moving):
        return False
    if not units:
        return True
    player = controller(cat, state, units[0])
    for other in others:
        if controller(cat, state, other) != player:
            return False
    if player != BARBARIAN:
        return True
    identities = {_identity(cat, u) for u in units}
    if len(identities) > 1:
        return False
    return all(_identity(cat, other) in identities for other in others)


def _identity(cat: Catalog, unit: int) -> str:
    counter = cat.counters[unit]
    return "mutinying-guard" if counter.guard else counter.nationality
