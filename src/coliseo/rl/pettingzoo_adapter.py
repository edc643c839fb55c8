"""PettingZoo AEC environment for any Coliseo game.

Agents are "player_0", "player_1", ...; each observes {"observation": encoder vector of its own
`observation(player)`, "action_mask": legal actions over the game's fixed action space} (the mask is
all zeros when it is not that agent's turn). Rewards come only at the end: +1 per winner, -1 for the
others, 0 in a draw.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .common import action_mask, as_index, illegal_index_message, legal_by_index, player_count, resolve_game, rewards
from .encoding import encoder_for


class ColiseoAECEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game, render_mode: str | None = None, max_steps: int | None = None, **options: Any):
        super().__init__()
        self.game = resolve_game(game, options)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.metadata = {**self.metadata, "name": f"coliseo_{self.game.id}_v0"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game)
        self.possible_agents = [f"player_{p}" for p in range(player_count(self.game))]
        self._player = {agent: p for p, agent in enumerate(self.possible_agents)}
        size = self.game.num_distinct_actions
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-self.encoder.bound, self.encoder.bound, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seed_rng = np.random.default_rng()
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.state = self.game.new_state(seed=int(self._seed_rng.integers(2**31)))
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]
        self._legal = None

    def _legal_by_index(self) -> dict:
        """The legal actions by index, computed once per position."""
        if self._legal is None:
            self._legal = legal_by_index(self.state)
        return self._legal

    def legal_indices(self) -> list[int]:
        """The legal action indices of the agent to move: what the mask marks, without scanning it."""
        return sorted(self._legal_by_index())

    def observe(self, agent):
        player = self._player[agent]
        mask = action_mask(self.state, self._legal_by_index()) if self.state.current_player == player else \
            np.zeros(self.game.num_distinct_actions, np.int8)
        return {"observation": self.encoder.encode(self.state.observation(player), player), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal_by_index()
        index = as_index(action)
        if index not in legal:
            raise ValueError(illegal_index_message(self.state, action))
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(legal[index])
        self._legal = None
        self.steps += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_over:
            for a, reward in zip(self.possible_agents, rewards(self.state.result, len(self.possible_agents))):
                self.rewards[a] = reward
                self.terminations[a] = True
                self.infos[a] = {"result": self.state.result}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()
        if self.state.is_over or any(self.truncations.values()):
            self.agent_selection = self.agents[0] if self.agents else agent
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[self.state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.game.render_text(self.state.observation(None))  # the spectator's view: no secrets
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def pettingzoo_env(game, **options: Any) -> ColiseoAECEnv:
    """An AEC environment: `pettingzoo_env("capsule", render_mode="ansi", width=6)` (options go to load_game)."""
    return ColiseoAECEnv(game, **options)
