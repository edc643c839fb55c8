"""Where the web table keeps its games: SQLAlchemy, SQLite by default (`--db URL` for PostgreSQL)."""

from .db import Store, StoredGame

__all__ = ["Store", "StoredGame"]
