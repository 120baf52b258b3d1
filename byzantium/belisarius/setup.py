"""Setting up a scenario (34.0-34.3) as a sequence of placement decisions.

The scenario data say which counters each Region receives; where they go inside the
Region is the players' choice, one counter at a time, under 34.0's restrictions:

* a counter goes in a hex of the Region of its name (or in its Peripheral Area box
  when the scenario says so);
* no hex may start with more counters than its Forage value (so none in a desert
  or a Pillaged hex), nor more than the stacking limit (13.1), nor counters of
  different sides or (for the Barbarian) Regions (13.12, 13.132);
* Fleets start on coastal hexes (19.1);
* every City of the Region gets at least one counter: a hex is offered only if the
  counters still to be placed can then fill as many of the Region's empty Cities as
  they possibly could (Fleets fill only coastal ones);
* a scenario may keep a deployment off a named City and its neighbours.

The side named by the scenario sets up first, then the Neutrals (placed by the
Barbarian player, 34.1), then the other side. Then both players pick their initial
Stratagem markers (8.2) and game turn one begins.
"""

from __future__ import annotations

from itertools import compress, repeat

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import Side, UnitKind
from byzantium.belisarius.engine import Context, ask_choice, proceed, push
from byzantium.belisarius.scenarios import Placement, SetupGroup
from byzantium.belisarius.sequence import GameTurn
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Markers,
    Place,
    Task,
    Units,
    per_catalog,
    place,
)
from byzantium.belisarius.stratagems import PickStratagems, initial_pool
from byzantium.belisarius.world import CONTROL_OF, can_place, controller
from byzantium.core.procedure import replace

__all__ = ["Deploy", "initial_state", "setup_hexes"]


def _group_order(ctx: Context) -> tuple[SetupGroup, ...]:
    first = ctx.cat.scenario.sets_up_first
    if first is Side.BARBARIAN:
        return (SetupGroup.BARBARIAN, SetupGroup.NEUTRAL, SetupGroup.EMPIRE)
    return (SetupGroup.EMPIRE, SetupGroup.NEUTRAL, SetupGroup.BARBARIAN)


@RULES.implements("34.0", "34.1", "34.2", "34.3", "4.11", "19.1")
def initial_state(ctx: Context) -> BelState:
    """The state before the first placement: control, treasuries, the full Pool (34.x)."""
    cat = ctx.cat
    scenario = cat.scenario
    control = [CONTROL_OF[NOBODY]] * len(cat.regions)
    for entry in scenario.control:
        control[cat.region_by_code[entry.region]] = entry.control
    solidus = (
        scenario.treasury(Side.EMPIRE).solidus,
        scenario.treasury(Side.BARBARIAN).solidus,
    )
    n = len(cat.counters)
    state = BelState(
        turn=0,
        phasing=BARBARIAN if scenario.sets_up_first is Side.BARBARIAN else EMPIRE,
        phase="setup",
        units=Units((AVAILABLE,) * n, (False,) * n),
        control=tuple(control),
        solidus=solidus,
        stratagems=initial_pool(ctx),
        markers=Markers(),
    )
    ctx.log("34.0", f"Scenario {scenario.number}: {scenario.name}", "setup")
    deployments = [Deploy(group) for group in _group_order(ctx)]
    picks = [
        PickStratagems(player, scenario.treasury(side).stratagems, "8.2")
        for player, side in ((BARBARIAN, Side.BARBARIAN), (EMPIRE, Side.EMPIRE))
    ]
    return push(state, *deployments, *picks, GameTurn(scenario.first_turn))


def _placer(group: SetupGroup) -> int:
    return EMPIRE if group is SetupGroup.EMPIRE else BARBARIAN


def _counter_for(ctx: Context, state: BelState, placement: Placement) -> int | None:
    cat = ctx.cat
    if placement.kind is UnitKind.LEADER:
        unit = cat.counter(placement.leader)
        return unit if state.units.where[unit] == AVAILABLE else None
    nationality = placement.nationality or cat.regions[cat.region_by_code[placement.region]].name
    for unit in cat.of_nationality(nationality.lower(), placement.kind):
        if state.units.where[unit] == AVAILABLE:
            return unit
    return None


@attrs.frozen
class Deploy(Task):
    """Place one setup group's counters, one at a time (34.0).

    ``entry`` is the position in the group's placement list and ``placed`` how many
    counters of that entry are down.
    """

    group: SetupGroup
    entry: int = 0
    placed: int = 0

    def _entries(self, ctx: Context) -> tuple[Placement, ...]:
        return _group_entries(ctx.cat)[self.group]

    @RULES.implements("34.0")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        entries = self._entries(ctx)
        if self.entry >= len(entries):
            return state
        placement = entries[self.entry]
        total = _size(placement)
        if self.placed >= total:
            return push(state, Deploy(self.group, self.entry + 1))
        unit = _counter_for(ctx, state, placement)
        following = replace(self, "placed", self.placed + 1)
        if unit is None:
            ctx.log("34.0", f"no counter left for {placement.kind.value} in {placement.region}")
            return push(state, following)
        cat = ctx.cat
        if placement.peripheral:
            box = cat.box_of(cat.region_by_code[placement.region])
            return push(_put(ctx, state, unit, box), following)
        if isinstance(answer, Place):
            return proceed(ctx, _put(ctx, state, unit, answer.where), following)
        later = [
            (p, total - self.placed - 1 if k == 0 else _size(p))
            for k, p in enumerate(entries[self.entry :])
            if p.region == placement.region and not p.peripheral
        ]
        naval = sum(n for p, n in later if p.kind is UnitKind.FLEET)
        rest = (sum(n for _, n in later) - naval, naval)
        hexes = setup_hexes(ctx, state, unit, placement, rest)
        region = cat.region_by_code[placement.region]
        if not hexes:
            ctx.log("34.0", f"{cat.counters[unit].id} has no legal hex and stays off the map")
            return push(state, following)
        return ask_choice(
            state,
            self,
            _placer(self.group),
            "34.0",
            f"place {cat.counters[unit].id} in {cat.regions[region].name}",
            [place(h) for h in hexes],
        )


@per_catalog
def _group_entries(cat: Catalog) -> dict[SetupGroup, tuple[Placement, ...]]:
    """Each set-up group's placements in the scenario's order, listed once per catalogue."""
    return {
        group: tuple(p for p in cat.scenario.placements if p.group is group) for group in SetupGroup
    }


def _put(ctx: Context, state: BelState, unit: int, where: int) -> BelState:
    ctx.log("34.0", f"{ctx.cat.counters[unit].id} is set up at {where}", "place")
    return replace(state, "units", state.units.move(unit, where))


def _size(placement: Placement) -> int:
    return 1 if placement.kind is UnitKind.LEADER else placement.count


def _coverage(land: int, naval: int, inland: int, coastal: int) -> int:
    """The most empty Cities ``land`` counters and ``naval`` Fleets can still fill.

    Land counters may fill any City, Fleets only coastal ones (19.1): land counters
    go first to the inland Cities, the rest share the coastal ones with the Fleets.
    """
    first = min(inland, land)
    return first + min(coastal, naval + land - first)


#: Per Region, (hex, forage) pairs: see :func:`_standing`.
_Spots = tuple[tuple[tuple[int, int], ...], ...]


@per_catalog
def _standing(cat: Catalog) -> tuple[_Spots, _Spots]:
    """Per Region, the hexes where a land counter (first) and a Fleet (second) may stand
    by their type (:func:`.world.may_stand`), of those set-up looks at, each with the
    units it feeds as printed (20.1; no Pillaged marker nor Colony): the same for every
    set-up, worked out once per catalogue."""
    printed = Markers()
    land = tuple(
        tuple((h, cat.forage(h, printed)) for h in hexes if cat.is_land(h))
        for hexes in cat.region_land
    )
    naval = tuple(
        tuple(
            (h, cat.forage(h, printed))
            for h in hexes
            if not cat.is_land(h) or cat.map.is_coastal(h)
        )
        for hexes in cat.region_coast
    )
    return land, naval


def setup_hexes(
    ctx: Context, state: BelState, unit: int, placement: Placement, rest: tuple[int, int]
) -> list[int]:
    """The hexes where a counter may be set up (34.0), in hex order.

    ``rest`` counts the land counters and the Fleets this group still has to place in
    the Region after this one. Of the legal hexes, only those are offered that leave
    the group able to fill as many of the Region's empty Cities as it possibly can.
    """
    cat = ctx.cat
    region = cat.region_by_code[placement.region]
    owner = controller(cat, state, unit)
    naval = cat.counters[unit].naval
    barred: set[int] = set()
    if placement.not_near_city:
        city = cat.map.city(placement.not_near_city).hex
        barred = {city, *cat.map.neighbours(city)}
    held = state.units.index()
    markers = state.markers
    spots = _standing(cat)[naval][region]
    # A hex where the counter's type may stand takes it when empty (can_place), if it
    # feeds one more; an occupied one if it feeds one more and can_place agrees.
    legal: list[int]
    if not (barred or markers.pillaged or markers.colonies):  # the printed Forage
        legal = [
            hex_
            for hex_, feeds in spots
            if (feeds > 0 if not (there := held.get(hex_)) else len(there) < feeds)
            and (not there or can_place(cat, state, unit, hex_, owner))
        ]
    else:
        legal = []
        for hex_, _ in spots:
            if hex_ in barred:
                continue
            there = held.get(hex_, ())
            if len(there) >= cat.forage(hex_, markers):
                continue
            if not there or can_place(cat, state, unit, hex_, owner):
                legal.append(hex_)
    empty = {
        c.hex
        for c in cat.map.cities_in(cat.regions[region].name)
        if c.hex not in barred and c.hex not in held
    }
    coastal = {h for h in empty if cat.map.is_coastal(h)}
    inland = empty - coastal
    land, fleets = rest
    elsewhere = _coverage(land, fleets, len(inland), len(coastal))

    def filled(hex_: int) -> int:
        if hex_ not in empty:
            return elsewhere
        inland_left = len(inland) - (hex_ in inland)
        coastal_left = len(coastal) - (hex_ in coastal)
        return 1 + _coverage(land, fleets, inland_left, coastal_left)

    # Every legal hex but the empty Cities scores ``elsewhere``: only those are worked out.
    if not empty:
        return legal  # every legal hex scores the same
    scores = {h: filled(h) for h in empty}
    values = list(map(scores.get, legal, repeat(elsewhere)))
    best = max(values, default=0)
    return list(compress(legal, map(best.__eq__, values)))
