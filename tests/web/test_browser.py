"""The web table in headless Chromium, against a real server: games played by clicks only."""

from __future__ import annotations

import json
import random
import re
import sqlite3

import pytest
from web.board_play import create_in_lobby, keep_seat, play_by_board, wait_my_turn_or_end
from web.conftest import Server
from websockets.sync.client import connect

import coliseo
from coliseo.core.match import verify


@pytest.fixture
def context(browser):
    # bypass_csp: the test harness evaluates its own JavaScript (wait_for_function), which the page's policy forbids.
    ctx = browser.new_context(viewport={"width": 1100, "height": 850}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def watch_frames(page) -> list[str]:
    """Every WebSocket message the page receives, to check what the browser was told."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    return frames


def ply(page) -> int:
    return int(page.get_attribute("body", "data-ply"))


def click_one_action(page, rng: random.Random) -> None:
    """Build one action by clicks (board targets and turn controls first, else the folded All actions list) and wait
    until it is played."""
    before = ply(page)
    for _ in range(12):
        targets = page.locator("#board .target, #controls button.control")
        if targets.count():
            targets.nth(rng.randrange(targets.count())).click()
        else:
            if not page.locator("#all-actions[open]").count():
                page.click("#all-actions summary")
            buttons = page.locator("#all-actions button.action")
            buttons.first.wait_for()
            buttons.nth(rng.randrange(buttons.count())).click()
        try:
            page.wait_for_function(f"Number(document.body.dataset.ply) !== {before}", timeout=400)
            return
        except Exception:  # noqa: BLE001 - not played yet: the choice needs another click
            continue
    page.wait_for_function(f"Number(document.body.dataset.ply) !== {before}")


def stored_match(server, game_id: str):
    """The real game, rebuilt from the server's database (the test may know the seed; a browser may not)."""
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    game, options, setup, seed, salt = db.execute("select game, options, setup, seed, salt from games where id = ?",
                                                  (game_id,)).fetchone()
    texts = [r[0] for r in db.execute("select text from actions where game_id = ? order by ply", (game_id,))]
    db.close()
    match = coliseo.core.match.Match(coliseo.load_game(game, **json.loads(options)), seed, json.loads(setup), salt=salt)
    for text in texts:
        match.play_text(text)
    return match


def test_every_pages_uncaught_error_and_console_error_is_recorded_for_the_report(context, server, page_errors,
                                                                                console_problems):
    page = context.new_page()
    page.goto(server.url + "/")
    with page.expect_event("pageerror"):
        page.evaluate("console.error('the lobby said no'); setTimeout(() => { throw new Error('the lobby broke') })")
    assert page_errors == ["the lobby broke"]
    assert [problem for problem in console_problems if problem.endswith(": the lobby said no")], console_problems


def test_a_whole_capsule_game_against_the_ai_played_by_clicks(context, server):
    page = context.new_page()
    game_id = create_in_lobby(page, server, "capsule", ["human", "ai:greedy"], {"max_turns": 8})
    clicks = play_by_board(page, random.Random(3))
    assert clicks > 8
    assert "Game over" in page.inner_text("#status")
    record = server.get(f"/api/games/{game_id}/record")
    assert verify(record).state.result == record["result"]
    assert page.locator("#download").count() == 1
    # The game-over dialog: who won, why in words, the scores, and the way on.
    dialog = page.locator("#game-over[open]")
    headline = dialog.locator("h2").inner_text()
    assert headline == ("You win!" if 0 in record["result"]["winners"] else "You lose" if record["result"]["winners"]
                        else "Draw")
    reason = dialog.locator("#reason").inner_text()
    assert reason.startswith("Why: ") and "_" not in reason and len(reason) > 10
    assert dialog.locator(".scores tr").count() == 2
    assert dialog.locator("#download-record").get_attribute("href") == f"/api/games/{game_id}/record"
    dialog.locator("#rematch").click()
    page.wait_for_url(lambda url: game_id not in url)
    page.wait_for_selector("body[data-ply='0']")
    again = page.url.rsplit("/", 1)[-1]
    summary = server.get(f"/api/games/{again}")
    assert [s["kind"] for s in summary["seats"]] == ["human", "ai"] and summary["seats"][1]["agent"] == "greedy"
    assert stored_match(server, again).game.options["max_turns"] == 8
    assert summary["seed_commitment"] != record["seed_commitment"]
    assert page.locator("#board .target").count() > 0
    page.goto(server.url + f"/replay/{game_id}?view=0")
    page.wait_for_selector("body[data-step]")
    assert page.locator("#view option").all_inner_texts() == ["Spectator", "Player 1", "Player 2"]
    assert page.input_value("#view") == "0"
    page.click("#next")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("#board svg").count() == 1


def test_two_seats_in_two_browsers_each_see_only_their_own_capsules(browser, server):
    first, second = browser.new_context(bypass_csp=True), browser.new_context(bypass_csp=True)
    try:
        page1 = first.new_page()
        frames1 = watch_frames(page1)
        game_id = create_in_lobby(page1, server, "capsule", ["human", "human"])
        join_link = page1.input_value("#join-link")
        page2 = second.new_page()
        frames2 = watch_frames(page2)
        page2.goto(join_link)
        page2.wait_for_selector("body[data-ply]")
        page2.wait_for_selector(".seat.turn")
        # Each places at random (R9), then Player 1 moves the King by clicks (piece, then square), so both pages
        # receive an update.
        page1.click('#controls button.control[data-action="random"]')
        page2.click('#controls button.control[data-action="random"]:not([disabled])')
        page1.wait_for_function("Number(document.body.dataset.ply) === 2 && document.body.dataset.canAct === 'true'")
        page1.locator("#board g.spot:has(g.piece.own path)").click()
        page1.locator("#board g.spot.target").first.click()
        page2.wait_for_function("Number(document.body.dataset.ply) === 3")
        match = stored_match(server, game_id)
        cards = {row["id"]: row["name"] for row in match.game.card_rows("en")}
        for me, page, frames in ((0, page1, frames1), (1, page2, frames2)):
            truth = match.state.observation(1 - me)
            mine = {p["card"] for p in match.state.observation(me)["pieces"] if p.get("card")}
            hidden = {p["card"] for p in truth["pieces"]
                      if p["owner"] == 1 - me and p["kind"] == "capsule" and p["card"] not in mine}
            assert hidden, "each side starts with capsules the other cannot see"
            text = page.inner_html("#board")
            for card in hidden:
                assert card not in "".join(frames) and cards[card] not in text
            own = {p["card"] for p in match.state.observation(me)["pieces"]
                   if p["owner"] == me and p["kind"] == "capsule"}
            assert all(cards[c] in text for c in own)
        # A King's move reveals nothing and draws on no chance: its player may take it back, and both pages follow.
        assert page2.locator("#undo").count() == 0
        page1.click("#undo")
        for page in (page1, page2):
            page.wait_for_function("Number(document.body.dataset.ply) === 2")
    finally:
        first.close()
        second.close()


def test_the_page_reconnects_after_a_server_restart_and_play_goes_on(context, server):
    page = context.new_page()
    create_in_lobby(page, server, "capsule", ["human", "ai:random"])
    click_one_action(page, random.Random(2))
    played = ply(page)
    server.kill()
    page.wait_for_selector("body[data-connected='false']")
    server.start()
    page.wait_for_selector("body[data-connected='true']", timeout=30_000)
    assert ply(page) == played
    wait_my_turn_or_end(page)
    click_one_action(page, random.Random(5))
    assert ply(page) > played


@pytest.mark.parametrize("game", [g for g in coliseo.list_games() if g != "capsule"])
def test_each_other_game_starts_and_plays_a_few_actions_by_clicks(context, server, page_errors, game):
    page = context.new_page()
    create_in_lobby(page, server, game, ["human"] + ["ai:random"] * (page_seat_count(server, game) - 1))
    rng = random.Random(7)
    for _ in range(4):
        wait_my_turn_or_end(page)
        if page.get_attribute("body", "data-over") == "true":
            break
        click_one_action(page, rng)
    assert ply(page) >= 1 and not page_errors, page_errors
    assert page.locator("#log li").count() >= 1


def page_seat_count(server, game: str) -> int:
    row = next(g for g in server.get("/api/catalog") if g["id"] == game)
    players = next((o for o in row["options"] if o["name"] == "players"), None)
    return players["default"] if players else row["min_players"]


def test_each_seat_picks_its_team_in_the_lobby_and_plays_it(context, server):
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "capsule")
    assert page.locator("#side-0 option").all_inner_texts() == ["Dawn King", "Dusk King"]   # basic: the starter teams
    # The opponent is the strongest AI unless chosen otherwise, and each AI says what it is.
    assert page.input_value("#seat-1") == "ai:mcts"
    assert page.locator("#seat-1 option").all_inner_texts() == [
        "Person", "AI: random", "AI: quick (greedy)", "AI: strong (mcts)"]
    page.select_option("#seat-1", "ai:greedy")
    page.select_option("[name=mode]", "advanced")
    page.wait_for_function("document.querySelectorAll('#side-0 option').length === 4")
    assert page.input_value("#seat-1") == "ai:greedy"            # the seats are redrawn, who sits there is kept
    page.select_option("#side-0", "adv_storm")
    page.select_option("#side-1", "adv_stone")
    assert "Storm Titan" in page.inner_text("#side-detail-0")
    assert "Mountain Behemoth" in page.inner_text("#side-detail-1")
    page.click("#create")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("body[data-ply]")
    # The seat panel gives the AI's word, and its agent on hover (the panels share one row).
    assert page.inner_text("#seats [data-seat='1'] small") == "quick"
    assert page.get_attribute("#seats [data-seat='1'] small", "title") == "quick (greedy)"
    match = stored_match(server, page.url.rsplit("/", 1)[-1].split("?")[0])
    assert match.setup == {"players": [{"preset": "adv_storm", "placement": "choose"}, {"preset": "adv_stone"}]}
    assert match.game.options["mode"] == "advanced"


def test_options_are_offered_in_words_and_only_where_they_matter(context, server):
    page = context.new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "forbidden")
    page.click("details summary")
    assert page.locator("[name=first_player] option").all_inner_texts() == ["Player 1", "Player 2", "random"]
    assert page.locator("[name=terrain] option").all_inner_texts()[:2] == ["Normal", "Forest"]
    assert page.locator("[name=opponent]").count() == 0               # the CPU duelist matters only against a CPU
    page.select_option("[name=mode]", "free_duel")
    page.wait_for_selector("[name=opponent]", state="attached")
    assert page.locator("[name=opponent] option").all_text_contents() == ["Sparring Partner"]   # the pack's duelists
    page.select_option("[name=mode]", "duel")
    page.wait_for_selector("[name=opponent]", state="detached")
    page.click("details summary")
    page.select_option("[name=first_player]", label="Player 2")
    page.select_option("[name=terrain]", label="Yami")
    page.click("#create")
    page.wait_for_url("**/play/*")
    match = stored_match(server, page.url.rsplit("/", 1)[-1].split("?")[0])
    assert match.game.options["first_player"] == "1" and match.game.options["terrain"] == 6


def test_the_lobby_describes_each_game_and_links_its_rules_in_both_languages(context, server):
    page = context.new_page()
    page.goto(server.url + "/")
    tiles = page.locator(".game-tile")
    tiles.first.wait_for()
    assert tiles.count() == len(coliseo.list_games())
    for n in range(tiles.count()):
        assert len(tiles.nth(n).locator("p").first.inner_text()) > 40
    page.select_option("#lang", "es")
    page.wait_for_selector(".game-tile")
    page.select_option("#game", "capsule")
    page.click("details summary")
    assert "Límite de turnos" in page.inner_text("#new-game") and "max_turns" not in page.inner_text("#new-game")
    # Start squares (a list of squares) are set from the command line: no field that can only hold its default.
    assert "back_row" not in [f.input_value() for f in page.locator("#new-game input[type=text]").all()]
    page.click(".game-tile[data-game=dungeon_dice] a.how")
    page.wait_for_url("**/rules/dungeon_dice?lang=es")
    assert page.locator("main h1").count() == 1 and "corazones" in page.inner_text("main")
    assert page.request.get(server.url + "/rules/nope").status == 404


def test_the_lobby_lists_the_listed_games_in_words_and_keeps_the_list_fresh(context, server):
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#no-games:visible")
    assert "No listed games yet" in page.inner_text("#no-games") and page.locator("#games-table").is_hidden()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "agent": "greedy"}]
    server.post("/api/games", {"game": "capsule", "listed": True, "seats": seats[1:]})
    server.post("/api/games", {"game": "fantastiqa", "listed": True, "options": {"players": 3}, "seats": seats})
    page.locator("#games tr").nth(1).wait_for(timeout=15_000)        # the list is read again every 10 s
    assert page.locator("#no-games").is_hidden()
    assert page.locator("#games-table th").all_inner_texts()[:4] == ["Game", "Created", "Seats", "Progress"]
    cells = {row[0]: row[2:4] for row in (r.locator("td").all_inner_texts() for r in page.locator("#games tr").all())}
    assert cells["Capsule Monsters"] == ["Person · AI: quick (greedy)", "Not started"]
    # Fantastiqa's AI in seat 3 has already made its setup choices; the second person's seat is free.
    assert cells["Fantastiqa"][0] == "Person · open seat · AI: quick (greedy)"
    assert re.fullmatch(r"\d+ moves played", cells["Fantastiqa"][1])


def test_the_lobby_leads_back_to_your_own_unlisted_games(context, server):
    """A game against the AI is unlisted: the seats this browser holds are its way back."""
    page = context.new_page()
    page.goto(server.url + "/")
    assert page.locator("#mine").is_hidden()
    person, ai = {"kind": "human"}, {"kind": "ai", "agent": "random"}
    mine = server.post("/api/games", {"game": "capsule", "seats": [person, ai]})
    theirs = server.post("/api/games", {"game": "capsule", "seats": [person, person]})
    joined = server.post(f"/api/games/{theirs['id']}/join", {"invite": theirs["invite"]})
    for game_id, seat in ((mine["id"], mine), (theirs["id"], joined), ("000000000000", {"seat": 0, "token": "gone"})):
        keep_seat(page, game_id, seat)
    page.reload()
    page.wait_for_selector("#mine:visible")
    rows = [r.locator("td").all_inner_texts() for r in page.locator("#my-games tr").all()]
    assert sorted(row[2:4] for row in rows) == [["Person · you", "Not started"],
                                                ["you · AI: random", "Your turn"]]
    assert page.title() == "Your turn (1) · Coliseo"                       # the tab counts the games waiting for you
    # A seat taken in another tab shows here at once.
    other = context.new_page()
    later = server.post("/api/games", {"game": "forbidden", "seats": [person, ai]})
    other.goto(server.url + "/")
    keep_seat(other, later["id"], later)
    page.locator("#my-games tr", has_text="Forbidden").wait_for(timeout=5_000)
    yours = page.locator("#my-games tr", has_text="Capsule").filter(has_text="Your turn")
    yours.get_by_role("link", name="Play").click()
    page.wait_for_url(f"**/play/{mine['id']}")


def test_your_games_show_the_20_newest_and_read_again_only_those_still_played(context, tmp_path):
    server = Server(tmp_path / "many.db", args=("--games-per-minute", "30")).start()     # 21 games in a few seconds
    try:
        page = context.new_page()
        page.goto(server.url + "/")

        def create():
            return server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}] * 2})
        made = [create()]
        page.wait_for_timeout(1100)                   # creation times are kept to the second: this one is the oldest
        made += [create() for _ in range(20)]
        with connect(f"{server.url.replace('http', 'ws')}/ws/{made[1]['id']}") as ws:     # one of them ends
            ws.send(json.dumps({"type": "hello", "token": made[1]["token"], "lang": "en"}))
            ws.recv()
            ws.send(json.dumps({"type": "resign", "ply": 0, "ref": 1}))
            while json.loads(ws.recv())["type"] != "ack":
                pass
        for game in made:
            keep_seat(page, game["id"], game)
        page.reload()
        page.wait_for_selector("#mine:visible")
        assert page.locator("#my-games tr").count() == 20
        read_again: set[str] = set()
        page.on("request", lambda r: "/api/games/" in r.url and read_again.add(r.url.rsplit("/", 1)[-1]))
        page.wait_for_timeout(11_000)                 # one read of the lists every 10 s
        # The oldest is not shown and the finished one does not change: neither is read again.
        assert page.locator("#my-games tr", has_text="Game over").count() == 1
        assert len(read_again) == 19 and not {made[0]["id"], made[1]["id"]} & read_again
    finally:
        server.stop()
