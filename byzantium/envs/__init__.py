"""Learning environments: the games as PettingZoo and Gymnasium environments.

Two optional extras, each with its own module:

* ``pip install 'byzantium[pettingzoo]'``: :mod:`byzantium.envs.pettingzoo_env`, a
  PettingZoo AEC environment (turn-based, one agent per player) of any game with an
  action space: Belisarius with two agents, Sword of Orthodoxy with one;
* ``pip install 'byzantium[gymnasium]'``: :mod:`byzantium.envs.gymnasium_env`, a
  Gymnasium environment of one player of a game (the others played by given
  policies): Sword of Orthodoxy, the solitaire game, is the natural one.

Both are thin layers over :class:`byzantium.envs.table.Table` (pure Python, no extra
needed), which holds the state, resolves chance nodes with the game's exact sampler
(:func:`byzantium.core.drivers.sample`) from a seeded stream, and gives each player
his observation tensor (:meth:`~byzantium.core.game.Game.observation_tensor`) and
his action mask (:meth:`~byzantium.core.spaces.ActionSpace.mask`). Actions are the
numbers of the game's fixed action space (:meth:`~byzantium.core.game.Game.action_space`).

Seeding follows :func:`byzantium.core.drivers.play`: ``reset(seed=s)`` draws the dice
from the stream ``play(..., seed=s)`` uses, and policies the environment plays for
other players from its policy stream; ``reset()`` without a seed plays on with the
same streams (a new game, different dice).
"""

from __future__ import annotations

__all__: list[str] = []
