"""The Diplomacy Phase (9.0-9.5): attempts to win Regions and Guard stacks with markers.

The phasing player makes as many attempts as he likes (9.3) while he holds a
Stratagem marker with a Diplomacy Value. Each attempt names a target: a Neutral or
enemy Region (its Peripheral Area box goes with it, 18.0#2), or a Guard stack the
phasing player could win over: a loyal one for the Barbarian (12.22), a Mutinying one
for the Empire (12.32). The attacker then commits markers face down one at a time (at
least one), the defender (the other player, 9.4) answers with markers of his own
(perhaps none); both are revealed together, spent to the Pool (9.2), and the
Diplomacy Differential (attack values minus defence values) plus the modifiers picks
a column of the Diplomacy Table (9.1: modifiers shift the column, never the die). One
die decides the result.

Hidden commitments. Until the reveal the committed markers live only in the fields
``attack`` and ``defence`` of the :class:`DiplomacyAttempt` task (which sits in
``state.pending.task`` while a player is being asked); they stay in their owners'
hands until the reveal. :func:`hidden_commitments` lists what must be kept from the
other player, and :func:`conceal` returns a copy of a task with the other player's
marker ids replaced by :data:`HIDDEN` (their number stays visible, as the markers lie
face down on the table). The defender's options never depend on the attacker's
markers, only on his own hand and the target.

Several points are provisional (see the rulings page): the Empire's 7.1 bonus
applies to the Regions of :data:`ROMAN_WORLD`; Reaction against a Guard stack or an
enemy Region changes nothing; Neutral against a Guard stack changes nothing;
Tolerance from either side cancels a Reaction, else Orthodoxy from either side
doubles it, and a doubled Reaction also costs the phasing player one Stratagem marker
picked at random.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import DiplomacyOutcome
from byzantium.belisarius.engine import Context, ask_choice, ask_roll, push
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelAction,
    BelState,
    Done,
    Roll,
    Select,
    Task,
    opponent,
)
from byzantium.belisarius.stratagems import LoseStratagems, play
from byzantium.belisarius.world import (
    change_control,
    city_hexes,
    guard_stacks,
    mutiny_stack,
    occupied_cities,
    region_controller,
    restore_stack,
    side_name,
)

__all__ = [
    "ATTACK",
    "BLUE_FACTION",
    "DEFENCE",
    "GREEN_FACTION",
    "HIDDEN",
    "ORTHODOXY",
    "ROLL",
    "ROMAN_WORLD",
    "TOLERANCE",
    "DiplomacyAttempt",
    "DiplomacyPhase",
    "attempt_for",
    "can_attempt",
    "committable",
    "conceal",
    "differential",
    "diplomacy_modifier",
    "diplomacy_outcome",
    "diplomacy_row",
    "hidden_commitments",
    "marker_value",
    "resolve",
    "reveal",
    "target_options",
]

#: Stratagem ids with a rule of their own in Diplomacy (9.5 and the Stratagem chart).
ORTHODOXY = "orthodoxy"
TOLERANCE = "tolerance"
BLUE_FACTION = "blue-faction"
GREEN_FACTION = "green-faction"

#: Regions whose lands lay inside the Roman Empire at its division in 395 AD: the
#: Empire player's Diplomacy modifier of 7.1 applies against them (provisional: our
#: copy of the rules does not list them). Left out: the Slavs, Scythia, the
#: Garamantes, Nubia and Persia, never Roman, and Lazica, a client kingdom.
ROMAN_WORLD: frozenset[str] = frozenset(
    {
        "Franks",
        "Burgundy",
        "Lombards",
        "Gepidae",
        "Suevii",
        "Basques",
        "Visigoths",
        "Ostrogoths",
        "Vandals",
        "Mauretania",
        "Aegyptus",
        "Arabia",
        "Armenia",
        "Thracia",
        "Lydia",
        "Illyricum",
        "Achaea",
        "Cappadocia",
        "Syria",
    }
)

#: Stages of an attempt: the attacker commits, the defender commits, the die is rolled.
ATTACK = "attack"
DEFENCE = "defence"
ROLL = "roll"

#: What a concealed marker id reads as (see :func:`conceal`).
HIDDEN = "hidden"

_REGION = "region"
_GUARD = "guard"


# -- the attempt ------------------------------------------------------------------------


@attrs.frozen
class DiplomacyAttempt(Task):
    """One Diplomacy attempt of ``attacker`` (9.1), from the commitments to the result.

    The target is Region ``region``, or (``region`` -1) the Guard stack at location
    ``stack``. ``attack`` and ``defence`` are the markers committed so far, face down
    until the reveal (see :func:`hidden_commitments`); ``differential`` is set at the
    reveal, with the modifiers included.
    """

    attacker: int
    region: int = -1
    stack: int = 0
    attack: tuple[str, ...] = ()
    defence: tuple[str, ...] = ()
    stage: str = ATTACK
    differential: int = 0

    @property
    def defender(self) -> int:
        """The non-phasing player, who may defend (9.4)."""
        return opponent(self.attacker)

    @property
    def guard(self) -> bool:
        """Whether the target is a Guard stack (12.22, 12.32)."""
        return self.region < 0

    def label(self, ctx: Context) -> str:
        """The target in words."""
        if self.guard:
            return f"the Guard stack at {self.stack}"
        return ctx.cat.regions[self.region].name

    @RULES.implements("9.1", "9.4", "9.5")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if self.stage == ROLL:
            if not isinstance(answer, Roll):
                return ask_roll(state, self, "9.1", f"Diplomacy on {self.label(ctx)}: roll one die")
            outcome = diplomacy_outcome(ctx, self.differential, answer.dice[0])
            ctx.log(
                "9.1",
                f"Diplomacy on {self.label(ctx)}: differential {self.differential:+d}, "
                f"die {answer.dice[0]}: {outcome.value}",
                "diplomacy",
            )
            return resolve(ctx, state, self, outcome)
        if self.stage == ATTACK:
            return self._commit_attack(ctx, state, answer)
        return self._commit_defence(ctx, state, answer)

    def _commit_attack(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if isinstance(answer, Select):
            ctx.log("9.1", f"{side_name(self.attacker)} commits a marker face down", "diplomacy")
            return push(state, attrs.evolve(self, attack=(*self.attack, answer.item)))
        if isinstance(answer, Done):
            return push(state, attrs.evolve(self, stage=DEFENCE))
        offer = [Select(s) for s in committable(ctx, state, self.attacker, self.attack)]
        if not self.attack and not offer:
            return state  # pragma: no cover - the phase offers targets only with markers
        options: list[BelAction] = [Done()] if self.attack else []
        return ask_choice(
            state,
            self,
            self.attacker,
            "9.1",
            f"Diplomacy on {self.label(ctx)}: commit a marker face down"
            + (", or stop" if self.attack else ""),
            [*options, *offer],
        )

    def _commit_defence(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        if isinstance(answer, Select):
            ctx.log("9.4", f"{side_name(self.defender)} commits a marker face down", "diplomacy")
            return push(state, attrs.evolve(self, defence=(*self.defence, answer.item)))
        if isinstance(answer, Done):
            return reveal(ctx, state, self)
        # The defender is always asked, even with nothing to commit, so that the
        # attacker cannot tell an empty hand from a refusal.
        offer = [Select(s) for s in committable(ctx, state, self.defender, self.defence)]
        return ask_choice(
            state,
            self,
            self.defender,
            "9.4",
            f"{side_name(self.attacker)} attempts Diplomacy on {self.label(ctx)} with "
            f"{_count(len(self.attack))}: commit a defending marker face down, or stop",
            [Done(), *offer],
        )


@RULES.implements("9.1", "9.2", "8.42")
def reveal(ctx: Context, state: BelState, attempt: DiplomacyAttempt) -> BelState:
    """Both sides show their markers at once; they go to the Pool (9.2); then the die."""
    ctx.log(
        "9.1",
        f"Diplomacy on {attempt.label(ctx)}: {side_name(attempt.attacker)} reveals "
        f"{_list(attempt.attack)}; {side_name(attempt.defender)} reveals {_list(attempt.defence)}",
        "reveal",
    )
    diff = differential(ctx, state, attempt)
    for marker in attempt.attack:
        state = play(ctx, state, attempt.attacker, marker, "9.2")
    for marker in attempt.defence:
        state = play(ctx, state, attempt.defender, marker, "9.2")
    return push(state, attrs.evolve(attempt, stage=ROLL, differential=diff))


def _count(n: int) -> str:
    return "1 marker" if n == 1 else f"{n} markers"


def _list(markers: Sequence[str]) -> str:
    return ", ".join(markers) if markers else "nothing"


# -- values, modifiers, the table ----------------------------------------------------------


@RULES.implements("9.0", "9.5")
def committable(ctx: Context, state: BelState, player: int, committed: Sequence[str]) -> list[str]:
    """Marker types ``player`` may still commit to an attempt, in catalogue order.

    Only markers with a Diplomacy Value (9.0) that are still in his hand and not
    already committed; never an Orthodoxy beside a Tolerance of his, nor the reverse
    (9.5). The answer depends on nothing the other player committed.
    """
    cat = ctx.cat
    hand = state.stratagems.hands[player]
    found: list[str] = []
    for kind, stratagem in enumerate(cat.components.stratagems):
        if stratagem.diplomacy <= 0 or hand[kind] - committed.count(stratagem.id) <= 0:
            continue
        if stratagem.id == ORTHODOXY and TOLERANCE in committed:
            continue
        if stratagem.id == TOLERANCE and ORTHODOXY in committed:
            continue
        found.append(stratagem.id)
    return found


@RULES.implements("9.0", "9.4")
def marker_value(ctx: Context, state: BelState, attempt: DiplomacyAttempt, stratagem: str) -> int:
    """The Diplomacy Value a marker adds for its side in an attempt (9.0, Stratagem chart).

    The printed value, except that the Blue Faction counts only for an Empire-controlled
    Region or a Guard stack and the Green Faction only for an Empire-controlled Region;
    otherwise they count 0. Values count the same in attack and in defence (9.4).
    """
    value = ctx.cat.components.stratagem(stratagem).diplomacy
    empire_region = not attempt.guard and region_controller(state, attempt.region) == EMPIRE
    if stratagem == BLUE_FACTION:
        return value if empire_region or attempt.guard else 0
    if stratagem == GREEN_FACTION:
        return value if empire_region else 0
    return value


def _occupies_all(ctx: Context, state: BelState, attempt: DiplomacyAttempt) -> bool:
    if attempt.guard:
        return False
    cat = ctx.cat
    cities = [h for h in city_hexes(cat, state) if cat.region_of(h) == attempt.region]
    held = occupied_cities(cat, state, attempt.attacker, attempt.region)
    return bool(cities) and len(held) == len(cities)


def _modifier_applies(ctx: Context, state: BelState, attempt: DiplomacyAttempt, name: str) -> bool:
    text = name.lower()
    if "occup" in text:
        return _occupies_all(ctx, state, attempt)
    if "roman" in text:
        return (
            attempt.attacker == EMPIRE
            and not attempt.guard
            and ctx.cat.regions[attempt.region].name in ROMAN_WORLD
        )
    if "loyal guard" in text:
        return attempt.guard and attempt.attacker == BARBARIAN
    if "mutinying guard" in text:
        return attempt.guard and attempt.attacker == EMPIRE
    raise ValueError(f"Diplomacy modifier not understood: {name!r}")


@RULES.implements("9.1", "9.3", "7.1", "12.22", "12.32")
def diplomacy_modifier(ctx: Context, state: BelState, attempt: DiplomacyAttempt) -> int:
    """The sum of the Diplomacy Table's modifiers that apply to an attempt.

    Read from the component data by their names: the attacker occupying every City and
    Colony of the target Region (9.3), the Empire against a Region of
    :data:`ROMAN_WORLD` (7.1), the Barbarian against a loyal Guard stack (12.22), the
    Empire against a Mutinying one (12.32).
    """
    return sum(
        m.value
        for m in ctx.cat.components.modifiers_of("diplomacy")
        if _modifier_applies(ctx, state, attempt, m.name)
    )


@RULES.implements("9.1", "9.4")
def differential(ctx: Context, state: BelState, attempt: DiplomacyAttempt) -> int:
    """The modified Diplomacy Differential: attack values minus defence values, plus the
    modifiers (9.1, 9.4). It picks the column; the die is never modified.
    """
    attack = sum(marker_value(ctx, state, attempt, m) for m in attempt.attack)
    defence = sum(marker_value(ctx, state, attempt, m) for m in attempt.defence)
    return attack - defence + diplomacy_modifier(ctx, state, attempt)


def diplomacy_row(ctx: Context, diff: int) -> int:
    """Index of the Diplomacy Table column for a modified differential."""
    for index, row in enumerate(ctx.cat.components.diplomacy):
        if row.low <= diff <= row.high:
            return index
    raise ValueError(f"the Diplomacy Table has no column for {diff}")  # pragma: no cover


@RULES.implements("9.1")
def diplomacy_outcome(ctx: Context, diff: int, roll: int) -> DiplomacyOutcome:
    """The Diplomacy Table's result for a modified differential and a die roll (9.1)."""
    return ctx.cat.components.diplomacy[diplomacy_row(ctx, diff)].results[roll - 1]


# -- results ------------------------------------------------------------------------------


@RULES.implements("9.1", "9.5", "4.41", "4.6", "12.22", "12.3", "12.32", "22.1")
def resolve(
    ctx: Context, state: BelState, attempt: DiplomacyAttempt, outcome: DiplomacyOutcome
) -> BelState:
    """Apply a Diplomacy result to the attempt's target.

    Control: a Neutral Region enters the war on the attacker's side (4.41, 4.42), an
    enemy Region defects to him (4.6); a loyal Guard stack mutinies unless Justinian is
    in it (12.22, 12.3), a Mutinying one returns to loyalty (12.32). Neutral: an enemy
    Region reverts to Neutral (4.51); nothing else changes. Intelligence: the attacker
    may see the other's Stratagems and treasury until the end of the game turn (22.1).
    Reaction: a Neutral Region enters the war on the defender's side (4.41); a
    Tolerance in the attempt cancels that, an Orthodoxy doubles it, the attacker then
    also losing a marker at random (9.5).
    """
    attacker, defender = attempt.attacker, attempt.defender
    owner = NOBODY if attempt.guard else region_controller(state, attempt.region)
    if outcome is DiplomacyOutcome.CONTROL:
        if attempt.guard:
            if attacker == BARBARIAN:
                return mutiny_stack(ctx, state, attempt.stack, "12.22")
            return restore_stack(ctx, state, attempt.stack, "12.32")
        rule = "4.41" if owner == NOBODY else "4.6"
        return change_control(ctx, state, attempt.region, attacker, rule)
    if outcome is DiplomacyOutcome.NEUTRAL:
        if not attempt.guard and owner == defender:
            return change_control(ctx, state, attempt.region, NOBODY, "9.1")
        ctx.log("9.1", f"{attempt.label(ctx)} is not affected", "diplomacy")
        return state
    if outcome is DiplomacyOutcome.INTELLIGENCE:
        revealed = list(state.revealed)
        revealed[attacker] = True
        ctx.log(
            "22.1",
            f"{side_name(attacker)} may see {side_name(defender)}'s Stratagems and treasury",
            "intelligence",
        )
        return attrs.evolve(state, revealed=(revealed[0], revealed[1]))
    if outcome is DiplomacyOutcome.REACTION:
        return reaction_result(ctx, state, attempt, owner)
    return state


@RULES.implements("9.5", "4.41")
def reaction_result(
    ctx: Context, state: BelState, attempt: DiplomacyAttempt, owner: int
) -> BelState:
    """A Reaction result (9.5): the other player gains a Neutral target (4.41); Tolerance
    in the attempt cancels it, Orthodoxy doubles it (the attacker also loses a marker at
    random; see the rulings)."""
    played = (*attempt.attack, *attempt.defence)
    if TOLERANCE in played:
        ctx.log("9.5", "Tolerance cancels the Reaction", "diplomacy")
        return state
    if not attempt.guard and owner == NOBODY:
        state = change_control(ctx, state, attempt.region, attempt.defender, "4.41")
    else:
        ctx.log("9.1", f"the Reaction leaves {attempt.label(ctx)} as it was", "diplomacy")
    if ORTHODOXY in played:
        ctx.log("9.5", "Orthodoxy doubles the Reaction", "diplomacy")
        return push(state, LoseStratagems(attempt.attacker, 1, "9.5"))
    return state


# -- the phase -----------------------------------------------------------------------------


def can_attempt(ctx: Context, state: BelState, player: int) -> bool:
    """Whether ``player`` holds a marker with a Diplomacy Value (9.0, 9.3)."""
    return bool(committable(ctx, state, player, ()))


@RULES.implements("9.1", "9.3", "12.22", "12.32", "18.0#2")
def target_options(ctx: Context, state: BelState, player: int) -> list[Select]:
    """What ``player`` may designate: Neutral and enemy Regions (map order), then Guard
    stacks by location, loyal ones for the Barbarian (12.22) and Mutinying ones for the
    Empire (12.32). A Peripheral Area box is part of its Region (18.0#2), never a
    target of its own; units are not needed anywhere (9.3).
    """
    cat = ctx.cat
    options = [
        Select(f"{_REGION} {region.name}")
        for index, region in enumerate(cat.regions)
        if region_controller(state, index) != player
    ]
    stacks = guard_stacks(cat, state, mutinying=player == EMPIRE)
    options += [Select(f"{_GUARD} {where}") for where in stacks]
    return options


def attempt_for(ctx: Context, player: int, item: str) -> DiplomacyAttempt:
    """The attempt a target option (``"region NAME"`` or ``"guard WHERE"``) starts."""
    kind, _, rest = item.partition(" ")
    if kind == _GUARD:
        return DiplomacyAttempt(player, stack=int(rest))
    return DiplomacyAttempt(player, region=ctx.cat.region(rest))


@attrs.frozen
class DiplomacyPhase(Task):
    """The phasing player's Diplomacy Phase: attempts one after another until he stops.

    Done (the first option) ends the phase; a target starts an attempt, after which
    he is asked again. A player with an empty hand has nothing to ask about; any
    other is asked, and without a marker with a Diplomacy Value he may only end the
    phase: the question does not tell the other player whether he holds one (22.1).
    """

    @RULES.implements("9.0", "9.3", "22.1")
    def run(self, ctx: Context, state: BelState, answer: BelAction | None) -> BelState:
        player = state.phasing
        if isinstance(answer, Done):
            return state
        if isinstance(answer, Select):
            attempt = attempt_for(ctx, player, answer.item)
            ctx.log(
                "9.1",
                f"{side_name(player)} attempts Diplomacy on {attempt.label(ctx)}",
                "diplomacy",
            )
            return push(state, attempt, DiplomacyPhase())
        # Only the public size of the hand decides whether to ask (22.1).
        if state.stratagems.held(player) == 0:
            return state
        targets = target_options(ctx, state, player)
        if not targets:
            return state
        return ask_choice(
            state,
            self,
            player,
            "9.1",
            "designate a target for Diplomacy, or end the phase",
            [Done(), *(targets if can_attempt(ctx, state, player) else [])],
        )


# -- hidden information ------------------------------------------------------------------


def hidden_commitments(task: Task) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The face-down markers of a pending attempt: (player, marker ids) pairs.

    Each pair must be kept from the other player (and from onlookers); the number of
    markers is public. Empty for any other task, and once the markers are revealed.
    """
    if not isinstance(task, DiplomacyAttempt) or task.stage == ROLL:
        return ()
    if task.stage == ATTACK:
        return ((task.attacker, task.attack),)
    return ((task.attacker, task.attack), (task.defender, task.defence))


def conceal(task: Task, viewer: int) -> Task:
    """``task`` as ``viewer`` may see it: other players' face-down markers read HIDDEN.

    ``viewer`` NOBODY conceals every commitment. Any other task comes back unchanged.
    """
    if not isinstance(task, DiplomacyAttempt) or not hidden_commitments(task):
        return task
    attack = task.attack if viewer == task.attacker else (HIDDEN,) * len(task.attack)
    defence = task.defence if viewer == task.defender else (HIDDEN,) * len(task.defence)
    return attrs.evolve(task, attack=attack, defence=defence)
