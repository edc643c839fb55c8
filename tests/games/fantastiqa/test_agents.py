"""The greedy agent plays Fantastiqa and beats the random agent."""

import random

from coliseo import load_game
from coliseo.agents.base import Seat, make_agent
from coliseo.games.fantastiqa.evaluation import evaluate


def test_greedy_beats_random_in_two_player_games():
    game = load_game("fantastiqa", players=2, max_turns=200)
    greedy_wins = 0
    for i in range(4):
        s = game.new_state(100 + i)
        seat_of_greedy = i % 2
        agents = [make_agent("greedy" if p == seat_of_greedy else "random", game, seed=i * 10 + p) for p in range(2)]
        rng = random.Random(i)
        while not s.is_over:
            p = s.current_player
            s.apply(agents[p].act(Seat(s, p, rng)))
        greedy_wins += s.result["winners"] == [seat_of_greedy]
    assert greedy_wins >= 3


def test_evaluation_ignores_opponents_hidden_cards():
    game = load_game("fantastiqa", players=3, max_turns=30)
    s, rng = game.new_state(9), random.Random(9)
    for _ in range(120):
        s.apply(rng.choice(s.legal_actions()))
    for player in range(3):
        base = evaluate(s, player)
        for k in range(5):
            assert evaluate(s.determinize(player, random.Random(k)), player) == base
