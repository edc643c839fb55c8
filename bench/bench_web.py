"""Web table benchmark: concurrent games over WebSockets against AI seats, on loopback, bounded in count and time.

Starts a real `coliseo serve` on a free 127.0.0.1 port, then for each concurrency level plays that many Capsule
Monsters games at once (a scripted person against an AI seat). The action latency is the time from sending an
action to its acknowledgement, which the server sends only after the action is stored and every reader was sent
the new state. Every setup runs in turn: SQLite in one process, then (with --db and --redis) PostgreSQL + Redis
with each number of --workers (a fresh database each, dropped afterwards).

--ai-load N measures fairness instead: one person's table alone, then the same while N games between two `mcts`
seats are being played (SQLite, one process). Prints one JSON object.

--lobby N measures what the lobbies' polling costs: N unfinished games of --lobby-game, each played --actions steps
(a person against a `random` seat) and left waiting for its person, so that no process holds it in memory; then
--rounds reads of every game's summary, as "Your games" does every 10 s (SQLite, one process).

--think S gives each person a thinking time (uniform, mean S seconds) before every action, as people have; without
it every person acts the moment the table lets them, a stress test whose latency is queueing (Little's law: with N
people always waiting, latency = N / actions per second).

Usage: python bench/bench_web.py [--games 1,100,500] [--actions 10] [--agent random] [--seconds 60] [--think 0]
           [--workers 1,2 --db postgresql+psycopg://postgres@127.0.0.1/test --redis redis://127.0.0.1:6379/0]
       python bench/bench_web.py --ai-load 8 [--actions 60]
       python bench/bench_web.py --lobby 20 [--lobby-game fantastiqa] [--actions 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
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


# The load comes from one address: the per-client limits and the AI-only cap are lifted for it.
UNLIMITED = ("--games-per-minute", "1000000", "--messages-per-second", "1000000", "--max-ai-games", "1000",
             "--sockets-per-address", "1000000")


def start_server(db_url: str, *args: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    coliseo = Path(sys.executable).parent / "coliseo"
    process = subprocess.Popen([str(coliseo), "serve", "--port", str(port), "--db", db_url, *UNLIMITED, *args],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def create_game(port: int, agent: str, seats: list[dict] | None = None, game: str = "capsule") -> dict:
    seats = seats or [{"kind": "human"}, {"kind": "ai", "agent": agent}]
    body = json.dumps({"game": game, "seats": seats}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


async def play(port: int, agent: str, actions: int, rng: random.Random, latencies: list[float],
               think: float = 0.0) -> None:
    """One person plays `actions` actions, in as many games as it takes, thinking `think` s on average before each
    (0: at once, a stress test); each action's latency is recorded."""
    done = 0
    while done < actions:
        made = await asyncio.to_thread(create_game, port, agent)
        done += await play_one(port, made, actions - done, rng, latencies, think)


async def play_one(port: int, made: dict, actions: int, rng: random.Random, latencies: list[float],
                   think: float = 0.0) -> int:
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
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": text, "ply": state["ply"]}))
                state = None
        return done


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def level(port: int, games: int, actions: int, agent: str, seconds: float, think: float = 0.0) -> dict:
    latencies: list[float] = []
    started = time.perf_counter()
    tasks = [play(port, agent, actions, random.Random(i), latencies, think) for i in range(games)]
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


def measure(db_url: str, server_args: tuple[str, ...], args) -> list[dict]:
    process, port = start_server(db_url, *server_args)
    try:
        asyncio.run(level(port, 4, 3, args.agent, args.seconds))      # warm-up: AI processes started, not counted
        levels = []
        for n in args.games.split(","):
            before = cpu_seconds(process.pid)
            result = asyncio.run(level(port, int(n), args.actions, args.agent, args.seconds, args.think))
            spent = {k: v - before[k] for k, v in cpu_seconds(process.pid).items()}
            result["cpu_ms_per_action"] = {k: round(1000 * v / max(1, result["actions"]), 2) for k, v in spent.items()}
            result["machine_busy"] = round(spent.pop("machine") / (result["seconds"] * os.cpu_count()), 2)
            levels.append(result)
        return levels
    finally:
        process.terminate()
        process.wait(30)


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by each part of the set-up, from /proc: the server's processes (its workers), its AI
    pool, PostgreSQL (with its ended per-connection processes), Redis, this client, and the whole machine."""
    procs = {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue
        if entry.name.isdigit():
            procs[int(entry.name)] = (int(fields[1]), command, int(fields[11]) + int(fields[12]),
                                      int(fields[13]) + int(fields[14]), int(fields[16]))
    parts = {"server": 0, "ai_pool": 0, "postgres": 0, "redis": 0}
    for pid, (ppid, command, own, reaped, nice) in procs.items():
        ancestor = ppid
        while ancestor not in (0, 1, server_pid) and ancestor in procs:
            ancestor = procs[ancestor][0]
        if pid == server_pid or ancestor == server_pid:       # the AI pool runs niced, the workers do not
            parts["ai_pool" if nice > 0 else "server"] += own
        elif "postgres" in command:
            parts["postgres"] += own + (reaped if ppid == 1 else 0)
        elif "redis-server" in command:
            parts["redis"] += own
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    busy = sum(int(x) for i, x in enumerate(cpu) if i not in (3, 4))         # all but idle and iowait
    return {**{k: v / TICK for k, v in parts.items()}, "client": usage.ru_utime + usage.ru_stime,
            "machine": busy / TICK}


def fresh_postgres(url: str):
    """A new database beside the one `url` names (created now, dropped by the returned function)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"coliseo_bench_{secrets.token_hex(4)}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as db:
            db.execute(f'DROP DATABASE "{name}" WITH (FORCE)')

    return base.set(database=name).render_as_string(hide_password=False), drop


async def fairness(port: int, ai_games: int, actions: int, seconds: float) -> dict:
    """One person's latency alone, then while `ai_games` games between two mcts seats are played."""
    await play(port, "random", 3, random.Random(0), [])          # warm-up: AI processes started, not counted
    alone: list[float] = []
    await play(port, "random", actions, random.Random(1), alone)
    robots = [await asyncio.to_thread(create_game, port, "mcts", [{"kind": "ai", "agent": "mcts"}] * 2)
              for _ in range(ai_games)]
    await asyncio.sleep(2.0)                  # the AI games are under way
    loaded: list[float] = []
    await asyncio.wait_for(play(port, "random", actions, random.Random(1), loaded), timeout=seconds)
    plies = [json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{r['id']}", timeout=30).read())
             ["ply"] for r in robots]

    def summary(values: list[float]) -> dict:
        ms = [x * 1000 for x in values]
        return {"actions": len(ms), "p50": round(percentile(ms, 0.50), 2), "p99": round(percentile(ms, 0.99), 2)}

    idle, busy = summary(alone), summary(loaded)
    return {"ai_games": ai_games, "ai_plies_played": sum(plies), "alone_ms": idle, "with_ai_games_ms": busy,
            "p99_ratio": round(busy["p99"] / idle["p99"], 2)}


def get_json(port: int, path: str):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
        return json.loads(response.read())


def lobby(process: subprocess.Popen, port: int, games: int, game: str, actions: int, rounds: int) -> dict:
    """`rounds` reads of the summaries of `games` unfinished games that no process holds in memory."""
    ids = []
    for i in range(games):
        made = create_game(port, "random", game=game)
        asyncio.run(play_one(port, made, actions, random.Random(i), []))
        ids.append(made["id"])
    plies = [get_json(port, f"/api/games/{g}")["ply"] for g in ids]
    if get_json(port, "/api/status")["live_games"]:
        raise SystemExit("a game stayed in memory: its reads would not measure a cold summary")
    reads = []
    before = cpu_seconds(process.pid)
    for _ in range(rounds):
        for game_id in ids:
            started = time.perf_counter()
            get_json(port, f"/api/games/{game_id}")
            reads.append((time.perf_counter() - started) * 1000)
    spent = {k: v - before[k] for k, v in cpu_seconds(process.pid).items()}
    first = reads[:games]
    later = reads[games:] or first
    return {"games": games, "plies": {"min": min(plies), "mean": round(statistics.fmean(plies)), "max": max(plies)},
            "rounds": rounds,
            "first_round_ms": {"mean": round(statistics.fmean(first), 2), "max": round(max(first), 2)},
            "later_rounds_ms": {"mean": round(statistics.fmean(later), 2), "max": round(max(later), 2)},
            "server_cpu_ms_per_read": round(1000 * spent["server"] / len(reads), 2),
            "summary_replays": get_json(port, "/api/status").get("summary_replays")}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="1,100", help="concurrency levels, comma-separated")
    parser.add_argument("--actions", type=int, default=10, help="actions each person plays")
    parser.add_argument("--agent", default="random", help="the AI seat's agent")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per level")
    parser.add_argument("--think", type=float, default=0.0,
                        help="a person's mean thinking time before each action, in seconds (0: a stress test)")
    parser.add_argument("--workers", default="1,2", help="server processes to try with --db and --redis")
    parser.add_argument("--db", help="a PostgreSQL URL (postgresql+psycopg://...): a fresh database is made beside it")
    parser.add_argument("--redis", help="a Redis URL for the fan-out between workers")
    parser.add_argument("--ai-load", type=int, default=0, help="measure fairness with this many AI-only games")
    parser.add_argument("--lobby", type=int, default=0, help="measure the reads of this many games' summaries")
    parser.add_argument("--lobby-game", default="fantastiqa", help="the game of --lobby's games")
    parser.add_argument("--rounds", type=int, default=5, help="how many times --lobby reads every summary")
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        if args.lobby:
            process, port = start_server(f"sqlite:///{Path(tmp) / 'lobby.db'}")
            try:
                result = lobby(process, port, args.lobby, args.lobby_game, args.actions, args.rounds)
            finally:
                process.terminate()
                process.wait(30)
            print(json.dumps({"benchmark": "web-lobby", "game": args.lobby_game, "cores": os.cpu_count(),
                              "load_before": [round(x, 2) for x in load], **result}))
            return
        if args.ai_load:
            process, port = start_server(f"sqlite:///{Path(tmp) / 'fair.db'}")
            try:
                result = asyncio.run(fairness(port, args.ai_load, args.actions, args.seconds))
            finally:
                process.terminate()
                process.wait(30)
            print(json.dumps({"benchmark": "web-fairness", "game": "capsule", "cores": os.cpu_count(),
                              "load_before": [round(x, 2) for x in load], **result}))
            return
        runs = [{"store": "sqlite", "workers": 1,
                 "levels": measure(f"sqlite:///{Path(tmp) / 'bench.db'}", (), args)}]
    if args.db and args.redis:
        for workers in args.workers.split(","):
            url, drop = fresh_postgres(args.db)
            try:
                runs.append({"store": "postgresql+redis", "workers": int(workers),
                             "levels": measure(url, ("--redis", args.redis, "--workers", workers), args)})
            finally:
                drop()
    print(json.dumps({"benchmark": "web", "game": "capsule", "agent": args.agent, "think_s": args.think,
                      "cores": os.cpu_count(),
                      "load_before": [round(x, 2) for x in load], "load_after": [round(x, 2) for x in os.getloadavg()],
                      "runs": runs}))


if __name__ == "__main__":
    main()
