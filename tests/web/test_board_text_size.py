"""Every text drawn on the four boards is readable at a desk (1280×800): at least 9 CSS px as rendered (an SVG
text's font size times the scale its viewBox is drawn at), at the start and after a few turns; what would be
smaller is left to the inspector. Screenshots of each board (desk and phone) land in the test's tmp_path."""

from __future__ import annotations

import random

import pytest
from web.board_play import click_by_board, keep_seat, over, wait_my_turn_or_end
from web.test_board_capsule import OLD_ORDER, place_by_board

SMALLEST_PX = 9
PHONE = {"width": 390, "height": 844}

# Each visible text inside #board with its rendered size: the computed font size, for SVG times the scale of the
# text's screen transform (the viewBox's scale and any transform on the way).
RENDERED_TEXTS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.getElementById('board'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim(), el = node.parentElement;
    if (!text || !el || el.closest('title, desc, style, script')) continue;
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    let px = parseFloat(style.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      px *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    found.push({text, px: Math.round(px * 10) / 10});
  }
  return found;
}"""


def rendered_texts(page) -> list[dict]:
    return page.evaluate(RENDERED_TEXTS)


def too_small(page) -> list[str]:
    return [f"{t['text']!r} {t['px']} px" for t in rendered_texts(page) if t["px"] < SMALLEST_PX]


def open_table(page, server, game: str) -> None:
    """A new game of `game`, a person in seat 1 against `random`, at seat 1's table in English."""
    made = server.post("/api/games", {"game": game, "options": {},
                                      "seats": [{"kind": "human"}, {"kind": "ai", "agent": "random"}]})
    page.goto(server.url + "/")
    keep_seat(page, made["id"], made)
    page.evaluate("localStorage.setItem('coliseo.lang', 'en')")
    page.goto(f"{server.url}/play/{made['id']}")
    page.wait_for_selector("body[data-ply]")
    wait_my_turn_or_end(page)
    if game == "capsule":
        place_by_board(page, OLD_ORDER)


def play_a_few_turns(page, clicks: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(clicks):
        wait_my_turn_or_end(page)
        if over(page):
            return
        click_by_board(page, rng, board_bias=0.9)
    wait_my_turn_or_end(page)


@pytest.mark.parametrize("game", ["capsule", "forbidden", "fantastiqa", "dungeon_dice"])
def test_every_text_on_the_board_is_at_least_9_px_at_a_desk(page, server, game, tmp_path):
    open_table(page, server, game)
    page.screenshot(path=str(tmp_path / f"{game}-start.png"))
    at_start = too_small(page)
    play_a_few_turns(page, clicks=12)
    page.wait_for_timeout(300)                       # the last redraw's transitions
    page.screenshot(path=str(tmp_path / f"{game}-later.png"))
    later = too_small(page)
    texts = rendered_texts(page)
    assert texts, "no text on the board at all"
    assert not at_start and not later, f"{game}: below {SMALLEST_PX} px at the start {at_start}, later {later}"
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    page.screenshot(path=str(tmp_path / f"{game}-phone.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{game}: the page is {overflow} px wider than a phone"
