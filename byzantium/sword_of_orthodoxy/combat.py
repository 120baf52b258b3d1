"""Byzantine attacks (10.6): targets, modifiers, the roll, and Barbarian defeats.

:class:`Attack` is one Byzantine attack: the player picks a legal target
(:func:`legal_targets`) or declines, one die is rolled, its modifiers are summed
(:func:`attack_drms`, one small function per rule) and the attack succeeds when
the modified roll beats the target's strength (:func:`attack_succeeds`, with the
natural 1 and 6 of rule 1.1). A beaten Barbarian Army is defeated by
:class:`Repulse`, which other rules use too (a doubled Christians tile, 6.7.3.1).

Events, Sieges (12.1) and the Crusades grant free attacks. The paid attacks of
the Byzantine Action Phase (:mod:`~byzantium.sword_of_orthodoxy.battles`: 1 $, or
2 $ against a Stolos, 10.6.5) reuse :class:`Attack`: its steps are choose a target
(or take the one given), pay the attack's ``cost``, roll, resolve. The attacker
may bring modifiers of his own (the Magister Militum's +1, 10.8), and a lost
battle may have consequences (``on_failure``: the Magister's fall).

Where the Stolos sits
    The rulebook puts the Stolos *on* a hostile Army (8.4.1 "Stolos"). On an eastern
    Path the tile lies on any space of the Path and rides the Path's only Army. In a
    western Zone it lies on the Zone space and its track ``value`` names its Army:
    the 1-based position of that Army among the Path's Army tiles in catalogue
    order (``army-alpha-3`` is 3). A value naming no Army of the Zone (0, say) means
    the weakest Army there (8.4.1 has the player pick, and advises the weakest).
"""

from __future__ import annotations

import attrs

from byzantium.core import dice
from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.engine import (
    Context,
    ask_choice,
    ask_roll,
    board_query,
    facet_query,
    push,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    PATH_BARBARIANS,
    WESTERN,
    eastern_army,
    marker,
    move,
    set_counter,
    set_marker,
    tile_name,
    tiles_on,
    zone_armies,
)

__all__ = [
    "Attack",
    "FactionRiots",
    "Repulse",
    "attack_drms",
    "attack_succeeds",
    "bulgar_thema_drm",
    "bulgarian_church_drm",
    "colonised",
    "constantinople_targets",
    "gain_nike",
    "greek_fire_active",
    "greek_fire_drm",
    "greek_patriots_drm",
    "latins_and_riots_drm",
    "legal_targets",
    "military_event_drm",
    "only_the_stolos",
    "path_targets",
    "pay",
    "protected",
    "push_back",
    "ravenna_drm",
    "reforms_achieved",
    "round_letter_drm",
    "social_drm",
    "spend_comet",
    "stolos_carrier",
    "weakest",
    "withdraw_to_reserves",
]

#: Where a defeated Riot's Faction goes on the Omnibus Track (10.6.9.2).
RIOT_FACTION_SPACE = 2
#: The Faction that never leaves Constantinople (12.1's closing note).
WALLS = "faction-walls"
#: The Themas next to Constantinople where Greek Patriots help (10.6.6.2).
PATRIOT_POSITION = 1
#: A Zone with this many Barbarians is about to besiege Constantinople (10.6.6.2).
FULL_ZONE = 5
#: Eastern positions: 1 next to Constantinople ... 5 the Homeland.
HOMELAND = 5


# -- who is where ---------------------------------------------------------------------


def _position(ctx: Context, state: SooState, tile: int) -> int:
    """1 next to Constantinople ... 5 the Homeland, for a tile on an eastern Path."""
    return ctx.cat.spaces[state.board.where[tile]].position


def weakest(ctx: Context, state: SooState, armies: list[int]) -> int:
    """The weakest of some Armies; among equals the last in catalogue order.

    Western Armies are numbered strongest first, so the last of the equals is the
    one with the highest number.
    """
    low = min(ctx.cat.face(state.board, a).strength for a in armies)
    return [a for a in armies if ctx.cat.face(state.board, a).strength == low][-1]


@board_query
@RULES.implements("10.6.5")
def stolos_carrier(ctx: Context, state: SooState) -> int | None:
    """The hostile Army the Stolos is on, or None when it is not on the map.

    See the module documentation for how the Stolos marks its Army.
    """
    stolos = ctx.cat.tile("marker-stolos")
    space = ctx.cat.spaces[state.board.where[stolos]]
    if space.path is None:
        return None
    if not space.path.western:
        return eastern_army(ctx, state, space.path)
    if space.kind is not SpaceKind.ZONE:
        return None
    armies = zone_armies(ctx, state, space.path)
    if not armies:
        return None
    numbered = ctx.cat.armies(space.path)
    value = state.board.value[stolos]
    if 1 <= value <= len(numbered) and numbered[value - 1] in armies:
        return numbered[value - 1]
    return weakest(ctx, state, armies)


def _put_stolos_on(ctx: Context, state: SooState, army: int) -> SooState:
    """Lay the Stolos on an Army (see the module documentation)."""
    stolos = ctx.cat.tile("marker-stolos")
    path = ctx.cat.tiles[army].path
    value = 0
    if path is not None and path.western:
        value = ctx.cat.armies(path).index(army) + 1
    board = state.board.move(stolos, state.board.where[army], value)
    return attrs.evolve(state, board=board)


def _stolos_to_lurking(ctx: Context, state: SooState) -> SooState:
    """A defeated Stolos goes back to the Lurking space (10.6.5)."""
    ctx.log("10.6.5", "the Stolos is defeated and returns to Lurking", "stolos")
    return move(ctx, state, ctx.cat.tile("marker-stolos"), "lurking")


def reforms_achieved(ctx: Context, state: SooState) -> bool:
    """Whether the Reforms are in effect: their tile has reached its map space (5.3.4)."""
    return state.board.where[ctx.cat.tile("marker-reforms")] == ctx.cat.space("reforms")


def greek_fire_active(ctx: Context, state: SooState) -> bool:
    """Whether Greek Fire is active: Lazica lies on the Greek Fire space (10.5)."""
    return state.board.where[ctx.cat.tile("outpost-lazica")] == ctx.cat.space("greek-fire")


def _on_path(ctx: Context, state: SooState, tile: int, path: Path) -> bool:
    """Whether a tile lies on one of a Path's map spaces (its Reserves excluded)."""
    space = ctx.cat.spaces[state.board.where[tile]]
    return space.path is path and space.kind is not SpaceKind.RESERVES


#: Every Path, in the order targets are listed.
ALL_PATHS = (*WESTERN, *EASTERN)


# -- legal targets ----------------------------------------------------------------------


@RULES.implements("10.6.7")
def colonised(ctx: Context, state: SooState, space: int) -> bool:
    """Whether a Thema is Muslim-colonised: it holds a Colonist or lies behind one.

    "Behind" is farther from Constantinople on the same Path. A colonised Thema is
    treated like a Homeland. The Colonist tiles show "Pagan" on their back, which
    colonises nothing.
    """
    record = ctx.cat.spaces[space]
    if record.path is None or record.path.western or not record.position:
        return False
    for tile in (ctx.cat.tile("marker-colonist-1"), ctx.cat.tile("marker-colonist-2")):
        where = ctx.cat.spaces[state.board.where[tile]]
        if state.board.back[tile] or where.path is not record.path or not where.position:
            continue
        if where.position <= record.position:
            return True
    return False


@RULES.implements("10.6", "10.6.7")
def protected(ctx: Context, state: SooState, army: int) -> bool:
    """Whether an Army is out of reach of an ordinary attack (10.6, 10.6.7).

    The last Army left in a Zone, an Army on its own Homeland and an Army on a
    colonised Thema may not be attacked.
    """
    path = ctx.cat.tiles[army].path
    if path is None:
        return False
    if path.western:
        return len(zone_armies(ctx, state, path)) <= 1
    space = state.board.where[army]
    return _position(ctx, state, army) == HOMELAND or colonised(ctx, state, space)


@RULES.implements("10.6.5")
def only_the_stolos(ctx: Context, state: SooState, army: int) -> bool:
    """Whether an attack on this Army can only fight its Stolos.

    A Stolos makes a protected Army a target, but beating it then defeats only
    the fleet: the Army stays where it is.
    """
    return stolos_carrier(ctx, state) == army and protected(ctx, state, army)


@RULES.implements("10.6.9.1", "10.6.9.2")
def constantinople_targets(ctx: Context, state: SooState) -> list[int]:
    """The Latins and the Riots in Constantinople: both may be attacked."""
    return tiles_on(ctx, state, "constantinople", TileKind.RIOT)


@facet_query(PATH_BARBARIANS)
@RULES.implements("10.6")
def path_targets(ctx: Context, state: SooState, path: Path, lone: bool = False) -> list[int]:
    """The Armies of one Path an attack may aim at (:func:`legal_targets`, Path by Path).

    Any hostile Army that is not protected (:func:`protected`), and a protected one
    carrying the Stolos (10.6.5); with ``lone``, only the last Army of a Zone
    (8.4.1). Read from the Path's own tiles and the Stolos and Colonists alone, so
    the answer is kept while Armies move elsewhere.
    """
    carrier = stolos_carrier(ctx, state)
    if path.western:
        armies = zone_armies(ctx, state, path)
        if lone:
            return armies if len(armies) == 1 else []
        # Every Army of a Zone is protected, or none is: asked once per Zone.
        shielded = bool(armies) and protected(ctx, state, armies[0])
        return [a for a in armies if a == carrier or not shielded]
    hostile = eastern_army(ctx, state, path)
    if lone or hostile is None:
        return []
    if hostile == carrier or not protected(ctx, state, hostile):
        return [hostile]
    return []


@board_query
@RULES.implements("10.6")
def legal_targets(
    ctx: Context,
    state: SooState,
    paths: tuple[Path, ...] = (),
    lone: bool = False,
    *,
    fleet: bool = True,
) -> list[int]:
    """What an attack may aim at, in a fixed order: Paths Α to Ζ, then Constantinople.

    Any hostile Army that is not protected (:func:`protected`), and a protected
    one carrying the Stolos (10.6.5). Given ``paths``, only their Armies; without
    them the Latins and Riots in Constantinople too (10.6.9.1, 10.6.9.2).

    ``lone`` is for the events that allow attacking the last Army of a Zone
    (8.4.1 "Tricameron", "Kleidion"): then only such Armies, of ``paths``.
    ``fleet=False`` leaves out the Army carrying the Stolos, for attacks that may
    not pay the fleet's price (10.13's free attack; see the rulings).
    """
    found: list[int] = []
    for path in paths or ALL_PATHS:
        # Asked as the battle offers ask it (one question, one answer kept).
        found += path_targets(ctx, state, path, True) if lone else path_targets(ctx, state, path)
    if not fleet:
        carrier = stolos_carrier(ctx, state)
        found = [a for a in found if a != carrier]
    if not paths and not lone:
        found.extend(constantinople_targets(ctx, state))
    return found


# -- die-roll modifiers -----------------------------------------------------------------


def _target_path(ctx: Context, target: int) -> Path | None:
    """The Path an attack on ``target`` takes place on (None in Constantinople)."""
    record = ctx.cat.tiles[target]
    return None if record.kind is TileKind.RIOT else record.path


@RULES.implements("10.6.2")
def military_event_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """The Military Event on the Strategikon helps (+1) or hinders (-1) on its Paths.

    The event tile's track position is the 1-based index of the event in the
    Strategikon table; on its waiting space there is no event.
    """
    tile = ctx.cat.tile("marker-military-event")
    path = _target_path(ctx, target)
    if path is None or state.board.where[tile] != ctx.cat.space("strategikon"):
        return ()
    events = ctx.cat.components.strategikon
    index = state.board.value[tile]
    if not 1 <= index <= len(events):
        return ()
    event = events[index - 1]
    if event.drm == 0 or path not in event.paths:
        return ()
    return (dice.Modifier(event.drm, event.name, "10.6.2"),)


@RULES.implements("10.6.3")
def latins_and_riots_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """Latins or a Riot in Constantinople: -1 on attacks anywhere else.

    One -1 whatever their number; attacks on the Latins and Riots themselves are
    not hindered.
    """
    occupants = constantinople_targets(ctx, state)
    if not occupants or target in occupants:
        return ()
    return (dice.Modifier(-1, "Latins or Riots in Constantinople", "10.6.3"),)


@RULES.implements("6.7.4", "10.6.4")
def social_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """Christians (+1) or Dynatoi (-1) on the attacked Path (6.7.4).

    Socials lie on the Zone of a western Path or the Homeland of an eastern one
    (6.7.3); either way they count for the whole Path.
    """
    path = _target_path(ctx, target)
    if path is None:
        return ()
    return tuple(
        dice.Modifier(
            -1 if state.board.back[social] else 1, tile_name(ctx, state, social), "10.6.4"
        )
        for social in ctx.cat.tiles_of(TileKind.SOCIAL)
        if _on_path(ctx, state, social, path)
    )


@RULES.implements("10.6.5")
def greek_fire_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """Active Greek Fire: +2 against an Army that carries the Stolos."""
    if not greek_fire_active(ctx, state) or stolos_carrier(ctx, state) != target:
        return ()
    return (dice.Modifier(2, "Greek Fire", "10.6.5"),)


@RULES.implements("10.6.6", "10.6.6.1")
def bulgar_thema_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """The Bulgar Thema in Zone Γ: +1 on every attack there."""
    tile = ctx.cat.tile("marker-bulgar-thema")
    if _target_path(ctx, target) is not Path.GAMMA or not _on_path(ctx, state, tile, Path.GAMMA):
        return ()
    return (dice.Modifier(1, "Bulgar Thema", "10.6.6.1"),)


@RULES.implements("10.6.6")
def bulgarian_church_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """The Bulgarian Church in Zone Γ: Orthodox +1, Roman Catholic -1 (8.4.1 "Bulgars")."""
    tile = ctx.cat.tile("marker-bulgarian-church")
    if _target_path(ctx, target) is not Path.GAMMA or not _on_path(ctx, state, tile, Path.GAMMA):
        return ()
    value = -1 if state.board.back[tile] else 1
    return (dice.Modifier(value, tile_name(ctx, state, tile), "10.6.6"),)


@RULES.implements("10.6.6")
def ravenna_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """Ravenna on Path Β: +1; turned Holy Roman Empire: -1 (8.4.1 "Ravenna")."""
    tile = ctx.cat.tile("marker-ravenna")
    if _target_path(ctx, target) is not Path.BETA or not _on_path(ctx, state, tile, Path.BETA):
        return ()
    value = -1 if state.board.back[tile] else 1
    return (dice.Modifier(value, tile_name(ctx, state, tile), "10.6.6"),)


@RULES.implements("10.6.6", "10.6.6.2")
def greek_patriots_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """With the Reforms, +1 against the Themas next to Constantinople or a full Zone.

    The Themas are Nicaea, Amorion and Ephesus; a full Zone holds five Barbarians.
    """
    path = _target_path(ctx, target)
    if path is None or not reforms_achieved(ctx, state):
        return ()
    if path.western:
        helped = len(zone_armies(ctx, state, path)) >= FULL_ZONE
    else:
        helped = _position(ctx, state, target) == PATRIOT_POSITION
    return (dice.Modifier(1, "Greek Patriots", "10.6.6.2"),) if helped else ()


@RULES.implements("5.3.8")
def round_letter_drm(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """The optional round-letter events that touch attacks (peer implementation).

    ⑥ Comet: -1 on the next attack of the Turn (the counter ``comet`` holds the
    Turn until an attack uses it up, :func:`spend_comet`). Ⓟ Sicilian Vespers: +1
    on attacks on the Latins in Constantinople that Turn (counter
    ``sicilian-vespers``).
    """
    found = []
    if state.counter("comet") == state.turn:
        found.append(dice.Modifier(-1, "Comet", "5.3.8"))
    record = ctx.cat.tiles[target]
    latins = record.kind is TileKind.RIOT and state.board.back[target]
    if latins and state.counter("sicilian-vespers") == state.turn:
        found.append(dice.Modifier(1, "Sicilian Vespers", "5.3.8"))
    return tuple(found)


def spend_comet(state: SooState) -> SooState:
    """After an attack's roll: the Comet's -1 (5.3.8 ⑥) has been used up."""
    if state.counter("comet") != state.turn:
        return state
    return set_counter(state, "comet", 0)


#: The modifiers of an attack, in rule order.
ATTACK_DRMS = (
    military_event_drm,
    latins_and_riots_drm,
    social_drm,
    greek_fire_drm,
    bulgar_thema_drm,
    bulgarian_church_drm,
    ravenna_drm,
    greek_patriots_drm,
    round_letter_drm,
)


@RULES.implements("10.6")
def attack_drms(ctx: Context, state: SooState, target: int) -> tuple[dice.Modifier, ...]:
    """Every modifier of an attack on ``target`` (10.6.2 to 10.6.6.2); they add up (1.1)."""
    return tuple(m for rule in ATTACK_DRMS for m in rule(ctx, state, target))


# -- the roll and its consequences --------------------------------------------------------


@RULES.implements("10.6", "1.1")
def attack_succeeds(natural: int, drms: tuple[dice.Modifier, ...], strength: int) -> bool:
    """An attack wins when the modified roll is greater than the target's strength.

    A natural 1 or 6 ignores every modifier (1.1).
    """
    return dice.Roll(natural, drms, natural_extremes=True).value > strength


@RULES.implements("10.6.1")
def gain_nike(ctx: Context, state: SooState, rule: str) -> SooState:
    """A battle won moves the Niké tile one space up the Omnibus Track."""
    level = marker(ctx, state, "nike") + 1
    ctx.log(rule, f"Niké +1: now {min(level, 12)}", "nike")
    return set_marker(ctx, state, "nike", level)


@RULES.implements("10.6")
def pay(ctx: Context, state: SooState, amount: int, rule: str, what: str) -> SooState:
    """Spend solidus from the treasury (the Solidus tile moves down the Omnibus Track)."""
    level = marker(ctx, state, "solidus")
    if amount > level:
        raise ValueError(f"rule {rule}: {what} costs {amount} $ but the treasury holds {level} $")
    ctx.log(rule, f"{amount} $ paid for {what}: {level - amount} $ left", "solidus")
    return set_marker(ctx, state, "solidus", level - amount)


@RULES.implements("10.6")
def withdraw_to_reserves(
    ctx: Context, state: SooState, path: Path, army: int | None, rule: str
) -> SooState:
    """A Barbarian defeated in a western Zone goes back to its Reserves.

    Unless named, the weakest Army goes. The Zone keeps its last Army (see the
    rulings). A Stolos on the withdrawn Army stays in the Zone on the weakest
    Army left: only a won attack sinks the fleet (10.6.5), and Attack does that
    itself before the defeat.
    """
    armies = zone_armies(ctx, state, path)
    if army is None:
        if not armies:
            ctx.log(rule, f"no Barbarian in Zone {path} to defeat", "repulse")
            return state
        army = weakest(ctx, state, armies)
    if army not in armies:
        ctx.log(rule, f"{ctx.cat.tiles[army].id} is not in Zone {path}", "repulse")
        return state
    if len(armies) == 1:
        ctx.log(rule, f"the last Barbarian of Zone {path} stays in the Zone", "repulse")
        return state
    carried = stolos_carrier(ctx, state) == army
    strength = ctx.cat.face(state.board, army).strength
    state = move(ctx, state, army, f"reserves-{path.slug}")
    ctx.log(rule, f"a strength-{strength} Army of Zone {path} returns to the Reserves", "repulse")
    if carried:
        state = _put_stolos_on(ctx, state, weakest(ctx, state, zone_armies(ctx, state, path)))
    return state


@RULES.implements("10.6")
def push_back(ctx: Context, state: SooState, path: Path, rule: str) -> SooState:
    """A Barbarian defeated on an eastern Path falls back one Thema (never past its Homeland).

    A Stolos on it goes with it.
    """
    army = eastern_army(ctx, state, path)
    if army is None:
        ctx.log(rule, f"no Barbarian on Path {path} to defeat", "repulse")
        return state
    name = tile_name(ctx, state, army)
    position = _position(ctx, state, army)
    if position >= HOMELAND:
        ctx.log(rule, f"{name} stay on their Homeland", "repulse")
        return state
    carried = stolos_carrier(ctx, state) == army
    space = ctx.cat.themas(path)[position]
    state = replace(state, "board", state.board.move(army, space))
    ctx.log(rule, f"{name} fall back to {ctx.cat.spaces[space].name}", "repulse")
    if carried:
        state = _put_stolos_on(ctx, state, army)
    return state


@attrs.frozen
class Repulse(Task):
    """A Barbarian defeat on a Path (10.6): back to the Reserves, or one Thema back.

    ``army``: the tile id of the western Army defeated (default: the weakest).
    """

    path: Path
    rule: str
    army: str = ""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.path.western:
            army = ctx.cat.tile(self.army) if self.army else None
            return withdraw_to_reserves(ctx, state, self.path, army, self.rule)
        return push_back(ctx, state, self.path, self.rule)


@attrs.frozen
class FactionRiots(Task):
    """After a Riot is put down a Faction of Constantinople goes to space 2 (10.6.9.2).

    The player picks which if there are several. The Walls of Theodosius never
    leave the city (12.1), so they are not offered.
    """

    rule: str = "10.6.9.2"

    @RULES.implements("10.6.9.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        walls = ctx.cat.tile(WALLS)
        factions = [
            f for f in tiles_on(ctx, state, "constantinople", TileKind.FACTION) if f != walls
        ]
        if isinstance(answer, Select):
            chosen = ctx.cat.tile(answer.item)
        elif len(factions) > 1:
            options = [Select(ctx.cat.tiles[f].id) for f in factions]
            return ask_choice(state, self, self.rule, "the Faction that rioted", options)
        elif factions:
            chosen = factions[0]
        else:
            ctx.log(self.rule, "no Faction in Constantinople can be blamed", "faction")
            return state
        ctx.log(self.rule, f"{tile_name(ctx, state, chosen)} go to space 2", "faction")
        return move(ctx, state, chosen, "omnibus", RIOT_FACTION_SPACE)


@attrs.frozen
class Attack(Task):
    """One Byzantine attack (10.6): choose a target, pay, roll a die, resolve.

    ``rule``: the rule granting the attack. ``paths``: restrict the targets to
    those Paths. ``ignore_drms``: roll without modifiers (5.4.1). ``nike``: a
    victory moves Niké (10.6.1). ``optional``: the player may decline. ``lone``:
    the attack is on the last Army of a Zone and beating it leaves it in place
    (8.4.1 "Tricameron", "Kleidion"). ``on_success``: tasks to run after a
    victory (an event's consequences). ``target`` is filled in once chosen; given
    from the start, the attack is on that target and nothing is asked.

    ``cost``: the solidus paid once the target is known, before the roll (10.6:
    1 $; 10.6.5: 2 $ against a Stolos); free attacks cost 0. The caller checks
    that the treasury holds it. ``extra``: the attacker's own modifiers (10.8).
    ``on_failure``: tasks to run after a lost battle (10.8). ``fleet=False``: the
    Army carrying the Stolos may not be chosen (10.13).
    """

    rule: str
    paths: tuple[Path, ...] = ()
    ignore_drms: bool = False
    nike: bool = True
    optional: bool = True
    lone: bool = False
    on_success: tuple[Task, ...] = ()
    target: str = ""
    cost: int = 0
    extra: tuple[dice.Modifier, ...] = ()
    on_failure: tuple[Task, ...] = ()
    fleet: bool = True

    @RULES.implements("10.6")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Roll):
            return self._resolve(ctx, state, answer.dice[0])
        if isinstance(answer, Select):
            return self._roll(ctx, state, answer.item)
        if isinstance(answer, Decline):
            ctx.log(self.rule, "the free attack is not made", "attack")
            return state
        if self.target:
            return self._given(ctx, state)
        return self._choose(ctx, state)

    def _targets(self, ctx: Context, state: SooState) -> list[int]:
        if not self.paths and not self.lone and self.fleet:
            return legal_targets(ctx, state)  # asked as the menu asks it: answered once
        return legal_targets(ctx, state, self.paths, self.lone, fleet=self.fleet)

    def _choose(self, ctx: Context, state: SooState) -> SooState:
        targets = self._targets(ctx, state)
        if not targets:
            ctx.log(self.rule, "the free attack has no legal target", "attack")
            return state
        if len(targets) == 1 and not self.optional:
            return self._roll(ctx, state, ctx.cat.tiles[targets[0]].id)
        options: list[SooAction] = [Decline()] if self.optional else []
        options += [Select(ctx.cat.tiles[t].id) for t in targets]
        return ask_choice(state, self, "10.6", f"target of a free attack ({self.rule})", options)

    def _given(self, ctx: Context, state: SooState) -> SooState:
        """An attack on a target named in advance, if it may still be attacked."""
        if ctx.cat.tile(self.target) not in self._targets(ctx, state):
            ctx.log(self.rule, f"{self.target} can no longer be attacked", "attack")
            return state
        return self._roll(ctx, state, self.target)

    def _roll(self, ctx: Context, state: SooState, target: str) -> SooState:
        chosen = self if self.target == target else replace(self, "target", target)
        if self.cost:
            state = pay(ctx, state, self.cost, "10.6", f"the attack on {target}")
        return chosen._ask_roll(ctx, state)

    def _ask_roll(self, ctx: Context, state: SooState) -> SooState:
        path = ctx.cat.tiles[ctx.cat.tile(self.target)].path
        return ask_roll(state, self, "10.6", f"attack on {self.target} ({self.rule})", path=path)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The choice of target, or once chosen (and paid for) the roll, again (validation)."""
        if self.target:
            return self._ask_roll(ctx, state)
        return self.run(ctx, state, None)

    def _resolve(self, ctx: Context, state: SooState, natural: int) -> SooState:
        target = ctx.cat.tile(self.target)
        drms = () if self.ignore_drms else attack_drms(ctx, state, target)
        drms += self.extra
        state = spend_comet(state)
        strength = ctx.cat.face(state.board, target).strength
        won = attack_succeeds(natural, drms, strength)
        if ctx.events is not None:  # the roll in words, for the event log alone
            roll = dice.Roll(natural, drms, natural_extremes=True)
            name = tile_name(ctx, state, target)
            outcome = "victory" if won else "defeat"
            ctx.log("10.6", f"attack on {name} (strength {strength}): {roll.describe()}: {outcome}")
        if not won:
            return push(state, *self.on_failure)
        state, then = self._defeat(ctx, state, target)
        return push(state, *then, *self.on_success)

    def _defeat(self, ctx: Context, state: SooState, target: int) -> tuple[SooState, list[Task]]:
        """The beaten target's fate, and the tasks that carry it out."""
        record = ctx.cat.tiles[target]
        if record.kind is TileKind.RIOT:
            latins = state.board.back[target]
            state = move(ctx, state, target, "counter-tray")
            state = replace(state, "board", state.board.flip(target, False))
            if not latins:
                ctx.log("10.6.9.2", "the Riot is put down: no Niké", "attack")
                return state, [FactionRiots()]
            ctx.log("10.6.9.1", "the Latins return to the Counter Tray", "attack")
            return (gain_nike(ctx, state, "10.6.1") if self.nike else state), []
        assert record.path is not None
        stays = self.lone or only_the_stolos(ctx, state, target)
        if stolos_carrier(ctx, state) == target:
            state = _stolos_to_lurking(ctx, state)
        if self.nike:
            state = gain_nike(ctx, state, "10.6.1")
        if stays:
            return state, []
        army = record.id if record.path.western else ""
        return state, [Repulse(record.path, "10.6", army)]
