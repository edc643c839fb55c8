"""The live table under real use, against real `coliseo serve` processes: stale and replayed commands."""

from __future__ import annotations

import json
import sqlite3

import pytest
from websockets.sync.client import connect

from coliseo.store import PlyTaken, Store, StoredGame

from .conftest import Server

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
VERSUS_AI = [{"kind": "human"}, {"kind": "ai", "agent": "greedy"}]


class Socket:
    """One WebSocket to a real server: hello first, then raw messages in and out."""

    def __init__(self, server, game_id: str, token: str | None = None, **headers):
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10,
                          additional_headers=headers or None).__enter__()
        self.send({"type": "hello", "token": token, "lang": "en"})
        self.state = self.next("state")

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict:
        message = json.loads(self.ws.recv(timeout=30))
        if message["type"] == "state":
            self.state = message
        return message

    def next(self, kind: str) -> dict:
        """The next message of that kind; fails on an unexpected error."""
        while (message := self.receive())["type"] != kind:
            assert message["type"] != "error" or kind == "error", message
        return message

    def answer(self) -> dict:
        """The ack or the error that answers the last command."""
        while (message := self.receive())["type"] not in ("ack", "error"):
            pass
        return message

    def my_turn(self) -> dict:
        while not self.state["legal"] and not self.state["result"]:
            self.next("state")
        return self.state

    def close(self) -> None:
        self.ws.close()


def stored_actions(server, game_id: str) -> list[str]:
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    rows = db.execute("select text from actions where game_id = ? order by ply", (game_id,)).fetchall()
    db.close()
    return [r[0] for r in rows]


def test_a_double_send_plays_once_and_the_second_is_refused_as_stale(server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    me = Socket(server, made["id"], made["token"])
    move = next(a for a in me.state["legal"] if "-" in a)
    me.send({"type": "act", "action": move, "ply": 0, "ref": 1})
    me.send({"type": "act", "action": move, "ply": 0, "ref": 2})
    assert me.answer() == {"type": "ack", "ref": 1, "ply": 1}
    refused = me.answer()
    assert refused["type"] == "error" and refused["stale"] is True and refused["ref"] == 2
    assert "the game has moved on" in refused["message"]
    assert me.next("state")["ply"] == 1, "a stale refusal is followed by the fresh state"
    assert stored_actions(server, made["id"]) == [move]
    me.close()


def test_an_action_replayed_once_it_is_legal_again_is_refused(server):
    made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    me = Socket(server, made["id"], made["token"])
    me.send({"type": "act", "action": "end", "ply": 0})
    assert me.answer()["type"] == "ack"
    again = me.my_turn()
    assert "end" in again["legal"] and again["ply"] > 1
    me.send({"type": "act", "action": "end", "ply": 0})            # the same message, sent again
    refused = me.answer()
    assert refused["stale"] and "moved on" in refused["message"]
    assert len(stored_actions(server, made["id"])) == again["ply"]
    me.send({"type": "undo", "ply": 0})
    assert me.answer()["stale"]
    me.close()


@pytest.mark.parametrize("message, words", [
    ({"type": "act", "action": "end"}, "ply"),
    ({"type": "act", "action": "end", "ply": "0"}, "ply"),
    ({"type": "act", "action": "end", "ply": True}, "ply"),
    ({"type": "undo"}, "ply"),
])
def test_a_command_without_its_ply_is_refused(server, message, words):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    me = Socket(server, made["id"], made["token"])
    me.send(message)
    refused = me.answer()
    assert refused["type"] == "error" and words in refused["message"] and "stale" not in refused
    assert stored_actions(server, made["id"]) == []
    me.close()


def test_two_processes_race_for_one_ply_and_the_store_key_decides(server, tmp_path):
    """A second server on the same file holds the game in memory at ply 0 when the first one stores ply 1."""
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {})
    other = Server(tmp_path / "web.db").start()
    try:
        watcher = Socket(other, made["id"], joined["token"])          # keeps the game live in the other process
        here = Socket(server, made["id"], made["token"])
        here.send({"type": "act", "action": "end", "ply": 0})
        assert here.answer()["type"] == "ack"
        there = Socket(other, made["id"], made["token"])
        assert there.state["ply"] == 0, "the other process still has the old position in memory"
        move = next(a for a in there.state["legal"] if "-" in a)
        there.send({"type": "act", "action": move, "ply": 0})
        refused = there.answer()
        assert refused["stale"] and "moved on" in refused["message"]
        assert there.next("state")["ply"] == 1, "the loser reloaded the game from the store"
        assert stored_actions(server, made["id"]) == ["end"]
        for socket in (watcher, here, there):
            socket.close()
    finally:
        other.stop()


def test_the_store_appends_and_removes_only_at_the_named_ply(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'cas.db'}")
    store.create_game(StoredGame(id="g", game="capsule", options={}, setup=None, seed=1, salt="s", created="now",
                                 seats=[]))
    store.add_action("g", 1, "end", 0)
    with pytest.raises(PlyTaken):
        store.add_action("g", 1, "end", 0)
    store.add_action("g", 2, "end", 1)
    with pytest.raises(PlyTaken):
        store.remove_action("g", 1)                                   # not the last one
    store.remove_action("g", 2)
    with pytest.raises(PlyTaken):
        store.remove_action("g", 2)                                   # already gone
    assert store.load("g").actions == ["end"]
    store.close()


# --- in the browser -------------------------------------------------------------------------------------
@pytest.fixture
def page(browser):
    # bypass_csp: the harness evaluates its own JavaScript (wait_for_function), which the page's policy forbids.
    context = browser.new_context(viewport={"width": 1100, "height": 850}, bypass_csp=True)
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


def open_seat(page, server, made: dict) -> None:
    """The page of the creator's seat: the token goes to local storage as the lobby puts it there."""
    page.goto(server.url + "/")
    page.evaluate("([id, seat]) => localStorage.setItem(`coliseo.seat.${id}`, JSON.stringify(seat))",
                  [made["id"], {"seat": made["seat"], "token": made["token"]}])
    page.goto(server.url + made["play_url"])
    page.wait_for_selector("body[data-ply][data-locked='false']")


def test_a_double_click_on_end_ends_one_turn_only(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    open_seat(page, server, made)
    page.dblclick('#controls button.control[data-action="end"]')
    page.wait_for_function("document.body.dataset.ply !== '0' && document.body.dataset.locked === 'false' && "
                           "document.querySelectorAll('#controls button.control').length > 0", timeout=60_000)
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    mine = db.execute("select ply, text from actions where game_id = ? and player = 0", (made["id"],)).fetchall()
    db.close()
    assert mine == [(1, "end")]
    commands = [m for m in sent if m["type"] in ("act", "undo")]
    assert commands == [{"type": "act", "action": "end", "ply": 0, "ref": commands[0]["ref"]}]


def test_while_disconnected_a_banner_shows_and_controls_wait_for_a_fresh_state(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    open_seat(page, server, made)
    assert page.locator("#offline").is_hidden() and page.locator("#board .target").count() > 0
    server.kill()
    page.wait_for_selector("#offline:not([hidden])")
    assert "Disconnected" in page.inner_text("#offline")
    assert page.get_attribute("body", "data-locked") == "true"
    assert page.locator("#board .target").count() == 0
    assert page.locator("#controls button.control:not([disabled])").count() == 0
    server.start()
    page.wait_for_selector("#offline[hidden]", state="attached", timeout=30_000)
    assert page.get_attribute("body", "data-locked") == "false"
    assert page.locator("#board .target").count() > 0 and page.locator("#controls button.control:not([disabled])").count()
