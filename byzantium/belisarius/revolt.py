"""Revolt checks (4.7, 4.71, 4.72) on the Revolt Table.

One die per Region called on to check, whoever controls it (4.71), plus the table's
modifiers; the result leaves the Region as it is, turns a controlled Region Neutral,
or hands a Neutral Region to the Barbarian (4.72). The Guard has no Region and never
revolts (12.0).

Our copy of the rules does not print the Revolt Table, so ``tables.toml`` carries a
provisional one. A ``barbarian`` result on a Region that is not Neutral moves it one
step towards the Barbarian: an Empire Region turns Neutral, a Barbarian one stays
(see the rulings page).
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import RevoltOutcome
from byzantium.belisarius.engine import Context, ask_roll
from byzantium.belisarius.state import BARBARIAN, EMPIRE, NOBODY, BelAction, BelState, Roll, Task
from byzantium.belisarius.world import (
    change_control,
    city_hexes,
    modified_roll,
    occupied_cities,
    region_controller,
)

__all__ = ["RevoltCheck", "revolt_modifier", "revolt_outcome"]


def revolt_modifier(ctx: Context, state: BelState, region: int) -> int:
    """The sum of the Revolt Table's modifiers that apply to a Region.

    Every City and Colony of the Region under Public Works (28.3), and its
    controller occupying all its Cities (a provisional modifier of the data).
    """
    cat = ctx.cat
    total = 0
    cities = [h for h in city_hexes(cat, state) if cat.region_of_hex(h) == region]
    owner = region_controller(state, region)
    for modifier in cat.components.modifiers_of("revolt"):
        if "Public Works" in modifier.name:
            applies = bool(cities) and all(h in state.markers.works for h in cities)
        else:
            held = occupied_cities(cat, state, owner, region) if owner != NOBODY else []
            applies = bool(cities) and owner != NOBODY and len(held) == len(cities)
        if applies:
            total += modifier.value
    return total


@RULES.implements("4.72")
def revolt_outcome(ctx: Context, roll: int, modifier: int) -> RevoltOutcome:
    """The Revolt Table's result for a die roll and a modifier (4.72)."""
    total = modified_roll(roll, (modifier,))
    for row in ctx.cat.components.revolt:
        if row.low <= total <= row.high:
            return row.outcome
    raise ValueError(f"the Revolt Table has no row for {total}")  # pragma: no cover


@attrs.frozen
class RevoltCheck(Task):
    """One Region's Revolt check (4.71): roll, modify, apply (4.72)."""

    region: int
    rule: str = "4.71"

    @RULES.implements("4.7", "4.71", "4.72")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        name = ctx.cat.regions[self.region].name
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "4.71", f"Revolt check for {name}")
        modifier = revolt_modifier(ctx, state, self.region)
        outcome = revolt_outcome(ctx, answer.dice[0], modifier)
        ctx.log(
            "4.72",
            f"Revolt check in {name}: {answer.dice[0]}{modifier:+d} gives {outcome.value}",
            "revolt",
        )
        owner = region_controller(state, self.region)
        if outcome is RevoltOutcome.NEUTRAL and owner != NOBODY:
            return change_control(ctx, state, self.region, NOBODY, "4.72")
        if outcome is RevoltOutcome.BARBARIAN:
            if owner == NOBODY:
                return change_control(ctx, state, self.region, BARBARIAN, "4.72")
            if owner == EMPIRE:
                return change_control(ctx, state, self.region, NOBODY, "4.72")
        return state
