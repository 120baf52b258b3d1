"""A game as a PettingZoo AEC environment (``pip install 'byzantium[pettingzoo]'``).

:class:`AECGameEnv` wraps any game with an action space and an observation tensor:
one agent per player (named by :func:`~byzantium.envs.table.agent_name`:
``"empire"`` and ``"barbarian"`` in Belisarius, ``"player_0"`` alone in Sword of
Orthodoxy), acting in turn as the rules ask, chance resolved inside the environment.
Each agent's observation is a dict: ``"observation"``, his observation tensor as
float32 (what he may see, nothing more), and ``"action_mask"``, int8 flags of the
legal action numbers (all zero while another player is to act). Rewards are the
game's returns when it ends, 0 before; every agent is then terminated.

Usage::

    from byzantium.envs.pettingzoo_env import env

    bel = env("belisarius", scenario=1)  # agents "empire" and "barbarian"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

from byzantium.core.game import Game
from byzantium.core.registry import load_game
from byzantium.envs.table import Table, agent_name

try:
    import numpy
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as missing:  # pragma: no cover - the extra is optional
    raise ModuleNotFoundError(
        "byzantium.envs.pettingzoo_env needs PettingZoo: pip install 'byzantium[pettingzoo]'",
        name=missing.name,
    ) from missing

__all__ = ["AECGameEnv", "env"]

S = TypeVar("S")
A = TypeVar("A")

#: One agent's observation: the tensor and the action mask.
Observation = dict[str, numpy.ndarray[tuple[int], numpy.dtype[numpy.float32 | numpy.int8]]]


class AECGameEnv(AECEnv, Generic[S, A]):  # type: ignore[misc]
    """A PettingZoo AEC environment of ``game`` (see the module documentation).

    ``render_mode`` is None, ``"ansi"`` (the game's text view, as an onlooker sees it)
    or ``"svg"`` (:func:`byzantium.render.svg`); ``max_steps`` truncates a game after
    that many decisions.
    """

    metadata: Mapping[str, object] = {
        "render_modes": ["ansi", "svg"],
        "name": "byzantium",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, game: Game[S, A], render_mode: str | None = None, max_steps: int | None = None
    ) -> None:
        super().__init__()
        self.table: Table[S, A] = Table(game, max_steps)
        modes = self.table.render_modes()
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode must be one of {modes} for {game.ID}, not {render_mode!r}"
            )
        self.metadata = {**self.metadata, "render_modes": modes, "name": f"byzantium_{game.ID}"}
        self.render_mode = render_mode
        self.possible_agents: list[str] = [agent_name(game, p) for p in range(game.NUM_PLAYERS)]
        self._player = {name: p for p, name in enumerate(self.possible_agents)}
        lows, highs = self.table.layout.bounds()
        tensor = spaces.Box(
            numpy.array(lows, numpy.float32), numpy.array(highs, numpy.float32), dtype=numpy.float32
        )
        mask = spaces.Box(0, 1, (self.table.space.size,), dtype=numpy.int8)
        self._observation_spaces = {
            name: spaces.Dict({"observation": tensor, "action_mask": mask})
            for name in self.possible_agents
        }
        self._action_spaces = {
            name: spaces.Discrete(self.table.space.size) for name in self.possible_agents
        }
        self._start()

    @property
    def game(self) -> Game[S, A]:
        """The game played."""
        return self.table.game

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of every agent: the tensor's Box and the mask's."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action numbers of the game's action space."""
        return self._action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {name: {} for name in self.agents}
        self._select()
        self._finish_if_over()

    def _select(self) -> None:
        actor = self.table.to_act
        if actor >= 0:
            self.agent_selection = self.possible_agents[actor]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def _finish_if_over(self) -> None:
        table = self.table
        if table.over:
            for name, payoff in zip(self.possible_agents, table.returns(), strict=True):
                self.rewards[name] = payoff
                self.terminations[name] = True
            self._accumulate_rewards()
        elif table.truncated:
            self.truncations = dict.fromkeys(self.agents, True)

    def reset(self, seed: int | None = None, options: Mapping[str, object] | None = None) -> None:
        """A new game; ``seed`` seeds the dice as :func:`byzantium.play` does (see
        :mod:`byzantium.envs`). ``options`` are ignored."""
        del options
        self.table.reset(seed)
        self._start()

    def observe(self, agent: str) -> Observation:
        """What ``agent`` may see now: his tensor and his action mask."""
        player = self._player[agent]
        return {
            "observation": numpy.array(self.table.tensor(player), numpy.float32),
            "action_mask": numpy.array(self.table.mask(player), numpy.int8),
        }

    def step(self, action: int | None) -> None:
        """The selected agent takes the action numbered ``action`` (None once he is
        terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: an action number, not None")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.table.play(int(action))
        self._select()
        self._finish_if_over()

    def render(self) -> str | None:
        """The state as text or SVG (``render_mode``), as an onlooker sees it."""
        if self.render_mode is None:
            return None
        return self.table.render(self.render_mode, None)

    def close(self) -> None:
        """Nothing to release."""


def env(
    name: str, render_mode: str | None = None, max_steps: int | None = None, **options: object
) -> AECGameEnv[object, object]:
    """The AEC environment of the game ``name`` with its options (see
    :func:`byzantium.load_game`)."""
    return AECGameEnv(load_game(name, **options), render_mode, max_steps)
