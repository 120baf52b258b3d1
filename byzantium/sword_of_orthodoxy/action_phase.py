"""Chapter 10, the Byzantine Action Phase: a menu of actions, in any order, until ended.

Each group of actions lives in its own module and lists what the player may do now
(:class:`~byzantium.sword_of_orthodoxy.engine.Offer`); the phase offers them all,
after the choice to end the phase, and comes back after each action (10.0: actions
in any order, repeated as long as they can be paid for).
"""

from __future__ import annotations

import functools
from itertools import chain
from operator import attrgetter

import attrs

from byzantium.sword_of_orthodoxy import (
    RULES,
    battles,
    infrastructure,
    missions,
    outposts,
    statecraft,
)
from byzantium.sword_of_orthodoxy.engine import Context, Offer, ask_menu, push, run_task
from byzantium.sword_of_orthodoxy.state import Decline, Select, SooAction, SooState, Task

__all__ = ["ActionPhase", "all_offers"]

_DECLINE = Decline()
#: The groups of actions, in the order the menu lists them.
GROUPS = (outposts, infrastructure, battles, missions, statecraft)


def all_offers(ctx: Context, state: SooState) -> tuple[Offer, ...]:
    """Every action the player may take now, in a fixed order.

    The phase lists them twice for each decision: to ask, and again to carry out the
    answer, in a state made of the same parts. The game keeps the last few lists,
    with their states, so that the second listing costs nothing, even when the menus
    of the position's children were listed in between (a search does that).
    """
    return _menu(ctx, state)[0]


#: How many Action Phase menus a game keeps (:func:`_menu`): a search lists a
#: position's menu, then its children's, then carries out the next answer of the
#: position, which needs its menu again.
MENUS_KEPT = 4


def _menu(ctx: Context, state: SooState) -> tuple[tuple[Offer, ...], dict[str, Offer]]:
    """:func:`all_offers`, and the offers by item (kept together with the state)."""
    memo = ctx.game.offers_memo
    if memo is not None:
        for kept in memo:
            if _same_parts(kept[0], state):
                return kept[1], kept[2]
    found = tuple(chain.from_iterable(group.offers(ctx, state) for group in GROUPS))
    by_item = dict(zip(map(_ITEM, found), found, strict=True))
    if len(by_item) != len(found):  # pragma: no cover - a programming error
        raise RuntimeError(f"two actions share a name: {[offer.item for offer in found]}")
    ctx.game.offers_memo = ((state, found, by_item), *(memo or ())[: MENUS_KEPT - 1])
    return found, by_item


_ITEM = attrgetter("item")


class _Selects(dict[str, Select]):
    """The answer choosing each item, made on first use: an immutable record, so one
    serves every menu (``_SELECTS[item]``)."""

    def __missing__(self, item: str) -> Select:
        found = self[item] = Select(item)
        return found


_SELECTS = _Selects()


def _options(ctx: Context, state: SooState) -> tuple[SooAction, ...]:
    """The menu of the phase: ending it first, then every action, in their order."""
    return (_DECLINE, *map(_SELECTS.__getitem__, _menu(ctx, state)[1]))


def _same_parts(one: SooState, other: SooState) -> bool:
    """Whether two states are made of the very same (immutable) parts, hence equal."""
    return (
        one.board is other.board
        and one.stack is other.stack
        and one.pending is other.pending
        and one.done is other.done
        and one.counters is other.counters
        and one.ending is other.ending
        and one.turn == other.turn
    )


@attrs.frozen
class ActionPhase(Task):
    """The Byzantine Action Phase: choose an action, or end the phase."""

    @RULES.implements("10.0")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            # The menu is built when it is first read (engine.ask_menu).
            menu = functools.partial(_options, ctx, state)
            return ask_menu(state, self, "10.0", "Byzantine Action Phase", menu)
        if isinstance(answer, Decline):
            ctx.log("10.0", "the Byzantine Action Phase ends", "phase")
            return state
        assert isinstance(answer, Select)
        _, by_item = _menu(ctx, state)
        # The action is carried out at once, with the phase on the stack to come back
        # after it: what pushing both and popping the action would do, without the
        # copy of the state in between.
        return run_task(ctx, push(state, _PHASE), by_item[answer.item].task, None)


#: The phase as a task (an immutable record: one serves every push).
_PHASE = ActionPhase()
