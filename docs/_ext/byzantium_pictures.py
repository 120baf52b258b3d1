"""Sphinx extension: board pictures drawn at build time with :mod:`byzantium.render`.

``.. byzantium-picture:: GAME``
    the SVG of a state, inline in the HTML page. Options: ``:option: K=V`` (game
    options, comma separated), ``:steps: N`` and ``:seed: S`` (play N steps with the
    ``random`` policy first, for a worked example; 0 by default: the set-up),
    ``:after-setup:`` (the state once the set-up's decisions are made, seeded by
    ``:seed:``), ``:seat: P`` (draw the state as that player sees it). Other builders get the
    caption only.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import ExtensionMetadata

from byzantium.cli.common import parse_option
from byzantium.core.drivers import play, random_policy
from byzantium.core.registry import load_game
from byzantium.render import after_setup, svg


class PictureDirective(SphinxDirective):
    """Draw one state of a game."""

    required_arguments = 1
    option_spec = {  # noqa: RUF012 - docutils' API
        "option": directives.unchanged,
        "steps": directives.nonnegative_int,
        "after-setup": directives.flag,
        "seed": directives.nonnegative_int,
        "seat": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        options = dict(
            parse_option(text.strip())
            for text in str(self.options.get("option", "")).split(",")
            if text.strip()
        )
        game = load_game(self.arguments[0], **options)
        steps = int(self.options.get("steps", 0))
        state = game.initial_state()
        if "after-setup" in self.options:
            state = after_setup(game, int(self.options.get("seed", 1)))
        elif steps:
            record = play(
                game, random_policy, seed=int(self.options.get("seed", 1)), max_steps=steps
            )
            state = game.apply_all(state, record.actions)
        picture = svg(game, state, self.options.get("seat"))
        html = f'<div class="byzantium-picture" style="overflow-x:auto">{picture}</div>'
        return [nodes.raw("", html, format="html")]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directive."""
    app.add_directive("byzantium-picture", PictureDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
