"""The web table's FastAPI app: REST for games and records, one WebSocket per seat, the static pages.

WebSocket protocol (`/ws/{game_id}`), JSON messages:
  client → {"type": "hello", "token": str | null, "lang": "en" | "es", "invite": str?}   first; null token =
           spectator (who also gives the invite when the creator asked that spectators need it)
  client → {"type": "act", "action": notation, "ply": n, "undos": u, "ref": any}
           {"type": "undo", "ply": n, "undos": u, "ref": any}
  client → {"type": "resign" | "offer-draw" | "accept-draw" | "decline-draw", "ply": n, "undos": u, "ref": any}
  server → {"type": "state", ...}   the reader's whole picture, after every change (see Table.payload)
  server → {"type": "ack", "ref": any, "ply": n}   the action is stored and every reader was sent the new state
  server → {"type": "error", "message": str, "ref": any}
  server → {"type": "error", "message": "the game has moved on: …", "stale": true, "ref": any}, then a "state"
The token travels inside the socket, never in a URL, so it appears in no log.

Every command (act, undo, resign, the draw offers) names the position it was chosen on: the state's "ply" and
"undos" (how many actions were taken back so far; 0 when left out). An undo makes a ply name a second position,
never the pair. Any other position is refused as stale and changes nothing: a double click, a late click or a
replayed message can never land on a later position. The store checks the pair in the same transaction as each
write (a compare-and-set), which settles a race between writers the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import json
import os
import re
import time
from dataclasses import asdict, dataclass
from functools import partial
from importlib import resources
from math import ceil
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from coliseo import __version__
from coliseo.core.errors import ColiseoError
from coliseo.core.reasons import canonical_result
from coliseo.core.registry import game_class, load_game
from coliseo.core.registry import list_games as game_ids
from coliseo.store import Store

from .bus import ALIVE_SECONDS, make_bus
from .guards import Busy, Exclusive, HostGuard, RateLimit, SharedRateLimit, SocketCap, origin_allowed
from .tables import Conflict, Forbidden, MovedOn, NotFound, Tables, Watcher, catalog, log
from .thinking import make_thinker

MAX_BODY = 16 * 1024           # bytes of a REST request body
MAX_MESSAGE = 4 * 1024         # characters of one WebSocket message
MAX_DEPTH = 8                  # arrays and objects inside each other in one WebSocket message (the protocol needs 2)
STATIC = Path(str(resources.files("coliseo.web") / "static"))
GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]


class SeatSpec(BaseModel):
    kind: Literal["human", "ai"]
    agent: str | None = Field(default=None, max_length=40)


class CreateGame(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, bool | int | str | list[str]] = Field(default_factory=dict, max_length=40)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    sides: list[Annotated[str, Field(max_length=40)] | None] | None = Field(
        default=None, max_length=8, description="what each seat plays with (the catalog's `sides`); null: its default")
    idle_seconds: int | None = Field(default=None, ge=5, le=86_400)
    listed: bool = Field(default=False, description="shown in the lobby's list (joinable without the invite)")
    spectators_need_invite: bool = Field(default=False, description="spectating needs the invite link too")


class Created(BaseModel):
    id: str
    seat: int | None
    token: str | None
    invite: str
    play_url: str
    join_url: str
    spectate_url: str


class JoinGame(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=7)
    invite: str | None = Field(default=None, max_length=100, description="the secret of the invite link")


class Listing(BaseModel):
    token: str = Field(max_length=100, description="the creator's seat token")
    listed: bool


class Joined(BaseModel):
    seat: int
    token: str


class Rematch(BaseModel):
    token: str = Field(max_length=100)


class Problem(BaseModel):
    detail: str


# Every error body is a Problem, a 422 too (not FastAPI's list): a route with parameters or a body names 422 at least.
ERRORS = {status: {"model": Problem} for status in (400, 403, 404, 409, 422, 429)}


TABLE_COMMANDS = ("resign", "offer-draw", "accept-draw", "decline-draw")
SETTINGS_VARIABLE = "COLISEO_SERVE"    # create_app's arguments as JSON, for each of `serve --workers N`'s processes


@dataclass(frozen=True)
class Settings:
    """What `coliseo serve` lets the host choose (docs/web.md lists each option)."""

    abandon_after: float = 7 * 86_400     # seconds without an action before an unfinished game ends as abandoned
    max_ai_games: int = 2                 # live games with AI seats only, at once
    games_per_minute: int = 10            # new games per client address
    messages_per_second: int = 20         # WebSocket messages per client address
    hello_seconds: float = 5.0            # a WebSocket that has not said hello by then is closed
    sockets_per_address: int = 50         # open WebSockets per client address (in each process)
    spectators_per_game: int = 100        # spectators' WebSockets per game (in each process)
    allowed_origins: tuple[str, ...] = ()  # origins besides the page's own whose pages may open a WebSocket
    allowed_hosts: tuple[str, ...] | None = None  # Host names served; None: any


def create_app(db_url: str, *, idle_check_seconds: float = 1.0, settings: Settings | None = None,
               redis_url: str | None = None, ai_workers: int | None = None, ray_address: str | None = None,
               ai_lease_seconds: float = 10.0) -> FastAPI:
    """The app over the store at `db_url`; `redis_url` fans changes out to other processes serving the same
    store; AI moves run in `ai_workers` local processes (default: one per core) or on the Ray cluster at
    `ray_address`, each under a lease of `ai_lease_seconds` (renewed while thinking)."""
    settings = settings or Settings()
    store = Store(db_url)
    tables = Tables(store, bus=make_bus(redis_url), thinker=make_thinker(ai_workers, ray_address),
                    lease_seconds=ai_lease_seconds)
    tables.bus.on_reconnect = tables.refresh_all
    tables.bus.on_presence = tables.on_presence
    # New games are counted across the processes of one store; messages per process, whose event loop that limit
    # protects.
    store_key = hashlib.sha256(db_url.encode()).hexdigest()[:16]
    new_games = (RateLimit(settings.games_per_minute, 60) if tables.alone else SharedRateLimit(
        tables.bus.redis, f"{store_key}:games", settings.games_per_minute, 60))
    ai_cap = Exclusive(None if tables.alone else tables.bus.redis, f"{store_key}:ai-only-games")
    messages = RateLimit(settings.messages_per_second, 1)
    origins = tuple(o.rstrip("/").lower() for o in settings.allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI):
        await tables.bus.start(tables.on_notice)
        await tables.sweep_presence()
        tables.thinker.warm()
        await tables.resume_all()
        watchdog = asyncio.get_running_loop().create_task(_idle_watch(tables, idle_check_seconds,
                                                                      settings.abandon_after))
        yield
        watchdog.cancel()
        await tables.bus.close()
        tables.close()
        store.close()

    # FastAPI's own /docs and /redoc load their scripts from a CDN: the app serves Swagger UI itself instead.
    app = FastAPI(title="Coliseo web table", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
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

    @app.exception_handler(Busy)
    async def busy(_request, error: Busy):
        return JSONResponse({"detail": str(error)}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request, error: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors())
        return JSONResponse({"detail": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request, error: StarletteHTTPException):
        return JSONResponse({"detail": str(error.detail)}, status_code=error.status_code)

    def created(table, seat: int | None, token: str | None, invite: str) -> Created:
        watch = f"#invite={invite}" if table.stored.access["spectators_need_invite"] else ""
        return Created(id=table.id, seat=seat, token=token, invite=invite, play_url=f"/play/{table.id}",
                       join_url=f"/play/{table.id}?join=1#invite={invite}",
                       spectate_url=f"/play/{table.id}?spectate=1{watch}")

    # --- REST ------------------------------------------------------------------------------------------
    @app.get("/api/status")
    async def get_status() -> dict[str, Any]:
        """This server process (its id, as its log lines give it): the games it holds in memory and their readers
        (each process of `serve --workers` answers for itself)."""
        return {"version": __version__, "process": os.getpid(), **tables.status()}

    @app.get("/api/catalog", responses={422: ERRORS[422]})
    async def get_catalog(lang: Literal["en", "es"] = "en") -> list[dict[str, Any]]:
        """The games, their options a browser may set, the agents that play them, and the sides a seat may
        pick (named in `lang`)."""
        return catalog(lang)

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

    @app.post("/api/games", status_code=201, responses={**ERRORS, 503: {"model": Problem}})
    async def create(body: CreateGame, request: Request) -> Created:
        """A new game, unlisted unless asked. The creator gets the first human seat's token and the invite
        secret; the join link carries the invite after `#` (never sent to a server, so in no log)."""
        wait = await new_games.wait(request.client.host if request.client else "")
        if wait:
            raise StarletteHTTPException(429, f"too many new games from your address: at most "
                                              f"{settings.games_per_minute} a minute; try again in {ceil(wait)} s")
        robots = all(s.kind == "ai" for s in body.seats)
        # Counted and created under one lock (of every process, with Redis): a burst cannot all see a free place.
        async with ai_cap.held() if robots else contextlib.nullcontext():
            if robots and await tables.ai_only_games() >= settings.max_ai_games:
                raise StarletteHTTPException(429, f"at most {settings.max_ai_games} games between AIs are played "
                                                  "here at once; try again when one has ended")
            table, seat, token, invite = await tables.create(
                body.game, body.options, [s.model_dump() for s in body.seats], body.idle_seconds, sides=body.sides,
                listed=body.listed, spectators_need_invite=body.spectators_need_invite)
        return created(table, seat, token, invite)

    @app.get("/api/games", responses={422: ERRORS[422]})
    async def list_games(limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
        """The most recent listed games (a new game is unlisted until its creator lists it)."""
        rows = await asyncio.to_thread(store.list_games, limit)
        return [{"id": g.id, "game": g.game, "created": g.created, "ply": len(g.actions), "finished": g.finished,
                 "result": canonical_result(game_class(g.game), g.result),   # an older game's code reads as today's
                 "seats": [{"kind": s["kind"], "agent": s.get("agent"),
                            "taken": bool(s.get("token_hash")) or s["kind"] == "ai"} for s in g.seats]}
                for g in rows]

    @app.get("/api/games/{game_id}", responses=ERRORS)
    async def get_game(game_id: GameId) -> dict[str, Any]:
        """One game's public summary."""
        return await tables.summary(game_id)

    @app.post("/api/games/{game_id}/join", responses=ERRORS)
    async def join(game_id: GameId, body: JoinGame) -> Joined:
        """Take a free human seat (the first one unless named); an unlisted game needs its invite."""
        seat, token = await tables.join(game_id, body.seat, body.invite)
        return Joined(seat=seat, token=token)

    @app.post("/api/games/{game_id}/listing", responses=ERRORS)
    async def listing(game_id: GameId, body: Listing) -> dict[str, bool]:
        """The creator lists the game in the lobby (anyone may then join it) or takes it off."""
        async with tables.reading(game_id) as table:
            await tables.set_listed(table, body.token, body.listed)
        return {"listed": body.listed}

    @app.post("/api/games/{game_id}/rematch", status_code=201, responses=ERRORS)
    async def rematch(game_id: GameId, body: Rematch) -> Created:
        """A finished game again with the same seats and options and a new seed, for one of its players (by their
        seat token); the first asks creates it, the others get their own seats in it."""
        table, seat, token, invite = await tables.rematch(game_id, body.token)
        return created(table, seat, token, invite)

    @app.get("/api/games/{game_id}/record", responses=ERRORS)
    async def record(game_id: GameId) -> dict[str, Any]:
        """The coliseo-record/1 of a finished game (409 while it is being played)."""
        async with tables.reading(game_id) as table:
            return tables.record(table)

    @app.get("/api/games/{game_id}/replay", responses=ERRORS)
    async def replay(game_id: GameId, view: Annotated[str, Query(pattern=r"^(spectator|[0-7])$")] = "spectator",
                     lang: Literal["en", "es"] = "en") -> dict[str, Any]:
        """Every step of a finished game as one player (0, 1, …) or a spectator saw it."""
        viewer = None if view == "spectator" else int(view)
        async with tables.reading(game_id) as table:
            return await asyncio.to_thread(tables.replay, table, viewer, lang)

    # --- the WebSocket -----------------------------------------------------------------------------------
    async def receive(websocket: WebSocket, client: str, hello_within: float | None = None) -> dict:
        """The next message, counted against the client's rate before anything else is done with it, then parsed."""
        try:
            text = await asyncio.wait_for(_receive_text(websocket), hello_within)
        except TimeoutError:
            raise ColiseoError(f"no hello within {hello_within:g} s; the socket is closed") from None
        if await messages.wait(client):
            raise TooMany(f"too many messages: at most {settings.messages_per_second} a second; this one was "
                               "ignored", es=f"demasiados mensajes: como mucho {settings.messages_per_second} por "
                               "segundo; este se ha ignorado")
        return _parse(text)

    @app.websocket("/ws/{game_id}")
    async def seat_socket(websocket: WebSocket, game_id: str):
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host", ""), origins):
            await websocket.close(code=4403)   # before accepting: the browser gets a 403 for the handshake
            return
        client = websocket.client.host if websocket.client else ""
        await websocket.accept()
        try:
            hello = await receive(websocket, client, settings.hello_seconds)
            table = await tables.open(game_id)
            if hello.get("type") != "hello":
                raise ColiseoError("the first message must be {\"type\": \"hello\", \"token\": ..., \"lang\": ...}")
            token = hello.get("token")
            if token is not None and (not isinstance(token, str) or len(token) > 100):
                raise Forbidden("a seat token is a short string")
            seat = table.seat_of(token)
            if seat is None and not table.may_watch(hello.get("invite")):
                raise Forbidden("watching this game needs its invite link")
            lang = hello.get("lang") if hello.get("lang") in ("en", "es") else "en"
        except TooMany as e:
            await _try_later(websocket, str(e))
            return
        except (ColiseoError, NotFound, Forbidden, Conflict) as e:
            if isinstance(e, Malformed):
                _warn_malformed(client, e)
            with contextlib.suppress(Exception):
                await websocket.send_json({"type": "error", "message": str(e), "fatal": True})
                await websocket.close(code=4400 if not isinstance(e, NotFound) else 4404)
            return
        except WebSocketDisconnect:
            return
        if seat is None and sum(w.seat is None for w in table.watchers) >= settings.spectators_per_game:
            await _try_later(websocket, f"this game has {settings.spectators_per_game} spectators already, the most "
                                        "this server lets in; try again later")
            return
        if seat is not None:
            await tables.reclaim(table, seat)
        watcher = Watcher(seat, lang, websocket.send_json)
        table = await tables.add_reader(table, watcher)
        try:
            await websocket.send_json(await table.settled(partial(table.payload, seat, lang)))
            await tables.seen(table, watcher)
            warned = False
            while True:
                ref = None
                try:
                    message = await receive(websocket, client)
                    ref = message.get("ref")
                    if seat is None:
                        raise Forbidden("spectators cannot act")
                    kind, ply = message.get("type"), message.get("ply")
                    if kind not in ("act", "undo", *TABLE_COMMANDS) or (
                            kind == "act" and not isinstance(message.get("action"), str)):
                        raise ColiseoError("messages are {\"type\": \"act\", \"action\": notation, \"ply\": n} or "
                                           "{\"type\": \"undo\" | \"resign\" | \"offer-draw\" | \"accept-draw\" | "
                                           "\"decline-draw\", \"ply\": n}")
                    if not isinstance(ply, int) or isinstance(ply, bool):
                        raise ColiseoError(f"{kind} carries \"ply\": the ply of the position it was chosen on")
                    undos = message.get("undos", 0)
                    if not isinstance(undos, int) or isinstance(undos, bool):
                        raise ColiseoError(f"{kind} carries \"undos\": the state's count of actions taken back")
                    if kind == "act":
                        now = await tables.act(table, seat, message["action"], ply, lang, undos)
                    elif kind == "undo":
                        now = await tables.undo(table, seat, ply, undos)
                    else:
                        now = await tables.command(table, seat, kind, ply, undos)
                except MovedOn as e:
                    await websocket.send_json({"type": "error", "message": e.text(lang), "ref": ref, "stale": True})
                    await websocket.send_json(await table.settled(partial(table.payload, seat, lang)))
                except ColiseoError as e:
                    if isinstance(e, Malformed) and not warned:
                        warned = _warn_malformed(client, e)
                    await websocket.send_json({"type": "error", "message": e.text(lang), "ref": ref})
                except Forbidden as e:
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
            await tables.seen(table)
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

    @app.get("/docs", include_in_schema=False)
    async def api_docs():
        return FileResponse(STATIC / "docs.html")

    @app.get("/rules/{game}", include_in_schema=False, response_class=HTMLResponse)
    async def rules_page(game: Annotated[str, Field(max_length=40)], lang: Literal["en", "es"] = "en"):
        """How to play: the game package's own guide (the `coliseo rules` text) as a page."""
        if game not in game_ids():
            raise NotFound(f"no game {game!r}; the games are: {', '.join(game_ids())}")
        return HTMLResponse(rules_html(load_game(game), lang))

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SocketCap, limit=settings.sockets_per_address)
    app.add_middleware(HostGuard, hosts=settings.allowed_hosts)
    return app


def app_from_env() -> FastAPI:
    """The app factory each worker process of `coliseo serve --workers N` calls (settings from the environment)."""
    arguments = json.loads(os.environ[SETTINGS_VARIABLE])
    return create_app(arguments.pop("db_url"), settings=settings_from_json(arguments.pop("settings")), **arguments)


def settings_to_json(settings: Settings) -> dict:
    return asdict(settings)


def settings_from_json(doc: dict) -> Settings:
    hosts = doc.get("allowed_hosts")
    return Settings(**{**doc, "allowed_origins": tuple(doc.get("allowed_origins", ())),
                       "allowed_hosts": None if hosts is None else tuple(hosts)})


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


class TooMany(ColiseoError):
    """A WebSocket message over the client's rate: ignored."""


async def _try_later(websocket: WebSocket, message: str) -> None:
    """Refuse a socket for now: not as fatal, so a page tries again a few seconds later."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=4429)


class Malformed(ColiseoError):
    """A WebSocket message that is not a JSON object of the protocol's shape: too long, binary, too deep, not JSON."""


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    if message.get("text") is None:
        raise Malformed("messages must be JSON text, not binary")
    return message["text"]


def _parse(text: str) -> dict:
    """The message as a JSON object; its nesting is measured first, so that no message can make the parser recurse
    deeply."""
    if len(text) > MAX_MESSAGE:
        raise Malformed(f"message longer than {MAX_MESSAGE} characters")
    if _depth(text) > MAX_DEPTH:
        raise Malformed(f"message nested deeper than {MAX_DEPTH} arrays or objects")
    try:
        message = json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError:
        raise Malformed("messages must be JSON objects") from None
    if not isinstance(message, dict):
        raise Malformed("messages must be JSON objects")
    return message


JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')     # a string (skipped whole) or a bracket


def _depth(text: str) -> int:
    """How deeply `text` nests arrays and objects, brackets inside strings aside (malformed text may count more)."""
    depth = deepest = 0
    for token in JSON_NESTING.finditer(text):
        if token[0] in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token[0] in "]}":
            depth -= 1
    return deepest


def _warn_malformed(client: str, error: Malformed) -> bool:
    """One line (no traceback, nothing of the message itself) for the first malformed message of a socket."""
    log.warning("a WebSocket client at %s sent a malformed message (%s); any more on that socket are answered "
                "but not logged", client, error)
    return True


def _not_json(name: str):
    raise Malformed(f"{name} is not a JSON number (JSON has no NaN or Infinity); send a finite number")


async def _idle_watch(tables: Tables, every: float, abandon_after: float) -> None:
    # Abandonment asks the store about every game: not more often than a tenth of its limit (or a minute).
    abandon_every, last_abandon = min(60.0, abandon_after / 10), 0.0
    presence_every, last_presence = ALIVE_SECONDS / 3, time.monotonic()
    while True:
        await asyncio.sleep(every)
        try:
            await tables.hand_idle_seats()
            tables.let_go_unread()
            if time.monotonic() - last_presence >= presence_every:
                last_presence = time.monotonic()
                await tables.sweep_presence()
            if time.monotonic() - last_abandon >= abandon_every:
                last_abandon = time.monotonic()
                await tables.abandon_idle(abandon_after)
        except Exception:
            log.exception("the idle watch failed; it tries again")
