"""The Fantastiqa evaluation drives play to the Quest Goal."""

import random

from coliseo import load_game
from coliseo.agents.base import Seat, make_agent, play_game
from coliseo.games.fantastiqa.evaluation import evaluate


def test_greedy_self_play_ends_by_the_quest_goal():
    game = load_game("fantastiqa", players=2, max_turns=200)
    reasons = []
    for i in range(5):
        state = game.new_state(300 + i)
        agents = [make_agent("greedy", game, seed=i * 10 + p) for p in range(2)]
        play_game(state, agents, random.Random(i))
        reasons.append(state.result["reason"])
    assert reasons.count("goal_reached") >= 4, reasons


def test_completing_a_quest_is_worth_more_than_anything_else_this_turn():
    game = load_game("fantastiqa", players=2)
    found = 0
    for seed in range(40):
        state, rng = game.new_state(seed), random.Random(seed)
        greedy = make_agent("greedy", game, seed=seed)
        while not state.is_over and state.turn < 60:
            player = state.current_player
            legal = state.legal_actions()
            completes = [a for a in legal if a[0] == "complete"]
            if completes:
                world = Seat(state, player, rng).determinize(rng)
                values = {}
                for action in legal:
                    after = world.clone()
                    after.apply(action)
                    values[action] = greedy.score(after, player)
                best = max(values, key=values.get)
                assert best[0] == "complete", (best, values[best], max(values[a] for a in completes))
                found += 1
                break
            state.apply(rng.choice(legal))
    assert found >= 5


def test_a_quest_within_reach_is_worth_more_than_the_same_quest_far_away():
    game = load_game("fantastiqa", players=2)
    state, rng = game.new_state(4), random.Random(4)
    while state.phase == "draft":
        state.apply(rng.choice(state.legal_actions()))
    player = state.current_player
    quest = state.priv[player][0]
    region = state.regions.index(game.content.quests[quest].region)
    values = {}
    for pos in range(6):
        moved = state.clone()
        moved.pos[player] = pos
        values[pos] = evaluate(moved, player)
    assert values[region] == max(values.values())
    assert values[region] > min(values.values())
