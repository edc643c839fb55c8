"""Gymnasium environment: one seat of a Coliseo game against opponent agents.

The opponents are Coliseo agents (`coliseo.agents.make_agent`) and act through a `Seat`, so they
see no more than a player would. Observation: {"observation": encoder vector (finite bounds),
"action_mask"}. Reward: at the end only, +1 win, -1 loss, 0 draw. `gymnasium.make("coliseo/<id>-v0")`
works once `coliseo.rl.register_gymnasium_envs()` has run (importing this module runs it).

Gymnasium's checker and many algorithms sample from the whole action space, so by default an
illegal action ends the episode as a loss (`info["illegal_action"]` says why);
`illegal_action="raise"` raises ValueError instead.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from coliseo.agents.base import Agent, Seat, make_agent

from .common import action_mask, as_index, illegal_index_message, legal_by_index, player_count, resolve_game, rewards
from .encoding import encoder_for

ILLEGAL_ACTION_POLICIES = ("lose", "raise")


class ColiseoGymEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, game, opponent: str | Agent = "random", player: int = 0,
                 opponent_settings: dict | None = None, illegal_action: str = "lose",
                 render_mode: str | None = None, **options: Any):
        self.game = resolve_game(game, options)
        count = player_count(self.game)
        if not isinstance(player, int) or not 0 <= player < count:
            raise ValueError(f"player must be a seat from 0 to {count - 1}, got {player!r}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if isinstance(opponent, str):
            make_agent(opponent, self.game, **(opponent_settings or {}))  # a bad name fails here, not at reset
        self.player = player
        self.players = count
        self.opponent = opponent
        self.opponent_settings = opponent_settings or {}
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-self.encoder.bound, self.encoder.bound, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_distinct_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.state = None

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        draw = lambda: int(self.np_random.integers(2**31))  # noqa: E731
        self.state = self.game.new_state(seed=draw())
        self.seat_rng = random.Random(draw())
        self.forfeited = False
        if isinstance(self.opponent, Agent):
            self.opponents = {p: self.opponent for p in range(self.players) if p != self.player}
        else:
            self.opponents = {p: make_agent(self.opponent, self.game, seed=draw(), **self.opponent_settings)
                              for p in range(self.players) if p != self.player}
        self._play_opponents()
        return self._observe()

    def step(self, action):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.state.is_over or self.forfeited:
            raise RuntimeError("the episode is over; call reset()")
        legal = legal_by_index(self.state)
        index = as_index(action)
        if index not in legal:
            message = illegal_index_message(self.state, action)
            if self.illegal_action == "raise":
                raise ValueError(message)
            self.forfeited = True  # an illegal action resigns the game
            observation, info = self._observe()
            return observation, -1.0, True, False, {**info, "illegal_action": message}
        self.state.apply(legal[index])
        self._play_opponents()
        terminated = self.state.is_over
        reward = rewards(self.state.result, self.players)[self.player] if terminated else 0.0
        observation, info = self._observe()
        if terminated:
            info["result"] = self.state.result
        return observation, reward, terminated, False, info

    def legal_indices(self) -> list[int]:
        """The learner's legal action indices now: what the mask marks, without scanning it."""
        if self.state is None or self.state.is_over or self.forfeited or self.state.current_player != self.player:
            return []
        return sorted(legal_by_index(self.state))

    def _play_opponents(self) -> None:
        while not self.state.is_over and self.state.current_player != self.player:
            mover = self.state.current_player
            self.state.apply(self.opponents[mover].act(Seat(self.state, mover, self.seat_rng)))

    def _observe(self) -> tuple[dict, dict]:
        """The observation (holding the action mask, once: it is large in the big action spaces) and the info."""
        mask = action_mask(self.state) if self.state.current_player == self.player else \
            np.zeros(self.game.num_distinct_actions, np.int8)
        observation = {"observation": self.encoder.encode(self.state.observation(self.player), self.player),
                       "action_mask": mask}
        return observation, {}

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.game.render_text(self.state.observation(self.player))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gymnasium_env(game, **options: Any) -> ColiseoGymEnv:
    """`gymnasium_env("capsule", opponent="greedy", player=1)`; other keywords go to load_game."""
    return ColiseoGymEnv(game, **options)


def register_gymnasium_envs() -> list[str]:
    """Register `coliseo/<id>-v0` for every game, for `gymnasium.make`; safe to call twice."""
    import coliseo

    names = []
    for game_id in coliseo.list_games():
        name = f"coliseo/{game_id}-v0"
        if name not in gym.registry:
            gym.register(name, entry_point="coliseo.rl.gymnasium_adapter:ColiseoGymEnv", kwargs={"game": game_id})
        names.append(name)
    return names


register_gymnasium_envs()
