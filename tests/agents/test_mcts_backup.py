"""`mcts` setting `backup`: a run of one player's actions is judged by its best continuation."""

import random

import pytest

import coliseo
from coliseo.agents import Seat, make_agent
from coliseo.agents.mcts import Node
from coliseo.core.errors import SetupError


def node(mover, visits, reward, **children):
    n = Node(mover)
    n.visits, n.reward, n.children = visits, reward, children
    return n


def agent(backup):
    return make_agent("mcts", coliseo.load_game("capsule"), seed=0, backup=backup)


def test_a_bad_backup_is_named():
    with pytest.raises(SetupError, match="backup must be 'mean' or 'best'"):
        agent("max")


def test_best_follows_the_most_visited_continuation_of_the_same_player():
    # Player 0 acts, then acts again: the good continuation (tried 3 times, 0.9) is the plan's worth,
    # not the average dragged down by a poor one tried once.
    plan = node(0, 4, 2.7, good=node(0, 3, 2.7, deeper=node(0, 2, 1.9)), poor=node(0, 1, 0.0))
    assert agent("mean").value_of(plan) == pytest.approx(2.7 / 4)
    assert agent("best").value_of(plan) == pytest.approx(1.9 / 2)   # followed down the chain


def test_best_keeps_the_mean_where_another_player_moves_next_or_nothing_was_tried_twice():
    reply = node(0, 4, 2.0, answer=node(1, 3, 0.3))
    assert agent("best").value_of(reply) == pytest.approx(0.5)
    once = node(0, 2, 1.0, only=node(0, 1, 1.0))
    assert agent("best").value_of(once) == pytest.approx(0.5)


def test_best_backup_plays_a_legal_move_in_every_game():
    for game_id in coliseo.list_games():
        game = coliseo.load_game(game_id)
        state = game.new_state(3)
        seat = Seat(state, state.current_player, random.Random(1))
        mover = make_agent("mcts", game, seed=2, iterations=20, depth=2, backup="best")
        assert mover.act(seat) in state.legal_actions()
