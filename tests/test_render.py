"""The pictures of byzantium.render: every set-up and random positions of both games
draw as well-formed SVG with every piece where the state has it; a player's view
never shows what the other player hides (Belisarius 22.0, 22.1)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import TypeVar

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import AVAILABLE, FIRST_HEX, BelState
from byzantium.core.game import CHANCE, Game
from byzantium.core.registry import load_game
from byzantium.render import after_setup, svg
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState

NS = "{http://www.w3.org/2000/svg}"

S = TypeVar("S")
A = TypeVar("A")


def _walk(game: Game[S, A], seed: int, steps: int) -> list[S]:
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        states.append(state)
    return states


def _check_soo(game: SwordOfOrthodoxy, state: SooState) -> None:
    root = ET.fromstring(svg(game, state))
    cat = game.catalog
    drawn = {
        t.get("data-tile"): t.get("data-space")
        for t in root.iter(f"{NS}g")
        if t.get("class") == "tile"
    }
    hidden = {
        "counter-tray",
        "discarded",
        "turn-chit-mug",
        "dynasty-mug",
        "basileus-mug",
        "patriarch-mug",
    }
    for tile, where in enumerate(state.board.where):
        space = cat.spaces[where].id
        tile_id = cat.tiles[tile].id
        if space in hidden:
            assert tile_id not in drawn
        elif cat.tiles[tile].kind.value in ("army", "tribe", "siege", "faction", "outpost"):
            assert drawn.get(tile_id) == space, (tile_id, space)
    mugs = next(t for t in root.iter(f"{NS}text") if t.get("class") == "mugs")
    for mug in ("turn-chit-mug", "dynasty-mug"):
        count = sum(1 for w in state.board.where if cat.spaces[w].id == mug)
        assert mugs.get(f"data-{mug}") == str(count)


@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_sword_set_up_draws_every_piece_in_its_space(scenario: str) -> None:
    game = load_game("sword-of-orthodoxy", scenario=scenario)
    _check_soo(game, game.initial_state())


@pytest.mark.parametrize("seed", [1, 2])
def test_sword_random_positions_draw_every_piece_in_its_space(seed: int) -> None:
    game = load_game("sword-of-orthodoxy")
    for state in _walk(game, seed, 300)[::37]:
        _check_soo(game, state)


def _check_bel(game: Belisarius, state: BelState, seat: int | None = None) -> ET.Element:
    root = ET.fromstring(svg(game, state, seat))
    drawn = {
        c.get("data-counter"): c.get("data-where")
        for c in root.iter(f"{NS}g")
        if c.get("class") == "counter"
    }
    for unit, where in enumerate(state.units.where):
        counter_id = game.catalog.counters[unit].id
        if where <= AVAILABLE:
            assert counter_id not in drawn
        else:
            expected = f"{where:04d}" if where >= FIRST_HEX else f"box {where}"
            assert drawn[counter_id] == expected
    controls = {
        t.get("data-region"): t.get("data-control")
        for t in root.iter(f"{NS}text")
        if t.get("data-region")
    }
    for index, region in enumerate(game.catalog.regions):
        if controls.get(region.name) is not None:
            assert controls[region.name] == state.control[index].value
    assert "PROVISIONAL MAP" in ET.tostring(root, encoding="unicode")
    return root


@pytest.mark.rule("34.1", "34.2", "34.3", game="belisarius")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_belisarius_scenarios_draw_every_counter_in_its_hex(scenario: int) -> None:
    game = load_game("belisarius", scenario=scenario)
    for state in _walk(game, scenario, 120)[::20]:
        _check_bel(game, state)


def _secret_texts(root: ET.Element, player: int) -> str:
    return " ".join(
        t.text or "" for t in root.iter(f"{NS}text") if t.get("data-player") == str(player)
    )


@pytest.mark.rule("22.0", "22.1", game="belisarius")
@pytest.mark.parametrize("seed", [4, 5])
def test_a_player_s_picture_hides_the_other_s_hand_and_treasury(seed: int) -> None:
    game = load_game("belisarius")
    for state in _walk(game, seed, 200)[::15]:
        assert isinstance(state, BelState)
        for seat in (0, 1):
            root = _check_bel(game, state, seat)
            other = 1 - seat
            line = _secret_texts(root, other)
            if not state.revealed[seat]:
                assert "treasury hidden" in line
                assert ":" not in line.split(";", 1)[1]
            mine = _secret_texts(root, seat)
            assert f"{state.solidus[seat]} Solidus" in mine


def test_bad_perspective_is_refused() -> None:
    game = load_game("belisarius")
    with pytest.raises(Exception, match="players 0 to 1"):
        svg(game, game.initial_state(), 5)


@pytest.mark.parametrize("game_id", ["sword-of-orthodoxy", "belisarius"])
def test_the_readme_pictures_are_up_to_date(game_id: str) -> None:
    from pathlib import Path

    game = load_game(game_id)
    stored = Path(__file__).parent.parent / "docs" / "_static" / f"{game_id}.svg"
    assert stored.read_text(encoding="utf-8") == svg(game, after_setup(game)), (
        f"regenerate {stored} with byzantium.render.svg"
    )


@pytest.mark.rule("34.0", game="belisarius")
def test_after_setup_draws_the_deployed_counters() -> None:
    """The pictures of a scenario (README, docs) are of the deployed set-up: the
    state after the placement decisions of 34.0, with every placed counter drawn."""
    from tests.belisarius.support import belisarius

    game = belisarius(1)
    state = after_setup(game)
    assert state.phase != "setup"
    picture = svg(game, state)
    placed = sum(1 for where in state.units.where if where > 0)
    assert placed > 0
    assert picture.count("data-counter=") >= placed
