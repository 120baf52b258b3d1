"""Terminal play a person can follow (issue 15): names and costs in menus, the odds
before standing or withdrawing, the map and stacks on request, long menus paged and
filtered, resuming a saved game, Ctrl-C, and bad input answered in one line.

Sessions are driven with scripted answers, as in ``tests/test_interactive.py``.
"""

from __future__ import annotations

import io
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import pytest

from byzantium.belisarius.battle import Battle
from byzantium.belisarius.combat import odds
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import grid_neighbours
from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelState, Done, Place
from byzantium.cli import main
from byzantium.cli.interactive import run_interactive
from byzantium.cli.terminal import PAGE_SIZE, Menu, menu_number
from byzantium.core.drivers import first_action_policy, sample
from byzantium.core.game import CHANCE, Event, Game
from byzantium.core.records import loads_record, replay
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState
from tests.belisarius.support import belisarius

ROOT = Path(__file__).resolve().parent.parent
S = TypeVar("S")
A = TypeVar("A")


def _states(game: Game[S, A], seed: int, steps: int) -> list[S]:
    """The decision states of a game the game's sensible player plays."""
    policy = game.policies()["sensible"]
    rng = random.Random(seed)
    state = game.initial_state()
    found = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            found.append(state)
            action = policy(game, state, rng)
        state = game.apply(state, action)
    return found


def _session(game_id: str, answers: str, *argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["play", game_id, *argv, "--interactive"], out, io.StringIO(answers))
    return status, out.getvalue()


# -- names, not ids ------------------------------------------------------------------


def test_belisarius_choices_name_hexes_and_counters_never_their_ids() -> None:
    game = belisarius()
    cat = game.catalog
    counter_ids = {c.id for c in cat.counters if "-" in c.id}
    shown = 0
    for state in _states(game, seed=2, steps=600):
        texts = [game.describe_choice(state, a) for a in game.legal_actions(state)]
        texts.append(game.describe_decision(state))
        for text in texts:
            assert not counter_ids & set(re.findall(r"[a-z]+(?:-[a-z0-9]+)+", text)), text
            assert not text.startswith(("select ", "place at ")), text
            shown += 1
    assert shown > 500


def test_a_belisarius_placement_names_the_hex_its_terrain_city_and_region() -> None:
    game = belisarius()
    state = game.initial_state()
    texts = [game.describe_choice(state, a) for a in game.legal_actions(state)]
    assert texts[0] == "Place in hex 6523 (clear, Armenia)"
    assert "Place in hex 6823 Theodosiopolis (City, clear, Armenia)" in texts
    assert game.describe_decision(state) == "place Armenia Field Army 1 in Armenia"
    # The game's own short words for chronicles and errors are kept as they were.
    assert game.describe_action(state, Place(6523)).startswith("place at 6523 (")


def test_belisarius_costs_show_in_the_menus() -> None:
    game = belisarius()
    texts = {
        game.describe_choice(state, action)
        for state in _states(game, seed=2, steps=800)
        for action in game.legal_actions(state)
    }
    assert "Recruit a Mercenary Persia Warband (cost 3 Solidus)" in texts
    assert "Buy a Stratagem marker (cost 2 Solidus)" in texts
    assert "Fight on the Assault table (costs 4 Operations Points)" in texts
    assert any(
        re.fullmatch(r"Move to hex \d{4} .*; costs \S+ of \S+ Operations Points.*", t)
        for t in texts
    )


def test_sword_of_orthodoxy_menus_name_tiles_and_spaces_with_prices() -> None:
    game = SwordOfOrthodoxy()
    tile_ids = {t.id for t in game.catalog.tiles}
    texts = set()
    for state in _states(game, seed=1, steps=1500):
        assert isinstance(state, SooState)
        for action in game.legal_actions(state):
            text = game.describe_choice(state, action)
            assert not tile_ids & set(re.findall(r"[a-z]+(?:-[a-z0-9]+)+", text)), text
            texts.add(text)
    assert "Build a Hospital in Zone Α (cost 2 Solidus)" in texts
    assert "Take the Outpost Lazica (cost 2 Solidus)" in texts
    assert "End the Byzantine Action Phase" in texts
    assert any(t.startswith("Attack Army #") and t.endswith("Solidus)") for t in texts)


def test_sword_of_orthodoxy_session_shows_the_treasury_and_named_items() -> None:
    status, text = _session("sword-of-orthodoxy", "1\n" * 3, "--seed", "1")
    assert status == 0
    assert "Your decision [" in text and "\n> " in text  # solitaire: no player's name
    assert "[treasury " in text
    assert "select " not in text


# -- stand or withdraw ----------------------------------------------------------------


def _stand_or_withdraw() -> tuple[Belisarius, BelState]:
    game = belisarius()
    for state in _states(game, seed=1, steps=400):
        assert isinstance(state, BelState)
        if state.pending is not None and state.pending.rule == "17.5":
            return game, state
    raise AssertionError("no stand-or-withdraw decision")  # pragma: no cover


@pytest.mark.rule("17.51", "17.71", "17.74", game="belisarius")
def test_before_standing_or_withdrawing_the_odds_and_the_crt_column_show() -> None:
    game, state = _stand_or_withdraw()
    assert state.pending is not None
    battle = state.pending.task
    assert isinstance(battle, Battle)
    text = game.describe_decision(state)
    found = re.search(r"strength (\d+) \(x(\d)\).*strength (\d+) \(x(\d)", text, re.S)
    assert found is not None, text
    a_str, _, d_str, _ = map(int, found.groups())
    assert f"odds column {odds(a_str, d_str).value}" in text
    assert "Assault table, die -> result: 1:" in text
    assert "Maneuver table, die -> result: 1:" in text
    cat = game.catalog
    a_ops = max(cat.counters[u].operations for u in battle.force)
    d_ops = max(cat.counters[u].operations for u in state.units.at(battle.target))
    wins = sum(d_ops + d > a_ops + a for a in range(1, 7) for d in range(1, 7))
    chance = Fraction(wins, 36)
    assert f"succeeds with probability {chance.numerator}/{chance.denominator}" in text
    menu = [game.describe_choice(state, a) for a in game.legal_actions(state)]
    assert menu == ["Stand and fight", "Try to withdraw (a roll-off; a tie means you stand)"]


@pytest.mark.rule("22.1", game="belisarius")
def test_the_other_players_done_never_tells_which_question_he_was_asked() -> None:
    game = belisarius()
    for state in _states(game, seed=2, steps=600):
        assert isinstance(state, BelState)
        request = state.pending
        if request is None or Done() not in request.options:
            continue
        chooser = request.player
        assert game.describe_choice(state, Done(), 1 - chooser) == "done"
        assert game.describe_choice(state, Done(), chooser) == game.describe_choice(state, Done())


# -- the map and the stacks -------------------------------------------------------------


def test_stack_map_and_stacks_show_what_the_state_holds() -> None:
    game = belisarius()
    state = _states(game, seed=3, steps=300)[-1]
    assert isinstance(state, BelState)
    cat = game.catalog
    capital = cat.capital
    text = game.look(state, EMPIRE, f"stack {capital}")
    assert text is not None
    units = state.units.at(capital)
    assert f"{len(units)} counters" in text or not units
    assert len(text.splitlines()) == 1 + len(units)
    assert game.look(state, EMPIRE, "stack Constantinopolis") == text
    drawn = game.look(state, EMPIRE, f"map {capital}")
    assert drawn is not None
    assert f"[{capital}" in drawn
    for neighbour in grid_neighbours(capital):
        if neighbour in cat.map:
            assert f"{neighbour:04d}" in drawn
    own = game.look(state, BARBARIAN, "stacks")
    assert own is not None and own.startswith("The Barbarian player's stacks:")
    placed = {w for u, w in enumerate(state.units.where) if w > 100}
    listed = {int(h) for h in re.findall(r"hex (\d{4})", own)}
    assert listed and listed <= placed
    assert game.look(state, EMPIRE, "map 9999") == "No hex, City or box '9999' on the map."
    assert game.look(state, EMPIRE, "hello") is None


def test_map_and_stack_commands_work_in_a_session_and_help_lists_them() -> None:
    status, text = _session(
        "belisarius", "help\nmap 6523\nstack 6729\nstacks\nquit\n", "--seat", "1"
    )
    assert status == 0
    assert "map [HEX]" in text and "stack HEX" in text
    assert "Map around hex 6523 (clear, Armenia):" in text
    assert "hex 6729 Nisibis (City, clear, Persia): " in text
    assert "The Barbarian player" in text


def test_events_name_counters() -> None:
    game = belisarius()
    event = Event("34.0", "armenia-field-army-1 is set up at 6523")
    assert (
        game.describe_event(event) == "[34.0] Armenia Field Army 1 is set up at hex 6523 in Armenia"
    )


# -- long menus -------------------------------------------------------------------------


def test_a_long_menu_pages_filters_and_keeps_its_numbers() -> None:
    texts = [f"item {i} {'City' if i % 10 == 0 else 'hex'}" for i in range(1, 56)]
    menu = Menu(texts)
    out = io.StringIO()
    menu.show(out)
    first = out.getvalue()
    assert "    1. item 1 hex" in first and f"{PAGE_SIZE + 1:>3}." not in first
    assert "page 1 of 3" in first
    assert menu.command("n")
    out = io.StringIO()
    menu.show(out)
    assert "   21. item 21 hex" in out.getvalue() and "page 2 of 3" in out.getvalue()
    assert menu.command("/city")
    out = io.StringIO()
    menu.show(out)
    assert out.getvalue().splitlines()[0] == "   10. item 10 City"
    assert "5 of 55 match 'city'" in out.getvalue()
    assert menu.command("/nothing like it")
    out = io.StringIO()
    menu.show(out)
    assert "Nothing matches" in out.getvalue()
    assert menu.command("all")
    out = io.StringIO()
    menu.show(out)
    assert "   55. item 55 hex" in out.getvalue()
    assert not menu.command("55")


def test_a_session_filters_a_long_menu_and_a_number_still_picks_its_action() -> None:
    game = belisarius()
    out = io.StringIO()
    # The Barbarian sets up (first legal actions); then the Empire's first placement
    # offers 55 hexes of Thracia.
    session = run_interactive(
        game,
        seats={0},
        policy=first_action_policy,
        manual_dice=False,
        seed=1,
        inp=io.StringIO("n\n/Constantinopolis\n55\n"),
        out=out,
    )
    text = out.getvalue()
    assert "page 1 of 3" in text and "page 2 of 3" in text
    assert "   55. Place in hex 5624 Constantinopolis (capital City, clear, Thracia)\n" in text
    assert "1 of 55 match 'Constantinopolis'" in text
    empire = [a for who, a in zip(session.actors, session.actions, strict=True) if who == 0]
    assert empire == [Place(5624)]


def test_menu_numbers_are_never_a_traceback() -> None:
    assert menu_number("²", 5) is None
    assert menu_number("9" * 5000, 5) is None
    assert menu_number("٣", 5) is None  # an Arabic-Indic digit
    assert menu_number("5", 5) == 5


@pytest.mark.parametrize("game_id", ["belisarius", "sword-of-orthodoxy"])
def test_bad_input_gets_one_line_and_the_question_again(game_id: str) -> None:
    answers = f"²\n{'9' * 5000}\nfrobnicate\n\n-3\nn\n"
    status, text = _session(game_id, answers, "--seat", "0")
    assert status == 0
    assert "Traceback" not in text
    assert text.count("No such item. Type a number") == 3
    assert "Unknown command 'frobnicate'" in text
    assert text.count("Type a number from 1 to") >= 5
    assert text.rstrip().endswith("Session ended.")


# -- who plays the other seats ----------------------------------------------------------


def test_the_other_seat_is_the_sensible_player_and_play_says_so() -> None:
    status, text = _session("belisarius", "quit\n", "--seat", "1")
    assert status == 0
    assert "Empire: played by the built-in policy 'sensible'." in text
    status, text = _session("belisarius", "quit\n", "--seat", "1", "--policy", "random")
    assert "Empire: played by the built-in policy 'random'." in text
    status, text = _session("belisarius", "quit\n")
    assert "played by" not in text  # the person holds every seat


def test_the_chronicle_header_names_the_policy() -> None:
    out = io.StringIO()
    assert main(["--import", "tests.pig", "play", "pig", "--quiet"], out) == 0
    first = out.getvalue().split("\n", 1)[0]
    assert first == "Pig, seed 1, policy random for every seat; target 20; no optional rules"


# -- resume, Ctrl-C -------------------------------------------------------------------------


def test_a_saved_game_resumes_where_it_was(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    out = io.StringIO()
    answers = io.StringIO(f"1\n1\nsave {saved}\nquit\n")
    main(["play", "belisarius", "--seat", "1", "--seed", "5", "--interactive"], out, answers)
    game, record = loads_record(saved.read_text("utf-8"))
    out = io.StringIO()
    final = tmp_path / "final.json"
    status = main(
        ["resume", str(saved), "--seat", "1", "--record", str(final)], out, io.StringIO("1\n")
    )
    assert status == 0
    text = out.getvalue()
    assert f"Resumed after {len(record)} steps." in text
    assert f"Record written to {final}" in text
    _, longer = loads_record(final.read_text("utf-8"))
    assert longer.actions[: len(record)] == record.actions and len(longer) > len(record)
    replay(game, longer)
    # The same through ``play GAME --resume``, and a record of another game fails.
    out = io.StringIO()
    assert main(["play", "belisarius", "--resume", str(saved)], out, io.StringIO("")) == 0
    assert f"Resumed after {len(record)} steps." in out.getvalue()
    assert main(["play", "sword-of-orthodoxy", "--resume", str(saved)], io.StringIO()) == 2


class _Interrupting(io.StringIO):
    """Answers that start with a Ctrl-C (KeyboardInterrupt) before the first line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.interrupted = False

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]  # typeshed's bases differ
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt
        return super().readline(size)


def test_ctrl_c_asks_before_leaving_and_offers_to_save(tmp_path: Path) -> None:
    game = belisarius()
    saved = tmp_path / "left.json"
    out = io.StringIO()
    session = run_interactive(
        game,
        seats={0},
        policy=first_action_policy,
        manual_dice=False,
        seed=1,
        inp=_Interrupting(f"y\n{saved}\n"),
        out=out,
    )
    text = out.getvalue()
    assert "Leave the game? [y/N] " in text
    assert f"written to {saved}" in text and text.rstrip().endswith("Session ended.")
    _, record = loads_record(saved.read_text("utf-8"))
    assert record.actions == tuple(session.actions) and len(record) > 0
    out = io.StringIO()
    run_interactive(
        game,
        seats={0},
        policy=first_action_policy,
        manual_dice=False,
        seed=1,
        inp=_Interrupting("n\nquit\n"),
        out=out,
    )
    assert "Going on." in out.getvalue()
