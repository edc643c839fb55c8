"""A trained policy as a Coliseo agent, so it can sit at any seat: as the Gymnasium opponent
(self-play), in `coliseo.agents.play_game`, or anywhere else an `Agent` plays.

The policy sees exactly what a learner sees in the environments: the encoded observation of its
seat and the action mask; it returns an action index.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from coliseo.agents.base import Agent, Seat

from .common import as_index
from .encoding import encoder_for

Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyAgent(Agent):
    """`PolicyAgent(game, policy)`, where `policy(observation_vector, action_mask) -> action index`."""

    name = "policy"

    def __init__(self, game, policy: Policy, seed: int = 0):
        super().__init__(game, seed)
        if not callable(policy):
            raise TypeError(f"policy must be a function (observation, action_mask) -> index, got {policy!r}")
        self.policy = policy
        self.encoder = encoder_for(game)

    def act(self, seat: Seat):
        legal = {self.game.action_index(action): action for action in seat.legal_actions}
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        mask[list(legal)] = 1
        choice = self.policy(self.encoder.encode(seat.observation, seat.player), mask)
        index = as_index(choice)
        if index not in legal:
            raise ValueError(f"the policy chose {choice!r}, which is not a legal action index for player "
                             f"{seat.player + 1}; legal: {sorted(legal)[:10]}{' …' if len(legal) > 10 else ''}")
        return legal[index]
