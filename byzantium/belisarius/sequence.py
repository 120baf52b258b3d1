"""The Sequence of Play (3.0, 3.1): game turns, player turns and their phases.

Each game turn has two player turns, the scenario's first player's and then the
other's; each player turn runs its phases in the order of 3.1: Random Events,
Diplomacy, Taxation, Recruiting, Levy, Operations, Provisioning. The end of the game
turn advances the turn; after the scenario's last turn the game ends and Victory
Points decide (23.0). A player may also capitulate at the start of his player turn
(3.1c), unless the ``capitulation`` option turns that choice off. With the
``negotiations`` option a negotiation window (24.0) opens before the Random Events
and the Operations Phases, and the promises of the turn are checked at its end.
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import Side
from byzantium.belisarius.diplomacy import DiplomacyPhase
from byzantium.belisarius.engine import Context, ask_choice, end_game, push
from byzantium.belisarius.events import RandomEventsPhase
from byzantium.belisarius.levy import LevyPhase
from byzantium.belisarius.negotiations import WINDOWS, KeepPromises, Negotiations
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.provisioning import ProvisioningPhase
from byzantium.belisarius.recruiting import RecruitingPhase
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Select,
    Task,
    opponent,
)
from byzantium.belisarius.taxation import TaxationPhase
from byzantium.core.procedure import replace_fields

__all__ = ["PHASES", "EndOfGameTurn", "EnterPhase", "GameTurn", "PlayerTurn", "first_player"]

#: The phases of a player turn in order (3.1), with the task that runs each.
PHASES: tuple[tuple[str, type[Task]], ...] = (
    ("random events", RandomEventsPhase),
    ("diplomacy", DiplomacyPhase),
    ("taxation", TaxationPhase),
    ("recruiting", RecruitingPhase),
    ("levy", LevyPhase),
    ("operations", OperationsPhase),
    ("provisioning", ProvisioningPhase),
)

CAPITULATE = "capitulate"


def first_player(ctx: Context) -> int:
    """The player whose player turn opens each game turn (the scenario says, 34.x)."""
    return EMPIRE if ctx.cat.scenario.first_player is Side.EMPIRE else BARBARIAN


@attrs.frozen
class GameTurn(Task):
    """Game turn ``turn``: both player turns, then the end of the turn (3.1)."""

    turn: int

    @RULES.implements("3.0", "3.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        first = first_player(ctx)
        ctx.log("3.1", f"Game turn {self.turn} begins", "turn")
        state = replace_fields(state, turn=self.turn)
        closing: tuple[Task, ...] = (KeepPromises(),) if ctx.option("negotiations") else ()
        turns = (PlayerTurn(first), PlayerTurn(opponent(first)))
        return push(state, *turns, *closing, EndOfGameTurn())


@attrs.frozen
class PlayerTurn(Task):
    """One player's turn: the phases of 3.1 in order (a, b).

    The rulebook's list for the second player stops at Operations; we give both
    players a Provisioning Phase (see the rulings page, 3.1).
    """

    player: int

    @RULES.implements("3.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if isinstance(answer, Select) and answer.item == CAPITULATE:
            side = "the Empire" if self.player == EMPIRE else "the Barbarian"
            return end_game(ctx, state, "3.1", f"{side} capitulates", capitulated=self.player)
        if answer is None:
            state = replace_fields(state, phasing=self.player, barred=frozenset(), boxed=())
            if ctx.option("capitulation"):
                return ask_choice(
                    state,
                    self,
                    self.player,
                    "3.1",
                    "play on, or capitulate",
                    (Done(), Select(CAPITULATE)),
                )
        negotiating = ctx.option("negotiations")
        tasks: list[Task] = []
        for name, _ in PHASES:
            if negotiating and name in WINDOWS:
                tasks.append(Negotiations(name))  # 24.0: a negotiation window
            tasks.append(EnterPhase(name))
        return push(state, *tasks)


@attrs.frozen
class EnterPhase(Task):
    """Start a phase of the phasing player's turn: mark it, then run its procedure."""

    name: str

    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        task = dict(PHASES)[self.name]
        ctx.log("3.1", f"{self.name.capitalize()} Phase", "phase")
        return push(replace_fields(state, phase=self.name), task())


@attrs.frozen
class EndOfGameTurn(Task):
    """The end of a game turn (3.1c): the next turn, or the end of the scenario."""

    @RULES.implements("3.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        state = attrs.evolve(state, revealed=(False, False), phase="end of turn")
        if state.turn >= ctx.cat.scenario.last_turn:
            return end_game(ctx, state, "23.0", f"the scenario ends after game turn {state.turn}")
        return push(state, GameTurn(state.turn + 1))
