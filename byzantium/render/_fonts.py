"""How wide a line of text is drawn, to place labels without measuring in a browser.

The advance widths of the printable ASCII characters in DejaVu Sans (the first font
the pictures name), in hundredths of the font size, measured once in Chromium; other
characters count as wide as an ``M``. Heights follow the font's box: a line reaches
0.93 of the size above its baseline and 0.24 below.
"""

from __future__ import annotations

import functools

__all__ = ["ASCENT", "DESCENT", "text_box", "text_width"]

ASCENT = 0.93
DESCENT = 0.24

# Characters 32 to 126, in order.
_NORMAL = (
    32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 71, 69, 70, 77, 63, 58, 77,
    75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63, 60, 73, 68, 99, 69, 61, 69, 39,
    34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 34, 63, 63, 28, 28, 58, 28, 97, 63, 61,
    63, 63, 40, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84,
)  # fmt: skip
_BOLD = (
    35, 46, 52, 84, 70, 100, 87, 31, 46, 46, 52, 84, 38, 42, 38, 37, 70, 70, 70, 70,
    70, 70, 70, 70, 70, 70, 40, 40, 84, 84, 84, 58, 100, 77, 76, 73, 83, 68, 68, 82,
    84, 37, 37, 77, 64, 100, 84, 85, 73, 85, 77, 68, 70, 81, 77, 110, 77, 72, 73, 46,
    37, 46, 84, 50, 50, 67, 72, 59, 72, 68, 41, 72, 71, 34, 34, 67, 34, 104, 71, 69,
    72, 72, 49, 60, 48, 71, 65, 92, 65, 65, 58, 71, 37, 71, 84,
)  # fmt: skip


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """The width of ``content`` drawn in DejaVu Sans at ``size`` (a little over for
    characters outside ASCII)."""
    return _advance(content, bold) * size / 100


@functools.lru_cache(maxsize=8192)
def _advance(content: str, bold: bool) -> int:
    """The advance of ``content`` in hundredths of the font size."""
    table = _BOLD if bold else _NORMAL
    wide = table[ord("M") - 32]
    return sum(table[ord(c) - 32] if 32 <= ord(c) < 127 else wide for c in content)


def text_box(
    x: float, y: float, content: str, size: float, *, bold: bool = False, anchor: str = "start"
) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) of a one-line text drawn at (x, y) with the
    given ``text-anchor`` (``start``, ``middle`` or ``end``)."""
    width = text_width(content, size, bold=bold)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, y - ASCENT * size, left + width, y + DESCENT * size
