"""Structural edits of encoded states, for the fuzz suite (issue 36).

Where :func:`tests.test_fuzz.mutated` changes single values at random, these edits
change the *shape* of a position the way a careless or hostile editor of a saved game
would: procedure steps removed, repeated, put out of order or borrowed from another
moment of the game (another phase or Turn), the Turn or phase moved, facts and
counters added, numbers pushed to the extremes of what JSON can carry.

The edits work on the encoded JSON of a state and know only the names of a few of its
fields, given per game by a :class:`Shape`; the material they borrow (steps, Turns,
phases, facts, counters) comes from other real positions of the same game, so that an
edited position is one plausible piece at a time and wrong only as a whole.

Use :func:`structurally_edited` as a hypothesis strategy::

    edited = data.draw(structurally_edited(position, others, SHAPES[game_id]))
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from byzantium.core.codec import JSONValue

__all__ = ["EDITS", "EXTREMES", "SHAPES", "Shape", "int_paths", "structurally_edited"]

#: Numbers an edit may write in place of any whole number of a state.
EXTREMES: tuple[int, ...] = (
    -(2**63),
    -(10**30),
    -1,
    0,
    1,
    99,
    2**31,
    2**63 - 1,
    10**30,
)


@dataclass(frozen=True)
class Shape:
    """Where a game's encoded state keeps what the edits change.

    ``stack``: the list of procedure steps (the next one last); ``pending``: the
    request, whose ``task`` asked it; ``turn``: the Turn; ``phase``: the field naming
    the phase, if the state has one; ``facts``: fields holding lists of names of things
    that happened; ``counters``: fields holding lists of ``[name, number]`` pairs.
    """

    stack: str = "stack"
    pending: str = "pending"
    turn: str = "turn"
    phase: str | None = None
    facts: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()


#: The shapes of the two games' states.
SHAPES: dict[str, Shape] = {
    "sword-of-orthodoxy": Shape(facts=("done",), counters=("counters",)),
    "belisarius": Shape(phase="phase"),
}

#: The kinds of edit, drawn with these weights (stack edits first).
EDITS: tuple[str, ...] = (
    "remove",
    "remove",
    "empty",
    "duplicate",
    "duplicate",
    "reverse",
    "swap",
    "shuffle",
    "borrow",
    "borrow",
    "turn",
    "turn",
    "phase",
    "unask",
    "fact",
    "counter",
    "extreme",
    "extreme",
)

Path = tuple[str | int, ...]


def int_paths(data: JSONValue, here: Path = ()) -> list[Path]:
    """Paths to every whole number (not a flag) of an encoded value."""
    if isinstance(data, bool):
        return []
    if isinstance(data, int):
        return [here]
    found: list[Path] = []
    if isinstance(data, dict):
        for key, value in data.items():
            found += int_paths(value, (*here, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += int_paths(value, (*here, i))
    return found


def _set(data: Any, path: Path, value: object) -> None:
    for step in path[:-1]:
        data = data[step]
    data[path[-1]] = value


def _names(position: dict[str, Any], key: str) -> list[str]:
    value = position.get(key)
    return [item for item in value or () if isinstance(item, str)]


def _pairs(position: dict[str, Any], key: str) -> list[list[Any]]:
    value = position.get(key)
    return [list(item) for item in value or () if isinstance(item, list) and len(item) == 2]


@st.composite
def structurally_edited(
    draw: st.DrawFn,
    original: JSONValue,
    others: Sequence[JSONValue],
    shape: Shape,
    edits: int = 3,
) -> tuple[JSONValue, list[str]]:
    """``original`` (an encoded state, left untouched) with one to ``edits`` structural
    edits, and a short description of each (for a failure's report). ``others`` are
    other encoded positions of the same game to borrow steps, Turns, phases, facts and
    counters from."""
    data = copy.deepcopy(original)
    assert isinstance(data, dict)
    done: list[str] = []
    for _ in range(draw(st.integers(1, edits))):
        kind = draw(st.sampled_from(EDITS))
        done.append(_edit(draw, data, kind, others, shape))
    return data, done


def _edit(
    draw: st.DrawFn, data: dict[str, Any], kind: str, others: Sequence[JSONValue], shape: Shape
) -> str:
    positions: list[dict[str, Any]] = [o for o in others if isinstance(o, dict)]
    stack: list[Any] = data.get(shape.stack) or []
    data[shape.stack] = stack
    tasks = [s for o in positions for s in o.get(shape.stack) or ()]
    tasks += [o[shape.pending]["task"] for o in positions if isinstance(o.get(shape.pending), dict)]
    if kind == "remove" and stack:
        at = draw(st.integers(0, len(stack) - 1))
        return f"step {at} ({stack.pop(at).get('type')}) removed"
    if kind == "empty":
        data[shape.stack] = []
        return "stack emptied"
    if kind == "duplicate" and stack:
        at = draw(st.integers(0, len(stack) - 1))
        stack.insert(draw(st.integers(0, len(stack))), copy.deepcopy(stack[at]))
        return f"step {at} ({stack[at].get('type')}) repeated"
    if kind == "reverse" and len(stack) > 1:
        stack.reverse()
        return "stack reversed"
    if kind == "swap" and len(stack) > 1:
        i = draw(st.integers(0, len(stack) - 2))
        j = draw(st.integers(i + 1, len(stack) - 1))
        stack[i], stack[j] = stack[j], stack[i]
        return f"steps {i} and {j} swapped"
    if kind == "shuffle" and len(stack) > 1:
        data[shape.stack] = draw(st.permutations(stack))
        return "stack shuffled"
    if kind == "borrow" and tasks:
        task = copy.deepcopy(draw(st.sampled_from(tasks)))
        at = draw(st.integers(0, len(stack)))
        stack.insert(at, task)
        return f"step {task.get('type')} of another position put at {at}"
    if kind == "turn" and isinstance(data.get(shape.turn), int):
        old = data[shape.turn]
        turns = sorted({int(o[shape.turn]) for o in positions} - {old})
        new = draw(st.sampled_from([*turns, old + 1, old - 1, old + 10, 0, -1]))
        data[shape.turn] = new
        return f"Turn {old} set to {new}"
    if kind == "phase" and shape.phase is not None and shape.phase in data:
        old = data[shape.phase]
        phases = sorted({str(o.get(shape.phase)) for o in positions})
        new = draw(st.sampled_from([*phases, "", "no-such-phase"]))
        data[shape.phase] = new
        return f"phase {old!r} set to {new!r}"
    if kind == "unask" and data.get(shape.pending) is not None:
        task = data[shape.pending].get("task")
        data[shape.pending] = None
        if task is not None and draw(st.booleans()):
            stack.append(task)
            return "request dropped, its step put back on the stack"
        return "request dropped"
    if kind == "fact" and shape.facts:
        key = draw(st.sampled_from(shape.facts))
        known = sorted({n for o in positions for n in _names(o, key)} - set(_names(data, key)))
        name = draw(st.sampled_from([*known, "no-such-fact", "event:Nothing"]))
        data[key] = sorted({*_names(data, key), name})
        return f"fact {name!r} added to {key}"
    if kind == "counter" and shape.counters:
        key = draw(st.sampled_from(shape.counters))
        pairs = _pairs(data, key)
        names = {str(n) for n, _ in pairs}
        known = sorted({str(n) for o in positions for n, _ in _pairs(o, key)} - names)
        name = draw(st.sampled_from([*known, "no-such-counter"]))
        value = draw(st.sampled_from([*EXTREMES, 2, 5]))
        data[key] = sorted([*pairs, [name, value]])
        return f"counter {name!r} = {value} added to {key}"
    paths = int_paths(data)
    if paths:
        path = draw(st.sampled_from(paths))
        value = draw(st.sampled_from(EXTREMES))
        _set(data, path, value)
        return f"{'/'.join(map(str, path))} set to {value}"
    return "nothing changed"
