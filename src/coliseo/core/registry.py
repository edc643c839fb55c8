"""Which games exist and how to load one."""

from __future__ import annotations

import importlib
import importlib.util

from .errors import SetupError

# Every game the engine knows, in display order. A game is listed once its package
# `coliseo.games.<id>` exists; the package defines `GAME`, its Game subclass.
GAME_IDS = ("capsule", "dungeon_dice", "fantastiqa", "forbidden")


def list_games() -> list[str]:
    return [g for g in GAME_IDS if _has_package(g)]


def _has_package(game_id: str) -> bool:
    spec = importlib.util.find_spec(f"coliseo.games.{game_id}")
    return spec is not None and bool(spec.origin) and spec.origin.endswith("__init__.py")


def game_class(game_id: str):
    if game_id not in list_games():
        raise SetupError(f"unknown game {game_id!r}; the games are: {', '.join(list_games())}")
    return importlib.import_module(f"coliseo.games.{game_id}").GAME


def load_game(game_id: str, **options):
    """The game `game_id` with the given options (validated; see the game's option schema)."""
    return game_class(game_id)(**options)


def state_from_json(doc: dict):
    """A position document loaded with the game and options it names."""
    from .errors import PositionError

    if not isinstance(doc, dict) or not isinstance(doc.get("game"), str) or not isinstance(doc.get("options"), dict):
        raise PositionError("a position needs the fields 'game' (a game id) and 'options' (an object)")
    return load_game(doc["game"], **doc["options"]).state_from_json(doc)
