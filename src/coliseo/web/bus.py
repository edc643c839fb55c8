"""Fan-out between server processes: after a commit, "game G is at ply N" on the game's channel.

Nothing private travels here: a process that hears a notice reloads the game from the store and
sends each of its readers their own payload. One process needs no bus server (`LocalBus`);
several processes share Redis pub/sub (`RedisBus`), one channel per game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("coliseo.web")
CHANNEL = "coliseo:game:"
Handler = Callable[[str, int, str], Awaitable[None]]      # (game id, ply, sender)


class LocalBus:
    """Every table lives in this one process, so a notice only goes back to it."""

    def __init__(self) -> None:
        self.handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler

    async def publish(self, game_id: str, ply: int, sender: str) -> None:
        if self.handler is not None:
            await self.handler(game_id, ply, sender)

    async def close(self) -> None:
        self.handler = None


class RedisBus:
    """Redis pub/sub: publish on `coliseo:game:<id>`, listen to every game's channel (a pattern)."""

    def __init__(self, url: str, *, on_reconnect: Callable[[], Awaitable[None]] | None = None):
        import redis.asyncio as redis

        self.url = url
        self.redis = redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)
        self.handler: Handler | None = None
        self.on_reconnect = on_reconnect
        self.listening: asyncio.Task | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(CHANNEL + "*")     # fails here, at start, if Redis is unreachable
        self.listening = asyncio.get_running_loop().create_task(self._listen(pubsub))

    async def publish(self, game_id: str, ply: int, sender: str) -> None:
        try:
            await self.redis.publish(CHANNEL + game_id, json.dumps({"game": game_id, "ply": ply, "from": sender}))
        except Exception:  # noqa: BLE001 - the action is stored; other processes catch up on their next notice
            log.warning("could not publish game %s at ply %s on %s", game_id, ply, self.url)

    async def _listen(self, pubsub) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "pmessage":
                        await self._deliver(message["data"])
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception:  # noqa: BLE001 - Redis went away: subscribe again, then catch up from the store
                log.warning("lost the Redis bus at %s; reconnecting", self.url)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                    pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                    await pubsub.psubscribe(CHANNEL + "*")
                    if self.on_reconnect is not None:
                        await self.on_reconnect()

    async def _deliver(self, data: bytes) -> None:
        try:
            notice = json.loads(data)
            game_id, ply, sender = str(notice["game"]), int(notice["ply"]), str(notice["from"])
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed bus notice")
            return
        try:
            await self.handler(game_id, ply, sender)
        except Exception:
            log.exception("game %s: a bus notice could not be applied", game_id)

    async def close(self) -> None:
        if self.listening is not None:
            self.listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listening
        await self.redis.aclose()


def make_bus(redis_url: str | None, on_reconnect=None) -> LocalBus | RedisBus:
    return RedisBus(redis_url, on_reconnect=on_reconnect) if redis_url else LocalBus()
