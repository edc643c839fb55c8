"""The web table's pages: the lobby, a table, a replay, the API docs and each game's rules."""

from __future__ import annotations

import html
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import Field

from coliseo.core.registry import list_games as game_ids
from coliseo.core.registry import load_game

from .table import NotFound

STATIC = Path(str(resources.files("coliseo.web") / "static"))
router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby():
    return FileResponse(STATIC / "index.html")


@router.get("/play/{game_id}", include_in_schema=False)
async def play_page(game_id: str):
    return FileResponse(STATIC / "play.html")


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(game_id: str):
    return FileResponse(STATIC / "replay.html")


@router.get("/docs", include_in_schema=False)
async def api_docs():
    return FileResponse(STATIC / "docs.html")


@router.get("/rules/{game}", include_in_schema=False, response_class=HTMLResponse)
async def rules_page(game: Annotated[str, Field(max_length=40)], lang: Literal["en", "es"] = "en"):
    """How to play: the game package's own guide (the `coliseo rules` text) as a page."""
    if game not in game_ids():
        raise NotFound(f"no game {game!r}; the games are: {', '.join(game_ids())}")
    return HTMLResponse(rules_html(load_game(game), lang))


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
