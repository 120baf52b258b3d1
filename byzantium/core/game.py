"""The contract every game implements, and the records it hands back.

A game is a set of pure functions over immutable states. The node type of a state
says who must decide next:

* a player index (``0``, ``1``...): that player picks one of ``legal_actions``;
* :data:`CHANCE`: the dice or a cup decide; ``chance_outcomes`` gives every outcome
  with its exact probability, and applying one of them *forces* that roll;
* :data:`TERMINAL`: the game is over and ``result`` says how.

Subclasses implement four protected hooks (``_current_player``,
``_player_actions``, ``_chance_outcomes``, ``_advance``) plus ``result``; the public
methods add the checks and the bookkeeping that every game needs in the same way.

Every public method checks that it is given a state of this game (and, where it
takes one, a player index of the game): a state of another game, ``None`` or a value
of another type is an :class:`~byzantium.core.errors.InvalidStateError`, a bad player
index an :class:`~byzantium.core.errors.ArgumentError`, never a Python error from
inside the rules. The check is one type comparison; the methods a game overrides are
checked by :meth:`Game.__init_subclass__`, which wraps them.

Search and simulation code has a fast path: :meth:`Game.apply_unchecked` applies an
action taken from ``legal_actions`` (or ``chance_outcomes``) of that very state
without checking it again and without building event text, and a game remembers
the menu of the last state it listed, so that ``legal_actions(state)`` followed by
``apply(state, action)`` builds that menu once. The games build a decision's menu
the first time it is read rather than in the transition that reaches it
(:class:`~byzantium.core.procedure.LazyOptions`).
"""

from __future__ import annotations

import abc
import hashlib
import random
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import ClassVar, Final, Generic, TypeVar, cast

import attrs

from byzantium.core.codec import JSONValue, canonical_json, codec_for
from byzantium.core.errors import (
    ArgumentError,
    IllegalActionError,
    InvalidStateError,
    UnknownOptionError,
)
from byzantium.core.guards import is_guarded, with_check

if typing.TYPE_CHECKING:
    from byzantium.core.spaces import ActionSpace
    from byzantium.core.tensors import TensorLayout

__all__ = [
    "CHANCE",
    "SPECTATOR",
    "TERMINAL",
    "Datum",
    "Event",
    "Game",
    "OptionSpec",
    "OptionValue",
    "Result",
    "Step",
    "canonical_json",
    "decimal",
]

#: Node type of a state where chance (a die roll, a draw from a cup) decides.
CHANCE: Final = -1
#: Node type of a finished game.
TERMINAL: Final = -2
#: The reader who may know only what every seat may know: a spectator of a game in
#: play, a public list of games. Methods that take a ``viewer`` (and
#: :meth:`Game.observation`, :func:`byzantium.render.svg`) accept it beside the
#: player indexes and ``None`` (the all-seeing onlooker). In a game with hidden
#: information it sees nobody's secrets; in a solitaire game it reads as the player.
SPECTATOR: Final = -3

S = TypeVar("S")
A = TypeVar("A")

#: What a game option may be set to.
OptionValue = bool | int | str


@attrs.frozen
class Event:
    """Something that happened in a transition, with the rule that made it happen.

    ``text`` is a sentence for a chronicle; ``kind`` a short stable tag a program can
    filter on (``"roll"``, ``"draw"``, ``"advance"``...); ``data`` optional facts
    as name/value pairs.

    In a game with hidden information an event may tell something only one player
    may know (his treasury, say). Such an event names that player as its ``owner``:
    ``text`` is what the owner reads, and ``public`` what every other player reads,
    or ``None`` when the others do not learn of the event at all. An event without
    an owner reads the same for everybody. :meth:`text_for` and :meth:`seen_by` give
    an event as one reader may see it; ``viewer=None`` is the onlooker who sees
    everything (a referee, a finished game's review).
    """

    rule: str
    text: str
    kind: str = ""
    data: tuple[tuple[str, OptionValue], ...] = ()
    #: The player whose secret the full text tells, or None if it tells none.
    owner: int | None = attrs.field(default=None, kw_only=True)
    #: What the other players read (None: they do not see the event); owned events only.
    public: str | None = attrs.field(default=None, kw_only=True)

    def text_for(self, viewer: int | None) -> str | None:
        """The text ``viewer`` reads (everything for ``None``); ``None`` if he does not
        see the event at all."""
        if viewer is None or self.owner is None or viewer == self.owner:
            return self.text
        return self.public

    def seen_by(self, viewer: int | None) -> Event | None:
        """The event as ``viewer`` may see it (``None`` if he does not see it): the
        other players get the public form, with no owner and no data."""
        if viewer is None or self.owner is None or viewer == self.owner:
            return self
        if self.public is None:
            return None
        return Event(self.rule, self.public, self.kind)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"


@attrs.frozen
class Step(Generic[S]):
    """The outcome of one transition: the next state and what happened."""

    state: S
    events: tuple[Event, ...]


@attrs.frozen
class Result:
    """How a finished game ended.

    ``winners`` lists the winning player indices (empty for a draw or for a
    solitaire defeat), ``level`` names the victory level as the rulebook does,
    ``reason`` says why the game ended and ``rule`` which rule decided it.
    ``scores`` holds points per player where the game counts them in whole points
    and ``breakdown`` how they were made up, as label/points pairs. A game whose
    points may be fractions (half a Victory Point, say) gives them exactly in
    ``points`` instead, one per player, and its breakdown in the same exact values.
    """

    winners: tuple[int, ...]
    level: str
    reason: str
    rule: str
    scores: tuple[int, ...] = ()
    breakdown: tuple[tuple[str, int | Fraction], ...] = ()
    points: tuple[Fraction, ...] = ()


def decimal(value: int | Fraction) -> str:
    """A number as a person reads it: ``3``, ``1.5`` (never ``3/2``)."""
    return f"{float(value):g}" if isinstance(value, Fraction) else str(value)


@attrs.frozen
class Datum:
    """One component datum and where it comes from.

    ``provenance`` is ``"rulebook"`` (``reference`` is then a rule id),
    ``"peer transcription"`` or ``"provisional"`` (``reference`` is the rationale).
    """

    record: str
    field: str
    provenance: str
    reference: str


@attrs.frozen
class OptionSpec:
    """A game option: its name, default (which fixes its type) and allowed values."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()

    def check(self, value: object) -> OptionValue:
        """Validate a value for this option and return it."""
        wanted = type(self.default)
        if type(value) is not wanted:
            raise UnknownOptionError(
                f"option {self.name!r} takes a {wanted.__name__}, not {value!r}"
            )
        assert isinstance(value, bool | int | str)
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise UnknownOptionError(
                f"option {self.name!r} must be one of {allowed}, not {value!r}"
            )
        return value


#: The public methods a game may override, with what each positional argument must be:
#: ``"state"`` (a state of the game), ``"player"`` (a player index), ``"viewer"`` (a
#: player index or None), ``"action"`` (an action of the game), ``"event"`` (an
#: :class:`Event`), ``"events"`` (a sequence of them) or ``"text"`` (a string).
#: :meth:`Game.__init_subclass__` wraps a game's own versions with these checks, and
#: the generic versions are wrapped below; the methods of the fast path
#: (``current_player``, ``legal_actions``, ``chance_outcomes``, ``apply``...) check
#: inline instead.
_GUARDED: Final[dict[str, tuple[str, ...]]] = {
    "result": ("state",),
    "returns": ("state",),
    "observation": ("state", "player"),
    "observation_tensor": ("state", "player"),
    "render": ("state", "viewer"),
    "chronicle_heading": ("state", "viewer"),
    "status_line": ("state", "viewer"),
    "stage": ("state",),
    "caution": ("state", "action"),
    "chronicle_detail": ("state",),
    "chronicle_digest": ("state",),
    "chronicle_summary": ("state",),
    "length_text": ("state",),
    "decisive": ("event",),
    "decision_rule": ("state",),
    "describe_action": ("state", "action"),
    "describe_choice": ("state", "action", "viewer"),
    "describe_decision": ("state", "viewer"),
    "describe_event": ("event",),
    "visible_action": ("state", "action", "player"),
    "visible_typed_action": ("state", "action", "player"),
    "look": ("state", "viewer", "text"),
    "turn_of": ("state",),
    "tallies": ("state", "events"),
    "typed_action": ("state", "action"),
    "action_for": ("state",),
    "player_name": ("player",),
    "encode_state": ("state",),
    "encode_action": ("action",),
    "state_digest": ("state",),
}


#: The guarded methods that accept :data:`SPECTATOR` as their player or viewer.
_SPECTATOR_READS: Final = frozenset(
    {
        "observation",
        "render",
        "chronicle_heading",
        "status_line",
        "describe_choice",
        "describe_decision",
        "visible_action",
        "look",
    }
)


def _is_spectator(value: object) -> bool:
    return type(value) is int and value == SPECTATOR


def _check_argument(game: Game[object, object], kind: str, value: object) -> None:
    """Raise the library's error unless ``value`` is what an argument of ``kind`` must be."""
    if kind == "state":
        if type(value) is not game.STATE_TYPE:
            raise game.foreign_state(value)
    elif kind == "player" or (kind == "viewer" and value is not None):
        game.check_player(value)
    elif kind == "action":
        if not game.is_action(value):
            raise ArgumentError(
                f"{game.ID}: a {type(value).__name__[:60]} is not an action of {game.ID}"
            )
    elif kind == "event":
        if not isinstance(value, Event):
            raise ArgumentError(f"{game.ID}: a {type(value).__name__[:60]} is not an Event")
    elif kind == "events":
        if not isinstance(value, Sequence) or not all(isinstance(e, Event) for e in value):
            raise ArgumentError(f"{game.ID}: events are a sequence of Event")
    elif kind == "text" and not isinstance(value, str):
        raise ArgumentError(f"{game.ID}: a {type(value).__name__[:60]} is not a string")


def _no_spectator(game: Game[object, object], name: str) -> ArgumentError:
    return ArgumentError(f"{game.ID}: {name} is for a player, not the spectator")


def _as_reader(
    game: Game[object, object], name: str, reads: bool, args: tuple[object, ...], index: int
) -> tuple[object, ...]:
    """``args`` with the spectator at ``index`` as the game reads him (:meth:`Game.reader`)."""
    if not reads:
        raise _no_spectator(game, name)
    return (*args[:index], game.reader(SPECTATOR), *args[index + 1 :])


def _guarded(
    name: str, method: Callable[..., object], kinds: tuple[str, ...]
) -> Callable[..., object]:
    """``method`` with the checks of its arguments (:data:`_GUARDED`) in front."""

    reads = name in _SPECTATOR_READS

    def check(
        self: object, args: tuple[object, ...], kw: dict[str, object]
    ) -> tuple[tuple[object, ...], dict[str, object]]:
        game = cast("Game[object, object]", self)
        for index, (kind, value) in enumerate(zip(kinds, args, strict=False)):
            if kind in ("player", "viewer") and _is_spectator(value):
                args = _as_reader(game, name, reads, args, index)
            else:
                _check_argument(game, kind, value)
        for key in ("player", "viewer"):
            if key in kw:
                if _is_spectator(kw[key]):
                    if not reads:
                        raise _no_spectator(game, name)
                    kw[key] = game.reader(SPECTATOR)
                else:
                    _check_argument(game, "viewer", kw[key])
        return args, kw

    return with_check(name, method, check)


class Game(abc.ABC, Generic[S, A]):
    """Base class of a game's rules engine (see the module documentation).

    Class attributes a game sets: ``ID`` (the name ``load_game`` knows it by),
    ``TITLE``, ``NUM_PLAYERS``, ``OPTIONS``, ``STATE_TYPE`` (its attrs state class),
    ``ACTION_TYPE`` (its action class or a union of them), and ``SEQUENCE_RULE``,
    the rule to blame for an action that is not legal at this point of play.
    """

    ID: ClassVar[str]
    TITLE: ClassVar[str]
    NUM_PLAYERS: ClassVar[int]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    STATE_TYPE: ClassVar[type]
    ACTION_TYPE: ClassVar[object]
    SEQUENCE_RULE: ClassVar[str]
    #: The most outcomes a chance node may have (:meth:`validate` refuses more).
    MAX_OUTCOMES: ClassVar[int] = 50_000

    #: The last state listed by :meth:`legal_actions` or :meth:`chance_outcomes`, with
    #: its legal actions and chance outcomes (see :meth:`_listing`).
    _listed: tuple[S, tuple[A, ...] | None, tuple[tuple[A, Fraction], ...]] | None = None

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise UnknownOptionError(
                f"{self.ID} options are a mapping, not {type(options).__name__}"
            )
        self.options: Mapping[str, OptionValue] = self.resolve_options(options or {})

    def __init_subclass__(cls, **kwargs: object) -> None:
        """Put the checks of :data:`_GUARDED` in front of the public methods a game
        defines itself (the hooks and the fast path are left as they are)."""
        super().__init_subclass__(**kwargs)
        for name, kinds in _GUARDED.items():
            method = cls.__dict__.get(name)
            if callable(method) and not is_guarded(method):
                setattr(cls, name, _guarded(name, method, kinds))

    # -- checks of what the public methods are given ------------------------------------

    def foreign_state(self, state: object) -> InvalidStateError:
        """The error for a value given as a state that is no state of this game."""
        what = "None" if state is None else f"a value of type {type(state).__name__[:60]}"
        return InvalidStateError(
            f"{what} given as a state, not a {self.STATE_TYPE.__name__}", game=self.ID
        )

    def check_state(self, state: object) -> None:
        """Raise :class:`~byzantium.core.errors.InvalidStateError` unless ``state`` is a
        state of this game (its type; :meth:`validate` checks the rest)."""
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)

    def check_player(self, player: object) -> None:
        """Raise :class:`~byzantium.core.errors.ArgumentError` unless ``player`` is a
        player index of this game."""
        if type(player) is not int or not 0 <= player < self.NUM_PLAYERS:
            shown = repr(player)[:60]
            raise ArgumentError(f"{self.ID} has players 0 to {self.NUM_PLAYERS - 1}, not {shown}")

    def reader(self, viewer: int | None) -> int | None:
        """The reader the game's methods see for ``viewer``: itself, except that the
        :data:`SPECTATOR` of a solitaire game reads as its one player (everybody may
        know what the player knows there); a game of several players gets
        :data:`SPECTATOR` and shows it nobody's secrets."""
        if _is_spectator(viewer) and self.NUM_PLAYERS == 1:
            return 0
        return viewer

    # -- options ---------------------------------------------------------------

    @classmethod
    def resolve_options(cls, given: Mapping[str, object]) -> dict[str, OptionValue]:
        """Every option's value: the given ones checked, the rest at their defaults."""
        specs = {spec.name: spec for spec in cls.OPTIONS}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(sorted(specs)) or "none"
            raise UnknownOptionError(
                f"{cls.ID} has no option {', '.join(map(repr, unknown))}; its options: {known}"
            )
        return {
            name: spec.check(given[name]) if name in given else spec.default
            for name, spec in sorted(specs.items())
        }

    # -- the hooks a game implements ----------------------------------------------

    @abc.abstractmethod
    def initial_state(self) -> S:
        """The state before the first decision (after any fixed setup)."""

    @abc.abstractmethod
    def _current_player(self, state: S) -> int:
        """Player index, :data:`CHANCE` or :data:`TERMINAL`."""

    @abc.abstractmethod
    def _player_actions(self, state: S) -> Sequence[A]:
        """Legal actions at a player node, in a fixed order, simplest first."""

    @abc.abstractmethod
    def _chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """Outcomes of a chance node with exact probabilities summing to 1."""

    @abc.abstractmethod
    def _advance(self, state: S, action: A, events: list[Event] | None) -> S:
        """The next state after a legal ``action``.

        Appends to ``events`` what happened when it is not ``None`` (the fast path
        passes ``None`` so that no event is built). Must not mutate ``state``.
        """

    @abc.abstractmethod
    def result(self, state: S) -> Result:
        """How the game ended; only called on terminal states."""

    def _validate(self, state: S) -> None:
        """The game's own consistency checks of a state (none by default).

        Raise :class:`~byzantium.core.errors.InvalidStateError` at the first
        inconsistency: a piece in no place or in two, a number out of its printed
        range, a pending request the procedure would not make here. Runs before the
        generic checks of :meth:`validate`, which enumerate the legal actions and
        chance outcomes (so a game bounds what they depend on, the dice of a roll
        say, here).
        """
        del state

    # -- the public contract ---------------------------------------------------

    def current_player(self, state: S) -> int:
        """Who decides next: a player index, :data:`CHANCE` or :data:`TERMINAL`."""
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        return self._current_player(state)

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        return self._current_player(state) == TERMINAL

    def is_chance_node(self, state: S) -> bool:
        """Whether chance decides next."""
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        return self._current_player(state) == CHANCE

    def _listing(self, state: S) -> tuple[tuple[A, ...] | None, tuple[tuple[A, Fraction], ...]]:
        """The legal actions and the chance outcomes of a state, built once for it.

        The game keeps them for the last state it was asked about, that very object
        (states are immutable, and the kept reference stops its identity from being
        reused), so that listing the actions and then applying one of them, or asking
        twice, builds the menu once. At a chance node the actions are None until
        :meth:`legal_actions` asks for them.
        """
        listed = self._listed
        if listed is not None and listed[0] is state:
            return listed[1], listed[2]
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        player = self._current_player(state)
        actions: tuple[A, ...] | None = ()
        outcomes: tuple[tuple[A, Fraction], ...] = ()
        if player == CHANCE:
            outcomes = tuple(self._chance_outcomes(state))
            actions = None
        elif player != TERMINAL:
            actions = tuple(self._player_actions(state))
        self._listed = (state, actions, outcomes)
        return actions, outcomes

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The actions that may be applied now.

        At a player node these are the player's choices; at a chance node the
        possible outcomes (see :meth:`chance_outcomes` for their probabilities); at
        a terminal node nothing.
        """
        actions, outcomes = self._listing(state)
        if actions is None:
            actions = tuple(action for action, _ in outcomes)
            self._listed = (state, actions, outcomes)
        return actions

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]:
        """Outcomes of a chance node and their exact probabilities (empty elsewhere)."""
        return self._listing(state)[1]

    def validate(self, state: S) -> None:
        """Check that ``state`` is one the rules could have produced.

        Raises :class:`~byzantium.core.errors.InvalidStateError` naming the first
        inconsistency. The game's own checks (:meth:`_validate`: every piece in
        exactly one place that exists, every number in its range, the pending
        request re-derived by the engine) come first; then the node must be
        well formed: a decision for an existing player with at least one legal
        action, or a chance node with distinct outcomes (at most
        :attr:`MAX_OUTCOMES`) whose positive probabilities sum to 1.
        :meth:`decode_state` calls it on every state it reads.
        """
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        try:
            self._validate(state)
            self._validate_node(state)
        except InvalidStateError:
            raise
        except Exception as exc:  # an edited state the rules cannot work with
            detail = " ".join(str(exc).split())  # one line, whatever the error said
            reason = f"the rules cannot work with it ({type(exc).__name__}: {detail})"
            raise InvalidStateError(reason[:300], game=self.ID) from exc

    def _validate_node(self, state: S) -> None:
        player = self._current_player(state)
        if player == TERMINAL:
            return
        rule = self.decision_rule(state)
        if player == CHANCE:
            outcomes = self._chance_outcomes(state)
            if not outcomes:
                raise InvalidStateError("a chance node with no outcome", rule=rule, game=self.ID)
            if len(outcomes) > self.MAX_OUTCOMES:
                raise InvalidStateError(
                    f"a chance node with {len(outcomes)} outcomes (at most {self.MAX_OUTCOMES})",
                    rule=rule,
                    game=self.ID,
                )
            if any(p <= 0 for _, p in outcomes) or sum(p for _, p in outcomes) != 1:
                raise InvalidStateError(
                    "chance outcomes whose probabilities are not positive and summing to 1",
                    rule=rule,
                    game=self.ID,
                )
            if len({action for action, _ in outcomes}) != len(outcomes):
                raise InvalidStateError("a chance outcome listed twice", rule=rule, game=self.ID)
            return
        if not 0 <= player < self.NUM_PLAYERS:
            raise InvalidStateError(
                f"a decision for player {player}; {self.ID} has players 0 to "
                f"{self.NUM_PLAYERS - 1}",
                rule=rule,
                game=self.ID,
            )
        actions = self._player_actions(state)
        if not actions:
            raise InvalidStateError("a decision with no legal action", rule=rule, game=self.ID)
        if len(set(actions)) != len(actions):
            raise InvalidStateError("a legal action listed twice", rule=rule, game=self.ID)

    def is_action(self, action: object) -> bool:
        """Whether ``action`` is an object of one of this game's action types."""
        kinds = self.ACTION_TYPE
        try:
            return isinstance(action, kinds)  # type: ignore[arg-type]
        except TypeError:  # pragma: no cover - an annotation isinstance cannot test
            return True

    def check_action(self, state: S, action: A) -> None:
        """Raise :class:`~byzantium.core.errors.IllegalActionError` unless ``action`` is legal
        (:class:`~byzantium.core.errors.InvalidStateError` for no state of this game)."""
        if type(state) is not self.STATE_TYPE:
            raise self.foreign_state(state)
        if not self.is_action(action):
            name = type(action).__name__[:60]
            raise IllegalActionError(
                self.decision_rule(state), f"a {name} is not an action of {self.ID}", game=self.ID
            )
        player = self._current_player(state)
        if player == TERMINAL:
            raise self.illegal(state, action, "the game is over")
        actions, outcomes = self._listing(state)
        if player == CHANCE:
            if not any(outcome == action and p > 0 for outcome, p in outcomes):
                raise self.illegal(state, action, "not a possible outcome of this chance node")
        elif actions is None or action not in actions:
            who = self.player_name(player)
            raise self.illegal(state, action, f"not a legal choice for {who} now")

    def illegal(self, state: S, action: A, reason: str) -> IllegalActionError:
        """The error for an action that is not legal here.

        It names the rule that asks for the pending decision or outcome
        (:meth:`decision_rule`: the sequence of play unless the game says more);
        games override this to name a more precise rule.
        """
        try:
            what = self.describe_action(state, action)
        except Exception:  # an action whose fields are not of their types
            what = repr(action)[:100]
        return IllegalActionError(self.decision_rule(state), f"{what}: {reason}", game=self.ID)

    def apply(self, state: S, action: A) -> S:
        """The state after ``action``; ``state`` itself is never changed.

        Raises :class:`~byzantium.core.errors.IllegalActionError`, naming the broken
        rule, if the action is not legal now.
        """
        self.check_action(state, action)
        return self._advance(state, action, None)

    def apply_unchecked(self, state: S, action: A) -> S:
        """The state after ``action``, for search: the fast path of :meth:`apply`.

        ``action`` must be one of :meth:`legal_actions` (or of
        :meth:`chance_outcomes`) of this very ``state``, as a search or a playout
        that took it from there knows; it is not checked again, and no event is
        built. An action that is not legal here gives no clear error: the rules may
        fail anywhere or return a state they could never reach. Code that applies
        actions from elsewhere (a person, a file, another program) uses
        :meth:`apply`. ``state`` itself is never changed.
        """
        return self._advance(state, action, None)

    def step(self, state: S, action: A) -> Step[S]:
        """Like :meth:`apply`, and also returns the events of the transition."""
        self.check_action(state, action)
        events: list[Event] = []
        after = self._advance(state, action, events)
        return Step(after, tuple(events))

    def apply_all(self, state: S, actions: Iterable[A]) -> S:
        """Apply a sequence of actions in turn."""
        if not isinstance(actions, Iterable):
            raise ArgumentError(
                f"{self.ID}: actions are an iterable, not a {type(actions).__name__}"
            )
        for action in actions:
            state = self.apply(state, action)
        return state

    def returns(self, state: S) -> tuple[float, ...]:
        """Per-player payoff of a finished game, for search and learning code.

        The default gives +1 to each winner and -1 to the others (all 0 when nobody
        wins); games with scores override it.
        """
        result = self.result(state)
        if not result.winners:
            return tuple(0.0 for _ in range(self.NUM_PLAYERS))
        return tuple(1.0 if p in result.winners else -1.0 for p in range(self.NUM_PLAYERS))

    def observation(self, state: S, player: int) -> object:
        """What ``player`` may see of ``state``.

        Perfect-information games return the state itself; games with hidden
        information override this to return a view with the hidden parts removed.
        """
        del player
        return state

    def observation_tensor_layout(self) -> TensorLayout:
        """The segments of :meth:`observation_tensor` (:mod:`byzantium.core.tensors`),
        the same for every state of this game instance.

        Raises :class:`NotImplementedError` for a game that has no tensor.
        """
        raise NotImplementedError(f"{self.ID} has no observation tensor")

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor`: one dimension, the layout's size."""
        return self.observation_tensor_layout().shape

    def observation_tensor(self, state: S, player: int) -> list[float]:
        """What ``player`` may see of ``state`` as numbers, laid out as
        :meth:`observation_tensor_layout` says: built from :meth:`observation`, so it
        shows nothing that the observation hides.

        Raises :class:`NotImplementedError` for a game that has no tensor.
        """
        del state, player
        raise NotImplementedError(f"{self.ID} has no observation tensor")

    def action_space(self) -> ActionSpace[S, A]:
        """The game's fixed integer numbering of decisions (:mod:`byzantium.core.spaces`).

        Raises :class:`NotImplementedError` for a game that has none.
        """
        raise NotImplementedError(f"{self.ID} has no fixed action space")

    def policies(self) -> Mapping[str, Callable[[Game[S, A], S, random.Random], A]]:
        """Built-in decision policies of this game, by name (none by default).

        The command line offers them beside ``random`` and ``first``.
        """
        return {}

    def chronicle_heading(self, state: S, viewer: int | None = None) -> str:
        """A heading for a chronicle, printed whenever its first line changes, as
        ``viewer`` may see it (everything when ``None``).

        For example the Turn on the first line and the state of the tracks below it.
        The default is none.
        """
        del state, viewer
        return ""

    def status_line(self, state: S, viewer: int | None = None) -> str:
        """Where the game stands, in one line for a person between decisions, as
        ``viewer`` may see it (everything when ``None``): the turn and phase, the
        treasuries or scores, names rather than ids.

        The default is :meth:`chronicle_heading` on one line: its first line without
        the ``==`` marks, then its other lines, joined by ``" | "``.
        """
        heading = self.chronicle_heading(state, viewer)
        parts = [line.strip().strip("=").strip() for line in heading.splitlines()]
        return " | ".join(part for part in parts if part)

    def stage(self, state: S) -> str:
        """The part of the sequence of play a state is in, in words (the set-up, a
        turn's phase): a tool that plays on for a person until the phase is over
        (the terminal's ``auto``) stops when it changes. The default is the first line
        of :meth:`chronicle_heading` (so a game without headings is one stage)."""
        return self.chronicle_heading(state).split("\n", 1)[0]

    def caution(self, state: S, action: A) -> str:
        """Why a person should think twice before choosing ``action`` of ``state``, in
        a few words with the rule: it throws something away, passes, ends a phase or
        ends the game. Empty for a harmless choice (every choice, by default).

        A menu shows such choices after the others, so that typing ``1`` never
        throws anything away; the action's number and :meth:`legal_actions` order
        stay as they are.
        """
        del state, action
        return ""

    def decisive(self, event: Event) -> bool:
        """Whether an event is one of a game's decisive moments, which the closing
        summary of a chronicle lists (none by default)."""
        del event
        return False

    def length_text(self, state: S) -> str:
        """How long a game lasted, in words (its turns by default)."""
        turn = self.turn_of(state)
        return f"{turn} turns" if turn else ""

    def chronicle_summary(
        self, state: S, moments: Sequence[tuple[int, Event]] = (), most: int = 6
    ) -> tuple[str, ...]:
        """A finished game told in a few lines: the result and its level, the cause
        with its rule, how long it lasted, the scores (halves as decimals) and the
        last ``most`` decisive moments of ``moments`` (turn and event pairs, those
        :meth:`decisive` picks)."""
        if not self.is_terminal(state):
            return ("The game did not reach its end.",)
        result = self.result(state)
        winners = ", ".join(self.player_name(w) for w in result.winners) or "nobody"
        lines = [
            f"Result: {result.level}; winner: {winners}.",
            f"Cause [{result.rule}]: {result.reason}",
        ]
        length = self.length_text(state)
        if length:
            lines.append(f"Length: {length}.")
        scores: tuple[int | Fraction, ...] = result.points or result.scores
        if scores:
            named = ", ".join(f"{self.player_name(p)} {decimal(s)}" for p, s in enumerate(scores))
            lines.append(f"Scores: {named}")
        picked = [(turn, event) for turn, event in moments if self.decisive(event)][-most:]
        if picked:
            lines.append("Decisive moments:")
            lines += [f"  turn {turn}: {self.describe_event(event)}" for turn, event in picked]
        return tuple(lines)

    def chronicle_detail(self, state: S) -> bool:
        """Whether the step taken from ``state`` is a routine detail that a short
        chronicle leaves out, summing such steps up with :meth:`chronicle_digest`
        (no step is, by default)."""
        del state
        return False

    def chronicle_digest(self, state: S) -> str:
        """A few lines summing up the details a short chronicle left out
        (:meth:`chronicle_detail`), from the state after the last of them; empty
        by default."""
        del state
        return ""

    def render(self, state: S, player: int | None = None) -> str:
        """The text view of a state: a few lines of plain text for a terminal, as
        ``player`` may see it (everything when ``player`` is None). The default shows
        the chronicle heading and who is to act; each game's ``render`` module gives
        its own. This is not the picture of the board: :func:`byzantium.render.svg`
        draws that, as SVG."""
        heading = self.chronicle_heading(state, player)
        if self.is_terminal(state):
            return f"{heading}\ngame over".strip()
        actor = self.current_player(state)
        who = "chance" if actor == CHANCE else self.player_name(actor)
        return f"{heading}\n{who} to act".strip()

    def decision_rule(self, state: S) -> str:
        """The rule that asks for the decision or chance outcome pending in a state (the
        sequence of play's rule by default)."""
        pending = getattr(state, "pending", None)
        rule = getattr(pending, "rule", None)
        return rule if isinstance(rule, str) else self.SEQUENCE_RULE

    def visible_action(self, state: S, action: A, player: int) -> A | None:
        """An action as ``player`` may see it in a game's history (itself by default).

        Games with hidden information mask what the player may not know, for example
        which marker the other player drew; ``None`` hides the action entirely.
        """
        del state, player
        return action

    def odds_visible(self, state: S, player: int) -> bool:
        """Whether ``player`` may know the odds of the chance outcomes of ``state`` (yes
        by default). The odds of a draw from a cup that holds another player's secrets
        tell him something of them: a game with hidden information says no there."""
        del state, player
        return True

    def turn_of(self, state: S) -> int:
        """The game's turn number in a state (0 if the game has no turns), for summaries
        such as the turn in which games end."""
        del state
        return 0

    def tallies(self, state: S, events: Sequence[Event]) -> tuple[tuple[str, int], ...]:
        """Things worth counting over many games, from a finished game's final state and
        the events of its whole course: name and count pairs (none by default).

        ``byzantium simulate`` sums them, for example how often a given event came up.
        """
        del state, events
        return ()

    def player_name(self, player: int) -> str:
        """How chronicles and messages name a player (``"player 0"`` by default)."""
        return f"player {player}"

    def describe_options(self) -> str:
        """The options this instance plays with, in words for a chronicle's first line:
        each valued option with its value (``scenario campaign``), then the switches
        that differ from their defaults by what they do, or ``no optional rules``."""
        valued: list[str] = []
        switched: list[str] = []
        for spec in self.OPTIONS:
            value = self.options[spec.name]
            if isinstance(value, bool):
                if value != spec.default:
                    switched.append(spec.help if value else f"no {spec.name.replace('_', ' ')}")
            elif value != "" or spec.default != "":
                valued.append(f"{spec.name.replace('_', ' ')} {value}")
        return "; ".join([*valued, *switched] if switched else [*valued, "no optional rules"])

    def describe_action(self, state: S, action: A) -> str:
        """A short human description of an action (for chronicles and errors)."""
        del state
        return repr(action)

    # -- for a person at a terminal or a frontend -----------------------------------------

    def describe_choice(self, state: S, action: A, viewer: int | None = None) -> str:
        """An action in words for a person choosing it: names rather than ids, and what
        it costs and does where the game knows (``"Build a Hospital in Zone Α (cost 2
        Solidus)"``), without repeating the question (:meth:`describe_decision`).

        With a ``viewer`` other than the chooser, the words tell that player nothing
        the question would (which question was asked may be a secret: a player is only
        asked whether to play a marker he holds). The default is
        :meth:`describe_action` less a trailing ``" (question)"``.
        """
        del viewer
        text = self.describe_action(state, action)
        prompt = getattr(getattr(state, "pending", None), "prompt", "")
        suffix = f" ({prompt})" if isinstance(prompt, str) and prompt else ""
        return text[: -len(suffix)] if suffix and text.endswith(suffix) else text

    def describe_decision(self, state: S, viewer: int | None = None) -> str:
        """The question a decision or chance node asks, in words for a person (the
        pending request's prompt by default, empty if there is none).

        With a ``viewer``, only what he may know: a game with hidden information gives
        him nothing of another player's question, which may quote that player's secrets.
        """
        del viewer
        prompt = getattr(getattr(state, "pending", None), "prompt", "")
        return prompt if isinstance(prompt, str) else ""

    def describe_event(self, event: Event) -> str:
        """An event as a line for a person (its rule and text by default; games may
        turn the ids in it into names). It shows the whole event: a text for one reader
        comes from :meth:`event_text`."""
        return str(event)

    def describe_step(self, state: S, action: A, viewer: int | None = None) -> str:
        """An action taken in ``state``, as ``viewer`` reads it in a chronicle
        (everything when ``None``).

        The action is what :meth:`visible_action` lets him see (``"(hidden)"`` if
        nothing), in the words of :meth:`describe_choice`; the question follows in
        brackets, except for another player's decision, whose question may quote
        that player's secrets (his treasury, say). The :data:`SPECTATOR` reads every
        player's decision as another player's."""
        viewer = self.reader(viewer)
        actor = self.current_player(state)
        shown = action if viewer is None else self.visible_action(state, action, viewer)
        if shown is None:
            return "(hidden)"
        secret = viewer is not None and actor not in (CHANCE, viewer)
        text = self.describe_choice(state, shown, viewer if secret else None)
        question = "" if secret else self.describe_decision(state, viewer).split("\n", 1)[0]
        return f"{text} ({question})" if question else text

    def event_text(self, event: Event, viewer: int | None = None) -> str | None:
        """An event as a line for ``viewer`` (everything when ``None``), made from what
        he may know (:meth:`Event.seen_by`); ``None`` if he does not see it at all.
        Every text a seated player reads goes through this; the :data:`SPECTATOR` reads
        the public form of every owned event."""
        seen = event.seen_by(self.reader(viewer))
        return None if seen is None else self.describe_event(seen)

    def look(self, state: S, player: int | None, request: str) -> str | None:
        """Answer a person's request to look at part of a state (``"map 5725"``,
        ``"stack 5725"``), as ``player`` may see it (everything when None).

        Returns None when the game knows no such request; :meth:`look_help` lists the
        ones it knows (none by default).
        """
        del state, player, request
        return None

    def look_help(self) -> tuple[tuple[str, str], ...]:
        """The requests :meth:`look` answers, as (usage, what it shows) pairs."""
        return ()

    # -- components ----------------------------------------------------------------

    def component_data(self) -> bytes:
        """The bytes of the component data this game instance plays with."""
        return b""

    def data_provenance(self) -> tuple[Datum, ...]:
        """Every component datum of this game instance with its provenance (none by default)."""
        return ()

    def components_digest(self) -> str:
        """A digest of :meth:`component_data`, stored in records to catch data drift."""
        return hashlib.sha256(self.component_data()).hexdigest()[:16]

    # -- serialisation -------------------------------------------------------------

    def encode_state(self, state: S) -> JSONValue:
        """A state as a JSON value."""
        return codec_for(typing.cast(object, self.STATE_TYPE)).encode(state)

    def decode_state(self, data: JSONValue) -> S:
        """A state from :meth:`encode_state`'s output (exact round trip).

        The state is checked with :meth:`validate`: data of the wrong shape raise
        :class:`~byzantium.core.codec.DecodeError`, a state the rules could not have
        produced :class:`~byzantium.core.errors.InvalidStateError`.
        """
        state = typing.cast(S, codec_for(typing.cast(object, self.STATE_TYPE)).decode(data))
        self.validate(state)
        return state

    def encode_action(self, action: A) -> JSONValue:
        """An action as a JSON value."""
        return codec_for(self.ACTION_TYPE).encode(action)

    def decode_action(self, data: JSONValue) -> A:
        """An action from :meth:`encode_action`'s output (exact round trip)."""
        return typing.cast(A, codec_for(self.ACTION_TYPE).decode(data))

    def state_digest(self, state: S) -> str:
        """A short digest of a state, equal exactly when the encoded states are equal."""
        text = canonical_json(self.encode_state(state))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<{type(self).__name__} {self.ID}({opts})>"


# The generic versions of the guarded methods are checked as a game's own are (the
# abstract ones stay abstract: each game's own is wrapped).
for _name, _kinds in _GUARDED.items():
    _method = Game.__dict__.get(_name)
    if callable(_method) and not getattr(_method, "__isabstractmethod__", False):
        setattr(Game, _name, _guarded(_name, _method, _kinds))
