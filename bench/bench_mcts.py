"""MCTS iterations per second, per game and rollout kind, on one core.

Both wall-clock and CPU time of the process are reported: on a shared machine the CPU figure is the
one-core cost.

Searches from positions a few random moves into seeded games; prints one JSON object. With `--move-games N`
it also plays N whole games of mcts at the game's default settings (its evaluation module's `MCTS`) against
greedy, seats alternating, and gives the time of each mcts move: median, p99, max and iterations/s.

    .venv/bin/python bench/bench_mcts.py --seconds 5 [--move-games 4]
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
        done += agent.last.done
        moves += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {"game": game_id, "rollout": rollout, "depth": depth, "iterations_per_move": iterations,
            "moves": moves, "iterations_per_s": done / elapsed, "iterations_per_cpu_s": done / cpu,
            "seconds_per_move": elapsed / max(1, moves), "cpu_seconds_per_move": cpu / max(1, moves)}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def move_times(game_id: str, games: int, seed: int = 1) -> dict:
    """Each mcts move's wall and CPU seconds at the default settings, in whole games against greedy."""
    game = coliseo.load_game(game_id)
    wall, cpu, iterations = [], [], 0
    for g in range(games):
        agents = [make_agent("mcts", game, seed=seed + g), make_agent("greedy", game, seed=seed + g)]
        if g % 2:
            agents.reverse()
        rng = random.Random(seed + g)
        state = game.new_state(seed + g)
        while not state.is_over:
            agent = agents[state.current_player]
            searched = agent.name == "mcts" and len(state.legal_actions()) > 1
            start, start_cpu = time.perf_counter(), time.process_time()
            action = agent.act(Seat(state, state.current_player, rng))
            if searched:
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                iterations += agent.last.done
            state.apply(action)
    return {"game": game_id, "settings": make_agent("mcts", game).effective_settings(), "games": games,
            "moves": len(wall), "iterations_per_cpu_s": round(iterations / sum(cpu)),
            "cpu_s_per_move": {"median": round(percentile(cpu, 0.5), 4), "p99": round(percentile(cpu, 0.99), 4),
                               "max": round(max(cpu), 4)},
            "wall_s_per_move": {"median": round(percentile(wall, 0.5), 4),
                                "p99": round(percentile(wall, 0.99), 4), "max": round(max(wall), 4)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and rollout kind")
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--games", nargs="*", default=coliseo.list_games())
    parser.add_argument("--move-games", type=int, default=0, help="whole games per game at default settings")
    args = parser.parse_args()
    results = [measure(g, rollout, args.seconds, args.iterations, args.depth)
               for g in args.games for rollout in ("random", "greedy")] if args.seconds > 0 else []
    per_move = [move_times(g, args.move_games) for g in args.games] if args.move_games else []
    print(json.dumps({"mcts": results, **({"moves_at_default_settings": per_move} if per_move else {})}))


if __name__ == "__main__":
    main()
