"""tests/browser.py, the browser tests' check for what they need: what it names when
something is missing, and that it skips, or fails under ``BYZANTIUM_REQUIRE_BROWSER``.
No browser is started."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable

import pytest

from tests import browser


def _without(*absent: str) -> Callable[[str], object]:
    """A ``find_spec`` that finds every module but *absent*."""
    return lambda name: None if name in absent else object()


def test_a_missing_module_names_the_extra_that_brings_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    needs = (("starlette", "server"), ("sphinx", "docs"))
    monkeypatch.setattr(importlib.util, "find_spec", _without("sphinx"))
    assert (
        browser.missing_browser(*needs) == "sphinx is not installed (pip install byzantium[docs])"
    )
    # Selenium is always needed, and named first.
    monkeypatch.setattr(importlib.util, "find_spec", _without("sphinx", "selenium"))
    assert browser.missing_browser(*needs) == (
        "selenium is not installed (pip install byzantium[browser])"
    )
    monkeypatch.setattr(importlib.util, "find_spec", _without("selenium"))
    assert browser.missing_browser() == "selenium is not installed (pip install byzantium[browser])"


def test_a_missing_chromium_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", _without())
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert browser.missing_browser(("sphinx", "docs")) == (
        "chromium / chromedriver are not installed (apt-get install chromium chromium-driver)"
    )
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    assert browser.missing_browser(("sphinx", "docs")) == ""


def test_missing_skips_the_test_or_fails_it_when_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", _without())
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(browser, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match=r"^chromium / chromedriver are not installed"):
        browser.require_browser()
    monkeypatch.setattr(browser, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match=r"^browser test required but chromium "):
        browser.require_browser()


def test_nothing_missing_lets_the_test_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", _without())
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(browser, "REQUIRED", True)
    browser.require_browser(("starlette", "server"))
