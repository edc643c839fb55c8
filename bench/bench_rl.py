"""RL adapters benchmark: environment steps/s per game for PettingZoo, Gymnasium and OpenSpiel.

Usage: python bench/bench_rl.py [--seconds 3] [--games capsule,forbidden]; prints one JSON object.
Every run plays uniformly random legal actions on one core. For each game (and Fantastiqa with 4
players): the sizes (actions, observation vector); microseconds to encode one observation, to build
one action mask, and to find the legal indices in it (np.flatnonzero: a learner's cost, large for
large action spaces, so the env loops below pick from the legal indices directly); steps/s of the
engine alone, the PettingZoo AEC env (every step of every agent), the Gymnasium env (the learner's
steps, the `random` opponents' moves included in the time) and the OpenSpiel game (apply_action
plus the acting player's observation tensor); and the simulations/s of OpenSpiel's Python IS-MCTS
bot (random rollouts to the end of the game) from an early position. With --ismcts-games N, also
N Capsule games of that bot against OpenSpiel's uniform random bot (win rate with a 95% interval).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

import coliseo
from coliseo.rl import gymnasium_env, pettingzoo_env, register_openspiel_games
from coliseo.rl.common import action_mask
from coliseo.rl.encoding import encoder_for


def rate(count: int, start: float) -> float:
    return round(count / (time.perf_counter() - start), 1)


def engine(game, seconds: float) -> float:
    rng, steps, start = random.Random(0), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=steps)
        while not state.is_over and time.perf_counter() - start < seconds:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return rate(steps, start)


def encoding_costs(game, samples: int = 200) -> dict:
    encoder, rng = encoder_for(game), random.Random(1)
    states, state = [], game.new_state(seed=1)
    while len(states) < samples:
        if state.is_over:
            state = game.new_state(seed=len(states))
        states.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    start = time.perf_counter()
    for s in states:
        encoder.encode(s.observation(s.players[0]), s.players[0])
    encode_us = (time.perf_counter() - start) / samples * 1e6
    start = time.perf_counter()
    masks = [action_mask(s) for s in states]
    mask_us = (time.perf_counter() - start) / samples * 1e6
    start = time.perf_counter()
    for mask in masks:
        np.flatnonzero(mask)
    scan_us = (time.perf_counter() - start) / samples * 1e6
    return {"observation_size": encoder.size, "encode_us": round(encode_us), "mask_us": round(mask_us),
            "mask_scan_us": round(scan_us)}


def pettingzoo_steps(game_id: str, options: dict, seconds: float) -> float:
    env, rng, steps = pettingzoo_env(game_id, **options), np.random.default_rng(0), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=steps)
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            action = None if termination or truncation else int(rng.choice(env.legal_indices()))
            env.step(action)
            steps += 1
            if time.perf_counter() - start >= seconds:
                break
    return rate(steps, start)


def gymnasium_steps(game_id: str, options: dict, seconds: float) -> float:
    env, rng, steps = gymnasium_env(game_id, opponent="random", **options), np.random.default_rng(0), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _ = env.reset(seed=steps)
        done = False
        while not done and time.perf_counter() - start < seconds:
            action = int(rng.choice(env.legal_indices()))
            observation, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            steps += 1
    return rate(steps, start)


def openspiel_steps(game_id: str, options: dict, seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game(f"coliseo_{game_id}", options)
    rng, steps = np.random.default_rng(0), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        state.apply_action(int(rng.integers(game.max_chance_outcomes())))
        while not state.is_terminal() and time.perf_counter() - start < seconds:
            state.observation_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
    return rate(steps, start)


def ismcts_simulations(game_id: str, options: dict, simulations: int) -> float:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"coliseo_{game_id}", options)
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    state.apply_action(1)
    for _ in range(10):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng)
    start = time.perf_counter()
    bot.step(state)
    return rate(simulations, start)


def ismcts_against_random(game_id: str, options: dict, games: int, simulations: int) -> dict:
    """OpenSpiel's IS-MCTS against its uniform random bot, seats alternating: a check that search and
    returns agree, with a 95% Wilson interval on the win rate."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(f"coliseo_{game_id}", options)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng)
    wins = draws = 0
    start = time.perf_counter()
    for g in range(games):
        seat = g % game.num_players()
        bots = [pyspiel.make_uniform_random_bot(p, g) for p in range(game.num_players())]
        bots[seat] = bot
        state = game.new_initial_state()
        state.apply_action(g)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        wins += returns[seat] > 0
        draws += returns[seat] == 0
    n, p, z = games, wins / games, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return {"game": game_id, "simulations": simulations, "games": games, "wins": wins, "draws": draws,
            "win_rate": round(p, 3), "win_rate_95": [round(centre - half, 3), round(centre + half, 3)],
            "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description="RL adapters: environment steps/s per game")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--ismcts-simulations", type=int, default=20, help="IS-MCTS budget measured")
    parser.add_argument("--ismcts-games", type=int, default=0,
                        help="also play this many Capsule games of IS-MCTS against random (slow)")
    parser.add_argument("--games", default=",".join(coliseo.list_games()), help="comma-separated game ids")
    args = parser.parse_args()
    register_openspiel_games()
    variants = [(g, {}) for g in args.games.split(",")]
    if "fantastiqa" in args.games:
        variants.append(("fantastiqa", {"players": 4}))
    results = []
    for game_id, options in variants:
        game = coliseo.load_game(game_id, **options)
        results.append({
            "game": game_id, "options": options, "num_distinct_actions": game.num_distinct_actions,
            **encoding_costs(game),
            "engine_steps_per_s": engine(game, args.seconds),
            "pettingzoo_steps_per_s": pettingzoo_steps(game_id, options, args.seconds),
            "gymnasium_agent_steps_per_s": gymnasium_steps(game_id, options, args.seconds),
            "openspiel_steps_per_s": openspiel_steps(game_id, options, args.seconds),
            "openspiel_ismcts_simulations_per_s": ismcts_simulations(game_id, options, args.ismcts_simulations),
        })
    report = {"benchmark": "rl", "seconds_each": args.seconds, "results": results}
    if args.ismcts_games:
        report["ismcts_against_random"] = ismcts_against_random("capsule", {}, args.ismcts_games,
                                                               args.ismcts_simulations)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
