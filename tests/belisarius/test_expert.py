"""The expert player (:mod:`byzantium.belisarius.expert`): legal, reproducible, and
blind to the other player's secrets (22.0, 22.1).

Information hiding is checked with the twins of the fog-of-war tests
(:mod:`tests.belisarius.test_fog_of_war`): a state of a played game and a copy whose
opponent (of the player to decide) holds another hand of the same size and a richer
treasury, the question asked afresh. Over many decisions, the searched ones among
them, the expert answers both alike.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

import byzantium.belisarius.expert as expert_module
from byzantium.belisarius.expert import Budget, ExpertPlayer, determinize, expert_policy
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.sequence import CAPITULATE
from byzantium.belisarius.state import BelAction, BelState, RequestKind, Select, opponent
from byzantium.core.drivers import Policy, play
from byzantium.core.game import Game
from tests.belisarius.support import SCENARIOS, belisarius
from tests.belisarius.test_fog_of_war import played, redeal, starts
from tests.belisarius.test_observation import reask

RULEBOOK = "belisarius"

#: A small budget: the properties do not depend on its size.
SMALL = Budget(worlds=2, barbarian_worlds=3, options=4, steps=120)


def _menu(state: BelState) -> tuple[object, ...]:
    """The options of a state's request (equality of requests leaves them out)."""
    return () if state.pending is None else state.pending.options


def test_the_game_offers_the_expert_policy() -> None:
    game = belisarius()
    assert {"sensible", "expert"} <= set(game.policies())


def _checked(game: Belisarius, seen: list[str]) -> Policy[BelState, BelAction]:
    """The expert, asserting that every answer is one of the options offered."""
    expert = expert_policy(game, SMALL)

    def policy(g: Game[BelState, BelAction], state: BelState, rng: random.Random) -> BelAction:
        action = expert(g, state, rng)
        assert state.pending is not None
        assert action in state.pending.options
        assert action != Select(CAPITULATE)
        seen.append(state.pending.rule)
        return action

    return policy


@pytest.mark.rule("3.1", "9.1", "10.3", "16.1", "17.5")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_expert_answers_only_with_offered_options_and_never_capitulates(
    scenario: int,
) -> None:
    game = belisarius(scenario, capitulation=True)
    seen: list[str] = []
    policy = _checked(game, seen)
    sensible = game.policies()["sensible"]
    for seat in (0, 1):
        table = [sensible, sensible]
        table[seat] = policy
        play(game, table, seed=seat, max_steps=1500, digests=False)
    rules = Counter(seen)
    assert rules["3.1"] > 0  # it was asked whether to capitulate, and played on
    assert rules["9.1"] + rules["10.3"] + rules["16.1"] > 0


@pytest.mark.rule("23.1")
def test_a_seed_reproduces_the_experts_game() -> None:
    game = belisarius(1)
    records = [
        play(game, [expert_policy(game, SMALL), expert_policy(game, SMALL)], seed=5, max_steps=900)
        for _ in range(2)
    ]
    assert records[0].actions == records[1].actions
    assert records[0].digests == records[1].digests
    other = play(
        game, [expert_policy(game, SMALL), expert_policy(game, SMALL)], seed=6, max_steps=900
    )
    assert other.actions != records[0].actions


@pytest.mark.rule("22.0", "22.1")
def test_a_determinization_keeps_what_the_player_knows() -> None:
    """The other's hand keeps its size and the unseen markers their number; the own
    hand, the board and whose question it is stay as they are."""
    game = belisarius(1)
    steps, _ = played(1, "off", 0)
    rng = random.Random(3)
    changed = 0
    for state, _ in steps[::40]:
        for player in (0, 1):
            if state.revealed[player]:
                continue
            other = opponent(player)
            sample = determinize(game.catalog, state, player, rng)
            before, after = state.stratagems, sample.stratagems
            assert after.hands[player] == before.hands[player]
            assert after.held(other) == before.held(other)
            assert [p + h for p, h in zip(after.pool, after.hands[other], strict=True)] == [
                p + h for p, h in zip(before.pool, before.hands[other], strict=True)
            ]
            assert sample.solidus[player] == state.solidus[player]
            assert (sample.units, sample.control, sample.pending) == (
                state.units,
                state.control,
                state.pending,
            )
            assert _menu(sample) == _menu(state)
            changed += after.hands[other] != before.hands[other]
    assert changed > 0


def _twin_pairs(
    scenario: int, seed: int, rng: random.Random, limit: int
) -> Iterator[tuple[Belisarius, ExpertPlayer, BelState, BelState]]:
    """Pairs (state, twin) of a played random game at decisions of the player to
    move, the twin's opponent re-dealt (:func:`redeal`)."""
    game = belisarius(scenario)
    steps, final = played(scenario, "off", seed)
    expert = ExpertPlayer(game, SMALL)
    searched = [
        i
        for observer in (0, 1)
        for i in starts(steps, observer)
        if (request := steps[i][0].pending) is not None
        and request.kind is RequestKind.CHOOSE
        and request.player == observer
        and len(request.options) > 1
    ]
    ordered = sorted(searched, key=lambda i: not expert.searches(steps[i][0]))
    for i in ordered[:limit]:
        state = steps[i][0]
        assert state.pending is not None
        observer = state.pending.player
        twin = reask(game, redeal(steps, final, i, observer, rng))
        yield game, expert, state, twin


@pytest.mark.rule("22.0", "22.1", "9.1", "10.3", "16.1", "17.5", "17.6", "17.74")
@pytest.mark.parametrize("scenario", [1, 2])
def test_twins_that_differ_only_in_the_opponents_secrets_get_the_same_answer(
    scenario: int,
) -> None:
    rng = random.Random(scenario)
    compared = searched = 0
    for game, expert, state, twin in _twin_pairs(scenario, 0, rng, 80):
        other = opponent(state.pending.player)  # type: ignore[union-attr]
        assert twin.pending == state.pending  # the same question, the same options
        assert _menu(twin) == _menu(state)
        secrets = (twin.stratagems.hands[other], twin.solidus[other])
        differ = secrets != (state.stratagems.hands[other], state.solidus[other])
        assert differ or state.stratagems.held(other) == 0
        seed = rng.getrandbits(32)
        player = state.pending.player  # type: ignore[union-attr]
        worlds = [determinize(game.catalog, s, player, random.Random(seed)) for s in (state, twin)]
        assert worlds[0].stratagems == worlds[1].stratagems
        assert worlds[0].solidus == worlds[1].solidus
        answer = expert.choose(state, random.Random(seed))
        assert expert.choose(twin, random.Random(seed)) == answer
        assert game.legal_actions(state).count(answer) == 1
        compared += 1
        searched += expert.searches(state)
    assert compared >= 60
    assert searched >= 20


def test_the_expert_plays_either_seat() -> None:
    game = belisarius(2)
    sensible = game.policies()["sensible"]
    expert = game.policies()["expert"]
    for table in ([expert, sensible], [sensible, expert]):
        record = play(game, table, seed=1, max_steps=400, digests=False)
        assert len(record.actions) == 400


@pytest.mark.rule("22.0", "22.1")
def test_each_side_searches_on_its_own_number_of_redeals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A searched decision re-deals the other's secrets ``worlds`` times for the
    Empire and ``barbarian_worlds`` times for the Barbarian, once per look-ahead set."""
    game = belisarius(1)
    budget = Budget(worlds=2, barbarian_worlds=3, options=3, steps=40)
    expert = ExpertPlayer(game, budget)
    deals: list[int] = []

    def counted(cat: object, state: BelState, player: int, rng: random.Random) -> BelState:
        deals.append(player)
        return determinize(game.catalog, state, player, rng)

    monkeypatch.setattr(expert_module, "determinize", counted)
    steps, _ = played(1, "off", 0)
    expected = {0: budget.worlds, 1: budget.barbarian_worlds}
    searched = Counter[int]()
    for state, _ in steps:
        request = state.pending
        if request is None or request.kind is not RequestKind.CHOOSE:
            continue
        if len(request.options) < 2 or not expert.searches(state):
            continue
        if searched[request.player] >= 6:
            continue
        deals.clear()
        expert.choose(state, random.Random(7))
        assert deals in ([], [request.player] * expected[request.player])
        searched[request.player] += bool(deals)
    assert searched[0] > 0 and searched[1] > 0
