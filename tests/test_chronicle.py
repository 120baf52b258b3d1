"""The chronicle ``byzantium play`` prints tells the game in words (issue 37, 5)."""

from __future__ import annotations

import io
import re

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.cli import main
from byzantium.cli.common import chronicle_hook
from byzantium.core.drivers import play, random_policy
from byzantium.core.game import Game
from byzantium.core.registry import load_game

#: Ids are lower case words joined by hyphens (``army-epsilon-persia``, ``faction-walls``).
_ID = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")
#: Plain English that looks like an id.
_WORDS = frozenset({"roll-off"})
#: A four-digit hex number not introduced as a hex (``set up at 6823``).
_BARE_HEX = re.compile(r"(?<!hex )(?<![\d.])\d{4}(?![\d.])")


def _chronicle(game: Game[object, object], seed: int, max_steps: int) -> str:
    out = io.StringIO()
    play(game, random_policy, seed=seed, max_steps=max_steps, on_step=chronicle_hook(game, out))
    return out.getvalue()


def _ids(text: str) -> set[str]:
    return {m.group(0) for m in _ID.finditer(text)} - _WORDS


@pytest.mark.parametrize(
    ("name", "max_steps"), [("sword-of-orthodoxy", 1500), ("belisarius", 1500)]
)
def test_fifty_chronicles_name_every_component(name: str, max_steps: int) -> None:
    game = load_game(name)
    hexes = game.catalog.map if isinstance(game, Belisarius) else None
    found: dict[int, set[str]] = {}
    for seed in range(50):
        text = _chronicle(game, seed, max_steps)
        ids = _ids(text)
        if hexes is not None:
            ids |= {m.group(0) for m in _BARE_HEX.finditer(text) if int(m.group(0)) in hexes}
        if ids:
            found[seed] = ids
    assert not found, found


def test_the_id_checks_catch_ids() -> None:
    assert _ids("select army-epsilon-persia (a roll-off)") == {"army-epsilon-persia"}
    assert _BARE_HEX.findall("set up at 6823, hex 6824, 527-530 AD") == ["6823"]


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("sword-of-orthodoxy", "scenario campaign; no optional rules"),
        ("belisarius", "scenario 1; no optional rules"),
    ],
)
def test_the_first_line_says_the_options_in_words(name: str, first: str) -> None:
    out = io.StringIO()
    assert main(["play", name, "--seed", "1", "--quiet", "--max-steps", "5"], out) == 0
    line = out.getvalue().split("\n", 1)[0]
    assert line.endswith(f"policy random for every seat; {first}")
    assert "{" not in line


def test_switched_options_are_named_by_what_they_do() -> None:
    game = load_game("belisarius", pillage=True, capitulation=False)
    words = game.describe_options()
    assert words.startswith("scenario 1; ")
    assert "Pillage" in words and "no capitulation" in words
    assert "optional rules" not in words
