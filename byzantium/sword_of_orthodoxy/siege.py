"""Sieges of Constantinople (9.6) and how they end (12.1, 12.2).

A Siege tile on a Path means its Barbarians are at the walls of the capital. Two
dice (three more without the Walls of Theodosius) against the number of Factions
in Constantinople decide whether the Empire falls (12.1). If it stands, the Siege
tile goes back, and the player pays for the effort by sending one or more Factions
to the Omnibus Track, each buying a free Attack. In Africa (Zone Α) and Italy
(Zone Β) the first Siege is answered instead by abandoning the region (12.2).
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.combat import Attack, weakest
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_roll, end_game, push
from byzantium.sword_of_orthodoxy.state import Decline, Roll, Select, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import (
    change_tribe,
    move,
    remember,
    tile_name,
    tiles_on,
    zone_armies,
)

__all__ = [
    "DISPLACED_FACTION_SPACE",
    "WALLS_DRM",
    "Siege",
    "fall_of_constantinople",
    "movable_factions",
    "retreat_due",
    "retreat_fact",
    "siege_tile",
    "strategic_retreat",
]

#: Without the Walls of Theodosius in Constantinople the Siege roll gets +3 (12.1).
WALLS_DRM = 3
#: Where a Faction sent away after a Siege goes on the Omnibus Track (12.1).
DISPLACED_FACTION_SPACE = 4
WALLS = "faction-walls"

#: Per Path that can retreat (12.2): the blue zone-name tile (front: the region to
#: abandon) and the fact remembered once the retreat is made.
_RETREATS = {Path.ALPHA: "marker-zone-alpha", Path.BETA: "marker-zone-beta"}
NORMANS = "tribe-beta-normans"
RAVENNA = "marker-ravenna"


def retreat_fact(path: Path) -> str:
    """The fact remembered once a Path's strategic retreat has been made (12.2)."""
    return f"strategic-retreat:{path.letter}"


def siege_tile(ctx: Context, state: SooState, path: Path) -> int | None:
    """The Siege tile besieging from a Path: in its Zone (West) or on its Themas (East)."""
    spaces = {ctx.cat.zone(path)} if path.western else set(ctx.cat.themas(path))
    for tile in ctx.cat.tiles_of(TileKind.SIEGE):
        if state.board.where[tile] in spaces:
            return tile
    return None


def _lift(ctx: Context, state: SooState, path: Path, rule: str) -> SooState:
    """The Siege tile goes back: to the Path's Reserves (West) or the Counter Tray (East)."""
    tile = siege_tile(ctx, state, path)
    if tile is None:
        return state
    home = f"reserves-{path.slug}" if path.western else "counter-tray"
    ctx.log(rule, f"the Siege tile of Path {path} returns to {home}", "siege")
    return move(ctx, state, tile, home)


# -- 12.2 -------------------------------------------------------------------------


def retreat_due(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether a Siege on this Path must be met by a strategic retreat (12.2).

    So while the blue tile of Zone Α still shows Africa, or that of Zone Β Italy,
    and the retreat has not been made already (it happens once per Path).
    """
    if path not in _RETREATS or retreat_fact(path) in state.done:
        return False
    tile = ctx.cat.tile(_RETREATS[path])
    space = ctx.cat.space(f"zone-name-{path.slug}")
    return state.board.where[tile] == space and not state.board.back[tile]


@RULES.implements("12.2")
def strategic_retreat(ctx: Context, state: SooState, path: Path) -> SooState:
    """Abandon Africa (Zone Α) or Italy (Zone Β) to lift a Siege there.

    The blue tile turns to Crete or the Balkans; the Zone keeps a single hostile
    Army, its weakest (as in the Normans and Serbs events, 5.2.3 and 8.4.1, which
    perform the same reduction; among equals, the last in catalogue order),
    the others and the Siege tile going to the Reserves. In Zone Β the Normans
    become the Tribe and Ravenna (or the Holy Roman Empire) is discarded. No dice are
    rolled and no Faction is lost. Each retreat happens once only.
    """
    blue = ctx.cat.tile(_RETREATS[path])
    state = attrs.evolve(state, board=state.board.flip(blue, True))
    ctx.log("12.2", f"strategic retreat: Zone {path} is now {tile_name(ctx, state, blue)}", "siege")
    armies = zone_armies(ctx, state, path)
    if armies:
        keep = weakest(ctx, state, armies)
        for army in armies:
            if army != keep:
                state = move(ctx, state, army, f"reserves-{path.slug}")
    if path is Path.BETA:
        state = change_tribe(ctx, state, path, NORMANS, "12.2")
    state = _lift(ctx, state, path, "12.2")
    if path is Path.BETA:
        ravenna = ctx.cat.tile(RAVENNA)
        if ctx.cat.spaces[state.board.where[ravenna]].path is Path.BETA:
            ctx.log("12.2", f"{tile_name(ctx, state, ravenna)} is discarded", "siege")
            state = move(ctx, state, ravenna, "discarded")
    return remember(state, retreat_fact(path))


# -- 12.1 -------------------------------------------------------------------------


def movable_factions(ctx: Context, state: SooState) -> list[int]:
    """Factions in Constantinople that may be sent away after a Siege (never the Walls)."""
    walls = ctx.cat.tile(WALLS)
    return [f for f in tiles_on(ctx, state, "constantinople", TileKind.FACTION) if f != walls]


@RULES.implements("12.1")
def fall_of_constantinople(
    ctx: Context, state: SooState, path: Path, dice: tuple[int, ...]
) -> SooState:
    """The Siege roll: two dice, +3 without the Walls, against the Factions in the City.

    A total above the number of Factions in Constantinople (the Walls count when
    present) is the Defeat: the game ends. Otherwise the Siege tile goes back (the
    Path's Reserves in the West, the Counter Tray in the East); the Barbarians stay
    where they are. Rule 1.1's natural 1 and 6 concern single dice; the +3 always
    applies to the two-dice total.
    """
    factions = len(tiles_on(ctx, state, "constantinople", TileKind.FACTION))
    walls = state.board.where[ctx.cat.tile(WALLS)] == ctx.cat.space("constantinople")
    total = sum(dice) + (0 if walls else WALLS_DRM)
    shown = "+".join(map(str, dice)) + ("" if walls else f"+{WALLS_DRM} (no Walls)")
    if total > factions:
        ctx.log("12.1", f"Siege from Path {path}: {shown} = {total} > {factions} Factions", "siege")
        reason = f"Constantinople falls to the Siege from Path {path} ({total} > {factions})"
        return end_game(ctx, state, "12.1", reason, defeat=True)
    ctx.log("12.1", f"Siege from Path {path}: {shown} = {total}, the City holds", "siege")
    return _lift(ctx, state, path, "12.1")


@attrs.frozen
class Siege(Task):
    """Resolve a Siege of Constantinople from a Path (9.6, 12.1, 12.2).

    Steps: the strategic retreat if it is due (12.2), else the Siege roll; if the
    City holds, the player sends Factions to the Omnibus Track one at a time (at
    least one; after the first, ``Decline`` stops), and then receives one free
    Attack per Faction sent. ``moved`` lists the Factions sent so far.
    """

    path: Path
    step: str = ""
    moved: tuple[str, ...] = ()

    @RULES.implements("9.6")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not self.step:
            if retreat_due(ctx, state, self.path):
                return strategic_retreat(ctx, state, self.path)
            return replace(self, "step", "roll").reask(ctx, state)
        if self.step == "roll":
            assert isinstance(answer, Roll)
            state = fall_of_constantinople(ctx, state, self.path, answer.dice)
            if state.ending is not None:
                return state
            return replace(self, "step", "factions")._ask_faction(ctx, state)
        if isinstance(answer, Decline):
            return self._attacks(ctx, state)
        assert isinstance(answer, Select)
        tile = ctx.cat.tile(answer.item)
        ctx.log("12.1", f"{tile_name(ctx, state, tile)} leaves Constantinople", "faction")
        state = move(ctx, state, tile, "omnibus", DISPLACED_FACTION_SPACE)
        return replace(self, "moved", (*self.moved, answer.item))._ask_faction(ctx, state)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The Siege roll, or the next Faction to send away, again (validation)."""
        if self.step == "roll":
            prompt = f"Siege of Constantinople from Path {self.path}: roll two dice"
            return ask_roll(state, self, "12.1", prompt, dice=2)
        if self.step == "factions":
            if not movable_factions(ctx, state):
                return state
            return self._ask_faction(ctx, state)
        return self.run(ctx, state, None)

    def _ask_faction(self, ctx: Context, state: SooState) -> SooState:
        """Offer the next Faction to send away (``Decline`` once one has gone)."""
        factions = movable_factions(ctx, state)
        if not factions:
            return self._attacks(ctx, state)
        options: list[SooAction] = [Decline()] if self.moved else []
        options += [Select(ctx.cat.tiles[f].id) for f in factions]
        prompt = "send a Faction to space 4 of the Omnibus Track for a free Attack"
        if self.moved:
            prompt = f"{len(self.moved)} sent: send another Faction, or stop"
        return ask_choice(state, self, "12.1", prompt, options)

    def _attacks(self, ctx: Context, state: SooState) -> SooState:
        ctx.log("12.1", f"{len(self.moved)} free Attack(s) for the Factions sent away", "siege")
        return push(state, *(Attack("12.1") for _ in self.moved))
