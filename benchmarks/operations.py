"""Belisarius figures of issue 8 beyond the playout loop: the Operations Phase.

* **Reachable hexes**: :func:`byzantium.belisarius.movement.reachable` for a force of one
  counter in mid-map (hex 3623) with 20 Operations Points, the query behind every
  movement menu and the one a frontend calls to shade a force's range.
* **Operations menus**: in seeded random games, every transition that ends at a
  decision of the Operations Phase (which force, which counters to leave out, where
  to step, whom to attack, or stop) is timed on its own: that transition is where the
  menu of legal actions is built, so its time is the cost of generating the legal
  actions there. The busiest tenth of these menus (by number of actions) is reported
  apart.

Nothing here asserts anything about time: the functions measure and return numbers.
"""

from __future__ import annotations

import dataclasses
import random
import time

import attrs

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.movement import reachable
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.state import AVAILABLE, BelState
from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.core.registry import load_game

__all__ = ["OperationsFigures", "measure_operations", "operations_menus", "reachable_hexes"]

#: The mid-map hex and the points of the reachable-hexes figure.
MID_MAP = 3623
POINTS = 20


@dataclasses.dataclass(frozen=True)
class OperationsFigures:
    """The Operations Phase figures of one run."""

    reachable_us: float
    reachable_places: int
    menus: int
    menu_us: float
    menu_actions: float
    busy_menu_us: float
    busy_menu_actions: float


def _game() -> Belisarius:
    game = load_game("belisarius", scenario=1, capitulation=False)
    assert isinstance(game, Belisarius)
    return game


def reachable_hexes(game: Belisarius, calls: int = 200) -> tuple[float, int]:
    """Microseconds per :func:`reachable` call for a one-counter force at hex 3623 with
    20 points, and how many places it reaches."""
    cat = game.catalog
    state = game.initial_state()
    unit = next(u for u in cat.of_nationality("thracia") if state.units.where[u] == AVAILABLE)
    state = attrs.evolve(state, units=state.units.move(unit, MID_MAP))
    places = len(reachable(cat, state, (unit,), MID_MAP, POINTS))
    clock = time.perf_counter
    start = clock()
    for _ in range(calls):
        reachable(cat, state, (unit,), MID_MAP, POINTS)
    return 1e6 * (clock() - start) / calls, places


def _is_operations_menu(state: BelState) -> bool:
    pending = state.pending
    return pending is not None and isinstance(pending.task, OperationsPhase)


def operations_menus(game: Belisarius, min_menus: int) -> list[tuple[float, int]]:
    """(seconds, number of actions) of every transition into an Operations Phase menu,
    in random games with seeds 0, 1... until ``min_menus`` were seen."""
    clock = time.perf_counter
    found: list[tuple[float, int]] = []
    seed = 0
    while len(found) < min_menus and seed < 200:
        rng = random.Random(seed)
        state = game.initial_state()
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            start = clock()
            state = game.apply(state, action)
            spent = clock() - start
            if _is_operations_menu(state):
                found.append((spent, len(game.legal_actions(state))))
        seed += 1
    return found


def measure_operations(min_menus: int = 300) -> OperationsFigures:
    """Every figure of this module."""
    game = _game()
    reach_us, places = reachable_hexes(game)
    menus = operations_menus(game, min_menus)
    if not menus:
        return OperationsFigures(reach_us, places, 0, 0.0, 0.0, 0.0, 0.0)
    busy = sorted(menus, key=lambda m: m[1], reverse=True)[: max(1, len(menus) // 10)]
    return OperationsFigures(
        reachable_us=reach_us,
        reachable_places=places,
        menus=len(menus),
        menu_us=1e6 * sum(s for s, _ in menus) / len(menus),
        menu_actions=sum(n for _, n in menus) / len(menus),
        busy_menu_us=1e6 * sum(s for s, _ in busy) / len(busy),
        busy_menu_actions=sum(n for _, n in busy) / len(busy),
    )
