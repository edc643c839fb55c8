"""Random playouts of every game against OpenSpiel's C++ backgammon, interleaved in one run.

Each round plays every game and backgammon (`pyspiel.load_game("backgammon")`) for `--slice` seconds in
turn, so a machine shared with other jobs slows all of them alike; the ratio to backgammon is what to
compare between runs. Rates are per CPU second of this process (one core). A backgammon step is every
`apply_action`, its dice rolls (chance nodes) included, as in the measurements that opened issue 22; its
decisions alone are also given (`backgammon_decisions`), about half as many.
Prints one JSON object with each game's steps/s and ratio per run and their medians.

    python bench/bench_vs_openspiel.py [--runs 3] [--rounds 3] [--slice 1.0] [--games dungeon_dice ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import playouts  # noqa: E402

import coliseo  # noqa: E402


def backgammon_playouts(game, seconds: float, seed: int) -> dict:
    rng = random.Random(seed)
    steps = decisions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
            steps += 1
    return {"steps": steps, "decisions": decisions, "cpu_seconds": time.process_time() - cpu_start}


def one_run(games: dict, backgammon, rounds: int, slice_s: float, seed: int) -> dict:
    totals = {name: [0, 0.0] for name in [*games, "backgammon", "backgammon_decisions"]}
    for r in range(rounds):
        for name, game in games.items():
            got = playouts(game, slice_s, seed=seed * 1000 + r)
            totals[name][0] += got["steps"]
            totals[name][1] += got["cpu_seconds"]
            got = backgammon_playouts(backgammon, slice_s, seed * 1000 + r)
            totals["backgammon"][0] += got["steps"]
            totals["backgammon"][1] += got["cpu_seconds"]
            totals["backgammon_decisions"][0] += got["decisions"]
            totals["backgammon_decisions"][1] += got["cpu_seconds"]
    rates = {name: steps / max(cpu, 1e-9) for name, (steps, cpu) in totals.items()}
    return {"load_average_1min": os.getloadavg()[0],
            "steps_per_cpu_s": {name: round(rate) for name, rate in rates.items()},
            "ratio": {name: round(rates[name] / rates["backgammon"], 3) for name in games}}


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved slices per game in a run")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per game per slice")
    parser.add_argument("--games", nargs="*", default=coliseo.list_games())
    args = parser.parse_args()
    games = {name: coliseo.load_game(name) for name in args.games}
    backgammon = pyspiel.load_game("backgammon")
    runs = [one_run(games, backgammon, args.rounds, args.slice, seed) for seed in range(args.runs)]
    result = {"python": sys.version.split()[0], "runs": runs,
              "median_steps_per_cpu_s": {name: statistics.median(r["steps_per_cpu_s"][name] for r in runs)
                                         for name in runs[0]["steps_per_cpu_s"]},
              "median_ratio": {name: statistics.median(r["ratio"][name] for r in runs) for name in games}}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
