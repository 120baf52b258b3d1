"""``byzantium trace`` where users run it: the same answer from any directory, a
plain note when the tests are not installed, one line for an unreadable test file."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def trace(*argv: str, cwd: Path, pythonpath: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run(
        [sys.executable, "-m", "byzantium", "trace", "--summary", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_trace_gives_the_same_answer_from_any_directory(tmp_path: Path) -> None:
    here = trace(cwd=ROOT)
    elsewhere = trace(cwd=tmp_path)
    assert here.returncode == elsewhere.returncode == 0, elsewhere.stdout + elsewhere.stderr
    assert here.stdout == elsewhere.stdout
    assert "0 inconsistencies" in elsewhere.stdout
    assert "has mechanics but no test" not in elsewhere.stdout


def test_without_installed_tests_trace_says_so_and_reports_no_false_gaps(
    tmp_path: Path,
) -> None:
    # An installed wheel: the package alone, without the repository's tests/.
    site = tmp_path / "site"
    shutil.copytree(ROOT / "byzantium", site / "byzantium")
    result = trace(cwd=tmp_path, pythonpath=site)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the tests are not installed" in result.stdout
    assert "no test" not in result.stdout.replace("not installed", "")
    assert "code only" in result.stdout
    # With --tests pointing at a checkout's tests, the full check runs.
    full = trace("--tests", str(ROOT / "tests"), cwd=tmp_path, pythonpath=site)
    assert full.returncode == 0, full.stdout + full.stderr
    assert "not installed" not in full.stdout
    assert "code only" not in full.stdout


def test_an_unparsable_test_file_gives_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "test_broken.py").write_text("def test_x(:\n    pass\n", encoding="utf-8")
    result = trace("--tests", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "test_broken.py" in lines[0] and "line 1" in lines[0]


def test_a_missing_tests_directory_is_one_line(tmp_path: Path) -> None:
    result = trace("--tests", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "no test directory" in result.stderr
