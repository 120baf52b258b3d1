"""Speed work keeps the games: seeded games play exactly as they did when recorded.

A few seeded games per scenario (random play, with the optional rules off and all on,
and the built-in ``sensible`` player) are reduced to one digest of their whole
sequence: who acted, the action (as JSON), the digest of every state reached, and the
event text of every transition. ``data/same_games.json`` holds the digests recorded
from the engine before the speed work of issue 16; any change to what a menu offers,
in which order, to a state, or to an event's words changes a digest. A change of the
rules that is meant to change games re-records the file with
``python -m tests.belisarius.test_same_games`` (and says so in its commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import BelAction, BelState
from byzantium.core.codec import canonical_json
from byzantium.core.drivers import play
from byzantium.core.game import Step

RULEBOOK = "belisarius"

FIXTURE = Path(__file__).parent / "data" / "same_games.json"

#: Every boolean option on but ``capitulation``.
ALL_ON = {
    spec.name: True
    for spec in Belisarius.OPTIONS
    if isinstance(spec.default, bool) and spec.name != "capitulation"
}

#: name -> (scenario, options, policy or "" for random play, seed).
GAMES: dict[str, tuple[int, dict[str, bool], str, int]] = {
    **{
        f"scenario {n} random seed {seed}": (n, {"capitulation": False}, "", seed)
        for n, seeds in ((1, (0, 1)), (2, (0, 1)), (3, (4, 5)))
        for seed in seeds
    },
    **{f"scenario {n} all on random seed {n + 5}": (n, ALL_ON, "", n + 5) for n in (1, 2, 3)},
    "scenario 1 capitulation random seed 3": (1, {}, "", 3),
    "scenario 2 all on sensible seed 0": (2, ALL_ON, "sensible", 0),
}

#: Steps played of each game (enough for several Operations Phases, few seconds).
STEPS = 800


def game_digest(scenario: int, options: dict[str, bool], policy: str, seed: int) -> str:
    """The digest of a seeded game's first :data:`STEPS` steps: actors, actions,
    state digests and event text, in order."""
    game = Belisarius({"scenario": scenario, **options})
    digest = hashlib.sha256()

    def record(state: BelState, actor: int, action: BelAction, step: Step[BelState]) -> None:
        del state
        digest.update(f"{actor} {canonical_json(game.encode_action(action))}\n".encode())
        digest.update(game.state_digest(step.state).encode())
        for event in step.events:
            digest.update(f"{event.rule}|{event.kind}|{event.text}\n".encode())

    policies = game.policies()[policy] if policy else None
    play(game, policies, seed=seed, max_steps=STEPS, digests=False, on_step=record)
    return digest.hexdigest()[:32]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seeded_games_play_as_recorded(name: str) -> None:
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert game_digest(*GAMES[name]) == recorded[name]


def test_the_record_covers_every_game() -> None:
    assert set(json.loads(FIXTURE.read_text(encoding="utf-8"))) == set(GAMES)


if __name__ == "__main__":  # pragma: no cover - re-records the fixture
    table = {name: game_digest(*GAMES[name]) for name in sorted(GAMES)}
    FIXTURE.write_text(json.dumps(table, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"recorded {len(table)} games in {FIXTURE}\n")
