"""The HTTP and WebSocket face of the server: a Starlette application speaking the
protocol of docs/server.rst over :class:`~byzantium.server.sessions.Sessions`.

Every route runs the game logic in a worker thread (never on the event loop). Every
error, routing's 404 and 405 included, is one JSON object with a 4xx status; a body
larger than the limit is refused (413) before it is read whole. A WebSocket gets its
own reader's view after every commit of its game, and is closed (1008) if it floods.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from byzantium.core.codec import DecodeError, JSONValue, loads_json
from byzantium.core.errors import ByzantiumError, RuleIndexError
from byzantium.core.registry import available_games
from byzantium.core.rules import get_rulebook
from byzantium.server.openapi import openapi_document
from byzantium.server.sessions import ServerError, Sessions
from byzantium.server.store import Store

__all__ = ["MAX_BODY", "create_app"]

#: The largest request body accepted, in bytes (an action is a few hundred bytes; a
#: saved position of Sword of Orthodoxy about 50 KB).
MAX_BODY: Final = 256 * 1024
#: The largest WebSocket message accepted, in characters.
MAX_MESSAGE: Final = 4096
#: A socket sending more than this many messages within one second is closed.
FLOOD_MESSAGES: Final = 20
#: How long a socket may take to say hello, in seconds.
HELLO_SECONDS: Final = 10.0
#: The longest token looked at (a token is 43 characters).
MAX_TOKEN: Final = 200

_log = logging.getLogger("byzantium.server")

_STATUS_CODES: Final = {
    400: "bad-request",
    401: "bad-token",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "too-large",
    415: "unsupported-media-type",
    422: "illegal",
    429: "flood",
}


def _error(status: int, code: str, message: str, rule: str = "") -> JSONResponse:
    body: dict[str, str] = {"error": message, "code": code}
    if rule:
        body["rule"] = rule
    return JSONResponse(body, status_code=status)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN:
        raise ServerError(401, "bad-token", "the Authorization header must be 'Bearer TOKEN'")
    return token


def _query_int(request: Request, name: str, default: int | None) -> int | None:
    value = request.query_params.get(name)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or len(value) > 12:
        raise ServerError(400, "bad-request", f"'{name}' must be a whole number")
    return int(value)


def _query_flag(request: Request, name: str) -> bool:
    value = request.query_params.get(name, "true").lower()
    if value not in ("true", "false", "1", "0", "yes", "no"):
        raise ServerError(400, "bad-request", f"'{name}' must be true or false")
    return value in ("true", "1", "yes")


async def _body(request: Request) -> JSONValue:
    """The request's JSON body, within :data:`MAX_BODY`."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise ServerError(413, "too-large", f"the body may hold at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ServerError(413, "too-large", f"the body may hold at most {MAX_BODY} bytes")
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data.strip():
        raise ServerError(400, "bad-json", "the body must be a JSON object")
    try:
        return loads_json(data, "the body")
    except DecodeError as error:
        raise ServerError(400, "bad-json", str(error)[:200]) from None


#: The web client's files (index.html, its scripts and style), served at ``/``.
STATIC: Final = Path(__file__).resolve().parent / "static"


def _rule_summaries(game: str) -> dict[str, JSONValue]:
    """The rule index's summary (our words) of each rule of ``game`` that has one."""
    if game not in available_games():
        raise ServerError(404, "unknown-game", f"no game is called {game[:40]!r}")
    try:
        book = get_rulebook(game)
    except RuleIndexError:
        return {"game": game, "rules": {}}
    summaries: dict[str, JSONValue] = {e.id: e.summary for e in book if e.summary}
    return {"game": game, "rules": summaries}


def _game_id(request: Request) -> str:
    return str(request.path_params["game_id"])


class _Hub:
    """Tells the sockets of a game that it moved on (from whichever thread committed)."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: dict[str, set[asyncio.Event]] = {}

    def heard(self, game_id: str, seq: int) -> None:
        del seq
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, game_id)

    def _wake(self, game_id: str) -> None:
        for event in self.waiting.get(game_id, ()):
            event.set()

    def join(self, game_id: str, event: asyncio.Event) -> None:
        self.waiting.setdefault(game_id, set()).add(event)

    def leave(self, game_id: str, event: asyncio.Event) -> None:
        found = self.waiting.get(game_id)
        if found is not None:
            found.discard(event)
            if not found:
                del self.waiting[game_id]


def create_app(store: Store, *, workers: int = 2, own_store: bool = False) -> Starlette:
    """The server's application over ``store`` (closed on shutdown if ``own_store``)."""
    sessions = Sessions(store, workers=workers)
    sessions.on_error = lambda game_id, message: _log.error("game %s: %s", game_id, message)
    hub = _Hub()
    store.listen(hub.heard)

    async def call(function: Callable[..., object], *args: object, **kw: object) -> object:
        return await run_in_threadpool(function, *args, **kw)

    def answer(data: object, status: int = 200) -> JSONResponse:
        return JSONResponse(data, status_code=status)

    async def catalogue(request: Request) -> Response:
        return answer(await call(sessions.catalogue))

    async def list_games(request: Request) -> Response:
        limit = _query_int(request, "limit", 50)
        offset = _query_int(request, "offset", 0)
        return answer(await call(sessions.games, limit=limit, offset=offset))

    async def create_game(request: Request) -> Response:
        body = await _body(request)
        return answer(await call(sessions.create, body), 201)

    async def game_info(request: Request) -> Response:
        return answer(await call(sessions.info, _game_id(request)))

    async def join(request: Request) -> Response:
        body = await _body(request)
        return answer(await call(sessions.join, _game_id(request), body))

    async def view(request: Request) -> Response:
        token = _token(request)
        since = _query_int(request, "since", None)
        picture = _query_flag(request, "picture")
        found = await call(sessions.view, _game_id(request), token, since=since, picture=picture)
        return answer(found)

    async def act(request: Request) -> Response:
        token = _token(request)
        game_id = _game_id(request)
        if token is None:
            await call(sessions.info, game_id)  # an unknown game is 404 before 401
            raise ServerError(401, "no-token", "acting needs the seat's token (Authorization)")
        picture = _query_flag(request, "picture")
        body = await _body(request)
        return answer(await call(sessions.act, game_id, token, body, picture=picture))

    async def board(request: Request) -> Response:
        text = await call(sessions.board, _game_id(request))
        assert isinstance(text, str)
        return Response(
            text,
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    async def record(request: Request) -> Response:
        return answer(await call(sessions.record, _game_id(request)))

    document: dict[str, JSONValue] = {}

    async def rules(request: Request) -> Response:
        return answer(await call(_rule_summaries, str(request.path_params["game"])))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def openapi(request: Request) -> Response:
        if not document:
            document.update(await run_in_threadpool(openapi_document))
        return answer(document)

    async def root(request: Request) -> Response:
        return answer({"name": "byzantium", "api": "/api", "openapi": "/api/openapi.json"})

    async def socket(websocket: WebSocket) -> None:
        await _socket(websocket, sessions, hub)

    async def server_error(request: Request, error: ServerError) -> Response:
        return _error(error.status, error.code, error.message, error.rule)

    async def http_error(request: Request, error: HTTPException) -> Response:
        status = error.status_code if 400 <= error.status_code < 500 else 400
        message = {
            404: "no such resource",
            405: f"method {request.method} is not allowed here",
        }.get(status, str(error.detail)[:200])
        response = _error(status, _STATUS_CODES.get(status, "bad-request"), message)
        if error.headers:
            response.headers.update(error.headers)
        return response

    async def library_error(request: Request, error: ByzantiumError) -> Response:
        return _error(400, "bad-request", str(error)[:200])

    async def crash(request: Request, error: Exception) -> Response:
        _log.exception("unexpected error on %s", request.url.path)
        return _error(500, "internal", "the server failed on this request")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        await run_in_threadpool(sessions.resume)
        try:
            yield
        finally:
            hub.loop = None
            await run_in_threadpool(sessions.close)
            if own_store:
                store.close()

    handlers: dict[object, Callable[..., Awaitable[Response]]] = {
        ServerError: server_error,
        HTTPException: http_error,
        ByzantiumError: library_error,
        Exception: crash,
    }
    app = Starlette(
        routes=[
            Route("/", page),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
            Route("/api", root),
            Route("/api/rules/{game}", rules),
            Route("/api/catalogue", catalogue),
            Route("/api/games", list_games, methods=["GET"]),
            Route("/api/games", create_game, methods=["POST"]),
            Route("/api/games/{game_id}", game_info),
            Route("/api/games/{game_id}/join", join, methods=["POST"]),
            Route("/api/games/{game_id}/view", view),
            Route("/api/games/{game_id}/act", act, methods=["POST"]),
            Route("/api/games/{game_id}/board.svg", board),
            Route("/api/games/{game_id}/record", record),
            Route("/api/openapi.json", openapi),
            WebSocketRoute("/api/games/{game_id}/socket", socket),
        ],
        middleware=[Middleware(GZipMiddleware, minimum_size=1024)],
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    app.state.sessions = sessions
    return app


async def _send_error(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": message, "code": code}))


async def _close(websocket: WebSocket, code: str, message: str) -> None:
    await _send_error(websocket, code, message)
    if websocket.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=1008)


def _parse(text: object) -> dict[str, JSONValue] | None:
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None
    try:
        data = loads_json(text, "the message")
    except DecodeError:
        return None
    return data if isinstance(data, dict) else None


async def _socket(websocket: WebSocket, sessions: Sessions, hub: _Hub) -> None:
    """One WebSocket: hello, then this reader's view after every change of the game."""
    game_id = str(websocket.path_params["game_id"])
    await websocket.accept()
    try:
        message = await asyncio.wait_for(websocket.receive(), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await _close(websocket, "no-hello", "say hello first")
        return
    if message.get("type") != "websocket.receive":
        return
    hello = _parse(message.get("text"))
    token = None if hello is None else hello.get("token")
    since = None if hello is None else hello.get("since")
    picture = True if hello is None else hello.get("picture", True)
    if (
        hello is None
        or hello.get("type") != "hello"
        or not (token is None or (isinstance(token, str) and 0 < len(token) <= MAX_TOKEN))
        or not (since is None or (type(since) is int and since >= 0))
        or not isinstance(picture, bool)
    ):
        await _close(
            websocket,
            "bad-hello",
            "the first message must be {'type': 'hello', 'token': TOKEN or null, 'since': K}",
        )
        return
    try:
        seat = await run_in_threadpool(sessions.seat_of, game_id, token)
    except ServerError as error:
        await _close(websocket, error.code, error.message)
        return
    wake = asyncio.Event()
    hub.join(game_id, wake)
    arrivals: list[float] = []
    sent = since
    first = True
    try:
        receiving = asyncio.ensure_future(websocket.receive())
        while True:
            wake.clear()
            view = await run_in_threadpool(
                sessions.view_seat, game_id, seat, since=sent, picture=picture
            )
            seq = view["seq"]
            assert isinstance(seq, int)
            if first or sent is None or seq > sent:
                await websocket.send_text(json.dumps({"type": "view", **view}))
            first = False
            sent = seq
            while not wake.is_set():
                waking = asyncio.ensure_future(wake.wait())
                done, _ = await asyncio.wait(
                    {receiving, waking}, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving not in done:
                    continue
                waking.cancel()
                incoming = receiving.result()
                if incoming.get("type") == "websocket.disconnect":
                    return
                now = time.monotonic()
                arrivals = [t for t in arrivals if now - t < 1.0]
                arrivals.append(now)
                if len(arrivals) > FLOOD_MESSAGES:
                    await _close(websocket, "flood", "too many messages: this socket is closed")
                    return
                said = _parse(incoming.get("text"))
                if said is not None and said.get("type") == "ping":
                    await websocket.send_text(json.dumps({"type": "pong"}))
                else:
                    await _send_error(
                        websocket,
                        "bad-message",
                        "a socket only listens (acting is POST /api/games/{id}/act); "
                        "send {'type': 'ping'} to keep it open",
                    )
                receiving = asyncio.ensure_future(websocket.receive())
    except (WebSocketDisconnect, RuntimeError):
        return
    except ServerError as error:
        await _close(websocket, error.code, error.message)
    finally:
        hub.leave(game_id, wake)
        if "receiving" in locals():
            receiving.cancel()
