"""Instructions per random-playout step, counted by callgrind: a before/after measure the machine's load does not
change (timings on a shared machine move by ±10% between runs).

Runs this file's playout under `valgrind --tool=callgrind` twice per game, with no games and with `--games N`
seeded games (PYTHONHASHSEED=0), and gives the difference per step. Needs valgrind; about a minute per game.
Prints one JSON object.

    python bench/bench_instructions.py [--only forbidden dungeon_dice ...] [--games N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

GAMES = {"capsule": 10, "dungeon_dice": 4, "fantastiqa": 2, "forbidden": 20}   # ~1,500-3,000 steps each


def playout(game_id: str, games: int) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from common import playouts

    import coliseo
    game = coliseo.load_game(game_id)
    if games:
        print(playouts(game, 10_000, max_games=games)["steps"])


def counted(game_id: str, games: int) -> tuple[int, int]:
    """(instructions, steps) of one run under callgrind."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--playout", game_id, str(games)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    instructions = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    return instructions, int(run.stdout.strip() or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(GAMES))
    parser.add_argument("--games", type=int, help="seeded games per game (default: a fixed count per game)")
    parser.add_argument("--playout", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.playout:
        playout(args.playout[0], int(args.playout[1]))
        return
    result = {}
    for game_id in args.only:
        games = args.games or GAMES[game_id]
        base, _ = counted(game_id, 0)
        total, steps = counted(game_id, games)
        result[game_id] = {"games": games, "steps": steps, "instructions_per_step": round((total - base) / steps),
                           "start_instructions": base}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
