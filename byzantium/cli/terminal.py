"""Terminal helpers of interactive play: menus that page and filter, safe numbers, colour.

A :class:`Menu` holds the numbered texts of one decision. Short menus are shown
whole; long ones a page at a time (``n`` and ``p`` turn the pages, ``all`` shows
every item) and ``/text`` keeps only the items whose text contains ``text`` (``/``
alone shows them all again). Items keep their numbers whatever is shown, so a
number typed always means the same action.

:func:`colour_wanted` says whether to colour the output: ``--color always`` or
``never``, or with ``auto`` only on a terminal (standard output a tty, ``TERM`` set
and not ``dumb``) and not when ``NO_COLOR`` is set to anything (no-color.org).
:func:`write_styled` writes one piece of text in a :data:`STYLES` style.

:func:`menu_number` reads a number typed by a person without ever failing: ``²``,
``-3`` or a 5,000-digit number are simply not numbers of the menu.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

__all__ = [
    "COLOR_CHOICES",
    "PAGE_SIZE",
    "STYLES",
    "Menu",
    "colour_wanted",
    "menu_number",
    "normal",
    "write_styled",
]

#: The values of ``--color``.
COLOR_CHOICES = ("auto", "always", "never")
#: Select Graphic Rendition parameters of each kind of text a session colours.
STYLES: Mapping[str, str] = {
    "heading": "1",  # bold
    "status": "36",  # cyan
    "question": "1;33",  # bold yellow
    "caution": "31",  # red
    "note": "2",  # faint
}

#: Items shown on one page of a long menu.
PAGE_SIZE = 20
#: A menu at most this long is shown whole, without pages.
_WHOLE = 24
#: Lists longer than this are laid out in columns when their items are short.
_LONG_LIST = 12
#: Items at most this long go in columns, four to a line.
_SHORT_ITEM = 28
_PER_LINE = 4
#: More digits than this cannot be the number of a menu item.
_MAX_DIGITS = 6


def normal(text: str) -> str:
    """Lower case, commas as spaces, single spaces: how typed text is compared."""
    return " ".join(text.lower().replace(",", " ").split())


def menu_number(line: str, size: int) -> int | None:
    """The 1-based item number ``line`` names in a menu of ``size`` items, or None.

    >>> menu_number("3", 5), menu_number(" 3 ", 5), menu_number("0", 5)
    (3, 3, None)
    >>> menu_number("²", 5), menu_number("9" * 5000, 5), menu_number("-1", 5)
    (None, None, None)
    """
    text = line.strip()
    if not text or len(text) > _MAX_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if 1 <= number <= size else None


#: Writes a piece of text in a style of :data:`STYLES`.
Painter = Callable[[str, str], None]


def write_numbered(
    out: TextIO,
    cells: Sequence[str],
    marked: Sequence[bool] = (),
    paint: Painter | None = None,
) -> None:
    """Numbered items, one a line, or in columns when there are many short ones; with
    ``paint``, the items ``marked`` says are written in the ``caution`` style."""
    width = max((len(c) for c in cells), default=0)
    per_line = _PER_LINE if len(cells) > _LONG_LIST and width <= _SHORT_ITEM else 1
    for start in range(0, len(cells), per_line):
        row = cells[start : start + per_line]
        flags = [start + i < len(marked) and marked[start + i] for i in range(len(row))]
        if paint is None or not any(flags):
            out.write("  " + "  ".join(c.ljust(width) for c in row).rstrip() + "\n")
            continue
        out.write("  ")
        for i, (cell, flag) in enumerate(zip(row, flags, strict=True)):
            text = cell if i == len(row) - 1 else cell.ljust(width) + "  "
            if flag:
                paint(text.rstrip(), "caution")
                out.write(text[len(text.rstrip()) :])
            else:
                out.write(text)
        out.write("\n")


class Menu:
    """The numbered items of one decision, shown whole, by pages or filtered."""

    def __init__(
        self, texts: Sequence[str], page_size: int = PAGE_SIZE, cautioned: Sequence[bool] = ()
    ) -> None:
        self.texts = tuple(texts)
        #: Per item, whether the game cautions against it (shown in the caution style).
        self.cautioned = tuple(cautioned)
        self.page_size = page_size
        self.page = 0
        self.search = ""
        self.whole = len(self.texts) <= max(_WHOLE, page_size)

    def _chosen(self) -> list[int]:
        """The indexes the current search keeps."""
        wanted = normal(self.search)
        return [i for i, t in enumerate(self.texts) if wanted in normal(t)]

    def _pages(self, count: int) -> int:
        return max(1, -(-count // self.page_size))

    def show(self, out: TextIO, paint: Painter | None = None) -> None:
        """Write what the menu shows now: its items (a page, or the matches) and a
        line saying how to see the rest; ``paint`` colours the cautioned items."""
        chosen = self._chosen()
        if self.search and not chosen:
            out.write(f"  Nothing matches '{self.search}'; type '/' to list every item.\n")
            return
        paged = not self.whole and len(chosen) > self.page_size
        pages = self._pages(len(chosen)) if paged else 1
        self.page = min(self.page, pages - 1)
        shown = chosen[self.page * self.page_size :][: self.page_size] if paged else chosen
        marked = [i < len(self.cautioned) and self.cautioned[i] for i in shown]
        write_numbered(out, [f"{i + 1:>3}. {self.texts[i]}" for i in shown], marked, paint)
        notes = []
        if self.search:
            notes.append(f"{len(chosen)} of {len(self.texts)} match '{self.search}'; '/' clears")
        if paged:
            notes.append(
                f"page {self.page + 1} of {pages}: 'n' next, 'p' previous, 'all' every item"
            )
        if not self.whole and not self.search:
            notes.append("'/TEXT' keeps the items that contain TEXT")
        if notes:
            out.write(f"  ({'; '.join(notes)})\n")

    def command(self, line: str) -> bool:
        """Turn a page or filter for a menu command (``n``, ``p``, ``all``, ``/text``);
        False when ``line`` is not one."""
        word = line.strip()
        lowered = word.lower()
        if word.startswith("/"):
            self.search = word[1:].strip()
            self.page = 0
        elif lowered in ("n", "next") and not self.whole:
            self.page += 1
        elif lowered in ("p", "prev", "previous") and not self.whole:
            self.page = max(0, self.page - 1)
        elif lowered in ("all", "menu", "list"):
            self.search = ""
            self.page = 0
            self.whole = lowered == "all" or len(self.texts) <= max(_WHOLE, self.page_size)
        else:
            return False
        return True


def colour_wanted(choice: str, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to colour what goes to ``stream`` for ``--color choice``: always, never,
    or (``auto``) when ``stream`` is a terminal, ``TERM`` names one that is not
    ``dumb`` and ``NO_COLOR`` is unset or empty."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR", "") or environ.get("TERM", "dumb") in ("", "dumb"):
        return False
    target = getattr(stream, "target", stream)  # SafeOutput: the stream it guards
    try:
        return bool(target.isatty())
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False


def write_styled(out: TextIO, text: str, style: str, colour: bool) -> None:
    """Write ``text`` in the :data:`STYLES` style ``style`` when ``colour`` is on, else
    as it is. A guarded stream (:class:`~byzantium.cli.common.SafeOutput`) still
    escapes the text itself; only the colour codes pass."""
    if not colour or not text:
        out.write(text)
        return
    sgr = STYLES[style]
    styled = getattr(out, "write_styled", None)
    for number, line in enumerate(text.split("\n")):  # the codes never span lines
        if number:
            out.write("\n")
        if not line:
            continue
        if callable(styled):
            styled(line, sgr)
        else:
            out.write(f"\x1b[{sgr}m{line}\x1b[0m")
