"""A seat gives an agent its player's view only: no path to the real state, its hidden cards or its RNG."""

import gc
import random

import coliseo
from coliseo.agents import Seat


def reachable(root, depth: int = 4) -> list:
    seen, frontier = [], [root]
    for _ in range(depth):
        following = []
        for obj in frontier:
            for ref in gc.get_referents(obj):
                if isinstance(ref, type) or any(ref is s for s in seen):
                    continue
                seen.append(ref)
                following.append(ref)
        frontier = following
    return seen


def test_a_seat_holds_no_reference_to_the_real_state_or_its_rng():
    game = coliseo.load_game("capsule")
    state = game.new_state(8)
    rng = random.Random(0)
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    seat = Seat(state, state.current_player, random.Random(1))
    objects = reachable(seat)
    assert not any(obj is state for obj in objects)
    assert not any(obj is state.rng for obj in objects)


def test_what_a_seat_samples_keeps_the_view_but_redraws_hidden_capsules():
    game = coliseo.load_game("capsule")
    state = game.new_state(8)
    player = state.current_player
    differs = 0
    for seed in range(10):
        world = Seat(state, player, random.Random(seed)).determinize(random.Random(seed + 100))
        assert world.observation(player) == state.observation(player)
        assert world.rng.state != state.rng.state
        differs += {**world.to_json(), "rng": 0} != {**state.to_json(), "rng": 0}
    assert differs > 0
