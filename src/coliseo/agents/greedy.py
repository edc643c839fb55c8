"""One-ply greedy agent: tries every legal action on a determinization and keeps the best evaluation.

Each game provides `evaluate(state, player) -> float` in its `coliseo.games.<game id>.evaluation`;
higher is better for `player`. A finished game is scored by its result.
"""

from __future__ import annotations

import importlib

from coliseo.agents.base import Agent, Seat

WIN = 1e9


def evaluation_module(game_id: str):
    """The game's heuristics for agents (docs/engine.md, "What agents may use of a game")."""
    return importlib.import_module(f"coliseo.games.{game_id}.evaluation")


def evaluation_for(game_id: str):
    return evaluation_module(game_id).evaluate


def terminal_value(state, player: int) -> float:
    winners = state.result["winners"]
    if player in winners:
        return WIN if len(winners) == 1 else 0.0
    return -WIN if winners else 0.0


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(self, game, seed: int = 0, **settings):
        super().__init__(game, seed, **settings)
        self.evaluate = evaluation_for(game.id)

    def score(self, state, player: int) -> float:
        if state.is_over:
            return terminal_value(state, player)
        return self.evaluate(state, player)

    def act(self, seat: Seat):
        if len(seat.legal_actions) == 1:
            return seat.legal_actions[0]
        world = seat.determinize(self.rng)
        best, best_value = [], None
        for action in seat.legal_actions:
            after = world.clone()
            after.apply(action)
            value = self.score(after, seat.player)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return self.rng.choice(best)
