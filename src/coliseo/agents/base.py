"""Seats, the agent interface, the agent registry, and a game loop for agents.

A `Seat` is all an agent gets: its player's observation, the legal actions, and `determinize`.
The seat keeps no reference to the real state: it holds a state already determinized for its
player, so hidden information (and the real RNG, hence future chance) cannot be reached from it.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable
from typing import Any


class Seat:
    __slots__ = ("game", "player", "observation", "legal_actions", "_sample")

    def __init__(self, state, player: int, rng: random.Random):
        self.game = state.game
        self.player = player
        self.observation = state.observation(player)
        self.legal_actions = list(state.legal_actions())
        self._sample = state.determinize(player, rng)

    def determinize(self, rng: random.Random):
        """A full state consistent with this seat's observation, hidden parts drawn at random."""
        return self._sample.determinize(self.player, rng)


class Agent:
    """Chooses an action for a seat. Seeded: the same seed and seats give the same choices."""

    name = "agent"

    def __init__(self, game, seed: int = 0, **settings: Any):
        self.game = game
        self.rng = random.Random(seed)
        self.settings = settings

    def act(self, seat: Seat):
        raise NotImplementedError

    def effective_settings(self) -> dict:
        """Every setting the agent plays with, defaults included (for run headers and reports)."""
        return dict(self.settings)


class RandomAgent(Agent):
    """Uniform among the legal actions."""

    name = "random"

    def act(self, seat: Seat):
        return self.rng.choice(seat.legal_actions)


# Agent name -> "module:Class"; per-game agents name the games they play.
AGENTS: dict[str, str] = {
    "random": "coliseo.agents.base:RandomAgent",
    "greedy": "coliseo.agents.greedy:GreedyAgent",
    "fm-classic": "coliseo.agents.fm_classic:FmClassicAgent",
    "mcts": "coliseo.agents.mcts:MctsAgent",
}


def agent_names(game_id: str | None = None) -> list[str]:
    names = []
    for name, target in AGENTS.items():
        try:
            cls = _load(target)
        except ModuleNotFoundError:  # an agent whose module is not written yet
            continue
        games = getattr(cls, "games", None)
        if game_id is None or games is None or game_id in games:
            names.append(name)
    return names


def _load(target: str):
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


def make_agent(name: str, game, seed: int = 0, **settings: Any) -> Agent:
    from coliseo.core.errors import SetupError

    if name not in AGENTS:
        raise SetupError(f"unknown agent {name!r}; the agents are: {', '.join(agent_names(game.id))}")
    if name not in agent_names():
        raise SetupError(f"agent {name!r} is not available in this installation")
    cls = _load(AGENTS[name])
    games = getattr(cls, "games", None)
    if games is not None and game.id not in games:
        raise SetupError(f"agent {name!r} plays only {', '.join(games)}")
    return cls(game, seed=seed, **settings)


def play_game(state, agents: list[Agent], rng: random.Random, max_steps: int = 1_000_000, *,
              apply: Callable[[Any], Any] | None = None,
              timed: Callable[[int, float, float], None] | None = None) -> int:
    """Play `state` to the end with one agent per player; returns the number of actions. `apply` plays each action
    (by default `state.apply`; a Match passes its own `play` to keep the steps); `timed(player, wall s, CPU s)` hears
    how long each decision took."""
    apply = apply or state.apply
    steps = 0
    while not state.is_over and steps < max_steps:
        player = state.current_player
        start, start_cpu = time.perf_counter(), time.process_time()
        action = agents[player].act(Seat(state, player, rng))
        if timed:
            timed(player, time.perf_counter() - start, time.process_time() - start_cpu)
        apply(action)
        steps += 1
    return steps
