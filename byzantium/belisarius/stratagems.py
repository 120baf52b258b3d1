"""Stratagem markers (8.0-8.5): the Pool, picking at random, the hand limit, losses.

Markers are counted per type: the Pool and each player's hand are tuples of counts in
the catalogue's order (:class:`~byzantium.belisarius.state.Stratagems`). Picking from
the Pool and losing markers at random from a hand are chance nodes whose outcomes
are the marker types, each as likely as the markers of it that are there.

The procedures here are tasks other rules push: :class:`PickStratagems` (a scenario's
initial draw, events, purchases, combat gains) and :class:`LoseStratagems` (events,
combat losses, 8.51).
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import Phase
from byzantium.belisarius.engine import Context, ask_choice, ask_draw, push
from byzantium.belisarius.state import (
    NOBODY,
    BelAction,
    BelState,
    Done,
    Draw,
    Select,
    Stratagems,
    Task,
)
from byzantium.core.procedure import replace_fields

__all__ = [
    "LoseStratagems",
    "PickStratagems",
    "ReturnStratagem",
    "hand_limit",
    "in_season",
    "initial_pool",
    "may_offer",
    "offered",
    "play",
    "playable",
]


@RULES.implements("8.0", "8.1")
def initial_pool(ctx: Context) -> Stratagems:
    """Every marker in the Pool, both hands empty (8.1)."""
    pool = tuple(s.count for s in ctx.cat.components.stratagems)
    empty = tuple(0 for _ in pool)
    return Stratagems(pool, (empty, empty))


def hand_limit(ctx: Context) -> int:
    """The most markers a player may hold (8.3)."""
    return ctx.cat.components.constant("stratagem-hand-limit")


@RULES.implements("8.42", "9.2")
def play(ctx: Context, state: BelState, player: int, stratagem: str, rule: str) -> BelState:
    """A player spends a marker of his hand: it goes back to the Pool (8.42, 9.2)."""
    kind = ctx.cat.stratagem(stratagem)
    ctx.log(rule, f"{_name(ctx, player)} plays {stratagem}", "stratagem")
    return replace_fields(state, stratagems=state.stratagems.transfer(kind, player, False))


def _name(ctx: Context, player: int) -> str:
    del ctx
    return "the Empire" if player == 0 else "the Barbarian"


@attrs.frozen
class PickStratagems(Task):
    """``player`` picks ``count`` markers at random from the Pool (8.1, 8.2).

    If that would take him over 15 markers he first chooses either to return markers
    of his choice to the Pool to make room, or to leave the excess (8.3). Markers run
    out with the Pool.
    """

    player: int
    count: int
    rule: str
    #: Set once the 8.3 question has been settled.
    room_checked: bool = False

    @RULES.implements("8.1", "8.2", "8.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.count <= 0:
            return state
        if isinstance(answer, Draw):
            kind = ctx.cat.stratagem(answer.stratagem)
            ctx.log(self.rule, f"{_name(ctx, self.player)} picks a Stratagem marker", "draw")
            state = replace_fields(
                state, stratagems=state.stratagems.transfer(kind, self.player, True)
            )
            return push(state, replace_fields(self, count=self.count - 1))
        limit = hand_limit(ctx)
        held = state.stratagems.held(self.player)
        if not self.room_checked and held + self.count > limit and held > 0:
            if isinstance(answer, Select):
                return push(
                    state,
                    ReturnStratagem(self.player, held + self.count - limit),
                    attrs.evolve(self, room_checked=True),
                )
            if isinstance(answer, Done):
                room = max(0, limit - held)
                return push(state, attrs.evolve(self, count=room, room_checked=True))
            return ask_choice(
                state,
                self,
                self.player,
                "8.3",
                f"picking {self.count} would pass {limit} markers: return some first or "
                "leave the excess",
                (Done(), Select("return markers first")),
            )
        if held >= limit or not any(state.stratagems.pool):
            return state
        return ask_draw(state, self, self.rule, "pick a Stratagem marker from the Pool")


@attrs.frozen
class ReturnStratagem(Task):
    """``player`` returns ``count`` markers of his choice to the Pool unplayed (8.3)."""

    player: int
    count: int

    @RULES.implements("8.3")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.count <= 0 or state.stratagems.held(self.player) == 0:
            return state
        if isinstance(answer, Select):
            kind = ctx.cat.stratagem(answer.item)
            state = attrs.evolve(
                state, stratagems=state.stratagems.transfer(kind, self.player, False)
            )
            ctx.log("8.3", f"{_name(ctx, self.player)} returns a marker to the Pool", "return")
            return push(state, attrs.evolve(self, count=self.count - 1))
        hand = state.stratagems.hands[self.player]
        options = [Select(ctx.cat.stratagem_ids[k]) for k, n in enumerate(hand) if n]
        return ask_choice(
            state, self, self.player, "8.3", "return a Stratagem marker to the Pool", options
        )


@attrs.frozen
class LoseStratagems(Task):
    """``player`` loses ``count`` markers picked at random from his hand (8.5, 8.51).

    With fewer markers than that he loses them all; with none, nothing happens.
    """

    player: int
    count: int
    rule: str

    @RULES.implements("8.5", "8.51")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if isinstance(answer, Draw):
            kind = ctx.cat.stratagem(answer.stratagem)
            state = attrs.evolve(
                state, stratagems=state.stratagems.transfer(kind, self.player, False)
            )
            ctx.log(self.rule, f"{_name(ctx, self.player)} loses a Stratagem marker", "lose")
            return push(state, attrs.evolve(self, count=self.count - 1))
        if self.count <= 0 or state.stratagems.held(self.player) == 0:
            return state
        return ask_draw(
            state, self, self.rule, "a Stratagem marker lost at random", hand=self.player
        )


def draw_outcomes(state: BelState, hand: int) -> list[tuple[int, int]]:
    """(type index, markers) of what a random pick can give: the Pool or a hand."""
    counts = state.stratagems.pool if hand == NOBODY else state.stratagems.hands[hand]
    return [(k, n) for k, n in enumerate(counts) if n]


#: The phase names of the sequence of play (3.1) each Stratagem timing refers to.
_PHASE_NAMES = {
    Phase.RANDOM_EVENTS: "random events",
    Phase.DIPLOMACY: "diplomacy",
    Phase.TAXATION: "taxation",
    Phase.RECRUITING: "recruiting",
    Phase.LEVY: "levy",
    Phase.OPERATIONS: "operations",
    Phase.COMBAT: "operations",
}


@RULES.implements("8.4", "8.41", "8.43")
def playable(ctx: Context, state: BelState, player: int, stratagem: str) -> bool:
    """Whether ``player`` may play a marker of this type now (8.4, 8.41).

    He must hold one, and the chart's timing must allow it (:func:`in_season`). Any
    number may be played, at no Operations Points cost (8.43).
    """
    kind = ctx.cat.stratagem_index.get(stratagem)
    if kind is None or state.stratagems.hands[player][kind] == 0:
        return False
    return in_season(ctx, state, player, stratagem)


@RULES.implements("8.41")
def in_season(ctx: Context, state: BelState, player: int, stratagem: str) -> bool:
    """Whether the Stratagem chart's timing lets ``player`` play a marker of this type
    now, whatever he holds (8.41): the chart fixes the phase (combat markers during
    Operations), and only markers the chart allows may be played in the enemy's
    player turn. A type the component files do not define is never in season."""
    kind = ctx.cat.stratagem_index.get(stratagem)
    if kind is None:
        return False
    record = ctx.cat.components.stratagems[kind]
    if _PHASE_NAMES[record.phase] != state.phase:
        return False
    return state.phasing == player or record.enemy_turn


# -- asking without telling (22.1) ------------------------------------------------------------
#
# Who is asked, and under which rule, is public: the other player sees it (the
# observation shows the pending request's player, kind and rule, and an OpenSpiel
# state's current player is everybody's to read). A question about playing a marker
# must therefore be put whenever the public situation allows the play, whatever the
# hand holds: a player without the marker is asked all the same and may only decline
# (Done). What he holds decides only the options, which only he sees.


@RULES.implements("22.1", "8.41")
def may_offer(ctx: Context, state: BelState, player: int, stratagem: str) -> bool:
    """Whether to ask ``player`` if he plays a marker of this type now (22.1).

    Only what the other player may know decides: the chart's timing
    (:func:`in_season`) and whether his hand holds any marker at all (its size is
    public, :class:`~byzantium.belisarius.observation.BelObservation`), never which
    markers it holds. Whether he may actually play one is :func:`playable`, and
    shows only in the options (:func:`offered`).
    """
    return state.stratagems.held(player) > 0 and in_season(ctx, state, player, stratagem)


def offered(
    ctx: Context, state: BelState, player: int, stratagem: str, *items: BelAction
) -> list[BelAction]:
    """The options ``items`` that play a marker of this type, if ``player`` may play one
    now (:func:`playable`), else none: a question put by :func:`may_offer` then
    offers only the decline."""
    return list(items) if playable(ctx, state, player, stratagem) else []
