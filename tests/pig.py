"""Pig: a tiny dice game used only to test the kernel.

Two players race to a target score. On your turn you roll a die as often as you
like, adding each face to a turn total; a 1 wipes the turn total and passes the
turn, holding banks it. The rules are numbered in ``pig_rules.toml`` so the
traceability machinery can be tested on a complete, fully traced game.

Importing this module registers the game (id ``"pig"``) and its rule book.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

import attrs

from byzantium.core.dice import d6
from byzantium.core.errors import IllegalActionError, RuleIndexError
from byzantium.core.game import CHANCE, TERMINAL, Event, Game, OptionSpec, Result
from byzantium.core.registry import register_game
from byzantium.core.rules import RuleBook, get_rulebook, register_rulebook
from byzantium.core.spaces import ActionSpace
from byzantium.core.tensors import Segment, TensorLayout, TensorWriter, one_hot

INDEX = Path(__file__).with_name("pig_rules.toml")


def _rulebook() -> RuleBook:
    try:
        return get_rulebook("pig")
    except RuleIndexError:
        return register_rulebook(RuleBook.from_file(INDEX, package=None))


PIG = _rulebook()


@attrs.frozen
class PigState:
    """Banked scores, the running turn total, who is to move, and whether a die is due."""

    scores: tuple[int, int] = (0, 0)
    turn_total: int = 0
    to_move: int = 0
    awaiting_die: bool = False


@attrs.frozen
class Hold:
    """Bank the turn total (rule 2.4)."""


@attrs.frozen
class RollDie:
    """Roll the die again (rule 2.1)."""


@attrs.frozen
class Face:
    """Chance outcome: the die shows ``value``."""

    value: int


PigAction = Hold | RollDie | Face

_FACES: tuple[tuple[PigAction, Fraction], ...] = tuple((Face(face), p) for face, p in d6())


@PIG.implements("1.1")
def opening_state() -> PigState:
    """Two players, no points, the first player to move."""
    return PigState()


@PIG.implements("2.1")
def choices(state: PigState) -> tuple[PigAction, ...]:
    """On a turn the player may hold or roll, whatever the turn total."""
    del state
    return (Hold(), RollDie())


@PIG.implements("2.2", "2.3")
def resolve_face(state: PigState, face: int, events: list[Event] | None) -> PigState:
    """A one loses the turn total and passes the turn; other faces add to it."""
    player = state.to_move
    if face == 1:
        if events is not None:
            events.append(
                Event("2.2", f"player {player} rolls a 1 and loses {state.turn_total}", "roll")
            )
        return PigState(state.scores, 0, 1 - player, False)
    total = state.turn_total + face
    if events is not None:
        events.append(Event("2.3", f"player {player} rolls {face}: turn total {total}", "roll"))
    return PigState(state.scores, total, player, False)


@PIG.implements("2.4")
def bank(state: PigState, events: list[Event] | None) -> PigState:
    """Holding adds the turn total to the player's score and passes the turn."""
    player = state.to_move
    scores = list(state.scores)
    scores[player] += state.turn_total
    if events is not None:
        events.append(
            Event("2.4", f"player {player} banks {state.turn_total}: score {scores[player]}")
        )
    return PigState((scores[0], scores[1]), 0, 1 - player, False)


@PIG.implements("3.1", "3.1#2")
def winner(state: PigState, target: int) -> int | None:
    """The player whose banked score reached the target (the option), if any."""
    for player, score in enumerate(state.scores):
        if score >= target:
            return player
    return None


class PigSpace(ActionSpace[PigState, PigAction]):
    """Pig's two decisions: 0 holds, 1 rolls."""

    _ORDER: ClassVar[tuple[type, ...]] = (Hold, RollDie)

    @property
    def size(self) -> int:
        return len(self._ORDER)

    def index(self, state: PigState, action: PigAction) -> int:
        del state
        return self._ORDER.index(type(action))

    def label(self, index: int) -> str:
        return ("hold", "roll")[index]


#: Pig's observation tensor: everything is public.
PIG_TENSOR = TensorLayout(
    (
        Segment("scores", (2,), "banked scores of players 0 and 1", 0, math.inf),
        Segment("turn total", (1,), "the running turn total", 0, math.inf),
        Segment("to move", (2,), "one-hot: the player whose turn it is"),
        Segment("awaiting die", (1,), "1 while the die is rolling"),
    )
)


@register_game
class PigGame(Game[PigState, PigAction]):
    """The rules engine of Pig."""

    ID: ClassVar[str] = "pig"
    TITLE: ClassVar[str] = "Pig"
    NUM_PLAYERS: ClassVar[int] = 2
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", 20, "score that wins (rule 3.1#2)", (10, 20, 50, 100)),
    )
    STATE_TYPE: ClassVar[type] = PigState
    ACTION_TYPE: ClassVar[object] = PigAction
    SEQUENCE_RULE: ClassVar[str] = "2.1"

    @property
    def target(self) -> int:
        """The winning score."""
        value = self.options["target"]
        assert isinstance(value, int)
        return value

    def initial_state(self) -> PigState:
        return opening_state()

    def _current_player(self, state: PigState) -> int:
        if winner(state, self.target) is not None:
            return TERMINAL
        return CHANCE if state.awaiting_die else state.to_move

    def _player_actions(self, state: PigState) -> Sequence[PigAction]:
        return choices(state)

    def _chance_outcomes(self, state: PigState) -> Sequence[tuple[PigAction, Fraction]]:
        return _FACES

    def _advance(self, state: PigState, action: PigAction, events: list[Event] | None) -> PigState:
        if isinstance(action, Face):
            return resolve_face(state, action.value, events)
        if isinstance(action, Hold):
            return bank(state, events)
        if events is not None:
            events.append(Event("2.1", f"player {state.to_move} rolls", "decision"))
        return PigState(state.scores, state.turn_total, state.to_move, True)

    def illegal(self, state: PigState, action: PigAction, reason: str) -> IllegalActionError:
        if self.is_terminal(state):
            rule = "3.1"
        elif isinstance(action, Face) or state.awaiting_die:
            rule = "2.2"
        else:
            rule = "2.1"
        return IllegalActionError(
            rule, f"{self.describe_action(state, action)}: {reason}", game=self.ID
        )

    def describe_action(self, state: PigState, action: PigAction) -> str:
        del state
        match action:
            case Face(value):
                return f"die shows {value}"
            case Hold():
                return "hold"
            case RollDie():
                return "roll"
        raise AssertionError(action)  # pragma: no cover

    def result(self, state: PigState) -> Result:
        champion = winner(state, self.target)
        if champion is None:
            raise ValueError("the game is not over")
        return Result(
            winners=(champion,),
            level="win",
            reason=f"player {champion} reached {self.target} points",
            rule="3.1",
            scores=state.scores,
        )

    def action_space(self) -> PigSpace:
        return PigSpace(self)

    def observation(self, state: PigState, player: int) -> PigState:
        del player
        return state

    def observation_tensor_layout(self) -> TensorLayout:
        return PIG_TENSOR

    def observation_tensor(self, state: PigState, player: int) -> list[float]:
        seen = self.observation(state, player)
        return (
            TensorWriter(PIG_TENSOR)
            .put("scores", seen.scores)
            .put("turn total", [seen.turn_total])
            .put("to move", one_hot(seen.to_move, 2))
            .put("awaiting die", [seen.awaiting_die])
            .values()
        )

    def component_data(self) -> bytes:
        return INDEX.read_bytes()
