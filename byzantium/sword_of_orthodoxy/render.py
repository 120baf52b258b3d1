"""A compact text view of a state of Sword of Orthodoxy, for a terminal.

The view has the Turn and its years, the tracks of the Omnibus Track (treasury,
Schism, Niké and the others), the Strategikon, each Path (the Tribe, Zone and
Reserves in the West; where the Army stands in the East), Constantinople's tiles,
the other holding boxes that have something on them, and what the game waits for.
The game is solitaire and has no hidden information: ``player`` changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.state import RequestKind, SooState
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    army_strength,
    eastern_army,
    eastern_position,
    marker,
    reserve_armies,
    tile_name,
    tiles_on,
    tribe,
    zone_armies,
)

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["render_state"]

#: Holding boxes the view leaves out: stores of tiles not in play, and boxes shown
#: elsewhere in the view.
_HIDDEN_BOXES = ("counter-tray", "discarded", "turn-chit-mug", "dynasty-mug", "patriarch-mug")
#: The boxes of the rulers, shown on a line of their own.
_RULERS = (("Basileus", "basileus"), ("Dynasty", "dynasty"), ("Patriarch", "patriarch"))
_HIDDEN_PREFIXES = ("chronographia-", "tribe-", "zone-name-", "basileus-mug")
_RULER_BOXES = tuple(box for _, box in _RULERS)
#: Lines of the view listing holding boxes, at most.
_MAX_BOXES = 10


def _on(ctx: Context, state: SooState, space: str) -> list[int]:
    """The tiles on a space, none if the component files have no such space."""
    return tiles_on(ctx, state, space) if space in ctx.cat.space_index else []


def _names(ctx: Context, state: SooState, tiles: list[int]) -> str:
    return ", ".join(tile_name(ctx, state, t) for t in tiles)


def _tracks(ctx: Context, state: SooState) -> list[str]:
    main = [("treasury $", "solidus"), ("Schism", "schism"), ("Niké", "nike")]
    lines = ["Tracks: " + ", ".join(f"{label} {marker(ctx, state, n)}" for label, n in main)]
    shown = {ctx.cat.tile(f"marker-{name}") for _, name in main}
    others = [
        f"{tile_name(ctx, state, t)} {state.board.value[t]}"
        for t in _on(ctx, state, "omnibus")
        if t not in shown
    ]
    if others:
        lines.append("  also: " + ", ".join(others))
    strategikon = [
        f"{tile_name(ctx, state, t)} {state.board.value[t]}" for t in _on(ctx, state, "strategikon")
    ]
    if strategikon:
        lines.append("Strategikon: " + ", ".join(strategikon))
    return lines


def _western(ctx: Context, state: SooState, path: Path) -> str:
    names = _on(ctx, state, f"zone-name-{path.name.lower()}")
    zone = f" {_names(ctx, state, names)}" if names else ""
    current = tribe(ctx, state, path)
    who = tile_name(ctx, state, current) if current is not None else "no Tribe"
    armies = zone_armies(ctx, state, path)
    strengths = "+".join(str(army_strength(ctx, state, a)) for a in armies) or "none"
    zone_space = ctx.cat.zone(path)
    extra = [
        tile_name(ctx, state, t)
        for t in tiles_on(ctx, state, ctx.cat.spaces[zone_space].id)
        if ctx.cat.tiles[t].kind is not TileKind.ARMY
    ]
    reserves = len(reserve_armies(ctx, state, path))
    more = f"; also {', '.join(extra)}" if extra else ""
    return (
        f"  {path.letter}{zone}: {who}; Zone armies {len(armies)} (strength {strengths}), "
        f"Reserves {reserves}{more}"
    )


def _eastern(ctx: Context, state: SooState, path: Path) -> str:
    army = eastern_army(ctx, state, path)
    if army is None:
        where = "no Army"
    else:
        position = eastern_position(ctx, state, path)
        space = ctx.cat.spaces[state.board.where[army]]
        where = (
            f"{tile_name(ctx, state, army)} (strength {army_strength(ctx, state, army)}) "
            f"at {position} {space.id}"
        )
    others = [
        f"{tile_name(ctx, state, t)} @{ctx.cat.spaces[state.board.where[t]].id}"
        for space in ctx.cat.themas(path)
        for t in ctx.cat.on(state.board, space)
        if t != army
    ]
    more = f"; also {', '.join(others)}" if others else ""
    return f"  {path.letter}: {where}{more}"


def _boxes(ctx: Context, state: SooState) -> list[str]:
    lines = []
    for space in ctx.cat.spaces:
        if space.kind is not SpaceKind.HOLDING or space.id in _HIDDEN_BOXES + _RULER_BOXES:
            continue
        if space.id.startswith(_HIDDEN_PREFIXES):
            continue
        tiles = tiles_on(ctx, state, space.id)
        if tiles:
            lines.append(f"{space.id}: {_names(ctx, state, tiles)}")
    if len(lines) > _MAX_BOXES:
        rest = len(lines) - _MAX_BOXES + 1
        lines = [*lines[: _MAX_BOXES - 1], f"... and {rest} more boxes"]
    return ["  " + line for line in lines]


def _pending(state: SooState) -> str:
    if state.ending is not None:
        outcome = "Defeat" if state.ending.defeat else "game over"
        return f"{outcome} [{state.ending.rule}]: {state.ending.reason}"
    request = state.pending
    if request is None:
        return "nothing pending"
    what = {
        RequestKind.CHOOSE: "the player chooses",
        RequestKind.ROLL: f"roll {request.dice} {'die' if request.dice == 1 else 'dice'}",
        RequestKind.DRAW: f"draw from {request.space}",
    }[request.kind]
    return f"Pending [{request.rule}]: {what}: {request.prompt}"


def render_state(game: SwordOfOrthodoxy, state: SooState, player: int | None) -> str:
    """The state as text, as ``player`` may see it (everything; the game has no secrets).

    About 25 lines: the Turn, the tracks, each Path, Constantinople, the other boxes
    in play and what is pending.
    """
    del player
    ctx = Context(game, None)
    heading = game.chronicle_heading(state).split("\n", 1)[0] or "== Set-up =="
    lines = [heading, *_tracks(ctx, state), "West:"]
    lines += [_western(ctx, state, path) for path in WESTERN]
    lines.append("East:")
    lines += [_eastern(ctx, state, path) for path in EASTERN]
    city = _on(ctx, state, "constantinople")
    factions = [t for t in city if ctx.cat.tiles[t].kind is TileKind.FACTION]
    lines.append(f"Constantinople ({len(factions)} Factions): {_names(ctx, state, city) or '-'}")
    rulers = [f"{label} {_names(ctx, state, _on(ctx, state, b)) or '-'}" for label, b in _RULERS]
    lines.append("Rulers: " + ", ".join(rulers))
    lines += ["Boxes:", *_boxes(ctx, state)]
    lines.append(_pending(state))
    return "\n".join(lines)
