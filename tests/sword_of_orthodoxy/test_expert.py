"""The ``expert`` player of Sword of Orthodoxy (:mod:`byzantium.sword_of_orthodoxy.expert`).

Small budgets keep these tests quick; the figures of the default budget are
simulations (``byzantium simulate sword-of-orthodoxy --policy expert``), not tests.
"""

from __future__ import annotations

import random
from fractions import Fraction

import attrs
import pytest

from byzantium.core.drivers import play
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.expert import (
    Expert,
    assess,
    expert_policy,
    fall_chance,
    siege_loss,
)
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooAction, SooState
from byzantium.sword_of_orthodoxy.world import move, tiles_on
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM, campaign


def _play_until(
    game: SwordOfOrthodoxy, expert: Expert, seed: int, last_turn: int
) -> tuple[SooState, list[SooAction], list[tuple[int, int]]]:
    """Play with the expert (chance from ``seed``) until Turn ``last_turn`` is over.

    Returns the final state, the expert's actions, and per decision the number of
    choices and the transitions its deeper search made.
    """
    chance = random.Random(f"test:{seed}")
    state = game.initial_state()
    chosen: list[SooAction] = []
    spent: list[tuple[int, int]] = []
    while game.current_player(state) != TERMINAL and state.turn <= last_turn:
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = chance.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = game.legal_actions(state)
            action = expert(game, state, random.Random(0))
            assert action in legal
            chosen.append(action)
            spent.append((len(legal), expert.deep))
        state = game.apply(state, action)
    return state, chosen, spent


def test_the_game_and_the_command_line_offer_the_expert_policy() -> None:
    assert {"sensible", "expert"} <= set(GAME.policies())
    assert isinstance(GAME.policies()["expert"], Expert)


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        Expert(GAME, -1)


def test_the_same_seed_gives_the_same_game() -> None:
    first = play(GAME, expert_policy(GAME, budget=20), seed=3, max_steps=45)
    again = play(GAME, expert_policy(GAME, budget=20), seed=3, max_steps=45)
    assert first.actions == again.actions
    assert first.final == again.final


def test_choices_are_legal_and_the_budget_holds() -> None:
    expert = Expert(GAME, budget=40)
    _, chosen, spent = _play_until(GAME, expert, seed=5, last_turn=2)
    assert chosen
    assert all(deep <= 40 for _, deep in spent)
    # The budget was used where there was something to choose.
    assert any(deep > 0 for options, deep in spent if options > 1)


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_siege_loss_is_two_dice_plus_three_without_walls_above_the_factions() -> None:
    assert siege_loss(11, walls=True) == Fraction(1, 36)  # only 6+6 beats 11
    assert siege_loss(12, walls=True) == 0
    assert siege_loss(9, walls=False) == Fraction(21, 36)  # 2d6 > 6
    assert siege_loss(1, walls=True) == 1


def _factions_away(state: SooState, count: int) -> SooState:
    ctx = Context(GAME, None)
    away = [
        t
        for t in tiles_on(ctx, state, "constantinople", TileKind.FACTION)
        if t != ctx.cat.tile("faction-walls")
    ][:count]
    for tile in away:
        state = move(ctx, state, tile, "omnibus", 4)
    return state


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_fewer_factions_in_constantinople_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    assert assess(ctx, _factions_away(state, 3)) < assess(ctx, state)


def _gamma_zone_full(ctx: Context, state: SooState) -> SooState:
    """``state`` with every Army of Path Γ in its Zone, one advance from a Siege."""
    for tile in ctx.cat.armies(Path.GAMMA):
        state = move(ctx, state, tile, "zone-gamma")
    return state


@pytest.mark.rule("9.2", game="sword-of-orthodoxy")
def test_a_zone_one_advance_from_a_siege_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    crowded = _gamma_zone_full(ctx, state)
    assert assess(ctx, crowded) < assess(ctx, state) - 50


@pytest.mark.rule("2.6", game="sword-of-orthodoxy")
def test_a_schism_near_twelve_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    schism = ctx.cat.tile("marker-schism")
    high = attrs.evolve(state, board=state.board.set_value(schism, 10))
    assert assess(ctx, high) < assess(ctx, state)


def _end_turns(game: SwordOfOrthodoxy, policy_name: str, seeds: tuple[int, ...], cap: int) -> int:
    total = 0
    for seed in seeds:
        if policy_name == "expert":
            policy = Expert(game, budget=0)
            state, _, _ = _play_until(game, policy, seed, cap)
        else:
            state = _sensible_until(game, seed, cap)
        total += min(state.turn, cap + 1)
    return total


def _sensible_until(game: SwordOfOrthodoxy, seed: int, last_turn: int) -> SooState:
    policy = game.policies()["sensible"]
    chance = random.Random(f"test:{seed}")
    state = game.initial_state()
    while game.current_player(state) != TERMINAL and state.turn <= last_turn:
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = chance.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = policy(game, state, random.Random(0))
        state = game.apply(state, action)
    return state


def test_the_expert_outlasts_the_sensible_player() -> None:
    """Over the same dice, the expert's games last longer (Turns counted up to 7).

    The sensible player falls on Turn 6 in both games; even the expert's one-step
    search (budget 0) is still standing after Turn 6.
    """
    seeds = (3, 8)
    assert _end_turns(GAME, "expert", seeds, 6) > _end_turns(GAME, "sensible", seeds, 6)


def test_the_expert_plays_the_millennium_scenario() -> None:
    state, chosen, _ = _play_until(MILLENNIUM, Expert(MILLENNIUM, budget=10), seed=2, last_turn=15)
    assert chosen and (state.turn > 15 or state.ending is not None)


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_the_fall_chance_grows_with_a_zone_one_advance_from_a_siege() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    crowded = _gamma_zone_full(ctx, state)
    assert 0.0 <= fall_chance(ctx, state) < fall_chance(ctx, crowded) <= 1.0
