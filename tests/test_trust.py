"""Issue 36: what the command line and the library trust. Every file is read through
one bounded reader, the viewer checks the records it draws, the library answers
misuse with its own errors, and the command line complains in one line."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest

from byzantium.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The command fails at once with one line on standard error and exit status 2."""
    start = time.process_time()
    code, _ = run(*argv)
    elapsed = time.process_time() - start
    err = capsys.readouterr().err
    assert code == 2, err
    assert elapsed < 2.0, elapsed
    assert err.startswith("byzantium: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "usage:" not in err
    return err


# -- deliverable 6: one line on the command line --------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("play", "sword-of-orthodoxy", "--seed", "x"), "--seed"),
        (("simulate", "sword-of-orthodoxy", "--games", "2", "--jobs", "abc"), "--jobs"),
        (("simulate", "sword-of-orthodoxy", "--games", "many"), "--games"),
        (("simulate", "sword-of-orthodoxy", "--games", "-1"), "-1"),
        (("play", "sword-of-orthodoxy", "--max-steps", "1e3"), "--max-steps"),
        (("render", "x.json"), "--output"),
        (("play", "sword-of-orthodoxy", "--no-such-option"), "--no-such-option"),
        (("no-such-command",), "no-such-command"),
        ((), "command"),
    ],
)
def test_a_bad_option_value_is_one_line_without_the_usage(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str
) -> None:
    assert words in one_line_error(capsys, *argv)


def test_help_still_prints_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"], io.StringIO())
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: byzantium play")


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("1 / 0\n", "ZeroDivisionError"),
        ("import no_such_module_anywhere\n", "no_such_module_anywhere"),
        ("def broken(:\n", "SyntaxError"),
    ],
)
def test_a_failing_import_module_is_one_line_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    source: str,
    words: str,
) -> None:
    name = f"trust_failing_{abs(hash(source))}"
    (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    err = one_line_error(capsys, "--import", name, "games")
    assert f"--import {name}" in err and words in err, err
    sys.modules.pop(name, None)


def test_the_docs_say_that_import_runs_code_from_the_current_directory() -> None:
    from byzantium import cli

    usage = (ROOT / "docs" / "usage.rst").read_text(encoding="utf-8")
    for text in (" ".join((cli.__doc__ or "").split()), " ".join(usage.split())):
        assert "runs its code" in text and "current directory" in text, text[:200]
