"""Pictures of game states: :func:`svg` draws any state of either game as an SVG.

Pure Python (``xml.etree``), no browser and no network. A perspective (a player
index) draws only what that player may see, from the game's own observation.
:class:`Picture` wraps one picture for notebooks (it shows itself through
``_repr_svg_``, as python-chess boards do) and :func:`sized` scales a picture to a
width in pixels or by a factor, keeping its proportions (the ``viewBox`` stays).
"""

from __future__ import annotations

import math
import os
import random
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar

from byzantium.core.drivers import chance_policy, random_policy
from byzantium.core.errors import ArgumentError, ByzantiumError
from byzantium.core.game import CHANCE, SPECTATOR, Game

if TYPE_CHECKING:
    from byzantium.render.belisarius import Pieces

__all__ = ["MAX_PIXELS", "Picture", "after_setup", "layers", "sized", "stacked", "svg"]

S = TypeVar("S")
A = TypeVar("A")

#: The largest width or height a sized picture may have, in pixels (a bigger PNG
#: would take memory for nothing a screen shows).
MAX_PIXELS = 10_000

#: Phase name of a state still in its set-up (Belisarius places its counters by
#: decisions, 34.0).
SETUP_PHASE = "setup"


def after_setup(game: Game[S, A], seed: int = 1, *, max_steps: int = 10_000) -> S:
    """The first state after the set-up's own decisions, made by the game's seeded
    ``sensible`` player (the random one where the game has none): the deployed set-up,
    the picture a person expects of a scenario. A game whose set-up asks nothing
    (Sword of Orthodoxy) gives its initial state."""
    rng = random.Random(seed)
    player = game.policies().get("sensible", random_policy)
    state = game.initial_state()
    for _ in range(max_steps):
        if getattr(state, "phase", None) != SETUP_PHASE or game.is_terminal(state):
            break
        policy = chance_policy if game.current_player(state) == CHANCE else player
        state = game.apply(state, policy(game, state, rng))
    return state


def svg(
    game: Game[S, A],
    state: S,
    perspective: int | None = None,
    *,
    highlight: Iterable[str | int] = (),
    last_move: Iterable[str | int] = (),
    reachable_for: tuple[int, ...] | None = None,
    zoc: bool = False,
) -> str:
    """The state as an SVG document (a string), as ``perspective`` may see it: a
    player index, :data:`~byzantium.core.game.SPECTATOR` (what every seat may know)
    or None (everything).

    ``highlight`` and ``last_move`` name spaces (Sword of Orthodoxy space ids) or
    hexes (Belisarius hex numbers) to mark; ``reachable_for`` a Belisarius force
    (counter indexes, all in one hex) whose reachable hexes to shade (the force of the
    pending movement when empty); ``zoc`` shades the enemy Zones of Control of the
    player to act.
    """
    if not isinstance(game, Game):
        raise ArgumentError(f"a game is needed, not {repr(game)[:60]}")
    game.check_state(state)
    perspective = _perspective(game, perspective)
    if game.ID == "sword-of-orthodoxy":
        from byzantium.render import sword  # noqa: PLC0415 - load one game only

        return sword.draw(
            game,
            state,
            highlight={str(h) for h in highlight},
            last_move={str(h) for h in last_move},
        )
    if game.ID == "belisarius":
        from byzantium.render import belisarius  # noqa: PLC0415 - load one game only

        return belisarius.draw(
            game,
            state,
            perspective,
            highlight={int(h) for h in highlight},
            last_move={int(h) for h in last_move},
            reachable_for=reachable_for,
            zoc=zoc,
        )
    raise ByzantiumError(f"no picture for the game {game.ID!r}")


def _perspective(game: Game[S, A], perspective: int | None) -> int | None:
    if type(perspective) is int and perspective == SPECTATOR:
        return game.reader(SPECTATOR)
    if perspective is not None:
        game.check_player(perspective)
    return perspective


def layers(
    game: Game[S, A],
    state: S,
    perspective: int | None = None,
    *,
    pieces: Pieces | None = None,
) -> tuple[str | None, str]:
    """The picture :func:`svg` draws (with no marks), as a static board and an overlay:
    ``board`` is the same for every state of the game (the Belisarius map, most of a
    picture's bytes; ``None`` for a game whose picture is not split) and ``overlay``
    is drawn over it at the same origin and scale. :func:`stacked` puts them back
    together.

    ``pieces`` (a :class:`byzantium.render.belisarius.Pieces`, one per game, used by
    one thread at a time) keeps the parts of the Belisarius overlay already drawn, so
    that the next pictures of the same game cost a fraction; the text is the same
    with or without it."""
    if not isinstance(game, Game):
        raise ArgumentError(f"a game is needed, not {repr(game)[:60]}")
    game.check_state(state)
    perspective = _perspective(game, perspective)
    if game.ID != "belisarius":
        return None, svg(game, state, perspective)
    from byzantium.render import belisarius  # noqa: PLC0415 - load one game only

    overlay = belisarius.draw(
        game,
        state,
        perspective,
        highlight=set(),
        last_move=set(),
        reachable_for=None,
        zoc=False,
        with_map=None,
        pieces=pieces,
    )
    return board(game), overlay


#: Drawn static layers by game and component digest (a few: one per pack in use).
_BOARDS: dict[tuple[str, str], str] = {}


def board(game: Game[S, A]) -> str | None:
    """The static layer of a game's pictures (see :func:`layers`), or None; drawn once
    per game and component data."""
    if game.ID != "belisarius":
        return None
    from byzantium.render import belisarius  # noqa: PLC0415 - load one game only

    key = (game.ID, game.components_digest())
    found = _BOARDS.get(key)
    if found is None:
        if len(_BOARDS) >= 8:
            _BOARDS.clear()
        found = _BOARDS[key] = belisarius.board(game)
    return found


_OPEN = re.compile(r"<svg\b[^>]*>")


def stacked(board_svg: str | None, overlay: str) -> str:
    """One SVG document: ``board_svg`` (if any) under ``overlay``, both at the origin."""
    if board_svg is None:
        return overlay
    head = _OPEN.search(overlay)
    inner = _OPEN.search(board_svg)
    if head is None or inner is None:
        raise ByzantiumError("not an SVG document")
    nested = board_svg[inner.start() :].replace("<svg", '<svg x="0" y="0"', 1)
    return overlay[: head.end()] + nested + overlay[head.end() :]


_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\s(width|height)="([0-9.]+)"')


def _natural_size(picture: str) -> tuple[float, float]:
    root = _ROOT.search(picture)
    sizes = dict(_SIZE.findall(root.group(0))) if root else {}
    if "width" not in sizes or "height" not in sizes:
        raise ByzantiumError("the picture has no width and height to scale")
    return float(sizes["width"]), float(sizes["height"])


def sized(picture: str, *, width: float | None = None, scale: float | None = None) -> str:
    """The SVG ``picture`` drawn ``width`` pixels wide, or ``scale`` times its natural
    size (not both), its height in proportion: only the root's ``width`` and
    ``height`` change, the ``viewBox`` keeps the drawing whole. A PNG converted from
    it has that size. Neither given: the picture unchanged."""
    if width is not None and scale is not None:
        raise ByzantiumError("give a width or a scale for a picture, not both")
    if width is None and scale is None:
        return picture
    natural_w, natural_h = _natural_size(picture)
    if width is not None:
        if (
            isinstance(width, bool)
            or not isinstance(width, int | float)
            or not math.isfinite(width)
        ):
            raise ByzantiumError(f"a picture's width is a number of pixels, not {width!r}")
        factor = width / natural_w
    else:
        if (
            isinstance(scale, bool)
            or not isinstance(scale, int | float)
            or not math.isfinite(scale)
        ):
            raise ByzantiumError(f"a picture's scale is a number, not {scale!r}")
        factor = float(scale)
    new_w, new_h = natural_w * factor, natural_h * factor
    if not (new_w >= 1 and new_h >= 1 and max(new_w, new_h) <= MAX_PIXELS):
        asked = f"width {width:g}" if width is not None else f"scale {factor:g}"
        raise ByzantiumError(
            f"a picture {asked} gives {new_w:.0f}x{new_h:.0f} pixels; "
            f"each side must be from 1 to {MAX_PIXELS}"
        )
    root = _ROOT.search(picture)
    assert root is not None  # _natural_size found it
    sizes = {"width": round(new_w), "height": round(new_h)}
    head = _SIZE.sub(lambda m: f' {m.group(1)}="{sizes[m.group(1)]}"', root.group(0))
    return picture[: root.start()] + head + picture[root.end() :]


class Picture:
    """One picture of a state, as ``seat`` may see it (everything when ``None``).

    In a Jupyter notebook the object shows itself (``_repr_svg_``); :attr:`svg` is
    the document, the same text :func:`svg` returns (then :func:`sized` when
    ``width`` or ``scale`` is given); :meth:`save` writes it. Bad arguments (a seat
    the game lacks, a size out of bounds) raise :class:`ByzantiumError` at once.
    """

    def __init__(
        self,
        game: Game[S, A],
        state: S,
        seat: int | None = None,
        *,
        width: float | None = None,
        scale: float | None = None,
    ) -> None:
        self.game_id = game.ID
        self.seat = seat
        #: The SVG document.
        self.svg = sized(svg(game, state, seat), width=width, scale=scale)

    @property
    def size(self) -> tuple[int, int]:
        """The picture's width and height in pixels."""
        w, h = _natural_size(self.svg)
        return round(w), round(h)

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        seat = "everything" if self.seat is None else f"seat {self.seat}"
        w, h = self.size
        return f"<Picture of {self.game_id}, {seat}, {w}x{h}>"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the SVG document to ``path`` (UTF-8)."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.svg)
