"""The Operations Phase (3.1, 13.2, 14.0-14.4, 15.2, 16.0-16.7): land movement.

The phasing player takes his forces one at a time (14.1):

* he picks a location (a hex or a Peripheral Area box) holding friendly land counters
  that have not operated yet this phase, or ends the phase (Done, offered first);
* he may leave counters of the location out of the force one by one before its
  roll: they stay free to form another force (13.23); the force never picks any up;
* one die fixes the force's Operations Points (14.21, :func:`.force_operations_points`);
* he then steps the force from place to place (:class:`~.state.Place`) while the
  points last (14.3, 14.31; half points of roads are kept exactly, Q&A), or stops
  (Done). Each step is priced by :func:`.movement.step_cost` (a box by 18.21); it
  never enters counters of another side (16.31); entering an enemy Zone of Control
  stops the force, and a force never steps from one enemy Zone of Control straight
  into another (15.2, 15.21, 15.22, 16.5; boxes as in 18.211). A step is offered
  only into a hex where the force may stand (13.1 stacking "at any time", 13.132:
  :func:`.movement.may_end_at`), so it never passes through an overfull or mixed
  stack. Unused points are lost (14.4).
* after its roll, on the way or before an attack, the force may drop off counters
  where it stands (``drop <id>``; a Fleet with the counters on board it), if they
  may stay there (13.1): they operate no more this phase, not even in a Forced
  March (13.21, 16.4, 17.24).

A Forced March is picked from the same menu as the forces (``forced march <location>``,
``forced march fleet <location>``): at any time of the phase, a player holding the
marker may play it for the counters of a location that have made an Operation this
phase (a move, a combat, a Pillage or a Colonization; 16.7, 16.72, 16.84), whether
other forces have operated since or not. He may first add other counters of his at
that location (16.73), then an attrition die (1-3: he loses a counter of the force of
his choice, 16.71), then a fresh Operations Points roll and another operation.

The force may also attack an adjacent hex of enemy (or Neutral) counters, Fleets on a
coast included (19.62), while it has the Assault price left (17.2x,
:class:`.battle.Battle`); afterwards it goes on with its remaining points (17.25).
With the optional rules it may also Pillage or Colonize where it stands, in any order
with its other actions (14.11, :mod:`.special`).

Fleet forces (``fleet <location>``: Fleets with the land counters on board them) operate
the same way with the differences of 19.0-19.9 (:mod:`.naval`): they take land
counters on board before their roll, roll on their Fleets' values (14.23), sail
instead of march (and, with optional rule 29, go up rivers), land their passengers on
a coast or in a port (``debark``), and attack from the sea.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, partial

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.battle import Battle, LoseCounters, attack_targets
from byzantium.belisarius.components import CombatTable, crt_cost, force_operations_points
from byzantium.belisarius.engine import Context, ask_choice, ask_menu, ask_roll, proceed, push
from byzantium.belisarius.movement import (
    box_entry_hexes,
    cost_scale,
    land_zoc,
    may_end_at,
    neighbour_steps,
    step_cost,
)
from byzantium.belisarius.naval import (
    DEBARK,
    FLEET,
    RIVER_OPTION,
    debark,
    debark_items,
    fleet_forces,
    fleet_steps,
    is_naval,
    naval_drop,
    naval_points,
    naval_step,
)
from byzantium.belisarius.reaction import may_react, offer_reaction
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.special import SPECIAL_ITEMS, special_items, special_operation
from byzantium.belisarius.state import (
    AVAILABLE,
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
    Units,
    opponent,
    per_catalog,
    place,
)
from byzantium.belisarius.stratagems import may_offer, play, playable
from byzantium.belisarius.world import controller, controllers, eliminate
from byzantium.core.procedure import fields_replacer, replace, replace_fields

__all__ = [
    "FORCED_MARCH",
    "OperationsPhase",
    "force_points",
    "forced_march_forces",
    "land_steps",
    "may_drop",
    "operable",
    "operable_at",
]

#: The Stratagem marker type of 16.7.
FORCED_MARCH = "forced-march"

#: The prefix of the Operations menu item that plays it for a location's counters.
FORCED_ITEM = "forced march "
#: The prefix of the item that drops a counter from the force (13.21).
DROP_ITEM = "drop "

#: Stages of a force's operation, in order.
PICK, DROP, ROLL, MOVE, ATTRITION, LOSS = (
    "pick",
    "drop",
    "roll",
    "move",
    "attrition",
    "loss",
)
#: The stage between two forces where the non-phasing player may react (25.1).
REACT = "react"
#: The stage after a Forced March marker is played where the force may be re-formed
#: from the counters of its location (16.73).
REGROUP = "regroup"


def operable(
    ctx: Context, state: BelState, used: tuple[int, ...], player: int = NOBODY
) -> dict[int, tuple[int, ...]]:
    """The operating player's land counters that may still operate, by location (13.21);
    not those on board a Fleet, which move with it (19.5; see :func:`.naval.fleet_forces`).

    ``player`` defaults to the phasing player (a reacting player operates too, 25.1).
    """
    cat = ctx.cat
    player = state.phasing if player == NOBODY else player
    spent = _spent(state, used)
    owner = controllers(cat, state)
    naval = cat.naval
    where_of = state.units.where
    found: dict[int, list[int]] = {}
    for unit in state.units.in_play():
        if owner[unit] == player and not naval[unit] and unit not in spent:
            there = found.get(where_of[unit])
            if there is None:
                found[where_of[unit]] = [unit]
            else:
                there.append(unit)
    return {where: tuple(units) for where, units in sorted(found.items())}


def operable_at(
    ctx: Context, state: BelState, used: tuple[int, ...], where: int, player: int
) -> tuple[int, ...]:
    """:func:`operable` at one location (empty if none there may operate): the force
    picked from the menu, looked up without listing every location again."""
    spent = _spent(state, used)
    owner = controllers(ctx.cat, state)
    naval = ctx.cat.naval
    return tuple(
        unit
        for unit in state.units.at(where)
        if not (unit in spent or naval[unit] or owner[unit] != player)
    )


def _spent(state: BelState, used: tuple[int, ...]) -> set[int]:
    """The counters that may not operate as a land force: those in ``used``, and
    those on board a Fleet, which move with it only (19.5)."""
    spent = set(used)
    if state.units.aboard:
        spent |= state.units.embarked()
    return spent


@RULES.implements("14.2", "14.21")
def force_points(ctx: Context, force: tuple[int, ...], roll: int) -> int:
    """A land force's Operations Points for a die roll (14.21): its lowest Operations
    value plus the roll, doubled or tripled by its best one- or two-star Leader."""
    counters = [ctx.cat.counters[u] for u in force]
    stars = max((c.stars for c in counters), default=0)
    return force_operations_points([c.operations for c in counters], roll, min(stars, 2))


def _entry_cost(ctx: Context, state: BelState, hex_: int) -> Fraction | None:
    """What entering a map hex from a box costs: the hex's own chart line (18.21)."""
    comps = ctx.cat.components
    city = ctx.cat.map.city_at(hex_)
    if city is not None:
        return comps.terrain_type("constantinopolis" if city.capital else "city").movement
    if hex_ in state.markers.colonies:
        return comps.terrain_type("city").movement
    return comps.terrain_type(ctx.cat.map.terrain_at(hex_).value).movement


def _own_box(ctx: Context, force: tuple[int, ...]) -> int:
    """The box a force may enter: that of its one nationality's Region (18.2#2)."""
    homes = {ctx.cat.home[u] for u in force}
    if len(homes) != 1:
        return 0
    home = next(iter(homes))
    return ctx.cat.box_of(home) if home >= 0 else 0


def affordable(cost: Fraction, points: Fraction) -> bool:
    """Whether ``cost`` is at most ``points`` (14.31), compared exactly on the integers
    of the two fractions (Fraction's own comparison is a slower, general one)."""
    return cost.numerator * points.denominator <= points.numerator * cost.denominator


@RULES.implements("16.1", "16.21", "18.21")
def step_price(ctx: Context, state: BelState, where: int, to: int) -> Fraction:
    """What the step from ``where`` to ``to`` that :func:`land_steps` offers costs:
    out of a box, the hex's own chart line (18.21); into the force's box, the box's
    price (18.21); otherwise :func:`.movement.step_cost` (16.1, 16.2x)."""
    cat = ctx.cat
    if where < FIRST_HEX:
        cost = _entry_cost(ctx, state, to)
    elif to < FIRST_HEX:
        cost = cat.components.terrain_type("peripheral-area").movement
    else:
        cost = step_cost(cat, state, where, to)
    if cost is None:
        raise ValueError(f"rule 16.1: no land step from {where} to {to}")
    return cost


@attrs.define
class _ForceSteps:
    """What the steps of one land force depend on besides where it stands, its points
    and the Zones of Control: who operates it, the box it may enter (18.2#2), whether
    it may stand in an empty hex or box (13.1, 13.132), and for each occupied place
    asked so far whether it may step in (16.31, 13.1, 13.12, 13.132). All of these
    depend on the force, control, the Guard's faces and the counters other than the
    force's; they are kept while only the force's own counters move (a force
    stepping), told by the board's memory of what it moved
    (:meth:`~.state.Units.moved_since`)."""

    force: tuple[int, ...]
    player: int
    #: The board these facts hold for: the last one asked, as the force steps.
    board: Units
    control: tuple[Control, ...]
    markers: Markers
    box: int
    #: Hex (True) or box (False) -> whether the force may be there alone.
    empty: dict[bool, bool]
    #: Occupied place -> whether the force may step in.
    held: dict[int, bool]
    #: The force's place -> whether it may stop there (13.1).
    stands: dict[int, bool] = attrs.field(factory=dict)
    #: The force's place -> the places it may attack from there (17.22).
    targets: dict[int, list[int]] = attrs.field(factory=dict)
    #: The force's place -> the drop-off items offered there (13.21), where others
    #: stand too; and alone in a hex (True) or a box (False).
    drops: dict[int, tuple[BelAction, ...]] = attrs.field(factory=dict)
    drops_alone: dict[bool, tuple[BelAction, ...]] = attrs.field(factory=dict)


@per_catalog
def _last_force_steps(cat: Catalog) -> dict[int, _ForceSteps]:
    """The catalogue's memory of the last force's step facts (under key 0)."""
    del cat
    return {}


def _force_steps(ctx: Context, state: BelState, force: tuple[int, ...], player: int) -> _ForceSteps:
    """The step facts of ``force`` (:class:`_ForceSteps`), kept from the last menu when
    only the force's counters have moved since, else worked out afresh."""
    memo = _last_force_steps(ctx.cat)
    known = memo.get(0)
    units = state.units
    if known is not None and known.force == force and known.player == player:
        before = known.board
        if (
            (known.control is state.control or known.control == state.control)
            and (known.markers is state.markers or known.markers == state.markers)
            and (before.mutiny is units.mutiny or before.mutiny == units.mutiny)
            and before.aboard == units.aboard
        ):
            if before.where is units.where:
                return known
            moved = units.moved_since(before.where)
            if moved is not None and not set(moved).difference(force):
                known.board = units
                return known
    box = _own_box(ctx, force)
    fresh = _ForceSteps(force, player, units, state.control, state.markers, box, {}, {})
    memo[0] = fresh
    return fresh


@RULES.implements(
    "13.1",
    "13.132",
    "14.3",
    "14.31",
    "15.2",
    "15.21",
    "15.22",
    "16.1",
    "16.31",
    "16.5",
    "18.21",
    "18.211",
)
def land_steps(  # noqa: PLR0917 - the whole position of the force
    ctx: Context,
    state: BelState,
    force: tuple[int, ...],
    where: int,
    points: Fraction,
    moved: bool | None,
    player: int = NOBODY,
) -> list[tuple[int, Fraction]]:
    """The steps offered to a force at ``where`` with ``points`` left, with their price.

    Into an adjacent place it can pay for (14.31; out of a box into its edge hexes,
    into its own box from one, 18.21, 18.211), never into counters of another side
    (16.31), and into a hex where the force may stand, stacking holding at every step
    of a move and not only where it ends (13.1, 13.132; see the rulings). ``moved`` is
    False before the force's first step, True after it, and None once a step has taken
    it into an enemy Zone of Control (it must stop there, 15.2); a force never steps
    from one enemy Zone of Control straight into another (15.21, 15.22, 16.5).
    ``player`` is the operating player (the phasing one by default).

    What does not change while the force steps is kept from one menu to the next
    (:class:`_ForceSteps`); costs are compared in whole fractions of a point
    (:func:`.movement.neighbour_steps`)."""
    player = state.phasing if player == NOBODY else player
    known = _force_steps(ctx, state, force, player)
    return _land_steps(ctx, state, known, where, points, moved)


def _land_steps(  # noqa: PLR0917 - the whole position of the force
    ctx: Context,
    state: BelState,
    known: _ForceSteps,
    where: int,
    points: Fraction,
    moved: bool | None,
) -> list[tuple[int, Fraction]]:
    """:func:`land_steps` of the force of ``known``, its step facts for ``state``
    (:func:`_force_steps`, which a menu looks up once for all its parts)."""
    cat = ctx.cat
    force, player = known.force, known.player
    held = state.units.index()
    steps: list[tuple[int, Fraction]] = []
    if where < FIRST_HEX:
        for hex_ in box_entry_hexes(cat, where):
            cost = _entry_cost(ctx, state, hex_)
            if cost is not None and affordable(cost, points):
                steps.append((hex_, cost))
    else:
        zoc = land_zoc(cat, state, player)
        in_zoc = not moved and where in zoc
        if moved is not None:
            colonies = state.markers.colonies
            budget = points.numerator * cost_scale(cat) // points.denominator
            for other, printed, scaled in neighbour_steps(cat, state, where):
                if in_zoc and other in zoc:
                    continue
                if other in colonies:
                    cost = step_cost(cat, state, where, other)
                    if cost is not None and affordable(cost, points):
                        steps.append((other, cost))
                elif printed is not None and scaled <= budget:
                    steps.append((other, printed))
        box = known.box
        if box and where in box_entry_hexes(cat, box):
            price = cat.components.terrain_type("peripheral-area").movement
            if price is not None and affordable(price, points):
                steps.append((box, price))
    found: list[tuple[int, Fraction]] = []
    for other, cost in steps:
        if other in held:
            may = known.held.get(other)
            if may is None:
                may = known.held[other] = _may_step_into(ctx, state, force, other, player)
        else:
            kind = other >= FIRST_HEX
            may = known.empty.get(kind)
            if may is None:
                may = known.empty[kind] = may_end_at(cat, state, force, other)
        if may:
            found.append((other, cost))
    return found


def _alone(state: BelState, force: tuple[int, ...], where: int) -> bool:
    """Whether the counters at ``where`` are those of ``force`` and no others."""
    there = state.units.at(where)
    return len(there) == len(force) and (there == force or set(there) == set(force))


def _may_step_into(
    ctx: Context, state: BelState, force: tuple[int, ...], other: int, player: int
) -> bool:
    """Whether ``force`` of ``player`` may step into the occupied place ``other``: no
    counter of another side in a hex (16.31), and room to stand there (13.1, 13.132)."""
    owner = controllers(ctx.cat, state)
    if other >= FIRST_HEX and any(owner[u] != player for u in state.units.at(other)):
        return False
    return may_end_at(ctx.cat, state, force, other)


@per_catalog
def _assault_price(cat: Catalog) -> Fraction:
    """The Operations Points of an Assault (17.61, :func:`.components.crt_cost`), read
    once per catalogue: every movement menu compares the force's points with it."""
    return crt_cost(cat.components, CombatTable.ASSAULT)


def _ids(ctx: Context, units: tuple[int, ...]) -> str:
    return ", ".join(ctx.cat.counters[u].id for u in units)


@RULES.implements("16.7", "16.72", "16.84", "13.21", "19.54")
def forced_march_forces(
    ctx: Context,
    state: BelState,
    operated: tuple[int, ...],
    dropped: tuple[int, ...],
    player: int,
) -> dict[str, tuple[tuple[int, ...], int]]:
    """The forces ``player`` may play a Forced March marker for now, by menu label
    (``"3623"`` for land counters, ``"fleet 3623"`` for Fleets with their passengers):
    at each location, his counters there that have made an Operation this phase
    (``operated``), whenever that was (16.72, 16.84), but never those dropped off a
    force or landed from a Fleet (``dropped``: 13.21, 16.4, 19.54)."""
    cat = ctx.cat
    spent = set(dropped)
    carried = state.units.embarked() if state.units.aboard else frozenset()
    land: dict[int, list[int]] = {}
    fleets: dict[int, list[int]] = {}
    for unit in sorted(set(operated)):
        where = state.units.where[unit]
        if where <= AVAILABLE or unit in spent or unit in carried:
            continue
        if controller(cat, state, unit) != player:
            continue
        (fleets if cat.naval[unit] else land).setdefault(where, []).append(unit)
    found: dict[str, tuple[tuple[int, ...], int]] = {}
    for where, units in sorted(land.items()):
        found[str(where)] = (tuple(units), where)
    board = state.units
    for where, units in sorted(fleets.items()):
        force = tuple(sorted((*units, *(p for f in units for p in board.passengers(f)))))
        found[f"{FLEET}{where}"] = (force, where)
    return found


@RULES.implements("13.21", "16.4", "17.24", "13.1")
def may_drop(ctx: Context, state: BelState, force: tuple[int, ...], unit: int, where: int) -> bool:
    """Whether the operating force at ``where`` may drop off ``unit`` there now (with
    the counters on board it, for a Fleet): the force keeps at least one counter, and
    what is dropped may stay where it is as stacking goes (13.1, 13.12, 13.132)."""
    if unit not in force or len(force) < 2 or unit in state.units.embarked():
        return False
    leaving = (unit, *state.units.passengers(unit)) if ctx.cat.naval[unit] else (unit,)
    if len(leaving) >= len(force):
        return False
    return may_end_at(ctx.cat, state, leaving, where)


@per_catalog
def _differences(cat: Catalog) -> dict[tuple[int, int, int, int], Fraction]:
    """Operations Points left after paying a price (:func:`_less`), by the integers of
    the points and the price, filled in as asked."""
    del cat
    return {}


def _less(cat: Catalog, points: Fraction, cost: Fraction) -> Fraction:
    """``points - cost``: a force pays a price at every step (14.31), and Fraction's
    own subtraction is a slow, general one, while the same few prices and totals
    come back over and over. The differences are kept per catalogue, keyed by the
    four integers of the two fractions (a Fraction's own hash is slow too)."""
    key = (points.numerator, points.denominator, cost.numerator, cost.denominator)
    table = _differences(cat)
    left = table.get(key)
    if left is None:
        left = table[key] = points - cost
    return left


@cache
def _item(prefix: str, where: int) -> Select:
    """The menu item ``prefix`` + location (a force to pick, a hex to attack), one
    shared record each: the Operations menus list them over and over."""
    return Select(f"{prefix}{where}")


def _not_negative(task: object, attribute: attrs.Attribute[Fraction], value: Fraction) -> None:
    """A force's Operations Points left are never negative (14.31): the check of
    ``attrs.validators.ge(0)``, on the fraction's sign (the task is rebuilt at every
    step of a force)."""
    del task
    if value.numerator < 0:
        raise ValueError(f"'{attribute.name}' must be >= 0: {value}")


@attrs.frozen
class OperationsPhase(Task):
    """The phasing player's Operations Phase: his forces move one after the other."""

    stage: str = PICK
    #: Counters that have operated, or were dropped after operating, this phase
    #: (13.21, 16.4).
    used: tuple[int, ...] = ()
    force: tuple[int, ...] = ()
    where: int = 0
    points: Fraction = attrs.field(default=Fraction(0), validator=_not_negative)
    #: Whether the force has stepped since its last Operations Points roll; None once
    #: a step took it into an enemy Zone of Control, where it must stop (15.2).
    moved: bool | None = False
    #: Whether the force has had its first Operations Points roll: counters left out
    #: before it stay free to form another force (13.23), later drops do not (13.21).
    rolled: bool = False
    #: Where the force was at its last Operations Points roll: a fleet force's price a
    #: hex depends on it (19.52).
    origin: int = 0
    #: Whether this is the non-phasing player's Reaction with one force (25.1): the
    #: operating player is then the non-phasing one, and the task ends with the force.
    reaction: bool = False
    #: The other player's spent counters: in the phasing player's phase, those that
    #: have reacted (25.2); during a Reaction, the phasing player's ``used``, handed
    #: back to him when it ends.
    reacted: tuple[int, ...] = ()
    #: The phasing player's counters that have made an Operation this phase (a step, a
    #: combat, a Pillage, a Colonization): those a Forced March may take (16.72).
    operated: tuple[int, ...] = ()
    #: The phasing player's counters dropped off a force (or landed from a Fleet) this
    #: phase: they operate no more, not even in a Forced March (13.21, 16.4, 19.54).
    dropped: tuple[int, ...] = ()

    def operator(self, state: BelState) -> int:
        """The operating player: the phasing one, or the non-phasing one reacting (25.1)."""
        return 1 - state.phasing if self.reaction else state.phasing

    @RULES.implements("14.0", "14.1", "14.11", "13.2", "13.21", "13.23", "16.4", "14.4")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.stage == PICK:
            return self._pick(ctx, state, answer)
        if self.stage == DROP:
            return self._drop(ctx, state, answer)
        if self.stage == ROLL:
            return self._roll(ctx, state, answer)
        if self.stage == MOVE:
            return self._move(ctx, state, answer)
        if self.stage == ATTRITION:
            return self.forced_march_attrition(ctx, state, answer)
        if self.stage == REACT:
            return self._react(ctx, state, answer)
        if self.stage == REGROUP:
            return self.regroup(ctx, state, answer)
        return self._loss(ctx, state, answer)

    def next_force(self, ctx: Context, state: BelState) -> BelState:
        """The force is done: the phasing player goes on with another (14.1), after
        the non-phasing player's chance to react (25.1); a Reaction ends with its one
        force and hands the phase back (25.1)."""
        operated, dropped = self.operated, self.dropped
        if self.reaction:
            following = OperationsPhase(
                used=self.reacted, reacted=self.used, operated=operated, dropped=dropped
            )
        else:
            stage = REACT if ctx.option("reaction") else PICK
            following = OperationsPhase(
                stage=stage,
                used=self.used,
                reacted=self.reacted,
                operated=operated,
                dropped=dropped,
            )
        return proceed(ctx, state, following)

    def _react(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The non-phasing player may react with a force not yet reacted (25.1, 25.2)."""
        forces: dict[str, tuple[tuple[int, ...], int]] = {}
        if may_react(ctx, state):
            player = opponent(state.phasing)
            for where, force in operable(ctx, state, self.reacted, player).items():
                forces[str(where)] = (force, where)
            for where, force in fleet_forces(ctx.cat, state, self.reacted, player).items():
                forces[f"{FLEET}{where}"] = (force, where)
        go_on = attrs.evolve(self, stage=PICK)
        return offer_reaction(ctx, state, answer, self, forces, self.reacting_force, go_on)

    def reacting_force(self, force: tuple[int, ...], where: int) -> OperationsPhase:
        """The Reaction of the non-phasing player's ``force`` at ``where`` (25.1): a
        standard operation from its forming (13.23); its counters join those that
        have reacted (25.2)."""
        return OperationsPhase(
            stage=DROP,
            force=force,
            where=where,
            used=self.reacted,
            reacted=self.used,
            reaction=True,
            operated=self.operated,
            dropped=self.dropped,
        )

    def forced_marches(
        self, ctx: Context, state: BelState
    ) -> dict[str, tuple[tuple[int, ...], int]]:
        """The Forced Marches the phasing player may start now, by menu label (16.7,
        16.72): none in a Reaction, or without the marker."""
        player = self.operator(state)
        if self.reaction or not playable(ctx, state, player, FORCED_MARCH):
            return {}
        return forced_march_forces(ctx, state, self.operated, self.dropped, player)

    def may_march(self, ctx: Context, state: BelState) -> bool:
        """Whether the question may offer a Forced March, judged by what the other
        player may know (22.1): forces that could march and a hand that is not empty,
        not whether it holds the marker (:func:`~.stratagems.may_offer`). A player
        asked without the marker may only go on or end the phase."""
        player = self.operator(state)
        return (
            not self.reaction
            and may_offer(ctx, state, player, FORCED_MARCH)
            and bool(forced_march_forces(ctx, state, self.operated, self.dropped, player))
        )

    def _pick(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        # An answer looks up only the list it was picked from (the menu offered it).
        if isinstance(answer, Done):
            return state
        player = self.operator(state)
        if isinstance(answer, Select) and answer.item.startswith(FORCED_ITEM):
            marches = self.forced_marches(ctx, state)
            force, where = marches[answer.item.removeprefix(FORCED_ITEM)]
            return self.forced_march(ctx, state, force, where)
        if isinstance(answer, Select):
            naval = answer.item.startswith(FLEET)
            where = int(answer.item.removeprefix(FLEET if naval else "force "))
            if naval:
                force = fleet_forces(ctx.cat, state, self.used, player)[where]
            else:
                force = operable_at(ctx, state, self.used, where, player)
            if ctx.recording:
                ctx.log("14.1", f"the force at {where} operates: {_ids(ctx, force)}", "force")
            return proceed(ctx, state, replace_fields(self, stage=DROP, force=force, where=where))
        forces = operable(ctx, state, self.used, player)
        fleets = fleet_forces(ctx.cat, state, self.used, player)
        if not (forces or fleets or self.may_march(ctx, state)):
            return state
        marches = self.forced_marches(ctx, state)
        options: list[BelAction] = [Done()]
        options += [_item("force ", where) for where in forces]
        options += [_item(FLEET, where) for where in fleets]
        options += [Select(f"{FORCED_ITEM}{label}") for label in marches]
        return ask_choice(
            state,
            self,
            player,
            "14.1",
            "pick a force to operate (or to Forced March), or end the phase",
            options,
        )

    def _drop(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not isinstance(answer, Done) and is_naval(ctx.cat, self.force):
            return naval_drop(ctx, state, self, answer)
        if isinstance(answer, Select):
            counter = ctx.cat.counter(answer.item.removeprefix(DROP_ITEM))
            ctx.log("13.23", f"{ctx.cat.counters[counter].id} is left out of the force", "drop")
            force = tuple(u for u in self.force if u != counter)
            return push(state, replace(self, "force", force))
        if isinstance(answer, Done):
            used = tuple(sorted(set(self.used) | set(self.force)))
            return proceed(ctx, state, replace_fields(self, stage=ROLL, used=used))
        options: list[BelAction] = [Done()]
        if len(self.force) > 1:
            options += [Select(f"{DROP_ITEM}{ctx.cat.counters[u].id}") for u in self.force]
        return ask_choice(
            state,
            self,
            self.operator(state),
            "13.21",
            "drop counters from the force, or go",
            options,
        )

    def _roll(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if isinstance(answer, Roll):
            if is_naval(ctx.cat, self.force):
                points = naval_points(ctx.cat, self.force, answer.dice[0])
            else:
                points = force_points(ctx, self.force, answer.dice[0])
            if ctx.recording:
                text = f"the force rolls {answer.dice[0]}: {points} Operations Points"
                ctx.log("14.21", text, "ops")
            following = replace_fields(
                self,
                stage=MOVE,
                points=Fraction(points),
                moved=False,
                rolled=True,
                origin=self.where,
            )
            return proceed(ctx, state, following)
        return ask_roll(state, self, "14.21", "the force's Operations Points roll")

    def _move(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not self.force:
            return self.next_force(ctx, state)
        if answer is None:
            return self._move_menu(ctx, state)
        if isinstance(answer, Done):
            return self.finish_force(ctx, state)
        if isinstance(answer, Place):
            if is_naval(ctx.cat, self.force):
                return naval_step(ctx, state, self.acting(), answer.where)
            return self.acting().step_force(ctx, state, answer.where)
        if isinstance(answer, Select) and answer.item.startswith(DROP_ITEM):
            return self.drop_off(ctx, state, answer.item.removeprefix(DROP_ITEM))
        if isinstance(answer, Select) and answer.item.startswith(DEBARK):
            return debark(ctx, state, self.landing(ctx, state, answer.item), answer.item)
        if isinstance(answer, Select) and answer.item in SPECIAL_ITEMS:
            args = (self.force, self.where, self.points, answer.item)
            return special_operation(ctx, state, self.acting(), *args)
        if isinstance(answer, Select):
            return self.acting().attack(ctx, state, int(answer.item.removeprefix("attack ")))
        raise ValueError(f"rule 16.1: {answer!r} does not answer the movement menu")

    def _move_menu(self, ctx: Context, state: BelState) -> BelState:
        """What the force may do next: stop, step, attack, a Special Operation, land
        passengers or drop counters off (14.11, 16.1, 17.21, 13.21); the force is done
        when it can do nothing but stop (14.4).

        Whether it can do anything more is decided now, from its steps (and, only
        when it has none, its other Operations); the menu itself is built when it is
        first read (:meth:`_move_options`)."""
        cat = ctx.cat
        force, where = self.force, self.where
        naval = is_naval(cat, force)
        player = self.operator(state)
        known = _force_steps(ctx, state, force, player)
        steps: list[tuple[int, Fraction]]
        if naval:
            steps = fleet_steps(ctx, state, self)
        else:
            steps = _land_steps(ctx, state, known, where, self.points, self.moved)
        if (
            not steps
            and not self._targets(ctx, state, known)
            and not special_items(ctx, state, force, where, self.points)
            and not (naval and debark_items(ctx, state, self))
        ):
            return self.finish_force(ctx, state)
        return ask_menu(
            state,
            self,
            player,
            "16.1",
            f"move the force ({self.points} Operations Points left), or stop",
            partial(self._move_options, ctx, steps=steps),
        )

    def _move_options(
        self, ctx: Context, state: BelState, steps: list[tuple[int, Fraction]]
    ) -> list[BelAction]:
        """The movement menu of :meth:`_move_menu` (``steps``: the force's steps)."""
        cat = ctx.cat
        force, where = self.force, self.where
        naval = is_naval(cat, force)
        known = _force_steps(ctx, state, force, self.operator(state))
        targets = self._targets(ctx, state, known)
        specials = special_items(ctx, state, force, where, self.points)
        landings = debark_items(ctx, state, self) if naval else []
        # With nobody else there, what may be dropped off depends on the force and on
        # whether it stands in a hex or a box only.
        alone = _alone(state, force, where)
        drops = known.drops_alone.get(where >= FIRST_HEX) if alone else known.drops.get(where)
        if drops is None:
            drops = tuple(
                Select(f"{DROP_ITEM}{cat.counters[u].id}")
                for u in force
                if may_drop(ctx, state, force, u, where)
            )
            if alone:
                known.drops_alone[where >= FIRST_HEX] = drops
            else:
                known.drops[where] = drops
        options: list[BelAction] = []
        if self.moved is False:
            options.append(Done())
        else:
            stands = known.stands.get(where)
            if stands is None:
                if alone:
                    stands = known.empty.get(where >= FIRST_HEX)
                if stands is None:
                    stands = may_end_at(cat, state, force, where)
                known.stands[where] = stands
            if stands:
                options.append(Done())
        options += [place(where) for where, _ in steps]
        options += [_item("attack ", target) for target in targets]
        options += specials
        options += landings
        options += drops
        return options

    @RULES.implements("17.21", "17.22", "17.23", "15.31", "17.26", "17.28", "17.61")
    def targets(self, ctx: Context, state: BelState) -> list[int]:
        """Hexes the force may attack now: adjacent, of another side, entered by land,
        with at least the Assault price left (17.22, 17.26, 17.28, 17.61)."""
        return self._targets(ctx, state, _force_steps(ctx, state, self.force, self.operator(state)))

    def _targets(self, ctx: Context, state: BelState, known: _ForceSteps) -> list[int]:
        """:meth:`targets`, with the force's step facts (:func:`_force_steps`) given."""
        if not affordable(_assault_price(ctx.cat), self.points):
            return []
        targets = known.targets.get(self.where)
        if targets is None:
            rivers = ctx.option(RIVER_OPTION)
            targets = attack_targets(ctx.cat, state, self.force, self.where, rivers=rivers)
            known.targets[self.where] = targets
        return targets

    @RULES.implements("17.11", "17.25", "17.93")
    def attack(self, ctx: Context, state: BelState, target: int) -> BelState:
        """The force attacks ``target``; it goes on with what points remain afterwards
        (17.25) and never advances into the hex (17.93)."""
        ctx.log("17.11", f"the force at {self.where} attacks {target}", "attack")
        battle = Battle(
            self.force, self.where, target, self.points, self, attacker=self.operator(state)
        )
        return push(state, battle)

    @RULES.implements("16.1", "16.21", "18.21", "15.2", "13.22")
    def step_force(self, ctx: Context, state: BelState, to: int) -> BelState:
        """Move the force one step to ``to`` and pay its price (16.1, 16.21, 18.21);
        entering an enemy Zone of Control stops it (15.2)."""
        zoc = land_zoc(ctx.cat, state, self.operator(state))
        cost = step_price(ctx, state, self.where, to)
        state = replace(state, "units", state.units.move_all(self.force, to))
        left = _less(ctx.cat, self.points, cost)
        if ctx.recording:
            rule = "18.21" if to < FIRST_HEX or self.where < FIRST_HEX else "16.1"
            ctx.log(rule, f"the force moves {self.where} -> {to} for {cost} ({left} left)", "move")
        moved: bool | None = True
        if to >= FIRST_HEX and to in zoc:
            ctx.log("15.2", f"the force enters an enemy Zone of Control at {to}: it stops", "zoc")
            moved = None
        return proceed(ctx, state, _stepped(self, to, left, moved))

    @RULES.implements("14.4")
    def finish_force(self, ctx: Context, state: BelState) -> BelState:
        """The force is done: unused points are lost (14.4); the phase goes on (a Forced
        March for it is one of the items of the next menu, 16.72)."""
        if self.points:
            ctx.log("14.4", f"{self.points} unused Operations Points are lost", "ops")
        return self.next_force(ctx, state)

    def acting(self) -> OperationsPhase:
        """The task as the force makes an Operation (a step, a combat, a Pillage or a
        Colonization): its counters may Forced March afterwards (16.72). A reacting
        force never may (25.1), so nothing is marked for it."""
        if self.reaction:
            return self
        marked = self.operated
        if not set(self.force).difference(marked):
            return self
        return replace(self, "operated", tuple(sorted({*marked, *self.force})))

    def landing(self, ctx: Context, state: BelState, item: str) -> OperationsPhase:
        """The task as passengers land (``item``, 19.54): they operate no more this
        phase, not even in a Forced March (marked dropped; 19.54, 13.21)."""
        if self.reaction:
            return self
        carried = state.units.embarked()
        landing = [u for u in self.force if u in carried]
        if item != DEBARK:
            landing = [ctx.cat.counter(item.removeprefix(f"{DEBARK} "))]
        return attrs.evolve(self, dropped=tuple(sorted({*self.dropped, *landing})))

    @RULES.implements("13.21", "16.4", "17.24")
    def drop_off(self, ctx: Context, state: BelState, counter_id: str) -> BelState:
        """The force drops off a counter where it stands (a Fleet with the counters on
        board it): it stays there and operates no more this phase (13.21, 16.4), nor
        takes part in the force's next combat (17.24); the force keeps its points."""
        cat = ctx.cat
        unit = cat.counter(counter_id)
        if not may_drop(ctx, state, self.force, unit, self.where):
            raise ValueError(f"rule 13.21: {counter_id} may not be dropped off here")
        leaving = (unit, *state.units.passengers(unit)) if cat.naval[unit] else (unit,)
        ctx.log("13.21", f"{_ids(ctx, leaving)} dropped off at {self.where}", "drop")
        force = tuple(u for u in self.force if u not in leaving)
        used = tuple(sorted({*self.used, *leaving}))
        dropped = self.dropped if self.reaction else tuple(sorted({*self.dropped, *leaving}))
        return push(state, replace_fields(self, force=force, used=used, dropped=dropped))

    @RULES.implements("16.7", "16.71", "16.72", "16.84")
    def forced_march(
        self, ctx: Context, state: BelState, force: tuple[int, ...], where: int
    ) -> BelState:
        """The player plays a Forced March marker for ``force``, counters at ``where``
        that have made an Operation this phase (16.72, whenever that was): re-forming
        (16.73), the attrition die (16.71), then a new operation (16.84)."""
        state = play(ctx, state, self.operator(state), FORCED_MARCH, "16.71")
        ctx.log("16.7", f"Forced March at {where}: {_ids(ctx, force)}", "forced march")
        following = attrs.evolve(
            self, stage=REGROUP, force=force, where=where, rolled=True, moved=False
        )
        return push(state, following)

    @RULES.implements("16.73")
    def regroup(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Before the Forced March's attrition roll the player may add to the force, one
        at a time, any other land counters of his at its location, whether they have
        operated this phase or not (16.73); dropping comes after the roll (DROP)."""
        cat = ctx.cat
        if isinstance(answer, Select):
            counter = cat.counter(answer.item.removeprefix("join "))
            ctx.log("16.73", f"{cat.counters[counter].id} joins the force", "join")
            return push(state, attrs.evolve(self, force=tuple(sorted((*self.force, counter)))))
        joiners: tuple[int, ...] = ()
        if not isinstance(answer, Done) and not any(cat.naval[u] for u in self.force):
            here = operable(ctx, state, self.dropped, self.operator(state)).get(self.where, ())
            joiners = tuple(u for u in here if u not in self.force)
        if not joiners:
            return push(state, attrs.evolve(self, stage=ATTRITION))
        options: list[BelAction] = [Done()]
        options += [Select(f"join {cat.counters[u].id}") for u in joiners]
        return ask_choice(
            state,
            self,
            self.operator(state),
            "16.73",
            "add counters of this location to the force, or go on",
            options,
        )

    @RULES.implements("16.71", "16.84")
    def forced_march_attrition(
        self, ctx: Context, state: BelState, answer: BelAction | None
    ) -> BelState:
        """The Forced March attrition die: on 1-3 the player loses a counter of the
        force, then the force rolls new Operations Points (16.71, 16.84)."""
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "16.71", "Forced March attrition roll")
        roll = answer.dice[0]
        if roll >= 4:
            ctx.log("16.71", f"Forced March attrition roll {roll}: no loss", "forced march")
            return push(state, attrs.evolve(self, stage=DROP))
        ctx.log("16.71", f"Forced March attrition roll {roll}: a counter is lost", "forced march")
        if len(self.force) == 1:
            state = eliminate(ctx, state, self.force, "16.71")
            return self.next_force(ctx, state)
        lose = LoseCounters(self.operator(state), self.force, 1, "16.71")
        return push(state, lose, attrs.evolve(self, stage=LOSS))

    def _loss(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """After the attrition loss (16.71) the force is what is left of it (nothing,
        if the counter lost was a Fleet carrying the rest, 30.4)."""
        del answer
        force = tuple(u for u in self.force if state.units.where[u] > AVAILABLE)
        if not force:
            return self.next_force(ctx, state)
        return push(state, attrs.evolve(self, stage=DROP, force=force))


#: The copy of the task a land force's step makes (its place, its points left and
#: whether it has moved), the copy maker looked up once (:func:`.step_force`).
_stepped = fields_replacer(OperationsPhase, "where", "points", "moved")
