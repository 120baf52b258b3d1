"""Headless Chromium for the browser tests (Debian's chromium and chromedriver, driven
by selenium), in one place.

- :func:`require_browser` skips the calling test when selenium, a module the test file
  names, or chromium / chromedriver is missing; when ``BYZANTIUM_REQUIRE_BROWSER`` is
  set (``tox -e browser``, ``tox -e docs`` and CI set it) it fails the test instead.
- :func:`chromium` starts one headless Chromium with the flags every browser test uses
  and a profile of its own in a temporary directory; on leaving, the browser is quit
  and the profile removed.

Selenium is imported only inside these functions, so a test file importing this module
is still collected (and skipped) where selenium is not installed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver

#: Whether a missing browser fails the test rather than skipping it.
REQUIRED = bool(os.environ.get("BYZANTIUM_REQUIRE_BROWSER"))

#: Every browser test's flags: headless, and nothing that reaches out to the network or
#: asks a first-run question.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def missing_browser(*modules: tuple[str, str]) -> str:
    """What a browser test lacks, as one line naming how to install it, or ``""``.

    *modules* are (module, extra) pairs the test needs besides selenium, e.g.
    ``("starlette", "server")``: a missing module names the extra of byzantium that
    brings it."""
    for module, extra in (("selenium", "browser"), *modules):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install byzantium[{extra}])"
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        return (
            "chromium / chromedriver are not installed (apt-get install chromium chromium-driver)"
        )
    return ""


def require_browser(*modules: tuple[str, str]) -> None:
    """Skips the test when :func:`missing_browser` finds something missing, or fails it
    when ``BYZANTIUM_REQUIRE_BROWSER`` is set."""
    __tracebackhide__ = True  # the report points at the fixture that asked
    missing = missing_browser(*modules)
    if missing:
        if REQUIRED:
            pytest.fail(f"browser test required but {missing}")
        pytest.skip(missing)


@contextmanager
def chromium(
    *,
    window: tuple[int, int] | None = None,
    flags: Iterable[str] = (),
    capabilities: Mapping[str, object] | None = None,
) -> Iterator[WebDriver]:
    """A headless Chromium with :data:`FLAGS` and a temporary profile of its own.

    *window* is the window's size in pixels (width, height), else Chromium's default;
    *flags* are further command-line flags (``--hide-scrollbars``); *capabilities* are
    set on the options (``goog:loggingPrefs`` to read the browser's or the performance
    log). The browser is quit and its profile removed on leaving, also when it failed
    to start."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    profile = tempfile.mkdtemp(prefix="byzantium-chromium-")
    try:
        for flag in (*FLAGS, *flags, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        if window is not None:
            options.add_argument(f"--window-size={window[0]},{window[1]}")
        for name, value in (capabilities or {}).items():
            options.set_capability(name, value)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
