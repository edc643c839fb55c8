"""Regenerate the web table's screenshots in docs/img/: the lobby, and every game at its start, mid-game (with a
piece or card chosen, so its legal continuations light up) and game over, as a person in seat 1 sees it against
`random` at 1280×800; plus one phone view (390×844). Shown in docs/web.md.

Usage: python scripts/screenshots.py [--games capsule,forbidden] [--lang en] [--out docs/img] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_driver import SHORT, chromium, new_game, open_seat, play_actions, server, wait_turn  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["capsule", "dungeon_dice", "fantastiqa", "forbidden"]
MID_PLIES = {"capsule": 8, "dungeon_dice": 10, "fantastiqa": 10, "forbidden": 8}


def shrink(path: Path) -> None:
    """Fewer colours, same picture: the PNGs stay small in the repository (needs Pillow; skipped without it)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def shoot(page, path: Path) -> None:
    page.wait_for_timeout(350)          # let the short transitions finish
    page.screenshot(path=str(path))
    shrink(path)
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def choose_something(page) -> None:
    """Click one board target (a piece or card that starts an action) so its continuations show, and point at it."""
    targets = page.locator("#board .target")
    if targets.count():
        first = targets.first
        first.hover()
        first.click()


def game_shots(browser, url: str, game: str, out: Path, lang: str, seed: int) -> None:
    rng = random.Random(seed)
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    made = new_game(url, game, options=SHORT.get(game))
    open_seat(page, url, made, lang)
    wait_turn(page)
    shoot(page, out / f"{game}-start.png")
    play_actions(page, rng, MID_PLIES[game])
    if wait_turn(page):
        choose_something(page)
    shoot(page, out / f"{game}-mid.png")
    play_actions(page, rng, 100_000)
    page.wait_for_selector("#game-over[open]")
    shoot(page, out / f"{game}-over.png")
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--lang", default="en", choices=["en", "es"])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with server() as url, chromium() as browser:
        lobby = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        lobby.goto(url + "/")
        lobby.evaluate("lang => localStorage.setItem('coliseo.lang', lang)", args.lang)
        lobby.reload()
        lobby.wait_for_selector(".game-tile")
        shoot(lobby, args.out / "lobby.png")
        lobby.close()
        for game in args.games.split(","):
            game_shots(browser, url, game, args.out, args.lang, args.seed)
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                 bypass_csp=True)
        made = new_game(url, "capsule")
        open_seat(phone, url, made, args.lang)
        wait_turn(phone)
        choose_something(phone)
        shoot(phone, args.out / "capsule-phone.png")
        phone.close()


if __name__ == "__main__":
    main()
