"""``byzantium play GAME --interactive``: scripted sessions through the real entry point.

The person's answers come from standard input (a StringIO here); each test reads the
transcript and, where a record is saved, loads and replays it.
"""

from __future__ import annotations

import io
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.cli.interactive import _pick_outcome, run_interactive
from byzantium.core.drivers import first_action_policy
from byzantium.core.records import loads_record, replay
from byzantium.core.registry import load_game

ROOT = Path(__file__).resolve().parent.parent


def session(monkeypatch: pytest.MonkeyPatch, answers: str, *argv: str) -> tuple[int, str]:
    """Run ``byzantium --import tests.pig play ... --interactive`` with typed answers."""
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    out = io.StringIO()
    status = main(["--import", "tests.pig", "play", *argv, "--interactive"], out)
    return status, out.getvalue()


def test_numbers_choose_and_the_other_seat_is_played_by_the_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, text = session(monkeypatch, "2\n1\n", "pig", "--seat", "0", "--policy", "first")
    assert status == 0
    assert "you play player 0; dice from seed 1" in text
    assert "    1. hold\n    2. roll\n" in text
    # The person's roll, then the person's hold, then player 1 (policy "first") holds.
    lines = [line.split(":", 1)[1].strip() for line in text.splitlines() if "  player " in line]
    assert lines[:3] == ["roll", "hold", "hold"]
    assert "player 1: hold" in text
    assert text.rstrip().endswith("Session ended.")


def test_bad_input_asks_again_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = "\n0\n3\nfoo\nsave\nsave /no/such/dir/x.json\nundo\nhelp\n1\n"
    status, text = session(monkeypatch, answers, "pig", "--seat", "0")
    assert status == 0
    assert text.count("Type a number from 1 to 2, or 'help'.") == 4
    assert "Say where: save FILE" in text
    assert "Could not save:" in text
    assert "Nothing to undo." in text
    assert "undo       go back to your previous decision" in text
    assert "player 0: hold" in text
    assert "Traceback" not in text


def test_end_of_input_ends_the_session_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = session(monkeypatch, "", "pig")
    assert status == 0
    assert "(end of input)" in text and "Session ended." in text
    status, text = session(monkeypatch, "quit\n", "pig")
    assert status == 0 and "(end of input)" not in text and "Session ended." in text


def test_undo_goes_back_to_the_previous_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    # Roll (step 1, the die is step 2), then undo: back before step 1; then hold.
    status, text = session(monkeypatch, "2\nundo\n1\n", "pig", "--seat", "0", "--seat", "1")
    assert status == 0
    assert "Undone: back before step 1." in text
    after = text.split("Undone:", 1)[1]
    assert "    1  player 0: hold" in after


def test_undo_meets_the_same_dice_at_the_same_step(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = session(monkeypatch, "2\nundo\n2\n", "pig", "--seed", "7")
    assert status == 0
    rolls = [line.strip() for line in text.splitlines() if "chance: die shows" in line]
    assert len(rolls) == 2 and rolls[0] == rolls[1]


def test_a_saved_record_loads_and_replays_to_the_current_state(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "partial.json"
    final = tmp_path / "final.json"
    answers = f"2\n2\n1\nsave {saved}\n2\nquit\n"
    status, text = session(
        monkeypatch, answers, "pig", "--seat", "0", "--seed", "3", "--record", str(final)
    )
    assert status == 0
    assert f"written to {saved}" in text and f"Record written to {final}" in text
    game, record = loads_record(saved.read_text("utf-8"))
    assert record.seed == 3 and len(record) > 0
    state = replay(game, record)  # checks every step's digest and the final one
    assert game.state_digest(state) == record.final
    assert game.current_player(state) == 0  # saved at the person's decision
    _, longer = loads_record(final.read_text("utf-8"))
    assert longer.actions[: len(record)] == record.actions
    assert len(longer) > len(record)
    replay(game, longer)


def test_manual_dice_force_the_roll(monkeypatch: pytest.MonkeyPatch) -> None:
    # Roll; the person types 6 (text is tried before numbers); hold; player 1 too.
    answers = "2\n6\n1\n2\ndie shows 1\n"
    status, text = session(monkeypatch, answers, "pig", "--dice", "manual")
    assert status == 0
    assert "    6. die shows 6 (1/6)" in text
    assert "chance: die shows 6" in text
    assert "player 0 banks 6: score 6" in text
    assert "chance: die shows 1" in text


def test_manual_dice_bad_outcomes_ask_again(monkeypatch: pytest.MonkeyPatch) -> None:
    status, text = session(monkeypatch, "2\n7\nseven\n4\n", "pig", "--dice", "manual")
    assert status == 0
    assert text.count("Type an outcome: its number (1 to 6) or its text") == 2
    assert "chance: die shows 4" in text


def test_the_game_over_prompt_offers_undo(monkeypatch: pytest.MonkeyPatch) -> None:
    # Target 10: roll, force 6, roll, force 5, hold -> 11 points, game over; then undo.
    answers = "2\n6\n2\n5\n1\nundo\nquit\n"
    status, text = session(
        monkeypatch, answers, "pig", "--option", "target=10", "--dice", "manual", "--seat", "0"
    )
    assert status == 0
    assert "Result [3.1]: win; winner: player 0." in text
    assert "The game is over: 'undo', 'save FILE' or 'quit'." in text
    assert "Undone: back before step 5." in text


def test_bad_seats_fail_with_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = session(monkeypatch, "", "pig", "--seat", "2")
    assert status == 2
    assert "seats 0 to 1, not 2" in capsys.readouterr().err


def test_sword_of_orthodoxy_shows_the_view_the_rule_and_takes_draws_by_name() -> None:
    game = load_game("sword-of-orthodoxy")
    out = io.StringIO()
    session = run_interactive(
        game,
        seats={0},
        policy=first_action_policy,
        manual_dice=True,
        seed=1,
        inp=io.StringIO("Turn Chit 8\n6\nview\n"),
        out=out,
    )
    text = out.getvalue()
    assert "Chance [4.1]: draw a Turn Chit" in text
    assert "chance: draw Turn Chit 8" in text
    assert "chance: roll 6" in text
    assert "Tracks: treasury $" in text  # the view, from "view"
    assert len(session.actions) == 2
    assert replay(game, session.record()) == session.state


def test_two_dice_are_typed_as_their_faces() -> None:
    outcomes = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    texts = [f"roll {a} {b}" for a, b in outcomes]
    assert _pick_outcome("3 5", outcomes, texts) == (3, 5)
    assert _pick_outcome("roll 5, 3", outcomes, texts) == (5, 3)
    assert _pick_outcome("2", outcomes, texts) == (1, 2)  # no text matches: a number
    assert _pick_outcome("99", outcomes, texts) is None
    assert _pick_outcome("", outcomes, texts) is None
    assert sum(Fraction(1, 36) for _ in outcomes) == 1


def test_belisarius_hides_the_other_players_secrets_from_one_seat() -> None:
    game = load_game("belisarius")
    out = io.StringIO()
    run_interactive(
        game,
        seats={1},
        policy=first_action_policy,
        manual_dice=False,
        seed=2,
        inp=io.StringIO("1\n"),
        out=out,
    )
    text = out.getvalue()
    assert "(as the Barbarian player sees it)" in text
    assert "Empire: treasury hidden" in text
    assert "treasuries:" not in text  # the onlooker's heading line is left out
    assert "Barbarian to decide [34.0]" in text


@pytest.mark.rule("22.1", "10.11", "6.2", game="belisarius")
def test_one_belisarius_seat_reads_the_chronicle_made_for_it() -> None:
    """The chronicle of one seat: the other side's treasury neither in the headings nor
    in its Taxation lines; his own in full."""
    game = load_game("belisarius")
    out = io.StringIO()
    run_interactive(
        game,
        seats={1},
        policy=first_action_policy,
        manual_dice=False,
        seed=2,
        inp=io.StringIO("1\n" * 3000),
        out=out,
    )
    lines = out.getvalue().splitlines()
    theirs = [line for line in lines if "[10.11] the Empire collects" in line]
    mine = [line for line in lines if "[10.11] the Barbarian collects" in line]
    assert theirs and mine
    assert not [line for line in theirs if "treasury" in line]
    assert all("(treasury " in line for line in mine)
    headings = [line for line in lines if "treasuries:" in line]
    assert headings and all("treasuries: Empire hidden, Barbarian " in h for h in headings)


def test_python_dash_m_plays_interactively() -> None:
    command = [sys.executable, "-m", "byzantium", "--import", "tests.pig", "play", "pig"]
    done = subprocess.run(
        [*command, "--interactive", "--seat", "0"],
        input="1\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "player 0: hold" in done.stdout
    assert "Session ended." in done.stdout
    assert done.stderr == ""
