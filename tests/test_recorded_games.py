"""Speed work keeps the games: seeded random games play exactly as they were recorded.

Over 400 seeded games of each game (Sword of Orthodoxy: Campaign and Millennium games,
whole; Belisarius: the three scenarios, with the optional rules off and all on, their
first :data:`BEL_STEPS` steps), every action taken and the digest of every state
reached are hashed into one digest per game. ``data/recorded_games.json`` holds the
digests recorded from the engine before menus were built when asked for (issue 41):
a menu that offers something else, in another order, or a state that differs in any
part changes a digest. The games are played on the fast path
(:meth:`~byzantium.core.game.Game.apply_unchecked`), a menu asked for once a state's
children have been built, and a part of them on the checked path too.

A change of the rules that is meant to change games re-records the file with
``python -m tests.test_recorded_games`` (and says so in its commit).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from byzantium import load_game
from byzantium.core.codec import canonical_json
from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL, Game

FIXTURE = Path(__file__).parent / "data" / "recorded_games.json"

#: Steps played of each Belisarius game (a whole game runs to thousands).
BEL_STEPS = 300

AnyGame = Game[Any, Any]


def _sword(seed: int) -> tuple[str, dict[str, object], int]:
    scenario = "millennium" if seed % 4 == 3 else "campaign"
    return "sword-of-orthodoxy", {"scenario": scenario}, 100_000


def _belisarius(seed: int) -> tuple[str, dict[str, object], int]:
    options: dict[str, object] = {"scenario": 1 + seed % 3, "capitulation": seed % 5 == 4}
    if seed % 4 == 1:
        game = load_game("belisarius")
        for spec in game.OPTIONS:
            if isinstance(spec.default, bool) and spec.name != "capitulation":
                options[spec.name] = True
    return "belisarius", options, BEL_STEPS


#: Game name -> how to make its seeded game: (game id, options, most steps).
KINDS: dict[str, Callable[[int], tuple[str, dict[str, object], int]]] = {
    "sword-of-orthodoxy": _sword,
    "belisarius": _belisarius,
}

#: Seeds played of each game.
SEEDS = range(400)

_GAMES: dict[tuple[str, tuple[tuple[str, object], ...]], AnyGame] = {}


def _game(name: str, options: dict[str, object]) -> AnyGame:
    key = (name, tuple(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(name, **options)
    return game


def game_digest(kind: str, seed: int, checked: bool = False, children: bool = False) -> str:
    """The digest of a seeded random game: its length, then each action (as JSON) and
    the digest of the state after it, in order.

    ``checked`` plays it with :meth:`~byzantium.core.game.Game.step`; ``children``
    first builds every legal child of each decision (at most 30) before listing the
    chosen child's own menu, so that menus are asked for out of their order.
    """
    name, options, steps = KINDS[kind](seed)
    game = _game(name, options)
    rng = random.Random(seed)
    state = game.initial_state()
    digest = hashlib.sha256()
    count = 0
    for count in range(steps):  # noqa: B007 - the length is part of the digest
        actor = game.current_player(state)
        if actor == TERMINAL:
            break
        if actor == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            menu = game.legal_actions(state)
            action = rng.choice(menu)
            if children:
                for other in menu[:30]:
                    game.apply_unchecked(state, other)
        state = game.step(state, action).state if checked else game.apply_unchecked(state, action)
        digest.update(canonical_json(game.encode_action(action)).encode())
        digest.update(game.state_digest(state).encode())
    else:
        count = steps
    digest.update(f"{count}".encode())
    return digest.hexdigest()[:24]


def _recorded() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_seeded_games_play_as_recorded(kind: str) -> None:
    recorded = _recorded()[kind]
    assert len(recorded) == len(SEEDS)
    differ = [seed for seed in SEEDS if game_digest(kind, seed) != recorded[seed]]
    assert not differ, f"{len(differ)} games differ, the first seeds {differ[:10]}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_checked_games_play_as_recorded(kind: str) -> None:
    recorded = _recorded()[kind]
    for seed in SEEDS[:40]:
        assert game_digest(kind, seed, checked=True) == recorded[seed], seed


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_menus_asked_for_after_the_children_are_built(kind: str) -> None:
    """A menu listed after its siblings were built (and their menus not) is the menu
    recorded: building it later than the transition that asks for it changes nothing."""
    recorded = _recorded()[kind]
    for seed in SEEDS[:25]:
        assert game_digest(kind, seed, children=True) == recorded[seed], seed


def main() -> int:
    """Record the digests of every seeded game (run from the repository's top)."""
    record = {kind: [game_digest(kind, seed) for seed in SEEDS] for kind in sorted(KINDS)}
    FIXTURE.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"recorded {sum(map(len, record.values()))} games in {FIXTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
