"""`coliseo analyze` measured: does it tell a strong player from a random one, and how long does a game take?

For each game, plays seeded games of `mcts` against `random` (seats alternating, as `coliseo simulate` plays
them: run seed S, game i) and analyses every decision of both sides at the game's default budget (or
`--iterations`): each side's mean loss per decision, its marks, the ratio of the mean losses and the random
side's share of the blunders. Then it analyses `--typical` games of `mcts` against `mcts` (run seed S + 1) and
gives the seconds a whole game takes, in CPU time of the process and wall-clock. Prints one JSON object.

    .venv/bin/python bench/bench_analyze.py [--games 4] [--typical 1] [--seed 0] [--game capsule ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import coliseo
from coliseo.agents.analysis import MARKS, Analyst, decisions, tally
from coliseo.sim.run import make_config, replay_game


def analysed(match, iterations: int | None) -> tuple[list, float, float]:
    """Every decision of the match judged, and the CPU and wall seconds it took."""
    analyst = Analyst(match.game, iterations)
    start, start_cpu = time.perf_counter(), time.process_time()
    found = [analyst.judge(ply, state, action) for ply, state, action in decisions(match)]
    return found, time.process_time() - start_cpu, time.perf_counter() - start


def check(game_id: str, games: int, seed: int, iterations: int | None) -> dict:
    """mcts against random: each side's decisions, mean loss and marks, over `games` games."""
    config = make_config(game_id, ["mcts", "random"], seed)
    sides = {"mcts": [], "random": []}
    cpu = wall = 0.0
    for index in range(games):
        match = replay_game(config, index)
        found, game_cpu, game_wall = analysed(match, iterations)
        cpu, wall = cpu + game_cpu, wall + game_wall
        for d in found:
            sides[match.players[d.player]].append(d)
        print(f"{game_id} check game {index}: {len(found)} decisions, {game_cpu:.1f} s CPU", file=sys.stderr)
    table = {side: {**tally(found), "loss_quantiles": quantiles([d.loss for d in found])}
             for side, found in sides.items()}
    blunders = table["mcts"]["blunder"] + table["random"]["blunder"]
    return {"games": games, "sides": table,
            "loss_ratio": ratio(table["random"]["mean_loss"], table["mcts"]["mean_loss"]),
            "random_share_of_blunders": round(table["random"]["blunder"] / blunders, 3) if blunders else None,
            "cpu_seconds_per_game": round(cpu / games, 1), "wall_seconds_per_game": round(wall / games, 1)}


def quantiles(losses: list[float]) -> dict:
    """The losses at the 50th, 90th, 95th and 99th percentiles and the largest: where the marks' thresholds fall."""
    ordered = sorted(losses)
    at = {f"p{int(share * 100)}": ordered[min(len(ordered) - 1, int(share * len(ordered)))]
          for share in (0.5, 0.9, 0.95, 0.99)}
    return {**at, "max": ordered[-1]} if ordered else {}


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, or None where it has no finite value (JSON has no infinity)."""
    return round(a / b, 2) if a is not None and b is not None and b > 0 else None


def typical(game_id: str, games: int, seed: int, iterations: int | None) -> dict:
    """Seconds to analyse whole games of mcts against mcts."""
    config = make_config(game_id, ["mcts", "mcts"], seed + 1)
    rows = []
    for index in range(games):
        match = replay_game(config, index)
        found, cpu, wall = analysed(match, iterations)
        rows.append({"plies": len(match.steps), "decisions": len(found), "cpu_seconds": round(cpu, 1),
                     "wall_seconds": round(wall, 1)})
        print(f"{game_id} typical game {index}: {len(found)} decisions, {cpu:.1f} s CPU", file=sys.stderr)
    return {"games": rows, "mean_cpu_seconds": round(sum(r["cpu_seconds"] for r in rows) / len(rows), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable; default: all four)")
    parser.add_argument("--games", type=int, default=4, help="mcts-against-random games per game")
    parser.add_argument("--typical", type=int, default=1, help="mcts-against-mcts games per game, timed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=None, help="default: each game's analysis budget")
    args = parser.parse_args()
    out = {"marks": MARKS, "games": {}}
    for game_id in args.game or coliseo.list_games():
        game = coliseo.load_game(game_id)
        row = {"iterations": Analyst(game, args.iterations).agent.iterations,
               "check": check(game_id, args.games, args.seed, args.iterations)}
        if args.typical:
            row["typical"] = typical(game_id, args.typical, args.seed, args.iterations)
        out["games"][game_id] = row
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
