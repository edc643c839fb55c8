"""No client can exhaust a real `coliseo serve`: the cap on games between AIs holds under a burst (in one process and
across two on PostgreSQL and Redis), a game nobody is at does not play on by the AI, forwarded addresses are believed
only from named proxies, and WebSockets are bounded (the hello's deadline, sockets per address, spectators per game,
every message counted, malformed ones refused in one line)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Server

ROBOTS = {"game": "fantastiqa", "seats": [{"kind": "ai", "agent": "mcts"}] * 2}   # slow: live through the test
MANY = ("--games-per-minute", "1000", "--ai-workers", "1")


def post(server: Server, body: dict, **headers) -> tuple[int, dict]:
    request = urllib.request.Request(server.url + "/api/games", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def burst(servers: list[Server], count: int, body: dict) -> list[int]:
    """The statuses of `count` creations sent at once, spread over `servers`."""
    with ThreadPoolExecutor(count) as pool:
        return [status for status, _ in pool.map(lambda n: post(servers[n % len(servers)], body), range(count))]


def socket(server: Server, game_id: str, **options):
    return connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10, **options)


def hello(ws, token: str | None = None) -> dict:
    ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
    return json.loads(ws.recv(timeout=10))


def closing(ws) -> tuple[dict, int]:
    """The last message before the server closed the socket, and the close code."""
    last = None
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            last = json.loads(ws.recv(timeout=10))
    return last, closed.value.rcvd.code


# --- the cap on games between AIs --------------------------------------------------------------------------
def test_a_burst_of_games_between_ais_gets_only_the_cap(tmp_path):
    server = Server(tmp_path / "cap.db", args=("--max-ai-games", "2", *MANY)).start()
    try:
        statuses = burst([server], 10, ROBOTS)
        assert sorted(statuses) == [201] * 2 + [429] * 8
    finally:
        server.stop()


def test_a_burst_of_games_between_ais_gets_only_the_cap_across_two_servers(postgres_url, redis_url):
    servers = [Server(postgres_url, args=("--redis", redis_url, "--max-ai-games", "2", *MANY)).start()
               for _ in range(2)]
    try:
        statuses = burst(servers, 12, ROBOTS)
        assert sorted(statuses) == [201] * 2 + [429] * 10
    finally:
        for s in servers:
            s.stop()


def test_a_game_against_the_ai_waits_while_no_person_is_at_it(tmp_path):
    """Its person never came: the seat is not handed to the AI (nobody waits for it), so the AI does not play the game
    out on its own, uncounted; once a person is at the table the hand-over happens as before."""
    server = Server(tmp_path / "idle.db", args=("--idle-check", "0.2")).start()
    try:
        made = server.post("/api/games", {"game": "capsule", "idle_seconds": 5,
                                          "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
        time.sleep(7)
        summary = server.get(f"/api/games/{made['id']}")
        assert summary["seats"][0]["kind"] == "human" and not summary["seats"][0]["handed_over"]
        assert summary["ply"] == 0
        with socket(server, made["id"]) as ws:
            state = hello(ws, made["token"])
            while not state["seats"][0]["handed_over"]:
                state = json.loads(ws.recv(timeout=20))
    finally:
        server.stop()


# --- forwarded addresses -----------------------------------------------------------------------------------
def test_a_forwarded_address_is_not_believed_from_an_unnamed_proxy(tmp_path):
    server = Server(tmp_path / "rate.db", args=("--games-per-minute", "3")).start()
    try:
        people = {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]}
        posing = [{"X-Forwarded-For": f"198.51.100.{n}", "Forwarded": f"for=198.51.100.{n}"} for n in range(5)]
        statuses = [post(server, people, **headers)[0] for headers in posing]
        assert statuses == [201, 201, 201, 429, 429]
    finally:
        server.stop()


def test_a_named_proxy_forwards_each_clients_address(tmp_path):
    server = Server(tmp_path / "rate.db", args=("--games-per-minute", "3", "--trusted-proxy", "127.0.0.1")).start()
    try:
        people = {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]}
        assert [post(server, people, **{"X-Forwarded-For": f"198.51.100.{n}"})[0] for n in range(5)] == [201] * 5
        one = [post(server, people, **{"X-Forwarded-For": "198.51.100.9"})[0] for _ in range(4)]
        assert one == [201, 201, 201, 429]
    finally:
        server.stop()
