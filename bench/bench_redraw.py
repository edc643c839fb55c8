"""Board redraw time in the browser, per game: how long the board module's draw takes after a state message, measured
in headless Chromium with the Performance API (the table times each full redraw as the user-timing measure
`coliseo:board`), while a person in seat 1 plays random clicks against `random`. Also the size of the state
messages the page receives. Prints one JSON object; medians are the figure to compare (target: 16 ms).

Usage: python bench/bench_redraw.py [--games capsule,forbidden] [--plies 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from table_driver import SHORT, chromium, new_game, open_seat, play_actions, server  # noqa: E402

GAMES = ["capsule", "dungeon_dice", "fantastiqa", "forbidden"]


def measure(browser, url: str, game: str, plies: int, seed: int) -> dict:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    sizes: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: sizes.append(len(frame.encode()))
                                          if '"type": "state"' in frame[:40] or '"type":"state"' in frame[:40]
                                          else None))
    made = new_game(url, game, options=SHORT.get(game))
    open_seat(page, url, made)
    play_actions(page, random.Random(seed), plies)
    times = page.evaluate("performance.getEntriesByName('coliseo:board').map((e) => e.duration)")
    page.close()
    times.sort()
    return {"redraws": len(times), "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "max_ms": round(times[-1], 2),
            "state_messages": len(sizes), "state_bytes_median": int(statistics.median(sizes)) if sizes else None,
            "state_bytes_max": max(sizes) if sizes else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with server() as url, chromium() as browser:
        result = {game: measure(browser, url, game, args.plies, args.seed) for game in args.games.split(",")}
    print(json.dumps({"bench": "redraw", "plies": args.plies, "chromium": "headless /usr/bin/chromium",
                      "games": result}, indent=1))


if __name__ == "__main__":
    main()
