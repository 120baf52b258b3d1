"""The Taxation Phase (3.1, 10.0-10.2): the phasing player fills his treasury.

Occupied Cities and Colonies pay by their kind, a Public Works marker adds one, a
Pillaged one pays nothing; the Persian and Frank Peripheral Area boxes pay their
controller without any occupation (10.11-10.13). Solidus Points carry over from turn
to turn (10.14).

The phase runs in three steps, one decision at a time:

1. The player may play a Currency Reform marker (one more Solidus Point per city or
   colony that pays this phase). He is asked whenever he holds any marker, so that
   the question does not tell the other player whether one is a Currency Reform
   (22.1).
2. He names the Neutral Regions he collects in (each hands the Region to the other
   player at once, 4.41) and the Regions where he raises taxes (10.2), then Done.
   Cities he occupies in Regions that either player controls pay without asking
   (11.221's example: occupation, not control, earns taxes, 5.1).
3. Each Region where taxes are raised rolls one die on the Raising Taxes Table; the
   change per city is kept for the collection, and a Revolt check follows at once
   when the table calls for one. Then everything is collected and the total logged.

Regions barred by the events of 22-24 pay nothing this player turn. The Regions that
pay are fixed when the player says Done: a Revolt check that turns one of them
Neutral afterwards does not trigger 4.41 again (see the rulings page).
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import SolidusItem, TaxRow
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.revolt import RevoltCheck
from byzantium.belisarius.state import (
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Done,
    Roll,
    Select,
    Task,
    opponent,
)
from byzantium.belisarius.stratagems import may_offer, offered, play
from byzantium.belisarius.world import (
    change_control,
    occupied_cities,
    region_controller,
    side_name,
    with_solidus,
    working_cities,
)
from byzantium.core.procedure import replace_fields

__all__ = [
    "CURRENCY_REFORM",
    "TaxationPhase",
    "box_income",
    "city_value",
    "paying_cities",
    "raising_taxes_row",
    "tax_income",
    "taxable_regions",
]

#: The Stratagem played in the Taxation Phase (Stratagem chart).
CURRENCY_REFORM = "currency-reform"
TAX = "tax "
RAISE = "raise taxes "
PLAY_REFORM = f"play {CURRENCY_REFORM}"
#: The game option of the optional Pillage rule, 10.121 with it (26.0).
PILLAGE_OPTION = "pillage"

#: Steps of the phase.
REFORM = "reform"
DECLARE = "declare"
RAISING = "raise"


# -- what pays ----------------------------------------------------------------------


@RULES.implements("10.11", "27.31", "28.3")
def city_value(cat: Catalog, state: BelState, hex_: int) -> int:
    """What an occupied City or Colony hex pays before any modifier (10.11).

    Constantinopolis 4, a treasury city 2, any other city 1, a Colony 1 (a Colony
    counts as a city, 27.31); a Public Works marker adds 1 (28.3).
    """
    points = cat.components.solidus_points
    city = cat.map.city_at(hex_)
    if city is None:
        value = points(SolidusItem.COLONY)
    elif city.capital:
        value = points(SolidusItem.CONSTANTINOPOLIS)
    elif city.treasury:
        value = points(SolidusItem.TREASURY_CITY)
    else:
        value = points(SolidusItem.OTHER_CITY)
    if hex_ in state.markers.works:
        value += points(SolidusItem.PUBLIC_WORKS_BONUS)
    return value


@RULES.implements("10.12", "10.121", "5.1")
def paying_cities(
    cat: Catalog, state: BelState, player: int, region: int, *, pillage: bool
) -> list[int]:
    """The City and Colony hexes of a Region that pay ``player`` taxes.

    Only hexes he occupies (10.12; control does not matter, 5.1). A Pillaged one
    pays nothing only under optional rule 10.121 (``pillage``, the ``pillage``
    option); without it a City Pillaged by Plague pays as usual (see the rulings).
    """
    if pillage:
        return working_cities(cat, state, player, region)
    return occupied_cities(cat, state, player, region)


def _barred(cat: Catalog, state: BelState, region: int) -> bool:
    return cat.regions[region].name in state.barred


@RULES.implements("4.41", "5.1")
def taxable_regions(cat: Catalog, state: BelState, player: int) -> list[int]:
    """Regions whose occupied cities pay ``player`` without a decision.

    Every Region either player controls, except those barred this player turn
    (events 22-24). Neutral Regions pay only if he chooses to collect there (4.41).
    """
    return [
        r
        for r in range(len(cat.regions))
        if region_controller(state, r) != NOBODY and not _barred(cat, state, r)
    ]


@RULES.implements("10.13", "18.1", "18.11")
def box_income(cat: Catalog, state: BelState, player: int) -> list[tuple[int, int]]:
    """(box, Solidus Points) of the Peripheral Area boxes that pay ``player``.

    A box pays its printed income to whoever controls its Region (18.1), with no unit
    in it (10.13, 18.11), unless the Region is barred this player turn.
    """
    paid: list[tuple[int, int]] = []
    for i, area in enumerate(cat.peripherals):
        region = cat.box_region[i]
        if area.solidus <= 0 or _barred(cat, state, region):
            continue
        if region_controller(state, region) == player:
            paid.append((i + 1, area.solidus))
    return paid


@RULES.implements("10.11", "10.12", "10.121", "10.13", "10.22")
def tax_income(
    cat: Catalog,
    state: BelState,
    player: int,
    regions: tuple[int, ...] | list[int],
    *,
    raised: tuple[tuple[int, int], ...] = (),
    reform: bool = False,
    pillage: bool,
) -> int:
    """Everything ``player`` collects: the paying cities of ``regions`` and his boxes.

    ``raised`` gives, per Region, the change per city won by Raising Taxes (10.22);
    ``reform`` adds one per paying city (Currency Reform); ``pillage`` says whether
    optional rule 10.121 is in play (:func:`paying_cities`). No city ever pays less
    than nothing, so the total is never negative.
    """
    change = dict(raised)
    total = 0
    for region in regions:
        for hex_ in paying_cities(cat, state, player, region, pillage=pillage):
            value = city_value(cat, state, hex_) + change.get(region, 0) + int(reform)
            total += max(0, value)
    total += sum(points for _, points in box_income(cat, state, player))
    return total


@RULES.implements("10.21")
def raising_taxes_row(cat: Catalog, roll: int) -> TaxRow:
    """The Raising Taxes Table's line for a die roll (10.21)."""
    for row in cat.components.raising_taxes:
        if row.low <= roll <= row.high:
            return row
    raise ValueError(f"the Raising Taxes Table has no line for {roll}")  # pragma: no cover


# -- the phase -------------------------------------------------------------------------


@attrs.frozen
class TaxationPhase(Task):
    """The phasing player's Taxation Phase (10.0): Currency Reform, declarations, rolls,
    collection.

    ``regions`` are the Regions that pay, fixed at the end of the declarations;
    ``raising`` the Regions where taxes are raised, in the order declared, and
    ``changes`` the per-city change each of them rolled so far.
    """

    step: str = REFORM
    reform: bool = False
    raising: tuple[int, ...] = ()
    regions: tuple[int, ...] = ()
    changes: tuple[int, ...] = ()

    @RULES.implements("10.0", "10.14")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.step == REFORM:
            return self._reform(ctx, state, answer)
        if self.step == DECLARE:
            return self.declare_taxes(ctx, state, answer)
        return self.raise_taxes(ctx, state, answer)

    # -- 1. Currency Reform ------------------------------------------------------------

    def _reform(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        player = state.phasing
        following = replace_fields(self, step=DECLARE)
        if isinstance(answer, Select):
            state = play(ctx, state, player, CURRENCY_REFORM, "8.41")
            return push(state, attrs.evolve(following, reform=True))
        if isinstance(answer, Done):
            return push(state, following)
        # Asked whatever the hand holds (22.1): without the marker, Done is all there is.
        if not may_offer(ctx, state, player, CURRENCY_REFORM):
            return push(state, following)
        return ask_choice(
            state,
            self,
            player,
            "8.41",
            "play Currency Reform for one more Solidus Point per paying city?",
            (Done(), *offered(ctx, state, player, CURRENCY_REFORM, Select(PLAY_REFORM))),
        )

    # -- 2. declarations -------------------------------------------------------------------

    def _options(self, ctx: Context, state: BelState) -> list[BelAction]:
        cat = ctx.cat
        player = state.phasing
        pillage = ctx.option(PILLAGE_OPTION)
        options: list[BelAction] = [Done()]
        for r, region in enumerate(cat.regions):
            if (
                region_controller(state, r) == NOBODY
                and not _barred(cat, state, r)
                and paying_cities(cat, state, player, r, pillage=pillage)
            ):
                options.append(Select(TAX + region.name))
        for r in taxable_regions(cat, state, player):
            if r not in self.raising and paying_cities(cat, state, player, r, pillage=pillage):
                options.append(Select(RAISE + cat.regions[r].name))
        return options

    @RULES.implements("4.41", "4.42", "10.2", "10.22")
    def declare_taxes(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The player's choices before collection: tax a Neutral Region (which hands it to
        the other player, 4.41) or raise taxes in a Region (10.2, 10.22); Done ends them."""
        cat = ctx.cat
        player = state.phasing
        if isinstance(answer, Select) and answer.item.startswith(TAX):
            region = cat.region(answer.item.removeprefix(TAX))
            ctx.log(
                "4.41",
                f"{side_name(player)} collects taxes in Neutral {cat.regions[region].name}",
                "tax",
            )
            state = change_control(ctx, state, region, opponent(player), "4.41")
            return push(state, self)
        if isinstance(answer, Select) and answer.item.startswith(RAISE):
            region = cat.region(answer.item.removeprefix(RAISE))
            ctx.log(
                "10.22", f"{side_name(player)} raises taxes in {cat.regions[region].name}", "tax"
            )
            return push(state, replace_fields(self, raising=(*self.raising, region)))
        options = self._options(ctx, state)
        if isinstance(answer, Done) or len(options) == 1:
            regions = tuple(taxable_regions(cat, state, player))
            return push(state, replace_fields(self, step=RAISING, regions=regions))
        return ask_choice(
            state,
            self,
            player,
            "10.2",
            "collect taxes in a Neutral Region, raise taxes in a Region, or Done",
            options,
        )

    # -- 3. raising taxes, then the collection ------------------------------------------

    @RULES.implements("10.21", "10.22", "4.71")
    def raise_taxes(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Roll on the Raising Taxes Table for each Region declared (10.21), one change per
        occupied city, with a Revolt check when the table calls for one (4.71)."""
        cat = ctx.cat
        done = len(self.changes)
        if done < len(self.raising):
            region = self.raising[done]
            name = cat.regions[region].name
            if not isinstance(answer, Roll):
                return ask_roll(state, self, "10.21", f"Raising Taxes in {name}")
            row = raising_taxes_row(cat, answer.dice[0])
            ctx.log(
                "10.21",
                f"Raising Taxes in {name}: {answer.dice[0]} gives {row.per_city:+d} per city"
                + (", and a Revolt check" if row.revolt_check else ""),
                "tax",
            )
            following = replace_fields(self, changes=(*self.changes, row.per_city))
            if row.revolt_check:
                return push(state, RevoltCheck(region, "10.21"), following)
            return push(state, following)
        return self._collect(ctx, state)

    def _collect(self, ctx: Context, state: BelState) -> BelState:
        player = state.phasing
        raised = tuple(zip(self.raising, self.changes, strict=True))
        income = tax_income(
            ctx.cat,
            state,
            player,
            self.regions,
            raised=raised,
            reform=self.reform,
            pillage=ctx.option(PILLAGE_OPTION),
        )
        state = with_solidus(state, player, income)
        if ctx.recording:
            # The income follows from the map and the dice, which both players see; the
            # treasury it fills is the collector's secret (22.1).
            collects = f"{side_name(player)} collects {income} Solidus Points"
            ctx.log(
                "10.11",
                f"{collects} (treasury {state.solidus[player]})",
                "tax",
                owner=player,
                public=collects,
            )
        return state
