"""The Redis bus on a real Redis: a process reads a game only once Redis listens to the game's channel for it."""

from __future__ import annotations

import asyncio
import json
import secrets

import redis

from coliseo.web.bus import CHANNEL, RedisBus

from .conftest import on_own_loop


def test_a_hold_returns_once_redis_has_confirmed_the_subscription(redis_url):
    """A notice published the moment `hold` returns reaches the process, also when the game was just let go."""
    async def run() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []

        async def handler(game_id: str, ply: int, _sender: str) -> None:
            heard.append((game_id, ply))

        bus, other = RedisBus(redis_url), redis.Redis.from_url(redis_url)     # blocking: the bus waits meanwhile
        await bus.start(handler)
        game = secrets.token_hex(6)
        try:
            for ply in (1, 2):
                await bus.hold(game)
                receivers = other.publish(CHANNEL + game, json.dumps({"game": game, "ply": ply, "from": "x"}))
                assert receivers == 1, "Redis listened to the channel for the bus when hold returned"
                bus.unwatch(game)               # let go and held again at once: the unsubscription comes first
            async with asyncio.timeout(5):
                while len(heard) < 2:
                    await asyncio.sleep(0.01)
        finally:
            await bus.close()
            other.close()
        return heard

    game_plies = on_own_loop(run())
    assert [ply for _, ply in game_plies] == [1, 2]
