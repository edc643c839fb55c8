"""The web table's FastAPI app: the service (store, tables, bus, AI pool, limits) behind the REST API (api.py),
the WebSocket (sockets.py) and the pages (pages.py), with the error bodies, headers and limits they share."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from coliseo import __version__
from coliseo.core.errors import ColiseoError
from coliseo.store import Store

from . import api, pages, sockets
from .bus import ALIVE_SECONDS, make_bus
from .guards import Busy, Exclusive, HostGuard, RateLimit, SharedRateLimit, SocketCap
from .pages import STATIC
from .table import Conflict, Forbidden, NotFound, log
from .tables import Tables
from .thinking import make_thinker

MAX_BODY = 16 * 1024           # bytes of a REST request body
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
    app.state.tables, app.state.store, app.state.settings = tables, store, settings
    app.state.new_games, app.state.ai_cap, app.state.messages, app.state.origins = new_games, ai_cap, messages, origins
    for routes in (api.router, sockets.router, pages.router):
        app.include_router(routes)

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
