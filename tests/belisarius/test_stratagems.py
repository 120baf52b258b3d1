"""Stratagem markers (8.x): the Pool, random picks, the hand limit, playing and losing.

Tasks are pushed on a set-up state with an empty stack and driven through
``Belisarius.apply``: chance nodes with an outcome drawn by Hypothesis (or the first
one), decisions by a policy given to the driver.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import Phase, Side
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.sequence import PHASES
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelAction,
    BelState,
    Done,
    Draw,
    Request,
    RequestKind,
    Select,
    Stratagems,
    Task,
)
from byzantium.belisarius.stratagems import (
    LoseStratagems,
    PickStratagems,
    ReturnStratagem,
    hand_limit,
    initial_pool,
    play,
    playable,
)
from byzantium.core.game import Event
from tests.belisarius.support import options, set_up_context, set_up_game, set_up_state

RULEBOOK = "belisarius"

Policy = Callable[[BelState], BelAction]


# -- helpers ------------------------------------------------------------------------------


def _totals() -> tuple[int, ...]:
    return tuple(s.count for s in set_up_game().catalog.components.stratagems)


def _limit() -> int:
    return hand_limit(set_up_context())


def _ids() -> tuple[str, ...]:
    return set_up_game().catalog.stratagem_ids


def _split(hand: tuple[int, ...], other: tuple[int, ...] = ()) -> Stratagems:
    """Markers with ``hand`` held by the Empire (``other`` by the Barbarian), the rest pooled."""
    totals = _totals()
    other = other or tuple(0 for _ in totals)
    pool = tuple(t - a - b for t, a, b in zip(totals, hand, other, strict=True))
    assert min(pool) >= 0
    return Stratagems(pool, (hand, other))


def _hand_of(size: int) -> tuple[int, ...]:
    """A hand of ``size`` markers spread over the types in catalogue order."""
    hand = [0 for _ in _totals()]
    left = size
    for kind, total in enumerate(_totals()):
        take = min(left, total // 2)
        hand[kind] = take
        left -= take
    assert left == 0
    return tuple(hand)


@st.composite
def splits(draw: st.DrawFn, max_empire: int = 15) -> Stratagems:
    """Any split of the markers with at most ``max_empire`` in the Empire hand."""
    pool, empire, barbarian = [], [], []
    room = max_empire
    for count in _totals():
        e = draw(st.integers(0, min(count, room)))
        room -= e
        b = draw(st.integers(0, min(count - e, 3)))
        empire.append(e)
        barbarian.append(b)
        pool.append(count - e - b)
    return Stratagems(tuple(pool), (tuple(empire), tuple(barbarian)))


def _start(markers: Stratagems, *tasks: Task) -> BelState:
    state = attrs.evolve(set_up_state(), stratagems=markers)
    return settle(set_up_context(), push(state, *tasks))


def _drive(
    state: BelState, policy: Policy, pick: Callable[[int], int] = lambda n: 0
) -> tuple[BelState, list[Request]]:
    """Answer requests until the stack is done: choices by ``policy``, chance by ``pick``."""
    game = set_up_game()
    asked: list[Request] = []
    while state.pending is not None:
        request = state.pending
        asked.append(request)
        if request.kind is RequestKind.CHOOSE:
            action = policy(state)
        else:
            outcomes = game.chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1
            action = outcomes[pick(len(outcomes))][0]
        state = game.apply(state, action)
    return state, asked


def _first(state: BelState) -> BelAction:
    return options(state)[0]


def _last(state: BelState) -> BelAction:
    return options(state)[-1]


def _conserved(before: Stratagems, after: Stratagems) -> None:
    for kind, total in enumerate(_totals()):
        assert after.pool[kind] + after.hands[0][kind] + after.hands[1][kind] == total
        assert before.pool[kind] + before.hands[0][kind] + before.hands[1][kind] == total
        assert min(after.pool[kind], after.hands[0][kind], after.hands[1][kind]) >= 0


# -- 8.0, 8.1, 8.2: the Pool and picking -----------------------------------------------


@pytest.mark.rule("8.0", "8.1")
def test_every_marker_starts_in_the_pool() -> None:
    markers = initial_pool(set_up_context())
    assert markers.pool == _totals()
    assert markers.held(EMPIRE) == markers.held(BARBARIAN) == 0
    assert sum(markers.pool) > 2 * _limit()


@pytest.mark.rule("8.2", "8.1", "34.1", "34.2", "34.3")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_set_up_gives_each_player_the_scenarios_markers(scenario: int) -> None:
    game = set_up_game(scenario)
    state = set_up_state(scenario)
    for player, side in ((EMPIRE, Side.EMPIRE), (BARBARIAN, Side.BARBARIAN)):
        assert state.stratagems.held(player) == game.scenario.treasury(side).stratagems
    _conserved(state.stratagems, state.stratagems)


@pytest.mark.rule("8.1")
@given(splits(max_empire=14), st.sampled_from((EMPIRE, BARBARIAN)))
def test_a_pick_is_a_chance_node_proportional_to_the_pool(markers: Stratagems, player: int) -> None:
    state = _start(markers, PickStratagems(player, 1, "8.2"))
    if not any(markers.pool):
        assert state.pending is None
        return
    if markers.held(player) >= _limit():
        assert state.pending is not None and state.pending.kind is RequestKind.CHOOSE
        return
    request = state.pending
    assert request is not None
    assert request.kind is RequestKind.DRAW
    assert request.hand == NOBODY
    total = sum(markers.pool)
    expected = tuple((Draw(_ids()[k]), Fraction(n, total)) for k, n in enumerate(markers.pool) if n)
    assert set_up_game().chance_outcomes(state) == expected


@pytest.mark.rule("8.1", "8.2", "8.0")
@given(splits(max_empire=8), st.integers(0, 6), st.data())
def test_picking_moves_markers_from_the_pool_to_the_hand(
    markers: Stratagems, count: int, data: st.DataObject
) -> None:
    state = _start(markers, PickStratagems(EMPIRE, count, "8.2"))
    after, asked = _drive(state, _first, lambda n: data.draw(st.integers(0, n - 1)))
    drawn = min(count, sum(markers.pool))
    assert [r.kind for r in asked] == [RequestKind.DRAW] * drawn
    assert after.stratagems.held(EMPIRE) == markers.held(EMPIRE) + drawn
    assert after.stratagems.hands[BARBARIAN] == markers.hands[BARBARIAN]
    for kind in range(len(_totals())):
        gained = after.stratagems.hands[EMPIRE][kind] - markers.hands[EMPIRE][kind]
        assert gained >= 0
        assert after.stratagems.pool[kind] == markers.pool[kind] - gained
    _conserved(markers, after.stratagems)


# -- 8.3: the hand limit ------------------------------------------------------------------


@pytest.mark.rule("8.3")
@given(st.integers(0, 15), st.integers(0, 6), st.booleans())
def test_no_hand_ever_passes_fifteen(held: int, count: int, make_room: bool) -> None:
    markers = _split(_hand_of(held))
    state = _start(markers, PickStratagems(EMPIRE, count, "6.0"))
    after, asked = _drive(state, _last if make_room else _first)
    limit = _limit()
    assert limit == 15
    questions = [r for r in asked if r.rule == "8.3" and r.kind is RequestKind.CHOOSE]
    over = held > 0 and held + count > limit
    draws = [r for r in asked if r.kind is RequestKind.DRAW]
    assert after.stratagems.held(EMPIRE) == min(limit, held + count)
    if not over:
        assert questions == []
        assert len(draws) == count
        return
    first = questions[0]
    assert first.player == EMPIRE
    assert first.options == (Done(), Select("return markers first"))
    if make_room:
        # He returns the excess first, then takes every marker he was due.
        returns = questions[1:]
        assert len(returns) == held + count - limit
        assert len(draws) == count
    else:
        assert len(questions) == 1
        assert len(draws) == limit - held
    _conserved(markers, after.stratagems)


@pytest.mark.rule("8.3")
def test_returning_offers_the_types_in_hand_and_returns_the_one_chosen() -> None:
    hand = _hand_of(15)
    markers = _split(hand)
    state = _start(markers, ReturnStratagem(EMPIRE, 2))
    request = state.pending
    assert request is not None
    assert request.player == EMPIRE
    offered = [a for a in request.options if isinstance(a, Select)]
    assert offered == [Select(_ids()[k]) for k, n in enumerate(hand) if n]
    chosen = offered[-1]
    kind = _ids().index(chosen.item)
    once = set_up_game().apply(state, chosen)
    assert once.stratagems.hands[EMPIRE][kind] == hand[kind] - 1
    assert once.stratagems.pool[kind] == markers.pool[kind] + 1
    twice = set_up_game().apply(once, once.pending.options[0] if once.pending else Done())
    assert twice.pending is None
    assert twice.stratagems.held(EMPIRE) == 13


@pytest.mark.rule("8.3")
def test_at_the_limit_leaving_the_excess_takes_nothing() -> None:
    markers = _split(_hand_of(15))
    state = _start(markers, PickStratagems(EMPIRE, 2, "11.0"))
    assert state.pending is not None and state.pending.rule == "8.3"
    after = set_up_game().apply(state, Done())
    assert after.pending is None
    assert after.stratagems == markers


# -- 8.42: playing -------------------------------------------------------------------------


@pytest.mark.rule("8.42")
@given(splits(), st.data())
def test_a_played_marker_goes_back_to_the_pool(markers: Stratagems, data: st.DataObject) -> None:
    held = [k for k, n in enumerate(markers.hands[EMPIRE]) if n]
    if not held:
        with pytest.raises(ValueError, match="no such Stratagem"):
            play(
                set_up_context(),
                attrs.evolve(set_up_state(), stratagems=markers),
                EMPIRE,
                _ids()[0],
                "9.2",
            )
        return
    kind = data.draw(st.sampled_from(held))
    events: list[Event] = []
    state = attrs.evolve(set_up_state(), stratagems=markers)
    after = play(set_up_context(events), state, EMPIRE, _ids()[kind], "9.2")
    assert after.stratagems.hands[EMPIRE][kind] == markers.hands[EMPIRE][kind] - 1
    assert after.stratagems.pool[kind] == markers.pool[kind] + 1
    assert after.stratagems.hands[BARBARIAN] == markers.hands[BARBARIAN]
    assert [e.rule for e in events] == ["9.2"]


@pytest.mark.rule("8.42")
def test_a_marker_not_held_cannot_be_played() -> None:
    markers = _split(_hand_of(0))
    state = attrs.evolve(set_up_state(), stratagems=markers)
    with pytest.raises(ValueError, match="no such Stratagem"):
        play(set_up_context(), state, BARBARIAN, _ids()[0], "9.2")


# -- 8.5, 8.51: losing ------------------------------------------------------------------


@pytest.mark.rule("8.5", "8.51")
@given(splits(), st.integers(0, 20), st.data())
def test_losses_are_picked_at_random_from_the_hand(
    markers: Stratagems, count: int, data: st.DataObject
) -> None:
    state = _start(markers, LoseStratagems(EMPIRE, count, "6.0"))
    game = set_up_game()
    asked = 0
    while state.pending is not None:
        request = state.pending
        assert request.kind is RequestKind.DRAW
        assert request.hand == EMPIRE
        hand = state.stratagems.hands[EMPIRE]
        outcomes = game.chance_outcomes(state)
        assert outcomes == tuple(
            (Draw(_ids()[k]), Fraction(n, sum(hand))) for k, n in enumerate(hand) if n
        )
        action = data.draw(st.sampled_from([a for a, _ in outcomes]))
        state = game.apply(state, action)
        asked += 1
    assert asked == min(count, markers.held(EMPIRE))
    assert state.stratagems.held(EMPIRE) == max(0, markers.held(EMPIRE) - count)
    assert state.stratagems.hands[BARBARIAN] == markers.hands[BARBARIAN]
    _conserved(markers, state.stratagems)


@pytest.mark.rule("8.51")
def test_losing_with_an_empty_hand_has_no_effect() -> None:
    markers = _split(_hand_of(0))
    state = _start(markers, LoseStratagems(EMPIRE, 3, "6.0"))
    assert state.pending is None
    assert state.stratagems == markers


@pytest.mark.rule("8.51")
def test_losing_all_returns_the_whole_hand() -> None:
    markers = _split(_hand_of(7), _hand_of(2))
    state = _start(markers, LoseStratagems(EMPIRE, 7, "17.0"))
    after, asked = _drive(state, _first)
    assert len(asked) == 7
    assert after.stratagems.held(EMPIRE) == 0
    assert after.stratagems.hands[BARBARIAN] == markers.hands[BARBARIAN]
    assert after.stratagems.pool == tuple(
        p + h for p, h in zip(markers.pool, _hand_of(7), strict=True)
    )


# -- 8.4, 8.41, 8.43: when a marker may be played ------------------------------------------


PHASE_NAMES = tuple(name for name, _ in PHASES)


@pytest.mark.rule("8.4", "8.41", "8.43")
@given(
    splits(),
    st.sampled_from((EMPIRE, BARBARIAN)),
    st.sampled_from((EMPIRE, BARBARIAN)),
    st.sampled_from(PHASE_NAMES),
    st.data(),
)
def test_a_marker_is_playable_in_its_charts_phase_when_held(
    markers: Stratagems, player: int, phasing: int, phase: str, data: st.DataObject
) -> None:
    records = set_up_game().catalog.components.stratagems
    kind = data.draw(st.integers(0, len(records) - 1))
    record = records[kind]
    state = attrs.evolve(set_up_state(), stratagems=markers, phasing=phasing, phase=phase)
    chart_phase = "operations" if record.phase is Phase.COMBAT else record.phase.value
    expected = (
        markers.hands[player][kind] > 0
        and chart_phase.replace("-", " ") == phase
        and (phasing == player or record.enemy_turn)
    )
    assert playable(set_up_context(), state, player, _ids()[kind]) == expected


@pytest.mark.rule("8.41", "3.1")
def test_every_chart_timing_names_a_phase_of_the_sequence() -> None:
    for record in set_up_game().catalog.components.stratagems:
        name = "operations" if record.phase is Phase.COMBAT else record.phase.value
        assert name.replace("-", " ") in PHASE_NAMES
