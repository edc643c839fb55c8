"""What the adapters share: loading a game, action indices both ways, rewards from a result."""

from __future__ import annotations

from typing import Any

import numpy as np

import coliseo
from coliseo.core.game import Game


def resolve_game(game: str | Game, options: dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options either to load_game or here, not with an already loaded game")
        return game
    return coliseo.load_game(game, **options)


def player_count(game: Game) -> int:
    return len(game.new_state(seed=0).players)


def legal_by_index(state) -> dict[int, Any]:
    """Legal actions keyed by their index in the game's fixed action space."""
    return {state.game.action_index(action): action for action in state.legal_actions()}


def action_mask(state, legal: dict[int, Any] | None = None) -> np.ndarray:
    mask = np.zeros(state.game.num_distinct_actions, np.int8)
    mask[list(legal_by_index(state) if legal is None else legal)] = 1
    return mask


def as_index(action: Any) -> int | None:
    """An action index from what a learner passes (int, numpy integer, 0-d array); None if not one."""
    try:
        index = int(action)
    except (TypeError, ValueError):
        return None
    return index if index == action else None


def illegal_index_message(state, index: Any) -> str:
    legal = state.legal_actions()
    sample = ", ".join(f"{state.game.action_index(a)} ({state.game.format_action(a)})" for a in legal[:10])
    more = f" and {len(legal) - 10} more" if len(legal) > 10 else ""
    return f"action {index!r} is not legal now; legal action indices: {sample}{more}"


def rewards(result: dict | None, count: int) -> list[float]:
    """+1 for each winner and -1 for each other player; 0 for everyone if nobody (or everybody) won."""
    if not result:
        return [0.0] * count
    winners = set(result.get("winners") or ())
    if not winners or len(winners) == count:
        return [0.0] * count
    return [1.0 if p in winners else -1.0 for p in range(count)]
