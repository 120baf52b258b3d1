"""Personal Combat, an optional rule (33.0, 33.1): Leaders fight a duel in a battle.

With the ``personal_combat`` option on, a :class:`.battle.Battle` in which both sides
have at least one Leader pauses once the defender's withdrawal is settled (he stood,
or failed the 17.51 roll-off) and before the attacker chooses a Combat Results Table
(17.6). Then:

* the attacker may challenge; if he does not, the defender may (Done declines);
* the challenged player accepts or refuses; a refusal costs nothing (33.1);
* on acceptance each player names one of his Leaders in the combat as his champion,
  the attacker first (a lone Leader is named without asking);
* one die each, the attacker's first (as in the 17.51 roll-off), plus the champion's
  stars: the lower total's champion is eliminated (:func:`.world.eliminate`, with
  Justinian's consequences, 21.4); a tie eliminates nobody.

The battle then goes on with what is left: a force whose Leader fell loses his
multiplier (17.74). Rulings (see the rulings page): a refused challenge ends Personal
Combat for that battle; the champions are named openly, the attacker first (as the
Military Advantage markers of 17.74); if the duel leaves a side without any counter in
the combat, the battle ends without a table and the attacker pays the Assault price,
as for a withdrawal.

The designer's answer in 35.0 adds a variant, the option
``personal_combat_refusal`` (with ``personal_combat``): a side that refuses a
challenge fights the battle without its Leaders' value, neither their strength nor
their multiplier (:func:`counting`; a ruling names every Leader of that side, none
having been named as champion).
"""

from __future__ import annotations

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.state import (
    AVAILABLE,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Done,
    Roll,
    Select,
    Task,
    opponent,
)
from byzantium.belisarius.world import eliminate

__all__ = [
    "REFUSAL_OPTION",
    "PersonalCombat",
    "counting",
    "duel_loser",
    "leaders_in",
    "personal_combat_possible",
]

#: The option of the 35.0 variant: refusing Personal Combat costs the Leaders' value.
REFUSAL_OPTION = "personal_combat_refusal"

#: Stages of a Personal Combat, in order.
CHALLENGE, ANSWER, CHAMPION, DUEL = "challenge", "answer", "champion", "duel"

#: The items of the questions.
CHALLENGE_ITEM, ACCEPT_ITEM, CHAMPION_PREFIX = "challenge", "accept", "champion "


@RULES.implements("33.1")
def leaders_in(cat: Catalog, state: BelState, units: tuple[int, ...]) -> tuple[int, ...]:
    """The Leaders among ``units`` still in play, in counter order."""
    where = state.units.where
    return tuple(
        u for u in units if where[u] > AVAILABLE and cat.counters[u].kind is UnitKind.LEADER
    )


@RULES.implements("33.1")
def personal_combat_possible(
    cat: Catalog, state: BelState, attackers: tuple[int, ...], defenders: tuple[int, ...]
) -> bool:
    """Whether both sides of the combat have at least one Leader in it (33.1)."""
    return bool(leaders_in(cat, state, attackers)) and bool(leaders_in(cat, state, defenders))


@RULES.implements("35.0")
def counting(cat: Catalog, units: tuple[int, ...], *, shunned: bool) -> tuple[int, ...]:
    """The counters whose value a side brings to the combat's odds: all of them, or,
    for a side that refused Personal Combat under the 35.0 variant, all but its
    Leaders (their strength and their multiplier are lost for this combat)."""
    if not shunned:
        return units
    return tuple(u for u in units if cat.counters[u].kind is not UnitKind.LEADER)


@RULES.implements("33.1")
def duel_loser(a_stars: int, a_roll: int, d_stars: int, d_roll: int) -> int:
    """Which champion falls: 0 the attacker's, 1 the defender's, -1 nobody (a tie).

    Each total is the die plus the champion's stars; the lower total loses (33.1).
    """
    attacker, defender = a_roll + a_stars, d_roll + d_stars
    if attacker == defender:
        return -1
    return 0 if attacker < defender else 1


def _ids(cat: Catalog, units: tuple[int, ...]) -> str:
    return ", ".join(cat.counters[u].id for u in units)


@attrs.frozen
class PersonalCombat(Task):
    """The Personal Combat step of a battle (33.0, 33.1).

    ``attacker`` is the attacking player; ``attackers`` and ``defenders`` the counters
    in the combat. ``then`` is the battle going on to its table (17.6); ``ended`` the
    battle finishing without one, should the duel leave a side with no counter.
    ``asked`` is the side asked whether to challenge (0 the attacker, 1 the defender)
    and, once a challenge is made, the challenging side; ``champions`` the Leaders
    named by the attacker and by the defender.
    """

    attacker: int
    attackers: tuple[int, ...]
    defenders: tuple[int, ...]
    then: Task
    ended: Task
    stage: str = CHALLENGE
    asked: int = 0
    champions: tuple[int, int] = (NOBODY, NOBODY)
    #: Under the 35.0 variant, the battle going on when the attacker's side refuses a
    #: challenge and when the defender's does (their Leaders then lend no value);
    #: empty without the variant.
    refused: tuple[Task, ...] = ()

    def _player(self, side: int) -> int:
        return self.attacker if side == 0 else opponent(self.attacker)

    def _side_units(self, side: int) -> tuple[int, ...]:
        return self.attackers if side == 0 else self.defenders

    @RULES.implements("33.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if not personal_combat_possible(ctx.cat, state, self.attackers, self.defenders):
            return push(state, self.then)
        if self.stage == CHALLENGE:
            return self.challenge(ctx, state, answer)
        if self.stage == ANSWER:
            return self.accept_or_refuse(ctx, state, answer)
        if self.stage == CHAMPION:
            return self.name_champion(ctx, state, answer)
        return self.duel(ctx, state, answer)

    @RULES.implements("33.1")
    def challenge(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The attacker, then (if he declines) the defender, may challenge (33.1)."""
        side = "attacker" if self.asked == 0 else "defender"
        if isinstance(answer, Select):
            ctx.log("33.1", f"the {side} challenges to Personal Combat", "personal combat")
            return push(state, attrs.evolve(self, stage=ANSWER))
        if isinstance(answer, Done):
            if self.asked == 0:
                return push(state, attrs.evolve(self, asked=1))
            return push(state, self.then)
        return ask_choice(
            state,
            self,
            self._player(self.asked),
            "33.1",
            f"the {side} may challenge the enemy's Leaders to Personal Combat",
            (Done(), Select(CHALLENGE_ITEM)),
        )

    @RULES.implements("33.1", "35.0")
    def accept_or_refuse(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """The challenged player accepts, or refuses at no cost (Done, 33.1)."""
        if isinstance(answer, Select):
            ctx.log("33.1", "the challenge is accepted", "personal combat")
            return push(state, attrs.evolve(self, stage=CHAMPION))
        if isinstance(answer, Done):
            ctx.log("33.1", "the challenge is refused", "personal combat")
            if self.refused:
                refusing = 1 - self.asked
                ctx.log("35.0", "the refusing side's Leaders lend no value", "personal combat")
                return push(state, self.refused[refusing])
            return push(state, self.then)
        return ask_choice(
            state,
            self,
            self._player(1 - self.asked),
            "33.1",
            "accept the challenge to Personal Combat, or refuse it (Done)",
            (Done(), Select(ACCEPT_ITEM)),
        )

    @RULES.implements("33.1")
    def name_champion(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """Each player names one of his Leaders in the combat, the attacker first (33.1)."""
        cat = ctx.cat
        side = 0 if self.champions[0] == NOBODY else 1
        if isinstance(answer, Select):
            return self._named(ctx, state, side, cat.counter(answer.item.removeprefix("champion ")))
        leaders = leaders_in(cat, state, self._side_units(side))
        if len(leaders) == 1:
            return self._named(ctx, state, side, leaders[0])
        return ask_choice(
            state,
            self,
            self._player(side),
            "33.1",
            "name your champion for the Personal Combat",
            [Select(f"{CHAMPION_PREFIX}{cat.counters[u].id}") for u in leaders],
        )

    def _named(self, ctx: Context, state: BelState, side: int, leader: int) -> BelState:
        ctx.log("33.1", f"{ctx.cat.counters[leader].id} is the champion", "personal combat")
        champions = (leader, self.champions[1]) if side == 0 else (self.champions[0], leader)
        stage = CHAMPION if side == 0 else DUEL
        return push(state, attrs.evolve(self, stage=stage, champions=champions))

    @RULES.implements("33.1")
    def duel(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        """A die each plus the champion's stars; the lower total's champion is
        eliminated, a tie eliminates nobody (33.1). The battle goes on with what is
        left, or ends if a side has nobody left in it (a ruling)."""
        if not isinstance(answer, Roll):
            return ask_roll(
                state, self, "33.1", "Personal Combat: attacker's die, defender's die", 2
            )
        cat = ctx.cat
        a_champ, d_champ = self.champions
        a_stars, d_stars = cat.counters[a_champ].stars, cat.counters[d_champ].stars
        a_roll, d_roll = answer.dice
        loser = duel_loser(a_stars, a_roll, d_stars, d_roll)
        verdict = (
            "a tie: nobody falls" if loser < 0 else f"{_ids(cat, (self.champions[loser],))} falls"
        )
        ctx.log(
            "33.1",
            f"Personal Combat: {_ids(cat, (a_champ,))} {a_stars}+{a_roll} against "
            f"{_ids(cat, (d_champ,))} {d_stars}+{d_roll}: {verdict}",
            "personal combat",
        )
        if loser < 0:
            return push(state, self.then)
        state = eliminate(ctx, state, (self.champions[loser],), "33.1")
        where = state.units.where
        left = [
            any(where[u] > AVAILABLE for u in units) for units in (self.attackers, self.defenders)
        ]
        if not all(left):
            ctx.log("33.1", "a side has nobody left in the combat: it ends", "personal combat")
            return push(state, self.ended)
        return push(state, self.then)
