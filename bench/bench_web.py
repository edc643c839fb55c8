"""Web table benchmark: concurrent games over WebSockets against AI seats, on loopback, bounded in count and time.

Starts a real `coliseo serve` on a free 127.0.0.1 port with a fresh SQLite file, then for each concurrency level
plays that many Capsule Monsters games at once (a scripted person against an AI seat). The action latency is the
time from sending an action to its acknowledgement, which the server sends only after the action is stored and
every reader was sent the new state. Prints one JSON object.

Usage: python bench/bench_web.py [--games 1,100] [--actions 10] [--agent random] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    coliseo = Path(sys.executable).parent / "coliseo"
    process = subprocess.Popen([str(coliseo), "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def create_game(port: int, agent: str) -> dict:
    body = json.dumps({"game": "capsule", "seats": [{"kind": "human"}, {"kind": "ai", "agent": agent}]}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def play(port: int, agent: str, actions: int, rng: random.Random, latencies: list[float]) -> None:
    """One person plays `actions` actions, in as many games as it takes; each action's latency is recorded."""
    done = 0
    while done < actions:
        made = await asyncio.to_thread(create_game, port, agent)
        done += await play_one(port, made, actions - done, rng, latencies)


async def play_one(port: int, made: dict, actions: int, rng: random.Random, latencies: list[float]) -> int:
    async with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"], "lang": "en"}))
        state, sent_at, done = None, None, 0
        while done < actions:
            message = json.loads(await ws.recv())
            if message["type"] == "state":
                state = message
            elif message["type"] == "ack":
                latencies.append(time.perf_counter() - sent_at)
                done += 1
                sent_at = None
            elif message["type"] == "error":
                raise RuntimeError(message["message"])
            if state is None or sent_at is not None:
                continue
            if state["result"]:
                return done
            if state["legal"]:
                legal = state["legal"]
                text = "end" if "end" in legal and rng.random() < 0.3 else rng.choice(legal)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": text, "ply": state["ply"]}))
                state = None
        return done


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def level(port: int, games: int, actions: int, agent: str, seconds: float) -> dict:
    latencies: list[float] = []
    started = time.perf_counter()
    tasks = [play(port, agent, actions, random.Random(i), latencies) for i in range(games)]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=seconds)
        finished = True
    except TimeoutError:
        finished = False
    elapsed = time.perf_counter() - started
    ms = [x * 1000 for x in latencies]
    return {"games": games, "actions": len(ms), "seconds": round(elapsed, 2), "all_finished": finished,
            "actions_per_s": round(len(ms) / elapsed, 1),
            "latency_ms": {"p50": round(percentile(ms, 0.50), 2), "p99": round(percentile(ms, 0.99), 2),
                           "mean": round(statistics.fmean(ms), 2), "max": round(max(ms), 2)} if ms else None}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="1,100", help="concurrency levels, comma-separated")
    parser.add_argument("--actions", type=int, default=10, help="actions each person plays")
    parser.add_argument("--agent", default="random", help="the AI seat's agent")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process, port = start_server(Path(tmp) / "bench.db")
        try:
            levels = [asyncio.run(level(port, int(n), args.actions, args.agent, args.seconds))
                      for n in args.games.split(",")]
        finally:
            process.terminate()
            process.wait(10)
    print(json.dumps({"benchmark": "web", "game": "capsule", "agent": args.agent, "store": "sqlite",
                      "levels": levels}))


if __name__ == "__main__":
    main()
