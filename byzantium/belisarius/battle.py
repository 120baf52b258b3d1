"""Land Combat in the Operations Phase (17.0-17.93, 21.22, 21.4, 35.0).

A :class:`Battle` is pushed by the Operations Phase when the operating force attacks
an adjacent hex (17.22, 17.26). In the order of 17.11:

* declaration: the whole force against every counter in the hex (17.24, 17.3); an
  attack on Neutral counters first brings their Region into the war on the other
  player's side (4.41, 4.42);
* the defender stands or tries to withdraw (17.5): each player picks one unit of his
  side, the attacker first (17.51, a ruling), then a roll-off of one die each added
  to the picked unit's Operations value; if the defender wins, he rolls
  the hexes to withdraw and moves them (:class:`Retreat`, 17.54-17.58); the attacker
  still pays for the combat, at the Assault price (a ruling);
* otherwise the attacker picks the Assault or, with 8 points, the Maneuver table
  (17.6, 17.61); attacker then defender may play a Military Advantage (17.74);
* multipliers, odds and one die give a result (17.7, :mod:`.combat`); losses are
  chosen by their owners one counter at a time (:class:`LoseCounters`, 17.8, 35.0),
  then the survivors retreat (17.9, 17.91); Stratagem markers are drawn or lost
  (8.2, 8.51, 21.4).

The attacking force then goes on with the points it has left (17.25, 17.56, 17.92);
there is no advance after combat (17.93).
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.combat import (
    apply_result,
    combat_strength,
    force_multiplier,
    leader_stars,
    odds,
    stratagem_change,
    withdrawal_allowed,
)
from byzantium.belisarius.components import CombatTable, OddsColumn, crt_cost, crt_result
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.hexmap import HexsideFeature, Terrain
from byzantium.belisarius.movement import land_zoc, may_end_at, neighbour_costs, step_cost
from byzantium.belisarius.naval import (
    RIVER_OPTION,
    fleet_targets,
    is_naval,
    retreating_stacks,
    sea_retreat_steps,
)
from byzantium.belisarius.negotiations import attack_declared
from byzantium.belisarius.personal import REFUSAL_OPTION, PersonalCombat, counting
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
    Roll,
    Select,
    Task,
    place,
)
from byzantium.belisarius.stratagems import LoseStratagems, PickStratagems, may_offer, offered, play
from byzantium.belisarius.world import (
    change_control,
    controller,
    controllers,
    eliminate,
    region_controller,
)
from byzantium.core.procedure import replace_fields

__all__ = [
    "MILITARY_ADVANTAGE",
    "Battle",
    "LoseCounters",
    "Retreat",
    "attack_targets",
    "fortified",
    "retreat_steps",
    "terrain_factor",
]

#: The Stratagem marker type of 17.74.
MILITARY_ADVANTAGE = "military-advantage"

#: Stages of a Battle, in order.
DECLARE, STAND, ROLL_OFF, WITHDRAW, TABLE, ADVANTAGE, DEFENCE, FIGHT, FINISH = (
    "declare",
    "stand",
    "roll-off",
    "withdraw",
    "table",
    "advantage",
    "defence",
    "fight",
    "finish",
)
#: The Personal Combat step between the withdrawal and the table (33.1, optional).
PERSONAL = "personal"
#: The prefix of the item naming the unit a player picks for the roll-off (17.51).
ROLL_OFF_ITEM = "roll-off "


def _ids(cat: Catalog, units: tuple[int, ...]) -> str:
    return ", ".join(cat.counters[u].id for u in units)


def fortified(cat: Catalog, state: BelState, where: int) -> bool:
    """Whether a hex holds a City or a Colony (17.55, 17.91)."""
    return where >= FIRST_HEX and (
        cat.map.city_at(where) is not None or where in state.markers.colonies
    )


@RULES.implements("17.22", "17.26", "17.28", "4.41", "19.62")
def attack_targets(
    cat: Catalog, state: BelState, force: tuple[int, ...], where: int, *, rivers: bool = False
) -> list[int]:
    """Adjacent hexes the force may attack: counters all of another side (enemy or
    Neutral), in a hex the force could enter (not across an all-sea hexside): land
    forces reach Fleets on a coast but never at sea (19.62, 35.0); a fleet force's
    targets are :func:`.naval.fleet_targets` (``rivers``: optional rule 29)."""
    if where < FIRST_HEX or not force:
        return []
    if is_naval(cat, force):
        return fleet_targets(cat, state, force, where, rivers)
    player = controller(cat, state, force[0])
    owner = controllers(cat, state)
    colonies = state.markers.colonies
    held = state.units.index()
    found: list[int] = []
    for other, printed in neighbour_costs(cat, state, where):
        there = held.get(other)
        if not there:
            continue
        cost = step_cost(cat, state, where, other) if other in colonies else printed
        if cost is None or any(owner[u] == player for u in there):
            continue
        found.append(other)
    return found


@RULES.implements("17.74")
def terrain_factor(cat: Catalog, state: BelState, origin: int, target: int) -> tuple[int, bool]:
    """The defender's terrain multiplier and whether he holds Constantinopolis (17.74).

    Doubled in a City or Colony, rough, marsh, or behind a pass or river hexside the
    attack crosses; the capital triples.
    """
    comps = cat.components
    city = cat.map.city_at(target)
    if city is not None and city.capital:
        return 3, True
    factors = [comps.terrain_type(cat.map.terrain_at(target).value).defense]
    if city is not None or target in state.markers.colonies:
        factors.append(comps.terrain_type("city").defense)
    features = cat.map.features(origin, target)
    if HexsideFeature.RIVER in features:
        factors.append(comps.hexside("river").defense)
    if HexsideFeature.PASS in features:
        factors.append(comps.hexside("pass").defense)
    return min(2, max(factors)), False


def combat_odds(
    cat: Catalog, state: BelState, attackers: tuple[int, ...], origin: int, target: int
) -> tuple[int, int, int, int, int, OddsColumn]:
    """Strengths and multipliers of both sides, the defender's terrain multiplier and
    the CRT column of an attack from ``origin`` on ``target``, before any Military
    Advantage (17.71-17.74)."""
    defenders = tuple(state.units.at(target))
    a_mult = force_multiplier(min(2, leader_stars(cat, attackers)), 1, False, constantinople=False)
    factor, capital = terrain_factor(cat, state, origin, target)
    d_mult = force_multiplier(
        min(2, leader_stars(cat, defenders)),
        1 if capital else factor,
        False,
        constantinople=capital,
    )
    a_str = combat_strength(cat, attackers, a_mult)
    d_str = combat_strength(cat, defenders, d_mult)
    return a_str, a_mult, d_str, d_mult, 3 if capital else factor, odds(a_str, d_str)


@RULES.implements("17.54", "17.58", "17.9")
def retreat_steps(  # noqa: PLR0917 - the whole position of the retreating stack
    cat: Catalog,
    state: BelState,
    player: int,
    units: tuple[int, ...],
    where: int,
    visited: tuple[int, ...],
    last: bool,
    rivers: bool = False,
) -> list[int]:
    """Hexes a withdrawing or retreating stack may step into next (17.58, 17.9).

    Never into counters of another side or Neutrals, nor an enemy Zone of Control,
    nor terrain closed to land units; across a river or into rough only along a road
    (or a pass, for rough). Hexes already passed in this retreat are not re-entered
    (a ruling), and every step must respect stacking (13.1: units may not be
    retreated into an overfull hex, at any time), so ``last`` (whether this is the
    final hex) no longer changes the answer. A stack of Fleets
    (with their passengers) goes by sea instead, or up its river with ``rivers``
    (:func:`.naval.sea_retreat_steps`).
    """
    if where < FIRST_HEX:
        return []
    if is_naval(cat, units):
        return sea_retreat_steps(cat, state, player, units, where, visited, last, rivers)
    zoc = land_zoc(cat, state, player)
    found: list[int] = []
    for other in cat.map.neighbours(where):
        if other in visited or other in zoc or step_cost(cat, state, where, other) is None:
            continue
        if any(controller(cat, state, u) != player for u in state.units.at(other)):
            continue
        features = cat.map.features(where, other)
        road = HexsideFeature.ROAD in features
        if HexsideFeature.RIVER in features and not road:
            continue
        rough = cat.map.terrain_at(other) is Terrain.ROUGH
        if rough and not (road or HexsideFeature.PASS in features):
            continue
        if not may_end_at(cat, state, units, other):
            continue  # 13.1: not even in passing
        found.append(other)
    return found


@attrs.frozen
class Retreat(Task):
    """``player`` moves ``units`` ``left`` hexes, one Place at a time (17.54, 17.9).

    ``may_ignore``: he may decline the whole retreat (a force in or attacking out of
    a City or Colony, 17.91). After one hex he may stop in a City or Colony (17.55,
    17.91). A stack that cannot finish is eliminated (17.54, 15.32).
    """

    player: int
    units: tuple[int, ...]
    left: int
    rule: str
    may_ignore: bool = False
    visited: tuple[int, ...] = ()

    @RULES.implements("17.54", "17.55", "17.91", "15.32")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        cat = ctx.cat
        units = tuple(u for u in self.units if state.units.where[u] > AVAILABLE)
        if not units or self.left <= 0:
            return state
        where = state.units.where[units[0]]
        if isinstance(answer, Done):
            ctx.log(self.rule, f"{_ids(cat, units)} end the retreat at {where}", "retreat")
            return state
        if isinstance(answer, Place):
            board = state.units
            for unit in units:
                board = board.move(unit, answer.where)
            state = replace_fields(state, units=board)
            ctx.log(self.rule, f"{_ids(cat, units)} fall back {where} -> {answer.where}", "retreat")
            return push(
                state,
                replace_fields(
                    self,
                    units=units,
                    left=self.left - 1,
                    may_ignore=False,
                    visited=(*self.visited, where),
                ),
            )
        visited = (*self.visited, where)
        steps = retreat_steps(
            cat,
            state,
            self.player,
            units,
            where,
            visited,
            self.left == 1,
            ctx.option(RIVER_OPTION),
        )
        options: list[BelAction] = []
        stop_in_fort = bool(self.visited) and fortified(cat, state, where)
        if self.may_ignore or stop_in_fort:
            options.append(Done())
        options += [place(h) for h in steps]
        if not options:
            rule = "17.54" if self.rule == "17.54" else "15.32"
            ctx.log(rule, f"{_ids(cat, units)} cannot complete the retreat", "retreat")
            return eliminate(ctx, state, units, rule)
        return ask_choice(
            state,
            self,
            self.player,
            self.rule,
            f"move the stack at {where} ({self.left} hexes to go)",
            options,
        )


@attrs.frozen
class LoseCounters(Task):
    """``player`` picks ``count`` of ``units`` to eliminate, one at a time: combat losses
    (17.8), or whatever ``rule`` asks for (Forced March attrition, 16.71)."""

    player: int
    units: tuple[int, ...]
    count: int
    rule: str = "17.8"

    @RULES.implements("17.8", "35.0")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        units = tuple(u for u in self.units if state.units.where[u] > AVAILABLE)
        if self.count <= 0 or not units:
            return state
        if isinstance(answer, Select):
            lost = ctx.cat.counter(answer.item.removeprefix("lose "))
            state = eliminate(ctx, state, (lost,), self.rule)
            return push(state, attrs.evolve(self, units=units, count=self.count - 1))
        if self.count >= len(units):
            return eliminate(ctx, state, units, self.rule)
        options = [Select(f"lose {ctx.cat.counters[u].id}") for u in units]
        prompt = f"eliminate a counter ({self.count} to go)"
        return ask_choice(state, self, self.player, self.rule, prompt, options)


@attrs.frozen
class Battle(Task):
    """One Combat of the operating force against the counters of ``target`` (17.11).

    ``resume`` is the operating task to go on with afterwards: it is given back with
    the surviving ``force``, its ``where``, the ``points`` left and its ``moved``
    (17.25, 17.56, 17.92; see :meth:`finish_battle`). ``attacker`` is the attacking
    player: the operating one, which is the phasing player (NOBODY, the default) or a
    reacting one (25.1).
    """

    force: tuple[int, ...]
    origin: int
    target: int
    points: Fraction = attrs.field(validator=attrs.validators.ge(Fraction(0)))
    resume: Task
    stage: str = DECLARE
    table: CombatTable = CombatTable.ASSAULT
    attacker_advantage: bool = False
    defender_advantage: bool = False
    attacker: int = NOBODY
    #: The side (0 the attacker, 1 the defender) whose Leaders lend nothing to the
    #: combat, having refused Personal Combat under the 35.0 variant; NOBODY if none.
    shunned: int = NOBODY
    #: The units the attacker and the defender picked for the withdrawal roll-off
    #: (17.51); NOBODY until picked.
    attacker_pick: int = NOBODY
    defender_pick: int = NOBODY

    def attacking_player(self, state: BelState) -> int:
        """The attacking player (the phasing one unless a Reaction attacks, 25.1)."""
        return state.phasing if self.attacker == NOBODY else self.attacker

    def defending_player(self, state: BelState) -> int:
        """The defending player: the attacker's opponent."""
        return 1 - self.attacking_player(state)

    @RULES.implements("17.11", "17.12", "17.24", "17.27", "17.3", "17.4", "13.22")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        handlers = {
            DECLARE: self._declare,
            STAND: self.withdraw_or_stand,
            ROLL_OFF: self.withdrawal_roll_off,
            WITHDRAW: self.withdraw_defender,
            TABLE: self.choose_table,
            ADVANTAGE: self._advantage,
            DEFENCE: self._defence,
            FIGHT: self.fight,
            FINISH: self.finish_battle,
            PERSONAL: self.personal_combat,
        }
        return handlers[self.stage](ctx, state, answer)

    def _defenders(self, state: BelState) -> tuple[int, ...]:
        return tuple(state.units.at(self.target))

    def _attackers(self, state: BelState) -> tuple[int, ...]:
        return tuple(u for u in self.force if state.units.where[u] > AVAILABLE)

    def _declare(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        del answer
        cat = ctx.cat
        defenders = self._defenders(state)
        ctx.log(
            "17.11",
            f"{_ids(cat, self.force)} at {self.origin} attack {_ids(cat, defenders)} "
            f"at {self.target}",
            "battle",
        )
        enemy = self.defending_player(state)
        for region in sorted({cat.home[u] for u in defenders}):
            if region >= 0 and region_controller(state, region) == NOBODY:
                state = change_control(ctx, state, region, enemy, "4.41")
        penalties: tuple[Task, ...] = ()
        if state.agreements:  # 24.2: a promise not to attack is broken
            state, penalties = attack_declared(ctx, state, self.attacking_player(state))
        return push(state, *penalties, replace_fields(self, stage=STAND))

    @RULES.implements("17.5", "17.52")
    def withdraw_or_stand(
        self, ctx: Context, state: BelState, answer: BelAction | None
    ) -> BelState:
        """The defender withdraws or stands, all his units together (17.5, 17.52)."""
        if isinstance(answer, Select):
            if answer.item == "withdraw":
                ctx.log("17.5", "the defender tries to withdraw", "battle")
                return push(state, attrs.evolve(self, stage=ROLL_OFF))
            ctx.log("17.5", "the defender stands", "battle")
            return push(state, attrs.evolve(self, stage=self._after_withdrawal(ctx)))
        return ask_choice(
            state,
            self,
            self.defending_player(state),
            "17.5",
            f"the stack at {self.target} is attacked: stand or try to withdraw",
            (Select("stand"), Select("withdraw")),
        )

    @RULES.implements("17.51")
    def withdrawal_roll_off(
        self, ctx: Context, state: BelState, answer: BelAction | None
    ) -> BelState:
        """The withdrawal roll-off: each player picks any one unit of his side, the
        attacker first, then each rolls a die added to his unit's Operations value; the
        defender withdraws only with the greater total (17.51)."""
        cat = ctx.cat
        if isinstance(answer, Select):
            unit = cat.counter(answer.item.removeprefix(ROLL_OFF_ITEM))
            return push(state, self._picked(ctx, state, unit))
        if self.attacker_pick == NOBODY:
            return self.pick_roller(ctx, state, self.attacking_player(state), "attacker")
        if self.defender_pick == NOBODY:
            return self.pick_roller(ctx, state, self.defending_player(state), "defender")
        if not isinstance(answer, Roll):
            return ask_roll(
                state, self, "17.51", "withdrawal roll-off: attacker's die, defender's die", 2
            )
        a_ops = cat.counters[self.attacker_pick].operations
        d_ops = cat.counters[self.defender_pick].operations
        a_roll, d_roll = answer.dice
        allowed = withdrawal_allowed(a_ops, a_roll, d_ops, d_roll)
        verdict = "it withdraws" if allowed else "it must stand"
        ctx.log(
            "17.51",
            f"withdrawal roll-off: attacker {a_ops}+{a_roll}, defender {d_ops}+{d_roll}: {verdict}",
            "battle",
        )
        stage = WITHDRAW if allowed else self._after_withdrawal(ctx)
        return push(state, attrs.evolve(self, stage=stage))

    def _picked(self, ctx: Context, state: BelState, unit: int) -> Battle:
        """The battle once the next player to pick has picked ``unit`` (17.51)."""
        attacking = self.attacker_pick == NOBODY
        side = self._attackers(state) if attacking else self._defenders(state)
        if unit not in side:
            raise ValueError(f"rule 17.51: {ctx.cat.counters[unit].id} is not in that force")
        who = "attacker" if attacking else "defender"
        ctx.log("17.51", f"the {who} rolls off with {ctx.cat.counters[unit].id}", "battle")
        if attacking:
            return attrs.evolve(self, attacker_pick=unit)
        return attrs.evolve(self, defender_pick=unit)

    @RULES.implements("17.51")
    def pick_roller(self, ctx: Context, state: BelState, player: int, who: str) -> BelState:
        """``player`` (the ``who`` side) picks the unit of his that rolls off; with one
        unit there is nothing to ask, and the log says which rolls (17.51)."""
        units = self._attackers(state) if who == "attacker" else self._defenders(state)
        if len(units) == 1:
            return push(state, self._picked(ctx, state, units[0]))
        return ask_choice(
            state,
            self,
            player,
            "17.51",
            f"the {who} picks the unit that rolls off for the withdrawal",
            [Select(f"{ROLL_OFF_ITEM}{ctx.cat.counters[u].id}") for u in units],
        )

    @staticmethod
    def _after_withdrawal(ctx: Context) -> str:
        return PERSONAL if ctx.option("personal_combat") else TABLE

    @RULES.implements("33.1")
    def personal_combat(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The defender stays: Personal Combat may come before the table (33.1); under
        the 35.0 variant a side refusing it fights without its Leaders' value."""
        del answer
        refused: tuple[Task, ...] = ()
        if ctx.option(REFUSAL_OPTION):
            refused = tuple(attrs.evolve(self, stage=TABLE, shunned=side) for side in (0, 1))
        duel = PersonalCombat(
            self.attacking_player(state),
            self._attackers(state),
            self._defenders(state),
            attrs.evolve(self, stage=TABLE),
            attrs.evolve(self, stage=FINISH),
            refused=refused,
        )
        return push(state, duel)

    @RULES.implements("17.54", "17.56", "17.57")
    def withdraw_defender(
        self, ctx: Context, state: BelState, answer: BelAction | None
    ) -> BelState:
        """The defender's withdrawal, a die of hexes; the attacker still pays (17.54,
        17.56, 17.57)."""
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "17.54", "hexes the defender withdraws")
        hexes = answer.dice[0]
        ctx.log("17.54", f"the defender withdraws {hexes} hexes; no combat", "battle")
        defender = self.defending_player(state)
        retreats = [
            Retreat(defender, stack, hexes, "17.54")
            for stack in retreating_stacks(ctx.cat, state, self._defenders(state))
        ]
        return push(state, *retreats, attrs.evolve(self, stage=FINISH))

    @RULES.implements("17.6", "17.61", "17.62")
    def choose_table(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The attacker chooses the Assault or the Maneuver table he can pay for (17.6,
        17.61, 17.62)."""
        comps = ctx.cat.components
        if isinstance(answer, Select):
            table = CombatTable(answer.item)
            ctx.log("17.6", f"the attacker uses the {table.value} table", "battle")
            return push(state, attrs.evolve(self, stage=ADVANTAGE, table=table))
        options: list[BelAction] = [Select(CombatTable.ASSAULT.value)]
        if self.points >= crt_cost(comps, CombatTable.MANEUVER):
            options.append(Select(CombatTable.MANEUVER.value))
        if len(options) == 1:
            ctx.log("17.61", "only the Assault table is affordable", "battle")
            return push(state, attrs.evolve(self, stage=ADVANTAGE))
        return ask_choice(
            state,
            self,
            self.attacking_player(state),
            "17.6",
            "choose the Combat Results Table",
            options,
        )

    def _advantage(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        return self.military_advantage(ctx, state, answer, self.attacking_player(state), DEFENCE)

    def _defence(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        return self.military_advantage(ctx, state, answer, self.defending_player(state), FIGHT)

    @RULES.implements("17.74", "8.4", "22.1")
    def military_advantage(
        self, ctx: Context, state: BelState, answer: BelAction | None, player: int, then: str
    ) -> BelState:
        """Each side in turn, attacker first, may play a Military Advantage marker (17.74,
        8.4). A side with any marker in hand is asked whether or not one is a Military
        Advantage, so that the question tells the enemy nothing (22.1)."""
        attacker = player == self.attacking_player(state)
        if isinstance(answer, Select):
            state = play(ctx, state, player, MILITARY_ADVANTAGE, "17.74")
            if attacker:
                return push(state, attrs.evolve(self, stage=then, attacker_advantage=True))
            return push(state, attrs.evolve(self, stage=then, defender_advantage=True))
        if isinstance(answer, Done) or not may_offer(ctx, state, player, MILITARY_ADVANTAGE):
            return push(state, replace_fields(self, stage=then))
        # Asked whatever the hand holds (22.1): without the marker, Done is all there is.
        side = "attacker" if attacker else "defender"
        play_it = Select("military advantage")
        return ask_choice(
            state,
            self,
            player,
            "17.74",
            f"the {side} may play a Military Advantage marker",
            (Done(), *offered(ctx, state, player, MILITARY_ADVANTAGE, play_it)),
        )

    @RULES.implements("17.71", "17.74", "17.8", "17.9", "21.22#2", "21.4", "35.0")
    def fight(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Odds, the die and the result: losses, retreats and Stratagem changes."""
        if not isinstance(answer, Roll):
            return ask_roll(state, self, "17.7", "the combat die")
        cat = ctx.cat
        attackers = counting(cat, self._attackers(state), shunned=self.shunned == 0)
        defenders = counting(cat, self._defenders(state), shunned=self.shunned == 1)
        a_mult = force_multiplier(
            min(2, leader_stars(cat, attackers)),
            1,
            self.attacker_advantage,
            constantinople=False,
        )
        factor, capital = terrain_factor(cat, state, self.origin, self.target)
        d_mult = force_multiplier(
            min(2, leader_stars(cat, defenders)),
            1 if capital else factor,
            self.defender_advantage,
            constantinople=capital,
        )
        a_str = combat_strength(cat, attackers, a_mult)
        d_str = combat_strength(cat, defenders, d_mult)
        column = odds(a_str, d_str)
        roll = answer.dice[0]
        result = crt_result(cat.components, self.table, column, roll)
        ctx.log(
            "17.71",
            f"strength {a_str} (x{a_mult}) against {d_str} (x{d_mult}): column "
            f"{column.value}, die {roll}: {result.code}",
            "battle",
        )
        losses = apply_result(result, len(attackers), len(defenders))
        attacker, defender = self.attacking_player(state), self.defending_player(state)
        tasks: list[Task] = [
            LoseCounters(attacker, attackers, losses.attacker_lost),
            LoseCounters(defender, defenders, losses.defender_lost),
        ]
        if losses.defender_retreat:
            keep = fortified(cat, state, self.target)
            tasks += [
                Retreat(defender, stack, losses.defender_retreat, "17.9", keep)
                for stack in retreating_stacks(cat, state, defenders)
            ]
        if losses.attacker_retreat:
            keep = fortified(cat, state, self.origin)
            tasks.append(Retreat(attacker, attackers, losses.attacker_retreat, "17.9", keep))
        justinian = cat.justinian in attackers or cat.justinian in defenders
        change = stratagem_change(result, justinian, empire_attacking=attacker == EMPIRE)
        for player, count in ((attacker, change.attacker), (defender, change.defender)):
            if count > 0:
                tasks.append(PickStratagems(player, count, "8.2"))
            elif count < 0:
                tasks.append(LoseStratagems(player, -count, "8.51"))
        return push(state, *tasks, attrs.evolve(self, stage=FINISH))

    @RULES.implements("17.25", "17.56", "17.92", "17.93", "17.61", "15.2")
    def finish_battle(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Pay the table (17.61) and hand the surviving force back to its operation, which
        goes on with the points left (17.25, 17.56, 17.92); there is no advance after
        combat (17.93). A force that had moved stays stopped while an enemy Zone of
        Control still holds its hex (15.2)."""
        del answer
        survivors = self._attackers(state)
        where = state.units.where[survivors[0]] if survivors else self.origin
        cost = crt_cost(ctx.cat.components, self.table)
        left = max(Fraction(0), self.points - cost)
        ctx.log("17.61", f"the combat costs {cost} Operations Points ({left} left)", "battle")
        # 15.2: a force that has moved goes on only if no enemy zone holds its hex now;
        # one that has not (15.22) may still leave into hexes free of zones.
        moved: bool | None = getattr(self.resume, "moved", False)
        if moved is not False:
            zone = land_zoc(ctx.cat, state, self.attacking_player(state))
            moved = None if where >= FIRST_HEX and where in zone else True
        resumed = attrs.evolve(  # type: ignore[misc]
            self.resume, force=survivors, where=where, points=left, moved=moved
        )
        return push(state, resumed)
