"""The live table under real use, against real `coliseo serve` processes: stale and replayed commands."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from coliseo.store import PlyTaken, Store, StoredGame

from .board_play import keep_seat
from .conftest import Server

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]
VERSUS_AI = [{"kind": "human"}, {"kind": "ai", "agent": "greedy"}]


class Socket:
    """One WebSocket to a real server: hello first, then raw messages in and out."""

    def __init__(self, server, game_id: str, token: str | None = None, lang: str = "en", **headers):
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10,
                          additional_headers=headers or None).__enter__()
        self.send({"type": "hello", "token": token, "lang": lang})
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
    move = next(a for a in me.state["legal"] if "@" in a)           # R9: a game starts with the placement
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
    me.send({"type": "act", "action": "random", "ply": 0})        # R9: the placement first
    assert me.answer()["type"] == "ack"
    me.send({"type": "act", "action": "end", "ply": 1})
    assert me.answer()["type"] == "ack"
    again = me.my_turn()
    assert "end" in again["legal"] and again["ply"] > 2
    me.send({"type": "act", "action": "end", "ply": 1})            # the same message, sent again
    refused = me.answer()
    assert refused["stale"] and "moved on" in refused["message"]
    assert len(stored_actions(server, made["id"])) == again["ply"]
    me.send({"type": "undo", "ply": 1})
    assert me.answer()["stale"]
    me.close()


TABLE_COMMANDS = ("resign", "offer-draw", "accept-draw", "decline-draw")


def stale(socket: Socket, message: dict) -> str:
    """`message` is refused as stale (and changes nothing): the refusal's words."""
    socket.send(message)
    refused = socket.answer()
    assert refused["type"] == "error" and refused.get("stale") is True, (message, refused)
    assert "moved on" in refused["message"]
    return refused["message"]


def test_a_position_taken_back_is_never_named_again_so_replayed_commands_are_stale(server):
    """Act A at ply 0, take it back, act B at ply 0: ply 0 named two positions. With the number of undos the
    messages name each exactly: the undo and act A sent again are refused, and so is every command naming the
    position taken back."""
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    me = Socket(server, made["id"], made["token"])
    first, second = [a for a in me.state["legal"] if "@" in a][:2]
    act_first = {"type": "act", "action": first, "ply": 0, "undos": 0}
    undo = {"type": "undo", "ply": 1, "undos": 0}
    me.send(act_first)
    assert me.answer()["type"] == "ack" and me.state["can_undo"]
    me.send(undo)
    assert me.answer()["type"] == "ack" and me.state["ply"] == 0
    assert stale(me, act_first) == ("the game has moved on: that was chosen at ply 0, the game is at ply 0, and an "
                                    "action was taken back since")     # the same ply again, not the same position
    assert stored_actions(server, made["id"]) == []
    me.send({"type": "act", "action": second, "ply": 0, "undos": 1})
    assert me.answer()["type"] == "ack"
    stale(me, undo)                                       # it would take back B
    stale(me, act_first)
    for kind in TABLE_COMMANDS:
        stale(me, {"type": kind, "ply": 1, "undos": 0})
    assert stored_actions(server, made["id"]) == [second]
    assert (me.state["ply"], me.state["undos"], me.state["result"]) == (1, 1, None)
    me.close()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_process_still_holding_a_position_taken_back_cannot_store_a_replay_on_the_new_one(db, request, tmp_path):
    """Servers on one store without a bus hear nothing of each other: each still holds the position it loaded, and
    only the store's compare-and-set on the position can refuse a replayed command there."""
    url = tmp_path / "web.db" if db == "sqlite" else request.getfixturevalue("postgres_url")
    servers = [Server(url).start() for _ in range(3)]
    here, at_start, after_first = servers
    try:
        made = here.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
        me = Socket(here, made["id"], made["token"])
        first, second = [a for a in me.state["legal"] if "@" in a][:2]
        early = Socket(at_start, made["id"], made["token"])              # holds ply 0 before any undo
        me.send({"type": "act", "action": first, "ply": 0, "undos": 0})
        assert me.answer()["type"] == "ack"
        late = Socket(after_first, made["id"], made["token"])            # holds A at ply 1 before any undo
        me.send({"type": "undo", "ply": 1, "undos": 0})
        assert me.answer()["type"] == "ack"
        stale(early, {"type": "act", "action": first, "ply": 0, "undos": 0})
        assert early.next("state")["undos"] == 1, "the refused process reloaded the game"
        me.send({"type": "act", "action": second, "ply": 0, "undos": 1})
        assert me.answer()["type"] == "ack"
        assert stale(late, {"type": "undo", "ply": 1, "undos": 0}).endswith("an action was taken back since")
        assert late.next("state")["undos"] == 1
        store = Store(here.db_url)
        assert store.load(made["id"]).actions == [second]
        store.close()
        for socket in (me, early, late):
            socket.close()
    finally:
        for server in servers:
            server.stop()


@pytest.mark.parametrize("message, words", [
    ({"type": "act", "action": "end"}, "ply"),
    ({"type": "act", "action": "end", "ply": "0"}, "ply"),
    ({"type": "act", "action": "end", "ply": True}, "ply"),
    ({"type": "undo"}, "ply"),
    ({"type": "act", "action": "end", "ply": 0, "undos": "0"}, "undos"),
    ({"type": "undo", "ply": 0, "undos": False}, "undos"),
])
def test_a_command_without_its_ply_is_refused(server, message, words):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    me = Socket(server, made["id"], made["token"])
    me.send(message)
    refused = me.answer()
    assert refused["type"] == "error" and words in refused["message"] and "stale" not in refused
    assert stored_actions(server, made["id"]) == []
    me.close()


@pytest.mark.parametrize("game_id, action, words", [
    ("capsule", "a4-a5", "'a4-a5' no es legal: primero coloca tu Rey y tus cápsulas (pieza@casilla, o random). "
                         "Legales ahora:"),
    ("dungeon_dice", "attack h3 h5", "'attack h3 h5' no es legal: solo se ataca en la fase de Batalla"),
])
def test_an_illegal_action_is_refused_in_the_language_of_the_seat(server, game_id, action, words):
    made = server.post("/api/games", {"game": game_id, "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    tokens = [made["token"], joined["token"]]
    sockets = [Socket(server, made["id"], token, lang="es") for token in tokens]
    mover = next(i for i, seat in enumerate(sockets) if seat.state["legal"])
    sockets[mover].send({"type": "act", "action": action, "ply": 0})
    refused = sockets[mover].answer()
    assert refused["type"] == "error" and words in refused["message"], refused
    sockets[1 - mover].send({"type": "act", "action": "end", "ply": 0})
    assert sockets[1 - mover].answer()["message"] == "no es tu turno"
    sockets[mover].send({"type": "undo", "ply": 0})
    assert sockets[mover].answer()["message"].startswith("no hay nada que deshacer: solo tu última acción")
    sockets[mover].send({"type": "act", "action": "end", "ply": 5})
    assert sockets[mover].answer()["message"] == ("la partida ha avanzado: eso se eligió en la jugada 5 y la partida "
                                                  "va por la 0")
    sockets.append(Socket(server, made["id"], tokens[1 - mover]))        # the same seat, in English
    sockets[-1].send({"type": "act", "action": "end", "ply": 0})
    assert sockets[-1].answer()["message"] == "it is not your turn"
    for seat in sockets:
        seat.close()
    assert stored_actions(server, made["id"]) == []


def test_two_processes_race_for_one_ply_and_the_store_key_decides(server, tmp_path):
    """A second server on the same file holds the game in memory at ply 0 when the first one stores ply 1."""
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    other = Server(tmp_path / "web.db").start()
    try:
        watcher = Socket(other, made["id"], joined["token"])          # keeps the game live in the other process
        here = Socket(server, made["id"], made["token"])
        here.send({"type": "act", "action": "random", "ply": 0})
        assert here.answer()["type"] == "ack"
        there = Socket(other, made["id"], made["token"])
        assert there.state["ply"] == 0, "the other process still has the old position in memory"
        move = next(a for a in there.state["legal"] if "@" in a)
        there.send({"type": "act", "action": move, "ply": 0})
        refused = there.answer()
        assert refused["stale"] and "moved on" in refused["message"]
        assert there.next("state")["ply"] == 1, "the loser reloaded the game from the store"
        assert stored_actions(server, made["id"]) == ["random"]
        for seat in (watcher, here, there):
            seat.close()
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
    keep_seat(page, made["id"], made)
    page.goto(server.url + made["play_url"])
    page.wait_for_selector("body[data-ply][data-locked='false']")


def test_the_seat_panel_shows_whether_the_other_player_has_the_table_open(page, browser, server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    open_seat(page, server, made)
    other = '#seats [data-seat="1"] .presence'
    assert page.get_attribute(other, "data-present") == "false" and "away" in page.inner_text(other)
    assert not page.locator('#seats [data-seat="0"] .presence').count(), "no dot on your own seat"
    phone = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    try:
        theirs = phone.new_page()
        theirs.goto(server.url + "/")
        keep_seat(theirs, made["id"], joined)
        theirs.goto(server.url + made["play_url"])
        theirs.wait_for_selector('#seats [data-seat="0"] .presence[data-present="true"]')
        page.wait_for_selector(f'{other}[data-present="true"]')
        assert page.get_attribute(other, "title") == "Player 2 has the table open"
    finally:
        phone.close()
    page.wait_for_selector(f'{other}[data-present="false"]')


def test_the_banner_says_when_the_player_it_waits_for_is_away(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], joined)                                 # Player 2's table; Player 1 moves first
    page.goto(server.url + made["play_url"])
    page.wait_for_function("document.getElementById('status').textContent === 'Waiting for Player 1, who is away'")
    with connect(f"ws://127.0.0.1:{server.port}/ws/{made['id']}") as first:
        first.send(json.dumps({"type": "hello", "token": made["token"], "lang": "en"}))
        page.wait_for_function("document.getElementById('status').textContent === 'Waiting for Player 1'")
    page.wait_for_function("document.getElementById('status').textContent === 'Waiting for Player 1, who is away'")


def test_the_banner_says_an_open_seat_waits_for_a_friend_to_join(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], made, invite=made["invite"], creator=True)     # as the lobby keeps the creator's
    page.goto(server.url + made["play_url"])
    page.wait_for_selector("body[data-ply][data-locked='false']")
    page.click('#controls button.control[data-action="random"]')        # R9: Player 2 places next
    page.wait_for_function("document.getElementById('status').textContent === "
                           "'Waiting for Player 2 to join: send a friend the join link'")
    assert made["invite"] in page.input_value("#join-link")


def test_a_double_click_on_end_ends_one_turn_only(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    open_seat(page, server, made)
    page.click('#controls button.control[data-action="random"]')        # R9: the placement first
    page.wait_for_selector('#controls button.control[data-action="end"]:not([disabled])')
    page.dblclick('#controls button.control[data-action="end"]')
    page.wait_for_function("Number(document.body.dataset.ply) > 2 && document.body.dataset.locked === 'false' && "
                           "document.querySelectorAll('#controls button.control').length > 0", timeout=60_000)
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    mine = db.execute("select ply, text from actions where game_id = ? and player = 0", (made["id"],)).fetchall()
    db.close()
    assert mine == [(1, "random"), (2, "end")]
    commands = [m for m in sent if m["type"] in ("act", "undo")]
    assert commands == [{"type": "act", "action": "random", "ply": 0, "undos": 0, "ref": commands[0]["ref"]},
                        {"type": "act", "action": "end", "ply": 1, "undos": 0, "ref": commands[1]["ref"]}]


def test_the_page_names_the_position_after_an_undo_by_its_count_of_undos(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f))))
    open_seat(page, server, made)
    for square, ply in (("d1", 1), (None, 0), ("e1", 1)):       # R9: the King's placement, taken back
        if square:
            page.click("#board .tray-piece[data-target='#K']")
            page.click(f'#board [data-target="{square}"].target')
        else:
            page.click("#undo")
        page.wait_for_function(f"document.body.dataset.ply === '{ply}' && document.body.dataset.locked === 'false'")
    commands = [{k: m.get(k) for k in ("type", "action", "ply", "undos")} for m in sent if m["type"] != "hello"]
    assert commands == [{"type": "act", "action": "K@d1", "ply": 0, "undos": 0},
                        {"type": "undo", "action": None, "ply": 1, "undos": 0},
                        {"type": "act", "action": "K@e1", "ply": 0, "undos": 1}]
    assert stored_actions(server, made["id"]) == ["K@e1"]


def test_the_page_shows_a_refusal_in_its_own_language(page, server):
    made = server.post("/api/games", {"game": "dungeon_dice", "seats": VERSUS_AI})
    # The page only offers legal actions: keep its socket to send one it would never offer.
    page.add_init_script("const Real = WebSocket; window.WebSocket = function (...a) { "
                         "return (window.tableSocket = new Real(...a)); }; WebSocket.prototype = Real.prototype; "
                         "localStorage.setItem('coliseo.lang', 'es');")
    open_seat(page, server, made)
    page.wait_for_selector("#controls button.control", timeout=60_000)         # my turn
    page.evaluate("ply => tableSocket.send(JSON.stringify({type: 'act', action: 'attack h3 h5', ply, ref: 99}))",
                  int(page.get_attribute("body", "data-ply")))
    page.wait_for_function("document.getElementById('message').textContent.includes('no es legal')")
    if folder := os.environ.get("COLISEO_SCREENSHOTS"):
        page.screenshot(path=str(Path(folder) / "refusal-es.png"), full_page=True)
    shown = page.text_content("#message")
    assert shown.startswith("'attack h3 h5' no es legal: solo se ataca en la fase de Batalla. Legales ahora:"), shown


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
    assert page.locator("#board .target").count() > 0
    assert page.locator("#controls button.control:not([disabled])").count()


# --- resign, draw offers, abandonment ------------------------------------------------------------------
def command(socket: Socket, kind: str, **fields) -> dict:
    socket.send({"type": kind, "ply": socket.state["ply"], **fields})
    return socket.answer()


def verified(record: dict) -> str:
    """`coliseo verify` of the published record, as a person would run it."""
    path = Path(tempfile.mkdtemp()) / "record.json"
    path.write_text(json.dumps(record))
    coliseo = Path(sys.executable).parent / "coliseo"
    done = subprocess.run([str(coliseo), "verify", str(path)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "300"})
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_resignation_ends_the_game_and_the_published_record_verifies(server):
    made = server.post("/api/games", {"game": "dungeon_dice", "seats": VERSUS_AI})
    me = Socket(server, made["id"], made["token"])
    assert command(me, "resign")["type"] == "ack"
    over = me.state
    assert over["result"] == {"winners": [1], "reason": "resigned", "scores": None}
    assert over["result_text"] == "Player 2 wins — Player 1 resigned" and over["legal"] == []
    assert command(me, "act", action="end")["message"] == "the game is over"
    record = server.get(f"/api/games/{made['id']}/record")
    assert record["actions"][-1] == "!resign 0"
    assert "by resignation" in verified(record)
    me.close()


def test_a_draw_offer_declined_lapses_and_accepted_ends_the_game(server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    one, two = Socket(server, made["id"], made["token"]), Socket(server, made["id"], joined["token"])
    assert command(one, "act", action="random")["type"] == "ack"          # R9: both place first
    two.my_turn()
    assert command(two, "act", action="random")["type"] == "ack"
    one.my_turn()
    assert command(one, "offer-draw")["type"] == "ack"
    while two.state["draw_offer"] != 0:
        two.next("state")
    assert "accept or decline" in command(two, "offer-draw")["message"]
    assert command(one, "accept-draw")["message"] == "there is no draw offer from your opponent to answer"
    assert command(two, "decline-draw")["type"] == "ack"
    assert one.next("state")["draw_offer"] is None
    assert command(one, "offer-draw")["type"] == "ack"
    king = next(p["sq"] for p in one.state["observation"]["pieces"] if p["owner"] == 0 and p["kind"] == "king")
    move = next(a for a in one.state["legal"] if a.startswith(f"{king}-"))
    assert command(one, "act", action=move)["type"] == "ack"            # the offerer's next action
    lapsed = two.next("state")
    while lapsed["ply"] < 6:
        lapsed = two.next("state")
    assert lapsed["draw_offer"] is None and "Player 1's draw offer lapses" in [e["text"] for e in lapsed["log"]]
    assert command(two, "offer-draw")["type"] == "ack"
    one.next("state")
    assert command(one, "accept-draw")["type"] == "ack"
    over = one.state
    assert over["result"] == {"winners": [], "reason": "draw_agreed", "scores": None}
    record = server.get(f"/api/games/{made['id']}/record")
    assert record["actions"] == ["random", "random", "!offer-draw 0", "!decline-draw 1", "!offer-draw 0", move,
                                 "!offer-draw 1", "!accept-draw 0"]
    assert "drawn by agreement" in verified(record)
    for seat in (one, two):
        seat.close()


def test_draw_offers_are_for_two_players_and_a_resigning_adventurer_hands_the_seat_to_the_ai(server):
    made = server.post("/api/games", {"game": "fantastiqa", "options": {"players": 3},
                                      "seats": [{"kind": "human"}] * 3})
    me = Socket(server, made["id"], made["token"])
    assert command(me, "offer-draw")["message"] == "draw offers are for two-player games"
    assert command(me, "resign")["type"] == "ack"
    after = me.state
    assert after["result"] is None and after["resigned"] == [0]
    assert after["seats"][0]["resigned"] and after["seats"][0]["kind"] == "human"
    while me.state["current_player"] == 0:                                 # the AI plays the resigned seat
        me.next("state")
    assert command(me, "resign")["message"] == "you have resigned; your seat is played by the AI"
    me.close()


def test_a_game_idle_past_the_limit_ends_as_abandoned_and_its_record_is_published(tmp_path):
    server = Server(tmp_path / "idle.db", args=("--abandon-after", "4s", "--idle-check", "0.2")).start()
    try:
        made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
        busy = server.post("/api/games", {"game": "dungeon_dice", "seats": VERSUS_AI})
        me = Socket(server, busy["id"], busy["token"])
        deadline = time.monotonic() + 30
        while not server.get(f"/api/games/{made['id']}")["finished"] and time.monotonic() < deadline:
            assert command(me, "act", action=me.my_turn()["legal"][-1])["type"] == "ack"
            time.sleep(0.5)
        assert not server.get(f"/api/games/{busy['id']}")["finished"], "a game being played is not abandoned"
        record = server.get(f"/api/games/{made['id']}/record")
        assert record["actions"] == ["!abandon"]
        assert record["result"] == {"winners": [], "reason": "abandoned", "scores": None}
        assert "abandoned" in verified(record)
        me.close()
    finally:
        server.stop()


def test_resign_in_the_browser_asks_first_and_shows_the_reason_in_words(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    open_seat(page, server, made)
    page.click("#resign")
    assert "Resign this game?" in page.inner_text("#resign-confirm")
    page.click("#resign-no")
    assert page.locator("#resign-confirm").count() == 0 and page.get_attribute("body", "data-over") == "false"
    page.click("#resign")
    page.click("#resign-yes")
    page.wait_for_selector("body[data-over='true']")
    assert "Player 2 wins — Player 1 resigned" in page.inner_text("#status")
    assert "Why: Player 1 resigned" in page.inner_text("#game-over") and "null" not in page.inner_text("#game-over")
    assert page.locator("#resign").count() == 0


def tied_fantastiqa(server) -> tuple[dict, dict]:
    """A Fantastiqa game between two people that ends tied (so shared) at its turn limit; (made, its last state)."""
    made = server.post("/api/games", {"game": "fantastiqa", "seats": TWO_PEOPLE, "options": {"max_turns": 2}})
    joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    seats = [Socket(server, made["id"], made["token"]), Socket(server, made["id"], joined["token"])]
    while not seats[0].state["result"]:        # the draft, then each adventurer ends a turn: nobody scores
        me = seats[seats[0].state["current_player"]]
        legal = me.state["legal"]
        assert command(me, "act", action="end" if "end" in legal else legal[0])["type"] == "ack"
        for seat in seats:
            while seat.state["ply"] < me.state["ply"]:
                seat.next("state")
    for seat in seats:
        seat.close()
    return made, seats[0].state


def test_a_shared_win_says_so_and_the_scores_say_what_they_count(page, server):
    made, over = tied_fantastiqa(server)
    assert over["result"]["winners"] == [0, 1]
    assert over["result_text"].startswith("Player 1 and Player 2 share the win")
    open_seat(page, server, made)
    dialog = page.locator("#game-over[open]")
    assert dialog.locator("h2").inner_text() == "You share the win with Player 2"
    assert dialog.locator("caption").inner_text() == "Quest points"
    assert "share the win" in page.inner_text("#status")
    page.evaluate("localStorage.setItem('coliseo.lang', 'es')")
    page.goto(server.url + f"/play/{made['id']}?spectate=1")
    assert dialog.locator("h2").inner_text() == "Jugador 1 y Jugador 2 comparten la victoria"
    assert dialog.locator("caption").inner_text() == "Puntos de misión"


def test_the_replay_tells_each_step_in_the_words_of_the_table(page, server):
    made, _ = tied_fantastiqa(server)
    record = server.get(f"/api/games/{made['id']}/record")
    names = {row["id"]: row["name"] for row in server.get("/api/content/fantastiqa?lang=en")}
    quest, artifact = (record["actions"][0].split()[1], record["actions"][1].split()[1])
    frames = server.get(f"/api/games/{made['id']}/replay")["frames"]
    first = frames[1]["player"] + 1                                     # the seed says who drafts first
    page.goto(server.url + f"/replay/{made['id']}")
    page.wait_for_selector("body[data-step='0']")
    page.click("#next")
    page.wait_for_selector("body[data-step='1']")
    # A spectator's replay tells each step by its first event (the words a player was offered may name what only
    # that player knew; the replay of a player's own view says those: tests/web/test_api.py).
    told = [frame["events"][0] if frame["events"] else None for frame in frames]   # step 0: the start
    assert names[quest] in told[1] and names[artifact] in told[2]
    assert page.inner_text("#step") == f"Step 1 of 8 · {told[1]}"
    assert page.get_attribute("#step", "title") == record["actions"][0]
    page.click("#next")
    assert page.inner_text("#step") == f"Step 2 of 8 · {told[2]}"
    page.click("#next")
    assert page.inner_text("#step") == f"Step 3 of 8 · {told[3]}"
    assert record["actions"][2] not in page.inner_text("#step")
    # Each step marks what it touched, as the table marks the opponent's turn: here the region started in.
    assert "recent" in page.get_attribute(f'#board [data-target="{record["actions"][2].split()[1]}"]', "class")
    # Above the steps: how it ended, what the tie came down to, and who played.
    assert page.inner_text("#result").splitlines() == [
        "Player 1 and Player 2 share the win — turn limit",
        "Tied at -1 points, on gems and on completed quests: the win is shared.",
        "Player 1: Person · Player 2: Person"]
    # Every step is listed in the same words, the current one marked; a click on one goes there.
    steps = page.locator("#steps button")
    assert steps.count() == 8 and steps.nth(1).get_attribute("aria-label") == f"2. {told[2]}"
    # The steps stand under their turns; a turn's heading names its player by the coloured number.
    turns = [(f["turn"], f["player"]) for f in frames[1:]]
    runs = [key for n, key in enumerate(turns) if not n or turns[n - 1] != key]
    heads = page.locator("#steps .turn-head")
    assert heads.all_text_contents() == [
        f"{p + 1}{'Setup' if not turn else f'Turn {turn}'} · Player {p + 1}" for turn, p in runs]
    assert heads.first.text_content() == f"{first}Setup · Player {first}" and len(runs) > 1
    assert page.locator("#steps > li").first.locator("button").count() == turns.count(turns[0])
    assert steps.nth(1).locator("span").last.inner_text() == told[2]
    assert page.locator("#steps button[aria-current=step]").inner_text().startswith("3")
    steps.nth(6).click()
    page.wait_for_selector("body[data-step='7']")
    assert page.locator("#steps button[aria-current=step]").inner_text().startswith("7")
    # The keys of a chess site's move list: End the last step, Home the start, ← → one step.
    for key, step in (("End", 8), ("ArrowLeft", 7), ("Home", 0), ("ArrowRight", 1), ("ArrowDown", 8), ("ArrowUp", 0)):
        page.keyboard.press(key)
        page.wait_for_selector(f"body[data-step='{step}']")


# --- private by default ---------------------------------------------------------------------------------
def post(server, path: str, body: dict) -> tuple[int, dict]:
    """A POST that returns (status, body) for refusals too."""
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_new_game_is_unlisted_and_joining_it_needs_the_invite(server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    assert made["join_url"] == f"/play/{made['id']}?join=1#invite={made['invite']}"
    assert made["id"] not in [g["id"] for g in server.get("/api/games")]
    for stranger in ({}, {"invite": "guess"}, {"invite": made["token"]}):
        status, refused = post(server, f"/api/games/{made['id']}/join", stranger)
        assert status == 403 and refused["detail"] == "joining this game needs its invite link"
    status, joined = post(server, f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    assert status == 200 and joined["seat"] == 1
    assert Socket(server, made["id"], joined["token"]).state["you"] == 1


def test_the_creator_lists_a_game_and_then_anyone_may_join_it(server):
    made = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}] * 2})
    status, refused = post(server, f"/api/games/{made['id']}/listing", {"token": made["invite"], "listed": True})
    assert status == 403 and "creator" in refused["detail"]
    assert post(server, f"/api/games/{made['id']}/listing", {"token": made["token"], "listed": True})[0] == 200
    assert made["id"] in [g["id"] for g in server.get("/api/games")]
    assert post(server, f"/api/games/{made['id']}/join", {})[0] == 200
    listed = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE, "listed": True})
    assert listed["id"] in [g["id"] for g in server.get("/api/games")]


def test_spectating_is_open_by_link_unless_the_creator_asks_for_the_invite(server):
    open_game = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    assert Socket(server, open_game["id"]).state["you"] is None
    closed = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI, "spectators_need_invite": True})
    assert closed["spectate_url"].endswith(f"#invite={closed['invite']}")
    with pytest.raises(AssertionError, match="watching this game needs its invite link"):
        Socket(server, closed["id"])
    watcher = connect(f"ws://127.0.0.1:{server.port}/ws/{closed['id']}").__enter__()
    watcher.send(json.dumps({"type": "hello", "token": None, "invite": closed["invite"]}))
    assert json.loads(watcher.recv(timeout=10))["you"] is None
    watcher.close()


def test_a_friend_joins_by_the_invite_link_and_a_stranger_without_it_is_refused(browser, server):
    contexts = [browser.new_context(bypass_csp=True) for _ in range(3)]
    try:
        creator, friend, stranger = (c.new_page() for c in contexts)
        creator.goto(server.url + "/")
        creator.select_option("#seat-1", "human")
        creator.click("#create")
        creator.wait_for_selector("body[data-ply]")
        game_id = creator.url.rsplit("/", 1)[-1]
        assert game_id not in [g["id"] for g in server.get("/api/games")]
        stranger.goto(f"{server.url}/play/{game_id}?join=1")
        stranger.wait_for_selector("body[data-ply]")
        assert "invite" in stranger.inner_text("#message") and stranger.locator(".seat", has_text="(you)").count() == 0
        friend.goto(creator.input_value("#join-link"))
        friend.wait_for_selector(".seat:has-text('(you)')")
        assert "Player 2" in friend.inner_text(".seat:has-text('(you)')")
        creator.click("#listing")
        creator.wait_for_selector("#listing:has-text('Take this game off')")
        assert game_id in [g["id"] for g in server.get("/api/games")]
    finally:
        for context in contexts:
            context.close()


def test_a_seat_link_plays_the_seat_on_another_device_and_a_wrong_one_only_watches(browser, server):
    made = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}] * 2,
                                      "spectators_need_invite": True})
    contexts = [browser.new_context(bypass_csp=True) for _ in range(3)]
    try:
        desk, phone, stranger = (c.new_page() for c in contexts)
        desk.goto(server.url + "/")                                       # the seat as the lobby keeps it
        keep_seat(desk, made["id"], made, invite=made["invite"], creator=True)
        desk.goto(server.url + made["play_url"])
        desk.click("#seat-link-box summary")
        link = desk.input_value("#seat-link")
        address, secrets = link.split("#")
        assert made["token"] not in address and made["token"] in secrets and "invite=" in secrets
        phone.goto(link)
        phone.wait_for_selector(".seat:has-text('(you)')")
        assert "Player 1" in phone.inner_text(".seat:has-text('(you)')")
        assert phone.url == f"{server.url}/play/{made['id']}"                  # the token left the address bar
        phone.wait_for_selector("body[data-locked='false']")
        phone.click('#controls button.control[data-action="random"]')      # R9: the placement first
        phone.wait_for_function("document.body.dataset.ply === '1'")
        assert stored_actions(server, made["id"]) == ["random"]
        desk.wait_for_function("document.body.dataset.ply === '1'")
        assert desk.locator("#seat-link-box[open]").count() == 1                 # a new state left the link open
        assert phone.locator("#listing").count() == 1                          # the creator's control came along
        stranger.goto(link.replace(made["token"], "not-the-token"))
        stranger.wait_for_selector("body[data-ply]")
        assert stranger.inner_text("#message") == ("This seat link does not open a seat of this game: "
                                                   "you are watching.")
        assert stranger.locator(".seat:has-text('(you)')").count() == 0
        assert stranger.evaluate(f"localStorage.getItem('coliseo.seat.{made['id']}')") is None
        assert stranger.locator("#seat-link-box").count() == 0
    finally:
        for context in contexts:
            context.close()


# --- limits -----------------------------------------------------------------------------------------------
def test_new_games_per_client_are_rate_limited_with_a_429(tmp_path):
    server = Server(tmp_path / "rate.db", args=("--games-per-minute", "3")).start()
    try:
        answers = [post(server, "/api/games", {"game": "capsule", "seats": TWO_PEOPLE}) for _ in range(4)]
        assert [status for status, _ in answers] == [201, 201, 201, 429]
        assert "too many new games from your address: at most 3 a minute" in answers[-1][1]["detail"]
    finally:
        server.stop()


def test_websocket_messages_are_rate_limited_with_an_error_message(tmp_path):
    server = Server(tmp_path / "rate.db", args=("--messages-per-second", "5")).start()
    try:
        made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
        me = Socket(server, made["id"], made["token"])
        for n in range(20):
            me.send({"type": "undo", "ply": 0, "ref": n})
        answers = [me.answer()["message"] for _ in range(20)]
        assert answers.count("nothing to undo") == 0 and sum("too many messages" in a for a in answers) >= 10
        assert sum(a.startswith("nothing to undo") for a in answers) >= 4     # the hello counted too
        time.sleep(1.2)
        assert command(me, "act", action="random")["type"] == "ack", "the socket works again once the client slows"
        me.close()
    finally:
        server.stop()


def test_live_games_between_ais_are_capped(tmp_path):
    server = Server(tmp_path / "cap.db", args=("--max-ai-games", "1")).start()
    try:
        robots = {"game": "fantastiqa", "seats": [{"kind": "ai", "agent": "mcts"}] * 2}
        first = server.post("/api/games", robots)
        status, refused = post(server, "/api/games", robots)
        assert status == 429 and "at most 1 games between AIs" in refused["detail"]
        assert not server.get(f"/api/games/{first['id']}")["finished"]
        assert post(server, "/api/games", {"game": "capsule", "seats": VERSUS_AI})[0] == 201
    finally:
        server.stop()


# --- origins, hosts, NaN ---------------------------------------------------------------------------------
def test_a_websocket_from_a_foreign_origin_is_refused(tmp_path):
    server = Server(tmp_path / "origin.db", args=("--allowed-origin", "http://games.example")).start()
    try:
        made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
        with pytest.raises(InvalidStatus, match="403"):
            Socket(server, made["id"], made["token"], Origin="http://evil.example")
        same = Socket(server, made["id"], made["token"], Origin=server.url)
        added = Socket(server, made["id"], made["token"], Origin="http://games.example")
        assert same.state["you"] == added.state["you"] == 0
    finally:
        server.stop()


def test_a_request_for_a_foreign_host_is_refused(server):
    request = urllib.request.Request(server.url + "/api/catalog", headers={"Host": "rebound.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 421 and "rebound.example" in json.loads(refused.value.read())["detail"]
    made = server.post("/api/games", {"game": "capsule", "seats": VERSUS_AI})
    assert handshake_status(server, f"/ws/{made['id']}", "rebound.example") == 403
    assert handshake_status(server, f"/ws/{made['id']}", f"127.0.0.1:{server.port}") == 101
    local = urllib.request.Request(server.url + "/api/catalog", headers={"Host": f"localhost:{server.port}"})
    with urllib.request.urlopen(local, timeout=10) as answer:
        assert answer.status == 200


def handshake_status(server, path: str, host: str) -> int:
    """The status a WebSocket handshake gets with this Host header (a browser after DNS rebinding sends its own)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        raw.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        return int(raw.recv(200).split()[1])


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_with_a_clear_error(server, number):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    me = Socket(server, made["id"], made["token"])
    me.ws.send('{"type": "act", "action": "end", "ply": ' + number + ', "ref": 1}')
    refused = me.answer()
    assert refused["type"] == "error" and f"{number} is not a JSON number" in refused["message"]
    assert stored_actions(server, made["id"]) == []
    me.close()


# --- /docs offline --------------------------------------------------------------------------------------
def test_the_api_page_renders_offline_under_the_security_policy(browser, server):
    context = browser.new_context()                  # the page's own policy applies: no bypass here
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: None if r.url.startswith(server.url) else problems.append(r.url))
        page.goto(server.url + "/docs")
        page.wait_for_selector(".opblock", timeout=20_000)
        spec = server.get("/openapi.json")
        operations = {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item}
        methods = page.locator(".opblock-summary-method").all_inner_texts()
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        shown = {f"{m.strip()} {p.strip()}" for m, p in zip(methods, paths, strict=True)}
        assert shown == operations and "POST /api/games/{game_id}/join" in shown
        assert "Coliseo web table" in page.inner_text(".info .title") and problems == []
    finally:
        context.close()


# --- a seat handed to the AI comes back ------------------------------------------------------------------
def test_a_seat_handed_to_the_ai_returns_to_its_owner_on_reconnect(tmp_path):
    server = Server(tmp_path / "idle.db", args=("--idle-check", "0.2")).start()
    try:
        made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE, "idle_seconds": 5})
        joined = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
        friend = Socket(server, made["id"], joined["token"])
        while not friend.state["seats"][0]["handed_over"] or friend.state["current_player"] != 1:
            friend.next("state")                       # the owner idled: the AI played their turn
        assert friend.state["seats"][0]["kind"] == "ai" and friend.state["ply"] >= 1
        owner = Socket(server, made["id"], made["token"])
        assert owner.state["seats"][0] == {"kind": "human", "agent": None, "taken": True, "handed_over": False,
                                           "resigned": False}
        assert command(friend, "act", action="random")["type"] == "ack"      # R9: the friend's placement
        mine = owner.my_turn()
        assert mine["current_player"] == 0 and mine["legal"], "the AI no longer plays the seat"
        assert command(owner, "act", action=mine["legal"][-1])["type"] == "ack"
        assert server.get(f"/api/games/{made['id']}")["seats"][0]["kind"] == "human"
        for seat in (owner, friend):
            seat.close()
    finally:
        server.stop()
