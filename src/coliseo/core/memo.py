"""Bounded memo tables for the searches' caches of pure answers."""

from __future__ import annotations


def keep(cache: dict, key, value, limit: int = 20_000):
    """Store `value` under `key` and return it. A search keeps meeting new positions, so a full cache is emptied
    before it grows further (its answers are pure: dropping them costs only the time to make them again)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value
