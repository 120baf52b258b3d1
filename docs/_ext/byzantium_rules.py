"""Sphinx extension: rule traceability for byzantium's rule indices.

What it adds:

``.. rule-index:: GAME``
    the whole rule index of a game, in rulebook order, one block per rule: its
    number (a cross-reference target named ``GAME:RULE``), its short title and, when
    the index has one, its ``summary`` (what the rule says, in our words), its
    status, links to the code registered for it (its API entry and, with
    ``sphinx.ext.viewcode``, its highlighted source), to the source of each test
    tagged with it (a generated page per test file, ``_tests/...``, whose tests link
    back to their rules) and to its entries on the rulings pages (definition-list
    items whose term names the rule, on pages under ``byzantium_rulings_prefix``).

Also: one API page per module (``api/MODULE.rst``, written before reading when
``byzantium_api_package`` is set), a fix of viewcode's "[docs]" backlinks, and a
check of every internal link of the HTML build (a warning per broken link).
``.. default-rulebook:: GAME``
    the game that short references such as ``:rule:`10.6.5``` mean on this page.
``.. game-api:: GAME``
    API documentation (``automodule``) of every module of the game's package, so
    that every function registered for a rule has an entry to link to.
``:rule:`GAME:RULE``` / ``:rule:`RULE```
    a link to a rule's entry in the rule index; a rule that is not in the index
    is a warning, so ``sphinx-build -W`` fails on typos.

The tests are read once per build (``builder-inited``), as source, with
:func:`byzantium.core.trace.scan_tests`. Every inconsistency that
:func:`byzantium.core.trace.check` reports is a warning; ``pending`` rules are not.
Functions registered as implementing rules get an "Implements ..." line appended
to their docstring by autodoc, linking back to the rule entries; a registered
function that the API pages do not describe is a warning too. Every registered rule
book must be rendered by some ``rule-index``.

Configuration (``conf.py``): ``byzantium_tests_dir``, the test directory to scan,
relative to the configuration directory (default ``"../tests"``), and
``byzantium_extra_rulebooks``, modules to import so that more rule books register
themselves. Warnings are of type ``byzantium`` (subtypes ``trace``, ``api``,
``rulebook``, ``config``) or ``ref.rule`` for rule references that do not resolve.
"""

from __future__ import annotations

import importlib
import pkgutil
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html import escape as html_escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains import Domain
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from byzantium.core.errors import RuleIndexError
from byzantium.core.rules import (
    Implementation,
    RuleBook,
    RuleEntry,
    RuleStatus,
    get_rulebook,
    registered_rulebooks,
)
from byzantium.core.trace import RuleRow, TestRef, TraceReport, check, scan_tests

logger = logging.getLogger(__name__)

#: ``env.ref_context`` key holding the page's default game (cleared per document).
CONTEXT_KEY = "byzantium:rulebook"
#: Object type and role name in the std domain.
OBJTYPE = "rule"
#: Warning type: silence with ``suppress_warnings = ["byzantium"]`` (not recommended).
WARNING_TYPE = "byzantium"

# Attributes the extension puts on pending_xref nodes.
_GAME_ATTR = "byzantium_game"
_RULE_ATTR = "byzantium_rule"
_IMPLEMENTS_ATTR = "byzantium_implements"
_TARGET_ATTR = "byzantium_target"
_TEST_ATTR = "byzantium_test"


# -- per-build data --------------------------------------------------------------------


@dataclass
class TraceData:
    """What the extension collects once per build, in ``builder-inited``."""

    tests: list[TestRef]
    tests_dir: Path | None
    #: Dotted name of an implementing object -> (rule book, rule ids) it implements.
    implemented: dict[str, list[tuple[RuleBook, tuple[str, ...]]]]
    reports: dict[str, TraceReport] = field(default_factory=dict)

    def report(self, book: RuleBook) -> TraceReport:
        """The (cached) traceability check of one rule book."""
        if book.game not in self.reports:
            self.reports[book.game] = check(book, self.tests)
        return self.reports[book.game]


# Keyed by the build environment: ``env.app`` is deprecated, and the data must not
# be pickled with the environment (it holds the registered function objects).
_DATA: weakref.WeakKeyDictionary[BuildEnvironment, TraceData] = weakref.WeakKeyDictionary()


def _data(env: BuildEnvironment) -> TraceData:
    try:
        return _DATA[env]
    except KeyError:
        raise RuntimeError("byzantium_rules: builder-inited has not run") from None


def _rule_docs(env: BuildEnvironment) -> dict[str, set[str]]:
    """Docname -> games whose rule index it renders, for every page the extension
    generates content on (those are re-read on every build: their content depends on
    the registry and the tests, not on their source)."""
    docs: dict[str, set[str]] | None = getattr(env, "byzantium_rule_docs", None)
    if docs is None:
        docs = {}
        env.byzantium_rule_docs = docs  # type: ignore[attr-defined]
    return docs


def _anchor(game: str, rule_id: str) -> str:
    # "12.3#2" -> "rule-belisarius-12.3-2": "#" cannot appear in a URL fragment.
    return f"rule-{game}-{rule_id.replace('#', '-')}"


def _object_name(game: str, rule_id: str) -> str:
    return f"{game}:{rule_id}"


def _rulebook(game: str) -> RuleBook | None:
    try:
        return get_rulebook(game)
    except RuleIndexError:
        return None


def _known_games() -> str:
    return ", ".join(sorted(registered_rulebooks())) or "none"


def _rulebook_or_warn(
    directive: SphinxDirective, game: str, *, with_package: bool = False
) -> RuleBook | None:
    """The rule book a directive names, or ``None`` after a warning naming the known ones."""
    book = _rulebook(game)
    if book is not None and (book.package is not None or not with_package):
        return book
    what = "rule book %r with a package" if with_package else "rule book %r"
    logger.warning(
        f"{directive.name}: no {what} (known: %s)",
        game,
        _known_games(),
        location=directive.get_location(),
        type=WARNING_TYPE,
        subtype="rulebook",
    )
    return None


# -- builder-inited: collect the registry and the tests once -------------------------------


def collect(app: Sphinx) -> None:
    """Import the games and extra rule books, scan the tests, index the registry."""
    for module in app.config.byzantium_extra_rulebooks:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            logger.warning(
                "byzantium_extra_rulebooks: cannot import %r: %s",
                module,
                exc,
                type=WARNING_TYPE,
                subtype="config",
            )
    books = registered_rulebooks()
    implemented: dict[str, list[tuple[RuleBook, tuple[str, ...]]]] = {}
    for book in books.values():
        # Without this the registry is silently empty: the decorators run on import.
        book.load_implementations()
        for impl in book.all_implementations():
            implemented.setdefault(impl.name, []).append((book, impl.rules))

    tests: list[TestRef] = []
    configured = app.config.byzantium_tests_dir
    tests_dir = (Path(app.confdir) / configured).resolve() if configured else None
    if tests_dir is not None and tests_dir.is_dir():
        try:
            tests = scan_tests(tests_dir)
        except (RuleIndexError, SyntaxError) as exc:
            logger.warning(
                "cannot read the rule markers of the tests in %s: %s",
                tests_dir,
                exc,
                type=WARNING_TYPE,
                subtype="trace",
            )
        # Tests of rule books that are not registered here (the test-only game of the
        # test suite, say) are not an error: they simply trace nothing in these pages.
        others = sorted({ref.game for ref in tests} - set(books))
        if others:
            logger.info("byzantium_rules: tests also tag rule books %s", ", ".join(others))
    elif tests_dir is not None:
        logger.info("byzantium_rules: no test directory %s; no rule is tested", tests_dir)
    _DATA[app.env] = TraceData(tests, tests_dir, implemented)


# -- the :rule: role ------------------------------------------------------------------------


class RuleRole(XRefRole):
    """``:rule:`game:10.6.5``` or, with a ``default-rulebook`` set, ``:rule:`10.6.5```."""

    def process_link(
        self,
        env: BuildEnvironment,
        refnode: nodes.Element,
        has_explicit_title: bool,
        title: str,
        target: str,
    ) -> tuple[str, str]:
        target = "".join(target.split())
        game, sep, rule_id = target.rpartition(":")  # rule ids never contain ":"
        if not sep:
            game = env.ref_context.get(CONTEXT_KEY, "")
        refnode[_GAME_ATTR] = game
        refnode[_RULE_ATTR] = rule_id
        if not has_explicit_title:
            title = rule_id
        return title, _object_name(game, rule_id) if game else rule_id

    def result_nodes(
        self,
        document: nodes.document,
        env: BuildEnvironment,
        node: nodes.Element,
        is_ref: bool,
    ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        if is_ref and node.children:
            # Remembered on the link text, which survives resolution: see add_tooltips.
            node[0][_TARGET_ATTR] = (node[_GAME_ATTR], node[_RULE_ATTR])
        return [node], []


def warn_missing(app: Sphinx, domain: Domain | None, node: addnodes.pending_xref) -> bool | None:
    """Say precisely why a rule reference or an implementation link does not resolve."""
    if _IMPLEMENTS_ATTR in node:
        logger.warning(
            "%s implements rule %s, but the API documentation does not describe it "
            "(make it public and document its module, e.g. with .. game-api::)",
            node["reftarget"],
            node[_IMPLEMENTS_ATTR],
            location=node,
            type=WARNING_TYPE,
            subtype="api",
        )
        return True
    if node.get("refdomain") != "std" or node.get("reftype") != OBJTYPE:
        return None
    game, rule_id = node.get(_GAME_ATTR, ""), node.get(_RULE_ATTR, node["reftarget"])
    book = _rulebook(game) if game else None
    if not game:
        message = (
            f"rule reference {rule_id!r} names no rule book: write :rule:`GAME:{rule_id}` "
            "or set '.. default-rulebook:: GAME' earlier on the page"
        )
    elif book is None:
        message = (
            f"rule reference {game}:{rule_id}: no rule book {game!r} (known: {_known_games()})"
        )
    elif rule_id not in book:
        message = f"dangling rule reference: {book.title} has no rule {rule_id!r} in its index"
    else:
        message = (
            f"rule reference {game}:{rule_id}: no page renders its rule index "
            f"(add '.. rule-index:: {game}')"
        )
    logger.warning(message, location=node, type="ref", subtype=OBJTYPE)
    return True


def add_tooltips(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give every resolved rule link a tooltip with the rule's title."""
    for inline in doctree.findall(nodes.inline):
        target = inline.get(_TARGET_ATTR)
        parent = inline.parent
        if not target or not isinstance(parent, nodes.reference):
            continue
        book = _rulebook(target[0])
        if book is not None and target[1] in book:
            parent["reftitle"] = f"{book.title} rule {target[1]}: {book[target[1]].title}"


# -- directives -----------------------------------------------------------------------------


class DefaultRulebook(SphinxDirective):
    """``.. default-rulebook:: GAME``: the game of short ``:rule:`` references below."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        game = self.arguments[0].strip()
        _rulebook_or_warn(self, game)
        self.env.ref_context[CONTEXT_KEY] = game
        return []


class RuleIndex(SphinxDirective):
    """``.. rule-index:: GAME``: render a game's whole rule index with its trace."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        game = self.arguments[0].strip()
        book = _rulebook_or_warn(self, game)
        if book is None:
            return []
        _rule_docs(self.env).setdefault(self.env.docname, set()).add(game)
        data = _data(self.env)
        report = data.report(book)
        for problem in report.problems:
            logger.warning(
                "%s: %s",
                game,
                problem,
                location=self.get_location(),
                type=WARNING_TYPE,
                subtype="trace",
            )
        result: list[nodes.Node] = [self._summary(book, report, data)]
        if report.problems:
            admonition = nodes.warning()
            listing = nodes.bullet_list()
            for problem in report.problems:
                listing += nodes.list_item("", nodes.paragraph(text=problem))
            admonition += listing
            result.append(admonition)
        result.extend(self._blocks(book, report))
        return result

    def _summary(self, book: RuleBook, report: TraceReport, data: TraceData) -> nodes.Node:
        counts = ", ".join(
            f"{report.count(status)} {status.value}"
            for status in (RuleStatus.MECHANICS, RuleStatus.NO_MECHANICS, RuleStatus.PENDING)
        )
        tests = sum(1 for ref in data.tests if ref.game == book.game)
        text = (
            f"{book.title}: {len(report.rows)} rules ({counts}); "
            f"{len(book.all_implementations())} registered implementations; "
            f"{tests} tagged tests; {len(report.problems)} inconsistencies."
        )
        return nodes.paragraph(text=text, classes=["rule-index-summary"])

    def _blocks(self, book: RuleBook, report: TraceReport) -> list[nodes.Node]:
        """One block per rule (not a wide table, so that everything fits the page)."""
        impls = {impl.name: impl for impl in book.all_implementations()}
        tests = {ref.nodeid: ref for ref in _data(self.env).tests if ref.game == book.game}
        return [self._rule_block(book, row, impls, tests) for row in report.rows]

    def _rule_block(
        self,
        book: RuleBook,
        row: RuleRow,
        impls: dict[str, Implementation],
        tests: dict[str, TestRef],
    ) -> nodes.container:
        entry = row.entry
        anchor = _anchor(book.game, entry.id)
        name = _object_name(book.game, entry.id)
        block = nodes.container(classes=["rule-entry", _status_class(entry)])
        block["ids"].append(anchor)
        self.state.document.note_explicit_target(block)
        std = self.env.domains.standard_domain
        std.note_object(OBJTYPE, name, anchor, location=(self.env.docname, self.lineno))

        head = nodes.paragraph(classes=["rule-head"])
        head += addnodes.index(
            entries=[("single", f"{book.title}; rule {entry.id}", anchor, "", None)]
        )
        head += nodes.reference(
            "", "", nodes.strong(text=entry.id), refid=anchor, classes=["rule-number"]
        )
        head += nodes.Text(" ")
        head += nodes.strong(text=entry.title, classes=["rule-title"])
        head += nodes.Text(" ")
        head += nodes.inline(text=entry.status.value, classes=["rule-status"])
        block += head
        # ``summary``: what the rule says, in our own words (optional in rules.toml).
        summary = getattr(entry, "summary", "")
        if summary:
            block += nodes.paragraph(text=summary, classes=["rule-summary"])
        if entry.status is RuleStatus.NO_MECHANICS:
            block += nodes.paragraph(
                "", "", nodes.emphasis(text=f"No mechanics: {entry.reason}"), classes=["rule-why"]
            )
        links = nodes.field_list(classes=["rule-links"])
        if row.code:
            code = [self._code_link(book, entry, t, impls.get(t)) for t in row.code]
            links += _field("Code", code)
        if row.tests:
            links += _field("Tests", [_test_link(tests.get(t), t) for t in row.tests])
        links += rulings_placeholder("", game=book.game, rule=entry.id)
        block += links
        return block

    def _code_link(
        self, book: RuleBook, entry: RuleEntry, target: str, impl: Implementation | None
    ) -> nodes.paragraph:
        text = nodes.literal(text=target, classes=["xref", "py", "py-obj"])
        if "<locals>" in target:  # a nested function has no API entry to link to
            return nodes.paragraph("", "", text)
        xref = addnodes.pending_xref(
            "",
            text,
            refdomain="py",
            reftype="obj",
            reftarget=target,
            refexplicit=False,
            refwarn=True,
            refdoc=self.env.docname,
        )
        xref[_IMPLEMENTS_ATTR] = _object_name(book.game, entry.id)
        xref["py:module"] = None
        xref["py:class"] = None
        self.set_source_info(xref)
        paragraph = nodes.paragraph("", "", xref)
        if impl is not None and "sphinx.ext.viewcode" in self.env.config.extensions:
            paragraph += nodes.Text(" ")
            paragraph += _source_link(impl, self.env.docname)
        return paragraph


def _source_link(impl: Implementation, docname: str) -> nodes.Node:
    """A "[source]" link to the highlighted source of an implementation.

    It is the node ``sphinx.ext.viewcode`` puts on API entries: HTML builders turn it
    into a link to the module's source page (at the function's definition), the
    other builders drop it. The API entry of the function (which every registered
    function must have, see :func:`warn_missing`) is what makes viewcode generate
    that page and anchor.
    """
    from sphinx.ext.viewcode import OUTPUT_DIRNAME, viewcode_anchor

    page = f"{OUTPUT_DIRNAME}/{impl.module.replace('.', '/')}"
    return viewcode_anchor(reftarget=page, refid=impl.qualname, refdoc=docname)


def _field(label: str, content: list[nodes.Node]) -> nodes.field:
    body = nodes.field_body()
    body.extend(content)
    return nodes.field("", nodes.field_name(text=label), body)


#: Folder of the generated test source pages in the HTML output.
TESTS_OUTPUT = "_tests"


def _test_page(path: str) -> str:
    """The page name of a test file's source page: ``_tests/tests/test_x``."""
    return f"{TESTS_OUTPUT}/{path.removesuffix('.py')}"


def _test_anchor(nodeid: str) -> str:
    """``tests/test_x.py::TestA::test_b`` -> ``TestA.test_b``."""
    return nodeid.split("::", 1)[-1].replace("::", ".")


def _test_link(ref: TestRef | None, nodeid: str) -> nodes.Node:
    """A link to a test's source on its test page (resolved in :func:`resolve_links`)."""
    text = nodes.literal(text=nodeid)
    if ref is None:
        return nodes.paragraph("", "", text)
    link = nodes.reference("", "", text, refuri="#", internal=True, classes=["test-link"])
    link[_TEST_ATTR] = (_test_page(ref.path), _test_anchor(nodeid))
    return nodes.paragraph("", "", link)


class rulings_placeholder(nodes.General, nodes.Element):
    """Where the rulings of a rule are listed once every page has been read."""


def _skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def _status_class(entry: RuleEntry) -> str:
    return "rule-status-" + entry.status.name.lower().replace("_", "-")


def _row(cells: Iterable[Iterable[nodes.Node]]) -> nodes.row:
    row = nodes.row()
    for content in cells:
        cell = nodes.entry()
        cell.extend(content)
        row += cell
    return row


class GameApi(SphinxDirective):
    """``.. game-api:: GAME``: ``automodule`` for every module of a game's package.

    Within the generated documentation, short ``:rule:`` references mean the game's
    rules. Each module gets a section titled with its name.
    """

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        game = self.arguments[0].strip()
        book = _rulebook_or_warn(self, game, with_package=True)
        if book is None or book.package is None:
            return []
        _rule_docs(self.env).setdefault(self.env.docname, set())
        lines: list[str] = []
        for module in _package_modules(book.package):
            if module != book.package:
                lines += [f"``{module}``", "~" * (len(module) + 4), ""]
            lines += [
                f".. automodule:: {module}",
                "   :members:",
                "   :undoc-members:",
                "   :ignore-module-all:",
                "",
            ]
        context = self.env.ref_context
        previous = context.get(CONTEXT_KEY)
        context[CONTEXT_KEY] = game
        try:
            return self.parse_text_to_nodes("\n".join(lines), allow_section_headings=True)
        finally:
            if previous is None:
                context.pop(CONTEXT_KEY, None)
            else:
                context[CONTEXT_KEY] = previous


def _package_modules(package: str) -> list[str]:
    root = importlib.import_module(package)
    paths = getattr(root, "__path__", None)
    names = [package]
    if paths is not None:
        names += sorted(info.name for info in pkgutil.walk_packages(paths, prefix=package + "."))
    return names


# -- autodoc backlinks ----------------------------------------------------------------------


def add_backlinks(  # noqa: PLR0917 (signature fixed by Sphinx)
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Append "Implements ..." to the docstring of every registered implementation."""
    data = _DATA.get(app.env)
    if data is None or name not in data.implemented:
        return
    _rule_docs(app.env).setdefault(app.env.docname, set())
    if lines and lines[-1].strip():
        lines.append("")
    for book, rule_ids in data.implemented[name]:
        # A rule missing from the index is already reported by the trace: no link.
        refs = ", ".join(
            f":rule:`{_object_name(book.game, rule_id)}`" if rule_id in book else f"``{rule_id}``"
            for rule_id in rule_ids
        )
        noun = "rule" if len(rule_ids) == 1 else "rules"
        lines.append(f"Implements {book.title} {noun} {refs}.")
        lines.append("")


class ComponentData(SphinxDirective):
    """``.. component-data:: GAME PROVENANCE``: a table of a game's component data of one
    provenance (``peer transcription`` or ``provisional``), with references.

    Data come from ``Game.data_provenance()`` of the game with default options.
    """

    required_arguments = 2
    final_argument_whitespace = True
    has_content = False

    def run(self) -> list[nodes.Node]:
        from byzantium.core.registry import load_game

        game_id, provenance = self.arguments[0].strip(), self.arguments[1].strip()
        _rule_docs(self.env).setdefault(self.env.docname, set())
        data = [d for d in load_game(game_id).data_provenance() if d.provenance == provenance]
        summary = nodes.paragraph(text=f"{len(data)} data of {game_id} are {provenance}.")
        if not data:
            return [summary]
        table = nodes.table(classes=["component-data"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (3, 2, 6):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head += _row([[nodes.Text(h)] for h in ("Record", "Field", "Reference")])
        group += head
        body = nodes.tbody()
        for datum in data:
            cells = (datum.record, datum.field, datum.reference or "-")
            body += _row([[nodes.Text(cell)] for cell in cells])
        group += body
        return [summary, table]


# -- environment bookkeeping ------------------------------------------------------------------


def reread_generated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages with generated content depend on code and tests, not only on their source."""
    return [doc for doc in _rule_docs(env) if doc not in removed]


def purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _rule_docs(env).pop(docname, None)


def merge_info(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    mine = _rule_docs(env)
    for doc, games in _rule_docs(other).items():
        mine.setdefault(doc, set()).update(games)


def check_coverage(app: Sphinx, env: BuildEnvironment) -> None:
    """Every registered rule book must have its index rendered somewhere."""
    rendered = set().union(*_rule_docs(env).values())
    for game in sorted(set(registered_rulebooks()) - rendered):
        logger.warning(
            "rule book %r is registered but no page renders it (add '.. rule-index:: %s')",
            game,
            game,
            type=WARNING_TYPE,
            subtype="rulebook",
        )


class JsonSchema(SphinxDirective):
    """``.. json-schema:: GAME KIND``: the JSON Schema of one kind of a game's JSON
    (record, action, state, observation, state-file), as a literal block."""

    required_arguments = 2
    has_content = False

    def run(self) -> list[nodes.Node]:
        import json

        from byzantium.core.registry import load_game
        from byzantium.core.schema import game_schemas

        game_id, kind = self.arguments[0].strip(), self.arguments[1].strip()
        schemas = game_schemas(load_game(game_id))
        if kind not in schemas:
            raise self.error(f"no schema kind {kind!r}; kinds: {', '.join(sorted(schemas))}")
        text = json.dumps(schemas[kind], indent=2, sort_keys=True)
        block = nodes.literal_block(text, text, language="json")
        return [block]


def write_schema_files(app: Sphinx, exception: Exception | None) -> None:
    """Publish every built-in game's schemas as files beside the HTML pages:
    ``_schemas/GAME/KIND.json``."""
    if exception is not None or app.builder.format != "html":
        return
    import json
    from pathlib import Path

    from byzantium.core.registry import load_game
    from byzantium.core.schema import game_schemas

    for game_id in ("sword-of-orthodoxy", "belisarius"):
        folder = Path(app.outdir) / "_schemas" / game_id
        folder.mkdir(parents=True, exist_ok=True)
        for kind, schema in game_schemas(load_game(game_id)).items():
            (folder / f"{kind}.json").write_text(
                json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8"
            )


# -- rulings: entries found on the rulings pages, listed under their rules ----------------


def _rulings(env: BuildEnvironment) -> dict[str, list[tuple[str, str, str, str]]]:
    """Docname -> its ruling entries as ``(game, rule, anchor, title)``."""
    found: dict[str, list[tuple[str, str, str, str]]] | None = getattr(
        env, "byzantium_rulings", None
    )
    if found is None:
        found = {}
        env.byzantium_rulings = found  # type: ignore[attr-defined]
    return found


def collect_rulings(app: Sphinx, doctree: nodes.document) -> None:
    """On a rulings page, every entry (a definition-list item whose term names rules
    with ``:rule:``) gets an anchor and is remembered under each rule it names."""
    docname = app.env.docname
    if not docname.startswith(app.config.byzantium_rulings_prefix):
        return
    entries: list[tuple[str, str, str, str]] = []
    taken: set[str] = set()
    for item in doctree.findall(nodes.definition_list_item):
        term = next(iter(item.findall(nodes.term)), None)
        if term is None:
            continue
        refs = [
            (xref.get(_GAME_ATTR, ""), xref.get(_RULE_ATTR, ""))
            for xref in term.findall(addnodes.pending_xref)
            if xref.get(_RULE_ATTR)
        ]
        refs = [(game, rule) for game, rule in refs if game]
        if not refs:
            continue
        if term["ids"]:
            anchor = term["ids"][0]
        else:
            base = nodes.make_id(f"ruling-{refs[0][0]}-{refs[0][1].replace('#', '-')}")
            anchor, count = base, 1
            while anchor in taken or anchor in doctree.ids:
                count += 1
                anchor = f"{base}-{count}"
            term["ids"].append(anchor)
            doctree.ids[anchor] = term
        taken.add(anchor)
        title = term.astext()
        entries.extend((game, rule, anchor, title) for game, rule in dict.fromkeys(refs))
    if entries:
        _rulings(app.env)[docname] = entries


def resolve_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Fill in the rulings of each rule and the links to the test pages."""
    html = app.builder.format == "html"
    by_rule: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for doc, entries in sorted(_rulings(app.env).items()):
        for game, rule, anchor, title in entries:
            by_rule.setdefault((game, rule), []).append((doc, anchor, title))
    for holder in list(doctree.findall(rulings_placeholder)):
        found = by_rule.get((holder["game"], holder["rule"]), [])
        if not found:
            holder.parent.remove(holder)
            continue
        items: list[nodes.Node] = []
        for doc, anchor, title in found:
            uri = app.builder.get_relative_uri(docname, doc) + "#" + anchor
            items.append(
                nodes.paragraph("", "", nodes.reference("", title, refuri=uri, internal=True))
            )
        holder.replace_self(_field("Rulings", items))
    for link in list(doctree.findall(nodes.reference)):
        target = link.get(_TEST_ATTR)
        if not target:
            continue
        if not html:
            link.replace_self(link.children)
            continue
        page, anchor = target
        link["refuri"] = app.builder.get_relative_uri(docname, page) + "#" + anchor


def purge_rulings(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _rulings(env).pop(docname, None)


def merge_rulings(
    app: Sphinx, env: BuildEnvironment, docnames: Iterable[str], other: BuildEnvironment
) -> None:
    _rulings(env).update(_rulings(other))


# -- test source pages ------------------------------------------------------------------------


def _rule_uri(app: Sphinx, page: str, game: str, rule: str) -> str | None:
    found = app.env.domains.standard_domain.objects.get((OBJTYPE, _object_name(game, rule)))
    if found is None:
        return None
    docname, anchor = found
    return app.builder.get_relative_uri(page, docname) + "#" + anchor


def test_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """A highlighted source page per test file with rule-marked tests, with an anchor
    at each test and links from each test back to its rules."""
    data = _DATA.get(app.env)
    if data is None or data.tests_dir is None or app.builder.format != "html":
        return
    root = data.tests_dir.parent
    files: dict[str, list[TestRef]] = {}
    for ref in data.tests:
        files.setdefault(ref.path, []).append(ref)
    highlighter = app.builder.highlighter  # type: ignore[attr-defined]
    for path, refs in sorted(files.items()):
        page = _test_page(path)
        code = (root / path).read_text(encoding="utf-8")
        lines = highlighter.highlight_block(code, "python", linenos=False).splitlines()
        before, after = lines[0].split("<pre>", 1)
        lines[0:1] = [before + "<pre>", after]
        listing = []
        tests: dict[str, list[TestRef]] = {}
        for ref in refs:
            tests.setdefault(ref.nodeid, []).append(ref)
        for nodeid, marks in tests.items():
            anchor = _test_anchor(nodeid)
            rules = []
            for ref in marks:
                for rule in ref.rules:
                    uri = _rule_uri(app, page, ref.game, rule)
                    label = html_escape(rule)
                    rules.append(f'<a href="{html_escape(uri)}">{label}</a>' if uri else label)
            links = ", ".join(rules)
            line = marks[0].line
            if 0 < line < len(lines):
                lines[line] = (
                    f'<span id="{html_escape(anchor)}"></span>{lines[line]}'
                    f'  <span class="test-rules">[rules {links}]</span>'
                )
            name = html_escape(nodeid.split("::", 1)[-1])
            listing.append(
                f'<li><a href="#{html_escape(anchor)}"><code>{name}</code></a> '
                f"(line {line}): rules {links}</li>"
            )
        body = (
            f"<h1>Tests: <code>{html_escape(path)}</code></h1>\n"
            "<p>The rule-tagged tests of this file, each with the rules it checks; "
            "the source follows.</p>\n"
            f'<ul class="test-index">{"".join(listing)}</ul>\n'
            '<div class="test-source">' + "\n".join(lines) + "</div>"
        )
        yield page, {"title": path, "body": body}, "page.html"


# -- viewcode: links from the source pages back to the API entries ------------------------


def fix_viewcode_backlinks(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Point each "[docs]" link of a viewcode source page at the entry that documents
    that very object, or drop it; drop modules without a source page from the index.

    ``sphinx.ext.viewcode`` names the anchor after the first module whose entries
    led to the file, so an object re-exported by another module got a link to an
    entry that does not exist. Runs before viewcode writes its pages.
    """
    modules = getattr(app.env, "_viewcode_modules", None)
    if not modules:
        return iter(())
    py_objects = app.env.domains.python_domain.objects
    for modname, entry in list(modules.items()):
        if not entry:
            del modules[modname]
            continue
        code, tags, used, _refname = entry
        kept = {}
        for name in used:
            found = py_objects.get(f"{modname}.{name}")
            if found is not None:
                kept[name] = found.docname
        modules[modname] = (code, tags, kept, modname)
    return iter(())


# -- the check of internal links over the built HTML -------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        if tag == "a" and values.get("href") is not None:
            self.hrefs.append(values["href"] or "")


def broken_internal_links(outdir: Path) -> list[tuple[str, str, str]]:
    """Every relative link of the HTML pages under ``outdir`` to a missing file or a
    missing anchor, as ``(page, href, what is wrong)``."""
    pages: dict[Path, _Links] = {}
    for path in sorted(outdir.rglob("*.html")):
        parser = _Links()
        parser.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = parser
    broken = []
    for path, parser in pages.items():
        for href in parser.hrefs:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            page = path.relative_to(outdir.resolve()).as_posix()
            if not target.exists():
                broken.append((page, href, "no such file"))
            elif (
                parts.fragment
                and target in pages
                and unquote(parts.fragment) not in pages[target].ids
            ):
                broken.append((page, href, "no such anchor"))
    return broken


def check_links(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build, warn about every broken internal link (``-W`` fails on it)."""
    if (
        exception is not None
        or app.builder.format != "html"
        or not app.config.byzantium_check_links
    ):
        return
    broken = broken_internal_links(Path(app.outdir))
    for page, href, what in broken:
        logger.warning(
            "broken internal link in %s: %s (%s)",
            page,
            href,
            what,
            type=WARNING_TYPE,
            subtype="links",
        )
    logger.info("byzantium_rules: %d broken internal links", len(broken))


# -- one API page per module ---------------------------------------------------------------------


def write_api_pages(app: Sphinx) -> None:
    """Write ``api/MODULE.rst``, one page per module of the package (before reading).

    Modules of a game package set their game as the default rule book (short
    ``:rule:`` references in their docstrings) and document undocumented members
    too, so that every registered function has an entry. Extra autodoc options per
    module come from ``byzantium_api_options``; ``byzantium_api_skip`` lists modules
    documented elsewhere. A page is rewritten only when its text changes.
    """
    package = app.config.byzantium_api_package
    if not package:
        return
    folder = Path(app.srcdir) / "api"
    folder.mkdir(exist_ok=True)
    games = {book.package: book.game for book in registered_rulebooks().values() if book.package}
    skip = set(app.config.byzantium_api_skip)
    wanted = set()
    for module in _package_modules(package):
        if module in skip:
            continue
        game = next(
            (g for pkg, g in games.items() if module == pkg or module.startswith(pkg + ".")),
            None,
        )
        options = list(app.config.byzantium_api_options.get(module, [":members:"]))
        if game is not None and module not in app.config.byzantium_api_options:
            options = [":members:", ":undoc-members:", ":ignore-module-all:"]
        title = f"``{module}``"
        lines = [title, "=" * len(title), ""]
        if game is not None:
            lines += [f".. default-rulebook:: {game}", ""]
        lines += [f".. automodule:: {module}", *(f"   {o}" for o in options), ""]
        text = "\n".join(lines)
        path = folder / f"{module}.rst"
        wanted.add(path.name)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    for stale in folder.glob("*.rst"):
        if stale.name not in wanted:
            stale.unlink()


def setup(app: Sphinx) -> ExtensionMetadata:
    app.setup_extension("sphinx.ext.autodoc")  # for autodoc-process-docstring
    app.add_config_value("byzantium_extra_rulebooks", [], "env", types=frozenset({list, tuple}))
    app.add_config_value("byzantium_tests_dir", "../tests", "env", types=frozenset({str}))

    app.add_object_type(OBJTYPE, OBJTYPE, indextemplate="pair: %s; rule", objname="rule")
    app.add_role_to_domain(
        "std", OBJTYPE, RuleRole(innernodeclass=nodes.inline, warn_dangling=True), override=True
    )
    app.add_directive("default-rulebook", DefaultRulebook)
    app.add_directive("rule-index", RuleIndex)
    app.add_directive("game-api", GameApi)
    app.add_directive("component-data", ComponentData)
    app.add_directive("json-schema", JsonSchema)
    app.connect("build-finished", write_schema_files)

    app.add_config_value("byzantium_rulings_prefix", "rulings/", "env", types=frozenset({str}))
    app.add_config_value("byzantium_check_links", True, "", types=frozenset({bool}))
    app.add_config_value("byzantium_api_package", "", "env", types=frozenset({str}))
    app.add_config_value("byzantium_api_options", {}, "env", types=frozenset({dict}))
    app.add_config_value("byzantium_api_skip", [], "env", types=frozenset({list, tuple}))
    app.add_node(
        rulings_placeholder,
        html=(_skip, None),
        latex=(_skip, None),
        text=(_skip, None),
        man=(_skip, None),
        texinfo=(_skip, None),
    )
    app.connect("builder-inited", collect)
    app.connect("builder-inited", write_api_pages)
    app.connect("doctree-read", collect_rulings)
    app.connect("doctree-resolved", resolve_links)
    app.connect("env-purge-doc", purge_rulings)
    app.connect("env-merge-info", merge_rulings)
    app.connect("html-collect-pages", fix_viewcode_backlinks, priority=100)
    app.connect("html-collect-pages", test_pages)
    app.connect("build-finished", check_links, priority=900)
    app.connect("autodoc-process-docstring", add_backlinks)
    app.connect("warn-missing-reference", warn_missing)
    app.connect("doctree-resolved", add_tooltips)
    app.connect("env-get-outdated", reread_generated)
    app.connect("env-purge-doc", purge_doc)
    app.connect("env-merge-info", merge_info)
    app.connect("env-check-consistency", check_coverage)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
