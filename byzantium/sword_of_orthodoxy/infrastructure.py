"""Byzantine Action Phase, rules 10.3, 10.4, 10.4.1, 10.4.2, 10.14: Hospitals, Monasteries, Akritai.

There are two tiles of each kind of Infrastructure, and a Path may hold only one of
each kind (10.3):

* a Hospital (2 $) goes on a Zone holding at most four Barbarians, or on the
  player's Thema right in front of an eastern Army; it throws back Barbarians that
  enter its space like a Taurus Mountain (9.5.2, 10.4.1);
* a Monastery (3 $, 2 $ under a grey Basileus with the Orthodox Cross) goes on Zone
  Β or Γ while it holds at most four Barbarians; it lets the treasury save money
  (11.1). Cut off by a full Zone it turns Isolated (9.7), and opens again for free
  when the Zone thins out (10.14);
* an Akritai (2 $) goes on an eastern Path, on the Thema in front of the Army like
  a Hospital; once per Turn it may turn a die roll of its Path one point up or
  down (10.4.2), then shows its used side until the end of the Turn (11.10).

A Hospital or an Akritai left behind enemy lines (in a Thema the Barbarians hold,
or in a Zone of five Barbarians) cannot be used (10.4); the player may rebuild it
on a valid space. The Slavery mission (10.7.9) places a Hospital or a Monastery
for free with :func:`hospital_sites`, :func:`monastery_sites` and :func:`build`.

Readings recorded on the rulings page: the space an Army is entering counts as
the player's until the rolls of that entry are made (otherwise no eastern Hospital
could ever roll, 9.5.2); rebuilding costs what building costs and keeps the tile's
face; the Akritai changes the die itself, within 1 to 6, and the changed die is
the natural roll of rule 1.1.
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import basileus_has
from byzantium.sword_of_orthodoxy.engine import (
    Context,
    Offer,
    ask_again,
    ask_choice,
    make_offer,
    run_task,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Request,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    eastern_army,
    marker,
    set_marker,
    zone_armies,
)

__all__ = [
    "AKRITAI_DOWN",
    "AKRITAI_UP",
    "KINDS",
    "AkritaiAdjust",
    "Build",
    "Rebuild",
    "ReopenMonastery",
    "akritai_for",
    "akritai_intercept",
    "akritai_options",
    "akritai_sites",
    "behind_enemy_lines",
    "build",
    "build_cost",
    "front_thema",
    "holds_position",
    "hospital_defends",
    "hospital_sites",
    "infrastructure_spaces",
    "monastery_sites",
    "offers",
    "rebuild_sites",
    "reopen_monastery",
    "reopenable_monasteries",
    "usable",
]

#: The three kinds of Infrastructure (10.3), in the order the menu lists them.
KINDS = (TileKind.HOSPITAL, TileKind.MONASTERY, TileKind.AKRITAI)
#: Prices (10.3).
HOSPITAL_PRICE = 2
AKRITAI_PRICE = 2
MONASTERY_PRICE = 3
MONASTERY_PRICE_WITH_CROSS = 2
#: The Zones that may hold a Monastery (10.3).
MONASTERY_ZONES = (Path.BETA, Path.GAMMA)
#: A Zone with five Barbarian Armies is full (9.7, 10.3, 10.4).
FULL_ZONE = 5
#: Where unbuilt Infrastructure waits.
TRAY = "counter-tray"
#: The player's answers to an Akritai's offer (10.4.2).
AKRITAI_DOWN = "akritai -1"
AKRITAI_UP = "akritai +1"
#: Rolls made as an Army enters a space (9.5.1 Taurus, 9.5.2 Hospital): the space
#: entered still counts as the player's while they are rolled.
ENTRY_ROLLS = ("9.5.1", "9.5.2")
#: The kinds of map space Infrastructure stands on.
_PATH_SPACES = (SpaceKind.ZONE, SpaceKind.THEMA, SpaceKind.HOMELAND)


def _kind(kind: TileKind | str) -> TileKind:
    if kind in KINDS:  # already one of them (the menu asks this all the time)
        return kind
    found = TileKind(kind)
    if found not in KINDS:
        raise ValueError(f"{found.value} is not Infrastructure")
    return found


def _space_path(ctx: Context, space: int) -> Path | None:
    record = ctx.cat.spaces[space]
    return record.path if record.kind in _PATH_SPACES else None


def _path_of(ctx: Context, state: SooState, tile: int) -> Path | None:
    """The Path a tile stands on (``None`` off the map: Counter Tray...)."""
    return _space_path(ctx, state.board.where[tile])


def _on_map(ctx: Context, state: SooState, kind: TileKind) -> list[int]:
    where = state.board.where
    return [t for t in ctx.cat.tiles_of(kind) if _space_path(ctx, where[t]) is not None]


def _army_position(ctx: Context, state: SooState, path: Path) -> int:
    """Where the Army of an eastern Path stands: 1 ... 5 (Homeland); 0 without one."""
    army = eastern_army(ctx, state, path)
    if army is None:
        return 0
    return ctx.cat.spaces[state.board.where[army]].position


# -- 10.4 when Infrastructure can be used ----------------------------------------------


@RULES.implements("10.4")
def holds_position(ctx: Context, state: SooState, tile: int, entering: int | None = None) -> bool:
    """Whether a tile on the map is where it can work: not behind enemy lines.

    In the East its Thema must be the player's: closer to Constantinople than the
    Barbarians (a Thema they occupy or hold behind their Army is lost, 2.2.1). In a
    Zone, fewer than five Barbarian Armies. ``entering`` names a space an Army is
    just entering: until the rolls of that entry are made it still counts as the
    player's (and in a Zone the newcomer is not yet counted).
    """
    space = state.board.where[tile]
    record = ctx.cat.spaces[space]
    path = _space_path(ctx, space)
    if path is None:
        return False
    if record.kind is SpaceKind.ZONE:
        armies = len(zone_armies(ctx, state, path)) - (1 if entering == space else 0)
        return armies < FULL_ZONE
    army = _army_position(ctx, state, path)
    if army == 0:
        return record.kind is not SpaceKind.HOMELAND
    return record.position < army or (entering == space and record.position == army)


@RULES.implements("10.4")
def usable(ctx: Context, state: SooState, tile: int, entering: int | None = None) -> bool:
    """Whether a Hospital or an Akritai can be used now: front side up, holding its ground.

    A used tile (its back) serves again only after the End of Turn (11.10).
    """
    return not state.board.back[tile] and holds_position(ctx, state, tile, entering)


@RULES.implements("10.4.1")
def hospital_defends(ctx: Context, state: SooState, space: int) -> int | None:
    """The Hospital that rolls against an Army about to enter ``space`` (``state`` before it).

    An eastern space with a usable Hospital stops Barbarians like a Taurus space
    (9.5.1; the roll itself is :func:`~byzantium.sword_of_orthodoxy.barbarians.hospital_roll`).
    A western Zone's Hospital does the same (9.5.2). ``None`` when no Hospital there
    can be used.
    """
    for hospital in ctx.cat.tiles_of(TileKind.HOSPITAL):
        if state.board.where[hospital] == space and usable(ctx, state, hospital):
            return hospital
    return None


# -- 10.3 where Infrastructure may be built --------------------------------------------


@RULES.implements("10.3")
def front_thema(ctx: Context, state: SooState, path: Path) -> int | None:
    """The player's Thema next to the Army of an eastern Path, on its Constantinople side.

    ``None`` when the Army stands next to Constantinople (no Thema is left in front
    of it) or the Path has no Army.
    """
    position = _army_position(ctx, state, path)
    if position < 2:
        return None
    return ctx.cat.themas(path)[position - 2]


def _paths_with(ctx: Context, state: SooState, kind: TileKind, moving: int | None) -> set[Path]:
    """The Paths already holding a tile of this kind (not counting ``moving``)."""
    found = set()
    where = state.board.where
    for tile in ctx.cat.tiles_of(kind):
        path = _space_path(ctx, where[tile])
        if tile != moving and path is not None:
            found.add(path)
    return found


@RULES.implements("10.3")
def infrastructure_spaces(
    ctx: Context, state: SooState, kind: TileKind | str, moving: int | None = None
) -> list[int]:
    """The spaces (indexes, in Path order) where a tile of a kind may be built now.

    Only one tile of a kind per Path. A Hospital: any Zone with at most four
    Barbarian Armies, or the Thema in front of an eastern Army (:func:`front_thema`).
    A Monastery: Zone Β or Γ, with at most four Barbarians. An Akritai: the Thema in
    front of an eastern Army. ``moving`` is a tile being rebuilt elsewhere; its own
    Path does not count against it. Money and the tiles left are not checked here.
    """
    kind = _kind(kind)
    taken = _paths_with(ctx, state, kind, moving)
    spaces: list[int] = []
    western = MONASTERY_ZONES if kind is TileKind.MONASTERY else WESTERN
    if kind is not TileKind.AKRITAI:
        for path in western:
            if path not in taken and len(zone_armies(ctx, state, path)) < FULL_ZONE:
                spaces.append(ctx.cat.zone(path))
    if kind is not TileKind.MONASTERY:
        for path in EASTERN:
            thema = front_thema(ctx, state, path)
            if thema is not None and path not in taken:
                spaces.append(thema)
    return spaces


@RULES.implements("10.3")
def build_cost(ctx: Context, state: SooState, kind: TileKind | str) -> int:
    """Hospital 2 $, Akritai 2 $, Monastery 3 $ (2 $ with the Cross on the grey Basileus)."""
    kind = _kind(kind)
    if kind is TileKind.MONASTERY:
        cross = basileus_has(ctx, state, Icon.CROSS)
        return MONASTERY_PRICE_WITH_CROSS if cross else MONASTERY_PRICE
    return HOSPITAL_PRICE if kind is TileKind.HOSPITAL else AKRITAI_PRICE


def _spare(ctx: Context, state: SooState, kind: TileKind) -> int | None:
    """A tile of the kind waiting on the Counter Tray (the first in catalogue order)."""
    tray = ctx.cat.space(TRAY)
    for tile in ctx.cat.tiles_of(kind):
        if state.board.where[tile] == tray:
            return tile
    return None


def _sites(ctx: Context, state: SooState, kind: TileKind) -> list[str]:
    if _spare(ctx, state, kind) is None:
        return []
    return [ctx.cat.spaces[s].id for s in infrastructure_spaces(ctx, state, kind)]


def hospital_sites(ctx: Context, state: SooState) -> list[str]:
    """Space ids where a Hospital could be placed now (none if both tiles are on the map).

    For the Slavery mission (10.7.9) as for building (10.3); the cost is not checked.
    """
    return _sites(ctx, state, TileKind.HOSPITAL)


def monastery_sites(ctx: Context, state: SooState) -> list[str]:
    """Space ids where a Monastery could be placed now (10.3, 10.7.9); cost not checked."""
    return _sites(ctx, state, TileKind.MONASTERY)


def akritai_sites(ctx: Context, state: SooState) -> list[str]:
    """Space ids where an Akritai could be placed now (10.3); cost not checked."""
    return _sites(ctx, state, TileKind.AKRITAI)


@RULES.implements("10.3")
def build(ctx: Context, state: SooState, kind: TileKind | str, space: str) -> SooState:
    """Place a tile of a kind from the Counter Tray, front side up, on a valid space.

    Nothing is paid here (the paid build is :class:`Build`; Slavery, 10.7.9, builds
    for free). ``space`` must be one of the kind's sites.
    """
    kind = _kind(kind)
    tile = _spare(ctx, state, kind)
    if tile is None or ctx.cat.space(space) not in infrastructure_spaces(ctx, state, kind):
        raise ValueError(f"no {kind.value} can be built on {space} now")
    board = state.board.move(tile, ctx.cat.space(space)).flip(tile, False)
    where = ctx.cat.spaces[board.where[tile]].name
    ctx.log("10.3", f"a {kind.value} is built in {where}", "infrastructure")
    return replace(state, "board", board)


def _pay(ctx: Context, state: SooState, amount: int, rule: str) -> SooState:
    total = marker(ctx, state, "solidus") - amount
    ctx.log(rule, f"-{amount} $: treasury {total}", "solidus")
    return set_marker(ctx, state, "solidus", total)


@attrs.frozen
class Build(Task):
    """10.3: pay for a tile of ``kind`` (``"hospital"``...) and build it on ``space``."""

    kind: str
    space: str

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state = _pay(ctx, state, build_cost(ctx, state, self.kind), "10.3")
        return build(ctx, state, self.kind, self.space)


# -- 10.3 rebuilding what is behind enemy lines ----------------------------------------


@RULES.implements("10.3")
def behind_enemy_lines(ctx: Context, state: SooState, tile: int) -> bool:
    """A Hospital or an Akritai on the map that the Barbarians have cut off (10.4).

    The player may leave it to be reconquered, or rebuild it on a valid space.
    """
    return _path_of(ctx, state, tile) is not None and not holds_position(ctx, state, tile)


@RULES.implements("10.3")
def rebuild_sites(ctx: Context, state: SooState, tile: int) -> list[str]:
    """Where a Hospital or Akritai behind enemy lines may be rebuilt (space ids)."""
    kind = ctx.cat.tiles[tile].kind
    if kind is TileKind.MONASTERY or not behind_enemy_lines(ctx, state, tile):
        return []
    return [ctx.cat.spaces[s].id for s in infrastructure_spaces(ctx, state, kind, tile)]


@attrs.frozen
class Rebuild(Task):
    """10.3: pay the building price and move ``tile`` from behind enemy lines to ``space``.

    The tile keeps its face: a used Hospital or Akritai stays used until 11.10.
    """

    tile: str
    space: str

    @RULES.implements("10.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = ctx.cat.tile(self.tile)
        kind = ctx.cat.tiles[tile].kind
        state = _pay(ctx, state, build_cost(ctx, state, kind), "10.3")
        old = ctx.cat.spaces[state.board.where[tile]].name
        state = attrs.evolve(state, board=state.board.move(tile, ctx.cat.space(self.space)))
        new = ctx.cat.spaces[state.board.where[tile]].name
        ctx.log("10.3", f"the {kind.value} of {old} is rebuilt in {new}", "infrastructure")
        return state


# -- 10.14 reopening Monasteries -------------------------------------------------------


@RULES.implements("10.14")
def reopenable_monasteries(ctx: Context, state: SooState) -> list[int]:
    """Isolated Monasteries in a Zone of fewer than five Barbarians: they may reopen for free."""
    return [
        monastery
        for monastery in _on_map(ctx, state, TileKind.MONASTERY)
        if state.board.back[monastery] and holds_position(ctx, state, monastery)
    ]


@RULES.implements("10.14")
def reopen_monastery(ctx: Context, state: SooState, tile: int) -> SooState:
    """Turn an Isolated Monastery back to its active side (9.7 undone)."""
    path = _path_of(ctx, state, tile)
    ctx.log("10.14", f"the Monastery of Zone {path} reopens", "infrastructure")
    return attrs.evolve(state, board=state.board.flip(tile, False))


@attrs.frozen
class ReopenMonastery(Task):
    """10.14: reopen the Isolated Monastery ``tile``."""

    tile: str

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return reopen_monastery(ctx, state, ctx.cat.tile(self.tile))


# -- 10.4.2 the Akritai ----------------------------------------------------------------


@RULES.implements("10.4.2")
def akritai_for(ctx: Context, state: SooState, request: Request) -> int | None:
    """The Akritai that may adjust a roll applying to one Path alone, if any.

    It must stand on that Path, unused and not behind enemy lines (10.4). For the
    rolls of an Army entering a space (Taurus, Hospital) the space entered still
    counts as the player's.
    """
    path = request.path
    if path is None:
        return None
    entering = None
    if request.rule in ENTRY_ROLLS and not path.western:
        army = eastern_army(ctx, state, path)
        entering = None if army is None else state.board.where[army]
    for akritai in ctx.cat.tiles_of(TileKind.AKRITAI):
        if _path_of(ctx, state, akritai) is path and usable(ctx, state, akritai, entering):
            return akritai
    return None


@RULES.implements("10.4.2")
def akritai_options(die: int) -> tuple[SooAction, ...]:
    """Keep the die, or turn it one point down or up; it never leaves 1 to 6."""
    options: list[SooAction] = [Decline()]
    if die > 1:
        options.append(Select(AKRITAI_DOWN))
    if die < 6:
        options.append(Select(AKRITAI_UP))
    return tuple(options)


def akritai_intercept(
    ctx: Context, state: SooState, request: Request, roll: Roll
) -> SooState | None:
    """10.4.2: before a roll that applies to one Path alone is used, offer the Akritai.

    Returns the state waiting for the player's adjustment, or ``None`` when no
    Akritai can adjust this roll (the roll then goes straight to its task).
    """
    if len(roll.dice) != 1:
        return None
    akritai = akritai_for(ctx, state, request)
    if akritai is None:
        return None
    die = roll.dice[0]
    task = AkritaiAdjust(request.task, request.rule, die, ctx.cat.tiles[akritai].id)
    prompt = f"Akritai of Path {request.path}: adjust the {die} ({request.prompt})?"
    return ask_choice(state, task, "10.4.2", prompt, akritai_options(die))


@attrs.frozen
class AkritaiAdjust(Task):
    """10.4.2: the player's answer to the Akritai, then the roll goes to ``task``.

    ``rule`` is the rule that asked for the roll, ``die`` what the die showed,
    ``akritai`` the tile offering its help. Used, the Akritai turns to its back
    until the End of Turn (11.10); the adjusted die is delivered as the roll itself.
    """

    task: Task
    rule: str
    die: int
    akritai: str

    @RULES.implements("10.4.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:  # pragma: no cover - only ever run with the player's answer
            return ask_choice(state, self, "10.4.2", "Akritai", akritai_options(self.die))
        die = self.die
        if isinstance(answer, Select):
            tile = ctx.cat.tile(self.akritai)
            die += -1 if answer.item == AKRITAI_DOWN else 1
            space = ctx.cat.spaces[state.board.where[tile]].name
            ctx.log(
                "10.4.2",
                f"the Akritai of {space} turn the {self.die} into {die} ({self.rule})",
                "akritai",
            )
            state = attrs.evolve(state, board=state.board.flip(tile, True))
        return run_task(ctx, state, self.task, Roll((die,)))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The offer again (validation): the roll's own task asks its roll again, and the
        Akritai offer that roll's adjustment."""
        if not 1 <= self.die <= 6:
            return state
        rolling = ask_again(ctx, state, self.task)
        request = rolling.pending
        if request is None or request.kind is not RequestKind.ROLL or request.rule != self.rule:
            return state
        offered = akritai_intercept(ctx, state, request, Roll((self.die,)))
        return state if offered is None else offered


# -- the menu --------------------------------------------------------------------------


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """Build, rebuild, reopen: what is legal and affordable now, in a fixed order.

    Builds by kind (Hospital, Monastery, Akritai) and site in Path order; then the
    rebuilds of tiles behind enemy lines; then the free reopening of Monasteries.
    """
    treasury = marker(ctx, state, "solidus")
    found: list[Offer] = []
    for kind in KINDS:
        if treasury < build_cost(ctx, state, kind):
            continue
        name = kind.value
        for site in _sites(ctx, state, kind):
            found.append(make_offer(f"build {name} {site}", Build, name, site))
    for kind in (TileKind.HOSPITAL, TileKind.AKRITAI):
        if treasury < build_cost(ctx, state, kind):
            continue
        for tile in _on_map(ctx, state, kind):
            tile_id = ctx.cat.tiles[tile].id
            for site in rebuild_sites(ctx, state, tile):
                found.append(make_offer(f"rebuild {tile_id} {site}", Rebuild, tile_id, site))
    for monastery in reopenable_monasteries(ctx, state):
        tile_id = ctx.cat.tiles[monastery].id
        found.append(make_offer(f"reopen {tile_id}", ReopenMonastery, tile_id))
    return found
