"""Pictures of game states: :func:`svg` draws any state of either game as an SVG.

Pure Python (``xml.etree``), no browser and no network. A perspective (a player
index) draws only what that player may see, from the game's own observation.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

from byzantium.core.drivers import chance_policy, random_policy
from byzantium.core.errors import ArgumentError, ByzantiumError
from byzantium.core.game import CHANCE, Game

__all__ = ["after_setup", "svg"]

S = TypeVar("S")
A = TypeVar("A")

#: Phase name of a state still in its set-up (Belisarius places its counters by
#: decisions, 34.0).
SETUP_PHASE = "setup"


def after_setup(game: Game[S, A], seed: int = 1, *, max_steps: int = 10_000) -> S:
    """The first state after the set-up's own decisions, made by the game's seeded
    ``sensible`` player (the random one where the game has none): the deployed set-up,
    the picture a person expects of a scenario. A game whose set-up asks nothing
    (Sword of Orthodoxy) gives its initial state."""
    rng = random.Random(seed)
    player = game.policies().get("sensible", random_policy)
    state = game.initial_state()
    for _ in range(max_steps):
        if getattr(state, "phase", None) != SETUP_PHASE or game.is_terminal(state):
            break
        policy = chance_policy if game.current_player(state) == CHANCE else player
        state = game.apply(state, policy(game, state, rng))
    return state


def svg(
    game: Game[S, A],
    state: S,
    perspective: int | None = None,
    *,
    highlight: Iterable[str | int] = (),
    last_move: Iterable[str | int] = (),
    reachable_for: tuple[int, ...] | None = None,
    zoc: bool = False,
) -> str:
    """The state as an SVG document (a string).

    ``highlight`` and ``last_move`` name spaces (Sword of Orthodoxy space ids) or
    hexes (Belisarius hex numbers) to mark; ``reachable_for`` a Belisarius force
    (counter indexes, all in one hex) whose reachable hexes to shade (the force of the
    pending movement when empty); ``zoc`` shades the enemy Zones of Control of the
    player to act.
    """
    if not isinstance(game, Game):
        raise ArgumentError(f"a game is needed, not {repr(game)[:60]}")
    game.check_state(state)
    if perspective is not None:
        game.check_player(perspective)
    if game.ID == "sword-of-orthodoxy":
        from byzantium.render import sword  # noqa: PLC0415 - load one game only

        return sword.draw(
            game,
            state,
            highlight={str(h) for h in highlight},
            last_move={str(h) for h in last_move},
        )
    if game.ID == "belisarius":
        from byzantium.render import belisarius  # noqa: PLC0415 - load one game only

        return belisarius.draw(
            game,
            state,
            perspective,
            highlight={int(h) for h in highlight},
            last_move={int(h) for h in last_move},
            reachable_for=reachable_for,
            zoc=zoc,
        )
    raise ByzantiumError(f"no picture for the game {game.ID!r}")
