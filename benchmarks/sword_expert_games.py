"""Sword of Orthodoxy expert games for the evidence file: the budget curve and the last stands.

``python -m benchmarks.sword_expert_games --scenario campaign --budgets 0,300,1200
--seeds 0-29 --jobs 2 --out FILE.jsonl`` plays the expert (one policy object per
game, ``byzantium:<seed>:chance`` dice, so the same seed is the same game as
``byzantium play --seed``) and writes one JSON line per game as it finishes:
survival, end Turn, cause, CPU seconds, transitions per decision, the Factions
lost by rule, the Sieges withstood.

With ``--last-stand R`` every lost game is also examined at its last Byzantine
Action Phase (10.0) before the fall:

* at its first decision, every legal choice valued by the expert's one-step search
  and by the chance of Defeat its evaluation sees (:func:`fall_chance`);
* at its last decision (where the expert ended the phase), every legal choice
  played out ``R`` times to the Action Phase of the next Turn, dice sampled, the
  sensible player answering the questions on the way, play-out ``i`` of every
  choice on the same stream of dice: the share of play-outs that fall, and the
  rules that ended them;
* the position (Factions, Walls, solidus, Schism, each Path's distance to a Siege,
  the chance of its letter in the next chit) and the events from the end of that
  phase to the fall.

``--weights '{"solidus": 8.0}' --label NAME`` plays the expert with those fields
of :class:`~byzantium.sword_of_orthodoxy.expert.Weights` changed (an experiment in
tuning its evaluation); ``--tuning FILE.jsonl...`` then compares every label with
the default weights on the seeds both played, and writes the comparison into the
evidence file (its ``tuning`` table) without touching the rest.

Every game line also carries the check of the expert's model of a Siege: at each
end of an Action Phase, the chance the model gives each Path of a Siege in the next
Barbarian Phase, the Sieges that came and whether the Empire fell;
``--calibration FILE.jsonl...`` gathers them (:func:`calibration`) into the
evidence file (its ``calibration`` table) without touching the rest.

``--results FILE.jsonl...`` puts the default player's games of those files in the
evidence file's ``results`` (:func:`results`) in place of the rows of the same
scenario and budget, dated today, leaving the rest (the budget curve, the last
stands) as it was; ``--curve FILE.jsonl...`` and ``--stands FILE.jsonl...`` replace
the budget curve (:func:`budget_curve`) and the last stands (:func:`last_stands`)
alone in the same way. With any of these, ``--reading`` and ``--commit`` replace
those fields too.

``python -m benchmarks.sword_expert_games --summary FILE.jsonl...`` prints the
per-budget table. The evidence file ``docs/_static/sword-expert-evidence.json`` is
written from these lines by ``--evidence``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path as FilePath

import attrs

from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.core.simulate import wilson_interval
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.expert import (
    Expert,
    Lookups,
    Weights,
    fall_chance,
    siege_chances,
    siege_loss,
)
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import Decline, SooAction, SooState
from byzantium.sword_of_orthodoxy.world import eastern_position

#: Events worth keeping between the last Action Phase and the fall.
_TOLD = ("5.3", "6.1", "7.2", "7.3", "8.3", "8.4", "9.", "10.6.7", "11.3", "11.6", "12.")
_LOST_TEXT = ("go to space", "leaves Constantinople", "Walls go to space")


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += list(range(int(low), int(high or low) + 1))
    return out


def _snapshot(ctx: Context, board: Lookups, state: SooState) -> dict[str, object]:
    where = state.board.where
    city = board.constantinople
    factions = sum(1 for t in board.factions if where[t] == city)
    walls = where[board.walls] == city
    in_mug = [chit for tile, chit in board.chits if where[tile] == board.mug]
    distance: dict[str, int] = {}
    letter: dict[str, float] = {}
    for path in Path:
        if path.western:
            armies = sum(1 for t in board.armies[path] if where[t] == board.zones[path])
            distance[path.letter] = 6 - armies
        else:
            position = eastern_position(ctx, state, path)
            distance[path.letter] = position if position else 9
        hits = sum(1 for chit in in_mug if path in chit.paths)
        letter[path.letter] = round(hits / max(1, len(in_mug)), 2)
    schism = state.board.value[board.schism] if where[board.schism] == board.omnibus else 0
    return {
        "turn": state.turn,
        "factions": factions,
        "walls": walls,
        "solidus": state.board.value[board.solidus],
        "schism": schism,
        "distance": distance,
        "letter_chance": letter,
        "siege_loss": str(siege_loss(factions, walls)),
        "model_fall_chance": round(fall_chance(ctx, state, board=board), 3),
    }


#: How the log begins a Siege roll (12.1), the Path's letter following.
_SIEGE = "Siege from Path "


def _siege_roll(rule: str, text: str) -> bool:
    """Whether an event of the log is a Siege roll (12.1)."""
    return rule == "12.1" and text.startswith(_SIEGE)


def _calibration_row(expert: Expert, state: SooState) -> dict[str, object]:
    """At the end of an Action Phase: each Path's distance to a Siege and the chance
    the expert's model gives it of a Siege before the next Action Phase
    (:func:`siege_chances`), with the model's fall chance; the Sieges that came and
    whether the Empire fell are filled in as the game goes on."""
    ctx, board = expert.ctx, expert.board
    chances = siege_chances(ctx, state, expert.weights, board)
    snap = _snapshot(ctx, board, state)
    return {
        "turn": state.turn,
        "distance": snap["distance"],
        "model": {path.letter: round(chance, 4) for path, chance in chances.items()},
        "model_fall_chance": snap["model_fall_chance"],
        "sieges": [],
        "fell": False,
    }


def play_on(game: SwordOfOrthodoxy, state: SooState, rng: random.Random, turn: int) -> SooState:
    """Play on (dice sampled, the sensible player deciding) to the first decision of
    the Action Phase (10.0) of a Turn after ``turn``, the Turn of the decision
    examined, or to the end of the game.

    The Turn is the decision's, not that of the position after the choice: ending
    the phase goes on into the next Turn before it stops for a die or a draw, and
    counting from there would play that choice out a whole Turn longer than the
    others.
    """
    sensible = game.policies()["sensible"]
    for _ in range(20_000):
        actor = game.current_player(state)
        if actor == TERMINAL:
            return state
        if actor == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            if state.turn > turn and state.pending is not None and state.pending.rule == "10.0":
                return state
            action = sensible(game, state, rng)
        state = game.apply(state, action)
    return state


def _last_stand(
    game: SwordOfOrthodoxy,
    expert: Expert,
    phase: tuple[SooState, SooState],
    then: list[str],
    *,
    seed: int,
    rollouts: int,
) -> dict[str, object]:
    first, last = phase
    ctx, board = expert.ctx, expert.board
    # The first decision of the phase: every choice as the expert's search saw it.
    opening = []
    for action in game.legal_actions(first):
        expert._memo = {}
        expert._left = -1
        child = expert._apply(first, action)
        value = expert._value(child, 0)
        opening.append(
            {
                "choice": _name(game, first, action),
                "value": round(value, 1),
                "model_fall_chance": round(_mean_fall(game, expert, child), 3),
            }
        )
    opening.sort(key=lambda c: -float(str(c["value"])))
    # The last decision: every choice played out to the Action Phase of the next Turn.
    # Play-out i of every choice draws from the same stream, so that the choices are
    # compared on the same dice for as long as their games run alike.
    closing = []
    for action in game.legal_actions(last):
        child = game.apply(last, action)
        falls = 0
        rules: Counter[str] = Counter()
        for i in range(rollouts):
            rng = random.Random(f"last-stand:{seed}:{i}")
            end = play_on(game, child, rng, last.turn)
            result = game.result(end) if game.current_player(end) == TERMINAL else None
            if result is not None and not result.winners:
                falls += 1
                rules[result.rule] += 1
        low, high = _wilson(falls, rollouts)
        closing.append(
            {
                "choice": _name(game, last, action),
                "falls": falls,
                "rollouts": rollouts,
                "fall_rate": round(falls / rollouts, 3),
                "wilson95": [round(low, 3), round(high, 3)],
                "by_rule": dict(rules.most_common()),
            }
        )
    closing.sort(key=lambda c: float(str(c["fall_rate"])))
    return {
        "first_decision": _snapshot(ctx, board, first) | {"choices": opening},
        "last_decision": _snapshot(ctx, board, last) | {"choices": closing},
        "then": then[:40],
    }


def _mean_fall(game: SwordOfOrthodoxy, expert: Expert, state: SooState, run: int = 0) -> float:
    """:func:`fall_chance` averaged over the dice right after a choice (two at most)."""
    actor = game.current_player(state)
    if actor == TERMINAL:
        return 0.0 if game.result(state).winners else 1.0
    if actor == CHANCE and run < 2:
        outcomes = game.chance_outcomes(state)
        if len(outcomes) <= 6:
            return sum(
                float(p) * _mean_fall(game, expert, game.apply(state, o), run + 1)
                for o, p in outcomes
            )
    return fall_chance(expert.ctx, state, expert.weights, expert.board)


def _name(game: SwordOfOrthodoxy, state: SooState, action: SooAction) -> str:
    return game.describe_choice(state, action)


def _wilson(k: int, n: int) -> tuple[float, float]:
    return wilson_interval(k, n) if n else (0.0, 0.0)


#: A game to play: scenario, budget, seed, last-stand rollouts, and the label and
#: changed fields of the weights (empty: the default weights).
Job = tuple[str, int, int, int, str, dict[str, object]]


def weights_of(changed: dict[str, object]) -> Weights:
    """The default weights with the fields of ``changed`` replaced: numbers, and for
    ``pressure`` a list of four numbers."""
    names = [f.name for f in attrs.fields(Weights)]
    unknown = sorted(set(changed) - set(names))
    if unknown:
        raise ValueError(f"no such weight: {', '.join(unknown)} (known: {', '.join(names)})")
    weights = Weights()
    for name, value in changed.items():
        if name == "pressure":
            if not isinstance(value, list) or len(value) != 4 or not all(map(_number, value)):
                raise ValueError("pressure must be a list of four numbers")
            a, b, c, d = (float(v) for v in value)
            weights = attrs.evolve(weights, pressure=(a, b, c, d))
        elif _number(value):
            assert isinstance(value, int | float)
            # every field but pressure is a float: mypy cannot tell which one ``name`` is
            weights = attrs.evolve(weights, **{name: float(value)})  # type: ignore[arg-type]
        else:
            raise ValueError(f"{name} must be a number, not {value!r}")
    return weights


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def play_one(job: Job) -> dict[str, object]:
    """One expert game (and its last stand if lost and ``rollouts`` > 0)."""
    scenario, budget, seed, rollouts, label, changed = job
    game = SwordOfOrthodoxy({"scenario": scenario})
    expert = Expert(game, budget, weights_of(changed))
    chance_rng = random.Random(f"byzantium:{seed}:chance")
    policy_rng = random.Random(f"byzantium:{seed}:policy")
    state = game.initial_state()
    start = time.process_time()
    decisions = transitions = sieges = 0
    lost: Counter[str] = Counter()
    phase: list[SooState] = []
    last_phase: list[SooState] = []
    then: list[str] = []
    checks: list[dict[str, object]] = []
    check: dict[str, object] | None = None  # the model's chances, the Sieges that came
    while game.current_player(state) != TERMINAL:
        if game.current_player(state) == CHANCE:
            action = sample(game.chance_outcomes(state), chance_rng)
        else:
            if state.pending is not None and state.pending.rule == "10.0":
                if phase and phase[-1].turn != state.turn:
                    phase = []
                if not phase:
                    then = []
                phase.append(state)
                last_phase = phase
                if check is not None:
                    checks.append(check)
                    check = None
            action = expert(game, state, policy_rng)
            decisions += 1
            transitions += expert.spent
            pending = state.pending
            if isinstance(action, Decline) and pending is not None and pending.rule == "10.0":
                check = _calibration_row(expert, state)
        step = game.step(state, action)
        besieged = [e.text[len(_SIEGE)] for e in step.events if _siege_roll(e.rule, e.text)]
        if besieged:
            sieges += 1
            if check is not None:
                seen = check["sieges"]
                assert isinstance(seen, list)
                seen += besieged
        for event in step.events:
            if event.kind == "faction" and any(t in event.text for t in _LOST_TEXT):
                lost[event.rule] += 1
            if event.rule.startswith(_TOLD) and last_phase:
                then.append(str(event))
        state = step.state
    cpu = time.process_time() - start
    result = game.result(state)
    if check is not None:
        checks.append(check | {"fell": not result.winners})
    out: dict[str, object] = {
        "scenario": scenario,
        "budget": budget,
        "seed": seed,
        "survived": bool(result.winners),
        "end_turn": state.turn,
        "cause": result.reason,
        "cause_rule": result.rule,
        "cpu_seconds": round(cpu, 2),
        "decisions": decisions,
        "transitions_per_decision": round(transitions / max(1, decisions), 1),
        "factions_lost_by_rule": dict(lost),
        "siege_rolls": sieges,
        "calibration": checks,
    }
    if changed:
        out |= {"label": label, "weights": changed}
    if rollouts and not result.winners and last_phase:
        out["last_stand"] = _last_stand(
            game, expert, (last_phase[0], last_phase[-1]), then, seed=seed, rollouts=rollouts
        )
    return out


def _jobs(args: argparse.Namespace, changed: dict[str, object]) -> Iterator[Job]:
    """Seed by seed, every budget of a seed together (a run cut short stays paired)."""
    examined = set(_seeds(args.last_stand_seeds)) if args.last_stand_seeds else None
    for seed in _seeds(args.seeds):
        for budget in (int(b) for b in args.budgets.split(",")):
            rollouts = args.last_stand if examined is None or seed in examined else 0
            yield (args.scenario, budget, seed, rollouts, args.label, changed)


def summary(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """Per scenario and budget: games, survival with its interval, mean end Turn, CPU."""
    groups: dict[tuple[str, int], list[dict[str, object]]] = {}
    for line in lines:
        groups.setdefault((str(line["scenario"]), int(str(line["budget"]))), []).append(line)
    rows = []
    for (scenario, budget), games in sorted(groups.items()):
        n = len(games)
        k = sum(1 for g in games if g["survived"])
        low, high = _wilson(k, n)
        turns = [int(str(g["end_turn"])) for g in games]
        rows.append(
            {
                "scenario": scenario,
                "budget": budget,
                "games": n,
                "seeds": sorted(int(str(g["seed"])) for g in games),
                "survived": k,
                "survival_rate": round(k / n, 3),
                "survival_wilson95": [round(low, 3), round(high, 3)],
                "mean_end_turn": round(sum(turns) / n, 2),
                "cpu_seconds_per_game": round(
                    sum(float(str(g["cpu_seconds"])) for g in games) / n, 1
                ),
                "transitions_per_decision": round(
                    sum(float(str(g["transitions_per_decision"])) for g in games) / n, 1
                ),
            }
        )
    return rows


def _result(row: dict[str, object], games: list[dict[str, object]]) -> dict[str, object]:
    """A summary row in the evidence file's ``results`` shape (``convert_sword_expert``)."""
    n = len(games)
    seeds = [int(str(g["seed"])) for g in games]
    causes = Counter(str(g["cause"]) for g in games if not g["survived"])
    lost: Counter[str] = Counter()
    for g in games:
        lost.update(_counts(g["factions_lost_by_rule"]))
    return {
        "game": "sword-of-orthodoxy",
        "scenario": row["scenario"],
        "options": {},
        "policy": "expert",
        "budget": row["budget"],
        "games": n,
        "seeds": [min(seeds), max(seeds)],
        "survived": row["survived"],
        "survival_rate": row["survival_rate"],
        "survival_wilson95": row["survival_wilson95"],
        "mean_end_turn": row["mean_end_turn"],
        "end_turns": sorted(int(str(g["end_turn"])) for g in games),
        "mean_victory_points": None,
        "causes_of_defeat": dict(causes.most_common()),
        "factions_lost_per_game_by_rule": {
            rule: round(count / n, 2) for rule, count in sorted(lost.items())
        },
        "sieges_withstood_per_game": round(
            sum(int(str(g["siege_rolls"])) for g in games) / n
            - sum(1 for g in games if str(g["cause_rule"]) == "12.1") / n,
            2,
        ),
        "mean_seconds_per_game": row["cpu_seconds_per_game"],
        "mean_transitions_per_decision": row["transitions_per_decision"],
    }


def prefix(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """Per scenario and budget, the games of consecutive seeds from the first one.

    A run stopped early has its longest games still playing; keeping the seeds up to
    the first one missing, rather than every game that finished, keeps long games
    from being left out.
    """
    once: dict[tuple[object, object, object, str], dict[str, object]] = {}
    for line in lines:  # a game played twice (the same seed, budget and code) counts once
        once.setdefault((line["scenario"], line["budget"], line["seed"], _label(line)), line)
    lines = list(once.values())
    seen: dict[tuple[object, object, str], set[int]] = {}
    for line in lines:
        key = (line["scenario"], line["budget"], _label(line))
        seen.setdefault(key, set()).add(int(str(line["seed"])))
    last: dict[tuple[object, object, str], int] = {}
    for key, seeds in seen.items():
        seed = min(seeds)
        while seed + 1 in seeds:
            seed += 1
        last[key] = seed
    return [
        line
        for line in lines
        if int(str(line["seed"])) <= last[(line["scenario"], line["budget"], _label(line))]
    ]


def _label(line: dict[str, object]) -> str:
    """The weights a game was played with: ``default`` unless changed."""
    return str(line.get("label", DEFAULT)) if line.get("weights") else DEFAULT


#: The label of games played with the default weights.
DEFAULT = "default"


def tuning(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """Every label of changed weights against the default weights, on paired seeds.

    Per scenario, budget and label, the seeds that both the label and the default
    weights played (the same dice up to the first different choice): games,
    survivors and mean end Turn of each, and in how many games the label lasted
    longer, as long, or less long.
    """
    played: dict[tuple[str, int, str], dict[int, dict[str, object]]] = {}
    for line in lines:
        key = (str(line["scenario"]), int(str(line["budget"])), _label(line))
        played.setdefault(key, {})[int(str(line["seed"]))] = line
    rows: list[dict[str, object]] = []
    for (scenario, budget, label), games in sorted(played.items()):
        base = played.get((scenario, budget, DEFAULT))
        if label == DEFAULT or base is None:
            continue
        seeds = sorted(set(games) & set(base))
        if not seeds:
            continue
        mine = [int(str(games[s]["end_turn"])) for s in seeds]
        theirs = [int(str(base[s]["end_turn"])) for s in seeds]
        rows.append(
            {
                "scenario": scenario,
                "budget": budget,
                "label": label,
                "weights": games[seeds[0]]["weights"],
                "games": len(seeds),
                "seed_range": f"{seeds[0]}-{seeds[-1]}",
                "survived": sum(1 for s in seeds if games[s]["survived"]),
                "default_survived": sum(1 for s in seeds if base[s]["survived"]),
                "mean_end_turn": round(sum(mine) / len(seeds), 2),
                "default_mean_end_turn": round(sum(theirs) / len(seeds), 2),
                "longer": sum(1 for a, b in zip(mine, theirs, strict=True) if a > b),
                "as_long": sum(1 for a, b in zip(mine, theirs, strict=True) if a == b),
                "shorter": sum(1 for a, b in zip(mine, theirs, strict=True) if a < b),
            }
        )
    return rows


def calibration(lines: Sequence[dict[str, object]]) -> dict[str, object]:
    """The expert's model of a Siege checked against the games it played.

    Every end of a Byzantine Action Phase (10.0) in ``lines`` is a check: for each
    Path, the chance :func:`~byzantium.sword_of_orthodoxy.expert.siege_chances`
    gave it of a Siege before the next Action Phase, and whether one came; for the
    Empire, the model's fall chance and whether it fell. Grouped by theatre and
    distance to a Siege (advances needed; 4 stands for 4 or more, a Path with no
    Army left out), and for the fall by bands of the model's chance.
    """
    paths: dict[tuple[str, int], list[float]] = {}  # [checks, model sum, Sieges]
    bands: dict[int, list[float]] = {}  # [checks, model sum, falls]
    for line in lines:
        for check in _list(line.get("calibration")):
            row = _dict(check)
            besieged = {str(p) for p in _list(row.get("sieges"))}
            model = _dict(row.get("model"))
            for letter, distance in _dict(row.get("distance")).items():
                if int(str(distance)) > 5:
                    continue
                theatre = "west" if letter in _WESTERN else "east"
                cell = paths.setdefault((theatre, min(int(str(distance)), 4)), [0, 0.0, 0])
                cell[0] += 1
                cell[1] += float(str(model.get(letter, 0.0)))
                cell[2] += letter in besieged
            chance = float(str(row.get("model_fall_chance", 0.0)))
            band = bands.setdefault(min(int(chance * 10), 4), [0, 0.0, 0])
            band[0] += 1
            band[1] += chance
            band[2] += bool(row.get("fell"))
    return {
        "checks": sum(int(b[0]) for b in bands.values()),
        "games": sum(1 for line in lines if _list(line.get("calibration"))),
        "paths": [
            {"theatre": theatre, "distance": distance} | _checked_cell(cell)
            for (theatre, distance), cell in sorted(paths.items())
        ],
        "fall": [
            {"model_from": band / 10, "model_to": (band + 1) / 10 if band < 4 else 1.0}
            | _checked_cell(cell)
            for band, cell in sorted(bands.items())
        ],
    }


def _checked_cell(cell: list[float]) -> dict[str, object]:
    """One row of :func:`calibration` from its ``[checks, model sum, happened]``."""
    n, m, k = int(cell[0]), cell[1], int(cell[2])
    return {
        "checks": n,
        "model": round(m / n, 3),
        "observed": round(k / n, 3),
        "observed_wilson95": [round(x, 3) for x in _wilson(k, n)],
    }


def _checked(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The games whose checks the evidence gathers: the Campaign, the default weights
    and budget."""
    return [
        g
        for g in lines
        if _label(g) == DEFAULT and g["scenario"] == "campaign" and g["budget"] == 0
    ]


#: The letters of the western Paths (the Zones, ΑΒΓ).
_WESTERN = frozenset(path.letter for path in Path if path.western)


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _counts(value: object) -> dict[str, int]:
    return {str(k): int(v) for k, v in value.items()} if isinstance(value, dict) else {}


def results(
    old: Sequence[dict[str, object]], lines: Sequence[dict[str, object]], date: str = ""
) -> list[dict[str, object]]:
    """The evidence file's ``results`` with those of the default player measured in
    ``lines`` in place of the rows of the same scenario and budget (new ones last),
    each new row dated ``date`` if one is given."""
    lines = [line for line in lines if _label(line) == DEFAULT]
    fresh = {}
    for row in summary(lines):
        games = [
            g for g in lines if g["scenario"] == row["scenario"] and g["budget"] == row["budget"]
        ]
        fresh[(row["scenario"], row["budget"])] = _result(row, games) | (
            {"date": date} if date else {}
        )
    found = [fresh.pop((r["scenario"], r["budget"]), r) for r in old]
    return found + list(fresh.values())


#: How the evidence file's games were played and examined (its ``method``).
METHOD = (
    "Each game is played from the scenario's set-up with chance sampled from the "
    "seeded stream byzantium:<seed>:chance (the stream of byzantium play --seed), "
    "so the same seed gives the same dice at every budget up to the first "
    "different choice. 'expert' is byzantium.sword_of_orthodoxy.expert.Expert with "
    "the budget given (transitions of deeper search per decision; 0, the default, "
    "is the one-step exact expectimax). Survival = the Empire still stands when "
    "Turn 27 ends (12.3). Intervals are 95% Wilson score intervals. CPU seconds "
    "are process time on a shared 2-core machine (nice -n 10). Last stands: in "
    "each lost game, the first and the last decision of the last Action Phase "
    "before the fall; at the last, every legal choice is played out to the Action "
    "Phase of the next Turn with sampled dice, the same streams for every choice "
    "(the sensible player answering the questions on the way). Measured with "
    "python -m benchmarks.sword_expert_games."
)


def last_stands(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The evidence file's ``last_stands``: the lost games examined (``--last-stand``)."""
    return [
        {
            "scenario": g["scenario"],
            "budget": g["budget"],
            "seed": g["seed"],
            "end_turn": g["end_turn"],
            "cause": g["cause"],
        }
        | _dict(g["last_stand"])
        for g in lines
        if "last_stand" in g and _label(g) == DEFAULT
    ]


def budget_curve(lines: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The evidence file's ``budget_curve``: per scenario played at several budgets,
    each budget's games on the seeds every budget played."""
    lines = [line for line in lines if _label(line) == DEFAULT]
    curve = []
    for scenario in sorted({str(g["scenario"]) for g in lines}):
        mine = [g for g in lines if g["scenario"] == scenario]
        budgets = {g["budget"] for g in mine}
        if len(budgets) < 2:
            continue
        common = set.intersection(
            *({int(str(g["seed"])) for g in mine if g["budget"] == b} for b in budgets)
        )
        for row in summary([g for g in mine if int(str(g["seed"])) in common]):
            seeds = row["seeds"]
            assert isinstance(seeds, list)
            row["seed_range"] = f"{min(seeds)}-{max(seeds)}"
            curve.append(row)
    return curve


def evidence(lines: Sequence[dict[str, object]], reading: str, commit: str) -> dict[str, object]:
    """The evidence file: results, the budget curve, the last stands and the tuning
    table (games with changed weights count in the tuning table alone)."""
    table = tuning(lines)
    lines = [line for line in lines if _label(line) == DEFAULT]
    return {
        "title": "How hard is Sword of Orthodoxy? The expert's games",
        "commit": commit,
        "method": METHOD,
        "targets_issue_16": {
            "campaign_survival": 0.2,
            "campaign_mean_end_turn": 18,
            "millennium_survival": 0.4,
        },
        "results": results([], lines),
        "budget_curve": budget_curve(lines),
        "last_stands": last_stands(lines),
        "tuning": table,
        "calibration": calibration(_checked(lines)),
        "reading": reading,
    }


def _read(names: Sequence[str]) -> list[dict[str, object]]:
    """The game lines of the files ``names``; a file missing or not JSON lines of
    games ends the program with one line saying so."""
    found = []
    for name in names:
        try:
            for number, text in enumerate(FilePath(name).read_text("utf-8").splitlines(), 1):
                if text.strip():
                    line = json.loads(text)
                    if not isinstance(line, dict) or "seed" not in line:
                        raise ValueError(f"line {number} is not a game")
                    found.append(line)
        except (OSError, UnicodeError, ValueError) as exc:
            raise SystemExit(f"sword_expert_games: {name}: {exc}") from None
    return found


def _dict(value: object) -> dict[str, object]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="campaign")
    parser.add_argument("--budgets", default="0")
    parser.add_argument("--seeds", default="0-29", help="e.g. 0-29 or 0-9,20-29")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--last-stand", type=int, default=0, metavar="R")
    parser.add_argument("--last-stand-seeds", help="examine only these seeds' losses")
    parser.add_argument("--out", help="JSON lines, appended")
    parser.add_argument("--summary", nargs="*", metavar="FILE")
    parser.add_argument("--evidence", nargs="*", metavar="FILE", help="JSON lines to gather")
    parser.add_argument("--reading", default="", help="a file with the reading of the figures")
    parser.add_argument("--commit", default="", help="the commit the games were played with")
    parser.add_argument("--weights", default="{}", help="JSON: fields of Weights to change")
    parser.add_argument("--label", default="", help="the name of the changed weights")
    parser.add_argument(
        "--tuning", nargs="*", metavar="FILE", help="JSON lines: update the tuning table"
    )
    parser.add_argument(
        "--calibration",
        nargs="*",
        metavar="FILE",
        help="JSON lines: update the check of the expert's model of a Siege",
    )
    parser.add_argument(
        "--results",
        nargs="*",
        metavar="FILE",
        help="JSON lines: update the results of the scenarios and budgets they play",
    )
    parser.add_argument(
        "--stands", nargs="*", metavar="FILE", help="JSON lines: update the last stands"
    )
    parser.add_argument(
        "--curve", nargs="*", metavar="FILE", help="JSON lines: update the budget curve"
    )
    args = parser.parse_args(argv)
    target = FilePath("docs/_static/sword-expert-evidence.json")
    updates: dict[str, object] = {}
    if args.tuning is not None:
        updates["tuning"] = tuning(prefix(_read(args.tuning)))
    if args.calibration is not None:
        updates["calibration"] = calibration(_checked(prefix(_read(args.calibration))))
    if args.stands is not None:
        updates["last_stands"] = last_stands(prefix(_read(args.stands)))
    if args.curve is not None:
        updates["budget_curve"] = budget_curve(prefix(_read(args.curve)))
    played = prefix(_read(args.results)) if args.results is not None else None
    if updates or played is not None:  # these tables alone, the rest as it was
        data = json.loads(target.read_text(encoding="utf-8"))
        if played is not None:
            updates["results"] = results(data["results"], played, datetime.date.today().isoformat())
        if args.commit:
            updates["commit"] = args.commit
        if args.reading:
            updates["reading"] = " ".join(FilePath(args.reading).read_text("utf-8").split())
        data.update(updates, method=METHOD)
        target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        return 0
    sources = args.summary if args.summary is not None else args.evidence
    if sources is not None:
        lines = prefix(_read(sources))
        if args.summary is not None:
            for row in summary(lines):
                print(json.dumps(row))
            return 0
        reading = FilePath(args.reading).read_text(encoding="utf-8") if args.reading else ""
        data = evidence(lines, " ".join(reading.split()), args.commit)
        target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        return 0
    try:
        changed = json.loads(args.weights)
        if not isinstance(changed, dict):
            raise ValueError("--weights must be a JSON object")
        weights_of(changed)
    except ValueError as exc:
        parser.error(f"--weights: {exc}")
    if changed and not args.label:
        parser.error("--weights needs a --label to name the changed weights")
    out = open(args.out, "a", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    with Pool(args.jobs) as pool:
        for line in pool.imap_unordered(play_one, list(_jobs(args, changed)), chunksize=1):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
