"""``byzantium verify``: records written by ``play`` check out; broken ones are pinpointed."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from byzantium.belisarius.state import BelState
from byzantium.cli import main
from byzantium.core.errors import IllegalActionError
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import (
    check_record,
    loads_record,
    record_from_json,
    replay,
    state_from_json,
)
from byzantium.sword_of_orthodoxy.state import SooState

ROOT = Path(__file__).resolve().parent.parent

#: (file stem, play arguments): complete games of both games, a couple of seeds.
GAMES = {
    "soo-1": ("sword-of-orthodoxy", "--seed", "1"),
    "soo-2": ("sword-of-orthodoxy", "--seed", "2", "--option", "islam=true"),
    "bel-1": ("belisarius", "--scenario", "1", "--option", "capitulation=false", "--seed", "1"),
    "bel-2": ("belisarius", "--scenario", "1", "--option", "capitulation=false", "--seed", "2"),
}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Records written by ``byzantium play --record``."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for stem, argv in GAMES.items():
        path = folder / f"{stem}.json"
        status, _ = run("play", *argv, "--quiet", "--record", str(path))
        assert status == 0
        paths[stem] = path
    return paths


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: object, name: str = "edited.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def state_before(data: dict[str, Any], step: int) -> tuple[Game[object, object], object]:
    """The state in which ``steps[step]`` of a record is taken, replayed independently."""
    game, record = record_from_json({**data, "steps": data["steps"][:step], "final": ""})
    return game, replay(game, record)


def pending_rule(state: object) -> str:
    """The rule of the request a state of either game waits on."""
    assert isinstance(state, SooState | BelState)
    assert state.pending is not None
    return state.pending.rule


@pytest.mark.parametrize("stem", sorted(GAMES))
def test_verify_accepts_every_record_play_writes(records: dict[str, Path], stem: str) -> None:
    status, text = run("verify", str(records[stem]))
    assert status == 0, text
    steps = len(load(records[stem])["steps"])
    assert f"valid: {steps} steps, digests checked." in text
    assert "Result [" in text
    game, record = loads_record(records[stem].read_text(encoding="utf-8"))
    result = game.result(replay(game, record))
    assert f"Result [{result.rule}]: {result.level};" in text
    if result.points:
        assert f"Points: {', '.join(str(p) for p in result.points)}" in text
    # replay keeps working on the same records
    status, text = run("replay", str(records[stem]))
    assert (status, "replay exactly" in text) == (0, True)


def test_a_valid_record_can_save_its_final_state(records: dict[str, Path], tmp_path: Path) -> None:
    saved = tmp_path / "end.json"
    status, text = run("verify", str(records["soo-1"]), "--state", str(saved))
    assert status == 0
    assert f"State written to {saved}" in text
    game, state = state_from_json(load(saved))
    assert game.is_terminal(state)
    assert game.state_digest(state) == load(records["soo-1"])["final"]


@pytest.mark.parametrize("stem", ["bel-1", "soo-1"])
def test_an_illegal_choice_is_pinpointed_with_its_rule_and_state(
    records: dict[str, Path], tmp_path: Path, stem: str
) -> None:
    data = load(records[stem])
    step = next(i for i, s in enumerate(data["steps"]) if s["actor"] >= 0 and i > 3)
    data["steps"][step]["action"] = {"type": "Select", "item": "no-such-thing"}
    saved = tmp_path / "state.json"
    status, text = run("verify", str(write(tmp_path, data)), "--state", str(saved))
    assert status == 1
    game, before = state_before(data, step)
    with pytest.raises(IllegalActionError) as error:
        game.apply(before, game.decode_action(data["steps"][step]["action"]))
    assert f"invalid at step {step + 1} (steps[{step}]), rule {error.value.rule}\n" in text
    assert error.value.reason in text
    assert f"state before step {step + 1}:" in text
    assert game.render(before).splitlines()[0] in text
    saved_game, saved_state = state_from_json(load(saved))
    assert saved_game.ID == game.ID
    assert saved_state == before


def test_an_impossible_roll_is_pinpointed(records: dict[str, Path], tmp_path: Path) -> None:
    data = load(records["soo-2"])
    step = next(
        i
        for i, s in enumerate(data["steps"])
        if s["actor"] == CHANCE and s["action"]["type"] == "Roll"
    )
    dice = data["steps"][step]["action"]["dice"]
    data["steps"][step]["action"]["dice"] = [7 for _ in dice]
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    _, before = state_before(data, step)
    rule = pending_rule(before)
    assert f"invalid at step {step + 1} (steps[{step}]), rule {rule}\n" in text
    assert "not a possible outcome of this chance node" in text


def test_the_wrong_actor_is_pinpointed(records: dict[str, Path], tmp_path: Path) -> None:
    data = load(records["bel-2"])
    step = next(i for i, s in enumerate(data["steps"]) if s["actor"] == 1)
    data["steps"][step]["actor"] = 0
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    _, before = state_before(data, step)
    rule = pending_rule(before)
    assert f"invalid at step {step + 1} (steps[{step}]), rule {rule}\n" in text
    assert "recorded actor 0 but 1 is to move" in text


def test_legal_steps_with_an_edited_state_digest_are_invalid(
    records: dict[str, Path], tmp_path: Path
) -> None:
    data = load(records["soo-1"])
    original = data["steps"][10]["state"]
    data["steps"][10]["state"] = "0123456789abcdef"
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert "invalid at step 11 (steps[10])\n" in text
    assert f"state digest: recorded 0123456789abcdef, replayed {original}" in text
    assert "state after step 11:" in text


def test_an_edited_final_digest_is_invalid(records: dict[str, Path], tmp_path: Path) -> None:
    data = load(records["bel-1"])
    final = data["final"]
    data["final"] = "ffffffffffffffff"
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert "invalid at the end" in text
    assert f"recorded ffffffffffffffff, replayed {final}" in text


def test_records_without_digests_are_still_checked_for_legality(
    records: dict[str, Path], tmp_path: Path
) -> None:
    data = load(records["soo-2"])
    for step in data["steps"]:
        del step["state"]
    data["final"] = ""
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 0
    assert "valid:" in text and "digests checked" not in text
    data["steps"][3]["action"] = {"type": "Pay", "amount": 999}
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert "invalid at step 4 (steps[3]), rule " in text


def test_a_record_that_stops_before_the_end(records: dict[str, Path], tmp_path: Path) -> None:
    data = load(records["soo-1"])
    data["steps"] = data["steps"][:20]
    data["final"] = ""
    path = write(tmp_path, data)
    status, text = run("verify", str(path))
    assert status == 1
    assert "invalid after step 20" in text
    assert "before the end of the game" in text
    status, text = run("verify", str(path), "--partial")
    assert status == 0
    assert "valid: 20 steps" in text
    assert "did not reach its end" in text
    # with its final digest kept, the cut is caught by the digest too
    data["final"] = load(records["soo-1"])["final"]
    status, text = run("verify", str(write(tmp_path, data)), "--partial")
    assert status == 1
    assert "final state differs" in text


def test_a_malformed_action_is_the_first_bad_step(records: dict[str, Path], tmp_path: Path) -> None:
    data = load(records["soo-1"])
    data["steps"][7]["action"] = {"type": "Bogus"}
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert "invalid at step 8 (steps[7])" in text
    assert "malformed action" in text
    assert "state before step 8:" in text


def test_a_record_of_other_component_data_or_another_game(
    records: dict[str, Path], tmp_path: Path
) -> None:
    data = load(records["soo-1"])
    data["components"] = "ffffffffffffffff"
    status, text = run("verify", str(write(tmp_path, data)))
    assert status == 1
    assert "component data differ: record ffffffffffffffff" in text
    status, text = run("verify", str(records["bel-1"]), "--game", "sword-of-orthodoxy")
    assert status == 1
    assert "the record is of 'belisarius', not 'sword-of-orthodoxy'" in text


def one_error_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, text = run(*argv)
    err = capsys.readouterr().err
    assert status == 2
    assert text == ""
    assert err.startswith("byzantium: ") and err.count("\n") == 1
    return err


def test_unreadable_input_is_one_line_and_status_2(
    records: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = records["bel-1"].read_text(encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    assert "not valid JSON" in one_error_line(capsys, "verify", str(cut))
    (tmp_path / "junk.json").write_text("{nope", encoding="utf-8")
    assert "not valid JSON" in one_error_line(capsys, "verify", str(tmp_path / "junk.json"))
    data = load(records["soo-1"])
    other = write(tmp_path, {**data, "game": "chess"})
    assert "unknown game 'chess'" in one_error_line(capsys, "verify", str(other))
    options = write(tmp_path, {**data, "options": {"dragons": True}})
    assert "no option 'dragons'" in one_error_line(capsys, "verify", str(options))
    assert "JSON object" in one_error_line(capsys, "verify", str(write(tmp_path, [1, 2])))
    fmt = write(tmp_path, {**data, "format": "something-else"})
    assert "unknown record format" in one_error_line(capsys, "verify", str(fmt))
    assert "No such file" in one_error_line(capsys, "verify", str(tmp_path / "missing.json"))


def test_check_record_stops_where_replay_fails(records: dict[str, Path]) -> None:
    game, record = loads_record(records["bel-2"].read_text(encoding="utf-8"))
    check = check_record(game, record)
    assert check.ok and check.steps == len(record)
    assert check.state == replay(game, record)


def test_python_dash_m_verify(records: dict[str, Path], tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "byzantium", "verify", str(records["soo-1"])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "valid:" in done.stdout
    data = load(records["soo-1"])
    data["steps"][5]["action"] = {"type": "Pay", "amount": 999}
    done = subprocess.run(
        [sys.executable, "-m", "byzantium", "verify", str(write(tmp_path, data))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert "invalid at step 6 (steps[5]), rule " in done.stdout
