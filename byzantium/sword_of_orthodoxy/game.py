"""The Sword of Orthodoxy rules engine: the :class:`~byzantium.core.game.Game` subclass.

``byzantium.load_game("sword-of-orthodoxy", scenario="campaign")`` returns it; the
options select the scenario, the optional rules, and (``components``) a directory
of the user's own component files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, cached_property, partial
from typing import ClassVar

from byzantium.core.dice import dice
from byzantium.core.drivers import Policy
from byzantium.core.errors import UnknownOptionError
from byzantium.core.game import CHANCE, TERMINAL, Datum, Event, Game, OptionSpec, Result, Step
from byzantium.core.packs import find_pack
from byzantium.core.provenance import ComponentError
from byzantium.core.registry import register_game
from byzantium.core.tensors import TensorLayout
from byzantium.sword_of_orthodoxy import render as text_view
from byzantium.sword_of_orthodoxy import tensor
from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.actions import (
    Decision,
    DecisionBase,
    EndActionPhase,
    Keep,
    SooActionSpace,
    classify,
    engine_action,
)
from byzantium.sword_of_orthodoxy.barbarians import ravenna_to_holy_roman_empire
from byzantium.sword_of_orthodoxy.components import (
    DATA_FILES,
    Components,
    TileKind,
    _read_files,
    load_components,
)
from byzantium.sword_of_orthodoxy.engine import (
    BoardMemo,
    Context,
    Offer,
    StandingRule,
    run_task,
    settle,
    with_pending,
)
from byzantium.sword_of_orthodoxy.expert import expert_policy
from byzantium.sword_of_orthodoxy.infrastructure import akritai_intercept
from byzantium.sword_of_orthodoxy.observation import SooObservation, observe
from byzantium.sword_of_orthodoxy.phases import PHASES
from byzantium.sword_of_orthodoxy.policy import sensible_policy
from byzantium.sword_of_orthodoxy.render import render_state
from byzantium.sword_of_orthodoxy.setup import initial_state
from byzantium.sword_of_orthodoxy.state import (
    Catalog,
    Decline,
    Draw,
    Pay,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.synopsis import POLITICAL_EVENTS
from byzantium.sword_of_orthodoxy.tallies import game_tallies
from byzantium.sword_of_orthodoxy.turn import NextTurn, TileDraw
from byzantium.sword_of_orthodoxy.turn_start import pope_leaves_with_italy
from byzantium.sword_of_orthodoxy.validation import validate_state
from byzantium.sword_of_orthodoxy.victory import victory_points
from byzantium.sword_of_orthodoxy.world import marker, tiles_on

__all__ = ["SwordOfOrthodoxy"]

_PLAYER = 0


@cache
def _shipped_components() -> Components:
    return load_components()


#: How many mug contents a game keeps the draw outcomes of before it starts afresh.
DRAWS_KEPT = 4096


@cache
def _dice(count: int) -> tuple[tuple[SooAction, Fraction], ...]:
    return tuple((Roll(faces), p) for faces, p in dice(count))


#: The last Turn: it ends in 1500 (12.3), Turn 1 being 421-460.
LAST_TURN = 27


@register_game
class SwordOfOrthodoxy(Game[SooState, SooAction]):
    """Sword of Orthodoxy, solitaire: the player is player 0."""

    ID: ClassVar[str] = "sword-of-orthodoxy"
    TITLE: ClassVar[str] = "Sword of Orthodoxy"
    NUM_PLAYERS: ClassVar[int] = 1
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("scenario", "campaign", "setup: Appendix A or E", ("campaign", "millennium")),
        OptionSpec("islam", False, "optional rule 5.2.3 Islam"),
        OptionSpec("red_dice", False, "optional rule 5.3.6: treat red die icons as white"),
        OptionSpec("round_letters", False, "optional rule 5.3.8: round-letter events"),
        OptionSpec("two_synopsis_rolls", False, "optional rule 8.2: separate rolls"),
        OptionSpec(
            "historical_patriarchs",
            False,
            "peer app option (6.3, 7.1, 10.9.1): each Turn's Patriarch is the historical one",
        ),
        OptionSpec(
            "justinian_civil_war",
            False,
            "peer app option (6.1.1, 5.1): a Civil War chit on Turn 3 challenges Justinian",
        ),
        OptionSpec(
            "italy_is_important",
            False,
            "peer app option (5.3.3, 6.4): after the Schism the Pope goes only with Italy",
        ),
        OptionSpec(
            "controlled_councils",
            False,
            "peer app option (4.1, 5.3.1): before each draw, call an Ecumenical Council or not",
        ),
        OptionSpec(
            "anatolian_plateau",
            False,
            "peer app option (11.3): Seljuk Colonists advance unrolled on the Persian Path only",
        ),
        OptionSpec(
            "armenian_revolt_dice",
            False,
            "peer app option (8.4.1): a 6 on a die per Muslim Thema crushes the Armenian Revolt",
        ),
        OptionSpec(
            "components",
            "",
            "the user's own component pack: a directory, or an installed pack's name",
        ),
    )
    STATE_TYPE: ClassVar[type] = SooState
    ACTION_TYPE: ClassVar[object] = SooAction
    SEQUENCE_RULE: ClassVar[str] = "C"
    #: Rules that apply "at any point", checked after every step (engine.settle).
    STANDING_RULES: ClassVar[tuple[StandingRule, ...]] = (ravenna_to_holy_roman_empire,)

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        pack = str(self.options["components"])
        # A pack: a directory, or an installed package's entry point (byzantium.core.packs).
        directory = str(find_pack(pack).directory) if pack else ""
        self.components = load_components(directory) if directory else _shipped_components()
        unknown = [
            e.name for e in self.components.political_events if e.name not in POLITICAL_EVENTS
        ]
        if unknown:
            file = f"{directory}/tables.toml" if directory else "tables.toml"
            raise ComponentError(file, "political_event", f"no rules for the event {unknown[0]!r}")
        if self.options["historical_patriarchs"] and not self.components.historical_patriarchs:
            file = f"{directory}/tables.toml" if directory else "tables.toml"
            raise ComponentError(file, "historical_patriarch", "the option needs this table")
        self.catalog = Catalog(self.components)
        #: The standing rules of this game: the game's, and those of its options.
        self.standing_rules: tuple[StandingRule, ...] = self.STANDING_RULES
        if self.options["italy_is_important"]:
            self.standing_rules += (pope_leaves_with_italy,)
        #: The last few Byzantine Action Phase menus, the last first: each with its
        #: state and its offers by item (see ``action_phase``).
        self.offers_memo: (
            tuple[tuple[SooState, tuple[Offer, ...], dict[str, Offer]], ...] | None
        ) = None
        self._space: SooActionSpace | None = None
        #: The outcomes of a draw from a mug (each tile in it equally likely), by the
        #: tiles in it: the same immutable tuple every time the mug holds the same
        #: tiles, built once, and weighed once by the sampler (``drivers.sample``).
        self._draws: dict[tuple[int, ...], tuple[tuple[SooAction, Fraction], ...]] = {}
        #: The answers of board queries for the last board (see ``engine.board_query``).
        self.board_memo = BoardMemo()
        #: The context of every transition that keeps no events (the fast path of
        #: search), the same for all of them: it holds the game, its options and the
        #: last board the standing rules found nothing to do on (``engine.settle``),
        #: which holds for any state with that very board, counters and Turn.
        self._quiet = Context(self, None)
        self._data = b"".join(_read_files(directory or None)[name] for name in DATA_FILES)
        scenario = str(self.options["scenario"])
        setup = next((s for s in self.components.scenarios if s.id == scenario), None)
        if setup is None:
            raise UnknownOptionError(f"the component files define no scenario {scenario!r}")
        #: Where the scenario's setup puts tiles: ``(tile id, space id)`` pairs.
        self.setup_placements = frozenset((p.tile, p.space) for p in setup.placements)

    # -- contract ------------------------------------------------------------------

    def initial_state(self) -> SooState:
        ctx = Context(self, None)
        return settle(ctx, initial_state(ctx, str(self.options["scenario"])))

    def _current_player(self, state: SooState) -> int:
        if state.ending is not None:
            return TERMINAL
        if state.pending is None:
            raise RuntimeError("the procedure stopped without a request")  # pragma: no cover
        if state.pending.kind is RequestKind.CHOOSE:
            return _PLAYER
        return CHANCE

    def _player_actions(self, state: SooState) -> Sequence[SooAction]:
        assert state.pending is not None
        return state.pending.options

    def _chance_outcomes(self, state: SooState) -> Sequence[tuple[SooAction, Fraction]]:
        request = state.pending
        assert request is not None
        if request.kind is RequestKind.ROLL:
            return _dice(request.dice)
        space = self.catalog.space(request.space)
        tiles = tuple(state.board.on(space))
        draws = self._draws.get(tiles)
        if draws is None:
            if not tiles:
                raise RuntimeError(f"rule {request.rule}: draw from an empty {request.space}")
            if len(self._draws) >= DRAWS_KEPT:
                self._draws.clear()
            p = Fraction(1, len(tiles))
            draws = self._draws[tiles] = tuple((Draw(self.catalog.tiles[i].id), p) for i in tiles)
        return draws

    def _advance(self, state: SooState, action: SooAction, events: list[Event] | None) -> SooState:
        request = state.pending
        assert request is not None
        ctx = self._quiet
        if events is not None or ctx.options is not self.options or ctx.memo is not self.board_memo:
            ctx = Context(self, events)
        state = with_pending(state, None)
        if request.path is not None and isinstance(action, Roll):
            adjusting = akritai_intercept(ctx, state, request, action)
            if adjusting is not None:
                return settle(ctx, adjusting)
        state = run_task(ctx, state, request.task, action)
        return settle(ctx, state)

    def describe_action(self, state: SooState, action: SooAction) -> str:
        prompt = f" ({state.pending.prompt})" if state.pending is not None else ""
        match action:
            case Roll(dice):
                return f"roll {' '.join(map(str, dice))}{prompt}"
            case Draw(tile):
                if tile not in self.catalog.tile_index:
                    return f"draw {tile!r}{prompt}"
                return f"draw {self.catalog.tiles[self.catalog.tile(tile)].name}{prompt}"
            case Pay(amount):
                return f"pay {amount} solidus{prompt}"
            case Select(item):
                return f"select {item}{prompt}"
            case Decline():
                return f"decline{prompt}"
        raise AssertionError(action)  # pragma: no cover

    def describe_choice(self, state: SooState, action: SooAction, viewer: int | None = None) -> str:
        """An action in words for a person: names and prices (see
        :func:`byzantium.sword_of_orthodoxy.render.describe_action`)."""
        del viewer  # solitaire: nothing to hide
        return text_view.describe_action(self, state, action)

    def decisive(self, event: Event) -> bool:
        """Sieges (9.6, 12.1) and Factions leaving or regaining Constantinople (11.6,
        10.12): a chronicle's closing summary lists them."""
        return event.kind in ("siege", "faction")

    def length_text(self, state: SooState) -> str:
        """The Turns played, with their years (Turn 1 is 421-460)."""
        turns = "Turn" if state.turn == 1 else "Turns"
        return f"{state.turn} {turns} of {LAST_TURN}, 421-{460 + 40 * (state.turn - 1)}"

    def describe_event(self, event: Event) -> str:
        """The event with tiles and spaces by name (see :func:`.render.describe_event`)."""
        return text_view.describe_event(self, event)

    def describe_decision(self, state: SooState, viewer: int | None = None) -> str:
        """The question in words (see :func:`.render.describe_decision`)."""
        del viewer  # solitaire: nothing to hide
        return text_view.describe_decision(self, state)

    def result(self, state: SooState) -> Result:
        """A Defeat (level ``"defeat"``, with its cause), or a victory measured by 12.3.

        A game that ends without a Defeat (after Turn 27, or with the Turn Chit mug
        empty) is won: its level is the band of its Victory Points, ``scores`` holds
        the total and ``breakdown`` the points of lines ① to ⑦.
        """
        ending = state.ending
        if ending is None:
            raise ValueError("the game is not over")
        if ending.defeat:
            return Result((), "defeat", ending.reason, ending.rule)
        points = victory_points(Context(self, None), state)
        reason = f"{ending.reason}: the Empire survives with {points.total} VP"
        return Result((_PLAYER,), points.level, reason, "12.3", (points.total,), points.lines)

    def returns(self, state: SooState) -> tuple[float, ...]:
        """The payoff of a finished game for search and learning code.

        A victory is worth its Victory Points divided by 100 (12.3 totals lie
        between -10 and 90, so between -0.1 and 0.9); a Defeat is worth -1, below
        any victory.
        """
        result = self.result(state)
        if not result.winners:
            return (-1.0,)
        return (result.scores[0] / 100,)

    def observation(self, state: SooState, player: int) -> SooObservation:
        """Everything: a solitaire game hides nothing (see
        :mod:`byzantium.sword_of_orthodoxy.observation`)."""
        return observe(state, player)

    @cached_property
    def _tensor_layout(self) -> TensorLayout:
        return tensor.layout(self)

    def observation_tensor_layout(self) -> TensorLayout:
        """The board as numbers (see :mod:`byzantium.sword_of_orthodoxy.tensor`)."""
        return self._tensor_layout

    def observation_tensor(self, state: SooState, player: int) -> list[float]:
        """The player's observation as numbers (see
        :mod:`byzantium.sword_of_orthodoxy.tensor`)."""
        return tensor.encode(self, self.observation(state, player))

    def render(self, state: SooState, player: int | None = None) -> str:
        """A compact text view of the state (see :mod:`byzantium.sword_of_orthodoxy.render`)."""
        return render_state(self, state, player)

    def turn_of(self, state: SooState) -> int:
        """The game turn of a state."""
        return state.turn

    def tallies(self, state: SooState, events: Sequence[Event]) -> tuple[tuple[str, int], ...]:
        """What a simulation counts (see :mod:`byzantium.sword_of_orthodoxy.tallies`)."""
        return game_tallies(self, state, events)

    def component_data(self) -> bytes:
        return self._data

    def policies(self) -> Mapping[str, Policy[SooState, SooAction]]:
        return {"sensible": sensible_policy(self), "expert": expert_policy(self)}

    def chronicle_heading(self, state: SooState, viewer: int | None = None) -> str:
        """The Turn, its years, and the tracks, for a chronicle's Turn headings (the
        game is solitaire: every reader sees everything)."""
        del viewer
        if state.turn < 1:
            return ""
        ctx = Context(self, None)
        first, last = 421 + 40 * (state.turn - 1), 460 + 40 * (state.turn - 1)
        factions = len(tiles_on(ctx, state, "constantinople", TileKind.FACTION))
        tracks = ", ".join(
            f"{label} {marker(ctx, state, name)}"
            for label, name in (("treasury $", "solidus"), ("Schism", "schism"), ("Niké", "nike"))
        )
        return (
            f"== Turn {state.turn} of {LAST_TURN} ({first}-{last}) ==\n"
            f"   {tracks}, Factions in Constantinople {factions}\n"
            f"   nearest threat: {text_view.nearest_threat(ctx, state)}"
        )

    def stage(self, state: SooState) -> str:
        """The Turn and its phase (Appendix C): ``Turn 3 of 27, Byzantine Action
        Phase``; ``Set-up`` before Turn 1."""
        if state.turn < 1:
            return "Set-up"
        return f"Turn {state.turn} of {LAST_TURN}, {phase_name(state)}"

    def status_line(self, state: SooState, viewer: int | None = None) -> str:
        """The Turn and its phase, the tracks and the nearest threat on one line (the
        game is solitaire: every reader sees everything)."""
        del viewer
        lines = self.chronicle_heading(state).splitlines()[1:]
        return " | ".join([self.stage(state), *(line.strip() for line in lines)])

    def caution(self, state: SooState, action: SooAction) -> str:
        """Ending the Byzantine Action Phase (10.0) gives up what is still affordable;
        banking less than the most the player may keep loses the difference (11.1)."""
        if self.current_player(state) != 0:
            return ""
        decision = classify(self, state, action)
        if isinstance(decision, EndActionPhase) and len(self.legal_actions(state)) > 1:
            return "ends the Action Phase: nothing more is bought this Turn (10.0)"
        if isinstance(decision, Keep):
            most = max(
                kept.amount
                for kept in map(partial(classify, self, state), self.legal_actions(state))
                if isinstance(kept, Keep)
            )
            if decision.amount < most:
                return f"keeps {decision.amount} $ where {most} $ may be kept (11.1)"
        return ""

    def data_provenance(self) -> tuple[Datum, ...]:
        return tuple(
            Datum(record, field, source.kind.value, source.ref)
            for record, field, source in self.components.provenance()
        )

    def _validate(self, state: SooState) -> None:
        """Every tile in one place and on its track, and the pending request the one the
        procedure asks (see :mod:`byzantium.sword_of_orthodoxy.validation`)."""
        validate_state(self, state)

    # -- typed actions and the fixed action space (actions.py) ---------------------------

    def action_space(self) -> SooActionSpace:
        """The fixed numbering of every decision (:class:`.actions.SooActionSpace`)."""
        space = self._space
        if space is None:
            space = self._space = SooActionSpace(self)
        return space

    def typed_action(self, state: SooState, action: SooAction) -> Decision:
        """What a legal player action of ``state`` does, as a typed record
        (:mod:`byzantium.sword_of_orthodoxy.actions`).

        Raises :class:`ValueError` for a chance outcome or an action no rule offers.
        """
        return classify(self, state, action)

    def action_for(self, state: SooState, decision: Decision) -> SooAction:
        """The engine action of ``state`` a typed record stands for.

        Raises :class:`~byzantium.core.errors.IllegalActionError` if it is not offered.
        """
        return engine_action(self, state, decision)

    def apply(self, state: SooState, action: SooAction | Decision) -> SooState:
        """Like :meth:`Game.apply <byzantium.core.game.Game.apply>`; a typed record
        (:mod:`.actions`) is accepted too and applied as :meth:`action_for` says."""
        if isinstance(action, DecisionBase):
            action = self.action_for(state, action)
        return super().apply(state, action)

    def step(self, state: SooState, action: SooAction | Decision) -> Step[SooState]:
        """Like :meth:`Game.step <byzantium.core.game.Game.step>`, accepting typed records."""
        if isinstance(action, DecisionBase):
            action = self.action_for(state, action)
        return super().step(state, action)


#: The phases of a Turn in order (Appendix C), with their names in the rulebook.
_PHASE_NAMES: tuple[tuple[type[Task], str], ...] = tuple(
    zip(
        (TileDraw, *PHASES),
        (
            "Tile Draw Phase",
            "Turn Start Phase",
            "Leadership Phase",
            "Tax Phase",
            "Chronicle Synopsis Phase",
            "Barbarian Phase",
            "Byzantine Action Phase",
            "End of Turn Phase",
        ),
        strict=True,
    )
)


def phase_name(state: SooState) -> str:
    """The phase of the Turn a state is in (Appendix C).

    The phase whose own question is pending; otherwise the one before the next phase
    left on the task stack. The Byzantine Action Phase puts itself back on the stack
    while one of its actions is carried out, so with it next on the stack a question
    of the Barbarian Phase (chapter 9) is the Barbarian Phase's and any other is the
    Action Phase's.
    """
    kinds = [kind for kind, _ in _PHASE_NAMES]
    pending = state.pending
    if pending is not None and type(pending.task) in kinds:
        return _PHASE_NAMES[kinds.index(type(pending.task))][1]
    for task in reversed(state.stack):
        if type(task) in kinds:
            index = kinds.index(type(task))
            chapter = pending.rule.split(".", 1)[0] if pending is not None else ""
            if type(task) is ActionPhase and chapter != "9":
                return _PHASE_NAMES[index][1]
            return _PHASE_NAMES[max(index - 1, 0)][1]
        if isinstance(task, NextTurn):
            break
    return _PHASE_NAMES[-1][1]
