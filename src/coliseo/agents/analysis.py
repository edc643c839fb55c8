"""Game analysis: each decision of a played game judged by a search from what its mover could know.

A decision is a ply where the player to move had more than one legal action. The mover's seat (their
observation, their legal actions and worlds determinized from their view: `agents.base.Seat`) is searched by
the game's `mcts` with the same number of iterations at every decision, the move played always among the
actions the root searches. `before` is the value of the move the search prefers (its most visited), `after`
the value of the move played, both the search's rewards for the mover — its estimate of their chance to win,
in [0, 1] — and `loss` is before − after. A loss above the game's thresholds marks the decision an
inaccuracy, a mistake or a blunder.

The search's chance is seeded from the analysis seed and the mover's observation, never from the game's seed
or its hidden cards: the analysis of a decision is a function of what its mover knew, and the same record with
the same settings is analysed the same way every time.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass

from coliseo.agents.base import Seat
from coliseo.agents.greedy import evaluation_module
from coliseo.agents.mcts import MctsAgent, Search
from coliseo.core.match import Command, Match
from coliseo.core.rng import seed_from

# Marks from the mildest, each with the loss (of winning chance) it takes. A game's evaluation module may set its
# own in `ANALYSIS["marks"]`; the rest of its `ANALYSIS` are the `mcts` settings of the analysis (over its `MCTS`):
# the iterations per decision, at least.
MARKS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
ITERATIONS = 400


@dataclass(frozen=True)
class Decision:
    ply: int            # the step of the record, from 1, as `coliseo replay` numbers them
    player: int         # from 0, as in the record's result
    action: str         # the move played, in notation
    before: float       # the mover's estimated chance before it: the value of the search's choice
    after: float        # ... and after it: the value of the move played
    best: str           # the search's choice, in notation
    loss: float         # before − after
    mark: str | None    # "inaccuracy", "mistake", "blunder" or None

    def to_json(self) -> dict:
        return asdict(self)


def settings(game) -> tuple[dict, dict]:
    """The game's analysis: the `mcts` settings it searches with, and the marks' thresholds."""
    own = dict(getattr(evaluation_module(game.id), "ANALYSIS", {}))
    marks = {**MARKS, **own.pop("marks", {})}
    # Iterations are the one budget (no cap on evaluations, no clock): each decision is searched as far as the others;
    # the reward of a leaf is the win chance its edge gives (the module's CHANCE).
    return {"iterations": ITERATIONS, **own, "evaluations": None, "ms": None, "scale": "chance"}, marks


def mark(loss: float, marks: dict) -> str | None:
    """The gravest mark whose threshold the loss exceeds, or None."""
    passed = [name for name, limit in marks.items() if loss > limit]
    return max(passed, key=marks.get) if passed else None


def decisions(match: Match, players: set[int] | None = None) -> list[tuple[int, object, object]]:
    """(ply, the state before it, the action played) at each decision of `players` (None: of everyone)."""
    state = match.game.new_state(match.seed, match.setup)
    found = []
    for ply, step in enumerate(match.steps, 1):
        if isinstance(step.action, Command):       # a table command moves nothing on the board
            continue
        if len(state.legal_actions()) > 1 and (players is None or step.player in players):
            found.append((ply, state.clone(), step.action))
        state.apply(step.action)
    return found


class Analyst:
    """Judges decisions of one game with one budget and seed."""

    def __init__(self, game, iterations: int | None = None, seed: int = 0):
        search, self.marks = settings(game)
        self.game = game
        self.agent = MctsAgent(game, seed=seed, **{**search, "iterations": iterations or search["iterations"]})
        self.seed = seed

    def judge(self, ply: int, state, action) -> Decision:
        """The decision `action` taken at `state`, judged from the mover's seat."""
        player = state.current_player
        seat = Seat(state, player, random.Random(self.chance(state.observation(player))))
        search = Search(self.agent, seat, keep=(action,))
        best = search.run()
        chosen = search.root.children[best]
        played = search.grow(action, chosen.visits)
        before, after = search.value_of(chosen), search.value_of(played)
        loss = before - after
        return Decision(ply, player, self.game.format_action(action), round(before, 4), round(after, 4),
                        self.game.format_action(best), round(loss, 4), mark(loss, self.marks))

    def chance(self, observation) -> int:
        return seed_from(self.seed, "seat", json.dumps(observation, sort_keys=True))


def summary(found: list[Decision], players: list[int]) -> dict[int, dict]:
    """Per player: their decisions' `tally`."""
    return {p: tally([d for d in found if d.player == p]) for p in players}


def tally(found: list[Decision]) -> dict:
    """How many decisions, their mean loss (None for none) and how many of each mark."""
    row = {"decisions": len(found), "mean_loss": sum(d.loss for d in found) / len(found) if found else None}
    row.update({name: sum(d.mark == name for d in found) for name in MARKS})
    return row
