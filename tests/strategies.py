"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import TypeVar

from hypothesis import strategies as st

from byzantium.core.game import Game

S = TypeVar("S")
A = TypeVar("A")


@st.composite
def reachable_states(draw: st.DrawFn, game: Game[S, A], max_steps: int = 120) -> S:
    """A state reached from the start by a drawn number of drawn legal actions.

    Chance outcomes are drawn like choices (reachability, not probability), and the
    legal-action order puts the simplest first, so shrinking heads for short, simple
    histories.
    """
    state = game.initial_state()
    for _ in range(draw(st.integers(0, max_steps))):
        actions = game.legal_actions(state)
        if not actions:
            break
        state = game.apply(state, actions[draw(st.integers(0, len(actions) - 1))])
    return state
