"""Menus built when asked for (issue 41): a transition does not build the next menu.

A decision's menu is built the first time something reads it (its legal actions, a
checked answer, its encoding, a comparison) and kept with the request; a search that
builds every child of a position and lists none of their menus builds none. From the
outside a request reads, compares, hashes, encodes and pickles as if its menu had
been there from the start.
"""

from __future__ import annotations

import copy
import functools
import gc
import pickle
import random
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from byzantium import load_game
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import BelState
from byzantium.belisarius.state import Select as BelSelect
from byzantium.core.codec import canonical_json
from byzantium.core.drivers import sample
from byzantium.core.errors import IllegalActionError
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.core.procedure import LazyOptions, lazy_request
from byzantium.sword_of_orthodoxy import action_phase
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import Decline, Request, RequestKind, Select, SooState

AnyGame = Game[Any, Any]


def _states(game: AnyGame, seed: int, steps: int = 3000) -> Iterator[Any]:
    """The states of a seeded random game, each listed before its successor is made."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(steps):
        actor = game.current_player(state)
        if actor == TERMINAL:
            return
        yield state
        if actor == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply_unchecked(state, action)


def _action_phase_parents(game: SwordOfOrthodoxy, count: int) -> list[SooState]:
    found: list[SooState] = []
    for seed in range(40):
        for state in _states(game, seed):
            request = state.pending
            if (
                request is not None
                and request.rule == "10.0"
                and len(found) < count
                and len(game.legal_actions(state)) > 2
            ):
                found.append(state)
    return found


class _Counting:
    """A group of Action Phase offers whose listings are counted."""

    def __init__(self, group: Any, calls: list[int]) -> None:
        self.group, self.calls = group, calls

    def offers(self, ctx: object, state: object) -> object:
        self.calls[0] += 1
        return self.group.offers(ctx, state)


@pytest.mark.rule("10.0", game="sword-of-orthodoxy")
def test_children_of_an_action_phase_decision_build_no_menu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every child of an Action Phase decision is built without listing the next
    Action Phase menu; listing it builds it once, and it is kept."""
    game = SwordOfOrthodoxy()
    parents = _action_phase_parents(game, 12)
    assert parents
    calls = [0]
    counting = tuple(_Counting(group, calls) for group in action_phase.GROUPS)
    monkeypatch.setattr(action_phase, "GROUPS", counting)
    asked = 0
    for parent in parents:
        menu = game.legal_actions(parent)
        children = [game.apply_unchecked(parent, action) for action in menu]
        calls[0] = 0
        game.offers_memo = None
        again = [game.apply_unchecked(parent, action) for action in menu if action != Decline()]
        # Carrying out the answers lists the parent's menu once (its offers' tasks),
        # and not one child's menu.
        assert calls[0] <= len(counting)
        for child in again:
            request = child.pending
            if request is not None and request.rule == "10.0":
                asked += 1
                assert not request.options_built()
                before = calls[0]
                first = game.legal_actions(child)
                assert request.options_built()
                assert game.legal_actions(child) is first
                assert calls[0] - before <= len(counting)
        assert children == [game.apply_unchecked(parent, a) for a in menu]
    assert asked


def _fresh_request(request: Request) -> Request:
    """The same request built at once (its menu given)."""
    return Request(
        request.kind,
        request.rule,
        request.prompt,
        request.task,
        request.dice,
        request.space,
        request.options,
        request.path,
    )


def _unbuilt_states(game: AnyGame, seeds: range) -> Iterator[Any]:
    """States of seeded games whose menu has not been built yet (its successor made
    without listing it: the playout picks the first of a fresh copy's menu)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state()
        for _ in range(400):
            actor = game.current_player(state)
            if actor == TERMINAL:
                break
            request = state.pending
            if isinstance(request, LazyOptions) and not request.options_built():
                yield state
            if actor == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                copied = game.decode_state(game.encode_state(state))
                action = rng.choice(game.legal_actions(copied))
            state = game.apply_unchecked(state, action)


@pytest.mark.parametrize(
    "make",
    [SwordOfOrthodoxy, lambda: load_game("belisarius", scenario=1, capitulation=False)],
    ids=["sword-of-orthodoxy", "belisarius"],
)
def test_a_menu_not_built_reads_as_if_it_were(make: Callable[[], AnyGame]) -> None:
    """Hash, equality, encoding, digest, copies and pickles of a state whose menu is
    not built yet are those of the state with the menu built; hashing and comparing
    build no menu."""
    game = make()
    seen = 0
    for state in _unbuilt_states(game, range(6)):
        seen += 1
        request = state.pending
        assert not request.options_built()
        hashed = hash(state)
        assert state == state  # noqa: PLR0124 - compared field by field
        assert not request.options_built()  # equality and the hash leave the menu out
        if seen % 3 == 0:
            assert copy.copy(request) == request
        elif seen % 3 == 1:
            assert pickle.loads(pickle.dumps(state)) == state
        else:
            assert game.state_digest(state) == game.state_digest(attrs.evolve(state))
        assert request.options_built()
        if seen % 2:
            twin = game.decode_state(game.encode_state(state))
            assert twin == state
            assert hash(twin) == hashed
            assert canonical_json(game.encode_state(twin)) == canonical_json(
                game.encode_state(state)
            )
        if seen >= 60:
            break
    assert seen >= 10


@pytest.mark.rule("16.1", game="belisarius")
def test_a_checked_answer_builds_the_menu_and_refuses_what_it_lacks() -> None:
    """``apply`` checks an answer against the menu it builds: an action the menu does
    not hold is refused even when nothing had listed the menu before."""
    game: Belisarius = load_game("belisarius", scenario=1, capitulation=False)
    checked = 0
    for state in _unbuilt_states(game, range(4)):
        request = state.pending
        if request.rule != "16.1":
            continue
        foreign = BelSelect("attack 1")
        if foreign in request.options:
            continue
        fresh = attrs.evolve(
            state,
            pending=lazy_request(
                type(request),
                functools.partial(getattr, request, "options"),
                kind=request.kind,
                rule=request.rule,
                prompt=request.prompt,
                task=request.task,
                player=request.player,
            ),
        )
        assert isinstance(fresh, BelState)
        with pytest.raises(IllegalActionError):
            game.apply(fresh, foreign)
        assert fresh.pending is not None
        assert fresh.pending.options_built()
        checked += 1
        if checked >= 5:
            break
    assert checked


def test_a_lazy_request_is_refused_for_a_class_that_does_not_build_later() -> None:
    with pytest.raises(TypeError):
        lazy_request(Decline, tuple)


def test_a_lazy_request_equals_the_request_built_at_once() -> None:
    game = SwordOfOrthodoxy()
    for state in _unbuilt_states(game, range(3)):
        request = state.pending
        if request.kind is RequestKind.CHOOSE:
            made = _fresh_request(request)
            assert made == request
            assert hash(made) == hash(request)
            assert made.options == request.options
            assert made.options is not None
            assert Select("no such item") not in request.options
            break
    else:  # pragma: no cover
        pytest.fail("no lazy menu")


def test_unread_menus_keep_no_earlier_request_alive() -> None:
    """A game replayed on the fast path without reading its menus (its actions taken
    from a record) keeps no chain of earlier requests (and their states) alive
    through the menus it never built: between two unread movement menus (16.1), the
    earlier request is freed once nothing else holds it."""
    game: Belisarius = load_game("belisarius", scenario=1, capitulation=False)
    rng = random.Random(3)
    state = game.initial_state()
    actions = []
    for _ in range(400):
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        actions.append(action)
        state = game.apply_unchecked(state, action)
    replayed = game.initial_state()
    pairs = 0
    for action in actions:
        before = weakref.ref(replayed.pending) if replayed.pending is not None else None
        unread = _unread_move(replayed)
        replayed = game.apply_unchecked(replayed, action)
        if unread and _unread_move(replayed) and before is not None:
            pairs += 1
            gc.collect()
            assert before() is None
    assert pairs > 5


def _unread_move(state: BelState) -> bool:
    request = state.pending
    return (
        isinstance(request, LazyOptions) and request.rule == "16.1" and not request.options_built()
    )
