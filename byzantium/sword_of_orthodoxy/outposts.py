"""Byzantine Action Phase, rules 10.1, 10.2, 10.5, 10.5.1: Outposts and Greek Fire.

The Outposts are distant footholds of the old Roman world. The player may buy one
that waits on the Available Outposts space (10.1), or give one up for its plunder,
paying for it with a Barbarian Advance and a rise of the Schism (10.2). Lazica
feeds Greek Fire: once the Reforms are achieved the player may activate it, which
ends all further taking of Outposts (10.5); losing Lazica loses Greek Fire for good
(10.5.1).

Readings recorded on the rulings page:

* an abandoned Outpost is *discarded* in the sense of 2.4 (removed from the game),
  not put on the Counter Tray (10.2);
* when Greek Fire is activated, the Outposts "not taken" are those 10.1 could
  still take: the ones on the Available Outposts space, and Rome, Hispania and
  Sicily still waiting on the Counter Tray for the Fall of Rome (10.5);
* the activation is remembered (fact ``greek-fire``), so that losing Lazica later
  does not give the right to take Outposts back (10.5, 10.5.1).
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import greek_fire_active, reforms_achieved
from byzantium.sword_of_orthodoxy.components import Icon, TileKind
from byzantium.sword_of_orthodoxy.concepts import basileus_has, change_schism, discard
from byzantium.sword_of_orthodoxy.engine import Context, Offer, make_offer, push
from byzantium.sword_of_orthodoxy.state import SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.synopsis import OUTPOST_SPACES, controlled_outposts
from byzantium.sword_of_orthodoxy.world import (
    MAX_TRACK,
    marker,
    move,
    remember,
    set_marker,
    tiles_on,
)

__all__ = [
    "AVAILABLE",
    "GREEK_FIRE",
    "LAZICA",
    "AbandonOutpost",
    "ActivateGreekFire",
    "SchismOfAbandonment",
    "TakeOutpost",
    "abandon_outpost",
    "abandonable_outposts",
    "activate_greek_fire",
    "available_outposts",
    "can_activate_greek_fire",
    "greek_fire_activated",
    "greek_fire_lost",
    "offers",
    "outpost_cost",
    "take_outpost",
]

#: The space Outposts are bought from (10.1).
AVAILABLE = "available-outposts"
#: Where Lazica goes when Greek Fire is activated (10.5).
GREEK_FIRE = "greek-fire"
#: The Lazica Outpost, source of the naphtha (10.5, 10.5.1).
LAZICA = "outpost-lazica"
#: The fact remembered once Greek Fire has been activated (10.5: no more Outposts, ever).
GREEK_FIRE_FACT = "greek-fire"
#: What an Outpost costs (10.1), and with a sword on the grey Basileus.
OUTPOST_PRICE = 2
OUTPOST_PRICE_WITH_SWORD = 1
#: The Outposts the Fall of Rome makes available (8.4.1): while they wait on the Counter
#: Tray they are still Outposts 10.1 could take, so Greek Fire discards them (10.5).
AWAITING_ROME = ("outpost-rome", "outpost-hispania", "outpost-sicily")


# -- 10.1 taking Outposts --------------------------------------------------------------


def _starts_with_greek_fire(ctx: Context) -> bool:
    """Whether the scenario's setup puts Lazica on the Greek Fire space (Appendix E)."""
    return (LAZICA, GREEK_FIRE) in ctx.game.setup_placements


def greek_fire_activated(ctx: Context, state: SooState) -> bool:
    """Whether Greek Fire has ever been activated (it may since have been lost, 10.5.1).

    Activated in play (remembered), standing on its space now, or active from the
    setup (the Millennium scenario).
    """
    return (
        GREEK_FIRE_FACT in state.done
        or greek_fire_active(ctx, state)
        or _starts_with_greek_fire(ctx)
    )


def available_outposts(ctx: Context, state: SooState) -> list[int]:
    """The Outposts on the Available Outposts space, in catalogue order."""
    return tiles_on(ctx, state, AVAILABLE, TileKind.OUTPOST)


@RULES.implements("10.1")
def outpost_cost(ctx: Context, state: SooState) -> int:
    """An Outpost costs 2 $, or 1 $ when the grey Basileus shows a sword.

    The cheaper price is not a use of his sword: the free attack of 10.6.8 stays.
    """
    return OUTPOST_PRICE_WITH_SWORD if basileus_has(ctx, state, Icon.SWORD) else OUTPOST_PRICE


@RULES.implements("10.1")
def take_outpost(ctx: Context, state: SooState, tile: int) -> SooState:
    """Buy an available Outpost: pay, and place it (its Roman side up) on its own map space."""
    cost = outpost_cost(ctx, state)
    state = set_marker(ctx, state, "solidus", marker(ctx, state, "solidus") - cost)
    record = ctx.cat.tiles[tile]
    state = move(ctx, state, tile, OUTPOST_SPACES[record.id][0])
    state = replace(state, "board", state.board.flip(tile, False))
    ctx.log("10.1", f"{record.name} is taken for {cost} $", "outpost")
    return state


@attrs.frozen
class TakeOutpost(Task):
    """10.1: take the Outpost ``outpost`` (a tile id)."""

    outpost: str

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return take_outpost(ctx, state, ctx.cat.tile(self.outpost))


def _take_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Taking is possible until Greek Fire is activated, with the price in the treasury."""
    if greek_fire_activated(ctx, state):
        return []
    if marker(ctx, state, "solidus") < outpost_cost(ctx, state):
        return []
    found = []
    for tile in available_outposts(ctx, state):
        tile_id = ctx.cat.tiles[tile].id
        if tile_id in OUTPOST_SPACES:
            found.append(make_offer(f"take {tile_id}", TakeOutpost, tile_id))
    return found


# -- 10.2 abandoning Outposts ----------------------------------------------------------


@RULES.implements("10.2")
def abandonable_outposts(ctx: Context, state: SooState) -> list[int]:
    """The Outposts the player controls and may abandon (even one taken this Turn).

    A Fallen Egypt is not controlled and cannot be abandoned (11.5).
    """
    return controlled_outposts(ctx, state)


@RULES.implements("10.2")
def abandon_outpost(ctx: Context, state: SooState, tile: int) -> tuple[SooState, list[Task]]:
    """Give up an Outpost: discard it, gain its solidus, then pay its golden space.

    The treasury takes the solidus printed on the tile (never beyond 12). The
    golden space then costs a Barbarian Advance on its Path letter, if it has one,
    and as many points of Schism as it shows Σ, in that order: the returned tasks
    carry both out (the Advance may cause a Siege, resolved at once).
    """
    face = ctx.cat.face(state.board, tile)
    state = discard(ctx, state, tile, "10.2")
    before = marker(ctx, state, "solidus")
    state = set_marker(ctx, state, "solidus", before + face.solidus)
    gained = min(MAX_TRACK, before + face.solidus) - before
    ctx.log("10.2", f"{face.name} abandoned: +{gained} $ of plunder", "outpost")
    then: list[Task] = []
    if face.advance is not None:
        then.append(Advance(face.advance, "10.2"))
    if face.schism:
        then.append(SchismOfAbandonment(face.schism))
    return state, then


@attrs.frozen
class AbandonOutpost(Task):
    """10.2: abandon the Outpost ``outpost`` (a tile id)."""

    outpost: str

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state, then = abandon_outpost(ctx, state, ctx.cat.tile(self.outpost))
        return push(state, *then)


@attrs.frozen
class SchismOfAbandonment(Task):
    """10.2: the Σ of an abandoned Outpost's golden space raise the Schism Level."""

    amount: int

    @RULES.implements("10.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return change_schism(ctx, state, self.amount, "10.2")


def _abandon_offers(ctx: Context, state: SooState) -> list[Offer]:
    found = []
    for tile in abandonable_outposts(ctx, state):
        tile_id = ctx.cat.tiles[tile].id
        found.append(make_offer(f"abandon {tile_id}", AbandonOutpost, tile_id))
    return found


# -- 10.5 Greek Fire -------------------------------------------------------------------


@RULES.implements("10.5")
def can_activate_greek_fire(ctx: Context, state: SooState) -> bool:
    """Greek Fire may be activated with the Reforms achieved, Lazica held, and not before."""
    lazica = ctx.cat.tile(LAZICA)
    return (
        reforms_achieved(ctx, state)
        and lazica in controlled_outposts(ctx, state)
        and not greek_fire_activated(ctx, state)
    )


@RULES.implements("10.5")
def activate_greek_fire(ctx: Context, state: SooState) -> SooState:
    """Lazica moves to the Greek Fire space; the Outposts not taken leave the game.

    From now on no Outpost may be taken (10.1). The Outposts discarded are those
    10.1 could still have taken: the ones on the Available Outposts space and those
    of the Fall of Rome still on the Counter Tray (see the rulings page).
    """
    state = move(ctx, state, ctx.cat.tile(LAZICA), GREEK_FIRE)
    state = remember(state, GREEK_FIRE_FACT)
    ctx.log("10.5", "Greek Fire is activated: Lazica goes to the Greek Fire space", "greek-fire")
    tray = ctx.cat.space("counter-tray")
    for tile in ctx.cat.tiles_of(TileKind.OUTPOST):
        waiting = ctx.cat.tiles[tile].id in AWAITING_ROME and state.board.where[tile] == tray
        if tile in available_outposts(ctx, state) or waiting:
            state = discard(ctx, state, tile, "10.5")
    return state


@attrs.frozen
class ActivateGreekFire(Task):
    """10.5: activate Greek Fire."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return activate_greek_fire(ctx, state)


@RULES.implements("10.5.1")
def greek_fire_lost(ctx: Context, state: SooState) -> bool:
    """Whether the naphtha of Lazica is gone for good: the Outpost has left the game.

    Abandoning Lazica (10.2) or the David event (8.4.1) discards it; Greek Fire,
    which needs Lazica on its space (10.5), can then never be used or activated.
    """
    tile = ctx.cat.tile(LAZICA)
    return state.board.where[tile] == ctx.cat.space("discarded")


# -- the menu --------------------------------------------------------------------------


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """Take an Outpost, abandon one, activate Greek Fire: what is legal and affordable now."""
    found = _take_offers(ctx, state) + _abandon_offers(ctx, state)
    if can_activate_greek_fire(ctx, state):
        found.append(make_offer("activate greek-fire", ActivateGreekFire))
    return found
