"""The Forbidden duel board in headless Chromium against a real server: a whole duel by board clicks and turn controls
only, the fusion preview against the fusion calculator, battle previews that never reveal a face-down card, the
inspector, and screenshots of the table at desktop and phone sizes (COLISEO_SCREENSHOTS=folder keeps them)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from web.board_play import click_by_board, keep_seat, over, play_by_board, wait_my_turn_or_end

import coliseo
from coliseo.games.forbidden.calc import chain_steps, fusion_chains

GAME = coliseo.load_game("forbidden")


def open_duel(browser, server, viewport=(1280, 800), seed_options: dict | None = None):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    created = server.post("/api/games", {"game": "forbidden", "options": seed_options or {},
                                         "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
    page = ctx.new_page()
    page.goto(server.url + "/")
    keep_seat(page, created["id"], created)
    page.goto(server.url + created["play_url"])
    page.wait_for_selector("body[data-ply]")
    return ctx, page, created["id"]


def covered_stats(card, over=None) -> list[str]:
    """The ATK/DEF numbers of a card on the board that its badges (or the elements `over`) overlap."""
    def overlap(a, b):
        return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] \
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
    boxes = [p.bounding_box() for p in (over or card.locator(".fm-pill rect")).all()]
    return [stat.text_content() for stat in card.locator(".fm-stat").all()
            if any(overlap(stat.bounding_box(), box) for box in boxes)]


def hand_ids(page) -> list[int]:
    return json.loads(page.get_attribute("svg.fm-board", "data-hand") or "[]")


def shot(page, name: str) -> None:
    folder = os.environ.get("COLISEO_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"forbidden-{name}.png"))


def main_phase(page) -> bool:
    return page.get_attribute("svg.fm-board", "data-phase") == "main"


def test_a_whole_duel_against_random_by_board_clicks_only(server, browser):
    ctx, page, _ = open_duel(browser, server)
    try:
        clicks = play_by_board(page, random.Random(16), max_clicks=3000)
        assert over(page) and clicks > 10
        assert page.locator("#game-over, #banner[data-kind=over]").count()
    finally:
        ctx.close()


def test_the_fusion_preview_shows_the_calculators_result(server, browser):
    """Hand cards clicked in order show the fold of that chain (R12) before it is placed, as calc.chain_steps
    predicts it, for several chains of several hands."""
    ctx, page, _ = open_duel(browser, server)
    rng = random.Random(3)
    checked = fusions = offered = 0
    try:
        for _ in range(60):
            wait_my_turn_or_end(page)
            if over(page) or checked >= 8:
                break
            if main_phase(page):
                hand = hand_ids(page)
                fusing = [c["order"] for c in fusion_chains(GAME.pack, hand) if c["onto"] is None and
                          any(step["step"] == "fusion" for step in c["steps"])]
                offered += bool(fusing)
                order = fusing[0] if fusing and (checked % 2 == 0 or not fusions) else \
                    rng.sample(range(1, len(hand) + 1), min(len(hand), rng.choice((2, 3))))
                if len(order) >= 2:
                    page.keyboard.press("Escape")          # start from nothing chosen
                    for position in order:
                        page.click(f'#board [data-target="h{position}"]')
                    expected, mod, steps = chain_steps(GAME.pack, [hand[p - 1] for p in order])
                    preview = page.locator("#board .fm-preview")
                    assert preview.get_attribute("data-result") == str(expected)
                    card = GAME.pack.cards[expected]
                    words = page.text_content(".fm-preview-text")
                    assert card.name in words
                    if card.is_monster:
                        terrain = int(page.get_attribute("#board .fm-terrain", "data-terrain"))
                        atk = max(0, min(9999, card.atk + mod + GAME.pack.terrain_table[terrain][card.type]))
                        assert f"ATK {atk} /" in words
                    checked += 1
                    fusions += any(s["step"] == "fusion" for s in steps)
                    if fusions and checked == 2:
                        shot(page, "fusion-1280")
                    page.keyboard.press("Escape")
                    assert not page.locator("#board .fm-preview").count()
            click_by_board(page, rng)
        assert checked >= 4 and (fusions >= 1 or not offered), "a hand that could fuse was never checked fusing"
    finally:
        ctx.close()


def test_battle_previews_and_the_inspector_never_reveal_a_face_down_card(server, browser):
    ctx, page, game_id = open_duel(browser, server)
    rng = random.Random(7)
    seen_battle = False
    try:
        for _ in range(400):
            wait_my_turn_or_end(page)
            if over(page):
                break
            attackers = page.locator('#board .target[data-target^="my-m"]')
            if page.get_attribute("svg.fm-board", "data-phase") == "battle" and attackers.count():
                attacker = attackers.first.get_attribute("data-target")
                attackers.first.click()
                assert not covered_stats(page.locator(f'#board [data-target="{attacker}"]'),
                                         over=page.locator('#board [data-target="pos"] rect')), \
                    "the change-position button hides the chosen monster's ATK/DEF"
                for target in page.locator('#board .target[data-target^="op-m"]').all():
                    text = target.locator(".fm-pill").first.get_attribute("data-text")
                    if target.get_attribute("data-facedown") == "true":
                        assert text == "Face-down: unknown"
                    else:
                        words = ("Wins: ", "Loses: ", "Both destroyed", "Destroys it", "Blocked: ", "No effect")
                        assert any(word in text for word in words)
                        assert not covered_stats(target), "a battle badge hides the target's ATK/DEF"
                        seen_battle = True
                page.keyboard.press("Escape")
            click_by_board(page, rng)
            if seen_battle:
                break
        # The inspector shows a hand card's full face: name, ATK/DEF, both guardian stars.
        if not over(page) and page.locator('#board [data-target="h1"]').count():
            page.hover('#board [data-target="h1"]')
            body = page.text_content("#inspector-body")
            card = GAME.pack.cards[hand_ids(page)[0]]
            assert card.name in body
        assert seen_battle
    finally:
        ctx.close()


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_screens_at_desktop_and_phone_sizes(server, browser, viewport):
    """The board fits: the whole field is inside the viewport's width, the card names are not cut."""
    ctx, page, _ = open_duel(browser, server, viewport)
    try:
        size = f"{viewport[0]}"
        shot(page, f"start-{size}")
        box = page.locator("svg.fm-board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0] + 1
        play_by_board(page, random.Random(5), max_clicks=3000)
        shot(page, f"over-{size}")
    finally:
        ctx.close()


def test_a_hand_monster_dragged_onto_an_empty_zone_asks_face_up_or_down(server, browser):
    ctx, page, _ = open_duel(browser, server)
    try:
        wait_my_turn_or_end(page)
        hand = hand_ids(page)
        position = next(i for i, c in enumerate(hand, 1) if GAME.pack.cards[c].is_monster)
        start = page.locator(f'#board [data-target="h{position}"]').bounding_box()
        end = page.locator('#board [data-target="my-m3"]').bounding_box()
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=5)
        page.mouse.up()
        page.locator('#board .target[data-target="down"]').wait_for()
        assert page.locator('#board .target[data-target="up"]').count() == 1
        page.click('#board [data-target="down"]')
        page.wait_for_function("document.body.dataset.ply === '1'")
        back = page.locator('#board [data-target="my-m3"] .fm-veil')
        assert back.count() == 1          # your own face-down monster: its face under the veil
    finally:
        ctx.close()
