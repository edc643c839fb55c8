"""Where the web table keeps its games: SQLAlchemy, SQLite by default (`--db URL` for PostgreSQL)."""

from .db import AlreadyRematched, PlyTaken, Store, StoredGame

__all__ = ["AlreadyRematched", "PlyTaken", "Store", "StoredGame"]
