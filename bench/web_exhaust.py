"""What one client can make a web table spend, measured on loopback with the default limits, bounded in count and time.

Starts a real `coliseo serve` (SQLite, one process, its log in a file) on a free 127.0.0.1 port and measures:
- idle sockets: --sockets WebSockets opened at once that never say hello; the server's open descriptors and resident
  memory once they are open, and again after 6 s (the hello's deadline is 5 s);
- deep messages: one seated socket sends --deep messages, each an array nested 2,000 deep; the bytes the server logged
  meanwhile, the seconds it took to answer them all, and the tracebacks in the log;
- forwarded addresses: 15 new games, each claiming another X-Forwarded-For, against 10 a minute;
- the cap on games between AIs: --burst `mcts` against `mcts` games asked for at once against the default cap of 2
  (on a second server, whose new-game limit is lifted); how many were created.

Prints one JSON object. Usage: python bench/web_exhaust.py [--sockets 2000] [--deep 12000] [--burst 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_use(pid: int) -> dict:
    """The server process's open descriptors and resident memory (MB)."""
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return {"descriptors": len(os.listdir(f"/proc/{pid}/fd")), "rss_mb": round(rss / 1024)}


def post(port: int, body: dict, **headers) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=json.dumps(body).encode(),
                                     method="POST", headers={"content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


async def idle_sockets(port: int, pid: int, count: int) -> dict:
    before = server_use(pid)
    gate = asyncio.Semaphore(200)

    async def one():
        async with gate:
            try:
                return await connect(f"ws://127.0.0.1:{port}/ws/000000000000", open_timeout=20, max_queue=None)
            except Exception:  # noqa: BLE001 - refused: counted as not opened
                return None

    sockets = [s for s in await asyncio.gather(*(one() for _ in range(count))) if s is not None]
    await asyncio.sleep(1)
    opened = server_use(pid)
    await asyncio.sleep(6)
    later = server_use(pid)
    alive = 0
    for s in sockets:
        try:
            await asyncio.wait_for(s.ping(), 1)
            alive += 1
        except Exception:  # noqa: BLE001 - closed by the server
            pass
        await s.close()
    return {"sockets": count, "server_before": before, "server_once_open": opened, "server_after_6_s": later,
            "still_open_after_6_s": alive}


async def deep_messages(port: int, log: Path, count: int) -> dict:
    made = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games", method="POST", headers={"content-type": "application/json"},
        data=json.dumps({"game": "capsule", "seats": [{"kind": "human"}] * 2}).encode()), timeout=30).read())
    deep = "[" * 2000 + "]" * 2000
    logged = log.stat().st_size
    start = time.monotonic()
    answered = 0
    async with connect(f"ws://127.0.0.1:{port}/ws/{made['id']}", max_queue=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"], "lang": "en"}))
        await ws.recv()

        async def send_all():
            for _ in range(count):
                await ws.send(deep)

        sending = asyncio.ensure_future(send_all())
        try:
            async with asyncio.timeout(120):
                while answered < count:
                    if json.loads(await ws.recv())["type"] == "error":
                        answered += 1
        except (TimeoutError, ConnectionClosed):
            pass
        sending.cancel()
    seconds = time.monotonic() - start
    await asyncio.sleep(0.5)
    text = log.read_bytes()[logged:].decode(errors="replace")
    return {"messages": count, "answered": answered, "seconds": round(seconds, 1),
            "log_bytes": len(text.encode()), "tracebacks": text.count("Traceback")}


def start(home: Path, log: Path, *more: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    coliseo = Path(sys.executable).parent / "coliseo"
    with log.open("wb") as out:
        server = subprocess.Popen([str(coliseo), "serve", "--port", str(port), "--db", f"sqlite:///{home}/web.db",
                                   "--ai-workers", "1", *more], stdout=subprocess.DEVNULL, stderr=out)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--deep", type=int, default=12000)
    parser.add_argument("--burst", type=int, default=10)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="coliseo-exhaust-"))
    log = home / "server.log"
    server, port = start(home, log)
    try:
        result = {"idle_sockets": asyncio.run(idle_sockets(port, server.pid, args.sockets)),
                  "deep_messages": asyncio.run(deep_messages(port, log, args.deep))}
        people = {"game": "capsule", "seats": [{"kind": "human"}] * 2}
        forwarded = [post(port, people, **{"X-Forwarded-For": f"198.51.100.{n}"}) for n in range(15)]
        result["forwarded_for"] = {"asked": 15, "per_minute": 10, "created": forwarded.count(201)}
    finally:
        server.terminate()
        server.wait(30)
    # The burst on a server of its own whose new-game limit does not stop it first.
    server, port = start(home, home / "burst.log", "--games-per-minute", "1000")
    try:
        robots = {"game": "fantastiqa", "seats": [{"kind": "ai", "agent": "mcts"}] * 2}
        with ThreadPoolExecutor(args.burst) as pool:
            statuses = list(pool.map(lambda _: post(port, robots), range(args.burst)))
        result["ai_only_burst"] = {"asked": args.burst, "cap": 2, "created": statuses.count(201)}
    finally:
        server.terminate()
        server.wait(30)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
