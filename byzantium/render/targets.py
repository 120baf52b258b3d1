"""What an offered action names on the picture: choosing on the board.

:func:`action_targets` gives, for a legal action of a decision, CSS selectors of the
elements of :func:`byzantium.render.svg`'s picture (and of its static map layer) that
the action is about: the hex a force moves to or a counter is placed in, the counter it
picks, the Sword of Orthodoxy space or tile it takes, builds in or attacks. A client
outlines those elements and lets a click on one choose the action, so that no rule of
either game has to be known in the client: the library reads the action's typed record
(its fields that name a place or a piece) and the picture's ``data-`` attributes.

An action that names nothing drawn (ending a phase, a sum of money) gets no selector;
the menu still offers it.
"""

from __future__ import annotations

from typing import TypeVar

import attrs

from byzantium.core.game import Game

__all__ = ["action_targets"]

S = TypeVar("S")
A = TypeVar("A")


def _quoted(value: str) -> str:
    """``value`` as a CSS attribute value in double quotes."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _belisarius(game: Game[S, A], state: S, action: A) -> tuple[str, ...]:
    from byzantium.belisarius.actions import UnknownActionError, classify  # noqa: PLC0415
    from byzantium.belisarius.game import Belisarius  # noqa: PLC0415
    from byzantium.belisarius.state import FIRST_HEX, BelState  # noqa: PLC0415

    assert isinstance(game, Belisarius)
    assert isinstance(state, BelState)
    try:
        record = classify(state, action)  # type: ignore[arg-type]
    except UnknownActionError:
        return ()
    found: list[str] = []
    if record.DOMAIN == "location":
        for field in attrs.fields(type(record)):
            value = getattr(record, field.name)
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            if value >= FIRST_HEX and value in game.catalog.map:
                label = _quoted(f"{value:04d}")
                found += [f"polygon[data-hex={label}]", f"g.stack[data-where={label}]"]
            elif 1 <= value <= len(game.catalog.peripherals):
                name = game.catalog.peripherals[value - 1].name
                found.append(f"rect.box[data-box={_quoted(name)}]")
    elif record.DOMAIN == "counter":
        for field in attrs.fields(type(record)):
            value = getattr(record, field.name)
            if isinstance(value, str) and value in game.catalog.counter_index:
                found.append(f"g.counter[data-counter={_quoted(value)}]")
    return tuple(found)


def _sword(game: Game[S, A], state: S, action: A) -> tuple[str, ...]:
    from byzantium.sword_of_orthodoxy.actions import classify  # noqa: PLC0415
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy  # noqa: PLC0415
    from byzantium.sword_of_orthodoxy.state import SooState  # noqa: PLC0415

    assert isinstance(game, SwordOfOrthodoxy)
    assert isinstance(state, SooState)
    try:
        record = classify(game, state, action)  # type: ignore[arg-type]
    except ValueError:
        return ()
    cat = game.catalog
    found: list[str] = []
    for field in attrs.fields(type(record)):
        value = getattr(record, field.name)
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if not isinstance(item, str) or not item:
                continue
            if item in cat.tile_index:
                found.append(f"g.tile[data-tile={_quoted(item)}]")
            elif item in cat.space_index:
                found.append(f"g.space[data-space={_quoted(item)}]")
    return tuple(dict.fromkeys(found))


def action_targets(game: Game[S, A], state: S, action: A) -> tuple[str, ...]:
    """CSS selectors of what ``action`` (legal in ``state``, a player's decision)
    names on the game's picture; empty when it names nothing drawn."""
    if game.ID == "belisarius":
        return _belisarius(game, state, action)
    if game.ID == "sword-of-orthodoxy":
        return _sword(game, state, action)
    return ()
