"""The command line: play with a chronicle, replay records, trace rules."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.core import rules
from byzantium.core.rules import RuleBook, RuleEntry, RuleStatus

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["--import", "tests.pig", *argv], out)
    return status, out.getvalue()


def test_play_prints_a_chronicle_with_rules_and_the_result(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    status, text = run("play", "pig", "--seed", "3", "--record", str(record))
    assert status == 0
    assert "chance: die shows" in text
    assert "[2.3] player" in text
    assert "Result: win; winner: player" in text and "Cause [3.1]: " in text
    data = json.loads(record.read_text())
    assert data["game"] == "pig" and data["seed"] == 3
    status, text = run("replay", str(record))
    assert status == 0
    assert "replay exactly" in text


def test_play_takes_options_and_quiet() -> None:
    status, text = run("play", "pig", "--option", "target=10", "--quiet")
    assert status == 0
    assert "; target 10; " in text
    assert "reached 10 points" in text
    assert "die shows" not in text


def test_play_stops_at_max_steps_and_says_so() -> None:
    # Always holding (the first legal action) never ends a game of Pig.
    status, text = run("play", "pig", "--policy", "first", "--max-steps", "30")
    assert status == 0
    assert text.count("player 0: hold") == 15
    assert "did not reach its end" in text


def test_bad_options_and_games_fail_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "pig", "--option", "target=11")[0] == 2
    assert "must be one of" in capsys.readouterr().err
    assert run("play", "chess")[0] == 2
    assert "available games" in capsys.readouterr().err


def test_a_tampered_record_fails_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    run("play", "pig", "--seed", "4", "--record", str(record), "--quiet")
    data = json.loads(record.read_text())
    data["steps"][1]["actor"] = 1
    record.write_text(json.dumps(data))
    assert run("replay", str(record))[0] == 2
    assert "step 1:" in capsys.readouterr().err


def test_trace_of_a_complete_book_exits_0_and_pending_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, text = run("trace", "pig", "--tests", str(ROOT / "tests"))
    assert status == 0
    assert "pig: 9 rules: 7 mechanics, 2 no mechanics, 0 pending; 0 inconsistencies" in text
    assert "code: tests.pig.resolve_face" in text
    for game in ("belisarius", "sword-of-orthodoxy"):
        status, text = run("trace", game, "--summary", "--tests", str(ROOT / "tests"))
        assert status == 0
        assert text.splitlines()[-1].endswith(" 0 pending; 0 inconsistencies")
    _unfinished_book(monkeypatch)
    status, text = run("trace", "unfinished", "--summary", "--tests", str(ROOT / "tests"))
    assert status == 1
    assert text.splitlines()[-1] == (
        "unfinished: 2 rules: 0 mechanics, 1 no mechanics, 1 pending; 0 inconsistencies"
    )


def _unfinished_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register, for one test, a rule book with a rule still to implement (both games
    are complete)."""
    book = RuleBook(
        "unfinished",
        "Unfinished",
        [
            RuleEntry("1.0", "Heading", RuleStatus.NO_MECHANICS, "a heading"),
            RuleEntry("1.1", "To do", RuleStatus.PENDING),
        ],
    )
    monkeypatch.setitem(rules._RULEBOOKS, book.game, book)


def test_games_lists_games_and_rule_books() -> None:
    status, text = run("games")
    assert status == 0
    games, books = text.splitlines()[:2]
    assert games == "games: belisarius, pig, sword-of-orthodoxy"
    assert books == "rule books: belisarius, pig, sword-of-orthodoxy"


def test_python_dash_m_entry_point_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "byzantium", "--import", "tests.pig", "play", "pig", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Cause [3.1]: " in done.stdout


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        ("2.2", {"test_a_one_loses_the_turn_total_and_passes_the_turn"}),
        (
            "pig:3.1",
            {
                "test_reaching_the_target_ends_the_game_with_that_winner",
                "test_one_point_short_of_the_target_plays_on",
                "test_the_target_option_sets_the_winning_score",
            },
        ),
        ("belisarius:3.1", set()),
    ],
)
def test_pytest_rule_option_selects_tests_of_a_rule_and_its_sub_rules(
    option: str, expected: set[str]
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rule",
            option,
            "tests/test_pig_rules.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    names = {
        line.split("::")[1].split("[")[0]
        for line in done.stdout.splitlines()
        if line.startswith("tests/")
    }
    assert names == expected, done.stdout + done.stderr


def test_data_lists_component_provenance_and_counts() -> None:
    status, text = run("data", "pig")
    assert status == 0
    assert text.strip() == "pig: 0 data: no data"


def test_unknown_policy_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("play", "pig", "--policy", "clever")[0] == 2
    assert "policies: first, random" in capsys.readouterr().err


def test_sword_of_orthodoxy_chronicle_has_turn_headings_tracks_and_rules() -> None:
    out = io.StringIO()
    argv = [
        "play",
        "sword-of-orthodoxy",
        "--policy",
        "sensible",
        "--seed",
        "1",
        "--max-steps",
        "40",
    ]
    assert main(argv, out) == 0
    text = out.getvalue()
    assert "note: " in text and "provisional" in text
    assert "== Turn 1 of 27 (421-460) ==" in text
    assert "treasury $" in text and "Schism" in text
    assert "[4.1] Turn 1:" in text
    assert "The game did not reach its end." in text
