"""Terminal play that does not tire (issue 37, 8): ``auto`` finishes a set-up or a
phase, one status line between decisions, rules read from inside the game, menus
whose first item throws nothing away, turn headings before the questions of their
turn, and colour only where the terminal takes it.

Most sessions run through :func:`run_interactive` with scripted answers; the ones
marked ``pty`` drive ``python -m byzantium play ... --interactive`` through a real
pseudo-terminal, as a person at a terminal would.
"""

from __future__ import annotations

import io
import os
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO, TypeVar, cast

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.sequence import CAPITULATE
from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelAction, BelState, Done, Place, Select
from byzantium.cli import main
from byzantium.cli.common import SafeOutput
from byzantium.cli.interactive import Session, decision_menu, run_interactive
from byzantium.cli.terminal import colour_wanted, write_styled
from byzantium.core.drivers import first_action_policy, random_policy, sample
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import GameRecord, dumps_record, replay
from byzantium.core.registry import load_game
from byzantium.core.rules import get_rulebook
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from tests.belisarius.support import belisarius

ROOT = Path(__file__).resolve().parent.parent
ESC = "\x1b["
S = TypeVar("S")
A = TypeVar("A")


def _run(
    game: Game[S, A],
    answers: str,
    seats: set[int],
    *,
    seed: int = 1,
    manual_dice: bool = False,
    start: GameRecord[A] | None = None,
) -> tuple[Session[S, A], str]:
    out = io.StringIO()
    session = run_interactive(
        game,
        seats=seats,
        policy=game.policies().get("sensible", first_action_policy),
        manual_dice=manual_dice,
        seed=seed,
        inp=io.StringIO(answers),
        out=out,
        start=start,
    )
    return session, out.getvalue()


def _pty_session(
    argv: Sequence[str], answers: Sequence[str], env: Mapping[str, str] | None = None
) -> tuple[int, str]:
    """Run ``python -m byzantium ARGV`` on a pseudo-terminal, typing each answer when
    a prompt (a line ending in ``> ``) waits; its status and everything it showed."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    environ.pop("NO_COLOR", None)
    environ.update(env or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "byzantium", *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=environ,
    )
    os.close(slave)
    typed = list(answers)
    seen = b""
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other end closed: the program ended
                break
            if not chunk:
                break
            seen += chunk
            if typed and re.search(rb"> (\x1b\[0m)?$", seen):
                os.write(master, typed.pop(0).encode() + b"\n")
        status = process.wait(timeout=60)
    finally:
        if process.poll() is None:  # pragma: no cover - only if the session hangs
            process.kill()
            process.wait()
        os.close(master)
    return status, seen.decode("utf-8", "replace").replace("\r\n", "\n")


def _decision_states(game: Game[S, A], seed: int, steps: int) -> list[S]:
    policy = game.policies()["sensible"]
    rng = random.Random(seed)
    state = game.initial_state()
    found = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            found.append(state)
            action = policy(game, state, rng)
        state = game.apply(state, action)
    return found


# -- 1. auto ---------------------------------------------------------------------------


@pytest.mark.rule("34.0", game="belisarius")
def test_auto_places_the_whole_belisarius_set_up_in_one_word() -> None:
    game = belisarius()
    session, text = _run(game, "auto\nquit\n", {EMPIRE})
    placed = [a for who, a in zip(session.actors, session.actions, strict=True) if who == EMPIRE]
    assert len(placed) >= 25 and all(isinstance(a, Place) for a in placed)
    assert f"auto: {len(placed)} decisions taken for Empire" in text
    state = session.state
    assert isinstance(state, BelState)
    assert state.turn == 1  # the set-up is over; auto stopped with it
    assert "Empire to decide [34.0]" not in text.split("Empire> auto", 1)[1]
    assert replay(game, session.record()) == state


def test_auto_is_deterministic_and_undo_takes_all_of_it_back() -> None:
    game = belisarius()
    once, _ = _run(game, "auto\nquit\n", {EMPIRE}, seed=4)
    again, _ = _run(game, "auto\nquit\n", {EMPIRE}, seed=4)
    assert once.actions == again.actions
    undone, text = _run(game, "auto\nundo\nquit\n", {EMPIRE}, seed=4)
    first = once.actors.index(EMPIRE)
    assert len(undone.actions) == first  # back before the first step auto took
    assert f"Undone: back before step {first + 1}." in text
    redone, _ = _run(game, "auto\nundo\nauto\nquit\n", {EMPIRE}, seed=4)
    assert redone.actions == once.actions
    other, _ = _run(game, "auto\nquit\n", {EMPIRE}, seed=5)
    assert other.actions != once.actions  # the seed decides


def test_auto_finishes_the_phase_and_stops_when_it_changes() -> None:
    game = SwordOfOrthodoxy()
    session, text = _run(game, "auto\nquit\n", {0})
    start = session.actors.index(0)
    stage = game.stage(session.states[start])
    assert stage == "Turn 1 of 27, Byzantine Action Phase"
    for state in session.states[start:-1]:
        assert game.stage(state) == stage
    assert game.stage(session.state) != stage or game.is_terminal(session.state)
    assert "auto: " in text and "decisions taken for player 0" in text
    # Belisarius: with both seats, auto stops when the other seat must act.
    bel = belisarius()
    both, _ = _run(bel, "auto\nquit\n", {EMPIRE, BARBARIAN})
    assert set(both.actors) <= {BARBARIAN, CHANCE}
    assert bel.current_player(both.state) == EMPIRE


def test_auto_through_a_pseudo_terminal() -> None:
    status, text = _pty_session(
        ["play", "belisarius", "--interactive", "--seat", "0", "--color", "never"],
        ["auto", "quit"],
    )
    assert status == 0, text
    assert re.search(r"auto: \d\d decisions taken for Empire", text)
    assert "Game turn 1 (527-530 AD)" in text
    assert "Traceback" not in text and text.rstrip().endswith("Session ended.")


# -- 2. one status line ------------------------------------------------------------------


def test_one_status_line_after_each_decision_and_the_board_on_request() -> None:
    game = SwordOfOrthodoxy()
    _, text = _run(game, "1\n1\n1\nboard\nquit\n", {0})
    assert text.count("Tracks: treasury $") == 2  # the first decision, then 'board'
    status = [line for line in text.splitlines() if line.startswith("Now: ")]
    assert len(status) == 3
    assert all(
        line.startswith("Now: Turn 1 of 27, Byzantine Action Phase | treasury $") for line in status
    )
    answered = text.split("\n> 1\n")
    assert all("Tracks:" not in part for part in answered[1:-1])


def test_the_status_line_comes_from_the_library_with_names() -> None:
    game = belisarius()
    for state in _decision_states(game, seed=2, steps=400)[::7]:
        line = game.status_line(state, BARBARIAN)
        assert "\n" not in line and "==" not in line
        if state.turn >= 1:
            assert line.startswith(f"Game turn {state.turn} (")
            assert "treasuries: Empire hidden" in line or state.revealed[BARBARIAN]
            assert "Phase" in line or "start of the player turn" in line
        assert not re.search(r"[a-z]+-[a-z]+-\d", line)  # no counter ids
    sword = SwordOfOrthodoxy()
    first = _decision_states(sword, seed=1, steps=50)[0]
    assert sword.status_line(first).startswith("Turn 1 of 27, Byzantine Action Phase | ")


# -- 3. rule N, why ----------------------------------------------------------------------


def test_rule_and_why_read_our_summaries() -> None:
    game = SwordOfOrthodoxy()
    book = get_rulebook(game.ID)
    _, text = _run(game, "rule 11.1\nrule 99.9\nrule\nwhy\nquit\n", {0})
    assert f"[11.1] {book['11.1'].title}: {book['11.1'].summary}\n" in text
    assert "No rule 99.9 in the Sword of Orthodoxy rule index.\n" in text
    assert "Say which: rule N" in text
    assert "Asked by rule 10.0: Byzantine Action Phase" in text
    assert f"[10.0] {book['10.0'].title}: {book['10.0'].summary}\n" in text
    assert "rule N     our summary of rule N" in _run(game, "help\nquit\n", {0})[1]


def test_rule_of_a_game_without_a_rule_index_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("rule 3.1\nrule <\x1b>\nquit\n"))
    out = io.StringIO()
    assert main(["--import", "tests.pig", "play", "pig", "--interactive"], out) == 0
    text = out.getvalue()
    assert "[3.1] " in text
    assert "No rule <\\x1b> in the Pig rule index." in text  # escaped, never raw


# -- 4. the first item is never the destructive one -------------------------------------


def test_sword_banking_offers_keeping_the_most_first() -> None:
    game = SwordOfOrthodoxy()
    session, text = _run(game, "auto\n1\nquit\n", {0})
    banking = next(s for s in session.states if game.decision_rule(s) == "11.1")
    offered = [game.describe_choice(banking, a) for a in game.legal_actions(banking)]
    # The game's own order and numbers are untouched: Keep 0 is still its first action.
    assert offered[0] == "Keep 0" and len(offered) >= 2
    most = offered[-1]
    asked = text.split("Your decision [11.1]", 1)[1]
    menu = [line.strip() for line in asked.splitlines()[1 : len(offered) + 1]]
    assert menu[0] == f"1. {most}"
    assert menu[1] == f"2. Keep 0 (careful: keeps 0 $ where {most[5:]} $ may be kept (11.1))"
    kept = session.actions[session.states.index(banking)]
    assert game.describe_choice(banking, kept) == most  # '1' kept the most


def test_passing_ending_and_capitulating_come_last_in_the_menu() -> None:
    game = SwordOfOrthodoxy()
    _, text = _run(game, "all\nquit\n", {0})
    assert "End the Byzantine Action Phase (careful: ends the Action Phase" in text
    assert not re.search(r"\n    1\. End the Byzantine", text)
    bel = belisarius(capitulation=True)
    _, text = _run(bel, "auto\n" * 3 + "quit\n", {BARBARIAN}, seed=1)
    assert "    1. Play on (do not capitulate)\n" in text
    assert re.search(
        r"    2\. Capitulate .*\(careful: ends the game: the other player wins \(3\.1\)\)", text
    )


@pytest.mark.rule("3.1", "14.1", "14.4", game="belisarius")
def test_belisarius_cautions_come_from_the_library() -> None:
    game = belisarius(capitulation=True)
    seen: set[str] = set()
    for state in _decision_states(game, seed=1, steps=500):
        assert isinstance(state, BelState)
        request = state.pending
        assert request is not None
        for action in game.legal_actions(state):
            caution = game.caution(state, action)
            if action == Select(CAPITULATE):
                assert "ends the game" in caution
            elif (
                isinstance(action, Done)
                and len(request.options) > 1
                and request.rule
                in (
                    "14.1",
                    "16.1",
                )
            ):
                assert caution.endswith(("(14.1)", "(14.4)"))
            elif not isinstance(action, Done):
                assert caution == ""
            if caution:
                seen.add(request.rule)
        if len(request.options) == 1:
            assert game.caution(state, request.options[0]) == ""
    assert {"3.1", "14.1", "16.1"} <= seen


def _menus_led_by_a_harmless_choice(game: Game[S, A]) -> int:
    """Check every menu of a game the sensible player plays; how many mixed menus."""
    mixed = 0
    for state in _decision_states(game, seed=3, steps=600):
        actions = game.legal_actions(state)
        cautions = [game.caution(state, a) for a in actions]
        order, menu = decision_menu(game, state, actions)
        assert sorted(order) == list(range(len(actions)))
        assert [bool(cautions[i]) for i in order] == list(menu.cautioned)
        if any(cautions) and not all(cautions):
            mixed += 1
            assert not cautions[order[0]]
            assert "(careful:" not in menu.texts[0] and "(careful:" in menu.texts[-1]
    return mixed


def test_a_cautioned_item_never_leads_a_menu_with_other_choices() -> None:
    assert _menus_led_by_a_harmless_choice(SwordOfOrthodoxy()) > 10
    assert _menus_led_by_a_harmless_choice(belisarius(capitulation=True)) > 10


# -- 5. turn headings in order -----------------------------------------------------------


def _before_turn_two() -> tuple[Belisarius, GameRecord[BelAction]]:
    """Belisarius (capitulation on) played by its sensible player up to the question
    that opens the Barbarian's player turn of game turn 2: play on, or capitulate."""
    game = load_game("belisarius")  # capitulation is on by default
    policy = game.policies()["sensible"]
    scout = Session(
        game,
        seats=(),
        policy=policy,
        manual_dice=False,
        seed=1,
        inp=io.StringIO(),
        out=io.StringIO(),
        max_steps=3000,
    )
    scout.run()
    steps = next(
        i
        for i, s in enumerate(scout.states)
        if isinstance(s, BelState) and s.turn == 2 and game.decision_rule(s) == "3.1"
    )
    cut = Session(
        game,
        seats=(),
        policy=policy,
        manual_dice=False,
        seed=1,
        inp=io.StringIO(),
        out=io.StringIO(),
        max_steps=steps,
    )
    cut.run()
    return game, cut.record()


TURN_TWO = "== Game turn 2 (531-534 AD), Barbarian player turn ==\n"


@pytest.mark.rule("3.1", game="belisarius")
def test_a_new_game_turn_is_announced_before_its_first_question() -> None:
    """The capitulation question opens a player turn (3.1): the turn's heading comes
    before it, and nothing above it calls that moment the end of the turn before. The
    old session showed ``== Game turn 2 ... == phase: end of turn`` above the question
    and printed the turn's heading only after the answer."""
    game, record = _before_turn_two()
    _, text = _run(game, "1\nquit\n", {BARBARIAN}, start=record)
    asked = text.index("Barbarian to decide [3.1]: play on, or capitulate")
    assert TURN_TWO in text[:asked]
    assert "end of turn" not in text[:asked]
    assert "phase: start of the player turn" in text[:asked]
    assert text.count(TURN_TWO) == 1


def test_turn_headings_in_order_on_a_pseudo_terminal(tmp_path: Path) -> None:
    game, record = _before_turn_two()
    saved = tmp_path / "turn2.json"
    saved.write_text(dumps_record(game, record), "utf-8")
    status, text = _pty_session(
        ["resume", str(saved), "--seat", "1", "--color", "never"], ["1", "1", "quit"]
    )
    assert status == 0, text
    asked = text.index("Barbarian to decide [3.1]")
    assert TURN_TWO in text[:asked] and "end of turn" not in text[:asked]
    assert text.count(TURN_TWO) == 1
    # After the answer: the status line of the next question, not the whole board.
    after = text[asked:]
    assert "Now: Game turn 2 (531-534 AD), Barbarian player turn, " in after
    assert "Regions (levy, control" not in after


def test_the_view_of_the_capitulation_question_names_its_moment() -> None:
    game = belisarius(capitulation=True)
    states = [
        s
        for s in _decision_states(game, seed=1, steps=1500)
        if isinstance(s, BelState) and s.pending is not None and s.pending.rule == "3.1"
    ]
    assert len(states) >= 3
    for state in states[1:]:
        first = game.render(state, None).split("\n", 1)[0]
        assert first.endswith("phase: start of the player turn"), first
        assert game.stage(state).endswith(", start of the player turn")


def test_a_turn_heading_comes_before_the_dice_of_its_turn() -> None:
    game = SwordOfOrthodoxy()
    _, text = _run(game, "Turn Chit 8\nquit\n", {0}, manual_dice=True)
    assert text.index("== Turn 1 of 27 (421-460) ==") < text.index("Chance [4.1]")
    assert text.count("== Turn 1 of 27 (421-460) ==") == 1


# -- 6. colour ---------------------------------------------------------------------------


def test_colour_only_where_the_terminal_takes_it() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    assert colour_wanted("auto", tty, {"TERM": "xterm"})
    assert not colour_wanted("auto", pipe, {"TERM": "xterm"})
    assert not colour_wanted("auto", tty, {"TERM": "dumb"})
    assert not colour_wanted("auto", tty, {})
    assert not colour_wanted("auto", tty, {"TERM": "xterm", "NO_COLOR": "1"})
    assert colour_wanted("auto", tty, {"TERM": "xterm", "NO_COLOR": ""})
    assert colour_wanted("auto", cast("TextIO", SafeOutput(tty)), {"TERM": "xterm"})
    assert colour_wanted("always", pipe, {"NO_COLOR": "1"})
    assert not colour_wanted("never", tty, {"TERM": "xterm"})


def test_color_always_and_never_through_the_command_line() -> None:
    out = io.StringIO()
    argv = ["play", "sword-of-orthodoxy", "--interactive"]
    assert main([*argv, "--color", "always"], out, io.StringIO("all\n1\nquit\n")) == 0
    coloured = out.getvalue()
    assert f"{ESC}1;33mYour decision [10.0]" in coloured
    assert f"{ESC}36mTurn 1 of 27, Byzantine Action Phase" in coloured
    assert f"{ESC}31m" in coloured  # the cautioned item
    out = io.StringIO()
    assert main([*argv, "--color", "never"], out, io.StringIO("1\nquit\n")) == 0
    assert "\x1b" not in out.getvalue()
    out = io.StringIO()
    assert main(argv, out, io.StringIO("1\nquit\n")) == 0  # auto: not a terminal
    assert "\x1b" not in out.getvalue()
    assert main([*argv, "--color", "pink"], io.StringIO()) == 2


def test_the_guarded_stream_still_escapes_the_coloured_text() -> None:
    target = io.StringIO()
    SafeOutput(target).write_styled("a\x1b[2Jb", "1")
    assert target.getvalue() == "\x1b[1ma\\x1b[2Jb\x1b[0m"
    target = io.StringIO()
    SafeOutput(target).write_styled("x", "1m\x1b[2J")  # not a colour code: plain
    assert "\x1b" not in target.getvalue()


@pytest.mark.parametrize(
    ("env", "flag", "coloured"),
    [
        ({}, "auto", True),
        ({"NO_COLOR": "1"}, "auto", False),
        ({"TERM": "dumb"}, "auto", False),
        ({}, "never", False),
        ({"NO_COLOR": "1"}, "always", True),
    ],
)
def test_colour_on_a_pseudo_terminal(env: dict[str, str], flag: str, coloured: bool) -> None:
    status, text = _pty_session(
        ["play", "sword-of-orthodoxy", "--interactive", "--color", flag], ["1", "why", "quit"], env
    )
    assert status == 0, text
    assert "Asked by rule 10.0" in text and text.rstrip().endswith("Session ended.")
    assert (ESC in text) is coloured
    if coloured:
        assert f"{ESC}1;33mYour decision [10.0]" in text


def test_rules_and_a_harmless_first_item_on_a_pseudo_terminal() -> None:
    status, text = _pty_session(
        ["play", "sword-of-orthodoxy", "--interactive", "--color", "never"],
        ["rule 11.1", "rule 0.0.0", "auto", "quit"],
    )
    assert status == 0, text
    book = get_rulebook("sword-of-orthodoxy")
    assert f"[11.1] {book['11.1'].title}: {book['11.1'].summary}" in text
    assert "No rule 0.0.0 in the Sword of Orthodoxy rule index." in text
    banking = text.split("Your decision [11.1]", 1)[1]
    first = banking.splitlines()[1].strip()
    assert re.fullmatch(r"1\. Keep \d+", first) and first != "1. Keep 0"
    assert "2. Keep 0 (careful: keeps 0 $ where" in banking


def test_a_question_of_several_lines_is_coloured_line_by_line() -> None:
    target = io.StringIO()
    write_styled(cast("TextIO", SafeOutput(target)), "odds\n\nCRT", "question", colour=True)
    assert target.getvalue() == f"{ESC}1;33modds{ESC}0m\n\n{ESC}1;33mCRT{ESC}0m"
    plain = io.StringIO()
    write_styled(plain, "odds\nCRT", "question", colour=False)
    assert plain.getvalue() == "odds\nCRT"


def test_a_game_without_policies_headings_or_cautions_gets_the_defaults() -> None:
    """Pig (the test game) overrides none of the new hooks: no status line, one stage,
    no cautions, and ``auto`` plays the random policy, seeded like the rest."""
    import tests.pig  # noqa: F401 - registers the game

    game = load_game("pig")
    state = game.initial_state()
    assert game.status_line(state) == "" and game.stage(state) == ""
    assert all(game.caution(state, a) == "" for a in game.legal_actions(state))
    runs = []
    for _ in range(2):
        out = io.StringIO()
        session = run_interactive(
            game,
            seats={0},
            policy=first_action_policy,
            manual_dice=False,
            seed=9,
            inp=io.StringIO("auto\nquit\n"),
            out=out,
        )
        runs.append(session.actions)
        assert session.helper is random_policy
        text = out.getvalue()
        assert "Now:" not in text
        # auto played player 0 until player 1 had to act, who then played as usual.
        handed = session.actors.index(1)
        mine = session.actors[:handed].count(0)
        assert f"auto: {mine} decisions taken for player 0" in text and mine >= 1
    assert runs[0] == runs[1] and len(runs[0]) >= 1
