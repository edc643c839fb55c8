"""The Capsule training example: its reading of the action index layout, and one learning step."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np

from coliseo.games.capsule.state import ABILITY, ATTACK, END, MOVE, RECOVER, SUMMON
from coliseo.rl import gymnasium_env

SCRIPT = Path(__file__).parents[2] / "bench" / "train_capsule.py"
spec = importlib.util.spec_from_file_location("train_capsule", SCRIPT)
train_capsule = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train_capsule)

KIND_NAME = {END: "end", SUMMON: "summon", RECOVER: "recover", MOVE: "move", ATTACK: "attack", ABILITY: "ability"}


def test_action_kinds_match_the_kind_of_every_legal_action_met_in_play():
    env = gymnasium_env("capsule")
    game = env.game
    kinds = train_capsule.action_kinds(64, game.num_distinct_actions)
    rng, seen = random.Random(0), set()
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_over:
            for action in state.legal_actions():
                kind = train_capsule.KINDS[kinds[game.action_index(action)]]
                assert kind == KIND_NAME[action[0]], game.format_action(action)
                seen.add(kind)
            state.apply(rng.choice(state.legal_actions()))
    assert seen >= {"end", "summon", "move", "attack"}


def test_a_won_episode_makes_its_actions_more_likely():
    env = gymnasium_env("capsule")
    policy = train_capsule.LinearPolicy(env.encoder.size, train_capsule.action_kinds(64, env.game.num_distinct_actions),
                                        np.random.default_rng(0))
    _, trajectory = train_capsule.play(env, policy, seed=3, greedy=False)
    observation, legal, p, choice = trajectory[0]
    policy.update(trajectory[:1], advantage=1.0, rate=0.5)
    assert policy.probabilities(observation, legal)[choice] > p[choice]
