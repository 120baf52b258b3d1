"""Terminal helpers of interactive play: menus that page and filter, and safe numbers.

A :class:`Menu` holds the numbered texts of one decision. Short menus are shown
whole; long ones a page at a time (``n`` and ``p`` turn the pages, ``all`` shows
every item) and ``/text`` keeps only the items whose text contains ``text`` (``/``
alone shows them all again). Items keep their numbers whatever is shown, so a
number typed always means the same action.

:func:`menu_number` reads a number typed by a person without ever failing: ``²``,
``-3`` or a 5,000-digit number are simply not numbers of the menu.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

__all__ = ["PAGE_SIZE", "Menu", "menu_number", "normal"]

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


def write_numbered(out: TextIO, cells: Sequence[str]) -> None:
    """Numbered items, one a line, or in columns when there are many short ones."""
    width = max((len(c) for c in cells), default=0)
    per_line = _PER_LINE if len(cells) > _LONG_LIST and width <= _SHORT_ITEM else 1
    for start in range(0, len(cells), per_line):
        row = cells[start : start + per_line]
        out.write("  " + "  ".join(c.ljust(width) for c in row).rstrip() + "\n")


class Menu:
    """The numbered items of one decision, shown whole, by pages or filtered."""

    def __init__(self, texts: Sequence[str], page_size: int = PAGE_SIZE) -> None:
        self.texts = tuple(texts)
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

    def show(self, out: TextIO) -> None:
        """Write what the menu shows now: its items (a page, or the matches) and a
        line saying how to see the rest."""
        chosen = self._chosen()
        if self.search and not chosen:
            out.write(f"  Nothing matches '{self.search}'; type '/' to list every item.\n")
            return
        paged = not self.whole and len(chosen) > self.page_size
        pages = self._pages(len(chosen)) if paged else 1
        self.page = min(self.page, pages - 1)
        shown = chosen[self.page * self.page_size :][: self.page_size] if paged else chosen
        write_numbered(out, [f"{i + 1:>3}. {self.texts[i]}" for i in shown])
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
