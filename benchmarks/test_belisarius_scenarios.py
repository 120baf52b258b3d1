"""The per-scenario Belisarius playout figures: the script runs and says what it
measured (no time is looked at)."""

from __future__ import annotations

import pytest

from benchmarks.belisarius_scenarios import SCENARIOS, main


def test_every_scenario_is_measured_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seconds", "0.6", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for scenario in SCENARIOS:
        assert f"Belisarius scenario {scenario}: " in out


@pytest.mark.parametrize("args", [["--seconds", "0"], ["--rounds", "0"]])
def test_bad_arguments_get_one_line_and_a_non_zero_exit(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err.count("\n") == 1
