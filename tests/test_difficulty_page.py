"""The figures of "How hard is each game?": ``python -m benchmarks.difficulty`` writes
them, ``docs/_ext/byzantium_difficulty.py`` renders whatever files there are."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import difficulty
from byzantium.core.codec import JSONValue

ROOT = Path(__file__).resolve().parent.parent
QUICK = ["--game", "belisarius", "--games", "1", "--policy", "sensible", "--opponent", "random"]


def measure(out: Path, *argv: str) -> dict[str, Any]:
    assert difficulty.main([*QUICK, "--out", str(out), *argv]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_script_writes_runs_and_a_new_run_replaces_its_old_self(tmp_path: Path) -> None:
    out = tmp_path / "difficulty-belisarius.json"
    data = measure(out, "--scenario", "1", "--scenario", "2", "--both-seats")
    assert data["schema"] == difficulty.SCHEMA and data["game"] == "belisarius"
    assert [run["options"]["scenario"] for run in data["runs"]] == [1, 2]
    run = data["runs"][0]
    assert run["seating"] == {"Empire": "sensible", "Barbarian": "random"}
    assert run["both_seats"] is True and run["games"] == 1
    assert run["summary"]["games"] == 2
    assert {side["policy"] for side in run["summary"]["win_rates"]["policies"]} == {
        "sensible",
        "random",
    }
    # Measuring scenario 1 again replaces its run and keeps scenario 2's.
    again = measure(out, "--scenario", "1", "--both-seats", "--seed", "4")
    assert [(r["options"]["scenario"], r["seed"]) for r in again["runs"]] == [(2, 1), (1, 4)]
    # Another seating is another run.
    third = measure(out, "--scenario", "1")
    assert len(third["runs"]) == 3


def test_the_script_never_overwrites_a_file_of_another_shape(tmp_path: Path) -> None:
    out = tmp_path / "difficulty-belisarius.json"
    out.write_text('{"expert": {"win_rate": 0.7}}\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="not a byzantium-difficulty/1 file"):
        measure(out, "--scenario", "1")
    assert json.loads(out.read_text(encoding="utf-8")) == {"expert": {"win_rate": 0.7}}


def test_merge_runs_keys_on_options_seating_and_seats() -> None:
    a: dict[str, JSONValue] = {
        "options": {"scenario": 1},
        "seating": {"Empire": "x"},
        "both_seats": False,
        "n": 1,
    }
    b: dict[str, JSONValue] = {**a, "n": 2}
    c: dict[str, JSONValue] = {**a, "both_seats": True}
    assert difficulty.merge_runs([a, c], [b]) == [c, b]


def build(tmp_path: Path, files: dict[str, str]) -> str:
    """Build a page with both directives over ``files`` in _static (warnings are errors)."""
    pytest.importorskip("sphinx")
    source = tmp_path / "src"
    (source / "_static").mkdir(parents=True)
    (source / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\n"
        "extensions = ['byzantium_difficulty']\n",
        encoding="utf-8",
    )
    (source / "index.rst").write_text(
        "Difficulty\n==========\n\nSword\n-----\n\n"
        ".. byzantium-difficulty:: sword-of-orthodoxy\n\nBelisarius\n----------\n\n"
        ".. byzantium-difficulty:: belisarius\n",
        encoding="utf-8",
    )
    for name, text in files.items():
        (source / "_static" / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "-q",
            "-b",
            "text",
            str(source),
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return (tmp_path / "out" / "index.txt").read_text(encoding="utf-8")


def test_the_page_renders_runs_and_says_where_they_come_from(tmp_path: Path) -> None:
    measured = tmp_path / "difficulty-belisarius-x.json"
    measure(measured, "--scenario", "1", "--both-seats", "--budget", "none to speak of")
    text = build(tmp_path, {"difficulty-belisarius-x.json": measured.read_text("utf-8")})
    assert "No figures of sword-of-orthodoxy have been measured yet" in text
    assert "Scenario 1: sensible v random, each in each seat" in text
    assert "2 games (1 per seating, seed 1)" in text
    assert "Barbarian: random (1 game);" in text
    assert "budget: none to speak of" in text
    assert "python -m benchmarks.difficulty --game belisarius" in text
    assert "| Empire " in text and "| Barbarian " in text and "(sensible)" in text
    assert "95% interval" in text and "Causes of defeat" in text
    assert "What the losses have in common" in text


def test_a_file_of_another_shape_is_shown_as_its_values(tmp_path: Path) -> None:
    other = json.dumps({"campaign": {"games": 200, "survived": 41, "mean_turn": 18.5}})
    text = build(
        tmp_path,
        {"difficulty-sword.json": other, "difficulty-belisarius.json": "[1, 2"},
    )
    assert "Other figures: difficulty-sword.json" in text
    assert "campaign.survived" in text and "41" in text
    assert "Other figures: difficulty-belisarius.json" in text
    assert "unreadable" in text
