"""`mcts` setting `scale`: how a leaf's evaluation edge becomes a reward."""

import math
import random

import pytest

import coliseo
from coliseo.agents import Seat, make_agent
from coliseo.core.errors import SetupError


def test_a_bad_scale_is_named():
    with pytest.raises(SetupError, match="scale must be 'game' or 'move'"):
        make_agent("mcts", coliseo.load_game("capsule"), seed=0, scale="turn")


def test_scale_move_measures_an_edge_against_this_searchs_leaves():
    agent = make_agent("mcts", coliseo.load_game("capsule"), seed=0, scale="move")
    agent._edges = {}
    # A position far ahead: every edge is near 5000, yet the best leaf stands out by its spread.
    zs = [agent.standardized(0, edge) for edge in (5000.0, 5010.0, 5020.0)]
    assert zs[0] == 0.0
    assert zs[2] == pytest.approx(10.0 / math.sqrt(200.0 / 3.0))
    assert agent.standardized(1, -5000.0) == 0.0   # each player's statistics are its own


def test_scale_move_starts_afresh_at_every_move():
    game = coliseo.load_game("capsule")
    state = game.new_state(2)
    agent = make_agent("mcts", game, seed=1, iterations=30, scale="move")
    for _ in range(2):   # 30 iterations score at most 30 leaves: a second move must not add to the first
        agent.act(Seat(state, state.current_player, random.Random(0)))
        assert 0 < agent._edges[state.current_player][0] <= 30
