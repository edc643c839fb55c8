"""The web table's REST API: the catalog and content, games (create, list, join, list in the lobby, rematch),
their records and replays. Each route reaches the service (tables, store, settings, limits) through
`request.app.state`, which `create_app` fills."""

from __future__ import annotations

import asyncio
import contextlib
import os
from math import ceil
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from coliseo import __version__
from coliseo.agents import agent_names
from coliseo.core.errors import ColiseoError
from coliseo.core.reasons import canonical_result
from coliseo.core.registry import game_class, load_game
from coliseo.core.registry import list_games as game_ids

from .table import SERVER_ONLY_OPTIONS, NotFound, board_of

GameId = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]
router = APIRouter()


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


def created(table, seat: int | None, token: str | None, invite: str) -> Created:
    watch = f"#invite={invite}" if table.stored.access["spectators_need_invite"] else ""
    return Created(id=table.id, seat=seat, token=token, invite=invite, play_url=f"/play/{table.id}",
                   join_url=f"/play/{table.id}?join=1#invite={invite}",
                   spectate_url=f"/play/{table.id}?spectate=1{watch}")


@router.get("/api/status")
async def get_status(request: Request) -> dict[str, Any]:
    """This server process (its id, as its log lines give it): the games it holds in memory and their readers
    (each process of `serve --workers` answers for itself)."""
    return {"version": __version__, "process": os.getpid(), **request.app.state.tables.status()}


@router.get("/api/catalog", responses={422: ERRORS[422]})
async def get_catalog(lang: Literal["en", "es"] = "en") -> list[dict[str, Any]]:
    """The games, their options a browser may set, the agents that play them, and the sides a seat may
    pick (named in `lang`)."""
    return catalog(lang)


@router.get("/api/content/{game}", responses=ERRORS)
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


@router.post("/api/games", status_code=201, responses={**ERRORS, 503: {"model": Problem}})
async def create(body: CreateGame, request: Request) -> Created:
    """A new game, unlisted unless asked. The creator gets the first human seat's token and the invite
    secret; the join link carries the invite after `#` (never sent to a server, so in no log)."""
    service = request.app.state
    tables, settings = service.tables, service.settings
    wait = await service.new_games.wait(request.client.host if request.client else "")
    if wait:
        raise StarletteHTTPException(429, f"too many new games from your address: at most "
                                          f"{settings.games_per_minute} a minute; try again in {ceil(wait)} s")
    robots = all(s.kind == "ai" for s in body.seats)
    # Counted and created under one lock (of every process, with Redis): a burst cannot all see a free place.
    async with service.ai_cap.held() if robots else contextlib.nullcontext():
        if robots and await tables.ai_only_games() >= settings.max_ai_games:
            raise StarletteHTTPException(429, f"at most {settings.max_ai_games} games between AIs are played "
                                              "here at once; try again when one has ended")
        table, seat, token, invite = await tables.create(
            body.game, body.options, [s.model_dump() for s in body.seats], body.idle_seconds, sides=body.sides,
            listed=body.listed, spectators_need_invite=body.spectators_need_invite)
    return created(table, seat, token, invite)


@router.get("/api/games", responses={422: ERRORS[422]})
async def list_games(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
    """The most recent listed games (a new game is unlisted until its creator lists it)."""
    rows = await asyncio.to_thread(request.app.state.store.list_games, limit)
    return [{"id": g.id, "game": g.game, "created": g.created, "ply": len(g.actions), "finished": g.finished,
             "result": canonical_result(game_class(g.game), g.result),   # an older game's code reads as today's
             "seats": [{"kind": s["kind"], "agent": s.get("agent"),
                        "taken": bool(s.get("token_hash")) or s["kind"] == "ai"} for s in g.seats]}
            for g in rows]


@router.get("/api/games/{game_id}", responses=ERRORS)
async def get_game(request: Request, game_id: GameId) -> dict[str, Any]:
    """One game's public summary."""
    return await request.app.state.tables.summary(game_id)


@router.post("/api/games/{game_id}/join", responses=ERRORS)
async def join(request: Request, game_id: GameId, body: JoinGame) -> Joined:
    """Take a free human seat (the first one unless named); an unlisted game needs its invite."""
    tables = request.app.state.tables
    seat, token = await tables.join(game_id, body.seat, body.invite)
    return Joined(seat=seat, token=token)


@router.post("/api/games/{game_id}/listing", responses=ERRORS)
async def listing(request: Request, game_id: GameId, body: Listing) -> dict[str, bool]:
    """The creator lists the game in the lobby (anyone may then join it) or takes it off."""
    tables = request.app.state.tables
    async with tables.reading(game_id) as table:
        await tables.set_listed(table, body.token, body.listed)
    return {"listed": body.listed}


@router.post("/api/games/{game_id}/rematch", status_code=201, responses=ERRORS)
async def rematch(request: Request, game_id: GameId, body: Rematch) -> Created:
    """A finished game again with the same seats and options and a new seed, for one of its players (by their
    seat token); the first asks creates it, the others get their own seats in it."""
    tables = request.app.state.tables
    table, seat, token, invite = await tables.rematch(game_id, body.token)
    return created(table, seat, token, invite)


@router.get("/api/games/{game_id}/record", responses=ERRORS)
async def record(request: Request, game_id: GameId) -> dict[str, Any]:
    """The coliseo-record/1 of a finished game (409 while it is being played)."""
    tables = request.app.state.tables
    async with tables.reading(game_id) as table:
        return tables.record(table)


@router.get("/api/games/{game_id}/replay", responses=ERRORS)
async def replay(request: Request, game_id: GameId,
                 view: Annotated[str, Query(pattern=r"^(spectator|[0-7])$")] = "spectator",
                 lang: Literal["en", "es"] = "en") -> dict[str, Any]:
    """Every step of a finished game as one player (0, 1, …) or a spectator saw it."""
    tables = request.app.state.tables
    viewer = None if view == "spectator" else int(view)
    async with tables.reading(game_id) as table:
        return await asyncio.to_thread(tables.replay_frames, table, viewer, lang)


def catalog(lang: str = "en") -> list[dict]:
    """The games a lobby can offer: names, player counts, the options a browser may set, the agents, the sides
    a seat may pick (in `lang`)."""
    out = []
    for game_id in game_ids():
        game = load_game(game_id)
        left_out = SERVER_ONLY_OPTIONS | game.inert_options()
        options = []
        for o in game.options_schema:
            if o.name in left_out:
                continue
            kind = (o.kind or type(o.default)).__name__
            words = game.option_value_words(o.name, lang)
            options.append({"name": o.name, "default": o.default, "help": o.help, "kind": kind,
                            "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
                            "value_words": words and [[value, text] for value, text in words.items()]})
        out.append({"id": game_id, "names": dict(game.names), "min_players": game.min_players,
                    "max_players": game.max_players, "options": options, "agents": agent_names(game_id),
                    "sides": game.sides(lang), "side_word": game.side_word.get(lang, ""), "board": board_of(game_id)})
    return out
