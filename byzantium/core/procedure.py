"""Procedures as data: a stack of steps in the state, run until one needs an answer.

Board games are long procedures with questions in the middle: roll a die, draw a
marker, choose a region. Both games keep what remains to be done as a stack of
*tasks* inside their immutable state. :func:`settle` pops and runs tasks until the
stack is empty, the game has ended, or a task has set the state's ``pending``
request (a roll, a draw or a decision). The action that answers the request is
handed back to the same task's ``run`` (see :func:`run_task`).

A task is a frozen attrs record deriving from the game's own
:class:`~byzantium.core.codec.Tagged` base, so that states with tasks in them
serialise like any other value. The state type needs the three fields of
:class:`ProcedureState`.
"""

from __future__ import annotations

import ast
import contextlib
import enum
import inspect
import sys
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import attrs

from byzantium.core.errors import ByzantiumError, InvalidStateError
from byzantium.core.game import Event

__all__ = [
    "LazyOptions",
    "ProcedureContext",
    "ProcedureState",
    "TaskField",
    "builder",
    "check_turn_stack",
    "code_words",
    "data_words",
    "fields_replacer",
    "is_word",
    "lazy_request",
    "proceed",
    "push",
    "replace",
    "replace_fields",
    "replacer",
    "require_same_request",
    "run_task",
    "settle",
    "task_fields",
]


class ProcedureContext:
    """What every running task may consult: the game's options and the event log.

    Games subclass it to add their game and catalogue.
    """

    __slots__ = ("events", "options")

    def __init__(self, options: Mapping[str, object], events: list[Event] | None) -> None:
        self.options = options
        self.events = events

    def log(
        self,
        rule: str,
        text: str,
        kind: str = "",
        *,
        owner: int | None = None,
        public: str | None = None,
    ) -> None:
        """Record an event of the transition (skipped on the fast path). An event that
        tells ``owner``'s secret gives what the others read as ``public`` (None: they
        do not see it; see :class:`~byzantium.core.game.Event`)."""
        if self.events is not None:
            self.events.append(Event(rule, text, kind, owner=owner, public=public))

    def option(self, name: str) -> bool:
        """Whether a boolean game option is on."""
        return self.options.get(name) is True


class ProcedureState(Protocol):
    """What the procedure engine needs of a state: its stack, request and ending."""

    @property
    def stack(self) -> tuple[object, ...]:
        """Tasks still to run, the next one last."""

    @property
    def pending(self) -> object | None:
        """The request the game waits on, if any."""

    @property
    def ending(self) -> object | None:
        """Set once the game is over."""


S = TypeVar("S", bound=ProcedureState)
C = TypeVar("C")
#: Any attrs record.
R = TypeVar("R")


class LazyOptions:
    """Base of a slotted attrs request whose ``options`` (the menu of a decision) may
    be worked out the first time something reads them rather than when the request
    is made.

    A transition ends at the next decision; a search that builds every child of a
    position, or scores children it never expands, never needs their menus. A request
    made by :func:`lazy_request` holds how to build its menu instead: its ``options``
    slot stays empty until the first read, which builds the menu, keeps it in the slot
    and drops the builder (and the state it held). From the outside nothing changes:
    the request is immutable and reads, encodes, copies and pickles as if its menu had
    been there from the start (which builds it).

    The menu of a state the rules produced is a function of the rest of the state,
    so a request class leaves ``options`` out of its equality and hash: comparing or
    hashing states (a search's table of positions) then builds no menu.
    :func:`require_same_request`, which checks a state read from outside, compares
    the menus as well.
    """

    __slots__ = ("_build",)

    def options_built(self) -> bool:
        """Whether the menu has been built (or was given when the request was made)."""
        try:
            object.__getattribute__(self, "_build")
        except AttributeError:
            return True
        return False

    if not TYPE_CHECKING:  # mypy would take every attribute of a request for valid

        def __getattr__(self, name):
            # Called only when the normal look-up fails: an unset slot.
            if name != "options":
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            try:
                build = object.__getattribute__(self, "_build")
            except AttributeError:
                raise AttributeError(f"{type(self).__name__} has no options") from None
            options = tuple(build())
            object.__setattr__(self, "options", options)
            # Another thread reading the menu at the same time may have dropped it.
            with contextlib.suppress(AttributeError):
                object.__delattr__(self, "_build")
            return options


#: Requests that build their menus when asked, by class: the name, the setter of the
#: slot and the default of each of their other fields.
_LAZY_FIELDS: dict[type, tuple[tuple[str, Callable[[object, object], None], object], ...]] = {}


def _lazy_fields(cls: type) -> tuple[tuple[str, Callable[[object, object], None], object], ...]:
    if not (isinstance(cls, type) and issubclass(cls, LazyOptions) and attrs.has(cls)):
        raise TypeError(f"{cls!r} is no request that builds its options when asked")
    found = _LAZY_FIELDS[cls] = tuple(
        (f.name, getattr(cls, f.name).__set__, f.default)
        for f in attrs.fields(cls)
        if f.name != "options"
    )
    return found


def lazy_request(cls: type[R], build: Callable[[], Sequence[object]], **fields: object) -> R:
    """A request of ``cls`` (a :class:`LazyOptions` attrs class with an ``options``
    field) whose ``options`` are ``build()``, called the first time they are read.

    ``fields`` are its other fields (those left out take their defaults); ``build``
    must give the very menu the request would have held had it been built now: it
    works from the state as it was when the question was asked, never from anything
    that changes since.
    """
    known = _LAZY_FIELDS.get(cls) or _lazy_fields(cls)
    made: R = object.__new__(cls)
    for name, setter, default in known:
        value = fields.get(name, default)
        if value is attrs.NOTHING:
            raise TypeError(f"{cls.__name__} needs its field {name!r}")
        setter(made, value)
    object.__setattr__(made, "_build", build)
    return made


def _plain(cls: type) -> bool:
    """Whether the attrs constructor of ``cls`` does nothing but store its arguments
    and then run the fields' validators: attrs' own, slotted (no other slot than the
    fields'), every field set by the constructor, no converter or init hook.
    A copy of such a record can then be made by storing the fields' values in a new
    instance through the class's slot descriptors and running the same validators,
    which is what the constructor itself does, without the constructor's call (a
    state is copied at every step)."""
    init = getattr(cls.__dict__.get("__init__"), "__code__", None)
    if init is None or not init.co_filename.startswith("<attrs generated"):
        return False  # a constructor of its own
    names = {f.name for f in attrs.fields(cls)}
    slots = cls.__dict__.get("__slots__")
    if slots is None or any(s not in names and s != "__weakref__" for s in slots):
        return False  # no slots, or slots besides the fields' (a cached hash, say)
    if hasattr(cls, "__attrs_pre_init__") or hasattr(cls, "__attrs_post_init__"):
        return False
    return all(
        f.init
        and f.converter is None
        and isinstance(getattr(cls, f.name, None), types.MemberDescriptorType)
        for f in attrs.fields(cls)
    )


def _compile(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    """A function ``(record, *values)`` building a copy of a record of the attrs class
    ``cls`` with the fields ``names`` set to ``values``.

    For a :func:`_plain` class, a new instance whose slots are filled one by one and
    whose validators then run (unless attrs' validators are switched off), as its
    constructor would; otherwise one call of the constructor with every field passed
    (positionally where the constructor allows it), so that its converters and
    validators run as in ``attrs.evolve``."""
    fields = [f for f in attrs.fields(cls) if f.init]
    known = {f.name for f in fields}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r} set by its constructor")
    slot = {name: f"v{k}" for k, name in enumerate(names)}
    params = "".join(f", {v}" for v in slot.values())
    namespace: dict[str, object] = {
        "cls": cls,
        "new": object.__new__,
        "disabled": attrs.validators.get_disabled,
    }

    def value(f: attrs.Attribute[object]) -> str:
        return slot.get(f.name, f"record.{f.name}")

    if _plain(cls):
        lines = ["    made = new(cls)"]
        checks = []
        for k, f in enumerate(attrs.fields(cls)):
            namespace[f"set{k}"] = getattr(cls, f.name).__set__
            lines.append(f"    set{k}(made, {value(f)})")
            if f.validator is not None:
                namespace[f"check{k}"], namespace[f"field{k}"] = f.validator, f
                checks.append(f"        check{k}(made, field{k}, made.{f.name})")
        if checks:
            lines += ["    if not disabled():", *checks]
        body = "\n".join([*lines, "    return made"])
    else:
        args = [value(f) for f in fields if not f.kw_only]
        args += [f"{f.alias}={value(f)}" for f in fields if f.kw_only]
        body = f"    return cls({', '.join(args)})"
    exec(f"def replace(record{params}):\n{body}\n", namespace)
    function = namespace["replace"]
    assert callable(function)
    return function


#: The copy makers of :func:`_compile` by class and replaced fields, built on first use.
_COPIERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


#: The same for one field, by class and field name (:func:`replace`'s look-up).
_ONE_FIELD: dict[tuple[type, str], Callable[..., Any]] = {}


def _copier(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    key = (cls, names)
    function = _COPIERS.get(key)
    if function is None:
        function = _COPIERS[key] = _compile(cls, names)
    return function


def replace(state: R, name: str, value: object) -> R:
    """``state`` with one field replaced, like ``attrs.evolve(state, name=value)``
    (the same constructor, validators and converters run, or for a record whose
    constructor only stores its fields and validates them the same stores and
    validators, :func:`_compile`) but without evolve's per-call look-up of every
    field: the procedure engine does this at every step."""
    key = (type(state), name)
    function = _ONE_FIELD.get(key)
    if function is None:
        function = _ONE_FIELD[key] = _copier(type(state), (name,))
    copied: R = function(state, value)
    return copied


def replacer(cls: type[R], name: str) -> Callable[[R, object], R]:
    """The function :func:`replace` calls for the field ``name`` of instances of the
    attrs class ``cls``, for an engine that copies one field at every step and may
    skip :func:`replace`'s look-up of it each time."""
    function: Callable[[R, object], R] = _copier(cls, (name,))
    return function


def fields_replacer(cls: type[R], *names: str) -> Callable[..., R]:
    """The function :func:`replace_fields` calls for the fields ``names`` of instances of
    the attrs class ``cls``: ``function(record, *values)``, the values in the order of
    ``names``. For a task an engine copies with the same fields changed at every step,
    without :func:`replace_fields`' keyword arguments and look-up each time."""
    function: Callable[..., R] = _copier(cls, names)
    return function


def builder(cls: type[R]) -> Callable[..., R]:
    """A function building a record of the attrs class ``cls`` from every field its
    constructor sets, given positionally in the order of the fields, as the
    constructor does (for a record whose constructor only stores its fields, by
    filling its slots: see :func:`_compile`). For records a procedure builds at every
    step (the request of each decision, say); the caller keeps the order right."""
    fields = attrs.fields(cast("type[attrs.AttrsInstance]", cls))
    names = tuple(f.name for f in fields if f.init)
    return partial(_copier(cls, names), None)


def replace_fields(record: R, **changes: object) -> R:
    """``record`` with several fields replaced, like ``attrs.evolve(record, **changes)``
    (the same constructor, validators and converters run, or their stores and
    validators: see :func:`replace`), without evolve's per-call
    look-up of every field: for the tasks a procedure rebuilds at every step."""
    copied: R = _copier(type(record), tuple(changes))(record, *changes.values())
    return copied


def push(state: S, *tasks: object) -> S:
    """Schedule ``tasks`` to run next, the first one first."""
    if not tasks:
        return state
    return replace(state, "stack", state.stack + tuple(reversed(tasks)))


def run_task(ctx: C, state: S, task: object, answer: object | None) -> S:
    """Run one task (with the answer to its request, if it asked for one).

    A task that fails with anything but a library error (a name it cannot find, a
    payment the treasury cannot make, an answer of the wrong kind) met a position the
    rules never produce: a state edited in a way validation cannot see (the numbers
    of a step deep in the procedure that contradict the board, say). That is reported
    as an :class:`~byzantium.core.errors.InvalidStateError` naming the step, with the
    original error chained, rather than as a crash in the middle of the engine.
    """
    run = getattr(task, "run", None)
    if run is None:  # pragma: no cover - every concrete task defines run
        raise TypeError(f"{type(task).__name__} has no run method")
    try:
        result: S = run(ctx, state, answer)
    except ByzantiumError:
        raise
    except (LookupError, ValueError, TypeError, AttributeError, AssertionError) as error:
        detail = str(error).replace("\n", " ")[:120]
        raise InvalidStateError(
            f"the rules cannot go on from this position: the {type(task).__name__} step "
            f"fails ({type(error).__name__}: {detail}); the engine never produces such a "
            "position, so it was edited beyond what validation checks (or it is a defect "
            "to report)"
        ) from error
    return result


def proceed(ctx: C, state: S, task: object) -> S:
    """Go on with ``task`` at once: what pushing it as the last thing a task does comes
    to (:func:`settle` would pop it and run it next, with no answer), without putting
    it on the stack and taking it off again. For the steps a procedure goes through
    one after the other (a Belisarius force's stages and steps, say)."""
    return run_task(ctx, state, task, None)


def settle(ctx: C, state: S) -> S:
    """Run tasks until one waits for an answer, the stack empties or the game ends."""
    while state.pending is None and state.stack and state.ending is None:
        task = state.stack[-1]
        state = replace(state, "stack", state.stack[:-1])
        state = run_task(ctx, state, task, None)
    return state


def check_turn_stack(
    stack: Sequence[object],
    asking: object | None,
    opener: type,
    sequence: Sequence[type],
    *,
    game: str,
    rule: str = "",
) -> int:
    """Refuse a procedure stack play cannot produce, for a game whose every Turn is
    opened by one task (``opener``) that pushes the steps of the Turn (``sequence``,
    the first to run first) and then itself again, under them, for the next Turn.

    In every position of such a game that is not over, the stack holds, bottom to
    top: the opener once; the steps of the Turn not yet begun, the last step of the
    Turn lowest, each once and in the order of ``sequence``; and above them only the
    work of the step under way (tasks of no step of the sequence). A step of the
    sequence that asks (``asking``, the task of the pending request) is the one
    under way: the one just before the steps still waiting, with nothing above them.

    Returns the index in ``sequence`` of the step under way: the one before the
    steps still waiting (a step that puts itself back on the stack while its own
    work runs, as a menu does, is then the lowest step waiting, one further).
    Raises :class:`~byzantium.core.errors.InvalidStateError` (naming ``rule``, the
    Sequence of Play).
    """

    def refuse(reason: str) -> InvalidStateError:
        return InvalidStateError(reason, rule=rule, game=game)

    if not stack:
        raise refuse("the game is not over but its procedure is empty")
    if type(stack[0]) is not opener:
        raise refuse(
            f"the procedure does not rest on the {opener.__name__} step "
            f"(its lowest step is {type(stack[0]).__name__})"
        )
    kinds = [type(task) for task in stack]
    if opener in kinds[1:] or type(asking) is opener:
        raise refuse(f"the {opener.__name__} step is on the procedure twice")
    place = {kind: k for k, kind in enumerate(sequence)}
    waiting = 0
    for kind in kinds[1:]:
        if kind not in place:
            break
        waiting += 1
    expected = list(reversed(sequence))[:waiting]
    if kinds[1 : 1 + waiting] != expected:
        found = ", ".join(kind.__name__ for kind in kinds[1 : 1 + waiting])
        raise refuse(f"the steps of the Turn are out of order on the procedure ({found})")
    misplaced = [kind for kind in kinds[1 + waiting :] if kind in place]
    if misplaced:
        raise refuse(
            f"the {misplaced[0].__name__} step lies above the work of another step of the Turn"
        )
    current = len(sequence) - waiting - 1
    if current < 0:
        raise refuse("every step of the Turn is still waiting, none under way")
    if type(asking) in place and (place[type(asking)] != current or len(kinds) > 1 + waiting):
        raise refuse(
            f"the {type(asking).__name__} step asks out of its turn "
            f"(the step under way is {sequence[current].__name__})"
        )
    return current


def _question(request: object) -> str:
    """A request in a few words for an error message: its rule and prompt."""
    if request is None:
        return "nothing"
    rule = getattr(request, "rule", "")
    prompt = str(getattr(request, "prompt", ""))[:80]
    return f"rule {rule} {prompt!r}"


def require_same_request(game_id: str, stored: object, asked: object) -> None:
    """Refuse a state whose stored request (``stored``, with its ``task`` and ``rule``)
    is not the one its task asks when asked again (``asked``): the validation both
    games use so that legal actions are never read from outside input.

    Raises :class:`~byzantium.core.errors.InvalidStateError`. The menus are compared
    too: a request that builds its menu when asked (:class:`LazyOptions`) leaves it
    out of its equality, as a function of the rest of a state the rules produced.
    """
    if asked != stored or getattr(asked, "options", ()) != getattr(stored, "options", ()):
        task = type(getattr(stored, "task", None)).__name__
        raise InvalidStateError(
            "the pending request is not the one the procedure asks here "
            f"(the {task} step asks {_question(asked)}, the state holds {_question(stored)})",
            rule=str(getattr(stored, "rule", "")),
            game=game_id,
        )


#: One field of a task in a state: the task, the field's name, and its value (an
#: ``int``, a ``str``, or a tuple of them).
TaskField = tuple[object, str, object]


def _is_scalar(value: object) -> bool:
    return isinstance(value, int | str) and not isinstance(value, bool)


def task_fields(state: ProcedureState, task_type: type) -> Iterator[TaskField]:
    """Every whole-number and text field of every task of ``state``: the tasks of its
    stack, the one that asked its pending request, and the tasks those hold in their
    own fields (a step to resume, a list of steps to run on success...), at any depth.

    Fields holding tuples of numbers or texts are given whole; other values (enums,
    fractions, flags, records of the game's data) are not given. Validation uses this
    to check that every number and name a task carries means something (see both
    games' ``validation`` modules).
    """
    todo: list[object] = list(state.stack)
    asking = getattr(state.pending, "task", None)
    if asking is not None:
        todo.append(asking)
    while todo:
        task = todo.pop()
        if not attrs.has(type(task)):
            continue
        for field in attrs.fields(cast("type[attrs.AttrsInstance]", type(task))):
            value = getattr(task, field.name)
            if isinstance(value, task_type):
                todo.append(value)
            elif isinstance(value, tuple) and value and isinstance(value[0], task_type):
                todo.extend(value)
            elif _is_scalar(value) or (
                isinstance(value, tuple) and value and all(_is_scalar(v) for v in value)
            ):
                yield task, field.name, value


@cache
def code_words(module_name: str) -> frozenset[str]:
    """Every text literal written in the module named ``module_name`` (the module of a
    task's class): the stages, steps and menu words its tasks may carry (validation
    refuses a task text that is neither one of these nor a name of the components)."""
    module = sys.modules[module_name]
    tree = ast.parse(inspect.getsource(module))
    return frozenset(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def data_words(data: object) -> frozenset[str]:
    """Every text in a game's component data (ids, names, kinds, symbols...), found by
    walking its records, tuples, mappings and enumerations."""
    words: set[str] = set()
    todo: list[object] = [data]
    seen: set[int] = set()
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            words.add(item)
            continue
        if id(item) in seen or isinstance(item, int | float | bool) or item is None:
            continue
        seen.add(id(item))
        if isinstance(item, enum.Enum):
            todo.append(item.value)
            todo.append(item.name)
        elif isinstance(item, Mapping):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, tuple | list | frozenset | set):
            todo.extend(item)
        elif attrs.has(type(item)):
            record = cast("type[attrs.AttrsInstance]", type(item))
            todo.extend(getattr(item, field.name) for field in attrs.fields(record))
    return frozenset(words)


def is_word(text: str, *words: frozenset[str]) -> bool:
    """Whether a task's text is empty, in one of the sets ``words``, or words of them
    joined by spaces or commas (a menu item such as ``"achaea field-army"``)."""
    if not text or any(text in known for known in words):
        return True
    parts = [part for chunk in text.split(",") for part in chunk.split()]
    return all(any(part in known for known in words) for part in parts)
