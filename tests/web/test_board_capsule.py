"""The Capsule Monsters board in Chromium: a whole game against `random` by board clicks only, and what the board
shows (HP and attack on every piece, dots and rings, capsules, the inspector's card, drag-and-drop, the log)."""

from __future__ import annotations

import random
import re

from web.board_play import keep_seat, play_by_board

# R9 (the order the rules used to fix): the King on d, then the team on c, e, b, f, a, g, h.
OLD_ORDER = "dcebfagh"


def open_game(page, server, seats=("human", "ai:random"), options=None, sides=None, place=True) -> dict:
    """A new game at the table, Player 1's seat in the page; `place`: Player 1 first places by the board in the old
    fixed order (R9)."""
    made = server.post("/api/games", {"game": "capsule", "options": options or {}, "sides": sides,
                                      "seats": [{"kind": "human"} if s == "human" else {"kind": "ai", "agent": s[3:]}
                                                for s in seats]})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], made)
    page.goto(f"{server.url}/play/{made['id']}")
    page.wait_for_selector("body[data-can-act='true']")
    if place:
        place_by_board(page, OLD_ORDER)
    return made


def place_by_board(page, files: str, rank: int = 1) -> None:
    """Each piece of the tray in turn (the King, then the team), by a click on it and one on its square."""
    pieces = page.locator("#board .tray-piece").evaluate_all("nodes => nodes.map((n) => n.dataset.target)")
    for piece, file in zip(pieces, files):
        ply = int(page.get_attribute("body", "data-ply"))
        page.click(f"#board .tray-piece[data-target='{piece}']")
        page.click(f"#board [data-target='{file}{rank}']")
        page.wait_for_function(f"Number(document.body.dataset.ply) > {ply}")
    page.wait_for_selector("body[data-can-act='true']")


def test_a_whole_game_against_random_by_board_clicks_only(page, server, page_errors):
    open_game(page, server, options={"max_turns": 30})
    clicks = play_by_board(page, random.Random(11), board_bias=0.9)
    assert clicks >= 5 and not page_errors          # (a random game may end early: two empty turns end it)
    assert page.locator("#game-over[open] h2").inner_text() in ("You win!", "You lose", "Draw")
    log = page.inner_text("#log")
    # Names, never codes: no card ids (snake_case) in the narration.
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", log), log


def test_every_piece_shows_its_numbers_and_capsules_show_only_what_you_may_know(page, server):
    open_game(page, server)
    own = page.locator("#board g.piece.own")
    assert own.count() == 4                      # the King and three capsules
    theirs = page.locator("#board g.piece:not(.own)")
    assert theirs.count() == 4
    # Kings show their points; your capsules their monster's name faintly; the opponent's a "?".
    assert page.locator("#board g.piece .hp-bar").count() == 2
    own_capsules = [own.nth(n) for n in range(4) if own.nth(n).locator(".ghost").count()]
    assert len(own_capsules) == 3 and all(c.locator(".name").count() for c in own_capsules)
    assert all(theirs.nth(n).locator(".name").count() == 0 for n in range(4) if theirs.nth(n).locator(".shell").count())
    assert page.locator("#board g.piece:not(.own) .mark-glyph").all_text_contents().count("?") == 3
    # A summoned monster shows its HP bar and attack badge.
    capsule = own_capsules[0].locator("xpath=..")
    square = capsule.get_attribute("data-target")
    capsule.click()
    page.wait_for_selector(f"[data-target='{square}'] .hp-bar")
    assert page.locator(f"[data-target='{square}'] .atk").text_content().startswith("⚔")


def test_dots_for_moves_rings_for_attacks_and_the_inspector_card(page, server):
    open_game(page, server)
    king = page.locator("#board g.piece.own").filter(has=page.locator("path")).locator("xpath=..")
    king.hover()
    card = page.locator("#inspector-body .capsule-card")
    assert "King points" in card.inner_text() and card.locator("svg.pattern .dot").count() == 8
    king.click()
    dots = page.locator("#board .target .dot")
    assert dots.count() == 3 and page.locator("#board .target .ring").count() == 0
    assert "Chosen" in page.inner_text("#controls")
    page.keyboard.press("Escape")
    assert page.locator("#board .dot").count() == 0
    # An enemy capsule in the inspector says only that it is hidden.
    enemy = page.locator("#board g.piece:not(.own) .shell").first.locator("xpath=../..")
    enemy.hover()
    assert "hidden" in page.inner_text("#inspector-body")


def test_the_actions_are_in_the_engines_words(page, server):
    open_game(page, server)
    assert page.inner_text('#controls button.control[data-action="end"]') == "End turn"
    page.click("#all-actions summary")
    page.wait_for_selector("#actions button")
    summons = [b for b in page.locator("#actions button").all_inner_texts() if b.startswith("Summon ")]
    assert summons and all(re.fullmatch(r"Summon [A-Z].+ on [a-h]1", s) for s in summons), summons


def test_the_inspector_spells_out_a_bane_of_two_points(page, server):
    open_game(page, server, options={"mode": "advanced"}, sides=["adv_storm", None])
    phoenix = page.locator("[data-target='e1'] g.piece.own")     # R9: Storm's second monster starts on e
    phoenix.hover()
    text = page.inner_text("#inspector-body")
    assert "Plasma Phoenix" in text and "Bane light: +2 damage against light pieces" in text, text


def test_an_illegal_click_says_what_was_wrong_and_what_to_do(page, server):
    open_game(page, server)
    assert page.title() == "Your turn · Capsule Monsters · Coliseo"
    enemy = page.locator("#board g.piece:not(.own)").filter(has=page.locator(".shell")).first
    enemy.click()
    assert re.fullmatch(r"Nothing to do with the capsule \([a-h]8\) now: pick something highlighted on the board\.",
                        page.inner_text("#message"))
    page.locator("#board g.piece.own").filter(has=page.locator("path")).locator("xpath=..").click()     # the King
    enemy.click()
    assert re.fullmatch(r"The capsule \([a-h]8\) is not a legal next step: pick a highlighted target, or Cancel\.",
                        page.inner_text("#message"))
    assert "Chosen: Dawn King (d1)" in page.inner_text("#controls")
    # The message shares the controls' row: the page still fits the window.
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 800


def test_a_click_out_of_turn_says_whose_turn_it_is(page, server):
    made = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    second = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], second)
    page.goto(f"{server.url}/play/{made['id']}")
    page.wait_for_selector("body[data-can-act='false']")
    assert page.inner_text("#board .capsule-tray .hint") == "Player 1 is placing their pieces in secret."
    page.locator("#board .tray-piece").first.click()                     # your own pieces wait in your tray
    assert page.inner_text("#message") == "Not your turn: Player 1 is playing."
    assert page.title() == "Capsule Monsters · Coliseo"          # the tab says "Your turn" only when it is
    assert page.inner_text("#prompt") == ""                      # and what you may do only when you may


def test_the_banner_says_what_the_player_may_do_on_their_turn_only(page, server):
    open_game(page, server, seats=("human", "human"), place=False)
    assert page.inner_text("#status") == "Your turn"
    assert page.inner_text("#prompt") == \
        "You may place the King or a capsule on the start zone or place the rest at random"
    assert page.get_attribute("#prompt", "title") == page.inner_text("#prompt")   # all of it, were it cut short
    page.click('#controls button.control[data-action="random"]')   # Player 2's seat is open: nobody places for it
    page.wait_for_function("document.getElementById('prompt').textContent === ''")


def test_a_piece_moves_by_drag_and_drop(page, server):
    open_game(page, server)
    king = page.locator("#board g.piece.own").filter(has=page.locator("path")).locator("xpath=..")
    start = king.get_attribute("data-target")
    goal = f"{start[0]}2"
    king.hover()
    page.mouse.down()
    page.locator(f"[data-target='{goal}']").hover()
    page.mouse.up()
    page.wait_for_function("Number(document.body.dataset.ply) >= 1")
    page.wait_for_selector(f"[data-target='{goal}'] g.piece.own path")
    assert page.locator("#board .recent").count() == 0     # your own move: only the opponent's turn is marked


def test_a_click_survives_a_redraw_between_press_and_release(page, server):
    """A state that arrives mid-click (here: the friend taking the other seat) replaces the pressed piece; the click
    still chooses it, as a person expects."""
    made = open_game(page, server, seats=("human", "human"), place=False)
    king = page.locator("#board .tray-piece[data-target='#K']")
    square = "#K"
    king.hover()
    page.mouse.down()
    draws = page.get_attribute("body", "data-draws")
    server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    page.wait_for_function(f"document.body.dataset.draws !== '{draws}'")
    page.mouse.up()
    page.wait_for_selector(f"#board [data-target='{square}'].selected")
    assert page.locator("#choice .choice").count() == 1


def test_the_seat_panel_says_a_seat_is_open_until_a_friend_takes_it(page, server):
    made = open_game(page, server, seats=("human", "human"), place=False)
    other = page.locator("#seats [data-seat='1'] small")
    assert other.inner_text() == "open seat"                              # the lobby's words, not "free"
    server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    page.wait_for_function("document.querySelector(\"#seats [data-seat='1'] small\").textContent === 'Person'")
