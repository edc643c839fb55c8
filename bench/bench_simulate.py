"""Simulation throughput (games/s) with 1 and 2 worker processes, and the speed-up.

    .venv/bin/python bench/bench_simulate.py --game capsule --agents greedy,greedy --games 200
"""

from __future__ import annotations

import argparse
import json
import time

from coliseo.sim.run import make_config, simulate
from coliseo.sim.spec import parse_agents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="capsule")
    parser.add_argument("--agents", default="greedy,greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", default="local")
    args = parser.parse_args()
    config = make_config(args.game, parse_agents(args.agents), args.seed)
    out = {"game": args.game, "agents": args.agents, "games": args.games, "backend": args.backend}
    rows = {}
    for workers in (1, 2):
        start = time.perf_counter()
        rows[workers] = simulate(config, args.games, workers=workers, backend=args.backend)
        out[f"games_per_s_{workers}"] = args.games / (time.perf_counter() - start)
    out["speedup"] = out["games_per_s_2"] / out["games_per_s_1"]
    out["same_results"] = rows[1] == rows[2]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
