"""``byzantium view RECORD --seat P``: a page that holds only what player P may know
(Belisarius 22.1), and the all-seeing page that says at its top that it shows
everything.

The bytes of the seat's file are read: the other player's boards (his treasury and
his hand as he sees them) and the events only he may read (his treasury after
Taxation, what Corruption took from it) are not in it at all.
"""

from __future__ import annotations

import io
import json
import re
from functools import cache
from pathlib import Path

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelAction, Draw, RequestKind
from byzantium.cli import main
from byzantium.core.drivers import play, random_policy
from byzantium.core.game import CHANCE
from byzantium.core.records import GameRecord, dumps_record
from byzantium.core.registry import load_game
from byzantium.render.viewer import view_html

RULEBOOK = "belisarius"

#: The start of a random game (to game turn 2) in which neither side ever examines the other's
#: secrets, both collect taxes and Corruption strikes the Barbarian.
SEED, STEPS = 2, 250


@cache
def game_and_record() -> tuple[Belisarius, GameRecord[BelAction]]:
    game = load_game("belisarius", capitulation=False)
    assert isinstance(game, Belisarius)
    record = play(game, random_policy, seed=SEED, max_steps=STEPS)
    return game, record


@cache
def page(tmp: Path, seat: int | None) -> bytes:
    game, record = game_and_record()
    source = tmp / "game.json"
    source.write_text(dumps_record(game, record), encoding="utf-8")
    target = tmp / f"page-{seat}.html"
    argv = ["view", str(source), "-o", str(target)]
    if seat is not None:
        argv += ["--seat", str(seat)]
    assert main(argv, io.StringIO()) == 0
    return target.read_bytes()


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("view")


def payload(data: bytes) -> dict[str, object]:
    found = re.search(rb'<script id="data" type="application/json">(.*?)</script>', data, re.S)
    assert found is not None
    loaded = json.loads(found.group(1).replace(b"<\\/", b"</"))
    assert isinstance(loaded, dict)
    return loaded


def events(data: dict[str, object]) -> list[object]:
    steps = data["steps"]
    assert isinstance(steps, list)
    return [step["events"] for step in steps]


def facts() -> dict[str, object]:
    """What the record holds that one side may not see: per side, his treasuries, his
    full Taxation and Corruption lines, and the steps whose draw is hidden from him."""
    game, record = game_and_record()
    treasuries: dict[int, set[int]] = {EMPIRE: set(), BARBARIAN: set()}
    secret_lines: dict[int, set[str]] = {EMPIRE: set(), BARBARIAN: set()}
    draws: dict[int, list[int]] = {EMPIRE: [], BARBARIAN: []}
    state = game.initial_state()
    for number, action in enumerate(record.actions, 1):
        request = state.pending
        if (
            game.current_player(state) == CHANCE
            and request is not None
            and request.kind is RequestKind.DRAW
            and isinstance(action, Draw)
        ):
            for side in (EMPIRE, BARBARIAN):
                if game.visible_action(state, action, side) != action:
                    draws[side].append(number)
        step = game.step(state, action)
        for event in step.events:
            if event.owner is not None:
                secret_lines[event.owner].add(event.text)
        state = step.state
        assert not any(state.revealed)
        for side in (EMPIRE, BARBARIAN):
            treasuries[side].add(state.solidus[side])
    return {"treasuries": treasuries, "lines": secret_lines, "draws": draws}


@pytest.mark.rule("22.1", "10.11", "6.2", game="belisarius")
@pytest.mark.parametrize("seat", [EMPIRE, BARBARIAN])
def test_the_seat_page_holds_nothing_of_the_other_side(tmp: Path, seat: int) -> None:
    other = 1 - seat
    mine, everything = page(tmp, seat), page(tmp, None)
    # Booleans, not the texts: a failing comparison of megabytes would never finish.
    text, full = mine.decode("utf-8"), everything.decode("utf-8")
    name, other_name = ("Empire", "Barbarian")[seat], ("Empire", "Barbarian")[other]
    known = facts()
    # The other side's boards: his treasury and hand as he sees them on his own board.
    boards = re.compile(rf"{other_name}: \d+ Solidus")
    assert boards.search(full) is not None
    assert boards.search(text) is None
    assert (f"{other_name}: treasury hidden" in text) is True
    assert re.search(rf"{name}: \d+ Solidus", text) is not None  # his own board
    # The events only the other may read: in the full page, not in the seat's.
    lines = known["lines"]
    assert isinstance(lines, dict)
    assert lines[other], "the record has events of the other's secrets"
    assert [line for line in lines[other] if line not in full] == []
    assert [line for line in lines[other] if line in text] == []
    assert [line for line in lines[seat] if line in text] != []  # his own, in full
    collectors = set(re.findall(r"the (\w+) collects \d+ Solidus Points \(treasury", text))
    assert collectors == {name}
    data = payload(mine)
    assert data["seats"] == [name]
    steps = data["steps"]
    assert isinstance(steps, list)
    draws = known["draws"]
    assert isinstance(draws, dict)
    hidden = draws[seat]
    assert hidden, "the record draws markers for the other side"
    for number in hidden:
        assert "draw a hidden marker" in steps[number]["title"]
        assert steps[number]["probability"] == ""
    for entry in steps[1:]:
        if entry["who"] == other_name:
            assert entry["alternatives"] == []


@pytest.mark.rule("22.1", game="belisarius")
def test_the_full_page_says_at_its_top_that_it_shows_everything(tmp: Path) -> None:
    full = page(tmp, None).decode("utf-8")
    side = full.index('<div id="side">')
    assert full.index("This page shows everything", side) < full.index('<h3 id="game">')
    assert ("Do not hand it to a player during a game" in full) is True
    seat = page(tmp, EMPIRE).decode("utf-8")
    assert ("This page shows everything" in seat) is False
    assert ("As the Empire may see it" in seat) is True


def test_a_solitaire_page_for_its_one_seat_shows_the_same_events() -> None:
    game = load_game("sword-of-orthodoxy")
    record = play(game, random_policy, seed=3, max_steps=60)
    full, mine = (
        payload(view_html(game, record).encode()),
        payload(view_html(game, record, seat=0).encode()),
    )
    assert events(full) == events(mine)
    assert ("This page shows everything" in view_html(game, record)) is False


def test_a_seat_the_game_does_not_have_is_one_line(
    tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, record = game_and_record()
    source = tmp / "seat.json"
    source.write_text(dumps_record(game, record), encoding="utf-8")
    status = main(["view", str(source), "--seat", "2", "-o", str(tmp / "x.html")], io.StringIO())
    assert status == 2
    err = capsys.readouterr().err
    assert err == "byzantium: belisarius has seats 0 to 1, not 2\n"
    assert not (tmp / "x.html").exists()


@pytest.mark.rule("22.1", game="belisarius")
@pytest.mark.parametrize("seat", [None, EMPIRE, BARBARIAN])
def test_chance_steps_list_their_outcomes_only_where_the_reader_may_know_the_odds(
    tmp: Path, seat: int | None
) -> None:
    game, record = game_and_record()
    data = payload(page(tmp, seat))
    steps, texts = data["steps"], data["texts"]
    assert isinstance(steps, list) and isinstance(texts, list)
    state = game.initial_state()
    listed = 0
    for number, action in enumerate(record.actions, 1):
        entry = steps[number]
        if game.current_player(state) != CHANCE:
            assert "outcomes" not in entry
        elif seat is not None and not game.odds_visible(state, seat):
            assert "outcomes" not in entry, f"step {number}: odds {seat} may not know"
        else:
            odds = dict(game.chance_outcomes(state))
            outcomes = entry["outcomes"]
            assert len(outcomes) == min(len(odds), 40)
            assert sum(taken for _, _, taken in outcomes) <= 1
            for (text, shown, taken), (outcome, p) in zip(outcomes, odds.items(), strict=False):
                assert texts[text] == game.describe_action(state, outcome)
                assert shown.startswith(f"{p} = ")
                seen = seat is None or game.visible_action(state, action, seat) == action
                assert taken == (seen and outcome == action)
            listed += 1
        state = game.step(state, action).state
    assert listed > 0
