"""AI moves, computed away from the event loop: a local process pool, or a Ray cluster.

A job names the game as the store holds it (game, options, seed, setup, salt, the actions so far) and
the seat to play; the worker rebuilds the position by replaying (keeping recent games cached, so most
jobs replay only the newest actions), asks the agent, and answers with the move in notation.
The pool's queue is first come, first served and each table has at most one job in it, so tables
take turns; pool processes run at a lower priority than the server, so a person's table stays quick.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context

AI_NICENESS = 10
CACHED_GAMES = 32


@dataclass(frozen=True)
class Job:
    key: str                    # the stored game's id
    game: str
    options: dict
    seed: int
    setup: object
    salt: str
    created: str
    actions: tuple[str, ...]
    player: int
    agent: str
    agent_seed: int


_matches: OrderedDict[str, tuple] = OrderedDict()     # per worker process: key -> (match, action texts)


@lru_cache(maxsize=16)
def _game(game_id: str, options: str):
    from coliseo.core.registry import load_game

    return load_game(game_id, **json.loads(options))


def _position(job: Job):
    from coliseo.core.match import Match

    game = _game(job.game, json.dumps(job.options, sort_keys=True))
    match, texts = _matches.pop(job.key, (None, ()))
    if match is None or texts != job.actions[:len(texts)]:
        match, texts = Match(game, job.seed, job.setup, salt=job.salt, created=job.created), ()
    for text in job.actions[len(texts):]:
        match.play_text(text)
    _matches[job.key] = (match, job.actions)
    while len(_matches) > CACHED_GAMES:
        _matches.popitem(last=False)
    return game, match


def think(job: Job) -> str:
    """The agent's move for `job.player`, in notation."""
    from coliseo.agents import Seat, make_agent

    game, match = _position(job)
    if match.state.current_player != job.player:
        raise ValueError(f"game {job.key}: player {job.player} is not to move at ply {len(job.actions)}")
    agent = make_agent(job.agent, game, seed=job.agent_seed)
    action = agent.act(Seat(match.state, job.player, random.Random(job.agent_seed)))
    return game.format_action(action)


def _warm() -> None:
    import coliseo.agents  # noqa: F401 - import the engine once, before the first move is asked for


def _pool_process_start(server: int) -> None:
    with contextlib.suppress(OSError):
        os.nice(AI_NICENESS)
    if sys.platform == "linux":         # die with the server, even when it is killed with SIGKILL
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(signal.SIGKILL))   # PR_SET_PDEATHSIG
    if os.getppid() != server:          # the server died while this process was starting
        os._exit(0)


class PoolThinker:
    """`workers` local child processes, started fresh (not forked: the server's threads are not copied)."""

    def __init__(self, workers: int):
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None     # started when first needed, again after close()

    def _ready(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=get_context("spawn"),
                                            initializer=_pool_process_start, initargs=(os.getpid(),))
        return self.pool

    def warm(self) -> None:
        self._ready().submit(_warm)

    async def think(self, job: Job) -> str:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._ready(), think, job)
        except BrokenProcessPool:        # a pool process died (killed, out of memory): start a new pool, once
            self.close()
            return await asyncio.get_running_loop().run_in_executor(self._ready(), think, job)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


class RayThinker:
    """Jobs run as Ray tasks on the cluster at `address` (`ray start --head` prints it)."""

    def __init__(self, address: str):
        import ray

        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False, logging_level="WARNING")
        self.remote = ray.remote(num_cpus=1, max_retries=0)(think)

    def warm(self) -> None:
        pass

    async def think(self, job: Job) -> str:
        return await self.remote.remote(job)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ray.shutdown()


def make_thinker(ai_workers: int | None, ray_address: str | None) -> PoolThinker | RayThinker:
    if ray_address:
        return RayThinker(ray_address)
    return PoolThinker(ai_workers or os.cpu_count() or 1)
