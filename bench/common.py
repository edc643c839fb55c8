"""Measurements every game's benchmark makes: random playouts, clone against deepcopy, memory.

The bench scripts import this module (run them as `python bench/bench_<game>.py`). Rates are given in
wall-clock and in CPU time: on a shared machine the wall clock also counts other processes' time.
"""

from __future__ import annotations

import copy
import random
import resource
import time
import tracemalloc


def playouts(game, seconds: float, setup_for=None, max_games: int | None = None, seed: int = 0) -> dict:
    """Random playouts on one core for about `seconds` (or `max_games`); setup_for(rng) gives each setup."""
    rng = random.Random(seed)
    games = steps = 0
    reasons: dict[str, int] = {}
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds and (max_games is None or games < max_games):
        state = game.new_state(seed + games, setup_for(rng) if setup_for else None)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
        reasons[state.result["reason"]] = reasons.get(state.result["reason"], 0) + 1
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 2), "cpu_seconds": round(cpu, 2),
            "games_per_s": round(games / elapsed, 2), "steps_per_s": round(steps / elapsed),
            "games_per_cpu_s": round(games / cpu, 2), "steps_per_cpu_s": round(steps / cpu),
            "mean_steps_per_game": round(steps / games, 1), "end_reasons": reasons}


def mid_game_state(game, actions: int = 30, setup=None, seed: int = 1):
    rng = random.Random(seed)
    state = game.new_state(seed, setup)
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def per_call_us(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat * 1e6


def clone_cost(state, *shared) -> dict:
    """clone() against copy.deepcopy of the same state; the immutable game (and any `shared` object, such as
    loaded content) is shared by both, to compare like with like."""
    memo = {id(obj): obj for obj in (state.game, *shared)}
    clone_us = per_call_us(state.clone, 20_000)
    deepcopy_us = per_call_us(lambda: copy.deepcopy(state, dict(memo)), 1_000)
    return {"clone_us": round(clone_us, 2), "deepcopy_us": round(deepcopy_us, 1),
            "clone_share_of_deepcopy": round(clone_us / deepcopy_us, 4)}


def memory(game, setup=None) -> dict:
    """Peak traced memory of one second of playouts, and the process's peak RSS."""
    tracemalloc.start()
    playouts(game, 1.0, (lambda rng: setup) if setup else None)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"playout_peak_traced_kib": round(peak / 1024, 1),
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
