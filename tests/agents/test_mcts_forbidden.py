"""Forbidden's search helpers: `distinct` drops only plays equivalent to kept ones, and the turn horizon."""

import random

import coliseo
from coliseo.agents import Seat, make_agent
from coliseo.games.forbidden.evaluation import distinct, evaluate

GAME = coliseo.load_game("forbidden")


def after(state, action):
    world = state.clone()
    world.apply(action)
    return world


def test_distinct_drops_only_plays_into_another_empty_zone_of_the_same_row():
    state = GAME.new_state(3)
    legal = state.legal_actions()
    kept = distinct(state, legal)
    assert len(kept) < len(legal) / 2
    assert set(kept) <= set(legal)
    for action in set(legal) - set(kept):
        _, seq, dest, face_down = action
        twin = ("play", seq, 1 if dest <= 5 else 6, face_down)   # the row's first zone, empty at the start
        assert twin in kept
        assert evaluate(after(state, action), 0) == evaluate(after(state, twin), 0)


def test_the_root_ranking_of_distinct_plays_finds_the_best_one_ply_value():
    state = GAME.new_state(5)
    best = max(evaluate(after(state, a), 0) for a in state.legal_actions())
    agent = make_agent("mcts", GAME, seed=1, iterations=10, width=3)
    agent.act(Seat(state, 0, random.Random(0)))
    assert max(evaluate(after(state, a), 0) for a in agent.last.root_actions) == best
