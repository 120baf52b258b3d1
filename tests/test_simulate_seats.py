"""``byzantium simulate`` for designers (issue 16): a policy per seat, both seatings,
win rates with 95% Wilson intervals, score quartiles and the causes of defeat."""

from __future__ import annotations

import io
import json
import math
import statistics
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tests.pig  # noqa: F401  (registers Pig)
from byzantium.cli import main
from byzantium.core.drivers import play
from byzantium.core.errors import UnknownOptionError
from byzantium.core.registry import load_game
from byzantium.core.simulate import (
    SimulationError,
    SimulationSummary,
    game_seed,
    parse_seating,
    policy_for,
    quartiles,
    simulate,
    simulation_jobs,
    summarise,
    wilson_interval,
)

ROOT = Path(__file__).resolve().parent.parent
COMMAND = (sys.executable, "-m", "byzantium", "--import", "tests.pig", "simulate", "pig")
#: In Pig, ``first`` always holds and so never scores: ``random`` beats it every time.
PIG_DUEL = ("--option", "target=10", "--max-steps", "3000")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["--import", "tests.pig", *argv], out)
    return status, out.getvalue()


def run_json(*argv: str) -> dict[str, Any]:
    status, text = run(*argv, "--json", "-")
    assert status == 0
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def sides(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    rates = data["win_rates"]
    assert isinstance(rates, dict)
    rows = rates[kind]
    assert isinstance(rows, list)
    return rows


def assert_sides_add_up(summary: SimulationSummary) -> None:
    players = len(summary.per_game[0].seats)
    assert sum(s.record.games for s in summary.sides) == summary.games * players
    assert sum(s.record.games for s in summary.seats) == summary.games * players
    assert sum(s.record.games for s in summary.policies) == summary.games * players
    for side in (*summary.seats, *summary.policies, *summary.sides):
        lost = side.record.games - side.record.wins
        assert sum(c.games for c in side.defeats) == lost
        assert sum(n for _, n in side.defeat_rules) == lost
        assert sum(n for _, n in side.levels) == side.record.wins
        low, high = side.record.interval
        assert low <= side.record.rate <= high


# -- seats on the command line -------------------------------------------------------------


def test_policy_and_opponent_in_both_seats_measure_each_policy_in_each_seat() -> None:
    data = run_json(
        "simulate", "pig", "--games", "6", "--policy", "random", "--opponent", "first",
        "--both-seats", *PIG_DUEL,
    )  # fmt: skip
    assert data["games"] == 12
    assert data["seatings"] == [
        {"seats": {"player 0": "random", "player 1": "first"}, "games": 6},
        {"seats": {"player 0": "first", "player 1": "random"}, "games": 6},
    ]
    by_policy = {row["policy"]: row for row in sides(data, "policies")}
    assert by_policy["random"]["wins"] == by_policy["random"]["games"] == 12
    assert by_policy["first"]["wins"] == 0
    by_seat = {row["seat"]: row for row in sides(data, "seats")}
    assert by_seat["player 0"]["wins"] == by_seat["player 1"]["wins"] == 6
    pairs = [(row["seat"], row["policy"], row["wins"]) for row in sides(data, "sides")]
    assert pairs == [
        ("player 0", "random", 6),
        ("player 0", "first", 0),
        ("player 1", "first", 0),
        ("player 1", "random", 6),
    ]
    # The losing side's defeats: every one by the rule of the target (3.1).
    first = by_policy["first"]
    assert isinstance(first["defeats"], dict)
    assert first["defeats"]["games"] == 12
    assert first["defeats"]["rules"] == {"3.1": 12}
    assert first["scores"]["max"] == 0


def test_swap_seats_is_the_same_as_both_seats_and_as_seat_pairs() -> None:
    base = ("simulate", "pig", "--games", "4", "--seed", "3", *PIG_DUEL)
    swapped = run_json(*base, "--policy", "first", "--opponent", "random", "--swap-seats")
    both = run_json(*base, "--policy", "1=random,0=first", "--both-seats")
    named = run_json(*base, "--policy", "PLAYER 0=first", "--opponent", "random", "--both-seats")
    assert swapped == both == named


def test_the_text_summary_gives_win_rates_quartiles_and_causes_of_defeat() -> None:
    status, text = run(
        "simulate", "pig", "--games", "5", "--policy", "random", "--opponent", "first",
        "--swap-seats", *PIG_DUEL,
    )  # fmt: skip
    assert status == 0
    assert "Pig: 10 games, policy random v first (2 seatings)" in text
    block = text.split("Win rate (games won, with the 95% Wilson interval)")[1]
    lines = block.split("\n\n")[0].splitlines()
    assert lines[1:3] == ["  by seat", "    player 0  5 of 10, 50.0% (95% CI 23.7-76.3%)"]
    assert "  by policy" in lines and "  by seat and policy" in lines
    assert "    random  10 of 10, 100.0% (95% CI 72.2-100.0%)" in lines
    assert "    first   0 of 10, 0.0% (95% CI 0.0-27.8%)" in lines
    assert "Score of player 0 (random) (5 games): min " in text and "quartiles" in text
    causes = text.split("Causes of defeat (games not won)")[1].split("Ending causes")[0]
    assert "  player 0 (first): 5 of 5" in causes
    assert "    by rule: 3.1 5" in causes
    assert "  player 0 (random): 0 of 5" in causes


def test_quiet_gives_the_win_rates_in_its_one_line() -> None:
    status, text = run(
        "simulate", "pig", "--games", "3", "--policy", "random", "--opponent", "first",
        "--quiet", *PIG_DUEL,
    )  # fmt: skip
    assert status == 0
    assert text.count("\n") == 1
    assert "win rate (95% CI): player 0 (random) 100.0% [43.9-100.0]" in text
    assert "player 1 (first) 0.0% [0.0-56.1]" in text


def test_a_seating_gives_the_same_json_with_one_and_two_jobs() -> None:
    outputs = []
    for jobs in ("1", "2"):
        done = subprocess.run(
            [
                *COMMAND, "--games", "3", "--seed", "8", "--jobs", jobs, "--json", "-",
                "--per-game", "--policy", "0=random,1=first", "--both-seats", *PIG_DUEL,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert [g["seats"]["player 0"] for g in data["per_game"]] == ["random"] * 3 + ["first"] * 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--policy", "2=random"), "pig has no seat '2'; its seats: 0 (player 0), 1 (player 1)"),
        (("--policy", "0=random,0=first"), "seat '0' is given two policies"),
        (("--policy", "0=random"), "no policy for seat 1 (player 1)"),
        (("--policy", "0=random,1=smart"), "pig has no policy 'smart'"),
        (("--policy", "random", "--opponent", "smart"), "pig has no policy 'smart'"),
        (("--policy", "0=random,first"), "a policy per seat is SEAT=NAME"),
        (("--policy", "0="), "a policy per seat is SEAT=NAME"),
    ],
)
def test_bad_seats_are_one_error_line(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = run("simulate", "pig", "--games", "2", *argv)
    err = capsys.readouterr().err
    assert status == 2 and text == ""
    assert err.count("\n") == 1 and err.startswith("byzantium: ")
    assert message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--opponent", "random"), "one-player game: there is no opponent"),
        (("--swap-seats",), "one-player game: there are no seats to swap"),
    ],
)
def test_a_one_player_game_has_no_opponent_and_no_seats_to_swap(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run("simulate", "sword-of-orthodoxy", "--games", "1", *argv)
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and message in err


# -- the library -----------------------------------------------------------------------------------


def test_each_game_is_the_game_play_gives_for_its_seed_and_seating() -> None:
    summary = simulate(
        "pig",
        {"target": 10},
        games=3,
        seed=4,
        policy=("random", "first"),
        swap_seats=True,
        keep_games=True,
    )
    game = load_game("pig", target=10)
    assert [g.seed for g in summary.per_game] == [game_seed(4, i) for i in range(6)]
    for played in summary.per_game:
        names = [name for _, name in played.seats]
        record = play(game, [policy_for(game, n) for n in names], seed=played.seed)
        assert played.steps == len(record)
        final = game.apply_all(game.initial_state(), record.actions)
        assert played.winners == tuple(game.player_name(p) for p in game.result(final).winners)
    assert_sides_add_up(summary)


def test_jobs_carry_their_seating_and_one_policy_for_all_seats_stays_a_name() -> None:
    jobs = simulation_jobs("pig", games=2, seed=1, policy=("random", "first"), swap_seats=True)
    assert [job.policy for job in jobs] == [("random", "first")] * 2 + [("first", "random")] * 2
    same = simulation_jobs("pig", games=2, seed=1, policy=("random", "random"), swap_seats=True)
    assert [job.policy for job in same] == ["random", "random"]
    assert same == simulation_jobs("pig", games=2, seed=1)


def test_one_policy_for_every_seat_has_one_side_per_seat() -> None:
    summary = simulate("pig", {"target": 10}, games=8, seed=2, keep_games=True)
    assert summary.policy == "random"
    assert len(summary.seatings) == 1
    assert [s.label for s in summary.sides] == ["player 0 (random)", "player 1 (random)"]
    assert [s.label for s in summary.policies] == ["random"]
    assert summary.policies[0].record.wins == 8  # one of its two seats won each game
    assert_sides_add_up(summary)


def test_a_seating_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(SimulationError, match="2 seats, not 3"):
        simulate("pig", games=1, policy=("random", "random", "first"))
    with pytest.raises(UnknownOptionError, match="no policy 'smart'"):
        simulate("pig", games=1, policy=("random", "smart"))


def test_summaries_of_two_seatings_keep_them_apart() -> None:
    one = simulate(
        "pig", {"target": 10}, games=3, seed=1, policy=("random", "first"), keep_games=True
    )
    two = simulate(
        "pig", {"target": 10}, games=3, seed=1, policy=("first", "random"), keep_games=True
    )
    both = summarise([*one.per_game, *two.per_game], seed=1)
    assert [count for _, count in both.seatings] == [3, 3]
    assert {s.label: s.record.wins for s in both.policies} == {"random": 6, "first": 0}


def test_belisarius_sensible_against_random_in_both_seats() -> None:
    data = run_json(
        "simulate", "belisarius", "--games", "2", "--policy", "sensible", "--opponent",
        "random", "--both-seats",
    )  # fmt: skip
    assert data["games"] == 4
    rows = {(r["seat"], r["policy"]): r for r in sides(data, "sides")}
    assert set(rows) == {
        ("Empire", "sensible"),
        ("Barbarian", "random"),
        ("Empire", "random"),
        ("Barbarian", "sensible"),
    }
    for row in rows.values():
        assert row["games"] == 2
        assert isinstance(row["defeats"], dict)
        assert row["defeats"]["games"] == 2 - row["wins"]
        assert row["scores"]["min"] <= row["scores"]["median"] <= row["scores"]["max"]


# -- the statistics ------------------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=10_000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
))  # fmt: skip
def test_the_wilson_interval_holds_the_rate_and_is_symmetric(case: tuple[int, int]) -> None:
    wins, games = case
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= wins / games <= high <= 1
    mirror_low, mirror_high = wilson_interval(games - wins, games)
    assert math.isclose(low, 1 - mirror_high, abs_tol=1e-12)
    assert math.isclose(high, 1 - mirror_low, abs_tol=1e-12)
    assert (low == 0) == (wins == 0) and (high == 1) == (wins == games)


def test_the_wilson_interval_of_known_cases() -> None:
    # The textbook figures (Newcombe 1998, method 3): 81 of 263, 15 of 148, 0 of 20.
    assert [round(x, 4) for x in wilson_interval(81, 263)] == [0.2553, 0.3662]
    assert [round(x, 4) for x in wilson_interval(15, 148)] == [0.0624, 0.1605]
    assert [round(x, 4) for x in wilson_interval(0, 20)] == [0.0, 0.1611]
    with pytest.raises(ValueError, match="no proportion"):
        wilson_interval(3, 2)


@given(st.lists(st.integers(min_value=-50, max_value=50), min_size=1, max_size=60))
def test_quartiles_are_ordered_and_the_median_is_the_median(values: list[int]) -> None:
    q1, median, q3 = quartiles(values)
    assert min(values) <= q1 <= median <= q3 <= max(values)
    assert median == Fraction(statistics.median(values))
    assert quartiles([v + 1 for v in values]) == (q1 + 1, median + 1, q3 + 1)


def test_parse_seating_reads_names_indices_and_an_opponent() -> None:
    game = load_game("belisarius")
    assert parse_seating(game, "sensible") == ("sensible", "sensible")
    assert parse_seating(game, "sensible", "random") == ("sensible", "random")
    assert parse_seating(game, "barbarian=random", "sensible") == ("sensible", "random")
    assert parse_seating(game, " 1 = random , Empire = first ") == ("first", "random")


def test_any_game_of_a_seating_plays_again_with_byzantium_play() -> None:
    data = run_json(
        "simulate", "pig", "--games", "2", "--policy", "0=random,1=first", "--both-seats",
        "--per-game", *PIG_DUEL,
    )  # fmt: skip
    for played in data["per_game"]:
        policy = ",".join(f"{seat[-1]}={name}" for seat, name in played["seats"].items())
        status, text = run(
            "play", "pig", "--seed", str(played["seed"]), "--policy", policy, "--quiet",
            "--option", "target=10",
        )  # fmt: skip
        assert status == 0
        assert f"{played['steps']} steps." in text
        assert "policies player 0=" in text.splitlines()[0]


def test_play_refuses_an_opponent_with_a_person_at_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _ = run("play", "pig", "--interactive", "--opponent", "random")
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "--opponent" in err
