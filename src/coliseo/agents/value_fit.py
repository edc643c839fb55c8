"""Fit a game's `value` weights: a logistic model of the win chance on its evaluation's FEATURES, from self-play;
or, with --chance, its CHANCE: the win chance of the search's edge, one weight.

    python -m coliseo.agents.value_fit dungeon_dice --games 0-236,10000-10237 --seed 777 --workers 2
    python -m coliseo.agents.value_fit capsule --chance --games 400 --workers 2

Plays the games with `--agent` in every seat (game i seeded from (seed, i), so the same whatever `--workers`),
records `features(state, 0)` wherever the player to act changes (the positions where a search that plans the
mover's turn stops), labelled with whether player 0 won (drawn games are left out). It fits on the first three
quarters of the games and prints, as JSON, how well the fitted weights and the hand weights (HAND, at their best
scale) predict the last quarter; then it fits on all the games and prints the weights for the module's FITTED.
With --chance the one feature is the edge of player 0 as `mcts` measures it (its `value`, else its evaluation,
minus the other players' mean), and the weight is the module's CHANCE: the logit of the win per point of edge,
by which `mcts:scale=chance` (and the analysis of games) turns an edge into a chance to win.
Needs numpy (the `rl` extra).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from multiprocessing import Pool

from coliseo.agents import Seat, make_agent
from coliseo.agents.greedy import evaluation_module
from coliseo.agents.mcts import edges_of
from coliseo.core.registry import load_game
from coliseo.core.rng import seed_from


def positions(job: tuple) -> tuple[list, int | None]:
    """One self-play game: the features at each change of the player to act, and player 0's win (1/0; None if
    drawn). `job`: (game, agent, seed, index), and "edge" to read player 0's edge instead of the features."""
    game_id, agent, seed, index, *reading = job
    game = load_game(game_id)
    module = evaluation_module(game_id)
    features = (lambda state, player: [edge(module, state, player)]) if reading == ["edge"] else module.features
    state = game.new_state(seed_from(seed, index))
    agents = [make_agent(agent, game, seed_from(seed, index, "agent", p)) for p in state.players]
    rng = random.Random(seed_from(seed, index, "seats"))
    rows, last = [], None
    while not state.is_over:
        player = state.current_player
        if last is not None and player != last:
            rows.append(features(state, 0))
        state.apply(agents[player].act(Seat(state, player, rng)))
        last = player
    winners = state.result["winners"]
    return rows, (int(winners == [0]) if len(winners) == 1 else None)


def edge(module, state, player: int) -> float:
    """`player`'s edge as `mcts` scores a leaf: its value minus the mean of the other players'."""
    score = getattr(module, "value", module.evaluate)
    return edges_of({p: score(state, p) for p in state.players})[player]


def fit(games: list, ridge: float = 1e-3):
    """Logistic regression without intercept (the features are differences) by Newton's method; each game
    weighs the same whatever its length. `games`: (rows, won) pairs."""
    import numpy as np

    x, y, w = design(games)
    scale = x.std(0) + 1e-9
    z = x / scale
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(z @ beta, -30, 30)))
        gradient = z.T @ (w * (p - y)) + ridge * beta
        hessian = (z * (w * p * (1 - p))[:, None]).T @ z + ridge * np.eye(len(beta))
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    return beta / scale


def design(games: list):
    import numpy as np

    x = [row for rows, _ in games for row in rows]
    y = [won for rows, won in games for _ in rows]
    w = [1.0 / len(rows) for rows, _ in games for _ in rows]
    return np.array(x, float), np.array(y, float), np.array(w)


def log_loss(games: list, weights) -> dict:
    """Mean log loss and accuracy (each game weighing the same) of the model `weights` on `games`."""
    import numpy as np

    x, y, w = design(games)
    p = 1 / (1 + np.exp(-np.clip(x @ np.asarray(weights), -30, 30)))
    loss = -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum() / w.sum()
    accuracy = (w * ((p > 0.5) == (y > 0.5))).sum() / w.sum()
    return {"log_loss": round(float(loss), 4), "accuracy": round(float(accuracy), 4)}


def game_indices(text: str) -> list[int]:
    """"400" is games 0-399; "0-99,500-599" the ranges given, ends included."""
    try:
        if text.isdigit():
            return list(range(int(text)))
        indices = []
        for part in text.split(","):
            first, last = (int(x) for x in part.split("-"))
            if last < first:
                raise ValueError
            indices.extend(range(first, last + 1))
        return indices
    except ValueError:
        message = f"{text!r} is neither a number of games nor ranges such as 0-99,500-599"
        raise argparse.ArgumentTypeError(message) from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=game_indices, default="400",
                        help="how many games (N: games 0 to N-1), or which: ranges of game indices, as 0-99,500-599")
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chance", action="store_true", help="fit the module's CHANCE, not its value's weights")
    args = parser.parse_args(argv)
    module = evaluation_module(args.game)
    if not args.chance and not hasattr(module, "features"):
        sys.exit(f"{args.game}'s evaluation has no features to fit a value on")
    jobs = [(args.game, args.agent, args.seed, i, *(["edge"] if args.chance else [])) for i in args.games]
    games = []
    with Pool(args.workers) as pool:
        for n, (rows, won) in enumerate(pool.imap(positions, jobs), 1):
            if won is not None and rows:
                games.append((rows, won))
            print(f"\r{n}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    cut = len(games) * 3 // 4
    train, test = games[:cut], games[cut:]
    if args.chance:
        print(json.dumps(chance_report(len(jobs), games, train, test, module)))
        return
    hand = [module.HAND[name] for name in module.FEATURES]
    hand_scale = fit([([[sum(h * x for h, x in zip(hand, row))] for row in rows], won) for rows, won in train])[0]
    report = {"games": len(jobs), "decided": len(games), "positions": sum(len(rows) for rows, _ in games),
              "held_out": {"fitted": log_loss(test, fit(train)),
                           "hand": log_loss(test, [hand_scale * h for h in hand])}}
    print(json.dumps(report))
    weights = fit(games)
    print(json.dumps({name: round(float(v), 5) for name, v in zip(module.FEATURES, weights)}, indent=1))


def chance_report(played: int, games: list, train: list, test: list, module) -> dict:
    """CHANCE fitted on all the games, how well the first three quarters' fit predicts the last quarter, and how well
    the module's present CHANCE (if any) does."""
    report = {"games": played, "decided": len(games), "positions": sum(len(rows) for rows, _ in games),
              "held_out": {"fitted": log_loss(test, fit(train))}, "CHANCE": float(fit(games)[0])}
    if hasattr(module, "CHANCE"):
        report["held_out"]["present"] = log_loss(test, [module.CHANCE])
    return report


if __name__ == "__main__":
    main()
