"""The Recruiting Phase (3.1, 10.3, 11.2-11.9): the phasing player spends his treasury.

Justinian in Constantinopolis first earns the Empire two free Stratagem markers
(8.2, 21.4). Then the player makes purchases one at a time until he says Done:

* ``recruit <nationality> <kind>``, then a :class:`~.state.Place`: a Mercenary of a
  Region he controls, in a City or Colony of that Region he occupies, or in the
  Region's Peripheral Area box (10.31, 11.2-11.224, 11.8, 18.3); Guard units for the
  Empire in any City or Colony of an Empire Region held by an Empire unit (11.7);
  with optional rule 31.1 (``additional_placement``) also in any non-desert,
  unpillaged hex holding one of his Leaders;
* ``buy stratagem``: one marker from the Pool (10.32, 8.3);
* ``remove pillage <hex>``: lift a Pillaged marker from a hex he has a unit in (10.36);
* ``public works <hex>`` (optional rule 28): a Public Works marker on a City or
  Colony he has a unit in (10.35, 28.1, 28.2);
* ``play imperial-regalia``: holding Constantinopolis or Roma, roll a die and pick
  that many markers (Stratagem chart);
* ``play theodora-intervenes``: the next recruit this phase costs nothing (our
  provisional effect; its text is not in our copy).

Leaders are never recruited (11.9), nor Neutral units (11.5); the counter mix limits
every recruit (11.6, 11.61). At most one recruit goes in each hex per phase (11.223),
and at most ten reinforcements in a Peripheral Area box per player turn (11.8), counted
here for recruits. Regions barred by the events of 22-24 recruit nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import SolidusItem, UnitKind
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.naval import RIVER_OPTION, is_port
from byzantium.belisarius.state import (
    EMPIRE,
    FIRST_HEX,
    BelAction,
    BelState,
    Catalog,
    Done,
    Markers,
    Place,
    Roll,
    Select,
    Task,
    place,
)
from byzantium.belisarius.stratagems import PickStratagems, play
from byzantium.belisarius.world import (
    available,
    box_room,
    can_place,
    city_hexes,
    controller,
    friendly_units,
    occupied_cities,
    pay,
    put_reinforcement,
    region_controller,
    side_name,
    working_cities,
)
from byzantium.core.procedure import replace_fields

__all__ = [
    "IMPERIAL_REGALIA",
    "THEODORA",
    "RecruitingPhase",
    "RegaliaReturn",
    "leader_sites",
    "public_works_sites",
    "recruit_cost",
    "recruit_places",
    "recruitable",
    "regalia_playable",
    "removable_pillage",
]

IMPERIAL_REGALIA = "imperial-regalia"
THEODORA = "theodora-intervenes"
RECRUIT = "recruit "
BUY = "buy stratagem"
UNPILLAGE = "remove pillage "
WORKS = "public works "
PLAY = "play "
ROMA = "Roma"

#: Types that may be bought as Mercenaries: never Leaders (11.9) nor the Guard's
#: Mutinying face; the Guard's loyal face only through 11.7.
_REGIONAL_KINDS = (
    UnitKind.FIELD_ARMY,
    UnitKind.WARBAND,
    UnitKind.GARRISON,
    UnitKind.NOMAD_HORDE,
    UnitKind.FLEET,
)


# -- what may be recruited, and where ----------------------------------------------------


@RULES.implements("10.31", "11.21")
def recruit_cost(cat: Catalog, kind: UnitKind) -> int | None:
    """Solidus Points a Mercenary of ``kind`` costs (10.31); None if never recruited."""
    return cat.unit_types[kind].recruit


@RULES.implements("11.63", "27.33", "29.5")
def fleet_may_go(cat: Catalog, state: BelState, where: int, *, rivers: bool = False) -> bool:
    """Mercenary Fleets go only to a port (11.63): a port City or a coastal Colony
    (27.33) not Pillaged, or a box with a port symbol; with River Movement also a City
    or Colony beside a river (29.5). See :func:`.naval.is_port`."""
    return is_port(cat, state, where, rivers)


@RULES.implements("11.7")
def guard_sites(cat: Catalog, state: BelState) -> list[int]:
    """City and Colony hexes where a Guard unit may be recruited (11.7).

    Any one of an Empire-controlled Region that an Empire unit occupies, not
    Pillaged, in a Region not barred this player turn.
    """
    return [
        h
        for h in working_cities(cat, state, EMPIRE)
        if region_controller(state, cat.region_of_hex(h)) == EMPIRE
        and cat.regions[cat.region_of_hex(h)].name not in state.barred
    ]


@RULES.implements("11.2", "11.21", "11.221", "11.222", "11.224", "11.8", "18.3", "18.11")
def regional_sites(cat: Catalog, state: BelState, player: int, region: int) -> list[int]:
    """Where recruits of a Region ``player`` controls may go, before per-unit checks.

    The Cities and Colonies of the Region that he occupies and that are not Pillaged
    (11.21, 11.221, 11.222, 11.224), then the Region's Peripheral Area box, which
    needs no occupation (11.8, 18.3, 18.11).
    """
    sites = working_cities(cat, state, player, region)
    box = cat.box_of(region)
    if box:
        sites.append(box)
    return sites


@RULES.implements("31.1")
def leader_sites(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Hexes optional rule 31.1 opens to ``player``'s Mercenaries, in hex order.

    Every land hex holding a Leader he controls, wherever it is, unless it is desert
    or carries a Pillaged marker (31.1). Peripheral Area boxes are not hexes.
    """
    pillaged = state.markers.pillaged
    where_of = state.units.where
    found = {
        where_of[u]
        for u in state.units.in_play()
        if cat.counters[u].kind is UnitKind.LEADER
        and where_of[u] >= FIRST_HEX
        and controller(cat, state, u) == player
    }
    return sorted(
        h
        for h in found
        if h not in pillaged and cat.is_land(h) and cat.map.terrain_at(h) is not Terrain.DESERT
    )


@RULES.implements("11.223", "11.8", "13.1", "13.12", "13.132")
def recruit_places(
    cat: Catalog,
    state: BelState,
    player: int,
    nationality: str,
    kind: UnitKind,
    *,
    used: tuple[int, ...] = (),
    with_leaders: bool = False,
    rivers: bool = False,
) -> list[int]:
    """Locations where ``player`` may put a Mercenary of ``nationality`` and ``kind``.

    Nothing if no counter of it is in the stock (11.6) or if its Region is not his
    (11.221, 11.5) or barred; else the sites of 11.21 or 11.7, and with
    ``with_leaders`` (optional rule 31.1) the hexes of :func:`leader_sites`, leaving
    out hexes that already took a recruit this phase (``used``, 11.223: so at most one
    a hex by 31.1 too), boxes that took ten reinforcements this player turn (11.8),
    ports only for Fleets (11.63; with ``rivers``, River Movement's river ports too,
    29.5), and wherever stacking forbids it (13.1, 13.12, 13.132).
    """
    return list(
        _recruit_sites(
            cat, state, player, nationality, kind, used, with_leaders=with_leaders, rivers=rivers
        )
    )


def _recruit_sites(  # noqa: PLR0917 - the arguments of recruit_places
    cat: Catalog,
    state: BelState,
    player: int,
    nationality: str,
    kind: UnitKind,
    used: tuple[int, ...],
    *,
    with_leaders: bool,
    rivers: bool,
    regions: dict[int, list[int]] | None = None,
) -> Iterator[int]:
    """:func:`recruit_places` one by one, so that whether there is one costs only the
    first (the Recruiting menu asks that of every type). ``regions`` keeps each
    Region's :func:`regional_sites` for the other types asked about the same state."""
    stock = available(cat, state, nationality, kind)
    if not stock:
        return
    unit = stock[0]
    if kind is UnitKind.GUARD:
        if nationality != "guard" or player != EMPIRE:
            return
        sites = guard_sites(cat, state)
    else:
        region = cat.home[unit]
        if region < 0 or region_controller(state, region) != player:
            return
        if cat.regions[region].name in state.barred:
            return
        known = regions.get(region) if regions is not None else None
        sites = known if known is not None else regional_sites(cat, state, player, region)
        if regions is not None:
            regions[region] = sites
    extra: list[int] = []
    if with_leaders:
        extra = [h for h in leader_sites(cat, state, player) if h not in sites]
    for where in (*sites, *extra):
        if where < FIRST_HEX:
            if box_room(cat, state, where) == 0:
                continue
        elif where in used:
            continue
        if kind is UnitKind.FLEET and not fleet_may_go(cat, state, where, rivers=rivers):
            continue
        if can_place(cat, state, unit, where, player, rivers=rivers):
            yield where


@RULES.implements("11.5", "11.6", "11.61", "11.9", "11.7")
def recruitable(cat: Catalog, state: BelState, player: int) -> list[tuple[str, UnitKind]]:
    """(nationality, type) pairs ``player`` could recruit now if he could pay.

    Regional counters of the Regions he controls (never Neutral ones, 11.5), Guard
    units for the Empire (11.7), never Leaders (11.9), each while the stock still
    holds one (11.6, 11.61).
    """
    pairs: list[tuple[str, UnitKind]] = []
    kinds = [kind for kind in _REGIONAL_KINDS if recruit_cost(cat, kind) is not None]
    for r, nationality in enumerate(cat.nationalities):
        if region_controller(state, r) != player:
            continue
        pairs.extend((nationality, kind) for kind in kinds)
    if player == EMPIRE and recruit_cost(cat, UnitKind.GUARD) is not None:
        pairs.append(("guard", UnitKind.GUARD))
    return [(n, k) for n, k in pairs if available(cat, state, n, k)]


@RULES.implements("10.36", "26.4")
def removable_pillage(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Pillaged hexes where ``player`` has a unit, so may buy the marker off (10.36)."""
    mine = {state.units.where[u] for u in friendly_units(cat, state, player)}
    return sorted(h for h in state.markers.pillaged if h in mine)


@RULES.implements("10.35", "28.1", "28.2", "18.0#2")
def public_works_sites(cat: Catalog, state: BelState, player: int) -> list[int]:
    """City and Colony hexes where ``player`` may build Public Works (10.35, 28.1).

    He needs a unit there; one marker per hex (28.2); none in a box (18.0#2, a box
    has no City), nor on a Pillaged hex, whose City does not function (26.5).
    """
    mine = {state.units.where[u] for u in friendly_units(cat, state, player)}
    return [
        h
        for h in city_hexes(cat, state)
        if h in mine and h not in state.markers.works and h not in state.markers.pillaged
    ]


def regalia_playable(cat: Catalog, state: BelState, player: int) -> bool:
    """Whether ``player`` occupies Constantinopolis or Roma (Imperial Regalia)."""
    held = set(occupied_cities(cat, state, player))
    roma = next((c.hex for c in cat.map.cities if c.name == ROMA), 0)
    return cat.capital in held or (roma != 0 and roma in held)


# -- the phase ----------------------------------------------------------------------------


@attrs.frozen
class RecruitingPhase(Task):
    """The phasing player's Recruiting Phase (10.3, 11.2): purchases until Done. The
    menu is put until he says Done, even when Done is all it holds, since what he
    can afford and the markers he holds are his secrets (22.1).

    ``started`` once Justinian's free markers are settled; ``used`` the hexes that
    took a recruit this phase (11.223); ``recruit`` the (nationality, type) bought
    and waiting for its place; ``free`` recruits owed by Theodora Intervenes;
    ``regalia`` while the Imperial Regalia die is awaited.
    """

    started: bool = False
    used: tuple[int, ...] = ()
    recruit: str = ""
    free: int = 0
    regalia: bool = False

    @RULES.implements("10.3", "11.2", "22.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not self.started:
            return self.justinians_markers(ctx, state)
        if self.regalia:
            return self.imperial_regalia(ctx, state, answer)
        if self.recruit:
            return self.place_recruit(ctx, state, answer)
        if isinstance(answer, Select):
            return self._buy(ctx, state, answer.item)
        if isinstance(answer, Done):
            ctx.log("10.3", f"{side_name(state.phasing)} ends the Recruiting Phase", "recruit")
            return state
        # Asked even when Done is all he may do: what he can afford and which markers
        # he holds are his secrets, and so is whether the menu is empty (22.1).
        options = self._options(ctx, state)
        return ask_choice(
            state,
            self,
            state.phasing,
            "10.3",
            f"spend Solidus Points (treasury {state.solidus[state.phasing]}), or Done",
            options,
        )

    @RULES.implements("8.2", "21.4")
    def justinians_markers(self, ctx: Context, state: BelState) -> BelState:
        """Two free markers when Justinian stands in Constantinopolis as the Empire's
        Recruiting Phase begins (8.2, 21.4)."""
        cat = ctx.cat
        following = replace_fields(self, started=True)
        justinian = cat.justinian
        if (
            state.phasing == EMPIRE
            and justinian >= 0
            and state.units.where[justinian] == cat.capital
            and controller(cat, state, justinian) == EMPIRE
        ):
            count = cat.components.constant("justinian-stratagems")
            ctx.log("21.4", f"Justinian in Constantinopolis: the Empire picks {count} markers")
            return push(state, PickStratagems(EMPIRE, count, "21.4"), following)
        return push(state, following)

    # -- the menu ---------------------------------------------------------------------

    def _places(self, ctx: Context, state: BelState, nationality: str, kind: UnitKind) -> list[int]:
        return list(self._sites(ctx, state, nationality, kind))

    def _sites(
        self,
        ctx: Context,
        state: BelState,
        nationality: str,
        kind: UnitKind,
        regions: dict[int, list[int]] | None = None,
    ) -> Iterator[int]:
        return _recruit_sites(
            ctx.cat,
            state,
            state.phasing,
            nationality,
            kind,
            self.used,
            with_leaders=bool(ctx.option("additional_placement")),
            rivers=bool(ctx.option(RIVER_OPTION)),
            regions=regions,
        )

    def _affordable(self, state: BelState, cost: int) -> bool:
        return cost <= state.solidus[state.phasing]

    def _options(self, ctx: Context, state: BelState) -> list[BelAction]:
        cat = ctx.cat
        player = state.phasing
        points = cat.components.solidus_points
        options: list[BelAction] = [Done()]
        regions: dict[int, list[int]] = {}  # each Region's sites, asked once
        for nationality, kind in recruitable(cat, state, player):
            cost = recruit_cost(cat, kind)
            if cost is None or not (self.free or self._affordable(state, cost)):
                continue
            if next(self._sites(ctx, state, nationality, kind, regions), None) is not None:
                options.append(Select(f"{RECRUIT}{nationality} {kind.value}"))
        if any(state.stratagems.pool) and self._affordable(
            state, points(SolidusItem.BUY_STRATAGEM)
        ):
            options.append(Select(BUY))
        if self._affordable(state, points(SolidusItem.REMOVE_PILLAGE)):
            options.extend(Select(f"{UNPILLAGE}{h}") for h in removable_pillage(cat, state, player))
        if ctx.option("public_works") and self._affordable(state, points(SolidusItem.PUBLIC_WORKS)):
            options.extend(Select(f"{WORKS}{h}") for h in public_works_sites(cat, state, player))
        hand = state.stratagems.hands[player]
        if hand[cat.stratagem(IMPERIAL_REGALIA)] and regalia_playable(cat, state, player):
            options.append(Select(PLAY + IMPERIAL_REGALIA))
        if hand[cat.stratagem(THEODORA)]:
            options.append(Select(PLAY + THEODORA))
        return options

    def _buy(self, ctx: Context, state: BelState, item: str) -> BelState:
        player = state.phasing
        if item.startswith(RECRUIT):
            return self._choose_place(ctx, state, item.removeprefix(RECRUIT))
        if item == BUY:
            return self.buy_stratagem(ctx, state)
        if item.startswith(UNPILLAGE):
            return push(self.remove_pillage(ctx, state, int(item.removeprefix(UNPILLAGE))), self)
        if item.startswith(WORKS):
            return push(self.build_works(ctx, state, int(item.removeprefix(WORKS))), self)
        if item == PLAY + IMPERIAL_REGALIA:
            ctx.log("8.41", f"{side_name(player)} reveals the Imperial Regalia", "stratagem")
            return ask_roll(
                state, attrs.evolve(self, regalia=True), "8.41", "Imperial Regalia: markers"
            )
        if item == PLAY + THEODORA:
            state = play(ctx, state, player, THEODORA, "8.41")
            ctx.log("8.41", "Theodora intervenes: the next recruit is free", "stratagem")
            return push(state, attrs.evolve(self, free=self.free + 1))
        raise ValueError(f"rule 10.3: unknown purchase {item!r}")  # pragma: no cover

    @RULES.implements("10.32", "8.2")
    def buy_stratagem(self, ctx: Context, state: BelState) -> BelState:
        """Pay for one Stratagem marker and pick it from the Pool (10.32, 8.2)."""
        cost = ctx.cat.components.solidus_points(SolidusItem.BUY_STRATAGEM)
        state = pay(ctx, state, state.phasing, cost, "10.32", "a Stratagem marker")
        return push(state, PickStratagems(state.phasing, 1, "10.32"), self)

    # -- markers on the map ---------------------------------------------------------------

    @RULES.implements("10.36", "26.4", "26.5")
    def remove_pillage(self, ctx: Context, state: BelState, hex_: int) -> BelState:
        """Pay to lift the Pillaged marker from a hex the player occupies (10.36, 26.4,
        26.5)."""
        cost = ctx.cat.components.solidus_points(SolidusItem.REMOVE_PILLAGE)
        state = pay(
            ctx, state, state.phasing, cost, "10.36", f"lifting the Pillaged marker at {hex_}"
        )
        markers = state.markers
        return attrs.evolve(
            state, markers=attrs.evolve(markers, pillaged=markers.pillaged - {hex_})
        )

    @RULES.implements("10.35", "28.0", "28.1", "28.2")
    def build_works(self, ctx: Context, state: BelState, hex_: int) -> BelState:
        """Pay for and place a Public Works marker on a City or Colony hex (10.35, 28.1,
        28.2)."""
        cost = ctx.cat.components.solidus_points(SolidusItem.PUBLIC_WORKS)
        state = pay(ctx, state, state.phasing, cost, "10.35", f"Public Works at {hex_}")
        markers: Markers = state.markers
        return attrs.evolve(state, markers=attrs.evolve(markers, works=markers.works | {hex_}))

    # -- recruits ----------------------------------------------------------------------------

    def _choose_place(self, ctx: Context, state: BelState, wanted: str) -> BelState:
        nationality, _, kind_name = wanted.partition(" ")
        kind = UnitKind(kind_name)
        places = self._places(ctx, state, nationality, kind)
        if not places:  # pragma: no cover - only offered with a place
            raise ValueError(f"rule 11.21: no place for a {wanted} recruit")
        return ask_choice(
            state,
            replace_fields(self, recruit=wanted),
            state.phasing,
            "11.21",
            f"place the {nationality} {kind.value} recruit",
            [place(w) for w in places],
        )

    @RULES.implements("10.31", "11.21", "11.223", "11.8", "11.62")
    def place_recruit(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Pay for the recruit chosen (10.31; free once after Theodora Intervenes) and
        put it where the player says (11.21, 11.223, 11.8)."""
        cat = ctx.cat
        nationality, _, kind_name = self.recruit.partition(" ")
        kind = UnitKind(kind_name)
        if not isinstance(answer, Place):  # pragma: no cover - the request is a Place
            return self._choose_place(ctx, state, self.recruit)
        unit = available(cat, state, nationality, kind)[0]
        cost = recruit_cost(cat, kind) or 0
        free = self.free
        if free:
            free -= 1
            ctx.log("8.41", f"{cat.counters[unit].id} is recruited free (Theodora)", "recruit")
        else:
            state = pay(ctx, state, state.phasing, cost, "10.31", cat.counters[unit].id)
        where = answer.where
        state = put_reinforcement(state, unit, where)
        ctx.log("11.21", f"{cat.counters[unit].id} is recruited at {where}", "recruit")
        if where < FIRST_HEX:
            following = replace_fields(self, recruit="", free=free)
        else:
            following = replace_fields(self, recruit="", free=free, used=(*self.used, where))
        return push(state, following)

    # -- Imperial Regalia ------------------------------------------------------------------------

    @RULES.implements("8.2", "8.41", "8.42")
    def imperial_regalia(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Imperial Regalia: roll a die and pick that many markers; the Regalia marker
        then returns to the Pool (Stratagem chart, 8.42)."""
        player = state.phasing
        following = attrs.evolve(self, regalia=False)
        if not isinstance(answer, Roll):  # pragma: no cover - the request is a Roll
            return ask_roll(state, self, "8.41", "Imperial Regalia: markers")
        count = answer.dice[0]
        ctx.log(
            "8.41", f"Imperial Regalia: {side_name(player)} may pick {count} markers", "stratagem"
        )
        return push(state, PickStratagems(player, count, "8.41"), RegaliaReturn(player), following)


@attrs.frozen
class RegaliaReturn(Task):
    """The Imperial Regalia marker goes back to the Pool once its picks are made."""

    player: int

    @RULES.implements("8.42")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        kind = ctx.cat.stratagem(IMPERIAL_REGALIA)
        if not state.stratagems.hands[self.player][kind]:  # pragma: no cover - defensive
            return state
        return play(ctx, state, self.player, IMPERIAL_REGALIA, "8.42")
