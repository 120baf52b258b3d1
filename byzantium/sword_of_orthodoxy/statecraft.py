"""Byzantine Action Phase, rules 10.9-10.12, 10.15: Orthodoxy, divisions, Ruins, Factions, Niké.

Every action here is bought, with solidus or with Niké, and the menu of the phase
(:mod:`~byzantium.sword_of_orthodoxy.action_phase`) lists it only while it is
legal, affordable and able to change something:

* ``orthodoxy`` (10.9): 1 $ for two Impose Orthodoxy rolls, three on an Ecumenical
  Council Turn; each roll that beats 1 takes a point off the Schism. With a Saint
  (10.9.1) the purchase may also carry the Saint's favour for the Turn, once:
  ``orthodoxy saint-ignore`` (no -1 modifiers on any Orthodoxy roll this Turn) or
  ``orthodoxy saint-free`` (one more roll in this purchase, at no cost);
* ``divisions`` (10.10): 2 $ to take every Social tile off the map, with a
  Basileus who shows Π or Χ;
* ``ruins`` (10.11): 2 $ to bring the Empires in Rubble one space down, the tile
  discarded when it reaches zero;
* ``faction <tile>`` (10.12): 1 $ to bring a Faction of the Omnibus Track one
  space closer to Constantinople, which it enters at zero;
* ``nike`` (10.15): one Niké above the first three exchanged for 1 $.

The rulings page says how "this Turn" and "one of those rolls" of 10.9.1 are read,
and that the natural 1 and 6 of rule 1.1 apply to the Orthodoxy rolls without ever
changing their outcome.
"""

from __future__ import annotations

import attrs

from byzantium.core import dice
from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Icon, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    RUINS,
    basileus_has,
    change_schism,
    discard,
    grey_basileus,
    player_controls,
    ruins_level,
    schism_level,
    withdraw,
)
from byzantium.sword_of_orthodoxy.engine import Context, Offer, ask_roll, make_offer, push
from byzantium.sword_of_orthodoxy.leadership import (
    historical_patriarch,
    hostile_pope,
    patriarch,
)
from byzantium.sword_of_orthodoxy.state import Roll, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import (
    MAX_TRACK,
    current_chit,
    marker,
    move,
    remember,
    set_marker,
    socials_on_map,
    tile_name,
)

__all__ = [
    "COUNCIL_ROLLS",
    "DIVISIONS_COST",
    "FACTION_COST",
    "NIKE_KEPT",
    "ORTHODOXY_COST",
    "ORTHODOXY_ROLLS",
    "RUINS_COST",
    "SAINT_FREE",
    "SAINT_IGNORE",
    "BuildFaction",
    "ClearRuins",
    "ExploitDivisions",
    "ImposeOrthodoxy",
    "OrthodoxyRoll",
    "SpendNike",
    "council_turn",
    "divisions_offers",
    "faction_offers",
    "factions_on_track",
    "hostile_centres",
    "ignoring_orthodoxy_drms",
    "nike_offers",
    "offers",
    "orthodoxy_drms",
    "orthodoxy_offers",
    "orthodoxy_rolls",
    "orthodoxy_succeeds",
    "ruins_offers",
    "saint_available",
    "saints",
    "use_saint",
]

#: 10.9: one solidus buys two Impose Orthodoxy rolls, three on an Ecumenical Council Turn.
ORTHODOXY_COST = 1
ORTHODOXY_ROLLS = 2
COUNCIL_ROLLS = 3
#: 10.9: a (modified) roll above this succeeds.
ORTHODOXY_BEATS = 1
#: 10.10: the price of sweeping the Social tiles away.
DIVISIONS_COST = 2
#: 10.11: the price of one space of Ruins.
RUINS_COST = 2
#: 10.12: the price of one space of a Faction.
FACTION_COST = 1
#: 10.15: the Niké that must stay for the Dynasty's survival roll (6.1).
NIKE_KEPT = 3
#: 10.9.1: the two favours a Saint grants (the ``saint`` of :class:`ImposeOrthodoxy`).
SAINT_IGNORE = "ignore"
SAINT_FREE = "free"


# -- shared helpers --------------------------------------------------------------------


def _treasury(ctx: Context, state: SooState) -> int:
    return marker(ctx, state, "solidus")


def _spend(ctx: Context, state: SooState, amount: int, rule: str, what: str) -> SooState:
    """Take ``amount`` solidus from the treasury (callers check it is there)."""
    left = _treasury(ctx, state) - amount
    ctx.log(rule, f"{amount} $ spent on {what}: {left} $ left", "solidus")
    return set_marker(ctx, state, "solidus", left)


def _saint_fact(turn: int) -> str:
    """The fact remembered once a Saint's favour has been used this Turn (10.9.1)."""
    return f"saint-turn-{turn}"


def _ignore_fact(turn: int) -> str:
    """The fact remembered when the Saint's favour chosen this Turn is to ignore the -1s."""
    return f"saint-ignore-turn-{turn}"


# -- 10.9 Imposing Orthodoxy --------------------------------------------------------------


@RULES.implements("10.9")
def council_turn(ctx: Context, state: SooState) -> bool:
    """Whether this is an Ecumenical Council Turn: the current Turn Chit shows a Patriarch."""
    chit = current_chit(ctx, state)
    return chit is not None and ctx.cat.chits[chit].patriarch


@RULES.implements("10.9")
def orthodoxy_rolls(ctx: Context, state: SooState) -> int:
    """How many rolls one solidus buys: two, or three on an Ecumenical Council Turn (5.3.1)."""
    return COUNCIL_ROLLS if council_turn(ctx, state) else ORTHODOXY_ROLLS


@RULES.implements("10.9")
def hostile_centres(ctx: Context) -> tuple[int, ...]:
    """The hostile religious centres of the map (Cilicia and Nisibis), as space indexes."""
    return tuple(
        i for i, space in enumerate(ctx.cat.spaces) if Icon.HOSTILE_RELIGIOUS_CENTRE in space.icons
    )


@RULES.implements("10.9")
def orthodoxy_drms(ctx: Context, state: SooState) -> tuple[dice.Modifier, ...]:
    """The modifiers of an Impose Orthodoxy roll: -1 for a Hostile Pope, -1 per centre held.

    The player holds Cilicia or Nisibis when the Thema lies between Constantinople
    and the Barbarian Army of its Path (2.2.1). A Saint may have the Turn's -1s
    ignored (10.9.1, :func:`ignoring_orthodoxy_drms`).
    """
    found: list[dice.Modifier] = []
    if hostile_pope(ctx, state):
        found.append(dice.Modifier(-1, "Hostile Pope", "10.9"))
    for space in hostile_centres(ctx):
        if player_controls(ctx, state, space):
            found.append(dice.Modifier(-1, ctx.cat.spaces[space].name, "10.9"))
    return tuple(found)


@RULES.implements("10.9", "1.1")
def orthodoxy_succeeds(natural: int, drms: tuple[dice.Modifier, ...]) -> bool:
    """An Impose Orthodoxy roll succeeds when, modified, it is greater than 1.

    The roll is the player's, so a natural 1 stays a 1 and a natural 6 a 6 (1.1).
    With modifiers of -1 to -3 that never changes the outcome: a 1 fails and a 6
    succeeds either way (see the rulings page).
    """
    return dice.Roll(natural, drms, natural_extremes=True).value > ORTHODOXY_BEATS


@RULES.implements("10.9")
def orthodoxy_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Imposing Orthodoxy, with a Saint's favour while it is unused this Turn (10.9.1).

    Offered with 1 $ in the treasury and a Schism to reduce: not at level 0, nor
    while the Schism tile waits in the Turn Chit mug (2.6), when the rolls could
    change nothing.
    """
    if _treasury(ctx, state) < ORTHODOXY_COST or schism_level(ctx, state) <= 0:
        return []
    found = [make_offer("orthodoxy", ImposeOrthodoxy)]
    if saint_available(ctx, state):
        found.append(make_offer("orthodoxy saint-ignore", ImposeOrthodoxy, SAINT_IGNORE))
        found.append(make_offer("orthodoxy saint-free", ImposeOrthodoxy, SAINT_FREE))
    return found


@attrs.frozen
class ImposeOrthodoxy(Task):
    """Pay 1 $ and make the Turn's number of Impose Orthodoxy rolls (10.9).

    ``saint``: the Saint's favour taken with this purchase (10.9.1), ``""`` for none,
    :data:`SAINT_IGNORE` or :data:`SAINT_FREE` (one roll more, paid by nobody).
    """

    saint: str = ""

    @RULES.implements("10.9")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state = _spend(ctx, state, ORTHODOXY_COST, "10.9", "Imposing Orthodoxy")
        rolls = orthodoxy_rolls(ctx, state)
        if council_turn(ctx, state):
            ctx.log("10.9", "an Ecumenical Council Turn: three rolls for the solidus", "orthodoxy")
        if self.saint:
            state = use_saint(ctx, state, self.saint)
            if self.saint == SAINT_FREE:
                rolls += 1
        return push(state, OrthodoxyRoll(rolls))


@attrs.frozen
class OrthodoxyRoll(Task):
    """The Impose Orthodoxy rolls still to make: ``left`` of them, ``made`` already (10.9).

    Each roll that succeeds takes one point off the Schism. Once the Schism is down
    to 0 the remaining rolls could change nothing and are not made.
    """

    left: int
    made: int = 0

    @RULES.implements("10.9", "1.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.left <= 0:
            return state
        if schism_level(ctx, state) <= 0:
            ctx.log("10.9", f"no Schism left: {self.left} roll(s) unused", "orthodoxy")
            return state
        if not isinstance(answer, Roll):
            total = self.left + self.made
            prompt = f"Impose Orthodoxy, roll {self.made + 1} of {total}: above 1 succeeds"
            return ask_roll(state, self, "10.9", prompt)
        drms = () if ignoring_orthodoxy_drms(state) else orthodoxy_drms(ctx, state)
        roll = dice.Roll(answer.dice[0], drms, natural_extremes=True)
        following = OrthodoxyRoll(self.left - 1, self.made + 1)
        if orthodoxy_succeeds(answer.dice[0], drms):
            ctx.log("10.9", f"Impose Orthodoxy: {roll.describe()}, success", "orthodoxy")
            state = change_schism(ctx, state, -1, "10.9")
        else:
            ctx.log("10.9", f"Impose Orthodoxy: {roll.describe()}, failure", "orthodoxy")
        return push(state, following)


# -- 10.9.1 Saints ----------------------------------------------------------------------------


@RULES.implements("10.9.1")
def saints(ctx: Context, state: SooState) -> list[int]:
    """The Saints in office: a grey Basileus with the Orthodox Cross, a Patriarch with ✚.

    With the peer option Historical Patriarchs no Patriarch is a Saint, whatever
    tile shows him.
    """
    found = [b for b in grey_basileus(ctx, state) if ctx.cat.has(state.board, b, Icon.CROSS)]
    if historical_patriarch(ctx, state) is not None:
        return found
    holder = patriarch(ctx, state)
    if holder is not None and ctx.cat.has(state.board, holder, Icon.SAINT):
        found.append(holder)
    return found


@RULES.implements("10.9.1")
def saint_available(ctx: Context, state: SooState) -> bool:
    """Whether a Saint is in office and his favour has not been used this Turn.

    One favour a Turn, however many Saints there are.
    """
    return bool(saints(ctx, state)) and _saint_fact(state.turn) not in state.done


@RULES.implements("10.9.1")
def ignoring_orthodoxy_drms(state: SooState) -> bool:
    """Whether a Saint's favour this Turn was to ignore the -1s of the Orthodoxy rolls."""
    return _ignore_fact(state.turn) in state.done


@RULES.implements("10.9.1")
def use_saint(ctx: Context, state: SooState, favour: str) -> SooState:
    """Take the Saint's favour for this Turn: ignore the -1s, or one roll for free.

    Ignoring holds for every Orthodoxy roll still to come this Turn; the free roll
    is one more roll in the purchase that takes it.
    """
    names = " and ".join(tile_name(ctx, state, s) for s in saints(ctx, state))
    state = remember(state, _saint_fact(state.turn))
    if favour == SAINT_IGNORE:
        ctx.log("10.9.1", f"Saint {names}: no -1 on Orthodoxy rolls this Turn", "saint")
        return remember(state, _ignore_fact(state.turn))
    if favour != SAINT_FREE:
        raise ValueError(f"no such favour of a Saint: {favour!r}")
    ctx.log("10.9.1", f"Saint {names}: one Orthodoxy roll for free", "saint")
    return state


# -- 10.10 Exploiting social divisions --------------------------------------------------------


@RULES.implements("10.10")
def divisions_offers(ctx: Context, state: SooState) -> list[Offer]:
    """With a Basileus showing Π or Χ and 2 $, all the Social tiles may be removed."""
    skilled = basileus_has(ctx, state, Icon.PI) or basileus_has(ctx, state, Icon.CHI)
    if not skilled or _treasury(ctx, state) < DIVISIONS_COST:
        return []
    if not socials_on_map(ctx, state):
        return []
    return [Offer("divisions", ExploitDivisions())]


@attrs.frozen
class ExploitDivisions(Task):
    """Pay 2 $: every Social tile on the map goes back to the Counter Tray (10.10).

    All of them or none: the action is the whole sweep.
    """

    @RULES.implements("10.10")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state = _spend(ctx, state, DIVISIONS_COST, "10.10", "exploiting social divisions")
        for social in socials_on_map(ctx, state):
            state = withdraw(ctx, state, social, "10.10")
        return state


# -- 10.11 Clearing the Ruins ------------------------------------------------------------------


@RULES.implements("10.11")
def ruins_offers(ctx: Context, state: SooState) -> list[Offer]:
    """With the Empires in Rubble above zero on the Omnibus Track and 2 $, clear a space."""
    if ruins_level(ctx, state) <= 0 or _treasury(ctx, state) < RUINS_COST:
        return []
    return [Offer("ruins", ClearRuins())]


@attrs.frozen
class ClearRuins(Task):
    """Pay 2 $: the Ruins drop one space; at zero the Empires in Rubble tile is discarded."""

    @RULES.implements("10.11")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state = _spend(ctx, state, RUINS_COST, "10.11", "clearing the Ruins")
        level = ruins_level(ctx, state) - 1
        state = set_marker(ctx, state, "ruins", level)
        ctx.log("10.11", f"Ruins -1: now {level}", "ruins")
        if level <= 0:
            state = discard(ctx, state, ctx.cat.tile(RUINS), "10.11")
        return state


# -- 10.12 Building Factions --------------------------------------------------------------------


@RULES.implements("10.12")
def factions_on_track(ctx: Context, state: SooState) -> list[int]:
    """The Factions waiting on the Omnibus Track to be rebuilt, in catalogue order."""
    track = ctx.cat.space("omnibus")
    return [f for f in ctx.cat.tiles_of(TileKind.FACTION) if state.board.where[f] == track]


@RULES.implements("10.12")
def faction_offers(ctx: Context, state: SooState) -> list[Offer]:
    """For 1 $, any Faction on the Omnibus Track (the Walls included) moves one space."""
    if _treasury(ctx, state) < FACTION_COST:
        return []
    return [
        make_offer(f"faction {ctx.cat.tiles[f].id}", BuildFaction, ctx.cat.tiles[f].id)
        for f in factions_on_track(ctx, state)
    ]


@attrs.frozen
class BuildFaction(Task):
    """Pay 1 $: a Faction moves one space left; reaching zero, it enters Constantinople."""

    faction: str

    @RULES.implements("10.12")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = ctx.cat.tile(self.faction)
        name = tile_name(ctx, state, tile)
        state = _spend(ctx, state, FACTION_COST, "10.12", f"building {name}")
        space = max(0, state.board.value[tile] - 1)
        if space == 0:
            ctx.log("10.12", f"{name} return to Constantinople", "faction")
            return move(ctx, state, tile, "constantinople")
        ctx.log("10.12", f"{name} move to space {space} of the Omnibus Track", "faction")
        return replace(state, "board", state.board.set_value(tile, space))


# -- 10.15 Spending Niké ----------------------------------------------------------------------


@RULES.implements("10.15")
def nike_offers(ctx: Context, state: SooState) -> list[Offer]:
    """A Niké above the first three may become 1 $, while the treasury is below 12."""
    if marker(ctx, state, "nike") <= NIKE_KEPT or _treasury(ctx, state) >= MAX_TRACK:
        return []
    return [Offer("nike", SpendNike())]


@attrs.frozen
class SpendNike(Task):
    """Exchange one Niké above the first three for 1 $ (10.15)."""

    @RULES.implements("10.15")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        nike = marker(ctx, state, "nike") - 1
        solidus = _treasury(ctx, state) + 1
        state = set_marker(ctx, state, "nike", nike)
        state = set_marker(ctx, state, "solidus", solidus)
        ctx.log("10.15", f"one Niké spent for 1 $: Niké {nike}, {solidus} $", "nike")
        return state


# -- the menu ---------------------------------------------------------------------------------


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The actions of rules 10.9 to 10.12 and 10.15 the player may take now, in rule order."""
    return [
        *orthodoxy_offers(ctx, state),
        *divisions_offers(ctx, state),
        *ruins_offers(ctx, state),
        *faction_offers(ctx, state),
        *nike_offers(ctx, state),
    ]
