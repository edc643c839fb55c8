"""Evaluation of a duel position for the greedy agent: LP, board strength, cards in hand and deck, and the
attack the player to move threatens.

Only what `player` may know is read: the opponent's hidden monsters and set cards count by number
(a face-down monster is valued at a flat guess), never by identity.

Below it, what the `fm-classic` agent knows of the original CPU (docs/rules/forbidden.md §9): the card ids its
strategy names and each duelist's parameters.
"""

from __future__ import annotations

from .content import EQUIP, MAGIC, MONSTER, RITUAL, SPLITS, TRAP  # noqa: F401 - kinds, for agents
from .importer import fm_classic_rows
from .state import DEF, KNOWN, MOVED, UP, USED

HIDDEN_MONSTER = 1200
SET_CARD = 250
HAND_CARD = 150
MONSTER_ON_FIELD = 300
# How much of the attack the player to move threatens counts before it is made: less than a made attack
# (so an attack is still worth making), and the other side may yet answer it with its next play.
THREAT = 0.5

# The tree plans the turn among the 5 plays that look best one ply ahead; each rollout finishes the turn and
# plays the opponent's reply greedily (its play the best of 24 sampled chains), and the evaluation scores the
# position when the mover is to move again. Random rollouts and a tree over the opponent's ~1,600 plays
# modelled the reply as random and gained little over greedy. 50 iterations keep a move near 0.07 s of CPU;
# the evaluation budget (~0.13 s on an idle core) cuts the few moves whose rollouts are long turns of full rows.
MCTS = {"iterations": 50, "evaluations": 3000, "width": 5, "horizon": "reply", "rollout": "greedy",
        "greedy_sample": 24, "depth": 20}
# The logit of the win per point of edge (evaluation minus the opponent's) where the player to act changes, as
# `python -m coliseo.agents.value_fit forbidden --chance --games 400` fits it on greedy self-play.
CHANCE = 0.000172
# `coliseo analyze` (docs/ai.md, "Analysis"): 200 iterations a decision, a game of mcts against mcts in about 12 s
# of CPU.
ANALYSIS = {"iterations": 200}


def _hidden(rec, side: int, viewer: int) -> bool:
    return side != viewer and not rec[UP] and not rec[KNOWN]


def _worth(state, rec, side: int, viewer: int) -> float:
    if _hidden(rec, side, viewer):
        return HIDDEN_MONSTER + MONSTER_ON_FIELD
    atk, dfn = state.stat(rec), state.stat(rec, True)
    return (atk if not rec[DEF] else 0.6 * dfn + 0.2 * atk) + MONSTER_ON_FIELD  # weak monsters still block


def _board(state, side: int, viewer: int) -> float:
    total = sum(_worth(state, rec, side, viewer) for rec in state.monsters[side] if rec is not None)
    return total + SET_CARD * sum(1 for rec in state.spells[side] if rec is not None)


def _threat(state, attacker: int, viewer: int) -> float:
    """What the attacker's monsters on the field could take from the other side this turn or next: each,
    strongest first, hits the target it gains most from (LP lost and monster destroyed), or goes direct."""
    if state.pinned[attacker]:
        return 0.0
    defender = 1 - attacker
    attacks = sorted((HIDDEN_MONSTER if _hidden(rec, attacker, viewer) else state.stat(rec))
                     for rec in state.monsters[attacker] if rec is not None and not rec[USED]
                     and not (rec[DEF] and rec[MOVED]))
    targets = []
    for rec in state.monsters[defender]:
        if rec is None:
            continue
        if _hidden(rec, defender, viewer):
            targets.append((HIDDEN_MONSTER, False, _worth(state, rec, defender, viewer)))
        else:
            targets.append((state.stat(rec, rec[DEF]), not rec[DEF], _worth(state, rec, defender, viewer)))
    damage = taken = 0.0
    for atk in reversed(attacks):
        if not targets:
            damage += atk
            continue
        gains = [((atk - t if open_ else 0) + worth, n) for n, (t, open_, worth) in enumerate(targets) if t < atk]
        if gains:
            gain, n = max(gains)
            damage += gain - targets[n][2]
            taken += targets[n][2]
            del targets[n]
    lp = state.lp[defender]
    if damage >= lp:
        return lp + 2000.0 + taken
    return damage * (1 + 2000.0 / state.max_lp) + taken


def distinct(state, actions: list) -> list:
    """The actions without the plays that only differ from a kept one by which empty zone they fill (the
    zones of a row are interchangeable), for `mcts` to rank a play step's chains at a third of the cost."""
    p = state.current_player
    empty_m = [z + 1 for z, rec in enumerate(state.monsters[p]) if rec is None]
    empty_s = [z + 6 for z, rec in enumerate(state.spells[p]) if rec is None]
    spare = set(empty_m[1:] + empty_s[1:])
    return [a for a in actions if a[0] != "play" or a[2] not in spare]


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
    mover = state.current_player
    if mover is not None:
        threat = THREAT * _threat(state, mover, player)
        value += threat if mover == player else -threat
    return value


# --- the original CPU's strategy (docs/rules/forbidden.md §9), for the `fm-classic` agent ---------------------
TYPE_KILLERS = (329, 653, 656, 660, 662, 663, 664)
REMOVAL_TRAPS = (686, 685, 684, 683, 682, 681, 690)
WALLS = frozenset((72, 362, 366, 2, 40, 83, 88, 121, 156, 170, 255, 274, 277, 369, 416, 418, 449, 468, 497, 518))
ALWAYS_ATTACK = frozenset((380, 374, 67, 713, 217, 364, 1, 392))
DUSTER, SWORDS, DARK_LIGHT, STOP_DEFENSE, CRUSH, RAIGEKI, DARK_HOLE = 672, 348, 350, 320, 661, 337, 336


class Params:
    """One duelist's fm-classic row: L, D, K, Q, H, B and the two strategy splits."""

    __slots__ = ("lp", "low_deck", "combo", "power", "duster", "blind", "ahead", "weak")

    def __init__(self, lp, low_deck, combo, power, duster, blind, ahead, weak):
        self.lp, self.low_deck, self.combo, self.power = lp * 100, low_deck, combo, power
        self.duster, self.blind = duster, blind
        self.ahead, self.weak = SPLITS[ahead], SPLITS[weak]


def params_for(pack, duelist: int | None) -> Params:
    d = pack.duelists.get(duelist) if duelist else None
    if d is None:
        return Params(*fm_classic_rows()[7])  # §9: no duelist -> row 7
    return Params(d.lp_threshold, d.low_deck, d.combo_depth, d.power_depth, d.duster_pct, d.blind_pct,
                  d.split_ahead, d.split_weak)
