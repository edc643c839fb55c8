"""Evaluation of a duel position for the greedy agent: LP, board strength, cards in hand and deck.

Only what `player` may know is read: the opponent's hidden monsters and set cards count by number
(a face-down monster is valued at a flat guess), never by identity.
"""

from __future__ import annotations

from coliseo.games.forbidden.rules import DEF, KNOWN, UP

HIDDEN_MONSTER = 1200
SET_CARD = 250
HAND_CARD = 150

MCTS = {"iterations": 200}   # 400 iterations cost more than 0.2 s of CPU a move here


def _board(state, side: int, viewer: int) -> float:
    total = 0.0
    for rec in state.monsters[side]:
        if rec is None:
            continue
        if side != viewer and not rec[UP] and not rec[KNOWN]:
            total += HIDDEN_MONSTER
            continue
        atk, dfn = state.stat(rec), state.stat(rec, True)
        total += atk if not rec[DEF] else 0.6 * dfn + 0.2 * atk
        total += 300  # a monster on the field is worth something even when weak
    total += SET_CARD * sum(1 for rec in state.spells[side] if rec is not None)
    return total


def evaluate(state, player: int) -> float:
    """Higher is better for `player`."""
    q = 1 - player
    value = (state.lp[player] - state.lp[q]) * 1.0
    value += _board(state, player, player) - _board(state, q, player)
    value += HAND_CARD * (len(state.hands[player]) - len(state.hands[q]))
    # Running out of cards loses: keep some deck when the opponent has more.
    if len(state.decks[player]) < 5:
        value -= 500 * (5 - len(state.decks[player]))
    if state.lp[q] > 0:
        value += 2000.0 * (1 - state.lp[q] / state.max_lp)
    return value
