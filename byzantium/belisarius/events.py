"""The Random Events Phase (6.0-6.2) and every event of the Events Chart.

The phasing player rolls two dice read as tens and ones (6.1): one chance node with
two dice, the first the tens. The result picks a row of the Random Events Table
(``tables.toml``); each row's ``id`` names one task here that carries out the event.
Dice the events call for are chance nodes of their own; every decision is asked of
the player the event names (or, where the chart is silent, of the player our rulings
give it to: see the rulings page).

Events and the tasks that run them:

* 11-12 Forces Rally: :class:`ForcesRallyEvent` (11.4)
* 13-14 Constantinopolis Corn Supply: :class:`CornSupplyEvent`
* 15-16 Attrition/Bandits/Pirates: :class:`AttritionEvent`, :class:`AttritionLoss`
* 21 Barbarian Migrations: :class:`MigrationEvent`, :class:`MigrantPlacement` (11.4)
* 22-24 Northern, African and Eastern Wars: :class:`WarEvent`
* 25 Religious Crisis: :class:`ReligiousCrisisEvent`
* 26 Prosperity: :class:`ProsperityEvent`
* 31-32 Plague: :class:`PlagueEvent`, :class:`PlagueStacks`, :class:`PlagueCities`,
  :class:`PlagueStratagems`
* 33 Region Resists: :class:`RegionResistsEvent` (4.41)
* 34 Guard Mutiny: :class:`GuardMutinyEvent` (12.21)
* 35 Corruption: :class:`CorruptionEvent`
* 36 Leader Arises: :class:`LeaderArisesEvent` (21.2)
* 41-43 Revolt: :class:`RevoltEvent`, :class:`LegalReformsOffer` (4.71, Legal Reforms)
* 44 Troops Rally: :class:`TroopsRallyEvent` (12.31)
* 45-46 Intrigue: :class:`IntrigueEvent` (8.2)
* 51-66 No Event
"""

from __future__ import annotations

import math
from collections.abc import Callable

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.revolt import RevoltCheck
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Done,
    Markers,
    Place,
    Roll,
    Select,
    Task,
    opponent,
    place,
)
from byzantium.belisarius.stratagems import LoseStratagems, PickStratagems, may_offer, offered, play
from byzantium.belisarius.world import (
    can_place,
    change_control,
    city_hexes,
    controller,
    eliminate,
    enemy_zoc,
    friendly_units,
    guard_stacks,
    in_play,
    may_stand,
    mutiny_stack,
    occupier,
    one_of_each,
    region_controller,
    restore_stack,
    side_name,
    units_at,
    working_cities,
)

__all__ = [
    "LEGAL_REFORMS",
    "MIGRANT_REGIONS",
    "WAR_REGIONS",
    "AttritionEvent",
    "AttritionLoss",
    "CornSupplyEvent",
    "CorruptionEvent",
    "ForcesRallyEvent",
    "GuardMutinyEvent",
    "IntrigueEvent",
    "LeaderArisesEvent",
    "LegalReformsOffer",
    "MigrantPlacement",
    "MigrationEvent",
    "PlagueCities",
    "PlagueEvent",
    "PlagueStacks",
    "PlagueStratagems",
    "ProsperityEvent",
    "RandomEventsPhase",
    "RegionResistsEvent",
    "ReligiousCrisisEvent",
    "RevoltEvent",
    "TroopsRallyEvent",
    "WarEvent",
    "arising_leaders",
    "corn_fleet",
    "event_number",
    "event_task",
    "leader_locations",
    "migrant_locations",
    "mutiny_targets",
    "plague_areas",
    "prosperity",
    "ravage",
    "resisting_regions",
]

#: The Regions (map names) each war closes to the phasing player's taxes, levies and
#: recruits (events 22-24). The chart's "Burgundians" is the map's Burgundy.
WAR_REGIONS: dict[str, tuple[str, ...]] = {
    "northern-war": ("Franks", "Burgundy", "Lombards", "Slavs", "Scythia"),
    "african-war": ("Mauretania", "Nubia", "Garamantes"),
    "eastern-war": ("Persia", "Arabia"),
}

#: The Regions the Barbarian may call migrants from (event 21).
MIGRANT_REGIONS: tuple[str, ...] = ("Lombards", "Slavs", "Scythia", "Arabia")

#: The Stratagem that negates one Region's Revolt check.
LEGAL_REFORMS = "legal-reforms"

#: Prefix of the Forces Rally option that restores a Mutinying Guard stack.
RESTORE = "restore "

_STRUCK = 5  # Plague strikes an area on 5-6
_DEADLY = 2  # a struck stack dies, a struck city is ravaged, on 1-2


def event_number(roll: Roll) -> int:
    """The Events Table number of a two-dice roll: tens die first (6.1)."""
    tens, ones = roll.dice
    return 10 * tens + ones


# -- the phase ------------------------------------------------------------------------------


@attrs.frozen
class RandomEventsPhase(Task):
    """The phasing player's Random Events Phase: roll, read the table, apply (6.0, 6.1)."""

    @RULES.implements("6.0", "6.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "6.1", "Random Events roll (tens die, ones die)", dice=2)
        number = event_number(answer)
        row = ctx.cat.components.event(number)
        ctx.log("6.1", f"Random event {number}: {row.name}", "event")
        task = event_task(row.id)
        if task is None:
            return state
        return push(state, task)


def event_task(event_id: str) -> Task | None:
    """The task that carries out an event of the table, by id (None: nothing happens)."""
    if event_id in WAR_REGIONS:
        return WarEvent(event_id)
    factory = _EVENTS.get(event_id)
    return None if factory is None else factory()


# -- helpers ----------------------------------------------------------------------------------


def _locations(state: BelState) -> list[int]:
    """Every location with counters in play, in order."""
    return sorted({state.units.where[u] for u in in_play(state)})


def _stacks(state: BelState) -> dict[int, list[int]]:
    """The counters at each location in play, locations in order."""
    found: dict[int, list[int]] = {}
    for unit in in_play(state):
        found.setdefault(state.units.where[unit], []).append(unit)
    return dict(sorted(found.items()))


def _put(ctx: Context, state: BelState, unit: int, where: int, rule: str) -> BelState:
    ctx.log(rule, f"{ctx.cat.counters[unit].id} enters play at {where}", "place")
    return attrs.evolve(state, units=state.units.move(unit, where))


# -- 11-12 Forces Rally ------------------------------------------------------------------------


def _rally_locations(cat: Catalog, state: BelState, unit: int, player: int) -> list[int]:
    """Where a rallied counter may appear: with a friendly counter of its own Region,
    or (a Guard counter) with a friendly Guard counter; stacking permitting."""
    guard = cat.counters[unit].guard
    found: list[int] = []
    for where, there in _stacks(state).items():
        comrades = [
            u
            for u in there
            if controller(cat, state, u) == player
            and (cat.counters[u].guard if guard else cat.home[u] == cat.home[unit])
        ]
        if comrades and can_place(cat, state, unit, where, player):
            found.append(where)
    return found


def _rally_candidates(cat: Catalog, state: BelState, player: int) -> list[int]:
    """One available counter per nationality and type, and every available Leader but
    Justinian, that ``player`` could rally: of a Region he controls, or the Guard for
    the Empire; only those with somewhere to go."""
    seen: set[tuple[str, UnitKind]] = set()
    found: list[int] = []
    for unit, where in enumerate(state.units.where):
        if where != AVAILABLE or unit == cat.justinian:
            continue
        counter = cat.counters[unit]
        if counter.guard:
            if player != EMPIRE:
                continue
        elif region_controller(state, cat.home[unit]) != player:
            continue
        if not counter.leader:
            key = (counter.nationality, counter.kind)
            if key in seen:
                continue
            seen.add(key)
        if _rally_locations(cat, state, unit, player):
            found.append(unit)
    return found


@attrs.frozen
class ForcesRallyEvent(Task):
    """Event 11-12: the phasing player brings one available counter into play beside
    its comrades, or (the Empire) restores one Mutinying Guard stack (11.4).

    ``unit`` is the counter chosen, once chosen (-1 before).
    """

    unit: int = -1

    @RULES.implements("6.2", "11.4", "11.6", "11.61", "18.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = state.phasing
        if self.unit >= 0:
            if isinstance(answer, Place):
                return _put(ctx, state, self.unit, answer.where, "11.4")
            places = _rally_locations(cat, state, self.unit, player)
            return ask_choice(
                state,
                self,
                player,
                "11.4",
                f"place {cat.counters[self.unit].id} with a friendly counter of its own",
                [place(w) for w in places],
            )
        if isinstance(answer, Select):
            if answer.item.startswith(RESTORE):
                where = int(answer.item.removeprefix(RESTORE))
                return restore_stack(ctx, state, where, "11.4")
            return push(state, attrs.evolve(self, unit=cat.counter(answer.item)))
        options: list[BelAction] = [
            Select(cat.counters[u].id) for u in _rally_candidates(cat, state, player)
        ]
        if player == EMPIRE:
            options += [Select(f"{RESTORE}{w}") for w in guard_stacks(cat, state, True)]
        if not options:
            ctx.log("11.4", f"{side_name(player)} has no counter to rally", "event")
            return state
        return ask_choice(
            state,
            self,
            player,
            "11.4",
            "Forces Rally: a counter to bring into play"
            + (", or a Mutinying Guard stack to restore" if player == EMPIRE else ""),
            options,
        )


# -- 13-14 Constantinopolis Corn Supply -------------------------------------------------------


def corn_fleet(cat: Catalog, state: BelState, player: int) -> bool:
    """Whether ``player`` has a Fleet in Alexandria or Carthago (event 13-14)."""
    ports = [c.hex for c in cat.map.cities if c.name in ("Alexandria", "Carthago")]
    return any(
        cat.counters[u].naval and controller(cat, state, u) == player
        for where in ports
        for u in units_at(state, where)
    )


@attrs.frozen
class CornSupplyEvent(Task):
    """Event 13-14: whoever occupies Constantinopolis, phasing or not, needs a Fleet in
    Alexandria or Carthago, or loses a die of Stratagem markers at random (8.51)."""

    @RULES.implements("6.2", "8.5", "8.51")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        holder = occupier(cat, state, cat.capital)
        if holder is None or holder == NOBODY:
            ctx.log("6.2", "nobody holds Constantinopolis: no effect", "event")
            return state
        if corn_fleet(cat, state, holder):
            ctx.log("6.2", f"{side_name(holder)}'s corn fleet sails: no effect", "event")
            return state
        if isinstance(answer, Roll):
            return push(state, LoseStratagems(holder, answer.dice[0], "8.51"))
        if state.stratagems.held(holder) == 0:
            ctx.log("8.51", f"{side_name(holder)} has no Stratagem marker to lose", "event")
            return state
        return ask_roll(state, self, "6.2", f"Stratagem markers {side_name(holder)} loses")


# -- 15-16 Attrition/Bandits/Pirates ----------------------------------------------------------


@attrs.frozen
class AttritionEvent(Task):
    """Event 15-16: the phasing player rolls a die and loses that many counters of his
    choice; on an even roll one of them must be a Leader, if he has one (21.3)."""

    @RULES.implements("6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "6.2", "Attrition: counters the phasing player loses")
        roll = answer.dice[0]
        return push(state, AttritionLoss(state.phasing, roll, roll % 2 == 0))


def _attrition_options(cat: Catalog, state: BelState, player: int, leader: bool) -> list[int]:
    """The counters ``player`` may eliminate next: one of each nationality and type per
    location (a Leader by name), only Leaders while one is owed."""
    mine = friendly_units(cat, state, player)
    leaders = [u for u in mine if cat.counters[u].kind is UnitKind.LEADER]
    pool = leaders if leader and leaders else mine
    ordered = sorted(pool, key=lambda u: (state.units.where[u], u))
    return one_of_each(cat, state, ordered, per_location=True)


@attrs.frozen
class AttritionLoss(Task):
    """``player`` eliminates ``count`` friendly counters of his choice, one at a time;
    with ``leader`` set the first must be a Leader, if he has any (event 15-16)."""

    player: int
    count: int
    leader: bool = False

    @RULES.implements("6.2", "21.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if isinstance(answer, Select):
            state = eliminate(ctx, state, [cat.counter(answer.item)], "6.2")
            return push(state, attrs.evolve(self, count=self.count - 1, leader=False))
        if self.count <= 0:
            return state
        options = _attrition_options(cat, state, self.player, self.leader)
        if not options:
            ctx.log("6.2", f"{side_name(self.player)} has no counters left to lose", "event")
            return state
        what = "a Leader" if self.leader and _all_leaders(cat, options) else "a counter"
        return ask_choice(
            state,
            self,
            self.player,
            "6.2",
            f"Attrition: eliminate {what} ({self.count} to go)",
            [Select(cat.counters[u].id) for u in options],
        )


def _all_leaders(cat: Catalog, units: list[int]) -> bool:
    return all(cat.counters[u].kind is UnitKind.LEADER for u in units)


# -- 21 Barbarian Migrations ------------------------------------------------------------------


@attrs.frozen
class MigrationEvent(Task):
    """Event 21: the Barbarian rolls a die, picks one of Lombards, Slavs, Scythia and
    Arabia, takes it over if it is not already his, and receives that many of its
    counters of Levy types (11.4)."""

    roll: int = 0

    @RULES.implements("6.2", "11.4")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if isinstance(answer, Roll):
            return push(state, attrs.evolve(self, roll=answer.dice[0]))
        if self.roll == 0:
            return ask_roll(state, self, "11.4", "Barbarian Migrations: migrants received")
        regions = [name for name in MIGRANT_REGIONS if name in cat.region_index]
        if isinstance(answer, Select):
            region = cat.region(answer.item)
            ctx.log("11.4", f"{self.roll} migrants come from {answer.item}", "event")
            if region_controller(state, region) != BARBARIAN:
                state = change_control(ctx, state, region, BARBARIAN, "11.4")
            return push(state, MigrantPlacement(region, self.roll))
        if not regions:  # pragma: no cover - the shipped map has them all
            return state
        return ask_choice(
            state,
            self,
            BARBARIAN,
            "11.4",
            f"Barbarian Migrations: the Region {self.roll} migrants come from",
            [Select(name) for name in regions],
        )


def _levy_kinds(cat: Catalog) -> list[UnitKind]:
    return [t.kind for t in cat.components.unit_types if t.levy]


def migrant_locations(cat: Catalog, state: BelState, unit: int, region: int) -> list[int]:
    """Where a migrant may appear: an unpillaged hex of its Region without enemy
    counters or enemy Zone of Control (nor Neutrals, 13.12; stacking permitting), or
    the Region's Peripheral Area box (event 21, 11.63)."""
    zoc = enemy_zoc(cat, state, BARBARIAN)
    found: list[int] = []
    box = cat.box_of(region)
    if box and may_stand(cat, unit, box):
        found.append(box)
    for hex_ in cat.region_hexes[region]:
        if hex_ in state.markers.pillaged or hex_ in zoc:
            continue
        if cat.counters[unit].naval and not cat.map.is_coastal(hex_):
            continue
        if can_place(cat, state, unit, hex_, BARBARIAN):
            found.append(hex_)
    return found


def _first_available(cat: Catalog, state: BelState, nationality: str, kind: UnitKind) -> int:
    for unit in cat.of_nationality(nationality, kind):
        if state.units.where[unit] == AVAILABLE:
            return unit
    return -1


@attrs.frozen
class MigrantPlacement(Task):
    """The Barbarian places ``count`` migrants of ``region`` one by one: for each he
    picks a Levy type (event 21 clarification) and then a location. ``kind`` is the
    type picked for the next one ("" before)."""

    region: int
    count: int
    kind: str = ""

    def _options(self, cat: Catalog, state: BelState) -> list[tuple[UnitKind, int]]:
        nationality = cat.regions[self.region].nationality
        found: list[tuple[UnitKind, int]] = []
        for kind in _levy_kinds(cat):
            unit = _first_available(cat, state, nationality, kind)
            if unit >= 0 and migrant_locations(cat, state, unit, self.region):
                found.append((kind, unit))
        return found

    @RULES.implements("6.2", "11.4", "11.6", "11.63", "18.3", "18.4")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if self.count <= 0:
            return state
        if self.kind:
            unit = _first_available(
                cat, state, cat.regions[self.region].nationality, UnitKind(self.kind)
            )
            if isinstance(answer, Place):
                state = _put(ctx, state, unit, answer.where, "11.4")
                return push(state, attrs.evolve(self, count=self.count - 1, kind=""))
            return ask_choice(
                state,
                self,
                BARBARIAN,
                "11.4",
                f"place migrant {cat.counters[unit].id}",
                [place(w) for w in migrant_locations(cat, state, unit, self.region)],
            )
        if isinstance(answer, Select):
            return push(state, attrs.evolve(self, kind=answer.item))
        options = self._options(cat, state)
        if not options:
            ctx.log("11.4", f"{self.count} migrants find no room and stay away", "event")
            return state
        if len(options) == 1:
            return push(state, attrs.evolve(self, kind=options[0][0].value))
        return ask_choice(
            state,
            self,
            BARBARIAN,
            "11.4",
            f"type of the next migrant ({self.count} to come)",
            [Select(kind.value) for kind, _ in options],
        )


# -- 22-24 wars -----------------------------------------------------------------------


@attrs.frozen
class WarEvent(Task):
    """Events 22-24: the phasing player may not tax, levy or recruit in the war's
    Regions this player turn (``state.barred``)."""

    event: str

    @RULES.implements("6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        names = [n for n in WAR_REGIONS[self.event] if n in ctx.cat.region_index]
        ctx.log("6.2", f"no taxes, levies or recruits this turn in {', '.join(names)}", "event")
        return attrs.evolve(state, barred=state.barred | frozenset(names))


# -- 25 Religious Crisis ---------------------------------------------------------------------


@attrs.frozen
class ReligiousCrisisEvent(Task):
    """Event 25: both players lose half their Stratagem markers at random, rounding
    up (8.51)."""

    @RULES.implements("6.2", "8.5", "8.51")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        order = (state.phasing, opponent(state.phasing))
        losses = [LoseStratagems(p, math.ceil(state.stratagems.held(p) / 2), "8.51") for p in order]
        ctx.log("6.2", "both players lose half their Stratagem markers", "event")
        return push(state, *losses)


# -- 26 Prosperity ---------------------------------------------------------------------


def prosperity(cat: Catalog, state: BelState, player: int) -> int:
    """Solidus Points Prosperity pays ``player``: one per occupied, unpillaged City or
    Colony (27.31)."""
    return len(working_cities(cat, state, player))


@attrs.frozen
class ProsperityEvent(Task):
    """Event 26: each player gains a Solidus Point per friendly occupied City not
    Pillaged (Colonies count as Cities, 27.31)."""

    @RULES.implements("6.2", "27.31", "10.14")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        cat = ctx.cat
        gains = (prosperity(cat, state, EMPIRE), prosperity(cat, state, BARBARIAN))
        ctx.log(
            "6.2", f"Prosperity: the Empire gains {gains[0]}, the Barbarian {gains[1]}", "event"
        )
        solidus = (state.solidus[0] + gains[0], state.solidus[1] + gains[1])
        return attrs.evolve(state, solidus=solidus)


# -- 31-32 Plague -----------------------------------------------------------------------


def plague_areas(cat: Catalog) -> int:
    """How many areas roll for Plague: every Region, then every Peripheral Area box."""
    return len(cat.regions) + len(cat.peripherals)


def _area_stacks(cat: Catalog, state: BelState, area: int) -> list[int]:
    regions = len(cat.regions)
    if area >= regions:
        box = area - regions + 1
        return [box] if units_at(state, box) else []
    return [w for w in _locations(state) if w >= FIRST_HEX and cat.region_of_hex(w) == area]


def _area_cities(cat: Catalog, state: BelState, area: int) -> list[int]:
    if area >= len(cat.regions):
        return []  # a Peripheral Area has no cities and is never pillaged (18.0)
    return [
        h
        for h in sorted(set(city_hexes(cat, state)))
        if cat.region_of_hex(h) == area and h not in state.markers.pillaged
    ]


def _area_name(cat: Catalog, area: int) -> str:
    regions = len(cat.regions)
    if area >= regions:
        return f"the {cat.peripherals[area - regions].name} Peripheral Area"
    return cat.regions[area].name


@attrs.frozen
class PlagueEvent(Task):
    """Event 31-32, step 1: a die for each Region and each Peripheral Area box; 5-6
    strikes it. Areas with neither counters nor unpillaged Cities are not rolled for
    (nothing could happen there). ``area`` is the next area to consider, ``struck``
    the areas struck so far."""

    area: int = 0
    struck: tuple[int, ...] = ()

    @RULES.implements("6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if isinstance(answer, Roll):
            struck = self.struck
            if answer.dice[0] >= _STRUCK:
                ctx.log("6.2", f"Plague strikes {_area_name(cat, self.area)}", "plague")
                struck = (*struck, self.area)
            return push(state, PlagueEvent(self.area + 1, struck))
        for area in range(self.area, plague_areas(cat)):
            if _area_stacks(cat, state, area) or _area_cities(cat, state, area):
                return ask_roll(
                    state,
                    PlagueEvent(area, self.struck),
                    "6.2",
                    f"Plague in {_area_name(cat, area)}? (5-6)",
                )
        stacks = [w for a in self.struck for w in _area_stacks(cat, state, a)]
        cities = [h for a in self.struck for h in _area_cities(cat, state, a)]
        order = (state.phasing, opponent(state.phasing))
        return push(
            state, PlagueStacks(tuple(stacks)), PlagueCities(tuple(cities)), PlagueStratagems(order)
        )


@attrs.frozen
class PlagueStacks(Task):
    """Event 31-32, step 2: a die for each stack (friendly, enemy or Neutral) in a
    struck area; on 1-2 every counter of it is eliminated."""

    stacks: tuple[int, ...]

    @RULES.implements("6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not self.stacks:
            return state
        where = self.stacks[0]
        if isinstance(answer, Roll):
            if answer.dice[0] <= _DEADLY:
                ctx.log("6.2", f"the Plague wipes out the stack at {where}", "plague")
                state = eliminate(ctx, state, units_at(state, where), "6.2")
            return push(state, PlagueStacks(self.stacks[1:]))
        if not units_at(state, where):
            return push(state, PlagueStacks(self.stacks[1:]))
        return ask_roll(state, self, "6.2", f"Plague: does the stack at {where} die? (1-2)")


def ravage(markers: Markers, hex_: int) -> Markers:
    """Markers after the Plague ravages a City or Colony hex: a Colony is removed, a
    City gets a Pillaged marker, and any Public Works marker there goes (event 31-32)."""
    works = markers.works - {hex_}
    if hex_ in markers.colonies:
        return attrs.evolve(markers, colonies=markers.colonies - {hex_}, works=works)
    return attrs.evolve(markers, pillaged=markers.pillaged | {hex_}, works=works)


@attrs.frozen
class PlagueCities(Task):
    """Event 31-32, step 3: a die for each unpillaged City and Colony of a struck
    Region; on 1-2 it is ravaged (:func:`ravage`); nobody gains Solidus Points."""

    cities: tuple[int, ...]

    @RULES.implements("6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not self.cities:
            return state
        hex_ = self.cities[0]
        if isinstance(answer, Roll):
            if answer.dice[0] <= _DEADLY:
                ctx.log("6.2", f"the Plague ravages the city at {hex_}", "plague")
                state = attrs.evolve(state, markers=ravage(state.markers, hex_))
            return push(state, PlagueCities(self.cities[1:]))
        return ask_roll(state, self, "6.2", f"Plague: is the city at {hex_} ravaged? (1-2)")


@attrs.frozen
class PlagueStratagems(Task):
    """Event 31-32, step 4: each player in turn rolls a die and loses that many
    Stratagem markers at random (8.5); a player holding none does not roll."""

    players: tuple[int, ...]

    @RULES.implements("6.2", "8.5", "8.51")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not self.players:
            return state
        player, rest = self.players[0], self.players[1:]
        if isinstance(answer, Roll):
            return push(
                state, LoseStratagems(player, answer.dice[0], "8.51"), PlagueStratagems(rest)
            )
        if state.stratagems.held(player) == 0:
            return push(state, PlagueStratagems(rest))
        return ask_roll(state, self, "6.2", f"Plague: Stratagem markers {side_name(player)} loses")


# -- 33 Region Resists ----------------------------------------------------------------------


def resisting_regions(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Neutral Regions where ``player`` has counters (on a hex or in its box)."""
    found = {cat.region_of(state.units.where[u]) for u in friendly_units(cat, state, player)}
    return sorted(r for r in found if r >= 0 and region_controller(state, r) == NOBODY)


@attrs.frozen
class RegionResistsEvent(Task):
    """Event 33: a Neutral Region holding the phasing player's counters enters the war
    on his enemy's side (4.41, 4.42). With several, the enemy picks one."""

    @RULES.implements("4.41", "4.42", "6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        enemy = opponent(state.phasing)
        regions = resisting_regions(cat, state, state.phasing)
        if isinstance(answer, Select):
            regions = [cat.region(answer.item)]
        if not regions:
            ctx.log("4.41", "no Neutral Region holds the phasing player's counters", "event")
            return state
        if len(regions) == 1:
            ctx.log("4.41", f"{cat.regions[regions[0]].name} resists", "event")
            return change_control(ctx, state, regions[0], enemy, "4.42")
        return ask_choice(
            state,
            self,
            enemy,
            "4.41",
            "Region Resists: the Neutral Region that enters the war on your side",
            [Select(cat.regions[r].name) for r in regions],
        )


# -- 34 Guard Mutiny ----------------------------------------------------------------------


def mutiny_targets(cat: Catalog, state: BelState) -> list[int]:
    """Hexes with loyal Guard counters and no Justinian (12.3)."""
    return [w for w in guard_stacks(cat, state, False) if cat.justinian not in units_at(state, w)]


@attrs.frozen
class GuardMutinyEvent(Task):
    """Event 34: one loyal Guard stack not with Justinian mutinies (12.21, 12.3); the
    Barbarian, who gains it, picks which (12.22 lets him designate stacks likewise)."""

    @RULES.implements("12.21", "12.2", "12.3", "6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if isinstance(answer, Select):
            return mutiny_stack(ctx, state, int(answer.item), "12.21")
        targets = mutiny_targets(cat, state)
        if not targets:
            ctx.log("12.21", "no Guard stack can mutiny", "event")
            return state
        if len(targets) == 1:
            return mutiny_stack(ctx, state, targets[0], "12.21")
        return ask_choice(
            state,
            self,
            BARBARIAN,
            "12.21",
            "Guard Mutiny: the loyal Guard stack that mutinies",
            [Select(str(w)) for w in targets],
        )


# -- 35 Corruption -------------------------------------------------------------------------


@attrs.frozen
class CorruptionEvent(Task):
    """Event 35: the phasing player loses a die of Solidus Points (not below zero); the
    die is rolled whatever the treasury holds (22.1)."""

    @RULES.implements("6.2", "10.14", "22.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        player = state.phasing
        have = state.solidus[player]
        if isinstance(answer, Roll):
            lost = min(have, answer.dice[0])
            # What is lost is bounded by the treasury, so only the loser may read it; the
            # other knows the die alone (22.1).
            name = side_name(player)
            ctx.log(
                "6.2",
                f"Corruption costs {name} {lost} Solidus Points",
                "event",
                owner=player,
                public=f"Corruption costs {name} up to {answer.dice[0]} Solidus Points",
            )
            solidus = list(state.solidus)
            solidus[player] = have - lost
            return attrs.evolve(state, solidus=(solidus[0], solidus[1]))
        # The die is rolled even for an empty treasury: skipping it would tell the other
        # player that the treasury is empty (22.1).
        return ask_roll(state, self, "6.2", "Corruption: Solidus Points lost")


# -- 36 Leader Arises --------------------------------------------------------------------


def leader_locations(cat: Catalog, state: BelState, leader: int, player: int) -> list[int]:
    """Where a gained Leader may appear: on any counter the Empire controls for an
    Empire Leader (21.21), on a counter of its own nationality for a Barbarian one
    (21.22); stacking permitting."""
    own = cat.counters[leader].nationality
    found: list[int] = []
    for where, there in _stacks(state).items():
        hosts = [
            u
            for u in there
            if controller(cat, state, u) == player
            and (player == EMPIRE or cat.counters[u].nationality == own)
        ]
        if hosts and can_place(cat, state, leader, where, player):
            found.append(where)
    return found


def arising_leaders(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Available Leaders (21.1) ``player`` would control (4.12, 21.31) with a place to go."""
    return [
        u
        for u, where in enumerate(state.units.where)
        if where == AVAILABLE
        and cat.counters[u].kind is UnitKind.LEADER
        and controller(cat, state, u) == player
        and leader_locations(cat, state, u, player)
    ]


@attrs.frozen
class LeaderArisesEvent(Task):
    """Event 36: the phasing player chooses an available Leader he would control and
    places it on a friendly counter (21.2, 21.21, 21.22). ``unit`` is the chosen one."""

    unit: int = -1

    @RULES.implements("21.1", "21.2", "21.21", "21.22", "21.3", "11.9", "11.61")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = state.phasing
        if self.unit >= 0:
            if isinstance(answer, Place):
                return _put(ctx, state, self.unit, answer.where, "21.2")
            return ask_choice(
                state,
                self,
                player,
                "21.2",
                f"place {cat.counters[self.unit].id} on a friendly counter",
                [place(w) for w in leader_locations(cat, state, self.unit, player)],
            )
        if isinstance(answer, Select):
            return push(state, LeaderArisesEvent(cat.counter(answer.item)))
        leaders = arising_leaders(cat, state, player)
        if not leaders:
            ctx.log("21.2", f"no Leader can arise for {side_name(player)}", "event")
            return state
        return ask_choice(
            state,
            self,
            player,
            "21.2",
            "Leader Arises: the Leader who comes into play",
            [Select(cat.counters[u].id) for u in leaders],
        )


# -- 41-43 Revolt and Legal Reforms ------------------------------------------------------------


@attrs.frozen
class RevoltEvent(Task):
    """Events 41-43: every Region makes a Revolt check, whoever controls it (4.71); the
    Guard, having no Region, never does (12.0). Legal Reforms may spare a Region."""

    @RULES.implements("4.71", "4.41", "6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        ctx.log("4.71", "every Region checks for Revolt", "event")
        return push(state, *(LegalReformsOffer(r) for r in range(len(ctx.cat.regions))))


@attrs.frozen
class LegalReformsOffer(Task):
    """Before one Region's Revolt roll, each holder of a Legal Reforms marker, the
    phasing player first, may play it to negate that Region's check (8.41, 8.42);
    otherwise the Region rolls (4.71). ``asked`` counts the players already asked.

    Every player with any marker in hand is asked, whether or not one is a Legal
    Reforms (he may then only decline): the question shows the other player nothing
    of his hand (22.1)."""

    region: int
    asked: int = 0

    @RULES.implements("8.41", "8.42", "4.71", "22.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        name = cat.regions[self.region].name
        order = (state.phasing, opponent(state.phasing))
        if isinstance(answer, Select):
            player = order[self.asked]
            state = play(ctx, state, player, LEGAL_REFORMS, "8.42")
            ctx.log("8.41", f"Legal Reforms spare {name} its Revolt check", "event")
            return state
        asked = self.asked + (1 if isinstance(answer, Done) else 0)
        while asked < len(order) and not may_offer(ctx, state, order[asked], LEGAL_REFORMS):
            asked += 1
        if asked >= len(order):
            return push(state, RevoltCheck(self.region, "4.71"))
        player = order[asked]
        return ask_choice(
            state,
            LegalReformsOffer(self.region, asked),
            player,
            "8.41",
            f"play Legal Reforms to spare {name} its Revolt check?",
            (Done(), *offered(ctx, state, player, LEGAL_REFORMS, Select(LEGAL_REFORMS))),
        )


# -- 44 Troops Rally -------------------------------------------------------------------------


@attrs.frozen
class TroopsRallyEvent(Task):
    """Event 44: the Empire may restore one Mutinying Guard stack to loyalty (12.31)."""

    @RULES.implements("12.31", "6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        if isinstance(answer, Select):
            return restore_stack(ctx, state, int(answer.item), "12.31")
        if isinstance(answer, Done):
            return state
        stacks = guard_stacks(cat, state, True)
        if not stacks:
            ctx.log("12.31", "no Guard stack is mutinying", "event")
            return state
        return ask_choice(
            state,
            self,
            EMPIRE,
            "12.31",
            "Troops Rally: a Mutinying Guard stack to restore to loyalty",
            [Done(), *(Select(str(w)) for w in stacks)],
        )


# -- 45-46 Intrigue --------------------------------------------------------------------------


@attrs.frozen
class IntrigueEvent(Task):
    """Events 45-46: the phasing player picks two Stratagem markers from the Pool (8.2)."""

    @RULES.implements("8.2", "6.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        ctx.log("8.2", f"{side_name(state.phasing)} gains two Stratagem markers", "event")
        return push(state, PickStratagems(state.phasing, 2, "8.2"))


_EVENTS: dict[str, Callable[[], Task]] = {
    "forces-rally": ForcesRallyEvent,
    "corn-supply": CornSupplyEvent,
    "attrition": AttritionEvent,
    "barbarian-migrations": MigrationEvent,
    "religious-crisis": ReligiousCrisisEvent,
    "prosperity": ProsperityEvent,
    "plague": PlagueEvent,
    "region-resists": RegionResistsEvent,
    "guard-mutiny": GuardMutinyEvent,
    "corruption": CorruptionEvent,
    "leader-arises": LeaderArisesEvent,
    "revolt": RevoltEvent,
    "troops-rally": TroopsRallyEvent,
    "intrigue": IntrigueEvent,
}
