"""Sword of Orthodoxy figures beyond the playout loop: the Byzantine Action Phase menu.

Issue 16 asks for random playouts at 0.2 of backgammon's transitions per second. In
Sword of Orthodoxy the largest single cost of a playout is building the Action
Phase menu (10.0: every purchase, attack and mission the player may take now),
which happens each time the phase asks again. This module plays the same seeded
random games as the playout loop (:func:`~benchmarks.harness.playout`, seeds 0,
1, 2...) with every menu that is built (not the second look-up of a kept one)
timed on its own, and reports:

* how many menus were built and what one costs on average;
* the share of the playout's time they take;
* the rate the playout would reach if menus cost nothing: the upper bound of
  anything done to the menu alone.

The timing wraps :func:`byzantium.sword_of_orthodoxy.action_phase._menu` for the
length of the measurement (and puts it back afterwards): the games are the same,
only a clock is read around each menu. Nothing here asserts anything about time:
the functions measure and return numbers.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import random
import time
from collections.abc import Iterator

from benchmarks.harness import byzantium_subject, playout
from byzantium.core.registry import load_game
from byzantium.sword_of_orthodoxy import action_phase
from byzantium.sword_of_orthodoxy.engine import Context, Offer
from byzantium.sword_of_orthodoxy.state import SooState

__all__ = ["MenuFigures", "measure_menus"]


@dataclasses.dataclass(frozen=True)
class MenuFigures:
    """The Action Phase menu figures of one run (the best of its rounds)."""

    games: int
    transitions: int
    menus: int
    #: The whole playout time, and the part of it spent building menus.
    seconds: float
    menu_seconds: float

    @property
    def menu_us(self) -> float:
        """Microseconds to build one menu, on average."""
        return 1e6 * self.menu_seconds / self.menus if self.menus else 0.0

    @property
    def share(self) -> float:
        """The share of the playout's time spent building menus."""
        return self.menu_seconds / self.seconds if self.seconds else 0.0

    @property
    def transitions_per_second(self) -> float:
        """The playout's transitions per second, menus included (the clock reads too)."""
        return self.transitions / self.seconds

    @property
    def without_menus(self) -> float:
        """Transitions per second if every menu cost nothing."""
        return self.transitions / (self.seconds - self.menu_seconds)


@contextlib.contextmanager
def _timed_menus() -> Iterator[list[float]]:
    """Time every menu built while the block runs: ``[seconds, menus]``."""
    built = action_phase._menu
    kept: list[float] = [0.0, 0.0]
    clock = time.perf_counter

    def timed(ctx: Context, state: SooState) -> tuple[tuple[Offer, ...], dict[str, Offer]]:
        before = ctx.game.offers_memo
        start = clock()
        found = built(ctx, state)
        spent = clock() - start
        if ctx.game.offers_memo is not before:  # a menu was built (and kept) this call
            kept[0] += spent
            kept[1] += 1
        return found

    action_phase._menu = timed
    try:
        yield kept
    finally:
        action_phase._menu = built


def measure_menus(seconds: float = 3.0, rounds: int = 3) -> MenuFigures:
    """Seeded random Campaign games for ``seconds / rounds`` a round, every menu timed;
    the round with the highest rate counts."""
    subject = byzantium_subject("sword-of-orthodoxy", load_game("sword-of-orthodoxy"))
    playout(subject, random.Random(0))  # warm up the caches
    best: MenuFigures | None = None
    for _ in range(rounds):
        gc.collect()
        with _timed_menus() as kept:
            games = steps = 0
            start = time.perf_counter()
            elapsed = 0.0
            while elapsed < seconds / rounds:
                steps += playout(subject, random.Random(games))
                games += 1
                elapsed = time.perf_counter() - start
        found = MenuFigures(games, steps, int(kept[1]), elapsed, kept[0])
        if best is None or found.transitions_per_second > best.transitions_per_second:
            best = found
    assert best is not None
    return best
