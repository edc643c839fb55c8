"""Capsule Monsters evaluation: material, King safety and threats, from one player's side.

An enemy capsule counts as an unknown monster: only its damage is used, never its card.
"""

from .state import CAPSULE, CARD, DMG, KIND, KING, SQ, STUN

KING_POINT = 2.0          # a King point is worth more than a monster's cost: it is the game
CAPSULE_VALUE = 3.5       # an unknown monster of average cost
STUNNED = 1.5
THREAT = 0.4              # each enemy piece a monster can attack now
KING_THREAT = 2.5         # a monster that can attack the enemy King
APPROACH = 0.15           # per square closer to the enemy King

# The logit of the win per point of edge (evaluation minus the opponent's) where the player to act changes, as
# `python -m coliseo.agents.value_fit capsule --chance --games 400` fits it on greedy self-play.
CHANCE = 0.0453
# `coliseo analyze` (docs/ai.md, "Analysis"): 1,600 iterations a decision, a game of mcts against mcts in about 19 s
# of CPU.
ANALYSIS = {"iterations": 1600}


def evaluate(state, player: int) -> float:
    value = 0.0
    for side, sign in ((player, 1.0), (1 - player, -1.0)):
        value += sign * KING_POINT * state.score(side)
        enemy_king = state.king(1 - side)
        for piece in state.own[side]:
            kind = piece[KIND]
            if kind == KING:
                continue
            if kind == CAPSULE:
                value += sign * (CAPSULE_VALUE - piece[DMG])
                continue
            card = piece[CARD]
            health = (card.hp - piece[DMG]) / card.hp
            worth = card.cost * (0.6 + 0.4 * health) + 1.0 - (STUNNED if piece[STUN] else 0.0)
            targets = state.attack_targets(piece)
            worth += THREAT * len(targets)
            if enemy_king is not None:
                if enemy_king[SQ] in targets:
                    worth += KING_THREAT
                worth -= APPROACH * state.game.board.distance(piece[SQ], enemy_king[SQ])
            value += sign * worth
    return value

