"""Which games exist and how to load one."""

from __future__ import annotations

import importlib

from .errors import SetupError

# Game id -> module that defines `GAME`, the Game subclass. A game joins the list when it is playable.
GAME_MODULES = {
    "capsule": "coliseo.games.capsule",
}


def list_games() -> list[str]:
    return list(GAME_MODULES)


def game_class(game_id: str):
    if game_id not in GAME_MODULES:
        raise SetupError(f"unknown game {game_id!r}; the games are: {', '.join(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[game_id]).GAME


def load_game(game_id: str, **options):
    """The game `game_id` with the given options (validated; see the game's option schema)."""
    return game_class(game_id)(**options)


def state_from_json(doc: dict):
    """A position document loaded with the game and options it names."""
    from .errors import PositionError

    if not isinstance(doc, dict) or not isinstance(doc.get("game"), str) or not isinstance(doc.get("options"), dict):
        raise PositionError("a position needs the fields 'game' (a game id) and 'options' (an object)")
    return load_game(doc["game"], **doc["options"]).state_from_json(doc)
