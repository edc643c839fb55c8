"""MCTS iterations per second, per game and rollout kind, on one core.

Both wall-clock and CPU time of the process are reported: on a shared machine the CPU figure is the
one-core cost.

Searches from positions a few random moves into seeded games; prints one JSON object.

    .venv/bin/python bench/bench_mcts.py --seconds 5
"""

from __future__ import annotations

import argparse
import json
import random
import time

import coliseo
from coliseo.agents import Seat, make_agent


def positions(game, count: int, seed: int) -> list:
    states, rng = [], random.Random(seed)
    for i in range(count):
        state = game.new_state(seed + i)
        for _ in range(rng.randrange(4, 30)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)
    return states


def measure(game_id: str, rollout: str, seconds: float, iterations: int, depth: int) -> dict:
    game = coliseo.load_game(game_id)
    states = positions(game, 20, 1)
    done = moves = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    i = 0
    while time.perf_counter() - start < seconds:
        state = states[i % len(states)]
        i += 1
        if len(state.legal_actions()) == 1:
            continue
        agent = make_agent("mcts", game, seed=i, iterations=iterations, depth=depth, rollout=rollout)
        agent.act(Seat(state, state.current_player, random.Random(i)))
        done += agent.last_iterations
        moves += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {"game": game_id, "rollout": rollout, "depth": depth, "iterations_per_move": iterations,
            "moves": moves, "iterations_per_s": done / elapsed, "iterations_per_cpu_s": done / cpu,
            "seconds_per_move": elapsed / max(1, moves), "cpu_seconds_per_move": cpu / max(1, moves)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and rollout kind")
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--games", nargs="*", default=coliseo.list_games())
    args = parser.parse_args()
    results = [measure(g, rollout, args.seconds, args.iterations, args.depth)
               for g in args.games for rollout in ("random", "greedy")]
    print(json.dumps({"mcts": results}))


if __name__ == "__main__":
    main()
