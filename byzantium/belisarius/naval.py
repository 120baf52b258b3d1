"""Naval Operations (19.0-19.9, 14.23, 16.33, 17.53, 18.22) and River Movement (29.0-29.5).

Fleet forces operate in the Operations Phase like land forces (19.2), with these
differences, all decided here and called from :mod:`.operations` and :mod:`.battle`:

* A fleet force is picked as ``fleet <location>``: the operating player's Fleets there
  that have not operated, with the land counters on board them. Before its roll it
  may drop Fleets (each with its passengers) and take on land counters of the
  location that have not operated, three a Fleet, Leaders included (19.5, 19.51), in
  a port or on a coast (19.5; :func:`shore`). Embarking and debarking are free (19.52).
* Its Operations Points are the lowest Operations value of its Fleets, passengers not
  counted, plus the die, doubled or tripled by a Leader on board (14.23, 19.8).
* It moves through all-sea, coastal and port hexes, never into an all-land hex nor
  across an all-land hexside (16.33, 19.1; :meth:`.Catalog.water_side`). Each hex
  entered costs 1 if the operation began in a port (a working port City, a coastal
  Colony, a box with a port) or at sea, 2 if it began on a coast without a port
  (19.52; :func:`sea_rate`). It never enters counters of another side: Fleets on a
  coast block enemy movement and land units on a coast block Fleets (16.31, 19.3).
  Enemy Fleets' Zones of Control stop it, enemy land units' do not (15.13, 19.4).
  Persian Fleets reach the Persian box from the Sinus Persicus only (18.22, 19.9).
* On a coast or in a port its passengers may land, all or one by one; they operate no
  more this phase while the Fleets may go on (19.54); or they stay on board (19.55).
* It attacks adjacent hexes it could sail into: enemy Fleets anywhere, enemy land
  counters on a coast, its passengers fighting with it (19.61-19.63); land forces
  attack Fleets on a coast over land, never at sea (19.62, 35.0); see
  :func:`fleet_targets`.
* A defending stack of Fleets and land counters ashore withdraws and retreats as a sea
  stack (Fleets and their passengers) and a land stack on the same die (17.52, 17.53;
  :func:`retreating_stacks`); a sea stack moves as Fleets move
  (:func:`sea_retreat_steps`).

With optional rule 29 (option ``river_movement``) a fleet force also moves along the
land hexes beside a river, 1 point a hex, as a land force there: enemy land units
block it and their Zones of Control stop it, and a retreat that would take it off the
river destroys it (29.1-29.3). A coastal hex with a river is sea movement (29.4); a
City or Colony beside a river is a port (29.5).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import Operation, force_operations_points
from byzantium.belisarius.engine import Context, ask_choice, push
from byzantium.belisarius.hexmap import HexsideFeature
from byzantium.belisarius.movement import land_zoc, may_end_at
from byzantium.belisarius.state import (
    AVAILABLE,
    FIRST_HEX,
    BelAction,
    BelState,
    Catalog,
    Done,
    Select,
    per_catalog,
)
from byzantium.belisarius.world import controller, controllers, fleet_zones
from byzantium.core.procedure import replace, replace_fields

if TYPE_CHECKING:
    from byzantium.belisarius.operations import OperationsPhase

__all__ = [
    "DEBARK",
    "EMBARK",
    "FLEET",
    "RIVER_OPTION",
    "debark",
    "debark_items",
    "fleet_forces",
    "fleet_may_enter",
    "fleet_reachable",
    "fleet_step_cost",
    "fleet_steps",
    "fleet_targets",
    "fleet_zoc",
    "is_naval",
    "is_port",
    "naval_drop",
    "naval_points",
    "naval_step",
    "retreating_stacks",
    "river_hex",
    "river_step",
    "sea_rate",
    "sea_retreat_steps",
    "shore",
]

#: The option of optional rule 29.
RIVER_OPTION = "river_movement"
#: Menu items: pick a fleet force, take a land counter on board, land passengers.
FLEET = "fleet "
EMBARK = "embark "
DEBARK = "debark"


# -- the map as Fleets see it ------------------------------------------------------------


@attrs.frozen
class _Tables:
    """Per catalogue: the rivers beside each land hex, the box sea hexes, the rates."""

    #: Land hex -> names of the rivers on its hexsides (29.1).
    rivers: dict[int, frozenset[str]]
    #: Box number -> the all-sea hexes its port opens on (18.22, 19.9).
    box_seas: dict[int, tuple[int, ...]]
    #: Hex -> the boxes it sails into.
    sea_boxes: dict[int, tuple[int, ...]]
    from_port: Fraction
    from_coast: Fraction
    river: Fraction
    box: Fraction


@per_catalog
def _tables(cat: Catalog) -> _Tables:
    """The naval tables of a catalogue (built once for each)."""
    hexmap = cat.map
    rivers: dict[int, set[str]] = {}
    for side in hexmap.sides_with(HexsideFeature.RIVER):
        for hex_ in (side.a, side.b):
            if cat.is_land(hex_):
                rivers.setdefault(hex_, set()).add(side.name or f"{side.a}/{side.b}")
    box_seas: dict[int, tuple[int, ...]] = {}
    sea_boxes: dict[int, list[int]] = {}
    for number, area in enumerate(cat.peripherals, start=1):
        if not area.port:
            continue
        seas = sorted(
            h for name in area.sea_areas for h in hexmap.sea_area(name).hexes if not cat.is_land(h)
        )
        box_seas[number] = tuple(seas)
        for h in seas:
            sea_boxes.setdefault(h, []).append(number)
    comps = cat.components
    box = comps.operation_cost(Operation.ENTER_PERIPHERAL_AREA)
    return _Tables(
        rivers={h: frozenset(names) for h, names in rivers.items()},
        box_seas=box_seas,
        sea_boxes={h: tuple(b) for h, b in sea_boxes.items()},
        from_port=comps.operation_cost(Operation.SEA_HEX_FROM_PORT),
        from_coast=comps.operation_cost(Operation.SEA_HEX_FROM_COAST),
        river=comps.operation_cost(Operation.RIVER_MOVEMENT_HEX),
        box=box,
    )


def is_naval(cat: Catalog, force: Sequence[int]) -> bool:
    """Whether a force is a fleet force: it holds a Fleet (19.0)."""
    return not cat.fleet_set.isdisjoint(force)


@RULES.implements("16.33", "19.1")
def fleet_may_enter(cat: Catalog, hex_: int) -> bool:
    """Whether a Fleet may be in a map hex by sea: all-sea or coastal, never all-land
    (16.33, 19.1)."""
    return not cat.is_land(hex_) or cat.map.is_coastal(hex_)


@RULES.implements("29.1")
def river_hex(cat: Catalog, hex_: int) -> bool:
    """Whether a land hex lies beside a river hexside (29.1)."""
    return hex_ in _tables(cat).rivers


@RULES.implements("29.0", "29.1", "29.4")
def river_step(cat: Catalog, a: int, b: int) -> bool:
    """Whether a Fleet may go from hex ``a`` to adjacent hex ``b`` by River Movement:
    both lie beside the same river (29.1), the coastal hexes at its mouth included
    (29.4: the sea steps into and out of them are ordinary sea movement)."""
    rivers = _tables(cat).rivers
    here = rivers.get(a)
    there = rivers.get(b)
    return here is not None and there is not None and not here.isdisjoint(there)


@RULES.implements("19.5", "27.33", "29.5", "18.22", "11.63")
def is_port(cat: Catalog, state: BelState, where: int, rivers: bool = False) -> bool:
    """Whether a location is a port: a box with a port symbol (18.22), a printed port
    City or a Colony on a coast (27.33), not Pillaged (26.5); with River Movement a City
    or Colony beside a river too (29.5)."""
    if where <= AVAILABLE:
        return False
    if where < FIRST_HEX:
        return cat.peripherals[where - 1].port
    if where in state.markers.pillaged:
        return False
    city = cat.map.city_at(where)
    colony = where in state.markers.colonies
    if city is None and not colony:
        return False
    if rivers and river_hex(cat, where):
        return True
    if city is not None:
        return city.port
    return cat.map.is_coastal(where)


@RULES.implements("19.5", "19.54")
def shore(cat: Catalog, state: BelState, where: int, rivers: bool = False) -> bool:
    """Whether land counters may go on board or land at a location: a port (with River
    Movement a river port, 29.5) or a coastal hex (19.5, 19.54)."""
    if where >= FIRST_HEX and cat.is_land(where) and cat.map.is_coastal(where):
        return True
    return is_port(cat, state, where, rivers)


@RULES.implements("19.52")
def sea_rate(cat: Catalog, state: BelState, origin: int, rivers: bool = False) -> Fraction:
    """Operations Points a fleet force pays for each hex it sails into, by where its
    operation began: 1 from a port or at sea, 2 from a coast without a port (19.52)."""
    tables = _tables(cat)
    if origin >= FIRST_HEX and not cat.is_land(origin):
        return tables.from_port
    return tables.from_port if is_port(cat, state, origin, rivers) else tables.from_coast


@RULES.implements("14.23", "19.8", "21.21#2")
def naval_points(cat: Catalog, force: Sequence[int], roll: int) -> int:
    """A fleet force's Operations Points for a die roll: the lowest Operations value of
    its Fleets, passengers not counted (14.23), plus the roll, doubled or tripled by a
    one- or two-star Leader in the force, on board included (19.8, 21.21#2)."""
    counters = [cat.counters[u] for u in force]
    fleets = [c.operations for c in counters if c.naval]
    stars = max((c.stars for c in counters), default=0)
    return force_operations_points(fleets, roll, min(stars, 2))


def fleet_zoc(cat: Catalog, state: BelState, player: int) -> frozenset[int]:
    """Hexes in a Zone of Control of ``player``'s enemies' Fleets: those that stop a
    fleet force at sea (19.4: land units' zones do not); see
    :func:`.world.fleet_zones` (15.13, 15.12#2, 15.13#2, 29.3), whose last answer is
    kept while the enemy's counters stay put."""
    return fleet_zones(cat, state, player)


def _own_box(cat: Catalog, force: Sequence[int]) -> int:
    """The box a force may enter: that of its one nationality's Region (18.2#2)."""
    homes = {cat.home[u] for u in force}
    if len(homes) != 1:
        return 0
    home = next(iter(homes))
    return cat.box_of(home) if home >= 0 else 0


@RULES.implements("19.52", "29.1", "29.4", "18.21", "18.22", "19.9", "16.33")
def fleet_step_cost(  # noqa: PLR0917 - a step and how the force pays for it
    cat: Catalog, state: BelState, a: int, b: int, rate: Fraction, rivers: bool = False
) -> tuple[Fraction, bool] | None:
    """What a fleet force pays to go from ``a`` to adjacent ``b``, and whether it goes
    by River Movement; None if it cannot go there at all (counters aside).

    By sea (into an all-sea or coastal hex across a hexside with water: 16.33, 19.1) it
    pays ``rate`` (:func:`sea_rate`, 19.52); by river, with ``rivers``, 1 a hex (29.1);
    the cheaper way counts. From a box with a port into the sea hexes it opens on,
    ``rate``; into the box from them, the box's price (18.21, 18.22, 19.9). Whether
    the force's nationality may enter the box is not checked here.
    """
    tables = _tables(cat)
    if a < FIRST_HEX:
        return (rate, False) if b in tables.box_seas.get(a, ()) else None
    if b < FIRST_HEX:
        return (tables.box, False) if b in tables.sea_boxes.get(a, ()) else None
    found: tuple[Fraction, bool] | None = None
    if fleet_may_enter(cat, b) and cat.water_side(a, b):
        found = (rate, False)
    if rivers and river_step(cat, a, b) and (found is None or tables.river < found[0]):
        found = (tables.river, True)
    return found


def _neighbours(cat: Catalog, where: int) -> tuple[int, ...]:
    tables = _tables(cat)
    if where < FIRST_HEX:
        return tables.box_seas.get(where, ())
    return (*cat.map.neighbours(where), *tables.sea_boxes.get(where, ()))


class _Zones:
    """The enemy zones that stop a fleet force: Fleets' at sea, land units' on a river
    (19.4, 29.3); the land ones are found only when a river step needs them."""

    def __init__(self, cat: Catalog, state: BelState, player: int) -> None:
        self.cat = cat
        self.state = state
        self.player = player
        self.sea = fleet_zoc(cat, state, player)
        self._land: frozenset[int] | None = None

    def of(self, river: bool) -> frozenset[int]:
        if not river:
            return self.sea
        if self._land is None:
            self._land = land_zoc(self.cat, self.state, self.player)
        return self._land


def _candidates(  # noqa: PLR0917 - the whole position of the force
    cat: Catalog,
    state: BelState,
    force: Sequence[int],
    where: int,
    points: Fraction,
    moved: bool | None,
    rate: Fraction,
    rivers: bool,
    zones: _Zones,
) -> list[tuple[int, Fraction, bool]]:
    """Adjacent places the fleet force may step into now: (place, price, by river).

    Once stopped by a zone of control (``moved`` None) only its own box is left, which
    zones do not bar (18.211).
    """
    player = zones.player
    own_box = _own_box(cat, force)
    found: list[tuple[int, Fraction, bool]] = []
    for other in _neighbours(cat, where):
        if other < FIRST_HEX and other != own_box:
            continue
        if moved is None and other >= FIRST_HEX:
            continue
        priced = fleet_step_cost(cat, state, where, other, rate, rivers)
        if priced is None:
            continue
        cost, river = priced
        # cost > points, on the fractions' integers (Fraction's comparison is slower).
        if cost.numerator * points.denominator > points.numerator * cost.denominator:
            continue
        if other >= FIRST_HEX:
            if any(controller(cat, state, u) != player for u in state.units.at(other)):
                continue
            zoc = zones.of(river)
            if where >= FIRST_HEX and where in zoc and other in zoc:
                continue
        found.append((other, cost, river))
    return found


def _sailing(
    ctx: Context, state: BelState, task: OperationsPhase
) -> tuple[Fraction, bool, _Zones, list[tuple[int, Fraction, bool]]]:
    """The operating fleet force's sea rate, whether River Movement is on, the enemy zones
    that bind it and its candidate steps now (see :func:`_candidates`)."""
    cat = ctx.cat
    rivers = ctx.option(RIVER_OPTION)
    rate = sea_rate(cat, state, task.origin, rivers)
    zones = _Zones(cat, state, task.operator(state))
    args = (task.force, task.where, task.points, task.moved, rate, rivers, zones)
    return rate, rivers, zones, _candidates(cat, state, *args)


@RULES.implements(
    "19.2", "19.3", "19.4", "19.53", "13.1", "16.31", "15.2", "15.21", "15.22", "29.2", "29.3"
)
def fleet_steps(ctx: Context, state: BelState, task: OperationsPhase) -> list[tuple[int, Fraction]]:
    """The steps offered to the operating fleet force: legal now (never into counters
    of another side, 16.31, 19.3; not from one enemy zone straight into another, 15.21,
    15.22), and into a hex where the force may stand, its passengers counting for
    stacking like everyone, at every step of the voyage (13.1 "at any time", 13.132,
    19.53)."""
    cat = ctx.cat
    _, _, _, candidates = _sailing(ctx, state, task)
    return [
        (other, cost) for other, cost, _ in candidates if may_end_at(cat, state, task.force, other)
    ]


def _relocate(state: BelState, force: Sequence[int], where: int) -> BelState:
    return replace(state, "units", state.units.move_all(force, where))


@RULES.implements("19.2", "19.52", "15.2", "18.21", "29.1", "14.22", "14.3")
def naval_step(ctx: Context, state: BelState, task: OperationsPhase, to: int) -> BelState:
    """Move the fleet force, passengers and all, one step to ``to`` and pay its price
    (19.52, 29.1, 18.21); entering a zone of control that binds it stops it (15.2)."""
    _, _, zones, candidates = _sailing(ctx, state, task)
    steps = {other: (cost, river) for other, cost, river in candidates}
    if to not in steps:
        raise ValueError(f"rule 19.2: the fleet force at {task.where} cannot sail to {to}")
    cost, river = steps[to]
    state = _relocate(state, task.force, to)
    left = task.points - cost
    if ctx.recording:
        edge = to < FIRST_HEX or task.where < FIRST_HEX
        rule = "29.1" if river else ("18.21" if edge else "19.52")
        text = f"the fleet force moves {task.where} -> {to} for {cost} ({left} left)"
        ctx.log(rule, text, "move")
    moved: bool | None = True
    if to >= FIRST_HEX and to in zones.of(river):
        ctx.log("15.2", f"the fleet force enters an enemy Zone of Control at {to}", "zoc")
        moved = None
    return push(state, replace_fields(task, where=to, points=left, moved=moved))


@RULES.implements(
    "19.2", "19.52", "15.2", "15.21", "15.22", "18.21", "18.22", "29.1", "29.3", "13.1"
)
def fleet_reachable(
    cat: Catalog,
    state: BelState,
    units: Sequence[int],
    start: int,
    points: Fraction | int,
    *,
    rate: Fraction | None = None,
    rivers: bool = False,
) -> dict[int, Fraction]:
    """Every location the fleet force ``units`` (all at ``start``) can sail to with
    ``points`` Operations Points, with the least cost of getting there (a frontend's
    query, like :func:`.movement.reachable` for land forces).

    Each hex costs ``rate`` (by default that of an operation beginning at ``start``,
    :func:`sea_rate`), a river hex 1 with ``rivers`` (29.1); never into counters of
    another side (16.31, 19.3); enemy Fleets' zones stop it at sea, enemy land units'
    on a river (15.2, 19.4, 29.3), and it never goes straight from one such zone into
    another (15.21, 15.22). Stacking holds at every step (13.1, 13.132, 19.53): it
    never enters a hex where the force could not stand.
    """
    if not units:
        raise ValueError("a force has at least one counter")
    if any(state.units.where[u] != start for u in units):
        raise ValueError(f"not every counter of the force is at {start}")
    if not is_naval(cat, units):
        raise ValueError("a fleet force holds a Fleet")
    player = controller(cat, state, units[0])
    if rate is None:
        rate = sea_rate(cat, state, start, rivers)
    tables = _tables(cat)
    scale = math.lcm(rate.denominator, tables.river.denominator, tables.box.denominator)
    budget = math.floor(Fraction(points) * scale)
    zones = _Zones(cat, state, player)
    own_box = _own_box(cat, units)
    at = state.units.at

    def blocked(where: int) -> bool:
        return any(controller(cat, state, u) != player for u in at(where))

    # Search states: (location, stopped by a zone of control there).
    best: dict[tuple[int, bool], int] = {(start, False): 0}
    frontier: list[tuple[int, int, bool]] = [(0, start, False)]
    done: set[tuple[int, bool]] = set()
    while frontier:
        cost, where, stopped = heapq.heappop(frontier)
        if (where, stopped) in done:
            continue
        done.add((where, stopped))
        for other in _neighbours(cat, where):
            if other < FIRST_HEX and other != own_box:
                continue
            if stopped and other >= FIRST_HEX:
                continue  # stopped by a zone of control: only into its box (18.211)
            priced = fleet_step_cost(cat, state, where, other, rate, rivers)
            if priced is None:
                continue
            price, river = priced
            total = cost + int(price * scale)
            if total > budget:
                continue
            halt = False
            if other >= FIRST_HEX:
                if blocked(other) or not may_end_at(cat, state, units, other):
                    continue
                zoc = zones.of(river)
                if where >= FIRST_HEX and where in zoc and other in zoc:
                    continue
                halt = other in zoc
            key = (other, halt)
            known = best.get(key)
            if key in done or (known is not None and known <= total):
                continue
            best[key] = total
            heapq.heappush(frontier, (total, other, halt))
    found: dict[int, Fraction] = {}
    for (where, _), cost in best.items():
        price = Fraction(cost, scale)
        if where not in found or price < found[where]:
            found[where] = price
    return found


# -- forming a fleet force -----------------------------------------------------------------


@RULES.implements("19.0", "19.2", "13.21")
def fleet_forces(
    cat: Catalog, state: BelState, used: Sequence[int], player: int
) -> dict[int, tuple[int, ...]]:
    """The operating player's fleet forces that may still operate, by location: his
    Fleets there that have not operated this phase, with their passengers (19.2)."""
    spent = set(used)
    where_of = state.units.where
    owner = controllers(cat, state)
    found: dict[int, list[int]] = {}
    for unit in cat.fleets:
        if where_of[unit] > AVAILABLE and unit not in spent and owner[unit] == player:
            found.setdefault(where_of[unit], []).append(unit)
    board = state.units
    return {
        where: tuple(sorted((*fleets, *(p for f in fleets for p in board.passengers(f)))))
        for where, fleets in sorted(found.items())
    }


def _room(cat: Catalog, state: BelState, force: Sequence[int]) -> int:
    """The first Fleet of the force with room on board (19.51), or -1."""
    capacity = cat.constant("fleet-capacity")
    for unit in force:
        if cat.naval[unit] and len(state.units.passengers(unit)) < capacity:
            return unit
    return -1


@RULES.implements("19.5", "19.51", "19.52", "13.21", "13.23")
def naval_drop(
    ctx: Context, state: BelState, task: OperationsPhase, answer: BelAction | None
) -> BelState:
    """Forming the fleet force before its roll: drop Fleets, each with the counters on
    board it (13.21, 13.23), or take on land counters of the location that have not
    operated, three a Fleet, Leaders included, where land units may go on board (19.5,
    19.51); at no cost (19.52). Going on (Done) is the Operations Phase's own step."""
    cat = ctx.cat
    player = task.operator(state)
    if isinstance(answer, Select) and answer.item.startswith(EMBARK):
        unit = cat.counter(answer.item.removeprefix(EMBARK))
        fleet = _room(cat, state, task.force)
        if unit not in _boardable(ctx, state, task) or fleet < 0:
            raise ValueError(f"rule 19.5: {answer.item!r} is not possible now")
        ctx.log("19.5", f"{cat.counters[unit].id} goes on board {cat.counters[fleet].id}", "embark")
        state = attrs.evolve(state, units=state.units.embark(unit, fleet))
        return push(state, attrs.evolve(task, force=tuple(sorted((*task.force, unit)))))
    if isinstance(answer, Select):
        fleet = cat.counter(answer.item.removeprefix("drop "))
        dropped = (fleet, *state.units.passengers(fleet))
        ctx.log("13.21", f"{cat.counters[fleet].id} is dropped with its passengers", "drop")
        used = tuple(sorted({*task.used, *dropped})) if task.rolled else task.used
        force = tuple(u for u in task.force if u not in dropped)
        return push(state, attrs.evolve(task, force=force, used=used))
    options: list[BelAction] = [Done()]
    fleets = [u for u in task.force if cat.naval[u]]
    if len(fleets) > 1:
        options += [Select(f"drop {cat.counters[u].id}") for u in fleets]
    if _room(cat, state, task.force) >= 0:
        options += [Select(f"{EMBARK}{cat.counters[u].id}") for u in _boardable(ctx, state, task)]
    return ask_choice(
        state, task, player, "19.5", "take land counters on board, drop Fleets, or go", options
    )


def _boardable(ctx: Context, state: BelState, task: OperationsPhase) -> list[int]:
    """Land counters the fleet force may take on board now (19.5, 13.21)."""
    cat = ctx.cat
    if task.rolled or not shore(cat, state, task.where, ctx.option(RIVER_OPTION)):
        return []
    player = task.operator(state)
    spent = set(task.used) | set(task.force)
    carried = state.units.embarked()
    return [
        u
        for u in state.units.at(task.where)
        if not cat.naval[u]
        and u not in spent
        and u not in carried
        and controller(cat, state, u) == player
    ]


# -- landing --------------------------------------------------------------------------------


def _aboard(state: BelState, force: Sequence[int]) -> list[int]:
    carried = state.units.embarked() if state.units.aboard else frozenset()
    return [u for u in force if u in carried]


@RULES.implements("19.54", "19.55")
def debark_items(ctx: Context, state: BelState, task: OperationsPhase) -> list[BelAction]:
    """The landings offered: all passengers, or one of several, on a coast or in a port
    (19.54); a force may also keep them on board (19.55)."""
    passengers = _aboard(state, task.force)
    if not passengers or not shore(ctx.cat, state, task.where, ctx.option(RIVER_OPTION)):
        return []
    items: list[BelAction] = [Select(DEBARK)]
    if len(passengers) > 1:
        items += [Select(f"{DEBARK} {ctx.cat.counters[u].id}") for u in passengers]
    return items


@RULES.implements("19.54", "13.21")
def debark(ctx: Context, state: BelState, task: OperationsPhase, item: str) -> BelState:
    """Land the passengers (``debark``) or one of them (``debark <id>``) where the force
    is; they leave the force and operate no more this phase, the Fleets go on (19.54)."""
    cat = ctx.cat
    if Select(item) not in debark_items(ctx, state, task):
        raise ValueError(f"rule 19.54: {item!r} is not possible now")
    passengers = _aboard(state, task.force)
    landing = passengers if item == DEBARK else [cat.counter(item.removeprefix(f"{DEBARK} "))]
    board = state.units
    for unit in landing:
        board = board.debark(unit)
    ids = ", ".join(cat.counters[u].id for u in landing)
    ctx.log("19.54", f"{ids} land at {task.where}", "debark")
    force = tuple(u for u in task.force if u not in landing)
    used = tuple(sorted({*task.used, *landing}))
    return push(attrs.evolve(state, units=board), attrs.evolve(task, force=force, used=used))


# -- combat ---------------------------------------------------------------------------------


@RULES.implements("19.2", "19.61", "19.62", "19.63", "17.22", "17.28", "29.2")
def fleet_targets(
    cat: Catalog, state: BelState, force: Sequence[int], where: int, rivers: bool = False
) -> list[int]:
    """Adjacent hexes a fleet force may attack: counters all of another side in a hex
    it could sail into (17.28): Fleets at sea or on a coast, land counters on a coast
    or in a port (19.61, 19.62), or, by River Movement, beside its river (29.2). Its
    passengers fight with it (19.63)."""
    if where < FIRST_HEX or not force:
        return []
    player = controller(cat, state, force[0])
    rate = _tables(cat).from_port
    found: list[int] = []
    for other in cat.map.neighbours(where):
        there = state.units.at(other)
        if not there or fleet_step_cost(cat, state, where, other, rate, rivers) is None:
            continue
        if any(controller(cat, state, u) == player for u in there):
            continue
        found.append(other)
    return found


@RULES.implements("17.52", "17.53")
def retreating_stacks(cat: Catalog, state: BelState, units: Sequence[int]) -> list[tuple[int, ...]]:
    """The stacks a defending hex withdraws or retreats as: its Fleets with the land
    counters on board them (17.52) and its land counters ashore, apart, on the same die
    (17.53); a stack of one kind moves whole."""
    cat_naval = cat.naval
    carried = state.units.embarked() if state.units.aboard else frozenset()
    sea = tuple(u for u in units if cat_naval[u] or u in carried)
    land = tuple(u for u in units if not cat_naval[u] and u not in carried)
    return [stack for stack in (sea, land) if stack]


@RULES.implements("17.54", "17.58", "17.9", "19.4", "29.2", "29.3")
def sea_retreat_steps(  # noqa: PLR0917 - the whole position of the retreating stack
    cat: Catalog,
    state: BelState,
    player: int,
    units: Sequence[int],
    where: int,
    visited: Sequence[int],
    last: bool,
    rivers: bool = False,
) -> list[int]:
    """Hexes a withdrawing or retreating stack of Fleets (and their passengers) may
    step into next (17.54, 17.58, 17.9): hexes it could sail into, never counters of
    another side nor hexes already passed, nor enemy Fleets' zones at sea or enemy
    land units' zones on a river (19.4, 29.3); stacking respected at every step (13.1).
    Up a river it may only follow the river (29.2), or it is destroyed. Rivers and
    rough ground do not hold back Fleets on the water (a ruling).
    """
    if where < FIRST_HEX:
        return []
    zones = _Zones(cat, state, player)
    rate = _tables(cat).from_port
    found: list[int] = []
    for other in cat.map.neighbours(where):
        if other in visited:
            continue
        priced = fleet_step_cost(cat, state, where, other, rate, rivers)
        if priced is None or other in zones.of(priced[1]):
            continue
        if any(controller(cat, state, u) != player for u in state.units.at(other)):
            continue
        if not may_end_at(cat, state, units, other):
            continue  # 13.1: not even in passing
        found.append(other)
    return found
