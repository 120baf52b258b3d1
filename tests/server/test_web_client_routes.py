"""What the web client (issue 39) needs of the server beyond the protocol's first
draft: the page at ``/`` and its files, the rule index's summaries per game, and, per
offered action, what it names on the seat's picture (so a click there can choose it)
and why to think twice before it."""

from __future__ import annotations

from pathlib import Path

from byzantium.core.rules import get_rulebook
from tests.server.support import app_client, bearer, settled_view

STATIC = Path(__file__).resolve().parents[2] / "byzantium" / "server" / "static"


def test_the_page_and_its_files_are_served() -> None:
    with app_client() as client:
        page = client.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/main.js">' in page.text
        for name in ("main.js", "api.js", "lobby.js", "game.js", "board.js", "style.css"):
            answer = client.get(f"/static/{name}")
            assert answer.status_code == 200, name
            assert answer.text == (STATIC / name).read_text(encoding="utf-8")
        assert client.get("/static/game.js").headers["content-type"].startswith("text/javascript")
        missing = client.get("/static/nothing.js")
        assert missing.status_code == 404
        assert missing.json()["code"]
        assert client.get("/api").json()["api"] == "/api"


def test_rule_summaries_are_the_rule_index_s() -> None:
    with app_client() as client:
        for game in ("sword-of-orthodoxy", "belisarius"):
            answer = client.get(f"/api/rules/{game}").json()
            book = get_rulebook(game)
            assert answer["game"] == game
            assert answer["rules"]["10.6" if game == "sword-of-orthodoxy" else "22.1"]
            for rule, summary in answer["rules"].items():
                assert book[rule].summary == summary
        unknown = client.get("/api/rules/chess")
        assert unknown.status_code == 404
        assert unknown.json()["code"] == "unknown-game"


def test_offered_actions_name_their_places_on_the_picture() -> None:
    with app_client() as client:
        made = client.post(
            "/api/games",
            json={"game": "belisarius", "seats": [{"player": "person"}] * 2, "seed": 3},
        ).json()
        game_id = made["game_id"]
        view = settled_view(client, game_id, None)  # as a spectator: who is asked
        seat_token = made["tokens"][str(view["to_act"])]
        view = client.get(f"/api/games/{game_id}/view", headers=bearer(seat_token)).json()
        actions = view["question"]["actions"]
        assert actions
        for action in actions:
            where = action["action"].get("where")
            if isinstance(where, int) and where > 100:
                assert f'polygon[data-hex="{where:04d}"]' in action["targets"]
        assert all(isinstance(a["targets"], list) for a in actions)
        assert any(a["targets"] for a in actions)


def test_offered_actions_carry_the_game_s_caution() -> None:
    """Each offered action says why to think twice before it (Game.caution), so the
    page lists such choices last: at the Byzantine Action Phase (10.0) ending the phase
    is cautioned and buying is not."""
    with app_client() as client:
        made = client.post(
            "/api/games",
            json={"game": "sword-of-orthodoxy", "seats": [{"player": "person"}], "seed": 1},
        ).json()
        view = settled_view(client, made["game_id"], made["tokens"]["0"])
        actions = view["question"]["actions"]
        assert view["question"]["rule"].startswith("10")
        cautions = {a["text"]: a["caution"] for a in actions}
        ending = [text for text in cautions if text.startswith("End the Byzantine Action")]
        assert ending and all(cautions[text] for text in ending)
        assert any(not caution for caution in cautions.values())
        assert all(isinstance(a["caution"], str) for a in actions)
