"""The fast path of search plays exactly the games of the checked path.

:meth:`~byzantium.core.game.Game.apply_unchecked` skips the check of the action and
the event text, and a game keeps the menu of the last state it listed; neither may
change a single state. Games are played twice from the same seed, once through the
checked path (:meth:`~byzantium.core.game.Game.step`, events built, on a copy of
each state, so that no kept menu is ever reused) and once through the fast path,
and their actions and state digests compared step by step; every legal child of
some states is built both ways too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium import load_game
from byzantium.belisarius.game import Belisarius
from byzantium.core.drivers import playout, random_policy, sample
from byzantium.core.errors import IllegalActionError
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from tests.pig import Hold, PigGame, PigState
from tests.strategies import reachable_states

S = TypeVar("S")
A = TypeVar("A")

#: A seeded game as a list of (action, digest of the state after it).
Trail = list[tuple[object, str]]


def _fresh(state: S) -> S:
    """An equal copy of an attrs state, a different object (no kept menu matches it)."""
    copied: S = attrs.evolve(state)  # type: ignore[misc]
    return copied


def _play(game: Game[S, A], seed: int, fast: bool, limit: int = 100_000) -> Trail:
    rng = random.Random(seed)
    state = game.initial_state()
    trail: Trail = []
    for _ in range(limit):
        actor = game.current_player(state)
        if actor == TERMINAL:
            break
        asked = state if fast else _fresh(state)
        if actor == CHANCE:
            action = sample(game.chance_outcomes(asked), rng)
        else:
            action = rng.choice(game.legal_actions(asked))
        if fast:
            state = game.apply_unchecked(state, action)
        else:
            state = game.step(_fresh(state), action).state
        trail.append((action, game.state_digest(state)))
    return trail


def _same_games(make: Callable[[], Game[S, A]], seeds: range, limit: int = 100_000) -> None:
    fast_game, checked_game = make(), make()
    for seed in seeds:
        fast = _play(fast_game, seed, fast=True, limit=limit)
        checked = _play(checked_game, seed, fast=False, limit=limit)
        assert len(fast) == len(checked), seed
        for step, (one, other) in enumerate(zip(fast, checked, strict=True)):
            assert one == other, (seed, step)


def test_pig_games_are_the_same_on_both_paths() -> None:
    _same_games(PigGame, range(60))


def test_sword_of_orthodoxy_campaigns_are_the_same_on_both_paths() -> None:
    _same_games(SwordOfOrthodoxy, range(25))


def test_sword_of_orthodoxy_millennium_games_are_the_same_on_both_paths() -> None:
    _same_games(lambda: SwordOfOrthodoxy({"scenario": "millennium"}), range(8))


def test_belisarius_games_are_the_same_on_both_paths() -> None:
    def make() -> Belisarius:
        return load_game("belisarius", scenario=1, capitulation=False)

    _same_games(make, range(2), limit=500)


@pytest.mark.parametrize("seed", range(3))
def test_every_child_is_the_same_on_both_paths(seed: int) -> None:
    """Every legal child of the states of a random game, built fast and checked."""
    game = SwordOfOrthodoxy()
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        for action in game.legal_actions(state)[:40]:
            fast = game.apply_unchecked(state, action)
            checked = game.step(_fresh(state), action).state
            assert fast == checked
            assert game.state_digest(fast) == game.state_digest(checked)  # menus too
        state = game.apply_unchecked(state, random_policy(game, state, rng))


def test_playout_ends_where_the_checked_game_ends() -> None:
    game = SwordOfOrthodoxy()
    for seed in range(5):
        final = playout(game, game.initial_state(), random.Random(seed))
        assert game.state_digest(final) == _play(game, seed, fast=False)[-1][1]


@given(reachable_states(PigGame()), st.data())
def test_apply_still_refuses_an_action_after_its_menu_was_kept(
    state: PigState, data: st.DataObject
) -> None:
    """Keeping the last menu does not let an illegal action through ``apply``."""
    game = PigGame()
    legal = game.legal_actions(state)
    if game.is_terminal(state) or Hold() in legal:
        return
    with pytest.raises(IllegalActionError):
        game.apply(state, Hold())
    if legal:
        action = data.draw(st.sampled_from(legal))
        assert game.apply(state, action) == game.apply_unchecked(state, action)
