"""Gymnasium environments: Gymnasium's env checker, and one seat played against Coliseo agents."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from rl.rl_support import VARIANTS, variant_id

import coliseo
from coliseo.rl import gymnasium_env, register_gymnasium_envs


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_gymnasium_env_checker_passes_without_warnings(variant):
    game_id, options = variant
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium_env(game_id, opponent="random", **options), skip_render_check=True)
        check_env(gymnasium_env(game_id, opponent="greedy", player=1, **options), skip_render_check=True)
    assert not [str(w.message) for w in caught if "gymnasium" in w.filename or "gym" in str(w.message).lower()]


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_observation_spaces_have_finite_bounds_that_hold_the_observations(game_id):
    env = gymnasium_env(game_id)
    box = env.observation_space["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
    observation, _ = env.reset(seed=2)
    assert box.contains(observation["observation"])
    from coliseo.rl import pettingzoo_env
    pz = pettingzoo_env(game_id)
    assert np.isfinite(pz.observation_space("player_0")["observation"].high).all()


def test_the_action_mask_is_sent_once_per_step():
    env = gymnasium_env("fantastiqa")
    observation, info = env.reset(seed=1)
    assert "action_mask" in observation and "action_mask" not in info
    action = int(np.flatnonzero(observation["action_mask"])[0])
    observation, _, _, _, info = env.step(action)
    assert "action_mask" in observation and "action_mask" not in info


def test_gymnasium_make_builds_every_game_by_its_id():
    import gymnasium as gym

    register_gymnasium_envs()
    env = gym.make("coliseo/capsule-v0", opponent="greedy", player=1)
    observation, _ = env.reset(seed=3)
    assert env.unwrapped.game.id == "capsule" and env.unwrapped.player == 1 and observation["action_mask"].any()


def play_episode(env, seed: int):
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert env.legal_indices() == list(np.flatnonzero(observation["action_mask"]))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return reward, info, steps


@pytest.mark.parametrize("player", [0, 1])
def test_an_episode_against_greedy_ends_with_the_reward_of_the_result(player):
    env = gymnasium_env("capsule", opponent="greedy", player=player)
    reward, info, steps = play_episode(env, seed=player)
    winners = info["result"]["winners"]
    assert reward == (1.0 if player in winners else -1.0 if winners else 0.0)
    assert steps > 10


def test_opponents_fill_every_other_seat_of_a_four_player_game():
    env = gymnasium_env("fantastiqa", players=4, player=2)
    observation, _ = env.reset(seed=3)
    assert env.state.current_player == 2 and set(env.opponents) == {0, 1, 3}
    assert observation["action_mask"].any()


def test_an_illegal_action_loses_the_episode_by_default():
    env = gymnasium_env("capsule")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert "not legal now" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_illegal_action_raises_when_asked_and_changes_nothing():
    env = gymnasium_env("capsule", illegal_action="raise")
    observation, _ = env.reset(seed=0)
    before = env.state.to_json()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="legal action indices"):
        env.step(illegal)
    assert env.state.to_json() == before


def test_the_same_seed_replays_the_same_episode():
    runs = [play_episode(gymnasium_env("forbidden", opponent="greedy"), seed=5) for _ in range(2)]
    assert runs[0][0] == runs[1][0] and runs[0][2] == runs[1][2]


@pytest.mark.parametrize("settings, message", [
    ({"opponent": "nobody"}, "unknown agent 'nobody'"),
    ({"player": 2}, "player must be a seat from 0 to 1"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
    ({"render_mode": "rgb_array"}, "render_mode must be one of"),
])
def test_bad_settings_are_refused_with_a_clear_error(settings, message):
    with pytest.raises((ValueError, coliseo.SetupError), match=message):
        gymnasium_env("capsule", **settings)


def test_render_shows_the_players_own_view():
    env = gymnasium_env("capsule", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == env.game.render_text(env.state.observation(0))


def test_every_game_is_registered_for_gymnasium_make():
    import gymnasium

    assert register_gymnasium_envs() == [f"coliseo/{g}-v0" for g in coliseo.list_games()]
    env = gymnasium.make("coliseo/capsule-v0", opponent="greedy", render_mode="ansi")
    check_env(env.unwrapped)
    observation, _ = env.reset(seed=0)
    assert observation["action_mask"].any()
    assert env.render() == env.unwrapped.game.render_text(env.unwrapped.state.observation(0))


def test_an_mcts_opponent_with_a_budget_plays_through_its_seat():
    env = gymnasium_env("forbidden", opponent="mcts", opponent_settings={"iterations": 10})
    observation, _ = env.reset(seed=2)
    for _ in range(3):
        observation, _, terminated, _, _ = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if terminated:
            break
    assert env.opponents[1].name == "mcts" and env.opponents[1].iterations == 10
    assert env.state.turn > 1, "the opponent never took its turn"
