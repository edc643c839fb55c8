"""Measurements every game's benchmark makes: random playouts, clone against deepcopy, memory.

Each bench script imports this (run the scripts from the repository root or from bench/).
"""

from __future__ import annotations

import copy
import random
import resource
import time
import tracemalloc


def playouts(game, seconds: float, setup=None, seed: int = 0) -> dict:
    """Random playouts on one core for about `seconds`: games/s, steps/s and mean length."""
    rng = random.Random(seed)
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed + games, setup)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "steps": steps, "seconds": round(elapsed, 2), "games_per_s": round(games / elapsed, 1),
            "steps_per_s": round(steps / elapsed), "mean_steps_per_game": round(steps / games, 1)}


def mid_game_state(game, actions: int = 30, setup=None):
    rng = random.Random(1)
    state = game.new_state(1, setup)
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


def clone_cost(state) -> dict:
    """clone() against copy.deepcopy of the same state; the immutable game is shared by both, like for like."""
    clone_us = per_call_us(state.clone, 20_000)
    deepcopy_us = per_call_us(lambda: copy.deepcopy(state, {id(state.game): state.game}), 2_000)
    return {"clone_us": round(clone_us, 2), "deepcopy_us": round(deepcopy_us, 1),
            "clone_share_of_deepcopy": round(clone_us / deepcopy_us, 4)}


def memory(game, setup=None) -> dict:
    tracemalloc.start()
    playouts(game, 1.0, setup)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"playout_peak_traced_kib": round(peak / 1024, 1),
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}
