"""Traceability: rule -> implementing code -> tests.

Tests declare the rules they verify with a pytest marker::

    RULEBOOK = "sword-of-orthodoxy"   # module default, or game="..." on the marker

    @pytest.mark.rule("10.6.5", "10.6.6")
    def test_attack_succeeds_when_roll_beats_strength(): ...

The marker may sit on a test function, on a test class, in a module's
``pytestmark``, or inside ``pytest.param(..., marks=...)``. Its arguments must be
string literals: the test files are read as source (never imported), so the trace
is fast and has no side effects.

:func:`check` compares a rule book's index with the registered code and the test
markers, and lists every inconsistency:

* a ``mechanics`` rule without implementing code, or without a test;
* a ``no mechanics`` rule with implementing code registered;
* code or a test naming a rule the index does not have.

``pending`` rules are counted, not flagged, so work can land chapter by chapter.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import attrs

from byzantium.core.errors import RuleIndexError
from byzantium.core.rules import RuleBook, RuleEntry, RuleStatus

__all__ = [
    "MARKER",
    "RuleRow",
    "TestRef",
    "TraceReport",
    "check",
    "format_report",
    "scan_tests",
]

#: Name of the pytest marker.
MARKER = "rule"


@attrs.frozen
class TestRef:
    """A test and the rules its marker names."""

    __test__ = False  # not a pytest test class, despite its name

    nodeid: str
    game: str
    rules: tuple[str, ...]
    path: str
    line: int


@attrs.frozen
class RuleRow:
    """One line of the traceability matrix."""

    entry: RuleEntry
    code: tuple[str, ...]
    tests: tuple[str, ...]
    #: False when the tests were not available (an installed package without its
    #: test suite): a rule without a test is then not a problem, only unknown.
    tests_known: bool = True

    @property
    def problems(self) -> tuple[str, ...]:
        """What is inconsistent about this rule."""
        found = []
        status = self.entry.status
        if status is RuleStatus.MECHANICS and not self.code:
            found.append(f"rule {self.entry.id} has mechanics but no implementing code")
        if status is RuleStatus.MECHANICS and not self.tests and self.tests_known:
            found.append(f"rule {self.entry.id} has mechanics but no test")
        if status is RuleStatus.NO_MECHANICS and self.code:
            found.append(f"rule {self.entry.id} is marked 'no mechanics' but has code registered")
        return tuple(found)


@attrs.frozen
class TraceReport:
    """The matrix of one rule book and its inconsistencies."""

    game: str
    rows: tuple[RuleRow, ...]
    problems: tuple[str, ...]
    #: False when no tests were available to check (see :func:`check`).
    tests_known: bool = True

    def count(self, status: RuleStatus) -> int:
        """How many rules have ``status``."""
        return sum(1 for row in self.rows if row.entry.status is status)

    @property
    def ok(self) -> bool:
        """No inconsistency (pending rules allowed)."""
        return not self.problems

    @property
    def complete(self) -> bool:
        """No inconsistency and nothing pending."""
        return self.ok and self.count(RuleStatus.PENDING) == 0

    def summary(self) -> str:
        """One line of counts."""
        return (
            f"{self.game}: {len(self.rows)} rules: "
            f"{self.count(RuleStatus.MECHANICS)} mechanics, "
            f"{self.count(RuleStatus.NO_MECHANICS)} no mechanics, "
            f"{self.count(RuleStatus.PENDING)} pending; "
            f"{len(self.problems)} inconsistencies"
            + ("" if self.tests_known else " (code only: the tests were not checked)")
        )


# -- reading test markers -------------------------------------------------------------


def _is_rule_mark(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr != MARKER:
        return False
    holder = node.func.value
    return (isinstance(holder, ast.Attribute) and holder.attr == "mark") or (
        isinstance(holder, ast.Name) and holder.id == "mark"
    )


def _literal(node: ast.expr, where: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise RuleIndexError(f"{where}: rule marker arguments must be string literals")


def _marks_in(nodes: Iterable[ast.AST], where: str) -> list[tuple[str | None, tuple[str, ...]]]:
    marks = []
    for top in nodes:
        for node in ast.walk(top):
            if _is_rule_mark(node):
                assert isinstance(node, ast.Call)
                place = f"{where}:{node.lineno}"
                rules = tuple(_literal(arg, place) for arg in node.args)
                if not rules:
                    raise RuleIndexError(f"{place}: rule marker names no rule")
                game = None
                for keyword in node.keywords:
                    if keyword.arg != "game":
                        raise RuleIndexError(f"{place}: rule marker takes only game=")
                    game = _literal(keyword.value, place)
                marks.append((game, rules))
    return marks


def _module_defaults(tree: ast.Module, where: str) -> tuple[str | None, list[ast.AST]]:
    game = None
    module_marks: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if "RULEBOOK" in names and node.value is not None:
                game = _literal(node.value, f"{where}:{node.lineno}")
            if "pytestmark" in names and node.value is not None:
                module_marks.append(node.value)
    return game, module_marks


def _tests_in(
    body: Sequence[ast.stmt], prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, list[ast.AST]]]:
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield prefix + node.name, node, list(node.decorator_list)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            class_marks: list[ast.AST] = list(node.decorator_list)
            for item in node.body:
                if isinstance(item, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in item.targets
                ):
                    class_marks.append(item.value)
            for name, func, marks in _tests_in(node.body, f"{prefix}{node.name}::"):
                yield name, func, class_marks + marks


def scan_file(path: Path, root: Path) -> list[TestRef]:
    """The rule-marked tests of one test file."""
    relative = path.relative_to(root).as_posix()
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except SyntaxError as exc:
        raise RuleIndexError(
            f"cannot read the test file {path}, line {exc.lineno}: {exc.msg}"
        ) from None
    except UnicodeDecodeError as exc:
        raise RuleIndexError(
            f"cannot read the test file {path}: not UTF-8 ({exc.reason})"
        ) from None
    default_game, module_marks = _module_defaults(tree, relative)
    refs = []
    for name, func, decorators in _tests_in(tree.body, f"{relative}::"):
        marks = _marks_in(module_marks + decorators, relative)
        for game, rules in marks:
            chosen = game or default_game
            if chosen is None:
                raise RuleIndexError(
                    f"{relative}:{func.lineno}: rule marker without game= in a module "
                    "that sets no RULEBOOK"
                )
            refs.append(TestRef(name, chosen, rules, relative, func.lineno))
    return refs


def scan_tests(directory: str | Path, root: str | Path | None = None) -> list[TestRef]:
    """Every rule-marked test under ``directory`` (node ids relative to ``root``)."""
    base = Path(directory).resolve()
    top = Path(root).resolve() if root is not None else base.parent
    refs: list[TestRef] = []
    for path in sorted(base.rglob("*.py")):
        if any(part.startswith(".") or part == "__pycache__" for part in path.parts):
            continue
        refs.extend(scan_file(path, top))
    return refs


# -- checking ---------------------------------------------------------------------


def check(book: RuleBook, tests: Iterable[TestRef] | None) -> TraceReport:
    """The traceability matrix of ``book`` against its registered code and ``tests``.

    ``tests=None`` means the tests are not available (an installed package without
    its test suite): rules are then checked against their code only, and a rule
    without a test is not reported as a gap.
    """
    known = tests is not None
    tests = tests if tests is not None else ()
    book.load_implementations()
    code = book.implementation_map()
    tested: dict[str, list[str]] = {}
    problems: list[str] = []
    for ref in tests:
        if ref.game != book.game:
            continue
        for rule_id in ref.rules:
            if rule_id not in book:
                problems.append(f"test {ref.nodeid} names rule {rule_id}, not in the index")
            tested.setdefault(rule_id, []).append(ref.nodeid)
    for rule_id, impls in code.items():
        if rule_id not in book:
            for impl in impls:
                problems.append(f"code {impl.name} names rule {rule_id}, not in the index")
    rows = []
    for entry in book:
        row = RuleRow(
            entry,
            tuple(dict.fromkeys(impl.name for impl in code.get(entry.id, ()))),
            tuple(dict.fromkeys(tested.get(entry.id, ()))),
            known,
        )
        problems.extend(row.problems)
        rows.append(row)
    return TraceReport(book.game, tuple(rows), tuple(problems), known)


def format_report(report: TraceReport, *, verbose: bool = True) -> str:
    """The matrix as text: one rule per line, then the problems and the summary."""
    lines = []
    if verbose:
        for row in report.rows:
            entry = row.entry
            status = entry.status.value
            lines.append(f"{entry.id:<10} {status:<13} {entry.title}")
            if entry.status is RuleStatus.NO_MECHANICS:
                lines.append(f"{'':<10}   why: {entry.reason}")
            lines.extend(f"{'':<10}   code: {name}" for name in row.code)
            lines.extend(f"{'':<10}   test: {name}" for name in row.tests)
    lines.extend(f"PROBLEM: {problem}" for problem in report.problems)
    lines.append(report.summary())
    return "\n".join(lines)
