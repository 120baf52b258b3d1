"""The Provisioning Phase (3.1, 20.0-20.7, 10.33) and optional Disbanding (30, 32).

Every location (hex or Peripheral Area box) feeds as many of the phasing player's
counters as its Forage value (20.1): the Terrain Effects Chart's for a hex, 0 on a
Pillaged hex (20.4), 10 for a box (18.5). Leaders and Fleets eat like everyone else
(20.5, 20.6, 19.7); Neutral counters are never checked nor counted against a
location's Forage (20.7) and the other player's wait for their own Provisioning phase.

Where more counters stand than the location feeds, the extra ones cost their
Provisioning value in Solidus Points (20.2, 10.33). The player picks which: the
dearest counters forage and the cheapest extras are paid for, which is always his
best split, so the bill is the sum of the smallest Provisioning costs. At each
over-foraged location, in location order, he disbands counters of his choice one at a
time (20.3) until he chooses to pay the rest (:class:`~byzantium.belisarius.state.Done`,
offered when he can afford it) or nothing is left to pay for. Without optional rule 30
a disbanded counter simply leaves the map for the stock (20.3, 11.61).

With the option ``disbanding`` (rule 30), a counter the player does not pay for is
not removed at once: it joins its location's disbanding force (30.0). Once every bill
is settled the player may add any other friendly counter, fed or not, one
:class:`~byzantium.belisarius.state.Select` at a time, until Done (30.0, 30.2, 30.3).
Then each location with a disbanding force makes one combined check on the
Disbanding Table, one die plus modifiers (30.1, 30.2, 30.5; and 32.1, 32.2 with the
option ``additional_attrition``), applied at once (:class:`DisbandingCheck`). Our copy
prints no Disbanding Table: ``tables.toml`` carries a provisional one and the rulings
page says what each result does (:func:`apply_disbanding`).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import DisbandingOutcome, UnitKind
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.state import (
    AVAILABLE,
    FIRST_HEX,
    BelAction,
    BelState,
    Catalog,
    Done,
    Roll,
    Select,
    Task,
)
from byzantium.belisarius.world import (
    controller,
    controllers,
    eliminate,
    friendly_units,
    in_play,
    modified_roll,
    one_of_each,
    with_solidus,
)
from byzantium.core.procedure import replace_fields

__all__ = [
    "DisbandingCheck",
    "ProvisioningPhase",
    "apply_disbanding",
    "disbanding_modifier",
    "disbanding_outcome",
    "far_from_home",
    "feeders",
    "provisioning_bill",
    "underfed",
]


def feeders(ctx: Context, state: BelState, where: int, leaving: Sequence[int] = ()) -> list[int]:
    """The phasing player's counters at ``where`` that must forage or be fed (20.0, 20.7).

    ``leaving`` are counters already bound for a disbanding check (30.0): they are no
    longer fed.
    """
    cat = ctx.cat
    if where <= AVAILABLE:  # off the map: nobody to feed
        return []
    return [
        u
        for u in state.units.at(where)
        if controller(cat, state, u) == state.phasing and u not in leaving
    ]


@RULES.implements("20.1", "20.2", "20.4", "20.5", "20.6", "20.7", "18.5", "19.7")
def provisioning_bill(
    ctx: Context, state: BelState, where: int, leaving: Sequence[int] = ()
) -> int:
    """Solidus Points to feed every phasing counter at ``where`` beyond its Forage value.

    The Forage value comes from :meth:`~byzantium.belisarius.state.Catalog.forage` (a
    box feeds 10, 18.5; a Pillaged hex none, 20.4). The extras are the counters with
    the smallest Provisioning costs (the player's best choice, 20.2); Leaders and Fleets
    count (20.5, 20.6), Neutral counters neither pay nor use up Forage (20.7).
    ``leaving`` counters are disbanding and eat nothing (30.0).
    """
    cat = ctx.cat
    units = feeders(ctx, state, where, leaving)
    extra = len(units) - cat.forage(where, state.markers)
    if extra <= 0:
        return 0
    costs = sorted(cat.counters[u].provisioning for u in units)
    return sum(costs[:extra])


def underfed(ctx: Context, state: BelState, leaving: Sequence[int] = ()) -> list[int]:
    """Locations where the phasing player has more counters than forage, in order
    (counters in ``leaving`` not counted, 30.0): where more of his :func:`feeders`
    stand than the place feeds, counted in one pass over the counters in play."""
    cat = ctx.cat
    owner = controllers(cat, state)
    where, player = state.units.where, state.phasing
    fed: dict[int, int] = {}
    for u in in_play(state):
        if owner[u] == player and u not in leaving:
            fed[where[u]] = fed.get(where[u], 0) + 1
    markers = state.markers
    return sorted(w for w, n in fed.items() if n > cat.forage(w, markers))


@attrs.frozen
class ProvisioningPhase(Task):
    """The phasing player's Provisioning Phase (3.1, 20.0).

    ``settled`` lists the locations whose bill has been paid this phase. With the
    option ``disbanding``: ``disbanding`` the counters bound for a disbanding check
    (30.0), in counter order; ``volunteering`` once every bill is settled and the
    player may add counters of his choice (30.3).
    """

    settled: tuple[int, ...] = ()
    disbanding: tuple[int, ...] = ()
    volunteering: bool = False

    @RULES.implements("20.0", "20.2", "20.3", "10.33", "11.61", "30.0")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = state.phasing
        checks = bool(ctx.option("disbanding"))
        if self.volunteering:
            return self.volunteer(ctx, state, answer)
        pending = [w for w in underfed(ctx, state, self.disbanding) if w not in self.settled]
        if not pending:
            if checks:
                return push(state, attrs.evolve(self, volunteering=True))
            return state
        where = pending[0]
        bill = provisioning_bill(ctx, state, where, self.disbanding)
        if isinstance(answer, Done):
            ctx.log("10.33", f"{bill} Solidus Points feed the counters at {where}", "provision")
            state = with_solidus(state, player, -bill)
            return push(state, replace_fields(self, settled=(*self.settled, where)))
        if isinstance(answer, Select):
            unit = cat.counter(answer.item)
            if checks:
                ctx.log("30.0", f"{answer.item} at {where} is unpaid: it must disband", "disband")
                return push(state, self._joined(unit))
            ctx.log("20.3", f"{answer.item} is disbanded at {where}", "disband")
            state = eliminate(ctx, state, [unit], "20.3")
            return push(state, self)
        units = feeders(ctx, state, where, self.disbanding)
        options: list[BelAction] = []
        if bill <= state.solidus[player]:
            options.append(Done())
        options += [Select(cat.counters[u].id) for u in one_of_each(cat, state, units)]
        forage = cat.forage(where, state.markers)
        return ask_choice(
            state,
            self,
            player,
            "20.2",
            f"{len(units)} counters at {where} forage {forage}: pay {bill} Solidus Points "
            "(done) or disband one",
            options,
        )

    def _joined(self, unit: int) -> ProvisioningPhase:
        return attrs.evolve(self, disbanding=tuple(sorted((*self.disbanding, unit))))

    @RULES.implements("30.0", "30.11", "30.2", "30.3")
    def volunteer(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Bills settled, the player may put any other friendly counter into its
        location's disbanding check, fed or not, free or not (30.0, 30.3), some, none or
        all of a location (30.2); Done starts the checks, all in this phase (30.11)."""
        cat = ctx.cat
        player = state.phasing
        if isinstance(answer, Select):
            unit = cat.counter(answer.item)
            where = state.units.where[unit]
            ctx.log("30.3", f"{answer.item} at {where} is chosen to disband", "disband")
            return push(state, self._joined(unit))
        candidates: list[int] = []
        if not isinstance(answer, Done):
            candidates = [u for u in friendly_units(cat, state, player) if u not in self.disbanding]
        if candidates:
            options: list[BelAction] = [Done()]
            options += [
                Select(cat.counters[u].id)
                for u in one_of_each(cat, state, candidates, per_location=True)
            ]
            return ask_choice(
                state,
                self,
                player,
                "30.3",
                f"{len(self.disbanding)} counters disband: add one, or done",
                options,
            )
        forces: dict[int, list[int]] = {}
        for unit in self.disbanding:
            forces.setdefault(state.units.where[unit], []).append(unit)
        return push(state, *(DisbandingCheck(w, tuple(forces[w])) for w in sorted(forces)))


# -- the Disbanding Table (30.1) ---------------------------------------------------------------


@RULES.implements("32.1")
def far_from_home(cat: Catalog, state: BelState, unit: int) -> bool:
    """Whether a counter is a Nomad Horde or Warband outside its home Region (32.1)."""
    kind = cat.counters[unit].kind
    if kind is not UnitKind.NOMAD_HORDE and kind is not UnitKind.WARBAND:
        return False
    return cat.region_of(state.units.where[unit]) != cat.home[unit]


@RULES.implements("30.1", "30.5", "32.0", "32.1", "32.2")
def disbanding_modifier(ctx: Context, state: BelState, where: int, units: Sequence[int]) -> int:
    """The sum of the Disbanding Table's modifiers for ``units`` disbanding at ``where``.

    The modifiers are the data's (``tables.toml``, table ``disbanding``): a friendly
    Leader in the location, disbanding or not (30.5); one per full three units of the
    force, Leaders counted (30.1, provisional); and with the option
    ``additional_attrition``, the force made only of Nomad Hordes and Warbands outside
    their home Region (32.1) or mixing such units with others (32.2). Counters staying
    in the location count only as Leaders (30.5, 32.2). A modifier of another name is
    not read.
    """
    cat = ctx.cat
    player = state.phasing
    leader = any(
        cat.counters[u].kind is UnitKind.LEADER and controller(cat, state, u) == player
        for u in state.units.at(where)
    )
    abroad = 0
    if ctx.option("additional_attrition"):
        abroad = sum(1 for u in units if far_from_home(cat, state, u))
    total = 0
    for modifier in cat.components.modifiers_of("disbanding"):
        ref = modifier.source.ref
        if ref == "32.1":
            applies = 0 < abroad == len(units)
        elif ref == "32.2":
            applies = 0 < abroad < len(units)
        elif ref == "30.5" or "Leader" in modifier.name:
            applies = leader
        elif "three" in modifier.name:
            total += modifier.value * (len(units) // 3)
            continue
        else:
            continue
        if applies:
            total += modifier.value
    return total


@RULES.implements("30.1")
def disbanding_outcome(ctx: Context, roll: int, modifier: int) -> DisbandingOutcome:
    """The Disbanding Table's result for a die roll and a modifier (30.1)."""
    total = modified_roll(roll, (modifier,))
    for row in ctx.cat.components.disbanding:
        if row.low <= total <= row.high:
            return row.outcome
    raise ValueError(f"rule 30.1: the Disbanding Table has no row for {total}")  # pragma: no cover


def _pillage(ctx: Context, state: BelState, where: int) -> BelState:
    """A Pillaged marker on a land hex that lacks one; boxes and the sea have nothing to
    pillage."""
    markers = state.markers
    if where < FIRST_HEX or not ctx.cat.is_land(where) or where in markers.pillaged:
        return state
    ctx.log("30.0", f"the hex {where} is pillaged", "pillage")
    return attrs.evolve(state, markers=attrs.evolve(markers, pillaged=markers.pillaged | {where}))


def _strength(cat: Catalog, units: Sequence[int]) -> int:
    return sum(cat.counters[u].combat for u in units)


@RULES.implements("30.0", "30.1")
def apply_disbanding(
    ctx: Context,
    state: BelState,
    where: int,
    units: Sequence[int],
    outcome: DisbandingOutcome,
) -> BelState:
    """Carry out a Disbanding Table result for the force ``units`` at ``where`` (30.1).

    See the rulings page: ``disband``, the force leaves play for the stock; ``amok``,
    it leaves play and runs amok, leaving a Pillaged marker on a land hex (30.0);
    ``mutiny``, the force turns on the friendly counters staying in the location as a
    Guard mutiny does (12.4): the side with less printed combat strength is
    eliminated, the stayers on a tie. Put down, the mutineers are simply gone;
    otherwise loyal Guard counters among them turn Mutinying and stay (12.2; not
    beside Justinian, 12.3), the rest leave play, and the hex is pillaged. A Fleet's
    passengers go with it (30.4, in :func:`~byzantium.belisarius.world.eliminate`).
    """
    cat = ctx.cat
    if outcome is DisbandingOutcome.DISBAND:
        return eliminate(ctx, state, units, "30.1")
    if outcome is DisbandingOutcome.AMOK:
        state = eliminate(ctx, state, units, "30.1")
        return _pillage(ctx, state, where)
    force = set(units)
    stayers = [u for u in feeders(ctx, state, where) if u not in force]
    if stayers:
        if _strength(cat, units) < _strength(cat, stayers):
            ctx.log("30.1", f"the mutiny at {where} is put down", "disband")
            return eliminate(ctx, state, units, "30.1")
        ctx.log("30.1", f"the mutineers at {where} overwhelm their comrades", "disband")
        state = eliminate(ctx, state, stayers, "30.1")
    turncoats: list[int] = []
    if cat.justinian not in force:
        turncoats = [u for u in units if cat.counters[u].guard and not state.units.mutiny[u]]
    if turncoats:
        ctx.log("12.2", f"{len(turncoats)} Guard counters at {where} mutiny", "mutiny")
        state = attrs.evolve(state, units=state.units.flip(turncoats, True))
    state = eliminate(ctx, state, [u for u in units if u not in turncoats], "30.1")
    return _pillage(ctx, state, where)


@attrs.frozen
class DisbandingCheck(Task):
    """One location's combined disbanding check (30.1, 30.2): roll, modify, apply."""

    where: int
    units: tuple[int, ...]

    @RULES.implements("30.1", "30.2", "30.5")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        where = self.where
        units = [u for u in self.units if state.units.where[u] == where]
        if not units:
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "30.1", f"Disbanding check for {len(units)} at {where}")
        modifier = disbanding_modifier(ctx, state, where, units)
        outcome = disbanding_outcome(ctx, answer.dice[0], modifier)
        ctx.log(
            "30.1",
            f"Disbanding check at {where} for {len(units)} counters: "
            f"{answer.dice[0]}{modifier:+d} gives {outcome.value}",
            "disband",
        )
        return apply_disbanding(ctx, state, where, units, outcome)
