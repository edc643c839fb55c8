"""Coliseo: one engine for four monster games with hidden information and chance."""

__version__ = "0.1.0"

from coliseo.core.errors import (  # noqa: E402
    ColiseoError,
    ContentError,
    IllegalAction,
    InvalidNotation,
    PositionError,
    RecordError,
    SetupError,
)
from coliseo.core.registry import list_games, load_game  # noqa: E402

__all__ = ["load_game", "list_games", "ColiseoError", "ContentError", "IllegalAction", "InvalidNotation",
           "PositionError", "RecordError", "SetupError", "__version__"]
