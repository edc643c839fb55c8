"""The Fantastiqa board: whole games played by board clicks and turn controls only, subduing by clicking the creature
and then the cards that pay, the inspector, and no codes on screen."""

from __future__ import annotations

import contextlib
import random
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web.board_play import click_by_board, create_in_lobby, over, play_by_board, wait_my_turn_or_end

from coliseo.core.match import verify

# Card and quest ids of the bundled pack, and region/statue codes: a player never reads these.
CODE = re.compile(r"\b(p\d(SW|FI|WA|BR|FA|NE|HE|CL|WN)|c\d\d|q\d\d|sq\d|b\d\d|a\d\d|sa\d|dr\d+|dog\d|"
                  r"TL|TR|ML|MR|BL|BR|AT|BB|QC)\b")


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def legal_actions(page) -> list[str]:
    """The legal actions, read from the folded list (opened only to read it, never clicked)."""
    details = page.locator("#all-actions")
    if not details.evaluate("d => d.open"):
        page.click("#all-actions summary")
    page.wait_for_selector("#all-actions button.action")
    texts = page.eval_on_selector_all("#all-actions button.action", "bs => bs.map(b => b.dataset.action)")
    page.click("#all-actions summary")
    return texts


def no_codes_on_screen(page) -> None:
    for where in ("#board", "#log", "#controls"):
        # The symbol legend alone names the codes, as the key to the notation.
        text = page.evaluate("s => { const n = document.querySelector(s).cloneNode(true); n.querySelectorAll("
                             "'.fq-legend').forEach((x) => x.remove()); return n.textContent; }", where)
        found = CODE.search(text)
        around = text[max(0, found.start() - 60):found.end() + 60] if found else ""
        assert not found, f"{where} shows the code {found.group(0)!r}: …{around}…"


@pytest.mark.parametrize("players", [2, 3])
def test_a_whole_game_against_random_by_board_clicks_only(context, server, page_errors, players):
    page = context.new_page()
    game_id = create_in_lobby(page, server, "fantastiqa", ["human"] + ["ai:random"] * (players - 1), {"max_turns": 24})
    clicks = play_by_board(page, random.Random(players))
    assert clicks > 20
    assert page.get_attribute("body", "data-over") == "true"
    assert not page_errors, page_errors
    no_codes_on_screen(page)
    record = server.get(f"/api/games/{game_id}/record")
    assert verify(record).state.result == record["result"]
    assert len(page.locator(".fq-panel").all()) == players
    # A score can be negative (a held quest counts against it): its title says how it is counted.
    assert "minus those of quests still held" in page.get_attribute(".fq-panel .fq-stat.score", "title")


def test_subdue_by_clicking_the_creature_then_the_cards_that_pay(context, server):
    page = context.new_page()
    create_in_lobby(page, server, "fantastiqa", ["human", "ai:random"], {"max_turns": 40})
    rng, subdued, checked_inspector = random.Random(11), 0, False
    while not over(page) and subdued < 2:
        wait_my_turn_or_end(page)
        if over(page):
            break
        subs = [a for a in legal_actions(page) if a.startswith("sub ")]
        if not subs:
            click_by_board(page, rng)
            continue
        space = rng.choice(subs).split()[1]
        payments = {frozenset(a.split()[2:]) for a in subs if a.split()[1] == space}
        page.click(f"#board [data-target='sp{space}'].target")
        lit = set(page.eval_on_selector_all(".fq-hand .fq-card.target", "cs => cs.map(c => c.dataset.target)"))
        # Every lit card starts some minimal payment, and every payment can be started from a lit card.
        assert lit and all(any(card in p for p in payments) for card in lit)
        assert all(p & lit for p in payments)
        if not checked_inspector:
            page.hover(f"#board [data-target='sp{space}']")
            assert "Weak to" in page.inner_text("#inspector")
            checked_inspector = True
        ply = page.get_attribute("body", "data-ply")
        chosen = []
        confirm = "#controls button.confirm:not([disabled])"   # disabled while the table waits for the server
        while page.get_attribute("body", "data-ply") == ply:
            cards = page.locator(".fq-hand .fq-card.target")
            if cards.count():
                card = cards.nth(rng.randrange(cards.count()))
                chosen.append(card.get_attribute("data-target"))
                card.click()
            elif page.locator(confirm).count():
                with contextlib.suppress(PlaywrightTimeout):   # gone if the state arrived since: the loop looks again
                    page.click(confirm, timeout=5000)
            page.wait_for_function(f"document.body.dataset.ply !== {ply!r} || "
                                   f"document.querySelector('.fq-hand .target, {confirm}')")
        assert frozenset(chosen) in payments
        page.wait_for_function("[...document.querySelectorAll('#log li')].some(li => /subdues/.test(li.textContent))")
        subdued += 1
        no_codes_on_screen(page)
    assert subdued >= 1


def test_the_inspector_shows_a_quest_with_its_requirements_and_the_legend_names_the_symbols(context, server):
    page = context.new_page()
    create_in_lobby(page, server, "fantastiqa", ["human", "ai:random"])
    wait_my_turn_or_end(page)
    quest = page.locator(".fq-card.kind-quest").first
    quest.hover()
    inspector = page.inner_text("#inspector")
    assert "Needs" in inspector and "point" in inspector
    assert re.search(r"\d × (Sword|Fire|Water|Broom|Fang|Net|Helm|Club|Wand)", inspector)
    no_codes_on_screen(page)
    legend = page.inner_text(".fq-legend")
    for code, word in (("SW", "Sword"), ("FA", "Fang"), ("NE", "Net"), ("HE", "Helm"), ("WA", "Water"), ("FI", "Fire"),
                       ("CL", "Club"), ("WN", "Wand"), ("BR", "Broom")):
        assert f"{word} {code}" in legend
    assert page.locator(".fq-legend svg.fq-icon").count() == 9


def test_a_game_on_a_phone_by_touch_and_the_board_fits_its_width(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  bypass_csp=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        create_in_lobby(page, server, "fantastiqa", ["human", "ai:random"], {"max_turns": 6})
        rng, taps = random.Random(6), 0
        while not over(page):
            wait_my_turn_or_end(page)
            if over(page):
                break
            assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
            things = page.locator("#board .target, #controls button.control")
            before = page.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
            things.nth(rng.randrange(things.count())).tap()
            taps += 1
            page.wait_for_function("([p, d]) => document.body.dataset.ply !== p || document.body.dataset.draws !== d",
                                   arg=before)
        assert taps > 5
        map_box = page.locator("#board svg.fq-map").bounding_box()
        assert map_box["x"] >= 0 and map_box["x"] + map_box["width"] <= 390
    finally:
        context.close()


def test_keyboard_tab_and_enter_choose_board_things_each_with_a_label(context, server):
    page = context.new_page()
    create_in_lobby(page, server, "fantastiqa", ["human", "ai:random"], {"max_turns": 6})
    chose_on_board = 0
    for _ in range(8):
        wait_my_turn_or_end(page)
        if over(page):
            break
        targets = page.locator("#board .target")
        if targets.count():
            targets.first.focus()
            assert page.evaluate("document.activeElement.closest('#board') !== null")
            chose_on_board += 1
        else:
            page.locator("#controls button.control").first.focus()
        labels = page.locator("#board [data-target]")
        assert all(labels.nth(n).get_attribute("aria-label") for n in range(labels.count()))
        before = page.evaluate("[document.body.dataset.ply, document.body.dataset.draws]")
        page.keyboard.press("Enter")
        page.wait_for_function("([p, d]) => document.body.dataset.ply !== p || document.body.dataset.draws !== d",
                               arg=before)
    assert int(page.get_attribute("body", "data-ply")) > 0 and chose_on_board > 3


def test_every_legal_action_has_board_steps_and_words_without_codes():
    """Over random games (2-4 players), in every state: each action but end/stop/done is built by board steps, no two
    actions share their steps, and its words (the engine's, as the table shows them) name things, never codes."""
    from coliseo import load_game

    problems, sampled = [], 0
    for players in (2, 3, 4):
        game = load_game("fantastiqa", players=players, max_turns=40)
        state, rng = game.new_state(players), random.Random(players)
        while not state.is_over:
            legal = state.legal_actions()
            if rng.random() < 0.3:
                sampled += 1
                seen = {}
                for action, steps, words in zip(legal, game.board_steps(state, legal),
                                                game.action_texts(state, legal, "en"), strict=True):
                    text = game.format_action(action)
                    if not steps and text not in ("end", "stop", "done"):
                        problems.append(f"no steps: {text}")
                    if steps and seen.setdefault(tuple(steps), text) != text:
                        problems.append(f"same steps: {text} / {seen[tuple(steps)]}")
                    problems += [f"{m.group()} in the words of {text}: {words}" for m in CODE.finditer(words)]
            state.apply(rng.choice(legal))
    assert sampled > 100
    assert problems == []
