"""Access and layout of the web table in Chromium: axe-core (bundled by axe-playwright-python, run offline) finds no
serious or critical violation on the lobby, a How to play page, each game's table, the game-over dialog and the
replay; a whole game on a phone by touch; a whole game by keyboard alone; the board fits 1280×800."""

from __future__ import annotations

import json
import random
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from web.board_play import click_by_board, keep_seat, over, play_by_board, wait_my_turn_or_end

import coliseo

AXE = Axe()


def serious_violations(page) -> list[str]:
    # Colours are measured as drawn: a dialog still fading in would blend into the page behind it.
    page.wait_for_function("""document.getAnimations().every(a =>
        a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)""")
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}" for v in found
            if v["impact"] in ("serious", "critical")]


def open_game(page, server, game="capsule", options=None, agent="random", wait=True) -> str:
    """Seat 1 of a new game against `agent`, its table open; with `wait`, once the table is drawn."""
    row = next(g for g in server.get("/api/catalog") if g["id"] == game)
    players = (options or {}).get("players") or next((o["default"] for o in row["options"] if o["name"] == "players"),
                                                      row["min_players"])
    made = server.post("/api/games", {"game": game, "options": options or {},
                                      "seats": [{"kind": "human"}] + [{"kind": "ai", "agent": agent}] * (players - 1)})
    take_seat(page, server, made)
    if wait:
        page.wait_for_selector("body[data-ply]")
    return made["id"]


def take_seat(page, server, made: dict) -> None:
    """Open the table of a just created game at its creator's seat (`made` is the answer to POST /api/games)."""
    page.goto(server.url + "/")
    keep_seat(page, made["id"], made)
    page.goto(f"{server.url}/play/{made['id']}")


@pytest.fixture
def desk(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    context.set_default_timeout(20_000)
    yield context.new_page()
    context.close()


def test_axe_finds_nothing_serious_on_the_lobby_and_a_rules_page(desk, server):
    open_game(desk, server)                                    # the lobby's lists have a game each
    server.post("/api/games", {"game": "fantastiqa", "listed": True, "seats": [{"kind": "human"}] * 2})
    desk.goto(server.url + "/")
    desk.wait_for_selector(".game-tile")
    desk.wait_for_selector("#my-games tr")
    desk.wait_for_selector("#games tr")
    assert serious_violations(desk) == []
    desk.goto(server.url + "/rules/forbidden?lang=es")
    assert serious_violations(desk) == []


def test_the_lobby_fits_a_phone_with_your_games_and_the_listed_ones(phone, server):
    open_game(phone, server)                                   # a seat of yours, then a listed game of someone else's
    server.post("/api/games", {"game": "fantastiqa", "listed": True, "seats": [{"kind": "human"}] * 2})
    phone.goto(server.url + "/")
    phone.wait_for_selector("#my-games tr")
    phone.wait_for_selector("#games tr")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
    for link in (phone.locator("#my-games a", has_text="Play"), phone.locator("#games a", has_text="Join")):
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    for box_id in ("listed", "watch-invite"):                  # each checkbox on the line of its own words
        tick, words = phone.locator(f"#{box_id}").bounding_box(), phone.locator(f"label:has(#{box_id})").bounding_box()
        assert words["height"] < 2 * tick["height"] + 8, f"the label of #{box_id} wraps away from its box"


@pytest.mark.parametrize("game", coliseo.list_games())
def test_axe_finds_nothing_serious_at_each_games_table(desk, server, game):
    open_game(desk, server, game)
    wait_my_turn_or_end(desk)
    targets = desk.locator("#board .target")
    if targets.count():
        targets.first.click()                    # with a choice under way: lit targets, the Cancel button
    assert serious_violations(desk) == []


def test_axe_finds_nothing_serious_on_the_game_over_dialog_and_the_replay(desk, server):
    game_id = open_game(desk, server, options={"max_turns": 3})
    play_by_board(desk, random.Random(4))
    desk.wait_for_selector("#game-over[open]")
    assert serious_violations(desk) == []
    desk.goto(f"{server.url}/replay/{game_id}")
    desk.wait_for_selector("body[data-step]")
    assert serious_violations(desk) == []


def fits_the_window(page) -> None:
    """The board, its controls and the side column inside 1280×800, no page scroll, and the resign button in sight:
    inside the window and not under the fold of a column that scrolls."""
    page.wait_for_timeout(300)            # the short transitions end
    box = page.locator("#board svg").first.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 800
    for part in ("#board", "#controls", "aside"):
        edge = page.locator(part).bounding_box()
        assert edge["y"] + edge["height"] <= 800, part
    assert page.evaluate("document.scrollingElement.scrollHeight") <= 800
    if not over(page):
        assert page.locator("#resign").evaluate("""(n) => {
            const b = n.getBoundingClientRect();
            let seen = b.top >= 0 && b.bottom <= innerHeight;
            for (let p = n.parentElement; p; p = p.parentElement) {
              if (getComputedStyle(p).overflowY === "visible") continue;
              const r = p.getBoundingClientRect();
              seen = seen && b.top >= r.top && b.bottom <= r.bottom;
            }
            return seen; }"""), "the resign button is out of sight"


@pytest.mark.parametrize("game,options", [("capsule", {}), ("dungeon_dice", {}), ("fantastiqa", {"players": 4}),
                                          ("forbidden", {})])
def test_the_table_fits_a_1280_by_800_window_through_a_game(desk, server, game, options):
    open_game(desk, server, game, options)
    rng = random.Random(6)
    for _ in range(36):                    # the start, then every step of a few of your turns (a choice under way too)
        wait_my_turn_or_end(desk)
        fits_the_window(desk)
        if over(desk):
            break
        click_by_board(desk, rng)


@pytest.mark.parametrize("game", ["capsule", "dungeon_dice", "fantastiqa", "forbidden"])
def test_a_board_is_drawn_only_once_its_stylesheet_has_loaded(phone, server, game):
    """On a slow line the board's own stylesheet may arrive after the game: drawn unstyled, Dungeon Dice's dungeon
    was a black block and its icons each as wide as the page (a phone page 8,900 px tall)."""
    held = []
    phone.route(f"**/static/boards/{game}.css", lambda route: held.append(route))
    with phone.expect_response(lambda r: f"/api/content/{game}" in r.url):
        open_game(phone, server, game, wait=False)
    phone.wait_for_timeout(500)                   # time enough to draw, had the board not waited
    assert len(held) == 1 and phone.locator("#board > *").count() == 0
    held[0].continue_()
    wait_my_turn_or_end(phone)
    board = phone.locator("#board").bounding_box()
    assert board["width"] <= 390 and board["height"] < 3 * 844


def test_while_the_board_loads_the_banner_says_so_and_the_states_that_arrive_load_it_once(phone, server):
    """The AI moves first, so states arrive while the board's stylesheet is held back: each used to load the board
    (and fetch its cards) again."""
    held, card_fetches = [], []
    phone.route("**/static/boards/capsule.css", lambda route: held.append(route))
    phone.on("request", lambda r: "/api/content/capsule" in r.url and card_fetches.append(r.url))
    ai_first = [{"kind": "ai", "agent": "random"}, {"kind": "human"}]
    take_seat(phone, server, server.post("/api/games", {"game": "capsule", "seats": ai_first}))
    phone.wait_for_function("() => document.querySelectorAll('link[href$=\"capsule.css\"]').length === 1")
    phone.wait_for_timeout(1500)                  # the AI's first turn: several states while the sheet is held
    assert phone.locator("#status").inner_text() == "Setting up the table…"
    held[0].continue_()
    wait_my_turn_or_end(phone)
    assert len(held) == 1 and len(card_fetches) == 1


# Short games (a turn limit) for the whole-game tests by touch and by keyboard.
SHORT = [("capsule", {"max_turns": 8}), ("dungeon_dice", {"max_turns": 6})]


@pytest.mark.parametrize("game,options", SHORT)
def test_a_whole_game_on_a_phone_by_touch_with_the_panel_below_the_board(phone, server, game, options):
    open_game(phone, server, game, options)
    wait_my_turn_or_end(phone)
    board = phone.locator("#board").bounding_box()
    assert board["width"] <= 390 and phone.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert phone.locator("#inspector").bounding_box()["y"] >= board["y"] + board["height"]
    assert phone.locator("#controls").bounding_box()["y"] >= board["y"] + board["height"]
    rng = random.Random(8)
    while not over(phone):
        if not phone.get_attribute("body", "data-can-act") == "true":
            wait_my_turn_or_end(phone)
            continue
        things = phone.locator("#board .target, #controls button.control")
        thing = things.nth(rng.randrange(things.count()))
        before = phone.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
        before.append(thing.get_attribute("data-target"))
        thing.tap()
        # A tap changes the table, or (Dungeon Dice) a first tap on a square shows the net's ghost there.
        phone.wait_for_function("([p, d, t]) => document.body.dataset.ply !== p || document.body.dataset.draws !== d"
                               " || document.querySelector('#board .ghost')?.dataset.anchor === t", arg=before)
        wait_my_turn_or_end(phone)
    assert phone.locator("#game-over[open]").count() == 1


@pytest.mark.parametrize("game,options", SHORT)
def test_a_whole_game_by_keyboard_alone_with_a_visible_focus_ring(desk, server, game, options):
    open_game(desk, server, game, options)
    rng = random.Random(5)
    presses = 0
    if game == "capsule":        # R9: the placement by keyboard too, Tab to its Random control (a random walk over
        wait_my_turn_or_end(desk)   # the tray and the zone takes too long on a loaded machine)
        while not desk.evaluate("document.activeElement.dataset.action === 'random'"):
            desk.keyboard.press("Tab")
            presses += 1
            assert presses < 200, "the Random placement control is not reachable by Tab"
        desk.keyboard.press("Enter")
    while not over(desk):
        wait_my_turn_or_end(desk)
        if over(desk):
            break
        # Arrows move between the board's things (on the language picker they would change the language).
        in_board = desk.evaluate("Boolean(document.activeElement.closest && document.activeElement.closest('#board'))")
        keys = ["Tab", "ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown"] if in_board else ["Tab"]
        desk.keyboard.press(rng.choice(keys))
        presses += 1
        # A random walk, so its length follows the number of focusable things: Dungeon Dice's panel of card and
        # die chips (inspectable, not actions) takes it about 5,000 presses at 1280×800.
        assert presses < 20_000, "the game did not end by keyboard"
        focused = desk.evaluate("""(() => { const n = document.activeElement;
            const board = n.closest && n.closest('#board'), control = n.matches('#controls button.control');
            return { target: Boolean(board) && n.classList.contains('target'), control,
                     outline: getComputedStyle(n).outlineStyle, stroke: board && n.querySelector('.cell')
                       ? getComputedStyle(n.querySelector('.cell')).stroke : null }; })()""")
        if focused["control"]:
            assert focused["outline"] != "none"
        if (focused["target"] or focused["control"]) and rng.random() < 0.5:
            before = desk.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
            desk.keyboard.press("Enter")
            desk.wait_for_function("([p, d]) => document.body.dataset.ply !== p || document.body.dataset.draws !== d",
                                   arg=before)
    assert desk.locator("#game-over[open]").count() == 1
    # Esc closes the dialog; the board's things have a name for screen readers (a label, or the text they show).
    desk.keyboard.press("Escape")
    assert desk.locator("#game-over[open]").count() == 0
    nameless = desk.evaluate("[...document.querySelectorAll('#board [data-target]')]"
                             ".filter((n) => !(n.getAttribute('aria-label') || n.textContent.trim()))"
                             ".map((n) => n.dataset.target)")
    assert nameless == []


def test_the_column_beside_the_fantastiqa_map_scrolls_by_keyboard_too(browser, server):
    """In a short window the column beside the map scrolls; with nothing in it to click (a spectator's view) it is
    itself reachable by keyboard (axe: scrollable-region-focusable)."""
    made = server.post("/api/games", {"game": "fantastiqa", "options": {"players": 4},
                                      "seats": [{"kind": "human"}] * 4})
    context = browser.new_context(viewport={"width": 1280, "height": 560}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/play/{made['id']}?spectate=1")
        page.wait_for_selector("body[data-ply] .fq-side")
        side = page.locator(".fq-side")
        # the column fills as the table draws its parts (panels, hand, log), so it overflows once they are all in
        page.wait_for_function("(n => n.scrollHeight > n.clientHeight)(document.querySelector('.fq-side'))")
        assert page.locator("#board .target").count() == 0
        assert serious_violations(page) == []
        side.focus()
        side.press("End")
        page.wait_for_function("(n => n.scrollTop >= n.scrollHeight - n.clientHeight - 1)"
                               "(document.querySelector('.fq-side'))")
        scrolled = side.evaluate("n => n.scrollTop")
        draws = page.get_attribute("body", "data-draws")
        server.post(f"/api/games/{made['id']}/listing", {"token": made["token"], "listed": True})   # a new state
        page.wait_for_function(f"document.body.dataset.draws !== {json.dumps(draws)}")
        # (a pixel either way: the browser rounds a restored scroll offset to its device pixels)
        assert abs(side.evaluate("n => n.scrollTop") - scrolled) <= 1, "a redraw keeps the column where it was"
    finally:
        context.close()


# --- focus on the board: a ring a few screen pixels wide, and never lost to the page --------------------------------
FOUR = [("capsule", {}), ("dungeon_dice", {}), ("fantastiqa", {"players": 2}), ("forbidden", {})]

# The focused element's ring as painted, in screen pixels: its outline (an SVG element's is in the picture's units,
# so scaled by its CTM) and the strokes in the focus colour on it and inside it (a stroke clipped to its shape's fill
# shows its inner half).
PAINTED_RING = """(() => {
  const n = document.activeElement, focus = getComputedStyle(document.body).getPropertyValue('--focus').trim();
  const swatch = Object.assign(document.createElement('i'), { style: `color: ${focus}` });
  document.body.append(swatch);
  const colour = getComputedStyle(swatch).color;
  swatch.remove();
  const scale = (e) => e.getScreenCTM ? Math.hypot(e.getScreenCTM().a, e.getScreenCTM().b) : 1;
  const style = getComputedStyle(n);
  const outline = style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) * scale(n);
  const strokes = [n, ...n.querySelectorAll('*')].filter((e) => e.getScreenCTM && getComputedStyle(e).stroke === colour)
    .map((e) => { const s = getComputedStyle(e);
      const width = parseFloat(s.strokeWidth) * (s.vectorEffect === 'non-scaling-stroke' ? 1 : scale(e));
      return s.clipPath === 'none' ? width : width / 2; });
  return { inSvg: Boolean(n.closest('#board svg')), outline, strokes, body: n === document.body }; })()"""


def focus_by_keyboard(page, selector: str) -> bool:
    """Focus the first board thing matching `selector` as the keyboard would (a key pressed first: the ring shows)."""
    page.keyboard.press("Shift")
    return page.evaluate(f"(() => {{ const n = document.querySelector({json.dumps(selector)}); n?.focus(); "
                         "return Boolean(n) && document.activeElement === n; })()")


def assert_a_thin_ring(ring: dict) -> None:
    assert not ring["body"]
    if ring["inSvg"]:
        assert ring["outline"] == 0, f"an outline {ring['outline']:.0f} px wide on the picture"
        assert ring["strokes"] and all(2 <= w <= 6 for w in ring["strokes"]), ring


@pytest.mark.parametrize("game,options", FOUR)
def test_a_focused_square_or_region_is_ringed_a_few_screen_pixels_wide(desk, server, game, options, tmp_path):
    open_game(desk, server, game, options)
    wait_my_turn_or_end(desk)
    measured = 0
    # A target, and a thing that is not one (Capsule's empty a1, a square a die was set on, a region chosen).
    for selector in ("#board svg .target[tabindex='0']", "#board svg [data-target][tabindex='-1']"):
        if focus_by_keyboard(desk, selector):
            ring = desk.evaluate(PAINTED_RING)
            assert ring["inSvg"]
            assert_a_thin_ring(ring)
            measured += 1
    assert measured


@pytest.mark.parametrize("game,options", [*SHORT, ("fantastiqa", {"players": 2, "max_turns": 4})])
def test_focus_stays_on_the_board_when_the_thing_chosen_stops_being_a_target(desk, server, game, options):
    """Enter on a board target (a die set, a region chosen, a piece moved) redraws it as no target: focus goes to the
    next target or the board, ringed thinly, never to the page's body."""
    open_game(desk, server, game, options)
    rng = random.Random(8)
    for _ in range(15):
        wait_my_turn_or_end(desk)
        if over(desk):
            break
        targets = desk.locator("#board .target:is([tabindex='0'], button)")
        if not targets.count():
            break
        chosen = targets.nth(rng.randrange(targets.count()))
        desk.keyboard.press("Shift")
        chosen.evaluate("(n) => n.focus()")
        before = desk.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
        desk.keyboard.press("Enter")
        desk.wait_for_function("([p, d]) => document.body.dataset.ply !== p || document.body.dataset.draws !== d",
                               arg=before)
        assert desk.evaluate("Boolean(document.activeElement.closest('#board'))")
        assert_a_thin_ring(desk.evaluate(PAINTED_RING))


def test_after_undo_focus_goes_to_the_board_not_to_the_next_command(desk, server):
    open_game(desk, server, "capsule")
    wait_my_turn_or_end(desk)
    desk.click("#board .target")                          # a tray piece, then a square of the start zone
    desk.click("#board svg .target")
    desk.wait_for_selector("#undo:not([disabled])")
    desk.focus("#undo")
    desk.keyboard.press("Enter")
    desk.wait_for_function("document.body.dataset.ply === '0' && document.body.dataset.canAct === 'true'")
    assert desk.evaluate("document.activeElement.closest('#board') && document.activeElement.dataset.target") == "#K"


def test_the_spectator_reads_whose_action_points_and_the_action_count_waits_for_a_choice(desk, server):
    made = server.post("/api/games", {"game": "capsule", "options": {},
                                      "seats": [{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}]})
    desk.goto(f"{server.url}/play/{made['id']}?spectate=1")
    # The AIs play on while the page loads: the first state drawn may be between their turns.
    desk.wait_for_function("""() => /^Player [12]'s action points: \\d+$/.test(
        (document.querySelector('.capsule-facts .ap') || {}).innerText?.trim() || '')""", timeout=20_000)
    open_game(desk, server, "capsule")
    wait_my_turn_or_end(desk)
    assert desk.inner_text("#all-actions summary").strip() == "All actions"
    desk.click("#board .target")
    desk.wait_for_selector("#cancel")
    assert re.fullmatch(r"All actions \(\d+\)", desk.inner_text("#all-actions summary").strip())


def test_a_fantastiqa_card_name_never_breaks_inside_a_word_in_spanish(desk, server):
    """Each card's name on a card of the hand's size and the discard pile's (CSS hyphenation has no dictionary in
    many browsers: a word too long for its card gets a smaller size instead)."""
    names = [row["name"] for row in server.get("/api/content/fantastiqa?lang=es")]
    desk.goto(server.url + "/static/play.html")
    broken = desk.evaluate("""(names) => {
      document.documentElement.lang = 'es';
      document.head.insertAdjacentHTML('beforeend', '<link rel=stylesheet href=/static/boards/fantastiqa.css>');
      return new Promise((done) => document.head.lastChild.onload = () => {
        const box = Object.assign(document.createElement('div'), { className: 'fq' });
        document.body.append(box);
        const longest = (text) => Math.max(...text.split(/[ -]/).map((w) => w.length));   // as fantastiqa.js
        const broken = [];
        for (const size of ['', ' mini']) for (const name of names) {
          const card = Object.assign(document.createElement('div'), { className: 'fq-card' + size });
          const length = longest(name), words = document.createElement('span');
          words.className = `fq-name${length > 12 ? ' longer' : length > 9 ? ' long' : ''}`;
          words.textContent = name;
          card.append(words);
          box.append(card);
          const text = words.firstChild, range = document.createRange();
          for (const m of name.matchAll(/[^\\s-]+/g)) {   // a break after a hyphen is between words
            range.setStart(text, m.index);
            range.setEnd(text, m.index + m[0].length);
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(m[0] + size);
          }
        }
        done(broken); }); }""", names)
    assert "Cazamariposas" in names and broken == []
