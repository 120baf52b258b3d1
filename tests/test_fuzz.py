"""Fuzzing: random mutations of real states, records and component files, fed to the
decoders and to the command line (issue 14).

Whatever the input, a decoder either refuses it with a library error or returns a
state the engine can work with, and every command ends with exit status 0, 1 or 2,
one line on standard error when it fails, no traceback, in bounded time and memory.

The default run tries a few dozen inputs per test (``BYZANTIUM_FUZZ_EXAMPLES``,
default 25); ``tox -e fuzz`` runs a thousand per test, not derandomised.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import resource
import shutil
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from byzantium.cli import main
from byzantium.core.codec import DecodeError, JSONValue, loads_json
from byzantium.core.errors import ByzantiumError, InvalidStateError
from byzantium.core.game import Game
from byzantium.core.records import state_to_json
from byzantium.core.registry import load_game
from tests.structural_edits import SHAPES, structurally_edited

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("BYZANTIUM_FUZZ_EXAMPLES", "25"))
#: Seconds one input may take, and how much the process may grow over a whole test.
TIME_LIMIT = 5.0
MEMORY_LIMIT_KB = 1_000_000

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Values a mutation writes: the edges testers tried and plain garbage.
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([-1, 0, 7, 9999, 10**40, -(10**40), 2**63]),
    st.text(max_size=20),
    st.sampled_from(["1e999999999", " 1/2 ", "1_000", "2/4", "\x1b[2J", "\ud800", "", "Pay"]),
    st.floats(allow_nan=False, allow_infinity=False),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def _paths(data: JSONValue, here: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [here]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*here, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _paths(value, (*here, i))
    return found


@st.composite
def mutated(draw: st.DrawFn, original: JSONValue) -> JSONValue:
    """``original`` with one to three random edits: a value replaced, a key or item
    removed, an item repeated."""
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            data = draw(VALUES)
            continue
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "delete", "repeat"]))
        if how == "delete":
            del parent[last]
        elif how == "repeat" and isinstance(parent, list) and isinstance(last, int):
            parent.insert(last, copy.deepcopy(parent[last]))
        else:
            parent[last] = draw(VALUES)
    return data


@cache
def _positions() -> dict[str, tuple[Game[Any, Any], tuple[JSONValue, ...]]]:
    """A few states of seeded games of both games, encoded."""
    found: dict[str, tuple[Game[Any, Any], tuple[JSONValue, ...]]] = {}
    for name in ("sword-of-orthodoxy", "belisarius"):
        game: Game[Any, Any] = load_game(name)
        rng = random.Random(5)
        state = game.initial_state()
        encoded: list[JSONValue] = []
        for step in range(400):
            if game.is_terminal(state):
                break
            if step % 40 == 0:
                encoded.append(game.encode_state(state))
            state = game.apply(state, rng.choice(game.legal_actions(state)))
        found[name] = (game, tuple(encoded))
    return found


@cache
def _records() -> dict[str, str]:
    """Records of short real games (the test game and Sword of Orthodoxy)."""
    texts = {}
    directory = Path(os.environ.get("TMPDIR", "/tmp")) / f"byzantium-fuzz-{os.getpid()}"
    directory.mkdir(parents=True, exist_ok=True)
    for name, argv in {
        "pig": ["--import", "tests.pig", "play", "pig", "--seed", "2"],
        "soo": ["play", "sword-of-orthodoxy", "--seed", "3"],
    }.items():
        path = directory / f"{name}.json"
        assert main([*argv, "--quiet", "--record", str(path)], io.StringIO()) == 0
        texts[name] = path.read_text(encoding="utf-8")
    shutil.rmtree(directory, ignore_errors=True)
    return texts


class _Clock:
    """Time spent since it was made: this process's CPU time, which the bounds are
    about, and the wall clock, bounded loosely too so that a wait (a read that blocks)
    is caught. The CPU time, not the wall clock, is held to the bound: tox runs its
    environments side by side and a loaded machine stretches the wall clock (a case
    of 0.5 s of CPU once took 6.9 s)."""

    def __init__(self) -> None:
        self.cpu = time.process_time()
        self.wall = time.perf_counter()

    def within(self, seconds: float) -> bool:
        cpu = time.process_time() - self.cpu
        return cpu < seconds and time.perf_counter() - self.wall < 6 * seconds


def _grown_kb(start: int) -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """Run a command in process; it must end with 0, 1 or 2 and one error line at most."""
    out, err = io.StringIO(), io.StringIO()
    clock = _Clock()
    with contextlib.redirect_stderr(err):
        status = main(argv, out)
    assert clock.within(TIME_LIMIT), argv
    errors = err.getvalue()
    assert status in (0, 1, 2), (status, errors)
    assert "Traceback" not in errors
    if status == 2:
        assert errors.startswith("byzantium: ") and errors.count("\n") == 1, errors
        assert len(errors) < 1_000
    for line in out.getvalue().splitlines():
        assert "\x1b" not in line and len(line) <= 2_100
    return status, out.getvalue(), errors


# -- the decoders ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
@FUZZ
@given(data=st.data())
def test_mutated_states_are_refused_or_workable(name: str, data: st.DataObject) -> None:
    game, encoded = _positions()[name]
    original = data.draw(st.sampled_from(encoded))
    edited = data.draw(mutated(original))
    clock = _Clock()
    try:
        state = game.decode_state(edited)
    except (DecodeError, InvalidStateError):
        return
    finally:
        assert clock.within(TIME_LIMIT)
    # Accepted: the engine computes its node and its choices.
    game.validate(state)
    actions = game.legal_actions(state)
    assert game.is_terminal(state) or actions
    game.chance_outcomes(state)


def _step_leaves(data: JSONValue, here: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    """Paths to the numbers and texts inside the procedure's steps of an encoded state
    (its stack and the step that asked), tags excepted."""
    return [
        path
        for path in _paths(data)
        if path[: len(here)] == here
        and path[-1] != "type"
        and isinstance(_at(data, path), int | str)
        and not isinstance(_at(data, path), bool)
    ]


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
@FUZZ
@given(data=st.data())
def test_edited_steps_of_the_procedure_are_refused_or_played_on(
    name: str, data: st.DataObject
) -> None:
    """A number or a name changed anywhere in the procedure's steps, not only in the
    one that asks: the state is refused, or it plays on through random legal actions,
    where a step that cannot go on is reported as an invalid state, never a crash."""
    game, encoded = _positions()[name]

    def leaves(position: JSONValue) -> list[tuple[str | int, ...]]:
        return _step_leaves(position, ("stack",)) + _step_leaves(position, ("pending", "task"))

    original = copy.deepcopy(data.draw(st.sampled_from([e for e in encoded if leaves(e)])))
    assert isinstance(original, dict)
    path = data.draw(st.sampled_from(leaves(original)))
    old = _at(original, path)
    if isinstance(old, int):
        new: object = data.draw(st.sampled_from([old + 1, old - 1, -1, 0, 7, 9999, -(10**6)]))
    else:
        new = data.draw(st.sampled_from(["", old + "x", "zzz", "Pay"]) | st.text(max_size=12))
    _at(original, path[:-1])[path[-1]] = new
    clock = _Clock()
    try:
        state = game.decode_state(original)
    except (DecodeError, InvalidStateError):
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    with contextlib.suppress(InvalidStateError):
        for _ in range(300):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert clock.within(4 * TIME_LIMIT)


@cache
def _played_positions() -> dict[str, tuple[Game[Any, Any], tuple[JSONValue, ...]]]:
    """Positions of several whole random games of both games, encoded: every few
    steps from the first to the last, so that every phase and many Turns appear."""
    found: dict[str, tuple[Game[Any, Any], tuple[JSONValue, ...]]] = {}
    for name in ("sword-of-orthodoxy", "belisarius"):
        game: Game[Any, Any] = load_game(name)
        encoded: list[JSONValue] = []
        for seed in range(8):
            rng = random.Random(seed)
            state = game.initial_state()
            for step in range(PLAY_STEPS):
                if game.is_terminal(state):
                    break
                if step % 5 == seed % 5:
                    encoded.append(game.encode_state(state))
                state = game.apply(state, rng.choice(game.legal_actions(state)))
        found[name] = (game, tuple(encoded))
    return found


#: How many steps random play goes on from an accepted position (random games of both
#: games end well within it).
PLAY_STEPS = 3000


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
@FUZZ
@given(data=st.data())
def test_structurally_edited_states_are_refused_or_played_to_the_end(
    name: str, data: st.DataObject
) -> None:
    """Issue 36: a real position with its procedure steps removed, repeated, reordered
    or borrowed from another phase or Turn, its Turn or phase moved, facts and counters
    added, or numbers pushed to extremes, is refused by validation in one line, or
    random play goes on from it to the end of the game raising nothing but the
    library's errors."""
    game, encoded = _played_positions()[name]
    original = data.draw(st.sampled_from(encoded))
    edited, edits = data.draw(structurally_edited(original, encoded, SHAPES[name]))
    note(f"edits: {edits}")
    clock = _Clock()
    try:
        state = game.decode_state(edited)
    except ByzantiumError as error:
        refusal = str(error)
    else:
        refusal = ""
    finally:
        assert clock.within(TIME_LIMIT)
    if refusal:
        assert "\n" not in refusal, refusal
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    with contextlib.suppress(ByzantiumError):
        for _ in range(PLAY_STEPS):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    assert clock.within(4 * TIME_LIMIT)


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
def test_a_mid_game_position_whose_procedure_is_emptied_is_refused(name: str) -> None:
    """The reproducer of the structural fuzz test's first finding: a real position of
    the middle of a game with its procedure's steps removed is refused, not accepted
    and then stopped in play without a request."""
    game, encoded = _played_positions()[name]
    position = copy.deepcopy(encoded[len(encoded) // 4])
    assert isinstance(position, dict) and position["stack"]
    position["stack"] = []
    try:
        state = game.decode_state(position)
    except InvalidStateError:
        return
    rng = random.Random(0)
    with contextlib.suppress(ByzantiumError):
        for _ in range(PLAY_STEPS):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    raise AssertionError("an emptied procedure was accepted")


@FUZZ
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_random_text_is_json_or_a_decode_error(text: str | bytes) -> None:
    with contextlib.suppress(DecodeError):
        loads_json(text)


# -- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["verify", "replay"])
@FUZZ
@given(data=st.data())
def test_mutated_records_give_a_verdict_or_one_line(
    command: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    records = _records()
    text = records[data.draw(st.sampled_from(sorted(records)))]
    path = tmp_path_factory.mktemp("fuzz") / "record.json"
    if data.draw(st.booleans()):
        path.write_text(json.dumps(data.draw(mutated(json.loads(text)))), encoding="utf-8")
    else:  # a byte-level edit: truncation, a flipped byte
        raw = bytearray(text.encode("utf-8"))
        at = data.draw(st.integers(0, len(raw) - 1))
        if data.draw(st.booleans()):
            raw = raw[:at]
        else:
            raw[at] = data.draw(st.integers(0, 255))
        path.write_bytes(bytes(raw))
    _cli(["--import", "tests.pig", command, str(path)])
    assert _grown_kb(memory) < MEMORY_LIMIT_KB


@FUZZ
@given(data=st.data())
def test_mutated_positions_are_explained_or_refused(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    name = data.draw(st.sampled_from(["sword-of-orthodoxy", "belisarius"]))
    game, encoded = _positions()[name]
    state = game.decode_state(data.draw(st.sampled_from(encoded)))
    saved = data.draw(mutated(state_to_json(game, state)))
    path = tmp_path_factory.mktemp("fuzz") / "position.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    status, out, _ = _cli(["explain", str(path)])
    assert status in (0, 2)
    if status == 0:
        assert "legal actions" in out or "outcomes" in out or "over" in out


_COMPONENTS = {
    "belisarius": ROOT / "byzantium" / "belisarius" / "data",
    "sword-of-orthodoxy": ROOT / "byzantium" / "sword_of_orthodoxy" / "data",
}


@st.composite
def _toml_edit(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "repeat", "number", "garbage"]))
        if how == "delete":
            del lines[at]
        elif how == "repeat":
            lines.insert(at, lines[at])
        elif how == "number" and "=" in lines[at]:
            key = lines[at].split("=", 1)[0]
            lines[at] = f"{key}= {draw(st.sampled_from([-1, 0, 10**9, 9999, 7]))}"
        else:
            lines.insert(at, draw(st.text(max_size=30).map(lambda t: t.replace("\n", " "))))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", ["sword-of-orthodoxy", "belisarius"])
@FUZZ
@given(data=st.data())
def test_mutated_component_files_are_refused_or_played(
    name: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    directory = tmp_path_factory.mktemp("components")
    files = sorted(_COMPONENTS[name].glob("*.toml"))
    for source in files:
        shutil.copy(source, directory / source.name)
    chosen: Path = data.draw(st.sampled_from(files))
    edited = data.draw(_toml_edit(chosen.read_text(encoding="utf-8")))
    (directory / chosen.name).write_text(edited, encoding="utf-8")
    argv = ["play", name, "--option", f"components={directory}", "--quiet", "--max-steps", "60"]
    _cli(argv)
