"""A sensible built-in player for Belisarius, for either seat (the main job's policy).

The policy reads the pending decision and answers it with a cheap rule of thumb;
nothing is searched. It only ever picks one of the offered options, so it cannot
play an illegal action, and a decision it does not recognise (a new optional rule,
say) gets a safe default: Done (declining, refusing, stopping) when offered, the
weakest counter when one must be lost, otherwise the first option. Its rules of
thumb, by phase:

* set-up: cover the Region's empty Cities first, then stand in or near Cities, the
  mobile units close to the enemy;
* never capitulate; never tax a Neutral Region (that hands it to the enemy) nor
  raise taxes (the Revolt check is not worth a Solidus Point a city);
* Diplomacy: aim at the Region (or Guard stack) worth most that the markers in hand
  can swing with a differential of at least 2, commit markers until the
  differential reaches 4 (no Reaction on the provisional table), never an
  Orthodoxy when attacking nor a Tolerance when defending; defend one's own Regions
  marker for marker;
* Recruiting: keep the coming Provisioning bill in hand, then the cheapest strength
  (combat factor per Solidus Point), a Stratagem marker while the hand is small,
  Pillage removal and Public Works with what is left; the free markers first;
* Levy: the strongest type a Region may raise, into its empty Cities first, then
  where the hex feeds one more;
* Operations: each force leaves a keeper in a City it would empty and its
  Garrisons behind, heads for the best City or stack it can take (empty Cities of
  any Region but Neutral-held ones, enemy stacks it outnumbers two to one after
  terrain), attacks at 2/1 or better on the Assault table (never Neutrals: that
  hands their Region to the enemy), and stops in the City it reaches; it plays no
  Forced March and drops nobody on the way; a defender stands unless the odds are
  3/1 (4/1 in a City) or worse; either side rolls off for a withdrawal with its unit
  of the highest Operations value;
* Provisioning: pay when the treasury allows, else disband the weakest counter.

It is deterministic: it never draws from the random stream it is handed (ties go
to the earlier option), so a seed reproduces the same game. It plays a whole
scenario in seconds; it is a sparring partner, not a strong player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from byzantium.belisarius.battle import (
    Battle,
    LoseCounters,
    Retreat,
    combat_odds,
    fortified,
)
from byzantium.belisarius.combat import leader_stars
from byzantium.belisarius.components import OddsColumn, SolidusItem, UnitKind
from byzantium.belisarius.diplomacy import (
    ORTHODOXY,
    TOLERANCE,
    DiplomacyAttempt,
    DiplomacyPhase,
    attempt_for,
    committable,
    diplomacy_modifier,
    marker_value,
)
from byzantium.belisarius.engine import Context
from byzantium.belisarius.events import LegalReformsOffer
from byzantium.belisarius.hexmap import to_cube
from byzantium.belisarius.movement import box_entry_hexes
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.provisioning import provisioning_bill, underfed
from byzantium.belisarius.recruiting import RecruitingPhase
from byzantium.belisarius.setup import Deploy
from byzantium.belisarius.state import (
    AVAILABLE,
    EMPIRE,
    FIRST_HEX,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Done,
    Place,
    Request,
    RequestKind,
    Select,
    opponent,
)
from byzantium.belisarius.world import city_hexes, controller, region_controller
from byzantium.core.drivers import Policy
from byzantium.core.game import Game

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = ["SensiblePlayer", "sensible_policy"]

#: The differential the attacker commits markers up to (from 3 up the provisional
#: Diplomacy Table has no Reaction result), and the least he attempts with (a third
#: of control against a sixth of Reaction).
_DIPLOMACY_AIM = 4
_DIPLOMACY_FLOOR = 2
#: Odds a force attacks at, and odds at which a defender tries to withdraw.
_ATTACK_ODDS = OddsColumn.TWO_ONE
_WITHDRAW_ODDS = OddsColumn.THREE_ONE
_WITHDRAW_ODDS_FORTIFIED = OddsColumn.FOUR_ONE
#: How far (hexes) a force looks for something to do.
_HORIZON = 24
#: Words that mark an option as a refusal, for decisions the policy does not know.
_REFUSALS = ("refuse", "decline", "reject", "no", "stand", "pass", "stop")
#: Prompt words of decisions that take a counter away.
_LOSSES = ("eliminate", "lose", "disband", "remove", "loss")
_COLUMNS = list(OddsColumn)


def _column(column: OddsColumn) -> int:
    return _COLUMNS.index(column)


Handler = Callable[[BelState, Request, random.Random], BelAction | None]


class SensiblePlayer:
    """The rules of thumb of :func:`sensible_policy`, bound to one game.

    :meth:`choose` answers a pending decision; each ``_on_*`` method handles the
    decisions of one procedure step and returns None when it has no opinion (the
    default of :meth:`fallback` then applies).
    """

    def __init__(self, game: Belisarius) -> None:
        self.ctx = Context(game, None)
        self.cat: Catalog = game.catalog
        cat = self.cat
        self._city_points = {cat.map.city(c.city).hex: c.points for c in cat.scenario.city_victory}
        self._region_points = {
            cat.region_by_code[r.region]: r.points for r in cat.scenario.region_victory
        }
        self._handlers: dict[type, Handler] = {
            Deploy: self._on_deploy,
            DiplomacyPhase: self._on_diplomacy_target,
            DiplomacyAttempt: self._on_diplomacy_commit,
            RecruitingPhase: self._on_recruiting,
            OperationsPhase: self._on_operations,
            Battle: self._on_battle,
            LoseCounters: self._on_loss,
            Retreat: self._on_retreat,
            LegalReformsOffer: self._on_legal_reforms,
        }
        self._cubes: dict[int, tuple[int, int, int]] = {}
        self._ground: dict[int, int] = {}
        #: Decisions known by their rule (the task's class aside).
        self._by_rule: dict[str, Handler] = {
            "3.1": self._on_play_on,
            "8.3": self._on_hand_limit,
            "8.41": self._on_free_marker,
            "10.2": self._on_taxes,
            "11.11": self._on_levy_kind,
            "11.12": self._on_reinforcement,
            "11.21": self._on_reinforcement,
            "11.4": self._on_rally,
            "11.3": self._on_leader_marker,
            "21.2": self._on_leader_marker,
            "21.21": self._on_leader_place,
            "21.22": self._on_leader_place,
            "4.41": self._on_region_resists,
            "12.21": self._on_biggest_stack,
            "12.31": self._on_biggest_stack,
            "20.2": self._on_provisioning,
        }

    # -- entry point -----------------------------------------------------------------

    def choose(self, state: BelState, rng: random.Random) -> BelAction:
        """The policy's answer to the decision ``state`` waits for."""
        request = state.pending
        if request is None or request.kind is not RequestKind.CHOOSE:
            raise ValueError("the sensible policy answers decisions, not chance")
        options = request.options
        if len(options) == 1:
            return options[0]
        handler = self._handlers.get(type(request.task)) or self._by_rule.get(request.rule)
        pick = handler(state, request, rng) if handler is not None else None
        if pick is None or pick not in options:
            pick = self.fallback(state, request, rng)
        return pick

    def fallback(self, state: BelState, request: Request, rng: random.Random) -> BelAction:
        """A safe answer to any decision: Done or a refusal if offered, the weakest
        counter when one must go, else the first option."""
        del rng
        options = request.options
        if Done() in options:
            return Done()
        for option in options:
            if isinstance(option, Select) and option.item.split(" ")[0] in _REFUSALS:
                return option
        prompt = request.prompt.lower()
        if any(word in prompt for word in _LOSSES):
            weakest = self._weakest(options)
            if weakest is not None:
                return weakest
        del state
        return options[0]

    # -- small helpers ------------------------------------------------------------------

    def _unit_of(self, item: str) -> int | None:
        """The counter an option names (``"lose X"``, ``"drop X"`` or ``"X"``)."""
        index = self.cat.counter_index
        found = index.get(item)
        if found is None and " " in item:
            found = index.get(item.split(" ", 1)[1])
        return found

    def worth(self, unit: int) -> float:
        """How much a counter matters: its combat factor, Leaders far more."""
        counter = self.cat.counters[unit]
        value = float(counter.combat)
        if counter.kind is UnitKind.LEADER:
            value += 6 + 4 * counter.stars
        if unit == self.cat.justinian:
            value += 50
        return value

    def _weakest(self, options: Sequence[BelAction]) -> BelAction | None:
        """The option naming the least valuable counter (None if none names one)."""
        named = [
            (self.worth(unit), i, option)
            for i, option in enumerate(options)
            if isinstance(option, Select) and (unit := self._unit_of(option.item)) is not None
        ]
        return min(named)[2] if named else None

    def _strongest(self, options: Sequence[BelAction]) -> BelAction | None:
        named = [
            (-self.worth(unit), i, option)
            for i, option in enumerate(options)
            if isinstance(option, Select) and (unit := self._unit_of(option.item)) is not None
        ]
        return min(named)[2] if named else None

    def _mine(self, state: BelState, where: int, player: int) -> list[int]:
        cat = self.cat
        return [u for u in state.units.at(where) if controller(cat, state, u) == player]

    def _cube(self, hex_: int) -> tuple[int, int, int]:
        found = self._cubes.get(hex_)
        if found is None:
            cube = to_cube(hex_)
            found = self._cubes[hex_] = (cube.x, cube.y, cube.z)
        return found

    def _hex_distance(self, a: int, b: int) -> int:
        """Hex steps between two locations (:func:`.hexmap.distance`); a box counts
        from its nearest edge hex."""
        if a < FIRST_HEX:
            edges = box_entry_hexes(self.cat, a)
            return 1 + min((self._hex_distance(e, b) for e in edges), default=99)
        if b < FIRST_HEX:
            return self._hex_distance(b, a)
        ax, ay, az = self._cube(a)
        bx, by, bz = self._cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def _enemy_cities(self, state: BelState, player: int) -> list[int]:
        """Cities of Regions the other player controls."""
        cat = self.cat
        enemy = opponent(player)
        return [
            h
            for h in city_hexes(cat, state)
            if (r := cat.region_of_hex(h)) >= 0 and region_controller(state, r) == enemy
        ]

    def _front(self, where: int, enemy: list[int]) -> int:
        """How far a location lies from the nearest of the ``enemy`` Cities (at most
        99)."""
        return min((self._hex_distance(where, h) for h in enemy), default=99)

    @staticmethod
    def _best(scored: Sequence[tuple[float, int, BelAction]]) -> BelAction | None:
        """The option with the highest score; the earliest among equals."""
        if not scored:
            return None
        top = max(score for score, _, _ in scored)
        return next(option for score, _, option in scored if score == top)

    # -- set-up, the player turn, Stratagem hands -----------------------------------------

    def _on_deploy(self, state: BelState, request: Request, rng: random.Random) -> BelAction | None:
        """Set-up (34.0): empty Cities first, then Cities, then near Cities; mobile units
        toward the enemy, Leaders with the strongest stack."""
        del rng
        cat = self.cat
        words = request.prompt.split(" ")
        unit = cat.counter_index.get(words[1]) if len(words) > 1 else None
        if unit is None:
            return None
        counter = cat.counters[unit]
        owner = controller(cat, state, unit)
        cities = set(city_hexes(cat, state))
        enemy = self._enemy_cities(state, owner) if owner != NOBODY else []
        mobile = counter.kind not in (UnitKind.GARRISON, UnitKind.FLEET)
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Place):
                continue
            where = option.where
            here = state.units.at(where)
            score = 0.0
            if counter.kind is UnitKind.LEADER:
                score += sum(cat.counters[u].combat for u in here) + 2 * (where in cities)
            elif where in cities:
                score += 4.0 if not here else 2.0
            elif any(n in cities for n in cat.map.neighbours(where)):
                score += 1.0
            if mobile and enemy:
                score -= min(self._front(where, enemy), 99) / 100  # never past a City
            scored.append((score, i, option))
        return self._best(scored)

    def _on_play_on(self, state: BelState, request: Request, rng: random.Random) -> BelAction:
        """Never capitulate (3.1)."""
        del state, request, rng
        return Done()

    def _on_hand_limit(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """At the hand limit (8.3): leave the excess; returning, give back the type held
        most often."""
        del rng
        if Done() in request.options:
            return Done()
        hand = state.stratagems.hands[request.player]
        ids = self.cat.stratagem_ids
        scored = [
            (float(hand[self.cat.stratagem(o.item)]), -i, o)
            for i, o in enumerate(request.options)
            if isinstance(o, Select) and o.item in ids
        ]
        return self._best(scored)

    def _on_free_marker(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """A marker that only helps (Currency Reform, 8.41): play it."""
        del state, rng
        plays = [o for o in request.options if isinstance(o, Select)]
        return plays[0] if plays else None

    def _on_legal_reforms(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Legal Reforms (8.41): spare a Region the Revolt check when it could cost us."""
        del rng
        task = request.task
        assert isinstance(task, LegalReformsOffer)
        owner = region_controller(state, task.region)
        player = request.player
        if owner == player or (player == EMPIRE and owner == NOBODY):
            return next((o for o in request.options if isinstance(o, Select)), None)
        return Done()

    # -- Diplomacy -------------------------------------------------------------------------

    def _region_gain(self, state: BelState, region: int, player: int) -> float:
        """What winning a Region over is worth to ``player``: Victory Points (a Neutral
        one already gives the Barbarian half, 23.1), its levy, Cities and units."""
        cat = self.cat
        points = float(self._region_points.get(region, 0))
        owner = region_controller(state, region)
        # A Neutral Region already gives the Barbarian half its points; an enemy one
        # swings its points both ways.
        gain = points * (1.5 if player == EMPIRE else 0.5) if owner == NOBODY else 2 * points
        units = sum(1 for u in state.units.in_play() if cat.home[u] == region)
        return gain + 0.5 * len(cat.region_cities[region]) + 0.3 * units

    def _markers_for(
        self, state: BelState, attempt: DiplomacyAttempt, player: int, committed: tuple[str, ...]
    ) -> list[tuple[int, str]]:
        """(value, marker) ``player`` could still commit to ``attempt``, usefully."""
        avoid = ORTHODOXY if player == attempt.attacker else TOLERANCE
        found = []
        for marker in committable(self.ctx, state, player, committed):
            value = marker_value(self.ctx, state, attempt, marker)
            if value > 0 and marker != avoid:
                found.append((value, marker))
        return found

    def _on_diplomacy_target(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """The Region or Guard stack worth most that the hand can swing (9.1, 9.3)."""
        del rng
        player = request.player
        defence_hand = state.stratagems.held(opponent(player))
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Select):
                continue
            try:
                attempt = attempt_for(self.ctx, player, option.item)
            except (KeyError, ValueError):
                continue
            if attempt.guard:
                here = self.cat.counters
                gain = 0.5 * sum(here[u].combat for u in state.units.at(attempt.stack))
                expected = 1 if defence_hand else 0
            else:
                gain = self._region_gain(state, attempt.region, player)
                owned = region_controller(state, attempt.region) != NOBODY
                expected = 1 if owned and defence_hand else 0
            power = sum(v for v, _ in self._markers_for(state, attempt, player, ()))
            reach = min(power, _DIPLOMACY_AIM) + diplomacy_modifier(self.ctx, state, attempt)
            if reach - expected >= _DIPLOMACY_FLOOR and gain > 0:
                scored.append((gain, i, option))
        return self._best(scored) or Done()

    def _on_diplomacy_commit(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Commit markers: the attacker up to a differential of 4, the defender of his
        own Region (or a valuable Neutral one) marker for marker (9.1, 9.4)."""
        del rng
        task = request.task
        assert isinstance(task, DiplomacyAttempt)
        player = request.player
        attacking = player == task.attacker
        committed = task.attack if attacking else task.defence
        usable = self._markers_for(state, task, player, committed)
        if attacking:
            current = sum(marker_value(self.ctx, state, task, m) for m in committed)
            current += diplomacy_modifier(self.ctx, state, task)
            need = _DIPLOMACY_AIM - current
            if need <= 0 and committed:
                return Done()
        else:
            owner = NOBODY if task.guard else region_controller(state, task.region)
            worth = 0.0 if task.guard else self._region_gain(state, task.region, player)
            if owner == player or (task.guard and player == EMPIRE):
                goal = len(task.attack) + 1
            elif owner == NOBODY and worth >= 3:
                goal = len(task.attack)
            else:
                goal = 0
            mine = sum(marker_value(self.ctx, state, task, m) for m in committed)
            need = goal - mine
            if need <= 0:
                return Done()
        if not usable:
            # Nothing that helps: stop if allowed, else the least harmful marker.
            avoid = ORTHODOXY if attacking else TOLERANCE
            others = [o for o in request.options if o != Select(avoid)]
            if Done() in request.options:
                return Done()
            return others[0] if others else None
        fitting = [(v, m) for v, m in usable if v >= need]
        value, marker = min(fitting) if fitting else max(usable)
        del value
        return Select(marker)

    # -- Taxation, Recruiting, Levy ------------------------------------------------------------

    def _on_taxes(self, state: BelState, request: Request, rng: random.Random) -> BelAction:
        """Never tax a Neutral Region (it would join the enemy, 4.41) nor raise taxes."""
        del state, request, rng
        return Done()

    def _upkeep(self, state: BelState) -> int:
        """The phasing player's Provisioning bill if the map stayed as it is (20.2)."""
        return sum(provisioning_bill(self.ctx, state, w) for w in underfed(self.ctx, state))

    def _on_recruiting(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Recruiting (10.3): free markers first, then strength per Solidus Point, a
        marker while the hand is small, Pillage removal, Public Works; a reserve for the
        Provisioning bill stays in the treasury."""
        if request.rule != "10.3":
            return self._on_reinforcement(state, request, rng)
        cat = self.cat
        player = request.player
        items = {o.item: o for o in request.options if isinstance(o, Select)}
        for free in ("play imperial-regalia", "play theodora-intervenes"):
            if free in items:
                return items[free]
        spare = state.solidus[player] - self._upkeep(state) - 2
        points = cat.components.solidus_points
        held = state.stratagems.held(player)
        marker_cost = points(SolidusItem.BUY_STRATAGEM)
        if "buy stratagem" in items and held < 3 and spare >= marker_cost:
            return items["buy stratagem"]
        recruits: list[tuple[float, int, BelAction]] = []
        for i, (item, option) in enumerate(items.items()):
            if not item.startswith("recruit "):
                continue
            _, kind_name = item.removeprefix("recruit ").rsplit(" ", 1)
            try:
                kind = UnitKind(kind_name)
            except ValueError:
                continue
            unit_type = cat.unit_types[kind]
            cost = unit_type.recruit or 0
            if kind is UnitKind.FLEET or cost > spare or unit_type.combat <= 0:
                continue
            recruits.append((unit_type.combat / max(cost, 1) + unit_type.combat / 10, -i, option))
        if recruits:
            return self._best(recruits)
        if "buy stratagem" in items and held < 6 and spare >= marker_cost:
            return items["buy stratagem"]
        for item, option in items.items():
            if item.startswith("remove pillage ") and spare >= points(SolidusItem.REMOVE_PILLAGE):
                return option
        for item, option in items.items():
            if item.startswith("public works ") and spare >= points(SolidusItem.PUBLIC_WORKS) + 4:
                return option
        return Done()

    def _on_reinforcement(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Where a new counter goes (levy, recruit, rally, migrants): an empty City of
        ours first, then a hex that feeds one more, nearer the enemy; boxes last."""
        del rng
        cat = self.cat
        player = request.player
        cities = set(city_hexes(cat, state))
        enemy = self._enemy_cities(state, player)
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Place):
                continue
            where = option.where
            here = self._mine(state, where, player)
            if where < FIRST_HEX:
                score = 0.5
            else:
                score = 1.0
                if where in cities:
                    score += 3.0 if not here else 1.0
                if len(state.units.at(where)) < cat.forage(where, state.markers):
                    score += 1.5
                score -= min(self._front(where, enemy), 99) / 100
            scored.append((score, i, option))
        return self._best(scored)

    def _on_levy_kind(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """The strongest type a Region may levy (11.11); no Fleets."""
        del state, rng
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Select):
                continue
            try:
                kind = UnitKind(option.item)
            except ValueError:
                continue
            if kind is UnitKind.FLEET:
                continue
            unit_type = self.cat.unit_types[kind]
            scored.append((unit_type.combat + unit_type.operations / 100, i, option))
        return self._best(scored) or Done()

    def _on_leader_marker(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """The Leader marker (11.3): gain a Leader, else try to remove the enemy's; the
        Leader picked is the one with most stars, and joins the strongest stack."""
        if any(isinstance(o, Place) for o in request.options):
            return self._on_leader_place(state, request, rng)
        items = [o for o in request.options if isinstance(o, Select)]
        for wanted in ("gain", "remove"):
            for option in items:
                if option.item.startswith(wanted):
                    return option
        return self._strongest(items)

    def _on_leader_place(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """A Leader joins the strongest friendly stack on the map (21.21, 21.22)."""
        del rng
        cat = self.cat
        scored = [
            (
                float(sum(cat.counters[u].combat for u in state.units.at(o.where)))
                + (o.where >= FIRST_HEX),
                i,
                o,
            )
            for i, o in enumerate(request.options)
            if isinstance(o, Place)
        ]
        return self._best(scored)

    # -- Random Events -------------------------------------------------------------------------

    def _on_rally(self, state: BelState, request: Request, rng: random.Random) -> BelAction | None:
        """Forces Rally and the migrants (11.4): the strongest counter or type, placed
        as a reinforcement."""
        if any(isinstance(o, Place) for o in request.options):
            return self._on_reinforcement(state, request, rng)
        strongest = self._strongest(request.options)
        if strongest is not None:
            return strongest
        return self._on_levy_kind(state, request, rng)

    def _on_region_resists(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Region Resists (4.41): the Region worth most to us."""
        del rng
        cat = self.cat
        scored = [
            (self._region_gain(state, cat.region_index[o.item], request.player), i, o)
            for i, o in enumerate(request.options)
            if isinstance(o, Select) and o.item in cat.region_index
        ]
        return self._best(scored)

    def _on_biggest_stack(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Guard Mutiny / Troops Rally (12.21, 12.31): the biggest Guard stack."""
        del rng
        scored = [
            (float(len(state.units.at(int(o.item)))), i, o)
            for i, o in enumerate(request.options)
            if isinstance(o, Select) and o.item.isdigit()
        ]
        return self._best(scored)

    # -- Operations ------------------------------------------------------------------------------

    def _stacks(self, state: BelState) -> dict[int, list[int]]:
        stacks: dict[int, list[int]] = {}
        where_of = state.units.where
        for unit in state.units.in_play():
            where = where_of[unit]
            if where >= FIRST_HEX:
                stacks.setdefault(where, []).append(unit)
        return stacks

    def _attack_column(
        self, state: BelState, force: Sequence[int], origin: int, target: int
    ) -> OddsColumn:
        """The odds column of ``force`` at ``origin`` attacking ``target`` (17.7), with no
        Military Advantage on either side."""
        return combat_odds(self.cat, state, tuple(force), origin, target)[5]

    def _goal(
        self, state: BelState, force: Sequence[int], where: int, player: int
    ) -> tuple[float, int] | None:
        """The best place for a force to head for, as (score, hex), or None.

        Empty Cities (of any Region) are worth walking into; Cities and stacks of the
        enemy are worth attacking when the force outnumbers them two to one after
        terrain; Neutral counters are left alone (4.41). Nearer is better.
        """
        cat = self.cat
        strength = sum(cat.counters[u].combat for u in force) * (
            1 + min(2, leader_stars(cat, force))
        )
        if strength <= 0:
            return None
        cities = set(city_hexes(cat, state))
        best: tuple[float, int] | None = None
        enemy = opponent(player)
        stacks = self._stacks(state)
        for hex_ in cities:
            if hex_ == where:
                continue
            here = stacks.get(hex_)
            if here:
                continue  # held: looked at with the stacks below
            value = 3.0 + self._city_points.get(hex_, 0)
            best = self._closer(best, value, where, hex_)
        for hex_, units in stacks.items():
            if hex_ == where or controller(cat, state, units[0]) != enemy:
                continue
            if not cat.is_land(hex_) or all(cat.naval[u] for u in units):
                continue
            factor = self._defence_factor(state, hex_, cities)
            guard = sum(cat.counters[u].combat for u in units) * factor
            guard *= 1 + min(2, leader_stars(cat, units))
            if strength < 2 * guard:
                continue
            value = 1.0 + 0.5 * len(units)
            if hex_ in cities:
                value += 3.0 + self._city_points.get(hex_, 0)
            best = self._closer(best, value, where, hex_)
        return best

    def _defence_factor(self, state: BelState, hex_: int, cities: set[int]) -> int:
        """A defender's terrain multiplier in a hex, hexsides aside (17.74)."""
        if hex_ == self.cat.capital:
            return 3
        if hex_ in cities:
            return 2
        found = self._ground.get(hex_)
        if found is None:
            terrain = self.cat.map.terrain_at(hex_).value
            found = self._ground[hex_] = self.cat.components.terrain_type(terrain).defense
        return found

    def _closer(
        self, best: tuple[float, int] | None, value: float, where: int, hex_: int
    ) -> tuple[float, int] | None:
        steps = self._hex_distance(where, hex_)
        if steps > _HORIZON:
            return best
        score = value - steps / 3
        if best is None or score > best[0]:
            return (score, hex_)
        return best

    def _keepers(self, state: BelState, where: int, units: Sequence[int], player: int) -> set[int]:
        """Counters that stay behind when a force leaves ``where``: Garrisons and Fleets
        always, Justinian in the capital, and in a City the weakest unit if nobody else
        would hold it (two in the capital)."""
        cat = self.cat
        keep = {u for u in units if cat.counters[u].kind in (UnitKind.GARRISON, UnitKind.FLEET)}
        if where == cat.capital and cat.justinian in units:
            keep.add(cat.justinian)  # his two markers a turn (21.4), and his life
        if where < FIRST_HEX or not fortified(cat, state, where):
            return keep
        moving = set(units)
        others = [u for u in self._mine(state, where, player) if u not in moving]
        wanted = 2 if where == cat.capital else 1
        spare = sorted(
            (u for u in units if u not in keep and cat.counters[u].kind is not UnitKind.LEADER),
            key=lambda u: (self.worth(u), u),
        )
        while len(others) + len(keep) < wanted and spare:
            keep.add(spare.pop(0))
        return keep

    def _on_operations(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        task = request.task
        assert isinstance(task, OperationsPhase)
        rule = request.rule
        if rule == "14.1":
            return self._pick_force(state, request, task)
        if rule == "13.21":
            return self._drop(state, request, task)
        if rule == "16.1":
            return self._move(state, request, task)
        return None

    def _pick_force(
        self, state: BelState, request: Request, task: OperationsPhase
    ) -> BelAction | None:
        """The force with the best goal goes first (14.1); none: end the phase."""
        cat = self.cat
        player = request.player
        used = set(task.used)
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Select) or not option.item.startswith("force "):
                continue
            try:
                where = int(option.item.removeprefix("force "))
            except ValueError:
                continue
            units = [
                u
                for u in state.units.at(where)
                if u not in used and controller(cat, state, u) == player and not cat.naval[u]
            ]
            keep = self._keepers(state, where, units, player)
            movers = [u for u in units if u not in keep]
            if not movers:
                continue
            goal = self._goal(state, movers, where, player)
            if goal is None:
                continue
            scored.append((goal[0], i, option))
        return self._best(scored) or Done()

    def _drop(self, state: BelState, request: Request, task: OperationsPhase) -> BelAction | None:
        """Leave the keepers behind (13.21), then go (a Fleet's force: no opinion)."""
        if all(self.cat.naval[u] for u in task.force):
            return None
        keep = self._keepers(state, task.where, task.force, request.player)
        if len(keep) >= len(task.force):
            return Done()
        for option in request.options:
            if isinstance(option, Select):
                unit = self._unit_of(option.item)
                if unit in keep:
                    return option
        return Done()

    def _move(self, state: BelState, request: Request, task: OperationsPhase) -> BelAction | None:
        """Attack at good odds, stop in a City just reached, else step toward the goal."""
        cat = self.cat
        player = request.player
        force = [u for u in task.force if state.units.where[u] > AVAILABLE]
        where = task.where
        options = request.options
        attacks: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(options):
            if not isinstance(option, Select) or not option.item.startswith("attack "):
                continue
            target = int(option.item.removeprefix("attack "))
            defenders = state.units.at(target)
            if not defenders or any(controller(cat, state, u) == NOBODY for u in defenders):
                continue
            column = _column(self._attack_column(state, force, where, target))
            if column >= _column(_ATTACK_ODDS):
                value = column + (target in set(city_hexes(cat, state)))
                attacks.append((float(value), i, option))
        attack = self._best(attacks)
        if attack is not None:
            return attack
        done = Done() in options
        if done and task.moved is not False and where >= FIRST_HEX and fortified(cat, state, where):
            others = [u for u in self._mine(state, where, player) if u not in set(force)]
            if not others:
                return Done()  # a City taken: hold it
        goal = self._goal(state, force, where, player) if force else None
        steps = [o for o in options if isinstance(o, Place)]
        if goal is not None:
            target = goal[1]
            now = self._hex_distance(where, target)
            scored = [
                (float(-self._hex_distance(o.where, target)), i, o)
                for i, o in enumerate(steps)
                if self._hex_distance(o.where, target) < now
            ]
            step = self._best(scored)
            if step is not None:
                return step
        if done:
            return Done()
        return steps[0] if steps else None

    def _on_battle(self, state: BelState, request: Request, rng: random.Random) -> BelAction | None:
        """Stand or withdraw (17.5), the Assault table (17.6), Military Advantage (17.74)."""
        del rng
        task = request.task
        assert isinstance(task, Battle)
        options = request.options
        rule = request.rule
        force = [u for u in task.force if state.units.where[u] > AVAILABLE]
        if rule == "17.5":
            if not force:
                return Select("stand")
            column = self._attack_column(state, force, task.origin, task.target)
            worst = (
                _WITHDRAW_ODDS_FORTIFIED
                if fortified(self.cat, state, task.target)
                else _WITHDRAW_ODDS
            )
            if _column(column) >= _column(worst):
                return Select("withdraw")
            return Select("stand")
        if rule == "17.51":
            return self._fastest(options)
        if rule == "17.6":
            return next((o for o in options if o == Select("assault")), None)
        if rule == "17.74":
            play = next((o for o in options if isinstance(o, Select)), None)
            attacking = bool(force) and controller(self.cat, state, force[0]) == request.player
            if not attacking:
                return play
            column = self._attack_column(state, force, task.origin, task.target)
            return play if column is not OddsColumn.FOUR_ONE else Done()
        return None

    def _fastest(self, options: Sequence[BelAction]) -> BelAction | None:
        """The option naming the counter of the highest Operations value (the withdrawal
        roll-off, 17.51); the earliest among equals."""
        scored = [
            (float(self.cat.counters[unit].operations), i, option)
            for i, option in enumerate(options)
            if isinstance(option, Select) and (unit := self._unit_of(option.item)) is not None
        ]
        return self._best(scored)

    def _on_loss(self, state: BelState, request: Request, rng: random.Random) -> BelAction | None:
        """Losses (17.8, 16.71): the least valuable counter first."""
        del state, rng
        return self._weakest(request.options)

    def _on_retreat(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """A retreat (17.54, 17.9): stay in a City when allowed, else fall back toward a
        City or friends, where the hex feeds the stack."""
        del rng
        if Done() in request.options:
            return Done()
        cat = self.cat
        player = request.player
        scored: list[tuple[float, int, BelAction]] = []
        for i, option in enumerate(request.options):
            if not isinstance(option, Place):
                continue
            where = option.where
            score = 3.0 * fortified(cat, state, where) + len(self._mine(state, where, player))
            score += 0.5 * cat.forage(where, state.markers)
            scored.append((score, i, option))
        return self._best(scored)

    # -- Provisioning ---------------------------------------------------------------------------

    def _on_provisioning(
        self, state: BelState, request: Request, rng: random.Random
    ) -> BelAction | None:
        """Pay when the treasury allows (20.2), else disband the weakest counter (20.3)."""
        del state, rng
        if Done() in request.options:
            return Done()
        return self._weakest(request.options)


def sensible_policy(game: Belisarius) -> Policy[BelState, BelAction]:
    """The built-in player of both seats (see :class:`SensiblePlayer`)."""
    player = SensiblePlayer(game)

    def policy(game: Game[BelState, BelAction], state: BelState, rng: random.Random) -> BelAction:
        del game
        return player.choose(state, rng)

    return policy
