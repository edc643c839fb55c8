"""A learned policy plays as a Coliseo agent: at any seat, against other agents or itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

import coliseo
from coliseo.agents.base import make_agent, play_game
from coliseo.rl import PolicyAgent, gymnasium_env


def last_legal(observation, mask):
    return int(np.flatnonzero(mask)[-1])


def test_a_policy_plays_a_whole_game_against_itself_seeing_only_its_own_view():
    game = coliseo.load_game("forbidden")
    seen = []

    def policy(observation, mask):
        seen.append(observation)
        return last_legal(observation, mask)

    agent = PolicyAgent(game, policy)
    state = game.new_state(seed=4)
    steps = play_game(state, [agent, agent], random.Random(0))
    assert state.is_over and len(seen) == steps
    assert all(vector.shape == (agent.encoder.size,) for vector in seen)


def test_a_policy_is_the_gymnasium_opponent_for_self_play():
    game = coliseo.load_game("capsule")
    env = gymnasium_env(game, opponent=PolicyAgent(game, last_legal))
    observation, _ = env.reset(seed=1)
    terminated = False
    while not terminated:
        observation, _, terminated, _, info = env.step(last_legal(observation["observation"],
                                                                  observation["action_mask"]))
    assert info["result"]["winners"] is not None


def test_a_policy_that_picks_an_illegal_index_is_stopped_with_a_clear_error():
    game = coliseo.load_game("capsule")
    agent = PolicyAgent(game, lambda observation, mask: int(np.flatnonzero(mask == 0)[0]))
    state = game.new_state(seed=0)
    with pytest.raises(ValueError, match="not a legal action index for player 1"):
        play_game(state, [agent, make_agent("random", game)], random.Random(0))
    with pytest.raises(TypeError, match="policy must be a function"):
        PolicyAgent(game, policy="greedy")
