"""Turn the Sword of Orthodoxy expert's evidence file into ``byzantium-difficulty/1`` runs.

``docs/_static/sword-expert-evidence.json`` holds the expert author's own measurements
(seeds, survival, end Turns, causes of defeat, snapshots before a fall) in a format of
its own; this writes the expert's runs of it as ``docs/_static/difficulty-sword-expert.json``
so that "How hard is each game?" shows them in the same tables as the rest. Run from
the root of a checkout: ``python -m benchmarks.convert_sword_expert``.
"""

import json
import statistics
from collections import Counter
from pathlib import Path

from byzantium.core.simulate import wilson_interval

src = json.loads(Path("docs/_static/sword-expert-evidence.json").read_text(encoding="utf-8"))


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0)
    lo, hi = wilson_interval(k, n)
    return (round(lo, 6), round(hi, 6))


def quart(v):
    q = statistics.quantiles(v, n=4, method="inclusive")
    return [q[0], q[1], q[2]]


runs = []
for r in src["results"]:
    if r["policy"] != "expert":
        continue
    n = r["games"]
    k = r["survived"]
    lo, hi = wilson(k, n)
    turns = r["end_turns"]
    hist = sorted(Counter(turns).items())
    causes = sorted(r["causes_of_defeat"].items(), key=lambda kv: -kv[1])
    seeds = r["seeds"]
    side = {
        "seat": "player 0",
        "policy": "expert",
        "games": n,
        "wins": k,
        "win_rate": {"wins": k, "games": n, "rate": round(k / n, 6), "low": lo, "high": hi},
        "levels": {},
        "scores": None,
        "defeats": {"games": n - k, "causes": [{"cause": c, "games": g} for c, g in causes]},
    }
    runs.append(
        {
            "options": {"scenario": r["scenario"]},
            "seating": {"player 0": "expert"},
            "both_seats": False,
            "games": n,
            "seed": f"the seeds {seeds[0]}-{seeds[1]}"
            + (" (every 5th)" if n < seeds[1] - seeds[0] + 1 else ""),
            "budget": f"expert, budget {r['budget']} transitions of deeper search per decision",
            "seconds": round(r["mean_seconds_per_game"] * n, 1),
            "byzantium": "0.1.0",
            "date": r.get("date", "2026-12-02"),  # the rows before dates were kept
            "command": (
                f"python -m benchmarks.sword_expert_games --scenario {r['scenario']} "
                f"--budgets {r['budget']} --seeds {seeds[0]}-{seeds[1]} (commit {src['commit']}), "
                "then python -m benchmarks.convert_sword_expert; see "
                "docs/_static/sword-expert-evidence.json"
            ),
            "summary": {
                "game": "sword-of-orthodoxy",
                "options": {"scenario": r["scenario"]},
                "policy": "expert",
                "games": n,
                "finished": n,
                "turns": [{"low": t, "high": t, "count": c} for t, c in hist],
                "mean_turn": r["mean_end_turn"],
                "turn_quartiles": quart(turns),
                "seatings": [{"seats": {"player 0": "expert"}, "games": n}],
                "win_rates": {"sides": [side], "seats": [side], "policies": [side]},
            },
        }
    )
out = {
    "schema": "byzantium-difficulty/1",
    "game": "sword-of-orthodoxy",
    "title": "Sword of Orthodoxy: the expert (from docs/_static/sword-expert-evidence.json)",
    "runs": runs,
}
Path("docs/_static/difficulty-sword-expert.json").write_text(
    json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
)
print(len(runs), "runs")
