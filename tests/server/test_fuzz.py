"""Bad input over every endpoint and the socket (hypothesis): malformed JSON, wrong
types, huge bodies, unknown ids and tokens always give one JSON error with a 4xx
status (or a proper answer where the input happens to be good); the server lives on
and a game nobody else holds a token of is untouched."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.support import Json, app_client, bearer, settled_view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PATHS = (
    "/api/catalogue",
    "/api/games",
    "/api/games/{id}",
    "/api/games/{id}/join",
    "/api/games/{id}/view",
    "/api/games/{id}/act",
    "/api/games/{id}/board.svg",
    "/api/games/{id}/record",
    "/api/openapi.json",
    "/api/games/{id}/nothing",
    "/{id}",
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
shaped = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["belisarius", "sword-of-orthodoxy", "", "x"]) | json_values,
        "options": st.dictionaries(
            st.sampled_from(["scenario", "pillage", "components", "x"]), json_values
        )
        | json_values,
        "seats": st.lists(
            st.fixed_dictionaries(
                {"player": st.sampled_from(["person", "open", "random", "god"]) | json_values}
            ),
            max_size=3,
        )
        | json_values,
        "seed": json_values,
        "seat": st.integers(-3, 3) | json_values,
        "seq": st.integers(-2, 50) | json_values,
        "index": st.integers(-2, 50) | json_values,
        "number": st.integers(-2, 10**6) | json_values,
        "action": st.fixed_dictionaries(
            {"type": st.sampled_from(["Select", "Roll", "Place", "Done", "X"])},
            optional={"item": json_values, "dice": json_values, "where": json_values},
        )
        | json_values,
        "state": json_values,
    },
)
bodies = (
    shaped.map(lambda d: json.dumps(d).encode())
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=200)
    | st.sampled_from(
        [
            b"",
            b"{",
            b'{"a":1,"a":2}',
            b"[" * 5000,
            b"\xff\xfe",
            b"x" * (300 * 1024),
            b"NaN",
            b'{"seq": 1e999}',
        ]
    )
)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Json, dict[str, Json]]]:
    with app_client() as client:
        victim = client.post(
            "/api/games",
            json={
                "game": "belisarius",
                "seats": [{"player": "person"}, {"player": "person"}],
                "seed": 1,
            },
        ).json()
        sandbox = client.post("/api/games", json={"game": "sword-of-orthodoxy", "seed": 2}).json()
        yield client, {"victim": victim, "sandbox": sandbox}


def check(response: Json) -> None:
    assert response.status_code < 500, response.text
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert response.status_code < 500
        assert response.headers["content-type"].startswith("application/json")
        body = response.json()
        assert set(body) <= {"error", "code", "rule"} and {"error", "code"} <= set(body)
        assert "\n" not in body["error"] and len(body["error"]) <= 400


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    path=st.sampled_from(PATHS),
    which=st.sampled_from(["victim", "sandbox", "unknown", "long", "odd"]),
    body=bodies,
    auth=st.sampled_from(["none", "sandbox", "junk", "basic", "long", "empty"]),
    query=st.dictionaries(
        st.sampled_from(["since", "limit", "offset", "picture"]), st.text(max_size=8), max_size=3
    ),
)
def test_every_endpoint_answers_bad_input_with_one_json_error(  # noqa: PLR0917 - drawn
    server: tuple[Json, dict[str, Json]],
    method: str,
    path: str,
    which: str,
    body: bytes,
    auth: str,
    query: dict[str, str],
) -> None:
    client, games = server
    game_id = {
        "victim": games["victim"]["game_id"],
        "sandbox": games["sandbox"]["game_id"],
        "unknown": "0123456789abcdef",
        "long": "a" * 5000,
        "odd": "%00%ff..%2F",
    }[which]
    headers = {
        "none": {},
        "sandbox": bearer(games["sandbox"]["tokens"]["0"]),
        "junk": bearer("junk"),
        "basic": {"Authorization": "Basic YTpi"},
        "long": bearer("t" * 1000),
        "empty": {"Authorization": ""},
    }[auth]
    if "picture" not in query:
        query["picture"] = "false"
    response = client.request(
        method, path.replace("{id}", game_id), content=body, headers=headers, params=query
    )
    check(response)
    if which == "victim" and method == "POST" and path.endswith("/act"):
        assert response.status_code in (400, 401, 413)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(hello=bodies, then=st.lists(bodies, max_size=3))
def test_the_socket_answers_bad_messages_with_errors(
    server: tuple[Json, dict[str, Json]], hello: bytes, then: list[bytes]
) -> None:
    client, games = server
    with client.websocket_connect(f"/api/games/{games['sandbox']['game_id']}/socket") as ws:
        ws.send_text(hello.decode("utf-8", "replace")[:70_000])
        first = json.loads(ws.receive_text())
        assert first["type"] in ("view", "error")
        if first["type"] == "error":
            assert set(first) == {"type", "error", "code"}
            return
        for message in then:
            ws.send_text(message.decode("utf-8", "replace")[:70_000])
            said = json.loads(ws.receive_text())
            assert said["type"] in ("error", "pong", "view")


def test_the_untouched_game_is_unaffected(server: tuple[Json, dict[str, Json]]) -> None:
    """Run after the fuzzing above (same module): the victim game is where it was and
    its seats still work."""
    client, games = server
    victim = games["victim"]
    view = settled_view(client, victim["game_id"], victim["tokens"]["0"], picture="false")
    sessions = client.app.state.sessions
    steps = sessions.store.steps(victim["game_id"])
    assert all(step.actor == -1 for step in steps)  # only chance moved it: no person's act
    token = victim["tokens"][str(view["to_act"])]
    acted = client.post(
        f"/api/games/{victim['game_id']}/act",
        json={"seq": view["seq"], "index": 0},
        headers=bearer(token),
    )
    assert acted.status_code == 200
