"""Queries on a Belisarius state that many rules share, and the changes of control.

Who controls a counter (4.2, 4.12, 12.2), what occupies a hex (5.0), Zones of Control
as far as placement needs them (15.1x), whether a counter may be put somewhere
(13.1, 13.12, 13.13, 18.4), and what happens to counters when a Region changes hands:
a Neutral entering the war (4.42), reverting to Neutral (4.51), defecting (4.6), and
Guard stacks mutinying or returning to loyalty (12.2-12.4).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, count
from operator import ne

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    GONE,
    NOBODY,
    BelState,
    Catalog,
    Markers,
    Stratagems,
    Units,
    per_catalog,
)
from byzantium.core.dice import modified
from byzantium.core.procedure import replace, replace_fields

__all__ = [
    "CONTROL_OF",
    "PLAYER_OF",
    "Face",
    "RegionRow",
    "available",
    "box_room",
    "can_place",
    "change_control",
    "city_hexes",
    "controller",
    "controllers",
    "counter_face",
    "eliminate",
    "enemy_zoc",
    "fleet_zones",
    "friendly_units",
    "functioning_city",
    "in_play",
    "lose_all_stratagems",
    "may_be_at",
    "may_stand",
    "modified_roll",
    "mutiny_stack",
    "occupied_cities",
    "occupier",
    "one_of_each",
    "pay",
    "put_reinforcement",
    "region_chart",
    "region_controller",
    "restore_stack",
    "side_name",
    "units_at",
    "with_solidus",
    "working_cities",
]

#: The Control state a player's control is recorded as, and back (4.1).
CONTROL_OF = {EMPIRE: Control.EMPIRE, BARBARIAN: Control.BARBARIAN, NOBODY: Control.NEUTRAL}
PLAYER_OF = {Control.EMPIRE: EMPIRE, Control.BARBARIAN: BARBARIAN, Control.NEUTRAL: NOBODY}


# -- control of counters ------------------------------------------------------------


@RULES.implements("4.0", "4.1")
def region_controller(state: BelState, region: int) -> int:
    """The player controlling a Region, or NOBODY if it is Neutral (4.1)."""
    # PLAYER_OF[control], without hashing the enum (a Python-level hash).
    control = state.control[region]
    if control is Control.EMPIRE:
        return EMPIRE
    return BARBARIAN if control is Control.BARBARIAN else NOBODY


@RULES.implements("4.2", "4.3", "4.31", "4.12", "12.0", "21.31")
def controller(cat: Catalog, state: BelState, unit: int) -> int:
    """The player controlling a counter, or NOBODY for a Neutral one (4.3, 4.31).

    A regional counter (Leaders with a nationality too) belongs to whoever controls
    its Region (4.2, 21.31); Guard counters and Guard Leaders to the Empire while loyal
    and to the Barbarian while Mutinying (4.12, 12.2, 21.32).
    """
    home = cat.home[unit]
    if home < 0:
        return BARBARIAN if state.units.mutiny[unit] else EMPIRE
    # PLAYER_OF[control], without hashing the enum: this is the hottest look-up.
    control = state.control[home]
    if control is Control.EMPIRE:
        return EMPIRE
    return BARBARIAN if control is Control.BARBARIAN else NOBODY


def controllers(cat: Catalog, state: BelState) -> tuple[int, ...]:
    """:func:`controller` of every counter, in counter order: the table the loops over
    all counters read. It depends on control and the Guard's faces only, which change
    seldom, so the last table worked out is kept and given again while both are the
    same."""
    last = _last_controllers(cat)
    units = state.units
    known = last.get(0)
    if (
        known is not None
        and (known[0] is state.control or known[0] == state.control)
        and (known[1] is units.mutiny or known[1] == units.mutiny)
    ):
        return known[2]
    # controller() of each counter, its Region's player read once per Region.
    by_region = [region_controller(state, r) for r in range(len(state.control))]
    faces = units.mutiny
    table = tuple(
        by_region[home] if home >= 0 else (BARBARIAN if faces[unit] else EMPIRE)
        for unit, home in enumerate(cat.home[: len(units.where)])
    )
    last[0] = (state.control, units.mutiny, table)
    return table


@per_catalog
def _last_controllers(
    cat: Catalog,
) -> dict[int, tuple[tuple[Control, ...], tuple[bool, ...], tuple[int, ...]]]:
    """The catalogue's memory of the last :func:`controllers` table (under key 0), with
    the control and Guard faces it was worked out from."""
    del cat
    return {}


def in_play(state: BelState) -> Iterator[int]:
    """Counters on the map or in a Peripheral Area box."""
    return iter(state.units.in_play())


def side_name(player: int) -> str:
    """How the log names a player: "the Empire" or "the Barbarian" ("nobody" else)."""
    return {EMPIRE: "the Empire", BARBARIAN: "the Barbarian"}.get(player, "nobody")


# -- treasuries ------------------------------------------------------------------------


def with_solidus(state: BelState, player: int, change: int) -> BelState:
    """``state`` with ``change`` Solidus Points added to ``player``'s treasury (10.0)."""
    solidus = list(state.solidus)
    solidus[player] += change
    return replace(state, "solidus", (solidus[0], solidus[1]))


def pay(  # noqa: PLR0917 - who pays what, for which rule
    ctx: Context, state: BelState, player: int, cost: int, rule: str, what: str
) -> BelState:
    """``player`` spends ``cost`` Solidus Points on ``what`` under ``rule`` (10.3); more
    than his treasury holds is an error naming the rule."""
    if cost > state.solidus[player]:
        raise ValueError(f"rule {rule}: {what} costs {cost}, more than the treasury")
    ctx.log(rule, f"{side_name(player)} pays {cost} Solidus Points for {what}", "pay")
    return with_solidus(state, player, -cost)


def units_at(state: BelState, where: int) -> list[int]:
    """The counters at a location."""
    return list(state.units.at(where))


def friendly_units(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Counters in play that ``player`` controls."""
    owner = controllers(cat, state)
    return [u for u in state.units.in_play() if owner[u] == player]


@RULES.implements("11.6", "11.61")
def available(cat: Catalog, state: BelState, nationality: str, kind: UnitKind) -> list[int]:
    """Counters of a nationality and type in the off-map stock (11.6: the mix limits).

    Eliminated counters return to the stock and may enter play again (11.61); a
    counter that left the game for good (Justinian) does not.
    """
    where = state.units.where
    return [u for u in cat.of_nationality(nationality, kind) if where[u] == AVAILABLE]


# -- occupation --------------------------------------------------------------------


def occupier(cat: Catalog, state: BelState, where: int) -> int | None:
    """Who has counters at a location: a player, NOBODY (Neutrals) or None (empty)."""
    for unit in state.units.at(where):
        return controller(cat, state, unit)
    return None


def city_hexes(cat: Catalog, state: BelState) -> list[int]:
    """Hexes with a printed City or a Colony marker (27.31)."""
    return [*cat.cities, *sorted(state.markers.colonies)]


@RULES.implements("5.0", "5.1", "27.4")
def occupied_cities(
    cat: Catalog, state: BelState, player: int, region: int | None = None
) -> list[int]:
    """City and Colony hexes ``player`` occupies (5.0), optionally of one Region.

    Occupation, not control, earns a city's taxes and lets recruits appear there (5.1).
    A Colony belongs to nobody: whoever occupies it has its benefits (27.4).
    """
    hexes: Sequence[int]
    if region is None:
        hexes = city_hexes(cat, state)
    elif state.markers.colonies:
        colonies = sorted(h for h in state.markers.colonies if cat.region_of_hex(h) == region)
        hexes = [*cat.region_cities[region], *colonies]
    else:
        hexes = cat.region_cities[region]
    owner = controllers(cat, state)
    at = state.units.at
    # ``player in map(...)``: whether any counter there is his, without a generator.
    return [h for h in hexes if player in map(owner.__getitem__, at(h))]


@RULES.implements("26.3", "26.5", "27.31")
def functioning_city(cat: Catalog, state: BelState, hex_: int) -> bool:
    """Whether a hex holds a City that works as one: a printed City or a Colony
    (27.31) without a Pillaged marker (26.5: the marker suspends a printed City until
    it is lifted; a Colony does not survive a Pillage at all, 27.311).

    The suspended functions are a City's economic ones, which the rules name one by
    one: taxes (10.121, under the optional Pillage rule only), recruits and Guard
    units (11.222, 11.224, 11.7), Levies (11.13), Public Works (28.1) and the
    Prosperity event. A Pillaged printed City keeps its walls: its movement cost,
    defence, retreat and Zone of Control effects stand (see the rulings). A Pillaged
    port stops being one too (26.5, :func:`.naval.is_port`). :func:`working_cities`
    lists those a player occupies.
    """
    if hex_ < FIRST_HEX or hex_ in state.markers.pillaged:
        return False
    return cat.map.city_at(hex_) is not None or hex_ in state.markers.colonies


@RULES.implements("10.121", "11.222", "26.3")
def working_cities(
    cat: Catalog, state: BelState, player: int, region: int | None = None
) -> list[int]:
    """The City and Colony hexes ``player`` occupies (optionally of one Region) that
    are not Pillaged: those that pay taxes under the Pillage option (10.121), take
    recruits (11.222) and count for Prosperity (see :func:`functioning_city`)."""
    pillaged = state.markers.pillaged
    return [h for h in occupied_cities(cat, state, player, region) if h not in pillaged]


# -- zones of control ------------------------------------------------------------------


@RULES.implements(
    "15.0", "15.11", "15.12", "15.13", "15.1#2", "15.12#2", "15.13#2", "15.14", "19.64", "29.3"
)
def enemy_zoc(cat: Catalog, state: BelState, player: int, *, naval: bool = True) -> frozenset[int]:
    """Hexes in a Zone of Control of ``player``'s enemies (of their land units only
    when ``naval`` is false: Fleets' zones do not hinder land movement, 19.4).

    Each belligerent enemy counter on the map projects into its six neighbours (15.11),
    enemy-occupied hexes included (15.1#2); a land unit's not into all-sea hexes nor
    across all-sea hexsides (15.12), a Fleet's not into hexes with no water (15.13).
    Zones never reach into a City or Colony held by units of someone else than the
    enemy (15.12#2), and Neutrals have none (15.13#2). Boxes have none (18.211). Land
    units on board a Fleet have none (15.14, 19.64), nor has a Fleet on an inland hex,
    where only River Movement takes it, nor its passengers (29.3).

    The zones depend on the counters, control and markers only: the last ones worked
    out are kept, and given again while the state has the very same counters, control
    and markers (a menu asks several times; most answers move nobody). When only
    counters that are not the enemy's have moved since (the player's own force
    stepping, most often), the enemy's projection is kept too and only the Cities'
    exception is worked out again (see :func:`_zones_kept`).
    """
    return _kept_zones(cat, state, player, _ALL if naval else _LAND)


@RULES.implements("15.11", "15.13", "15.12#2", "15.13#2", "19.4", "29.3")
def fleet_zones(cat: Catalog, state: BelState, player: int) -> frozenset[int]:
    """Hexes in a Zone of Control of ``player``'s enemies' Fleets only (those that stop
    a fleet force at sea, 19.4): :func:`enemy_zoc`'s reading of a Fleet's zone (15.13,
    not from a Fleet up a river, 29.3) and of the Cities' exception (15.12#2), kept
    the same way."""
    return _kept_zones(cat, state, player, _FLEETS)


#: Whose zones :func:`_kept_zones` works out: every belligerent counter's, land
#: units' only, Fleets' only.
_ALL, _LAND, _FLEETS = "all", "land", "fleets"


def _kept_zones(cat: Catalog, state: BelState, player: int, kinds: str) -> frozenset[int]:
    """The zones of ``kinds`` of ``player``'s enemies, from the catalogue's memory of the
    last ones when it still holds (see :func:`enemy_zoc`)."""
    last = _last_zones(cat)
    key = (player, kinds)
    known = last.get(key)
    if known is not None:
        if (
            known.units is state.units
            and known.control is state.control
            and known.markers is state.markers
        ):
            return known.zoc
        if _zones_kept(cat, known, state, 1 - player):
            if _same_cities(cat, known, state):
                zoc = known.zoc
            else:
                zoc = _cities_excepted(cat, state, 1 - player, known.projected)
            # The entry now holds for this state (kept in place: nothing else holds it).
            known.units, known.control, known.markers = state.units, state.control, state.markers
            known.zoc = zoc
            return zoc
    projected = _projected(cat, state, 1 - player, kinds)
    zoc = _cities_excepted(cat, state, 1 - player, projected)
    last[key] = _Zones(state.units, state.control, state.markers, projected, zoc)
    return zoc


@attrs.define
class _Zones:
    """Zones of Control worked out for one (player, naval) with a catalogue: the
    counters, control and markers they come from, the hexes the enemy's counters
    project into, and the zones after the Cities' exception (15.12#2). The memory's
    entry is brought up to date in place when it still holds for a later state."""

    units: Units
    control: tuple[Control, ...]
    markers: Markers
    projected: frozenset[int]
    zoc: frozenset[int]


@per_catalog
def _last_zones(cat: Catalog) -> dict[tuple[int, str], _Zones]:
    """The catalogue's memory of the last zones (one entry per player and kinds)."""
    del cat
    return {}


def _zones_kept(cat: Catalog, known: _Zones, state: BelState, enemy: int) -> bool:
    """Whether the enemy's counters project exactly as when ``known`` was worked out:
    the same control, Guard faces and passengers, and none of the counters that have
    moved since is the enemy's (who controls a counter depends on those only)."""
    before = known.units
    units = state.units
    if not (
        (known.control is state.control or known.control == state.control)
        and (before.mutiny is units.mutiny or before.mutiny == units.mutiny)
        and before.aboard == units.aboard
    ):
        return False
    moved: Iterable[int] | None = units.moved_since(before.where)
    if moved is None:
        moved = compress(count(), map(ne, before.where, units.where))
    owner = controllers(cat, state)
    return enemy not in map(owner.__getitem__, moved)


def _same_cities(cat: Catalog, known: _Zones, state: BelState) -> bool:
    """Whether the Cities' exception (15.12#2) of ``known`` still holds for ``state``,
    whose enemy counters project as they did (:func:`_zones_kept`): the same markers,
    and no counter moved since from or to a City or Colony hex of the projection (who
    holds a hex changes only there)."""
    if not (known.markers is state.markers or known.markers == state.markers):
        return False
    before, after = known.units.where, state.units.where
    moved = state.units.moved_since(before)
    if moved is None:
        return False
    projected, colonies = known.projected, state.markers.colonies
    for unit in moved:
        for place in (before[unit], after[unit]):
            if place in projected and (place in colonies or cat.map.city_at(place) is not None):
                return False
    return True


def _projected(cat: Catalog, state: BelState, enemy: int, kinds: str) -> frozenset[int]:
    """The hexes ``enemy``'s belligerent counters on the map project into (15.11,
    15.12, 15.13), before the Cities' exception: all of them, or only land units' or
    Fleets' (``kinds``)."""
    where_of = state.units.where
    carried = state.units.embarked() if state.units.aboard else frozenset()
    owner = controllers(cat, state)
    zoc: set[int] = set()
    for unit in state.units.in_play():
        where = where_of[unit]
        fleet = cat.naval[unit]
        wanted = kinds == _ALL or (kinds == _FLEETS) == fleet
        if where >= FIRST_HEX and wanted and owner[unit] == enemy:
            if unit in carried or (fleet and cat.is_land(where) and not cat.map.is_coastal(where)):
                continue  # on board a Fleet (15.14, 19.64), or a Fleet up a river (29.3)
            zoc.update(cat.zoc_reach(where, fleet))
    return frozenset(zoc)


def _cities_excepted(
    cat: Catalog, state: BelState, enemy: int, projected: frozenset[int]
) -> frozenset[int]:
    """``projected`` less the City and Colony hexes held by someone else than the
    enemy (15.12#2)."""
    cities = projected.intersection(cat.cities)
    if state.markers.colonies:
        cities |= projected.intersection(state.markers.colonies)
    held = [
        hex_
        for hex_ in cities
        if (holders := state.units.at(hex_)) and controller(cat, state, holders[0]) != enemy
    ]
    return projected.difference(held) if held else projected


# -- putting counters somewhere ----------------------------------------------------------


@RULES.implements("16.32", "16.33", "19.1", "19.5", "18.2#2", "18.3", "18.22")
def may_stand(cat: Catalog, unit: int, where: int, *, rivers: bool = False) -> bool:
    """Whether a counter's type lets it stand at a location on its own: the one test
    of where land counters and Fleets may be, for every way of putting one there.

    A Fleet stands on a coastal or all-sea hex (19.1, 16.33) or in a Peripheral Area
    box with a port (18.22); a land counter on a land hex or in a box (16.32). A box
    takes only counters of its own nationality (18.2#2, 18.3). A land counter is on
    an all-sea hex only on board a Fleet, and it gets on board only by embarking in a
    port or on a coast (19.5, :mod:`.naval`): it is never put at sea (see the rulings,
    21.2). With ``rivers`` (optional River Movement) a Fleet may also stand on a land
    hex, the caller having checked that a river runs by it (29.2, 29.5).
    :func:`may_be_at` adds the passengers.
    """
    counter = cat.counters[unit]
    if AVAILABLE < where < FIRST_HEX:
        if cat.box_region[where - 1] != cat.home[unit]:
            return False
        return not counter.naval or cat.peripherals[where - 1].port
    if counter.naval:
        return rivers or not cat.is_land(where) or cat.map.is_coastal(where)
    return cat.is_land(where)


@RULES.implements("16.32", "19.5", "19.1", "29.2")
def may_be_at(cat: Catalog, state: BelState, unit: int, where: int, *, rivers: bool) -> bool:
    """Whether a counter in play may be where it is: :func:`may_stand`, or a land
    counter on board a Fleet (19.5) at sea, or with River Movement (``rivers``,
    optional rule 29) a Fleet up a river on a land hex (29.2). What the game must keep
    true of every counter on the map at every moment."""
    if where < FIRST_HEX or may_stand(cat, unit, where):
        return True
    if cat.naval[unit]:
        return rivers
    return bool(state.units.aboard) and unit in state.units.embarked()


@RULES.implements("13.1", "13.11", "13.12", "13.132", "18.3", "18.4", "16.32", "19.1")
def can_place(
    cat: Catalog, state: BelState, unit: int, where: int, owner: int, *, rivers: bool = False
) -> bool:
    """Whether a counter that ``owner`` controls may be put at ``where`` now.

    Only where its type may stand (:func:`may_stand`: never a land counter at sea,
    16.32; a Fleet on water, 19.1, or with ``rivers`` by a river, 29.5). At most 10
    counters a hex, Leaders included (13.1, 13.11; a Peripheral Area box has no
    limit, 18.4, but takes counters of its own nationality only, 18.2#2, 18.3); never
    with counters of another side or with Neutrals (13.12); a Barbarian stack holds
    counters of one Region only, the Mutinying Guard counting as a Region of its own
    (13.132).
    """
    if not may_stand(cat, unit, where, rivers=rivers):
        return False
    there = state.units.at(where)
    if not there:
        return True
    if where >= FIRST_HEX and len(there) >= cat.constant("stacking-limit"):
        return False
    for other in there:
        if controller(cat, state, other) != owner:
            return False
        if owner == BARBARIAN and _identity(cat, state, other) != _identity(cat, state, unit):
            return False
    return True


def _identity(cat: Catalog, state: BelState, unit: int) -> str:
    counter = cat.counters[unit]
    return "mutinying-guard" if counter.guard else counter.nationality


@RULES.implements("11.8")
def box_room(cat: Catalog, state: BelState, box: int) -> int:
    """How many more reinforcements a Peripheral Area box takes this player turn (11.8)."""
    limit = cat.constant("peripheral-reinforcements")
    return max(0, limit - state.boxed.count(box))


def put_reinforcement(state: BelState, unit: int, where: int) -> BelState:
    """Bring a counter into play at ``where``, counting a box's reinforcements (11.8)."""
    units = state.units.move(unit, where)
    if where >= FIRST_HEX:
        return replace(state, "units", units)
    return replace_fields(state, units=units, boxed=(*state.boxed, where))


# -- losing counters -----------------------------------------------------------------------


@RULES.implements("21.3", "21.4", "30.4")
def eliminate(ctx: Context, state: BelState, units: Iterable[int], rule: str) -> BelState:
    """Remove counters from play to the stock (they may come back, 11.61, 21.3).

    Justinian never comes back, and his death costs the Empire player every Stratagem
    marker he holds (21.4, 8.5). A Fleet lost for any reason takes the land counters
    on board with it (30.4, 19.5).
    """
    cat = ctx.cat
    board = state.units
    justinian_died = False
    if board.aboard:
        units = _with_passengers(ctx, board, units, rule)
    for unit in units:
        if board.where[unit] <= AVAILABLE:
            continue
        ctx.log(rule, f"{cat.counters[unit].id} is eliminated", "eliminate")
        if unit == cat.justinian:
            board = board.move(unit, GONE)
            justinian_died = True
        else:
            board = board.move(unit, AVAILABLE)
    state = replace(state, "units", board)
    if justinian_died:
        state = lose_all_stratagems(ctx, state, EMPIRE)
    return state


def _with_passengers(ctx: Context, board: Units, units: Iterable[int], rule: str) -> list[int]:
    """``units`` followed by the passengers of the Fleets among them (30.4)."""
    doomed = list(units)
    chosen = set(doomed)
    for passenger, fleet in board.aboard:
        if fleet in chosen and passenger not in chosen and board.where[fleet] > AVAILABLE:
            text = f"{ctx.cat.counters[passenger].id} goes down with its Fleet ({rule})"
            ctx.log("30.4", text, "eliminate")
            doomed.append(passenger)
            chosen.add(passenger)
    return doomed


@RULES.implements("8.5")
def lose_all_stratagems(ctx: Context, state: BelState, player: int) -> BelState:
    """A player returns every marker he holds to the Pool (8.5: Justinian's death)."""
    held = state.stratagems.hands[player]
    if not any(held):
        return state
    pool = tuple(p + h for p, h in zip(state.stratagems.pool, held, strict=True))
    empty = tuple(0 for _ in held)
    other = state.stratagems.hands[1 - player]
    hands = (empty, other) if player == 0 else (other, empty)
    ctx.log("21.4", f"Justinian's death returns {sum(held)} Stratagem markers to the Pool", "lose")
    return attrs.evolve(state, stratagems=Stratagems(pool, hands))


# -- changes of control ---------------------------------------------------------------------


def change_control(ctx: Context, state: BelState, region: int, to: int, rule: str) -> BelState:
    """Set a Region's control, with the consequences for its counters.

    A Neutral entering the war (4.42), a Region turning Neutral (4.51) or passing to the
    other player (4.6) move or remove counters as those rules say.
    """
    before = region_controller(state, region)
    if before == to:
        return state
    name = ctx.cat.regions[region].name
    control = list(state.control)
    control[region] = CONTROL_OF[to]
    after = replace_fields(state, control=tuple(control))
    label = {EMPIRE: "the Empire", BARBARIAN: "the Barbarian", NOBODY: "Neutral"}[to]
    ctx.log(rule, f"{name} becomes {label}", "control")
    if before == NOBODY:
        return belligerency(ctx, after, region)
    if to == NOBODY:
        return revert_to_neutral(ctx, after, region, before)
    return defect(ctx, after, region, before)


@RULES.implements("4.42", "15.13#2")
def belligerency(ctx: Context, state: BelState, region: int) -> BelState:
    """A Neutral Region enters the war: its counters simply change hands (4.42).

    Neutral counters never share a hex with belligerent ones (13.12), so nothing is
    removed; they gain Zones of Control at once (15.13#2), which :func:`enemy_zoc`
    reads from the new control.
    """
    del ctx, region
    return state


def _region_units(cat: Catalog, state: BelState, region: int) -> list[int]:
    return [u for u in state.units.in_play() if cat.home[u] == region]


def _stacked_with_others(cat: Catalog, state: BelState, unit: int, region: int) -> bool:
    where = state.units.where[unit]
    return any(
        cat.home[other] != region and controller(cat, state, other) != NOBODY
        for other in state.units.at(where)
        if other != unit
    )


@RULES.implements("4.51", "4.52", "13.131")
def revert_to_neutral(ctx: Context, state: BelState, region: int, before: int) -> BelState:
    """A Region turns Neutral (4.51): its counters outside it leave play, except those
    holding a City or Colony; any of them sharing a hex with belligerent counters are
    eliminated (4.51, 13.131). It stays Neutral until something triggers belligerency
    again (4.52).
    """
    del before
    cat = ctx.cat
    cities = set(city_hexes(cat, state))
    leaving: list[int] = []
    for unit in _region_units(cat, state, region):
        where = state.units.where[unit]
        outside = cat.region_of(where) != region
        if (outside and where not in cities) or _stacked_with_others(cat, state, unit, region):
            leaving.append(unit)
    return eliminate(ctx, state, leaving, "4.51")


@RULES.implements("4.6", "13.131")
def defect(ctx: Context, state: BelState, region: int, before: int) -> BelState:
    """A Region passes to the other player (4.6): all its counters follow wherever they
    are, except those stacked with their former comrades, who are eliminated (4.6,
    13.131).
    """
    del before
    cat = ctx.cat
    doomed = [
        u for u in _region_units(cat, state, region) if _stacked_with_others(cat, state, u, region)
    ]
    return eliminate(ctx, state, doomed, "4.6")


# -- the Guard ---------------------------------------------------------------------------


@RULES.implements("12.2", "12.3", "12.4", "21.32")
def mutiny_stack(ctx: Context, state: BelState, where: int, rule: str) -> BelState:
    """The loyal Guard counters at ``where`` (Guard Leaders too) turn Mutinying (12.2, 21.32).

    A stack with Justinian never mutinies (12.3). Non-Guard counters in the hex are not
    affected, but the two groups cannot share the hex: the side with less printed
    combat strength is eliminated, the non-Guard counters on a tie (12.4).
    """
    cat = ctx.cat
    here = units_at(state, where)
    if cat.justinian in here:
        ctx.log("12.3", "the Guard stays loyal beside Justinian", "mutiny")
        return state
    guards = [u for u in here if cat.counters[u].guard and not state.units.mutiny[u]]
    if not guards:
        return state
    ctx.log(rule, f"{len(guards)} Guard counters at {where} mutiny", "mutiny")
    state = attrs.evolve(state, units=state.units.flip(guards, True))
    others = [u for u in here if not cat.counters[u].guard]
    if not others:
        return state
    guard_strength = sum(cat.counters[u].combat for u in guards)
    other_strength = sum(cat.counters[u].combat for u in others)
    losers = others if guard_strength >= other_strength else guards
    return eliminate(ctx, state, losers, "12.4")


@RULES.implements("12.31", "12.32")
def restore_stack(ctx: Context, state: BelState, where: int, rule: str) -> BelState:
    """The Mutinying Guard counters at ``where`` return to loyalty (12.3#2)."""
    cat = ctx.cat
    rebels = [u for u in units_at(state, where) if cat.counters[u].guard and state.units.mutiny[u]]
    if not rebels:
        return state
    ctx.log(rule, f"{len(rebels)} Guard counters at {where} return to loyalty", "loyal")
    return attrs.evolve(state, units=state.units.flip(rebels, False))


def guard_stacks(cat: Catalog, state: BelState, mutinying: bool) -> list[int]:
    """Hexes holding Guard counters of one face (loyal or Mutinying)."""
    hexes = {
        state.units.where[u]
        for u in in_play(state)
        if cat.counters[u].guard and state.units.mutiny[u] is mutinying
    }
    return sorted(hexes)


def one_of_each(
    cat: Catalog, state: BelState, units: Iterable[int], *, per_location: bool = False
) -> list[int]:
    """One counter of each nationality and type among ``units`` (each Leader by name),
    optionally one per location too: the distinct choices when counters are
    interchangeable. Kept in the order given.
    """
    seen: set[tuple[int, str, UnitKind, str]] = set()
    found: list[int] = []
    for unit in units:
        c = cat.counters[unit]
        where = state.units.where[unit] if per_location else 0
        key = (where, c.nationality, c.kind, c.leader)
        if key not in seen:
            seen.add(key)
            found.append(unit)
    return found


def is_leader(cat: Catalog, unit: int) -> bool:
    """Whether a counter is a Leader (21.0)."""
    return cat.counters[unit].kind is UnitKind.LEADER


# -- charts and faces -------------------------------------------------------------------


@RULES.implements("2.6")
def modified_roll(roll: int, modifiers: Iterable[int]) -> int:
    """A die roll with every applicable modifier added, cumulatively (2.6)."""
    return modified(roll, sum(modifiers))


@attrs.frozen
class RegionRow:
    """A line of the Region Control Chart (2.12): name, levy and control."""

    name: str
    levy: int
    control: Control


@RULES.implements("2.12", "4.11")
def region_chart(cat: Catalog, state: BelState) -> tuple[RegionRow, ...]:
    """The Region Control Chart as it stands: each Region's levy and control (2.12)."""
    return tuple(
        RegionRow(region.name, region.levy, state.control[i])
        for i, region in enumerate(cat.regions)
    )


class Face(enum.Enum):
    """How a counter shows on the map (2.31, 4.2, 12.2)."""

    #: Front side up: an Empire-controlled regional counter.
    EMPIRE = "empire"
    #: Back side up: a Barbarian-controlled regional counter.
    BARBARIAN = "barbarian"
    #: Rotated upside down: a Neutral counter (either side up).
    NEUTRAL = "neutral"
    #: A loyal Guard counter (purple front).
    GUARD = "guard"
    #: A Mutinying Guard counter (grey back).
    MUTINYING_GUARD = "mutinying-guard"


@RULES.implements("2.31", "4.2")
def counter_face(cat: Catalog, state: BelState, unit: int) -> Face:
    """The face a counter shows: its controller's side, rotated when Neutral (2.31, 4.2)."""
    if cat.counters[unit].guard:
        return Face.MUTINYING_GUARD if state.units.mutiny[unit] else Face.GUARD
    owner = controller(cat, state, unit)
    if owner == NOBODY:
        return Face.NEUTRAL
    return Face.EMPIRE if owner == EMPIRE else Face.BARBARIAN
