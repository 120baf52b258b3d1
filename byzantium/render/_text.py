"""Text measured before it is drawn, for the pictures of both games: widths and boxes
of lines in DejaVu Sans (the pictures' first font), and words wrapped into lines that
fit a box, so that labels are placed clear of each other and none runs out of its box.

The advance widths (thousandths of an em) were read once from DejaVu Sans and DejaVu
Sans Bold; a character not in the table counts as a full em, so an estimate errs on
the wide side (Arial, the fallback font, is narrower than DejaVu Sans). Heights follow
the font's box: a line reaches :data:`ASCENT` of the size above its baseline and
:data:`DESCENT` below.
"""

from __future__ import annotations

import functools

__all__ = ["ASCENT", "DESCENT", "fit", "text_box", "text_width"]

#: How far a line reaches above its baseline, and below it, in font sizes.
ASCENT = 0.93
DESCENT = 0.24

_CHARS = (
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
    "abcdefghijklmnopqrstuvwxyz{|}~ΑΒΓΔΕΖΣΠΧéÉ–—…·×"
)
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684,
    686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695,
    635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550,
    635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392,
    634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 684, 686, 557, 684, 632, 685, 632,
    752, 685, 615, 632, 500, 1000, 1000, 318, 838,
)  # fmt: skip
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696,
    696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774,
    762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770,
    720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593,
    716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478,
    712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 774, 762, 637, 774, 683, 725, 683,
    837, 771, 678, 683, 500, 1000, 1000, 380, 838,
)  # fmt: skip
_WIDTHS = {
    False: dict(zip(_CHARS, _REGULAR, strict=True)),
    True: dict(zip(_CHARS, _BOLD, strict=True)),
}


def text_width(content: str, size: float, *, bold: bool = False) -> float:
    """The width of ``content`` set at ``size`` (an upper estimate)."""
    return _advance(content, bold) * size / 1000


@functools.lru_cache(maxsize=8192)
def _advance(content: str, bold: bool) -> int:
    """The advance of ``content`` in thousandths of an em."""
    table = _WIDTHS[bold]
    return sum(table.get(c, 1000) for c in content)


def text_box(
    x: float, y: float, content: str, size: float, *, bold: bool = False, anchor: str = "start"
) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) of a one-line text drawn at (x, y) with the
    given ``text-anchor`` (``start``, ``middle`` or ``end``)."""
    wide = text_width(content, size, bold=bold)
    left = {"start": x, "middle": x - wide / 2, "end": x - wide}[anchor]
    return left, y - ASCENT * size, left + wide, y + DESCENT * size


def _wrap(content: str, room: float, size: float, bold: bool) -> list[str]:
    lines: list[str] = []
    for word in content.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold=bold) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def fit(
    content: str,
    room: float,
    size: float,
    *,
    lines: int = 1,
    smallest: float = 6.0,
    bold: bool = False,
) -> tuple[float, list[str]]:
    """``content`` in at most ``lines`` lines no wider than ``room``: the largest font
    size from ``size`` down to ``smallest`` (in half points) where whole words fit.
    Where even the smallest cannot hold a word, the word is shortened on purpose,
    with a full stop, to what fits (never cut by the box's edge)."""
    current = size
    while True:
        wrapped = _wrap(content, room, current, bold)
        fits = all(text_width(line, current, bold=bold) <= room for line in wrapped)
        if fits and len(wrapped) <= lines:
            return current, wrapped
        if current - 0.5 < smallest:
            break
        current -= 0.5
    kept: list[str] = []
    for line in wrapped[:lines]:
        short = line
        while text_width(short, current, bold=bold) > room and len(short) > 1:
            short = short[:-2].rstrip() + "."
        kept.append(short)
    if len(wrapped) > lines:
        last = kept[-1]
        while text_width(last + "…", current, bold=bold) > room and len(last) > 1:
            last = last[:-1].rstrip()
        kept[-1] = last + "…"
    return current, kept
