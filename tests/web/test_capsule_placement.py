"""R9 at the web table: a person places the King and each capsule in secret before turn 1 (issue 49), on a real
server: what each reader's payload holds while and after the pieces are placed, and the board's placement step in
Chromium (the tray, a square of the zone, "Random" and "As last time")."""

from __future__ import annotations

import json
import os
from pathlib import Path

from web.board_play import keep_seat
from web.test_live import TWO_PEOPLE, Socket

DAWN = {"dawnblade_knight", "clay_brute", "prism_archer", "Dawnblade Knight", "Clay Brute", "Prism Archer"}


def command(socket: Socket, kind: str, **fields) -> dict:
    socket.send({"type": kind, "ply": socket.state["ply"], **fields})
    return socket.answer()


def test_the_other_readers_never_learn_where_a_piece_was_placed_nor_which_monster_is_in_a_capsule(server):
    made = server.post("/api/games", {"game": "capsule", "seats": TWO_PEOPLE})
    second = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    one, two = Socket(server, made["id"], made["token"]), Socket(server, made["id"], second["token"])
    watcher = Socket(server, made["id"])
    assert one.state["observation"]["placing"] and one.state["legal"][-1] == "random"
    assert command(one, "act", action="K@d1")["type"] == "ack"
    assert command(one, "act", action="2@c1")["type"] == "ack"
    for reader in (two, watcher):
        while reader.state["ply"] < 2:
            reader.next("state")
        seen = reader.state
        assert [p for p in seen["observation"]["pieces"] if p["owner"] == 0] == []      # not even the squares
        assert seen["log"][-1]["text"] == "Player 1 places a piece" and not {"d1", "c1"} & set(seen["marks"])
        assert not any(word in json.dumps(seen) for word in DAWN | {"dawn_king"})
    assert "Player 1 places Clay Brute on c1" in [line["text"] for line in one.state["log"]]
    assert command(one, "act", action="random")["type"] == "ack"
    two.my_turn()
    assert command(two, "act", action="random")["type"] == "ack"
    for reader in (two, watcher):
        while reader.state["observation"]["placing"]:
            reader.next("state")
        theirs = [p for p in reader.state["observation"]["pieces"] if p["owner"] == 0]
        assert len(theirs) == 4 and {p["sq"] for p in theirs} >= {"d1", "c1"}
        capsules = [p for p in theirs if p["kind"] == "capsule"]
        assert len(capsules) == 3 and all(p["faction"] and "card" not in p for p in capsules)
        assert not any(word in json.dumps(reader.state) for word in DAWN)
    for socket in (one, two, watcher):
        socket.close()


def new_game(page, server) -> dict:
    made = server.post("/api/games", {"game": "capsule",
                                      "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], made)
    page.goto(f"{server.url}/play/{made['id']}")
    page.wait_for_selector("body[data-can-act='true']")
    return made


def own_squares(page) -> dict:
    """Square -> what the inspector's label says of your piece there."""
    return page.locator("#board g.spot:has(g.piece.own)").evaluate_all(
        "nodes => Object.fromEntries(nodes.map((n) => [n.dataset.target, n.getAttribute('aria-label')]))")


def shot(page, name: str) -> None:
    if folder := os.environ.get("COLISEO_SCREENSHOTS"):
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def test_a_person_places_by_the_board_then_plays_and_the_next_game_can_place_as_last_time(page, server, page_errors):
    new_game(page, server)
    assert page.inner_text("#prompt").startswith("You may place the King or a capsule")
    assert page.locator("#board g.piece").count() == 0                 # the AI's pieces are placed, out of sight
    assert page.locator("#board .tray-piece.target").count() == 4 and page.locator(".as-last-time").count() == 0
    assert "Dawn King" in page.inner_text("#board .capsule-tray")
    shot(page, "capsule-placement-start.png")
    page.click("#board .tray-piece[data-target='#2']")
    lit = page.locator("#board g.spot.target").evaluate_all("nodes => nodes.map((n) => n.dataset.target)")
    assert sorted(lit) == [f"{f}1" for f in "abcdefgh"] and page.locator("#board g.spot.target .dot").count() == 8
    page.click("#board [data-target='a1']")
    page.wait_for_selector("#board [data-target='a1'] g.piece.own")
    page.click("#board .tray-piece[data-target='#K']")
    page.click("#board [data-target='h1']")
    page.wait_for_selector("#board [data-target='h1'] g.piece.own")
    shot(page, "capsule-placement-two-placed.png")
    page.click('#controls button.control[data-action="random"]')
    page.wait_for_function("!document.querySelector('#board .capsule-tray')")
    page.wait_for_selector("body[data-can-act='true']")
    assert page.locator("#board g.piece:not(.own)").count() == 4      # turn 1: the opponent's pieces appear
    assert page.locator("#board g.piece:not(.own) .mark-glyph").all_text_contents().count("?") == 3
    first = own_squares(page)
    assert "Clay Brute" in first["a1"] and "Dawn King" in first["h1"] and len(first) == 4
    shot(page, "capsule-placement-done.png")
    new_game(page, server)                                            # the same team again, in the same browser
    page.click("#board .as-last-time")
    page.wait_for_function("!document.querySelector('#board .capsule-tray')", timeout=30_000)
    page.wait_for_selector("body[data-can-act='true']")
    assert own_squares(page) == first
    assert not page_errors


def test_the_placement_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    try:
        new_game(page, server)
        page.tap("#board .tray-piece[data-target='#1']")
        page.tap("#board [data-target='d1']")
        page.wait_for_selector("#board [data-target='d1'] g.piece.own")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390       # nothing wider than the phone
        box = page.locator("#board .capsule-tray").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shot(page, "capsule-placement-phone.png")
    finally:
        context.close()
