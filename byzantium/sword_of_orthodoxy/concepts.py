"""Chapter 2 of Sword of Orthodoxy, the components and concepts every chapter leans on.

What is here (the rest of chapter 2 lives elsewhere: the component records and
their validation in :mod:`~byzantium.sword_of_orthodoxy.components`, the Turn Chit
draw in :mod:`~byzantium.sword_of_orthodoxy.turn`, the Tribe tiles of 2.4.1 in
:func:`~byzantium.sword_of_orthodoxy.world.match_tribe`):

* 1.1: a die roll with modifiers, where a natural 1 or 6 never changes;
* 2.2, 2.2.1, 2.2.2: the shape of the map (a Path's spaces, its Homeland), who
  controls an eastern Thema, the Factions in Constantinople;
* 2.4: the two ways a tile leaves play, *discard* (gone for good) and *withdraw*
  (back to its Reserves or to the Counter Tray), and the swap of one eastern
  Army for another that several events make;
* 2.5: the grey Basileus (his icons) and the golden Basileus (free for a mission);
* 2.6: the Schism Level, which plays no role while its tile is in the Turn Chit
  mug (8.4.1 "Henotikon");
* 2.7: the religion of Egypt, read from the tile on the Egyptian Religion space;
* 2.8: the Rise of Islam, :class:`RiseOfIslam`, which War in the East (8.3) and
  the optional Islam event (5.2.3) both trigger.

The rulings page records how 2.8 is read where the rulebook leaves it open: a
Saracen "attack" is one ordinary Barbarian Advance, and the Empires in Rubble tile
is discarded once the attacks have brought it down to zero.
"""

from __future__ import annotations

import attrs

from byzantium.core import dice
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, board_query, end_game, push
from byzantium.sword_of_orthodoxy.state import SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import (
    MAX_TRACK,
    eastern_army,
    marker,
    move,
    remember,
    set_marker,
    tile_name,
    tiles_on,
)

__all__ = [
    "CALIPH",
    "DISCARDED",
    "ISLAM",
    "RUINS",
    "SARACENS",
    "SARACEN_ATTACK_ORDER",
    "CaliphToArabia",
    "RiseOfIslam",
    "SaracenAttacks",
    "basileus_has",
    "change_schism",
    "colonist_on",
    "convert_egypt",
    "discard",
    "egypt_religion",
    "factions_in_constantinople",
    "golden_basileus_ready",
    "grey_basileus",
    "has_colonist",
    "homeland",
    "islam_has_risen",
    "modified_roll",
    "path_spaces",
    "player_controls",
    "replace_army",
    "ruins_level",
    "saracen_on",
    "saracen_paths",
    "schism_in_play",
    "schism_level",
    "withdraw",
]

#: The space of tiles removed from the game (2.4).
DISCARDED = "discarded"
#: The fact remembered once Islam has appeared (2.8: it happens only once).
ISLAM = "islam"
#: The Empires in Rubble tile (its level is the Ruins of 2.8, 8.3, 10.11).
RUINS = "marker-ruins"
#: The Caliph tile (Caliph on its front, Fitna on its back; 7.3).
CALIPH = "marker-caliph"
#: The Saracen Army of each eastern Path (2.8).
SARACENS = {
    Path.DELTA: "army-delta-saracens",
    Path.EPSILON: "army-epsilon-saracens",
    Path.ZETA: "army-zeta-saracens",
}
#: The Paths of the Saracen attacks of 2.8, first to ninth.
SARACEN_ATTACK_ORDER = (Path.EPSILON, Path.ZETA, Path.DELTA) * 3
#: The Nomads and the Persians of Path Ζ (2.8, 8.3).
NOMADS = "army-zeta-nomads"
PERSIANS_ZETA = "army-zeta-persia"
#: The two Colonist tiles (Colonist on the front, Pagan on the back).
COLONISTS = ("marker-colonist-1", "marker-colonist-2")
#: The tile on the Egyptian Religion space: Christian Egypt, or Muslim Egypt on its back.
EGYPT_RELIGION_TILE = "army-zeta-egypt"
EGYPT_RELIGION_SPACE = "egyptian-religion"


# -- 1.1 die roll modifiers --------------------------------------------------------


@RULES.implements("1.1")
def modified_roll(natural: int, drm: int) -> int:
    """A die roll after its modifiers, which add up; a natural 1 or 6 is never changed."""
    return dice.modified(natural, drm, natural_extremes=True)


# -- 2.2 the map ------------------------------------------------------------------


@RULES.implements("2.2", "2.2.1")
def path_spaces(ctx: Context, path: Path) -> tuple[int, ...]:
    """The map spaces of a Path: its Zone in the West; its Themas in the East.

    The eastern Themas run from the one next to Constantinople out to the Homeland
    box. A western Zone's Reserves are on the Counter Tray, not on the map, and
    eastern Paths have none.
    """
    if path.western:
        return (ctx.cat.zone(path),)
    return ctx.cat.themas(path)


@RULES.implements("2.2.1")
def homeland(ctx: Context, path: Path) -> int:
    """The Homeland box that ends an eastern Path, farthest from Constantinople."""
    if path.western:
        raise ValueError(f"Path {path} is a Zone: it has no Homeland")
    return ctx.cat.themas(path)[-1]


@RULES.implements("2.2.1")
def player_controls(ctx: Context, state: SooState, space: int) -> bool:
    """Whether the player holds an eastern Thema: it lies between Constantinople and the enemy.

    The hostile Army (or the Mongols) holds the space it stands on and every space
    behind it, Homeland included (6.7.2 counts them that way); the player holds the
    spaces in front of it. A Path without any hostile tile on it is all the player's,
    except its Homeland.
    """
    record = ctx.cat.spaces[space]
    if record.path is None or record.path.western or not record.position:
        raise ValueError(f"{record.id} is not a Thema of an eastern Path")
    enemy = eastern_army(ctx, state, record.path)
    if enemy is None:
        return record.kind is not SpaceKind.HOMELAND
    return record.position < ctx.cat.spaces[state.board.where[enemy]].position


@RULES.implements("2.2.2")
def factions_in_constantinople(ctx: Context, state: SooState) -> list[int]:
    """The political Factions standing in Constantinople (those on the Omnibus Track are not)."""
    return tiles_on(ctx, state, "constantinople", TileKind.FACTION)


# -- 2.4 discard and withdraw ---------------------------------------------------------


@RULES.implements("2.4")
def discard(ctx: Context, state: SooState, tile: int, rule: str = "2.4") -> SooState:
    """Remove a tile from the game for good: it goes to the discarded pile, never to return."""
    ctx.log(rule, f"{tile_name(ctx, state, tile)} is discarded", "discard")
    return move(ctx, state, tile, DISCARDED)


@RULES.implements("2.4")
def withdraw(
    ctx: Context, state: SooState, tile: int, rule: str = "2.4", path: Path | None = None
) -> SooState:
    """Take a tile off the map for later use: to its Reserves, or to the Counter Tray.

    A western Army goes back to its Path's Reserves, and so does a Siege tile when
    ``path`` names the western Path it besieged from (9.6, 12.1); every other tile
    returns to the Counter Tray.
    """
    record = ctx.cat.tiles[tile]
    home = record.path if record.kind is TileKind.ARMY else path
    if record.kind in (TileKind.ARMY, TileKind.SIEGE) and home is not None and home.western:
        space = f"reserves-{home.slug}"
    else:
        space = "counter-tray"
    ctx.log(rule, f"{tile_name(ctx, state, tile)} is withdrawn to {space}", "withdraw")
    return move(ctx, state, tile, space)


def replace_army(ctx: Context, state: SooState, path: Path, new: str, rule: str) -> SooState:
    """Swap the hostile Army of an eastern Path for another Army tile, on the same space.

    The old Army is withdrawn to the Counter Tray (2.4); the new one shows its front.
    With no hostile Army on the Path, the new one starts on the Homeland.
    """
    old = eastern_army(ctx, state, path)
    tile = ctx.cat.tile(new)
    if old == tile:
        return state
    space = homeland(ctx, path) if old is None else state.board.where[old]
    if old is not None:
        state = withdraw(ctx, state, old, rule)
    board = state.board.move(tile, space).flip(tile, False)
    state = attrs.evolve(state, board=board)
    where = ctx.cat.spaces[space].name
    ctx.log(rule, f"Path {path}: {tile_name(ctx, state, tile)} now stand in {where}", "army")
    return state


# -- 2.5 the Basileus -------------------------------------------------------------


@board_query
@RULES.implements("2.5")
def grey_basileus(ctx: Context, state: SooState) -> list[int]:
    """The grey Basileus tiles ruling this Turn (two with Zoe or Theodora and her husband)."""
    return tiles_on(ctx, state, "basileus", TileKind.BASILEUS)


@RULES.implements("2.5")
def basileus_has(ctx: Context, state: SooState, icon: Icon) -> bool:
    """Whether the ruling grey Basileus shows an icon (either ruler, under 6.2.1)."""
    return icon in _basileus_icons(ctx, state)


@board_query
def _basileus_icons(ctx: Context, state: SooState) -> frozenset[Icon]:
    """Every icon the ruling grey Basileus shows (either ruler's, under 6.2.1)."""
    board = state.board
    return frozenset(
        icon for tile in grey_basileus(ctx, state) for icon in ctx.cat.face(board, tile).icons
    )


@RULES.implements("2.5")
def golden_basileus_ready(ctx: Context, state: SooState) -> bool:
    """Whether the golden Basileus stands in Constantinople on his golden side (10.7).

    Only this tile goes on missions; what happens to it never touches the grey one.
    """
    tile = ctx.cat.tile("basileus-golden")
    in_city = state.board.where[tile] == ctx.cat.space("constantinople")
    return in_city and not state.board.back[tile]


# -- 2.6 the Schism Level ----------------------------------------------------------


@RULES.implements("2.6")
def schism_in_play(ctx: Context, state: SooState) -> bool:
    """Whether the Schism tile is on the Omnibus Track.

    After a successful Henotikon (8.4.1) the tile waits in the Turn Chit mug and
    the Schism plays no role until it is drawn again (4.1).
    """
    return state.board.where[ctx.cat.tile("marker-schism")] == ctx.cat.space("omnibus")


@RULES.implements("2.6")
def schism_level(ctx: Context, state: SooState) -> int:
    """The Schism Level, 0 to 12 (0 while the tile is out of play in the mug)."""
    return marker(ctx, state, "schism") if schism_in_play(ctx, state) else 0


@RULES.implements("2.6")
def change_schism(ctx: Context, state: SooState, amount: int, rule: str) -> SooState:
    """Move the Schism Level; it never goes below 0, and above 12 the game is lost.

    Nothing moves while the Schism tile is out of play (see :func:`schism_in_play`).
    """
    if not schism_in_play(ctx, state):
        ctx.log(rule, "the Schism tile is in the mug: the Schism Level does not move", "schism")
        return state
    level = marker(ctx, state, "schism") + amount
    if level > MAX_TRACK:
        ctx.log(rule, f"Schism rises to {level}, above 12", "schism")
        return end_game(ctx, state, "2.6", f"the Schism Level reached {level}", defeat=True)
    ctx.log(rule, f"Schism {amount:+d}: now {max(0, level)}", "schism")
    return set_marker(ctx, state, "schism", level)


# -- 2.7 Egyptian religion -------------------------------------------------------------


@RULES.implements("2.7")
def egypt_religion(ctx: Context, state: SooState) -> str:
    """``"christian"`` or ``"muslim"`` as the Egyptian Religion space shows, else ``""``.

    The cinnamon Egypt tile sits there as a marker: Christian (Coptic) Egypt on its
    front, Muslim Egypt on its back. When Egypt enters play as an enemy (5.2.3) the
    tile leaves the space.
    """
    tile = ctx.cat.tile(EGYPT_RELIGION_TILE)
    if state.board.where[tile] != ctx.cat.space(EGYPT_RELIGION_SPACE):
        return ""
    return "muslim" if state.board.back[tile] else "christian"


@RULES.implements("2.7")
def convert_egypt(ctx: Context, state: SooState, rule: str) -> SooState:
    """Egypt turns to Islam: the tile on the Egyptian Religion space shows Muslim Egypt (11.4)."""
    if egypt_religion(ctx, state) != "christian":
        return state
    ctx.log(rule, "Egypt converts to Islam", "egypt")
    tile = ctx.cat.tile(EGYPT_RELIGION_TILE)
    return attrs.evolve(state, board=state.board.flip(tile, True))


# -- 2.8 the Rise of Islam ---------------------------------------------------------


def colonist_on(ctx: Context, state: SooState, path: Path) -> int | None:
    """The Colonist tile (Colonist side up) on a space of an eastern Path, if any."""
    spaces = set(ctx.cat.themas(path))
    for tile_id in COLONISTS:
        tile = ctx.cat.tile(tile_id)
        if state.board.where[tile] in spaces and not state.board.back[tile]:
            return tile
    return None


def has_colonist(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether a Colonist (not a Pagan) lies on an eastern Path."""
    return colonist_on(ctx, state, path) is not None


def islam_has_risen(ctx: Context, state: SooState) -> bool:
    """Whether the Rise of Islam has happened: it is remembered, or the Caliph is in play.

    The Millennium scenario starts after it: its Caliph is already on the map.
    """
    caliph = state.board.where[ctx.cat.tile(CALIPH)]
    off_map = (ctx.cat.space("counter-tray"), ctx.cat.space(DISCARDED))
    return ISLAM in state.done or caliph not in off_map


@attrs.frozen
class RiseOfIslam(Task):
    """The Rise of Islam (2.8), triggered by ``rule`` (8.3 or 5.2.3); it happens once.

    The Homelands of Ε and Ζ decide who comes out of Arabia. A Colonist on Path Ε
    turns the hostile Armies of Δ and Ε into the Saracens of their colour; a
    Colonist on Path Ζ does the same there, and without one the Persians of Ζ give
    way to the Nomads. The Saracens then make as many free attacks as the Ruins
    level (:class:`SaracenAttacks`), and the Caliph appears in Arabia
    (:class:`CaliphToArabia`).
    """

    rule: str = "2.8"

    @RULES.implements("2.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if islam_has_risen(ctx, state):
            ctx.log(self.rule, "Islam has already appeared: no second Rise of Islam", "islam")
            return state
        state = remember(state, ISLAM)
        ctx.log(self.rule, "the Rise of Islam: the Saracens burst out of Arabia", "islam")
        paths = saracen_paths(ctx, state)
        for path in paths:
            state = replace_army(ctx, state, path, SARACENS[path], "2.8")
        if Path.ZETA not in paths and eastern_army(ctx, state, Path.ZETA) == ctx.cat.tile(
            PERSIANS_ZETA
        ):
            state = replace_army(ctx, state, Path.ZETA, NOMADS, "2.8")
        attacks = min(ruins_level(ctx, state), len(SARACEN_ATTACK_ORDER))
        return push(state, SaracenAttacks(attacks), CaliphToArabia(bool(paths)))


def saracen_paths(ctx: Context, state: SooState) -> tuple[Path, ...]:
    """The Paths whose Armies the Rise of Islam (2.8) turns into Saracens: Δ and Ε
    with a Colonist on Path Ε, Ζ with one on Path Ζ."""
    paths: tuple[Path, ...] = ()
    if has_colonist(ctx, state, Path.EPSILON):
        paths += (Path.DELTA, Path.EPSILON)
    if has_colonist(ctx, state, Path.ZETA):
        paths += (Path.ZETA,)
    return paths


def saracen_on(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether the Army of an eastern Path is its Saracen one (2.8)."""
    army = eastern_army(ctx, state, path)
    return army is not None and army == ctx.cat.tile(SARACENS[path])


def ruins_level(ctx: Context, state: SooState) -> int:
    """The Ruins: where the Empires in Rubble tile stands on the Omnibus Track (0 if off it)."""
    tile = ctx.cat.tile(RUINS)
    if state.board.where[tile] != ctx.cat.space("omnibus"):
        return 0
    return state.board.value[tile]


@attrs.frozen
class SaracenAttacks(Task):
    """The free Saracen attacks after the Rise of Islam (2.8).

    ``remaining`` attacks (the Ruins level when the Saracens were deployed), made
    on Ε, Ζ, Δ, Ε, Ζ, Δ... from ``index`` on. Each costs the Ruins one level; on a
    Path whose Army is not a Saracen one there is no attack, but the level drops
    all the same. An attack is one Barbarian Advance under the normal rules
    (blocking rolls and Sieges included): see the rulings page. When the Ruins
    reach zero the Empires in Rubble tile is discarded, as 10.11 does.
    """

    remaining: int
    index: int = 0

    @RULES.implements("2.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.remaining <= 0:
            return state
        path = SARACEN_ATTACK_ORDER[self.index]
        level = ruins_level(ctx, state) - 1
        state = set_marker(ctx, state, "ruins", level)
        attack: tuple[Task, ...] = ()
        if saracen_on(ctx, state, path):
            ctx.log(
                "2.8", f"Saracen attack {self.index + 1} on Path {path}; Ruins {level}", "islam"
            )
            attack = (Advance(path, "2.8"),)
        else:
            ctx.log("2.8", f"no Saracens on Path {path}: no attack; Ruins {level}", "islam")
        if level <= 0:
            state = discard(ctx, state, ctx.cat.tile(RUINS), "2.8")
        following = SaracenAttacks(self.remaining - 1, self.index + 1)
        return push(state, *attack, following)


@attrs.frozen
class CaliphToArabia(Task):
    """Once Islam has appeared with a Saracen Army, the Caliph goes to Arabia (2.8, 7.3)."""

    saracens: bool = True

    @RULES.implements("2.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not self.saracens:
            ctx.log("2.8", "no Saracen Army came out of Arabia: no Caliph", "islam")
            return state
        caliph = ctx.cat.tile(CALIPH)
        board = state.board.move(caliph, ctx.cat.space("arabia")).flip(caliph, False)
        ctx.log("2.8", "the Caliph is placed in Arabia", "islam")
        return attrs.evolve(state, board=board)
