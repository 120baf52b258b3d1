"""The text view of a state of Sword of Orthodoxy, for a terminal (``Game.render``);
the SVG picture of the board is drawn by :func:`byzantium.render.svg` instead.

The view has the Turn and its years, the tracks of the Omnibus Track (treasury,
Schism, Niké and the others), the Strategikon, each Path (the Tribe, Zone and
Reserves in the West; where the Army stands in the East), Constantinople's tiles,
the other holding boxes that have something on them, and what the game waits for.
The game is solitaire and has no hidden information: ``player`` changes nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from byzantium.sword_of_orthodoxy.actions import CALL_COUNCIL, tile_words
from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.siege import siege_tile
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Draw,
    Pay,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
)
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
    from byzantium.core.game import Event
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = [
    "describe_action",
    "describe_decision",
    "describe_event",
    "nearest_threat",
    "render_state",
    "tile_text",
]

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
    names = _on(ctx, state, f"zone-name-{path.slug}")
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
            lines.append(f"{space.name}: {_names(ctx, state, tiles)}")
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


# -- words for a person at a terminal (names, costs and effects) ------------------------

_PATH_WORDS = {path.slug: path for path in Path}
_TOKEN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: What a mission of the Basileus does, per its word in the menu (10.7.x).
_MISSIONS = {
    "battle-sword": "Commit the Basileus to battle, with his Sword, against",
    "battle": "Commit the Basileus to battle against",
    "confront": "Commit the Basileus to confront",
    "orator": "Commit the Basileus as a legendary orator to",
    "naval-reforms": "Commit the Basileus to naval reforms",
    "taxation": "Commit the Basileus to ruinous taxation",
    "ecclesiastical-policy": "Commit the Basileus to ecclesiastical policy",
    "legislate": "Commit the Basileus to legislate on",
    "slavery": "Commit the Basileus to slavery:",
    "reformer": "Commit the Basileus as a visionary reformer",
    "expel": "Commit the Basileus to expel the colonists of",
    "pandidakterion": "Commit the Basileus to found the Pandidakterion",
}
#: What ``Decline`` means, per rule that offers it.
_DECLINE = {
    "10.0": "End the Byzantine Action Phase",
    "4.1": "No: call no Ecumenical Council (a Council chit drawn is redrawn once)",
}
#: Select items whose words are not their text.
_SELECT = {
    CALL_COUNCIL: "Yes: call an Ecumenical Council (draw one of the Council chits)",
    "reduce-schism": "Reduce the Schism",
    "gain-solidus": "Gain Solidus",
}


def _space_name(ctx: Context, space: str) -> str:
    index = ctx.cat.space_index.get(space)
    return space if index is None else ctx.cat.spaces[index].name


def tile_text(ctx: Context, state: SooState, tile_id: str) -> str:
    """A tile by name, with where it stands, and an Army with its strength."""
    index = ctx.cat.tile_index.get(tile_id)
    if index is None:
        return tile_id
    name = tile_name(ctx, state, index)
    where = ctx.cat.spaces[state.board.where[index]]
    if ctx.cat.tiles[index].kind is TileKind.ARMY:
        number = tile_id.rsplit("-", 1)[-1]
        army = name if name != "Army" else f"Army #{number}" if number.isdigit() else "an Army"
        return f"{army} (strength {army_strength(ctx, state, index)}) in {where.name}"
    if where.kind is SpaceKind.HOLDING:
        return name
    return f"{name} in {where.name}"


def _translate(ctx: Context, state: SooState, text: str) -> str:
    """Free text with tile and space ids as names and Path words as their letters."""

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ctx.cat.tile_index:
            return tile_text(ctx, state, token)
        if token in ctx.cat.space_index and "-" in token:
            return _space_name(ctx, token)
        if token in _PATH_WORDS:
            return f"Path {_PATH_WORDS[token].letter}"
        return token

    return _TOKEN.sub(word, text)


def nearest_threat(ctx: Context, state: SooState) -> str:
    """The Barbarians closest to Constantinople, for a chronicle's Turn heading: any
    Siege (9.6), the eastern Army nearest the City (1 is next to it, 9.3) and the
    western Zone holding the most Armies (9.2)."""
    sieges = [f"Path {path.letter}" for path in Path if siege_tile(ctx, state, path) is not None]
    parts = [f"Siege on {', '.join(sieges)}"] if sieges else []
    east = [(eastern_position(ctx, state, path), path) for path in Path if not path.western]
    nearest = min(((p, path) for p, path in east if p > 0), default=None)
    if nearest is not None:
        position, path = nearest
        army = eastern_army(ctx, state, path)
        assert army is not None
        space = ctx.cat.spaces[state.board.where[army]].name
        away = "next to Constantinople" if position == 1 else f"{position} spaces away"
        parts.append(
            f"{tile_name(ctx, state, army)} (strength {army_strength(ctx, state, army)}) "
            f"in {space} on Path {path.letter}, {away}"
        )
    west = [(len(zone_armies(ctx, state, path)), path) for path in Path if path.western]
    crowded, path = max(west)
    if crowded:
        strength = sum(army_strength(ctx, state, a) for a in zone_armies(ctx, state, path))
        armies = "Army" if crowded == 1 else "Armies"
        parts.append(f"Zone {path.letter}: {crowded} {armies} (strength {strength})")
    return "; ".join(parts) or "none"


#: A strength in an event's words (``strength-2``).
_STRENGTH = re.compile(r"strength-(\d+)")


def describe_event(game: SwordOfOrthodoxy, event: Event) -> str:
    """An event with its tiles and spaces by name (the names do not depend on the
    state: an event is read after the state that made it is gone)."""
    cat = game.catalog

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in cat.tile_index:
            return tile_words(cat, token)
        if token in cat.space_index and "-" in token:
            return cat.spaces[cat.space_index[token]].name
        return token

    text = _TOKEN.sub(word, _STRENGTH.sub(r"strength \1", event.text))
    return f"[{event.rule}] {text}"


def _cost(amount: int) -> str:
    return " (free)" if amount == 0 else f" (cost {amount} Solidus)"


def _action_phase_text(ctx: Context, state: SooState, item: str) -> str | None:
    """An item of the Byzantine Action Phase's menu in words, or None if unknown."""
    # Imported here: the action modules import much of the game, render comes first.
    from byzantium.sword_of_orthodoxy import battles, infrastructure, outposts  # noqa: PLC0415

    word, _, rest = item.partition(" ")
    args = rest.split()
    cat = ctx.cat
    if word == "take" and rest in cat.tile_index:
        cost = outposts.outpost_cost(ctx, state)
        return f"Take the Outpost {_space_name(ctx, rest)}{_cost(cost)}"
    if word == "abandon" and rest in cat.tile_index:
        return f"Abandon the Outpost {tile_name(ctx, state, cat.tile(rest))}"
    if word == "build" and len(args) == 2:
        kind, site = args
        cost = infrastructure.build_cost(ctx, state, kind)
        article = "an" if kind[0] in "aeiou" else "a"
        return f"Build {article} {kind.title()} in {_space_name(ctx, site)}{_cost(cost)}"
    if word == "rebuild" and len(args) == 2 and args[0] in cat.tile_index:
        tile = cat.tile(args[0])
        cost = infrastructure.build_cost(ctx, state, cat.tiles[tile].kind)
        name = tile_name(ctx, state, tile)
        return f"Rebuild the {name} in {_space_name(ctx, args[1])}{_cost(cost)}"
    if word == "reopen" and rest in cat.tile_index:
        return f"Reopen the {tile_name(ctx, state, cat.tile(rest))}"
    if word in ("attack", *battles.SPECIAL_BATTLES) and rest in cat.tile_index:
        cost = battles.attack_cost(ctx, state, cat.tile(rest))
        how = "Attack" if word == "attack" else f"Attack ({word.title()})"
        return f"{how} {tile_text(ctx, state, rest)}{_cost(cost)}"
    if word == "emperor-attack" and rest in cat.tile_index:
        return f"The soldier emperor's free attack on {tile_text(ctx, state, rest)}"
    if word == "magister-attack" and rest in cat.tile_index:
        cost = battles.magister_cost(ctx, state, cat.tile(rest))
        return f"Send the Magister Militum against {tile_text(ctx, state, rest)}{_cost(cost)}"
    if word == "hippodrome" and rest in cat.tile_index:
        return f"Attack the {tile_name(ctx, state, cat.tile(rest))} in the Hippodrome"
    if word == "shift-forces" and rest in _PATH_WORDS:
        return f"Shift forces on Path {_PATH_WORDS[rest].letter} (free)"
    if word == "mission" and args and args[0] in _MISSIONS:
        what = " ".join(args[1:])
        target = f" {_translate(ctx, state, what)}" if what else ""
        return f"{_MISSIONS[args[0]]}{target}"
    if item == "orthodoxy":
        return "Impose Orthodoxy"
    if word == "orthodoxy" and rest in ("saint-ignore", "saint-free"):
        saint = "ignoring the Saint" if rest == "saint-ignore" else "with the Saint, for free"
        return f"Impose Orthodoxy, {saint}"
    if item == "divisions":
        return "Exploit social divisions"
    if item == "ruins":
        return "Clear the Ruins"
    if word == "faction" and rest in cat.tile_index:
        return f"Build the Faction {tile_name(ctx, state, cat.tile(rest))}"
    if item == "nike":
        return "Spend the Niké"
    if item == "activate greek-fire":
        return "Activate Greek Fire"
    return None


def describe_action(game: SwordOfOrthodoxy, state: SooState, action: SooAction) -> str:
    """An action in words for the person choosing it: tiles and spaces by name, with
    the price of the Action Phase's actions (not the question: see
    :func:`describe_decision`). Items not known here read as themselves, with any ids
    in them turned into names."""
    ctx = Context(game, None)
    request = state.pending
    rule = request.rule if request is not None else ""
    match action:
        case Roll(dice):
            return f"roll {' '.join(map(str, dice))}"
        case Draw(tile):
            if tile not in ctx.cat.tile_index:
                return f"draw {tile!r}"
            return f"draw {ctx.cat.tiles[ctx.cat.tile(tile)].name}"
        case Pay(amount):
            return f"pay {amount} Solidus"
        case Decline():
            return _DECLINE.get(rule, "decline")
        case Select(item):
            known = _action_phase_text(ctx, state, item) if rule == "10.0" else None
            if known is None:
                known = _SELECT.get(item)
            if known is not None:
                return known
            text = _translate(ctx, state, item.replace(" $", " Solidus"))
            return text[:1].upper() + text[1:]
    raise AssertionError(action)  # pragma: no cover - a new kind of action


def describe_decision(game: SwordOfOrthodoxy, state: SooState) -> str:
    """The question of the pending request in words (ids as names), with the treasury
    when the player chooses."""
    request = state.pending
    if request is None:
        return ""
    ctx = Context(game, None)
    text = _translate(ctx, state, request.prompt)
    if request.kind is RequestKind.CHOOSE:
        text += f" [treasury {marker(ctx, state, 'solidus')} Solidus]"
    return text
