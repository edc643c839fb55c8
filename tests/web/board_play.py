"""Playing a whole game at the web table as a person would: only board targets and turn controls, never the folded
"All actions" list (the UI contract). The table marks `body[data-unreached]` with the actions whose next step is not
drawn as a board target; any such action fails the game."""

from __future__ import annotations

import json
import random

from playwright.sync_api import TimeoutError as PlaywrightTimeout

BOARD_TARGETS = "#board .target"
CONTROLS = "#controls button.control"


def keep_seat(page, game_id: str, seat: dict, **more) -> None:
    """Keep a seat ({"seat": n, "token": …}, as POST /api/games or /join answer) in the page's browser, where the
    table and the lobby look for it, with `more` of what the lobby keeps beside it (invite=…, creator=True); the
    page must be on the server's origin."""
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [f"coliseo.seat.{game_id}", {"seat": seat["seat"], "token": seat["token"], **more}])


def wait_my_turn_or_end(page, timeout: int = 60_000) -> None:
    page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.canAct === 'true'",
                           timeout=timeout)


def over(page) -> bool:
    return page.get_attribute("body", "data-over") == "true"


def unreached(page) -> list[str]:
    return json.loads(page.get_attribute("body", "data-unreached") or "[]")


def click_by_board(page, rng: random.Random, board_bias: float = 0.8) -> None:
    """One click on a board target or a turn control, chosen at random (board first, with `board_bias`); waits until
    the table has redrawn or the action was played. Fails when some legal action has no board step to click."""
    missing = unreached(page)
    assert not missing, f"only the All actions list reaches: {missing[:5]}"
    targets, controls = page.locator(BOARD_TARGETS), page.locator(CONTROLS)
    n_targets, n_controls = targets.count(), controls.count()
    assert n_targets + n_controls, "legal actions but nothing to click on the board or in the controls"
    use_board = n_targets and (not n_controls or rng.random() < board_bias)
    chosen = targets.nth(rng.randrange(n_targets)) if use_board else controls.nth(rng.randrange(n_controls))
    what = chosen.get_attribute("data-target") or chosen.get_attribute("data-action")
    before = page.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
    chosen.click()
    try:
        page.wait_for_function(f"document.body.dataset.ply !== {json.dumps(before[0])} || "
                               f"document.body.dataset.draws !== {json.dumps(before[1])}")
    except PlaywrightTimeout:
        table = page.evaluate("({...document.body.dataset, message: document.getElementById('message').textContent})")
        raise AssertionError(f"clicking {what!r} changed nothing on the table: {table}") from None


def play_by_board(page, rng: random.Random, max_clicks: int = 4000, board_bias: float = 0.8) -> int:
    """Play this seat's turns by board clicks until the game ends; returns the number of clicks."""
    clicks = 0
    while True:
        wait_my_turn_or_end(page)
        if over(page):
            return clicks
        click_by_board(page, rng, board_bias)
        clicks += 1
        assert clicks < max_clicks, f"the game did not end within {max_clicks} clicks"


def create_in_lobby(page, server, game: str, seats: list[str], options: dict | None = None) -> str:
    """Fill the lobby form by clicks and return the new game's id (the player count first: it redraws the seats)."""
    page.goto(server.url + "/")
    page.select_option("#game", game)
    if len(seats) != 2:
        page.fill("[name=players]", str(len(seats)))
        page.dispatch_event("[name=players]", "change")
    for n, seat in enumerate(seats):
        page.select_option(f"#seat-{n}", seat)
    if options:
        page.click("details summary")
        for name, value in options.items():
            page.fill(f"[name={name}]", str(value))
    page.click("#create")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("body[data-ply]")
    return page.url.rsplit("/", 1)[-1].split("?")[0]
