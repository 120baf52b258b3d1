"""Chapter 9, the Barbarian Phase: the Barbarians advance on Constantinople.

Each Path letter on the current Turn Chit makes the Barbarians of that Path advance
once (9.1); the Kan and the Caliph add advances where the chit already calls for one
(9.4). In the West an advance deploys the strongest Army from the Reserves into the
Zone, or the Siege tile once the Reserves hold nothing else (9.2); in the East the
Path's Army steps one space towards Constantinople, and a step into the capital
becomes a Siege instead (9.3). Several things may stop an advance (9.5.1-9.5.5);
a Siege is resolved at once (9.6, :mod:`~byzantium.sword_of_orthodoxy.siege`).
The phase ends by cutting off Monasteries in crowded Zones (9.7).

:class:`Advance` is one Barbarian Advance, the unit other chapters reuse (random
advances 5.3.6, abandoned Outposts 10.2, Shifting forces 10.13 with
``unopposed=True``...).

Order of the blocking rolls on one advance (the rulebook does not fix it; see the
rulings page under 9.5): first what stops the Barbarians from setting out at all,
then what throws them back from the space they enter:

1. Tribute on the Path (9.5.4);
2. the Kastron on the Path (9.5.5);
3. Support Units in Zone Β against the Ottomans (9.5.3);
4. the advance itself (9.2, 9.3);
5. a Taurus Mountain space entered (9.5.1);
6. a Hospital in the space entered (9.5.2).

The first of them that stops the advance ends it; later ones are not rolled.
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace, replace_fields
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_roll, push
from byzantium.sword_of_orthodoxy.siege import Siege
from byzantium.sword_of_orthodoxy.state import Decline, Roll, Select, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    army_strength,
    current_chit,
    eastern_army,
    is_muslim,
    marker,
    move,
    reserve_armies,
    set_marker,
    tile_name,
    tribe,
    zone_armies,
)

__all__ = [
    "Advance",
    "BarbarianPhase",
    "IsolateMonasteries",
    "chit_advances",
    "eastern_step",
    "hospital_roll",
    "isolate_monasteries",
    "kastron_roll",
    "kastron_usable",
    "leader_advances",
    "muslim_barbarians",
    "ravenna_to_holy_roman_empire",
    "support_options",
    "support_outcome",
    "taurus_roll",
    "tribute_roll",
    "western_deployment",
]

#: A Zone is full with five Barbarian Armies (9.2, 9.7).
FULL_ZONE = 5
#: Tribe tile of the Ottomans on Path Β (9.5.3).
OTTOMANS_BETA = "tribe-beta-ottomans"

# Steps of one advance, in the order they are tried (see the module documentation).
_TRIBUTE = "tribute"
_KASTRON = "kastron"
_SUPPORT = "support"
_SUPPORT_ROLL = "support-roll"
_MOVE = "move"
_TAURUS = "taurus"
_HOSPITAL = "hospital"
_STEPS = (_TRIBUTE, _KASTRON, _SUPPORT, _MOVE, _TAURUS, _HOSPITAL)


# -- who the Barbarians are ---------------------------------------------------------


def _position(ctx: Context, state: SooState, path: Path, tile: int) -> int:
    """1 (next to Constantinople) ... 5 (Homeland): where an eastern tile stands."""
    return ctx.cat.themas(path).index(state.board.where[tile]) + 1


@RULES.implements("9.1.1")
def muslim_barbarians(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether the Barbarians of a Path are Muslim: their tile shows the Muslim icon.

    On a western Path the Tribe tile decides; on an eastern Path the Army (the green
    bar under the name is the ``muslim`` icon of the component data).
    """
    tile = tribe(ctx, state, path) if path.western else eastern_army(ctx, state, path)
    return tile is not None and is_muslim(ctx, state, tile)


def _power(ctx: Context, state: SooState, tile: int) -> tuple[int, int]:
    """An Army's strength as it lies, then the strength of its other face."""
    record = ctx.cat.tiles[tile]
    other = record.front if state.board.back[tile] else record.back
    current = army_strength(ctx, state, tile)
    return current, current if other is None else other.strength


# -- 9.1 and 9.4: how many advances ---------------------------------------------


@RULES.implements("9.1")
def chit_advances(ctx: Context, state: SooState) -> tuple[Path, ...]:
    """The Paths whose Barbarians the current Turn Chit advances, in Path order.

    Each Greek letter on the chit is one advance on that Path; letters on Α, Β, Γ are
    western advances (9.2), on Δ, Ε, Ζ eastern ones (9.3). No chit, no advance.
    """
    chit = current_chit(ctx, state)
    if chit is None:
        return ()
    return tuple(sorted(ctx.cat.chits[chit].paths))


def _leader_on(ctx: Context, state: SooState, tile_id: str, path: Path) -> bool:
    """Whether a leader tile stands on the Homeland or Zone of a Path (7.2, 7.3)."""
    space = ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]]
    return space.path is path and space.kind in (SpaceKind.HOMELAND, SpaceKind.ZONE)


@RULES.implements("9.4")
def leader_advances(ctx: Context, state: SooState, path: Path) -> int:
    """The extra advances the Kan and the Caliph bring on a Path this Turn (0, 1 or 2).

    Each leader on the Path adds one advance, but only when the chit already calls
    for an advance there. The Kan acts on either face (its "Rex" side is the same
    tile, 7.2); the Caliph only on its Caliph side and only where the Barbarians are
    Muslim (7.3, 9.1.1), so both together give two extra advances on a Muslim Path.
    """
    if path not in chit_advances(ctx, state):
        return 0
    extra = 0
    if _leader_on(ctx, state, "marker-kan", path):
        extra += 1
    caliph = ctx.cat.tile("marker-caliph")
    if (
        _leader_on(ctx, state, "marker-caliph", path)
        and not state.board.back[caliph]
        and muslim_barbarians(ctx, state, path)
    ):
        extra += 1
    return extra


# -- 9.2 and 9.3: the advance itself ------------------------------------------------


def _siege_tiles(ctx: Context, state: SooState, space: str) -> list[int]:
    index = ctx.cat.space(space)
    return [t for t in ctx.cat.tiles_of(TileKind.SIEGE) if state.board.where[t] == index]


@RULES.implements("9.2")
def western_deployment(ctx: Context, state: SooState, path: Path) -> int | None:
    """The tile a western advance moves from the Reserves into the Zone.

    The strongest Army in the Reserves; among Armies of equal strength, the one whose
    other face is the stronger (so that a later change of Tribe cannot make the
    choice look wrong), then the first in catalogue order. Only when no Army is left
    in the Reserves does the Siege tile go (it waits in the Reserves; should it be
    missing there, one is taken from the Counter Tray). ``None`` if nothing can move.
    """
    armies = reserve_armies(ctx, state, path)
    if armies:
        return max(armies, key=lambda t: (*_power(ctx, state, t), -t))
    sieges = _siege_tiles(ctx, state, f"reserves-{path.slug}")
    sieges = sieges or _siege_tiles(ctx, state, "counter-tray")
    return sieges[0] if sieges else None


@RULES.implements("9.3")
def eastern_step(ctx: Context, state: SooState, path: Path) -> int | None:
    """The space index an eastern Path's Barbarians step into, or ``None`` for a Siege.

    The Army moves one space closer to Constantinople. From the Thema next to the
    capital it cannot enter it: it stays, and a Siege tile is placed there instead
    (``None``). Callers check first that the Path has an Army.
    """
    army = eastern_army(ctx, state, path)
    assert army is not None
    position = _position(ctx, state, path, army)
    if position == 1:
        return None
    return ctx.cat.themas(path)[position - 2]


def _place_eastern_siege(ctx: Context, state: SooState, path: Path) -> SooState:
    """Put a Siege tile from the Counter Tray in the Thema next to Constantinople."""
    thema = ctx.cat.themas(path)[0]
    space_id = ctx.cat.spaces[thema].id
    sieges = _siege_tiles(ctx, state, "counter-tray")
    if not sieges:
        ctx.log("9.3", f"Path {path}: no Siege tile is left on the Counter Tray", "siege")
        return state
    where = ctx.cat.spaces[thema].name
    ctx.log("9.3", f"Path {path}: the Barbarians besiege Constantinople from {where}", "siege")
    return move(ctx, state, sieges[0], space_id)


# -- 9.5: what blocks an advance ----------------------------------------------------


def _on_path(ctx: Context, state: SooState, tile_id: str, path: Path) -> bool:
    return ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]].path is path


@RULES.implements("9.5.4")
def tribute_roll(ctx: Context, state: SooState, path: Path, roll: int) -> tuple[SooState, bool]:
    """Tribute paid on a Path (6.5) against one advance there: ``(state, blocked)``.

    A 6 breaks the treaty: the Tribute returns to the Counter Tray and the advance
    goes ahead. Any other roll stops the advance (the Army stays in the Reserves, or
    where it stands in the East) and the Tribute stays for the next attempt.
    """
    if roll == 6:
        ctx.log("9.5.4", f"Path {path}: Tribute roll 6, the treaty fails", "block")
        return move(ctx, state, ctx.cat.tile("marker-tribute"), "counter-tray"), False
    ctx.log("9.5.4", f"Path {path}: Tribute roll {roll}, the advance is bought off", "block")
    return state, True


def kastron_usable(ctx: Context, state: SooState, path: Path) -> bool:
    """A Kastron acts on its Path's advances while its space is in Byzantine hands.

    In the West it stands on the Zone; in the East on a Thema, which must lie closer
    to Constantinople than the Barbarians (a Kastron overrun on a 6 waits until its
    space is recovered, 9.5.5).
    """
    kastron = ctx.cat.tile("marker-kastron")
    if not _on_path(ctx, state, "marker-kastron", path):
        return False
    if path.western:
        return state.board.where[kastron] == ctx.cat.zone(path)
    army = eastern_army(ctx, state, path)
    if army is None or state.board.where[kastron] not in ctx.cat.themas(path):
        return False
    return _position(ctx, state, path, kastron) < _position(ctx, state, path, army)


@RULES.implements("9.5.5")
def kastron_roll(ctx: Context, state: SooState, path: Path, roll: int) -> tuple[SooState, bool]:
    """The Kastron on a Path against one advance there: ``(state, blocked)``.

    1-4 stop the advance; on a 5 the Barbarians get through and the Kastron goes to
    the Counter Tray; on a 6 they get through and the Kastron stays.
    """
    if roll <= 4:
        ctx.log("9.5.5", f"Path {path}: Kastron roll {roll}, the advance is stopped", "block")
        return state, True
    if roll == 5:
        ctx.log("9.5.5", f"Path {path}: Kastron roll 5, the Kastron falls", "block")
        return move(ctx, state, ctx.cat.tile("marker-kastron"), "counter-tray"), False
    ctx.log("9.5.5", f"Path {path}: Kastron roll 6, the Barbarians slip past", "block")
    return state, False


def _support_units(ctx: Context, state: SooState, path: Path) -> list[int]:
    """Support Units that face this advance: in Zone Β, against the Ottomans only."""
    if path is not Path.BETA:
        return []
    current = tribe(ctx, state, path)
    if current is None or ctx.cat.tiles[current].id != OTTOMANS_BETA:
        return []
    zone = ctx.cat.zone(path)
    return [t for t in ctx.cat.tiles_of(TileKind.SUPPORT) if state.board.where[t] == zone]


@RULES.implements("9.5.3")
def support_options(ctx: Context, state: SooState, path: Path) -> tuple[SooAction, ...]:
    """The player's answers when the Ottomans try to deploy into Zone Β past Support Units.

    ``Decline`` lets the deployment through; ``Select("sacrifice <unit>")`` sends the
    Unit to the Counter Tray and stops it; ``Select("prop <unit>")`` (offered only
    with 1 $ in the treasury) pays 1 $ and makes the Ottomans roll against the Unit.
    With two Units, each can be chosen. Empty when no Unit faces this advance.
    """
    units = _support_units(ctx, state, path)
    if not units:
        return ()
    ids = [ctx.cat.tiles[t].id for t in units]
    options: list[SooAction] = [Decline()]
    options += [Select(f"sacrifice {unit}") for unit in ids]
    if marker(ctx, state, "solidus") >= 1:
        options += [Select(f"prop {unit}") for unit in ids]
    return tuple(options)


def support_outcome(ctx: Context, state: SooState, unit: int, roll: int) -> tuple[SooState, bool]:
    """A propped-up Support Unit against the Ottomans' die (9.5.3): ``(state, blocked)``.

    A roll above the Unit's value defeats it (back to the Counter Tray) and the
    Ottomans deploy; otherwise they stay in the Reserves and the Unit stays.
    """
    value = ctx.cat.face(state.board, unit).strength
    name = tile_name(ctx, state, unit)
    if roll > value:
        ctx.log("9.5.3", f"the Ottomans roll {roll} > {value}: {name} is overrun", "block")
        return move(ctx, state, unit, "counter-tray"), False
    ctx.log("9.5.3", f"the Ottomans roll {roll}: {name} holds them off", "block")
    return state, True


def _entered_taurus(ctx: Context, state: SooState, path: Path, tile: int) -> bool:
    if path.western:
        return False
    return Icon.TAURUS in ctx.cat.spaces[state.board.where[tile]].icons


def _thrown_back(ctx: Context, state: SooState, path: Path, tile: int) -> SooState:
    """An advancing tile returns where it came from: the Reserves, or one space back."""
    if path.western:
        return move(ctx, state, tile, f"reserves-{path.slug}")
    origin = ctx.cat.themas(path)[_position(ctx, state, path, tile)]
    return move(ctx, state, tile, ctx.cat.spaces[origin].id)


@RULES.implements("9.5.1")
def taurus_roll(
    ctx: Context, state: SooState, path: Path, army: int, roll: int
) -> tuple[SooState, bool]:
    """An Army that has just entered a Taurus Mountain space: ``(state, thrown back)``.

    A roll above the Army's strength sends it back to the space it came from. Only
    advances roll (never retreats), and a later advance into the mountains rolls again.
    """
    strength = army_strength(ctx, state, army)
    if roll > strength:
        ctx.log("9.5.1", f"Path {path}: Taurus roll {roll} > {strength}, thrown back", "block")
        return _thrown_back(ctx, state, path, army), True
    ctx.log("9.5.1", f"Path {path}: Taurus roll {roll}, the Army crosses", "block")
    return state, False


def _usable_hospital(ctx: Context, state: SooState, path: Path, tile: int) -> int | None:
    """A Hospital (front side up) in the space an Army has just entered.

    A western Hospital works against Armies only: an Army deploys into a Zone that
    held at most four (10.3, 10.4), while the Siege tile, which comes when the Zone is
    full, is no Army and rolls nothing.
    """
    del path
    if ctx.cat.tiles[tile].kind is TileKind.SIEGE:
        return None
    space = state.board.where[tile]
    for hospital in ctx.cat.tiles_of(TileKind.HOSPITAL):
        if state.board.where[hospital] == space and not state.board.back[hospital]:
            return hospital
    return None


@RULES.implements("9.5.2")
def hospital_roll(
    ctx: Context, state: SooState, path: Path, army: int, roll: int
) -> tuple[SooState, bool]:
    """An Army that has just entered a space with a Hospital: ``(state, thrown back)``.

    The same test as a Taurus space (9.5.1): above its strength, the Army goes back
    (to the Reserves in the West). A Taurus space with a Hospital rolls twice.
    """
    strength = army_strength(ctx, state, army)
    if roll > strength:
        ctx.log("9.5.2", f"Path {path}: Hospital roll {roll} > {strength}, thrown back", "block")
        return _thrown_back(ctx, state, path, army), True
    ctx.log("9.5.2", f"Path {path}: Hospital roll {roll}, the Army holds", "block")
    return state, False


# -- one advance ----------------------------------------------------------------


def _die(answer: SooAction | None) -> int:
    assert isinstance(answer, Roll)
    return answer.dice[0]


@attrs.frozen
class Advance(Task):
    """One Barbarian Advance on a Path (9.2 West, 9.3 East), with its blocking rolls.

    ``rule`` names what caused it (``"9.1"``, ``"9.4"``, ``"5.3.6"``, ``"10.13"``...);
    ``unopposed`` advances (10.13) skip every blocking roll of 9.5. A Siege it causes
    is resolved at once. ``step``, ``tile`` (the moving tile) and ``unit`` (a propped-up
    Support Unit, 9.5.3) carry its progress between requests.
    """

    path: Path
    rule: str
    unopposed: bool = False
    step: str = ""
    tile: str = ""
    unit: str = ""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not self.step:
            return self._start(ctx, state)
        if answer is None:  # pragma: no cover - a step is only stored with a request
            return self._go(ctx, state, self.step)
        return self._resume(ctx, state, answer)

    def _start(self, ctx: Context, state: SooState) -> SooState:
        if self.path.western:
            mover = western_deployment(ctx, state, self.path)
        else:
            mover = eastern_army(ctx, state, self.path)
        if mover is None:
            ctx.log(self.rule, f"Path {self.path}: no Barbarian can advance", "advance")
            return state
        return self.of(ctx, state, mover)

    def of(self, ctx: Context, state: SooState, mover: int) -> SooState:
        """This advance made by a given tile: a western Army (or the Siege tile) of the
        Path's Reserves, or the eastern Path's Army, with every blocking roll of 9.5.

        Used when a rule names the tile that moves (6.7.3.1: the weakest Army of the
        Reserves) instead of the strongest of 9.2.
        """
        task = replace_fields(self, step=_TRIBUTE, tile=ctx.cat.tiles[mover].id)
        return task._go(ctx, state, _TRIBUTE)

    def _next(self, ctx: Context, state: SooState, done: str) -> SooState:
        return self._go(ctx, state, _STEPS[_STEPS.index(done) + 1])

    def _go(self, ctx: Context, state: SooState, step: str) -> SooState:
        """Try the steps from ``step`` on, asking for the first roll or choice needed."""
        path = self.path
        tile = ctx.cat.tile(self.tile)
        for current in _STEPS[_STEPS.index(step) :]:
            opposed = not self.unopposed
            if current == _TRIBUTE and opposed and _on_path(ctx, state, "marker-tribute", path):
                task = self._at(current)
                return ask_roll(state, task, "9.5.4", f"Tribute roll on Path {path}", path=path)
            if current == _KASTRON and opposed and kastron_usable(ctx, state, path):
                task = self._at(current)
                return ask_roll(state, task, "9.5.5", f"Kastron roll on Path {path}", path=path)
            if current == _SUPPORT and opposed:
                options = support_options(ctx, state, path)
                if options:
                    prompt = "the Ottomans deploy into Zone Β: use a Support Unit?"
                    return ask_choice(state, self._at(current), "9.5.3", prompt, options)
            if current == _MOVE:
                state, arrived = self._move(ctx, state, tile)
                if not arrived:
                    return state
            if current == _TAURUS and opposed and _entered_taurus(ctx, state, path, tile):
                task = self._at(current)
                return ask_roll(state, task, "9.5.1", f"Taurus roll on Path {path}", path=path)
            hospital = _usable_hospital(ctx, state, path, tile) if current == _HOSPITAL else None
            if hospital is not None and opposed:
                task = self._at(current)
                return ask_roll(state, task, "9.5.2", f"Hospital roll on Path {path}", path=path)
        return state

    def _at(self, step: str) -> Advance:
        """This advance paused at ``step``, to be resumed with the answer to its request."""
        return replace(self, "step", step)

    def _move(self, ctx: Context, state: SooState, tile: int) -> tuple[SooState, bool]:
        """Carry out the advance; ``False`` when it ended in a Siege (already pushed)."""
        path = self.path
        name = tile_name(ctx, state, tile)
        if path.western:
            state = move(ctx, state, tile, f"zone-{path.slug}")
            if ctx.cat.tiles[tile].kind is TileKind.SIEGE:
                ctx.log("9.2", f"Path {path}: the Siege tile enters the Zone", "siege")
                return push(state, Siege(path)), False
            strength = army_strength(ctx, state, tile)
            ctx.log(
                "9.2", f"Path {path}: an Army of strength {strength} enters the Zone", "advance"
            )
            return state, True
        target = eastern_step(ctx, state, path)
        if target is None:
            return push(_place_eastern_siege(ctx, state, path), Siege(path)), False
        state = move(ctx, state, tile, ctx.cat.spaces[target].id)
        ctx.log("9.3", f"Path {path}: {name} advances to {ctx.cat.spaces[target].name}", "advance")
        return state, True

    def _resume(self, ctx: Context, state: SooState, answer: SooAction) -> SooState:
        path = self.path
        tile = ctx.cat.tile(self.tile)
        blocked = False
        match self.step:
            case "tribute":
                state, blocked = tribute_roll(ctx, state, path, _die(answer))
            case "kastron":
                state, blocked = kastron_roll(ctx, state, path, _die(answer))
            case "support":
                return self._support(ctx, state, answer)
            case "support-roll":
                unit = ctx.cat.tile(self.unit)
                state, blocked = support_outcome(ctx, state, unit, _die(answer))
                if not blocked:
                    return self._go(ctx, state, _MOVE)
                return state
            case "taurus":
                state, blocked = taurus_roll(ctx, state, path, tile, _die(answer))
            case "hospital":
                state, blocked = hospital_roll(ctx, state, path, tile, _die(answer))
            case _:  # pragma: no cover
                raise AssertionError(self.step)
        if blocked or self.step == _HOSPITAL:
            return state
        return self._next(ctx, state, self.step)

    def _support(self, ctx: Context, state: SooState, answer: SooAction) -> SooState:
        """The player's use of a Support Unit (9.5.3)."""
        if isinstance(answer, Decline):
            ctx.log("9.5.3", "the Support Units let the Ottomans through", "block")
            return self._go(ctx, state, _MOVE)
        assert isinstance(answer, Select)
        how, unit_id = answer.item.split(" ", 1)
        unit = ctx.cat.tile(unit_id)
        if how == "sacrifice":
            ctx.log("9.5.3", f"{tile_name(ctx, state, unit)} is sacrificed: no deployment", "block")
            return move(ctx, state, unit, "counter-tray")
        state = set_marker(ctx, state, "solidus", marker(ctx, state, "solidus") - 1)
        ctx.log("9.5.3", f"1 $ props up {tile_name(ctx, state, unit)}", "block")
        task = attrs.evolve(self, step=_SUPPORT_ROLL, unit=unit_id)
        prompt = "the Ottomans roll against the Support Unit"
        return ask_roll(state, task, "9.5.3", prompt, path=Path.BETA)


@RULES.implements("8.4.1")
def ravenna_to_holy_roman_empire(ctx: Context, state: SooState) -> SooState:
    """8.4.1 Ravenna: from the Turn after its placement, 4 or 5 Barbarians in Zone Β flip
    Ravenna to the Holy Roman Empire for good (-1 on attacks there).

    "At any point": a standing rule of the game, checked after every step of the
    procedure (:func:`~byzantium.sword_of_orthodoxy.engine.settle`), so it sees an
    Army deployed by 9.2, by a doubled Dynatoi (6.7.3.1), by an abandoned Sicily or
    by anything else, and a Zone that already holds four or five Armies when the
    next Turn begins (4.1).
    """
    ravenna = ctx.cat.tile("marker-ravenna")
    if state.board.where[ravenna] != ctx.cat.space("zone-beta") or state.board.back[ravenna]:
        return state
    if state.turn <= state.counter("ravenna-turn"):
        return state
    if len(zone_armies(ctx, state, Path.BETA)) not in (4, 5):
        return state
    ctx.log("8.4.1", "Ravenna becomes the Holy Roman Empire", "event")
    return attrs.evolve(state, board=state.board.flip(ravenna, True))


# -- 9.7 and the phase ---------------------------------------------------------------


@RULES.implements("9.7")
def isolate_monasteries(ctx: Context, state: SooState) -> SooState:
    """A Monastery in a Zone holding five Barbarian Armies turns to its Isolated side."""
    for path in WESTERN:
        if len(zone_armies(ctx, state, path)) < FULL_ZONE:
            continue
        zone = ctx.cat.zone(path)
        for monastery in ctx.cat.tiles_of(TileKind.MONASTERY):
            if state.board.where[monastery] == zone and not state.board.back[monastery]:
                state = attrs.evolve(state, board=state.board.flip(monastery, True))
                ctx.log("9.7", f"the Monastery of Zone {path} is isolated", "monastery")
    return state


@attrs.frozen
class IsolateMonasteries(Task):
    """The last step of the Barbarian Phase (9.7)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return isolate_monasteries(ctx, state)


@attrs.frozen
class BarbarianPhase(Task):
    """The Barbarian Phase (9.0, Appendix C step F).

    One advance per letter of the current chit, Paths in the order Α Β Γ Δ Ε Ζ (9.1);
    then the Kan's and the Caliph's extra advances, in the same Path order (9.4:
    Appendix C lists them after the chit's advances); then 9.7. Every Siege is
    resolved as soon as its advance causes it, so a Path with several advances may
    suffer several Sieges in turn.
    """

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        paths = chit_advances(ctx, state)
        ctx.log("9.1", f"the Barbarians advance on {' '.join(map(str, paths)) or 'no Path'}")
        advances: list[Task] = [Advance(path, "9.1") for path in paths]
        for path in (*WESTERN, *EASTERN):
            advances += [Advance(path, "9.4")] * leader_advances(ctx, state, path)
        return push(state, *advances, IsolateMonasteries())
