"""A real `coliseo serve` on a free loopback port and Debian's headless Chromium, for scripts that look at the table
(screenshots.py, bench/bench_redraw.py). Needs the web extra and /usr/bin/chromium."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

# Options that bring each game to its end in a few minutes of random play.
SHORT = {"capsule": {"max_turns": 12}, "dungeon_dice": {"max_turns": 16}, "fantastiqa": {"max_turns": 16},
         "forbidden": {"start_lp": 1500}}


@contextlib.contextmanager
def server():
    """Yields the base URL of a fresh server with its own SQLite file; stops it afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        coliseo = Path(sys.executable).parent / "coliseo"
        process = subprocess.Popen([str(coliseo), "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/t.db"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    urllib.request.urlopen(url + "/api/catalog", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise SystemExit("the server did not start")
            yield url
        finally:
            process.terminate()
            process.wait(10)


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_game(url: str, game: str, agent: str = "random", options: dict | None = None) -> dict:
    """A game with a person in seat 1 and `agent` in the others; returns the creation answer (id, token)."""
    catalog = json.loads(urllib.request.urlopen(url + "/api/catalog", timeout=10).read())
    row = next(g for g in catalog if g["id"] == game)
    players = next((o["default"] for o in row["options"] if o["name"] == "players"), row["min_players"])
    seats = [{"kind": "human"}] + [{"kind": "ai", "agent": agent}] * (players - 1)
    body = json.dumps({"game": game, "seats": seats, "options": options or {}}).encode()
    request = urllib.request.Request(url + "/api/games", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def open_seat(page, url: str, made: dict, lang: str = "en") -> None:
    """The table of the game's person seat, as its creator's browser would open it."""
    page.goto(url + "/")
    page.evaluate("([key, seat, lang]) => { localStorage.setItem(key, seat); "
                  "localStorage.setItem('coliseo.lang', lang); }",
                  [f"coliseo.seat.{made['id']}", json.dumps({"seat": made["seat"], "token": made["token"]}), lang])
    page.goto(f"{url}/play/{made['id']}")
    page.wait_for_selector("body[data-ply]")


def wait_turn(page, timeout: int = 120_000) -> bool:
    """Waits until this seat may act or the game is over; True if it may act."""
    page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.canAct === 'true'",
                           timeout=timeout)
    return page.get_attribute("body", "data-over") != "true"


def click_something(page, rng: random.Random) -> None:
    """One random click that builds an action: a board target or a turn control, else the All actions list."""
    before = page.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
    targets = page.locator("#board .target, #controls button.control")
    if targets.count():
        targets.nth(rng.randrange(targets.count())).click()
    else:
        if not page.locator("#all-actions[open]").count():
            page.click("#all-actions summary")
        buttons = page.locator("#all-actions button.action")
        buttons.first.wait_for()
        buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_for_function(f"document.body.dataset.ply !== {json.dumps(before[0])} || "
                           f"document.body.dataset.draws !== {json.dumps(before[1])}")


def play_actions(page, rng: random.Random, plies: int) -> None:
    """Random clicks until `plies` more actions were played (by anyone) or the game is over."""
    goal = int(page.get_attribute("body", "data-ply")) + plies
    while int(page.get_attribute("body", "data-ply")) < goal and wait_turn(page):
        click_something(page, rng)
