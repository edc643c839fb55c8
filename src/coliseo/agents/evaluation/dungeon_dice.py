"""Dungeon Dice evaluation for the greedy agent: hearts, monsters, crests, and the way to the enemy Master.

Uses only what `player` may know: the public board, pools, hearts and graveyards, and the sizes (never the
contents) of the opponent's library and set zone.
"""

from __future__ import annotations

HEART = 1000.0
# Worth of one crest in the pool, by type S M A D G T E Z.
CREST = (28.0, 2.0, 6.0, 8.0, 14.0, 8.0, 8.0, 18.0)
SET_TRAP = 15.0
# What the opponent's next roll is worth on average (rules file §6.1 gains times CREST): charged while it is
# still my turn, so that ending the turn is not judged worse than wasting crests on a useless move.
NEXT_ROLL = 22.0
# Monsters put on the board decide nearly every game at the turn limit (R36), so each one counts a lot.
COUNT = 100.0


def _monster_value(card, atk: int, defense: int) -> float:
    return 5.0 * card.level + (atk + defense) / 80.0


def evaluate(state, player: int) -> float:
    game = state.game
    geo = game.geo
    cards = game.content.cards
    w = geo.w
    other = 1 - player
    score = HEART * (state.hearts[player] - state.hearts[other])
    for i in range(8):
        score += CREST[i] * (state.pool[player][i] - state.pool[other][i])
    enemy_master = state.ac[other]
    my_master = state.ac[player]
    ex, ey = enemy_master % w, enemy_master // w
    mx, my = my_master % w, my_master // w
    for sq, piece in state.pieces.items():
        cid = piece[1]
        if cid is None:
            continue
        card = cards[cid]
        value = _monster_value(card, state.atk(piece), state.defense(piece))
        x, y = sq % w, sq // w
        if piece[3] == player:
            # closer to the enemy Master is better: that is where hearts are taken
            score += value + 120.0 - 5.0 * (abs(x - ex) + abs(y - ey))
        else:
            score -= value + 60.0 - 2.0 * (abs(x - mx) + abs(y - my))
    # the own path reaching toward the enemy Master (the road for monsters)
    best_mine = min((abs(q % w - ex) + abs(q // w - ey) for q in _bits(state.path[player])), default=40)
    best_theirs = min((abs(q % w - mx) + abs(q // w - my) for q in _bits(state.path[other])), default=40)
    score += 4.0 * (12 - best_mine) + 2.0 * best_theirs
    score += SET_TRAP * (len(state.setzone[player]) - len(state.setzone[other]))
    score += COUNT * (state.counts[player][0] - state.counts[other][0])   # the turn-limit tie-breaks
    score += 3.0 * (state.counts[player][1] - state.counts[other][1])
    if state.active == player and state.result is None:
        score += 2.0 - NEXT_ROLL        # still my turn: prefer acting on to ending it when nothing else differs
        if state.placing is not None:   # a declared summon is worth what its placement will bring, minus its cost
            card = cards[state.placing]
            score += 0.9 * (_monster_value(card, card.atk, card.defense) + COUNT + 30.0 - CREST[0] * card.level)
    return score


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
