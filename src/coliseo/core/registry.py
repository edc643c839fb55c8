"""Which games exist and how to load one."""

from __future__ import annotations

import importlib
import importlib.util
import json
import threading
import weakref
from collections import OrderedDict

from .errors import SetupError
from .options import resolve_options

# Every game the engine knows, in display order. A game is listed once its package
# `coliseo.games.<id>` exists; the package defines `GAME`, its Game subclass.
GAME_IDS = ("capsule", "dungeon_dice", "fantastiqa", "forbidden")
RECENT_GAMES = 32              # games kept loaded when nothing else holds them

# A Game is immutable once built, so every caller gets the one per (game, options, content): held as long as anything
# uses it, and the last RECENT_GAMES loaded besides (a loop loading and dropping a game does not build it each time).
_shared: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_recent: OrderedDict = OrderedDict()
_building = threading.RLock()


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
    """The game `game_id` with the given options (validated; see the game's option schema): the same object for the
    same options, defaults spelled out or not, while its content files are unchanged."""
    cls = game_class(game_id)
    resolved = resolve_options(cls.options_schema, options)
    text = json.dumps(resolved, sort_keys=True)
    key = (game_id, text, cls.content_key(resolved))
    with _building:
        game = _shared.get(key)
        if game is None:                   # built from its own copy: no caller's list is shared with it
            game = _shared[key] = cls(**json.loads(text))
        _recent[key] = game
        _recent.move_to_end(key)
        while len(_recent) > RECENT_GAMES:
            _recent.popitem(last=False)
    return game


def state_from_json(doc: dict):
    """A position document loaded with the game and options it names."""
    from .errors import PositionError

    if not isinstance(doc, dict) or not isinstance(doc.get("game"), str) or not isinstance(doc.get("options"), dict):
        raise PositionError("a position needs the fields 'game' (a game id) and 'options' (an object)")
    return load_game(doc["game"], **doc["options"]).state_from_json(doc)
