"""The Dungeon Dice board in headless Chromium against a real server: a whole game by board clicks and turn controls
only, the net ghost with its rotation and flip, the inspector, and the net geometry shared with the engine."""

from __future__ import annotations

import json
import random

import pytest
from web.board_play import over, play_by_board, wait_my_turn_or_end
from web.test_browser import stored_match

from coliseo.games.dungeon_dice.board import CANON, NETS, SHAPES, geometry

MODULE = "/static/boards/dungeon_dice.js"


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def open_game(page, server, options: dict) -> str:
    """A game with a person in seat 1 and `random` in seat 2, opened at seat 1's table; returns its id."""
    made = server.post("/api/games", {"game": "dungeon_dice", "options": options,
                                      "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
    page.goto(server.url + "/")
    page.evaluate("([key, seat]) => { localStorage.setItem(key, seat); localStorage.setItem('coliseo.lang', 'en'); }",
                  [f"coliseo.seat.{made['id']}", json.dumps({"seat": made["seat"], "token": made["token"]})])
    page.goto(f"{server.url}/play/{made['id']}")
    page.wait_for_selector("body[data-ply]")
    return made["id"]


def legal(page) -> list[str]:
    """The legal actions as the folded list names them (read only: the test never clicks it)."""
    if not page.locator("#all-actions[open]").count():
        page.click("#all-actions summary")
    return page.eval_on_selector_all("#all-actions button.action", "bs => bs.map((b) => b.dataset.action)")


def test_a_whole_game_against_random_by_board_clicks_and_turn_controls_only(context, server, page_errors):
    page = context.new_page()
    game_id = open_game(page, server, {"max_turns": 24})
    clicks = play_by_board(page, random.Random(5))
    assert page.get_attribute("body", "data-over") == "true" and not page_errors, page_errors
    match = stored_match(server, game_id)
    mine = [match.game.format_action(s.action) for s in match.steps if s.player == 0]
    assert match.state.result is not None and len(mine) >= 12 and clicks >= len(mine)
    assert any(text.split()[0] in ("summon", "zash1", "set", "spell", "move") for text in mine)
    # At the turn limit with hearts tied (the usual end against random), the dialog says what broke the tie.
    detail = match.game.result_detail(match.state.observation(0), "en")
    shown = page.locator("#game-over[open] #result-detail")
    assert (shown.inner_text() if shown.count() else None) == detail


def reach_a_placing_step(page) -> None:
    """End turns (the only clicks here are the End turn control) until a summon is legal, then declare it by clicking
    the card and its Summon verb on the board."""
    for _ in range(60):
        wait_my_turn_or_end(page)
        actions = legal(page)
        summons = [a for a in actions if a.startswith("summon ")]
        if summons:
            card = summons[0].split()[1]
            page.click(f'#board [data-target="card:{card}"].target')
            page.click('#board [data-target="summon"].target')
            page.wait_for_selector("#board .ddm-nets")
            page.wait_for_function("document.querySelector('#board .ddm-net.selected') !== null")
            return
        controls = page.eval_on_selector_all("#controls button.control", "bs => bs.map((b) => b.dataset.action)")
        assert controls, f"no summon and no turn control to click: over={over(page)}, legal={actions[:8]}"
        control = next((a for a in ("end", "pass", "spend2", "battle") if a in controls), controls[0])
        before = page.get_attribute("body", "data-ply")
        page.click(f'#controls button.control[data-action="{control}"]')
        page.wait_for_function(f"document.body.dataset.ply !== {json.dumps(before)}")
    pytest.fail("no summon became legal in 60 turns")


def board_state(page) -> dict:
    """The chosen orientation, the anchors lit on the dungeon, and the legal actions the choice so far allows."""
    shape = page.get_attribute("#board .ddm-net.selected", "data-target").removeprefix("net:")
    anchors = page.eval_on_selector_all("#board .ddm-dungeon .target", "gs => gs.map((g) => g.dataset.target)")
    return {"shape": shape, "anchors": sorted(anchors), "legal": legal(page)}


def legal_anchors(state: dict) -> list[str]:
    return sorted(a.split("@")[1] for a in state["legal"] if a.startswith(f"dim {state['shape']}@"))


SELECTED_NET = "document.querySelector('#board .ddm-net.selected').dataset.target"


def test_a_net_is_placed_by_one_click_on_a_ghost_turned_by_r_and_f(context, server):
    page = context.new_page()
    game_id = open_game(page, server, {"first_player": "1"})
    reach_a_placing_step(page)
    state = board_state(page)
    dims = [a for a in state["legal"] if a.startswith("dim ")]
    assert dims and state["anchors"], state
    # The lit anchors are exactly the legal placements of the chosen orientation.
    assert state["anchors"] == legal_anchors(state)
    # Pointing at an anchor shows the six squares of the net there, legal; elsewhere the ghost says it is not.
    anchor = state["anchors"][0]
    page.hover(f'#board .ddm-dungeon [data-target="{anchor}"]')
    ghost = page.locator("#board .ghost")
    assert ghost.get_attribute("data-anchor") == anchor and ghost.get_attribute("data-legal") == "true"
    assert page.locator("#board .ghost .ghost-cell.legal").count() == 6
    page.hover('#board .ddm-dungeon [data-square="c12"]')
    assert page.locator("#board .ghost .ghost-cell.illegal").count() == 6
    # R turns the net: another orientation, whose lit anchors are again exactly its legal placements; F flips it.
    seen = {state["shape"]}
    for key in "RF":
        page.keyboard.press(key)
        page.wait_for_function(f"{SELECTED_NET} !== 'net:{state['shape']}'")
        state = board_state(page)
        assert state["shape"] not in seen and state["anchors"]
        assert state["anchors"] == legal_anchors(state)
        seen.add(state["shape"])
    # One click places it: the six squares become this player's path, where the ghost showed them.
    anchor = state["anchors"][len(state["anchors"]) // 2]
    page.hover(f'#board .ddm-dungeon [data-target="{anchor}"]')
    shown = sorted(page.eval_on_selector_all("#board .ghost .ghost-cell", "rs => rs.map((r) => r.dataset.square)"))
    squares = page.evaluate(f"async () => (await import('{MODULE}')).netSquares('{state['shape']}', '{anchor}')")
    before = page.get_attribute("body", "data-ply")
    page.click(f'#board .ddm-dungeon [data-target="{anchor}"]')
    page.wait_for_function(f"document.body.dataset.ply !== {json.dumps(before)}")
    assert shown == sorted(squares)
    match = stored_match(server, game_id)
    placed = [s.action for s in match.steps if s.action[0] == "dim"][-1]
    geo = match.game.geo
    assert sorted(geo.names[q] for q in geo.placements[placed[1]][2]) == sorted(squares)
    path = match.state.observation(0)["path"][0]
    assert set(squares) <= set(path)


def test_the_net_geometry_matches_the_engine(context, server):
    """Orientation, canonical form, R/F and covered squares in the board module agree with board.py for all 88."""
    page = context.new_page()
    page.goto(server.url + "/")
    geo = geometry("jdmc")
    expected = {}
    for net in NETS:
        for o in range(8):
            shape, _ = CANON[(net, o)]
            pid = geo.placement_of(net, o, geo.index["g10"])
            expected[f"{net}{o}"] = {"canonical": f"{shape.net}{shape.o}",
                                     "squares": sorted(geo.names[q] for q in geo.placements[pid][2])}
    found = page.evaluate("""async (module) => {
        const m = await import(module);
        const out = {};
        for (const net of Object.keys(m.NETS)) for (let o = 0; o < 8; o++) {
            out[net + o] = { canonical: m.canonical(net, o), squares: m.netSquares(net + o, 'g10').sort(),
                             r4: [1, 2, 3, 4].reduce((s) => m.turned(s, 'R'), m.canonical(net, o)),
                             ff: m.turned(m.turned(m.canonical(net, o), 'F'), 'F') };
        }
        return out;
    }""", MODULE)
    assert len(SHAPES) == len({v["canonical"] for v in found.values()}) == 64
    for key, want in expected.items():
        assert found[key]["canonical"] == want["canonical"], key
        assert found[key]["squares"] == want["squares"], key
        assert found[key]["r4"] == found[key]["ff"] == found[key]["canonical"], key


def test_the_inspector_shows_a_die_with_its_six_faces_and_a_monster_with_its_stats(context, server):
    page = context.new_page()
    open_game(page, server, {"first_player": "1"})
    wait_my_turn_or_end(page)
    page.hover("#board .ddm-die >> nth=0")
    assert page.locator("#inspector-body .ddm-faces svg.crest").count() == 6
    page.hover('#board [data-target="card:sovereign_wyrm"]')
    body = page.inner_text("#inspector-body")
    assert "Sovereign Wyrm" in body and "Level 10" in body and "ATK 3200" in body and "DEF 2800" in body
    assert "within its attack range" in body


def test_on_a_phone_the_first_tap_shows_the_ghost_and_the_second_places_it(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        open_game(page, server, {"first_player": "1"})
        reach_a_placing_step(page)
        assert "tap" in page.inner_text("#board .ddm-status")
        anchor = board_state(page)["anchors"][0]
        before = page.get_attribute("body", "data-ply")
        page.tap(f'#board .ddm-dungeon [data-target="{anchor}"]')
        assert page.get_attribute("#board .ghost", "data-anchor") == anchor
        assert page.get_attribute("body", "data-ply") == before
        page.tap(f'#board .ddm-dungeon [data-target="{anchor}"]')
        page.wait_for_function(f"document.body.dataset.ply !== {json.dumps(before)}")
        # The dungeon fits the phone's width; the turn controls come right after the board.
        box = page.locator("#board svg.ddm-dungeon").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    finally:
        ctx.close()


def test_the_palette_chooses_another_net_and_its_anchors_light_up(context, server):
    page = context.new_page()
    open_game(page, server, {"first_player": "1"})
    reach_a_placing_step(page)
    first = board_state(page)["shape"]
    others = page.locator(f'#board button.ddm-net.target:not([data-target="net:{first}"])')
    assert others.count() > 0
    chosen = others.first.get_attribute("data-target")
    others.first.click()
    page.wait_for_function(f"{SELECTED_NET} === {json.dumps(chosen)}")
    state = board_state(page)
    assert state["shape"] == chosen.removeprefix("net:") and state["anchors"] == legal_anchors(state)


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_zoom_buttons_cover_no_square_of_the_dungeon(browser, server, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        open_game(page, server, {})
        wait_my_turn_or_end(page)          # the AI may move first: each of its states draws the board anew
        box = page.locator("#board .ddm-zoom").bounding_box()
        squares = page.eval_on_selector_all("#board .ddm-dungeon [data-square]", """gs => gs.map((g) => {
            const r = g.getBoundingClientRect(); return [g.dataset.square, r.left, r.top, r.right, r.bottom]; })""")
        covered = [name for name, left, top, right, bottom in squares
                   if left < box["x"] + box["width"] and right > box["x"] and top < box["y"] + box["height"]
                   and bottom > box["y"]]
        assert len({name for name, *_ in squares}) == 14 * 20 and covered == []
    finally:
        ctx.close()
