"""The value fit: self-play positions at each change of the player to act, and a logistic model of who wins."""

import argparse
import math
import random

import pytest

from coliseo.agents.value_fit import fit, game_indices, log_loss, main, positions
from coliseo.games.dungeon_dice import evaluation as dungeon_dice


def synthetic_games(weights, count, rng):
    """Games of one position, whose winner follows a logistic model of its features."""
    games = []
    for _ in range(count):
        row = [rng.gauss(0, 1) for _ in weights]
        logit = sum(w * x for w, x in zip(weights, row))
        games.append(([row], int(rng.random() < 1 / (1 + math.exp(-logit)))))
    return games


def test_the_fit_recovers_the_weights_that_made_the_outcomes():
    rng = random.Random(3)
    games = synthetic_games([1.5, -0.8, 0.0], 6000, rng)
    fitted = fit(games)
    assert fitted[0] == pytest.approx(1.5, abs=0.2)
    assert fitted[1] == pytest.approx(-0.8, abs=0.2)
    assert abs(fitted[2]) < 0.15
    assert log_loss(games, fitted)["log_loss"] < log_loss(games, [0.0, 0.0, 0.0])["log_loss"]


def test_a_self_play_game_gives_its_positions_and_winner():
    rows, won = positions(("dungeon_dice", "random", 5, 0))
    assert won in (0, 1, None)
    assert len(rows) > 10 and {len(row) for row in rows} == {len(dungeon_dice.FEATURES)}


def test_a_game_without_features_is_refused():
    with pytest.raises(SystemExit, match="capsule's evaluation has no features"):
        main(["capsule", "--games", "1"])


def test_games_are_a_count_or_ranges_and_anything_else_is_refused_by_name():
    assert game_indices("3") == [0, 1, 2]
    assert game_indices("5-6,10-10") == [5, 6, 10]
    for bad in ("6-5", "a-b", "1,2", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="neither a number of games nor ranges"):
            game_indices(bad)


def test_the_chance_fit_reads_player_0s_edge_as_the_search_does():
    rows, won = positions(("capsule", "greedy", 5, 0, "edge"))
    assert won in (0, 1) and len(rows) > 5 and {len(row) for row in rows} == {1}
    assert any(row[0] != 0 for row in rows)
