"""The kernel's procedure engine: a stack of tasks run until one asks for an answer.

The engine implements no rule of any game, so these tests carry no rule marker; they
use a toy state with the three fields the engine needs.
"""

from __future__ import annotations

from typing import Union

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.procedure import (
    builder,
    fields_replacer,
    push,
    replace,
    replace_fields,
    run_task,
    settle,
)


@attrs.frozen
class Toy:
    """A procedure state: what ran so far, the stack, a request and an ending."""

    log: tuple[str, ...] = ()
    stack: tuple[object, ...] = ()
    pending: str | None = None
    ending: str | None = None


@attrs.frozen
class Ctx:
    """A context object, passed through untouched."""

    name: str = "ctx"


@attrs.frozen
class Note:
    """Writes its text to the log."""

    text: str

    def run(self, ctx: Ctx, state: Toy, answer: object | None) -> Toy:
        del ctx, answer
        return attrs.evolve(state, log=(*state.log, self.text))


@attrs.frozen
class Spawn:
    """Writes its text, then schedules its children."""

    text: str
    children: tuple[Tree, ...] = ()

    def run(self, ctx: Ctx, state: Toy, answer: object | None) -> Toy:
        del ctx, answer
        return push(attrs.evolve(state, log=(*state.log, self.text)), *self.children)


Tree = Union[Note, Spawn]  # noqa: UP007 - a runtime alias used before Spawn is complete


@attrs.frozen
class Ask:
    """Asks a question; run again with the answer, logs it."""

    def run(self, ctx: Ctx, state: Toy, answer: object | None) -> Toy:
        if answer is None:
            return attrs.evolve(state, pending=f"{ctx.name}: question")
        return attrs.evolve(state, log=(*state.log, f"answer {answer}"))


@attrs.frozen
class Stop:
    """Ends the game."""

    def run(self, ctx: Ctx, state: Toy, answer: object | None) -> Toy:
        del ctx, answer
        return attrs.evolve(state, ending="over", log=(*state.log, "stop"))


def _preorder(tree: Tree) -> list[str]:
    if isinstance(tree, Note):
        return [tree.text]
    return [tree.text] + [t for child in tree.children for t in _preorder(child)]


texts = st.text(alphabet="abcxyz", min_size=1, max_size=3)
trees: st.SearchStrategy[Tree] = st.recursive(
    st.builds(Note, texts),
    lambda kids: st.builds(Spawn, texts, st.lists(kids, max_size=3).map(tuple)),
    max_leaves=12,
)


def test_push_without_tasks_returns_the_same_state() -> None:
    state = Toy(stack=(Note("a"),))
    assert push(state) is state


@given(st.lists(texts, max_size=8))
def test_pushed_tasks_run_first_one_first(words: list[str]) -> None:
    state = push(Toy(), *(Note(w) for w in words))
    assert len(state.stack) == len(words)
    done = settle(Ctx(), state)
    assert done.log == tuple(words)
    assert done.stack == ()


@given(st.lists(texts, max_size=4), st.lists(texts, max_size=4))
def test_a_later_push_runs_before_what_was_already_scheduled(
    older: list[str], newer: list[str]
) -> None:
    state = push(push(Toy(), *(Note(w) for w in older)), *(Note(w) for w in newer))
    assert settle(Ctx(), state).log == (*newer, *older)


@given(st.lists(trees, max_size=4))
def test_tasks_scheduled_by_a_task_run_before_the_rest(forest: list[Tree]) -> None:
    done = settle(Ctx(), push(Toy(), *forest))
    assert list(done.log) == [t for tree in forest for t in _preorder(tree)]


def test_settle_on_an_empty_stack_changes_nothing() -> None:
    state = Toy(log=("x",))
    assert settle(Ctx(), state) is state


@given(st.lists(texts, max_size=3), st.lists(texts, max_size=3))
def test_settle_stops_at_a_question_and_the_answer_resumes_the_asker(
    before: list[str], after: list[str]
) -> None:
    ctx = Ctx("game")
    state = push(Toy(), *(Note(w) for w in before), Ask(), *(Note(w) for w in after))
    waiting = settle(ctx, state)
    assert waiting.pending == "game: question"
    assert waiting.log == tuple(before)
    # The asker is off the stack; the rest is still there, in order.
    assert waiting.stack == tuple(reversed([Note(w) for w in after]))
    resumed = run_task(ctx, attrs.evolve(waiting, pending=None), Ask(), 7)
    finished = settle(ctx, resumed)
    assert finished.log == (*before, "answer 7", *after)
    assert finished.pending is None


def test_settle_does_not_run_anything_while_a_question_is_pending() -> None:
    state = Toy(stack=(Note("a"),), pending="waiting")
    assert settle(Ctx(), state) is state


@given(st.lists(texts, max_size=3), st.lists(texts, min_size=1, max_size=3))
def test_settle_stops_once_the_game_has_ended(before: list[str], after: list[str]) -> None:
    state = push(Toy(), *(Note(w) for w in before), Stop(), *(Note(w) for w in after))
    done = settle(Ctx(), state)
    assert done.ending == "over"
    assert done.log == (*before, "stop")
    assert len(done.stack) == len(after)
    assert settle(Ctx(), done) is done


def test_run_task_hands_over_the_context_and_the_answer() -> None:
    state = run_task(Ctx("here"), Toy(), Ask(), None)
    assert state.pending == "here: question"
    assert run_task(Ctx(), Toy(), Ask(), "yes").log == ("answer yes",)


def test_a_task_without_run_is_refused() -> None:
    with pytest.raises(TypeError, match="has no run method"):
        run_task(Ctx(), Toy(), object(), None)


@given(st.lists(trees, max_size=3))
def test_settle_leaves_its_input_alone(forest: list[Tree]) -> None:
    state = push(Toy(), *forest)
    copy = attrs.evolve(state)
    settle(Ctx(), state)
    assert state == copy


@attrs.frozen
class Checked:
    """A record whose constructor validates and converts, with a private field."""

    count: int = attrs.field(converter=int)
    _secret: str = attrs.field(default="", validator=attrs.validators.instance_of(str))


@given(
    st.tuples(st.text(max_size=3), st.text(max_size=3)),
    st.sampled_from(["log", "stack", "pending", "ending"]),
    st.one_of(st.none(), st.text(max_size=3)),
)
def test_replace_is_evolve_with_one_field(log: tuple[str, ...], name: str, value: object) -> None:
    state = Toy(log=log, stack=("a",), pending="p", ending=None)
    changes: dict[str, object] = {name: value}
    assert replace(state, name, value) == attrs.evolve(state, **changes)  # type: ignore[arg-type]
    assert state == Toy(log=log, stack=("a",), pending="p", ending=None)


def test_replace_runs_converters_and_validators_and_knows_private_fields() -> None:
    record = Checked(3, "s")
    assert replace(record, "count", "7") == Checked(7, "s")
    assert replace(record, "_secret", "t") == Checked(3, "t")
    with pytest.raises(TypeError):
        replace(record, "_secret", 5)
    with pytest.raises(TypeError, match="no field 'missing'"):
        replace(record, "missing", 1)


@given(
    st.tuples(st.text(max_size=3), st.text(max_size=3)),
    st.lists(st.sampled_from(["log", "stack", "pending", "ending"]), unique=True, max_size=4),
    st.one_of(st.none(), st.text(max_size=3)),
)
def test_replace_fields_is_evolve(log: tuple[str, ...], names: list[str], value: object) -> None:
    state = Toy(log=log, stack=("a",), pending="p", ending=None)
    changes: dict[str, object] = dict.fromkeys(names, value)
    assert replace_fields(state, **changes) == attrs.evolve(state, **changes)  # type: ignore[arg-type]
    assert state == Toy(log=log, stack=("a",), pending="p", ending=None)


def test_replace_fields_runs_converters_and_validators_and_knows_private_fields() -> None:
    record = Checked(3, "s")
    assert replace_fields(record, count="7", _secret="t") == Checked(7, "t")
    assert replace_fields(record, _secret="u", count=1) == Checked(1, "u")
    with pytest.raises(TypeError):
        replace_fields(record, count=2, _secret=5)
    with pytest.raises(TypeError, match="no field 'missing'"):
        replace_fields(record, missing=1)


@attrs.frozen(cache_hash=True)
class Hashed:
    """A record that keeps its hash: its constructor does more than store its fields."""

    count: int = 0
    name: str = ""


@attrs.define
class Mutable:
    """A mutable record without validators: copied like a frozen one."""

    count: int = 0
    names: tuple[str, ...] = ()


@attrs.frozen
class KeywordsLast:
    """A record with a keyword-only field between positional ones."""

    first: int = 0
    middle: int = attrs.field(default=0, kw_only=True, validator=attrs.validators.ge(0))
    last: int = 0


@pytest.mark.parametrize(
    ("record", "name", "value"),
    [
        (Toy(log=("a",), pending="p"), "pending", None),
        (Hashed(3, "s"), "count", 4),
        (Mutable(3, ("x",)), "names", ()),
        (KeywordsLast(1, middle=2, last=3), "last", 5),
        (KeywordsLast(1, middle=2, last=3), "middle", 7),
    ],
)
def test_copies_equal_evolve_and_behave_as_constructed(
    record: object, name: str, value: object
) -> None:
    """Whichever way a copy is made (slots filled in for a record whose constructor
    only stores its arguments, the constructor otherwise), it is the record
    ``attrs.evolve`` builds: equal, of the same hash, with no field left unset."""
    changes: dict[str, object] = {name: value}
    expected = attrs.evolve(record, **changes)  # type: ignore[misc]
    for copied in (replace(record, name, value), replace_fields(record, **changes)):
        assert type(copied) is type(record)
        assert copied == expected
        assert attrs.asdict(copied) == attrs.asdict(expected)  # type: ignore[arg-type]
        if type(record).__hash__ is not None:
            assert hash(copied) == hash(expected)
    with pytest.raises(ValueError, match="middle"):
        replace(KeywordsLast(), "middle", -1)


@pytest.mark.parametrize("cls", [Toy, Hashed, Mutable])
def test_a_builder_builds_what_the_constructor_builds(cls: type[attrs.AttrsInstance]) -> None:
    """:func:`builder` takes every field in order and gives the record the
    constructor gives for the same values."""
    values = {Toy: (("a",), (), "p", None), Hashed: (3, "s"), Mutable: (2, ("x",))}[cls]
    made: attrs.AttrsInstance = builder(cls)(*values)
    assert type(made) is cls
    assert made == cls(*values)
    assert attrs.asdict(made) == attrs.asdict(cls(*values))


@given(
    st.tuples(st.text(max_size=3), st.text(max_size=3)),
    st.lists(st.sampled_from(["log", "stack", "pending", "ending"]), unique=True, max_size=4),
    st.one_of(st.none(), st.text(max_size=3)),
)
def test_a_fields_replacer_is_replace_fields(
    log: tuple[str, ...], names: list[str], value: object
) -> None:
    """:func:`fields_replacer` gives the copy maker :func:`replace_fields` uses: the same
    copy for the values given in the order of the names."""
    state = Toy(log=log, stack=("a",), pending="p", ending=None)
    changes: dict[str, object] = dict.fromkeys(names, value)
    copy = fields_replacer(Toy, *names)
    assert copy(state, *changes.values()) == replace_fields(state, **changes)
    assert copy(state, *changes.values()) == attrs.evolve(state, **changes)  # type: ignore[arg-type]


def test_a_fields_replacer_runs_converters_and_validators() -> None:
    assert fields_replacer(Checked, "count", "_secret")(Checked(3, "s"), "7", "t") == Checked(
        7, "t"
    )
    with pytest.raises(TypeError):
        fields_replacer(Checked, "_secret", "count")(Checked(3, "s"), 5, 2)
    with pytest.raises(ValueError, match="middle"):
        fields_replacer(KeywordsLast, "last", "middle")(KeywordsLast(), 1, -1)
