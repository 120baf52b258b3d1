"""``byzantium simulate``: progress that tells the truth, and a real ``--quiet``."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.cli.simulate import Progress
from byzantium.core.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
PIG = (sys.executable, "-m", "byzantium", "--import", "tests.pig", "simulate", "pig")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_writes_a_line_per_interval_with_rate_and_time_left() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, bar=False, interval=10, clock=clock)
    for done in range(1, 13):
        clock.now += 4  # a game every 4 seconds
        progress(done, 12)
    lines = stream.getvalue().splitlines()
    # 48 seconds: a line at 12, 24 and 36 s, and the last one at the end (48 s).
    assert len(lines) == 4
    assert lines[0] == "simulate: 3/12 games (25%), 0.25 games/s, 0:12 elapsed, about 0:36 left"
    assert lines[-1] == "simulate: 12/12 games (100%), 0.25 games/s, 0:48 elapsed"
    assert "\r" not in stream.getvalue()


def test_plain_progress_of_a_short_run_writes_nothing() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, bar=False, interval=10, clock=clock)
    for done in range(1, 4):
        clock.now += 1
        progress(done, 3)
    assert stream.getvalue() == ""


def test_the_bar_shows_count_rate_and_estimate_and_ends_the_line() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, bar=True, clock=clock)
    clock.now += 30
    progress(2, 12)
    assert "2/12 games" in stream.getvalue()
    assert "0.07 games/s" in stream.getvalue()
    assert "about 2:30 left" in stream.getvalue()
    clock.now += 150
    progress(12, 12)
    assert stream.getvalue().endswith("\n")
    assert stream.getvalue().count("\n") == 1


def test_progress_counts_every_game_as_it_finishes_with_several_workers() -> None:
    import tests.pig  # noqa: F401 (registers pig)

    seen: list[tuple[int, int]] = []
    two = simulate("pig", games=9, seed=4, jobs=2, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(done, 9) for done in range(1, 10)]
    assert two == simulate("pig", games=9, seed=4, jobs=1)


def test_quiet_prints_only_the_essential_result(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    status = main(["--import", "tests.pig", "simulate", "pig", "--games", "5", "--quiet"], out)
    assert status == 0
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Pig: 5 games (5 finished); outcome: player ")
    assert capsys.readouterr().err == ""


def test_quiet_json_file_is_written_silently(tmp_path: Path) -> None:
    out = io.StringIO()
    target = tmp_path / "s.json"
    argv = ["--import", "tests.pig", "simulate", "pig", "--games", "3", "--quiet"]
    assert main([*argv, "--json", str(target)], out) == 0
    assert target.is_file()
    assert len(out.getvalue().splitlines()) == 1


def test_quiet_subprocess_writes_nothing_to_stderr() -> None:
    done = subprocess.run(
        [*PIG, "--games", "4", "--jobs", "2", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1


def test_png_titles_are_wrapped_and_ticks_thinned(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import attrs

    import tests.pig  # noqa: F401 (registers pig)
    from byzantium.core.simulate import histogram, save_histograms_png

    summary = simulate("pig", games=3, seed=1)
    cause = attrs.evolve(summary.causes[0], cause="an ending cause " * 8)
    wide = attrs.evolve(summary, turns=histogram(list(range(40))), causes=(cause,))
    paths = save_histograms_png(wide, tmp_path)
    assert len(paths) == 4
    assert all(path.read_bytes().startswith(b"\x89PNG") for path in paths)
