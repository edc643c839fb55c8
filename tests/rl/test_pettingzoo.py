"""PettingZoo AEC environments: PettingZoo's own API and seed tests, for every game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl.rl_support import VARIANTS, variant_id

import coliseo
from coliseo.rl import pettingzoo_env


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_pettingzoo_api_test_passes(variant):
    game_id, options = variant
    api_test(pettingzoo_env(game_id, **options), num_cycles=60)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_pettingzoo_seed_test_passes(variant):
    game_id, options = variant
    seed_test(lambda: pettingzoo_env(game_id, **options), num_cycles=30)


def play_to_the_end(env, seed: int) -> dict:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_a_whole_capsule_game_pays_the_winner_and_charges_the_loser():
    env = pettingzoo_env("capsule")
    totals = play_to_the_end(env, seed=4)
    winners = env.state.result["winners"]
    assert len(winners) == 1
    assert totals == {f"player_{p}": (1.0 if p in winners else -1.0) for p in range(2)}


def test_reset_with_the_same_seed_deals_the_same_game():
    env = pettingzoo_env("forbidden")
    env.reset(seed=9)
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=10)
    env.reset(seed=9)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first)


def test_an_illegal_action_is_refused_with_the_legal_ones_listed_and_nothing_changes():
    env = pettingzoo_env("capsule")
    env.reset(seed=1)
    before = env.state.to_json()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    for bad in (illegal, None, "end", 0.5, -1):
        with pytest.raises(ValueError, match="not legal now; legal action indices: 0 \\(end\\)"):
            env.step(bad)
    assert env.state.to_json() == before
    env.step(np.int64(0))  # numpy integers are indices too
    assert env.state.to_json() != before


def test_only_the_agent_to_move_has_legal_actions_in_its_mask():
    env = pettingzoo_env("capsule")
    env.reset(seed=2)
    mover = env.agent_selection
    for agent in env.agents:
        assert env.observe(agent)["action_mask"].any() == (agent == mover)
    assert env.legal_indices() == list(np.flatnonzero(env.observe(mover)["action_mask"]))


def test_options_reach_the_game_and_render_shows_the_spectator_view():
    env = pettingzoo_env("capsule", render_mode="ansi", width=6, height=6)
    env.reset(seed=0)
    assert env.game.options["width"] == 6
    assert env.render() == env.game.render_text(env.state.observation(None))


def test_a_loaded_game_with_options_again_is_an_error():
    with pytest.raises(ValueError, match="already loaded game"):
        pettingzoo_env(coliseo.load_game("capsule"), width=6)


def test_max_steps_truncates_every_agent_and_the_episode_ends():
    env = pettingzoo_env("capsule", max_steps=5)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter(max_iter=100):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))  # not 'end': two passes end the game
        steps += 1
    assert steps == 5 and env.agents == []


def test_each_agent_observes_exactly_the_encoding_of_its_own_view():
    env = pettingzoo_env("fantastiqa", players=3)
    env.reset(seed=5)
    for _ in range(30):
        for agent in env.agents:
            player = int(agent.split("_")[1])
            expected = env.encoder.encode(env.state.observation(player), player)
            assert np.array_equal(env.observe(agent)["observation"], expected)
        env.step(env.legal_indices()[0])
