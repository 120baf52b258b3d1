"""Chapter 5, the Turn Start Phase: the Chronographia, the Turn Chit's events, the Crusades.

:class:`TurnStartPhase` pushes the steps of Appendix C's step B in order; each step
is a task that looks at the board when its turn comes, so an earlier step's
consequences (a new Tribe, a lost game) are seen by the later ones:

1. :class:`ChronographiaDeployments` (5.1): Justinian and his Dynasty, the golden
   Basileus and the tiles exiled by the Basileus's missions (10.7.3, 10.7.5,
   10.7.8) come back from the current Turn's space;
2. :class:`ChronographiaEvents` (5.2): the events printed on the Turn's space
   (5.2.1 Ephesus and Chalcedon, 5.2.2 the Magister Militum, 5.2.3 the Migration
   Events, among them the Battle of Carthage of Turn 8, :class:`Carthage`; it is
   not fought at other Turn Starts, see the rulings);
3. :class:`TurnChitEvents` (5.3): the Turn Chit's icons, 5.3.1 to 5.3.8;
4. :class:`Crusades` (5.4): the Crusades continue (5.4.2); they begin (5.4.1) as
   soon as the Crusader Shields (5.3.2) or the Seljuks (8.4.1) call them.

Other chapters use :class:`Carthage` (8.4.1 "Carthage"), :class:`CrusadesBegin`
(8.4.1 "Seljuks") and :class:`RoundLetter` (the circled symbols of the Synopsis,
5.3.8). What later phases read from this one:

* the fact ``"justinian-turn"`` (and the counter of the same name, the Turn it
  happened): Justinian took the throne at 5.1, so 6.1 and 6.2 draw no new Dynasty
  or Basileus that Turn;
* :func:`civil_war_this_turn` (5.3.5) and :func:`chit_fires` (5.3.7) read the
  current chit;
* the facts ``"east-west-schism"`` (5.3.3), ``"crusades"`` (the Crusades have
  begun; counter ``"crusades-began"``: the Turn), ``"constantinople-betrayed"``
  (5.4.2), ``"egypt-independent"`` (5.2.3 "Egypt"), ``"honoria"`` (Appendix F Ⓑ);
* the counter ``"porphyrios"``: the Turn in which Appendix F Ⓓ forbids the Stolos.
"""

from __future__ import annotations

import attrs

from byzantium.core import dice
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import (
    Attack,
    weakest,
    withdraw_to_reserves,
)
from byzantium.sword_of_orthodoxy.components import (
    CrusadeOutcome,
    Icon,
    Path,
    SpaceKind,
    TileKind,
)
from byzantium.sword_of_orthodoxy.concepts import (
    RiseOfIslam,
    change_schism,
    egypt_religion,
    player_controls,
    schism_level,
)
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_roll, push
from byzantium.sword_of_orthodoxy.infrastructure import build, hospital_sites
from byzantium.sword_of_orthodoxy.leadership import DrawDynasty, hostile_pope, ruling_dynasty
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Pay,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    MAX_TRACK,
    WESTERN,
    change_tribe,
    current_chit,
    eastern_army,
    is_muslim,
    marker,
    move,
    remember,
    set_counter,
    set_marker,
    tile_name,
    tiles_on,
    tribe,
    zone_armies,
)

__all__ = [
    "ITALY_IS_IMPORTANT",
    "Carthage",
    "ChronographiaDeployments",
    "ChronographiaEvents",
    "Crusades",
    "CrusadesBegin",
    "CrusadesContinue",
    "EcumenicalCouncil",
    "EphesusAndChalcedon",
    "Reforms",
    "RoundLetter",
    "TurnChitEvents",
    "TurnStartPhase",
    "carthage_drm",
    "carthage_due",
    "chit_fires",
    "civil_war_this_turn",
    "council_drm",
    "crusade_targets",
    "italy_held",
    "pope_leaves_with_italy",
    "shields_begin_crusades",
]

#: The peer app's option keeping the Pope after the Schism while Italy holds (5.3.3).
ITALY_IS_IMPORTANT = "italy_is_important"

#: Latins placed in Constantinople never exceed this many (5.4.2).
MAX_LATINS = 6
#: The Reforms are achieved when their tile passes this space (5.3.4).
REFORMS_GOAL = MAX_TRACK
#: Where a Barbarian leader back from the Chronographia waits for its roll (7.2, 7.3).
LEADER_REST = "arabia"
#: Turn spans of Appendix F's dated events: Khazar allies (Ⓕ), Dark Ages (Ⓖ).
KHAZAR_TURNS = range(5, 15)
DARK_AGE_TURNS = range(10, 14)
#: What building the University costs with Appendix F Ⓗ.
UNIVERSITY_COST = 3
#: The round-letter events after Ⓘ (5.3.8), as the peer implementation gives them:
#: Trading Rights (Ⓛ) acts on Turns 15 to 19 and costs 3 $; Malik Shah (Ⓜ) may be
#: paid up to 6 $; Tamerlane (⑧) drives the Ottomans out on 7 or more; Better
#: Cannons (⑨) may be paid 2 $.
TRADING_RIGHTS_TURNS = range(15, 20)
TRADING_RIGHTS_COST = 3
MALIK_SHAH_MAX = 6
TAMERLANE_NEEDS = 7
BETTER_CANNONS_COST = 2
#: Who Tamerlane puts back on each eastern Path in place of the Ottomans (⑧).
TAMERLANE_HEIRS = {
    Path.DELTA: "army-delta-armenia",
    Path.EPSILON: "army-epsilon-buyids",
    Path.ZETA: "army-zeta-nomads",
}

CRUSADE_SPACES = ("crusades-a", "crusades-b", "crusades-c", "crusades-d")
#: The spaces of a Path on the map, where a Stolos rides its Army (8.4.1 "Stolos").
PATH_SPACES = (SpaceKind.ZONE, SpaceKind.THEMA, SpaceKind.HOMELAND)


# -- small readings of the board ---------------------------------------------------------


def _on(ctx: Context, state: SooState, tile_id: str, space_id: str) -> bool:
    return state.board.where[ctx.cat.tile(tile_id)] == ctx.cat.space(space_id)


def _shows_back(ctx: Context, state: SooState, tile_id: str) -> bool:
    return state.board.back[ctx.cat.tile(tile_id)]


def _space_of(ctx: Context, state: SooState, tile_id: str) -> str:
    return ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]].id


def _gain(ctx: Context, state: SooState, amount: int, rule: str) -> SooState:
    """Add solidus to the treasury (never above 12, never below 0)."""
    before = marker(ctx, state, "solidus")
    state = set_marker(ctx, state, "solidus", before + amount)
    ctx.log(rule, f"solidus {before} -> {marker(ctx, state, 'solidus')}", "solidus")
    return state


def _place(ctx: Context, state: SooState, tile_id: str, space: str, *, back: bool) -> SooState:
    """Move a tile to a space with the given face up."""
    tile = ctx.cat.tile(tile_id)
    state = move(ctx, state, tile, space)
    return attrs.evolve(state, board=state.board.flip(tile, back))


def _replace_eastern(ctx: Context, state: SooState, path: Path, new_id: str, rule: str) -> SooState:
    """Put ``new_id`` where the hostile Army of an eastern Path stands; the old one leaves.

    With no Army on the Path, the newcomer starts on its Homeland.
    """
    old = eastern_army(ctx, state, path)
    new = ctx.cat.tile(new_id)
    if old == new:
        return state
    if old is None:
        space = ctx.cat.themas(path)[-1]
    else:
        space = state.board.where[old]
        state = move(ctx, state, old, "counter-tray")
        ctx.log(rule, f"{tile_name(ctx, state, old)} leave Path {path}", "tribe")
    state = attrs.evolve(state, board=state.board.move(new, space).flip(new, False))
    where = ctx.cat.spaces[space].name
    ctx.log(rule, f"{tile_name(ctx, state, new)} now hold Path {path} in {where}", "tribe")
    return state


def _university_in_constantinople(ctx: Context, state: SooState) -> bool:
    """The University (the back of Nestorius) stands in Constantinople (10.7.12)."""
    return _on(ctx, state, "patriarch-nestorius", "constantinople") and _shows_back(
        ctx, state, "patriarch-nestorius"
    )


def _remove_university(ctx: Context, state: SooState, rule: str) -> SooState:
    """The University goes back to the Counter Tray; it may be built again (10.7.12)."""
    if not _university_in_constantinople(ctx, state):
        return state
    ctx.log(rule, "the University is removed to the Counter Tray", "university")
    return move(ctx, state, ctx.cat.tile("patriarch-nestorius"), "counter-tray")


def _discard(ctx: Context, state: SooState, tile_id: str, rule: str) -> SooState:
    """Remove a tile from the game (2.4)."""
    if _on(ctx, state, tile_id, "discarded"):
        return state
    tile = ctx.cat.tile(tile_id)
    ctx.log(rule, f"{tile_name(ctx, state, tile)} is discarded", "discard")
    return move(ctx, state, tile, "discarded")


# -- the phase --------------------------------------------------------------------------


@attrs.frozen
class TurnStartPhase(Task):
    """The Turn Start Phase (5.0): its steps in the order of Appendix C, step B."""

    @RULES.implements("C")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return push(
            state,
            ChronographiaDeployments(),
            ChronographiaEvents(),
            TurnChitEvents(),
            Crusades(),
        )


# -- 5.1 Chronographia deployments ------------------------------------------------------


@attrs.frozen
class ChronographiaDeployments(Task):
    """5.1: deploy what lies on the current Turn's space of the Chronographia."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return deploy_chronographia(ctx, state)


@RULES.implements("5.1")
def deploy_chronographia(ctx: Context, state: SooState) -> SooState:
    """Everything but the Turn Chit on this Turn's Chronographia space comes into play.

    Justinian and his Dynasty take power together (:func:`crown_justinian`); the
    golden Basileus returns to Constantinople, free for missions again (10.7); a
    Kan or Caliph sent away by 10.7.3 comes back to the map (:data:`LEADER_REST`)
    to be placed by its roll (7.2, 7.3); a Stolos (10.7.5) or a Dynatoi (10.7.8)
    ends its exile off the map: the Stolos on its Lurking space, the Social on the
    Counter Tray (see the rulings); the University sent away by the Heresy Trials
    (5.3.8 ⑤) reopens in Constantinople.
    """
    space = f"chronographia-{state.turn}"
    here = {ctx.cat.tiles[t].id for t in tiles_on(ctx, state, space)}
    if {"basileus-theodosius", "dynasty-justinian"} <= here:
        state = crown_justinian(ctx, state)
    for tile in tiles_on(ctx, state, space):
        record = ctx.cat.tiles[tile]
        name = tile_name(ctx, state, tile)
        if record.kind is TileKind.GOLDEN_BASILEUS:
            ctx.log("5.1", "the golden Basileus returns to Constantinople", "deploy")
            state = move(ctx, state, tile, "constantinople")
        elif record.id in ("marker-kan", "marker-caliph"):
            ctx.log("5.1", f"{name} comes back to the map", "deploy")
            state = move(ctx, state, tile, LEADER_REST)
        elif record.id == "marker-stolos":
            ctx.log("5.1", "the Stolos's exile ends: it returns to Lurking", "deploy")
            state = move(ctx, state, tile, "lurking")
        elif record.kind is TileKind.SOCIAL:
            ctx.log("5.1", f"the exiled {name} returns to the Counter Tray", "deploy")
            state = _place(ctx, state, record.id, "counter-tray", back=False)
        elif record.id == "patriarch-nestorius":
            ctx.log("5.1", "the University reopens in Constantinople", "deploy")
            state = _place(ctx, state, record.id, "constantinople", back=True)
    return state


@RULES.implements("5.1")
def crown_justinian(ctx: Context, state: SooState) -> SooState:
    """Justinian becomes Basileus and his family the Dynasty, overthrowing the old ones.

    The grey Basileus (or Basileis) in office go back to the Basileus mug and the
    ruling Dynasty is discarded. No other Dynasty or Basileus is chosen this Turn:
    the fact ``"justinian-turn"`` (and the counter of that name, holding the Turn)
    tells the Leadership Phase.
    """
    for old in tiles_on(ctx, state, "basileus", TileKind.BASILEUS):
        state = move(ctx, state, old, "basileus-mug")
    for old in tiles_on(ctx, state, "dynasty", TileKind.DYNASTY):
        ctx.log("5.1", f"the {tile_name(ctx, state, old)} Dynasty is overthrown", "deploy")
        state = move(ctx, state, old, "discarded")
    state = _place(ctx, state, "basileus-theodosius", "basileus", back=True)
    state = move(ctx, state, ctx.cat.tile("dynasty-justinian"), "dynasty")
    ctx.log("5.1", "Justinian and his Dynasty seize the throne", "deploy")
    state = remember(state, "justinian-turn")
    return set_counter(state, "justinian-turn", state.turn)


# -- 5.1, 5.2, 5.2.3 the Battle of Carthage ----------------------------------------------


@RULES.implements("5.1")
def carthage_due(ctx: Context, state: SooState) -> bool:
    """Whether the Battle of Carthage is fought (5.1's last paragraph).

    Egypt is lost (Fallen, or its Outpost off its space: Abandoned or never held),
    the Barbarians of Path Ζ are Muslim and Path Α is still Africa. Once the
    Saracens hold Path Α, Carthage has fallen and there is nothing left to fight.
    """
    egypt_lost = not _on(ctx, state, "outpost-egypt", "egypt") or _shows_back(
        ctx, state, "outpost-egypt"
    )
    zeta = eastern_army(ctx, state, Path.ZETA)
    zeta_muslim = zeta is not None and is_muslim(ctx, state, zeta)
    africa = not _shows_back(ctx, state, "marker-zone-alpha")
    saracens = tribe(ctx, state, Path.ALPHA) == ctx.cat.tile("tribe-alpha-saracens")
    return egypt_lost and zeta_muslim and africa and not saracens


@RULES.implements("5.2")
def carthage_drm(ctx: Context, state: SooState) -> tuple[dice.Modifier, ...]:
    """What is added to the Battle of Carthage's die.

    One per space of Path Ζ the Muslims control (Syria, the Homeland, included)
    and two more if Egypt has turned Muslim (11.4).
    """
    drms = []
    zeta = eastern_army(ctx, state, Path.ZETA)
    if zeta is not None and is_muslim(ctx, state, zeta):
        position = ctx.cat.spaces[state.board.where[zeta]].position
        held = 6 - position if position else 0
        if held:
            drms.append(dice.Modifier(held, "Muslim-held spaces of Path Ζ", "5.2"))
    if egypt_religion(ctx, state) == "muslim":
        drms.append(dice.Modifier(2, "Muslim Egypt", "5.2"))
    return tuple(drms)


@RULES.implements("5.2", "5.2.3", "1.1")
def fight_for_carthage(ctx: Context, state: SooState, natural: int, rule: str) -> SooState:
    """Settle the Battle of Carthage: a modified 6 or more and the Saracens take Path Α.

    The die follows 1.1 (a natural 1 stays 1). The fall of Carthage also costs
    the Hispania Outpost, which is discarded (5.2.3 "Carthage").
    """
    roll = dice.Roll(natural, carthage_drm(ctx, state), natural_extremes=True)
    if roll.value < 6:
        ctx.log(rule, f"Battle of Carthage: {roll.describe()}: Carthage holds", "carthage")
        return state
    ctx.log(rule, f"Battle of Carthage: {roll.describe()}: the Arabs take Carthage", "carthage")
    state = change_tribe(ctx, state, Path.ALPHA, "tribe-alpha-saracens", rule)
    return _discard(ctx, state, "outpost-hispania", "5.2.3")


@attrs.frozen
class Carthage(Task):
    """The Battle of Carthage (5.1, 5.2) and the Migration Event "Carthage" (5.2.3).

    ``rule``: what calls for it: ``"5.2.3"`` on Turn 8's Chronographia,
    ``"8.4.1"`` when the Synopsis draws it (``"5.1"`` names the conditions and is
    accepted for tests). It is fought only when :func:`carthage_due`; there is no
    battle at the other Turn Starts (see the rulings).
    """

    rule: str = "5.2.3"

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Roll):
            return fight_for_carthage(ctx, state, answer.dice[0], self.rule)
        if not carthage_due(ctx, state):
            if self.rule != "5.1":
                ctx.log(self.rule, "Carthage: no battle is fought", "carthage")
            return state
        return ask_roll(state, self, "5.2", "Battle of Carthage")


# -- 5.2 Chronographia events -----------------------------------------------------------


@attrs.frozen
class ChronographiaEvents(Task):
    """5.2: the events printed on the current Turn's Chronographia space."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return push(state, *chronographia_events(ctx, state))


@RULES.implements("5.2")
def chronographia_events(ctx: Context, state: SooState) -> list[Task]:
    """The events of this Turn's space, in the order of Appendix C.

    Ephesus and Chalcedon (5.2.1), then the Magister Militum (5.2.2), then the
    Migration Events (5.2.3) as printed.
    """
    rows = [row for row in ctx.cat.components.chronographia if row.turn == state.turn]
    if not rows:
        return []
    row = rows[0]
    first: list[Task] = []
    migrations: list[Task] = []
    for name in row.events:
        if name == "Ephesus and Chalcedon":
            first.append(EphesusAndChalcedon())
        elif name in MIGRATIONS:
            migrations.append(MIGRATIONS[name]())
        else:
            raise ValueError(f"Turn {row.turn}: unknown Chronographia event {name!r}")
    if row.magister:
        first.append(MagisterMilitum(row.magister))
    return first + migrations


@attrs.frozen
class EphesusAndChalcedon(Task):
    """5.2.1: two councils; Schism rises by one die, then falls by another (not below 0)."""

    raised: bool = False

    @RULES.implements("5.2.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not isinstance(answer, Roll):
            prompt = "Council of Chalcedon" if self.raised else "Council of Ephesus"
            return ask_roll(state, self, "5.2.1", prompt)
        if not self.raised:
            state = change_schism(ctx, state, answer.dice[0], "5.2.1")
            if state.ending is not None:
                return state
            return attrs.evolve(self, raised=True).reask(ctx, state)
        return change_schism(ctx, state, -answer.dice[0], "5.2.1")

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The roll of the council due, again (validation)."""
        if self.raised:
            return ask_roll(state, self, "5.2.1", "Chalcedon")
        return self.run(ctx, state, None)


@attrs.frozen
class MagisterMilitum(Task):
    """5.2.2: the Turn's great general (``name``: as the Chronographia names him)."""

    name: str

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return call_magister_militum(ctx, state, self.name)


def _magister_tile(ctx: Context, name: str) -> int:
    """The tile a named general uses: his own, or the one Magister Militum tile of the box."""
    if name in ctx.cat.tile_index:
        return ctx.cat.tile(name)
    return ctx.cat.tiles_of(TileKind.MAGISTER)[0]


@RULES.implements("5.2.2")
def call_magister_militum(ctx: Context, state: SooState, name: str) -> SooState:
    """The Magister Militum's tile comes from the Counter Tray to Constantinople.

    The general the Chronographia names uses it; if it is already in the city (the
    last Turn's general never lost), it stays there for the new one.
    """
    tile = _magister_tile(ctx, name)
    if state.board.where[tile] == ctx.cat.space("counter-tray"):
        state = move(ctx, state, tile, "constantinople")
    general = name.removeprefix("magister-").replace("-", " ").title()
    ctx.log("5.2.2", f"Magister Militum {general} takes command in Constantinople", "magister")
    return state


# -- 5.2.3 Migration Events ---------------------------------------------------------------


@attrs.frozen
class Buyids(Task):
    """5.2.3 "Buyids"."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return buyids(ctx, state)


@RULES.implements("5.2.3")
def buyids(ctx: Context, state: SooState) -> SooState:
    """The Buyids replace the Saracens of Path Ε, if the Saracens are there."""
    if eastern_army(ctx, state, Path.EPSILON) != ctx.cat.tile("army-epsilon-saracens"):
        ctx.log("5.2.3", "Buyids: no Saracens on Path Ε", "event")
        return state
    return _replace_eastern(ctx, state, Path.EPSILON, "army-epsilon-buyids", "5.2.3")


@attrs.frozen
class EgyptRises(Task):
    """5.2.3 "Egypt"."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return egypt_rises(ctx, state)


@RULES.implements("5.2.3")
def egypt_rises(ctx: Context, state: SooState) -> SooState:
    """With a Pagan tile on Syria, Egypt becomes an independent Christian power.

    Egypt's tiles become the Barbarians of Paths Α (Tribe) and Ζ (the Egypt Army,
    until now the Egyptian Religion marker, in place of Ζ's Army), and the Egypt
    Outpost is discarded. Fact ``"egypt-independent"``.
    """
    pagans = [
        t
        for t in tiles_on(ctx, state, "syria", TileKind.MARKER)
        if ctx.cat.tiles[t].id.startswith("marker-colonist") and state.board.back[t]
    ]
    if not pagans:
        ctx.log("5.2.3", "Egypt: no Pagan tile in Syria", "event")
        return state
    state = change_tribe(ctx, state, Path.ALPHA, "tribe-alpha-egypt", "5.2.3")
    state = _replace_eastern(ctx, state, Path.ZETA, "army-zeta-egypt", "5.2.3")
    state = _discard(ctx, state, "outpost-egypt", "5.2.3")
    return remember(state, "egypt-independent")


@attrs.frozen
class IslamEvent(Task):
    """5.2.3 "Islam" (optional rule ``islam``)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not islam_due(ctx, state):
            return state
        ctx.log("5.2.3", "Islam: War in the East has come; Islam rises now", "event")
        return push(state, RiseOfIslam("5.2.3"))


@RULES.implements("5.2.3")
def islam_due(ctx: Context, state: SooState) -> bool:
    """Under the optional rule, Islam rises if War in the East has happened.

    The Synopsis counts War in the East in the counter ``"war-in-the-east"``; the
    Rise of Islam itself (2.8) does nothing if Islam has already appeared.
    """
    return ctx.option("islam") and state.counter("war-in-the-east") > 0


@attrs.frozen
class Mongols(Task):
    """5.2.3 "Mongols"."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return mongols_invade(ctx, state)


@RULES.implements("5.2.3")
def mongols_invade(ctx: Context, state: SooState) -> SooState:
    """The Mongols replace the Barbarians of Paths Ε and Ζ; Kiev is emptied for good."""
    state = _replace_eastern(ctx, state, Path.EPSILON, "marker-mongols-epsilon", "5.2.3")
    state = _replace_eastern(ctx, state, Path.ZETA, "marker-mongols-zeta", "5.2.3")
    for tile in tiles_on(ctx, state, "kiev"):
        state = _discard(ctx, state, ctx.cat.tiles[tile].id, "5.2.3")
    ctx.log("5.2.3", "Kiev falls to the Mongols: its space is closed", "event")
    return state


@attrs.frozen
class Normans(Task):
    """5.2.3 "Normans": one die against the Barbarians of Zone Β, if Β is Italy."""

    @RULES.implements("5.2.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if _shows_back(ctx, state, "marker-zone-beta"):
            ctx.log("5.2.3", "Normans: Path Β is no longer Italy", "event")
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "5.2.3", "Normans against Italy", path=Path.BETA)
        count = len(zone_armies(ctx, state, Path.BETA))
        if answer.dice[0] > count:
            ctx.log("5.2.3", f"Normans: {answer.dice[0]} > {count} Barbarians: Italy holds")
            return state
        return normans_take_italy(ctx, state)


@RULES.implements("5.2.3")
def normans_take_italy(ctx: Context, state: SooState) -> SooState:
    """The Normans drive the Empire from Italy.

    Italy flips to the Balkans, Zone Β keeps only its weakest Army (the others go
    to the Reserves), the Normans become Β's Tribe, and Ravenna or the Holy Roman
    Empire is discarded.
    """
    ctx.log("5.2.3", "Normans: Italy is lost; Path Β is now the Balkans", "event")
    state = _place(
        ctx, state, "marker-zone-beta", _space_of(ctx, state, "marker-zone-beta"), back=True
    )
    armies = zone_armies(ctx, state, Path.BETA)
    if armies:
        keep = weakest(ctx, state, armies)
        for army in armies:
            if army != keep:
                state = withdraw_to_reserves(ctx, state, Path.BETA, army, "5.2.3")
    state = change_tribe(ctx, state, Path.BETA, "tribe-beta-normans", "5.2.3")
    ravenna = _space_of(ctx, state, "marker-ravenna")
    if ravenna not in ("counter-tray", "discarded"):
        state = _discard(ctx, state, "marker-ravenna", "5.2.3")
    return state


#: The Migration Events of 5.2.3, by the name the Chronographia prints.
MIGRATIONS: dict[str, type[Task]] = {
    "Buyids": Buyids,
    "Carthage": Carthage,
    "Egypt": EgyptRises,
    "Islam": IslamEvent,
    "Mongols": Mongols,
    "Normans": Normans,
}


# -- 5.3 Turn Chit events ---------------------------------------------------------------


@attrs.frozen
class TurnChitEvents(Task):
    """5.3: the events the current Turn Chit prints, in the order of 5.3.1 to 5.3.8."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = current_chit(ctx, state)
        if tile is None:
            return state
        chit = ctx.cat.chits[tile]
        tasks: list[Task] = []
        if chit.patriarch:
            tasks.append(EcumenicalCouncil())
        if chit.crusader_shield:
            tasks.append(CrusaderShields())
        if chit.east_west_schism:
            tasks.append(EastWestSchism())
        if chit.red_disc:
            tasks.append(Reforms())
        if civil_war_this_turn(ctx, state):
            ctx.log("5.3.5", "crossed swords: a Civil War will be fought this Turn (6.1.1)")
        tasks.append(RandomBarbarians())
        fires = chit_fires(ctx, state)
        if fires:
            ctx.log("5.3.7", f"{fires} fire icon(s) on the chit: Social Events at 6.7")
        if chit.round_letter and ctx.option("round_letters"):
            tasks.append(RoundLetter(chit.round_letter))
        return push(state, *tasks)


@RULES.implements("5.3.1")
def council_drm(ctx: Context, state: SooState) -> tuple[dice.Modifier, ...]:
    """+1 to an Ecumenical Council's roll while a Mean (Hostile) Pope sits in Rome."""
    if _on(ctx, state, "marker-pope", "pope") and _shows_back(ctx, state, "marker-pope"):
        return (dice.Modifier(1, "Mean Pope", "5.3.1"),)
    return ()


@attrs.frozen
class EcumenicalCouncil(Task):
    """5.3.1: a Patriarch on the chit convenes a council; Schism rises by a die."""

    @RULES.implements("5.3.1", "1.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "5.3.1", "Ecumenical Council")
        roll = dice.Roll(answer.dice[0], council_drm(ctx, state), natural_extremes=True)
        ctx.log("5.3.1", f"Ecumenical Council: {roll.describe()}", "council")
        return change_schism(ctx, state, roll.value, "5.3.1")


@RULES.implements("5.3.2")
def shields_begin_crusades(ctx: Context, state: SooState) -> bool:
    """Whether a Crusader Shield drawn now begins the Crusades.

    Never once they have begun. Otherwise when six chits on the Chronographia
    show a shield; in the Millennium scenario the first shield is enough
    (Appendix E, special rule 2).
    """
    if "crusades" in state.done:
        return False
    if "scenario:millennium" in state.done:
        return True
    chronographia = {ctx.cat.space(f"chronographia-{t}") for t in range(1, 28)}
    shields = sum(
        1
        for tile, chit in ctx.cat.chits.items()
        if chit.crusader_shield and state.board.where[tile] in chronographia
    )
    return shields >= 6


@attrs.frozen
class CrusaderShields(Task):
    """5.3.2: a Crusader Shield on the chit may begin the Crusades (5.4.1)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not shields_begin_crusades(ctx, state):
            return state
        ctx.log("5.3.2", "the Crusader Shields call the First Crusade", "crusade")
        return push(state, CrusadesBegin("5.3.2"))


@attrs.frozen
class EastWestSchism(Task):
    """5.3.3: chit 16, the East-West Schism."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return east_west_schism(ctx, state)


@RULES.implements("5.3.3")
def east_west_schism(ctx: Context, state: SooState) -> SooState:
    """The Churches split for good: the Pope tile is discarded (fact ``"east-west-schism"``).

    With the peer option Italy Is Important the Pope stays while Italy holds; he is
    discarded when it falls (:func:`pope_leaves_with_italy`), and 6.4 goes on meanwhile.
    """
    ctx.log("5.3.3", "the Churches of East and West separate", "schism")
    if ctx.option(ITALY_IS_IMPORTANT) and italy_held(ctx, state):
        ctx.log("5.3.3", "Italy holds: the Pope stays until Italy is lost", "pope")
        return remember(state, "east-west-schism")
    state = _discard(ctx, state, "marker-pope", "5.3.3")
    return remember(state, "east-west-schism")


def italy_held(ctx: Context, state: SooState) -> bool:
    """Whether Zone Β's blue tile still shows Italy, not the Balkans (12.2)."""
    return not state.board.back[ctx.cat.tile("marker-zone-beta")]


@RULES.implements("5.3.3", "6.4")
def pope_leaves_with_italy(ctx: Context, state: SooState) -> SooState:
    """Italy Is Important (peer option): after the Schism, the Pope goes when Italy does.

    A standing rule of games with the option (checked after every step, like 8.4.1
    Ravenna): whatever loses Italy (the retreat of 12.2, the Normans of 5.2.3, the
    Serbs of 8.4.1), the Pope tile is discarded at once, and 6.4 rolls no more.
    """
    if "east-west-schism" not in state.done or italy_held(ctx, state):
        return state
    if _space_of(ctx, state, "marker-pope") == "discarded":
        return state
    ctx.log("5.3.3", "Italy is lost after the Schism: the Pope goes too", "pope")
    return _discard(ctx, state, "marker-pope", "5.3.3")


@attrs.frozen
class Reforms(Task):
    """5.3.4: a red disc lets the player invest 1 saved $ and roll to advance the Reforms."""

    paid: bool = False

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Roll):
            return advance_reforms(ctx, state, answer.dice[0], "5.3.4")
        if isinstance(answer, Decline):
            ctx.log("5.3.4", "no investment in the Reforms", "reforms")
            return state
        if isinstance(answer, Pay):
            state = _gain(ctx, state, -answer.amount, "5.3.4")
            return attrs.evolve(self, paid=True).reask(ctx, state)
        if _on(ctx, state, "marker-reforms", "reforms"):
            return state
        if marker(ctx, state, "solidus") < 1:
            ctx.log("5.3.4", "no solidus saved: the Reforms wait", "reforms")
            return state
        return ask_choice(state, self, "5.3.4", "invest 1 $ in the Reforms?", [Decline(), Pay(1)])

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The offer, or once paid the roll, again (validation)."""
        if self.paid:
            return ask_roll(state, self, "5.3.4", "Reforms")
        return self.run(ctx, state, None)


@RULES.implements("5.3.4")
def advance_reforms(ctx: Context, state: SooState, spaces: int, rule: str) -> SooState:
    """Move the Reforms tile right; past space 12 it goes to its map space: achieved.

    A tile not yet on the Omnibus Track starts from 0. 10.7.10 uses this too.
    """
    tile = ctx.cat.tile("marker-reforms")
    if _on(ctx, state, "marker-reforms", "reforms"):
        return state
    start = state.board.value[tile] if _on(ctx, state, "marker-reforms", "omnibus") else 0
    level = start + spaces
    if level > REFORMS_GOAL:
        ctx.log(rule, f"Reforms {start} + {spaces}: the Reforms are achieved", "reforms")
        return move(ctx, state, tile, "reforms")
    ctx.log(rule, f"Reforms {start} + {spaces} = {level}", "reforms")
    return move(ctx, state, tile, "omnibus", level)


@RULES.implements("5.3.5")
def civil_war_this_turn(ctx: Context, state: SooState) -> bool:
    """Whether the current chit shows the crossed swords: a Civil War at 6.1.1."""
    tile = current_chit(ctx, state)
    return tile is not None and ctx.cat.chits[tile].civil_war


@RULES.implements("5.3.6")
def random_barbarian_dice(ctx: Context, state: SooState) -> int:
    """How many dice of random Advances the chit calls for.

    Its white die icons; its red ones too under the optional rule ``red_dice``.
    """
    tile = current_chit(ctx, state)
    if tile is None:
        return 0
    chit = ctx.cat.chits[tile]
    return chit.white_dice + (chit.red_dice if ctx.option("red_dice") else 0)


@attrs.frozen
class RandomBarbarians(Task):
    """5.3.6: each die rolled is an Advance on the Path of its number, at once."""

    @RULES.implements("5.3.6")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Roll):
            paths = [Path(face) for face in answer.dice]
            ctx.log("5.3.6", "random Advances on " + ", ".join(str(p) for p in paths), "advance")
            return push(state, *(Advance(path, "5.3.6") for path in paths))
        count = random_barbarian_dice(ctx, state)
        if not count:
            return state
        return ask_roll(state, self, "5.3.6", "random Barbarians", dice=count)


@RULES.implements("5.3.7")
def chit_fires(ctx: Context, state: SooState) -> int:
    """How many fire icons the current chit has (the chit's share of 6.7's Social Events)."""
    tile = current_chit(ctx, state)
    return 0 if tile is None else ctx.cat.chits[tile].fires


# -- 5.3.8 round-letter events (Appendix F) ------------------------------------------------


@attrs.frozen
class RoundLetter(Task):
    """An optional round-letter event (5.3.8, Appendix F), by its circled symbol.

    The chit's letter is applied here; the Synopsis applies the symbols of its rows
    with the same task (``rule="8.1"`` or the like). Ⓐ to Ⓘ are Appendix F's
    events; Ⓙ is announced but empty. Ⓚ Ⓛ Ⓜ Ⓝ Ⓟ and ④ to ⑨ follow the peer
    implementation (Appendix F stops at Ⓘ); the symbols it leaves empty (Ⓠ, Ⓢ Ⓣ
    Ⓤ, ① ② ③) have no effect (see the rulings). ``paid``: what the player put
    into Malik Shah (Ⓜ) while its roll is awaited.
    """

    symbol: str
    rule: str = "5.3.8"
    rolled: bool = False
    paid: int = 0

    @RULES.implements("5.3.8", "F")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        handler = _ROUND_LETTERS.get(self.symbol)
        if handler is None:
            names = [
                e.name for e in ctx.cat.components.round_letter_events if e.symbol == self.symbol
            ]
            name = names[0] if names else "unknown"
            ctx.log(self.rule, f"{self.symbol} ({name}): no effect", "round-letter")
            return state
        return handler(self, ctx, state, answer)

    def _earthquake(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓐ: the Walls of Theodosius drop to the Omnibus space of a die roll."""
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "Ⓐ earthquake")
        ctx.log(self.rule, f"Ⓐ earthquake: the Walls go to space {answer.dice[0]}", "faction")
        return move(ctx, state, ctx.cat.tile("faction-walls"), "omnibus", answer.dice[0])

    def _honoria(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓑ (once): with the Huns on Γ, a die's worth of Zone Γ's Armies go home."""
        if "honoria" in state.done:
            return state
        if tribe(ctx, state, Path.GAMMA) != ctx.cat.tile("tribe-gamma-huns"):
            ctx.log(self.rule, "Ⓑ Honoria: the Huns are not on Path Γ", "round-letter")
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "Ⓑ Honoria")
        state = remember(state, "honoria")
        armies = len(zone_armies(ctx, state, Path.GAMMA))
        count = min(answer.dice[0], max(0, armies - 1))
        ctx.log(self.rule, f"Ⓑ Honoria: {count} Hun Army(ies) leave Zone Γ", "round-letter")
        return push(state, HunsLeave(count, self.rule))

    def _fiscal_reforms(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓒ: a die's worth of solidus."""
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "Ⓒ fiscal reforms")
        return _gain(ctx, state, answer.dice[0], self.rule)

    def _whale(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓓ: no Stolos this Turn; one on a Path goes back to Lurking."""
        state = set_counter(state, "porphyrios", state.turn)
        stolos = ctx.cat.tile("marker-stolos")
        if ctx.cat.spaces[state.board.where[stolos]].kind in PATH_SPACES:
            ctx.log(self.rule, "Ⓓ Porphyrios: the Stolos flees to Lurking", "stolos")
            state = move(ctx, state, stolos, "lurking")
        ctx.log(self.rule, "Ⓓ Porphyrios: no Stolos may be placed this Turn", "round-letter")
        return state

    def _pisans(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓔ: holding the Holy Land costs 2 $."""
        if not _on(ctx, state, "outpost-holy-land", "outpost-holy-land"):
            return state
        ctx.log(self.rule, "Ⓔ Pisan pirates raid the Holy Land", "round-letter")
        return _gain(ctx, state, -2, self.rule)

    def _khazars(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓕ: on Turns 5 to 14, three free attacks on Paths Δ, Ε, Ζ."""
        if state.turn not in KHAZAR_TURNS:
            return state
        ctx.log(self.rule, "Ⓕ Khazar allies: three free attacks in the East", "round-letter")
        return push(state, *(Attack(self.rule, paths=EASTERN) for _ in range(3)))

    def _dark_ages(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓖ: on Turns 10 to 13, the University closes."""
        if state.turn not in DARK_AGE_TURNS:
            return state
        return _remove_university(ctx, state, self.rule)

    def _refugees(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓗ: build the University for 3 $, or, if it stands, a die's worth of $."""
        if isinstance(answer, Roll):
            return _gain(ctx, state, answer.dice[0], self.rule)
        if isinstance(answer, Decline):
            return state
        if isinstance(answer, Pay):
            state = _gain(ctx, state, -answer.amount, self.rule)
            ctx.log(self.rule, "Ⓗ refugee scholars found the University", "university")
            return _place(ctx, state, "patriarch-nestorius", "constantinople", back=True)
        if _university_in_constantinople(ctx, state):
            return ask_roll(state, self, self.rule, "Ⓗ refugee scholars")
        nestorius = _space_of(ctx, state, "patriarch-nestorius")
        in_office = nestorius in ("patriarch", "patriarch-mug")
        if in_office or marker(ctx, state, "solidus") < UNIVERSITY_COST:
            return state
        options: list[SooAction] = [Decline(), Pay(UNIVERSITY_COST)]
        return ask_choice(state, self, self.rule, "Ⓗ build the University for 3 $?", options)

    def _cyril(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓘ: a Pagan Kiev turns Orthodox on a 6."""
        if not _on(ctx, state, "marker-kiev", "kiev") or _shows_back(ctx, state, "marker-kiev"):
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "Ⓘ Cyril and Methodius")
        if answer.dice[0] != 6:
            return state
        ctx.log(self.rule, "Ⓘ Cyril and Methodius: Kiev becomes Orthodox", "round-letter")
        return _place(ctx, state, "marker-kiev", "kiev", back=True)

    # -- after Ⓘ: the peer implementation's events ---------------------------------------

    def _dynasty_overthrown(
        self, ctx: Context, state: SooState, answer: SooAction | None
    ) -> SooState:
        """Ⓚ: with a Mean Pope the ruling Dynasty falls and a new one is drawn (6.1)."""
        if not hostile_pope(ctx, state):
            ctx.log(self.rule, "Ⓚ Dynasty Overthrown: the Pope is not Mean", "round-letter")
            return state
        ctx.log(self.rule, "Ⓚ Dynasty Overthrown: the Mean Pope topples the Dynasty", "dynasty")
        current = ruling_dynasty(ctx, state)
        if current is not None:
            state = _discard(ctx, state, ctx.cat.tiles[current].id, self.rule)
        return push(state, DrawDynasty())

    def _trading_rights(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓛ: on Turns 15 to 19, lose 3 $; then a free Hospital where one may be built."""
        if isinstance(answer, Select):
            return build(ctx, state, TileKind.HOSPITAL, answer.item)
        if state.turn not in TRADING_RIGHTS_TURNS:
            return state
        ctx.log(self.rule, "Ⓛ Trading Rights: the Italian merchants' privileges", "round-letter")
        state = _gain(ctx, state, -TRADING_RIGHTS_COST, self.rule)
        sites = hospital_sites(ctx, state)
        if not sites:
            return state
        if len(sites) == 1:
            return build(ctx, state, TileKind.HOSPITAL, sites[0])
        options: list[SooAction] = [Select(site) for site in sites]
        return ask_choice(state, self, self.rule, "Ⓛ where the free Hospital goes", options)

    def _malik_shah(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓜ: pay up to 6 $ and roll; below the payment, the forward Seljuks fall back."""
        if isinstance(answer, Roll):
            if answer.dice[0] >= self.paid:
                ctx.log(self.rule, f"Ⓜ Malik Shah: a {answer.dice[0]}: no effect", "round-letter")
                return state
            for tile, space in malik_shah_retreats(ctx, state):
                where = ctx.cat.spaces[space].name
                ctx.log(self.rule, f"Ⓜ {tile_name(ctx, state, tile)} fall back to {where}")
                state = attrs.evolve(state, board=state.board.move(tile, space))
            return state
        if isinstance(answer, Decline):
            return state
        if isinstance(answer, Pay):
            state = _gain(ctx, state, -answer.amount, self.rule)
            task = attrs.evolve(self, rolled=True, paid=answer.amount)
            return ask_roll(state, task, self.rule, f"Ⓜ Malik Shah: below {answer.amount}")
        treasury = marker(ctx, state, "solidus")
        if not malik_shah_retreats(ctx, state) or not treasury:
            return state
        most = min(MALIK_SHAH_MAX, treasury)
        options: list[SooAction] = [Decline(), *(Pay(n) for n in range(1, most + 1))]
        return ask_choice(state, self, self.rule, "Ⓜ Malik Shah: pay to turn the Seljuks", options)

    def _catholic_riots(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """Ⓝ: a Riot from the Counter Tray enters Constantinople (10.6.3)."""
        riots = tiles_on(ctx, state, "counter-tray", TileKind.RIOT)
        if not riots:
            ctx.log(self.rule, "Ⓝ riots: no Riot tile is available", "round-letter")
            return state
        ctx.log(self.rule, "Ⓝ Catholics and Orthodox riot in Constantinople", "riot")
        board = state.board.move(riots[0], ctx.cat.space("constantinople")).flip(riots[0], False)
        return attrs.evolve(state, board=board)

    def _sicilian_vespers(
        self, ctx: Context, state: SooState, answer: SooAction | None
    ) -> SooState:
        """Ⓟ: with Latins in Constantinople, +1 on attacks on them this Turn."""
        latins = [
            t for t in tiles_on(ctx, state, "constantinople", TileKind.RIOT) if state.board.back[t]
        ]
        if not latins:
            ctx.log(self.rule, "Ⓟ Sicilian Vespers: no Latins in Constantinople", "round-letter")
            return state
        ctx.log(self.rule, "Ⓟ Sicilian Vespers: +1 on attacks on the Latins", "round-letter")
        return set_counter(state, "sicilian-vespers", state.turn)

    def _blachernae(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """④: with the Schism above 0, it falls by a die."""
        if isinstance(answer, Roll):
            ctx.log(self.rule, f"④ Blachernae miracles: Schism -{answer.dice[0]}", "schism")
            return change_schism(ctx, state, -answer.dice[0], self.rule)
        if schism_level(ctx, state) <= 0:
            return state
        return ask_roll(state, self, self.rule, "④ Blachernae Church Miracles")

    def _heresy_trials(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """⑤: the University goes a die's worth of Turns ahead, or for good past Turn 27."""
        if not _university_in_constantinople(ctx, state):
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "⑤ Heresy Trials")
        back_on = state.turn + answer.dice[0]
        if back_on > len(ctx.cat.components.chronographia):
            ctx.log(self.rule, "⑤ Heresy Trials: the University closes for good", "university")
            return _discard(ctx, state, "patriarch-nestorius", self.rule)
        ctx.log(self.rule, f"⑤ Heresy Trials: the University closes until Turn {back_on}")
        return move(ctx, state, ctx.cat.tile("patriarch-nestorius"), f"chronographia-{back_on}")

    def _comet(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """⑥: the next attack this Turn has -1 (combat.comet_drm)."""
        ctx.log(self.rule, "⑥ a comet: -1 on the next attack this Turn", "round-letter")
        return set_counter(state, "comet", state.turn)

    def _galata(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """⑦: 1 $."""
        ctx.log(self.rule, "⑦ Galata Tower: 1 $", "round-letter")
        return _gain(ctx, state, 1, self.rule)

    def _tamerlane(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """⑧: with Ottomans in the East, a die plus the Taurus spaces held; 7+ expels them.

        The Taurus spaces are modifiers of 1.1: a natural 6 stays 6.
        """
        ottomans = ottoman_paths_east(ctx, state)
        if not ottomans:
            return state
        if not isinstance(answer, Roll):
            return ask_roll(state, self, self.rule, "⑧ Tamerlane")
        roll = dice.Roll(answer.dice[0], tamerlane_drms(ctx, state), natural_extremes=True)
        if roll.value < TAMERLANE_NEEDS:
            ctx.log(self.rule, f"⑧ Tamerlane: {roll.describe()}: the Ottomans hold", "round-letter")
            return state
        ctx.log(self.rule, f"⑧ Tamerlane: {roll.describe()}: the Ottomans are crushed", "tribe")
        for path in ottomans:
            state = _replace_eastern(ctx, state, path, TAMERLANE_HEIRS[path], self.rule)
        return state

    def _better_cannons(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        """⑨: 2 $ may be paid for a roll; success has no effect (none in the peer)."""
        if isinstance(answer, Roll):
            ctx.log(self.rule, f"⑨ Better Cannons: a {answer.dice[0]}: no effect", "round-letter")
            return state
        if isinstance(answer, Decline):
            return state
        if isinstance(answer, Pay):
            state = _gain(ctx, state, -answer.amount, self.rule)
            return ask_roll(state, attrs.evolve(self, rolled=True), self.rule, "⑨ Better Cannons")
        if marker(ctx, state, "solidus") < BETTER_CANNONS_COST:
            return state
        options: list[SooAction] = [Decline(), Pay(BETTER_CANNONS_COST)]
        return ask_choice(state, self, self.rule, "⑨ pay 2 $ for Better Cannons?", options)


@RULES.implements("5.3.8")
def malik_shah_retreats(ctx: Context, state: SooState) -> list[tuple[int, int]]:
    """Ⓜ: the Seljuk Armies and their Paths' Colonists nearer Constantinople than the
    Path's Taurus space (Greater Armenia, Melitene, Cilicia), with that space."""
    found = []
    for path in EASTERN:
        army = eastern_army(ctx, state, path)
        if army is None or not ctx.cat.tiles[army].id.endswith("-seljuks"):
            continue
        (taurus,) = [s for s in ctx.cat.themas(path) if Icon.TAURUS in ctx.cat.spaces[s].icons]
        limit = ctx.cat.spaces[taurus].position
        tiles = [army] + [
            c
            for c in ctx.cat.tiles_of(TileKind.MARKER)
            if ctx.cat.tiles[c].id.startswith("marker-colonist")
            and not state.board.back[c]
            and ctx.cat.spaces[state.board.where[c]].path is path
        ]
        for tile in tiles:
            position = ctx.cat.spaces[state.board.where[tile]].position
            if position and position < limit:
                found.append((tile, taurus))
    return found


def ottoman_paths_east(ctx: Context, state: SooState) -> list[Path]:
    """The eastern Paths whose Army is the Ottomans (⑧)."""
    found = []
    for path in EASTERN:
        army = eastern_army(ctx, state, path)
        if army is not None and ctx.cat.tiles[army].id.endswith("-ottomans"):
            found.append(path)
    return found


@RULES.implements("5.3.8", "1.1")
def tamerlane_drms(ctx: Context, state: SooState) -> tuple[dice.Modifier, ...]:
    """⑧: +1 for each Taurus Mountain space the player holds (9.5.1)."""
    held = sum(
        1
        for path in EASTERN
        for space in ctx.cat.themas(path)
        if Icon.TAURUS in ctx.cat.spaces[space].icons and player_controls(ctx, state, space)
    )
    return (dice.Modifier(held, "Taurus Mountains held", "5.3.8"),) if held else ()


_ROUND_LETTERS = {
    "Ⓐ": RoundLetter._earthquake,
    "Ⓑ": RoundLetter._honoria,
    "Ⓒ": RoundLetter._fiscal_reforms,
    "Ⓓ": RoundLetter._whale,
    "Ⓔ": RoundLetter._pisans,
    "Ⓕ": RoundLetter._khazars,
    "Ⓖ": RoundLetter._dark_ages,
    "Ⓗ": RoundLetter._refugees,
    "Ⓘ": RoundLetter._cyril,
    "Ⓚ": RoundLetter._dynasty_overthrown,
    "Ⓛ": RoundLetter._trading_rights,
    "Ⓜ": RoundLetter._malik_shah,
    "Ⓝ": RoundLetter._catholic_riots,
    "Ⓟ": RoundLetter._sicilian_vespers,
    "④": RoundLetter._blachernae,
    "⑤": RoundLetter._heresy_trials,
    "⑥": RoundLetter._comet,
    "⑦": RoundLetter._galata,
    "⑧": RoundLetter._tamerlane,
    "⑨": RoundLetter._better_cannons,
}


@attrs.frozen
class HunsLeave(Task):
    """Appendix F Ⓑ: ``count`` Armies of Zone Γ, chosen by the player, go to the Reserves.

    The player names one strength at a time (Armies of equal strength are alike);
    the Zone always keeps one Army.
    """

    count: int
    rule: str = "5.3.8"

    @RULES.implements("F")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        armies = zone_armies(ctx, state, Path.GAMMA)
        if self.count <= 0 or len(armies) <= 1:
            return state
        if isinstance(answer, Select):
            state = withdraw_to_reserves(
                ctx, state, Path.GAMMA, ctx.cat.tile(answer.item), self.rule
            )
            return push(state, HunsLeave(self.count - 1, self.rule))
        by_strength: dict[int, int] = {}
        for army in armies:
            by_strength.setdefault(ctx.cat.face(state.board, army).strength, army)
        if len(by_strength) == 1:
            (army,) = by_strength.values()
            state = withdraw_to_reserves(ctx, state, Path.GAMMA, army, self.rule)
            return push(state, HunsLeave(self.count - 1, self.rule))
        options: list[SooAction] = [
            Select(ctx.cat.tiles[by_strength[s]].id) for s in sorted(by_strength)
        ]
        return ask_choice(state, self, self.rule, "Ⓑ a Hun Army to send home", options)


# -- 5.4 The Crusades -------------------------------------------------------------------


@attrs.frozen
class Crusades(Task):
    """5.4: Crusades begun on an earlier Turn continue (5.4.2)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        began = state.counter("crusades-began")
        on_track = _space_of(ctx, state, "marker-crusade") in CRUSADE_SPACES
        if "crusades" in state.done and on_track and began < state.turn:
            return push(state, CrusadesContinue())
        return state


@RULES.implements("5.4.1")
def crusade_targets(ctx: Context, state: SooState) -> tuple[Path, ...]:
    """The Paths the First Crusade's free attacks may strike.

    Those held by Muslims (9.1.1); if none, those held by Persia (see the rulings).
    """
    muslim: list[Path] = []
    persian: list[Path] = []
    for path in WESTERN:
        current = tribe(ctx, state, path)
        if current is not None and is_muslim(ctx, state, current):
            muslim.append(path)
    for path in EASTERN:
        army = eastern_army(ctx, state, path)
        if army is None:
            continue
        if is_muslim(ctx, state, army):
            muslim.append(path)
        elif tile_name(ctx, state, army) == "Persia":
            persian.append(path)
    return tuple(muslim or persian)


@attrs.frozen
class CrusadesBegin(Task):
    """5.4.1: the First Crusade (``rule``: who calls it, 5.3.2 or 8.4.1 "Seljuks").

    The Crusade tile goes to space A, the Holy Land Outpost to its space, and two
    free attacks ignoring all modifiers strike the Muslims, or else Persia. Facts
    ``"crusades"`` and counter ``"crusades-began"`` (the Turn).
    """

    rule: str = "5.4.1"

    @RULES.implements("5.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if "crusades" in state.done:
            return state
        state = remember(state, "crusades")
        state = set_counter(state, "crusades-began", state.turn)
        state = move(ctx, state, ctx.cat.tile("marker-crusade"), "crusades-a")
        state = _place(ctx, state, "outpost-holy-land", "outpost-holy-land", back=False)
        ctx.log("5.4.1", "the First Crusade: the Holy Land is yours", "crusade")
        paths = crusade_targets(ctx, state)
        if not paths:
            ctx.log("5.4.1", "no Muslim or Persian enemy to attack", "crusade")
            return state
        attacks = (Attack("5.4.1", paths=paths, ignore_drms=True) for _ in range(2))
        return push(state, *attacks)


@attrs.frozen
class CrusadesContinue(Task):
    """5.4.2: the Crusade tile advances and the Crusade Table says what the Crusaders do."""

    @RULES.implements("5.4.2", "Tables")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = ctx.cat.tile("marker-crusade")
        if isinstance(answer, Roll):
            outcome = next(
                row.outcome
                for row in ctx.cat.components.crusade_table
                if row.low <= answer.dice[0] <= row.high
            )
            ctx.log("5.4.2", f"Crusade Table {answer.dice[0]}: {outcome.value}", "crusade")
            if outcome is CrusadeOutcome.BETRAYED:
                return constantinople_betrayed(ctx, state)
            if outcome is CrusadeOutcome.EGYPT:
                return landing_in_egypt(ctx, state)
            return state
        where = _space_of(ctx, state, "marker-crusade")
        index = CRUSADE_SPACES.index(where)
        if index == len(CRUSADE_SPACES) - 1:
            ctx.log("5.4.2", "the Crusades are over", "crusade")
            return move(ctx, state, tile, "discarded")
        state = move(ctx, state, tile, CRUSADE_SPACES[index + 1])
        return ask_roll(state, self, "5.4.2", "Crusade Table")

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The Crusade Table roll again, the tile already advanced (validation)."""
        if _space_of(ctx, state, "marker-crusade") not in CRUSADE_SPACES[1:]:
            return state
        return ask_roll(state, self, "5.4.2", "Crusade Table")


@RULES.implements("5.4.2")
def constantinople_betrayed(ctx: Context, state: SooState) -> SooState:
    """The Fourth Crusade (once only; fact ``"constantinople-betrayed"``).

    As many Latins as the Schism Level (at most 6) enter Constantinople, from the
    Riot tiles left on the Counter Tray; the University is removed; the Riots
    already in the city turn Latin.
    """
    if "constantinople-betrayed" in state.done:
        ctx.log("5.4.2", "Constantinople was already betrayed once: no effect", "crusade")
        return state
    state = remember(state, "constantinople-betrayed")
    wanted = min(schism_level(ctx, state), MAX_LATINS)
    spare = tiles_on(ctx, state, "counter-tray", TileKind.RIOT)[:wanted]
    for riot in spare:
        state = _place(ctx, state, ctx.cat.tiles[riot].id, "constantinople", back=True)
    ctx.log("5.4.2", f"{len(spare)} Latins seize Constantinople", "crusade")
    state = _remove_university(ctx, state, "5.4.2")
    for riot in tiles_on(ctx, state, "constantinople", TileKind.RIOT):
        state = attrs.evolve(state, board=state.board.flip(riot, True))
    return state


@RULES.implements("5.4.2")
def landing_in_egypt(ctx: Context, state: SooState) -> SooState:
    """A foothold in Egypt: a Fallen or withdrawn Egypt Outpost is yours again.

    Not if the Outpost left the game when Egypt became independent (5.2.3 "Egypt").
    """
    held = _on(ctx, state, "outpost-egypt", "egypt") and not _shows_back(
        ctx, state, "outpost-egypt"
    )
    if held or "egypt-independent" in state.done:
        ctx.log("5.4.2", "Landing in Egypt: nothing changes", "crusade")
        return state
    ctx.log("5.4.2", "Landing in Egypt: the Egypt Outpost is yours again", "crusade")
    return _place(ctx, state, "outpost-egypt", "egypt", back=False)
