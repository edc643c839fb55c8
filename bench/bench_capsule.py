"""Capsule Monsters benchmark: random playouts on one core, clone against deepcopy, peak memory.

Usage: python bench/bench_capsule.py [--seconds 10] [--mode basic|advanced]; prints one JSON object.
"""

import argparse
import copy
import json
import random
import resource
import time
import tracemalloc

from coliseo import load_game


def playouts(game, seconds: float) -> dict:
    rng = random.Random(0)
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 2), "games_per_s": round(games / elapsed, 1),
            "steps_per_s": round(steps / elapsed), "mean_steps_per_game": round(steps / games, 1)}


def mid_game_state(game):
    rng = random.Random(1)
    state = game.new_state(1)
    for _ in range(30):
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
    parser.add_argument("--mode", default="basic")
    args = parser.parse_args()
    game = load_game("capsule", mode=args.mode)
    result = {"benchmark": "capsule", "mode": args.mode, "random_playout": playouts(game, args.seconds)}
    state = mid_game_state(game)
    clone_us = per_call_us(state.clone, 20_000)
    # deepcopy shares the immutable game (content, board tables) as clone does, to compare like with like
    deepcopy_us = per_call_us(lambda: copy.deepcopy(state, {id(state.game): state.game}), 2_000)
    result["clone_us"] = round(clone_us, 2)
    result["deepcopy_us"] = round(deepcopy_us, 1)
    result["clone_share_of_deepcopy"] = round(clone_us / deepcopy_us, 4)
    tracemalloc.start()
    playouts(game, 1.0)
    result["playout_peak_traced_kib"] = round(tracemalloc.get_traced_memory()[1] / 1024, 1)
    tracemalloc.stop()
    result["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
