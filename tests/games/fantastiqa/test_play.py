"""Random play with the §8 invariants, round trips, the leak property, determinism and the golden game."""

import random
from pathlib import Path

import pytest
from contract import check_leak, check_round_trips, compare_golden, golden_playthrough, replay
from games.fantastiqa.helpers import check_invariants, check_no_hidden_ids

from coliseo import load_game
from coliseo.games.fantastiqa.state import ADVENTURE

HERE = Path(__file__).parent

# (players, games, max_turns): short games for breadth, a few full-length ones for the deck running out.
PLANS = [(2, 60, 40), (3, 50, 40), (4, 40, 40), (2, 4, 400), (3, 3, 400), (4, 3, 400)]


def play_checked(game, seed: int, rng: random.Random, sample_every: int = 17) -> list:
    s = game.new_state(seed)
    actions, step, subs = [], 0, 0
    turn_key, used = None, False
    while not s.is_over:
        if (s.turn, s.cur) != turn_key:
            turn_key, used = (s.turn, s.cur), False
            assert all(not pile for pile in s.play)            # §8.7 play areas empty at a turn's start
        legal = s.legal_actions()
        if step % sample_every == 0:
            check_round_trips(game, s)
            check_leak(s, rng)
            check_no_hidden_ids(s)
        a = rng.choice(legal)
        was = s.phase
        if was == "main" and a[0] in ("sub", "draw", "release", "teleport", "complete"):
            assert not used, "two turn actions in one turn"   # §8.8
            used = True
        s.apply(a)
        if used and s.phase == "main" and (s.turn, s.cur) == turn_key:
            raise AssertionError("back in MAIN after the turn action")
        if a[0] == "sub":
            subs = subs + 1 if was == ADVENTURE else 1
        check_invariants(s, subs if s.phase == ADVENTURE else None)
        actions.append(a)
        step += 1
        assert step < 50_000
    check_round_trips(game, s)
    assert s.legal_actions() == [] and s.current_player is None
    return actions


@pytest.mark.parametrize("players,games,max_turns", PLANS)
def test_random_games_keep_every_invariant(players, games, max_turns):
    game = load_game("fantastiqa", players=players, max_turns=max_turns)
    reasons = set()
    for i in range(games):
        rng = random.Random(1000 * players + i)
        actions = play_checked(game, 7 * i + players, rng)
        if i < 3:
            again = replay(game, 7 * i + players, actions)
            first = replay(game, 7 * i + players, actions)
            assert again == first and again.result == first.result
        reasons.add(replay(game, 7 * i + players, actions).result["reason"] if i < 2 else "")
    assert reasons


def test_same_seed_same_game():
    game = load_game("fantastiqa", players=3, max_turns=30)
    a, b = game.new_state(42), game.new_state(42)
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not a.is_over:
        x, y = rng_a.choice(a.legal_actions()), rng_b.choice(b.legal_actions())
        assert x == y
        assert a.apply(x) == b.apply(y)
    assert a == b


def test_variant_options_play_to_the_end():
    for opts in ({"route_rule": "no_repeat_path"}, {"rearrange_effect": "new_hand"}, {"simplified": True},
                 {"goal_check": "gross", "quest_penalty": False}, {"layout": "random", "goal": 3}):
        game = load_game("fantastiqa", players=3, max_turns=40, **opts)
        for i in range(6):
            play_checked(game, i, random.Random(i), sample_every=23)


# (players, max_turns, seed): the 2-player game includes an adventure (sub, stop).
GOLDEN = [(2, 8, 2033), (3, 5, 2029), (4, 6, 2030)]


@pytest.mark.parametrize("players,max_turns,seed", GOLDEN)
def test_golden_playthrough(players, max_turns, seed):
    game = load_game("fantastiqa", players=players, max_turns=max_turns)
    text = golden_playthrough(game, seed=seed, agent_seed=players, max_steps=2000)
    compare_golden(HERE / ("golden.txt" if players == 2 else f"golden_{players}p.txt"), text)


def test_a_determinization_for_another_player_recomputes_the_legal_actions():
    game = load_game("fantastiqa", players=3, max_turns=30)
    rng = random.Random(4)
    for seed in range(5):
        s = game.new_state(seed)
        for _ in range(80):
            if s.is_over:
                break
            s.legal_actions()
            other = (s.cur + 1) % 3
            world = s.determinize(other, rng)
            for a in world.legal_actions():
                if a[0] in ("discard", "commit", "power"):
                    assert a[1] in world.hand[world.cur]
                if a[0] == "sub":
                    assert set(a[2]) <= set(world.hand[world.cur])
            s.apply(rng.choice(s.legal_actions()))
