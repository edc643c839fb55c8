"""Where the web table keeps its games: SQLAlchemy, SQLite by default (`--db URL` for PostgreSQL)."""

from .db import MovedOn, Store, StoredGame

__all__ = ["MovedOn", "Store", "StoredGame"]
