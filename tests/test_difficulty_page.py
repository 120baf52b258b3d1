"""The figures of "How hard is each game?": ``python -m benchmarks.difficulty`` writes
them, ``docs/_ext/byzantium_difficulty.py`` renders whatever files there are."""

from __future__ import annotations

import json
import random
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


def build(tmp_path: Path, files: dict[str, str], extra: str = "", builder: str = "text") -> str:
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
        ".. byzantium-difficulty:: belisarius\n" + extra,
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
            builder,
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
    suffix = "html" if builder == "html" else "txt"
    return (tmp_path / "out" / f"index.{suffix}").read_text(encoding="utf-8")


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


def _game_line(budget: int, seed: int, survived: bool, turn: int) -> dict[str, object]:
    return {
        "scenario": "campaign",
        "budget": budget,
        "seed": seed,
        "survived": survived,
        "end_turn": turn,
        "cause": "Constantinople falls to the Siege from Path Δ (10 > 9)",
        "cause_rule": "12.1",
        "cpu_seconds": 10.0 + budget / 100,
        "decisions": 100,
        "transitions_per_decision": 300.0 + budget,
        "factions_lost_by_rule": {"10.6.9.2": 2},
        "siege_rolls": 2,
    }


def test_the_sword_expert_evidence_shows_the_budget_curve_and_the_last_stands(
    tmp_path: Path,
) -> None:
    from benchmarks.sword_expert_games import evidence

    lines = [
        _game_line(0, 0, False, 8),
        _game_line(0, 1, True, 27),
        _game_line(0, 2, True, 27),  # a seed only budget 0 played: not in the curve
        _game_line(300, 0, False, 9),
        _game_line(300, 1, False, 12),
    ]
    choice = {"choice": "End the Byzantine Action Phase", "falls": 5, "rollouts": 12,
              "fall_rate": 0.417, "wilson95": [0.19, 0.68], "by_rule": {"12.1": 5}}  # fmt: skip
    last = {"turn": 7, "factions": 9, "walls": True, "solidus": 0, "schism": 3,
            "distance": {"Α": 3, "Δ": 1}, "letter_chance": {"Α": 0.5, "Δ": 0.4},
            "siege_loss": "1/6", "model_fall_chance": 0.2, "choices": [choice]}  # fmt: skip
    lines[0]["last_stand"] = {"first_decision": last, "last_decision": last, "then": []}
    data = evidence(lines, "A reading of the figures.", "abc1234")
    curve = data["budget_curve"]
    assert isinstance(curve, list) and [row["games"] for row in curve] == [2, 2]
    results = data["results"]
    assert isinstance(results, list) and [row["games"] for row in results] == [3, 2]
    text = build(
        tmp_path,
        {"sword-expert-evidence.json": json.dumps(data, ensure_ascii=False)},
        "\nSword expert\n------------\n\n.. byzantium-sword-expert::\n",
    )
    assert "Budget against survival" in text and "The last stands" in text
    assert "50.0%" in text  # one survivor in two games at budget 0
    # the one choice left, played out: ending, the best choice, the range (its low end)
    assert "Ending:" in text and text.count("41.7%") >= 3 and "41.7%-41.7" in text
    assert "the Action Phase of the next Turn" in text
    assert "Δ 1" in text and "9 + Walls" in text
    assert "A reading of the figures." in text


def test_every_choice_of_a_last_stand_is_played_out_to_the_same_turn() -> None:
    """Ending the phase runs into the next Turn before it stops for a die: its
    play-outs still stop at the next Turn's Action Phase, as the other choices' do
    (they used to run a whole Turn further, which made ending look more dangerous)."""
    from benchmarks.sword_expert_games import play_on
    from byzantium.core.drivers import chance_policy, random_policy
    from byzantium.core.game import CHANCE, TERMINAL
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
    from byzantium.sword_of_orthodoxy.state import Decline

    game = SwordOfOrthodoxy()
    rng = random.Random(0)
    state = game.initial_state()
    # Random play to an Action Phase whose end goes on into the next Turn (nothing
    # left to bank, no die at the end of this one)
    while not (
        state.pending is not None
        and state.pending.rule == "10.0"
        and game.apply(state, Decline()).turn > state.turn
    ):
        assert game.current_player(state) != TERMINAL
        play = chance_policy if game.current_player(state) == CHANCE else random_policy
        state = game.apply(state, play(game, state, rng))
    reached = set()
    for action in game.legal_actions(state):
        for i in range(3):
            end = play_on(game, game.apply(state, action), random.Random(i), state.turn)
            if game.current_player(end) != TERMINAL:
                assert end.pending is not None and end.pending.rule == "10.0"
                reached.add(end.turn)
    assert reached == {state.turn + 1}


def test_new_last_stands_and_a_new_budget_curve_replace_their_tables_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchmarks.sword_expert_games import METHOD, evidence, main

    old = evidence([_game_line(0, 0, True, 27), _game_line(300, 0, True, 27)], "Old.", "old")
    old["method"] = "an older method"
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "docs" / "_static" / "sword-expert-evidence.json"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(old), encoding="utf-8")
    lost = _game_line(0, 5, False, 9) | {"last_stand": {"then": ["the fall"]}}
    stands = tmp_path / "stands.jsonl"
    stands.write_text(json.dumps(lost) + "\n", encoding="utf-8")
    assert main(["--stands", str(stands), "--commit", "new"]) == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [(s["seed"], s["then"]) for s in data["last_stands"]] == [(5, ["the fall"])]
    assert data["budget_curve"] == old["budget_curve"] and data["results"] == old["results"]
    assert data["commit"] == "new" and data["method"] == METHOD
    curve = tmp_path / "curve.jsonl"
    games = [_game_line(b, seed, False, 8 + b // 600) for b in (0, 1200) for seed in (0, 1)]
    curve.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    assert main(["--curve", str(curve)]) == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [(r["budget"], r["mean_end_turn"]) for r in data["budget_curve"]] == [(0, 8), (1200, 10)]
    assert [s["seed"] for s in data["last_stands"]] == [5]
    assert data["results"] == old["results"]


def test_new_games_replace_the_results_of_their_scenario_and_budget_alone() -> None:
    from benchmarks.sword_expert_games import evidence, results

    old = evidence([_game_line(0, 0, False, 8), _game_line(300, 0, False, 9)], "", "abc")
    rows = old["results"]
    assert isinstance(rows, list)
    new = [_game_line(0, seed, seed == 1, turn) for seed, turn in enumerate((10, 27, 12))]
    new.append(_game_line(0, 3, True, 27) | {"label": "money", "weights": {"solidus": 8.0}})
    millennium = _game_line(0, 0, True, 27) | {"scenario": "millennium"}
    found = results(rows, [*new, millennium], "2026-12-03")
    # Budget 0 is played again (the changed weights left out), budget 300 kept as it
    # was, and the Millennium, new, comes last.
    assert [(r["scenario"], r["budget"], r["games"]) for r in found] == [
        ("campaign", 0, 3),
        ("campaign", 300, 1),
        ("millennium", 0, 1),
    ]
    assert found[0]["survived"] == 1 and found[0]["mean_end_turn"] == round(49 / 3, 2)
    assert found[1] == rows[1]
    assert found[0]["date"] == found[2]["date"] == "2026-12-03" and "date" not in found[1]


def test_changed_weights_are_compared_with_the_default_on_the_seeds_both_played(
    tmp_path: Path,
) -> None:
    from benchmarks.sword_expert_games import evidence

    base = [_game_line(0, seed, seed == 1, turn) for seed, turn in enumerate((8, 27, 12, 9))]
    tried = [_game_line(0, seed, False, turn) for seed, turn in enumerate((10, 20, 12))]
    for line in tried:
        line |= {"label": "money", "weights": {"solidus": 8.0}}
    data = evidence(base + tried, "", "abc1234")
    # The changed weights stay out of the results, and meet the default on seeds 0-2.
    results = data["results"]
    assert isinstance(results, list) and [row["games"] for row in results] == [4]
    assert data["tuning"] == [
        {
            "scenario": "campaign",
            "budget": 0,
            "label": "money",
            "weights": {"solidus": 8.0},
            "games": 3,
            "seed_range": "0-2",
            "survived": 0,
            "default_survived": 1,
            "mean_end_turn": 14.0,
            "default_mean_end_turn": round((8 + 27 + 12) / 3, 2),
            "longer": 1,
            "as_long": 1,
            "shorter": 1,
        }
    ]
    text = build(
        tmp_path,
        {"sword-expert-evidence.json": json.dumps(data, ensure_ascii=False)},
        "\nSword expert\n------------\n\n.. byzantium-sword-expert::\n",
    )
    assert "Tuning the evaluation" in text
    assert "solidus 8.0" in text and "0 / 1" in text and "14.0 / 15.7" in text
    assert "1 / 1 / 1" in text


@pytest.mark.parametrize(
    ("changed", "complaint"),
    [
        ({"bogus": 1.0}, "no such weight: bogus"),
        ({"solidus": "much"}, "solidus must be a number"),
        ({"solidus": True}, "solidus must be a number"),
        ({"pressure": [1.0, 2.0]}, "pressure must be a list of four numbers"),
    ],
)
def test_a_bad_weight_is_refused_with_its_name(changed: dict[str, object], complaint: str) -> None:
    from benchmarks.sword_expert_games import weights_of

    with pytest.raises(ValueError, match=complaint):
        weights_of(changed)


def test_changed_weights_reach_the_evaluation() -> None:
    from benchmarks.sword_expert_games import weights_of

    weights = weights_of({"solidus": 8, "pressure": [50, 18, 6, 2], "danger": 400.0})
    assert weights.solidus == 8.0 and weights.pressure == (50.0, 18.0, 6.0, 2.0)
    assert weights.danger == 400.0 and weights.factions == 40.0  # the rest: the default


def _check(distance: dict[str, int], model: dict[str, float], sieges: list[str], fell: bool,
           fall: float) -> dict[str, object]:  # fmt: skip
    return {"turn": 5, "distance": distance, "model": model, "model_fall_chance": fall,
            "sieges": sieges, "fell": fell}  # fmt: skip


def test_the_model_of_a_siege_is_checked_against_the_games_played(tmp_path: Path) -> None:
    from benchmarks.sword_expert_games import calibration, evidence

    near = {"Α": 4, "Β": 4, "Γ": 4, "Δ": 1, "Ε": 9, "Ζ": 2}
    model = {"Α": 0.0, "Β": 0.0, "Γ": 0.0, "Δ": 0.5, "Ε": 0.0, "Ζ": 0.1}
    first = _game_line(0, 0, False, 6) | {
        "calibration": [
            _check(near, model, ["Δ"], False, 0.05),
            _check(near, model, ["Δ", "Ζ"], True, 0.25),
        ]
    }
    second = _game_line(0, 1, False, 7) | {"calibration": [_check(near, model, [], False, 0.05)]}
    found = calibration([first, second])
    assert found["checks"] == 3 and found["games"] == 2
    cells = {(r["theatre"], r["distance"]): r for r in found["paths"]}  # type: ignore[attr-defined]
    # Path Ε has no Army (distance 9): left out; the western Paths lie 4 away.
    assert (cells[("east", 1)]["checks"], cells[("east", 1)]["model"]) == (3, 0.5)
    assert cells[("east", 1)]["observed"] == round(2 / 3, 3)
    assert cells[("east", 2)]["observed"] == round(1 / 3, 3)
    assert (cells[("west", 4)]["checks"], cells[("west", 4)]["observed"]) == (9, 0.0)
    assert ("east", 9) not in cells and ("east", 4) not in cells
    bands = {r["model_from"]: r for r in found["fall"]}  # type: ignore[attr-defined]
    assert (bands[0.0]["checks"], bands[0.0]["observed"]) == (2, 0.0)
    assert (bands[0.2]["checks"], bands[0.2]["observed"]) == (1, 1.0)
    data = evidence([first, second], "", "abc1234")
    assert data["calibration"] == found
    text = build(
        tmp_path,
        {"sword-expert-evidence.json": json.dumps(data, ensure_ascii=False)},
        "\nSword expert\n------------\n\n.. byzantium-sword-expert::\n",
    )
    assert "Is the model of a Siege right?" in text
    assert "66.7%" in text and "50.0%" in text


@pytest.mark.parametrize(
    ("content", "complaint"),
    [(None, "No such file"), ("{not json\n", "Expecting"), ("[1, 2]\n", "line 1 is not a game")],
)
def test_a_bad_file_of_games_is_refused_in_one_line(
    tmp_path: Path, content: str | None, complaint: str
) -> None:
    from benchmarks.sword_expert_games import main

    games = tmp_path / "games.jsonl"
    if content is not None:
        games.write_text(content, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["--results", str(games)])
    assert str(games) in str(stop.value) and complaint in str(stop.value)
    assert "\n" not in str(stop.value)


def test_the_charts_are_drawn_from_the_data_files(tmp_path: Path) -> None:
    """Win rate by seat for both games and survival by Turn for Sword of Orthodoxy, as
    inline SVG drawn at build time (issue 37, deliverable 7)."""
    import re
    import xml.etree.ElementTree as ET

    static = ROOT / "docs" / "_static"
    files = {p.name: p.read_text(encoding="utf-8") for p in static.glob("difficulty-*.json")}
    page = build(tmp_path, files, builder="html")
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    ns = {"s": "http://www.w3.org/2000/svg"}
    charts = {
        ET.fromstring(svg).findtext("s:title", namespaces=ns): ET.fromstring(svg) for svg in svgs
    }
    assert set(charts) == {
        "sword-of-orthodoxy: win rate of each side, with its 95% interval",
        "sword-of-orthodoxy: share of games still going at the start of each Turn",
        "belisarius: win rate of each side, with its 95% interval",
    }
    # Each bar is as long as its win rate: the Belisarius expert as the Empire in
    # Scenario 1 won 86% (380 units of width are 100%).
    bars = charts["belisarius: win rate of each side, with its 95% interval"]
    tips = {
        g.findtext("s:title", namespaces=ns): g.find("s:rect", ns)
        for g in bars.iter(f"{{{ns['s']}}}g")
    }
    expert = [
        float(rect.get("width", "0"))
        for tip, rect in tips.items()
        if tip and tip.startswith("Empire (expert): 86.0% of 100 games won") and rect is not None
    ]
    assert expert == [pytest.approx(0.86 * 380, abs=0.1)]
    # One survival curve per run of at least 30 games, starting at 100%.
    curves = charts["sword-of-orthodoxy: share of games still going at the start of each Turn"]
    paths = list(curves.iter(f"{{{ns['s']}}}path"))
    assert len(paths) == 6
    assert all(p.get("d", "").startswith("M48.0,16.0") for p in paths)
