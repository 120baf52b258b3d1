"""The Levy Phase (3.1, 11.1-11.9): free units for every controlled Region, and the
Leader Stratagem marker.

Each Region the phasing player controls raises up to its Levy value in units of its
own nationality (11.1, 11.11), unless an event bars it this player turn (events
22-24). The player takes the Regions in map order; for each he picks a unit type
among those the Levy may raise (11.131: no Field Army, Leader or Guard) with a
counter left in the stock (11.6), then a place for it:

* a hex of the Region, at most one levied counter a hex this phase (11.12), never
  with enemy or Neutral counters, in an enemy Zone of Control or on a Pillaged
  marker (11.13); deserts are fine; a Fleet only on a coastal hex (11.63);
* or the Region's Peripheral Area box, at most 10 reinforcements a box this player
  turn (11.8, 18.3). Levied Fleets go to a box only if it has a port (11.63).

Stacking limits and the Barbarian's one-Region stacks apply as everywhere (13.1,
13.132). With optional rule 31.2 (``additional_placement``) the Barbarian may also
levy a Warband onto a hex outside its Region holding a Warband of the same Region,
one a hex as any levy, never on desert (:func:`warband_sites`). A Region whose
counters or places run out raises what it can (11.131 note).
:class:`~byzantium.belisarius.state.Done` ends a Region's levy early.

The Leader Stratagem marker is played in the friendly Levy phase (11.3, 11.9, the
Stratagem chart): the phase offers it before the first Region and again after the
last, as often as the player holds markers (8.43). One use brings an available Leader
of the player's into play on a friendly counter (21.2-21.22; Justinian only on a
roll of 1-3); the other has an enemy Leader removed on a roll of 1-3 (the Barbarian
may not aim it at Justinian).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context, ask_choice, ask_menu, ask_roll, proceed, push
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    BelAction,
    BelState,
    Catalog,
    Done,
    Place,
    Roll,
    Select,
    Task,
    per_catalog,
    place,
)
from byzantium.belisarius.stratagems import may_offer, play, playable
from byzantium.belisarius.world import (
    available,
    box_room,
    can_place,
    controller,
    controllers,
    eliminate,
    enemy_zoc,
    in_play,
    put_reinforcement,
    region_controller,
)
from byzantium.core.procedure import replace, replace_fields

__all__ = [
    "GAIN_LEADER",
    "LEADER_STRATAGEM",
    "REMOVE_LEADER",
    "LevyPhase",
    "leader_places",
    "levy_kinds",
    "levy_places",
    "levy_size",
    "removable_leaders",
    "summonable_leaders",
    "warband_sites",
]

#: The Stratagem marker type played in the Levy phase (Stratagem chart, 21.2).
LEADER_STRATAGEM = "leader"
#: The two uses of the Leader marker, as the player selects them.
GAIN_LEADER = "leader: gain a Leader"
REMOVE_LEADER = "leader: remove an enemy Leader"

#: Where the phase stands: the Leader marker before the Regions, then each Region
#: by its map index, then the Leader marker again.
_BEFORE = -1


def _name(player: int) -> str:
    return "the Empire" if player == EMPIRE else "the Barbarian"


# -- the levy proper ------------------------------------------------------------------


@RULES.implements("11.1", "11.11", "4.2")
def levy_size(ctx: Context, state: BelState, region: int) -> int:
    """How many units ``region`` levies for the phasing player this phase.

    Its Levy value if the phasing player controls it (11.1, 11.11, 4.2), none if it
    is Neutral or the enemy's (11.5) or an event bars levies there this player turn
    (events 22-24).
    """
    cat = ctx.cat
    if region_controller(state, region) != state.phasing:
        return 0
    record = cat.regions[region]
    if record.name in state.barred:
        return 0
    return record.levy


@RULES.implements("31.2")
def warband_sites(ctx: Context, state: BelState, region: int) -> list[int]:
    """Land hexes, in order, holding a Warband of ``region`` that optional rule 31.2
    lets the Barbarian levy another Warband of it onto, wherever they are: not a desert
    hex nor a Pillaged one (31.2). Peripheral Area boxes are not hexes.
    """
    cat = ctx.cat
    where_of = state.units.where
    found = {
        where_of[u]
        for u in cat.of_nationality(cat.nationalities[region], UnitKind.WARBAND)
        if where_of[u] >= FIRST_HEX
    }
    pillaged = state.markers.pillaged
    return sorted(
        h
        for h in found
        if h not in pillaged and cat.is_land(h) and cat.map.terrain_at(h) is not Terrain.DESERT
    )


@RULES.implements("11.12", "11.13", "11.63", "11.8", "18.3", "18.4")
def levy_places(
    ctx: Context,
    state: BelState,
    region: int,
    kind: UnitKind,
    *,
    used: tuple[int, ...] = (),
    zoc: frozenset[int] | None = None,
) -> list[int]:
    """Where a unit of ``kind`` levied in ``region`` may go now, hexes first in order.

    A hex of the Region not already given a levied unit this phase (11.12), without
    enemy or Neutral counters, enemy Zone of Control or Pillaged marker (11.13), coastal
    for a Fleet (11.63), within stacking limits (13.1, 13.132); with optional rule 31.2
    (``additional_placement``) a Barbarian Warband may also go to the hexes of
    :func:`warband_sites` outside the Region, under the same limits. Then the Region's
    box, if it has room this turn (11.8, 18.3) and, for a Fleet, a port (11.63).
    """
    return list(_levy_sites(ctx, state, region, kind, used, zoc))


def _place_menu(
    ctx: Context, state: BelState, region: int, kind: UnitKind, used: tuple[int, ...]
) -> list[BelAction]:
    """The menu of where a levied unit goes (:func:`levy_places`)."""
    return [place(w) for w in levy_places(ctx, state, region, kind, used=used)]


def _levy_sites(  # noqa: PLR0917 - the arguments of levy_places
    ctx: Context,
    state: BelState,
    region: int,
    kind: UnitKind,
    used: tuple[int, ...],
    zoc: frozenset[int] | None,
) -> Iterator[int]:
    """:func:`levy_places` one by one, so that whether there is one costs only the
    first (:func:`levy_kinds`)."""
    cat = ctx.cat
    player = state.phasing
    stock = available(cat, state, cat.nationalities[region], kind)
    if not stock:
        return
    unit = stock[0]
    if zoc is None:
        zoc = enemy_zoc(cat, state, player)
    pillaged = state.markers.pillaged
    naval = kind is UnitKind.FLEET
    hexes: tuple[int, ...] | list[int] = (cat.region_coast if naval else cat.region_land)[region]
    if kind is UnitKind.WARBAND and player == BARBARIAN and ctx.option("additional_placement"):
        extra = [h for h in warband_sites(ctx, state, region) if cat.region_of_hex(h) != region]
        if extra:
            hexes = sorted((*hexes, *extra))
    held = state.units.index()
    for hex_ in hexes:
        if hex_ in used or hex_ in pillaged or hex_ in zoc:
            continue
        # These hexes are all ones the unit's type may stand on (land, or coastal for
        # a Fleet): an empty one takes it (can_place).
        if hex_ not in held or can_place(cat, state, unit, hex_, player):
            yield hex_
    box = cat.box_of(region)
    if box and box_room(cat, state, box) > 0:
        fleet_ok = kind is not UnitKind.FLEET or cat.peripherals[box - 1].port
        if fleet_ok and can_place(cat, state, unit, box, player):
            yield box


@RULES.implements("11.131", "11.5", "11.6", "11.61", "11.7", "11.9")
def levy_kinds(
    ctx: Context,
    state: BelState,
    region: int,
    *,
    used: tuple[int, ...] = (),
) -> list[UnitKind]:
    """Unit types ``region`` may levy now: the Levy may raise them (11.131, 11.7, 11.9),
    a counter is left in the stock (11.6, 11.61) and it has somewhere to go.
    """
    cat = ctx.cat
    kinds: list[UnitKind] = []
    zoc = enemy_zoc(cat, state, state.phasing)
    for unit_type in cat.components.unit_types:
        if not unit_type.levy:
            continue
        sites = _levy_sites(ctx, state, region, unit_type.kind, used, zoc)
        if next(sites, None) is not None:
            kinds.append(unit_type.kind)
    return kinds


# -- the Leader marker -------------------------------------------------------------------


@RULES.implements("21.2", "21.21", "21.22", "13.1")
def leader_places(ctx: Context, state: BelState, leader: int, player: int) -> list[int]:
    """Where an arriving Leader may go: with a friendly counter (21.2).

    A Leader the Empire controls joins any Empire-controlled counter (21.21); a
    Barbarian Leader only a counter of its own nationality (21.22). Stacking and
    mixing limits hold (13.1, 13.132). A Peripheral Area box counts as a place with
    room for 10 reinforcements a turn (11.8).
    """
    cat = ctx.cat
    nationality = cat.counters[leader].nationality
    owner = controllers(cat, state)
    places: set[int] = set()
    for unit in in_play(state):
        if unit == leader or owner[unit] != player:
            continue
        if player != EMPIRE and cat.counters[unit].nationality != nationality:
            continue
        places.add(state.units.where[unit])
    return sorted(w for w in places if can_place(cat, state, leader, w, player))


@RULES.implements("21.1", "21.3", "11.5", "11.61")
def summonable_leaders(ctx: Context, state: BelState, player: int) -> list[int]:
    """Leaders in the stock ``player`` would control, with a place to go (21.1, 21.3).

    Eliminated Leaders are back in the stock (11.61); Justinian once dead is not
    (21.4). Leaders of Neutral or enemy Regions are not his to call (11.5).
    """
    cat = ctx.cat
    where = state.units.where
    return [
        leader
        for leader in _leaders(cat)
        if where[leader] == AVAILABLE
        and controller(cat, state, leader) == player
        and leader_places(ctx, state, leader, player)
    ]


@per_catalog
def _leaders(cat: Catalog) -> tuple[int, ...]:
    """The Leader counters of the mix, in counter order."""
    return tuple(c.index for c in cat.counters if c.kind is UnitKind.LEADER)


def removable_leaders(ctx: Context, state: BelState, player: int) -> list[int]:
    """Enemy Leaders in play that ``player`` may aim the Leader marker at.

    The Barbarian may not aim it at Justinian (Stratagem chart).
    """
    cat = ctx.cat
    return [
        u
        for u in in_play(state)
        if cat.counters[u].kind is UnitKind.LEADER
        and controller(cat, state, u) == 1 - player
        and not (player != EMPIRE and u == cat.justinian)
    ]


def _leader_uses(ctx: Context, state: BelState, player: int) -> list[BelAction]:
    """The uses of a Leader marker open now, whether or not the player holds one."""
    uses: list[BelAction] = []
    if summonable_leaders(ctx, state, player):
        uses.append(Select(GAIN_LEADER))
    if removable_leaders(ctx, state, player):
        uses.append(Select(REMOVE_LEADER))
    return uses


# -- the phase -------------------------------------------------------------------------------


@attrs.frozen
class LevyPhase(Task):
    """The phasing player's Levy Phase (3.1, 11.1).

    ``cursor`` is where the phase stands: ``-1`` the Leader marker before the levies,
    a Region index while that Region levies, the number of Regions for the Leader
    marker after them. ``placed`` counts the current Region's levied units, ``kind``
    is the unit type picked and waiting for a place, ``used`` the hexes given a
    levied unit this phase (11.12). ``use`` and ``leader`` carry a Leader marker being played.
    """

    cursor: int = _BEFORE
    placed: int = 0
    kind: str = ""
    used: tuple[int, ...] = ()
    use: str = ""
    leader: int = -1
    #: Justinian's 1-3 roll has come up (21.4).
    rolled: bool = False

    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        regions = len(ctx.cat.regions)
        if self.cursor == _BEFORE or self.cursor >= regions:
            return self.leader_marker(ctx, state, answer)
        return self.levy_step(ctx, state, answer)

    def _next(self) -> LevyPhase:
        return replace_fields(
            self, cursor=self.cursor + 1, placed=0, kind="", use="", leader=-1, rolled=False
        )

    # -- levies --------------------------------------------------------------------------

    @RULES.implements("11.1", "11.11", "11.12", "11.13", "11.131", "11.6", "11.62", "11.8")
    def levy_step(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """One step of the current Region's levy (11.1-11.13): pick a unit type the Levy
        may raise, then a legal hex or the Region's box (11.8), or stop."""
        cat = ctx.cat
        region = self.cursor
        record = cat.regions[region]
        if isinstance(answer, Done):
            ctx.log("11.11", f"{record.name} levies no more this phase", "levy")
            return proceed(ctx, state, self._next())
        if isinstance(answer, Select):
            return proceed(ctx, state, replace(self, "kind", answer.item))
        if isinstance(answer, Place):
            state, following = self._put(ctx, state, answer.where)
            return proceed(ctx, state, following)
        if self.placed >= levy_size(ctx, state, region):
            return proceed(ctx, state, self._next())
        if self.kind:
            # The type was offered because it has somewhere to go (levy_kinds): the
            # places are listed when the menu is first read.
            kind = UnitKind(self.kind)
            return ask_menu(
                state,
                self,
                state.phasing,
                "11.12",
                f"place the levied {record.name} {kind.value}",
                partial(_place_menu, ctx, region=region, kind=kind, used=self.used),
            )
        kinds = levy_kinds(ctx, state, region, used=self.used)
        if not kinds:
            if self.placed == 0:
                ctx.log("11.131", f"{record.name} has nothing it can levy", "levy")
            return proceed(ctx, state, self._next())
        left = levy_size(ctx, state, region) - self.placed
        return ask_choice(
            state,
            self,
            state.phasing,
            "11.11",
            f"{record.name} levies {left} more: pick a unit type, or stop",
            [Done(), *(Select(k.value) for k in kinds)],
        )

    def _put(self, ctx: Context, state: BelState, where: int) -> tuple[BelState, LevyPhase]:
        cat = ctx.cat
        region = self.cursor
        unit = available(cat, state, cat.nationalities[region], UnitKind(self.kind))[0]
        ctx.log("11.12", f"{cat.counters[unit].id} is levied at {where}", "levy")
        state = put_reinforcement(state, unit, where)
        used = (*self.used, where) if where >= FIRST_HEX else self.used
        return state, replace_fields(self, placed=self.placed + 1, kind="", used=used)

    # -- the Leader marker -----------------------------------------------------------------

    @RULES.implements("11.3", "8.41", "8.43", "21.2", "21.21", "21.22", "21.4", "22.1")
    def leader_marker(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The Leader marker in the Levy Phase (11.3, 21.2): gain an available Leader and
        place it (21.21, 21.22; Justinian only on 1-3, 21.4), or try to remove an enemy
        Leader; the marker may be played any number of times (8.43)."""
        cat = ctx.cat
        player = state.phasing
        if self.use == GAIN_LEADER and self.leader >= 0:
            return self._gain(ctx, state, answer)
        if self.use == REMOVE_LEADER and self.leader >= 0:
            return self._remove(ctx, state, answer)
        if self.use:
            if not isinstance(answer, Select):
                return self._ask_leader(ctx, state)
            return push(state, attrs.evolve(self, leader=cat.counter(answer.item)))
        if isinstance(answer, Done):
            return push(state, self._next()) if self.cursor == _BEFORE else state
        if isinstance(answer, Select):
            state = play(ctx, state, player, LEADER_STRATAGEM, "11.3")
            return push(state, attrs.evolve(self, use=answer.item))
        uses = _leader_uses(ctx, state, player)
        # Asked whenever a use is open to a hand with the marker and the hand holds any
        # marker, so that the question does not show whether it holds a Leader (22.1).
        if not uses or not may_offer(ctx, state, player, LEADER_STRATAGEM):
            return push(state, self._next()) if self.cursor == _BEFORE else state
        if not playable(ctx, state, player, LEADER_STRATAGEM):
            uses = []
        when = "before" if self.cursor == _BEFORE else "after"
        return ask_choice(
            state,
            self,
            player,
            "11.3",
            f"play a Leader Stratagem marker {when} the levies?",
            [Done(), *uses],
        )

    def _ask_leader(self, ctx: Context, state: BelState) -> BelState:
        cat = ctx.cat
        player = state.phasing
        if self.use == GAIN_LEADER:
            targets = summonable_leaders(ctx, state, player)
            prompt = "pick the Leader to bring into play"
            rule = "21.2"
        else:
            targets = removable_leaders(ctx, state, player)
            prompt = "pick the enemy Leader to remove"
            rule = "11.3"
        return ask_choice(
            state, self, player, rule, prompt, [Select(cat.counters[u].id) for u in targets]
        )

    def _done_with_marker(self) -> LevyPhase:
        return attrs.evolve(self, use="", leader=-1, rolled=False)

    def _gain(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = state.phasing
        leader = self.leader
        name = cat.counters[leader].id
        if isinstance(answer, Roll):
            if answer.dice[0] > 3:
                ctx.log("21.4", f"{name} does not come back ({answer.dice[0]})", "leader")
                return push(state, self._done_with_marker())
            ctx.log("21.4", f"{name} comes back ({answer.dice[0]})", "leader")
            return push(state, attrs.evolve(self, rolled=True))
        if leader == cat.justinian and not self.rolled:
            return ask_roll(state, self, "21.4", "Justinian returns on 1-3")
        if isinstance(answer, Place):
            ctx.log("21.2", f"{name} arrives at {answer.where}", "leader")
            state = put_reinforcement(state, leader, answer.where)
            return push(state, self._done_with_marker())
        places = [
            w
            for w in leader_places(ctx, state, leader, player)
            if w >= FIRST_HEX or box_room(cat, state, w) > 0
        ]
        if not places:
            ctx.log("21.2", f"{name} has nowhere to go", "leader")
            return push(state, self._done_with_marker())
        return ask_choice(
            state,
            self,
            player,
            "21.21" if player == EMPIRE else "21.22",
            f"place {name} with a friendly unit",
            [place(w) for w in places],
        )

    def _remove(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        name = cat.counters[self.leader].id
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "11.3", f"{name} is removed on 1-3")
        if answer.dice[0] <= 3:
            state = eliminate(ctx, state, [self.leader], "11.3")
        else:
            ctx.log("11.3", f"{name} survives ({answer.dice[0]})", "leader")
        return push(state, self._done_with_marker())
