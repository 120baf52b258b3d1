"""Facet queries keep their answers only while what they read is unchanged.

A facet query (:func:`~byzantium.sword_of_orthodoxy.engine.facet_query`) is
answered once per content of its facet, and the answer is reused on later boards
that agree on the facet. Here every facet query is compared, on the states of
seeded and of hypothesis-drawn games, with the same function computed from scratch
(a game whose memo is new for each state), after the long-lived game has been asked
about every earlier state of the game: a facet that leaves out a tile the query
reads gives a stale answer somewhere, and fails. The whole Action Phase menu is
compared the same way, since it is built from those answers.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.sword_of_orthodoxy import action_phase, battles, combat
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.engine import BoardMemo, Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState

#: Every facet query with the arguments the rules ask it with.
QUESTIONS: tuple[tuple[Callable[..., object], tuple[object, ...]], ...] = (
    *((combat.path_targets, (path,)) for path in Path),
    *((combat.path_targets, (path, True)) for path in Path),
    *((battles.withdrawable, (path,)) for path in Path),
    *((battles.path_attacks, (path,)) for path in Path),
    *((battles._emperor_offers, (path,)) for path in Path),
    *((battles._magister_offers, (path,)) for path in Path),
    *((battles.path_front, (path,)) for path in Path),
)


def _facet_queries() -> set[Callable[..., object]]:
    """Every facet query of the game's modules (the ones a facet_query decorated)."""
    found = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("byzantium.sword_of_orthodoxy"):
            continue
        for value in vars(module).values():
            if callable(value) and hasattr(value, "facet") and hasattr(value, "uncached"):
                found.add(value)
    return found


def _from_scratch(
    game: SwordOfOrthodoxy, state: SooState, query: Callable[..., object], args: tuple[object, ...]
) -> object:
    game.board_memo = BoardMemo()  # nothing kept from any other board
    uncached: Callable[..., object] = query.uncached  # type: ignore[attr-defined]
    return uncached(Context(game, None), state, *args)


def _states(game: SwordOfOrthodoxy, seed: int) -> Iterator[SooState]:
    rng = random.Random(seed)
    state = game.initial_state()
    while game.current_player(state) != TERMINAL:
        yield state
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply_unchecked(state, action)


def _check(kept: SwordOfOrthodoxy, fresh: SwordOfOrthodoxy, state: SooState) -> int:
    """Compare every facet query and the menu on ``state``; the number of answers compared."""
    ctx = Context(kept, None)
    for query, args in QUESTIONS:
        assert query(ctx, state, *args) == _from_scratch(fresh, state, query, args), (query, args)
    kept.offers_memo = fresh.offers_memo = None
    fresh.board_memo = BoardMemo()
    assert action_phase.all_offers(ctx, state) == action_phase.all_offers(
        Context(fresh, None), state
    )
    return len(QUESTIONS) + 1


def test_every_facet_query_is_checked() -> None:
    asked = {query for query, _ in QUESTIONS}
    assert _facet_queries() == asked


@pytest.mark.rule("10.6", "10.6.5", "10.6.7", "10.13", game="sword-of-orthodoxy")
@pytest.mark.parametrize(
    "options",
    [{}, {"scenario": "millennium"}, {"islam": True, "red_dice": True, "round_letters": True}],
)
def test_facet_answers_are_the_answers_from_scratch_in_seeded_games(
    options: dict[str, object],
) -> None:
    kept, fresh = SwordOfOrthodoxy(options), SwordOfOrthodoxy(options)
    compared = 0
    for seed in range(12):
        for state in _states(kept, seed):
            if state.pending is not None and state.pending.rule == "10.0":
                compared += _check(kept, fresh, state)
    assert compared > 1000


@pytest.mark.rule("10.6", "10.6.5", "10.13", game="sword-of-orthodoxy")
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
def test_facet_answers_after_any_history_of_questions(first: int, others: list[int]) -> None:
    """Ask about the states of several games in an interleaved order: the answers kept
    from one game's boards are never handed out for another game's board unless the
    facet agrees."""
    kept, fresh = SwordOfOrthodoxy(), SwordOfOrthodoxy()
    pools = [list(_states(kept, seed))[::7] for seed in (first, *others)]
    order = random.Random(first).sample(
        [state for pool in pools for state in pool], sum(map(len, pools))
    )
    for state in order[:60]:
        _check(kept, fresh, state)
