"""Where the web table keeps its games: SQLAlchemy, SQLite by default (`--db URL` for PostgreSQL)."""

from .db import PlyTaken, Store, StoredGame

__all__ = ["PlyTaken", "Store", "StoredGame"]
