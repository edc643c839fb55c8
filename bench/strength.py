"""The strength table: mcts > greedy > random (and, in the Forbidden duel, mcts > fm-classic).

Each pair plays GAMES games with seats rotated, one process (so one core), seeded; the first
agent's win rate gets a Wilson 95% interval. Prints one JSON object per pair, one per line, and
a final list. Time per move is measured for every agent, as wall-clock and as CPU time of this
process (the one-core cost, which other work on the machine does not inflate): mean, 99th
percentile and max.

    .venv/bin/python bench/strength.py --game capsule --games 100
    .venv/bin/python bench/strength.py --game forbidden --pairs mcts:iterations=200,fm-classic
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from coliseo.sim.run import make_config, play_one
from coliseo.sim.stats import outcome_of, wilson


def default_pairs(game: str) -> list[tuple[str, str]]:
    """`mcts` is the default agent: its settings are the game's tuned ones (the evaluation module's MCTS)."""
    pairs = [("mcts", "greedy"), ("greedy", "random")]
    return pairs + [("mcts", "fm-classic")] if game == "forbidden" else pairs


def spread(kind: str, seconds: list[float]) -> dict:
    ordered = sorted(seconds)
    return {f"{kind}_mean_s": statistics.fmean(ordered), f"{kind}_p99_s": ordered[int(0.99 * (len(ordered) - 1))],
            f"{kind}_max_s": ordered[-1]}


def measure(game: str, first: str, second: str, games: int, seed: int, options: dict, start: int = 0) -> dict:
    config = make_config(game, [first, second], seed, options)
    clock: dict = {}
    wins = draws = 0
    lengths = []
    began = time.perf_counter()
    for n, i in enumerate(range(start, start + games)):
        row = play_one(config, i, clock=clock)
        player = row["seats"].index(first)
        result = outcome_of(row, player)
        wins += result == "win"
        draws += result == "draw"
        lengths.append(row["length"])
        if (n + 1) % 10 == 0:   # partial counts, for runs cut short
            print(json.dumps({"progress": f"{first} vs {second}", "games": n + 1, "wins": wins, "draws": draws}),
                  file=sys.stderr, flush=True)
    low, high = wilson(wins, games)
    times = {spec: {**spread("wall", [w for w, _ in t]), **spread("cpu", [c for _, c in t]), "moves": len(t)}
             for spec, t in clock.items()}
    return {"game": game, "options": options, "start": start, "agent": first, "opponent": second, "games": games,
            "wins": wins, "draws": draws, "win_rate": wins / games, "wilson_low": low, "wilson_high": high,
            "passes": low > 0.5, "mean_length": statistics.fmean(lengths), "seconds_per_move": times,
            "wall_s": time.perf_counter() - began}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--start", type=int, default=0, help="first game index (split a table over processes)")
    parser.add_argument("--pairs", nargs="*", help="A,B pairs of agent specs (default: the table's pairs)")
    parser.add_argument("--option", "-o", action="append", default=[], help="game option NAME=VALUE")
    args = parser.parse_args()
    options = {}
    for text in args.option:
        key, _, value = text.partition("=")
        options[key] = int(value) if value.isdigit() else value
    pairs = [tuple(p.split(",")) for p in args.pairs] if args.pairs else default_pairs(args.game)
    results = []
    for first, second in pairs:
        results.append(measure(args.game, first, second, args.games, args.seed, options, args.start))
        print(json.dumps(results[-1]), flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
