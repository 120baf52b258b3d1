"""Player Negotiations (optional rules 24.0-24.2, with 10.37): offers, agreements, penalties.

With the ``negotiations`` option the players may strike deals. The rulebook lets them
talk at any time; a rules engine needs definite moments, so a *negotiation window*
opens at the start of every player turn (before its Random Events Phase) and again
just before its Operations Phase (:data:`WINDOWS`). In a window the phasing player,
then the other, may each put one offer to the other player or pass.

An offer is built one term at a time from a finite menu (24.1; :func:`term_menus`):

* Solidus Points one way (10.37), in steps of 1, 5 or 10: what the proposer gives is
  bounded by his treasury, what he asks for by :data:`SOLIDUS_ASK_LIMIT` (the other's
  treasury is secret, 22.1, and a menu must not betray it);
* Stratagem markers both ways: the proposer names the types he hands over; of the
  other player's markers he names types he wants, or asks for markers of the giver's
  choice (:data:`ANY`), no more than the other holds (hand sizes are public); no hand
  may end up above the limit of 8.3;
* Regions either player controls restored to neutrality (by their controller);
* promises for the rest of the game turn: a player leaves a City or Colony hex, or a
  Region (its Peripheral Area box included), where he has units now; a player
  initiates no combat;
* ending the game at once, Victory Points totalled then (23.0).

"Other agreements" (the last line of 24.1) cannot be enumerated: the players may keep
them off the board; the engine knows nothing of them.

The other player accepts or refuses (:class:`Negotiations`, stage ``answer``); he may
accept only what he can pay. Accepted, the exchanges and restorations happen at once
(:func:`carry_out`), and the promises are recorded as an :class:`~.state.Agreement`
in ``BelState.agreements`` until the end of the game turn. Every agreement made
through the engine counts as written (24.2). Breaking one is legal but costs: when a
player bound not to attack declares a combat (:func:`attack_declared`), or still has
units where he promised to leave at the end of the game turn (:class:`KeepPromises`),
the other player rolls two dice and picks that many Stratagem markers at random from
the Pool (:class:`AgreementPenalty`); the broken agreement is void from then on.

What the other player may see (22.1): an offer is hidden while it is being built (its
steps show as hidden selections, :func:`hidden_step`) and public once offered
(:func:`shown_proposal`); the markers handed over are seen by both parties, which is
all there is.
"""

from __future__ import annotations

from collections import Counter as Tally

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import Side
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, end_game, push
from byzantium.belisarius.state import (
    EMPIRE,
    NOBODY,
    Agreement,
    BelAction,
    BelState,
    Done,
    Promise,
    PromiseKind,
    Request,
    RequestKind,
    Roll,
    Select,
    Stratagems,
    Task,
    opponent,
)
from byzantium.belisarius.stratagems import PickStratagems, hand_limit
from byzantium.belisarius.world import change_control, city_hexes, controller, region_controller

__all__ = [
    "ANY",
    "SOLIDUS_ASK_LIMIT",
    "SOLIDUS_STEPS",
    "WINDOWS",
    "AgreementPenalty",
    "KeepPromises",
    "Negotiations",
    "Proposal",
    "attack_declared",
    "can_accept",
    "carry_out",
    "describe",
    "hidden_step",
    "promise_kept",
    "promise_text",
    "shown_proposal",
    "term_menus",
]

#: The phases a negotiation window opens before, in every player turn (a ruling).
WINDOWS = ("random events", "operations")
#: A marker asked for whose type the giver chooses when he accepts.
ANY = "any"
#: The most Solidus Points an offer may ask of the other player (a ruling: his
#: treasury is secret, so the bound cannot be it; provisional engine limit).
SOLIDUS_ASK_LIMIT = 100
#: The amounts Solidus terms grow by, one step at a time.
SOLIDUS_STEPS = (1, 5, 10)

#: Stages of a window.
OPEN, PROPOSE, TERMS, ANSWER, HAND_OVER = "open", "propose", "terms", "answer", "hand over"

#: Items of the proposer's menu.
OFFER = "offer"
ACCEPT = "accept"
END_GAME = "end the game"
GIVE_MARKER = "give a marker"
ASK_MARKER = "ask a marker"
NEUTRAL = "restore a region"
I_LEAVE = "I leave"
YOU_LEAVE = "you leave"
I_HOLD = "I make no attack"
YOU_HOLD = "you make no attack"

_NAME = {EMPIRE: "the Empire", 1 - EMPIRE: "the Barbarian"}


@attrs.frozen
class Proposal:
    """An offer of one player to the other (24.1).

    ``solidus`` and ``markers`` are, per player (Empire, Barbarian), what he hands the
    other; a marker of type :data:`ANY` is one the giver picks when he accepts.
    ``neutral`` names Regions restored to neutrality by whoever controls them.
    """

    proposer: int
    solidus: tuple[int, int] = (0, 0)
    markers: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    neutral: tuple[str, ...] = ()
    promises: tuple[Promise, ...] = ()
    end_game: bool = False

    @property
    def empty(self) -> bool:
        """Whether no term has been added yet."""
        return self == Proposal(self.proposer)


def _with_solidus(proposal: Proposal, player: int, amount: int) -> Proposal:
    paid = list(proposal.solidus)
    paid[player] += amount
    return attrs.evolve(proposal, solidus=(paid[0], paid[1]))


def _with_marker(proposal: Proposal, player: int, marker: str) -> Proposal:
    handed = list(proposal.markers)
    handed[player] = (*handed[player], marker)
    return attrs.evolve(proposal, markers=(handed[0], handed[1]))


def _with_promise(proposal: Proposal, promise: Promise) -> Proposal:
    return attrs.evolve(proposal, promises=(*proposal.promises, promise))


def _held_after(state: BelState, proposal: Proposal) -> tuple[int, int]:
    """How many markers each player would hold once the offer is carried out."""
    held = [state.stratagems.held(p) for p in (0, 1)]
    given = [len(proposal.markers[p]) for p in (0, 1)]
    return held[0] - given[0] + given[1], held[1] - given[1] + given[0]


def _operates_again(ctx: Context, state: BelState, player: int) -> bool:
    """Whether ``player`` still has forces that may operate this game turn: his
    Operations Phase is still to come (or, with Reaction, the phasing player's)."""
    if player == state.phasing or ctx.option("reaction"):
        return True
    first = EMPIRE if ctx.cat.scenario.first_player is Side.EMPIRE else 1 - EMPIRE
    return state.phasing == first


def _places(ctx: Context, state: BelState, player: int) -> dict[str, Promise]:
    """The promises to leave a place ``player`` could make: the City and Colony hexes
    he occupies, then the Regions where he has units (a box counts as its Region)."""
    cat = ctx.cat
    found: dict[str, Promise] = {}
    for where in city_hexes(cat, state):
        if any(controller(cat, state, u) == player for u in state.units.at(where)):
            found[f"hex {where:04d}"] = Promise(player, PromiseKind.LEAVE_HEX, where=where)
    regions = sorted(
        {
            cat.region_of(state.units.where[u])
            for u in state.units.in_play()
            if controller(cat, state, u) == player
        }
        - {-1}
    )
    for region in regions:
        name = cat.regions[region].name
        found[f"region {name}"] = Promise(player, PromiseKind.LEAVE_REGION, region=name)
    return found


def _give_markers(ctx: Context, state: BelState, proposal: Proposal) -> dict[str, Proposal]:
    player = proposal.proposer
    if _held_after(state, proposal)[opponent(player)] >= hand_limit(ctx):
        return {}
    offered = Tally(proposal.markers[player])
    hand = state.stratagems.hands[player]
    return {
        marker: _with_marker(proposal, player, marker)
        for kind, marker in enumerate(ctx.cat.stratagem_ids)
        if hand[kind] > offered[marker]
    }


def _ask_markers(ctx: Context, state: BelState, proposal: Proposal) -> dict[str, Proposal]:
    player = proposal.proposer
    other = opponent(player)
    asked = proposal.markers[other]
    if len(asked) >= state.stratagems.held(other):
        return {}
    if _held_after(state, proposal)[player] >= hand_limit(ctx):
        return {}
    wanted = Tally(asked)
    own = state.stratagems.hands[player]
    found = {ANY: _with_marker(proposal, other, ANY)}
    for kind, stratagem in enumerate(ctx.cat.components.stratagems):
        # The proposer knows only that the other cannot hold those he holds himself.
        if stratagem.count - own[kind] > wanted[stratagem.id]:
            found[stratagem.id] = _with_marker(proposal, other, stratagem.id)
    return found


def _direct_terms(ctx: Context, state: BelState, proposal: Proposal) -> dict[str, Proposal]:
    player = proposal.proposer
    other = opponent(player)
    terms: dict[str, Proposal] = {}
    given, asked = proposal.solidus[player], proposal.solidus[other]
    for step in SOLIDUS_STEPS:
        if not asked and given + step <= state.solidus[player]:
            terms[f"give {step} solidus"] = _with_solidus(proposal, player, step)
    for step in SOLIDUS_STEPS:
        if not given and asked + step <= SOLIDUS_ASK_LIMIT:
            terms[f"ask {step} solidus"] = _with_solidus(proposal, other, step)
    for label, who in ((I_HOLD, player), (YOU_HOLD, other)):
        promise = Promise(who, PromiseKind.NO_COMBAT)
        if promise not in proposal.promises:
            terms[label] = _with_promise(proposal, promise)
    if not proposal.end_game:
        terms[END_GAME] = attrs.evolve(proposal, end_game=True)
    return terms


@RULES.implements("24.1", "10.37")
def term_menus(ctx: Context, state: BelState, proposal: Proposal) -> dict[str, dict[str, Proposal]]:
    """The terms the proposer may add next, each with the offer it makes (24.1, 10.37).

    The key ``""`` holds the terms chosen straight from the main menu (Solidus steps,
    no-combat promises, the end of the game); every other key names a sub-menu (the
    markers to give or ask for, a Region to restore, a place to leave). Only what the
    proposer knows bounds them (22.1): his own treasury and hand, the public hand sizes
    and board; no hand may end above the limit (8.3); each term is added once.
    """
    cat = ctx.cat
    player = proposal.proposer
    other = opponent(player)
    menus: dict[str, dict[str, Proposal]] = {"": _direct_terms(ctx, state, proposal)}
    menus[GIVE_MARKER] = _give_markers(ctx, state, proposal)
    menus[ASK_MARKER] = _ask_markers(ctx, state, proposal)
    menus[NEUTRAL] = {
        region.name: attrs.evolve(proposal, neutral=(*proposal.neutral, region.name))
        for index, region in enumerate(cat.regions)
        if region_controller(state, index) != NOBODY and region.name not in proposal.neutral
    }
    for label, who in ((I_LEAVE, player), (YOU_LEAVE, other)):
        if not _operates_again(ctx, state, who):
            menus[label] = {}
            continue
        menus[label] = {
            item: _with_promise(proposal, promise)
            for item, promise in _places(ctx, state, who).items()
            if promise not in proposal.promises
        }
    return menus


@RULES.implements("24.1", "10.37")
def can_accept(ctx: Context, state: BelState, proposal: Proposal) -> bool:
    """Whether both players can carry out the offer now: each has the Solidus Points
    and the named markers he would hand over, and the other player holds enough
    markers besides for those left to his choice."""
    for player in (0, 1):
        if state.solidus[player] < proposal.solidus[player]:
            return False
    return all(_can_hand_over(ctx, state, proposal, player) for player in (0, 1))


def _can_hand_over(ctx: Context, state: BelState, proposal: Proposal, player: int) -> bool:
    markers = proposal.markers[player]
    if not markers:
        return True
    if state.stratagems.held(player) < len(markers):
        return False
    held = state.stratagems.hands[player]
    index = ctx.cat.stratagem_index
    named = Tally(m for m in markers if m != ANY)
    return all(held[index[m]] >= n for m, n in named.items())


def _exchange(ctx: Context, stratagems: Stratagems, proposal: Proposal) -> Stratagems:
    """Both hands after each player hands the other the markers the offer names."""
    index = ctx.cat.stratagem_index
    hands = [list(stratagems.hands[0]), list(stratagems.hands[1])]
    for player in (0, 1):
        for marker in proposal.markers[player]:
            kind = index[marker]
            hands[player][kind] -= 1
            hands[opponent(player)][kind] += 1
    if min(hands[0]) < 0 or min(hands[1]) < 0:
        raise ValueError("rule 24.1: a player hands over a Stratagem marker he does not hold")
    return Stratagems(stratagems.pool, (tuple(hands[0]), tuple(hands[1])))


@RULES.implements("24.1", "10.37")
def carry_out(ctx: Context, state: BelState, proposal: Proposal) -> BelState:
    """An accepted offer takes effect (24.1): Solidus Points and markers change hands
    (10.37), Regions return to neutrality with the consequences of 4.51, the promises
    are recorded until the end of the game turn, and an agreed end of the game ends it
    with the Victory Points totalled at once (23.0)."""
    if any(marker == ANY for hand in proposal.markers for marker in hand):
        raise ValueError("rule 24.1: the giver has not chosen every marker yet")
    paid = proposal.solidus
    treasury = (state.solidus[0] - paid[0] + paid[1], state.solidus[1] - paid[1] + paid[0])
    if min(treasury) < 0:
        raise ValueError("rule 10.37: a player pays more Solidus Points than he has")
    state = attrs.evolve(
        state, solidus=treasury, stratagems=_exchange(ctx, state.stratagems, proposal)
    )
    for player in (0, 1):
        if paid[player]:
            ctx.log("10.37", f"{_NAME[player]} pays {paid[player]} Solidus Points", "negotiation")
        if proposal.markers[player]:
            count = len(proposal.markers[player])
            ctx.log("24.1", f"{_NAME[player]} hands over {count} Stratagem markers", "negotiation")
    for name in proposal.neutral:
        state = change_control(ctx, state, ctx.cat.region(name), NOBODY, "24.1")
    if proposal.promises:
        agreement = Agreement(proposal.proposer, proposal.promises)
        state = attrs.evolve(state, agreements=(*state.agreements, agreement))
    if proposal.end_game:
        return end_game(ctx, state, "24.1", "the players agree to end the game")
    return state


def promise_text(promise: Promise) -> str:
    """A promise in words."""
    who = _NAME[promise.player]
    if promise.kind is PromiseKind.NO_COMBAT:
        return f"{who} initiates no combat this turn"
    if promise.kind is PromiseKind.LEAVE_HEX:
        return f"{who} leaves hex {promise.where:04d} this turn"
    return f"{who} leaves {promise.region} this turn"


def describe(proposal: Proposal) -> str:
    """The offer in words, term by term (its markers by type)."""
    parts: list[str] = []
    for player in (0, 1):
        if proposal.solidus[player]:
            parts.append(f"{_NAME[player]} pays {proposal.solidus[player]} Solidus")
        if proposal.markers[player]:
            parts.append(f"{_NAME[player]} hands over {', '.join(proposal.markers[player])}")
    parts += [f"{name} returns to neutrality" for name in proposal.neutral]
    parts += [promise_text(p) for p in proposal.promises]
    if proposal.end_game:
        parts.append("the game ends now")
    return "; ".join(parts) if parts else "nothing"


@attrs.frozen
class Negotiations(Task):
    """A negotiation window before the phase ``window`` (24.0): the phasing player, then
    the other, may each make one offer or pass; the other player accepts or refuses.

    ``menu`` is the sub-menu the proposer has open (stage ``terms``).
    """

    window: str
    stage: str = OPEN
    proposer: int = NOBODY
    proposal: Proposal | None = None
    menu: str = ""

    @RULES.implements("24.0", "24.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.stage == OPEN:
            ctx.log("24.0", f"negotiations before the {self.window} phase", "phase")
            state = attrs.evolve(state, phase="negotiations")
            return push(state, self._turn_of(state.phasing))
        if self.stage == PROPOSE:
            return self._propose(ctx, state, answer)
        if self.stage == TERMS:
            return self._terms(ctx, state, answer)
        if self.stage == ANSWER:
            return self.answer_offer(ctx, state, answer)
        return self.hand_over(ctx, state, answer)

    def _turn_of(self, player: int) -> Negotiations:
        return Negotiations(self.window, PROPOSE, player, Proposal(player))

    def _next(self, state: BelState) -> BelState:
        """The other player's turn to offer, or the window closes."""
        if self.proposer == state.phasing:
            return push(state, self._turn_of(opponent(state.phasing)))
        return state

    def _proposal(self) -> Proposal:
        assert self.proposal is not None
        return self.proposal

    def _propose(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        proposal = self._proposal()
        if isinstance(answer, Done):
            what = "passes" if proposal.empty else "withdraws his offer"
            # The offer he was building is his own until he makes it (24.1): the other
            # reads only that no offer comes.
            ctx.log(
                "24.0",
                f"{_NAME[self.proposer]} {what}",
                "negotiation",
                owner=self.proposer,
                public=f"{_NAME[self.proposer]} makes no offer",
            )
            return self._next(state)
        menus = term_menus(ctx, state, proposal)
        if isinstance(answer, Select):
            if answer.item == OFFER:
                ctx.log(
                    "24.1",
                    f"{_NAME[self.proposer]} offers: {describe(proposal)}",
                    "negotiation",
                )
                return push(state, attrs.evolve(self, stage=ANSWER))
            direct = menus[""].get(answer.item)
            if direct is not None:
                return push(state, attrs.evolve(self, proposal=direct))
            return push(state, attrs.evolve(self, stage=TERMS, menu=answer.item))
        options: list[BelAction] = [Done()]
        if not proposal.empty:
            options.append(Select(OFFER))
        options += [Select(item) for item in menus[""]]
        options += [Select(menu) for menu, items in menus.items() if menu and items]
        prompt = (
            "negotiations: pass, or add a term to an offer"
            if proposal.empty
            else f"negotiations: offer ({describe(proposal)}), add a term, or withdraw"
        )
        return ask_choice(state, self, self.proposer, "24.1", prompt, options)

    def _terms(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        items = term_menus(ctx, state, self._proposal())[self.menu]
        back = attrs.evolve(self, stage=PROPOSE, menu="")
        if isinstance(answer, Done):
            return push(state, back)
        if isinstance(answer, Select):
            return push(state, attrs.evolve(back, proposal=items[answer.item]))
        options: list[BelAction] = [Done(), *(Select(item) for item in items)]
        return ask_choice(
            state, self, self.proposer, "24.1", f"negotiations: {self.menu} (or go back)", options
        )

    @RULES.implements("24.1", "24.2")
    def answer_offer(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The other player accepts the offer, if he can carry it out, or refuses it
        (Done); an accepted offer is a written agreement (24.2)."""
        proposal = self._proposal()
        other = opponent(self.proposer)
        if isinstance(answer, Done):
            ctx.log("24.1", f"{_NAME[other]} refuses the offer", "negotiation")
            return self._next(state)
        if isinstance(answer, Select):
            ctx.log("24.1", f"{_NAME[other]} accepts the offer", "negotiation")
            return self._agree(ctx, state, proposal)
        options: list[BelAction] = [Done()]
        if can_accept(ctx, state, proposal):
            options.append(Select(ACCEPT))
        prompt = f"{_NAME[self.proposer]} offers: {describe(proposal)}; accept or refuse"
        return ask_choice(state, self, other, "24.1", prompt, options)

    def _agree(self, ctx: Context, state: BelState, proposal: Proposal) -> BelState:
        if any(m == ANY for hand in proposal.markers for m in hand):
            return push(state, attrs.evolve(self, stage=HAND_OVER, proposal=proposal))
        state = carry_out(ctx, state, proposal)
        if state.ending is not None:
            return state
        return self._next(state)

    @RULES.implements("24.1", "22.1")
    def hand_over(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The accepting player picks, one at a time, the markers of his hand left to
        his choice; the proposer learns the types he receives, nothing more (22.1)."""
        proposal = self._proposal()
        giver = opponent(self.proposer)
        handed = proposal.markers[giver]
        if isinstance(answer, Select):
            slot = handed.index(ANY)
            chosen = (*handed[:slot], answer.item, *handed[slot + 1 :])
            markers = (chosen, proposal.markers[1]) if giver == 0 else (proposal.markers[0], chosen)
            return self._agree(ctx, state, attrs.evolve(proposal, markers=markers))
        committed = Tally(m for m in handed if m != ANY)
        hand = state.stratagems.hands[giver]
        options = [
            Select(marker)
            for kind, marker in enumerate(ctx.cat.stratagem_ids)
            if hand[kind] > committed[marker]
        ]
        return ask_choice(
            state, self, giver, "24.1", "choose a Stratagem marker to hand over", options
        )


@attrs.frozen
class AgreementPenalty(Task):
    """A written agreement was broken: ``player``, the wronged party, rolls two dice and
    picks that many markers at random from the Pool (24.2; the Pool and the hand limit
    of 8.3 may give him fewer)."""

    player: int

    @RULES.implements("24.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "24.2", "a broken agreement: markers to pick", 2)
        count = sum(answer.dice)
        ctx.log("24.2", f"{_NAME[self.player]} picks {count} Stratagem markers", "negotiation")
        return push(state, PickStratagems(self.player, count, "24.2"))


def _broken(ctx: Context, breaker: int, why: str) -> AgreementPenalty:
    ctx.log("24.2", f"{_NAME[breaker]} breaks an agreement: {why}", "negotiation")
    return AgreementPenalty(opponent(breaker))


@RULES.implements("24.2")
def attack_declared(
    ctx: Context, state: BelState, attacker: int
) -> tuple[BelState, tuple[Task, ...]]:
    """``attacker`` declares a combat: every agreement in which he promised not to is
    broken (once each, and void from then on); returns the state and the penalties to
    run (24.2). Breaking is legal: the combat goes ahead."""
    kept: list[Agreement] = []
    penalties: list[Task] = []
    for agreement in state.agreements:
        if Promise(attacker, PromiseKind.NO_COMBAT) in agreement.promises:
            penalties.append(_broken(ctx, attacker, "it initiates a combat"))
        else:
            kept.append(agreement)
    if not penalties:
        return state, ()
    return attrs.evolve(state, agreements=tuple(kept)), tuple(penalties)


@RULES.implements("24.1", "24.2")
def promise_kept(ctx: Context, state: BelState, promise: Promise) -> bool:
    """Whether a promise to leave a place is kept now: none of its player's units is
    in the hex, or in the Region's hexes and box (a promise not to attack is checked
    when a combat is declared, :func:`attack_declared`)."""
    cat = ctx.cat
    if promise.kind is PromiseKind.LEAVE_HEX:
        return all(
            controller(cat, state, u) != promise.player for u in state.units.at(promise.where)
        )
    if promise.kind is PromiseKind.LEAVE_REGION:
        region = cat.region(promise.region)
        return not any(
            cat.region_of(state.units.where[u]) == region
            and controller(cat, state, u) == promise.player
            for u in state.units.in_play()
        )
    return True


@attrs.frozen
class KeepPromises(Task):
    """The end of the game turn (24.1, 24.2): a player with units left where he promised
    to leave has broken that agreement (once per agreement and player); every
    agreement then lapses."""

    @RULES.implements("24.1", "24.2")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        if not state.agreements:
            return state
        penalties: list[Task] = []
        for agreement in state.agreements:
            breakers = sorted(
                {p.player for p in agreement.promises if not promise_kept(ctx, state, p)}
            )
            penalties += [
                _broken(ctx, b, "units stay where it promised to leave") for b in breakers
            ]
        ctx.log("24.1", "the agreements of the game turn lapse", "negotiation")
        return push(attrs.evolve(state, agreements=()), *penalties)


# -- what the other player may see (22.1) -----------------------------------------------------


@RULES.implements("22.1", "24.1")
def shown_proposal(request: Request, player: int) -> Proposal | None:
    """The offer of a pending negotiation as ``player`` may see it: the proposer sees it
    as he builds it, the other player only once it is offered."""
    task = request.task
    if not isinstance(task, Negotiations) or task.proposal is None or task.stage == OPEN:
        return None
    if task.stage in (ANSWER, HAND_OVER) or task.proposer == player:
        return task.proposal
    return None


def hidden_step(request: Request, player: int) -> bool:
    """Whether a choice answering ``request`` is a step of an offer being built by the
    other player, hidden from ``player`` until it is offered (22.1)."""
    task = request.task
    return (
        request.kind is RequestKind.CHOOSE
        and isinstance(task, Negotiations)
        and task.stage in (PROPOSE, TERMS)
        and request.player != player
    )
