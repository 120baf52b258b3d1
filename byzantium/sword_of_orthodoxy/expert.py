"""The expert built-in player for Sword of Orthodoxy: a budgeted expectimax search.

The player searches the real game. At a decision every choice is tried; the dice
and draws that follow are averaged over with their exact probabilities (chance is
never sampled), through up to a few chance nodes in a row (a roll of two dice, as
the Siege roll of 12.1 or War in the East of 8.3, included; a Siege roll however
many came before it), and the position reached is scored by :func:`assess`. While
the node budget lasts the search goes deeper on the most promising choices
(iterative deepening with a beam): in the Byzantine Action Phase (10.0) that plans
a sequence of purchases and attacks rather than one step. The budget counts
transitions (calls of ``Game.apply``), not seconds, so a seed always gives the
same game.

:func:`assess` is built from what the rules make dangerous:

* the chance that the next Barbarian Phase (chapter 9) besieges Constantinople and
  that the Siege roll of 12.1 then takes the City, from each Path's distance to
  a Siege (Armies in a western Zone, the position of an eastern Army), the Turn
  Chits still in the mug or, once it is drawn, this Turn's chit (9.1), the Kan and
  Caliph (9.4), the Tribute and the Kastron in the way (9.5.4, 9.5.5), the first
  War in the East still to come (8.3, Table 2 with the Mountains held), and the
  Factions and Walls in Constantinople (12.1; a strategic retreat, 12.2, costs no
  roll);
* the Sieges of the Rise of Islam (2.8), which the second War in the East (8.3)
  sets off before the next Barbarian Phase: as many Saracen attacks as the
  Ruins, on Ε, Ζ, Δ in turn, each an Advance, so that a Saracen Path's Army one
  space from the City besieges it at every attack on its Path (hence clearing the
  Ruins, 10.11, and throwing the Persians back before it comes);
* how many further Sieges the Factions can absorb (each survived Siege sends at
  least one away, 12.1), with a Stolos still at sea (11.6) and Riots (6.1) counted
  as Factions about to be lost;
* the chance that an Ecumenical Council (5.3.1) takes the Schism past 12 (2.6);
* what keeps the Empire going: the solidus that can be banked (11.1, with the
  Monasteries), Outposts (10.1, 10.2, 12.3), Hospitals, Akritai, the golden
  Basileus at home or in the Hippodrome (10.7, 10.6.9.2; each Turn of exile
  costs), Niké (6.1), the Reforms (5.3.4), the Ruins (2.8, 12.3).

It is much slower than :func:`~byzantium.sword_of_orthodoxy.policy.sensible_policy`
and plays much longer games.
"""

from __future__ import annotations

import contextlib
import math
import random
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.sword_of_orthodoxy.barbarians import BarbarianPhase, kastron_usable
from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    SARACEN_ATTACK_ORDER,
    SaracenAttacks,
    islam_has_risen,
    ruins_level,
    saracen_on,
    saracen_paths,
)
from byzantium.sword_of_orthodoxy.end_of_turn import BANKING_LIMITS, stolos_at_sea
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.siege import Siege, retreat_due
from byzantium.sword_of_orthodoxy.state import RequestKind, SooAction, SooState
from byzantium.sword_of_orthodoxy.synopsis import (
    OUTPOST_SPACES,
    PERSIANS,
    WAR_IN_THE_EAST,
    WAR_IN_THE_EAST_COUNTER,
    SynopsisPhase,
    mountains_controlled,
    synopsis_row,
    war_in_the_east_row,
)
from byzantium.sword_of_orthodoxy.world import (
    current_chit,
    eastern_army,
    eastern_position,
    path_is_muslim,
)

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = [
    "DEFAULT_BUDGET",
    "Expert",
    "Lookups",
    "Weights",
    "assess",
    "expert_policy",
    "fall_chance",
    "siege_chances",
    "siege_loss",
]

#: Transitions per decision for the deeper search by default (see :class:`Expert`).
#: None: measured on the same dice, a budget of 1200 played no better than the
#: exact one-step expectimax (worse in 3 of 6 Campaign games, better in 2) at three
#: times the cost, so the default is the one-step player; pass a budget to search
#: deeper.
DEFAULT_BUDGET = 0
#: Worth of a finished game: a Defeat loses this, less a little per Turn survived.
DEATH = 1000.0


@attrs.frozen
class Weights:
    """The tunable weights of :func:`assess` (in solidus-like units)."""

    #: The chance of Defeat in the next Barbarian Phase (:func:`fall_chance`) is
    #: weighed like a Defeat by default: a lost game is worth ``-DEATH`` (plus a
    #: little per Turn survived) at the end of the search too.
    danger: float = DEATH
    #: Log-survival of the next three Sieges (12.1), per unit of log-probability.
    factions: float = 40.0
    #: Share of a Faction's worth kept per space it lies away on the Omnibus Track.
    rebuild: float = 0.75
    #: Pressure of a Path ``d`` advances from a Siege, for d = 1, 2, 3, 4.
    pressure: tuple[float, float, float, float] = (25.0, 9.0, 3.0, 1.0)
    #: A banked solidus, and one that would be lost at the end of the Turn.
    solidus: float = 1.6
    excess: float = 0.15
    schism: float = 2.0
    outpost: float = 2.0
    monastery: float = 4.0
    hospital: float = 3.0
    akritai: float = 1.5
    basileus: float = 3.0
    #: Per Turn the golden Basileus spends exiled on the Chronographia (10.7).
    exile: float = 4.0
    nike: float = 1.0
    reforms: float = 4.0
    ruins: float = 0.6
    latins: float = 4.0
    #: Per Turn a Stolos spends exiled on the Chronographia.
    stolos: float = 6.0


def siege_loss(factions: int, walls: bool) -> Fraction:
    """The chance that a Siege roll takes the City (12.1): 2d6, +3 without the Walls,
    above the number of Factions in Constantinople."""
    drm = 0 if walls else 3
    above = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + drm > factions)
    return Fraction(above, 36)


_LOSS = {(f, w): float(siege_loss(f, w)) for f in range(-12, 16) for w in (False, True)}


class Lookups:
    """The catalogue indexes :func:`assess` reads, looked up once per game (pass one
    to :func:`assess` to save the look-ups)."""

    def __init__(self, ctx: Context) -> None:
        cat = ctx.cat
        self.cat = cat
        self.constantinople = cat.space("constantinople")
        self.mug = cat.space("turn-chit-mug")
        self.walls = cat.tile("faction-walls")
        self.factions = cat.tiles_of(TileKind.FACTION)
        self.riots = cat.tiles_of(TileKind.RIOT)
        self.chits = tuple(cat.chits.items())
        self.zones = {p: cat.zone(p) for p in Path if p.western}
        self.themas = {p: cat.themas(p) for p in Path if not p.western}
        self.armies = {p: cat.armies(p) for p in Path}
        self.kan = cat.tile("marker-kan")
        self.caliph = cat.tile("marker-caliph")
        self.stolos = cat.tile("marker-stolos")
        self.tribute = cat.tile("marker-tribute")
        self.schism = cat.tile("marker-schism")
        self.solidus = cat.tile("marker-solidus")
        self.nike = cat.tile("marker-nike")
        self.reforms = cat.tile("marker-reforms")
        self.ruins = cat.tile("marker-ruins")
        self.golden = cat.tile("basileus-golden")
        self.hippodrome = cat.space("hippodrome")
        self.pope = cat.tile("marker-pope")
        self.pope_space = cat.space("pope")
        self.reforms_space = cat.space("reforms")
        self.omnibus = cat.space("omnibus")
        self.monasteries = cat.tiles_of(TileKind.MONASTERY)
        self.hospitals = cat.tiles_of(TileKind.HOSPITAL)
        self.akritai = cat.tiles_of(TileKind.AKRITAI)
        self.outpost_homes = tuple(
            (cat.tile(tile), frozenset(cat.space(s) for s in spaces))
            for tile, spaces in OUTPOST_SPACES.items()
        )
        self.chronicle = {cat.space(f"chronographia-{n}"): n for n in range(1, 28)}
        # The first War in the East (8.3): its chance on each Turn's Synopsis roll,
        # the Armies it moves (the Nomads of Path Ζ become Persians), and by
        # Mountains held the chance that it advances them at least 0, 1, 2, 3, 4 spaces.
        self.war_chance = {turn: _war_chance(ctx, turn) for turn in range(1, 29)}
        self.persians = frozenset(cat.tile(t) for t in (*PERSIANS, "army-zeta-nomads"))
        self.war_advance = {m: _war_advance(ctx, m) for m in range(4)}
        self.path_of = [s.path for s in cat.spaces]
        self.kind_of = [s.kind for s in cat.spaces]


def _war_chance(ctx: Context, turn: int) -> float:
    """The chance that the Synopsis roll of ``turn`` (one die plus the Turn, 8.1)
    gives War in the East."""
    wars = 0
    for face in range(1, 7):
        with contextlib.suppress(ValueError):  # past the table's last row: no war
            wars += synopsis_row(ctx, face + turn).military == WAR_IN_THE_EAST
    return wars / 6


def _war_advance(ctx: Context, mountains: int) -> tuple[float, ...]:
    """The chance that the first War in the East (Table 2, 2d6 plus the Mountains)
    advances each Persian Army at least 0, 1, 2, 3 and 4 spaces."""
    rolls = [war_in_the_east_row(ctx, a + b + mountains) for a in range(1, 7) for b in range(1, 7)]
    return tuple(sum(1 for row in rolls if row.persians >= k) / 36 for k in range(5))


def _on_path(b: Lookups, space: int) -> bool:
    return b.path_of[space] is not None and b.kind_of[space] is not SpaceKind.RESERVES


def assess(
    ctx: Context, state: SooState, weights: Weights = Weights(), board: Lookups | None = None
) -> float:
    """How good a position is for the Empire (higher is better; a Defeat is -1000).

    A sum of the terms the module documentation lists, in solidus-like units, with
    the chance of falling in the next Barbarian Phase weighted like a Defeat (the
    weight ``danger``).
    """
    return _assess(ctx, state, weights, board, danger_only=False)


def fall_chance(
    ctx: Context, state: SooState, weights: Weights = Weights(), board: Lookups | None = None
) -> float:
    """The chance of Defeat in the next Barbarian Phase that :func:`assess` weighs.

    A Siege roll lost (12.1) on a Path one, two or three advances from a Siege (9.1,
    9.4, the Kan and Caliph placed at random, 7.2, 7.3), or the Schism passing 12 at
    an Ecumenical Council (2.6, 5.3.1): an estimate, not the exact chance.
    """
    return _assess(ctx, state, weights, board, danger_only=True)


def siege_chances(
    ctx: Context, state: SooState, weights: Weights = Weights(), board: Lookups | None = None
) -> dict[Path, float]:
    """For each Path, the chance :func:`fall_chance` gives it of bringing a Siege (9.6)
    in the next Barbarian Phase, or just before it in the Rise of Islam (2.8); 0 for
    the Barbarian Phase where a strategic retreat (12.2) answers the Siege. What
    ``python -m benchmarks.sword_expert_games`` checks against the games played (the
    difficulty page shows the check)."""
    reaches: dict[Path, float] = {}
    _assess(ctx, state, weights, board, danger_only=True, reaches=reaches)
    return reaches


def _assess(
    ctx: Context,
    state: SooState,
    w: Weights,
    board: Lookups | None,
    *,
    danger_only: bool,
    reaches: dict[Path, float] | None = None,
) -> float:
    b = board if board is not None else Lookups(ctx)
    where = state.board.where
    back = state.board.back
    value = state.board.value
    city = b.constantinople

    factions = sum(1 for t in b.factions if where[t] == city)
    walls = where[b.walls] == city
    riots = [t for t in b.riots if where[t] == city]
    latins = sum(1 for t in riots if back[t])
    at_sea = stolos_at_sea(ctx, state)
    # Factions about to be lost: a Stolos left at sea (11.6), a Riot at the next
    # Leadership Phase (6.1), one per Riot. 6.1 itself sends one Faction away however
    # many Riots there are; counting them so played no better (on Campaign seeds 0-59,
    # 8 games survived against 8, mean end Turn 15.20 against 14.93; the first trial,
    # with an earlier player, fell sooner in 7 games of 7), nor did adding the -1 of
    # 10.6.3 for every Riot (7 against 8, 14.93 against 14.93): see the difficulty page.
    doomed = (1 if at_sea else 0) + (len(riots) - latins)
    left = factions - doomed
    # A Siege under way (12.1) when the search stops: its roll still to come is a
    # Siege for sure, and a City that holds sends at least one Faction away.
    survive = 1.0
    task = state.pending.task if state.pending is not None else None
    if isinstance(task, Siege) and not task.moved and task.step in ("roll", "factions"):
        if task.step == "roll":
            survive = _holds(left, walls)
        left -= 1

    # -- the next Barbarian Phase ---------------------------------------------------
    in_mug = [chit for tile, chit in b.chits if where[tile] == b.mug]
    n_chits = len(in_mug)
    # Once this Turn's chit is drawn (4.1), the advances of its Barbarian Phase are
    # that chit's letters (9.1), not a draw from the mug.
    drawn: frozenset[Path] | None = None
    if any(isinstance(task, BarbarianPhase) for task in state.stack):
        chit = current_chit(ctx, state)
        if chit is not None:
            drawn = frozenset(ctx.cat.chits[chit].paths)
    kan_on = _on_path(b, where[b.kan])
    caliph_on = _on_path(b, where[b.caliph]) and not back[b.caliph]
    # Factions being rebuilt on the Omnibus Track (10.12) count in part, the more
    # the nearer they are to Constantinople, so that each solidus towards one shows.
    coming = 0.0
    walls_share = 1.0 if walls else 0.0
    for t in b.factions:
        if where[t] == b.omnibus:
            share = w.rebuild ** value[t]
            coming += share
            if t == b.walls:
                walls_share = share
    loss_now = _blended_loss(left + coming, walls_share)
    # The first War in the East may come up before the next Barbarian Phase (8.3).
    # The second one is the Rise of Islam (2.8), whose Sieges come first.
    wars = state.counter(WAR_IN_THE_EAST_COUNTER)
    next_war = 0.0
    if wars < 2:
        synopsis_ahead = any(isinstance(task, SynopsisPhase) for task in state.stack)
        next_war = b.war_chance.get(state.turn if synopsis_ahead else state.turn + 1, 0.0)
    war = next_war if wars == 0 else 0.0
    islam, islam_chance = _islam_sieges(ctx, state, next_war if wars == 1 else 0.0)
    at_least = b.war_advance[mountains_controlled(ctx, state)] if war else ()
    pressure = 0.0
    for path in Path:
        if path.western:
            armies = sum(1 for t in b.armies[path] if where[t] == b.zones[path])
            distance = 6 - armies
        else:
            position = eastern_position(ctx, state, path)
            distance = position if position else 9
        if drawn is not None:
            letter = 1.0 if path in drawn else 0.0
        else:
            letter = sum(1 for chit in in_mug if path in chit.paths) / max(n_chits, 1)
        # Tribute (9.5.4; it expires at 11.8) lets one advance in six through, the
        # Kastron (9.5.5) two.
        if drawn is not None and b.path_of[where[b.tribute]] is path:
            letter /= 6
        if kastron_usable(ctx, state, path):
            letter /= 3
        muslim = False
        if caliph_on:
            muslim = path_is_muslim(ctx, state, path)
        extra = (1 / 6 if kan_on else 0.0) + (1 / 6 if muslim else 0.0)
        if distance == 1:
            reach = letter
        elif distance == 2:
            reach = letter * extra + 0.04
        elif distance == 3:
            reach = letter * extra * extra + 0.01
        else:
            reach = 0.0
        if (
            war
            and not path.western
            and distance <= 4
            and eastern_army(ctx, state, path) in b.persians
        ):
            # Advanced all the way by the war, or to one space short and then by the chit.
            by_war = at_least[distance] + (at_least[distance - 1] - at_least[distance]) * letter
            reach = war * by_war + (1 - war) * reach
        if reach and retreat_due(ctx, state, path):
            reach = 0.0  # the strategic retreat answers the Siege (12.2)
        if reach:
            survive *= 1.0 - reach * loss_now
        if reaches is not None:
            # with the Sieges of the Rise of Islam, which come first
            reaches[path] = 1 - (1 - reach) * (1 - islam_chance) if path in islam else reach
        if distance <= 4:
            pressure += w.pressure[distance - 1] * (0.4 + letter)
    if islam:
        withstood = 1.0
        for lost in range(sum(islam.values())):
            withstood *= _holds(left - lost, walls)
        survive *= 1.0 - islam_chance * (1.0 - withstood)
    danger = 1.0 - survive

    # -- the Sieges after that -----------------------------------------------------
    endurance = _endurance(left, walls)
    # Factions on the Omnibus Track come back for 1 solidus a space (10.12): worth
    # part of what they would add, the more the nearer they are.
    for t in b.factions:
        if where[t] == b.omnibus:
            if t == b.walls:
                gain = _endurance(left + 1, True) - endurance
            else:
                gain = _endurance(left + 1, walls) - endurance
            endurance += gain * w.rebuild ** value[t]

    # -- the Schism (2.6, 5.3.1) -----------------------------------------------------
    schism = value[b.schism] if where[b.schism] == b.omnibus else 0
    hostile = where[b.pope] == b.pope_space and back[b.pope]
    council = sum(1 for chit in in_mug if chit.patriarch) / n_chits if n_chits else 0.0
    margin = 12 - schism - (1 if hostile else 0)
    over = sum(1 for face in range(1, 7) if face > margin) / 6
    danger += council * over * (1.0 - danger)
    if danger_only:
        return danger

    score = -w.danger * danger + w.factions * endurance - pressure
    score -= w.schism * max(0, schism - 2) ** 2 / 4

    # -- resources -------------------------------------------------------------------
    monasteries = sum(1 for t in b.monasteries if b.path_of[where[t]] is not None and not back[t])
    keep = BANKING_LIMITS[min(monasteries, 2)]
    solidus = value[b.solidus]
    score += w.solidus * min(solidus, keep) + w.excess * max(0, solidus - keep)
    score += w.monastery * monasteries
    score += w.hospital * sum(1 for t in b.hospitals if _on_path(b, where[t]))
    score += w.akritai * sum(1 for t in b.akritai if _on_path(b, where[t]))
    score += w.outpost * sum(1 for t, homes in b.outpost_homes if where[t] in homes and not back[t])
    # The golden Basileus: at home (the Hippodrome sends him back at 11.10), or
    # exiled by a mission (10.7) for Turns in which he can neither go on another
    # nor quell a Riot for free in the Hippodrome (10.6.9.2).
    if where[b.golden] in (city, b.hippodrome):
        score += w.basileus
    else:
        away = b.chronicle.get(where[b.golden], 0) - state.turn
        score -= w.exile * min(max(away, 0), 6)
    score += w.nike * min(value[b.nike], 3)
    if where[b.reforms] == b.reforms_space:
        score += w.reforms
    elif where[b.reforms] == b.omnibus:
        score += w.reforms * value[b.reforms] / 24
    if where[b.ruins] == b.omnibus:
        score -= w.ruins * (value[b.ruins] + 5)
    score -= w.latins * latins
    # A Stolos exiled by Naval reforms (10.7.5) cannot sail (8.4.1) until it returns.
    exile = b.chronicle.get(where[b.stolos], 0) - state.turn
    if exile > 0:
        score += w.stolos * min(exile, 5)
    return score


def _islam_sieges(ctx: Context, state: SooState, chance: float) -> tuple[dict[Path, int], float]:
    """The Sieges the Saracen attacks of the Rise of Islam (2.8) would bring, by Path
    (those with one or more), and the chance that they come before the next
    Barbarian Phase: 1 while the attacks are being made, else ``chance`` (that of
    the second War in the East, 8.3).

    Each attack on a Saracen Path is one Advance (the Ruins level counts them, Ε,
    Ζ, Δ in turn), so a Path whose Army stands ``d`` from the City with ``k``
    attacks to come brings ``k - d + 1`` Sieges (blocking rolls and the free
    attacks won at each Siege, which may throw it back, are left out).
    """
    running = next((t for t in state.stack if isinstance(t, SaracenAttacks)), None)
    if running is not None:
        attacks = SARACEN_ATTACK_ORDER[running.index : running.index + running.remaining]
        chance = 1.0
        saracen = [p for p in (Path.DELTA, Path.EPSILON, Path.ZETA) if saracen_on(ctx, state, p)]
    elif chance and not islam_has_risen(ctx, state):
        attacks = SARACEN_ATTACK_ORDER[: ruins_level(ctx, state)]
        saracen = list(saracen_paths(ctx, state))
    else:
        return {}, 0.0
    sieges: dict[Path, int] = {}
    for path in saracen:
        distance = eastern_position(ctx, state, path)
        if distance and attacks.count(path) >= distance:
            sieges[path] = attacks.count(path) - distance + 1
    return sieges, chance if sieges else 0.0


def _blended_loss(factions: float, walls: float) -> float:
    """:func:`siege_loss` for a fractional number of Factions and share of the Walls."""
    whole = math.floor(factions)
    part = factions - whole
    low, high = max(-12, min(15, whole)), max(-12, min(15, whole + 1))
    with_walls = (1 - part) * _LOSS[(low, True)] + part * _LOSS[(high, True)]
    without = (1 - part) * _LOSS[(low, False)] + part * _LOSS[(high, False)]
    return walls * with_walls + (1 - walls) * without


def _holds(factions: int, walls: bool) -> float:
    """The chance that the City withstands a Siege roll (12.1): 1 - :func:`siege_loss`."""
    return 1.0 - _LOSS[(max(-12, min(15, factions)), walls)]


def _endurance(factions: int, walls: bool) -> float:
    """Log-chance of withstanding the next three Sieges, one Faction lost per Siege."""
    return sum(math.log(max(1.0 / 72, _holds(factions - lost, walls))) for lost in range(3))


def expert_policy(
    game: SwordOfOrthodoxy, budget: int = DEFAULT_BUDGET, weights: Weights = Weights()
) -> Expert:
    """The expert player with a budget of ``budget`` transitions per decision."""
    return Expert(game, budget, weights)


class Expert:
    """A policy object: ``expert(game, state, rng)`` returns the chosen action.

    Every decision first looks at each choice once (the choice, then its dice
    averaged over); ``budget`` bounds the transitions the deeper search after that
    may make (``Game.apply_unchecked`` calls: every action searched comes from its
    state's own list), so ``budget=0`` is a one-step player
    (still with the follow-up questions a choice raises answered); ``beam`` is
    how many of the best choices each deeper search step keeps;
    ``chance_run`` how many chance nodes in a row are averaged over before a
    position is assessed (a Siege roll, 12.1, always is). ``rng`` is not used: the
    search is deterministic.
    """

    def __init__(
        self,
        game: SwordOfOrthodoxy,
        budget: int = DEFAULT_BUDGET,
        weights: Weights = Weights(),
        *,
        beam: int = 5,
        chance_run: int = 2,
    ) -> None:
        if budget < 0:
            raise ValueError("the expert's budget must be at least 0")
        self.game = game
        self.budget = budget
        self.weights = weights
        self.beam = beam
        self.chance_run = chance_run
        self.ctx = Context(game, None)
        self.board = Lookups(self.ctx)
        #: Transitions the last decision made in all, and in its budgeted deeper search.
        self.spent = 0
        self.deep = 0
        self._left = 0
        self._memo: dict[tuple[SooState, int], float] = {}

    def __call__(
        self, game: Game[SooState, SooAction], state: SooState, rng: random.Random
    ) -> SooAction:
        del rng
        actions = game.legal_actions(state)
        self.spent = self.deep = 0
        if len(actions) == 1:
            return actions[0]
        self._memo = {}
        # The first look: every choice, its dice averaged over (not budgeted).
        self._left = -1
        children = [self._apply(state, action) for action in actions]
        scores = [self._value(child, 0) for child in children]
        order = sorted(range(len(actions)), key=lambda i: -scores[i])
        # Then deeper on the best few while the budget lasts: as many as the
        # budget could look at the way the first look did, and at least two (the
        # deeper look only matters if it can change the order).
        beam = max(2, min(self.beam, self.budget // max(1, self.spent)))
        self._left = self.budget
        depth = 1
        while self._left > 0 and depth <= _MAX_DEPTH:
            deeper: dict[int, float] = {}
            try:
                for i in order[:beam]:
                    deeper[i] = self._value(children[i], depth)
            except _OutOfBudget:
                break
            finally:
                self.deep = self.budget - self._left
            for i, v in deeper.items():
                scores[i] = v
            order = sorted(order[:beam], key=lambda i: -scores[i]) + order[beam:]
            depth += 1
        self._left = -1
        return actions[order[0]]

    # -- search ----------------------------------------------------------------------

    def _apply(self, state: SooState, action: SooAction) -> SooState:
        if self._left == 0:
            raise _OutOfBudget
        if self._left > 0:
            self._left -= 1
        self.spent += 1
        # every action searched comes from the state's own menu or outcomes
        return self.game.apply_unchecked(state, action)

    def _value(self, state: SooState, depth: int, run: int = 0) -> float:
        """Expectimax value: ``depth`` more decisions, ``run`` chance nodes so far."""
        key = (state, depth * 8 + run)
        known = self._memo.get(key)
        if known is not None:
            return known
        game = self.game
        actor = game.current_player(state)
        if actor == TERMINAL:
            found = self._final(state)
        elif actor == CHANCE:
            assert state.pending is not None
            outcomes = game.chance_outcomes(state)
            wide = state.pending.kind is RequestKind.DRAW and len(outcomes) > 6
            # A Siege roll (12.1) is always averaged over, however many chance nodes
            # came before it: a choice that reaches it later must not look safer.
            later = run % _FOLLOW >= self.chance_run and not isinstance(state.pending.task, Siege)
            if later or wide or len(outcomes) > _WIDEST:
                found = self._assess(state)
            else:
                found = sum(
                    float(p) * self._value(self._apply(state, outcome), depth, run + 1)
                    for outcome, p in outcomes
                )
        elif depth == 0 and (run >= _FOLLOW or not _follow_up(state)):
            found = self._assess(state)
        elif depth == 0:
            # A question that follows from the choice just made (how to pay for an
            # attack, which Faction goes, whether to adjust a roll): answered here,
            # or the choice that raised it would look worthless.
            found = max(
                self._value(self._apply(state, a), 0, run + _FOLLOW)
                for a in game.legal_actions(state)
            )
        else:
            actions = game.legal_actions(state)
            if len(actions) == 1:
                found = self._value(self._apply(state, actions[0]), depth, run)
            else:
                kids = [self._apply(state, a) for a in actions]
                shallow = [self._value(k, 0) for k in kids]
                order = sorted(range(len(kids)), key=lambda i: -shallow[i])
                # The deeper value of each of the best few replaces its shallow one,
                # so a deeper look may lower a choice as well as raise it.
                values = shallow
                if depth > 1:
                    values = list(shallow)
                    for i in order[: self.beam]:
                        values[i] = self._value(kids[i], depth - 1)
                found = max(values)
        self._memo[key] = found
        return found

    def _final(self, state: SooState) -> float:
        result = self.game.result(state)
        if result.winners:
            return DEATH + float(result.scores[0])
        return -DEATH + 20.0 * state.turn

    def _assess(self, state: SooState) -> float:
        return assess(self.ctx, state, self.weights, self.board)


#: The most outcomes a chance node may have and still be averaged over: two dice
#: (a Siege roll, 12.1; War in the East, 8.3; a battle with the Sword, 10.7.1). A
#: position before a roll of two dice used to be assessed as it stood, which made
#: paying 4 $ to roll War in the East again (8.3) look like it escaped the result.
_WIDEST = 36
#: The deepest search, in decisions after the first.
_MAX_DEPTH = 4
#: Counted in ``run``: a follow-up question answered in a shallow search.
_FOLLOW = 4


def _follow_up(state: SooState) -> bool:
    """Whether the question asked is part of a Byzantine action already chosen.

    Those are the questions of chapter 10 other than its menu (10.0): how to pay
    for an attack on a Stolos (10.6.5), a free attack's target, an Akritai's
    adjustment (10.4.2), what a beaten Magister Militum costs (10.8)...
    """
    rule = state.pending.rule if state.pending is not None else ""
    return rule.startswith("10.") and rule != "10.0"


class _OutOfBudget(Exception):
    """The decision's transitions are spent; the search keeps its last full result."""
