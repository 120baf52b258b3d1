"""Byzantine Action Phase, the battles: 10.6, 10.6.5, 10.6.8, 10.6.9.1-2, 10.8, 10.13.

Every attack here is a :class:`~byzantium.sword_of_orthodoxy.combat.Attack` on a
target named by the offer; what differs is the price and who fights:

========================  ================================  ===========================
offer (item text)         rule                              what it uses up
========================  ================================  ===========================
``attack <target>``       10.6, 10.6.5, 10.6.9.1, 10.6.9.2  1 $ (a Stolos: 2 $, or
                                                            withdrawals worth 1 $ each)
``kleidion <target>``     8.4.1 "Kleidion"                  1 $
``tricameron <target>``   8.4.1 "Tricameron"                1 $
``emperor-attack <t>``    10.6.8 the soldier emperor        the Turn's sword (once)
``magister-attack <t>``   10.8 the Magister Militum         the Magister on a defeat,
                                                            the enemy's ground on a win
``hippodrome <riot>``     10.6.9.2 the Hippodrome           the golden Basileus
``shift-forces <path>``   10.13 shifting forces             ground: an unopposed Advance
========================  ================================  ===========================

Targets are listed in :func:`~byzantium.sword_of_orthodoxy.combat.legal_targets`
order (Paths Α to Ζ, then Constantinople), and an offer is made only when it is
legal and affordable now.

Why the phase ends
    Solidus, the sword's once-per-Turn right and the golden Basileus are spent for
    good. The Magister Militum is free, but he is offered only while there is a
    target, and each victory of his takes ground from the enemy (an Army goes back
    to its Reserves or one Thema back, a fleet sinks, Latins or a Riot leave the
    City), which cannot go on for ever, while each defeat (a natural 1 always
    loses, 1.1) removes him. Shifting forces has no price and the rulebook sets no
    limit, so none is invented: each use pushes the enemy forward one step (the
    withdrawal is offered only where the Barbarians can advance) and its free
    attack, won, pushes one back, never more; whenever that attack fails the enemy
    gains for good. Pressed further, a full Path besieges Constantinople (9.6,
    12.1): every Siege the City survives costs a Faction (the Walls alone lose to
    any roll), and Factions are rebuilt only with solidus (10.12). So random play
    ends the phase, or the game, with probability one.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import attrs

from byzantium.core import dice
from byzantium.core.procedure import replace_fields
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import Advance, western_deployment
from byzantium.sword_of_orthodoxy.combat import (
    ALL_PATHS,
    Attack,
    attack_drms,
    attack_succeeds,
    constantinople_targets,
    legal_targets,
    only_the_stolos,
    path_targets,
    spend_comet,
    stolos_carrier,
)
from byzantium.sword_of_orthodoxy.components import Icon, Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import basileus_has, change_schism
from byzantium.sword_of_orthodoxy.engine import (
    Context,
    Offer,
    ask_choice,
    ask_roll,
    board_query,
    facet_query,
    make_offer,
    proceed,
    push,
)
from byzantium.sword_of_orthodoxy.state import Roll, Select, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.synopsis import special_attack
from byzantium.sword_of_orthodoxy.world import (
    PATH_BARBARIANS,
    eastern_army,
    marker,
    move,
    remember,
    tiles_on,
)

__all__ = [
    "ATTACK_COST",
    "STOLOS_COST",
    "Front",
    "Hippodrome",
    "MagisterDefeated",
    "PaidAttack",
    "ShiftForces",
    "SoldierEmperorAttack",
    "attack_cost",
    "emperor_attacks",
    "fronts",
    "hippodrome_riots",
    "hippodrome_rolls",
    "magister_attack",
    "magister_attacks",
    "magister_cost",
    "magister_drm",
    "magister_ready",
    "offers",
    "paid_attacks",
    "path_attacks",
    "path_front",
    "shift_targets",
    "shifting_forces",
    "soldier_emperor_fact",
    "soldier_emperor_ready",
    "special_battles",
    "stolos_affordable",
    "stolos_payments",
    "withdrawable",
    "withdrawable_paths",
]

#: The price of an attack (10.6), and of one on an Army carrying the Stolos (10.6.5).
ATTACK_COST = 1
STOLOS_COST = 2
#: The events of 8.4.1 that allow an attack on the last Army of a Zone.
SPECIAL_BATTLES = ("kleidion", "tricameron")
GOLDEN_BASILEUS = "basileus-golden"


def _id(ctx: Context, tile: int) -> str:
    return ctx.cat.tiles[tile].id


def _solidus(ctx: Context, state: SooState) -> int:
    return marker(ctx, state, "solidus")


# -- 10.6 and 10.6.5: paid attacks ---------------------------------------------------------


@RULES.implements("10.6", "10.6.5")
def attack_cost(ctx: Context, state: SooState, target: int) -> int:
    """What an attack on ``target`` costs in the Action Phase.

    1 $ (10.6), also against the Latins and a Riot (10.6.9.1, 10.6.9.2). 2 $ against
    the Army carrying the Stolos, a double battle on land and at sea; but only 1 $
    when the fleet alone can be beaten, its Army being out of reach (on its
    Homeland, a colonised Thema, or the last of its Zone: 10.6.5, 10.6.7).
    """
    if stolos_carrier(ctx, state) == target and not only_the_stolos(ctx, state, target):
        return STOLOS_COST
    return ATTACK_COST


@RULES.implements("10.13")
def withdrawable_paths(ctx: Context, state: SooState) -> list[Path]:
    """The Paths on which the player may withdraw: their Barbarians can advance
    (:func:`withdrawable`)."""
    return [path for path in Path if withdrawable(ctx, state, path)]


@facet_query(PATH_BARBARIANS)
@RULES.implements("10.13")
def withdrawable(ctx: Context, state: SooState, path: Path) -> bool:
    """Whether the player may withdraw from ``path``: its Barbarians can advance.

    In the West an Army (or, from a full Zone, the Siege tile) must be there to
    deploy; in the East the Path must have an Army. A withdrawal that moved
    nothing would cost nothing, and every action has a price.
    """
    if path.western:
        return western_deployment(ctx, state, path) is not None
    return eastern_army(ctx, state, path) is not None


def _payment_item(money: int, withdrawals: tuple[Path, ...]) -> str:
    parts = [f"pay {money} $"] if money else []
    parts += [f"withdraw {path.slug}" for path in withdrawals]
    return ", ".join(parts)


@RULES.implements("10.6.5", "10.13")
def stolos_payments(
    ctx: Context, state: SooState, target: int
) -> list[tuple[str, int, tuple[Path, ...]]]:
    """The ways to pay for an attack on the Army carrying the Stolos: ``(item, $, Paths)``.

    Each withdrawal (10.13) on a Path other than the fleet's is worth 1 $ of the
    price: for 2 $, two Paths, the same Path twice, or one Path and 1 $. Listed
    simplest first: all in solidus, then one withdrawal, then two, in Path order.
    """
    cost = attack_cost(ctx, state, target)
    fleet = ctx.cat.tiles[target].path
    paths = [p for p in withdrawable_paths(ctx, state) if p is not fleet]
    found: list[tuple[str, int, tuple[Path, ...]]] = []
    for withdrawn in range(cost + 1):
        money = cost - withdrawn
        if money > _solidus(ctx, state):
            continue
        for combo in combinations_with_replacement(paths, withdrawn):
            found.append((_payment_item(money, combo), money, combo))
    return found


@RULES.implements("10.6.5", "10.13")
def stolos_affordable(ctx: Context, state: SooState, target: int) -> bool:
    """Whether an attack on the Army carrying the Stolos can be paid for at all: the
    whole price in solidus, or a withdrawal on a Path other than the fleet's, each
    worth 1 $ (whatever is not withdrawn is paid). The same as :func:`stolos_payments`
    listing a way, without writing every way out."""
    if _solidus(ctx, state) >= attack_cost(ctx, state, target):
        return True
    fleet = ctx.cat.tiles[target].path
    return any(path is not fleet for path in withdrawable_paths(ctx, state))


@attrs.frozen
class PaidAttack(Task):
    """An attack of the Action Phase on ``target``: pay its price, then fight (10.6).

    Against the Army carrying the Stolos the player chooses how to pay
    (:func:`stolos_payments`); withdrawals come first, each an unopposed Advance on
    its Path (10.13), and such an attack gains no Niké, being one of Shifting
    forces (see the rulings).
    """

    target: str

    @RULES.implements("10.6", "10.6.5", "10.6.9.1", "10.6.9.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tile = ctx.cat.tile(self.target)
        if stolos_carrier(ctx, state) != tile:
            cost = attack_cost(ctx, state, tile)
            attack = Attack("10.6", target=self.target, cost=cost, optional=False)
            return proceed(ctx, state, attack)  # fought at once, as if pushed
        payments = stolos_payments(ctx, state, tile)
        if isinstance(answer, Select):
            chosen = next(p for p in payments if p[0] == answer.item)
        elif len(payments) == 1:
            chosen = payments[0]
        elif payments:
            prompt = f"pay for the attack on {self.target} and its Stolos"
            options = [Select(item) for item, _, _ in payments]
            return ask_choice(state, self, "10.6.5", prompt, options)
        else:
            ctx.log("10.6.5", f"the attack on {self.target} cannot be paid for", "attack")
            return state
        _, money, withdrawals = chosen
        for path in withdrawals:
            ctx.log("10.13", f"forces withdraw from Path {path} to fight the Stolos", "attack")
        attack = Attack(
            "10.6.5", target=self.target, cost=money, nike=not withdrawals, optional=False
        )
        return push(state, *(Advance(p, "10.13", unopposed=True) for p in withdrawals), attack)


@facet_query(PATH_BARBARIANS)
@RULES.implements("10.6", "10.6.5")
def path_attacks(ctx: Context, state: SooState, path: Path) -> list[tuple[Offer, int, bool]]:
    """``attack <target>`` for the legal targets of one Path (:func:`path_targets`), each
    with its price (:func:`attack_cost`) and whether it carries the Stolos."""
    carrier = stolos_carrier(ctx, state)
    found: list[tuple[Offer, int, bool]] = []
    for target in path_targets(ctx, state, path):
        item = _id(ctx, target)
        found.append(
            (
                make_offer(f"attack {item}", PaidAttack, item),
                attack_cost(ctx, state, target),
                target == carrier,
            )
        )
    return found


@attrs.frozen
class Front:
    """What the battle offers read of one Path, asked once per menu (:func:`fronts`).

    ``attacks`` is :func:`path_attacks`; ``withdrawable`` is :func:`withdrawable`;
    ``aimed`` tells whether the Path has a legal target other than the Army carrying
    the Stolos (one the free attack of Shifting forces may aim at, 10.13).
    """

    attacks: tuple[tuple[Offer, int, bool], ...]
    withdrawable: bool
    aimed: bool


@facet_query(PATH_BARBARIANS)
def path_front(ctx: Context, state: SooState, path: Path) -> Front:
    """The :class:`Front` of one Path, read from that Path's Barbarians alone."""
    attacks = tuple(path_attacks(ctx, state, path))
    return Front(attacks, withdrawable(ctx, state, path), any(not c for _, _, c in attacks))


@board_query
def fronts(ctx: Context, state: SooState) -> tuple[Front, ...]:
    """The :class:`Front` of every Path, in Path order (Α to Ζ, as ``ALL_PATHS``)."""
    return tuple(path_front(ctx, state, path) for path in ALL_PATHS)


@RULES.implements("10.6", "10.6.5", "10.6.9.1", "10.6.9.2", "10.13")
def paid_attacks(ctx: Context, state: SooState) -> list[Offer]:
    """``attack <target>`` for every legal target the treasury (or a withdrawal) can pay for.

    The Army carrying the Stolos may be paid for by withdrawals from the other Paths
    instead (:func:`stolos_affordable`); the Latins and Riots cost 1 $ (10.6.9).
    """
    solidus = _solidus(ctx, state)
    every = fronts(ctx, state)
    found: list[Offer] = []
    for k, front in enumerate(every):
        for offer, cost, carrier in front.attacks:
            if solidus >= cost or (
                carrier and any(f.withdrawable for i, f in enumerate(every) if i != k)
            ):
                found.append(offer)
    if solidus >= ATTACK_COST:
        for riot in constantinople_targets(ctx, state):
            item = _id(ctx, riot)
            found.append(make_offer(f"attack {item}", PaidAttack, item))
    return found


# -- 8.4.1 Kleidion and Tricameron -----------------------------------------------------------


@RULES.implements("8.4.1", "10.6")
def special_battles(ctx: Context, state: SooState) -> list[Offer]:
    """The attacks Kleidion and Tricameron allow on the last Army of a Zone, at 1 $ each.

    The event lifts the ban on attacking the Zone's last Army (10.6) for the Turn;
    the attack itself is an ordinary paid one (see the rulings).
    """
    if _solidus(ctx, state) < ATTACK_COST:
        return []
    found: list[Offer] = []
    for battle in SPECIAL_BATTLES:
        attack = special_attack(ctx, state, battle)
        if attack is None:
            continue
        for target in legal_targets(ctx, state, attack.paths, attack.lone):
            item = _id(ctx, target)
            task = replace_fields(attack, target=item, cost=ATTACK_COST, optional=False)
            found.append(Offer(f"{battle} {item}", task))
    return found


# -- 10.6.8 soldier emperors -------------------------------------------------------------


def soldier_emperor_fact(turn: int) -> str:
    """The fact remembered once the soldier emperor has attacked this Turn."""
    return f"soldier-emperor-turn-{turn}"


@RULES.implements("10.6.8")
def soldier_emperor_ready(ctx: Context, state: SooState) -> bool:
    """A grey Basileus with the sword icon has his free attack this Turn, once."""
    used = soldier_emperor_fact(state.turn) in state.done
    return not used and basileus_has(ctx, state, Icon.SWORD)


@attrs.frozen
class SoldierEmperorAttack(Task):
    """The soldier emperor's free attack on ``target`` (10.6.8); his right is spent."""

    target: str

    @RULES.implements("10.6.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        ctx.log("10.6.8", "the soldier emperor leads a free attack", "attack")
        state = remember(state, soldier_emperor_fact(state.turn))
        return push(state, Attack("10.6.8", target=self.target, optional=False))


@RULES.implements("10.6.8")
def emperor_attacks(ctx: Context, state: SooState) -> list[Offer]:
    """``emperor-attack <target>`` for every legal target, while the sword is unused.

    A free attack pays no price at all, so the Army carrying the Stolos may be its
    target too (as for every free attack, see the rulings).
    """
    if not soldier_emperor_ready(ctx, state):
        return []
    found: list[Offer] = []
    for path in ALL_PATHS:
        found += _emperor_offers(ctx, state, path)
    found += (_emperor_offer(ctx, riot) for riot in constantinople_targets(ctx, state))
    return found


def _emperor_offer(ctx: Context, target: int) -> Offer:
    return Offer(f"emperor-attack {_id(ctx, target)}", SoldierEmperorAttack(_id(ctx, target)))


@facet_query(PATH_BARBARIANS)
def _emperor_offers(ctx: Context, state: SooState, path: Path) -> list[Offer]:
    return [_emperor_offer(ctx, target) for target in path_targets(ctx, state, path)]


# -- 10.6.9.2 the Hippodrome -----------------------------------------------------------------


@RULES.implements("10.6.9.2")
def hippodrome_riots(ctx: Context, state: SooState) -> list[int]:
    """The Riots the golden Basileus may face in the Hippodrome.

    He must stand in Constantinople, on either side: the Plague (8.4.1) keeps him
    from the missions of 10.7 only, which alone require his golden side; the
    Hippodrome is no mission, and the rulebook still calls the tile the golden
    Basileus on its Plague side (11.10). Only Riots, not Latins, are met there.
    """
    golden = ctx.cat.tile(GOLDEN_BASILEUS)
    if state.board.where[golden] != ctx.cat.space("constantinople"):
        return []
    return [r for r in constantinople_targets(ctx, state) if not state.board.back[r]]


@attrs.frozen
class Hippodrome(Task):
    """The golden Basileus goes to the Hippodrome for a free roll against a Riot (10.6.9.2).

    Won or lost, he stays there for the rest of the Turn (11.10 brings him back).
    A victory is bloodless: the Riot returns to the Counter Tray, no Niké is
    gained and no Faction is blamed.
    """

    riot: str

    @RULES.implements("10.6.9.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not isinstance(answer, Roll):
            ctx.log("10.6.9.2", "the Basileus goes to the Hippodrome to face the Riot", "attack")
            state = move(ctx, state, ctx.cat.tile(GOLDEN_BASILEUS), "hippodrome")
            return ask_roll(state, self, "10.6.9.2", "the Hippodrome: a roll against the Riot")
        riot = ctx.cat.tile(self.riot)
        natural = answer.dice[0]
        drms = attack_drms(ctx, state, riot)
        state = spend_comet(state)
        strength = ctx.cat.face(state.board, riot).strength
        roll = dice.Roll(natural, drms, natural_extremes=True)
        if not attack_succeeds(natural, drms, strength):
            ctx.log(
                "10.6.9.2",
                f"the Hippodrome (strength {strength}): {roll.describe()}: the crowd boos",
            )
            return state
        ctx.log(
            "10.6.9.2", f"the Hippodrome (strength {strength}): {roll.describe()}: the Riot ends"
        )
        state = move(ctx, state, riot, "counter-tray")
        return attrs.evolve(state, board=state.board.flip(riot, False))


@RULES.implements("10.6.9.2")
def hippodrome_rolls(ctx: Context, state: SooState) -> list[Offer]:
    """``hippodrome <riot>`` for each Riot in Constantinople, while the golden Basileus is free."""
    return [
        Offer(f"hippodrome {_id(ctx, r)}", Hippodrome(_id(ctx, r)))
        for r in hippodrome_riots(ctx, state)
    ]


# -- 10.8 the Magister Militum -----------------------------------------------------------------


def _magister(ctx: Context) -> int:
    return ctx.cat.tiles_of(TileKind.MAGISTER)[0]


@RULES.implements("10.8")
def magister_ready(ctx: Context, state: SooState) -> bool:
    """The Magister Militum may fight: a general named for this Turn, his tile in the City.

    The Chronographia must name a general for the current Turn (5.2.2); his tile
    stands in Constantinople until he loses a battle.
    """
    rows = ctx.cat.components.chronographia  # Turns 1 to 27 in order (components check)
    named = 1 <= state.turn <= len(rows) and bool(rows[state.turn - 1].magister)
    in_city = state.board.where[_magister(ctx)] == ctx.cat.space("constantinople")
    return named and in_city


@RULES.implements("10.8")
def magister_drm() -> tuple[dice.Modifier, ...]:
    """The great general's +1 on every attack he makes."""
    return (dice.Modifier(1, "Magister Militum", "10.8"),)


@RULES.implements("10.8", "10.6.5")
def magister_cost(ctx: Context, state: SooState, target: int) -> int:
    """The Magister attacks for free, except the Army carrying the Stolos: 1 $."""
    return ATTACK_COST if stolos_carrier(ctx, state) == target else 0


@RULES.implements("10.8")
def magister_attack(ctx: Context, state: SooState, target: int) -> Attack:
    """The Magister's attack on ``target``: +1, and his fall if he loses."""
    item = _id(ctx, target)
    return Attack(
        "10.8",
        target=item,
        cost=magister_cost(ctx, state, target),
        extra=magister_drm(),
        optional=False,
        on_failure=(MagisterDefeated(item),),
    )


@RULES.implements("10.8")
def magister_attacks(ctx: Context, state: SooState) -> list[Offer]:
    """``magister-attack <target>`` for every legal target he can afford.

    A victory leaves him in the City, ready to fight again.
    """
    if not magister_ready(ctx, state):
        return []
    solidus = _solidus(ctx, state)
    found: list[Offer] = []
    for path in ALL_PATHS:
        found += (offer for offer, cost in _magister_offers(ctx, state, path) if cost <= solidus)
    for riot in constantinople_targets(ctx, state):
        found.append(_magister_offer(ctx, state, riot))  # free: no Stolos in the City
    return found


def _magister_offer(ctx: Context, state: SooState, target: int) -> Offer:
    return Offer(f"magister-attack {_id(ctx, target)}", magister_attack(ctx, state, target))


@facet_query(PATH_BARBARIANS)
def _magister_offers(ctx: Context, state: SooState, path: Path) -> list[tuple[Offer, int]]:
    """The ``magister-attack`` offer on each legal target of one Path, and its price."""
    return [
        (_magister_offer(ctx, state, t), magister_cost(ctx, state, t))
        for t in path_targets(ctx, state, path)
    ]


@attrs.frozen
class MagisterDefeated(Task):
    """The Magister Militum has lost to ``target`` (10.8): he goes to the Counter Tray.

    The player then raises the Schism Level by the strength of the victor, or puts
    a Riot in Constantinople if one is free on the Counter Tray. ``strength`` is
    noted when he falls.
    """

    target: str
    strength: int = -1

    @RULES.implements("10.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.strength < 0:
            strength = ctx.cat.face(state.board, ctx.cat.tile(self.target)).strength
            ctx.log("10.8", "the Magister Militum is beaten and leaves the City", "magister")
            state = move(ctx, state, _magister(ctx), "counter-tray")
            task = attrs.evolve(self, strength=strength)
            if not tiles_on(ctx, state, "counter-tray", TileKind.RIOT):
                return task._schism(ctx, state)
            return task.reask(ctx, state)
        assert isinstance(answer, Select)
        if answer.item == "riot":
            riot = tiles_on(ctx, state, "counter-tray", TileKind.RIOT)[0]
            ctx.log("10.8", "a Riot breaks out in Constantinople", "magister")
            board = state.board.move(riot, ctx.cat.space("constantinople")).flip(riot, False)
            return attrs.evolve(state, board=board)
        return self._schism(ctx, state)

    def _schism(self, ctx: Context, state: SooState) -> SooState:
        return change_schism(ctx, state, self.strength, "10.8")

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The choice between the Schism and a Riot, once he has fallen (validation)."""
        if self.strength < 0:
            return self.run(ctx, state, None)
        if not tiles_on(ctx, state, "counter-tray", TileKind.RIOT):
            return state
        options = [Select(f"schism +{self.strength}"), Select("riot")]
        prompt = "the Magister Militum's defeat: raise the Schism, or a Riot"
        return ask_choice(state, self, "10.8", prompt, options)


# -- 10.13 shifting forces -----------------------------------------------------------------


@RULES.implements("10.13")
def shift_targets(ctx: Context, state: SooState, path: Path) -> list[int]:
    """What the free attack of Shifting forces may aim at after withdrawing from ``path``.

    Armies on the other Paths only, never the City, and not the Army carrying the
    Stolos, whose price withdrawals pay instead (:func:`stolos_payments`).
    """
    others = tuple(p for p in Path if p is not path)
    return legal_targets(ctx, state, others, fleet=False)


@attrs.frozen
class ShiftForces(Task):
    """Withdraw from ``path`` (an unopposed Advance there), then attack elsewhere (10.13).

    The attack is free, optional, on another Path, and wins no Niké.
    """

    path: Path

    @RULES.implements("10.13")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        ctx.log("10.13", f"forces withdraw from Path {self.path} to strike elsewhere", "attack")
        others = tuple(p for p in Path if p is not self.path)
        attack = Attack("10.13", others, nike=False, fleet=False)
        return proceed(ctx, push(state, attack), Advance(self.path, "10.13", unopposed=True))


@RULES.implements("10.13")
def shifting_forces(ctx: Context, state: SooState) -> list[Offer]:
    """``shift-forces <path>`` for each Path one may withdraw from, if the attack has a target.

    :func:`shift_targets` for a Path lists the targets on the other Paths, so the
    targets of all Paths are looked for once, and the Paths they lie on noted: the
    Armies among the legal targets of an attack, less the one carrying the Stolos.
    """
    every = fronts(ctx, state)
    aimed = [path for path, front in zip(ALL_PATHS, every, strict=True) if front.aimed]
    if not aimed:
        return []
    return [
        _SHIFT_OFFERS[path]
        for path, front in zip(ALL_PATHS, every, strict=True)
        # another Path than this one is aimed at: more than one, or one other
        if front.withdrawable and (len(aimed) > 1 or aimed[0] is not path)
    ]


#: The ``shift-forces <path>`` offer of each Path, made once (:func:`shifting_forces`).
_SHIFT_OFFERS = {
    path: make_offer(f"shift-forces {path.slug}", ShiftForces, path) for path in ALL_PATHS
}


# -- the menu --------------------------------------------------------------------------------


def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The battles the player may fight now, in a fixed order (see the module table)."""
    return [
        *paid_attacks(ctx, state),
        *special_battles(ctx, state),
        *emperor_attacks(ctx, state),
        *magister_attacks(ctx, state),
        *hippodrome_rolls(ctx, state),
        *shifting_forces(ctx, state),
    ]
