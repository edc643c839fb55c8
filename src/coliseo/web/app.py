"""The web table's FastAPI app: REST for games and records, one WebSocket per seat, the static pages.

WebSocket protocol (`/ws/{game_id}`), JSON messages:
  client → {"type": "hello", "token": str | null, "lang": "en" | "es"}   first; null token = spectator
  client → {"type": "act", "action": notation, "ply": n, "ref": any}  ·  {"type": "undo", "ply": n, "ref": any}
  server → {"type": "state", ...}   the reader's whole picture, after every change (see Table.payload)
  server → {"type": "ack", "ref": any, "ply": n}   the action is stored and every reader was sent the new state
  server → {"type": "error", "message": str, "ref": any}
  server → {"type": "error", "message": "the game has moved on: …", "stale": true, "ref": any}, then a "state"
The token travels inside the socket, never in a URL, so it appears in no log.

Every act and undo names the `ply` of the position it was chosen on (the state's "ply"). Any other ply is
refused as stale and changes nothing: a double click, a late click or a replayed message can never land on a
later position. The store's key (game_id, ply) settles a race between writers the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from coliseo import __version__
from coliseo.core.errors import ColiseoError
from coliseo.core.registry import list_games as game_ids
from coliseo.core.registry import load_game
from coliseo.store import Store

from .bus import make_bus
from .tables import Conflict, Forbidden, MovedOn, NotFound, Tables, Watcher, catalog, log
from .thinking import make_thinker

MAX_BODY = 16 * 1024           # bytes of a REST request body
MAX_MESSAGE = 4 * 1024         # characters of one WebSocket message
STATIC = Path(str(resources.files("coliseo.web") / "static"))
GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]


class SeatSpec(BaseModel):
    kind: Literal["human", "ai"]
    agent: str | None = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, bool | int | str | list[str]] = Field(default_factory=dict, max_length=40)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    idle_seconds: int | None = Field(default=None, ge=5, le=86_400)


class Created(BaseModel):
    id: str
    seat: int | None
    token: str | None
    play_url: str
    join_url: str
    spectate_url: str


class JoinGame(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=7)


class Joined(BaseModel):
    seat: int
    token: str


class Rematch(BaseModel):
    token: str = Field(max_length=100)


class Problem(BaseModel):
    detail: str


ERRORS = {status: {"model": Problem} for status in (400, 403, 404, 409, 422)}


SETTINGS_VARIABLE = "COLISEO_SERVE"    # create_app's settings as JSON, for each of `serve --workers N`'s processes


def create_app(db_url: str, *, idle_check_seconds: float = 1.0, redis_url: str | None = None,
               ai_workers: int | None = None, ray_address: str | None = None,
               ai_lease_seconds: float = 10.0) -> FastAPI:
    """The app over the store at `db_url`; `redis_url` fans changes out to other processes serving the same
    store; AI moves run in `ai_workers` local processes (default: one per core) or on the Ray cluster at
    `ray_address`, each under a lease of `ai_lease_seconds` (renewed while thinking)."""
    store = Store(db_url)
    tables = Tables(store, bus=make_bus(redis_url), thinker=make_thinker(ai_workers, ray_address),
                    lease_seconds=ai_lease_seconds)
    tables.bus.on_reconnect = tables.refresh_all

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI):
        await tables.bus.start(tables.on_notice)
        tables.thinker.warm()
        await tables.resume_all()
        watchdog = asyncio.get_running_loop().create_task(_idle_watch(tables, idle_check_seconds))
        yield
        watchdog.cancel()
        await tables.bus.close()
        tables.close()
        store.close()

    app = FastAPI(title="Coliseo web table", version=__version__, lifespan=lifespan)
    app.state.tables = tables

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = ("default-src 'self'; img-src 'self' data:; "
                                                       "style-src 'self' 'unsafe-inline'; connect-src 'self'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.exception_handler(ColiseoError)
    async def bad_input(_request, error: ColiseoError):
        return JSONResponse({"detail": str(error)}, status_code=400)

    @app.exception_handler(NotFound)
    async def not_found(_request, error: NotFound):
        return JSONResponse({"detail": str(error)}, status_code=404)

    @app.exception_handler(Forbidden)
    async def forbidden(_request, error: Forbidden):
        return JSONResponse({"detail": str(error)}, status_code=403)

    @app.exception_handler(Conflict)
    async def conflict(_request, error: Conflict):
        return JSONResponse({"detail": str(error)}, status_code=409)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request, error: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        return JSONResponse({"detail": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request, error: StarletteHTTPException):
        return JSONResponse({"detail": str(error.detail)}, status_code=error.status_code)

    # --- REST ------------------------------------------------------------------------------------------
    @app.get("/api/catalog")
    async def get_catalog() -> list[dict[str, Any]]:
        """The games, their options a browser may set, and the agents that play them."""
        return catalog()

    @app.get("/api/content/{game}", responses=ERRORS)
    async def content(game: Annotated[str, Field(max_length=40)], lang: Literal["en", "es"] = "en"
                      ) -> list[dict[str, Any]]:
        """The game's public content (cards, monsters, dice) for the cards shown on hover."""
        try:
            g = load_game(game)
        except ColiseoError as e:
            raise NotFound(str(e)) from None
        try:
            return g.card_rows(lang)
        except NotImplementedError:
            return []

    @app.post("/api/games", status_code=201, responses=ERRORS)
    async def create(body: CreateGame) -> Created:
        """A new game. The creator gets the first human seat's token; the join link opens the others."""
        table, seat, token = await tables.create(body.game, body.options, [s.model_dump() for s in body.seats],
                                                 body.idle_seconds)
        return Created(id=table.id, seat=seat, token=token, play_url=f"/play/{table.id}",
                       join_url=f"/play/{table.id}?join=1", spectate_url=f"/play/{table.id}?spectate=1")

    @app.get("/api/games")
    async def list_games(limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
        """The most recent games."""
        rows = await asyncio.to_thread(store.list_games, limit)
        return [{"id": g.id, "game": g.game, "created": g.created, "ply": len(g.actions), "finished": g.finished,
                 "result": g.result,
                 "seats": [{"kind": s["kind"], "agent": s.get("agent"),
                            "taken": bool(s.get("token_hash")) or s["kind"] == "ai"} for s in g.seats]}
                for g in rows]

    @app.get("/api/games/{game_id}", responses=ERRORS)
    async def get_game(game_id: GameId) -> dict[str, Any]:
        """One game's public summary."""
        return (await tables.get(game_id)).summary()

    @app.post("/api/games/{game_id}/join", responses=ERRORS)
    async def join(game_id: GameId, body: JoinGame) -> Joined:
        """Take a free human seat (the first one unless named)."""
        seat, token = await tables.join(game_id, body.seat)
        return Joined(seat=seat, token=token)

    @app.post("/api/games/{game_id}/rematch", status_code=201, responses=ERRORS)
    async def rematch(game_id: GameId, body: Rematch) -> Created:
        """A finished game again with the same seats and options and a new seed, for one of its players (by their
        seat token); the first asks creates it, the others get their own seats in it."""
        table, seat, token = await tables.rematch(game_id, body.token)
        return Created(id=table.id, seat=seat, token=token, play_url=f"/play/{table.id}",
                       join_url=f"/play/{table.id}?join=1", spectate_url=f"/play/{table.id}?spectate=1")

    @app.get("/api/games/{game_id}/record", responses=ERRORS)
    async def record(game_id: GameId) -> dict[str, Any]:
        """The coliseo-record/1 of a finished game (409 while it is being played)."""
        return tables.record(await tables.get(game_id))

    @app.get("/api/games/{game_id}/replay", responses=ERRORS)
    async def replay(game_id: GameId, view: Annotated[str, Query(pattern=r"^(spectator|[0-7])$")] = "spectator",
                     lang: Literal["en", "es"] = "en") -> dict[str, Any]:
        """Every step of a finished game as one player (0, 1, …) or a spectator saw it."""
        table = await tables.get(game_id)
        viewer = None if view == "spectator" else int(view)
        return await asyncio.to_thread(tables.replay, table, viewer, lang)

    # --- the WebSocket -----------------------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def seat_socket(websocket: WebSocket, game_id: str):
        await websocket.accept()
        try:
            hello = await _receive(websocket)
            table = await tables.open(game_id)
            if hello.get("type") != "hello":
                raise ColiseoError("the first message must be {\"type\": \"hello\", \"token\": ..., \"lang\": ...}")
            token = hello.get("token")
            if token is not None and (not isinstance(token, str) or len(token) > 100):
                raise Forbidden("a seat token is a short string")
            seat = table.seat_of(token)
            lang = hello.get("lang") if hello.get("lang") in ("en", "es") else "en"
        except (ColiseoError, NotFound, Forbidden, Conflict) as e:
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "message": str(e), "fatal": True})
                await websocket.close(code=4400 if not isinstance(e, NotFound) else 4404)
            return
        except WebSocketDisconnect:
            return
        watcher = Watcher(seat, lang, websocket.send_json)
        table.watchers.add(watcher)
        try:
            await websocket.send_json(table.payload(seat, lang))
            while True:
                ref = None
                try:
                    message = await _receive(websocket)
                    ref = message.get("ref")
                    if seat is None:
                        raise Forbidden("spectators cannot act")
                    kind, ply = message.get("type"), message.get("ply")
                    if kind not in ("act", "undo") or (kind == "act" and not isinstance(message.get("action"), str)):
                        raise ColiseoError("messages are {\"type\": \"act\", \"action\": notation, \"ply\": n} or "
                                           "{\"type\": \"undo\", \"ply\": n}")
                    if not isinstance(ply, int) or isinstance(ply, bool):
                        raise ColiseoError("act and undo carry \"ply\": the ply of the position they were chosen on")
                    if kind == "act":
                        now = await tables.act(table, seat, message["action"], ply)
                    else:
                        now = await tables.undo(table, seat, ply)
                except MovedOn as e:
                    await websocket.send_json({"type": "error", "message": str(e), "ref": ref, "stale": True})
                    await websocket.send_json(table.payload(seat, lang))
                except (ColiseoError, Forbidden) as e:
                    await websocket.send_json({"type": "error", "message": str(e), "ref": ref})
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception:
                    log.exception("game %s: an action could not be completed", game_id)
                    await websocket.send_json({"type": "error", "ref": ref,
                                               "message": "the server could not store that action; try again"})
                else:
                    await websocket.send_json({"type": "ack", "ref": ref, "ply": now})
        except WebSocketDisconnect:
            pass
        finally:
            table.watchers.discard(watcher)
            tables.release(table)

    # --- pages --------------------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby():
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str):
        return FileResponse(STATIC / "play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str):
        return FileResponse(STATIC / "replay.html")

    @app.get("/rules/{game}", include_in_schema=False, response_class=HTMLResponse)
    async def rules_page(game: Annotated[str, Field(max_length=40)], lang: Literal["en", "es"] = "en"):
        """How to play: the game package's own guide (the `coliseo rules` text) as a page."""
        if game not in game_ids():
            raise NotFound(f"no game {game!r}; the games are: {', '.join(game_ids())}")
        return HTMLResponse(rules_html(load_game(game), lang))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app


def app_from_env() -> FastAPI:
    """The app factory each worker process of `coliseo serve --workers N` calls (settings from the environment)."""
    settings = json.loads(os.environ[SETTINGS_VARIABLE])
    return create_app(settings.pop("db_url"), **settings)


def rules_html(game, lang: str) -> str:
    from markdown_it import MarkdownIt

    try:
        body = MarkdownIt("commonmark", {"html": False}).enable("table").render(game.rules_text(lang))
    except NotImplementedError:
        body = "<p>—</p>"
    back = {"en": "Back to the lobby", "es": "Volver al salón"}[lang]
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(game.name(lang))} · Coliseo</title><link rel="stylesheet" href="/static/style.css">'
            '<link rel="icon" href="/static/icon.svg"></head><body><header><h1><a href="/">Coliseo</a></h1>'
            f'<span>{html.escape(game.name(lang))}</span><span class="spacer"></span><a href="/">{back}</a></header>'
            f'<main class="rules panel">{body}</main></body></html>')


class BodyLimit:
    """413 for a request body over the limit, whether it declares its length or streams in chunks."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self.refuse(send)
        seen, too_large = 0, False

        async def limited_receive():
            nonlocal seen, too_large
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                too_large = True
                raise _TooLarge
            return message

        async def checked_send(message):
            # The app may turn the interrupted read into its own error; the caller gets the 413 instead.
            if not too_large:
                await send(message)
            elif message["type"] == "http.response.start":
                await self.refuse(send)

        try:
            await self.app(scope, limited_receive, checked_send)
        except _TooLarge:
            await self.refuse(send)

    async def refuse(self, send):
        body = json.dumps({"detail": f"request body larger than {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


async def _receive(websocket: WebSocket) -> dict:
    text = await websocket.receive_text()
    if len(text) > MAX_MESSAGE:
        raise ColiseoError(f"message longer than {MAX_MESSAGE} characters")
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        raise ColiseoError("messages must be JSON objects") from None
    if not isinstance(message, dict):
        raise ColiseoError("messages must be JSON objects")
    return message


async def _idle_watch(tables: Tables, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await tables.hand_idle_seats()
