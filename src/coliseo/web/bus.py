"""Fan-out between server processes: after a commit, "game G is at ply N" on the game's channel.

Nothing private travels here: a process that hears a notice reloads the game from the store and
sends each of its readers their own payload. One process needs no bus server (`LocalBus`);
several processes share Redis pub/sub (`RedisBus`), one channel per game, each process listening only to the
games it holds (a notice costs CPU in every process that receives it).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("coliseo.web")
CHANNEL = "coliseo:game:"
PROCESSES = "coliseo:processes"          # always listened to: a process holding no game still has its subscription
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

    def watch(self, game_id: str) -> None:
        pass

    def unwatch(self, game_id: str) -> None:
        pass

    async def close(self) -> None:
        self.handler = None


class RedisBus:
    """Redis pub/sub: publish on `coliseo:game:<id>`, listen to the channels of the games this process holds."""

    def __init__(self, url: str, *, on_reconnect: Callable[[], Awaitable[None]] | None = None):
        import redis.asyncio as redis

        self.url = url
        self.redis = redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)
        self.handler: Handler | None = None
        self.on_reconnect = on_reconnect
        self.listening: asyncio.Task | None = None
        self.subscribing: asyncio.Task | None = None
        self.pubsub = None
        self.watched: set[str] = set()         # the games held here
        self.subscribed: set[str] = set()      # the games whose channels the pubsub connection listens to
        self.resubscribe = asyncio.Event()

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(PROCESSES)     # fails here, at start, if Redis is unreachable
        loop = asyncio.get_running_loop()
        self.listening = loop.create_task(self._listen())
        self.subscribing = loop.create_task(self._subscriptions())

    def watch(self, game_id: str) -> None:
        """Listen to the game's notices (this process now holds it)."""
        self.watched.add(game_id)
        self.resubscribe.set()

    def unwatch(self, game_id: str) -> None:
        self.watched.discard(game_id)
        self.resubscribe.set()

    async def _subscriptions(self) -> None:
        """One task makes the subscriptions follow `watched`, so that changes apply in the order they were made."""
        while True:
            await self.resubscribe.wait()
            self.resubscribe.clear()
            wanted = set(self.watched)
            try:
                if wanted - self.subscribed:
                    await self.pubsub.subscribe(*(CHANNEL + g for g in wanted - self.subscribed))
                if self.subscribed - wanted:
                    await self.pubsub.unsubscribe(*(CHANNEL + g for g in self.subscribed - wanted))
                self.subscribed = wanted
            except Exception:  # noqa: BLE001 - Redis went away: the listener starts over when it is back
                log.warning("could not change the subscriptions on the Redis bus at %s", self.url)

    async def publish(self, game_id: str, ply: int, sender: str) -> None:
        try:
            await self.redis.publish(CHANNEL + game_id, json.dumps({"game": game_id, "ply": ply, "from": sender}))
        except Exception:  # noqa: BLE001 - the action is stored; other processes catch up on their next notice
            log.warning("could not publish game %s at ply %s on %s", game_id, ply, self.url)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") == "message":
                        await self._deliver(message["data"])
            except asyncio.CancelledError:
                await self.pubsub.aclose()
                raise
            except Exception:  # noqa: BLE001 - Redis went away: subscribe again, then catch up from the store
                log.warning("lost the Redis bus at %s; reconnecting", self.url)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await self.pubsub.aclose()
                    self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                    await self.pubsub.subscribe(PROCESSES)
                    self.subscribed = set()
                    self.resubscribe.set()
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
        for task in (self.subscribing, self.listening):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self.redis.aclose()


def make_bus(redis_url: str | None, on_reconnect=None) -> LocalBus | RedisBus:
    return RedisBus(redis_url, on_reconnect=on_reconnect) if redis_url else LocalBus()
