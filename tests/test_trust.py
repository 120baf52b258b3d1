"""Issue 36: what the command line and the library trust. Every file is read through
one bounded reader, the viewer checks the records it draws, the library answers
misuse with its own errors, and the command line complains in one line."""

from __future__ import annotations

import functools
import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import byzantium
from byzantium.cli import common, main
from byzantium.core.drivers import playout
from byzantium.core.errors import ArgumentError, ByzantiumError, InvalidStateError, RecordError
from byzantium.core.files import UnreadableFileError, read_bytes, read_text
from byzantium.core.game import Game
from byzantium.core.records import GameRecord, state_to_json
from byzantium.core.registry import load_game
from byzantium.core.rules import RuleBook
from byzantium.render import svg

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


# -- deliverable 2: bounded reading ---------------------------------------------------

#: Every command that reads a file named on its command line, with that file as ``F``.
FILE_COMMANDS: dict[str, tuple[str, ...]] = {
    "verify": ("verify", "F"),
    "replay": ("replay", "F"),
    "explain": ("explain", "F"),
    "render": ("render", "F", "-o", "OUT"),
    "render --step": ("render", "F", "--step", "1", "-o", "OUT"),
    "view": ("view", "F", "-o", "OUT"),
    "resume": ("resume", "F"),
    "play --resume": ("play", "sword-of-orthodoxy", "--interactive", "--resume", "F"),
}


def _argv(command: str, file: Path | str, tmp_path: Path) -> list[str]:
    out = str(tmp_path / "out.file")
    return [str(file) if a == "F" else out if a == "OUT" else a for a in FILE_COMMANDS[command]]


def _bad_file(tmp_path: Path, case: str) -> Path:
    if case == "directory":
        path = tmp_path / "record.json"
        path.mkdir()
    elif case == "not UTF-8":
        path = tmp_path / "record.json"
        path.write_bytes(b'{"game": "sword-of-orthodoxy", "seed": 1, "x": "\xe9\xff"}')
    elif case == "oversize":
        path = tmp_path / "record.json"
        with path.open("wb") as handle:  # sparse: nothing of it is written to the disk
            handle.truncate(common.MAX_FILE + 1)
    else:
        raise AssertionError(case)
    return path


@pytest.mark.parametrize("case", ["directory", "not UTF-8", "oversize"])
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_a_file_that_is_no_record_is_one_line_for_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, case: str
) -> None:
    path = _bad_file(tmp_path, case)
    err = one_line_error(capsys, *_argv(command, path, tmp_path))
    assert "record.json" in err, err
    words = {"directory": "not a regular file", "not UTF-8": "UTF-8", "oversize": "bytes"}
    assert words[case] in err, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_a_fifo_is_refused_at_once_not_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    # Should the command wait for a writer, one comes after a while and closes at once
    # (the test then fails on the time taken instead of hanging).
    stop = threading.Event()

    def rescue() -> None:
        if not stop.wait(5.0):
            descriptor = os.open(fifo, os.O_WRONLY)
            os.close(descriptor)

    helper = threading.Thread(target=rescue, daemon=True)
    helper.start()
    start = time.monotonic()
    try:
        err = one_line_error(capsys, *_argv(command, fifo, tmp_path))
    finally:
        stop.set()
    assert time.monotonic() - start < 4.0
    assert "not a regular file but a FIFO" in err, err


_DEV_ZERO_SCRIPT = """
import io, resource, sys
limit = 1_500_000_000
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from byzantium.cli import main
from tests.test_trust import FILE_COMMANDS, _argv
from pathlib import Path
for command in sorted(FILE_COMMANDS):
    status = main(_argv(command, "/dev/zero", Path(sys.argv[1])), io.StringIO())
    print(command, status, flush=True)
"""


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_character_device_is_refused_before_reading(tmp_path: Path) -> None:
    # In a child with a bounded address space: a reader that trusts st_size (0 here)
    # would read /dev/zero until memory runs out.
    done = subprocess.run(
        [sys.executable, "-c", _DEV_ZERO_SCRIPT, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2_000:]
    assert done.stdout.split("\n")[:-1] == [f"{c} 2" for c in sorted(FILE_COMMANDS)]
    lines = done.stderr.splitlines()
    assert len(lines) == len(FILE_COMMANDS), done.stderr[-2_000:]
    assert all(
        line == "byzantium: /dev/zero: not a regular file but a character device" for line in lines
    )


def test_the_reader_reads_at_most_one_byte_over_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_bytes(path, 10) == b"x" * 10
    with pytest.raises(UnreadableFileError, match="over 9 bytes"):
        read_bytes(path, 9)
    # A regular file whose size says 0 but which holds more (as /proc files do).
    proc = Path("/proc/self/maps")
    if proc.exists() and proc.stat().st_size == 0:
        with pytest.raises(UnreadableFileError, match="over 10 bytes"):
            read_bytes(proc, 10)
    with pytest.raises(UnreadableFileError, match="cannot be opened"):
        read_bytes(tmp_path / "missing", 10)
    path.write_bytes(b"\xff")
    with pytest.raises(UnreadableFileError, match="not UTF-8"):
        read_text(path, 10)


def test_data_check_reads_a_map_through_the_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = ROOT / "byzantium" / "belisarius" / "data" / "map.toml"
    directory = tmp_path / "maps"
    directory.mkdir()
    (directory / "map.toml").write_bytes(source.read_bytes() + b"\n# \xff\xfe\n")
    err = one_line_error(capsys, "data", "belisarius", "--check", str(directory))
    assert "map.toml" in err, err
    if hasattr(os, "mkfifo"):
        (directory / "map.toml").unlink()
        os.mkfifo(directory / "map.toml")
        err = one_line_error(capsys, "data", "belisarius", "--check", str(directory))
        assert "not a regular file" in err, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(
    ("game", "file"),
    [
        ("sword-of-orthodoxy", "tiles.toml"),
        ("belisarius", "map.toml"),
        ("belisarius", "scenarios.toml"),
        ("belisarius", "counters.toml"),
    ],
)
def test_a_components_directory_is_read_through_the_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, file: str
) -> None:
    data = ROOT / "byzantium" / game.replace("-", "_") / "data"
    directory = tmp_path / "mine"
    directory.mkdir()
    for source in data.glob("*.toml"):
        if source.name != file:
            (directory / source.name).write_bytes(source.read_bytes())
    os.mkfifo(directory / file)
    err = one_line_error(capsys, "play", game, "--option", f"components={directory}", "--quiet")
    assert file in err and "not a regular file but a FIFO" in err, err


def test_a_rule_index_file_is_read_through_the_reader(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFileError, match="not a regular file but a directory"):
        RuleBook.from_file(tmp_path)


# -- deliverable 4: the viewer checks what it draws -----------------------------------


@pytest.fixture(scope="module")
def sword_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("rec") / "sword.json"
    argv = ["play", "sword-of-orthodoxy", "--seed", "2", "--record", str(path), "--quiet"]
    assert main(argv, io.StringIO()) == 0
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _tampered(data: dict[str, object], how: str) -> dict[str, object]:
    copy: dict[str, Any] = json.loads(json.dumps(data))
    steps = copy["steps"]
    if how == "a step digest":
        steps[5]["state"] = "0" * 16
    elif how == "the final digest":
        copy["final"] = "0" * 16
    elif how == "an actor":
        steps[3]["actor"] = 0 if steps[3]["actor"] != 0 else -1
    elif how == "the component digest":
        copy["components"] = "0" * 16
    elif how == "an illegal action":  # a tile drawn where a die is rolled
        steps[1]["action"] = steps[0]["action"]
        for step in steps:
            del step["state"]
        copy["final"] = ""
    elif how == "a malformed action":
        steps[4]["action"] = {"type": "NoSuchAction"}
    else:
        raise AssertionError(how)
    return copy


TAMPERINGS = [
    "a step digest",
    "the final digest",
    "an actor",
    "the component digest",
    "an illegal action",
    "a malformed action",
]


@pytest.mark.parametrize("how", TAMPERINGS)
def test_view_and_render_refuse_a_record_that_verify_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sword_record: dict[str, object], how: str
) -> None:
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(_tampered(sword_record, how)), encoding="utf-8")
    status, _ = run("verify", "--partial", str(path))
    assert status == 1, how
    out = tmp_path / "out"
    for argv in (
        ("view", str(path), "-o", str(out)),
        ("render", str(path), "--step", "1", "-o", str(out)),
        ("render", str(path), "-o", str(out)),
    ):
        err = one_line_error(capsys, *argv)
        assert "does not check out" in err, err
        assert not out.exists()


def test_view_and_render_still_draw_a_record_that_checks_out(
    tmp_path: Path, sword_record: dict[str, object]
) -> None:
    path = tmp_path / "good.json"
    data = json.loads(json.dumps(sword_record))
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("view", str(path), "-o", str(tmp_path / "v.html"))[0] == 0
    assert run("render", str(path), "--step", "3", "-o", str(tmp_path / "r.svg"))[0] == 0
    # A game still on the table (cut short, no final digest) is drawn, as verify --partial
    # accepts it.
    data["steps"] = data["steps"][:10]
    data["final"] = ""
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run("view", str(path), "-o", str(tmp_path / "v.html"))[0] == 0


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)//",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:x",
        "file:///etc/",
        "//evil.example/",
        "\\\\evil.example/",
        'docs/"><script>',
        "",
    ],
)
def test_a_docs_url_that_is_no_web_address_or_relative_path_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sword_record: dict[str, object], url: str
) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(sword_record), encoding="utf-8")
    out = tmp_path / "v.html"
    err = one_line_error(capsys, "view", str(path), "-o", str(out), "--docs-url", url)
    assert "--docs-url" in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    ("url", "link"),
    [
        ("https://example.org/byz", "https://example.org/byz/games/"),
        ("HTTP://example.org/", "HTTP://example.org/games/"),
        ("../built-docs", "../built-docs/games/"),
        ("/docs/", "/docs/games/"),
    ],
)
def test_a_web_address_or_relative_path_is_the_base_of_the_rule_links(
    tmp_path: Path, sword_record: dict[str, object], url: str, link: str
) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(sword_record), encoding="utf-8")
    out = tmp_path / "v.html"
    assert run("view", str(path), "-o", str(out), "--docs-url", url)[0] == 0
    assert f"{link}sword-of-orthodoxy.html#rule-" in out.read_text(encoding="utf-8")


# -- deliverable 5: library errors everywhere -----------------------------------------


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[Game[Any, Any], object, object]]:
    """Each built-in game with a state of its own and a state of the other game."""
    bel, soo = load_game("belisarius"), load_game("sword-of-orthodoxy")
    bs, ss = bel.initial_state(), soo.initial_state()
    return {"belisarius": (bel, bs, ss), "sword-of-orthodoxy": (soo, ss, bs)}


#: Values no public entry point accepts where a state, a player, an action, a record,
#: an event or a count is asked for ("FOREIGN" stands for a state of the other game).
WRONG = ("FOREIGN", None, "x", 2.5, [1], object())

#: The public methods of the game contract that take a state first, with the other
#: arguments they take (``OWN`` is a state of the game, ``ACT`` one of its actions).
STATE_METHODS: dict[str, tuple[object, ...]] = {
    "current_player": (),
    "is_terminal": (),
    "is_chance_node": (),
    "legal_actions": (),
    "chance_outcomes": (),
    "validate": (),
    "result": (),
    "returns": (),
    "observation": (0,),
    "observation_tensor": (0,),
    "render": (),
    "chronicle_heading": (),
    "decision_rule": (),
    "describe_decision": (),
    "describe_action": ("ACT",),
    "describe_choice": ("ACT",),
    "visible_action": ("ACT", 0),
    "look": (0, "map"),
    "turn_of": (),
    "tallies": ((),),
    "apply": ("ACT",),
    "step": ("ACT",),
    "check_action": ("ACT",),
    "apply_all": (("ACT",),),
    "typed_action": ("ACT",),
    "encode_state": (),
    "state_digest": (),
}


def _calls(
    game: Game[Any, Any], own: object, foreign: object
) -> list[tuple[str, Callable[[], object]]]:
    """Every call of the public API to try: one argument at a time is made wrong."""
    act = game.legal_actions(own)[0]

    def real(value: object) -> object:
        if value == "ACT":
            return act
        if isinstance(value, tuple):
            return tuple(real(v) for v in value)
        return value

    def bad(value: object) -> object:
        return foreign if value == "FOREIGN" else value

    calls: list[tuple[str, Callable[[], object]]] = []
    space = game.action_space()
    for wrong in WRONG:
        w: Any = bad(wrong)
        label = "a foreign state" if wrong == "FOREIGN" else repr(wrong)[:20]
        for name, rest in STATE_METHODS.items():
            method = getattr(game, name)
            args = tuple(real(v) for v in rest)
            calls.append((f"{name}({label}, ...)", functools.partial(method, w, *args)))
            for i, value in enumerate(args):
                if isinstance(value, str) and name == "look":
                    continue  # any text is a request (an unknown one gives None)
                changed = list(args)
                changed[i] = w
                what = f"{name}(state, {label} as argument {i + 2})"
                calls.append((what, functools.partial(method, own, *changed)))
        calls += [
            (f"render(state, {label})", functools.partial(game.render, own, w)),
            (f"look(state, 0, {label})", functools.partial(game.look, own, 0, w)),
            (f"player_name({label})", functools.partial(game.player_name, w)),
            (f"describe_event({label})", functools.partial(game.describe_event, w)),
            (f"encode_action({label})", functools.partial(game.encode_action, w)),
            (f"decode_action({label})", functools.partial(game.decode_action, w)),
            (f"decode_state({label})", functools.partial(game.decode_state, w)),
            (f"action_space().index({label}, act)", functools.partial(space.index, w, act)),
            (f"action_space().index(state, {label})", functools.partial(space.index, own, w)),
            (f"action_space().action({label}, 0)", functools.partial(space.action, w, 0)),
            (f"action_space().action(state, {label})", functools.partial(space.action, own, w)),
            (f"action_space().legal_indices({label})", functools.partial(space.legal_indices, w)),
            (f"action_space().mask({label})", functools.partial(space.mask, w)),
            (f"action_space().label({label})", functools.partial(space.label, w)),
            (f"action_space().number({label})", functools.partial(space.number, w)),  # type: ignore[attr-defined]
            (f"svg(game, {label})", functools.partial(svg, game, w)),
            (f"svg(game, state, {label})", functools.partial(svg, game, own, w)),
            (f"svg({label}, state)", functools.partial(svg, w, own)),
            (f"playout(game, {label}, rng)", functools.partial(playout, game, w, random.Random(1))),
            (f"playout(game, state, {label})", functools.partial(playout, game, own, w)),
            (f"play({label})", functools.partial(byzantium.play, w)),
            (f"play(game, {label})", functools.partial(byzantium.play, game, w)),
            (f"replay(game, {label})", functools.partial(byzantium.replay, game, w)),
            (f"replay({label}, record)", functools.partial(byzantium.replay, w, _RECORD)),
            (f"dumps_record(game, {label})", functools.partial(byzantium.dumps_record, game, w)),
            (f"loads_record({label})", functools.partial(byzantium.loads_record, w)),
            (f"state_to_json({label}, state)", functools.partial(state_to_json, w, own)),
            (f"state_to_json(game, {label})", functools.partial(state_to_json, game, w)),
            (f"load_game({label})", functools.partial(load_game, w)),
            (f"get_rulebook({label})", functools.partial(byzantium.get_rulebook, w)),
            (f"register_game({label})", functools.partial(byzantium.register_game, w)),
            (f"dice({label})", functools.partial(byzantium.dice, w)),
            (f"dice(2, {label})", functools.partial(byzantium.dice, 2, w)),
            (f"sample({label}, rng)", functools.partial(byzantium.sample, w, random.Random(1))),
            (f"scripted({label})", functools.partial(_script, w)),
            (
                f"Comparison.chance({label})",
                functools.partial(byzantium.Comparison.GREATER.chance, w),
            ),
            (f"simulate({label})", functools.partial(byzantium.simulate, w, games=1)),
            (
                f"simulate(games={label})",
                functools.partial(byzantium.simulate, game.ID, games=w),
            ),
        ]
    calls += [
        ("dice(40)", functools.partial(byzantium.dice, 40)),
        ("dice(0)", functools.partial(byzantium.dice, 0)),
        ("dice(2, 0)", functools.partial(byzantium.dice, 2, 0)),
        ("observation(state, 7)", functools.partial(game.observation, own, 7)),
        ("observation(state, -1)", functools.partial(game.observation, own, -1)),
        ("render(state, 7)", functools.partial(game.render, own, 7)),
        ("action_space().label(size)", functools.partial(space.label, space.size)),
        ("svg(game, state, 7)", functools.partial(svg, game, own, 7)),
        ("play(game, [])", functools.partial(byzantium.play, game, [])),
        ("simulate(jobs=0)", functools.partial(byzantium.simulate, game.ID, games=1, jobs=0)),
    ]
    return [(label, call) for label, call in calls if label not in ALLOWED]


#: Calls above whose "wrong" value is a right one: no seat (everything is seen), the
#: default policies, any text as a request, a list as a script.
ALLOWED = {
    "look(state, None as argument 2)",
    "render(state, None)",
    "svg(game, state, None)",
    "play(game, None)",
    "look(state, 0, 'x')",
    "scripted([1])",
}


def _script(actions: Any) -> object:
    return byzantium.scripted(actions)


_RECORD: GameRecord[object] = GameRecord("x", (), "", None, (), ())


@pytest.mark.parametrize("game_id", ["belisarius", "sword-of-orthodoxy"])
def test_every_public_entry_point_answers_misuse_with_a_library_error(
    games: dict[str, tuple[Game[Any, Any], object, object]], game_id: str
) -> None:
    game, own, foreign = games[game_id]
    wrong: list[str] = []
    for label, call in _calls(game, own, foreign):
        try:
            call()
        except ByzantiumError as exc:
            if "\n" in str(exc) or not str(exc):
                wrong.append(f"{label}: a message of {str(exc).count(chr(10)) + 1} lines")
        except Exception as exc:
            wrong.append(f"{label}: {type(exc).__name__}: {str(exc)[:80]}")
        else:
            wrong.append(f"{label}: no error")
    assert not wrong, "\n".join(wrong)


def test_the_checks_name_the_problem_in_one_line(
    games: dict[str, tuple[Game[Any, Any], object, object]],
) -> None:
    bel, bs, ss = games["belisarius"]
    with pytest.raises(InvalidStateError, match="a value of type SooState given as a state"):
        bel.legal_actions(ss)
    with pytest.raises(InvalidStateError, match="None given as a state, not a BelState"):
        bel.apply(None, bel.legal_actions(bs)[0])
    with pytest.raises(ArgumentError, match="more than 46656 outcomes"):
        byzantium.dice(40)
    with pytest.raises(RecordError, match="JSON text is a string or bytes"):
        byzantium.loads_record(None)  # type: ignore[arg-type]
    # The library's errors stay what they were to code that caught Python's.
    assert issubclass(ArgumentError, ValueError) and issubclass(ArgumentError, TypeError)
    # A state of the right game is still served, and the fast path is untouched.
    assert bel.legal_actions(bs) and bel.apply_unchecked(bs, bel.legal_actions(bs)[0]) is not bs
