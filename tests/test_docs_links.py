"""The docs' internal link check (docs/_ext/byzantium_rules.py) finds broken links."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_broken_internal_links_are_found(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from byzantium_rules import broken_internal_links  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.html").write_text(
        '<p id="here"><a href="#here">ok</a> <a href="sub/b.html#there">ok</a>'
        ' <a href="sub/b.html#gone">bad anchor</a> <a href="missing.html">bad file</a>'
        ' <a href="https://example.org/x">external</a></p>',
        encoding="utf-8",
    )
    (tmp_path / "sub" / "b.html").write_text(
        '<a name="there"></a><a href="../a.html#here">back</a>', encoding="utf-8"
    )
    broken = broken_internal_links(tmp_path)
    assert sorted(broken) == [
        ("a.html", "missing.html", "no such file"),
        ("a.html", "sub/b.html#gone", "no such anchor"),
    ]
