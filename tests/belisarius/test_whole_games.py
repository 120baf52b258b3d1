"""Complete games: every scenario, with the optional rules off and all on, from set-up to
the end of its last game turn.

Each game is played by the seeded drivers (:func:`byzantium.play`), both seats under
random legal actions (:func:`random_play`) or both under the built-in ``sensible``
policy. Every
state passed through keeps the physical game's invariants (:func:`check_state`):
every counter somewhere legal, treasuries never negative, every Stratagem marker in
the Pool or a hand, no hex over the stacking limit at any moment. The
game ends by the calendar with a result consistent with the Victory Points, and its
JSON record replays, step by step, to the identical final state.

"All on" is built from :attr:`Belisarius.OPTIONS`: every boolean option but
``capitulation`` (so optional rules added later are played here too).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import settings

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.negotiations import END_GAME
from byzantium.belisarius.state import FIRST_HEX, NOBODY, BelAction, BelState, Select
from byzantium.core.drivers import Policy, play
from byzantium.core.game import Game, Step
from byzantium.core.records import check_record, dumps_record, loads_record
from tests.belisarius.support import SCENARIOS, belisarius, check_invariants
from tests.belisarius.test_play import check_end

RULEBOOK = "belisarius"


def optional_rules(on: bool) -> dict[str, bool]:
    """Every boolean option of the game but ``capitulation``, set to ``on``."""
    return {
        spec.name: on
        for spec in Belisarius.OPTIONS
        if isinstance(spec.default, bool) and spec.name != "capitulation"
    }


#: The option sets played: no optional rule, every optional rule.
OPTION_SETS = {"optional-off": optional_rules(False), "optional-on": optional_rules(True)}
#: The seeds each (scenario, option set, policy) plays: one by default (a different
#: one per option set, so every scenario meets two seeds under each policy), three
#: under the long ``nightly`` Hypothesis profile.
DEEP = settings().max_examples > 100
SEEDS = {"optional-off": (1, 3, 5) if DEEP else (1,), "optional-on": (2, 4, 6) if DEEP else (2,)}
RUNS = [
    (options, policy, seed)
    for options, seeds in SEEDS.items()
    for policy in ("random", "sensible")
    for seed in seeds
]


def check_state(game: Belisarius, state: BelState) -> None:
    """The invariants of :func:`.support.check_invariants`, and stacking (13.1): no hex
    holds more than the limit at any moment, a force under way or a retreat included
    (13.1 holds at any time: a force never passes through a stack it could not
    join)."""
    check_invariants(game, state)
    limit = game.catalog.constant("stacking-limit")
    places = Counter(state.units.where[u] for u in state.units.in_play())
    crowded = {where: n for where, n in places.items() if where >= FIRST_HEX and n > limit}
    assert not crowded, f"over the stacking limit: {crowded}"


def random_play(game: Game[BelState, BelAction], state: BelState, rng: random.Random) -> BelAction:
    """Uniformly random legal actions, except that nobody proposes to end the game by
    agreement (optional rule 24), so that games reach their last turn."""
    actions = game.legal_actions(state)
    return rng.choice([a for a in actions if a != Select(END_GAME)] or actions)


def game_for(
    scenario: int, options: str, policy: str
) -> tuple[Belisarius, Policy[BelState, BelAction]]:
    """The game and the policy of a run; the sensible player is offered capitulation
    (the command line's default) and must never take it."""
    if policy == "random":
        return belisarius(scenario, **OPTION_SETS[options]), random_play
    game = belisarius(scenario, capitulation=True, **OPTION_SETS[options])
    return game, game.policies()["sensible"]


@pytest.mark.rule("3.0", "3.1", "23.0", "23.3", "8.0", "8.3", "11.6", "13.1", "10.14", "34.0")
@pytest.mark.parametrize(("options", "policy", "seed"), RUNS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_whole_game_keeps_the_invariants_ends_and_replays(
    scenario: int, options: str, policy: str, seed: int
) -> None:
    game, chosen = game_for(scenario, options, policy)
    state = game.initial_state()
    check_state(game, state)
    last = [state]

    def hook(before: BelState, actor: int, action: BelAction, step: Step[BelState]) -> None:
        del before, actor, action
        check_state(game, step.state)
        last[0] = step.state

    record = play(game, chosen, seed=seed, on_step=hook, digests=False)
    final = last[0]
    assert game.is_terminal(final)
    ending = final.ending
    assert ending is not None
    assert ending.capitulated == NOBODY and ending.rule == "23.0"
    assert final.turn == game.scenario.last_turn
    check_end(game, final)
    # The JSON record replays, step by step, to the identical final state.
    again_game, again = loads_record(dumps_record(game, record))
    assert again == record
    checked = check_record(again_game, again)
    assert checked.ok, checked.error
    assert checked.state == final
    assert again_game.state_digest(checked.state) == record.final
