"""Memory that loading games leaves behind: `load_game` N times per game, each game played a little and dropped.

For each game: the Game objects still alive afterwards (counted with the garbage collector), the memory Python
still holds for them (tracemalloc, after a collection) and the process's RSS growth. Run it on two checkouts to
compare (PYTHONPATH=<checkout>/src). Prints one JSON object.

Usage: python bench/bench_memory.py [--loads 300] [--actions 30]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import tracemalloc

import coliseo
from coliseo.core.game import Game


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def play(game, seed: int, actions: int) -> None:
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
        state.observation(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=300)
    parser.add_argument("--actions", type=int, default=30)
    args = parser.parse_args()
    for game_id in coliseo.list_games():        # every module imported and warmed before measuring
        play(coliseo.load_game(game_id), 0, args.actions)
    gc.collect()
    tracemalloc.start()
    out = {"loads": args.loads, "actions": args.actions, "games": {}}
    for game_id in coliseo.list_games():
        gc.collect()
        traced, rss = tracemalloc.get_traced_memory()[0], rss_kib()
        for n in range(args.loads):
            play(coliseo.load_game(game_id), n, args.actions)
        gc.collect()
        out["games"][game_id] = {
            "games_alive": sum(1 for o in gc.get_objects() if isinstance(o, Game) and o.id == game_id),
            "traced_mib_left": round((tracemalloc.get_traced_memory()[0] - traced) / 2**20, 2),
            "rss_mib_grown": round((rss_kib() - rss) / 1024, 2)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
