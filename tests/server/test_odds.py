"""Odds before, result after (issue 39): a chance step's chronicle entry lists its
outcomes with their exact probabilities, the one drawn marked, but only to a reader
who may know the odds (22.1: a draw from the Pool tells something of the other
side's hand; the dice are public)."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest

from byzantium.belisarius.state import RequestKind
from byzantium.core.game import CHANCE, SPECTATOR
from byzantium.core.registry import load_game
from byzantium.server.sessions import Sessions
from byzantium.server.store import SQLiteStore
from tests.server.support import Json

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.rule("22.1", game="belisarius")
def test_chance_steps_carry_their_odds_only_to_readers_who_may_know_them() -> None:
    """Two built-in players play while every reader's view is read again and again:
    each chance entry has odds exactly where the library lets its reader know them;
    a die roll lists six outcomes at 1/6, the one rolled marked; a marker drawn from
    the Pool carries no odds to either seat nor to the spectator."""
    game = load_game("belisarius")
    sessions = Sessions(SQLiteStore(":memory:"))
    rolls = hidden_draws = 0
    checked: set[tuple[int, int | None]] = set()
    try:
        seats = [{"player": "random"}, {"player": "random"}]
        game_id = str(sessions.create({"game": "belisarius", "seats": seats, "seed": 7})["game_id"])
        deadline = time.monotonic() + 120
        # The state before each step and the step's action, replayed from the store.
        state = game.initial_state()
        before: dict[int, Json] = {}
        actions: dict[int, Json] = {}
        while (rolls < 3 or hidden_draws < 2) and time.monotonic() < deadline:
            for seat in (None, 0, 1):
                view: Json = sessions.view_seat(game_id, seat, since=0, picture=False)
                for step in sessions.store.steps(game_id, after=len(before)):
                    before[step.seq] = state
                    actions[step.seq] = game.decode_action(json.loads(step.action))
                    state = game.step(state, actions[step.seq]).state
                reader = SPECTATOR if seat is None else seat
                for entry in view["chronicle"]:
                    if (entry["seq"], seat) in checked:
                        continue
                    checked.add((entry["seq"], seat))
                    at = before[entry["seq"]]
                    if entry["actor"] != CHANCE:
                        assert "odds" not in entry
                        continue
                    if not game.odds_visible(at, reader):
                        assert "odds" not in entry, entry
                        assert at.pending is not None
                        assert at.pending.kind is RequestKind.DRAW
                        hidden_draws += 1
                        continue
                    outcomes = game.chance_outcomes(at)
                    odds = entry["odds"]
                    assert [o["probability"] for o in odds] == [str(p) for _, p in outcomes]
                    assert sum(Fraction(o["probability"]) for o in odds) == 1
                    drawn = [o for o in odds if o.get("drawn")]
                    action = actions[entry["seq"]]
                    if game.visible_action(at, action, reader) == action:
                        assert [o["text"] for o in drawn] == [game.describe_action(at, action)]
                    if len(outcomes) == 6 and at.pending.kind is RequestKind.ROLL:
                        assert [o["probability"] for o in odds] == ["1/6"] * 6
                        assert len(drawn) == 1
                        rolls += 1
            row = sessions.store.get(game_id)
            assert row is not None
            if row.status == "over":
                break
            time.sleep(0.05)
    finally:
        sessions.close()
    assert rolls >= 3
    assert hidden_draws >= 2
