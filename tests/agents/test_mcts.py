"""The `mcts` agent: seeded, legal for every game, per-player rewards, clear errors for bad settings."""

import math
import random

import pytest

import coliseo
from coliseo.agents import Seat, make_agent, play_game
from coliseo.agents.mcts import Search, outcome
from coliseo.core.errors import SetupError
from coliseo.games.capsule.evaluation import CHANCE, evaluate


def midgame(game, seed: int, steps: int):
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_same_seed_gives_the_same_move():
    game = coliseo.load_game("capsule")
    state = midgame(game, 3, 12)
    moves = set()
    for _ in range(2):
        agent = make_agent("mcts", game, seed=11, iterations=60)
        moves.add(agent.act(Seat(state, state.current_player, random.Random(5))))
    assert len(moves) == 1


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_mcts_plays_a_legal_move_in_every_game(game_id):
    game = coliseo.load_game(game_id)
    state = game.new_state(1)
    rng = random.Random(1)
    for rollout in ("random", "greedy"):
        for _ in range(3):
            if state.is_over:
                break
            seat = Seat(state, state.current_player, rng)
            action = make_agent("mcts", game, seed=2, iterations=15, depth=3, rollout=rollout).act(seat)
            assert action in state.legal_actions()
            state.apply(action)


def test_mcts_with_a_time_budget_searches_at_least_once():
    game = coliseo.load_game("capsule")
    state = midgame(game, 4, 6)
    agent = make_agent("mcts", game, seed=1, ms=5)
    assert agent.act(Seat(state, state.current_player, random.Random(0))) in state.legal_actions()
    assert agent.last.done >= 1


def test_mcts_beats_random_in_capsule():
    game = coliseo.load_game("capsule")
    wins = 0
    for i in range(4):
        names = ["mcts", "random"] if i % 2 == 0 else ["random", "mcts"]
        agents = [make_agent(n, game, seed=i, **({"iterations": 40, "depth": 4} if n == "mcts" else {}))
                  for n in names]
        state = game.new_state(100 + i)
        play_game(state, agents, random.Random(i))
        wins += names.index("mcts") in state.result["winners"]
    assert wins == 4


def test_three_player_fantastiqa_search_returns_a_legal_move():
    game = coliseo.load_game("fantastiqa", players=3)
    state = midgame(game, 5, 10)
    seat = Seat(state, state.current_player, random.Random(3))
    assert make_agent("mcts", game, seed=0, iterations=20, depth=2).act(seat) in state.legal_actions()


def test_outcome_rewards_each_player():
    game = coliseo.load_game("capsule")
    state = game.new_state(0)
    rng = random.Random(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    rewards = outcome(state)
    winners = state.result["winners"]
    assert sum(rewards.values()) == pytest.approx(1.0)
    for p in state.players:
        if winners:
            assert rewards[p] == (1.0 / len(winners) if p in winners else 0.0)


@pytest.mark.parametrize("settings, words", [
    ({"budget": 3}, "no setting budget"),
    ({"iterations": 0}, "iterations must be positive"),
    ({"rollout": "smart"}, "rollout must be 'random' or 'greedy'"),
    ({"depth": -1}, "depth must be 0 or more"),
    ({"evaluations": 0}, "evaluations must be positive"),
    ({"horizon": "round"}, "horizon must be 'game', 'turn' or 'reply'"),
    ({"scale": "turn"}, "scale must be 'game', 'move' or 'chance'"),
    ({"backup": "max"}, "backup must be 'mean' or 'best'"),
    ({"iterations": "many"}, "mcts setting iterations must be a whole number"),
])
def test_bad_settings_are_named(settings, words):
    with pytest.raises(SetupError, match=words):
        make_agent("mcts", coliseo.load_game("capsule"), seed=0, **settings)


def test_a_wide_root_is_narrowed_to_the_best_looking_actions():
    game = coliseo.load_game("forbidden")
    state = game.new_state(3)
    assert len(state.legal_actions()) > 100
    agent = make_agent("mcts", game, seed=1, iterations=30, depth=2, width=5)
    action = agent.act(Seat(state, state.current_player, random.Random(2)))
    assert len(agent.last.root_actions) == 5 and action in agent.last.root_actions


@pytest.mark.parametrize("horizon, scored_with_to_move", [
    ("turn", {"opponent"}),      # the tree and rollouts stop when the mover's turn has passed
    ("reply", {"mover"}),        # the rollout plays the opponent's turn and stops when the mover is back
    ("game", {"mover", "opponent"}),
])
def test_the_horizon_decides_where_positions_are_scored(horizon, scored_with_to_move):
    game = coliseo.load_game("forbidden")
    state = game.new_state(3)
    mover = state.current_player
    agent = make_agent("mcts", game, seed=1, iterations=40, depth=300 if horizon == "reply" else 30, width=10_000,
                       rollout="random", horizon=horizon)
    to_move = set()
    evaluate = agent.evaluate

    def recording(world, player):
        to_move.add("mover" if world.current_player == mover else "opponent")
        return evaluate(world, player)

    agent.evaluate = recording
    assert agent.act(Seat(state, mover, random.Random(2))) in state.legal_actions()
    assert to_move == scored_with_to_move


def test_an_evaluation_budget_stops_the_search_the_same_way_every_time():
    game = coliseo.load_game("capsule")
    state = midgame(game, 4, 6)
    runs = []
    for _ in range(2):
        agent = make_agent("mcts", game, seed=3, iterations=10_000, evaluations=300, depth=4)
        action = agent.act(Seat(state, state.current_player, random.Random(1)))
        runs.append((action, agent.last.done))
        assert 300 <= agent.last.spent < 300 + 10 * len(state.legal_actions())
    assert runs[0] == runs[1] and runs[0][1] < 10_000


def test_scale_chance_scores_a_leaf_by_the_logistic_of_its_edge():
    game = coliseo.load_game("capsule")
    state = midgame(game, 6, 20)
    agent = make_agent("mcts", game, seed=0, iterations=5, scale="chance")
    search = Search(agent, Seat(state, state.current_player, random.Random(0)))
    edge = evaluate(state, 0) - evaluate(state, 1)
    rewards = search.heuristic(state)
    assert rewards[0] == pytest.approx(1 / (1 + math.exp(-edge * CHANCE)))
    assert rewards[0] + rewards[1] == pytest.approx(1.0)


def test_a_setting_given_as_none_is_unset_even_where_the_game_sets_it():
    game = coliseo.load_game("forbidden")
    assert make_agent("mcts", game, seed=0).evaluations == 3000
    assert make_agent("mcts", game, seed=0, evaluations=None).evaluations is None
