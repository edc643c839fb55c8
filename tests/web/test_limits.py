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


def socket(server: Server, game_id: str):
    return connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10).__enter__()


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


# --- WebSockets --------------------------------------------------------------------------------------------
PEOPLE = {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]}


def test_a_socket_that_says_no_hello_is_closed_within_the_default_five_seconds(server):
    made = server.post("/api/games", PEOPLE)
    with socket(server, made["id"]) as ws:
        message, code = closing(ws)
    assert code == 4400 and message["fatal"] and message["message"] == "no hello within 5 s; the socket is closed"


def test_open_sockets_per_address_are_capped_at_fifty_by_default(tmp_path):
    server = Server(tmp_path / "many.db", args=("--messages-per-second", "100")).start()   # 50 hellos at once
    made = server.post("/api/games", PEOPLE)
    sockets = [socket(server, made["id"]) for _ in range(50)]
    try:
        for ws in sockets:
            assert hello(ws)["type"] == "state"
        with socket(server, made["id"]) as one_more:
            message, code = closing(one_more)
        assert code == 4429 and "too many open connections from your address: at most 50" in message["message"]
        sockets.pop().close()
        time.sleep(0.5)                        # the server has seen the close
        with socket(server, made["id"]) as again:
            assert hello(again)["type"] == "state", "a place freed is taken again"
    finally:
        for ws in sockets:
            ws.close()
        server.stop()


def test_spectators_per_game_are_capped_but_the_players_get_in(tmp_path):
    server = Server(tmp_path / "watch.db", args=("--spectators-per-game", "2")).start()
    try:
        made = server.post("/api/games", PEOPLE)
        watchers = [socket(server, made["id"]) for _ in range(2)]
        for ws in watchers:
            assert hello(ws)["type"] == "state"
        with socket(server, made["id"]) as third:
            third.send(json.dumps({"type": "hello", "token": None}))
            message, code = closing(third)
        assert code == 4429 and "this game has 2 spectators already" in message["message"]
        with socket(server, made["id"]) as player:
            assert hello(player, made["token"])["you"] == 0
        for ws in watchers:
            ws.close()
    finally:
        server.stop()


def test_every_message_counts_against_the_rate_before_it_is_read(tmp_path):
    server = Server(tmp_path / "rate.db", args=("--messages-per-second", "5")).start()
    try:
        made = server.post("/api/games", PEOPLE)
        with socket(server, made["id"]) as ws:
            assert hello(ws, made["token"])["type"] == "state"
            for text in ["not json"] * 10 + ["x" * 5000] * 10 + ["[" * 2000 + "]" * 2000] * 10:
                ws.send(text)
            answers = [json.loads(ws.recv(timeout=10))["message"] for _ in range(30)]
            with socket(server, made["id"]) as another:     # a hello too: refused for now, not for good
                another.send(json.dumps({"type": "hello", "token": made["token"]}))
                message, code = closing(another)
        assert sum(a.startswith("too many messages: at most 5 a second") for a in answers) >= 20
        assert code == 4429 and "fatal" not in message and message["message"].startswith("too many messages")
    finally:
        server.stop()


def test_deep_or_malformed_messages_are_refused_in_one_line_without_a_traceback(tmp_path):
    server = Server(tmp_path / "deep.db", args=("--messages-per-second", "1000")).start()
    try:
        made = server.post("/api/games", PEOPLE)
        deep = "[" * 2000 + "]" * 2000
        with socket(server, made["id"]) as ws:
            assert hello(ws, made["token"])["type"] == "state"
            for text in [deep, '{"type": "act", "ref": ' + deep + "}", "not json", "[1]", b"\x00binary"] * 20:
                ws.send(text)
            answers = {json.loads(ws.recv(timeout=10))["message"] for _ in range(100)}
        assert answers == {"message nested deeper than 8 arrays or objects", "messages must be JSON objects",
                           "messages must be JSON text, not binary"}
        with socket(server, made["id"]) as ws:         # as the hello: refused, and the socket closed
            ws.send(deep)
            message, code = closing(ws)
        assert code == 4400 and message == {"type": "error", "fatal": True,
                                            "message": "message nested deeper than 8 arrays or objects"}
        time.sleep(0.5)
        log = server.errors()
        assert "Traceback" not in log and "RecursionError" not in log
        assert log.count("sent a malformed message") == 2, "one line per socket"
    finally:
        server.stop()
