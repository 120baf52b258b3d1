"""The OpenAPI 3.1 document of the server's protocol (``GET /api/openapi.json``).

Written by hand for the protocol's own objects; the actions, observations and records
are the library's JSON Schemas (:mod:`byzantium.core.schema`, ``byzantium schema``),
one per game, their named types moved into ``components/schemas`` under the game's
prefix so that every reference resolves inside the document.
"""

from __future__ import annotations

from typing import Final

from byzantium.core.codec import JSONValue
from byzantium.core.registry import available_games, load_game
from byzantium.core.schema import game_schemas

__all__ = ["openapi_document"]

#: The library's schemas the protocol carries.
_KINDS: Final = ("action", "observation", "record")

Schema = dict[str, JSONValue]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _prefix(game: str) -> str:
    return game.replace("-", "_")


def _moved(value: JSONValue, prefix: str) -> JSONValue:
    """``value`` with its ``#/$defs/X`` references pointing at ``prefix_X`` components."""
    if isinstance(value, dict):
        found: dict[str, JSONValue] = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str) and item.startswith("#/$defs/"):
                found[key] = f"#/components/schemas/{prefix}_{item[len('#/$defs/') :]}"
            else:
                found[key] = _moved(item, prefix)
        return found
    if isinstance(value, list):
        return [_moved(item, prefix) for item in value]
    return value


def _library_schemas() -> dict[str, JSONValue]:
    schemas: dict[str, JSONValue] = {}
    for name in available_games():
        prefix = _prefix(name)
        every = game_schemas(load_game(name))
        for kind in _KINDS:
            document = dict(every[kind])
            document.pop("$schema", None)
            defs = document.pop("$defs", {})
            assert isinstance(defs, dict)
            for key, schema in defs.items():
                schemas[f"{prefix}_{key}"] = _moved(schema, prefix)
            schemas[f"{prefix}_{kind}"] = _moved(document, prefix)
    return schemas


def _any_of(kind: str) -> Schema:
    return {"oneOf": [_ref(f"{_prefix(name)}_{kind}") for name in available_games()]}


def _object(properties: dict[str, JSONValue], *required: str) -> Schema:
    return {"type": "object", "properties": properties, "required": list(required)}


_INT: Final[Schema] = {"type": "integer"}
_STR: Final[Schema] = {"type": "string"}
_BOOL: Final[Schema] = {"type": "boolean"}
_NULLABLE_INT: Final[Schema] = {"type": ["integer", "null"]}


def _protocol_schemas() -> dict[str, JSONValue]:
    seat_info = _object(
        {"seat": _INT, "name": _STR, "player": _STR, "taken": _BOOL},
        "seat",
        "name",
        "player",
        "taken",
    )
    game_info = _object(
        {
            "game_id": _STR,
            "game": _STR,
            "name": _STR,
            "options": {"type": "object"},
            "options_text": _STR,
            "from_position": _BOOL,
            "seats": {"type": "array", "items": _ref("SeatInfo")},
            "seq": _INT,
            "status": {"enum": ["playing", "over"]},
            "to_act": _NULLABLE_INT,
            "heading": _STR,
            "created": {"type": "number"},
        },
        "game_id",
        "game",
        "name",
        "options",
        "seats",
        "seq",
        "status",
        "heading",
        "created",
    )
    menu_entry = _object(
        {
            "index": _INT,
            "number": _NULLABLE_INT,
            "action": _any_of("action"),
            "text": _STR,
            "targets": {
                "type": "array",
                "items": _STR,
                "description": "CSS selectors of the picture's elements the action names",
            },
            "caution": {
                "type": "string",
                "description": "why to think twice before this choice (it passes, ends a "
                "phase or throws something away), with its rule; empty for a harmless one. "
                "A client lists such choices after the others.",
            },
        },
        "index",
        "action",
        "text",
    )
    question = _object(
        {
            "seat": _INT,
            "text": _STR,
            "rule": _STR,
            "rule_summary": _STR,
            "actions": {"type": "array", "items": _ref("MenuEntry")},
        },
        "seat",
        "text",
        "rule",
        "actions",
    )
    odds_entry = _object(
        {
            "text": _STR,
            "probability": {
                "type": "string",
                "pattern": "^[0-9]+(/[0-9]+)?$",
                "description": "the exact probability as a fraction, e.g. 1/6",
            },
            "drawn": {
                "const": True,
                "description": "the outcome drawn, where this reader may see which it was",
            },
        },
        "text",
        "probability",
    )
    chronicle_entry = _object(
        {
            "seq": _INT,
            "actor": _INT,
            "lines": {"type": "array", "items": _STR},
            "odds": {
                "type": "array",
                "items": _ref("OddsEntry"),
                "description": (
                    "a chance step's outcomes and their probabilities, only where this "
                    "reader may know the odds"
                ),
            },
        },
        "seq",
        "actor",
        "lines",
    )
    view = _object(
        {
            "game_id": _STR,
            "seq": _INT,
            "seat": _NULLABLE_INT,
            "status": {"enum": ["playing", "over"]},
            "to_act": _NULLABLE_INT,
            "heading": _STR,
            "status_line": _STR,
            "observation": _any_of("observation"),
            "question": {"oneOf": [{"type": "null"}, _ref("Question")]},
            "chronicle": {"type": "array", "items": _ref("ChronicleEntry")},
            "chronicle_from": _INT,
            "picture": {
                "oneOf": [
                    {"type": "null"},
                    _object(
                        {"board": {"type": ["string", "null"]}, "overlay": _STR},
                        "board",
                        "overlay",
                    ),
                ]
            },
            "result": {
                "oneOf": [
                    {"type": "null"},
                    _object(
                        {
                            "text": {"type": "array", "items": _STR},
                            "winners": {"type": "array", "items": _INT},
                            "level": _STR,
                            "reason": _STR,
                            "rule": _STR,
                            "scores": {"type": "array", "items": {"type": "number"}},
                        },
                        "text",
                        "winners",
                        "level",
                    ),
                ]
            },
        },
        "game_id",
        "seq",
        "seat",
        "status",
        "to_act",
        "heading",
        "observation",
        "question",
        "chronicle",
        "picture",
        "result",
    )
    seat_request = _object(
        {"player": {"enum": ["person", "open", "random", "sensible", "expert"]}}, "player"
    )
    create = _object(
        {
            "game": _STR,
            "options": {"type": "object"},
            "seats": {"type": "array", "items": _ref("SeatRequest")},
            "seed": {"type": "integer", "minimum": 0},
            "state": {"description": "a saved position (byzantium-state/1) to begin from"},
        },
        "game",
    )
    created: Schema = {
        "allOf": [
            _ref("GameInfo"),
            _object(
                {"tokens": {"type": "object", "additionalProperties": _STR}},
                "tokens",
            ),
        ]
    }
    act: Schema = {
        "oneOf": [
            _object({"seq": _INT, "action": _any_of("action")}, "seq", "action"),
            _object({"seq": _INT, "number": _INT}, "seq", "number"),
            _object({"seq": _INT, "index": _INT}, "seq", "index"),
        ]
    }
    error = _object({"error": _STR, "code": _STR, "rule": _STR}, "error", "code")
    catalogue_game = _object(
        {
            "game": _STR,
            "name": _STR,
            "seats": {"type": "array", "items": _STR},
            "scenarios": {"type": "array"},
            "options": {
                "type": "array",
                "items": _object({"name": _STR, "default": {}, "help": _STR}, "name", "default"),
            },
            "policies": {"type": "array", "items": _STR},
        },
        "game",
        "name",
        "seats",
        "options",
        "policies",
    )
    return {
        "Error": error,
        "SeatInfo": seat_info,
        "GameInfo": game_info,
        "MenuEntry": menu_entry,
        "Question": question,
        "ChronicleEntry": chronicle_entry,
        "OddsEntry": odds_entry,
        "View": view,
        "SeatRequest": seat_request,
        "CreateRequest": create,
        "Created": created,
        "JoinRequest": _object({"seat": _INT}, "seat"),
        "Joined": _object({"seat": _INT, "token": _STR}, "seat", "token"),
        "ActRequest": act,
        "Acted": _object({"seq": _INT, "view": _ref("View")}, "seq", "view"),
        "Catalogue": _object(
            {"games": {"type": "array", "items": catalogue_game}},
            "games",
        ),
        "GameList": _object({"games": {"type": "array", "items": _ref("GameInfo")}}, "games"),
        "Record": _any_of("record"),
    }


def _json(schema: Schema, description: str) -> JSONValue:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, JSONValue]:
    said = {
        400: "malformed JSON or wrong types",
        401: "missing or wrong seat token",
        403: "not this seat's turn",
        404: "no such game or seat",
        409: "stale step number, seat taken, or game over",
        413: "body too large",
        422: "illegal action (with the rule)",
    }
    return {str(s): _json(_ref("Error"), said[s]) for s in statuses}


def _game_id() -> JSONValue:
    return {"name": "game_id", "in": "path", "required": True, "schema": _STR}


def _query(name: str, description: str, schema: Schema) -> JSONValue:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


def _body(name: str) -> JSONValue:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


def openapi_document() -> dict[str, JSONValue]:
    """The OpenAPI 3.1 document of the protocol."""
    bearer: list[JSONValue] = [{"seat": []}, {}]
    paths: dict[str, JSONValue] = {
        "/api/catalogue": {
            "get": {
                "summary": "The games, seats, scenarios, options and built-in players offered",
                "operationId": "catalogue",
                "responses": {"200": _json(_ref("Catalogue"), "the catalogue")},
            }
        },
        "/api/games": {
            "get": {
                "summary": "Games, newest first (public facts only)",
                "operationId": "listGames",
                "parameters": [
                    _query("limit", "page size (1-200)", {**_INT, "minimum": 1, "maximum": 200}),
                    _query("offset", "games skipped", {**_INT, "minimum": 0}),
                ],
                "responses": {"200": _json(_ref("GameList"), "games"), **_errors(400)},
            },
            "post": {
                "summary": "Create a game; a token for each person seat",
                "operationId": "createGame",
                "requestBody": _body("CreateRequest"),
                "responses": {
                    "201": _json(_ref("Created"), "the new game and its tokens"),
                    **_errors(400, 404, 413),
                },
            },
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "Public facts of a game",
                "operationId": "gameInfo",
                "parameters": [_game_id()],
                "responses": {"200": _json(_ref("GameInfo"), "the game"), **_errors(404)},
            }
        },
        "/api/games/{game_id}/join": {
            "post": {
                "summary": "Take an open seat",
                "operationId": "join",
                "parameters": [_game_id()],
                "requestBody": _body("JoinRequest"),
                "responses": {
                    "200": _json(_ref("Joined"), "the seat's token"),
                    **_errors(400, 404, 409, 413),
                },
            }
        },
        "/api/games/{game_id}/view": {
            "get": {
                "summary": "A seat's view (the spectator's without a token)",
                "operationId": "view",
                "security": bearer,
                "parameters": [
                    _game_id(),
                    _query("since", "chronicle steps after this one", {**_INT, "minimum": 0}),
                    _query("picture", "false: no picture", _BOOL),
                ],
                "responses": {"200": _json(_ref("View"), "the view"), **_errors(400, 401, 404)},
            }
        },
        "/api/games/{game_id}/act": {
            "post": {
                "summary": "A seat's decision, answering step seq",
                "operationId": "act",
                "security": [{"seat": []}],
                "parameters": [_game_id(), _query("picture", "false: no picture", _BOOL)],
                "requestBody": _body("ActRequest"),
                "responses": {
                    "200": _json(_ref("Acted"), "the new step number and the seat's view"),
                    **_errors(400, 401, 403, 404, 409, 413, 422),
                },
            }
        },
        "/api/games/{game_id}/board.svg": {
            "get": {
                "summary": "The static layer of the game's pictures",
                "operationId": "board",
                "parameters": [_game_id()],
                "responses": {
                    "200": {
                        "description": "SVG",
                        "content": {"image/svg+xml": {"schema": _STR}},
                    },
                    **_errors(404),
                },
            }
        },
        "/api/games/{game_id}/record": {
            "get": {
                "summary": "A finished game's record (byzantium verify passes)",
                "operationId": "record",
                "parameters": [_game_id()],
                "responses": {"200": _json(_ref("Record"), "the record"), **_errors(404, 409)},
            }
        },
        "/api/rules/{game}": {
            "get": {
                "summary": "The rule index's summary (our words) of every rule of a game",
                "operationId": "rules",
                "parameters": [{"name": "game", "in": "path", "required": True, "schema": _STR}],
                "responses": {
                    "200": _json(
                        _object(
                            {
                                "game": _STR,
                                "rules": {
                                    "type": "object",
                                    "additionalProperties": _STR,
                                },
                            },
                            "game",
                            "rules",
                        ),
                        "rule number -> summary",
                    ),
                    **_errors(404),
                },
            }
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This document",
                "operationId": "openapi",
                "responses": {"200": {"description": "OpenAPI 3.1"}},
            }
        },
    }
    schemas = {**_library_schemas(), **_protocol_schemas()}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "byzantium game server",
            "version": "1",
            "description": (
                "Play Sword of Orthodoxy and Belisarius across machines. Live updates: "
                "WebSocket /api/games/{game_id}/socket (send {type: hello, token, since}; "
                "receive {type: view, ...} after every change). See docs/server.rst."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
        },
    }
