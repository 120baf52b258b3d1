"""Player Negotiations (optional rules 24.0-24.2, and 10.37): offers, agreements, penalties."""

from __future__ import annotations

import json
from functools import cache

import attrs
import jsonschema
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.diplomacy import HIDDEN, ROLL, DiplomacyAttempt
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.negotiations import (
    ANSWER,
    ANY,
    HAND_OVER,
    SOLIDUS_ASK_LIMIT,
    AgreementPenalty,
    KeepPromises,
    Negotiations,
    Proposal,
    attack_declared,
    promise_kept,
    term_menus,
)
from byzantium.belisarius.observation import draw_recipient, observe, visible_action
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.sequence import EndOfGameTurn
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    Agreement,
    BelAction,
    BelState,
    Done,
    Draw,
    Promise,
    PromiseKind,
    RequestKind,
    Roll,
    Select,
    Stratagems,
    opponent,
)
from byzantium.belisarius.stratagems import hand_limit
from byzantium.belisarius.victory import victory_points
from byzantium.belisarius.world import controller, region_controller
from byzantium.core.codec import codec_for
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.core.schema import game_schemas
from tests.belisarius.support import (
    answer,
    as_played,
    belisarius,
    blank_state,
    boards,
    check_invariants,
    city,
    context,
    give,
    move,
    options,
    pending,
    pending_task,
    put,
    random_game,
    start,
    trail_of,
)
from tests.belisarius.test_observation import disguise, reask
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"

#: Scenario 1 with Player Negotiations (its first player is the Barbarian).
NEG = belisarius(1, negotiations=True)
CAT = NEG.catalog
CTX = context(NEG)
LIMIT = hand_limit(CTX)

CONTROL = {
    "Thracia": Control.EMPIRE,
    "Lydia": Control.EMPIRE,
    "Slavs": Control.BARBARIAN,
    "Persia": Control.BARBARIAN,
}


def board(phasing: int = EMPIRE, solidus: int = 30) -> BelState:
    return blank_state("levy", phasing, control=CONTROL, solidus=solidus, game=NEG)


def window(state: BelState, before: str = "operations") -> BelState:
    """A negotiation window opens: the phasing player is asked first."""
    return start(NEG, state, Negotiations(before))


def build(state: BelState, *terms: str | tuple[str, str]) -> BelState:
    """Add terms: an item of the main menu, or (sub-menu, item)."""
    for term in terms:
        if isinstance(term, tuple):
            menu, item = term
            state = answer(NEG, state, Select(menu))
            state = answer(NEG, state, Select(item))
        else:
            state = answer(NEG, state, Select(term))
    return state


def offer(state: BelState, *terms: str | tuple[str, str]) -> BelState:
    """Build an offer and put it to the other player."""
    return answer(NEG, build(state, *terms), Select("offer"))


def accept(state: BelState) -> BelState:
    assert Select("accept") in options(state)
    return answer(NEG, state, Select("accept"))


def hands(state: BelState, player: int) -> dict[str, int]:
    hand = state.stratagems.hands[player]
    return {CAT.stratagem_ids[k]: n for k, n in enumerate(hand) if n}


def board_of(state: BelState) -> tuple[object, ...]:
    """Everything on the board and in the treasuries, hands and agreements."""
    return (
        state.units,
        state.control,
        state.solidus,
        state.stratagems,
        state.markers,
        state.agreements,
        state.ending,
    )


# -- the windows (24.0) -------------------------------------------------------------------------


def first_action(game: Belisarius, state: BelState) -> BelAction:
    if game.current_player(state) == CHANCE:
        return game.chance_outcomes(state)[0][0]
    return game.legal_actions(state)[0]


@pytest.mark.rule("24.0", "3.1")
def test_windows_open_before_random_events_and_operations_phasing_player_first() -> None:
    state = NEG.initial_state()
    while state.turn < 1:
        state = NEG.apply(state, first_action(NEG, state))
    seen: list[tuple[str, int]] = []
    phases_before: list[str] = []
    previous = state.phase
    while state.turn == 1 and state.ending is None:
        asked = pending(state)
        if isinstance(asked.task, Negotiations) and asked.task.stage == "propose":
            seen.append((asked.task.window, asked.player))
            assert state.phase == "negotiations"
            phases_before.append(previous)
        elif state.phase != "negotiations":
            previous = state.phase
        state = NEG.apply(state, first_action(NEG, state))  # every window: pass
    b, e = BARBARIAN, EMPIRE  # Scenario 1: the Barbarian moves first
    assert seen == [
        ("random events", b),
        ("random events", e),
        ("operations", b),
        ("operations", e),
        ("random events", e),
        ("random events", b),
        ("operations", e),
        ("operations", b),
    ]
    assert phases_before[2] == "levy" and phases_before[6] == "levy"


@pytest.mark.rule("24.0")
def test_each_player_may_make_one_offer_per_window_then_it_closes() -> None:
    state = window(board())
    state = offer(state, "give 1 solidus")
    assert (
        pending(state).player == BARBARIAN and pending_task(state, Negotiations).stage == "answer"
    )
    state = answer(NEG, state, Done())  # refused
    assert (
        pending_task(state, Negotiations).proposer == BARBARIAN
        and pending_task(state, Negotiations).stage == "propose"
    )
    state = offer(state, "give 1 solidus")
    state = answer(NEG, state, Done())
    assert state.pending is None and not state.stack  # the window is over


@pytest.mark.rule("24.0")
@settings(max_examples=40)
@given(st.data())
def test_without_the_option_no_window_opens_and_every_menu_is_unchanged(
    data: st.DataObject,
) -> None:
    final, trail = trail_of(1, data.draw(st.sampled_from(range(3)), label="seed"))
    off = belisarius(1)
    for before, _, _, _ in trail[:: max(1, len(trail) // 50)]:
        assert not isinstance(pending(before).task, Negotiations | AgreementPenalty)
        assert before.agreements == ()
    assert final.agreements == ()
    index = data.draw(st.integers(0, len(trail) - 1), label="step")
    state = trail[index][0]
    # The same question asked by the game with the option: the same menu.
    assert reask(NEG, state).pending == reask(off, state).pending


# -- building an offer (24.1, 10.37) --------------------------------------------------


@pytest.mark.rule("24.1", "10.37")
def test_solidus_given_is_bounded_by_the_givers_treasury_and_one_way_only() -> None:
    state = window(board(solidus=12))
    assert {Select("give 10 solidus"), Select("ask 10 solidus")} <= set(options(state))
    state = build(state, "give 10 solidus")
    menu = options(state)
    assert Select("give 1 solidus") in menu and Select("give 5 solidus") not in menu
    assert not any(isinstance(o, Select) and o.item.startswith("ask ") for o in menu)
    assert pending_task(state, Negotiations).proposal == Proposal(EMPIRE, solidus=(10, 0))
    state = accept(offer(state, "give 1 solidus"))
    assert state.solidus == (12 - 11, 12 + 11)


@pytest.mark.rule("24.1", "10.37", "22.1")
def test_solidus_asked_is_capped_and_can_be_accepted_only_by_a_player_who_has_them() -> None:
    state = attrs.evolve(board(), solidus=(0, 5))
    state = window(state)
    for _ in range(SOLIDUS_ASK_LIMIT // 10):
        state = build(state, "ask 10 solidus")
    menu = options(state)
    assert not any(isinstance(o, Select) and "solidus" in o.item for o in menu)
    poor = answer(NEG, state, Select("offer"))
    assert options(poor) == (Done(),)  # 5 Solidus cannot pay 100: refuse only
    rich = window(attrs.evolve(board(), solidus=(3, 20)))
    rich = accept(offer(rich, "ask 10 solidus", "ask 5 solidus"))
    assert rich.solidus == (18, 5)


@pytest.mark.rule("24.1")
def test_named_markers_change_hands_and_the_receiver_learns_them() -> None:
    state = give(board(), EMPIRE, "agent", "forced-march", game=NEG)
    state = give(state, BARBARIAN, "basileus", game=NEG)
    state = window(state)
    state = build(state, "give a marker")
    assert set(options(state)) == {Done(), Select("agent"), Select("forced-march")}
    state = answer(NEG, state, Select("agent"))
    offered = offer(state, ("ask a marker", "basileus"))
    seen = observe(CTX, offered, BARBARIAN).pending
    assert seen is not None and seen.proposal is not None
    assert seen.proposal.markers == (("agent",), ("basileus",))
    after = accept(offered)
    assert hands(after, EMPIRE) == {"forced-march": 1, "basileus": 1}
    assert hands(after, BARBARIAN) == {"agent": 1}
    assert after.stratagems.pool == state.stratagems.pool


@pytest.mark.rule("24.1", "22.1")
def test_markers_of_the_givers_choice_are_picked_from_his_hand_when_he_accepts() -> None:
    state = give(board(), BARBARIAN, "basileus", "leader", "leader", game=NEG)
    state = window(state)
    state = offer(state, ("ask a marker", ANY), ("ask a marker", ANY))
    state = accept(state)
    assert (
        pending_task(state, Negotiations).stage == "hand over"
        and pending(state).player == BARBARIAN
    )
    assert set(options(state)) == {Select("basileus"), Select("leader")}
    # The Empire is not shown the Barbarian's hand while he chooses.
    empire_view = observe(CTX, state, EMPIRE).pending
    assert empire_view is not None and empire_view.options == ()
    assert visible_action(NEG, state, Select("leader"), EMPIRE) == Select("leader")
    state = answer(NEG, state, Select("leader"))
    state = answer(NEG, state, Select("leader"))
    assert hands(state, EMPIRE) == {"leader": 2}
    assert hands(state, BARBARIAN) == {"basileus": 1}


@pytest.mark.rule("24.1")
def test_a_marker_the_other_does_not_hold_cannot_be_handed_over() -> None:
    state = give(board(), BARBARIAN, "basileus", game=NEG)
    state = give(state, EMPIRE, "agent", game=NEG)
    state = offer(window(state), ("ask a marker", "agent"))
    assert options(state) == (Done(),)
    # He cannot ask for more markers than the other holds (hand sizes are public).
    state = build(window(give(board(), BARBARIAN, "basileus", game=NEG)), ("ask a marker", ANY))
    assert Select("ask a marker") not in options(state)


@pytest.mark.rule("24.1", "8.3")
def test_no_offer_takes_a_hand_above_the_limit() -> None:
    full = [s.id for s in CAT.components.stratagems for _ in range(s.count)][-LIMIT:]
    state = give(board(), BARBARIAN, *full, game=NEG)
    state = give(state, EMPIRE, "agent", game=NEG)
    state = window(state)
    assert Select("give a marker") not in options(state)
    state = build(state, ("ask a marker", ANY))
    assert Select("give a marker") in options(state)  # one for one keeps him at the limit


@pytest.mark.rule("24.1", "4.5", "4.51")
def test_a_region_restored_to_neutrality_takes_its_effects_at_once() -> None:
    state = board(BARBARIAN)
    state = put(state, "thracia", UnitKind.GARRISON, city("Constantinopolis"))
    lydian_hex = next(h for h in CAT.region_land[CAT.region("Lydia")] if h not in CAT.cities)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, lydian_hex)  # outside, no city
    abroad = state.units.at(lydian_hex)
    state = window(state)
    state = build(state, "restore a region")
    names = {o.item for o in options(state) if isinstance(o, Select)}
    assert names == set(CONTROL)
    state = answer(NEG, state, Select("Thracia"))
    state = accept(answer(NEG, state, Select("offer")))
    thracia = CAT.region("Thracia")
    assert region_controller(state, thracia) == -1
    assert all(state.units.where[u] == AVAILABLE for u in abroad)  # 4.51
    assert state.units.at(city("Constantinopolis"))  # at home: stays, now Neutral


@pytest.mark.rule("24.1", "23.0")
def test_an_agreed_end_of_the_game_totals_the_victory_points_at_once() -> None:
    state = window(board())
    state = accept(offer(state, "end the game"))
    assert state.ending is not None and state.ending.rule == "24.1"
    assert NEG.current_player(state) == TERMINAL
    result = NEG.result(state)
    assert result.points == victory_points(CTX, state)


@pytest.mark.rule("24.1")
def test_a_player_whose_operations_are_over_is_not_asked_to_leave_a_place() -> None:
    state = board(EMPIRE)  # Scenario 1: the Empire moves second
    state = put(state, "thracia", UnitKind.GARRISON, city("Constantinopolis"))
    state = put(state, "slavs", UnitKind.WARBAND, CAT.region_land[CAT.region("Slavs")][0])
    asked = window(state)
    assert Select("I leave") in options(asked) and Select("you leave") not in options(asked)
    with_reaction = belisarius(1, negotiations=True, reaction=True)
    ctx = context(with_reaction)
    menus = term_menus(ctx, state, Proposal(EMPIRE))
    assert menus["you leave"]


# -- promises and broken agreements (24.1, 24.2) -------------------------------------------------


def two_armies() -> tuple[BelState, int, int]:
    a, b, _ = open_line()
    state = blank_state("operations", EMPIRE, control=CONTROL, game=NEG)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    return state, a, b


def truce(*players: int) -> Agreement:
    return Agreement(BARBARIAN, tuple(Promise(p, PromiseKind.NO_COMBAT) for p in players))


def declare(state: BelState, a: int, b: int) -> BelState:
    """The Empire's force at ``a`` attacks ``b``."""
    state = start(NEG, state, OperationsPhase())
    state = answer(NEG, state, Select(f"force {a}"))
    state = answer(NEG, state, Done())
    state = answer(NEG, state, Roll((6,)))
    return answer(NEG, state, Select(f"attack {b}"))


def penalty_draws(state: BelState) -> tuple[BelState, int]:
    """Follow a pending penalty: the draws until the next other request."""
    drawn = 0
    while state.pending is not None:
        asked = pending(state)
        if asked.kind is RequestKind.DRAW and asked.rule == "24.2":
            state = NEG.apply(state, NEG.chance_outcomes(state)[0][0])
            drawn += 1
        elif asked.rule == "8.3":
            state = NEG.apply(state, Done())  # leave the excess
        else:
            break
    return state, drawn


@pytest.mark.rule("24.1")
def test_promises_of_an_accepted_offer_are_recorded_and_public() -> None:
    state = board(BARBARIAN)
    state = put(state, "thracia", UnitKind.GARRISON, city("Constantinopolis"))
    state = window(state)
    capital = f"hex {city('Constantinopolis'):04d}"
    state = offer(state, "I make no attack", "you make no attack", ("you leave", capital))
    state = accept(state)
    promises = (
        Promise(BARBARIAN, PromiseKind.NO_COMBAT),
        Promise(EMPIRE, PromiseKind.NO_COMBAT),
        Promise(EMPIRE, PromiseKind.LEAVE_HEX, where=city("Constantinopolis")),
    )
    assert state.agreements == (Agreement(BARBARIAN, promises),)
    for player in (EMPIRE, BARBARIAN):
        assert observe(CTX, state, player).agreements == state.agreements
    assert "Agreements this turn" in NEG.render(state, EMPIRE)


@pytest.mark.rule("24.2", "17.11")
def test_attacking_after_promising_not_to_costs_one_penalty_and_voids_the_agreement() -> None:
    state, a, b = two_armies()
    state = attrs.evolve(state, agreements=(truce(EMPIRE, BARBARIAN),))
    state = declare(state, a, b)
    asked = pending(state)
    assert (asked.kind, asked.rule, asked.dice) == (RequestKind.ROLL, "24.2", 2)
    assert isinstance(asked.task, AgreementPenalty) and asked.task.player == BARBARIAN
    assert state.agreements == ()  # broken, hence void: the Barbarian is released too
    before = state.stratagems.held(BARBARIAN)
    state, drawn = penalty_draws(NEG.apply(state, Roll((3, 4))))
    assert drawn == 7 and state.stratagems.held(BARBARIAN) == before + 7
    assert pending(state).rule == "17.5"  # breaking is legal: the combat goes on


@pytest.mark.rule("24.2")
def test_a_promise_binds_only_its_player_and_each_broken_agreement_costs_once() -> None:
    state, a, b = two_armies()
    # Only the Barbarian promised: the Empire attacks freely.
    state = attrs.evolve(state, agreements=(truce(BARBARIAN),))
    assert pending(declare(state, a, b)).rule == "17.5"
    # Two agreements in which the Empire promised: two penalties.
    two = attrs.evolve(state, agreements=(truce(EMPIRE), truce(EMPIRE), truce(BARBARIAN)))
    after, penalties = attack_declared(CTX, two, EMPIRE)
    assert penalties == (AgreementPenalty(BARBARIAN), AgreementPenalty(BARBARIAN))
    assert after.agreements == (truce(BARBARIAN),)
    # Once void, a second attack costs nothing more.
    again, none = attack_declared(CTX, after, EMPIRE)
    assert none == () and again == after


@pytest.mark.rule("24.2", "8.1", "8.3")
@settings(max_examples=60)
@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(0, LIMIT),
    st.integers(0, 47),
)
def test_a_broken_promise_triggers_exactly_one_draw_of_two_dice_capped_by_pool_and_hand(
    die1: int, die2: int, held: int, thinned: int
) -> None:
    state, a, b = two_armies()
    markers = [s.id for s in CAT.components.stratagems for _ in range(s.count)]
    state = give(state, BARBARIAN, *markers[:held], game=NEG)
    # A Pool of fewer markers (as if the rest were out of play) exercises its limit.
    pool = list(state.stratagems.pool)
    for _ in range(min(thinned, sum(pool))):
        pool[max(range(len(pool)), key=lambda k: pool[k])] -= 1
    state = attrs.evolve(
        state,
        stratagems=Stratagems(tuple(pool), state.stratagems.hands),
        agreements=(truce(EMPIRE),),
    )
    state = declare(state, a, b)
    assert pending(state).rule == "24.2" and pending(state).dice == 2
    state, drawn = penalty_draws(NEG.apply(state, Roll((die1, die2))))
    assert drawn == min(die1 + die2, sum(pool), LIMIT - held)
    assert pending(state).rule == "17.5"
    assert state.agreements == ()


@pytest.mark.rule("24.1", "24.2")
def test_units_left_where_a_player_promised_to_leave_break_the_agreement_at_turn_end() -> None:
    capital = city("Constantinopolis")
    state = put(board(), "thracia", UnitKind.GARRISON, capital)
    promise = Promise(EMPIRE, PromiseKind.LEAVE_HEX, where=capital)
    state = attrs.evolve(state, agreements=(Agreement(BARBARIAN, (promise,)),))
    stayed = start(NEG, state, KeepPromises(), EndOfGameTurn())
    asked = pending(stayed)
    assert isinstance(asked.task, AgreementPenalty) and asked.task.player == BARBARIAN
    assert stayed.agreements == ()
    gone = move(state, state.units.at(capital), AVAILABLE)
    left = start(NEG, gone, KeepPromises())
    assert left.pending is None and left.agreements == ()


@pytest.mark.rule("24.1", "24.2")
def test_a_region_includes_its_peripheral_area_box() -> None:
    persia = CAT.region("Persia")
    box = CAT.box_of(persia)
    state = put(board(), "persia", UnitKind.FIELD_ARMY, box)
    promise = Promise(BARBARIAN, PromiseKind.LEAVE_REGION, region="Persia")
    assert not promise_kept(CTX, state, promise)
    state = attrs.evolve(state, agreements=(Agreement(EMPIRE, (promise,)),))
    after = start(NEG, state, KeepPromises())
    assert isinstance(pending(after).task, AgreementPenalty)


@pytest.mark.rule("24.1", "24.2")
@settings(max_examples=60)
@given(boards(), st.sampled_from((EMPIRE, BARBARIAN)), st.data())
def test_at_turn_end_a_promise_to_leave_is_broken_exactly_when_units_remain(
    state: BelState, player: int, data: st.DataObject
) -> None:
    state = attrs.evolve(state, phasing=player)
    places = term_menus(CTX, state, Proposal(player))["I leave"]
    if not places:
        return
    item = data.draw(st.sampled_from(sorted(places)), label="place")
    (promise,) = places[item].promises
    if data.draw(st.booleans(), label="leave"):
        mine = [u for u in state.units.in_play() if controller(CAT, state, u) == player]
        if promise.kind is PromiseKind.LEAVE_HEX:
            mine = [u for u in mine if state.units.where[u] == promise.where]
        else:
            region = CAT.region(promise.region)
            mine = [u for u in mine if CAT.region_of(state.units.where[u]) == region]
        state = move(state, mine, AVAILABLE)
    kept = promise_kept(CTX, state, promise)
    state = attrs.evolve(state, agreements=(Agreement(opponent(player), (promise,)),))
    after = start(NEG, state, KeepPromises())
    assert after.agreements == ()
    if kept:
        assert after.pending is None
    else:
        task = pending(after).task
        assert isinstance(task, AgreementPenalty) and task.player == opponent(player)
        assert not [t for t in after.stack if isinstance(t, AgreementPenalty)]


# -- properties of offers over played positions ---------------------------------------------------


@cache
def window_states() -> tuple[BelState, ...]:
    """States of random games with the option where a window asks its first proposer."""
    found: list[BelState] = []
    for seed in range(4):
        _, trail = random_game(NEG, seed)
        for before, _, _, _ in trail:
            task = pending(before).task
            if (
                isinstance(task, Negotiations)
                and task.stage == "propose"
                and task.proposal is not None
                and task.proposal.empty
            ):
                found.append(before)
    return tuple(found)


def enriched(data: st.DataObject) -> BelState:
    """A window of a played game, both players given random treasuries and markers."""
    state = data.draw(st.sampled_from(window_states()), label="window")
    for player in (EMPIRE, BARBARIAN):
        room = LIMIT - state.stratagems.held(player)
        for _ in range(data.draw(st.integers(0, min(room, 6)), label="markers")):
            kinds = [k for k, n in enumerate(state.stratagems.pool) if n]
            kind = data.draw(st.sampled_from(kinds), label="kind")
            state = give(state, player, CAT.stratagem_ids[kind], game=NEG)
    treasuries = data.draw(st.tuples(st.integers(0, 60), st.integers(0, 60)), label="solidus")
    return reask(NEG, attrs.evolve(state, solidus=treasuries))  # the menu of the new secrets


def random_offer(state: BelState, data: st.DataObject) -> BelState:
    """Add one to four random terms, then offer."""
    for _ in range(data.draw(st.integers(1, 4), label="terms")):
        terms = [o for o in options(state) if isinstance(o, Select) and o.item != "offer"]
        state = answer(NEG, state, data.draw(st.sampled_from(terms), label="term"))
        if pending_task(state, Negotiations).stage == "terms":
            items = [o for o in options(state) if isinstance(o, Select)]
            state = answer(NEG, state, data.draw(st.sampled_from(items), label="item"))
    return answer(NEG, state, Select("offer"))


def totals(state: BelState) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    hands = state.stratagems.hands
    return (
        sum(state.solidus),
        tuple(a + b for a, b in zip(hands[0], hands[1], strict=True)),
        state.stratagems.pool,
    )


@pytest.mark.rule("24.1", "10.37", "8.0")
@settings(max_examples=80)
@given(st.data())
def test_an_accepted_offer_conserves_solidus_and_markers(data: st.DataObject) -> None:
    state = random_offer(enriched(data), data)
    before = totals(state)
    if Select("accept") not in options(state):
        return
    state = answer(NEG, state, Select("accept"))
    while state.pending is not None and getattr(pending(state).task, "stage", "") == "hand over":
        state = answer(NEG, state, data.draw(st.sampled_from(options(state)), label="give"))
    assert totals(state) == before
    check_invariants(NEG, state)


@pytest.mark.rule("24.1")
@settings(max_examples=80)
@given(st.data())
def test_a_refused_offer_changes_nothing_but_the_log(data: st.DataObject) -> None:
    base = enriched(data)
    offered = random_offer(base, data)
    assert board_of(offered) == board_of(base)
    refused = NEG.step(offered, Done())
    passed = NEG.apply(base, Done())
    assert refused.state == passed
    assert [e.text for e in refused.events if e.kind == "negotiation"]


# -- what each player sees (22.1) and the state's JSON ----------------------------------------


@pytest.mark.rule("22.1", "24.1")
def test_an_offer_is_hidden_while_built_and_public_once_made() -> None:
    state = give(board(), EMPIRE, "agent", game=NEG)
    state = window(state)
    step = Select("give a marker")
    assert visible_action(NEG, state, step, EMPIRE) == step
    assert visible_action(NEG, state, step, BARBARIAN) == Select(HIDDEN)
    assert visible_action(NEG, state, Done(), BARBARIAN) == Done()
    state = build(state, ("give a marker", "agent"))
    mine, theirs = observe(CTX, state, EMPIRE).pending, observe(CTX, state, BARBARIAN).pending
    assert mine is not None and theirs is not None
    assert mine.proposal == pending_task(state, Negotiations).proposal and theirs.proposal is None
    state = answer(NEG, state, Select("offer"))
    theirs = observe(CTX, state, BARBARIAN).pending
    assert theirs is not None and theirs.proposal == Proposal(EMPIRE, markers=(("agent",), ()))
    assert visible_action(NEG, state, Select("accept"), EMPIRE) == Select("accept")


def keeps_what_was_shown(twin: BelState, player: int) -> bool:
    """Whether a disguised state agrees with what ``player`` has been shown: an offer
    made to him names the markers and Solidus Points the other hands over, so the
    other's redrawn hand and treasury must still hold them (a redraw that drops them
    is a state no game reaches from what ``player`` knows)."""
    request = twin.pending
    task = request.task if request is not None else None
    if not isinstance(task, Negotiations) or task.proposal is None:
        return True
    if task.stage not in (ANSWER, HAND_OVER):
        return True
    other = 1 - player
    hand = twin.stratagems.hands[other]
    named = [m for m in task.proposal.markers[other] if m != ANY]
    enough = all(hand[CAT.stratagem(m)] >= named.count(m) for m in set(named))
    return enough and twin.solidus[other] >= task.proposal.solidus[other]


@cache
def neg_trail(seed: int) -> tuple[BelState, ...]:
    final, trail = random_game(NEG, seed)
    return (*(before for before, _, _, _ in trail), final)


@pytest.mark.rule("22.0", "22.1", "24.1")
@settings(max_examples=100)
@given(st.data())
def test_with_negotiations_an_observation_never_depends_on_the_other_players_secrets(
    data: st.DataObject,
) -> None:
    states = neg_trail(data.draw(st.sampled_from(range(4)), label="seed"))
    state = data.draw(st.sampled_from(states), label="state")
    state = attrs.evolve(state, revealed=(False, False))
    player = data.draw(st.sampled_from((EMPIRE, BARBARIAN)), label="player")
    twin = disguise(NEG, state, player, data)
    assume(keeps_what_was_shown(twin, player))
    assert observe(CTX, twin, player) == observe(CTX, state, player)
    if state.pending is None:
        return
    asked, twin_asked = reask(NEG, state), reask(NEG, twin)
    a, b = asked.pending, twin_asked.pending
    if a is None or b is None or (a.kind, a.rule, a.player) != (b.kind, b.rule, b.player):
        return
    assert observe(CTX, twin_asked, player) == observe(CTX, asked, player)


@pytest.mark.rule("22.1", "24.1", "24.2")
@pytest.mark.parametrize("seed", range(4))
def test_in_whole_games_with_negotiations_no_hidden_marker_type_reaches_the_other(
    seed: int,
) -> None:
    ids = set(CAT.stratagem_ids)
    _, trail = random_game(NEG, seed, check=check_invariants)
    for before, _, action, _ in trail:
        asked = pending(before)
        for player in (EMPIRE, BARBARIAN):
            shown = visible_action(NEG, before, action, player)
            task = asked.task
            building = isinstance(task, Negotiations) and task.stage in ("propose", "terms")
            face_down = isinstance(task, DiplomacyAttempt) and task.stage != ROLL
            owner = draw_recipient(asked)
            if isinstance(action, Draw) and player != owner and not before.revealed[player]:
                assert isinstance(shown, Draw) and shown.stratagem not in ids
            elif (building or face_down) and isinstance(action, Select) and asked.player != player:
                assert shown == Select(HIDDEN)
            else:
                assert shown == action


@pytest.mark.rule("24.1", "24.2")
def test_states_with_offers_and_agreements_round_trip_and_match_the_schema() -> None:
    schema = jsonschema.Draft202012Validator(game_schemas(NEG)["state"])
    state = board(BARBARIAN)
    state = put(state, "thracia", UnitKind.GARRISON, city("Constantinopolis"))
    state = offer(window(state), "I make no attack", ("you leave", "region Thracia"))
    agreed = accept(state)
    assert agreed.agreements
    # The harness's positions with the sequence of play's steps under them (3.1).
    for each in (as_played(state, NEG), as_played(agreed, NEG), *neg_trail(0)[::40]):
        encoded = json.loads(json.dumps(NEG.encode_state(each)))
        assert NEG.decode_state(encoded) == each
        schema.validate(encoded)
        view = observe(CTX, each, EMPIRE)
        codec = codec_for(type(view))
        assert codec.decode(json.loads(json.dumps(codec.encode(view)))) == view


@pytest.mark.rule("24.0", "3.1")
@pytest.mark.parametrize("seed", range(3))
def test_random_games_with_negotiations_end_and_keep_every_invariant(seed: int) -> None:
    game = belisarius(3, negotiations=True)
    final, trail = random_game(game, seed, check=check_invariants)
    assert final.ending is not None
    assert any(isinstance(pending(s).task, Negotiations) for s, _, _, _ in trail)
    assert any(e.rule == "24.1" for *_, events in trail for e in events)
