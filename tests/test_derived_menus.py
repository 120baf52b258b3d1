"""Menus derived from earlier work are the menus built from nothing (issue 41).

A menu is built when first read, from whatever the game keeps from earlier menus:
the last Action Phase menus (10.0), board and facet answers in Sword of Orthodoxy;
zones of control, controllers and the moving force's step facts in Belisarius's
Operations. Here seeded random games of both games are played on the fast path
with one long-lived game, and at every decision the menu it holds is compared
with the one its task asks again on another game whose memories are emptied first.
Half of the games build every child of each decision (without reading their menus)
before reading the chosen child's menu, as a search does, so that menus are built
out of their order.
"""

from __future__ import annotations

import random
import typing
from typing import Any

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import action_phase
from byzantium.sword_of_orthodoxy.engine import BoardMemo, Context, ask_again
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState
from tests.belisarius.test_incremental_menus import asked_from_scratch

AnyGame = Game[Any, Any]


def _sword_from_scratch(reference: SwordOfOrthodoxy, state: SooState) -> object:
    request = state.pending
    assert request is not None
    reference.offers_memo = None
    reference.board_memo = BoardMemo()
    again = ask_again(Context(reference, None), replace(state, "pending", None), request.task)
    return again.pending


def _first_stale(played: AnyGame, reference: AnyGame, seed: int, search: bool, most: int) -> int:
    """Play a seeded game; the number of decisions checked, or fail at the first menu
    that differs from the one built from nothing."""
    rng = random.Random(seed)
    state = played.initial_state()
    checked = 0
    for _ in range(most):
        player = played.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = sample(played.chance_outcomes(state), rng)
        else:
            request = state.pending
            assert request is not None
            scratch = (
                _sword_from_scratch(reference, state)
                if isinstance(reference, SwordOfOrthodoxy)
                else asked_from_scratch(typing.cast(Belisarius, reference), state)
            )
            assert request == scratch, (seed, checked, request.rule)
            # Equality of requests leaves the menu out: compared on its own.
            assert request.options == getattr(scratch, "options", None), (seed, checked)
            checked += 1
            menu = played.legal_actions(state)
            action = rng.choice(menu)
            if search:
                for other in menu[:25]:
                    played.apply_unchecked(state, other)
        state = played.apply_unchecked(state, action)
    return checked


@pytest.mark.rule("10.0", game="sword-of-orthodoxy")
@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_every_sword_menu_of_whole_games_is_the_menu_built_from_nothing(scenario: str) -> None:
    played = SwordOfOrthodoxy({"scenario": scenario})
    reference = SwordOfOrthodoxy({"scenario": scenario})
    checked = sum(
        _first_stale(played, reference, seed, search=seed % 2 == 1, most=100_000)
        for seed in range(80 if scenario == "campaign" else 40)
    )
    assert checked > 1000


@pytest.mark.rule("16.1", "14.1", game="belisarius")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_every_belisarius_menu_is_the_menu_built_from_nothing(scenario: int) -> None:
    options: dict[str, object] = {"scenario": scenario, "capitulation": False}
    played, reference = Belisarius(options), Belisarius(options)
    checked = sum(
        _first_stale(played, reference, seed, search=seed % 2 == 0, most=700)
        for seed in range(20 + scenario, 24 + scenario)
    )
    assert checked > 400


def test_a_stale_action_phase_menu_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check sees a kept Action Phase menu used for a state it does not fit."""
    monkeypatch.setattr(action_phase, "_same_parts", lambda one, other: one.turn == other.turn)
    played, reference = SwordOfOrthodoxy(), SwordOfOrthodoxy()

    def all_games() -> None:
        for seed in range(10):
            _first_stale(played, reference, seed, search=True, most=100_000)

    with pytest.raises(AssertionError):
        all_games()
