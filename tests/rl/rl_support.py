"""Game lists and small helpers for the RL adapter tests."""

from __future__ import annotations

import random

import coliseo

GAMES = coliseo.list_games()
# Game variants the tests also cover: more players where a game allows them.
VARIANTS = [(game_id, {}) for game_id in GAMES] + [("fantastiqa", {"players": 4})]


def variant_id(variant) -> str:
    game_id, options = variant
    return game_id + "".join(f"-{k}{v}" for k, v in options.items())


def random_states(game, seed: int, games: int = 2, max_steps: int = 400, every: int = 7):
    """States met in seeded random play, every `every` actions, ending with the last one."""
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_state(seed=seed * 1000 + g)
        for step in range(max_steps):
            if step % every == 0:
                yield state
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        yield state
