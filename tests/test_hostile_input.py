"""Hostile or careless input to the command line gets one clear line and exit status 2,
never a traceback, a hang or a flood (issue 14).

Each case goes through the real entry point: ``byzantium.cli.main`` in process, or
``python -m byzantium`` in a subprocess where the terminal itself is the point.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.core.codec import DecodeError, codec_for

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 2) -> str:
    # The bound is on the work the refusal takes: this process's CPU time, which other
    # jobs on a busy machine (tox runs its environments side by side) do not stretch.
    start = time.process_time()
    code, _ = run(*argv)
    elapsed = time.process_time() - start
    err = capsys.readouterr().err
    assert code == status, err
    assert elapsed < 1.0, elapsed
    assert err.startswith("byzantium: ") and err.count("\n") == 1, err
    assert "\x1b" not in err and "Traceback" not in err
    assert len(err) < 1_000
    return err


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("rec") / "pig.json"
    assert (
        main(["play", "pig", "--seed", "3", "--record", str(path), "--quiet"], io.StringIO()) == 0
    )
    return path.read_text(encoding="utf-8")


BAD_FILES: dict[str, bytes] = {
    "binary": bytes(range(256)),
    "latin-1": '{"game": "pig", "x": "é"}'.encode("latin-1"),
    "deep": b"[" * 5_000 + b"]" * 5_000,
    "deep-but-parsable": b"[" * 500 + b"]" * 500,
    "huge integer": b'{"seed": ' + b"9" * 5_000 + b"}",
    "lone surrogate": b'{"game": "\\ud800"}',
    "duplicate key": b'{"game": "pig", "game": "pig"}',
    "nan": b'{"seed": NaN}',
    "ten megabyte name": b'{"game": "' + b"x" * 10_000_000 + b'"}',
    "empty": b"",
}


@pytest.mark.parametrize("command", ["verify", "replay", "explain"])
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_unreadable_files_give_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(BAD_FILES[name])
    one_line_error(capsys, command, str(path))


def test_a_fraction_text_with_a_huge_exponent_is_refused_at_once() -> None:
    codec = codec_for(Fraction)
    for text in ("1e999999999", " 1/2 ", "1_000", "2/4", "1" * 5_000, "-0", "1/1"):
        start = time.perf_counter()
        with pytest.raises(DecodeError):
            codec.decode(text)
        assert time.perf_counter() - start < 0.1
    assert codec.decode("-3/2") == Fraction(-3, 2)


def test_terminal_escapes_in_a_record_do_not_reach_the_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str
) -> None:
    data = json.loads(record_text)
    data["game"] = "\x1b[2J\x1b[1;32mvalid\x1b[0m"
    path = tmp_path / "escape.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("verify", "replay"):
        err = one_line_error(capsys, command, str(path))
        assert "\\x1b" in err
    data = json.loads(record_text)
    data["steps"][0]["action"] = {"type": "Hold\x1b[2J"}
    path.write_text(json.dumps(data), encoding="utf-8")
    code, text = run("verify", "--partial", str(path))
    assert code == 1 and "\x1b" not in text


def test_a_records_components_directory_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert (
        main(["play", "sword-of-orthodoxy", "--record", str(path), "--quiet"], io.StringIO()) == 0
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "tiles.toml").write_text("this is not toml [[[", encoding="utf-8")
    data["options"]["components"] = str(elsewhere)
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in ("verify", "replay"):
        err = one_line_error(capsys, command, str(path))
        assert "--components DIR" in err and "tiles.toml" not in err


def test_replay_and_verify_agree_on_a_truncated_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record_text: str
) -> None:
    for steps in (0, 3):
        data = json.loads(record_text)
        data["steps"] = data["steps"][:steps]
        data["final"] = ""
        path = tmp_path / f"cut{steps}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        code, text = run("verify", str(path))
        assert code == 1 and "invalid" in text
        err = one_line_error(capsys, "replay", str(path))
        assert "before the end of the game" in err
        assert run("replay", "--partial", str(path))[0] == 0


def test_bad_arguments_give_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "at least 1" in one_line_error(capsys, "play", "pig", "--max-steps", "0")
    assert "unknown game" in one_line_error(capsys, "verify", "--game", "chess", "x.json")
    assert "module name" in one_line_error(capsys, "--import", "", "games")
    assert "NUL" in one_line_error(capsys, "play", "pig", "--record", str(tmp_path / "a\x00b"))


def _python(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )


def test_a_closed_standard_output_is_one_line() -> None:
    script = (
        "import os, sys; from byzantium.cli import main; "
        "r, w = os.pipe(); os.close(r); os.dup2(w, 1); sys.exit(main(['games']))"
    )
    done = _python("-c", script)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_a_non_utf8_terminal_is_no_crash() -> None:
    env = {"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"}
    done = _python("-m", "byzantium", "play", "sword-of-orthodoxy", "--seed", "2", env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


# -- component files ----------------------------------------------------------------------

DATA = {
    "belisarius": ROOT / "byzantium" / "belisarius" / "data",
    "sword-of-orthodoxy": ROOT / "byzantium" / "sword_of_orthodoxy" / "data",
}


def _components(tmp_path: Path, game: str, file: str, change: Callable[[str], str]) -> Path:
    directory = tmp_path / game
    directory.mkdir()
    for source in DATA[game].glob("*.toml"):
        (directory / source.name).write_bytes(source.read_bytes())
    path = directory / file
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    return directory


COMPONENT_EDITS: dict[str, tuple[str, str, Callable[[str], str], str]] = {
    "unknown Belisarius event": (
        "belisarius",
        "tables.toml",
        lambda t: t.replace('id = "no-event"', 'id = "alien-invasion"'),
        "an event the rules do not know",
    ),
    "unknown political event": (
        "sword-of-orthodoxy",
        "tables.toml",
        lambda t: t.replace('"Riots"', '"Riots of Frogs"'),
        "no rules for the event",
    ),
    "deep nesting": (
        "belisarius",
        "counters.toml",
        lambda t: t + "\ndeep = " + "[" * 5_000 + "]" * 5_000 + "\n",
        "nested",
    ),
    "a billion counters": (
        "belisarius",
        "counters.toml",
        lambda t: t.replace("count = 8", "count = 1000000000", 1),
        "more than 1000",
    ),
    "a huge file": (
        "sword-of-orthodoxy",
        "map.toml",
        lambda t: t + "\n# " + "x" * 5_000_000 + "\n",
        "more than a component file holds",
    ),
    "not UTF-8": ("belisarius", "map.toml", lambda t: t + "\n# \udcff\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", sorted(COMPONENT_EDITS))
def test_bad_component_files_are_refused_at_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    game, file, change, words = COMPONENT_EDITS[case]
    if case == "not UTF-8":
        directory = _components(tmp_path, game, file, lambda t: t)
        with (directory / file).open("ab") as handle:
            handle.write(b"\n# \xff\xfe\n")
    else:
        directory = _components(tmp_path, game, file, change)
    err = one_line_error(capsys, "play", game, "--option", f"components={directory}", "--quiet")
    assert words in err, err
