"""Fantastiqa benchmark: random playouts on one core for 2 and 4 players, clone cost, peak memory.

Usage: python bench/bench_fantastiqa.py [--seconds 10]; prints one JSON object.
"""

import argparse
import json
import random
import resource
import time
import tracemalloc

from coliseo import load_game


def playouts(game, seconds: float) -> dict:
    rng = random.Random(0)
    games = steps = 0
    reasons: dict[str, int] = {}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        reasons[state.result["reason"]] = reasons.get(state.result["reason"], 0) + 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 2), "games_per_s": round(games / elapsed, 2),
            "steps_per_s": round(steps / elapsed), "mean_steps_per_game": round(steps / games, 1),
            "end_reasons": reasons}


def mid_game_state(game, steps: int = 400):
    rng = random.Random(1)
    state = game.new_state(1)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def per_call_us(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    report = {"game": "fantastiqa"}
    for n in (2, 4):
        game = load_game("fantastiqa", players=n)
        state = mid_game_state(game)
        rng = random.Random(2)
        report[f"{n}p"] = {
            "playouts": playouts(game, args.seconds),
            "clone_us": round(per_call_us(state.clone, 5000), 2),
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
