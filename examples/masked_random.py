"""A masked random baseline: the loop of a Gymnasium agent, over N episodes.

The agent picks uniformly among the legal action numbers that the observation's
``action_mask`` allows; the environment rolls the dice. Run it as::

    python -m examples.masked_random --episodes 20 --seed 1

which plays Sword of Orthodoxy (``pip install 'byzantium[gymnasium]'``) and prints the
mean return (the Victory Points / 100 of a victory, -1 for a Defeat).
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import SupportsInt

import gymnasium

from byzantium.envs.gymnasium_env import Observation


def masked_random(observation: Observation, rng: random.Random) -> int:
    """A legal action number, uniformly at random."""
    legal = [i for i, flag in enumerate(observation["action_mask"]) if flag]
    return rng.choice(legal)


def evaluate(
    env: gymnasium.Env[Observation, SupportsInt], episodes: int, seed: int = 0
) -> list[float]:
    """The return of each of ``episodes`` games of the masked random agent; the first
    episode is seeded with ``seed`` and the others play on from it."""
    rng = random.Random(seed)
    returns: list[float] = []
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed if episode == 0 else None)
        total, done = 0.0, False
        while not done:
            action = masked_random(observation, rng)
            observation, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import byzantium.envs.gymnasium_env  # noqa: F401, PLC0415 - registers the environments

    env = gymnasium.make("byzantium/SwordOfOrthodoxy-v0")
    returns = evaluate(env, args.episodes, args.seed)
    print(
        f"masked random over {len(returns)} games of Sword of Orthodoxy: "
        f"mean return {statistics.fmean(returns):+.3f}, "
        f"victories {sum(r > -1 for r in returns)}"
    )


if __name__ == "__main__":
    main()
