"""Chapter 11, the End of Turn Phase: the steps that close a Turn, one after the other.

:class:`EndOfTurnPhase` (11.0) schedules the steps in the rulebook's order; each
step is a task of its own, registered for its rule:

* 11.1 :class:`Banking`: the player keeps part of the treasury (1 $, 3 $ with one
  working Monastery, 12 $ with both); the rest is lost;
* 11.2 :class:`CancelMilitaryEvent`: the Military Event tile goes to its waiting space;
* 11.3 :class:`MuslimColonists`: a Colonist may move one Thema closer to the capital;
* 11.4 :class:`EgyptianApostasy`: a lost Egypt under a Muslim Path Ζ may turn Muslim;
* 11.5 :class:`ThreatToEgypt`: Egypt may fall while the Barbarians hold Jerusalem, and
  may be won back (1 $) while the Empire holds it;
* 11.6 :class:`UnsuccessfulStolos`: a Stolos still at sea costs a Faction;
* 11.7 :class:`MongolWithdrawal`: the Mongols give way to the Il-Khans (or Persia and
  Egypt);
* 11.8 :class:`TreatiesExpire`: the Tribute tile leaves the map;
* 11.9 :class:`SocialSkills`: a Π Basileus may, a Χ Basileus must, clear the Socials;
* 11.10 :class:`FlipUsedTiles`: Hospitals, Akritai and the golden Basileus are ready
  again, and the Basileus comes back from the Hippodrome;
* 11.11 :class:`EndOfTurn`: after Turn 27 the game is over (:func:`game_over`), and
  victory is measured by 12.3 (:mod:`~byzantium.sword_of_orthodoxy.victory`).

The rulings page records the readings made where the rulebook leaves a step open.
"""

from __future__ import annotations

import attrs

from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    basileus_has,
    colonist_on,
    convert_egypt,
    egypt_religion,
    homeland,
    player_controls,
    replace_army,
)
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_roll, end_game, push
from byzantium.sword_of_orthodoxy.siege import movable_factions
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
    eastern_army,
    is_muslim,
    marker,
    move,
    path_is_muslim,
    set_marker,
    socials_on_map,
    tile_name,
)

__all__ = [
    "ANATOLIAN_PLATEAU",
    "BANKING_LIMITS",
    "LAST_TURN",
    "OFF_MAP",
    "STOLOS_FACTION_SPACE",
    "Banking",
    "CancelMilitaryEvent",
    "EgyptianApostasy",
    "EndOfTurn",
    "EndOfTurnPhase",
    "FlipUsedTiles",
    "MongolWithdrawal",
    "MuslimColonists",
    "SocialSkills",
    "ThreatToEgypt",
    "TreatiesExpire",
    "UnsuccessfulStolos",
    "apostasy_due",
    "banking_limit",
    "colonist_target",
    "egypt_fallen",
    "egypt_outpost_held",
    "game_over",
    "keep_options",
    "mongol_successor",
    "on_the_map",
    "seljuks_bring_settlers",
    "stolos_at_sea",
    "usable_monasteries",
]

#: The peer app's option: the Seljuks colonize without a roll on the Persian Path only.
ANATOLIAN_PLATEAU = "anatolian_plateau"

#: The game lasts 27 Turns (2.3, 11.11).
LAST_TURN = 27
#: How much the treasury may keep with 0, 1 or 2 working Monasteries (11.1).
BANKING_LIMITS = (1, 3, 12)
#: Where the Faction a surviving Stolos costs goes on the Omnibus Track (11.6).
STOLOS_FACTION_SPACE = 4
#: Spaces that are not on the map: the Counter Tray, the Reserves printed at its top
#: (3.2), the mugs and the pile of discarded tiles.
OFF_MAP = frozenset(
    {"counter-tray", "discarded", "turn-chit-mug", "dynasty-mug", "basileus-mug", "patriarch-mug"}
)

#: The six Roll faces, a natural 6 being the only success of several steps here.
SIX = 6
EGYPT_OUTPOST = "outpost-egypt"
EGYPT_SPACE = "egypt"
JERUSALEM = "jerusalem"
SELJUKS = frozenset({"army-delta-seljuks", "army-epsilon-seljuks", "army-zeta-seljuks"})
MONGOLS = {Path.EPSILON: "marker-mongols-epsilon", Path.ZETA: "marker-mongols-zeta"}
IL_KHANS = {Path.EPSILON: "army-epsilon-il-khan", Path.ZETA: "army-zeta-il-khan"}
#: Who takes over from the Mongols where no Colonist has settled the Path (11.7).
NATIVES = {Path.EPSILON: "army-epsilon-persia", Path.ZETA: "army-zeta-egypt"}
REMOVE_SOCIALS = "remove socials"


# -- shared reading -------------------------------------------------------------------


def on_the_map(ctx: Context, state: SooState, tile: int) -> bool:
    """Whether a tile lies on the map: not on the Counter Tray, its Reserves, a mug or discarded."""
    space = ctx.cat.spaces[state.board.where[tile]]
    return space.kind is not SpaceKind.RESERVES and space.id not in OFF_MAP


def _treasury(ctx: Context, state: SooState) -> int:
    return marker(ctx, state, "solidus")


# -- 11.0 -----------------------------------------------------------------------------


@attrs.frozen
class EndOfTurnPhase(Task):
    """The End of Turn Phase: every step of chapter 11, in the printed order (11.0)."""

    @RULES.implements("11.0")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        ctx.log("11.0", f"End of Turn {state.turn}", "phase")
        return push(
            state,
            Banking(),
            CancelMilitaryEvent(),
            MuslimColonists(Path.EPSILON),
            MuslimColonists(Path.ZETA),
            EgyptianApostasy(),
            ThreatToEgypt(),
            UnsuccessfulStolos(),
            MongolWithdrawal(),
            TreatiesExpire(),
            SocialSkills(),
            FlipUsedTiles(),
            EndOfTurn(),
        )


# -- 11.1 -----------------------------------------------------------------------------


@RULES.implements("11.1")
def usable_monasteries(ctx: Context, state: SooState) -> list[int]:
    """The Monasteries on the map that can bank: an Isolated one (its back, 9.7) cannot."""
    return [
        tile
        for tile in ctx.cat.tiles_of(TileKind.MONASTERY)
        if on_the_map(ctx, state, tile) and not state.board.back[tile]
    ]


@RULES.implements("11.1")
def banking_limit(ctx: Context, state: SooState) -> int:
    """How many solidus may be kept: 1, or 3 with one working Monastery, 12 with both."""
    working = min(len(usable_monasteries(ctx, state)), len(BANKING_LIMITS) - 1)
    return BANKING_LIMITS[working]


@RULES.implements("11.1")
def keep_options(ctx: Context, state: SooState) -> list[SooAction]:
    """What the player may keep, as ``Select("keep n")``: from nothing up to the limit."""
    most = min(_treasury(ctx, state), banking_limit(ctx, state))
    return [Select(f"keep {n}") for n in range(most + 1)]


@attrs.frozen
class Banking(Task):
    """11.1: the player says how many solidus to save; the others are lost.

    With an empty treasury there is nothing to decide.
    """

    @RULES.implements("11.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        treasury = _treasury(ctx, state)
        if answer is None:
            if treasury == 0:
                ctx.log("11.1", "the treasury is empty: nothing to save", "solidus")
                return state
            limit = banking_limit(ctx, state)
            prompt = f"banking: keep how many of {treasury} $ (at most {limit})"
            return ask_choice(state, self, "11.1", prompt, keep_options(ctx, state))
        assert isinstance(answer, Select)
        kept = int(answer.item.removeprefix("keep "))
        ctx.log("11.1", f"{kept} $ saved, {treasury - kept} $ lost", "solidus")
        return set_marker(ctx, state, "solidus", kept)


# -- 11.2 -----------------------------------------------------------------------------


@attrs.frozen
class CancelMilitaryEvent(Task):
    """11.2: the Military Event tile leaves the Strategikon for its waiting space."""

    @RULES.implements("11.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = ctx.cat.tile("marker-military-event")
        if state.board.where[tile] != ctx.cat.space("strategikon"):
            return state
        ctx.log("11.2", "the Military Event ends: its tile goes to the waiting space", "event")
        return move(ctx, state, tile, "strategikon-waiting")


# -- 11.3 -----------------------------------------------------------------------------


@RULES.implements("11.3")
def colonist_target(ctx: Context, state: SooState, path: Path) -> int | None:
    """The Thema a Colonist of ``path`` may move into, or None when it cannot move.

    That is the next space towards Constantinople, provided it is under Muslim
    control: the Path's Army is Muslim (9.1.1) and stands on that space or closer
    to the capital. A Colonist next to Constantinople goes no farther.
    """
    colonist = colonist_on(ctx, state, path)
    if colonist is None:
        return None
    position = ctx.cat.spaces[state.board.where[colonist]].position
    if position <= 1:
        return None
    target = ctx.cat.themas(path)[position - 2]
    army = eastern_army(ctx, state, path)
    if army is None or not is_muslim(ctx, state, army):
        return None
    if player_controls(ctx, state, target):
        return None
    return target


@RULES.implements("11.3")
def seljuks_bring_settlers(ctx: Context, path: Path, army: int) -> bool:
    """Whether the Path's Army is the Seljuks, who move the Colonist without a roll.

    With the peer option Anatolian Plateau only on the Persian Path (Ε): on Path Ζ
    the Seljuks roll for their Colonists like any other Muslim Army.
    """
    if ctx.cat.tiles[army].id not in SELJUKS:
        return False
    return path is Path.EPSILON or not ctx.option(ANATOLIAN_PLATEAU)


@attrs.frozen
class MuslimColonists(Task):
    """11.3 (errata 2025): the Colonist of a Path may advance one Thema.

    Only into a Muslim-held Thema (:func:`colonist_target`). The Seljuks bring
    their Colonists along without a roll (:func:`seljuks_bring_settlers`); under
    any other Muslim Army a die is rolled and only a 6 moves the Colonist. The roll
    concerns this Path alone.
    """

    path: Path

    @RULES.implements("11.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        target = colonist_target(ctx, state, self.path)
        if target is None:
            return state
        if answer is None:
            army = eastern_army(ctx, state, self.path)
            if army is not None and seljuks_bring_settlers(ctx, self.path, army):
                return self._advance(ctx, state, target, "the Seljuks bring their settlers")
            prompt = f"Muslim Colonists of Path {self.path}: they advance on a 6"
            return ask_roll(state, self, "11.3", prompt, path=self.path)
        assert isinstance(answer, Roll)
        if answer.dice[0] != SIX:
            ctx.log("11.3", f"Colonists of Path {self.path}: {answer.dice[0]}, they stay")
            return state
        return self._advance(ctx, state, target, "a 6")

    def _advance(self, ctx: Context, state: SooState, target: int, why: str) -> SooState:
        colonist = colonist_on(ctx, state, self.path)
        assert colonist is not None
        where = ctx.cat.spaces[target]
        ctx.log("11.3", f"Colonists of Path {self.path} advance to {where.name} ({why})")
        return move(ctx, state, colonist, where.id)


# -- 11.4 -----------------------------------------------------------------------------


def egypt_outpost_held(ctx: Context, state: SooState) -> bool:
    """Whether the Egypt Outpost lies on the Egypt space showing its Roman side."""
    tile = ctx.cat.tile(EGYPT_OUTPOST)
    on_space = state.board.where[tile] == ctx.cat.space(EGYPT_SPACE)
    return on_space and not state.board.back[tile]


def egypt_fallen(ctx: Context, state: SooState) -> bool:
    """Whether the Egypt Outpost lies on the Egypt space showing "Fallen Egypt" (11.5)."""
    tile = ctx.cat.tile(EGYPT_OUTPOST)
    on_space = state.board.where[tile] == ctx.cat.space(EGYPT_SPACE)
    return on_space and state.board.back[tile]


@RULES.implements("11.4")
def apostasy_due(ctx: Context, state: SooState) -> bool:
    """Whether Egypt risks conversion this Turn.

    The Empire does not hold Egypt (its Outpost is Fallen or not on the map), the
    Barbarians of Path Ζ are Muslim, and the Egyptian Religion space still shows
    Christian Egypt.
    """
    return (
        not egypt_outpost_held(ctx, state)
        and path_is_muslim(ctx, state, Path.ZETA)
        and egypt_religion(ctx, state) == "christian"
    )


@attrs.frozen
class EgyptianApostasy(Task):
    """11.4: when :func:`apostasy_due`, a 6 turns Egypt Muslim (2.7)."""

    @RULES.implements("11.4")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if not apostasy_due(ctx, state):
                return state
            return ask_roll(state, self, "11.4", "Egyptian apostasy: Egypt turns Muslim on a 6")
        assert isinstance(answer, Roll)
        if answer.dice[0] != SIX:
            ctx.log("11.4", f"Egyptian apostasy: {answer.dice[0]}, Egypt stays Christian")
            return state
        return convert_egypt(ctx, state, "11.4")


# -- 11.5 -----------------------------------------------------------------------------


@attrs.frozen
class ThreatToEgypt(Task):
    """11.5: Egypt hangs on Jerusalem.

    While the Barbarians hold Jerusalem, a held Egypt falls on a 6 (its Outpost
    turns to "Fallen Egypt"). While the Empire holds Jerusalem, a Fallen Egypt may
    be reconquered: the player may pay 1 $ for a roll, and a 6 turns the Outpost
    back to its Roman side. ``step`` is ``"threat"``, ``"offer"`` or ``"reconquest"``.
    """

    step: str = ""

    @RULES.implements("11.5")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not self.step:
            return self._begin(ctx, state)
        if self.step == "offer":
            if isinstance(answer, Decline):
                ctx.log("11.5", "no attempt to reconquer Egypt", "egypt")
                return state
            assert isinstance(answer, Pay)
            state = set_marker(ctx, state, "solidus", _treasury(ctx, state) - answer.amount)
            ctx.log("11.5", f"{answer.amount} $ spent to reconquer Egypt", "egypt")
            return attrs.evolve(self, step="reconquest").reask(ctx, state)
        assert isinstance(answer, Roll)
        egypt = ctx.cat.tile(EGYPT_OUTPOST)
        if answer.dice[0] != SIX:
            outcome = "Egypt holds" if self.step == "threat" else "Egypt stays lost"
            ctx.log("11.5", f"{answer.dice[0]}: {outcome}", "egypt")
            return state
        if self.step == "threat":
            ctx.log("11.5", "the Barbarians conquer Egypt: Fallen Egypt", "egypt")
            return attrs.evolve(state, board=state.board.flip(egypt, True))
        ctx.log("11.5", "Egypt is reconquered", "egypt")
        return attrs.evolve(state, board=state.board.flip(egypt, False))

    def _begin(self, ctx: Context, state: SooState) -> SooState:
        barbarian_jerusalem = not player_controls(ctx, state, ctx.cat.space(JERUSALEM))
        if barbarian_jerusalem and egypt_outpost_held(ctx, state):
            task = attrs.evolve(self, step="threat")
            return ask_roll(state, task, "11.5", "threat to Egypt: it falls on a 6")
        if not barbarian_jerusalem and egypt_fallen(ctx, state) and _treasury(ctx, state) >= 1:
            task = attrs.evolve(self, step="offer")
            prompt = "reconquer Fallen Egypt for 1 $ (success on a 6)?"
            return ask_choice(state, task, "11.5", prompt, [Decline(), Pay(1)])
        return state

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The question of this step again (validation; the reconquest roll after the
        1 $ is paid)."""
        if self.step == "reconquest":
            return ask_roll(state, self, "11.5", "reconquest of Egypt: success on a 6")
        asked = self._begin(ctx, state)
        return asked if self.step and asked.pending is not None else state


# -- 11.6 -----------------------------------------------------------------------------


@RULES.implements("11.6")
def stolos_at_sea(ctx: Context, state: SooState) -> bool:
    """Whether the Stolos is still on a Path: on a Zone, a Thema or a Homeland."""
    space = ctx.cat.spaces[state.board.where[ctx.cat.tile("marker-stolos")]]
    return space.path is not None and space.kind in (
        SpaceKind.ZONE,
        SpaceKind.THEMA,
        SpaceKind.HOMELAND,
    )


@attrs.frozen
class UnsuccessfulStolos(Task):
    """11.6: a Stolos still on a Path goes back to Lurking and costs a Faction.

    The player picks the Faction in Constantinople that goes to space 4 of the
    Omnibus Track, never the Walls of Theodosius (12.1); with a single candidate
    there is nothing to pick, with none nothing moves.
    """

    @RULES.implements("11.6")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Select):
            return self._displace(ctx, state, ctx.cat.tile(answer.item))
        if not stolos_at_sea(ctx, state):
            return state
        ctx.log("11.6", "the Stolos survived the Turn: back to Lurking, morale suffers", "stolos")
        state = move(ctx, state, ctx.cat.tile("marker-stolos"), "lurking")
        factions = movable_factions(ctx, state)
        if not factions:
            ctx.log("11.6", "no Faction in Constantinople can leave", "faction")
            return state
        if len(factions) == 1:
            return self._displace(ctx, state, factions[0])
        return self._ask(ctx, state, factions)

    def _ask(self, ctx: Context, state: SooState, factions: list[int]) -> SooState:
        options = [Select(ctx.cat.tiles[f].id) for f in factions]
        prompt = "the Faction that loses heart (to space 4 of the Omnibus Track)"
        return ask_choice(state, self, "11.6", prompt, options)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The Faction question again, the Stolos already back on Lurking (validation)."""
        factions = movable_factions(ctx, state)
        return self._ask(ctx, state, factions) if len(factions) > 1 else state

    def _displace(self, ctx: Context, state: SooState, faction: int) -> SooState:
        ctx.log("11.6", f"{tile_name(ctx, state, faction)} go to space 4", "faction")
        return move(ctx, state, faction, "omnibus", STOLOS_FACTION_SPACE)


# -- 11.7 -----------------------------------------------------------------------------


@RULES.implements("11.7")
def mongol_successor(ctx: Context, state: SooState, path: Path) -> str:
    """Who replaces the Mongols of Path Ε or Ζ: the Il-Khan, where Colonists have settled.

    Without a Colonist on the Path, or with its Colonist still on the Homeland,
    Persia (Ε) or Egypt (Ζ) comes back instead.
    """
    colonist = colonist_on(ctx, state, path)
    if colonist is None or state.board.where[colonist] == homeland(ctx, path):
        return NATIVES[path]
    return IL_KHANS[path]


@attrs.frozen
class MongolWithdrawal(Task):
    """11.7: the Mongol Empire breaks up; each Mongol tile is replaced where it stands."""

    @RULES.implements("11.7")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        for path, mongols in MONGOLS.items():
            if eastern_army(ctx, state, path) != ctx.cat.tile(mongols):
                continue
            successor = mongol_successor(ctx, state, path)
            ctx.log("11.7", f"the Mongols of Path {path} withdraw", "army")
            state = replace_army(ctx, state, path, successor, "11.7")
        return state


# -- 11.8 -----------------------------------------------------------------------------


@attrs.frozen
class TreatiesExpire(Task):
    """11.8: a Tribute tile on the map returns to the Counter Tray."""

    @RULES.implements("11.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tribute = ctx.cat.tile("marker-tribute")
        if not on_the_map(ctx, state, tribute):
            return state
        ctx.log("11.8", "the Tribute expires", "tribute")
        return move(ctx, state, tribute, "counter-tray")


# -- 11.9 -----------------------------------------------------------------------------


@attrs.frozen
class SocialSkills(Task):
    """11.9: a Basileus with Χ removes every Social; with Π the player may, for free.

    All or none go, back to the Counter Tray. When the grey Basileus in office
    show both symbols (an empress and her husband), the Χ obligation prevails.
    """

    @RULES.implements("11.9")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        socials = socials_on_map(ctx, state)
        if isinstance(answer, Decline):
            ctx.log("11.9", "the Socials stay on the map", "social")
            return state
        if isinstance(answer, Select):
            return self._remove(ctx, state, socials, "the Basileus plays the factions")
        if not socials:
            return state
        if basileus_has(ctx, state, Icon.CHI):
            return self._remove(ctx, state, socials, "the impulsive Basileus (Χ)")
        if basileus_has(ctx, state, Icon.PI):
            prompt = "the shrewd Basileus (Π) may remove every Social for free"
            return ask_choice(state, self, "11.9", prompt, [Decline(), Select(REMOVE_SOCIALS)])
        return state

    def _remove(self, ctx: Context, state: SooState, socials: list[int], why: str) -> SooState:
        ctx.log("11.9", f"{why}: {len(socials)} Social(s) removed", "social")
        for social in socials:
            state = move(ctx, state, social, "counter-tray")
        return state


# -- 11.10 ----------------------------------------------------------------------------


@attrs.frozen
class FlipUsedTiles(Task):
    """11.10: Hospitals and Akritai show their front again, the golden Basileus loses his
    Plague side, and from the Hippodrome he returns to Constantinople."""

    @RULES.implements("11.10")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        board = state.board
        for tile in (*ctx.cat.tiles_of(TileKind.HOSPITAL), *ctx.cat.tiles_of(TileKind.AKRITAI)):
            board = board.flip(tile, False)
        golden = ctx.cat.tile("basileus-golden")
        if board.back[golden]:
            ctx.log("11.10", "the golden Basileus recovers from the Plague", "basileus")
            board = board.flip(golden, False)
        state = replace(state, "board", board)
        if board.where[golden] == ctx.cat.space("hippodrome"):
            ctx.log("11.10", "the golden Basileus leaves the Hippodrome", "basileus")
            state = move(ctx, state, golden, "constantinople")
        return state


# -- 11.11 ----------------------------------------------------------------------------


@RULES.implements("11.11")
def game_over(ctx: Context, state: SooState) -> SooState | None:
    """The end of the game once Turn 27 is over (None before): 12.3 then scores it."""
    if state.turn < LAST_TURN:
        return None
    return end_game(ctx, state, "11.11", f"Turn {LAST_TURN} is over", defeat=False)


@attrs.frozen
class EndOfTurn(Task):
    """11.11: the Turn is over; after Turn 27 so is the game (:func:`game_over`)."""

    @RULES.implements("11.11")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        over = game_over(ctx, state)
        if over is not None:
            return over
        ctx.log("11.11", f"Turn {state.turn} is over", "turn")
        return state
