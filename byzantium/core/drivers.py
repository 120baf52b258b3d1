"""Drivers: playing games with policies, sampling chance from an explicit seed.

Nothing here touches the global :mod:`random` generator. :func:`play` derives two
independent streams from its seed, one for chance and one for the policies, so a
seed reproduces the same game on every machine, and changing a policy does not
change the dice it meets.

>>> from byzantium.core.dice import d6
>>> rng = random.Random(7)
>>> sample(d6(), rng) in range(1, 7)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

from byzantium.core.errors import ArgumentError, ByzantiumError
from byzantium.core.game import CHANCE, TERMINAL, Game, Step
from byzantium.core.records import GameRecord

__all__ = [
    "Policy",
    "ScriptExhaustedError",
    "StepHook",
    "chance_policy",
    "expected_value",
    "first_action_policy",
    "greedy_policy",
    "play",
    "playout",
    "random_policy",
    "sample",
    "scripted",
]

S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T")

#: A decision maker: given the game, the state and a random stream, pick an action.
Policy = Callable[[Game[S, A], S, random.Random], A]
#: Called after every step of :func:`play` with the state before, who acted, the
#: action and the transition (its new state and events).
StepHook = Callable[[S, int, A, Step[S]], None]


class ScriptExhaustedError(ByzantiumError):
    """A scripted policy was asked for more actions than it was given."""


#: How many tuples of outcomes :func:`_weights` keeps the weights of: a playout samples
#: a few kinds of chance node over and over (one die, two dice, a draw from a mug
#: whose contents a game hands out as the same tuple while they are unchanged).
_KEPT_WEIGHTS = 8

#: The integer weights of the last tuples of outcomes sampled, by the tuple's
#: identity, with the tuple itself (kept alive, so that its identity is not reused).
_last_weights: dict[int, tuple[object, int, tuple[int, ...]]] = {}


def _weights(outcomes: Sequence[tuple[T, Fraction]]) -> tuple[int, tuple[int, ...]]:
    """The common denominator of the probabilities and each outcome's numerator over it."""
    known = _last_weights.get(id(outcomes))
    if known is not None and known[0] is outcomes:
        return known[1], known[2]
    if not outcomes:
        raise ArgumentError("cannot sample from no outcomes")
    scale = math.lcm(*(p.denominator for _, p in outcomes))
    weights = tuple(p.numerator * (scale // p.denominator) for _, p in outcomes)
    if sum(weights) != scale or min(weights) < 0:
        raise ArgumentError(f"probabilities sum to {Fraction(sum(weights), scale)}, not 1")
    if isinstance(outcomes, tuple):  # immutable: the weights can be kept with it
        if len(_last_weights) >= _KEPT_WEIGHTS:
            del _last_weights[next(iter(_last_weights))]  # the oldest goes
        _last_weights[id(outcomes)] = (outcomes, scale, weights)
    return scale, weights


def sample(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """Draw one outcome with exactly its probability (no floating point).

    The weights of the last few tuples of outcomes are kept with them, so that the
    same dice, sampled again and again in a playout, are weighed once.
    """
    if type(outcomes) is not tuple and not isinstance(outcomes, Sequence):
        raise ArgumentError(f"outcomes are a sequence, not {repr(outcomes)[:60]}")
    try:
        scale, weights = _weights(outcomes)
    except ArgumentError:
        raise
    except (TypeError, ValueError, AttributeError):
        raise ArgumentError("outcomes are (outcome, Fraction) pairs") from None
    point = rng.randrange(scale)
    for (outcome, _), weight in zip(outcomes, weights, strict=True):
        if point < weight:
            return outcome
        point -= weight
    raise AssertionError("unreachable: weights sum to scale")  # pragma: no cover


def chance_policy(game: Game[S, A], state: S, rng: random.Random) -> A:
    """Sample a chance node's outcome with its exact probability."""
    return sample(game.chance_outcomes(state), rng)


def random_policy(game: Game[S, A], state: S, rng: random.Random) -> A:
    """Pick uniformly among the legal actions."""
    return rng.choice(game.legal_actions(state))


def first_action_policy(game: Game[S, A], state: S, rng: random.Random) -> A:
    """Always take the first legal action (the simplest one, by convention)."""
    del rng
    return game.legal_actions(state)[0]


def expected_value(
    game: Game[S, A],
    state: S,
    evaluate: Callable[[S, int], float],
    chance_depth: int,
    player: int,
) -> float:
    """The value of ``state`` for ``player``, averaging over chance nodes up to a depth.

    Terminal states are worth their :meth:`~byzantium.core.game.Game.returns`
    (scaled by 1000, so that the end dominates any heuristic); chance nodes deeper
    than ``chance_depth`` and decision nodes are worth ``evaluate(state, player)``.
    """
    actor = game.current_player(state)
    if actor == TERMINAL:
        return 1000.0 * game.returns(state)[player]
    if actor == CHANCE and chance_depth > 0:
        return sum(
            float(p)
            * expected_value(
                game, game.apply_unchecked(state, outcome), evaluate, chance_depth - 1, player
            )
            for outcome, p in game.chance_outcomes(state)
        )
    return evaluate(state, player)


def greedy_policy(evaluate: Callable[[S, int], float], chance_depth: int = 2) -> Policy[S, A]:
    """A one-step lookahead policy: the legal action with the best expected evaluation.

    Each action is applied and the chance nodes that follow are averaged over (up to
    ``chance_depth`` of them in a row) before ``evaluate`` scores the resulting
    state from the deciding player's point of view. Ties go to the earlier (simpler)
    action, and ``rng`` is not used, so the policy is deterministic.
    """

    def policy(game: Game[S, A], state: S, rng: random.Random) -> A:
        del rng
        player = game.current_player(state)
        actions = game.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        scores = [
            expected_value(
                game, game.apply_unchecked(state, action), evaluate, chance_depth, player
            )
            for action in actions
        ]
        return actions[scores.index(max(scores))]

    return policy


def scripted(actions: Iterable[A]) -> Policy[S, A]:
    """A policy that plays the given actions in order (chance outcomes too).

    Use it to force rolls: ``play(game, chance=scripted([Roll(6), Roll(1)]))``.
    """
    if not isinstance(actions, Iterable) or isinstance(actions, str | bytes):
        raise ArgumentError(f"a script is an iterable of actions, not {repr(actions)[:60]}")
    pending = iter(actions)

    def policy(game: Game[S, A], state: S, rng: random.Random) -> A:
        del game, state, rng
        try:
            return next(pending)
        except StopIteration:
            raise ScriptExhaustedError("the script has no more actions") from None

    return policy


def _policy_table(
    game: Game[S, A], policies: Policy[S, A] | Sequence[Policy[S, A]] | None
) -> list[Policy[S, A]]:
    if not isinstance(game, Game):
        raise ArgumentError(f"a game is needed, not {repr(game)[:60]}")
    if policies is None:
        return [random_policy] * game.NUM_PLAYERS
    if callable(policies):
        return [policies] * game.NUM_PLAYERS
    if not isinstance(policies, Iterable):
        raise ArgumentError(f"policies are a policy or a sequence of them, not {policies!r}"[:200])
    table = list(policies)
    if not all(callable(p) for p in table):
        raise ArgumentError("policies are callables (game, state, rng) -> action")
    if len(table) != game.NUM_PLAYERS:
        raise ArgumentError(f"{game.ID} has {game.NUM_PLAYERS} players, got {len(table)} policies")
    return table


def play(
    game: Game[S, A],
    policies: Policy[S, A] | Sequence[Policy[S, A]] | None = None,
    *,
    seed: int = 0,
    chance: Policy[S, A] | None = None,
    max_steps: int = 1_000_000,
    digests: bool = True,
    on_step: StepHook[S, A] | None = None,
) -> GameRecord[A]:
    """Play a game from its initial state and return its record.

    ``policies`` is one policy for every player or a sequence with one per player
    (default: uniformly random legal actions). Chance nodes are sampled from the
    seeded stream unless ``chance`` overrides them (for instance with
    :func:`scripted` rolls). Play stops at a terminal state or after ``max_steps``
    steps. With ``digests`` the record stores a digest of every state, so a replay
    detects the first step that differs. ``on_step`` sees every transition with
    its events (a chronicle printer, say).
    """
    table = _policy_table(game, policies)
    decide_chance: Policy[S, A] = chance if chance is not None else chance_policy
    chance_rng = random.Random(f"byzantium:{seed}:chance")
    policy_rng = random.Random(f"byzantium:{seed}:policy")
    state = game.initial_state()
    actors: list[int] = []
    actions: list[A] = []
    trail: list[str] = []
    for _ in range(max_steps):
        actor = game.current_player(state)
        if actor == TERMINAL:
            break
        if actor == CHANCE:
            action = decide_chance(game, state, chance_rng)
        else:
            action = table[actor](game, state, policy_rng)
        if on_step is not None:
            step = game.step(state, action)
            on_step(state, actor, action, step)
            state = step.state
        else:
            state = game.apply(state, action)
        actors.append(actor)
        actions.append(action)
        if digests:
            trail.append(game.state_digest(state))
    return GameRecord(
        game=game.ID,
        options=tuple(sorted(game.options.items())),
        components=game.components_digest(),
        seed=seed,
        actors=tuple(actors),
        actions=tuple(actions),
        digests=tuple(trail),
        final=game.state_digest(state),
    )


def playout(
    game: Game[S, A],
    state: S,
    rng: random.Random,
    policy: Policy[S, A] = random_policy,
    *,
    max_steps: int = 1_000_000,
) -> S:
    """Play on from ``state`` without keeping a record; the fast path for simulations.

    Chance outcomes, sampled from the state's own list, are applied with
    :meth:`~byzantium.core.game.Game.apply_unchecked`. The policy's choices are
    checked (:meth:`~byzantium.core.game.Game.apply`), which costs next to nothing
    when the policy took them from ``legal_actions``, as the game keeps the menu it
    listed last.
    """
    if not isinstance(game, Game) or not isinstance(rng, random.Random):
        raise ArgumentError("playout takes a game, a state of it and a random.Random")
    for _ in range(max_steps):
        actor = game.current_player(state)
        if actor == TERMINAL:
            break
        if actor == CHANCE:
            state = game.apply_unchecked(state, sample(game.chance_outcomes(state), rng))
        else:
            state = game.apply(state, policy(game, state, rng))
    return state
