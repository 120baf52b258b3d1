"""The Provisioning Phase (3.1, 20.0-20.7, 10.33): forage, pay, or disband.

Every location (hex or Peripheral Area box) feeds as many of the phasing player's
counters as its Forage value (20.1): the Terrain Effects Chart's for a hex, 0 on a
Pillaged hex (20.4), 10 for a box (18.5). Leaders and Fleets eat like everyone else
(20.5, 20.6, 19.7); Neutral counters are never checked (20.7) and the other player's
wait for their own Provisioning phase.

Where more counters stand than the location feeds, the extra ones cost their
Provisioning value in Solidus Points (20.2, 10.33). The player picks which: the
dearest counters forage and the cheapest extras are paid for, which is always his
best split, so the bill is the sum of the smallest Provisioning costs. At each
over-foraged location, in location order, he disbands counters of his choice one at a
time (20.3) until he chooses to pay the rest (:class:`~byzantium.belisarius.state.Done`,
offered when he can afford it) or nothing is left to pay for. Without optional rule 30
a disbanded counter simply leaves the map for the stock (20.3, 11.61).
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.engine import Context, ask_choice, push
from byzantium.belisarius.state import AVAILABLE, BelAction, BelState, Done, Select, Task
from byzantium.belisarius.world import controller, eliminate, in_play, one_of_each

__all__ = ["ProvisioningPhase", "feeders", "provisioning_bill", "underfed"]


def feeders(ctx: Context, state: BelState, where: int) -> list[int]:
    """The phasing player's counters at ``where`` that must forage or be fed (20.0, 20.7)."""
    cat = ctx.cat
    if where <= AVAILABLE:  # off the map: nobody to feed
        return []
    return [u for u in state.units.at(where) if controller(cat, state, u) == state.phasing]


@RULES.implements("20.1", "20.2", "20.4", "20.5", "20.6", "18.5", "19.7")
def provisioning_bill(ctx: Context, state: BelState, where: int) -> int:
    """Solidus Points to feed every phasing counter at ``where`` beyond its Forage value.

    The Forage value comes from :meth:`~byzantium.belisarius.state.Catalog.forage` (a
    box feeds 10, 18.5; a Pillaged hex none, 20.4). The extras are the counters with
    the smallest Provisioning costs (the player's best choice, 20.2); Leaders and Fleets
    count (20.5, 20.6).
    """
    cat = ctx.cat
    units = feeders(ctx, state, where)
    extra = len(units) - cat.forage(where, state.markers)
    if extra <= 0:
        return 0
    costs = sorted(cat.counters[u].provisioning for u in units)
    return sum(costs[:extra])


def underfed(ctx: Context, state: BelState) -> list[int]:
    """Locations where the phasing player has more counters than forage, in order."""
    cat = ctx.cat
    places = {
        state.units.where[u] for u in in_play(state) if controller(cat, state, u) == state.phasing
    }
    return sorted(w for w in places if len(feeders(ctx, state, w)) > cat.forage(w, state.markers))


@attrs.frozen
class ProvisioningPhase(Task):
    """The phasing player's Provisioning Phase (3.1, 20.0).

    ``settled`` lists the locations whose bill has been paid this phase.
    """

    settled: tuple[int, ...] = ()

    @RULES.implements("20.0", "20.2", "20.3", "10.33", "11.61")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        player = state.phasing
        pending = [w for w in underfed(ctx, state) if w not in self.settled]
        if not pending:
            return state
        where = pending[0]
        bill = provisioning_bill(ctx, state, where)
        if isinstance(answer, Done):
            ctx.log("10.33", f"{bill} Solidus Points feed the counters at {where}", "provision")
            solidus = list(state.solidus)
            solidus[player] -= bill
            state = attrs.evolve(state, solidus=(solidus[0], solidus[1]))
            return push(state, ProvisioningPhase((*self.settled, where)))
        if isinstance(answer, Select):
            unit = cat.counter(answer.item)
            ctx.log("20.3", f"{answer.item} is disbanded at {where}", "disband")
            state = eliminate(ctx, state, [unit], "20.3")
            return push(state, self)
        units = feeders(ctx, state, where)
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
