"""Reaction, an optional rule (25.0-25.2, and the exception to 17.21).

With the ``reaction`` option on, each time the phasing player has finished with one
of his forces in his Operations Phase, the non-phasing player may answer with one
force of his own: he spends a Forced March Stratagem marker, picks the force (formed
and trimmed as usual, 13.23) and it carries out one standard operation: an
Operations Points roll, then moves and attacks while the points last. In its
battles the reacting force is the attacker and the phasing player defends (17.21's
exception). Then the phasing player goes on with his next force (25.1).

The machinery is that of the Operations Phase (:class:`.operations.OperationsPhase`
with ``reaction`` set, whose operating player is the non-phasing one). This module
holds the offer: who may react, the question, and the payment. Rulings (see the
rulings page):

* the Reaction is one force's whole operation with the points of its one roll, and
  it ends there: the marker paid for it is not a Forced March, so there is no
  attrition roll (16.71), and no Forced March may extend it;
* a counter that has reacted (been in a reacting force when it rolled) may not react
  again in that Operations Phase; each player is the non-phasing one in exactly one
  Operations Phase a game turn, so that is once a game turn (25.2). It still
  operates as usual in its own player turn;
* the player is asked while he holds any Stratagem marker and has a counter free to
  react, whether or not one of his markers is a Forced March (without one he may
  only decline): who is asked is public, what he holds is not (22.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from byzantium.belisarius import RULES
from byzantium.belisarius.engine import Context, ask_choice, push
from byzantium.belisarius.state import BelAction, BelState, Done, Select, Task, opponent
from byzantium.belisarius.stratagems import may_offer, play, playable

__all__ = [
    "FORCED_MARCH",
    "REACT",
    "Reactors",
    "can_pay",
    "may_react",
    "offer_reaction",
    "reaction_options",
]

#: The Stratagem marker a Reaction costs (the Forced March of 16.7).
FORCED_MARCH = "forced-march"
#: The prefix of the item naming the location of the reacting force.
REACT = "react "

#: Builds the reacting force's operation from the force and its location.
ReactionBuilder = Callable[[tuple[int, ...], int], Task]
#: The forces free to react, by the label of their menu item (``"3623"`` for the land
#: force of a hex, ``"fleet 3623"`` for its fleet force): (counters, location).
Reactors = Mapping[str, tuple[tuple[int, ...], int]]


@RULES.implements("25.0", "25.1", "22.1")
def may_react(ctx: Context, state: BelState) -> bool:
    """Whether the non-phasing player is asked about a Reaction now: the option is on
    and he holds any marker (25.0, 25.1). Whether one is a Forced March, and so
    whether he may pay, shows only in his options (22.1, :func:`can_pay`)."""
    return ctx.option("reaction") and may_offer(ctx, state, opponent(state.phasing), FORCED_MARCH)


def can_pay(ctx: Context, state: BelState) -> bool:
    """Whether the non-phasing player holds the Forced March marker a Reaction costs."""
    return playable(ctx, state, opponent(state.phasing), FORCED_MARCH)


@RULES.implements("25.1", "25.2")
def reaction_options(forces: Reactors) -> list[BelAction]:
    """The menu of the Reaction question: no Reaction (Done, first), or a land or fleet
    force of counters that have not reacted yet (25.1, 25.2)."""
    options: list[BelAction] = [Done()]
    options += [Select(f"{REACT}{label}") for label in forces]
    return options


@RULES.implements("25.1", "25.2", "17.21")
def offer_reaction(  # noqa: PLR0917 - the question, its menu and both ways on
    ctx: Context,
    state: BelState,
    answer: BelAction | None,
    task: Task,
    forces: Reactors,
    react: ReactionBuilder,
    go_on: Task,
) -> BelState:
    """The phasing player has finished with a force: the non-phasing player may react.

    ``task`` asks (and gets the answer back); ``forces`` are the non-phasing player's
    land and fleet forces free to react (empty when he may not be asked, see
    :func:`may_react`). Without a Forced March marker he is asked all the same and
    may only let the enemy go on (22.1). On a Reaction the Forced March marker is
    spent and ``react`` builds the force's operation, to run before ``go_on``, the
    phasing player's Operations Phase going on (25.1). The reacting force is the
    attacker of its battles (the exception to 17.21).
    """
    player = opponent(state.phasing)
    if isinstance(answer, Select):
        force, where = forces[answer.item.removeprefix(REACT)]
        state = play(ctx, state, player, FORCED_MARCH, "25.1")
        ctx.log("25.1", f"Reaction: the force at {where} operates", "reaction")
        return push(state, react(force, where))
    if isinstance(answer, Done) or not forces:
        return push(state, go_on)
    return ask_choice(
        state,
        task,
        player,
        "25.1",
        "react with a force (spending a Forced March marker), or let the enemy go on",
        reaction_options(forces if can_pay(ctx, state) else {}),
    )
