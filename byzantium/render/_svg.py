"""A few helpers to build SVG documents with :mod:`xml.etree`."""

from __future__ import annotations

import xml.etree.ElementTree as ET

__all__ = ["FONTS", "NS", "document", "el", "text", "to_string"]

NS = "http://www.w3.org/2000/svg"
#: The fonts of every picture, the first one measured (:mod:`byzantium.render._text`).
FONTS = "DejaVu Sans, Arial, sans-serif"


def document(width: float, height: float) -> ET.Element:
    """An empty SVG root of the given size."""
    return ET.Element(
        "svg",
        {
            "xmlns": NS,
            "width": f"{width:g}",
            "height": f"{height:g}",
            "viewBox": f"0 0 {width:g} {height:g}",
            "font-family": FONTS,
        },
    )


def el(parent: ET.Element, tag: str, **attrs: object) -> ET.Element:
    """A child element; attribute names use ``_`` for ``-`` (``data_space``)."""
    return ET.SubElement(
        parent, tag, {k.rstrip("_").replace("_", "-"): _fmt(v) for k, v in attrs.items()}
    )


def text(parent: ET.Element, x: float, y: float, content: str, **attrs: object) -> ET.Element:
    """A text element at (x, y)."""
    node = el(parent, "text", x=x, y=y, **attrs)
    node.text = content
    return node


def to_string(root: ET.Element) -> str:
    """The document as a string (no XML declaration)."""
    return ET.tostring(root, encoding="unicode")


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value)
