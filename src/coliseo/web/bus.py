"""Fan-out between server processes: after a commit, "game G is at ply N" on the game's channel.

Nothing private travels here: a process that hears a notice reloads the game from the store and
sends each of its readers their own payload. One process needs no bus server (`LocalBus`);
several processes share Redis pub/sub (`RedisBus`), one channel per game, each process listening only to the
games it holds (a notice costs CPU in every process that receives it).

A process reads a game from the store only after Redis has confirmed its subscription to the game's channel
(`hold`): a move stored after that read is published after it too, so its notice reaches the process.

Presence (which seats have a reader at the table) is shared the same way: each process keeps, in a Redis hash per
game, the seats whose readers it serves, and says "presence of G changed" on the game's channel. A process also
keeps a key that expires unless it is refreshed: the seats of a process that stopped refreshing it are not counted.
The hash of a game expires the same way, so a game whose only reader was served by a process that died leaves
nothing behind in Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable

log = logging.getLogger("coliseo.web")
CHANNEL = "coliseo:game:"
PROCESSES = "coliseo:processes"          # always listened to: a process holding no game still has its subscription
PRESENCE = "coliseo:presence:"           # a hash per game: process -> the seats it serves readers of (a JSON list)
ALIVE = "coliseo:alive:"                 # a key per process, refreshed while it runs
ALIVE_SECONDS = 15
Handler = Callable[[str, int, str], Awaitable[None]]      # (game id, ply, sender)
PresenceHandler = Callable[[str, str], Awaitable[None]]   # (game id, sender)


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

    async def hold(self, game_id: str) -> None:
        pass

    def unwatch(self, game_id: str) -> None:
        pass

    async def share_presence(self, game_id: str, owner: str, seats: set[int]) -> None:
        pass

    async def presence_elsewhere(self, game_id: str, owner: str) -> set[int]:
        return set()

    async def heartbeat(self, owner: str) -> None:
        pass

    async def close(self) -> None:
        self.handler = None


class RedisBus:
    """Redis pub/sub: publish on `coliseo:game:<id>`, listen to the channels of the games this process holds."""

    def __init__(self, url: str, *, on_reconnect: Callable[[], Awaitable[None]] | None = None):
        import redis.asyncio as redis

        self.url = url
        # Named after the process, so that CLIENT LIST tells which server each connection belongs to.
        self.redis = redis.from_url(url, socket_connect_timeout=5, health_check_interval=30,
                                    client_name=client_name())
        self.handler: Handler | None = None
        self.on_presence: PresenceHandler | None = None
        self.alive_as: str | None = None       # this process, once its presence counts
        self.on_reconnect = on_reconnect
        self.listening: asyncio.Task | None = None
        self.subscribing: asyncio.Task | None = None
        self.pubsub = None
        self.watched: set[str] = set()         # the games held here
        self.present_in: set[str] = set()      # the games whose presence hash has an entry of this process
        self.subscribed: set[str] = set()      # the games whose channels the pubsub connection listens to
        self.unconfirmed: dict[str, int] = {}  # game -> its subscriptions sent that Redis has not confirmed yet
        self.confirmations = asyncio.Condition()
        self.resubscribe = asyncio.Event()
        self.reconnected: asyncio.Task | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        await self._connect()                      # fails here, at start, if Redis is unreachable
        loop = asyncio.get_running_loop()
        self.listening = loop.create_task(self._listen())
        self.subscribing = loop.create_task(self._subscriptions())

    def watch(self, game_id: str) -> None:
        """Listen to the game's notices (this process now holds it)."""
        self.watched.add(game_id)
        self.resubscribe.set()

    async def hold(self, game_id: str) -> None:
        """Watch the game and return once Redis has confirmed the subscription: every notice of the game published
        from then on reaches this process."""
        self.watch(game_id)
        await self._confirmed({game_id})

    def unwatch(self, game_id: str) -> None:
        self.watched.discard(game_id)
        self.resubscribe.set()

    async def _confirmed(self, games: set[str], seconds: float = 5.0) -> None:
        """Wait until Redis has confirmed the subscriptions to those of `games` still watched (or `seconds` passed:
        Redis is down, and every held game is reloaded when it is back)."""
        def ready() -> bool:
            return all(g in self.subscribed and not self.unconfirmed.get(g) for g in games & self.watched)

        try:
            async with asyncio.timeout(seconds), self.confirmations:
                await self.confirmations.wait_for(ready)
        except TimeoutError:
            log.warning("Redis at %s did not confirm a subscription within %s s", self.url, seconds)

    async def _confirm(self, channel: bytes | str) -> None:
        """Redis confirmed a subscription (confirmations come in the order the subscriptions were sent)."""
        game_id = (channel.decode() if isinstance(channel, bytes) else channel).removeprefix(CHANNEL)
        if self.unconfirmed.get(game_id, 0) > 1:
            self.unconfirmed[game_id] -= 1
        elif self.unconfirmed.pop(game_id, None) is not None:
            async with self.confirmations:
                self.confirmations.notify_all()

    async def _connect(self) -> None:
        self.pubsub = self.redis.pubsub()          # subscription confirmations included: `hold` waits for them
        await self.pubsub.subscribe(PROCESSES)
        self.subscribed, self.unconfirmed = set(), {}

    async def _subscriptions(self) -> None:
        """One task makes the subscriptions follow `watched`, so that changes apply in the order they were made."""
        while True:
            await self.resubscribe.wait()
            self.resubscribe.clear()
            wanted = set(self.watched)
            try:
                if wanted - self.subscribed:
                    for g in wanted - self.subscribed:
                        self.unconfirmed[g] = self.unconfirmed.get(g, 0) + 1
                    await self.pubsub.subscribe(*(CHANNEL + g for g in wanted - self.subscribed))
                if self.subscribed - wanted:
                    await self.pubsub.unsubscribe(*(CHANNEL + g for g in self.subscribed - wanted))
                self.subscribed = wanted
                async with self.confirmations:
                    self.confirmations.notify_all()
            except Exception:  # noqa: BLE001 - Redis went away: the listener starts over when it is back
                log.warning("could not change the subscriptions on the Redis bus at %s", self.url)

    async def publish(self, game_id: str, ply: int, sender: str) -> None:
        try:
            await self.redis.publish(CHANNEL + game_id, json.dumps({"game": game_id, "ply": ply, "from": sender}))
        except Exception:  # noqa: BLE001 - the action is stored; other processes catch up on their next notice
            log.warning("could not publish game %s at ply %s on %s", game_id, ply, self.url)

    async def share_presence(self, game_id: str, owner: str, seats: set[int]) -> None:
        """The seats whose readers this process serves in the game now; the processes holding it hear of it."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                if seats:
                    pipe.hset(PRESENCE + game_id, owner, json.dumps(sorted(seats)))
                    pipe.expire(PRESENCE + game_id, ALIVE_SECONDS)
                    self.present_in.add(game_id)
                else:
                    pipe.hdel(PRESENCE + game_id, owner)
                    self.present_in.discard(game_id)
                pipe.publish(CHANNEL + game_id, json.dumps({"game": game_id, "presence": True, "from": owner}))
                await pipe.execute()
        except Exception:  # noqa: BLE001 - presence is a courtesy: the next sweep or change corrects it
            log.warning("could not share the presence in game %s on %s", game_id, self.url)

    async def presence_elsewhere(self, game_id: str, owner: str) -> set[int]:
        """The seats read through the other running processes (the entries of stopped ones are removed)."""
        try:
            shared = {k.decode(): v for k, v in (await self.redis.hgetall(PRESENCE + game_id)).items()}
            others = [o for o in shared if o != owner]
            if not others:
                return set()
            alive = await self.redis.mget([ALIVE + o for o in others])
            gone = [o for o, a in zip(others, alive, strict=True) if a is None]
            if gone:
                await self.redis.hdel(PRESENCE + game_id, *gone)
            return {seat for o, a in zip(others, alive, strict=True) if a is not None for seat in json.loads(shared[o])}
        except Exception:  # noqa: BLE001
            log.warning("could not read the presence in game %s on %s", game_id, self.url)
            return set()

    async def heartbeat(self, owner: str) -> None:
        """This process runs: its presence entries count, and their games' hashes last, for ALIVE_SECONDS more."""
        self.alive_as = owner
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(ALIVE + owner, "1", ex=ALIVE_SECONDS)
                for game_id in self.present_in:
                    pipe.expire(PRESENCE + game_id, ALIVE_SECONDS)
                await pipe.execute()
        except Exception:  # noqa: BLE001
            log.warning("could not refresh this process's presence on %s", self.url)

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") == "message":
                        await self._deliver(message["data"])
                    elif message.get("type") == "subscribe":
                        await self._confirm(message["channel"])
            except asyncio.CancelledError:
                await self.pubsub.aclose()
                raise
            except Exception:  # noqa: BLE001 - Redis went away: subscribe again, then catch up from the store
                log.warning("lost the Redis bus at %s; reconnecting", self.url)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await self.pubsub.aclose()
                    await self._connect()
                    self.resubscribe.set()
                    # Off this task: the confirmations it waits for are received here.
                    self.reconnected = asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        """Back on Redis: once the held games' channels are listened to again, every held game is reloaded."""
        await self._confirmed(set(self.watched))
        if self.on_reconnect is not None:
            try:
                await self.on_reconnect()
            except Exception:
                log.exception("could not catch up with the store after Redis came back")

    async def _deliver(self, data: bytes) -> None:
        try:
            notice = json.loads(data)
            game_id, sender = str(notice["game"]), str(notice["from"])
            ply = None if notice.get("presence") else int(notice["ply"])
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed bus notice")
            return
        try:
            if ply is not None:
                await self.handler(game_id, ply, sender)
            elif self.on_presence is not None:
                await self.on_presence(game_id, sender)
        except Exception:
            log.exception("game %s: a bus notice could not be applied", game_id)

    async def close(self) -> None:
        for task in (self.subscribing, self.listening, self.reconnected):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.alive_as is not None:              # its readers are gone: the others stop counting them at once
            with contextlib.suppress(Exception):
                await self.redis.delete(ALIVE + self.alive_as)
        await self.redis.aclose()


def client_name(pid: int | None = None) -> str:
    return f"coliseo:{socket.gethostname()}:{pid or os.getpid()}"


def make_bus(redis_url: str | None, on_reconnect=None) -> LocalBus | RedisBus:
    return RedisBus(redis_url, on_reconnect=on_reconnect) if redis_url else LocalBus()
