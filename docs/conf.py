"""Sphinx configuration of the byzantium documentation.

Build (from the repository root)::

    .venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html
    .venv/bin/sphinx-build -W --keep-going -b doctest docs docs/_build/doctest
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import byzantium  # installed (editable) in the build environment

# Our own extensions live in docs/_ext.
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))
# The repository root, last: the doctests import examples/ from it.
sys.path.append(str(Path(__file__).resolve().parent.parent))

project = "byzantium"
author = "byzantium developers"
copyright = "byzantium developers"
release = byzantium.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",  # "[source]" links on API entries and in the rule indices
    "byzantium_rules",
    "byzantium_pictures",  # board pictures drawn at build time (byzantium.render)
    "byzantium_difficulty",  # the figures of difficulty.rst, from _static/difficulty-*.json
    "sphinx_copybutton",  # a copy button on every code block
]

# No intersphinx: the build must not touch the network.
exclude_patterns = ["_build"]
# Rulings entries (definition-list items naming rules) are collected from these pages.
byzantium_rulings_prefix = "rulings/"
templates_path: list[str] = []
nitpicky = False

# -- HTML --------------------------------------------------------------------------
# Furo: a maintained, responsive theme (light and dark, readable on a phone).
html_theme = "furo"
html_title = f"byzantium {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "sidebar_hide_name": False,
    "navigation_with_keys": True,
}

# -- sphinx-copybutton ----------------------------------------------------------------
# Copy only what is typed: no "$ " or ">>> " prompts, no output lines.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

# -- autodoc -----------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": True}

# -- doctest -----------------------------------------------------------------------
# Only explicit ``.. doctest::`` / ``.. testcode::`` blocks run here. The ``>>>``
# examples of the module docstrings rely on their module's globals; pytest's
# doctest module runs them (with those globals).
doctest_test_doctest_blocks = ""
doctest_global_setup = """
import importlib.util
from fractions import Fraction

import byzantium

# The examples of the learning environments need the optional extras: without them
# they are skipped.
HAVE_ENVS = all(
    importlib.util.find_spec(name) is not None for name in ("numpy", "gymnasium", "pettingzoo")
)
"""

# -- byzantium_rules (docs/_ext/byzantium_rules.py) ---------------------------------
# Test directory scanned for @pytest.mark.rule markers, relative to this directory.
byzantium_tests_dir = "../tests"
# Modules to import so that extra rule books register themselves (e.g. plugins).
byzantium_extra_rulebooks: list[str] = []

# One API page per module, written to docs/api/ before reading (see the extension).
byzantium_api_package = "byzantium"
# Documented elsewhere: the package itself and its kernel on api.rst, the OpenSpiel
# adapter on openspiel.rst; __main__ has nothing to document.
byzantium_api_skip = ["byzantium", "byzantium.core", "byzantium.openspiel", "byzantium.__main__"]
# The learning environments' modules import only with their optional extras.
if importlib.util.find_spec("pettingzoo") is None:
    byzantium_api_skip.append("byzantium.envs.pettingzoo_env")
if importlib.util.find_spec("gymnasium") is None:
    byzantium_api_skip.append("byzantium.envs.gymnasium_env")
# The server's application imports only with the server extra.
if importlib.util.find_spec("starlette") is None:
    byzantium_api_skip.append("byzantium.server.app")
byzantium_api_options = {
    "byzantium.core.game": [
        ":members:",
        ":private-members: _current_player, _player_actions, _chance_outcomes, _advance",
        ":exclude-members: canonical_json",
    ],
}

# Both games define classes with the same short names (``Components`` in each
# package); a type annotation that names one from another module is then ambiguous.
# Sphinx links it to one of them; that is not a documentation gap, so it does not warn.
suppress_warnings = ["ref.python"]
