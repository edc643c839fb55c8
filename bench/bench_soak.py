"""Memory soak of the web table: thousands of games created, played a little and abandoned, against a real
`coliseo serve` on loopback; the server's RSS (from /proc) after each round, once it holds no game any more.

Each round creates --games games, --clients at a time, of four kinds in turn: a game between two people nobody
opens; one opened by its creator, who plays a few actions and leaves (Capsule, Dungeon Dice, Fantastiqa and the
duel in turn); one against an AI seat whose person leaves as soon as the AI is to move; one watched by a spectator
as well. After a round the server is asked until it holds no game (its unread grace shortened to 0.5 s for the
run), then its RSS is read. The first --warmup rounds let the server settle (imports, content, the allocator's
pools); the rounds after them should stay within a few MiB of where it settled. Prints one JSON object.

Usage: python bench/bench_soak.py [--rounds 6] [--warmup 2] [--games 500] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

# The load comes from one address: the per-client limits are lifted for it. Idle checks (and lettings go) every 0.2 s.
SERVER_ARGS = ("--games-per-minute", "1000000", "--messages-per-second", "1000000", "--idle-check", "0.2",
               "--ai-workers", "1")
SERVER_ENV = {"COLISEO_TEST_UNREAD_GRACE": "0.5"}
PEOPLE = [{"kind": "human"}, {"kind": "human"}]
VERSUS_AI = [{"kind": "human"}, {"kind": "ai", "agent": "greedy"}]
PLAYED = ("capsule", "dungeon_dice", "fantastiqa", "forbidden")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return round(next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024, 2)


def request(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    call = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                  headers={"content-type": "application/json"})
    with urllib.request.urlopen(call, timeout=30) as response:
        return json.loads(response.read())


async def visit(port: int, made: dict, token: str | None, actions: int, rng: random.Random,
                end_turn: bool = False) -> None:
    """Open the game as `token`'s seat (None: a spectator), play up to `actions` of its legal actions while it is
    that seat's turn (`end_turn`: the first one ends the turn), and leave."""
    async with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        state, pending, done = None, False, 0
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                raise RuntimeError(message["message"])
            if message["type"] == "ack":
                pending, done = False, done + 1
            elif message["type"] == "state":
                state = message
            if pending or state is None:
                continue
            if done >= actions or token is None or state["result"] or not state["legal"]:
                return
            legal = state["legal"]
            text = "end" if end_turn and "end" in legal else rng.choice(legal)
            await ws.send(json.dumps({"type": "act", "action": text, "ply": state["ply"]}))
            pending = True


async def one_game(url: str, port: int, n: int, rng: random.Random) -> None:
    kind = n % 4
    game = PLAYED[n // 4 % len(PLAYED)] if kind == 1 else "capsule"
    made = await asyncio.to_thread(request, f"{url}/api/games", {"game": game, "seats": VERSUS_AI if kind == 2
                                                                 else PEOPLE})
    if kind == 1:
        await visit(port, made, made["token"], rng.randint(1, 4), rng)
    elif kind == 2:
        await visit(port, made, made["token"], 1, rng, end_turn=True)      # leaves once the AI is to move
    elif kind == 3:
        await asyncio.gather(visit(port, made, made["token"], 2, rng), visit(port, made, None, 1, rng))


async def round_of(url: str, port: int, games: int, clients: int, first: int) -> None:
    queue = iter(range(first, first + games))

    async def client(seed: int) -> None:
        rng = random.Random(seed)
        for n in queue:
            await one_game(url, port, n, rng)

    await asyncio.gather(*(client(first + c) for c in range(clients)))


def settle(url: str, seconds: float = 60.0) -> dict:
    """The server's status once it holds no game (or after `seconds`)."""
    deadline = time.monotonic() + seconds
    while request(f"{url}/api/status")["live_games"] and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)                    # the last socket handlers finish
    return request(f"{url}/api/status")


def soak(url: str, port: int, pid: int, rounds: int, warmup: int, games: int, clients: int,
         settle_seconds: float = 60.0) -> dict:
    """Play the rounds against the server at `url` (process `pid`); the RSS before, where it settled and after
    (each round's once the server holds no game, or after `settle_seconds`)."""
    before = rss_mib(pid)
    out: dict = {"rss_mib_before": before, "rounds": []}
    started = time.perf_counter()
    for r in range(rounds):
        asyncio.run(round_of(url, port, games, clients, r * games))
        status = settle(url, settle_seconds)
        out["rounds"].append({"games": games, "live_games": status["live_games"], "rss_mib": rss_mib(pid)})
    settled = [r["rss_mib"] for r in out["rounds"][:warmup]][-1]
    after = [r["rss_mib"] for r in out["rounds"][warmup:]]
    out.update(games=rounds * games, seconds=round(time.perf_counter() - started, 1), rss_mib_settled=settled,
               rss_mib_after=after[-1], rss_mib_most_after=max(after),
               most_above_settled_mib=round(max(after) - settled, 2))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--warmup", type=int, default=2, help="rounds before the RSS counts as settled")
    parser.add_argument("--games", type=int, default=500, help="games per round")
    parser.add_argument("--clients", type=int, default=8, help="games played at once")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        coliseo = Path(sys.executable).parent / "coliseo"
        server = subprocess.Popen([str(coliseo), "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/soak.db",
                                   *SERVER_ARGS], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env={**os.environ, **SERVER_ENV})
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    request(f"{url}/api/catalog")
                    break
                except OSError:
                    time.sleep(0.1)
            result = soak(url, port, server.pid, args.rounds, args.warmup, args.games, args.clients)
        finally:
            server.terminate()
            server.wait(30)
    print(json.dumps({"benchmark": "web-soak", "settings": vars(args), **result}, indent=2))


if __name__ == "__main__":
    main()
