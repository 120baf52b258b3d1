"""The terminal view of a state (``game.render``): the facts a player needs, compactly."""

from __future__ import annotations

import attrs

from byzantium.core.drivers import play
from byzantium.core.records import replay
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.state import Ending, SooState
from byzantium.sword_of_orthodoxy.world import eastern_army, move, set_marker
from tests.sword_of_orthodoxy.support import GAME, campaign, millennium, with_board

#: The view fits on a terminal screen.
MAX_LINES = 40


def test_the_view_shows_turn_tracks_paths_city_and_what_is_pending() -> None:
    state = campaign()
    text = GAME.render(state)
    lines = text.splitlines()
    assert lines[0] == "== Turn 1 of 27 (421-460) =="
    assert "Tracks: treasury $ 1, Schism 0, Niké 0" in text
    assert "Walls of Theodosius 5" in text
    for path in Path:
        assert any(line.startswith(f"  {path.letter}") for line in lines), path
    assert "  Α Africa: Vandals; Zone armies 1 (strength 4), Reserves 4" in lines
    assert "  Ε: Persia (strength 4) at 5 persia" in lines
    assert any(
        line.startswith("Constantinople (9 Factions): Blue Team, Green Team") for line in lines
    )
    assert "Rulers: Basileus Theodosius" in text
    assert lines[-1] == "Pending [4.1]: draw from turn-chit-mug: draw a Turn Chit"
    assert len(lines) <= MAX_LINES
    assert GAME.render(state, 0) == text  # solitaire: nothing is hidden


def test_the_view_follows_the_board() -> None:
    def change(ctx: Context, state: SooState) -> SooState:
        state = set_marker(ctx, state, "schism", 7)
        state = set_marker(ctx, state, "solidus", 11)
        army = eastern_army(ctx, state, Path.EPSILON)
        assert army is not None
        return move(ctx, state, army, "nisibis")

    text = GAME.render(with_board(campaign(), change))
    assert "treasury $ 11, Schism 7" in text
    assert "  Ε: Persia (strength 4) at 4 nisibis" in text.splitlines()


def test_the_view_of_a_millennium_start_and_of_an_ended_game() -> None:
    text = GAME.render(millennium())
    assert "Turn 15" in text and len(text.splitlines()) <= MAX_LINES
    ended = attrs.evolve(campaign(), pending=None, ending=Ending(True, "12.1", "the City falls"))
    assert GAME.render(ended).splitlines()[-1] == "Defeat [12.1]: the City falls"


def test_every_state_of_a_played_game_renders_compactly() -> None:
    record = play(GAME, seed=11, max_steps=400)
    state = GAME.initial_state()
    for action in record.actions:
        assert len(GAME.render(state).splitlines()) <= MAX_LINES
        state = GAME.apply(state, action)
    assert state == replay(GAME, record)
