"""Several real server processes on one PostgreSQL and one Redis: fan-out, races, SIGKILL, AI leases."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from coliseo.core.match import Match
from coliseo.core.registry import load_game
from coliseo.web.bus import ALIVE_SECONDS, client_name

from .conftest import Server


class Socket:
    """One WebSocket reader of a game; `state` is the last payload it received."""

    def __init__(self, port: int, game_id: str, token: str | None):
        deadline = time.monotonic() + 20
        while True:                 # a server process being replaced refuses connections for a moment
            try:
                # Unbounded queue, no pings of its own: a reader the test leaves unread for a while keeps answering
                # the server's pings instead of pausing and timing out.
                self.ws = connect(f"ws://127.0.0.1:{port}/ws/{game_id}", open_timeout=10, max_queue=None,
                                  ping_interval=None).__enter__()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        self.state = None
        while self.state is None:
            self.receive()

    @property
    def local_port(self) -> int:
        return self.ws.socket.getsockname()[1]

    def receive(self) -> dict:
        message = json.loads(self.ws.recv(timeout=30))
        if message["type"] == "state":
            self.state = message
        return message

    def wait(self, done) -> dict:
        """The last state, or the next ones until one for which `done(state)` holds."""
        if done(self.state):
            return self.state
        while True:
            message = self.receive()
            if message["type"] == "error" and message.get("fatal"):
                raise AssertionError(message["message"])
            if message["type"] == "state" and done(message):
                return message

    def send_act(self, text: str, ply: int) -> None:
        self.ws.send(json.dumps({"type": "act", "action": text, "ply": ply}))

    def reply(self) -> dict:
        """The ack or error answering the last action sent."""
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error"):
                return message

    def act(self, text: str) -> int:
        """Play `text`, again after a pause when the server's rate limit (every message of the address counts, and
        all these sockets share 127.0.0.1) ignored it."""
        self.send_act(text, self.state["ply"])
        while (message := self.reply())["type"] == "error" and "too many messages" in message["message"]:
            time.sleep(0.25)
            self.send_act(text, self.state["ply"])
        assert message["type"] == "ack", message
        return message["ply"]

    def close(self) -> None:
        self.ws.close()


def start_servers(postgres_url: str, redis_url: str, count: int, *more: str) -> list[Server]:
    args = ("--redis", redis_url, "--ai-workers", "1", "--ai-lease", "2", *more)
    return [Server(postgres_url, args=args).start() for _ in range(count)]


@pytest.fixture
def pair(postgres_url, redis_url):
    servers = start_servers(postgres_url, redis_url, 2)
    yield servers
    for s in servers:
        s.stop()


def stored_actions(db_url: str, game_id: str) -> list[tuple[int, str]]:
    with psycopg.connect(db_url.replace("postgresql+psycopg", "postgresql")) as db:
        return db.execute("select ply, text from actions where game_id = %s order by ply", (game_id,)).fetchall()


def assert_replays(db_url: str, game_id: str, game: str = "capsule") -> int:
    """The stored actions are plies 1..n with no gap and replay legally from the seed; returns n."""
    rows = stored_actions(db_url, game_id)
    assert [ply for ply, _ in rows] == list(range(1, len(rows) + 1))
    with psycopg.connect(db_url.replace("postgresql+psycopg", "postgresql")) as db:
        seed, salt, setup = db.execute("select seed, salt, setup from games where id = %s", (game_id,)).fetchone()
    match = Match(load_game(game), seed, json.loads(setup) if isinstance(setup, str) else setup, salt=salt)
    for _, text in rows:
        match.play_text(text)
    return len(rows)


def a_move(state: dict) -> str:
    """Any action but ending the turn (two turns ended without a move can end a Capsule game)."""
    return next((x for x in state["legal"] if x != "end"), "end")


def two_seats(server: Server, other: Server) -> tuple[dict, dict]:
    made = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    joined = other.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    return made, joined


def test_readers_on_two_servers_see_each_others_moves(pair, postgres_url):
    a, b = pair
    made, joined = two_seats(a, b)
    one, two = Socket(a.port, made["id"], made["token"]), Socket(b.port, made["id"], joined["token"])
    watcher = Socket(b.port, made["id"], None)
    assert (one.state["you"], two.state["you"], watcher.state["you"]) == (0, 1, None)
    assert one.act(next(x for x in one.state["legal"] if "@" in x)) == 1     # R9: a piece placed
    assert two.wait(lambda s: s["ply"] == 1)["legal"] == [], "the move on A reached the seat on B"
    one.act("random")
    reply = two.wait(lambda s: s["legal"])
    ply = two.act(reply["legal"][-1])
    assert one.wait(lambda s: s["ply"] == ply)["you"] == 0, "the move on B reached the seat on A"
    assert watcher.wait(lambda s: s["ply"] == ply)["legal"] == []
    assert assert_replays(postgres_url, made["id"]) == ply
    for s in (one, two, watcher):
        s.close()


def test_a_move_made_while_another_server_loads_the_game_reaches_that_servers_readers(postgres_url, redis_url):
    """B takes a while to load the game (a test setting holds each load 1.5 s after it read the store); A stores and
    announces a move meanwhile. B's reader sees it, though the game B read had no move yet."""
    a = start_servers(postgres_url, redis_url, 1)[0]
    b = Server(postgres_url, args=("--redis", redis_url, "--ai-workers", "1"),
               env={"COLISEO_TEST_LOAD_DELAY": "1.5"}).start()
    try:
        made, _ = two_seats(a, a)
        player = Socket(a.port, made["id"], made["token"])
        watching: list[Socket] = []
        opening = threading.Thread(target=lambda: watching.append(Socket(b.port, made["id"], None)))
        opening.start()
        listeners = redis.Redis.from_url(redis_url)
        channel = f"coliseo:game:{made['id']}"
        wait_for(lambda: listeners.pubsub_numsub(channel) == [(channel.encode(), 2)], 20, "B listening to the game")
        listeners.close()
        time.sleep(0.5)                          # B has read the game (no move yet) and is still loading it
        assert player.act(a_move(player.state)) == 1
        opening.join()
        assert watching[0].wait(lambda s: s["ply"] == 1)["ply"] == 1, "B's reader saw the move made during the load"
        for s in (player, watching[0]):
            s.close()
    finally:
        a.stop()
        b.stop()


def test_a_replayed_act_or_undo_is_stale_on_either_server_after_an_undo(pair, postgres_url):
    """Act A at ply 0 through one server, take it back through the other, act B at ply 0: the undo and act A sent
    again, through either server, are refused as stale (the position they name was taken back); B stays."""
    a, b = pair
    made, _ = two_seats(a, b)
    here, there = Socket(a.port, made["id"], made["token"]), Socket(b.port, made["id"], made["token"])
    first, second = [x for x in here.state["legal"] if "@" in x][:2]
    act_first = {"type": "act", "action": first, "ply": 0, "undos": 0}
    undo = {"type": "undo", "ply": 1, "undos": 0}

    def send(socket: Socket, message: dict) -> dict:
        socket.ws.send(json.dumps(message))
        return socket.reply()

    assert send(here, act_first)["type"] == "ack"
    there.wait(lambda s: s["ply"] == 1)
    assert send(there, undo)["type"] == "ack"
    for socket in (here, there):
        refused = send(socket, act_first)
        assert refused.get("stale") and "moved on" in refused["message"], refused
    assert send(there, {"type": "act", "action": second, "ply": 0, "undos": 1})["type"] == "ack"
    for socket in (here, there):
        for message in (undo, act_first):
            refused = send(socket, message)
            assert refused.get("stale") and "moved on" in refused["message"], refused
    assert stored_actions(postgres_url, made["id"]) == [(1, second)]
    here.wait(lambda s: s["ply"] == 1 and s["undos"] == 1)
    for socket in (here, there):
        socket.close()


def test_two_servers_racing_for_one_ply_store_one_action(pair, postgres_url):
    a, b = pair
    made, joined = two_seats(a, b)
    first_a, first_b = Socket(a.port, made["id"], made["token"]), Socket(b.port, made["id"], made["token"])
    second = Socket(a.port, made["id"], joined["token"])
    acks = 0
    for _ in range(6):
        if not first_a.state["legal"]:
            second.act("random" if "random" in second.wait(lambda s: s["legal"])["legal"] else "end")   # R9
            first_a.wait(lambda s: s["legal"])
        ply = first_a.state["ply"]
        first_b.wait(lambda s, ply=ply: s["ply"] == ply)
        text = a_move(first_a.state)
        first_a.send_act(text, ply)
        first_b.send_act(text, ply)
        replies = [first_a.reply(), first_b.reply()]
        assert sorted(r["type"] for r in replies) == ["ack", "error"], replies
        assert "moved on" in next(r for r in replies if r["type"] == "error")["message"]
        acks += 1
        first_a.wait(lambda s, ply=ply: s["ply"] == ply + 1)
        first_b.wait(lambda s, ply=ply: s["ply"] == ply + 1)
        second.wait(lambda s, ply=ply: s["ply"] >= ply + 1)
    rows = stored_actions(postgres_url, made["id"])
    assert len({text for _, text in rows}) >= 1 and assert_replays(postgres_url, made["id"]) == first_a.state["ply"]
    assert first_a.state["ply"] == first_b.state["ply"] >= acks
    for s in (first_a, first_b, second):
        s.close()


def worker_pids(server: Server) -> list[int]:
    """The worker processes of `serve --workers N` (children of the supervisor, started by multiprocessing)."""
    pids = []
    for task in Path(f"/proc/{server.process.pid}/task").iterdir():
        for pid in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"multiprocessing-fork" in cmdline and b"resource_tracker" not in cmdline:
                pids.append(int(pid))
    return pids


def worker_serving(server: Server, client: Socket) -> int:
    """Which worker process holds the server side of `client`'s connection."""
    inode = None
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
            if local == server.port and remote == client.local_port:
                inode = fields[9]
    assert inode is not None, "the connection is not in /proc/net/tcp"
    for pid in worker_pids(server):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    raise AssertionError("no worker holds the connection")


def test_sigkill_of_one_worker_loses_no_acknowledged_action(postgres_url, redis_url):
    (server,) = start_servers(postgres_url, redis_url, 1, "--workers", "2")
    try:
        deadline = time.monotonic() + 30
        while len(worker_pids(server)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        games = [server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"},
                                                                         {"kind": "ai", "agent": "greedy"}]})
                 for _ in range(4)]
        clients = [Socket(server.port, g["id"], g["token"]) for g in games]
        acked = {}
        for game, client in zip(games, clients, strict=True):
            for _ in range(3):
                acked[game["id"]] = client.act(a_move(client.wait(lambda s: s["legal"])))
        victim = worker_serving(server, clients[0])
        os.kill(victim, signal.SIGKILL)
        with pytest.raises(ConnectionClosed):
            while True:
                clients[0].receive()
        for n, (game, client) in enumerate(zip(games, clients, strict=True)):
            client.close()
            client = clients[n] = Socket(server.port, game["id"], game["token"])
            assert client.state["ply"] >= acked[game["id"]], "an acknowledged action was lost"
            assert assert_replays(postgres_url, game["id"]) >= acked[game["id"]]
            for _ in range(2):
                client.act(a_move(client.wait(lambda s: s["legal"])))
        deadline = time.monotonic() + 90   # a new worker imports the whole app: slow on a loaded machine
        while (victim in worker_pids(server) or len(worker_pids(server)) < 2) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert victim not in worker_pids(server) and len(worker_pids(server)) == 2, "the killed worker was replaced"
        for client in clients:
            client.close()
    finally:
        server.stop()


def lease(db_url: str, game_id: str) -> tuple | None:
    with psycopg.connect(db_url.replace("postgresql+psycopg", "postgresql")) as db:
        return db.execute("select ply, owner, expires from ai_leases where game_id = %s", (game_id,)).fetchone()


@contextlib.contextmanager
def paused(server: Server):
    """The server process is stopped (SIGSTOP: alive but silent) until the block ends."""
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.process.pid, signal.SIGCONT)


def wait_for(condition, seconds: float = 60, what: str = "the condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def test_an_ai_move_is_made_once_while_its_worker_is_stopped_killed_and_replaced(pair, postgres_url):
    a, b = pair
    made = a.post("/api/games", {"game": "capsule", "seats": [{"kind": "ai", "agent": "mcts"}] * 2})
    watchers = [Socket(s.port, made["id"], None) for s in pair]          # both servers hold the game
    by_pid = {s.process.pid: s for s in pair}

    def thinking():
        held = lease(postgres_url, made["id"])
        if held and held[2] > time.time() + 0.5 and len(stored_actions(postgres_url, made["id"])) == held[0] - 1:
            return held
        return None

    ply, owner, _ = wait_for(thinking, what="an AI move under a lease")
    holder = by_pid[int(owner.split(":")[1])]
    other = b if holder is a else a
    with paused(holder):                           # its lease runs out
        wait_for(lambda: len(stored_actions(postgres_url, made["id"])) >= ply + 1, what="the other server's moves")
    # The stopped server wakes up with the move it computed under its lost lease: that move is dropped.
    time.sleep(1.0)
    assert assert_replays(postgres_url, made["id"]) >= ply + 1
    # The game waits while the holder is replaced: on a loaded machine the other server alone could finish it meanwhile.
    with paused(other):
        holder.kill()
        holder.start()                             # replaced: it serves the game from the store again
    before = len(stored_actions(postgres_url, made["id"]))
    watchers.append(Socket(holder.port, made["id"], None))
    wait_for(lambda: len(stored_actions(postgres_url, made["id"])) >= before + 3, what="play going on")
    assert assert_replays(postgres_url, made["id"]) >= before + 3
    assert watchers[-1].wait(lambda s: s["ply"] >= before + 3), "the replacement server's reader sees the moves"
    assert watchers[pair.index(other)].wait(lambda s: s["ply"] >= before + 3)
    for w in watchers:
        w.close()


def refused(server: Server, body: dict) -> dict | None:
    """None when the server creates the game; else the refusal's status and detail."""
    request = urllib.request.Request(server.url + "/api/games", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10).close()
        return None
    except urllib.error.HTTPError as e:
        return {"status": e.code, **json.loads(e.read())}


def test_the_new_game_limit_and_the_ai_game_cap_hold_across_servers(postgres_url, redis_url):
    """Two processes of one store share one count: three new games a minute from an address, one AI-only game."""
    servers = start_servers(postgres_url, redis_url, 2, "--games-per-minute", "3", "--max-ai-games", "1")
    try:
        a, b = servers
        robots = {"game": "capsule", "seats": [{"kind": "ai", "agent": "random"}] * 2, "options": {"max_turns": 400}}
        people = {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]}
        assert refused(a, robots) is None
        assert refused(b, robots)["status"] == 429, "B counts the AI-only game A plays"
        assert refused(a, people) is None, "the third attempt of this address (a refused one counts)"
        refusal = refused(b, people)
        assert refusal["status"] == 429 and "at most 3 a minute" in refusal["detail"]
    finally:
        for s in servers:
            s.stop()


def test_a_game_is_held_only_where_it_is_read(pair, postgres_url, redis_url):
    """A creates the game, its person plays through B: once B's moves reach A, A lets the game go (B plays its AI
    seat), so the two processes do not both reload every move and race for every AI move; and A no longer listens
    to the game's notices."""
    a, b = pair
    made = a.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
    assert a.get("/api/status")["live_games"] == 1
    person = Socket(b.port, made["id"], made["token"])
    for _ in range(4):
        person.act(a_move(person.wait(lambda s: s["legal"])))
    wait_for(lambda: a.get("/api/status")["live_games"] == 0, 20, "A letting the game go")
    assert b.get("/api/status") == {**b.get("/api/status"), "live_games": 1, "readers": 1}
    listeners = redis.Redis.from_url(redis_url)
    channel = f"coliseo:game:{made['id']}"
    wait_for(lambda: listeners.pubsub_numsub(channel) == [(channel.encode(), 1)], 20, "only B listening to the game")
    listeners.close()
    assert a.get(f"/api/games/{made['id']}")["ply"] == person.state["ply"], "A still answers for it, from the store"
    person.close()


def test_a_seat_read_through_another_server_counts_as_present_until_its_reader_leaves(pair):
    a, b = pair
    made = a.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    joined = a.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    first = Socket(a.port, made["id"], made["token"])
    assert first.state["present"] == [True, False]
    second = Socket(b.port, made["id"], joined["token"])
    assert second.state["present"] == [True, True], "B reads A's reader from Redis when it loads the game"
    assert wait_presence(first, [True, True])
    second.close()
    assert wait_presence(first, [True, False])
    Socket(b.port, made["id"], joined["token"])
    assert wait_presence(first, [True, True])
    b.kill()                       # no word from B: its seats stop counting once its key in Redis expires
    started = time.monotonic()
    assert wait_presence(first, [True, False]) and time.monotonic() - started < ALIVE_SECONDS + 10
    first.close()


def test_a_killed_servers_presence_in_a_game_nobody_else_reads_expires_with_it(pair, redis_url):
    """Only B reads the game, so no other server prunes B's entry when B dies: the hash lives only as long as a
    server refreshes it."""
    a, b = pair
    made = a.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    reader = Socket(b.port, made["id"], made["token"])
    key = f"coliseo:presence:{made['id']}"
    store = redis.Redis.from_url(redis_url)
    try:
        wait_for(lambda: store.hlen(key) == 1, 20, "B sharing its reader's seat")
        assert 0 < store.ttl(key) <= ALIVE_SECONDS
        time.sleep(ALIVE_SECONDS + 2)
        assert store.hlen(key) == 1, "a running server keeps its entry alive"
        b.kill()
        started = time.monotonic()
        wait_for(lambda: not store.exists(key), ALIVE_SECONDS + 10, "the dead server's presence hash expiring")
        assert time.monotonic() - started <= ALIVE_SECONDS + 1
    finally:
        store.close()
        reader.ws.close()


def wait_presence(reader: Socket, present: list[bool]) -> bool:
    while True:
        message = reader.receive()
        if message["type"] == "presence" and message["present"] == present:
            return True


def test_after_losing_redis_each_server_says_again_which_seats_it_serves(pair, redis_url):
    """A Redis that comes back empty has forgotten the presence: once the servers are back on it, each shares its
    readers' seats again (the bus connections are cut here, and the game's presence entry deleted, as a Redis that
    restarted would have it)."""
    a, b = pair
    made = a.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    joined = a.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    first = Socket(a.port, made["id"], made["token"])
    second = Socket(b.port, made["id"], joined["token"])
    assert wait_presence(first, [True, True])
    key = f"coliseo:presence:{made['id']}"
    store = redis.Redis.from_url(redis_url)
    try:
        assert store.hlen(key) == 2
        store.delete(key)
        ours = {client_name(s.process.pid) for s in pair}     # other tests may be using this Redis meanwhile
        for client in store.client_list(_type="pubsub"):
            if client["name"] in ours:
                store.client_kill_filter(_id=client["id"])
        wait_for(lambda: store.hlen(key) == 2, 20, "both servers sharing their readers' seats again")
    finally:
        store.close()
    second.close()
    assert wait_presence(first, [True, False])
    first.close()
