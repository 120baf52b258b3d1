"""Typed actions of Belisarius: what each decision does, and a fixed number for each.

The engine's actions are a few generic shapes (:class:`~.state.Select` of a menu text,
:class:`~.state.Place` at a location, :class:`~.state.Done`); what one of them does
depends on the question it answers. This module is a layer over the engine that
names every decision the rules can offer as a small record saying what it does: a
force moving to a location (:class:`MoveForce`), a counter dropped off
(:class:`DropOff`), a Forced March (:class:`ForcedMarch`), an attack on a hex
(:class:`Attack`), a levied unit placed (:class:`PlaceLevy`), a purchase
(:class:`BuyStratagem`), a Diplomacy target (:class:`DiplomacyOnRegion`), a marker
played (:class:`PlayStratagem`) or declined (:class:`Finish`), a capitulation
(:class:`Capitulate`)... Each record class gives the rules that offer it
(``RULES``), a stable JSON tag (``KIND``) and a sentence for people
(:func:`describe`, place and counter names rather than numbers and ids).

* :func:`classify` turns an engine action of a state into its record (chance outcomes
  included, as :class:`DiceRoll` and :class:`DrawMarker`); :func:`engine_action`
  goes back, to the one legal action of the state with that record. The engine's own
  actions stay what games are recorded with, so every old record still loads and
  replays; the typed records are a view of them.
* :func:`to_json` and :func:`from_json` give a record's stable JSON form
  (``{"kind": "move-force", "where": 5624}``).
* :class:`BelisariusActionSpace` numbers every record the rules can offer: each
  record class owns a block of numbers, one per value of its parameter (a location,
  a counter, a Region, a Stratagem type...), enumerated from the loaded map and
  component files, so the numbering is stable for a given map and components. See
  ``docs/games/belisarius-actions.rst`` for the blocks.

Hidden information (22.1): a record of the other player's decision is built from the
action as he may see it (:func:`~.observation.visible_action`, see
:func:`visible_typed_action`); a marker committed face down or returned unseen
reads as :class:`HiddenChoice`, a hidden draw as ``DrawMarker("hidden")``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from byzantium.belisarius.battle import (
    MILITARY_ADVANTAGE,
    ROLL_OFF_ITEM,
    Battle,
    LoseCounters,
    Retreat,
)
from byzantium.belisarius.components import CombatTable, UnitKind
from byzantium.belisarius.diplomacy import HIDDEN, DiplomacyAttempt, DiplomacyPhase
from byzantium.belisarius.events import (
    LEGAL_REFORMS,
    RESTORE,
    AttritionLoss,
    ForcesRallyEvent,
    GuardMutinyEvent,
    LeaderArisesEvent,
    LegalReformsOffer,
    MigrantPlacement,
    MigrationEvent,
    RegionResistsEvent,
    TroopsRallyEvent,
)
from byzantium.belisarius.levy import GAIN_LEADER, LEADER_STRATAGEM, REMOVE_LEADER, LevyPhase
from byzantium.belisarius.naval import DEBARK, EMBARK, FLEET
from byzantium.belisarius.negotiations import (
    ACCEPT,
    ANY,
    ASK_MARKER,
    END_GAME,
    GIVE_MARKER,
    I_HOLD,
    I_LEAVE,
    NEUTRAL,
    OFFER,
    SOLIDUS_STEPS,
    YOU_HOLD,
    YOU_LEAVE,
    Negotiations,
)
from byzantium.belisarius.operations import DROP_ITEM, FORCED_ITEM, OperationsPhase
from byzantium.belisarius.personal import (
    ACCEPT_ITEM,
    CHALLENGE_ITEM,
    CHAMPION_PREFIX,
    PersonalCombat,
)
from byzantium.belisarius.provisioning import DisbandingCheck, ProvisioningPhase
from byzantium.belisarius.reaction import REACT
from byzantium.belisarius.recruiting import (
    BUY,
    IMPERIAL_REGALIA,
    PLAY,
    RECRUIT,
    THEODORA,
    UNPILLAGE,
    WORKS,
    RecruitingPhase,
)
from byzantium.belisarius.render import place_name, unit_name
from byzantium.belisarius.sequence import CAPITULATE, PlayerTurn
from byzantium.belisarius.setup import Deploy
from byzantium.belisarius.special import COLONIZE, PILLAGE
from byzantium.belisarius.state import (
    FIRST_HEX,
    BelAction,
    BelState,
    Catalog,
    Done,
    Draw,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
    per_catalog,
)
from byzantium.belisarius.stratagems import PickStratagems, ReturnStratagem
from byzantium.belisarius.taxation import CURRENCY_REFORM, PLAY_REFORM, RAISE, TAX, TaxationPhase
from byzantium.core.codec import JSONValue
from byzantium.core.errors import IllegalActionError
from byzantium.core.spaces import ActionSpace

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = [
    "QUESTIONS",
    "VOCABULARY",
    "BelisariusActionSpace",
    "Block",
    "TypedAction",
    "UnknownActionError",
    "classify",
    "describe",
    "engine_action",
    "from_json",
    "to_json",
    "visible_typed_action",
]


class UnknownActionError(ValueError):
    """An engine action, or a JSON record, that no typed record stands for."""


# -- the vocabulary ------------------------------------------------------------------------


@attrs.frozen
class TypedAction:
    """A decision of Belisarius as a record of what it does.

    Subclasses set ``KIND`` (the tag of the JSON form), ``RULES`` (the rules that
    offer it), ``DOMAIN`` (what its parameters range over: ``"location"``,
    ``"counter"``, ``"region"``, ``"marker"``... or ``""`` for none; see
    :func:`domain_values`) and ``TEXT``, a sentence with the parameter's name in braces.
    """

    KIND: ClassVar[str] = ""
    RULES: ClassVar[tuple[str, ...]] = ()
    DOMAIN: ClassVar[str] = ""
    TEXT: ClassVar[str] = ""

    def value(self) -> tuple[str | int, ...]:
        """The record's parameters, in field order."""
        return attrs.astuple(self, recurse=False)


# Locations: a Peripheral Area box (1-4) or a map hex.


@attrs.frozen
class DeployCounter(TypedAction):
    """Set-up (34.0): the counter in hand goes to ``where``."""

    KIND: ClassVar[str] = "deploy"
    RULES: ClassVar[tuple[str, ...]] = ("34.0",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Deploy the counter at {where}"
    where: int


@attrs.frozen
class PlaceLevy(TypedAction):
    """Levy (11.12): the levied unit goes to ``where``."""

    KIND: ClassVar[str] = "place-levy"
    RULES: ClassVar[tuple[str, ...]] = ("11.12",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Place the levied unit at {where}"
    where: int


@attrs.frozen
class PlaceRecruit(TypedAction):
    """Recruiting (11.21): the recruit goes to ``where``."""

    KIND: ClassVar[str] = "place-recruit"
    RULES: ClassVar[tuple[str, ...]] = ("11.21",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Place the recruit at {where}"
    where: int


@attrs.frozen
class PlaceRallied(TypedAction):
    """Forces Rally (11.4): the rallied counter goes to ``where``."""

    KIND: ClassVar[str] = "place-rallied"
    RULES: ClassVar[tuple[str, ...]] = ("11.4",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Place the rallied counter at {where}"
    where: int


@attrs.frozen
class PlaceMigrant(TypedAction):
    """Barbarian Migrations (11.4): the migrant goes to ``where``."""

    KIND: ClassVar[str] = "place-migrant"
    RULES: ClassVar[tuple[str, ...]] = ("11.4",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Place the migrant at {where}"
    where: int


@attrs.frozen
class PlaceLeader(TypedAction):
    """A Leader coming into play (Leader Arises, the Leader marker) goes to ``where``."""

    KIND: ClassVar[str] = "place-leader"
    RULES: ClassVar[tuple[str, ...]] = ("21.2", "21.21", "21.22")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Place the Leader at {where}"
    where: int


@attrs.frozen
class OperateForce(TypedAction):
    """Operations (14.1): the land counters at ``where`` form the next force."""

    KIND: ClassVar[str] = "operate-force"
    RULES: ClassVar[tuple[str, ...]] = ("14.1",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Operate the force at {where}"
    where: int


@attrs.frozen
class OperateFleet(TypedAction):
    """Operations (14.1, 19.5): the Fleets at ``where`` form the next force."""

    KIND: ClassVar[str] = "operate-fleet"
    RULES: ClassVar[tuple[str, ...]] = ("14.1", "19.5")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Operate the Fleets at {where}"
    where: int


@attrs.frozen
class ForcedMarch(TypedAction):
    """Forced March (16.7): play the marker for the land counters at ``where``."""

    KIND: ClassVar[str] = "forced-march"
    RULES: ClassVar[tuple[str, ...]] = ("16.7", "16.72")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Forced March with the counters at {where}"
    where: int


@attrs.frozen
class ForcedMarchFleet(TypedAction):
    """Forced March (16.7, 16.84): play the marker for the Fleets at ``where``."""

    KIND: ClassVar[str] = "forced-march-fleet"
    RULES: ClassVar[tuple[str, ...]] = ("16.7", "16.84")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Forced March with the Fleets at {where}"
    where: int


@attrs.frozen
class React(TypedAction):
    """Reaction (25.1): the non-phasing player's land counters at ``where`` react."""

    KIND: ClassVar[str] = "react"
    RULES: ClassVar[tuple[str, ...]] = ("25.1",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "React with the force at {where}"
    where: int


@attrs.frozen
class ReactFleet(TypedAction):
    """Reaction (25.1): the non-phasing player's Fleets at ``where`` react."""

    KIND: ClassVar[str] = "react-fleet"
    RULES: ClassVar[tuple[str, ...]] = ("25.1",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "React with the Fleets at {where}"
    where: int


@attrs.frozen
class MoveForce(TypedAction):
    """Movement (16.1; Fleets 19.x): the operating force steps to ``where``."""

    KIND: ClassVar[str] = "move-force"
    RULES: ClassVar[tuple[str, ...]] = ("16.1", "19.52")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Move the force to {where}"
    where: int


@attrs.frozen
class RetreatTo(TypedAction):
    """A retreat (17.54, 17.9): the retreating stack steps to ``where``."""

    KIND: ClassVar[str] = "retreat"
    RULES: ClassVar[tuple[str, ...]] = ("17.54", "17.9")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Retreat to {where}"
    where: int


@attrs.frozen
class Attack(TypedAction):
    """Combat (17.11, 17.2): the operating force attacks the counters at ``target``."""

    KIND: ClassVar[str] = "attack"
    RULES: ClassVar[tuple[str, ...]] = ("17.11", "17.22")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Attack {target}"
    target: int


@attrs.frozen
class RestoreGuard(TypedAction):
    """Forces Rally or Troops Rally (11.4, 12.31): the Mutinying Guard at ``where``
    turns loyal again."""

    KIND: ClassVar[str] = "restore-guard"
    RULES: ClassVar[tuple[str, ...]] = ("11.4", "12.31")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Restore the Mutinying Guard at {where} to loyalty"
    where: int


@attrs.frozen
class GuardMutiny(TypedAction):
    """Guard Mutiny (12.21): the loyal Guard stack at ``where`` mutinies."""

    KIND: ClassVar[str] = "guard-mutiny"
    RULES: ClassVar[tuple[str, ...]] = ("12.21",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Make the Guard at {where} mutiny"
    where: int


@attrs.frozen
class DiplomacyOnGuard(TypedAction):
    """Diplomacy (9.1, 12.22, 12.32): the Guard stack at ``where`` is the target."""

    KIND: ClassVar[str] = "diplomacy-on-guard"
    RULES: ClassVar[tuple[str, ...]] = ("9.1", "12.22", "12.32")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Attempt Diplomacy on the Guard at {where}"
    where: int


@attrs.frozen
class RemovePillage(TypedAction):
    """Recruiting (10.3, 26.5): pay to remove the Pillaged marker at ``where``."""

    KIND: ClassVar[str] = "remove-pillage"
    RULES: ClassVar[tuple[str, ...]] = ("10.3", "26.5")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Remove the Pillaged marker at {where}"
    where: int


@attrs.frozen
class BuildPublicWorks(TypedAction):
    """Recruiting (10.3, 28.1): pay for a Public Works marker at ``where``."""

    KIND: ClassVar[str] = "public-works"
    RULES: ClassVar[tuple[str, ...]] = ("10.3", "28.1")
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Build Public Works at {where}"
    where: int


@attrs.frozen
class PromiseLeaveHex(TypedAction):
    """Negotiations (24.1): a term, the proposer promises to leave the hex ``where``."""

    KIND: ClassVar[str] = "promise-leave-hex"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Offer to leave {where}"
    where: int


@attrs.frozen
class DemandLeaveHex(TypedAction):
    """Negotiations (24.1): a term, the other player is to leave the hex ``where``."""

    KIND: ClassVar[str] = "demand-leave-hex"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "location"
    TEXT: ClassVar[str] = "Ask the other player to leave {where}"
    where: int


# Counters, by catalogue id.


@attrs.frozen
class LeaveOut(TypedAction):
    """Forming a force before its roll (13.23; Fleets 19.5): ``unit`` stays behind,
    free to form another force."""

    KIND: ClassVar[str] = "leave-out"
    RULES: ClassVar[tuple[str, ...]] = ("13.21", "13.23", "19.5")
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Leave {unit} out of the force"
    unit: str


@attrs.frozen
class DropOff(TypedAction):
    """On the way (13.21, 16.4): ``unit`` (a Fleet with its passengers) is dropped off
    where the force stands and operates no more this phase."""

    KIND: ClassVar[str] = "drop-off"
    RULES: ClassVar[tuple[str, ...]] = ("13.21", "16.4")
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Drop off {unit} here"
    unit: str


@attrs.frozen
class Embark(TypedAction):
    """Fleets (19.5): ``unit`` goes on board the fleet force."""

    KIND: ClassVar[str] = "embark"
    RULES: ClassVar[tuple[str, ...]] = ("19.5",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Take {unit} on board"
    unit: str


@attrs.frozen
class DebarkOne(TypedAction):
    """Fleets (19.54): the passenger ``unit`` lands where the force is."""

    KIND: ClassVar[str] = "debark-one"
    RULES: ClassVar[tuple[str, ...]] = ("19.54",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Land {unit} here"
    unit: str


@attrs.frozen
class JoinForce(TypedAction):
    """Forced March (16.73): ``unit`` of the force's location joins it."""

    KIND: ClassVar[str] = "join-force"
    RULES: ClassVar[tuple[str, ...]] = ("16.73",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Add {unit} to the force"
    unit: str


@attrs.frozen
class LoseCounter(TypedAction):
    """Losses (17.8, 16.71, 27.6): ``unit`` is the counter eliminated."""

    KIND: ClassVar[str] = "lose-counter"
    RULES: ClassVar[tuple[str, ...]] = ("17.8", "16.71", "27.6")
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Eliminate {unit}"
    unit: str


@attrs.frozen
class RollOffWith(TypedAction):
    """Withdrawal (17.51): ``unit`` rolls off for its side."""

    KIND: ClassVar[str] = "roll-off-with"
    RULES: ClassVar[tuple[str, ...]] = ("17.51",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Roll off with {unit}"
    unit: str


@attrs.frozen
class NameChampion(TypedAction):
    """Personal Combat (33.1): the Leader ``unit`` is the champion."""

    KIND: ClassVar[str] = "name-champion"
    RULES: ClassVar[tuple[str, ...]] = ("33.1",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Name {unit} champion"
    unit: str


@attrs.frozen
class AttritionElimination(TypedAction):
    """An Attrition event (6.2): ``unit`` is eliminated."""

    KIND: ClassVar[str] = "attrition-loss"
    RULES: ClassVar[tuple[str, ...]] = ("6.2",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Eliminate {unit} (Attrition)"
    unit: str


@attrs.frozen
class Disband(TypedAction):
    """Provisioning (20.2): ``unit`` disbands rather than be paid for."""

    KIND: ClassVar[str] = "disband"
    RULES: ClassVar[tuple[str, ...]] = ("20.2",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Disband {unit}"
    unit: str


@attrs.frozen
class ChooseToDisband(TypedAction):
    """Disbanding (30.3): ``unit`` joins the counters that make a Disbanding check."""

    KIND: ClassVar[str] = "choose-to-disband"
    RULES: ClassVar[tuple[str, ...]] = ("30.3",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Put {unit} to a Disbanding check"
    unit: str


@attrs.frozen
class RallyCounter(TypedAction):
    """Forces Rally (11.4): the available counter ``unit`` comes into play."""

    KIND: ClassVar[str] = "rally-counter"
    RULES: ClassVar[tuple[str, ...]] = ("11.4",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Bring {unit} into play"
    unit: str


@attrs.frozen
class BringLeader(TypedAction):
    """Leader Arises or the Leader marker (21.2): the Leader ``unit`` comes into play."""

    KIND: ClassVar[str] = "bring-leader"
    RULES: ClassVar[tuple[str, ...]] = ("21.2",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Bring {unit} into play"
    unit: str


@attrs.frozen
class RemoveEnemyLeader(TypedAction):
    """The Leader marker (11.3): aim at the enemy Leader ``unit``."""

    KIND: ClassVar[str] = "remove-enemy-leader"
    RULES: ClassVar[tuple[str, ...]] = ("11.3",)
    DOMAIN: ClassVar[str] = "counter"
    TEXT: ClassVar[str] = "Try to remove {unit}"
    unit: str


# Regions, by name.


@attrs.frozen
class CollectTaxes(TypedAction):
    """Taxation (10.2): collect taxes in the Neutral Region ``region``."""

    KIND: ClassVar[str] = "collect-taxes"
    RULES: ClassVar[tuple[str, ...]] = ("10.2",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Collect taxes in {region}"
    region: str


@attrs.frozen
class RaiseTaxes(TypedAction):
    """Taxation (10.2): raise taxes in ``region``."""

    KIND: ClassVar[str] = "raise-taxes"
    RULES: ClassVar[tuple[str, ...]] = ("10.2",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Raise taxes in {region}"
    region: str


@attrs.frozen
class DiplomacyOnRegion(TypedAction):
    """Diplomacy (9.1): the Region ``region`` is the target."""

    KIND: ClassVar[str] = "diplomacy-on-region"
    RULES: ClassVar[tuple[str, ...]] = ("9.1",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Attempt Diplomacy on {region}"
    region: str


@attrs.frozen
class MigrantsFrom(TypedAction):
    """Barbarian Migrations (11.4): the migrants come from ``region``."""

    KIND: ClassVar[str] = "migrants-from"
    RULES: ClassVar[tuple[str, ...]] = ("11.4",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Migrants come from {region}"
    region: str


@attrs.frozen
class RegionResists(TypedAction):
    """Region Resists (4.41): the Neutral Region ``region`` enters the war."""

    KIND: ClassVar[str] = "region-resists"
    RULES: ClassVar[tuple[str, ...]] = ("4.41",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "{region} enters the war on your side"
    region: str


@attrs.frozen
class ProposeNeutral(TypedAction):
    """Negotiations (24.1): a term, ``region`` returns to neutrality."""

    KIND: ClassVar[str] = "propose-neutral"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Propose that {region} return to neutrality"
    region: str


@attrs.frozen
class PromiseLeaveRegion(TypedAction):
    """Negotiations (24.1): a term, the proposer promises to leave ``region``."""

    KIND: ClassVar[str] = "promise-leave-region"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Offer to leave {region}"
    region: str


@attrs.frozen
class DemandLeaveRegion(TypedAction):
    """Negotiations (24.1): a term, the other player is to leave ``region``."""

    KIND: ClassVar[str] = "demand-leave-region"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "region"
    TEXT: ClassVar[str] = "Ask the other player to leave {region}"
    region: str


# Stratagem marker types.


@attrs.frozen
class CommitMarker(TypedAction):
    """Diplomacy (9.1, 9.4): a marker of type ``marker`` is committed face down."""

    KIND: ClassVar[str] = "commit-marker"
    RULES: ClassVar[tuple[str, ...]] = ("9.1", "9.4")
    DOMAIN: ClassVar[str] = "marker"
    TEXT: ClassVar[str] = "Commit {marker} face down"
    marker: str


@attrs.frozen
class ReturnMarker(TypedAction):
    """The hand limit (8.3): a marker of type ``marker`` goes back to the Pool."""

    KIND: ClassVar[str] = "return-marker"
    RULES: ClassVar[tuple[str, ...]] = ("8.3",)
    DOMAIN: ClassVar[str] = "marker"
    TEXT: ClassVar[str] = "Return {marker} to the Pool"
    marker: str


@attrs.frozen
class OfferMarker(TypedAction):
    """Negotiations (24.1): a term, the proposer hands over a ``marker``."""

    KIND: ClassVar[str] = "offer-marker"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "marker"
    TEXT: ClassVar[str] = "Offer {marker}"
    marker: str


@attrs.frozen
class AskMarker(TypedAction):
    """Negotiations (24.1): a term, the other player hands over a ``marker`` (``"any"``:
    one of his choice)."""

    KIND: ClassVar[str] = "ask-marker"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "asked-marker"
    TEXT: ClassVar[str] = "Ask for {marker}"
    marker: str


@attrs.frozen
class HandOverMarker(TypedAction):
    """Negotiations (24.1): the accepting player hands over a ``marker`` of his choice."""

    KIND: ClassVar[str] = "hand-over-marker"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "marker"
    TEXT: ClassVar[str] = "Hand over {marker}"
    marker: str


@attrs.frozen
class PlayStratagem(TypedAction):
    """A Stratagem marker played where a question offers it (8.41; 11.3 names the
    Leader marker's ``use``, ``"gain"`` or ``"remove"``)."""

    KIND: ClassVar[str] = "play-stratagem"
    RULES: ClassVar[tuple[str, ...]] = ("8.41", "17.74", "10.3", "11.3")
    DOMAIN: ClassVar[str] = "play"
    TEXT: ClassVar[str] = "Play {marker}{use}"
    marker: str
    use: str = ""


# Unit types and purchases.


@attrs.frozen
class LevyUnit(TypedAction):
    """Levy (11.11): the Region levies a unit of type ``unit_type``."""

    KIND: ClassVar[str] = "levy-unit"
    RULES: ClassVar[tuple[str, ...]] = ("11.11",)
    DOMAIN: ClassVar[str] = "unit-type"
    TEXT: ClassVar[str] = "Levy a {unit_type}"
    unit_type: str


@attrs.frozen
class MigrantType(TypedAction):
    """Barbarian Migrations (11.4): the next migrant is a ``unit_type``."""

    KIND: ClassVar[str] = "migrant-type"
    RULES: ClassVar[tuple[str, ...]] = ("11.4",)
    DOMAIN: ClassVar[str] = "unit-type"
    TEXT: ClassVar[str] = "The next migrant is a {unit_type}"
    unit_type: str


@attrs.frozen
class Recruit(TypedAction):
    """Recruiting (10.3, 11.2): buy a ``unit_type`` of ``nationality``."""

    KIND: ClassVar[str] = "recruit"
    RULES: ClassVar[tuple[str, ...]] = ("10.3", "11.2")
    DOMAIN: ClassVar[str] = "recruit"
    TEXT: ClassVar[str] = "Recruit a {nationality} {unit_type}"
    nationality: str
    unit_type: str


@attrs.frozen
class OfferSolidus(TypedAction):
    """Negotiations (24.1, 10.37): a term, the proposer pays ``amount`` more."""

    KIND: ClassVar[str] = "offer-solidus"
    RULES: ClassVar[tuple[str, ...]] = ("24.1", "10.37")
    DOMAIN: ClassVar[str] = "amount"
    TEXT: ClassVar[str] = "Offer {amount} more Solidus Points"
    amount: int


@attrs.frozen
class AskSolidus(TypedAction):
    """Negotiations (24.1, 10.37): a term, the other player pays ``amount`` more."""

    KIND: ClassVar[str] = "ask-solidus"
    RULES: ClassVar[tuple[str, ...]] = ("24.1", "10.37")
    DOMAIN: ClassVar[str] = "amount"
    TEXT: ClassVar[str] = "Ask for {amount} more Solidus Points"
    amount: int


@attrs.frozen
class UseTable(TypedAction):
    """Combat (17.6): the attacker fights on the ``table`` (assault or maneuver)."""

    KIND: ClassVar[str] = "use-table"
    RULES: ClassVar[tuple[str, ...]] = ("17.6",)
    DOMAIN: ClassVar[str] = "table"
    TEXT: ClassVar[str] = "Fight on the {table} table"
    table: str


@attrs.frozen
class OpenTerms(TypedAction):
    """Negotiations (24.1): open the sub-menu ``menu`` of terms (markers to give or
    ask for, a Region to restore, a place to leave)."""

    KIND: ClassVar[str] = "open-terms"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    DOMAIN: ClassVar[str] = "menu"
    TEXT: ClassVar[str] = "Add a term: {menu}"
    menu: str


@attrs.frozen
class Finish(TypedAction):
    """Done: the answer that declines, passes, stops or goes on, per ``question``
    (:data:`QUESTIONS` says what it means in each)."""

    KIND: ClassVar[str] = "finish"
    RULES: ClassVar[tuple[str, ...]] = ()
    DOMAIN: ClassVar[str] = "question"
    TEXT: ClassVar[str] = "{question}"
    question: str


# Decisions without a parameter.


@attrs.frozen
class Capitulate(TypedAction):
    """The player turn (3.1): capitulate, ending the game."""

    KIND: ClassVar[str] = "capitulate"
    RULES: ClassVar[tuple[str, ...]] = ("3.1",)
    TEXT: ClassVar[str] = "Capitulate"


@attrs.frozen
class Stand(TypedAction):
    """An attacked stack (17.5) stands."""

    KIND: ClassVar[str] = "stand"
    RULES: ClassVar[tuple[str, ...]] = ("17.5",)
    TEXT: ClassVar[str] = "Stand and fight"


@attrs.frozen
class Withdraw(TypedAction):
    """An attacked stack (17.5) tries to withdraw."""

    KIND: ClassVar[str] = "withdraw"
    RULES: ClassVar[tuple[str, ...]] = ("17.5",)
    TEXT: ClassVar[str] = "Try to withdraw"


@attrs.frozen
class BuyStratagem(TypedAction):
    """Recruiting (10.3): buy a Stratagem marker picked at random from the Pool."""

    KIND: ClassVar[str] = "buy-stratagem"
    RULES: ClassVar[tuple[str, ...]] = ("10.3",)
    TEXT: ClassVar[str] = "Buy a Stratagem marker"


@attrs.frozen
class Pillage(TypedAction):
    """A Special Operation (26.2): the force pillages where it stands."""

    KIND: ClassVar[str] = "pillage"
    RULES: ClassVar[tuple[str, ...]] = ("26.2",)
    TEXT: ClassVar[str] = "Pillage here"


@attrs.frozen
class Colonize(TypedAction):
    """A Special Operation (27.2): the force founds a Colony where it stands."""

    KIND: ClassVar[str] = "colonize"
    RULES: ClassVar[tuple[str, ...]] = ("27.2",)
    TEXT: ClassVar[str] = "Found a Colony here"


@attrs.frozen
class DebarkAll(TypedAction):
    """Fleets (19.54): every passenger lands where the force is."""

    KIND: ClassVar[str] = "debark-all"
    RULES: ClassVar[tuple[str, ...]] = ("19.54",)
    TEXT: ClassVar[str] = "Land every passenger here"


@attrs.frozen
class ReturnMarkersFirst(TypedAction):
    """The hand limit (8.3): return markers to the Pool before picking."""

    KIND: ClassVar[str] = "return-markers-first"
    RULES: ClassVar[tuple[str, ...]] = ("8.3",)
    TEXT: ClassVar[str] = "Return markers to the Pool first"


@attrs.frozen
class Challenge(TypedAction):
    """Personal Combat (33.1): challenge the enemy's Leaders."""

    KIND: ClassVar[str] = "challenge"
    RULES: ClassVar[tuple[str, ...]] = ("33.1",)
    TEXT: ClassVar[str] = "Challenge to Personal Combat"


@attrs.frozen
class AcceptChallenge(TypedAction):
    """Personal Combat (33.1): accept the challenge."""

    KIND: ClassVar[str] = "accept-challenge"
    RULES: ClassVar[tuple[str, ...]] = ("33.1",)
    TEXT: ClassVar[str] = "Accept the challenge"


@attrs.frozen
class MakeOffer(TypedAction):
    """Negotiations (24.1): put the offer built so far to the other player."""

    KIND: ClassVar[str] = "make-offer"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    TEXT: ClassVar[str] = "Make the offer"


@attrs.frozen
class AcceptOffer(TypedAction):
    """Negotiations (24.1, 24.2): accept the offer, a written agreement."""

    KIND: ClassVar[str] = "accept-offer"
    RULES: ClassVar[tuple[str, ...]] = ("24.1", "24.2")
    TEXT: ClassVar[str] = "Accept the offer"


@attrs.frozen
class PromiseNoCombat(TypedAction):
    """Negotiations (24.1): a term, the proposer starts no combat this game turn."""

    KIND: ClassVar[str] = "promise-no-combat"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    TEXT: ClassVar[str] = "Promise to make no attack"


@attrs.frozen
class DemandNoCombat(TypedAction):
    """Negotiations (24.1): a term, the other player starts no combat this game turn."""

    KIND: ClassVar[str] = "demand-no-combat"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    TEXT: ClassVar[str] = "Ask the other player to make no attack"


@attrs.frozen
class ProposeEndGame(TypedAction):
    """Negotiations (24.1): a term, the game ends at once (23.0)."""

    KIND: ClassVar[str] = "propose-end-game"
    RULES: ClassVar[tuple[str, ...]] = ("24.1",)
    TEXT: ClassVar[str] = "Propose to end the game now"


# Records that are never offered: what the other player sees, and chance outcomes.


@attrs.frozen
class HiddenChoice(TypedAction):
    """The other player's choice as a player may see it when it is secret (22.1): a
    marker committed face down, returned unseen, or a step of an offer being built."""

    KIND: ClassVar[str] = "hidden-choice"
    RULES: ClassVar[tuple[str, ...]] = ("22.1",)
    TEXT: ClassVar[str] = "A hidden choice"


@attrs.frozen
class DiceRoll(TypedAction):
    """Chance: the dice a request asks for show ``faces``, the tens die first (6.1); a
    record, not numbered in the space (the rule is that of the roll's request)."""

    KIND: ClassVar[str] = "dice-roll"
    RULES: ClassVar[tuple[str, ...]] = ()
    TEXT: ClassVar[str] = "The dice show {faces}"
    faces: tuple[int, ...]


@attrs.frozen
class DrawMarker(TypedAction):
    """Chance (8.1, 8.51): a marker of type ``marker`` is picked at random (``"hidden"``
    when the player may not see it; not numbered in the space)."""

    KIND: ClassVar[str] = "draw-marker"
    RULES: ClassVar[tuple[str, ...]] = ("8.1", "8.51")
    TEXT: ClassVar[str] = "A {marker} marker is picked at random"
    marker: str


#: The record classes a player's decision may be, in the order of their blocks of
#: numbers in the action space (append only: the numbers of a block never move for
#: a given map and components).
VOCABULARY: tuple[type[TypedAction], ...] = (
    Finish,
    Capitulate,
    Stand,
    Withdraw,
    BuyStratagem,
    Pillage,
    Colonize,
    DebarkAll,
    ReturnMarkersFirst,
    Challenge,
    AcceptChallenge,
    MakeOffer,
    AcceptOffer,
    PromiseNoCombat,
    DemandNoCombat,
    ProposeEndGame,
    UseTable,
    PlayStratagem,
    OpenTerms,
    OfferSolidus,
    AskSolidus,
    LevyUnit,
    MigrantType,
    Recruit,
    CommitMarker,
    ReturnMarker,
    OfferMarker,
    AskMarker,
    HandOverMarker,
    CollectTaxes,
    RaiseTaxes,
    DiplomacyOnRegion,
    MigrantsFrom,
    RegionResists,
    ProposeNeutral,
    PromiseLeaveRegion,
    DemandLeaveRegion,
    LeaveOut,
    DropOff,
    Embark,
    DebarkOne,
    JoinForce,
    LoseCounter,
    RollOffWith,
    NameChampion,
    AttritionElimination,
    Disband,
    ChooseToDisband,
    RallyCounter,
    BringLeader,
    RemoveEnemyLeader,
    DeployCounter,
    PlaceLevy,
    PlaceRecruit,
    PlaceRallied,
    PlaceMigrant,
    PlaceLeader,
    OperateForce,
    OperateFleet,
    ForcedMarch,
    ForcedMarchFleet,
    React,
    ReactFleet,
    MoveForce,
    RetreatTo,
    Attack,
    RestoreGuard,
    GuardMutiny,
    DiplomacyOnGuard,
    RemovePillage,
    BuildPublicWorks,
    PromiseLeaveHex,
    DemandLeaveHex,
)
#: Every record class, those never offered as a decision included.
_ALL: tuple[type[TypedAction], ...] = (*VOCABULARY, HiddenChoice, DiceRoll, DrawMarker)
_BY_KIND: dict[str, type[TypedAction]] = {cls.KIND: cls for cls in _ALL}


#: What Done means in each question that offers it: key, the rule asking, and words.
QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("play-on", "3.1", "Play on (do not capitulate)"),
    ("end-diplomacy", "9.1", "End the Diplomacy Phase"),
    ("stop-committing", "9.1", "Commit no more markers"),
    ("stop-defending", "9.4", "Commit no more defending markers"),
    ("end-taxes", "10.2", "Done with taxes"),
    ("no-currency-reform", "8.41", "Do not play Currency Reform"),
    ("no-legal-reforms", "8.41", "Do not play Legal Reforms"),
    ("end-spending", "10.3", "Done spending"),
    ("stop-levying", "11.11", "Stop levying in this Region"),
    ("no-leader-marker", "11.3", "Play no Leader marker"),
    ("restore-no-guard", "12.31", "Restore no Guard stack"),
    ("go-with-force", "13.21", "Go with this force"),
    ("sail-with-fleet", "19.5", "Sail with this fleet force"),
    ("end-operations", "14.1", "End the Operations Phase"),
    ("stop-force", "16.1", "Stop the force here"),
    ("no-more-joiners", "16.73", "Go on without adding counters"),
    ("stop-retreat", "17.54", "End the retreat here"),
    ("no-military-advantage", "17.74", "Play no Military Advantage"),
    ("pay-forage", "20.2", "Pay the forage cost"),
    ("start-disbanding-checks", "30.3", "Make the Disbanding checks"),
    ("pass-negotiation", "24.1", "Pass (or withdraw the offer)"),
    ("back-to-offer", "24.1", "Back to the offer"),
    ("refuse-offer", "24.1", "Refuse the offer"),
    ("no-reaction", "25.1", "Do not react"),
    ("no-challenge", "33.1", "Make no challenge"),
    ("refuse-challenge", "33.1", "Refuse the challenge"),
    ("leave-excess", "8.3", "Leave the excess markers in the Pool"),
)
_QUESTION_TEXT = {key: text for key, _, text in QUESTIONS}
#: The plays of a Stratagem marker a question may offer: marker type and use.
PLAYS: tuple[tuple[str, str], ...] = (
    (MILITARY_ADVANTAGE, ""),
    (LEGAL_REFORMS, ""),
    (CURRENCY_REFORM, ""),
    (IMPERIAL_REGALIA, ""),
    (THEODORA, ""),
    (LEADER_STRATAGEM, "gain"),
    (LEADER_STRATAGEM, "remove"),
)
#: The negotiation sub-menus (24.1).
MENUS: tuple[str, ...] = (GIVE_MARKER, ASK_MARKER, NEUTRAL, I_LEAVE, YOU_LEAVE)


# -- the domains of the parameters ----------------------------------------------------------


@attrs.frozen
class Block:
    """One record class's numbers: ``size`` numbers from ``start``, one per value."""

    cls: type[TypedAction]
    start: int
    values: tuple[tuple[str | int, ...], ...]
    index: dict[tuple[str | int, ...], int] = attrs.field(eq=False, repr=False)

    @property
    def size(self) -> int:
        """How many numbers the block holds."""
        return len(self.values)


def domain_values(cat: Catalog, domain: str) -> tuple[tuple[str | int, ...], ...]:
    """Every value a parameter of ``domain`` may take, in a fixed order derived from the
    catalogue (map and components): locations are the Peripheral Area boxes (1-4) and
    then the map's hexes in increasing number; counters in catalogue order; Regions in
    the map file's order; markers in the components' order."""
    if domain == "":
        return ((),)
    if domain == "location":
        return tuple((w,) for w in (*range(1, len(cat.peripherals) + 1), *sorted(cat.map.hexes())))
    if domain == "counter":
        return tuple((c.id,) for c in cat.counters)
    if domain == "region":
        return tuple((r.name,) for r in cat.regions)
    if domain == "marker":
        return tuple((s,) for s in cat.stratagem_ids)
    if domain == "asked-marker":
        return tuple((s,) for s in (ANY, *cat.stratagem_ids))
    if domain == "play":
        return PLAYS
    if domain == "unit-type":
        return tuple((k.value,) for k in UnitKind)
    if domain == "recruit":
        return tuple(sorted({(c.nationality, c.kind.value) for c in cat.counters}))
    if domain == "amount":
        return tuple((n,) for n in SOLIDUS_STEPS)
    if domain == "table":
        return tuple((t.value,) for t in CombatTable)
    if domain == "menu":
        return tuple((m,) for m in MENUS)
    if domain == "question":
        return tuple((key,) for key, _, _ in QUESTIONS)
    raise ValueError(f"no domain {domain!r}")  # pragma: no cover - a vocabulary slip


@per_catalog
def blocks(cat: Catalog) -> tuple[Block, ...]:
    """The blocks of numbers of :data:`VOCABULARY`, one after the other."""
    found: list[Block] = []
    start = 0
    for cls in VOCABULARY:
        values = domain_values(cat, cls.DOMAIN)
        found.append(Block(cls, start, values, {v: i for i, v in enumerate(values)}))
        start += len(values)
    return tuple(found)


#: The position of each record class's block.
_POSITION: dict[type[TypedAction], int] = {cls: i for i, cls in enumerate(VOCABULARY)}


# -- classification of the engine's actions --------------------------------------------------


def _where_and_fleet(label: str) -> tuple[int, bool]:
    """A force label of the Operations menus: ``"3623"`` or ``"fleet 3623"``."""
    if label.startswith(FLEET):
        return int(label.removeprefix(FLEET)), True
    return int(label), False


def _done(request: Request) -> Finish:
    task = request.task
    rule = request.rule
    if isinstance(task, PlayerTurn):
        return Finish("play-on")
    if isinstance(task, DiplomacyPhase):
        return Finish("end-diplomacy")
    if isinstance(task, DiplomacyAttempt):
        return Finish("stop-defending" if rule == "9.4" else "stop-committing")
    if isinstance(task, TaxationPhase):
        return Finish("no-currency-reform" if rule == "8.41" else "end-taxes")
    if isinstance(task, LegalReformsOffer):
        return Finish("no-legal-reforms")
    if isinstance(task, RecruitingPhase):
        return Finish("end-spending")
    if isinstance(task, LevyPhase):
        return Finish("no-leader-marker" if rule == "11.3" else "stop-levying")
    if isinstance(task, TroopsRallyEvent):
        return Finish("restore-no-guard")
    if isinstance(task, OperationsPhase):
        question = {
            "13.21": "go-with-force",
            "19.5": "sail-with-fleet",
            "14.1": "end-operations",
            "16.1": "stop-force",
            "16.73": "no-more-joiners",
            "25.1": "no-reaction",
        }.get(rule)
        if question is not None:
            return Finish(question)
    if isinstance(task, Retreat):
        return Finish("stop-retreat")
    if isinstance(task, Battle):
        return Finish("no-military-advantage")
    if isinstance(task, ProvisioningPhase):
        return Finish("start-disbanding-checks" if rule == "30.3" else "pay-forage")
    if isinstance(task, Negotiations):
        question = {"propose": "pass-negotiation", "terms": "back-to-offer"}.get(task.stage)
        return Finish(question or "refuse-offer")
    if isinstance(task, PersonalCombat):
        return Finish("refuse-challenge" if task.stage == "answer" else "no-challenge")
    if isinstance(task, PickStratagems):
        return Finish("leave-excess")
    raise UnknownActionError(f"rule {rule}: no typed record for Done here")


def _place(request: Request, where: int) -> TypedAction:
    task = request.task
    if isinstance(task, Deploy):
        return DeployCounter(where)
    if isinstance(task, LevyPhase):
        return PlaceLevy(where) if request.rule == "11.12" else PlaceLeader(where)
    if isinstance(task, RecruitingPhase):
        return PlaceRecruit(where)
    if isinstance(task, ForcesRallyEvent):
        return PlaceRallied(where)
    if isinstance(task, MigrantPlacement):
        return PlaceMigrant(where)
    if isinstance(task, LeaderArisesEvent):
        return PlaceLeader(where)
    if isinstance(task, OperationsPhase):
        return MoveForce(where)
    if isinstance(task, Retreat):
        return RetreatTo(where)
    raise UnknownActionError(f"rule {request.rule}: no typed record for a place here")


def _operations_item(request: Request, item: str) -> TypedAction:
    rule = request.rule
    if rule == "14.1":
        if item.startswith(FORCED_ITEM):
            where, fleet = _where_and_fleet(item.removeprefix(FORCED_ITEM))
            return ForcedMarchFleet(where) if fleet else ForcedMarch(where)
        if item.startswith(FLEET):
            return OperateFleet(int(item.removeprefix(FLEET)))
        return OperateForce(int(item.removeprefix("force ")))
    if rule == "25.1":
        where, fleet = _where_and_fleet(item.removeprefix(REACT))
        return ReactFleet(where) if fleet else React(where)
    if rule in ("13.21", "19.5"):
        if item.startswith(EMBARK):
            return Embark(item.removeprefix(EMBARK))
        return LeaveOut(item.removeprefix(DROP_ITEM))
    if rule == "16.73":
        return JoinForce(item.removeprefix("join "))
    if item.startswith(DROP_ITEM):
        return DropOff(item.removeprefix(DROP_ITEM))
    if item == DEBARK:
        return DebarkAll()
    if item.startswith(f"{DEBARK} "):
        return DebarkOne(item.removeprefix(f"{DEBARK} "))
    if item == PILLAGE:
        return Pillage()
    if item == COLONIZE:
        return Colonize()
    if item.startswith("attack "):
        return Attack(int(item.removeprefix("attack ")))
    raise UnknownActionError(f"rule {rule}: no typed record for {item!r}")


def _negotiation_item(task: Negotiations, item: str) -> TypedAction:
    if task.stage == "answer":
        if item == ACCEPT:
            return AcceptOffer()
    elif task.stage == "hand over":
        return HandOverMarker(item)
    elif task.stage == "terms":
        menu = task.menu
        if menu == GIVE_MARKER:
            return OfferMarker(item)
        if menu == ASK_MARKER:
            return AskMarker(item)
        if menu == NEUTRAL:
            return ProposeNeutral(item)
        leave_hex = item.startswith("hex ")
        place = item.removeprefix("hex ") if leave_hex else item.removeprefix("region ")
        if menu == I_LEAVE:
            return PromiseLeaveHex(int(place)) if leave_hex else PromiseLeaveRegion(place)
        if menu == YOU_LEAVE:
            return DemandLeaveHex(int(place)) if leave_hex else DemandLeaveRegion(place)
    else:
        return _proposal_item(item)
    raise UnknownActionError(f"rule 24.1: no typed record for {item!r}")


def _proposal_item(item: str) -> TypedAction:
    if item == OFFER:
        return MakeOffer()
    if item == I_HOLD:
        return PromiseNoCombat()
    if item == YOU_HOLD:
        return DemandNoCombat()
    if item == END_GAME:
        return ProposeEndGame()
    if item in MENUS:
        return OpenTerms(item)
    verb, _, rest = item.partition(" ")
    amount = rest.removesuffix(" solidus")
    if verb in ("give", "ask") and amount.isdigit():
        return OfferSolidus(int(amount)) if verb == "give" else AskSolidus(int(amount))
    raise UnknownActionError(f"rule 24.1: no typed record for {item!r}")


def _select(request: Request, item: str) -> TypedAction:
    task = request.task
    rule = request.rule
    if item == HIDDEN:
        return HiddenChoice()
    if isinstance(task, PlayerTurn) and item == CAPITULATE:
        return Capitulate()
    if isinstance(task, OperationsPhase):
        return _operations_item(request, item)
    if isinstance(task, Battle):
        if rule == "17.5":
            return Stand() if item == "stand" else Withdraw()
        if item.startswith(ROLL_OFF_ITEM):
            return RollOffWith(item.removeprefix(ROLL_OFF_ITEM))
        if rule == "17.6":
            return UseTable(item)
        if rule == "17.74":
            return PlayStratagem(MILITARY_ADVANTAGE)
    if isinstance(task, LoseCounters):
        return LoseCounter(item.removeprefix("lose "))
    if isinstance(task, Negotiations):
        return _negotiation_item(task, item)
    if isinstance(task, DiplomacyPhase):
        kind, _, rest = item.partition(" ")
        return DiplomacyOnGuard(int(rest)) if kind == "guard" else DiplomacyOnRegion(rest)
    if isinstance(task, DiplomacyAttempt):
        return CommitMarker(item)
    if isinstance(task, TaxationPhase):
        if item == PLAY_REFORM:
            return PlayStratagem(CURRENCY_REFORM)
        if item.startswith(RAISE):
            return RaiseTaxes(item.removeprefix(RAISE))
        return CollectTaxes(item.removeprefix(TAX))
    if isinstance(task, LegalReformsOffer):
        return PlayStratagem(LEGAL_REFORMS)
    if isinstance(task, RecruitingPhase):
        return _recruiting_item(item)
    if isinstance(task, LevyPhase):
        if rule == "11.11":
            return LevyUnit(item)
        if item in (GAIN_LEADER, REMOVE_LEADER):
            return PlayStratagem(LEADER_STRATAGEM, "gain" if item == GAIN_LEADER else "remove")
        return BringLeader(item) if rule == "21.2" else RemoveEnemyLeader(item)
    if isinstance(task, ForcesRallyEvent):
        if item.startswith(RESTORE):
            return RestoreGuard(int(item.removeprefix(RESTORE)))
        return RallyCounter(item)
    if isinstance(task, TroopsRallyEvent):
        return RestoreGuard(int(item))
    if isinstance(task, GuardMutinyEvent):
        return GuardMutiny(int(item))
    if isinstance(task, MigrationEvent):
        return MigrantsFrom(item)
    if isinstance(task, MigrantPlacement):
        return MigrantType(item)
    if isinstance(task, RegionResistsEvent):
        return RegionResists(item)
    if isinstance(task, LeaderArisesEvent):
        return BringLeader(item)
    if isinstance(task, AttritionLoss):
        return AttritionElimination(item)
    if isinstance(task, ProvisioningPhase | DisbandingCheck):
        return ChooseToDisband(item) if rule == "30.3" else Disband(item)
    if isinstance(task, PersonalCombat):
        if item == CHALLENGE_ITEM:
            return Challenge()
        if item == ACCEPT_ITEM:
            return AcceptChallenge()
        return NameChampion(item.removeprefix(CHAMPION_PREFIX))
    if isinstance(task, PickStratagems):
        return ReturnMarkersFirst()
    if isinstance(task, ReturnStratagem):
        return ReturnMarker(item)
    raise UnknownActionError(f"rule {rule}: no typed record for {item!r}")


def _recruiting_item(item: str) -> TypedAction:
    if item == BUY:
        return BuyStratagem()
    if item.startswith(UNPILLAGE):
        return RemovePillage(int(item.removeprefix(UNPILLAGE)))
    if item.startswith(WORKS):
        return BuildPublicWorks(int(item.removeprefix(WORKS)))
    if item.startswith(PLAY):
        return PlayStratagem(item.removeprefix(PLAY))
    nationality, _, kind = item.removeprefix(RECRUIT).partition(" ")
    if not kind:
        raise UnknownActionError(f"rule 10.3: no typed record for {item!r}")
    return Recruit(nationality, kind)


def classify(state: BelState, action: BelAction) -> TypedAction:
    """The record of ``action`` answering the request of ``state``.

    Raises :class:`UnknownActionError` for an action no record stands for (none the
    engine offers: the tests classify every legal action of many games).
    """
    request = state.pending
    if request is None:
        raise UnknownActionError("the game waits for nothing")
    match action:
        case Roll(dice):
            return DiceRoll(dice)
        case Draw(stratagem):
            return DrawMarker(stratagem)
    if request.kind is not RequestKind.CHOOSE:
        raise UnknownActionError(f"rule {request.rule}: chance decides here")
    match action:
        case Done():
            return _done(request)
        case Place(where):
            return _place(request, where)
        case Select(item):
            return _select(request, item)
    raise UnknownActionError(f"no typed record for {action!r}")  # pragma: no cover


def engine_action(game: Belisarius, state: BelState, record: TypedAction) -> BelAction:
    """The legal action of ``state`` whose record is ``record`` (chance outcomes
    included). Raises :class:`~byzantium.core.errors.IllegalActionError`, naming the
    rule of the question, when none is."""
    for action in game.legal_actions(state):
        if classify(state, action) == record:
            return action
    raise IllegalActionError(
        game.decision_rule(state),
        f"{describe(game.catalog, record)} is not possible here",
        game=game.ID,
    )


def visible_typed_action(
    game: Belisarius, state: BelState, action: BelAction, player: int
) -> TypedAction | None:
    """The record of ``action`` as ``player`` may see it (22.1): built from
    :meth:`~.game.Belisarius.visible_action`, so a secret choice of the other player
    reads as :class:`HiddenChoice` and a hidden draw as ``DrawMarker("hidden")``."""
    seen = game.visible_action(state, action, player)
    return None if seen is None else classify(state, seen)


# -- words and JSON --------------------------------------------------------------------------


def _name_of(cat: Catalog, field: str, value: str | int | tuple[int, ...]) -> str:
    if isinstance(value, tuple):
        return " ".join(map(str, value))
    if field in ("where", "target") and isinstance(value, int):
        return place_name(cat, value) if value < FIRST_HEX or value in cat.map else str(value)
    if field == "unit" and isinstance(value, str):
        index = cat.counter_index.get(value)
        return value if index is None else unit_name(cat, index)
    if field == "marker" and isinstance(value, str):
        names = {s.id: s.name for s in cat.components.stratagems}
        return "a marker of his choice" if value == ANY else names.get(value, value)
    if field == "unit_type" and isinstance(value, str):
        kinds = {k.value: t.name for k, t in cat.unit_types.items()}
        return kinds.get(value, value)
    if field == "nationality" and isinstance(value, str):
        nations = {n.id: n.name for n in cat.components.nationalities}
        return nations.get(value, value.title())
    if field == "use" and isinstance(value, str):
        return {"gain": " to gain a Leader", "remove": " to remove an enemy Leader"}.get(value, "")
    if field == "question" and isinstance(value, str):
        return _QUESTION_TEXT.get(value, value)
    if field == "table" and isinstance(value, str):
        return value.title()
    return str(value)


def describe(cat: Catalog, record: TypedAction) -> str:
    """A record in words for people: places and counters by name (``"Move the force to
    hex 5624 Constantinopolis (capital City, clear, Thracia)"``)."""
    names = {
        field.name: _name_of(cat, field.name, getattr(record, field.name))
        for field in attrs.fields(type(record))
    }
    return record.TEXT.format(**names)


def to_json(record: TypedAction) -> dict[str, JSONValue]:
    """A record's stable JSON form: ``{"kind": KIND, <field>: <value>...}``."""
    data: dict[str, JSONValue] = {"kind": record.KIND}
    for field in attrs.fields(type(record)):
        value = getattr(record, field.name)
        data[field.name] = list(value) if isinstance(value, tuple) else value
    return data


def from_json(data: JSONValue) -> TypedAction:
    """A record from :func:`to_json`'s output; :class:`UnknownActionError` for
    anything else."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise UnknownActionError("a typed action is an object with a 'kind'")
    kind = data["kind"]
    assert isinstance(kind, str)
    cls = _BY_KIND.get(kind)
    if cls is None:
        raise UnknownActionError(f"no typed action of kind {kind!r}")
    fields = attrs.fields(cls)
    names = {f.name for f in fields}
    extra = sorted(set(data) - names - {"kind"})
    if extra:
        raise UnknownActionError(f"a {kind} record has no field {', '.join(extra)}")
    values: dict[str, object] = {}
    for field in fields:
        if field.name not in data:
            if field.default is attrs.NOTHING:
                raise UnknownActionError(f"a {kind} record needs its {field.name}")
            continue
        value = data[field.name]
        wanted = field.type
        if wanted in ("tuple[int, ...]",):
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise UnknownActionError(f"{kind}.{field.name} is a list of integers")
            values[field.name] = tuple(v for v in value if isinstance(v, int))
        elif wanted == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise UnknownActionError(f"{kind}.{field.name} is an integer")
            values[field.name] = value
        else:
            if not isinstance(value, str):
                raise UnknownActionError(f"{kind}.{field.name} is a string")
            values[field.name] = value
    return cls(**values)


# -- the fixed action space ------------------------------------------------------------------


class BelisariusActionSpace(ActionSpace[BelState, BelAction]):
    """Every decision the rules can offer, numbered by record (not by menu position).

    The numbers run in blocks, one per record class of :data:`VOCABULARY` in that
    order; a block holds one number per value of the class's parameter
    (:func:`domain_values`). The numbering derives from the game's catalogue, so it is
    stable for a given map and component files (a user's own map numbers its own
    hexes); :attr:`size` is the sum of the blocks.
    """

    RECORD_TYPE: ClassVar[type] = TypedAction

    def __init__(self, game: Belisarius) -> None:
        super().__init__(game)
        self.catalog = game.catalog
        self.blocks = blocks(game.catalog)
        self._size = sum(b.size for b in self.blocks)
        self._starts = [b.start for b in self.blocks]

    @property
    def size(self) -> int:
        return self._size

    def number(self, record: TypedAction) -> int:
        """The number of a record that may be offered; ValueError for one that never is."""
        cls = type(record)
        position = _POSITION.get(cls)
        if position is None:
            raise UnknownActionError(f"a {cls.KIND} record is never a decision")
        block = self.blocks[position]
        offset = block.index.get(record.value())
        if offset is None:
            raise UnknownActionError(f"{to_json(record)} is outside the action space")
        return block.start + offset

    def record(self, index: int) -> TypedAction:
        """The record a number stands for (the same in every state)."""
        if not 0 <= index < self._size:
            raise IndexError(f"action number {index} is not below {self._size}")
        low, high = 0, len(self._starts) - 1
        while low < high:  # the last block starting at or before index
            middle = (low + high + 1) // 2
            if self._starts[middle] <= index:
                low = middle
            else:
                high = middle - 1
        block = self.blocks[low]
        return block.cls(*block.values[index - block.start])

    def index(self, state: BelState, action: BelAction) -> int:
        return self.number(classify(state, action))

    def indices(self, state: BelState) -> list[int]:
        # the records come from the rules, so number them past the argument checks
        method = type(self).number
        number = getattr(method, "__wrapped__", method)
        return [number(self, classify(state, a)) for a in self.game.legal_actions(state)]

    def label(self, index: int) -> str:
        return describe(self.catalog, self.record(index))

    def ranges(self) -> Iterator[tuple[str, int, int]]:
        """Each record kind with its first number and the number after its last."""
        for block in self.blocks:
            yield block.cls.KIND, block.start, block.start + block.size

    def legal_records(self, state: BelState) -> Sequence[TypedAction]:
        """The records of the legal decisions of ``state``, in the engine's order."""
        return [classify(state, a) for a in self.game.legal_actions(state)]
