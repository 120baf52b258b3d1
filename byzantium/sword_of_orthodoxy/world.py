"""The vocabulary every chapter shares: reading and changing the board.

Queries answer the questions rules ask (the Tribe of a Path, where the Army of an
eastern Path stands, how many Barbarians are in a Zone, the Schism Level...);
changes return a new state and log what happened. All take the task
:class:`~byzantium.sword_of_orthodoxy.engine.Context` first.
"""

from __future__ import annotations

from collections.abc import Callable

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, Facet
from byzantium.sword_of_orthodoxy.state import Catalog, SooState

__all__ = [
    "EASTERN",
    "MAX_TRACK",
    "PATH_BARBARIANS",
    "WESTERN",
    "army_strength",
    "barbarian_themas",
    "change_tribe",
    "current_chit",
    "eastern_army",
    "eastern_position",
    "flip",
    "is_muslim",
    "marker",
    "match_tribe",
    "move",
    "path_is_muslim",
    "remember",
    "reserve_armies",
    "set_counter",
    "set_marker",
    "socials_on_map",
    "tile_name",
    "tiles_on",
    "tribe",
    "zone_armies",
]

WESTERN = (Path.ALPHA, Path.BETA, Path.GAMMA)
EASTERN = (Path.DELTA, Path.EPSILON, Path.ZETA)
#: The Omnibus Track runs from 0 to 12.
MAX_TRACK = 12


def _path_tiles(path: Path) -> Callable[[Catalog], list[int]]:
    def select(cat: Catalog) -> list[int]:
        shared = ("marker-stolos", "marker-colonist-1", "marker-colonist-2")
        return sorted(
            {
                *cat.armies(path),
                *cat.mongols(path),
                *cat.tiles_of(TileKind.SIEGE),
                *(cat.tile(name) for name in shared),
            }
        )

    return select


#: One Path's share of the Barbarians (see :func:`~.engine.facet_query`): its own
#: Armies (and the Mongols standing in for them), the Siege tiles, and the markers
#: whose place decides a target anywhere (the Stolos, the Colonists). Which Armies
#: of the Path may be attacked, and whether one may withdraw from it, are read from
#: these tiles alone, so they keep their answers while another Path's Army moves.
PATH_BARBARIANS = {
    path: Facet(f"the Barbarians of Path {path}", _path_tiles(path)) for path in Path
}


# -- tiles and spaces ---------------------------------------------------------------


def tile_name(ctx: Context, state: SooState, tile: int) -> str:
    """The name on the face of a tile that is up."""
    return ctx.cat.face(state.board, tile).name


def tiles_on(ctx: Context, state: SooState, space: str, kind: TileKind | None = None) -> list[int]:
    """The tiles on a space (of one kind, if given), in catalogue order."""
    index = ctx.cat.space(space)
    where = state.board.where
    if kind is None:
        return state.board.on(index)
    return [i for i in ctx.cat.tiles_of(kind) if where[i] == index]


def move(ctx: Context, state: SooState, tile: int, space: str, value: int = 0) -> SooState:
    """Move a tile to a space (at ``value`` on a track)."""
    return replace(state, "board", state.board.move(tile, ctx.cat.space(space), value))


def flip(ctx: Context, state: SooState, tile: int, back: bool) -> SooState:
    """Turn a tile to its back (``back=True``) or front face."""
    del ctx
    return replace(state, "board", state.board.flip(tile, back))


def remember(state: SooState, fact: str) -> SooState:
    """Note a one-time fact (a once-only event, the rise of Islam...)."""
    return replace(state, "done", state.done | {fact})


def set_counter(state: SooState, name: str, value: int) -> SooState:
    """Set a named counter the rules remember."""
    others = tuple((k, v) for k, v in state.counters if k != name)
    return replace(state, "counters", tuple(sorted((*others, (name, value)))))


def current_chit(ctx: Context, state: SooState) -> int | None:
    """The Turn Chit on the current Turn's space of the Chronographia."""
    space = ctx.cat.space(f"chronographia-{state.turn}")
    for tile in state.board.on(space):  # a few tiles: the chit, a returning Basileus...
        if ctx.cat.tiles[tile].kind is TileKind.TURN_CHIT:
            return tile
    return None


# -- track markers ----------------------------------------------------------------


def marker(ctx: Context, state: SooState, name: str) -> int:
    """The position of a marker on its track (``"schism"``, ``"solidus"``, ``"nike"``...)."""
    return state.board.value[ctx.cat.tile(f"marker-{name}")]


def set_marker(ctx: Context, state: SooState, name: str, value: int) -> SooState:
    """Move a track marker to ``value`` (kept within 0-12)."""
    tile = ctx.cat.tile(f"marker-{name}")
    return replace(state, "board", state.board.set_value(tile, max(0, min(MAX_TRACK, value))))


# -- Barbarians ---------------------------------------------------------------------


def tribe(ctx: Context, state: SooState, path: Path) -> int | None:
    """The Tribe tile on a western Path's round Tribe space (2.4.1)."""
    found = tiles_on(ctx, state, f"tribe-{path.slug}", TileKind.TRIBE)
    return found[0] if found else None


def is_muslim(ctx: Context, state: SooState, tile: int) -> bool:
    """Whether the face up of a Tribe or Army is Muslim (9.1.1)."""
    return ctx.cat.has(state.board, tile, Icon.MUSLIM)


def eastern_army(ctx: Context, state: SooState, path: Path) -> int | None:
    """The hostile Army on an eastern Path, if any.

    The Mongol tiles stand in for the Army of Paths Ε and Ζ while they are on the map
    (5.2.3 Mongols); they are markers with a strength, and are preferred.
    """
    spaces = ctx.cat.themas(path)
    where = state.board.where
    for tile in ctx.cat.mongols(path):
        if where[tile] in spaces:
            return tile
    for tile in ctx.cat.armies(path):
        if where[tile] in spaces:
            return tile
    return None


def eastern_position(ctx: Context, state: SooState, path: Path) -> int:
    """Where the Army of an eastern Path stands: 1 next to Constantinople ... 5 Homeland.

    0 when the Path has no Army on it.
    """
    army = eastern_army(ctx, state, path)
    if army is None:
        return 0
    return ctx.cat.themas(path).index(state.board.where[army]) + 1


def barbarian_themas(ctx: Context, state: SooState, path: Path) -> int:
    """How many spaces of an eastern Path the Barbarians control, Homeland included."""
    position = eastern_position(ctx, state, path)
    return 0 if position == 0 else 6 - position


def path_is_muslim(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether the Barbarians of a Path are Muslim (its Tribe in the West, its Army in the East)."""
    tile = tribe(ctx, state, path) if path.western else eastern_army(ctx, state, path)
    return tile is not None and is_muslim(ctx, state, tile)


def army_strength(ctx: Context, state: SooState, tile: int) -> int:
    """The combat strength of an Army as its face up shows it."""
    return ctx.cat.face(state.board, tile).strength


def zone_armies(ctx: Context, state: SooState, path: Path) -> list[int]:
    """The Barbarian Armies in a western Path's Zone (Siege tiles excluded)."""
    zone = ctx.cat.zone(path)
    where = state.board.where
    return [t for t in ctx.cat.armies(path) if where[t] == zone]


def reserve_armies(ctx: Context, state: SooState, path: Path) -> list[int]:
    """The Armies in a western Path's Reserves."""
    reserves = ctx.cat.reserves(path)
    where = state.board.where
    return [t for t in ctx.cat.armies(path) if where[t] == reserves]


def socials_on_map(ctx: Context, state: SooState) -> list[int]:
    """The Social tiles lying on a Path (on a Zone, or in the East), not exiled or on the tray."""
    found = []
    for tile in ctx.cat.tiles_of(TileKind.SOCIAL):
        space = ctx.cat.spaces[state.board.where[tile]]
        if space.path is not None and space.kind is not SpaceKind.RESERVES:
            found.append(tile)
    return found


@RULES.implements("2.4.1")
def match_tribe(ctx: Context, state: SooState, path: Path) -> SooState:
    """Turn every Army of a western Path (Zone and Reserves) to its Tribe's side.

    A Tribe with the horse icon makes the Path's Armies show their strong "horse"
    side; a "man" Tribe their weak side.
    """
    current = tribe(ctx, state, path)
    if current is None:
        return state
    strong = ctx.cat.has(state.board, current, Icon.HORSE)
    wanted = Icon.HORSE if strong else Icon.MAN
    board = state.board
    for army in ctx.cat.armies(path):
        record = ctx.cat.tiles[army]
        if record.back is not None:
            board = board.flip(army, wanted not in record.front.icons)
    return replace(state, "board", board)


def change_tribe(ctx: Context, state: SooState, path: Path, new_tribe: str, rule: str) -> SooState:
    """Replace a western Path's Tribe (the old one returns to the Counter Tray) (2.4.1)."""
    old = tribe(ctx, state, path)
    if old is not None:
        state = move(ctx, state, old, "counter-tray")
    tile = ctx.cat.tile(new_tribe)
    state = move(ctx, state, tile, f"tribe-{path.slug}")
    state = replace(state, "board", state.board.flip(tile, False))
    ctx.log(rule, f"the Tribe of Path {path} is now {tile_name(ctx, state, tile)}", "tribe")
    return match_tribe(ctx, state, path)
