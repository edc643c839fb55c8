"""Kill the real server with SIGKILL in the middle of games: every game resumes at its last accepted action."""

from __future__ import annotations

import json
import sqlite3
import time

from websockets.sync.client import connect


class SeatClient:
    def __init__(self, server, game_id: str, token: str | None):
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
        self.state = self.receive_state()

    def receive_state(self) -> dict:
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "error":
                raise AssertionError(message["message"])
            if message["type"] == "state":
                return message

    def act(self, text: str) -> int:
        """Send an action; returns the ply of its acknowledgement (the action is stored by then)."""
        self.ws.send(json.dumps({"type": "act", "action": text, "ply": self.state["ply"]}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "error":
                raise AssertionError(message["message"])
            if message["type"] == "state":
                self.state = message
            if message["type"] == "ack":
                return message["ply"]

    def wait_my_turn(self) -> dict:
        while not self.state["legal"] and not self.state["result"]:
            self.state = self.receive_state()
        return self.state

    def close(self) -> None:
        self.ws.close()


def test_games_resume_at_their_last_accepted_action_after_sigkill(server):
    people = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    second = server.post(f"/api/games/{people['id']}/join", {"invite": people["invite"]})
    versus_ai = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"},
                                                                       {"kind": "ai", "agent": "greedy"}]})
    one, two = SeatClient(server, people["id"], people["token"]), SeatClient(server, people["id"], second["token"])
    one.act("random")                                  # R9: each person places first
    two.act(two.wait_my_turn()["legal"][-1])
    move = next(a for a in one.wait_my_turn()["legal"] if "-" in a)
    one.act(move)
    one.act("end")
    two.act(two.wait_my_turn()["legal"][-1])
    me = SeatClient(server, versus_ai["id"], versus_ai["token"])
    me.act("random")
    me.act("end")
    me.wait_my_turn()
    before = {gid: server.get(f"/api/games/{gid}") for gid in (people["id"], versus_ai["id"])}
    views = {people["id"]: (people["token"], two.state["ply"]), versus_ai["id"]: (versus_ai["token"], me.state["ply"])}
    observations = {}
    for gid, (token, _) in views.items():
        client = SeatClient(server, gid, token)
        observations[gid] = client.state["observation"]
        client.close()
    for client in (one, two, me):
        client.close()

    robots = server.post("/api/games", {"game": "dungeon_dice", "seats": [{"kind": "ai", "agent": "random"}] * 2})
    while server.get(f"/api/games/{robots['id']}")["ply"] < 5:
        time.sleep(0.05)

    server.kill()
    robots_ply = stored_plies(server, robots["id"])
    server.start()

    for gid, (token, ply) in views.items():
        after = server.get(f"/api/games/{gid}")
        assert after["ply"] == before[gid]["ply"] == ply, "a stored action was lost or invented"
        client = SeatClient(server, gid, token)
        assert client.state["observation"] == observations[gid]
        client.close()
    # A game between two AIs, killed while it was being played, resumes by itself from its last stored action.
    assert server.get(f"/api/games/{robots['id']}")["ply"] >= robots_ply >= 5
    deadline = time.monotonic() + 30
    while server.get(f"/api/games/{robots['id']}")["ply"] <= robots_ply and time.monotonic() < deadline:
        time.sleep(0.05)
    resumed = server.get(f"/api/games/{robots['id']}")
    assert resumed["ply"] > robots_ply or resumed["finished"]
    # The game against the AI goes on after the restart.
    me = SeatClient(server, versus_ai["id"], versus_ai["token"])
    assert me.act(me.wait_my_turn()["legal"][0]) == views[versus_ai["id"]][1] + 1
    me.close()


def stored_plies(server, game_id: str) -> int:
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    count = db.execute("select count(*) from actions where game_id = ?", (game_id,)).fetchone()[0]
    db.close()
    return count
