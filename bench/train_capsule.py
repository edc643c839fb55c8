"""Train a small numpy policy to beat `random` at Capsule Monsters, on a CPU, in minutes.

    python bench/train_capsule.py --minutes 4 --opponent random

REINFORCE (policy gradient) on the Gymnasium environment of `coliseo.rl`. The policy is linear and
masked: for each legal action index a, logit(a) = bias[a] + weights[kind(a)] . observation, where
kind(a) (end, summon, recover, move, attack, ability) follows Capsule's action index layout.
The only reward is the result: +1 win, -1 loss, 0 draw. Prints JSON: episodes trained, seconds,
and the win rate of the trained policy (most probable legal action) on unseen seeds against the
training opponent (or the --eval-opponents), next to the win rate of uniformly random play.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from coliseo.rl import gymnasium_env

KINDS = ("end", "summon", "recover", "move", "attack", "ability")


def action_kinds(squares: int, actions: int) -> np.ndarray:
    """Capsule's layout: end 0; summon, recover by square; move, attack, abilities by square pairs."""
    kind = np.empty(actions, np.int64)
    bounds = [1, 1 + squares, 1 + 2 * squares, 1 + 2 * squares + squares**2, 1 + 2 * squares + 2 * squares**2, actions]
    start = 0
    for k, end in enumerate(bounds):
        kind[start:end] = k
        start = end
    return kind


class LinearPolicy:
    def __init__(self, observation_size: int, kinds: np.ndarray, rng: np.random.Generator):
        self.kinds = kinds
        self.bias = np.zeros(len(kinds))
        self.weights = np.zeros((len(KINDS), observation_size))
        self.rng = rng

    def probabilities(self, observation: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.bias[legal] + self.weights[self.kinds[legal]] @ observation
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, observation, mask, greedy: bool = False):
        """(action index, legal indices, their probabilities, position of the choice among them)."""
        legal = np.flatnonzero(mask)
        p = self.probabilities(observation, legal)
        choice = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[choice]), legal, p, choice

    def update(self, trajectory, advantage: float, rate: float) -> None:
        for observation, legal, p, choice in trajectory:
            grad = -p * advantage * rate                  # d log pi / d logit = onehot - p
            grad[choice] += advantage * rate
            np.add.at(self.bias, legal, grad)
            per_kind = np.bincount(self.kinds[legal], weights=grad, minlength=len(KINDS))
            self.weights += np.outer(per_kind, observation)


def play(env, policy, seed: int, greedy: bool, shaping: float = 0.0):
    """One episode: (reward, trajectory). With shaping, the reward also counts the Kings' points left."""
    observation, _ = env.reset(seed=seed)
    trajectory = []
    while True:
        action, legal, p, choice = policy.act(observation["observation"], observation["action_mask"], greedy)
        trajectory.append((observation["observation"], legal, p, choice))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            if shaping and "result" in info:
                scores = info["result"]["scores"]
                reward += shaping * (scores[env.player] - scores[1 - env.player]) / 15
            return reward, trajectory


def win_rate(env, policy, seeds, greedy: bool = True) -> float:
    return float(np.mean([play(env, policy, seed, greedy)[0] > 0 for seed in seeds]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="training time")
    parser.add_argument("--opponent", default="random", help="a Coliseo agent name")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-opponents", default=None,
                        help="comma-separated agents to measure the trained policy against (default: --opponent)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=0.0,
                        help="weight of the Kings' points difference at the end, added to the result's reward")
    args = parser.parse_args()

    env = gymnasium_env("capsule", opponent=args.opponent)
    squares = env.game.options["width"] * env.game.options["height"]
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(env.encoder.size, action_kinds(squares, env.game.num_distinct_actions), rng)
    eval_seeds = range(10**6, 10**6 + args.eval_games)
    eval_envs = {name: gymnasium_env("capsule", opponent=name)
                 for name in (args.eval_opponents or args.opponent).split(",")}
    before = {name: win_rate(e, policy, eval_seeds, greedy=False)  # zero weights: uniform random play
              for name, e in eval_envs.items()}

    start, episodes, baseline, curve = time.time(), 0, 0.0, []
    while time.time() - start < args.minutes * 60:
        reward, trajectory = play(env, policy, seed=int(rng.integers(10**6)), greedy=False, shaping=args.shaping)
        policy.update(trajectory, reward - baseline, args.rate / len(trajectory) ** 0.5)
        baseline += 0.02 * (reward - baseline)
        episodes += 1
        if episodes % 200 == 0:
            curve.append({"episodes": episodes, "seconds": round(time.time() - start),
                          "avg_reward": round(baseline, 3)})
    trained_seconds = time.time() - start
    after = {name: win_rate(e, policy, eval_seeds, greedy=True) for name, e in eval_envs.items()}
    print(json.dumps({"game": "capsule", "opponent": args.opponent, "shaping": args.shaping, "episodes": episodes,
                      "train_seconds": round(trained_seconds, 1), "eval_games": args.eval_games,
                      "win_rate_random_play": before, "win_rate_trained": after,
                      "curve": curve[::max(1, len(curve) // 20)]}))


if __name__ == "__main__":
    main()
