"""The Fantastiqa board: whole games played by board clicks and turn controls only, subduing by clicking the creature
and then the cards that pay, the inspector, and no codes on screen."""

from __future__ import annotations

import random
import re

import pytest
from web.board_play import click_by_board, over, play_by_board, wait_my_turn_or_end

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


def create_in_lobby(page, server, seats: list[str], options: dict | None = None) -> str:
    """A Fantastiqa game made in the lobby by clicks (the player count first: it redraws the seats)."""
    page.goto(server.url + "/")
    page.select_option("#game", "fantastiqa")
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
def test_a_whole_game_against_random_by_board_clicks_only(context, server, players):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    game_id = create_in_lobby(page, server, ["human"] + ["ai:random"] * (players - 1), {"max_turns": 24})
    clicks = play_by_board(page, random.Random(players))
    assert clicks > 20
    assert page.get_attribute("body", "data-over") == "true"
    assert not errors, errors
    no_codes_on_screen(page)
    record = server.get(f"/api/games/{game_id}/record")
    assert verify(record).state.result == record["result"]
    assert len(page.locator(".fq-panel").all()) == players


def test_subdue_by_clicking_the_creature_then_the_cards_that_pay(context, server):
    page = context.new_page()
    create_in_lobby(page, server, ["human", "ai:random"], {"max_turns": 40})
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
        while page.get_attribute("body", "data-ply") == ply:
            cards = page.locator(".fq-hand .fq-card.target")
            if cards.count():
                card = cards.nth(rng.randrange(cards.count()))
                chosen.append(card.get_attribute("data-target"))
                card.click()
            else:
                page.click("#controls button.confirm")
            page.wait_for_function(f"document.body.dataset.ply !== {ply!r} || "
                                   "document.querySelector('.fq-hand .target, #controls button.confirm')")
        assert frozenset(chosen) in payments
        page.wait_for_function("[...document.querySelectorAll('#log li')].some(li => /subdues/.test(li.textContent))")
        subdued += 1
        no_codes_on_screen(page)
    assert subdued >= 1


def test_the_inspector_shows_a_quest_with_its_requirements_and_the_legend_names_the_symbols(context, server):
    page = context.new_page()
    create_in_lobby(page, server, ["human", "ai:random"])
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
