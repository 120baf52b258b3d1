"""One player of a game as a Gymnasium environment (``pip install 'byzantium[gymnasium]'``).

:class:`GymGameEnv` wraps any game with an action space and an observation tensor
for one agent, player ``player``; the other players, if any, are played inside the
environment by policies (``opponents``, the random policy by default), and chance by
the game's exact sampler. Sword of Orthodoxy, the solitaire game, needs no opponent.

The observation is a dict: ``"observation"``, the player's observation tensor as
float32, and ``"action_mask"``, int8 flags of the legal action numbers. The reward is
the game's return for the player when the game ends (0 before); ``info`` holds the
mask too, as ``"action_mask"``, for libraries that look for it there.

A number the mask does not allow ends the episode as a loss by default, as
PettingZoo's ``TerminateIllegalWrapper`` does: reward ``illegal_reward`` (-1, the
lowest return of both games), ``terminated`` set and ``info["illegal_action"]``
true, the state unchanged. With ``illegal_action="raise"`` it raises
:class:`~byzantium.core.errors.IllegalActionError`, naming the rule, instead.

Usage::

    import gymnasium
    import byzantium.envs.gymnasium_env  # registers the ids of GYMNASIUM_IDS

    soo = gymnasium.make("byzantium/SwordOfOrthodoxy-v0", render_mode="svg")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, SupportsFloat, SupportsInt, TypeVar, cast

from byzantium.core.drivers import Policy, random_policy
from byzantium.core.errors import ByzantiumError
from byzantium.core.game import Game
from byzantium.core.registry import load_game
from byzantium.envs.table import Table

try:
    import gymnasium
    import numpy
    from gymnasium import spaces
except ModuleNotFoundError as missing:  # pragma: no cover - the extra is optional
    raise ModuleNotFoundError(
        "byzantium.envs.gymnasium_env needs Gymnasium: pip install 'byzantium[gymnasium]'",
        name=missing.name,
    ) from missing

__all__ = ["GYMNASIUM_IDS", "GymGameEnv", "Observation", "env"]

S = TypeVar("S")
A = TypeVar("A")

#: The observation: the tensor and the action mask.
Observation = dict[str, numpy.ndarray[tuple[int], numpy.dtype[numpy.float32 | numpy.int8]]]


class GymGameEnv(gymnasium.Env[Observation, SupportsInt], Generic[S, A]):
    """A Gymnasium environment of player ``player`` of ``game`` (see the module
    documentation).

    ``opponents`` maps the other players to their policies (random by default);
    ``render_mode`` is None, ``"ansi"`` (the game's text view as the player sees it) or
    ``"svg"`` (:func:`byzantium.render.svg`, as the player sees it); ``max_steps``
    truncates an episode after that many decisions of all players.
    """

    metadata: dict[str, object] = {"render_modes": ["ansi", "svg"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: Game[S, A],
        player: int = 0,
        *,
        opponents: Mapping[int, Policy[S, A]] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self._illegal = False
        if not 0 <= player < game.NUM_PLAYERS:
            raise ValueError(f"{game.ID} has players 0 to {game.NUM_PLAYERS - 1}, not {player}")
        self.table: Table[S, A] = Table(game, max_steps)
        modes = self.table.render_modes()
        if render_mode is not None and render_mode not in modes:
            raise ValueError(
                f"render_mode must be one of {modes} for {game.ID}, not {render_mode!r}"
            )
        self.metadata = {"render_modes": modes, "render_fps": 1}
        self.render_mode = render_mode
        self.player = player
        others = opponents or {}
        self.opponents: dict[int, Policy[S, A]] = {
            p: others.get(p, random_policy) for p in range(game.NUM_PLAYERS) if p != player
        }
        lows, highs = self.table.layout.bounds()
        self.observation_space = cast(
            "spaces.Space[Observation]",
            spaces.Dict(
                {
                    "observation": spaces.Box(
                        numpy.array(lows, numpy.float32),
                        numpy.array(highs, numpy.float32),
                        dtype=numpy.float32,
                    ),
                    "action_mask": spaces.Box(0, 1, (self.table.space.size,), dtype=numpy.int8),
                }
            ),
        )
        self.action_space = spaces.Discrete(self.table.space.size)

    def _others_play(self) -> None:
        table = self.table
        while not table.over and not table.truncated and table.to_act != self.player:
            policy = self.opponents[table.to_act]
            table.play_action(policy(table.game, table.state, table.policy_rng))

    def _observation(self) -> Observation:
        return {
            "observation": numpy.array(self.table.tensor(self.player), numpy.float32),
            "action_mask": numpy.array(self.table.mask(self.player), numpy.int8),
        }

    def _info(self, observation: Observation) -> dict[str, object]:
        return {"action_mask": observation["action_mask"].copy()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, object] | None = None
    ) -> tuple[Observation, dict[str, object]]:
        """A new game, played on to the player's first decision; ``seed`` seeds the dice
        as :func:`byzantium.play` does (see :mod:`byzantium.envs`). ``options`` are
        ignored."""
        super().reset(seed=seed)
        del options
        self.table.reset(seed, lambda: int(self.np_random.integers(2**63)))
        self._illegal = False
        self._others_play()
        observation = self._observation()
        return observation, self._info(observation)

    def step(
        self, action: SupportsInt
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, object]]:
        """The player takes the action numbered ``action``; chance and the other players
        act until he must decide again or the game ends (see the module documentation
        for a number the mask does not allow)."""
        table = self.table
        number = int(action)
        if self.illegal_action == "terminate" and not self._illegal:
            legal = 0 <= number < table.space.size and table.mask(self.player)[number]
            if not legal and not table.over and not table.truncated:
                self._illegal = True
                observation = self._observation()
                info = {**self._info(observation), "illegal_action": True}
                return observation, self.illegal_reward, True, False, info
        if self._illegal:
            raise ByzantiumError(
                f"{table.game.ID}: the episode ended on an illegal action; reset the environment"
            )
        table.play(number)
        self._others_play()
        observation = self._observation()
        reward = self.table.returns()[self.player]
        return observation, reward, self.table.over, self.table.truncated, self._info(observation)

    def render(self) -> str | None:
        """The state as text or SVG (``render_mode``), as the player sees it."""
        if self.render_mode is None:
            return None
        return self.table.render(self.render_mode, self.player)


#: Gymnasium ids registered on import: ``gymnasium.make("byzantium/SwordOfOrthodoxy-v0")``.
GYMNASIUM_IDS: dict[str, str] = {
    "byzantium/SwordOfOrthodoxy-v0": "sword-of-orthodoxy",
    "byzantium/Belisarius-v0": "belisarius",
}


def env(
    name: str,
    player: int = 0,
    render_mode: str | None = None,
    max_steps: int | None = None,
    **options: object,
) -> GymGameEnv[object, object]:
    """The Gymnasium environment of player ``player`` of the game ``name`` with its
    options (see :func:`byzantium.load_game`); other players play at random."""
    game = load_game(name, **options)
    return GymGameEnv(game, player, render_mode=render_mode, max_steps=max_steps)


for _id, _name in GYMNASIUM_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=f"{__name__}:env", kwargs={"name": _name})
