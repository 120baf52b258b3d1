"""Pictures of game states: :func:`svg` draws any state of either game as an SVG.

Pure Python (``xml.etree``), no browser and no network. A perspective (a player
index) draws only what that player may see, from the game's own observation.
"""

from __future__ import annotations

from collections.abc import Iterable

from byzantium.core.errors import ByzantiumError
from byzantium.core.game import Game

__all__ = ["svg"]


def svg(
    game: Game[object, object],
    state: object,
    perspective: int | None = None,
    *,
    highlight: Iterable[str | int] = (),
    last_move: Iterable[str | int] = (),
    reachable_for: tuple[int, ...] | None = None,
    zoc: bool = False,
) -> str:
    """The state as an SVG document (a string).

    ``highlight`` and ``last_move`` name spaces (Sword of Orthodoxy space ids) or
    hexes (Belisarius hex numbers) to mark; ``reachable_for`` a Belisarius force
    (counter indexes, all in one hex) whose reachable hexes to shade (the force of the
    pending movement when empty); ``zoc`` shades the enemy Zones of Control of the
    player to act.
    """
    if perspective is not None and not 0 <= perspective < game.NUM_PLAYERS:
        raise ByzantiumError(
            f"{game.ID} has players 0 to {game.NUM_PLAYERS - 1}, not {perspective}"
        )
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
