"""Capsule Monsters benchmark: random playouts on one core, clone against deepcopy, peak memory.

Usage: python bench/bench_capsule.py [--seconds 10] [--mode basic|advanced]; prints one JSON object.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import clone_cost, memory, mid_game_state, playouts  # noqa: E402

from coliseo import load_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--mode", default="basic")
    args = parser.parse_args()
    game = load_game("capsule", mode=args.mode)
    result = {"benchmark": "capsule", "mode": args.mode, "random_playout": playouts(game, args.seconds)}
    result.update(clone_cost(mid_game_state(game)))
    result.update(memory(game))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
