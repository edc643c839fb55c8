"""OpenSpiel Python games: OpenSpiel's random simulation test, its MCTS and IS-MCTS bots, resampling."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from rl.rl_support import GAMES, VARIANTS, variant_id

import coliseo
from coliseo.rl import register_openspiel_games

register_openspiel_games()

# Whole random games where they are quick; a cut at max_game_length (a draw) where they are long.
SIM_PARAMS = {"capsule": {}, "forbidden": {}, "dungeon_dice": {"max_game_length": 120},
              "fantastiqa": {"max_game_length": 120}}


def load(game_id: str, **params):
    return pyspiel.load_game(f"coliseo_{game_id}", params)


def test_every_game_is_registered_under_its_coliseo_name():
    assert register_openspiel_games() == [f"coliseo_{g}" for g in GAMES]
    assert {f"coliseo_{g}" for g in GAMES} <= set(pyspiel.registered_names())


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_openspiel_random_simulation_test_passes(variant):
    game_id, options = variant
    game = load(game_id, **SIM_PARAMS.get(game_id, {"max_game_length": 120}), **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_state_survives_openspiel_serialization(game_id):
    game = load(game_id)
    state = game.new_initial_state()
    state.apply_action(12)
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again_game.get_parameters() == game.get_parameters()
    assert again.coliseo_state.to_json() == state.coliseo_state.to_json()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_whole_capsule_game_returns_follow_its_result(seed):
    game = load("capsule")
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(game.max_chance_outcomes())))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    winners = state.coliseo_state.result["winners"]
    expected = [0.0, 0.0] if len(winners) != 1 else [1.0 if p in winners else -1.0 for p in (0, 1)]
    assert state.returns() == expected


def test_game_options_are_openspiel_parameters():
    game = load("capsule", width=6, height=6, seeds=10)
    assert game.num_distinct_actions() == 1 + 2 * 36 + 2 * 36 * 36 + 3 * 36 * 36 + 6 * 36 + 1   # + placing (R9)
    assert game.max_chance_outcomes() == 10
    assert load("fantastiqa", players=3).num_players() == 3


def test_resampled_state_looks_the_same_to_the_player_and_may_differ_elsewhere():
    game = load("forbidden")
    state = game.new_initial_state()
    state.apply_action(7)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hidden = set()
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        hidden.add(world.information_state_string(1 - player))
    assert len(hidden) > 1, "the opponent's hand was never resampled"


def play_bots(game, bots, chance_seed: int, moves: int) -> int:
    state = game.new_initial_state()
    state.apply_action(chance_seed)
    played = 0
    while not state.is_terminal() and played < moves:
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1
    return played


@pytest.mark.parametrize("game_id", GAMES)
def test_mcts_and_ismcts_bots_play_each_game(game_id):
    game = load(game_id, max_game_length=40)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)]
    if game.num_players() > 2:
        bots += [bots[1]] * (game.num_players() - 2)
    assert play_bots(game, bots, chance_seed=3, moves=8) > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_tensors_and_strings_are_each_players_own_view(game_id):
    import json

    game = load(game_id)
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(0)
    encoder = game.encoder
    for _ in range(25):
        if state.is_terminal():
            break
        inner = state.coliseo_state
        for player in range(game.num_players()):
            view = inner.observation(player)
            tensor = np.asarray(state.observation_tensor(player), np.float32)
            assert np.array_equal(tensor, encoder.encode(view, player))
            assert state.information_state_tensor(player) == state.observation_tensor(player)
            assert json.loads(state.information_state_string(player)) == view
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("params, error, message", [
    ({"width": 2}, coliseo.SetupError, "option 'width' must be at least 4"),
    ({"seeds": 0}, ValueError, "'seeds' and 'max_game_length' must be at least 1"),
    ({"nonsense": 1}, pyspiel.SpielError, "Unknown parameter 'nonsense'"),
])
def test_bad_parameters_are_refused_with_a_clear_error(params, error, message):
    with pytest.raises(error, match=message):
        load("capsule", **params)
