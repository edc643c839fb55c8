"""The seed commitment a seat is shown from the first move is the published record's, and `coliseo verify` checks
it, against a real `coliseo serve` (games made as the lobby makes them: each seat's side chosen)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from .board_play import create_in_lobby

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def lobby_sides(server, game: str) -> list[str] | None:
    """The sides the lobby's form picks by default for two seats under the default options (seat p: the p-th side
    allowed), or None for a game without sides."""
    row = next(r for r in server.get("/api/catalog") if r["id"] == game)
    defaults = {o["name"]: o["default"] for o in row["options"]}
    allowed = [s["id"] for s in row["sides"] if all(defaults.get(k) == v for k, v in s["options"].items())]
    return [allowed[p % len(allowed)] for p in range(2)] if allowed else None


def first_state(server, game_id: str, token: str) -> tuple:
    ws = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token, "lang": "en"}))
    while (message := json.loads(ws.recv(timeout=30)))["type"] != "state":
        pass
    return ws, message


def resign(ws) -> None:
    ws.send(json.dumps({"type": "resign", "ply": 0, "ref": 1}))
    while (message := json.loads(ws.recv(timeout=30)))["type"] not in ("ack", "error"):
        pass
    assert message["type"] == "ack", message


def coliseo_verify(record: dict, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`coliseo verify` of a record file, as a person would run it."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    coliseo = Path(sys.executable).parent / "coliseo"
    return subprocess.run([str(coliseo), "verify", str(path), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "300"})


@pytest.mark.parametrize("game", ["capsule", "forbidden", "dungeon_dice", "fantastiqa"])
def test_the_commitment_shown_from_the_first_move_is_the_records_and_verifies(server, tmp_path, game):
    sides = lobby_sides(server, game)
    assert (sides is not None) == (game in ("capsule", "forbidden")), "the lobby picks sides for these two"
    made = server.post("/api/games", {"game": game, "seats": TWO_PEOPLE, "sides": sides})
    ws, state = first_state(server, made["id"], made["token"])
    shown = state["seed_commitment"]
    assert state["ply"] == 0 and len(shown) == 64
    assert server.get(f"/api/games/{made['id']}")["seed_commitment"] == shown
    resign(ws)
    ws.close()
    record = server.get(f"/api/games/{made['id']}/record")
    assert record["seed_commitment"] == shown
    done = coliseo_verify(record, tmp_path, "--commitment", shown)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the commitment you were shown" in done.stdout


def test_verify_names_the_options_or_the_setup_a_record_changed(server, tmp_path):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE, "options": {"mode": "advanced"},
                                      "sides": ["adv_storm", "adv_stone"]})
    ws, _ = first_state(server, made["id"], made["token"])
    resign(ws)
    ws.close()
    record = server.get(f"/api/games/{made['id']}/record")
    assert coliseo_verify(record, tmp_path).returncode == 0
    other_options = {**record, "options": {**record["options"], "max_turns": record["options"]["max_turns"] + 1}}
    done = coliseo_verify(other_options, tmp_path)
    assert done.returncode == 1, done.stdout
    assert "the seed commitment does not match the record's options:" in done.stdout, done.stdout
    other_setup = {**record, "setup": {"players": [{"preset": "adv_stone"}, {"preset": "adv_storm"}]}}
    done = coliseo_verify(other_setup, tmp_path)
    assert done.returncode == 1, done.stdout
    assert "the seed commitment does not match the record's setup:" in done.stdout, done.stdout
    shown_elsewhere = "0" * 64
    done = coliseo_verify(record, tmp_path, "--commitment", shown_elsewhere)
    assert done.returncode == 1 and "not the commitment you were shown" in done.stdout, done.stdout


@pytest.fixture
def context(browser):
    # bypass_csp: the test harness evaluates its own JavaScript (wait_for_selector), which the page's policy forbids.
    ctx = browser.new_context(viewport={"width": 1100, "height": 850}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def test_the_page_shows_the_whole_commitment_the_record_publishes(context, server):
    page = context.new_page()
    for game in ("capsule", "forbidden"):
        game_id = create_in_lobby(page, server, game, ["human", "human"])
        assert server.get(f"/api/games/{game_id}")["ply"] == 0
        shown = page.inner_text(".commitment code")
        page.click("#resign")
        page.click("#resign-yes")
        page.wait_for_selector("body[data-over='true']")
        assert shown == server.get(f"/api/games/{game_id}/record")["seed_commitment"]


def answer_of(server, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


@pytest.mark.parametrize("game", ["capsule", "forbidden", "dungeon_dice", "fantastiqa"])
def test_before_the_end_no_answer_or_log_line_holds_the_seed_or_the_salt(server, game):
    """What an outsider, a seat or a spectator can read of a running game (its payloads, summary, the lobby's list,
    the record and replay endpoints, an error) and the server's log hold neither the seed nor the salt."""
    made = server.post("/api/games", {"game": game, "seats": TWO_PEOPLE, "sides": lobby_sides(server, game),
                                      "listed": True})
    other = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    me, state = first_state(server, made["id"], made["token"])
    them, their_state = first_state(server, made["id"], other["token"])
    watcher, watched = first_state(server, made["id"], None)
    seen = [json.dumps(state), json.dumps(watched)]
    mover, legal = (me, state["legal"]) if state["legal"] else (them, their_state["legal"])
    mover.send(json.dumps({"type": "act", "action": legal[0], "ply": 0, "ref": 1}))
    me.send(json.dumps({"type": "act", "action": "not an action", "ply": 9, "ref": 2}))
    for ws, last in ((me, "error"), (watcher, "state")):
        while True:       # until the error (mine), or the state after the move (the watcher's)
            seen.append(ws.recv(timeout=30))
            message = json.loads(seen[-1])
            if message["type"] == last and message.get("ply", 1) == 1:
                break
    for ws in (me, them, watcher):
        ws.close()
    for path in (f"/api/games/{made['id']}", "/api/games", f"/api/games/{made['id']}/record",
                 f"/api/games/{made['id']}/replay?view=0"):
        status, text = answer_of(server, path)
        assert status == 409 if "/record" in path or "/replay" in path else status == 200, (path, status)
        seen.append(text)
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    seed, salt = db.execute("select seed, salt from games where id = ?", (made["id"],)).fetchone()
    db.close()
    for text in [*seen, server.errors()]:
        assert str(seed) not in text and salt not in text
