"""Intelligence and fog of war (22.0, 22.1): observations show the board, hide the secrets.

The central property: two states that differ only in the other player's secrets (the
composition of his hand, his treasury, the types of the markers he has committed face
down) look the same to a player who may not examine them.
"""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.diplomacy import DEFENCE, HIDDEN, ROLL, DiplomacyAttempt
from byzantium.belisarius.engine import settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.observation import BelObservation, observe, visible_action
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelState,
    Done,
    Draw,
    RequestKind,
    Roll,
    Select,
    Stratagems,
    opponent,
)
from byzantium.belisarius.stratagems import LoseStratagems, PickStratagems, ReturnStratagem
from byzantium.core.codec import codec_for
from byzantium.core.procedure import run_task
from tests.belisarius.support import (
    SCENARIOS,
    belisarius,
    context,
    give,
    idle,
    start,
    trail_of,
)

RULEBOOK = "belisarius"

SEEDS = range(4)


def some_state(data: st.DataObject) -> tuple[Belisarius, BelState]:
    """A state some random game passes through (or its end)."""
    scenario = data.draw(st.sampled_from(SCENARIOS), label="scenario")
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    final, trail = trail_of(scenario, seed)
    states = [before for before, _, _, _ in trail] + [final]
    index = data.draw(st.integers(0, len(states) - 1), label="step")
    return belisarius(scenario), states[index]


def some_view(data: st.DataObject) -> tuple[Belisarius, BelState, int]:
    """A state some random game passes through (or its end), and a player looking at it."""
    game, state = some_state(data)
    player = data.draw(st.sampled_from((EMPIRE, BARBARIAN)))
    return game, state, player


def disguise(game: Belisarius, state: BelState, player: int, data: st.DataObject) -> BelState:
    """``state`` with the other player's secrets redrawn: the same number of markers in
    his hand but of other types, another treasury, other face-down Diplomacy markers."""
    other = opponent(player)
    counts = [s.count for s in game.catalog.components.stratagems]
    own = state.stratagems.hands[player]
    room = [counts[k] - own[k] for k in range(len(counts))]
    hand = [0] * len(counts)
    for _ in range(state.stratagems.held(other)):
        kinds = [k for k in range(len(counts)) if hand[k] < room[k]]
        hand[data.draw(st.sampled_from(kinds), label="marker")] += 1
    pool = tuple(room[k] - hand[k] for k in range(len(counts)))
    hands = (own, tuple(hand)) if player == EMPIRE else (tuple(hand), own)
    solidus = list(state.solidus)
    solidus[other] = data.draw(st.integers(0, 300), label="treasury")
    twin = attrs.evolve(state, stratagems=Stratagems(pool, hands), solidus=(solidus[0], solidus[1]))
    request = twin.pending
    if request is not None and isinstance(request.task, DiplomacyAttempt):
        task = request.task
        diplomatic = [s.id for s in game.catalog.components.stratagems if s.diplomacy > 0]
        if task.stage != ROLL:

            def redraw(markers: tuple[str, ...]) -> tuple[str, ...]:
                return tuple(data.draw(st.sampled_from(diplomatic)) for _ in markers)

            if task.attacker == other:
                task = attrs.evolve(task, attack=redraw(task.attack))
            else:
                task = attrs.evolve(task, defence=redraw(task.defence))
            twin = attrs.evolve(twin, pending=attrs.evolve(request, task=task))
    return twin


def reask(game: Belisarius, state: BelState) -> BelState:
    """The state with its pending question asked afresh (the question may depend on secrets)."""
    request = state.pending
    assert request is not None
    ctx = context(game)
    return settle(ctx, run_task(ctx, attrs.evolve(state, pending=None), request.task, None))


# -- the view ------------------------------------------------------------------------------


@pytest.mark.rule("22.0", "22.1")
@settings(max_examples=60)
@given(st.data())
def test_the_board_is_public_and_own_secrets_are_shown_in_full(data: st.DataObject) -> None:
    game, state, player = some_view(data)
    seen = observe(context(game), state, player)
    assert game.observation(state, player) == seen
    assert seen.player == player
    assert (seen.turn, seen.phasing, seen.phase) == (state.turn, state.phasing, state.phase)
    assert seen.units == state.units and seen.control == state.control
    assert seen.markers == state.markers and seen.ending == state.ending
    assert seen.hand == state.stratagems.hands[player]
    assert seen.treasury == state.solidus[player]
    assert seen.pool_size == sum(state.stratagems.pool)
    assert seen.hand_sizes == (state.stratagems.held(0), state.stratagems.held(1))
    other = opponent(player)
    if state.revealed[player]:
        assert seen.other_hand == state.stratagems.hands[other]
        assert seen.other_treasury == state.solidus[other]
    else:
        assert seen.other_hand is None and seen.other_treasury is None


@pytest.mark.rule("22.0", "22.1")
@settings(max_examples=150)
@given(st.data())
def test_an_observation_never_depends_on_the_other_players_secrets(data: st.DataObject) -> None:
    game, state, player = some_view(data)
    state = attrs.evolve(state, revealed=(False, False))
    twin = disguise(game, state, player, data)
    ctx = context(game)
    assert observe(ctx, twin, player) == observe(ctx, state, player)
    if state.pending is None:
        return
    # Ask the pending question again in both: prompts and options are recomputed from
    # the secrets, and must still not show them. (If the other player's secrets change
    # what is asked at all, play went elsewhere: nothing to compare.)
    asked, twin_asked = reask(game, state), reask(game, twin)
    a, b = asked.pending, twin_asked.pending
    if a is None or b is None or (a.kind, a.rule, a.player) != (b.kind, b.rule, b.player):
        return
    assert observe(ctx, twin_asked, player) == observe(ctx, asked, player)


@pytest.mark.rule("22.1")
@settings(max_examples=40)
@given(st.data())
def test_a_player_who_may_examine_the_other_sees_his_hand_and_treasury(
    data: st.DataObject,
) -> None:
    game, state, player = some_view(data)
    revealed = (True, False) if player == EMPIRE else (False, True)
    state = attrs.evolve(state, revealed=revealed)
    twin = disguise(game, state, player, data)
    ctx = context(game)
    other = opponent(player)
    seen, twin_seen = observe(ctx, state, player), observe(ctx, twin, player)
    assert seen.other_hand == state.stratagems.hands[other]
    assert twin_seen.other_treasury == twin.solidus[other]
    secrets_differ = (
        state.stratagems.hands[other] != twin.stratagems.hands[other]
        or state.solidus[other] != twin.solidus[other]
    )
    assert (seen != twin_seen) == secrets_differ or state.pending != twin.pending
    # The other player still sees nothing of the first player's secrets.
    assert observe(ctx, state, other).other_hand is None


@pytest.mark.rule("22.0")
@settings(max_examples=60)
@given(st.data())
def test_observations_round_trip_through_json(data: st.DataObject) -> None:
    game, state = some_state(data)
    codec = codec_for(BelObservation)
    for player in (EMPIRE, BARBARIAN):
        seen = observe(context(game), state, player)
        assert codec.decode(json.loads(json.dumps(codec.encode(seen)))) == seen


@pytest.mark.rule("22.0")
@settings(max_examples=60)
@given(st.data())
def test_only_the_chooser_sees_the_prompt_and_options_of_a_choice(data: st.DataObject) -> None:
    game, state = some_state(data)
    request = state.pending
    if request is None:
        return
    for player in (EMPIRE, BARBARIAN):
        view = observe(context(game), state, player).pending
        assert view is not None
        assert (view.kind, view.rule, view.player) == (request.kind, request.rule, request.player)
        if request.kind is RequestKind.CHOOSE and request.player == player:
            assert view.options == request.options and view.prompt == request.prompt
        elif request.kind is RequestKind.CHOOSE:
            assert view.options == () and view.prompt == ""
        else:
            assert view.options == () and view.prompt == request.prompt


# -- Diplomacy commitments (9.1, 22.1) ---------------------------------------------------------


def diplomacy_state(game: Belisarius) -> BelState:
    """The Barbarian has committed an Agent and a Basileus against the Franks; the Empire,
    holding an Agent, is asked to defend."""
    state = idle(game.initial_state())
    state = give(state, BARBARIAN, "agent", "basileus", game=game)
    state = give(state, EMPIRE, "agent", game=game)
    franks = game.catalog.region("Franks")
    attempt = DiplomacyAttempt(
        BARBARIAN, region=franks, attack=("agent", "basileus"), stage=DEFENCE
    )
    return start(game, state, attempt)


@pytest.mark.rule("22.1", "9.1")
def test_face_down_diplomacy_markers_show_only_their_number_to_the_other_player() -> None:
    game = belisarius()
    state = diplomacy_state(game)
    assert state.pending is not None and state.pending.player == EMPIRE
    ctx = context(game)
    barbarian = observe(ctx, state, BARBARIAN).pending
    empire = observe(ctx, state, EMPIRE).pending
    assert barbarian is not None and empire is not None
    assert barbarian.commitments == ((), ("agent", "basileus"))
    assert empire.commitments == ((), (HIDDEN, HIDDEN))
    assert Select("agent") in empire.options and barbarian.options == ()
    # The Empire commits his Agent: the Barbarian sees one hidden marker.
    state = game.apply(state, Select("agent"))
    barbarian = observe(ctx, state, BARBARIAN).pending
    assert barbarian is not None and barbarian.commitments == ((HIDDEN,), ("agent", "basileus"))
    # Even examining the other's hand (22.1) does not turn face-down markers over.
    state = attrs.evolve(state, revealed=(True, True))
    empire = observe(ctx, state, EMPIRE).pending
    assert empire is not None and empire.commitments == (("agent",), (HIDDEN, HIDDEN))


@pytest.mark.rule("22.1", "9.1")
def test_a_face_down_commitment_is_hidden_in_the_actions_shown_to_the_other_player() -> None:
    game = belisarius()
    state = diplomacy_state(game)
    commit = Select("agent")
    assert visible_action(game, state, commit, EMPIRE) == commit
    assert visible_action(game, state, commit, BARBARIAN) == Select(HIDDEN)
    assert visible_action(game, state, Done(), BARBARIAN) == Done()


# -- random markers (8.1, 8.51) ---------------------------------------------------------------


@pytest.mark.rule("22.1", "8.1", "8.51")
@pytest.mark.parametrize("owner", [EMPIRE, BARBARIAN])
def test_the_type_of_a_marker_drawn_for_or_lost_from_a_hand_is_kept_from_the_other(
    owner: int,
) -> None:
    game = belisarius()
    base = idle(game.initial_state())
    pick = start(game, base, PickStratagems(owner, 1, "8.2"))
    lose = start(game, give(base, owner, "agent", game=game), LoseStratagems(owner, 1, "8.51"))
    for state in (pick, lose):
        assert state.pending is not None and state.pending.kind is RequestKind.DRAW
        drawn = Draw("agent")
        assert game.chance_outcomes(state)
        assert visible_action(game, state, drawn, owner) == drawn
        assert visible_action(game, state, drawn, opponent(owner)) == Draw(HIDDEN)
        revealed = (True, True)
        assert (
            visible_action(game, attrs.evolve(state, revealed=revealed), drawn, 1 - owner) == drawn
        )
        assert visible_action(game, state, Roll((3,)), opponent(owner)) == Roll((3,))


@pytest.mark.rule("22.1")
@settings(max_examples=20)
@given(st.sampled_from(SCENARIOS), st.sampled_from(SEEDS))
def test_in_whole_games_no_marker_type_reaches_the_other_player(scenario: int, seed: int) -> None:
    game = belisarius(scenario)
    ids = set(game.catalog.stratagem_ids)
    _, trail = trail_of(scenario, seed)
    draws = 0
    for before, _, action, _ in trail:
        request = before.pending
        assert request is not None
        for player in (EMPIRE, BARBARIAN):
            shown = visible_action(game, before, action, player)
            task = request.task
            if not isinstance(action, Draw):
                face_down = isinstance(task, DiplomacyAttempt) and task.stage != ROLL
                # A marker returned to make room (8.3) goes back to the Pool unseen.
                face_down = face_down or isinstance(task, ReturnStratagem)
                if face_down and isinstance(action, Select) and request.player != player:
                    assert shown == Select(HIDDEN)
                else:
                    assert shown == action
                continue
            draws += 1
            assert isinstance(task, PickStratagems | LoseStratagems)
            owner = request.hand if request.hand != NOBODY else task.player
            if player == owner or before.revealed[player]:
                assert shown == action
            else:
                assert isinstance(shown, Draw) and shown.stratagem not in ids
    assert draws > 0  # every scenario picks initial markers (8.2)
