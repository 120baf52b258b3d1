"""The programs of ``examples/`` run (mypy --strict checks them with the rest)."""

from __future__ import annotations

import byzantium
from examples.typed_bot import POOR, frugal_choice, play_belisarius, play_sword


def test_the_typed_bot_plays_whole_games_of_both() -> None:
    final, steps = play_belisarius(seed=1)
    game = byzantium.load_game("belisarius", scenario=1)
    assert game.is_terminal(final) and steps > 0
    sword = byzantium.load_game("sword-of-orthodoxy")
    assert sword.is_terminal(play_sword(seed=2))


def test_the_typed_bot_reads_its_own_treasury() -> None:
    """Poor, it declines what it may decline; rich, it plays on."""
    import random

    import attrs

    from byzantium.belisarius.state import Done

    game = byzantium.load_game("belisarius", scenario=1, capitulation=True)
    state = game.initial_state()
    while game.is_chance_node(state) or Done() not in game.legal_actions(state):
        state = game.apply(state, byzantium.random_policy(game, state, random.Random(0)))
    player = game.current_player(state)
    poor = attrs.evolve(state, solidus=(0, 0))
    assert frugal_choice(game, poor, player, random.Random(0)) == Done()
    rich = attrs.evolve(state, solidus=(POOR + 50, POOR + 50))
    picks = {frugal_choice(game, rich, player, random.Random(s)) for s in range(30)}
    assert len(picks) > 1 or len(game.legal_actions(state)) == 1
