"""``byzantium explain``: who acts in a saved state, the legal actions and chance outcomes."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import pytest

from byzantium.belisarius.state import BelState, Draw
from byzantium.cli import main
from byzantium.core.drivers import random_policy
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import state_to_json
from byzantium.core.registry import load_game
from byzantium.sword_of_orthodoxy.state import SooState

ROOT = Path(__file__).resolve().parent.parent

S = TypeVar("S")
A = TypeVar("A")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def pending_rule(state: object) -> str:
    assert isinstance(state, SooState | BelState)
    assert state.pending is not None
    return state.pending.rule


def save(tmp_path: Path, game: Game[S, A], state: S, name: str = "s.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(state_to_json(game, state)), encoding="utf-8")
    return path


def advance_until(game: Game[S, A], want: str, seed: int = 3, limit: int = 5000) -> S:
    """A state of a random game where ``want`` ("player", "roll" or "draw") decides."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(limit):
        actor = game.current_player(state)
        if want == "player" and actor >= 0:
            return state
        if actor == CHANCE:
            first = game.legal_actions(state)[0]
            if type(first).__name__.lower() == want:
                return state
        state = game.apply(state, random_policy(game, state, rng))
    raise AssertionError(f"no {want} node within {limit} steps")


def check_chance_report(game: Game[S, A], state: S, text: str) -> None:
    outcomes = game.chance_outcomes(state)
    assert f"Chance decides, rule {pending_rule(state)}: {len(outcomes)} outcomes" in text
    for number, (action, p) in enumerate(outcomes, 1):
        encoded = json.dumps(game.encode_action(action), ensure_ascii=False)
        line = (
            f"{number:>4}. {p} = {float(p):.6f}  {encoded}  {game.describe_action(state, action)}"
        )
        assert line in text.splitlines()
    assert "      total 1" in text.splitlines()


def check_player_report(game: Game[S, A], state: S, text: str) -> None:
    actions = game.legal_actions(state)
    rule = pending_rule(state)
    assert f"to act, rule {rule}: {len(actions)} legal actions" in text
    lines = text.splitlines()
    for number, action in enumerate(actions, 1):
        encoded = json.dumps(game.encode_action(action), ensure_ascii=False)
        line = f"{number:>4}. [{rule}] {encoded}  {game.describe_action(state, action)}"
        assert line in lines
    assert len([line for line in lines if f". [{rule}] " in line]) == len(actions)


def test_a_sword_of_orthodoxy_chance_node(tmp_path: Path) -> None:
    game = load_game("sword-of-orthodoxy")
    state = game.initial_state()  # the first Turn Chit is drawn from the mug
    status, text = run("explain", str(save(tmp_path, game, state)))
    assert status == 0
    check_chance_report(game, state, text)
    roll = advance_until(game, "roll")
    status, text = run("explain", str(save(tmp_path, game, roll)))
    assert status == 0
    check_chance_report(game, roll, text)
    assert "1/6 = 0.166667" in text


def test_a_sword_of_orthodoxy_player_node(tmp_path: Path) -> None:
    game = load_game("sword-of-orthodoxy", islam=True)
    state = advance_until(game, "player")
    status, text = run("explain", str(save(tmp_path, game, state)))
    assert status == 0
    check_player_report(game, state, text)
    assert "player 0 to act" in text
    assert "islam=True" in text.splitlines()[0]


def test_belisarius_player_and_chance_nodes(tmp_path: Path) -> None:
    game = load_game("belisarius", scenario=1, capitulation=False)
    state = game.initial_state()
    status, text = run("explain", str(save(tmp_path, game, state)))
    assert status == 0
    check_player_report(game, state, text)
    assert f"{game.player_name(game.current_player(state))} (player " in text
    roll = advance_until(game, "roll")
    status, text = run("explain", str(save(tmp_path, game, roll)))
    assert status == 0
    check_chance_report(game, roll, text)


def test_a_belisarius_draw_gives_exact_unequal_chances(tmp_path: Path) -> None:
    game = load_game("belisarius", scenario=1, capitulation=False)
    state = advance_until(game, "draw", seed=5)
    outcomes = game.chance_outcomes(state)
    assert all(isinstance(action, Draw) for action, _ in outcomes)
    assert sum(p for _, p in outcomes) == 1
    status, text = run("explain", str(save(tmp_path, game, state)), "--player", "0")
    assert status == 0
    check_chance_report(game, state, text)
    # the cup holds more markers of some types than of others
    assert len({p for _, p in outcomes}) > 1
    assert min(p for _, p in outcomes) < Fraction(1, len(outcomes))


def test_a_bare_state_needs_its_game_and_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load_game("belisarius", scenario=2)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(game.encode_state(game.initial_state())), encoding="utf-8")
    status, text = run("explain", str(bare), "--game", "belisarius", "--scenario", "2")
    assert status == 0
    assert "scenario=2" in text.splitlines()[0]
    assert run("explain", str(bare))[0] == 2
    assert "name the game" in capsys.readouterr().err


def test_a_finished_game_gives_its_result(tmp_path: Path) -> None:
    game = load_game("sword-of-orthodoxy")
    rng = random.Random(1)
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, random_policy(game, state, rng))
    status, text = run("explain", str(save(tmp_path, game, state)))
    assert status == 0
    result = game.result(state)
    assert "The game is over." in text
    assert f"Result [{result.rule}]: {result.level};" in text


def test_a_state_saved_by_verify_can_be_explained(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert (
        run("play", "sword-of-orthodoxy", "--seed", "4", "--quiet", "--record", str(record))[0] == 0
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    step = next(i for i, s in enumerate(data["steps"]) if s["actor"] == 0)
    data["steps"][step]["action"] = {"type": "Pay", "amount": 99}
    record.write_text(json.dumps(data), encoding="utf-8")
    saved = tmp_path / "there.json"
    assert run("verify", str(record), "--state", str(saved))[0] == 1
    status, text = run("explain", str(saved))
    assert status == 0
    assert "player 0 to act, rule " in text
    assert "legal actions" in text


def bad(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, text = run("explain", *argv)
    err = capsys.readouterr().err
    assert (status, text) == (2, "")
    assert err.startswith("byzantium: ") and err.count("\n") == 1
    return err


def test_bad_inputs_are_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load_game("sword-of-orthodoxy")
    good = save(tmp_path, game, game.initial_state())
    (tmp_path / "junk.json").write_text("[1, 2", encoding="utf-8")
    assert "not valid JSON" in bad(capsys, str(tmp_path / "junk.json"))
    assert "No such file" in bad(capsys, str(tmp_path / "missing.json"))
    assert "unknown game 'chess'" in bad(capsys, str(good), "--game", "chess")
    assert "not 'belisarius'" in bad(capsys, str(good), "--game", "belisarius")
    data = json.loads(good.read_text(encoding="utf-8"))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**data, "components": "0000000000000000"}), encoding="utf-8")
    assert "component data differ" in bad(capsys, str(other))
    other.write_text(json.dumps({**data, "state": {"turn": "x"}}), encoding="utf-8")
    assert "not a state of sword-of-orthodoxy" in bad(capsys, str(other))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"turn": 1}), encoding="utf-8")
    assert "not a state of belisarius" in bad(capsys, str(bare), "--game", "belisarius")
    assert "players 0 to 0, not 3" in bad(capsys, str(good), "--player", "3")


def test_python_dash_m_explain(tmp_path: Path) -> None:
    game = load_game("belisarius")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "byzantium",
            "explain",
            str(save(tmp_path, game, game.initial_state())),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "legal actions" in done.stdout


def test_a_record_at_a_step_is_explained_as_its_state_there(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert (
        run("play", "sword-of-orthodoxy", "--seed", "4", "--quiet", "--record", str(record))[0] == 0
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    game = load_game("sword-of-orthodoxy")
    actions = [game.decode_action(step["action"]) for step in data["steps"]]
    for step in (0, 7, len(actions) // 2, len(actions)):
        state = game.initial_state()
        for action in actions[:step]:
            state = game.apply(state, action)
        expected = run("explain", str(save(tmp_path, game, state, f"at{step}.json")))
        assert run("explain", str(record), "--step", str(step)) == expected
    # Without --step: the state after the last step (this record ends the game).
    status, text = run("explain", str(record))
    assert status == 0
    assert "The game is over." in text


def test_a_record_is_checked_before_it_is_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert (
        run("play", "sword-of-orthodoxy", "--seed", "4", "--quiet", "--record", str(record))[0] == 0
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    total = len(data["steps"])
    assert f"has {total} steps" in bad(capsys, str(record), "--step", str(total + 1))
    assert "not -1" in bad(capsys, str(record), "--step", "-1")
    assert "drop --game" in bad(capsys, str(record), "--game", "sword-of-orthodoxy")
    step = next(i for i, s in enumerate(data["steps"]) if s["actor"] == 0)
    data["steps"][step]["action"] = {"type": "Pay", "amount": 99}
    record.write_text(json.dumps(data), encoding="utf-8")
    err = bad(capsys, str(record), "--step", "1")
    assert f"does not check out at step {step + 1}" in err
    game = load_game("sword-of-orthodoxy")
    state = save(tmp_path, game, game.initial_state())
    assert "--step is for records" in bad(capsys, str(state), "--step", "1")
