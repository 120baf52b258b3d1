"""The game table under the learning environments: pure Python, no extra needed.

A :class:`Table` holds one game in progress for an environment: it lets chance act
(sampling each chance node with its exact probabilities from a seeded stream) until a
player must decide or the game is over, and gives every player his observation
tensor and action mask. Actions are the numbers of the game's fixed action space.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Generic, TypeVar

from byzantium.core.drivers import sample
from byzantium.core.errors import ByzantiumError
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.core.spaces import ActionSpace

__all__ = ["RENDER_MODES", "Table", "agent_name"]

S = TypeVar("S")
A = TypeVar("A")

#: What ``render()`` may give: text (``"ansi"``) or an SVG picture (``"svg"``, for the
#: games :func:`byzantium.render.svg` draws).
RENDER_MODES: tuple[str, ...] = ("ansi", "svg")
#: The games :func:`byzantium.render.svg` draws.
PICTURED_GAMES = frozenset({"sword-of-orthodoxy", "belisarius"})


def agent_name(game: Game[S, A], player: int) -> str:
    """An agent's name: the player's name, lower case, words joined by ``_``
    (``"empire"``, ``"barbarian"``, ``"player_0"``)."""
    return re.sub(r"\W+", "_", game.player_name(player).strip().lower())


class Table(Generic[S, A]):
    """One game in progress for an environment.

    ``max_steps`` bounds the decisions of one game (:attr:`truncated` is then set);
    None plays every game to its end. Raises :class:`NotImplementedError` for a game
    without an action space or without an observation tensor.
    """

    def __init__(self, game: Game[S, A], max_steps: int | None = None) -> None:
        self.game = game
        self.space: ActionSpace[S, A] = game.action_space()
        self.layout = game.observation_tensor_layout()
        self.max_steps = max_steps
        self.chance_rng = random.Random("byzantium:0:chance")
        self.policy_rng = random.Random("byzantium:0:policy")
        self._seeded = False
        self.decisions = 0
        self.state: S = self._settle(game.initial_state())

    # -- the game ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, fresh: Callable[[], int] | None = None) -> None:
        """A new game. ``seed`` restarts both streams as :func:`~byzantium.core.drivers.play`
        seeds them; without one, the streams play on (seeded first by ``fresh()`` when
        they never were)."""
        if seed is None and not self._seeded:
            seed = fresh() if fresh is not None else random.SystemRandom().randrange(2**63)
        if seed is not None:
            self.chance_rng = random.Random(f"byzantium:{seed}:chance")
            self.policy_rng = random.Random(f"byzantium:{seed}:policy")
            self._seeded = True
        self.decisions = 0
        self.state = self._settle(self.game.initial_state())

    def _settle(self, state: S) -> S:
        game = self.game
        while game.current_player(state) == CHANCE:
            state = game.apply(state, sample(game.chance_outcomes(state), self.chance_rng))
        return state

    @property
    def to_act(self) -> int:
        """The player who must decide, or :data:`~byzantium.core.game.TERMINAL`."""
        return self.game.current_player(self.state)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.to_act == TERMINAL

    @property
    def truncated(self) -> bool:
        """Whether the game was cut short at ``max_steps`` decisions."""
        return not self.over and self.max_steps is not None and self.decisions >= self.max_steps

    def play(self, index: int) -> None:
        """The player to act takes the action numbered ``index``; chance acts after it.

        Raises :class:`~byzantium.core.errors.IllegalActionError` (naming the rule) for a
        number that is not legal now, :class:`~byzantium.core.errors.ByzantiumError`
        once the game is over.
        """
        if self.over or self.truncated:
            why = "over" if self.over else f"cut short at {self.max_steps} decisions"
            raise ByzantiumError(f"{self.game.ID}: the game is {why}; reset the environment")
        action = self.space.action(self.state, index)
        self.state = self._settle(self.game.apply(self.state, action))
        self.decisions += 1

    def play_action(self, action: A) -> None:
        """Like :meth:`play`, with the action itself (for policies of other players)."""
        self.play(self.space.index(self.state, action))

    def returns(self) -> tuple[float, ...]:
        """Each player's payoff: the game's returns once it is over, zeros before."""
        if not self.over:
            return tuple(0.0 for _ in range(self.game.NUM_PLAYERS))
        return self.game.returns(self.state)

    # -- what a player sees --------------------------------------------------------------

    def tensor(self, player: int) -> list[float]:
        """``player``'s observation tensor of the current state."""
        return self.game.observation_tensor(self.state, player)

    def mask(self, player: int) -> list[bool]:
        """``player``'s action mask: the legal numbers when he is to act, none otherwise."""
        if self.to_act != player or self.truncated:
            return [False] * self.space.size
        return self.space.mask(self.state)

    def render(self, mode: str, perspective: int | None) -> str:
        """The state as text (``"ansi"``) or an SVG picture (``"svg"``), as
        ``perspective`` may see it (everything when None)."""
        if mode == "svg":
            from byzantium.render import svg  # noqa: PLC0415 - only when pictures are asked

            return svg(self.game, self.state, perspective)
        return self.game.render(self.state, perspective)

    def render_modes(self) -> list[str]:
        """The render modes this game supports."""
        return [m for m in RENDER_MODES if m != "svg" or self.game.ID in PICTURED_GAMES]
