"""Secrecy over the wire (22.1): twin games that differ only in one side's hidden
holdings and treasury give the other seat and the spectators the very same bytes.

Each pair of twins is created over HTTP from two saved positions (``state`` in the
create request) with the same seed, both seats held by the test. The side whose
secrets differ (``changed``) plays, in both twins, an action both menus offer; the
other seat (``keeper``) plays the same menu entry in both. At every decision the
keeper's view, the spectator's view, the game list's entries, the first message of a
socket of each, a stale act and an act out of turn must be byte-identical between
the twins once the game ids (and creation times) are put aside.

Where the library itself lets the keeper tell the twins apart (a marker drawn from a
Pool that differs, an examination of the other's hand, 22.1), the comparison stops:
that is the rules' information, not the server's. The library's own fog-of-war
tests (tests/belisarius/test_fog_of_war.py, test_text_per_reader.py) cover that side.
The twins from the set-up on differ in the treasury only, their hands being drawn
alike, and follow whole games; the twins from the middle of a game differ in the
hand too.
"""

from __future__ import annotations

import json
import os
import random
import re

import attrs
import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.observation import BelObservation
from byzantium.belisarius.sequence import CAPITULATE
from byzantium.belisarius.state import BARBARIAN, EMPIRE, PLAYERS, BelState
from byzantium.core.codec import canonical_json, codec_for, loads_json
from byzantium.core.game import SPECTATOR
from byzantium.core.records import state_to_json
from byzantium.server.sessions import Sessions
from tests.belisarius.support import SCENARIOS
from tests.belisarius.test_fog_of_war import played, redeal, starts
from tests.belisarius.test_observation import reask
from tests.server.support import Json, app_client, bearer, wait_until

RULEBOOK = "belisarius"
#: Whole games (some minutes each) or the first DECISIONS decisions of each.
WHOLE = os.environ.get("BYZANTIUM_SERVER_TWINS") == "whole"
DECISIONS = 150
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

_CREATED = re.compile(rb'"created":[-+0-9.eE]+')
_CAPITULATE = {"type": "Select", "item": CAPITULATE}


class Twins:
    """Two games over one client; ``tokens[k][seat]`` holds twin k's seat tokens."""

    def __init__(
        self, client: Json, game: Belisarius, states: tuple[BelState, BelState], seed: int
    ) -> None:
        self.client = client
        self.game = game
        self.sessions: Sessions = client.app.state.sessions
        self.ids: list[str] = []
        self.tokens: list[dict[str, str]] = []
        for state in states:
            body = {
                "game": "belisarius",
                "options": {k: v for k, v in game.options.items() if k != "components"},
                "seats": [{"player": "person"}, {"player": "person"}],
                "seed": seed,
                "state": state_to_json(game, state),
            }
            made = client.post("/api/games", json=body)
            assert made.status_code == 201, made.text
            self.ids.append(made.json()["game_id"])
            self.tokens.append(made.json()["tokens"])

    def same(self, first: bytes, second: bytes) -> bool:
        def plain(content: bytes, twin: int) -> bytes:
            content = content.replace(self.ids[twin].encode(), b"GAME")
            return _CREATED.sub(b'"created":0', content)

        return plain(first, 0) == plain(second, 1)

    def get(self, twin: int, path: str, seat: int | None, **params: Json) -> bytes:
        headers = {} if seat is None else bearer(self.tokens[twin][str(seat)])
        response = self.client.get(
            f"/api/games/{self.ids[twin]}{path}", headers=headers, params=params
        )
        assert response.status_code in (200, 409), response.text
        return bytes(response.content)

    def post(self, twin: int, path: str, seat: int, body: Json) -> tuple[int, bytes]:
        response = self.client.post(
            f"/api/games/{self.ids[twin]}{path}",
            json=body,
            headers=bearer(self.tokens[twin][str(seat)]),
        )
        return response.status_code, bytes(response.content)

    def settle(self) -> None:
        """Wait until both twins wait for a person (the worker draws chance)."""

        def ready() -> bool:
            return all(self.state(k) is not None for k in (0, 1))

        wait_until(ready)

    def state(self, twin: int) -> BelState | None:
        """The twin's state if it waits for a person or is over (None while chance is due)."""
        row = self.sessions.store.get(self.ids[twin])
        assert row is not None
        state = self.game.decode_state(loads_json(row.state))
        if self.game.current_player(state) == -1:  # CHANCE
            return None
        return state

    def socket_hello(self, twin: int, seat: int | None) -> str:
        token = None if seat is None else self.tokens[twin][str(seat)]
        with self.client.websocket_connect(f"/api/games/{self.ids[twin]}/socket") as ws:
            ws.send_text(
                json.dumps({"type": "hello", "token": token, "since": 0, "picture": False})
            )
            return str(ws.receive_text())

    def listed(self, twin: int) -> bytes:
        games = self.client.get("/api/games", params={"limit": 200}).json()["games"]
        (entry,) = [g for g in games if g["game_id"] == self.ids[twin]]
        return json.dumps(entry, sort_keys=True, separators=(",", ":")).encode()


def knows(game: Belisarius, state: BelState, reader: int) -> str:
    """What the library lets ``reader`` know of ``state`` (the ground truth)."""
    return canonical_json(codec_for(BelObservation).encode(game.observation(state, reader)))


def common_action(twins: Twins, seat: int, seq: int, rng: random.Random) -> Json:
    """An action both twins offer ``seat`` (never capitulation), or None."""
    menus = []
    for k in (0, 1):
        view = json.loads(twins.get(k, "/view", seat, picture="false", since=seq))
        menus.append([canonical_json(a["action"]) for a in view["question"]["actions"]])
    offered = set(menus[1])
    common = [a for a in menus[0] if a in offered and loads_json(a) != _CAPITULATE]
    return loads_json(rng.choice(common)) if common else None


def follow(
    twins: Twins, keeper: int, rng: random.Random, *, decisions: int, pictures: int = 3
) -> tuple[int, int, set[str], bool]:
    """Play the twins side by side for ``decisions`` decisions (0: no limit), or on
    to the first Taxation (10.11) if it has not come by then; returns how many
    decisions were played, at how many the keeper's bytes were compared, the rules of
    the spectator's chronicle lines met (to show the comparison met them), and whether
    the game ended.

    The spectator's bytes are compared at every decision; the keeper's wherever the
    library's observation lets him know no more of one twin than of the other (22.1:
    a Diplomacy result may let him examine the other's treasury for a while).
    """
    game = twins.game
    compared = 0
    decided = 0
    rules: set[str] = set()
    since = [0, 0]
    while decisions == 0 or decided < decisions or ("10.11" not in rules and decided < 3000):
        twins.settle()
        found = [twins.state(0), twins.state(1)]
        states = [s for s in found if s is not None]
        assert len(states) == 2
        if knows(game, states[0], SPECTATOR) != knows(game, states[1], SPECTATOR):
            break  # the twins' public play parted (no common action was left)
        tells = knows(game, states[0], keeper) == knows(game, states[1], keeper)
        readers = (keeper, None) if tells else (None,)
        compared += tells
        picture = "true" if decided % 200 == 0 and pictures > 0 else "false"
        if picture == "true":
            pictures -= 1
        for reader in readers:
            views = [twins.get(k, "/view", reader, since=since[k], picture=picture) for k in (0, 1)]
            assert twins.same(*views), f"the {reader} view differs at decision {decided}"
            if reader is None:
                for entry in json.loads(views[0])["chronicle"]:
                    text = "\n".join(entry["lines"])
                    rules.update(re.findall(r"^\[(\d+(?:\.\d+)*)\]", text, re.M))
        infos = [twins.get(k, "", None) for k in (0, 1)]
        assert twins.same(*infos)
        info = json.loads(infos[0])
        if decided % 50 == 0:
            for reader in readers:
                hellos = [twins.socket_hello(k, reader).encode() for k in (0, 1)]
                assert twins.same(*hellos)
            assert twins.same(twins.listed(0), twins.listed(1))
        if info["status"] == "over":
            return decided, compared, rules, True
        seq = info["seq"]
        since = [seq, seq]
        asked = info["to_act"]
        if decided % 10 == 0:
            stale = [twins.post(k, "/act", keeper, {"seq": seq - 1, "index": 0}) for k in (0, 1)]
            assert stale[0][0] == 409 and twins.same(stale[0][1], stale[1][1])
            if asked != keeper:
                wrong = [twins.post(k, "/act", keeper, {"seq": seq, "index": 0}) for k in (0, 1)]
                assert wrong[0][0] == 403 and twins.same(wrong[0][1], wrong[1][1])
        action = common_action(twins, asked, seq, rng)
        if action is None:
            break
        acts = [twins.post(k, "/act", asked, {"seq": seq, "action": action}) for k in (0, 1)]
        assert acts[0][0] == acts[1][0] == 200, acts[0][1]
        if asked == keeper:
            chosen = game.decode_action(action)
            after = [game.apply(state, chosen) for state in states]
            if knows(game, after[0], keeper) == knows(game, after[1], keeper):
                assert twins.same(acts[0][1], acts[1][1]), f"the act's answer differs at {decided}"
        decided += 1
    return decided, compared, rules, False


def set_up_twins(scenario: int, changed: int) -> tuple[Belisarius, tuple[BelState, BelState]]:
    """The scenario's opening position and its twin whose ``changed`` side is richer."""
    from byzantium.core.registry import load_game

    game = load_game("belisarius", scenario=scenario, capitulation=False)
    state = game.initial_state()
    solidus = list(state.solidus)
    solidus[changed] += 17
    twin = attrs.evolve(state, solidus=(solidus[0], solidus[1]))
    return game, (state, twin)


@pytest.mark.rule("22.1", "10.11", "6.2", game="belisarius")
@pytest.mark.parametrize(("scenario", "changed"), [(1, EMPIRE), (2, BARBARIAN), (3, EMPIRE)])
def test_twins_from_the_set_up_give_the_same_bytes_through_whole_games(
    scenario: int, changed: int
) -> None:
    """Whole games with ``BYZANTIUM_SERVER_TWINS=whole`` (tox -e server); otherwise the
    first :data:`DECISIONS` decisions, through the set-up and into the game turns."""
    game, states = set_up_twins(scenario, changed)
    with app_client() as client:
        twins = Twins(client, game, states, seed=100 + scenario)
        decided, compared, rules, over = follow(
            twins, 1 - changed, random.Random(scenario), decisions=0 if WHOLE else DECISIONS
        )
    assert "10.11" in rules  # a Taxation, which tells a treasury to its owner only
    if WHOLE:
        assert over, f"the twins parted after {decided} decisions"
    assert decided >= DECISIONS
    assert compared >= DECISIONS // 4


@pytest.mark.rule("22.1", game="belisarius")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_twins_from_the_middle_of_a_game_differ_in_hand_and_treasury(scenario: int) -> None:
    from tests.belisarius.test_fog_of_war import game_of

    game = game_of(scenario, "off")
    steps, final = played(scenario, "off", 0)
    rng = random.Random(scenario)
    longest = 0
    for keeper in PLAYERS:
        candidates = [i for i in starts(steps, keeper) if steps[i][0].turn >= 1]
        begin = candidates[len(candidates) // 3]
        state = steps[begin][0]
        twin = redeal(steps, final, begin, keeper, rng)
        if twin.pending is not None:
            twin = reask(game, twin)
        assert (
            twin.stratagems.hands[1 - keeper] != state.stratagems.hands[1 - keeper]
            or twin.solidus != state.solidus
        )
        with app_client() as client:
            twins = Twins(client, game, (state, twin), seed=7)
            _, compared, _, _ = follow(
                twins, keeper, random.Random(keeper), decisions=150, pictures=1
            )
        longest = max(longest, compared)
    assert longest >= 10
