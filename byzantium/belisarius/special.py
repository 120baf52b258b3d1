"""Special Operations (optional rules): Pillage (26.0-26.5) and Colonization (27.0-27.6).

Both are Operations of the operating force, chosen from its menu in the Operations
Phase like a step or an attack, as often and in whatever order its Operations Points
allow (14.11). Pillage needs the ``pillage`` option, Colonization ``colonization``.

* Pillage (26.1): pay its Operations Points, count the counters of the force (land,
  naval and Leaders alike, nothing multiplied, 26.11), roll one die on that column of
  the Pillage Table: a failure, or a Pillaged marker and Solidus Points looted. The
  marker wrecks the hex (26.0, 26.3): it destroys a Colony and a Public Works marker
  there (27.311, 27.5, 28.5), its Forage falls to 0 (20.4), and a printed City or
  Port there stops working as one until the marker is lifted (10.121, 26.5; see
  :func:`.world.functioning_city` and :func:`.naval.is_port`). Lifting it (26.4, in
  :mod:`.recruiting`) brings back the printed City or Port and the Forage, never a
  destroyed Colony (26.5).
* Colonization (27.1, 27.22, 10.34): pay its Operations Points and its Solidus
  Points (lost whatever happens), total the force's Colonization Points (Leaders
  too), roll one die on that column of the Colonization Table. On a success a Colony
  marker goes into the hex and the player eliminates one unit of the force of his
  choice, the settlers (27.6). The Colony then works as a printed City (27.31), a
  port too on a coast (27.33), for whoever occupies it (27.4).

Neither is allowed in an enemy Zone of Control (15.4), in a Peripheral Area box
(18.0#2) or on all-sea (26.2; Fleets pillage and colonize from coastal hexes, 19.2);
see :func:`may_pillage` and :func:`may_colonize` for the rest. Either one, in a Neutral
Region, hands that Region to the other player at once (4.41).

The operation is a task pushed by the Operations Phase with the operating task as
``resume``: it is handed back the surviving ``force`` and the ``points`` left.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.battle import LoseCounters
from byzantium.belisarius.components import ColonizationRow, Operation, PillageRow, SolidusItem
from byzantium.belisarius.engine import Context, ask_roll, push
from byzantium.belisarius.hexmap import Terrain
from byzantium.belisarius.state import (
    AVAILABLE,
    FIRST_HEX,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Markers,
    Roll,
    Select,
    Task,
    opponent,
)
from byzantium.belisarius.world import (
    change_control,
    controller,
    enemy_zoc,
    functioning_city,
    is_leader,
    pay,
    region_controller,
    with_solidus,
)

__all__ = [
    "COLONIZE",
    "PILLAGE",
    "SPECIAL_ITEMS",
    "ColonizationOperation",
    "PillageOperation",
    "colonists",
    "colonization_column",
    "colonization_points",
    "colonization_succeeds",
    "functioning_city",
    "may_colonize",
    "may_pillage",
    "pillage_column",
    "pillage_loot",
    "pillage_strength",
    "sack",
    "special_items",
    "special_operation",
    "violate_neutrality",
]

#: The items of the force's menu (Select) that start each Special Operation.
PILLAGE = "pillage"
COLONIZE = "colonize"
SPECIAL_ITEMS = frozenset({PILLAGE, COLONIZE})

#: Stages of an operation: declared (pay, ask the die), rolled, settlers lost.
DECLARE, RESOLVE, SETTLED = "declare", "resolve", "settled"


# -- what the markers do --------------------------------------------------------------


@RULES.implements("26.0", "26.3", "27.311", "27.5", "28.5")
def sack(markers: Markers, hex_: int) -> Markers:
    """The markers after a successful Pillage of ``hex_`` (26.0, 26.3).

    A Pillaged marker goes in; a Colony marker there is destroyed (27.311, 27.5) and
    so is a Public Works marker (28.5). Neither comes back with the Pillaged marker's
    removal (26.5).
    """
    return Markers(
        pillaged=markers.pillaged | {hex_},
        colonies=markers.colonies - {hex_},
        works=markers.works - {hex_},
    )


# -- where and with what --------------------------------------------------------------


def _player(cat: Catalog, state: BelState, force: tuple[int, ...]) -> int:
    return controller(cat, state, force[0]) if force else NOBODY


def _on_land_hex(cat: Catalog, where: int) -> bool:
    """A map hex with land in it: never a Peripheral Area box (18.0#2), never all-sea
    (26.2; a Fleet on a coastal hex qualifies, 19.2)."""
    return where >= FIRST_HEX and cat.is_land(where)


def _in_enemy_zoc(cat: Catalog, state: BelState, force: tuple[int, ...], where: int) -> bool:
    """Whether the force stands in a Zone of Control of any enemy counter (15.4)."""
    return where in enemy_zoc(cat, state, _player(cat, state, force))


@RULES.implements("26.2", "15.4", "18.0#2")
def may_pillage(cat: Catalog, state: BelState, force: tuple[int, ...], where: int) -> bool:
    """Whether the force at ``where`` may Pillage there, cost aside (26.2).

    Not in a Peripheral Area box (18.0#2), nor on all-sea, nor on a hex already
    Pillaged (26.2), nor in an enemy Zone of Control (15.4, 26.2): the zone of any
    enemy counter, Fleets' included (19.4 spares only movement).
    """
    if not force or not _on_land_hex(cat, where) or where in state.markers.pillaged:
        return False
    return not _in_enemy_zoc(cat, state, force, where)


@RULES.implements("26.1", "26.11")
def pillage_strength(force: tuple[int, ...]) -> int:
    """The force's Pillage column value: one per counter, land, naval or Leader, with
    no multiplier of terrain, Leaders or Military Advantage (26.1, 26.11)."""
    return len(force)


@RULES.implements("26.1")
def pillage_column(cat: Catalog, units: int) -> PillageRow:
    """The Pillage Table column of a force of ``units`` counters (26.1); a force
    beyond the table's last column uses that column (as 17.72 does for odds)."""
    rows = cat.components.pillage
    if units < 1:
        raise ValueError(f"rule 26.1: a force of {units} counters cannot pillage")
    for row in rows:
        if row.low <= units <= row.high:
            return row
    return max(rows, key=lambda r: r.high)


@RULES.implements("26.1")
def pillage_loot(cat: Catalog, units: int, roll: int) -> int | None:
    """The Pillage Table's result for a force of ``units`` and a die: None for a
    failure, else the Solidus Points looted with the Pillaged marker (26.1)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a die roll is 1-6, not {roll}")
    result = pillage_column(cat, units).results[roll - 1]
    return None if result < 0 else result


@RULES.implements("27.1")
def colonization_points(cat: Catalog, force: tuple[int, ...]) -> int:
    """The Colonization Points of a force: the sum of its counters' values by type,
    Leaders included (27.1)."""
    types = cat.unit_types
    return sum(types[cat.counters[u].kind].colonization for u in force)


@RULES.implements("27.1")
def colonization_column(cat: Catalog, points: int) -> ColonizationRow | None:
    """The Colonization Table column of ``points`` (None below the first column)."""
    for row in cat.components.colonization:
        if row.low <= points <= row.high:
            return row
    return None


@RULES.implements("27.1")
def colonization_succeeds(cat: Catalog, points: int, roll: int) -> bool:
    """Whether a die founds the Colony for a force of ``points`` Colonization Points."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a die roll is 1-6, not {roll}")
    row = colonization_column(cat, points)
    if row is None:
        raise ValueError(f"rule 27.1: {points} Colonization Points have no column")
    return row.results[roll - 1]


@RULES.implements("27.6")
def colonists(cat: Catalog, force: tuple[int, ...]) -> tuple[int, ...]:
    """The counters of the force that may settle a new Colony (27.6): its units, not
    its Leaders (a ruling: the note speaks of soldier-colonists)."""
    return tuple(u for u in force if not is_leader(cat, u))


@RULES.implements("27.2", "15.4", "18.0#2")
def may_colonize(cat: Catalog, state: BelState, force: tuple[int, ...], where: int) -> bool:
    """Whether the force at ``where`` may attempt a Colonization there, costs aside.

    Only on a land hex of the map (never a box, 18.0#2; never all-sea, as a Colony is
    a City), not a Desert hex, not a City (printed or Colony) nor next to one, not
    Pillaged (27.2), not in an enemy Zone of Control (15.4, 27.2). The force needs a
    column of the Colonization Table (27.1) and a unit to settle (27.6, a ruling).
    """
    if not force or not _on_land_hex(cat, where):
        return False
    markers = state.markers
    hexmap = cat.map
    if where in markers.pillaged or where in markers.colonies or hexmap.city_at(where):
        return False
    if hexmap.terrain_at(where) is Terrain.DESERT:
        return False
    if any(n in markers.colonies or hexmap.city_at(n) for n in hexmap.neighbours(where)):
        return False
    if not colonists(cat, force):
        return False
    if colonization_column(cat, colonization_points(cat, force)) is None:
        return False
    return not _in_enemy_zoc(cat, state, force, where)


# -- the menu -------------------------------------------------------------------------


@RULES.implements("14.11", "14.31", "26.1", "27.1", "27.22", "10.34")
def special_items(
    ctx: Context, state: BelState, force: tuple[int, ...], where: int, points: Fraction
) -> list[BelAction]:
    """The Special Operations the force may conduct now: each needs its option, its
    Operations Points (14.31) and, for Colonization, the Solidus Points (27.22, 10.34),
    besides the restrictions of :func:`may_pillage` and :func:`may_colonize`. Offered
    at any point of the force's operation (14.11)."""
    items: list[BelAction] = []
    pillage = ctx.option("pillage")
    colonize = ctx.option("colonization")
    if not (pillage or colonize) or not force or where < FIRST_HEX:
        return items
    cat = ctx.cat
    comps = cat.components
    if (
        pillage
        and points >= comps.operation_cost(Operation.PILLAGE)
        and may_pillage(cat, state, force, where)
    ):
        items.append(Select(PILLAGE))
    if (
        colonize
        and points >= comps.operation_cost(Operation.COLONIZATION)
        and state.solidus[_player(cat, state, force)]
        >= comps.solidus_points(SolidusItem.COLONIZATION)
        and may_colonize(cat, state, force, where)
    ):
        items.append(Select(COLONIZE))
    return items


def special_operation(  # noqa: PLR0917 - the whole position of the force
    ctx: Context,
    state: BelState,
    resume: Task,
    force: tuple[int, ...],
    where: int,
    points: Fraction,
    item: str,
) -> BelState:
    """Start the Special Operation ``item`` of the force; ``resume`` (the operating
    task, with ``force`` and ``points`` fields) goes on afterwards."""
    legal = special_items(ctx, state, force, where, points)
    if Select(item) not in legal:
        rule = "27.2" if item == COLONIZE else "26.2"
        raise ValueError(f"rule {rule}: the force at {where} may not {item} now")
    task: Task
    if item == PILLAGE:
        task = PillageOperation(force, where, points, resume)
    else:
        task = ColonizationOperation(force, where, points, resume)
    return push(state, task)


# -- the operations -------------------------------------------------------------------


@RULES.implements("4.41")
def violate_neutrality(ctx: Context, state: BelState, player: int, where: int) -> BelState:
    """Pillage or Colonization in a Neutral Region hands it to the other player (4.41)."""
    region = ctx.cat.region_of_hex(where)
    if region < 0 or region_controller(state, region) != NOBODY:
        return state
    return change_control(ctx, state, region, opponent(player), "4.41")


def _resume(task: Task, state: BelState, force: tuple[int, ...], left: Fraction) -> BelState:
    survivors = tuple(u for u in force if state.units.where[u] > AVAILABLE)
    resumed = attrs.evolve(task, force=survivors, points=left)  # type: ignore[misc]
    return push(state, resumed)


@attrs.frozen
class PillageOperation(Task):
    """The force at ``where`` pillages it (26.1); ``resume`` goes on afterwards with
    the points left."""

    force: tuple[int, ...]
    where: int
    points: Fraction
    resume: Task
    stage: str = DECLARE

    @RULES.implements("26.0", "26.1", "26.11", "4.41", "14.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = _player(cat, state, self.force)
        cost = cat.components.operation_cost(Operation.PILLAGE)
        if self.stage == DECLARE:
            ctx.log("26.1", f"the force at {self.where} pillages it for {cost} points", "pillage")
            state = violate_neutrality(ctx, state, player, self.where)
            following = attrs.evolve(self, stage=RESOLVE)
            return ask_roll(state, following, "26.1", "the Pillage die")
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "26.1", "the Pillage die")
        return self.resolve(ctx, state, player, answer.dice[0], self.points - cost)

    @RULES.implements("26.1", "26.3", "27.311", "28.5")
    def resolve(
        self, ctx: Context, state: BelState, player: int, roll: int, left: Fraction
    ) -> BelState:
        """Read the Pillage Table: on a success place the marker (destroying a Colony
        and Public Works there) and add the loot to the player's treasury."""
        units = pillage_strength(self.force)
        loot = pillage_loot(ctx.cat, units, roll)
        if loot is None:
            ctx.log("26.1", f"{units} counters, die {roll}: the Pillage fails", "pillage")
            return _resume(self.resume, state, self.force, left)
        ctx.log(
            "26.1",
            f"{units} counters, die {roll}: {self.where} is Pillaged, {loot} Solidus Points looted",
            "pillage",
        )
        before = state.markers
        if self.where in before.colonies:
            ctx.log("27.311", f"the Colony at {self.where} is destroyed", "pillage")
        if self.where in before.works:
            ctx.log("28.5", f"the Public Works at {self.where} are destroyed", "pillage")
        state = with_solidus(attrs.evolve(state, markers=sack(before, self.where)), player, loot)
        return _resume(self.resume, state, self.force, left)


@attrs.frozen
class ColonizationOperation(Task):
    """The force at ``where`` tries to found a Colony there (27.1); ``resume`` goes on
    afterwards with the survivors and the points left."""

    force: tuple[int, ...]
    where: int
    points: Fraction
    resume: Task
    stage: str = DECLARE

    @RULES.implements("27.0", "27.1", "27.22", "10.34", "4.41", "14.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        comps = cat.components
        player = _player(cat, state, self.force)
        left = self.points - comps.operation_cost(Operation.COLONIZATION)
        if self.stage == DECLARE:
            ctx.log(
                "27.1",
                f"the force at {self.where} tries to colonize it "
                f"({colonization_points(cat, self.force)} Colonization Points)",
                "colonize",
            )
            price = comps.solidus_points(SolidusItem.COLONIZATION)
            state = pay(ctx, state, player, price, "27.22", "a colonization attempt")
            state = violate_neutrality(ctx, state, player, self.where)
            return ask_roll(
                state, attrs.evolve(self, stage=RESOLVE), "27.1", "the Colonization die"
            )
        if self.stage == SETTLED:
            return _resume(self.resume, state, self.force, left)
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "27.1", "the Colonization die")
        return self.resolve(ctx, state, player, answer.dice[0], left)

    @RULES.implements("27.1", "27.22", "27.6", "27.31")
    def resolve(
        self, ctx: Context, state: BelState, player: int, roll: int, left: Fraction
    ) -> BelState:
        """Read the Colonization Table: on a success place the Colony marker and have
        the player eliminate one unit of the force, the settlers (27.6); on a failure
        the Solidus Points stay spent (27.22)."""
        cat = ctx.cat
        points = colonization_points(cat, self.force)
        if not colonization_succeeds(cat, points, roll):
            ctx.log("27.22", f"{points} points, die {roll}: the Colonization fails", "colonize")
            return _resume(self.resume, state, self.force, left)
        ctx.log("27.1", f"{points} points, die {roll}: a Colony is founded at {self.where}")
        markers = state.markers
        state = attrs.evolve(
            state, markers=attrs.evolve(markers, colonies=markers.colonies | {self.where})
        )
        settlers = LoseCounters(player, colonists(cat, self.force), 1, "27.6")
        return push(state, settlers, attrs.evolve(self, stage=SETTLED))
