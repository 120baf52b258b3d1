"""The Belisarius rules engine: the :class:`~byzantium.core.game.Game` subclass.

``byzantium.load_game("belisarius", scenario=1)`` returns it. Player 0 is the Empire
player, player 1 the Barbarian player, whichever moves first in the scenario. The
options choose the scenario (34.1-34.3), the optional rules, whether a player may
capitulate (3.1) and (``components``) a directory of the user's own component files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, cached_property
from typing import ClassVar

import attrs

from byzantium.belisarius import actions as typed
from byzantium.belisarius import render as text_view
from byzantium.belisarius import tensor
from byzantium.belisarius.components import Components, load_components
from byzantium.belisarius.engine import Context, answer, settle
from byzantium.belisarius.events import event_task
from byzantium.belisarius.expert import expert_policy
from byzantium.belisarius.hexmap import HexMap, load_map
from byzantium.belisarius.observation import BelObservation, examines, observe, visible_action
from byzantium.belisarius.policy import sensible_policy
from byzantium.belisarius.render import render_state
from byzantium.belisarius.scenarios import Control, Scenario, load_scenarios, scenario_file_digest
from byzantium.belisarius.setup import initial_state
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Catalog,
    Done,
    Draw,
    Place,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.stratagems import draw_outcomes
from byzantium.belisarius.tallies import game_tallies
from byzantium.belisarius.validation import validate_state
from byzantium.belisarius.victory import game_result, victory_points
from byzantium.core.dice import dice
from byzantium.core.drivers import Policy
from byzantium.core.errors import UnknownOptionError
from byzantium.core.game import CHANCE, TERMINAL, Datum, Event, Game, OptionSpec, Result, Step
from byzantium.core.packs import find_pack
from byzantium.core.provenance import ComponentError, field_sources
from byzantium.core.registry import register_game
from byzantium.core.tensors import TensorLayout

__all__ = ["Belisarius"]


@cache
def _shipped() -> tuple[Components, HexMap]:
    components = load_components()
    return components, load_map()


@cache
def _dice(count: int) -> tuple[tuple[BelAction, Fraction], ...]:
    return tuple((Roll(faces), p) for faces, p in dice(count))


@register_game
class Belisarius(Game[BelState, BelAction]):
    """Belisarius, two players: the Empire (player 0) and the Barbarian (player 1)."""

    ID: ClassVar[str] = "belisarius"
    TITLE: ClassVar[str] = "Belisarius"
    NUM_PLAYERS: ClassVar[int] = 2
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("scenario", 1, "scenario of 34.1-34.3", (1, 2, 3)),
        OptionSpec("capitulation", True, "offer capitulation at each player turn (3.1)"),
        OptionSpec("pillage", False, "optional rule 26 (and 10.121): Pillage"),
        OptionSpec("public_works", False, "optional rule 28: Public Works markers"),
        OptionSpec("colonization", False, "optional rule 27 (and 10.34): Colonization"),
        OptionSpec("disbanding", False, "optional rule 30: unpaid units make a Disbanding check"),
        OptionSpec(
            "additional_placement",
            False,
            "optional rule 31: Mercenaries with a Leader, levied Warbands on Warbands",
        ),
        OptionSpec(
            "additional_attrition",
            False,
            "optional rule 32: Hordes and Warbands abroad disband worse (needs disbanding)",
        ),
        OptionSpec("negotiations", False, "optional rule 24 (and 10.37): Player Negotiations"),
        OptionSpec("reaction", False, "optional rule 25: Reaction with a Forced March marker"),
        OptionSpec("personal_combat", False, "optional rule 33: Personal Combat of Leaders"),
        OptionSpec(
            "personal_combat_refusal",
            False,
            "the 35.0 variant of rule 33: a side refusing Personal Combat loses its Leaders'"
            " value in that combat (with personal_combat)",
        ),
        OptionSpec("river_movement", False, "optional rule 29: Fleets move along rivers"),
        OptionSpec(
            "components",
            "",
            "the user's own component pack: a directory, or an installed pack's name",
        ),
    )
    STATE_TYPE: ClassVar[type] = BelState
    ACTION_TYPE: ClassVar[object] = BelAction
    SEQUENCE_RULE: ClassVar[str] = "3.1"

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        pack = str(self.options["components"])
        # A pack: a directory, or an installed package's entry point (byzantium.core.packs).
        directory = str(find_pack(pack).directory) if pack else ""
        #: The digest of the pack's scenario set-ups (none for the shipped data, whose
        #: digest records made before packs keep).
        self.scenarios_digest = ""
        if directory:
            components = load_components(directory)
            hexmap = load_map(directory)
            self.scenarios_digest = scenario_file_digest(directory)
        else:
            components, hexmap = _shipped()
        number = int(self.options["scenario"])
        scenarios = load_scenarios(directory or None, components=components, hex_map=hexmap)
        chosen = [s for s in scenarios if s.number == number]
        if not chosen:
            raise UnknownOptionError(f"the component files define no scenario {number}")
        _check_events(components, directory)
        self.scenario: Scenario = chosen[0]
        self.components = components
        self.map = hexmap
        self.catalog = Catalog(components, hexmap, self.scenario)
        self._space: typed.BelisariusActionSpace | None = None
        #: The context of every transition that keeps no events (the fast path of
        #: search): it holds the game and its options only, the same for all of them.
        self._quiet = Context(self, None)

    # -- contract ------------------------------------------------------------------

    def initial_state(self) -> BelState:
        ctx = Context(self, None)
        return settle(ctx, initial_state(ctx))

    def _current_player(self, state: BelState) -> int:
        """Who decides next: a player index, :data:`CHANCE` or :data:`TERMINAL`."""
        if type(state) is not BelState:  # the public method is this very function
            raise self.foreign_state(state)
        if state.ending is not None:
            return TERMINAL
        request = state.pending
        if request is None:
            raise RuntimeError("the procedure stopped without a request")  # pragma: no cover
        if request.kind is RequestKind.CHOOSE:
            return request.player
        return CHANCE

    #: Who decides next: :meth:`_current_player` itself rather than the generic
    #: method that calls it (a playout asks at every transition).
    current_player = _current_player

    def legal_actions(self, state: BelState) -> tuple[BelAction, ...]:
        """The actions that may be applied now. At a decision they are the options its
        request holds, given as they are (the tuple the generic listing would build and
        keep is that very tuple); at a chance node or the end, the generic listing."""
        if type(state) is not BelState:
            raise self.foreign_state(state)
        request = state.pending
        if state.ending is None and request is not None and request.kind is RequestKind.CHOOSE:
            return request.options
        return super().legal_actions(state)

    def chance_outcomes(self, state: BelState) -> tuple[tuple[BelAction, Fraction], ...]:
        """Outcomes of a chance node and their exact probabilities (empty elsewhere). A
        die roll's are the dice's one shared tuple, given as they are (the tuple the
        generic listing would keep is that very one); a draw's, the generic listing."""
        if type(state) is not BelState:
            raise self.foreign_state(state)
        request = state.pending
        if state.ending is None and request is not None and request.kind is RequestKind.ROLL:
            return _dice(request.dice)
        return super().chance_outcomes(state)

    def _player_actions(self, state: BelState) -> Sequence[BelAction]:
        assert state.pending is not None
        return state.pending.options

    def _chance_outcomes(self, state: BelState) -> Sequence[tuple[BelAction, Fraction]]:
        request = state.pending
        assert request is not None
        if request.kind is RequestKind.ROLL:
            return _dice(request.dice)
        counts = draw_outcomes(state, request.hand)
        total = sum(n for _, n in counts)
        ids = self.catalog.stratagem_ids
        return [(Draw(ids[k]), Fraction(n, total)) for k, n in counts]

    def _advance(self, state: BelState, action: BelAction, events: list[Event] | None) -> BelState:
        ctx = self._quiet
        if events is not None or ctx.options is not self.options:
            ctx = Context(self, events)
        return answer(ctx, state, action)

    # -- typed actions and the fixed action space (byzantium.belisarius.actions) ------

    def typed_action(self, state: BelState, action: BelAction) -> typed.TypedAction:
        """What ``action``, answering the request of ``state``, does: its typed record
        (see :mod:`byzantium.belisarius.actions`)."""
        return typed.classify(state, action)

    def action_for(self, state: BelState, record: typed.TypedAction) -> BelAction:
        """The legal action of ``state`` that ``record`` stands for; an
        :class:`~byzantium.core.errors.IllegalActionError` if none does."""
        return typed.engine_action(self, state, record)

    def visible_typed_action(
        self, state: BelState, action: BelAction, player: int
    ) -> typed.TypedAction | None:
        """The typed record of ``action`` as ``player`` may see it (22.1)."""
        return typed.visible_typed_action(self, state, action, player)

    def action_space(self) -> typed.BelisariusActionSpace:
        """Every decision numbered by its typed record, stable for a given map and
        components (:class:`~byzantium.belisarius.actions.BelisariusActionSpace`)."""
        space = self._space
        if space is None:
            space = self._space = typed.BelisariusActionSpace(self)
        return space

    def apply(self, state: BelState, action: BelAction | typed.TypedAction) -> BelState:
        """The state after ``action``: an engine action, or a typed record of one."""
        if isinstance(action, typed.TypedAction):
            action = self.action_for(state, action)
        return super().apply(state, action)

    def step(self, state: BelState, action: BelAction | typed.TypedAction) -> Step[BelState]:
        """Like :meth:`apply`, with the events of the transition."""
        if isinstance(action, typed.TypedAction):
            action = self.action_for(state, action)
        return super().step(state, action)

    def player_name(self, player: int) -> str:
        """``"Empire"`` for player 0, ``"Barbarian"`` for player 1."""
        return "Empire" if player == EMPIRE else "Barbarian"

    def describe_action(self, state: BelState, action: BelAction) -> str:
        request = state.pending
        prompt = f" ({request.prompt})" if request is not None else ""
        match action:
            case Roll(dice):
                return f"roll {' '.join(map(str, dice))}{prompt}"
            case Draw(stratagem):
                return f"draw {stratagem}{prompt}"
            case Select(item):
                return f"select {item}{prompt}"
            case Place(where):
                return f"place at {where}{prompt}"
            case Done():
                return f"done{prompt}"
        raise AssertionError(action)  # pragma: no cover

    def result(self, state: BelState) -> Result:
        """Victory Points and levels of both players (23.0-23.3), or a capitulation."""
        if state.ending is None:
            raise ValueError("the game is not over")
        return game_result(Context(self, None), state)

    def observation(self, state: BelState, player: int) -> BelObservation:
        """What ``player`` may see (22.0): the other's Stratagems and treasury hidden."""
        return observe(Context(self, None), state, player)

    @cached_property
    def _tensor_layout(self) -> TensorLayout:
        return tensor.layout(self)

    def observation_tensor_layout(self) -> TensorLayout:
        """A player's view as numbers (see :mod:`byzantium.belisarius.tensor`)."""
        return self._tensor_layout

    def observation_tensor(self, state: BelState, player: int) -> list[float]:
        """What ``player`` may see as numbers, built from :meth:`observation` (see
        :mod:`byzantium.belisarius.tensor`)."""
        return tensor.encode(self, self.observation(state, player))

    def returns(self, state: BelState) -> tuple[float, ...]:
        """+1 to the winner and -1 to the loser (0 each for a draw)."""
        result = self.result(state)
        if len(result.winners) != 1:
            return (0.0, 0.0)
        winner = result.winners[0]
        return tuple(1.0 if p == winner else -1.0 for p in (EMPIRE, BARBARIAN))

    def chronicle_heading(self, state: BelState, viewer: int | None = None) -> str:
        """The game turn and the phasing player, for a chronicle's headings; below, the
        treasuries, the Regions each side controls and the Victory Points it would
        score if the game ended there (23.1). A ``viewer`` reads the other's treasury
        only while he may examine it (22.1); otherwise it reads ``hidden``."""
        if state.turn < 1:
            return "== Set-up =="
        side = "Empire" if state.phasing == EMPIRE else "Barbarian"
        first_year = 527 + 4 * (state.turn - 1)
        held = {control: state.control.count(control) for control in Control}
        points = [f"{float(p):g}" for p in victory_points(Context(self, None), state)]
        shown = [
            str(state.solidus[p])
            if viewer is None or viewer == p or examines(state, viewer)
            else "hidden"
            for p in (EMPIRE, BARBARIAN)
        ]
        seen = "" if viewer is not None else _who_sees(state.revealed)
        return (
            f"== Game turn {state.turn} ({first_year}-{first_year + 3} AD), {side} player turn ==\n"
            f"   treasuries: Empire {shown[EMPIRE]}, Barbarian {shown[BARBARIAN]}{seen}\n"
            f"   Regions: Empire {held[Control.EMPIRE]}, Barbarian {held[Control.BARBARIAN]}, "
            f"Neutral {held[Control.NEUTRAL]}; Victory Points now: Empire {points[EMPIRE]}, "
            f"Barbarian {points[BARBARIAN]}"
        )

    def chronicle_detail(self, state: BelState) -> bool:
        """A set-up placement (34.0): a short chronicle sums them up by Region."""
        return text_view.is_setup_placement(state)

    def chronicle_digest(self, state: BelState) -> str:
        """The set-up by Region (see :func:`.render.setup_digest`)."""
        return text_view.setup_digest(self, state)

    def render(self, state: BelState, player: int | None = None) -> str:
        """A compact text view of the state (see :mod:`byzantium.belisarius.render`)."""
        return render_state(self, state, player)

    def describe_choice(self, state: BelState, action: BelAction, viewer: int | None = None) -> str:
        """An action in words for a person: names, hexes with their terrain and Region,
        costs (see :func:`byzantium.belisarius.render.describe_action`)."""
        return text_view.describe_action(self, state, action, viewer)

    def describe_decision(self, state: BelState, viewer: int | None = None) -> str:
        """The question in words, with the odds before standing or withdrawing (see
        :func:`byzantium.belisarius.render.describe_decision`); empty for a ``viewer``
        who is not the chooser (the prompt may quote the chooser's treasury, 22.1)."""
        return text_view.describe_decision(self, state, viewer)

    def decisive(self, event: Event) -> bool:
        """A Region changing sides (4.72, 19.x) or a City taken: the closing summary
        lists the last of them."""
        return event.kind == "control"

    def length_text(self, state: BelState) -> str:
        """The game turns played, with their years (game turn 1 is 527-530 AD)."""
        turns = "game turn" if state.turn == 1 else "game turns"
        return f"{state.turn} {turns}, 527-{530 + 4 * (state.turn - 1)} AD"

    def describe_event(self, event: Event) -> str:
        """The event with counters by name (see :func:`.render.describe_event`)."""
        return text_view.describe_event(self, event)

    def look(self, state: BelState, player: int | None, request: str) -> str | None:
        """``map [HEX]``, ``stack HEX``, ``stacks`` (see :func:`.render.look`)."""
        return text_view.look(self, state, player, request)

    def look_help(self) -> tuple[tuple[str, str], ...]:
        return text_view.LOOKS

    def visible_action(self, state: BelState, action: BelAction, player: int) -> BelAction | None:
        """The action as ``player`` may see it: the other's markers masked (22.1; see
        :func:`byzantium.belisarius.observation.visible_action`)."""
        return visible_action(self, state, action, player)

    def odds_visible(self, state: BelState, player: int) -> bool:
        """The odds of a die are public; those of a random Stratagem marker only when
        it comes from ``player``'s own hand or he may examine the other's (22.1): the
        Pool holds what the other's hand does not."""
        request = state.pending
        if request is None or request.kind is not RequestKind.DRAW:
            return True
        return request.hand == player or examines(state, player)

    def turn_of(self, state: BelState) -> int:
        """The game turn of a state."""
        return state.turn

    def tallies(self, state: BelState, events: Sequence[Event]) -> tuple[tuple[str, int], ...]:
        """What a simulation counts (see :mod:`byzantium.belisarius.tallies`)."""
        return game_tallies(self, state, events)

    def policies(self) -> Mapping[str, Policy[BelState, BelAction]]:
        """``sensible``: the built-in player of both seats (:mod:`byzantium.belisarius.policy`);
        ``expert``: a determinized search over its own information that plays it
        (:mod:`byzantium.belisarius.expert`)."""
        return {"sensible": sensible_policy(self), "expert": expert_policy(self)}

    def component_data(self) -> bytes:
        number = str(self.scenario.number)
        return (self.components.digest + self.map.digest + number + self.scenarios_digest).encode()

    def data_provenance(self) -> tuple[Datum, ...]:
        rows = [
            Datum(record, field, source.kind.value, source.ref)
            for record, field, source in self.components.provenance()
        ]
        rows += [
            Datum(record, "", source.kind.value, source.ref)
            for record, source in self.map.provenance()
        ]
        scenario = self.scenario
        label = f"scenario {scenario.number}"
        records: list[tuple[str, attrs.AttrsInstance]] = [(label, scenario)]
        for field in attrs.fields(Scenario):
            value = getattr(scenario, field.name)
            if isinstance(value, tuple):
                records += [
                    (f"{label} {field.name}[{i}]", item)
                    for i, item in enumerate(value)
                    if attrs.has(type(item))
                ]
        rows += [
            Datum(record, name, source.kind.value, source.ref)
            for label_, item in records
            for record, name, source in field_sources(label_, item)
        ]
        return tuple(rows)

    def _validate(self, state: BelState) -> None:
        """Every counter, marker and number in its place and range, and the pending
        request the one the procedure asks (see :mod:`byzantium.belisarius.validation`)."""
        validate_state(self, state)


def _who_sees(revealed: tuple[bool, ...]) -> str:
    """Which player may read the other's treasury (22.1), for the all-seeing heading."""
    if all(revealed):
        return " (each may see the other's)"
    if revealed[EMPIRE]:
        return " (the Empire may see the Barbarian's, not the reverse)"
    if revealed[BARBARIAN]:
        return " (the Barbarian may see the Empire's, not the reverse)"
    return " (each hidden from the other, 22.1)"


#: The events table's row where nothing happens.
NO_EVENT = "no-event"


def _check_events(components: Components, directory: str) -> None:
    """Refuse component files naming an event the rules engine does not carry out."""
    for row in components.events:
        if row.id != NO_EVENT and event_task(row.id) is None:
            file = f"{directory}/tables.toml" if directory else "tables.toml"
            raise ComponentError(file, f"events.{row.id}", "an event the rules do not know")
