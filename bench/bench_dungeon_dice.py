"""Dungeon Dice benchmark (one core): random playouts, clone time, placement enumeration, peak memory.

Prints JSON. Never asserts time. Rates use the process's CPU time (`time.process_time`), so a machine
shared with other jobs does not halve them.   python bench/bench_dungeon_dice.py [seconds]
"""

import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import playouts  # noqa: E402

from coliseo import load_game  # noqa: E402


def sample_states(game, n: int) -> list:
    rng = random.Random(5)
    out = []
    state = game.new_state(5)
    while len(out) < n:
        if state.is_over:
            state = game.new_state(rng.randrange(10**6))
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return out[::7]


def clone_us(states) -> float:
    t0 = time.process_time()
    reps = 0
    while time.process_time() - t0 < 1.0:
        for s in states:
            s.clone()
        reps += len(states)
    return round((time.process_time() - t0) / reps * 1e6, 2)


def placements_per_s(states) -> dict:
    calls = found = 0
    t0 = time.process_time()
    while time.process_time() - t0 < 1.5:
        for s in states:
            for p in (0, 1):
                found += len(s.placements(p))
                calls += 1
    dt = time.process_time() - t0
    return {"enumerations_per_s": round(calls / dt), "placements_per_s": round(found / dt),
            "mean_placements": round(found / calls, 1)}


def main(seconds: float = 10.0) -> dict:
    game = load_game("dungeon_dice")
    result = {"game": "dungeon_dice", "python": sys.version.split()[0]}
    result["random_playout"] = playouts(game, seconds)
    short = load_game("dungeon_dice", max_turns=40)
    result["random_playout_40_turns"] = playouts(short, seconds / 2)
    states = sample_states(game, 3000)
    result["clone_us"] = clone_us(states)
    result["legal_placements"] = placements_per_s(states)
    t0 = time.process_time()
    for s in states:
        s._legal = None
        s.legal_actions()
    result["legal_actions_us"] = round((time.process_time() - t0) / len(states) * 1e6, 1)
    tracemalloc.start()
    g2 = load_game("dungeon_dice")
    s = g2.new_state(1)
    rng = random.Random(1)
    kept = []
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        kept.append(s.clone()) if len(kept) < 100 else None
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    result["peak_memory_kb_one_game_plus_100_clones"] = round(peak / 1024)
    return result


if __name__ == "__main__":
    print(json.dumps(main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0), indent=2))
