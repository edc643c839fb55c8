"""Where the web table keeps its games: SQLAlchemy, SQLite by default (`--db URL` for PostgreSQL)."""

from .db import WRITERS, AlreadyRematched, PlyTaken, Store, StoredGame

__all__ = ["WRITERS", "AlreadyRematched", "PlyTaken", "Store", "StoredGame"]
