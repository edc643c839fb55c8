"""What keeps the table usable under abuse: rate limits per client, caps, the Host and Origin checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

log = logging.getLogger("coliseo.web")
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


class RateLimit:
    """A token bucket per client: `rate` events per `per` seconds, in bursts of up to `rate`."""

    def __init__(self, rate: int, per: float):
        self.rate, self.per = rate, per
        self.buckets: dict[str, tuple[float, float]] = {}    # client -> (tokens left, when counted)

    async def wait(self, client: str) -> float:
        """0 and one event counted when the client may go on; else the seconds until it may."""
        now = time.monotonic()
        tokens, then = self.buckets.get(client, (self.rate, now))
        tokens = min(self.rate, tokens + (now - then) * self.rate / self.per)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return (1 - tokens) * self.per / self.rate
        self.buckets[client] = (tokens - 1, now)
        if len(self.buckets) > 10_000:                  # forget clients whose bucket is full again
            self.buckets = {k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate / self.per < 1}
        return 0.0


# RateLimit's bucket, kept in Redis and counted atomically with Redis's clock, so every process sees one bucket.
TOKEN_BUCKET = """
local rate, per = tonumber(ARGV[1]), tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1e6
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = math.min(rate, (tonumber(bucket[1]) or rate) + (now - (tonumber(bucket[2]) or now)) * rate / per)
local wait = 0
if tokens < 1 then wait = (1 - tokens) * per / rate else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(per * 1000))
return tostring(wait)
"""


class SharedRateLimit:
    """RateLimit for several server processes: one bucket per client in Redis (`serve --workers N --redis`)."""

    def __init__(self, redis, name: str, rate: int, per: float):
        self.rate, self.per, self.prefix = rate, per, f"coliseo:rate:{name}:"
        self.script = redis.register_script(TOKEN_BUCKET)

    async def wait(self, client: str) -> float:
        try:
            return float(await self.script(keys=[self.prefix + client], args=[self.rate, self.per]))
        except Exception:  # noqa: BLE001 - Redis away: let people play rather than refuse everyone
            log.warning("could not count %s in Redis; not limited meanwhile", self.prefix + client)
            return 0.0


class Exclusive:
    """One holder at a time of `held()`: in this process, and with `redis`, in every process sharing it (a Redis lock
    that expires after `seconds`, should its holder die holding it)."""

    def __init__(self, redis, name: str, seconds: float = 30.0):
        self.redis, self.name, self.seconds = redis, f"coliseo:lock:{name}", seconds
        self.here = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        async with self.here:                  # this process's turn first: one of its requests waits on Redis
            if self.redis is None:
                yield
                return
            lock = self.redis.lock(self.name, timeout=self.seconds, blocking_timeout=self.seconds)
            try:
                acquired = await lock.acquire()
            except Exception:  # noqa: BLE001 - Redis away: refuse what the lock guards rather than guess
                log.warning("could not take the lock %s in Redis", self.name)
                acquired = False
            if not acquired:
                raise Busy("the server is busy; try again in a moment")
            try:
                yield
            finally:
                with contextlib.suppress(Exception):   # expired meanwhile, or Redis away: it expires by itself
                    await lock.release()


class Busy(RuntimeError):
    """What an `Exclusive` guards could not be done now (503)."""


class SocketCap:
    """At most `limit` open WebSockets per client address in this process: one more is told so and closed (4429),
    before the app sees it; not as fatal (a page tries again a few seconds later)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit
        self.open: dict[str, int] = {}         # client address -> its open WebSockets

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        client = scope["client"][0] if scope.get("client") else ""
        if self.open.get(client, 0) >= self.limit:
            await receive()                    # the handshake
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({"type": "error", "message": (
                f"too many open connections from your address: at most {self.limit}; close a table and try again")})})
            return await send({"type": "websocket.close", "code": 4429})
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]


def host_name(host_header: str) -> str:
    """'127.0.0.1:8000' → '127.0.0.1'; '[::1]:8000' → '::1'."""
    return urlsplit(f"//{host_header}").hostname or ""


def origin_allowed(origin: str | None, host_header: str, allowed: tuple[str, ...]) -> bool:
    """A browser's WebSocket may come from the page's own origin or an allowed one; other clients send none."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.netloc.lower() == host_header.lower() or origin.rstrip("/").lower() in allowed


class HostGuard:
    """Refuse requests (and WebSockets) whose Host is not served here: DNS rebinding cannot reach the app."""

    def __init__(self, app, hosts: tuple[str, ...] | None):
        self.app, self.hosts = app, hosts and {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket") or not self.hosts:
            return await self.app(scope, receive, send)
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if host_name(host).lower() in self.hosts:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 4403})
        body = json.dumps({"detail": f"host {host!r} is not served here (coliseo serve --allowed-host adds one)"})
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body.encode()})
