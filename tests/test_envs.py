"""The learning environments (:mod:`byzantium.envs`): PettingZoo's ``api_test`` and
Gymnasium's ``check_env`` pass, chance is the game's seeded sampler, observations are
the players' tensors with their action masks, and nothing hidden leaks.

Skipped without the ``pettingzoo`` and ``gymnasium`` extras (``tox -e envs`` installs
them). The real games' tests skip while a game has no action space.
"""

from __future__ import annotations

import random
import warnings
from typing import NoReturn, TypeVar

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
import numpy
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from byzantium.core.errors import ByzantiumError, IllegalActionError
from byzantium.core.game import Game
from byzantium.core.registry import load_game
from byzantium.envs import pettingzoo_env
from byzantium.envs.gymnasium_env import GymGameEnv
from byzantium.envs.pettingzoo_env import AECGameEnv
from byzantium.envs.table import Table
from examples.masked_random import evaluate
from tests.pig import PigGame

S = TypeVar("S")
A = TypeVar("A")


def spaced(game: Game[S, A]) -> Game[S, A]:
    """The game, which must have its fixed action space (both games do)."""
    assert game.action_space().size > 0
    return game


def masked_choice(
    mask: numpy.ndarray[tuple[int], numpy.dtype[numpy.int8]], rng: random.Random
) -> int:
    return rng.choice([i for i, flag in enumerate(mask) if flag])


def aec_trajectory(
    env: AECGameEnv[S, A], seed: int, steps: int
) -> list[tuple[str, int, list[float]]]:
    """Agents, actions and observations of a masked-random run of ``env``."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    seen = []
    for agent in env.agent_iter(steps):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = masked_choice(observation["action_mask"], rng)
        seen.append((agent, action, observation["observation"].tolist()))
        env.step(action)
    return seen


# -- Pig: everything, now ----------------------------------------------------------------------


def test_pig_passes_the_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a dict observation is not an array
        api_test(AECGameEnv(PigGame(), render_mode="ansi"), num_cycles=300)


def test_pig_passes_the_gymnasium_env_checker() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # unbounded scores
        check_env(GymGameEnv(PigGame(), render_mode="ansi"), skip_render_check=False)


def test_aec_observations_are_tensors_and_masks_of_the_table() -> None:
    env = AECGameEnv(PigGame({"target": 10}))
    env.reset(seed=3)
    game, table = env.game, env.table
    steps = 0
    rng = random.Random(1)
    for agent in env.agent_iter(2_000):
        observation, reward, terminated, truncated, _ = env.last()
        player = env.possible_agents.index(agent)
        assert observation["observation"].tolist() == game.observation_tensor(table.state, player)
        if terminated or truncated:
            assert reward == game.returns(table.state)[player]
            env.step(None)
            continue
        assert table.to_act == player
        mask = observation["action_mask"]
        assert mask.tolist() == [int(f) for f in game.action_space().mask(table.state)]
        other = env.possible_agents[1 - player]
        assert not env.observe(other)["action_mask"].any()  # only the player to act has moves
        env.step(masked_choice(mask, rng))
        steps += 1
    assert steps > 0 and not env.agents  # the game ended and every agent left


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    env = AECGameEnv(PigGame())
    first = aec_trajectory(env, 11, 400)
    assert aec_trajectory(env, 11, 400) == first
    assert aec_trajectory(env, 12, 400) != first


def test_the_dice_are_the_stream_play_uses() -> None:
    """Seeded like :func:`byzantium.play`: the first roll is the one ``play`` rolls."""
    import byzantium
    from tests.pig import Face, RollDie

    game = PigGame()
    table = Table(game)
    for seed in range(5):
        table.reset(seed)
        table.play(game.action_space().index(table.state, RollDie()))
        record = byzantium.play(game, byzantium.scripted([RollDie()]), seed=seed, max_steps=2)
        face = record.actions[1]
        assert isinstance(face, Face)
        expected = 0 if face.value == 1 else face.value
        assert table.state.turn_total == expected


def test_an_illegal_number_ends_the_episode_as_a_loss_by_default() -> None:
    env = GymGameEnv(PigGame({"target": 10}))
    before, _ = env.reset(seed=0)
    state = env.table.state
    after, reward, terminated, truncated, info = env.step(5)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.table.state == state
    assert (after["observation"] == before["observation"]).all()
    with pytest.raises(ByzantiumError, match="ended on an illegal action"):
        env.step(0)
    env.reset()
    env.step(0)  # a new episode plays again


def test_an_illegal_number_names_the_rule_and_a_finished_game_refuses_to_go_on() -> None:
    env = GymGameEnv(PigGame({"target": 10}), illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"action number 7 \(out of range\)"):
        env.step(7)
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(1 if env.table.state.turn_total < 6 else 0)
    assert reward in (1.0, -1.0)
    with pytest.raises(ByzantiumError, match="the game is over"):
        env.step(0)


def test_truncation_after_max_steps() -> None:
    env = GymGameEnv(PigGame({"target": 100}), max_steps=3)
    env.reset(seed=0)
    truncated, steps = False, 0
    while not truncated:
        _, _, terminated, truncated, info = env.step(1)
        steps += 1
        assert not terminated
    assert env.table.decisions == 3 and steps <= 3  # the other player's decisions count
    mask = info["action_mask"]
    assert truncated and isinstance(mask, numpy.ndarray) and not mask.any()


def test_pig_has_no_picture_so_no_svg_render_mode() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        AECGameEnv(PigGame(), render_mode="svg")


def test_a_game_without_an_action_space_is_refused_clearly() -> None:
    class Bare(PigGame):
        def action_space(self) -> NoReturn:
            raise NotImplementedError("bare has no fixed action space")

    with pytest.raises(NotImplementedError, match="no fixed action space"):
        AECGameEnv(Bare())


def test_the_masked_random_example_evaluates_a_baseline() -> None:
    returns = evaluate(GymGameEnv(PigGame({"target": 10})), episodes=20, seed=1)
    assert len(returns) == 20 and set(returns) <= {1.0, -1.0}
    assert evaluate(GymGameEnv(PigGame({"target": 10})), episodes=20, seed=1) == returns


# -- the real games (skipped while they have no action space) -------------------------------


@pytest.mark.parametrize("scenario", [1, 2])
def test_belisarius_passes_the_pettingzoo_api_test(scenario: int) -> None:
    game = spaced(load_game("belisarius", scenario=scenario))
    env = AECGameEnv(game, render_mode="ansi")
    assert env.possible_agents == ["empire", "barbarian"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=200)


def test_sword_of_orthodoxy_passes_the_pettingzoo_api_test_as_one_agent() -> None:
    spaced(load_game("sword-of-orthodoxy"))
    env = pettingzoo_env.env("sword-of-orthodoxy")
    assert env.possible_agents == ["player_0"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_sword_of_orthodoxy_passes_the_gymnasium_env_checker(scenario: str) -> None:
    game = spaced(load_game("sword-of-orthodoxy", scenario=scenario))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(GymGameEnv(game, render_mode="svg"), skip_render_check=False)


def test_sword_of_orthodoxy_is_registered_with_gymnasium_and_renders_its_picture() -> None:
    spaced(load_game("sword-of-orthodoxy"))
    env = gymnasium.make("byzantium/SwordOfOrthodoxy-v0", render_mode="svg")
    observation, info = env.reset(seed=4)
    assert (
        observation["action_mask"].any()
        and (info["action_mask"] == observation["action_mask"]).all()
    )
    picture = env.render()
    assert isinstance(picture, str) and picture.startswith("<svg")


def test_belisarius_agents_see_only_their_own_tensors() -> None:
    """What an agent observes is his tensor of the state, nothing else: the hidden
    information stays out (see tests/test_observation_tensors.py for the tensors)."""
    game = spaced(load_game("belisarius", scenario=1))
    env = AECGameEnv(game)
    env.reset(seed=2)
    rng = random.Random(2)
    for agent in env.agent_iter(300):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        for name in env.possible_agents:
            player = env.possible_agents.index(name)
            seen = env.observe(name)["observation"].tolist()
            assert seen == pytest.approx(game.observation_tensor(env.table.state, player))
        env.step(masked_choice(observation["action_mask"], rng))
        assert agent in env.possible_agents


def test_the_masked_random_baseline_runs_on_sword_of_orthodoxy() -> None:
    game = spaced(load_game("sword-of-orthodoxy"))
    returns = evaluate(GymGameEnv(game), episodes=2, seed=0)
    assert len(returns) == 2 and all(-1.0 <= r <= 1.0 for r in returns)
