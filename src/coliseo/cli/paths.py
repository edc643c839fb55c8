"""Where Coliseo keeps the user's files: records, imported content packs."""

import os
from pathlib import Path


def home() -> Path:
    """`$COLISEO_HOME`, else ~/.local/share/coliseo."""
    return Path(os.environ.get("COLISEO_HOME") or Path.home() / ".local" / "share" / "coliseo")


def records_dir() -> Path:
    path = home() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path
