"""Fantastiqa benchmark: random playouts on one core for 2 and 4 players, clone cost, peak memory.

Usage: python bench/bench_fantastiqa.py [--seconds 10]; prints one JSON object.
"""

import argparse
import json
import random
import resource
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import clone_cost, mid_game_state, per_call_us, playouts  # noqa: E402

from coliseo import load_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    report = {"game": "fantastiqa"}
    for n in (2, 4):
        game = load_game("fantastiqa", players=n)
        state = mid_game_state(game, 400)
        rng = random.Random(2)
        report[f"{n}p"] = {
            "playouts": playouts(game, args.seconds),
            **clone_cost(state),
            "legal_actions_us": round(per_call_us(lambda s=state: s.clone().legal_actions(), 2000), 2),
            "determinize_us": round(per_call_us(lambda s=state, r=rng: s.determinize(0, r), 2000), 2),
            "observation_us": round(per_call_us(lambda s=state: s.observation(0), 2000), 2),
        }
    tracemalloc.start()
    game = load_game("fantastiqa", players=4)
    states = [mid_game_state(game, 200)]
    states += [states[0].clone() for _ in range(999)]
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    report["memory"] = {"per_state_kib": round(current / len(states) / 1024, 2),
                        "tracemalloc_peak_kib_1000_states": round(peak / 1024),
                        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
