"""Encoders: fixed size, numeric, and blind to what the player may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rl.rl_support import VARIANTS, random_states, variant_id

import coliseo
from coliseo.rl.encoding import HashedEncoder, encoder_for


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_encoding_is_fixed_size_finite_and_follows_the_game(variant):
    game_id, options = variant
    game = coliseo.load_game(game_id, **options)
    encoder = encoder_for(game)
    seen = set()
    for state in random_states(game, seed=3):
        for player in state.players:
            vector = encoder.encode(state.observation(player), player)
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            assert np.isfinite(vector).all()
            seen.add(vector.tobytes())
    assert len(seen) > 5, "the encoding hardly changes while the game is played"


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_encoded_observation_is_the_same_for_every_determinization(variant):
    game_id, options = variant
    game = coliseo.load_game(game_id, **options)
    encoder = encoder_for(game)
    rng = random.Random(11)
    for state in random_states(game, seed=5, every=5):
        for player in state.players:
            real = encoder.encode(state.observation(player), player)
            for _ in range(2):
                world = state.determinize(player, rng)
                assert np.array_equal(encoder.encode(world.observation(player), player), real), \
                    f"{game_id}: player {player}'s encoding changes under determinize at turn {state.turn}"


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_every_game_has_its_own_encoder(game_id):
    assert not isinstance(encoder_for(coliseo.load_game(game_id)), HashedEncoder)


def test_the_two_players_of_a_capsule_game_see_different_encodings():
    # Each player knows their own capsules' monsters, not the opponent's.
    game = coliseo.load_game("capsule")
    encoder = encoder_for(game)
    state = game.new_state(seed=1)
    first, second = (encoder.encode(state.observation(p), p) for p in (0, 1))
    assert not np.array_equal(first, second)


def test_hashed_encoder_reads_any_json_observation():
    game = coliseo.load_game("capsule")
    encoder = HashedEncoder(game)
    one = encoder.encode({"a": [1, 2], "b": {"c": "x"}}, 0)
    other = encoder.encode({"a": [1, 2], "b": {"c": "y"}}, 0)
    assert one.shape == (encoder.size,) and not np.array_equal(one, other)
