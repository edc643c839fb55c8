"""Forbidden duel benchmark: random playouts (starter pack and, when imported, the full `fm` pack),
200 random duels with random 722-card decks, fusion resolutions per second, clone cost, peak memory.

Usage: python bench/bench_forbidden.py [--seconds 10] [--full-pack fm]; prints one JSON object.
The full pack is imported beforehand with `coliseo content import forbidden --ygofm DIR`
(the bench imports it into a temporary COLISEO_HOME when it is missing and the data is found).
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import clone_cost, memory, mid_game_state, per_call_us, playouts  # noqa: E402

from coliseo import load_game  # noqa: E402


def fusion_rate(pack, seconds: float = 2.0) -> dict:
    """Fusion resolutions (R37 lookups, uncached) per second over random card pairs."""
    ids = sorted(pack.cards)
    rng = random.Random(3)
    pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(20_000)]
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a, b in pairs:
            pack._fuse(a, b)
        n += len(pairs)
    elapsed = time.perf_counter() - start
    cached_start = time.perf_counter()
    for a, b in pairs:
        pack.fuse(a, b)
    for a, b in pairs:
        pack.fuse(a, b)
    cached = 2 * len(pairs) / (time.perf_counter() - cached_start)
    return {"resolutions_per_s": round(n / elapsed), "cached_per_s": round(cached)}


def legal_plays_us(game) -> float:
    state = game.new_state(5)
    assert state.phase == "main"

    def fresh():
        state._legal = None
        state.legal_actions()
    return round(per_call_us(fresh, 500), 1)


def full_pack(name: str):
    try:
        return load_game("forbidden", pack=name)
    except ValueError:
        from coliseo.games.forbidden.importer import default_data_dir, import_ygofm
        data = default_data_dir()
        if not (data / "cardinfo.json").is_file():
            return None
        os.environ["COLISEO_HOME"] = tempfile.mkdtemp(prefix="coliseo_bench_")
        import_ygofm(data, name)
        return load_game("forbidden", pack=name)


def random_deck(pack):
    ids = sorted(pack.cards)

    def make(rng):
        decks = []
        for _ in range(2):
            counts, deck = {}, []
            while len(deck) < 40:
                c = rng.choice(ids)
                if counts.get(c, 0) < 3:
                    counts[c] = counts.get(c, 0) + 1
                    deck.append(c)
            decks.append(deck)
        return {"decks": decks}
    return make


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--full-pack", default="fm")
    args = parser.parse_args()
    game = load_game("forbidden")
    result = {"benchmark": "forbidden", "starter": {"random_playout": playouts(game, args.seconds),
                                                   "fusion": fusion_rate(game.pack),
                                                   "legal_plays_us": legal_plays_us(game)}}
    state = mid_game_state(game, 25)
    result.update(clone_cost(state, state.pack))
    rng = random.Random(2)
    result["determinize_us"] = round(per_call_us(lambda: state.determinize(0, rng), 5_000), 1)
    fm = full_pack(args.full_pack)
    if fm is not None:
        result["full"] = {"random_playout": playouts(fm, args.seconds),
                          "random_722_card_decks_200_duels": playouts(fm, 3600, random_deck(fm.pack), 200),
                          "fusion": fusion_rate(fm.pack), "legal_plays_us": legal_plays_us(fm)}
    else:
        result["full"] = "not run: import the fm pack or set COLISEO_YGOFM_DATA"
    result.update(memory(game))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
