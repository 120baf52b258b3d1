"""The protocol's endpoints (docs/server.rst), through the application's own bytes:
the lobby, acting with its refusals, tokens, pictures, records, the OpenAPI document
and the WebSocket."""

from __future__ import annotations

import base64
import gzip
import io
import json
import sqlite3
from pathlib import Path

import pytest

from byzantium.core.game import SPECTATOR
from byzantium.core.registry import load_game
from byzantium.render import after_setup, layers, stacked, svg
from byzantium.server.sessions import Sessions, token_digest
from tests.server.support import Json, app_client, bearer, settled_view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def new_game(client: Json, **body: Json) -> Json:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def error_of(response: Json, status: int, code: str) -> Json:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) <= {"error", "code", "rule"}
    assert body["code"] == code
    assert isinstance(body["error"], str) and "\n" not in body["error"]
    assert "Traceback" not in response.text
    return body


def test_the_catalogue_offers_both_games_with_their_seats_and_players() -> None:
    with app_client() as client:
        games = {g["game"]: g for g in client.get("/api/catalogue").json()["games"]}
    assert games["belisarius"]["seats"] == ["Empire", "Barbarian"]
    assert games["belisarius"]["scenarios"] == [1, 2, 3]
    assert {"random", "sensible", "expert"} <= set(games["belisarius"]["policies"])
    assert len(games["sword-of-orthodoxy"]["seats"]) == 1
    names = {o["name"] for o in games["belisarius"]["options"]}
    assert "scenario" in names and "components" not in names


def test_create_join_and_list() -> None:
    with app_client() as client:
        game = new_game(
            client,
            game="belisarius",
            options={"scenario": 2},
            seats=[{"player": "person"}, {"player": "open"}],
        )
        assert set(game["tokens"]) == {"0"}
        assert [s["taken"] for s in game["seats"]] == [True, False]
        assert game["options"]["scenario"] == 2 and "scenario 2" in game["options_text"]
        joined = client.post(f"/api/games/{game['game_id']}/join", json={"seat": 1})
        assert joined.status_code == 200
        assert joined.json()["seat"] == 1
        error_of(
            client.post(f"/api/games/{game['game_id']}/join", json={"seat": 1}), 409, "seat-taken"
        )
        error_of(
            client.post(f"/api/games/{game['game_id']}/join", json={"seat": 0}), 409, "seat-taken"
        )
        error_of(
            client.post(f"/api/games/{game['game_id']}/join", json={"seat": 5}), 404, "unknown-seat"
        )
        other = new_game(client, game="sword-of-orthodoxy")
        listed = client.get("/api/games").json()["games"]
        assert [g["game_id"] for g in listed] == [other["game_id"], game["game_id"]]
        assert listed[1]["seats"][1]["taken"] is True
        assert "tokens" not in listed[1]
        assert (
            client.get("/api/games", params={"limit": 1, "offset": 1}).json()["games"][0]["game_id"]
            == game["game_id"]
        )


def test_tokens_are_random_stored_as_digests_and_open_one_seat_of_one_game(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    with app_client(database) as client:
        first = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "person"}]
        )
        second = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "person"}]
        )
        tokens = [*first["tokens"].values(), *second["tokens"].values()]
        assert len(set(tokens)) == 4
        for token in tokens:
            assert len(base64.urlsafe_b64decode(token + "=")) == 32  # 256 bits
        view = settled_view(client, first["game_id"], first["tokens"]["0"], picture="false")
        # Seat 0's token is seat 0 in its own game only.
        assert view["seat"] == 0
        asked = view["to_act"]
        other_game = client.get(
            f"/api/games/{second['game_id']}/view", headers=bearer(first["tokens"]["0"])
        )
        error_of(other_game, 401, "bad-token")
        wrong_seat = first["tokens"][str(1 - asked)]
        refused = client.post(
            f"/api/games/{first['game_id']}/act",
            json={"seq": view["seq"], "index": 0},
            headers=bearer(wrong_seat),
        )
        error_of(refused, 403, "not-your-turn")
    # The database holds digests, never a token.
    raw = sqlite3.connect(database).execute("SELECT token_digest FROM seats").fetchall()
    digests = {row[0] for row in raw}
    assert digests == {token_digest(t) for t in tokens}
    text = database.read_bytes()
    assert not any(t.encode() in text for t in tokens)


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's digest is compared with hmac.compare_digest, whichever matches."""
    import hmac

    compared: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    with app_client() as client:
        game = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "person"}]
        )
        compared.clear()
        client.get(
            f"/api/games/{game['game_id']}/view",
            headers=bearer(game["tokens"]["0"]),
            params={"picture": "false"},
        )
        assert len(compared) == 2  # both seats, though seat 0 matched first
        compared.clear()
        error_of(
            client.get(f"/api/games/{game['game_id']}/view", headers=bearer("x" * 43)),
            401,
            "bad-token",
        )
        assert len(compared) == 2


def play_first_decision(client: Json) -> tuple[Json, str, Json]:
    game = new_game(
        client, game="belisarius", seats=[{"player": "person"}, {"player": "person"}], seed=11
    )
    info = settled_view(client, game["game_id"], None, picture="false")
    token = game["tokens"][str(info["to_act"])]
    view = settled_view(client, game["game_id"], token, picture="false")
    return game, token, view


def test_a_repeated_act_is_stale_and_never_applied_twice() -> None:
    with app_client() as client:
        game, token, view = play_first_decision(client)
        url = f"/api/games/{game['game_id']}/act"
        body = {"seq": view["seq"], "index": 0}
        first = client.post(url, json=body, headers=bearer(token))
        assert first.status_code == 200
        assert first.json()["seq"] == view["seq"] + 1
        again = client.post(url, json=body, headers=bearer(token))
        assert error_of(again, 409, "stale")["error"].startswith("the game is at step")
        older = client.post(url, json={"seq": view["seq"] - 1, "index": 0}, headers=bearer(token))
        error_of(older, 409, "stale")
        sessions: Sessions = client.app.state.sessions  # type: ignore[attr-defined]
        steps = sessions.store.steps(game["game_id"])
        assert [s.seq for s in steps] == list(range(1, len(steps) + 1))
        acted = [s for s in steps if s.seq == view["seq"] + 1]
        assert len(acted) == 1 and acted[0].actor == view["to_act"]


@pytest.mark.rule("34.0", game="belisarius")
def test_an_illegal_action_is_refused_with_its_rule() -> None:
    with app_client() as client:
        game, token, view = play_first_decision(client)
        url = f"/api/games/{game['game_id']}/act"
        wrong = {"type": "Select", "item": "no-such-counter"}
        body = error_of(
            client.post(url, json={"seq": view["seq"], "action": wrong}, headers=bearer(token)),
            422,
            "illegal",
        )
        assert body["rule"] == view["question"]["rule"] == "34.0"
        body = error_of(
            client.post(url, json={"seq": view["seq"], "index": 10**6}, headers=bearer(token)),
            422,
            "illegal",
        )
        assert body["rule"] == "34.0"
        body = error_of(
            client.post(url, json={"seq": view["seq"], "number": 10**6}, headers=bearer(token)),
            422,
            "illegal",
        )
        assert body["rule"]
        error_of(
            client.post(
                url, json={"seq": view["seq"], "action": {"type": "Nope"}}, headers=bearer(token)
            ),
            400,
            "bad-action",
        )
        error_of(client.post(url, json={"seq": view["seq"], "index": 0}), 401, "no-token")
        error_of(
            client.post(
                url, json={"seq": view["seq"], "index": 0}, headers={"Authorization": "Basic x"}
            ),
            401,
            "bad-token",
        )
        # Nothing was applied.
        assert client.get(f"/api/games/{game['game_id']}").json()["seq"] == view["seq"]


def test_acting_by_number_and_by_typed_action() -> None:
    with app_client() as client:
        game, token, view = play_first_decision(client)
        url = f"/api/games/{game['game_id']}/act"
        entry = view["question"]["actions"][-1]
        assert isinstance(entry["number"], int) and entry["text"]
        done = client.post(
            url, json={"seq": view["seq"], "number": entry["number"]}, headers=bearer(token)
        )
        assert done.status_code == 200, done.text
        view = settled_view(client, game["game_id"], token, picture="false")
        if view["to_act"] == done.json()["view"]["seat"]:
            entry = view["question"]["actions"][0]
            typed = client.post(
                url, json={"seq": view["seq"], "action": entry["action"]}, headers=bearer(token)
            )
            assert typed.status_code == 200, typed.text


def test_routing_errors_and_bad_bodies_are_json() -> None:
    with app_client() as client:
        error_of(client.get("/nowhere"), 404, "not-found")
        error_of(client.delete("/api/games"), 405, "method-not-allowed")
        error_of(client.get("/api/games/none"), 404, "unknown-game")
        error_of(client.get("/api/games/none/view"), 404, "unknown-game")
        error_of(
            client.post("/api/games/none/act", json={"seq": 0, "index": 0}), 404, "unknown-game"
        )
        error_of(client.post("/api/games", content=b"{"), 400, "bad-json")
        error_of(client.post("/api/games", content=b""), 400, "bad-json")
        error_of(client.post("/api/games", json=[1]), 400, "bad-request")
        error_of(client.post("/api/games", json={"game": "chess"}), 404, "unknown-game")
        error_of(
            client.post("/api/games", json={"game": "belisarius", "options": {"scenario": 9}}),
            400,
            "bad-option",
        )
        error_of(
            client.post(
                "/api/games", json={"game": "belisarius", "options": {"components": "/etc"}}
            ),
            400,
            "bad-option",
        )
        error_of(
            client.post(
                "/api/games", json={"game": "belisarius", "seats": [{"player": "god"}] * 2}
            ),
            400,
            "bad-request",
        )
        error_of(client.post("/api/games", content=b" " * (300 * 1024)), 413, "too-large")
        error_of(client.get("/api/games", params={"limit": "x"}), 400, "bad-request")
        error_of(client.get("/api/games", params={"limit": "0"}), 400, "bad-request")


def test_responses_are_compressed() -> None:
    with app_client() as client:
        game = new_game(client, game="belisarius")
        response = client.get(
            f"/api/games/{game['game_id']}/board.svg", headers={"Accept-Encoding": "gzip"}
        )
        assert response.headers["content-encoding"] == "gzip"
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert int(response.headers["content-length"]) < len(response.content) / 4


def test_the_picture_is_the_board_and_the_readers_overlay() -> None:
    """board.svg is sent once; each view carries its reader's overlay, which stacked
    on the board draws the very picture of :func:`byzantium.render.svg` (pixel for
    pixel)."""
    cairosvg = pytest.importorskip("cairosvg")
    image = pytest.importorskip("PIL.Image")
    chops = pytest.importorskip("PIL.ImageChops")
    with app_client() as client:
        game = new_game(
            client, game="belisarius", seats=[{"player": "sensible"}, {"player": "person"}], seed=3
        )
        token = game["tokens"]["1"]
        view = settled_view(client, game["game_id"], token)
        board = client.get(view["picture"]["board"]).text
        spectator = settled_view(client, game["game_id"], None)
    assert view["picture"]["board"] == f"/api/games/{game['game_id']}/board.svg"
    assert "As the Barbarian player sees it" in view["picture"]["overlay"]
    assert "As a spectator sees it" in spectator["picture"]["overlay"]
    bel = load_game("belisarius")
    state = after_setup(bel)
    for perspective in (1, SPECTATOR):
        base, overlay = layers(bel, state, perspective)
        assert base == board
        whole = cairosvg.svg2png(bytestring=svg(bel, state, perspective).encode())
        parts = cairosvg.svg2png(bytestring=stacked(base, overlay).encode())
        a = image.open(io.BytesIO(whole)).convert("RGB")
        b = image.open(io.BytesIO(parts)).convert("RGB")
        assert a.size == b.size
        assert chops.difference(a, b).getbbox() is None
        assert len(overlay) < len(board) / 4


def test_overlays_drawn_from_kept_pieces_are_those_drawn_afresh() -> None:
    """The server draws each game's overlays from one store of kept parts: along a
    random game, every reader's overlay drawn so is byte for byte the one drawn alone
    (the spectator too, and whole seasons of steps where stacks move and control
    changes)."""
    from byzantium.core.drivers import play, random_policy
    from byzantium.render.belisarius import Pieces

    bel = load_game("belisarius")
    record = play(bel, random_policy, seed=5, max_steps=400)
    state = bel.initial_state()
    pieces = Pieces()
    compared = 0
    for number, action in enumerate(record.actions):
        state = bel.step(state, action).state
        for reader in (0, 1, SPECTATOR):
            kept = layers(bel, state, reader, pieces=pieces)
            if number % 3 == 0:
                assert kept == layers(bel, state, reader), (number, reader)
                compared += 1
    assert compared > 250
    assert pieces.parts  # the parts were kept, not drawn afresh each time


def test_the_server_keeps_one_store_of_pieces_per_live_game_and_few_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each overlay of a game is drawn with that game's own kept parts (the same object
    every time, another for another game), the stores kept for a bounded number of
    games (the least recently drawn go), and the overlays are those drawn afresh."""
    import byzantium.server.sessions as sessions_module
    from byzantium.server.store import SQLiteStore

    seen: list[tuple[int, object]] = []

    def spy(game: Json, state: Json, reader: Json = None, *, pieces: Json = None) -> Json:
        seen.append((reader, pieces))
        return layers(game, state, reader, pieces=pieces)

    monkeypatch.setattr(sessions_module, "layers", spy)
    sessions = Sessions(SQLiteStore(":memory:"), kept_pieces=2)
    try:
        people = [{"player": "person"}, {"player": "person"}]
        ids = [
            str(sessions.create({"game": "belisarius", "seats": people, "seed": s})["game_id"])
            for s in (1, 2, 3)
        ]
        bel = load_game("belisarius")
        by_game: dict[str, set[int]] = {}
        for game_id in ids:
            for reader in (None, 0, 1):
                before = len(seen)
                view: Json = sessions.view_seat(game_id, reader)
                assert len(seen) == before + 1
                pieces = seen[-1][1]
                assert pieces is not None
                by_game.setdefault(game_id, set()).add(id(pieces))
                row = sessions.store.get(game_id)
                assert row is not None
                state = bel.decode_state(json.loads(row.state))
                if row.seq == view["seq"]:
                    fresh = layers(bel, state, SPECTATOR if reader is None else reader)[1]
                    assert view["picture"]["overlay"] == fresh
        assert all(len(kept) == 1 for kept in by_game.values())
        assert len({next(iter(kept)) for kept in by_game.values()}) == 3
        assert len(sessions._pieces) == 2
        assert ids[0] not in sessions._pieces
    finally:
        sessions.close()


def test_sword_has_no_board_layer() -> None:
    with app_client() as client:
        game = new_game(client, game="sword-of-orthodoxy")
        view = settled_view(client, game["game_id"], game["tokens"]["0"])
        assert view["picture"]["board"] is None
        assert view["picture"]["overlay"].startswith("<svg")
        error_of(client.get(f"/api/games/{game['game_id']}/board.svg"), 404, "no-board")


def test_the_record_is_given_once_the_game_is_over() -> None:
    with app_client() as client:
        # A game waiting for a person is not over (a game of two built-in players may
        # end before the first request: a random player may capitulate at once, 3.1).
        waiting = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "random"}]
        )
        error_of(client.get(f"/api/games/{waiting['game_id']}/record"), 409, "not-over")
        game = new_game(
            client, game="belisarius", seats=[{"player": "random"}, {"player": "random"}], seed=2
        )
        view = settled_view(client, game["game_id"], None, picture="false")
        assert view["status"] == "over"
        record = client.get(f"/api/games/{game['game_id']}/record").json()
    assert record["format"] == "byzantium-record/1"
    assert len(record["steps"]) == view["seq"]
    assert view["result"]["winners"] is not None and view["result"]["text"]


def test_the_openapi_document_validates_and_uses_the_librarys_schemas() -> None:
    from openapi_spec_validator import validate

    with app_client() as client:
        document = client.get("/api/openapi.json").json()
    validate(document)
    schemas = document["components"]["schemas"]
    for game in ("belisarius", "sword_of_orthodoxy"):
        for kind in ("action", "observation", "record"):
            assert f"{game}_{kind}" in schemas
    paths = document["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}/act",
        "/api/games/{game_id}/view",
        "/api/catalogue",
    ):
        assert path in paths


def test_views_validate_against_the_documents_schemas() -> None:
    import jsonschema

    with app_client() as client:
        document = client.get("/api/openapi.json").json()
        game = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "sensible"}], seed=4
        )
        views = [
            settled_view(client, game["game_id"], game["tokens"]["0"], picture="false"),
            settled_view(client, game["game_id"], None, picture="false"),
        ]
    components = document["components"]["schemas"]
    root = {"components": {"schemas": components}}
    for view in views:
        jsonschema.validate(view, {**root, "$ref": "#/components/schemas/View"})
        jsonschema.validate(
            view["observation"], {**root, "$ref": "#/components/schemas/belisarius_observation"}
        )


def socket_views(
    client: Json, game_id: str, token: str | None, count: int, **hello: Json
) -> list[Json]:
    with client.websocket_connect(f"/api/games/{game_id}/socket") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token, "picture": False, **hello}))
        return [json.loads(ws.receive_text()) for _ in range(count)]


def test_a_socket_gets_its_own_view_and_a_push_after_each_change() -> None:
    with app_client() as client:
        game = new_game(
            client, game="belisarius", seats=[{"player": "person"}, {"player": "person"}], seed=5
        )
        gid = game["game_id"]
        first = settled_view(client, gid, None, picture="false")
        asked = first["to_act"]
        token = game["tokens"][str(asked)]
        other = game["tokens"][str(1 - asked)]
        with client.websocket_connect(f"/api/games/{gid}/socket") as watcher:
            watcher.send_text(json.dumps({"type": "hello", "token": other, "picture": False}))
            hello = json.loads(watcher.receive_text())
            assert hello["type"] == "view" and hello["seat"] == 1 - asked
            assert hello["question"] is None
            assert hello["seq"] == first["seq"]
            view = settled_view(client, gid, token, picture="false")
            acted = client.post(
                f"/api/games/{gid}/act",
                json={"seq": view["seq"], "index": 0},
                headers=bearer(token),
            )
            assert acted.status_code == 200
            pushed = json.loads(watcher.receive_text())
            assert pushed["type"] == "view" and pushed["seat"] == 1 - asked
            assert pushed["seq"] > hello["seq"]
            assert pushed["chronicle"][0]["seq"] == hello["seq"] + 1
        spectator = socket_views(client, gid, None, 1)[0]
        assert spectator["seat"] is None and spectator["question"] is None


def test_a_bad_hello_and_a_flood_close_the_socket_others_unaffected() -> None:
    from starlette.websockets import WebSocketDisconnect

    with app_client() as client:
        game = new_game(client, game="sword-of-orthodoxy")
        gid = game["game_id"]
        with client.websocket_connect(f"/api/games/{gid}/socket") as ws:
            ws.send_text("not json")
            said = json.loads(ws.receive_text())
            assert said["type"] == "error" and said["code"] == "bad-hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 1008
        with client.websocket_connect(f"/api/games/{gid}/socket") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "wrong"}))
            assert json.loads(ws.receive_text())["code"] == "bad-token"
        with (
            client.websocket_connect(f"/api/games/{gid}/socket") as calm,
            client.websocket_connect(f"/api/games/{gid}/socket") as flood,
        ):
            calm.send_text(json.dumps({"type": "hello", "token": None, "picture": False}))
            flood.send_text(json.dumps({"type": "hello", "token": None, "picture": False}))
            assert json.loads(calm.receive_text())["type"] == "view"
            assert json.loads(flood.receive_text())["type"] == "view"
            for _ in range(40):
                flood.send_text(json.dumps({"type": "ping"}))
            codes: list[str] = []

            def drain() -> None:
                while True:
                    codes.append(json.loads(flood.receive_text()).get("code"))

            with pytest.raises(WebSocketDisconnect) as closed:
                drain()
            assert closed.value.code == 1008
            assert codes[-1] == "flood"
            calm.send_text(json.dumps({"type": "ping"}))
            assert json.loads(calm.receive_text()) == {"type": "pong"}
        # The server goes on.
        assert client.get(f"/api/games/{gid}").status_code == 200


def test_a_restarted_server_goes_on_with_the_same_dice(tmp_path: Path) -> None:
    """Chance and built-in players draw from (seed, step): a game interrupted and
    resumed by a new server ends as the same game uninterrupted does."""
    seats = [{"player": "sensible"}, {"player": "random"}]
    with app_client() as client:
        whole = new_game(client, game="belisarius", seats=seats, seed=21, options={"scenario": 3})
        settled_view(client, whole["game_id"], None, picture="false")
        expected = client.get(f"/api/games/{whole['game_id']}/record").json()
    database = tmp_path / "games.db"
    with app_client(database) as client:
        game = new_game(client, game="belisarius", seats=seats, seed=21, options={"scenario": 3})
        sessions: Sessions = client.app.state.sessions  # type: ignore[attr-defined]
        sessions.close()  # stop the worker early (at whatever step it reached)
        stopped = client.get(f"/api/games/{game['game_id']}").json()["seq"]
    with app_client(database) as client:
        settled_view(client, game["game_id"], None, picture="false")
        record = client.get(f"/api/games/{game['game_id']}/record").json()
    assert stopped < len(record["steps"])
    assert record["steps"] == expected["steps"]


def test_a_game_begun_from_a_position_says_so_and_has_no_record() -> None:
    from byzantium.core.records import state_to_json

    bel = load_game("belisarius", scenario=1)
    with app_client() as client:
        body = {
            "game": "belisarius",
            "seats": [{"player": "random"}] * 2,
            "state": state_to_json(bel, bel.initial_state()),
            "seed": 1,
        }
        game = new_game(client, **body)
        assert game["from_position"] is True
        settled_view(client, game["game_id"], None, picture="false")
        error_of(client.get(f"/api/games/{game['game_id']}/record"), 409, "no-record")
        bad = {**body, "state": {"format": "byzantium-state/1", "game": "belisarius"}}
        error_of(client.post("/api/games", json=bad), 400, "bad-state")


def test_gzip_of_a_view_is_smaller() -> None:
    with app_client() as client:
        game = new_game(client, game="belisarius")
        raw = client.get(
            f"/api/games/{game['game_id']}/view", headers={"Accept-Encoding": "identity"}
        )
        assert "content-encoding" not in raw.headers
        assert len(gzip.compress(raw.content)) < len(raw.content) / 3


def test_the_act_answers_with_the_view_just_after_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer to an act is the seat's view right after its step, however fast the
    worker draws the chance that follows (it was the game's view of whenever the answer
    was made: twin games then answered differently)."""
    with app_client() as client:
        sessions: Sessions = client.app.state.sessions  # type: ignore[attr-defined]
        # The worker at its fastest: done before the act's answer is made.
        monkeypatch.setattr(sessions, "schedule", sessions._automate)
        game = new_game(client, game="sword-of-orthodoxy", seed=4)
        moved = 0
        for _ in range(10):
            view = settled_view(client, game["game_id"], game["tokens"]["0"], picture="false")
            if view["status"] == "over":
                break
            acted = client.post(
                f"/api/games/{game['game_id']}/act",
                json={"seq": view["seq"], "index": 0},
                headers=bearer(game["tokens"]["0"]),
                params={"picture": "false"},
            ).json()
            assert acted["seq"] == acted["view"]["seq"] == view["seq"] + 1
            assert [c["seq"] for c in acted["view"]["chronicle"]] == [view["seq"] + 1]
            moved += client.get(f"/api/games/{game['game_id']}").json()["seq"] > acted["seq"]
        assert moved  # chance did follow some of the steps
