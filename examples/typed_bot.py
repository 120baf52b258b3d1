"""A typed bot, written as the tutorial's game loop: ``mypy --strict`` checks it with no
cast, because ``load_game`` with a built-in game's id returns the game's own class,
whose states, actions and observations are typed.

Belisarius' bot reads its own treasury from its observation
(:class:`~byzantium.belisarius.observation.BelObservation`) and, while it is poor,
declines whatever it may decline; Sword of Orthodoxy's reads the Turn from its
observation (the state itself). Run it as ``python -m examples.typed_bot``.
"""

from __future__ import annotations

import random

import byzantium
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.observation import BelObservation
from byzantium.belisarius.state import BelAction, BelState, Done
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooAction, SooState

#: Below this treasury the Belisarius bot declines what it may decline.
POOR = 3


def frugal_choice(game: Belisarius, state: BelState, player: int, rng: random.Random) -> BelAction:
    """Decline when poor (and allowed to), otherwise a random legal action."""
    view: BelObservation = game.observation(state, player)
    legal = game.legal_actions(state)
    # A seat always reads its own treasury (only a spectator's view has none).
    if view.treasury is not None and view.treasury < POOR and Done() in legal:
        return Done()
    return rng.choice(legal)


def play_belisarius(seed: int, max_steps: int = 20_000) -> tuple[BelState, int]:
    """A game of scenario 1 between two frugal bots: the final state and its length."""
    game = byzantium.load_game("belisarius", scenario=1)
    rng = random.Random(seed)
    state = game.initial_state()
    steps = 0
    while steps < max_steps:
        actor = game.current_player(state)
        if actor == byzantium.TERMINAL:
            break
        if actor == byzantium.CHANCE:
            action = byzantium.sample(game.chance_outcomes(state), rng)
        else:
            action = frugal_choice(game, state, actor, rng)
        state = game.apply(state, action)
        steps += 1
    return state, steps


def early_bird(game: SwordOfOrthodoxy, state: SooState, rng: random.Random) -> SooAction:
    """The first offer in the first Turns, a random one later."""
    legal = game.legal_actions(state)
    return legal[0] if game.observation(state, 0).turn <= 2 else rng.choice(legal)


def play_sword(seed: int) -> SooState:
    """A game of Sword of Orthodoxy played by :func:`early_bird`."""
    game = byzantium.load_game("sword-of-orthodoxy")
    rng = random.Random(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.is_chance_node(state):
            state = game.apply(state, byzantium.sample(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, early_bird(game, state, rng))
    return state


def main() -> None:
    bel = byzantium.load_game("belisarius", scenario=1)
    final, steps = play_belisarius(seed=1)
    if bel.is_terminal(final):
        print(f"Belisarius: {bel.result(final).reason} after {steps} steps")
    soo = byzantium.load_game("sword-of-orthodoxy")
    print(f"Sword of Orthodoxy: {soo.result(play_sword(seed=1)).reason}")


if __name__ == "__main__":
    main()
