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


# -- a heading per Turn, the set-up by Region --------------------------------------------


def _played(name: str, *args: str) -> str:
    out = io.StringIO()
    assert main(["play", name, "--seed", "1", *args], out) == 0
    return out.getvalue()


def test_a_sword_turn_heading_tells_the_turn_of_27_and_the_nearest_threat() -> None:
    text = _played("sword-of-orthodoxy", "--max-steps", "40")
    heading = text.split("== Turn 1 ", 1)[1].split("\n")[:3]
    assert heading[0] == "of 27 (421-460) =="
    assert "treasury $ 1" in heading[1] and "Factions in Constantinople 9" in heading[1]
    assert heading[2].startswith("   nearest threat: ")


def test_the_nearest_threat_puts_a_siege_first() -> None:
    from byzantium.sword_of_orthodoxy.components import Path, TileKind
    from byzantium.sword_of_orthodoxy.engine import Context
    from byzantium.sword_of_orthodoxy.render import nearest_threat
    from byzantium.sword_of_orthodoxy.world import move

    game = load_game("sword-of-orthodoxy")
    ctx = Context(game, None)
    state = game.initial_state()
    assert not nearest_threat(ctx, state).startswith("Siege")
    siege = game.catalog.tiles_of(TileKind.SIEGE)[0]
    besieged = move(ctx, state, siege, game.catalog.spaces[game.catalog.zone(Path.BETA)].id)
    assert nearest_threat(ctx, besieged).startswith("Siege on Path Β; ")


@pytest.mark.rule("22.1", game="belisarius")
def test_a_belisarius_heading_says_who_may_see_the_treasuries() -> None:
    text = _played("belisarius", "--policy", "sensible", "--max-steps", "100")
    assert "treasuries: Empire 15, Barbarian 10 (each hidden from the other, 22.1)" in text
    game = load_game("belisarius")
    state = game.initial_state()
    import attrs

    while state.turn < 1:
        state = game.apply(
            state,
            game.legal_actions(state)[0]
            if game.current_player(state) >= 0
            else game.chance_outcomes(state)[0][0],
        )
    revealed = attrs.evolve(state, revealed=(True, False))
    assert "(the Empire may see the Barbarian's, not the reverse)" in game.chronicle_heading(
        revealed
    )
    assert "(" not in game.chronicle_heading(revealed, 1).split("\n")[1]


def test_the_belisarius_set_up_is_summed_up_by_region_unless_verbose() -> None:
    short = _played("belisarius", "--policy", "sensible", "--max-steps", "100")
    assert "Set-up by Region:" in short and "is set up at" not in short
    assert "  Persia: Barbarian 12 (" in short
    full = _played("belisarius", "--policy", "sensible", "--max-steps", "100", "--verbose")
    assert "Set-up by Region:" not in full
    assert "Armenia Field Army 1 is set up at Theodosiopolis (hex 6823)" in full
    assert len(short.splitlines()) < len(full.splitlines()) - 100


# -- the closing summary ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
def test_quiet_prints_only_the_closing_summary(name: str) -> None:
    text = _played(name, "--policy", "sensible", "--quiet")
    lines = text.splitlines()
    assert len(lines) <= 15, text
    assert lines[1].startswith("Result: ") and lines[2].startswith("Cause [")
    assert lines[3].startswith("Length: ")
    assert "/" not in text.replace("Path", "")  # no fractions such as 3/2
    assert "{" not in text


def test_the_summary_tells_how_long_and_what_decided_it() -> None:
    text = _played("sword-of-orthodoxy", "--policy", "sensible", "--quiet")
    assert "Length: 9 Turns of 27, 421-780." in text
    assert "Decisive moments:" in text and "besiege Constantinople" in text
    text = _played("belisarius", "--policy", "sensible", "--quiet")
    assert "Length: 4 game turns, 527-542 AD." in text
    assert "  turn 4: [4.41] Ostrogoths becomes the Empire" in text


def test_points_read_as_decimals() -> None:
    from fractions import Fraction

    from byzantium.core.game import decimal

    assert (decimal(Fraction(53, 2)), decimal(Fraction(4)), decimal(7)) == ("26.5", "4", "7")
