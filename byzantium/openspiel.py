"""Both games as OpenSpiel games: ``pyspiel.load_game("byzantium_belisarius")``.

Importing this module registers every game of :data:`SPIEL_GAMES` with OpenSpiel's
game registry, under a short name (``byzantium_sword_of_orthodoxy``,
``byzantium_belisarius``) whose game parameters are the game's options (see
:meth:`~byzantium.core.game.Game.resolve_options`)::

    import pyspiel
    import byzantium.openspiel  # registers the games

    game = pyspiel.load_game("byzantium_belisarius", {"scenario": 1})
    state = game.new_initial_state()

OpenSpiel is an optional dependency (``pip install byzantium[openspiel]``). Without
it this module still imports, and its helpers that need no OpenSpiel (the action
encoding, the observation strings) work; only :func:`register_games` and the
OpenSpiel classes need it.

Action encoding
---------------

OpenSpiel identifies actions by integers. At a player node the id of an action is
its number in the game's fixed action space when the game has one
(:meth:`~byzantium.core.game.Game.action_space`, :mod:`byzantium.core.spaces`): the
same id means the same decision in every state, ``num_distinct_actions`` is the
space's size, and ``action_to_string`` of any id, legal or not, reads the slot's
label where the id is not legal in the state. Sword of Orthodoxy has such a space
(:class:`~byzantium.sword_of_orthodoxy.actions.SooActionSpace`). A game without one
falls back to positions:

* the id of an action is its position in
  :meth:`~byzantium.core.game.Game.legal_actions` of the state it is played in (the
  game's fixed order, simplest first), so the ids of a state are ``0 .. n-1`` and an
  id means something only together with the state it is played in;
  ``num_distinct_actions`` is then a measured bound (see :data:`SPIEL_GAMES`).

Chance outcomes are positional for every game: the id of an outcome is its position
in :meth:`~byzantium.core.game.Game.chance_outcomes`, below ``max_chance_outcomes``.
Use :func:`action_for_id` and :func:`id_for_action` (or the JSON variants
:func:`action_json` and :func:`id_for_json`) to translate, whichever the encoding.

The measured bounds are not proven ones: a state that offers more raises
:class:`LimitExceededError` rather than hand OpenSpiel an id out of range. The same
holds for ``max_game_length``, the number of decisions of a game.

Chance, returns, observations
-----------------------------

Chance nodes are explicit: ``chance_outcomes()`` lists every outcome with its exact
probability converted to a float. Returns are
:meth:`~byzantium.core.game.Game.returns` at the end of the game (0 before).

Observation strings are canonical JSON of :meth:`~byzantium.core.game.Game.observation`
(:func:`observation_string`): the whole state in Sword of Orthodoxy, a game of
perfect information; in Belisarius the player's view of 22.0-22.2
(:func:`byzantium.belisarius.observation.observe`), which shows the other player's
Stratagem markers and treasury only while the player may examine them. Information
state strings (:func:`information_state_string`) add the player's perfect recall:
every earlier action as the player may see it
(:meth:`~byzantium.core.game.Game.visible_action`), one line each, before the
current observation. Neither ever shows an action id, whose position could betray
what the other player was offered.

Observation tensors are the game's own
(:meth:`~byzantium.core.game.Game.observation_tensor`, laid out as
:meth:`~byzantium.core.game.Game.observation_tensor_layout` says, built from the
player's observation): ``state.observation_tensor(player)`` returns it, and an
observer's ``dict`` holds one view per segment of the layout, shaped as the segment.
A game without a tensor declares ``provides_observation_tensor=False``. There are no
information state tensors.

States are immutable, so cloning an OpenSpiel state copies a reference; serialising
one stores the game's options and the actions played (as JSON), and deserialising
replays them, checking each as :meth:`~byzantium.core.game.Game.apply` does.

Playing costs what the library's own playouts cost plus one numbering of each
state's legal actions: a state works out its legal actions and their ids once and
keeps them, an id is applied with :meth:`~byzantium.core.game.Game.apply_unchecked`
(its action came from the state's own list), and the history is a chain of actions
that each state shares with its parent, so a step copies nothing and no earlier
state is kept alive (information state strings replay the chain when asked).

Built-in players
----------------

:func:`policy_bot` gives any of a game's built-in policies (``random``, ``first``
and the game's own: ``sensible``, ``expert``...) as an OpenSpiel bot
(``pyspiel.Bot``), for ``pyspiel.evaluate_bots`` or any code that plays bots. The
bot hands the policy the state of our game that the OpenSpiel state wraps, exactly
as ``byzantium simulate`` does, so it sees what the policy itself chooses to read
(a Belisarius policy hides the other player's markers from itself), and answers
with the id of the action the policy chose. Its random stream is seeded from its
seed and seat alone and restarts with the game, so a seed reproduces its play.
"""

from __future__ import annotations

import functools
import json
import random
import weakref
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import ClassVar, Generic, TypeVar, cast

import attrs

from byzantium.core.codec import JSONValue, canonical_json, codec_for
from byzantium.core.drivers import Policy
from byzantium.core.errors import ByzantiumError, UnknownOptionError
from byzantium.core.game import CHANCE, TERMINAL, Game, OptionValue
from byzantium.core.registry import game_class
from byzantium.core.simulate import policy_for
from byzantium.core.spaces import ActionSpace

try:
    import pyspiel  # type: ignore[import-not-found]
except ModuleNotFoundError:  # pragma: no cover - OpenSpiel is an optional extra
    pyspiel = None

__all__ = [
    "SPIEL_GAMES",
    "LimitExceededError",
    "SpielSpec",
    "action_for_id",
    "action_json",
    "action_names",
    "action_space_of",
    "chance_probabilities",
    "has_observation_tensor",
    "id_for_action",
    "id_for_json",
    "information_state_string",
    "legal_ids",
    "num_distinct_actions",
    "observation_string",
    "policy_bot",
    "register_games",
]

S = TypeVar("S")
A = TypeVar("A")


class LimitExceededError(ByzantiumError):
    """A state goes beyond a bound declared to OpenSpiel (more legal actions, chance
    outcomes or decisions than the game's :class:`SpielSpec` allows)."""


@attrs.frozen
class SpielSpec:
    """How one of our games is declared to OpenSpiel.

    ``game`` is our game id; ``short_name`` OpenSpiel's name of it. The three bounds
    are checked at run time (:class:`LimitExceededError`). ``min_utility`` and
    ``max_utility`` bound :meth:`~byzantium.core.game.Game.returns`; ``zero_sum``
    says whether the returns of every finished game sum to 0.
    """

    game: str
    short_name: str
    long_name: str
    #: The bound of positional ids; a game with a fixed action space uses its size.
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float
    zero_sum: bool
    perfect_information: bool


#: The games this module registers, by OpenSpiel short name.
#:
#: The bounds were measured with random playouts (``num_distinct_actions``: at most
#: 104 choices in 600 games of Sword of Orthodoxy over both scenarios and all its
#: options, 292 in 90 of Belisarius, where a counter set up in the Franks may go to
#: any of 291 hexes, 34.0; ``max_game_length``: at most 169 and 684 decisions).
#: Chance nodes roll at most three dice (216 outcomes) or draw one of at most 216
#: counters. Each bound leaves ample headroom for the Operations Phase of Belisarius
#: (issue 6). ``num_distinct_actions`` only bounds positional ids: a game with a fixed
#: action space (Sword of Orthodoxy) declares the space's size instead.
SPIEL_GAMES: Mapping[str, SpielSpec] = {
    spec.short_name: spec
    for spec in (
        SpielSpec(
            game="sword-of-orthodoxy",
            short_name="byzantium_sword_of_orthodoxy",
            long_name="Sword of Orthodoxy (byzantium)",
            num_distinct_actions=512,
            max_chance_outcomes=216,
            max_game_length=2_000,
            # returns: -1 for a Defeat, VP/100 for a victory (12.3: -0.1 to 0.9)
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=False,
            perfect_information=True,
        ),
        SpielSpec(
            game="belisarius",
            short_name="byzantium_belisarius",
            long_name="Belisarius (byzantium)",
            num_distinct_actions=1024,
            max_chance_outcomes=216,
            max_game_length=20_000,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            perfect_information=False,
        ),
    )
}


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options: tuple[tuple[str, OptionValue], ...]) -> Game[object, object]:
    """One shared instance of our game per id and options (games are stateless)."""
    return game_class(game_id)(dict(options))


# -- the action encoding ---------------------------------------------------------------


#: Each game's action space, or None for a game without one, found once per game.
_SPACES: weakref.WeakKeyDictionary[Game[object, object], ActionSpace[object, object] | None] = (
    weakref.WeakKeyDictionary()
)


def action_space_of(game: Game[S, A]) -> ActionSpace[S, A] | None:
    """The game's fixed action space, or None for a game without one (positional ids)."""
    key = cast(Game[object, object], game)
    if key in _SPACES:
        return cast("ActionSpace[S, A] | None", _SPACES[key])
    try:
        space: ActionSpace[S, A] | None = game.action_space()
    except NotImplementedError:
        space = None
    _SPACES[key] = cast("ActionSpace[object, object] | None", space)
    return space


def _numbered(game: Game[S, A], state: S) -> ActionSpace[S, A] | None:
    """The space numbering the ids of ``state``: none at chance nodes (positional)."""
    space = action_space_of(game)
    if space is None or game.current_player(state) == CHANCE:
        return None
    return space


def legal_ids(game: Game[S, A], state: S) -> list[int]:
    """The ids of the legal actions of ``state``, in :meth:`~byzantium.core.game.Game.legal_actions`
    order (numbers in the action space at a player node of a game that has one,
    positions otherwise)."""
    choices = game.legal_actions(state)
    space = _numbered(game, state)
    if space is None:
        return list(range(len(choices)))
    return [space.index(state, action) for action in choices]


def action_for_id(game: Game[S, A], state: S, action_id: int) -> A:
    """The action (or chance outcome) whose id is ``action_id`` in ``state``."""
    choices = game.legal_actions(state)
    space = _numbered(game, state)
    if space is not None:
        for action in choices:
            if space.index(state, action) == action_id:
                return action
        what = space.label(action_id) if 0 <= action_id < space.size else "out of range"
        raise ValueError(f"no action {action_id} ({what}) here: {len(choices)} actions are legal")
    if not 0 <= action_id < len(choices):
        raise ValueError(f"no action {action_id} here: {len(choices)} actions are legal")
    return choices[action_id]


def id_for_action(game: Game[S, A], state: S, action: A) -> int:
    """The id of a legal action (or chance outcome) of ``state``."""
    choices = game.legal_actions(state)
    if action not in choices:
        raise ValueError(f"{action!r} is not legal here")
    space = _numbered(game, state)
    if space is None:
        return choices.index(action)
    return space.index(state, action)


def action_json(game: Game[S, A], state: S, action_id: int) -> JSONValue:
    """The action of an id as JSON (:meth:`~byzantium.core.game.Game.encode_action`)."""
    return game.encode_action(action_for_id(game, state, action_id))


def id_for_json(game: Game[S, A], state: S, data: JSONValue) -> int:
    """The id of the action whose JSON is ``data`` (the inverse of :func:`action_json`)."""
    return id_for_action(game, state, game.decode_action(data))


def action_names(game: Game[S, A], state: S) -> tuple[str, ...]:
    """The names of the legal actions of ``state``, in
    :meth:`~byzantium.core.game.Game.legal_actions` order:
    :meth:`~byzantium.core.game.Game.describe_action`, followed by the action's JSON
    where two actions have the same description (two counters of the same name in a
    cup, say)."""
    choices = game.legal_actions(state)
    names = [game.describe_action(state, action) for action in choices]
    repeated = {name for name, count in Counter(names).items() if count > 1}
    return tuple(
        f"{name} {canonical_json(game.encode_action(action))}" if name in repeated else name
        for name, action in zip(names, choices, strict=True)
    )


def chance_probabilities(game: Game[S, A], state: S) -> list[tuple[int, float]]:
    """The outcomes of a chance node as (id, probability) pairs, our exact fractions
    converted to the nearest floats."""
    return [(i, float(p)) for i, (_, p) in enumerate(game.chance_outcomes(state))]


# -- observations -------------------------------------------------------------------


def observation_string(game: Game[S, A], state: S, player: int) -> str:
    """What ``player`` may see of ``state``, as canonical JSON of
    :meth:`~byzantium.core.game.Game.observation` (nothing else)."""
    view = game.observation(state, player)
    return canonical_json(codec_for(type(view)).encode(view))


def has_observation_tensor(game: Game[S, A]) -> bool:
    """Whether the game has an observation tensor (OpenSpiel's
    ``provides_observation_tensor``)."""
    try:
        game.observation_tensor_layout()
    except NotImplementedError:
        return False
    return True


def _actor_name(game: Game[S, A], actor: int) -> str:
    return "chance" if actor == CHANCE else game.player_name(actor)


def information_state_string(
    game: Game[S, A], trail: Sequence[tuple[S, A]], state: S, player: int
) -> str:
    """``player``'s information state: the actions played so far as he may see them,
    one line each (``trail`` holds each action with the state it was played in),
    then his observation of ``state``."""
    lines = [f"player {player}"]
    for before, action in trail:
        seen = game.visible_action(before, action, player)
        if seen is not None:
            actor = _actor_name(game, game.current_player(before))
            lines.append(f"{actor}: {canonical_json(game.encode_action(seen))}")
    lines.append(observation_string(game, state, player))
    return "\n".join(lines)


# -- the OpenSpiel side -------------------------------------------------------------


#: No action: what :meth:`_Node.play` finds for an id that is not legal.
_MISSING = object()


@attrs.frozen
class _Link(Generic[A]):
    """One action of a game's history, linked to the actions before it: a node
    shares its parent's history and adds one link, so playing a step copies
    nothing and keeps no earlier state alive."""

    action: A
    before: _Link[A] | None


def _actions(link: _Link[A] | None) -> list[A]:
    """The actions of a history, first to last."""
    actions: list[A] = []
    while link is not None:
        actions.append(link.action)
        link = link.before
    actions.reverse()
    return actions


@attrs.frozen(slots=False)
class _Node(Generic[S, A]):
    """The contents of an OpenSpiel state: our game, our state and the actions played
    (a linked history, see :class:`_Link`). Immutable: copying returns it unchanged,
    pickling stores the options and the actions, and unpickling replays them with
    the checked :meth:`~byzantium.core.game.Game.apply`.

    What OpenSpiel asks of a state (its legal ids, the action of an id) is worked
    out once per state and kept with it; an id is applied with
    :meth:`~byzantium.core.game.Game.apply_unchecked`, since the action it stands
    for was taken from the state's own legal actions.
    """

    spec: SpielSpec
    game: Game[S, A]
    state: S
    history: _Link[A] | None = None
    decisions: int = 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Node[S, A]:
        del memo
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        actions = [canonical_json(self.game.encode_action(a)) for a in _actions(self.history)]
        options = tuple(sorted(self.game.options.items()))
        return (_replay, (self.spec.short_name, options, actions))

    @property
    def trail(self) -> list[tuple[S, A]]:
        """Each action played with the state it was played in, first to last,
        rebuilt by replaying the history from the initial state (for information
        state strings, which are asked for far less often than moves are made)."""
        game = self.game
        state = cast(S, _initial(self.spec, tuple(sorted(game.options.items()))))
        trail: list[tuple[S, A]] = []
        for action in _actions(self.history):
            trail.append((state, action))
            state = game.apply_unchecked(state, action)
        return trail

    @functools.cached_property
    def actor(self) -> int:
        """Who decides here (a player, CHANCE or TERMINAL)."""
        return self.game.current_player(self.state)

    @functools.cached_property
    def menu(self) -> tuple[tuple[A, ...], tuple[int, ...]]:
        """The legal actions in :meth:`~byzantium.core.game.Game.legal_actions` order
        and their ids (see :func:`legal_ids`), each worked out once."""
        choices = tuple(self.game.legal_actions(self.state))
        space = action_space_of(self.game)
        if space is None or self.actor == CHANCE:
            return choices, tuple(range(len(choices)))
        return choices, tuple(space.indices(self.state))

    @functools.cached_property
    def by_id(self) -> dict[int, A]:
        """The legal action of each legal id."""
        choices, ids = self.menu
        return dict(zip(ids, choices, strict=True))

    def play(self, action_id: int) -> _Node[S, A]:
        """The node after the action of ``action_id``, a legal id of this state."""
        action = self.by_id.get(action_id, _MISSING) if isinstance(action_id, int) else _MISSING
        if action is _MISSING:
            # not legal here: the helper says why (out of range, or which slot)
            action_for_id(self.game, self.state, action_id)
            raise ValueError(f"no action {action_id!r} here")  # pragma: no cover
        legal = cast(A, action)
        return self._after(legal, self.game.apply_unchecked(self.state, legal))

    def replayed(self, action: A) -> _Node[S, A]:
        """The node after ``action``, read from elsewhere (a serialised state): checked
        as :meth:`~byzantium.core.game.Game.apply` checks it."""
        id_for_action(self.game, self.state, action)  # not legal: ValueError, as ids
        return self._after(action, self.game.apply(self.state, action))

    def _after(self, action: A, after: S) -> _Node[S, A]:
        decisions = self.decisions + (self.actor != CHANCE)
        if decisions > self.spec.max_game_length:
            raise LimitExceededError(
                f"{self.spec.short_name}: more than max_game_length="
                f"{self.spec.max_game_length} decisions; raise the bound in SPIEL_GAMES"
            )
        return _Node(self.spec, self.game, after, _Link(action, self.history), decisions)

    @functools.cached_property
    def names(self) -> dict[int, str]:
        """The names of the legal ids, unique as OpenSpiel requires (see
        :func:`action_names`)."""
        names = action_names(self.game, self.state)
        return dict(zip(self.ids, names, strict=True))

    @property
    def ids(self) -> tuple[int, ...]:
        """The legal ids in the order of the legal actions (see :func:`legal_ids`)."""
        return self.menu[1]

    @functools.cached_property
    def sorted_ids(self) -> tuple[int, ...]:
        """The legal ids, sorted (checked against the declared bound once)."""
        ids = self.ids
        if self.actor == CHANCE:
            bound, what = self.spec.max_chance_outcomes, "max_chance_outcomes"
        else:
            bound, what = num_distinct_actions(self.spec, self.game), "num_distinct_actions"
        if ids and (len(set(ids)) != len(ids) or max(ids) >= bound or min(ids) < 0):
            raise LimitExceededError(
                f"{self.spec.short_name}: legal ids beyond {what}={bound} (or twice) at "
                f"rule {self.game.decision_rule(self.state)}; raise the bound in SPIEL_GAMES"
            )
        return tuple(sorted(ids))

    def choices(self) -> list[int]:
        """The legal ids, sorted (checked against the declared bound)."""
        return list(self.sorted_ids)

    def name(self, action_id: int) -> str:
        """What ``action_id`` does here: its name if legal, else its slot's label in
        the action space (positional ids out of range raise :class:`ValueError`)."""
        known = self.names.get(action_id)
        if known is not None:
            return known
        space = _numbered(self.game, self.state)
        if space is not None and 0 <= action_id < space.size:
            return space.label(action_id)
        count = len(self.ids)
        raise ValueError(f"no action {action_id} here: {count} actions are legal")


def num_distinct_actions(spec: SpielSpec, game: Game[S, A]) -> int:
    """The size of the game's action space, or the spec's bound of positional ids."""
    space = action_space_of(game)
    return spec.num_distinct_actions if space is None else space.size


def _replay(
    short_name: str, options: tuple[tuple[str, OptionValue], ...], actions: list[str]
) -> _Node[object, object]:
    spec = SPIEL_GAMES[short_name]
    node: _Node[object, object] = _Node(spec, _game(spec.game, options), _initial(spec, options))
    for text in actions:
        node = node.replayed(node.game.decode_action(json.loads(text)))
    return node


@functools.lru_cache(maxsize=32)
def _initial(spec: SpielSpec, options: tuple[tuple[str, OptionValue], ...]) -> object:
    return _game(spec.game, options).initial_state()


def policy_bot(game: object, name: str, *, seed: int = 0, player: int = 0) -> PolicyBot:
    """A ``pyspiel.Bot`` that plays ``player``'s seat of ``game`` (an OpenSpiel game
    this module registered) with the built-in policy ``name``.

    The policy decides from the state of our game inside the OpenSpiel state, as in
    ``byzantium simulate``; its random stream is seeded from ``seed`` and ``player``
    and restarts when the bot does, so the same seed plays the same game. An unknown
    policy raises :class:`~byzantium.core.errors.UnknownOptionError` naming the known
    ones; asking the bot to act for another player, or at a chance node, raises
    :class:`ValueError`.
    """
    if pyspiel is None:
        raise ModuleNotFoundError(
            "OpenSpiel is not installed: pip install 'byzantium[openspiel]'", name="pyspiel"
        )
    ours = getattr(game, "byzantium_game", None)
    if not isinstance(ours, Game):
        raise TypeError(f"not a game of byzantium.openspiel: {game!r}"[:200])
    if not 0 <= player < ours.NUM_PLAYERS:
        raise UnknownOptionError(f"{ours.ID} has players 0 to {ours.NUM_PLAYERS - 1}, not {player}")
    return PolicyBot(ours, name, policy_for(ours, name), seed=seed, player=player)


def register_games() -> None:
    """Register every game of :data:`SPIEL_GAMES` with OpenSpiel (done on import when
    OpenSpiel is installed; registering again does nothing)."""
    if pyspiel is None:
        raise ModuleNotFoundError(
            "OpenSpiel is not installed: pip install 'byzantium[openspiel]'", name="pyspiel"
        )
    known = set(pyspiel.registered_names())
    for spec in SPIEL_GAMES.values():
        if spec.short_name not in known:
            # A class, not a closure, as the maker: OpenSpiel's registry outlives the
            # interpreter, and a class is never freed when the registry lets it go.
            maker = type(f"SpielGame_{spec.short_name}", (SpielGame,), {"spec": spec})
            pyspiel.register_game(_game_type(spec), maker)


def _game_type(spec: SpielSpec) -> object:
    kind = pyspiel.GameType
    info = kind.Information
    return kind(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION
        if spec.perfect_information
        else info.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM if spec.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game_class(spec.game).NUM_PLAYERS,
        min_num_players=game_class(spec.game).NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=has_observation_tensor(_game(spec.game, ())),
        parameter_specification={o.name: o.default for o in game_class(spec.game).OPTIONS},
    )


if pyspiel is not None:
    import numpy  # OpenSpiel depends on it

    class SpielGame(pyspiel.Game):  # type: ignore[misc]
        """One of our games as an OpenSpiel game (made by ``pyspiel.load_game``).

        :func:`register_games` registers a subclass per game, which sets ``spec``.
        """

        spec: ClassVar[SpielSpec]

        def __init__(self, params: Mapping[str, object] | None = None) -> None:
            spec = self.spec
            options = game_class(spec.game).resolve_options(params or {})
            self.options = tuple(sorted(options.items()))
            self.byzantium_game = _game(spec.game, self.options)
            cls = game_class(spec.game)
            info = pyspiel.GameInfo(
                num_distinct_actions=num_distinct_actions(spec, self.byzantium_game),
                max_chance_outcomes=spec.max_chance_outcomes,
                num_players=cls.NUM_PLAYERS,
                min_utility=spec.min_utility,
                max_utility=spec.max_utility,
                utility_sum=0.0 if spec.zero_sum else None,
                max_game_length=spec.max_game_length,
            )
            super().__init__(_game_type(spec), info, dict(self.options))

        def new_initial_state(self, *args: object) -> SpielState:
            """The state before the first decision (OpenSpiel's initial-state strings
            are not supported)."""
            if args:
                raise ValueError(f"{self.spec.short_name} has no initial-state strings")
            return SpielState(self)

        def make_py_observer(self, iig_obs_type: object = None, params: object = None) -> _Observer:
            """Observation strings (``perfect_recall=False``, the default) or
            information state strings (``perfect_recall=True``) of one player."""
            if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
                params, iig_obs_type = iig_obs_type, None  # called as f(params)
            if params:
                raise ValueError(f"observation parameters are not supported: {params!r}")
            obs = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
            private = pyspiel.PrivateInfoType.SINGLE_PLAYER
            if not obs.public_info or (
                obs.private_info != private and not self.spec.perfect_information
            ):
                raise ValueError(
                    f"{self.spec.short_name} observes one player's view only "
                    "(public_info=True, private_info=SINGLE_PLAYER)"
                )
            game = self.byzantium_game
            tensor = not obs.perfect_recall and has_observation_tensor(game)
            return _Observer(bool(obs.perfect_recall), game if tensor else None)

    class SpielState(pyspiel.State):  # type: ignore[misc]
        """A state of one of our games as an OpenSpiel state.

        ``byzantium_state`` is our state and ``byzantium_game`` our game, for the
        helpers of this module and everything else of the library.
        """

        def __init__(self, game: SpielGame) -> None:
            super().__init__(game)
            state = _initial(game.spec, game.options)
            self._node: _Node[object, object] = _Node(game.spec, game.byzantium_game, state)

        @property
        def byzantium_game(self) -> Game[object, object]:
            """Our game."""
            return self._node.game

        @property
        def byzantium_state(self) -> object:
            """Our state."""
            return self._node.state

        def current_player(self) -> int:
            """A player index, or OpenSpiel's chance or terminal id."""
            actor = self._node.actor
            if actor == TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            if actor == CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            return actor

        def is_terminal(self) -> bool:
            """Whether the game is over."""
            return self._node.actor == TERMINAL

        def _legal_actions(self, player: int) -> list[int]:
            del player  # OpenSpiel only asks for the player to move
            return self._node.choices()

        def chance_outcomes(self) -> list[tuple[int, float]]:
            """Every outcome id with its probability."""
            self._node.choices()
            return chance_probabilities(self._node.game, self._node.state)

        def _apply_action(self, action: int) -> None:
            self._node = self._node.play(action)

        def _action_to_string(self, player: int, action: int) -> str:
            del player
            return self._node.name(action)

        def returns(self) -> list[float]:
            """Our game's returns when it is over, 0 for everybody before."""
            node = self._node
            if not node.game.is_terminal(node.state):
                return [0.0] * node.game.NUM_PLAYERS
            return list(node.game.returns(node.state))

        def __str__(self) -> str:
            node = self._node
            return node.game.render(node.state)

    class PolicyBot(pyspiel.Bot):  # type: ignore[misc]
        """A built-in policy of our game as an OpenSpiel bot (see :func:`policy_bot`)."""

        def __init__(
            self,
            game: Game[object, object],
            name: str,
            policy: Policy[object, object],
            *,
            seed: int,
            player: int,
        ) -> None:
            pyspiel.Bot.__init__(self)
            self.game = game
            self.name = name
            self.policy = policy
            self.seed = seed
            self.player = player
            self.rng = self._stream()

        def _stream(self) -> random.Random:
            return random.Random(f"byzantium:bot:{self.seed}:{self.player}")

        def player_id(self) -> int:
            """The seat the bot plays."""
            return self.player

        def provides_policy(self) -> bool:
            """No: the bot gives an action, not a distribution over them."""
            return False

        def restart(self) -> None:
            """A new game: the random stream starts again from the seed."""
            self.rng = self._stream()

        def restart_at(self, state: SpielState) -> None:
            """A game from ``state``: the random stream starts again from the seed."""
            del state
            self.rng = self._stream()

        def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
            """Nothing to remember: the policy reads every state afresh."""
            del state, player_id, action

        def step(self, state: SpielState) -> int:
            """The id of the action the policy picks in ``state``."""
            node = getattr(state, "_node", None)
            if not isinstance(node, _Node) or node.game.ID != self.game.ID:
                raise ValueError(f"not a state of {self.game.ID}: {state!r}"[:200])
            actor = node.game.current_player(node.state)
            if actor != self.player:
                who = (
                    "chance"
                    if actor == CHANCE
                    else "nobody"
                    if actor == TERMINAL
                    else (node.game.player_name(actor))
                )
                raise ValueError(
                    f"the {self.name} bot of {node.game.player_name(self.player)} was asked "
                    f"to act where {who} decides"
                )
            action = self.policy(node.game, node.state, self.rng)
            choices, ids = node.menu
            try:
                return ids[choices.index(action)]
            except ValueError:
                raise ValueError(
                    f"the {self.name} policy chose {action!r}, not legal here"
                ) from None

    class _Observer:
        """The Python observer OpenSpiel asks for strings and observation tensors.

        With ``game`` (a game with an observation tensor) ``tensor`` is a float32
        array of the layout's size and ``dict`` one view of it per segment; without,
        ``tensor`` is None (information states have strings only).
        """

        def __init__(self, perfect_recall: bool, game: Game[S, A] | None = None) -> None:
            self.perfect_recall = perfect_recall
            self.tensor: numpy.ndarray[tuple[int], numpy.dtype[numpy.float32]] | None = None
            self.dict: dict[str, object] = {}
            if game is not None:
                layout = game.observation_tensor_layout()
                tensor = numpy.zeros(layout.size, numpy.float32)
                for segment in layout.segments:
                    start = layout.offset(segment.name)
                    view = tensor[start : start + segment.size]
                    self.dict[segment.name] = view.reshape(segment.shape)
                self.tensor = tensor

        def set_from(self, state: SpielState, player: int) -> None:
            """Fill the tensor with ``player``'s observation tensor of ``state``."""
            if self.tensor is not None:
                node = state._node
                self.tensor[:] = node.game.observation_tensor(node.state, player)

        def string_from(self, state: SpielState, player: int) -> str:
            """The observation or information state string of ``player``."""
            node = state._node
            if self.perfect_recall:
                return information_state_string(node.game, node.trail, node.state, player)
            return observation_string(node.game, node.state, player)

    register_games()
