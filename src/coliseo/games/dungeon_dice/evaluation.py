"""Dungeon Dice evaluation: hearts, and the race to take them — monsters walking to the enemy Master.

Uses only what `player` may know: the public board, pools, hearts and set-zone sizes (never the contents of the
opponent's library or set zone).

A position is read as FEATURES (differences between the two sides) weighed two ways: `evaluate` by hand, for
`greedy`'s one-ply choices in the middle of a turn; `value` by a fitted model of the win chance, for the positions
where `mcts`'s tree stops. The core is a distance field per Master: how many steps a monster needs from each square
to stand beside that Master (where it can attack it), counting a square that is not path yet as 1 + GAP steps (a
net must be dimensioned there first).
"""

from __future__ import annotations

from operator import mul

from coliseo.core.memo import keep

from .state import CARD, EQUIPS, TMP

# `mcts` defaults for this game, about 0.2 s of CPU a move at most (docs/ai.md has the numbers). The tree plans the
# mover's turn (`horizon=turn`; a leaf is scored by `value` at once, depth 0, as random rollouts of DDM turns
# measured weaker), judges a run of the mover's actions by its best continuation (`backup=best`) and scales
# rewards by this move's own spread (`scale=move`: the game-long spread, swollen by hearts, left every option
# alike); placing steps search the module's `shortlist` of nets. Scoring leaves by `evaluate` it won half its games
# against greedy (405 of 800 fresh ones); by `value`, see docs/ai.md.
MCTS = {"iterations": 180, "depth": 0, "width": 10_000, "c": 0.2, "horizon": "turn", "backup": "best", "scale": "move"}
# The logit of the win per point of edge (`value` minus the opponent's): `value` is the FITTED logit in thousandths
# and the edge is twice it, so 1/2000 by construction (`python -m coliseo.agents.value_fit dungeon_dice --chance
# --games 400`, on other games of greedy self-play, fits 0.000486).
CHANCE = 0.0005
# `coliseo analyze` (docs/ai.md, "Analysis"): 600 iterations a decision, a game of mcts against mcts (about 290
# decisions) in about 35 s of CPU.
ANALYSIS = {"iterations": 600}

HEART = 1000.0
# Worth of one crest in the pool, by type S M A D G T E Z.
CREST = (16.0, 6.0, 14.0, 6.0, 12.0, 8.0, 8.0, 16.0)
# Mean gain of one turn's roll with the default dice deck (docs/rules/dungeon_dice.md §6.1).
ROLL_GAIN = (0.53, 0.38, 0.19, 0.04, 0.09, 0.09, 0.04, 0.18)
# The opponent's roll comes with the end of my turn; charged while it is still my turn so that ending the
# turn is judged fairly against acting on.
NEXT_ROLL = sum(c * g for c, g in zip(CREST, ROLL_GAIN))
SET_TRAP = 15.0
PRESENCE = 60.0     # a monster on the board, beyond its stats
COUNT = 30.0        # a monster put on the board: the turn-limit tie-break (R36)
STEP = 10.0         # one step nearer the enemy Master
GAP = 2             # extra steps a square costs while it is not path
FAR = 80            # distances beyond this count as this (more than any square's on the default board)
ROAD = 4.0          # one step nearer the enemy Master for the own path's front
THREAT = 250.0      # a monster in line with the enemy Master: a heart next Battle unless answered
STRIKE = 700.0      # ...and it may attack it in this turn's Battle: a heart unless a trap stops it
PENDING = 700.0     # an attack on the Master declared, waiting for the defender's answer

_fields: dict = {}


def _field(state, master: int) -> _Field:
    """The distance field toward `master` on this board's path, shared by every position with the same path."""
    allpath = state.path[0] | state.path[1]
    key = (allpath, master)
    found = _fields.get(key)
    if found is None:
        found = keep(_fields, key, _Field(state.game.geo, allpath, master))
    return found


class _Field:
    """The squares (bitmasks) at each number of steps from a square beside a Master, where a square that is not
    path costs 1 + GAP steps to enter: `layers[d]` holds the squares d steps away. Grown a layer at a time with
    bitmask shifts, only as far as the questions asked of it reach (most never need the far side of the board)."""

    __slots__ = ("geo", "path", "empty", "beside", "master", "seen", "layers", "rings")

    def __init__(self, geo, allpath: int, master: int):
        self.geo, self.path, self.empty = geo, allpath, geo.full & ~allpath
        self.beside, self.master = geo.nbr_mask[master], 1 << master
        self.seen = self.master         # the squares of the layers so far, and the Master's own
        self.layers: list[int] = []
        self.rings: list[int] = []      # rings[d]: the squares next to layers[d]

    def _grow(self, squares: int, every: bool) -> None:
        """Adds layers until they hold every one of `squares` (if `every`, else some one), or FAR layers or
        every square are placed."""
        squares &= ~self.master
        geo, layers, rings, seen = self.geo, self.layers, self.rings, self.seen
        path, empty, beside = self.path, self.empty, self.beside
        w, full, right_ok, left_ok = geo.w, geo.full, geo.not_last_file, geo.not_first_file
        d = len(layers)
        while d < FAR and seen != full and (squares & ~seen if every else not squares & seen):
            layer = beside & path if d == 0 else beside & empty if d == GAP else 0
            if d >= 1:
                layer |= rings[d - 1] & path
            if d >= 1 + GAP:
                layer |= rings[d - 1 - GAP] & empty
            layer &= ~seen
            seen |= layer
            layers.append(layer)
            rings.append(((layer << w) | (layer >> w) | ((layer & right_ok) << 1) | ((layer & left_ok) >> 1)) & full
                         if layer else 0)
            d += 1
        self.seen = seen

    def steps(self, squares: int) -> int:
        """Steps from the nearest of `squares` (a bitmask) to the Master; FAR if none is within FAR."""
        self._grow(squares, every=False)
        for d, layer in enumerate(self.layers):
            if layer & squares:
                return d
        return FAR

    def reached(self, squares: int) -> list[tuple[int, int]]:
        """(steps, those of `squares` that many steps away) for each number of steps that has some, nearest first;
        squares beyond FAR are left out."""
        self._grow(squares, every=True)
        out = []
        for d, layer in enumerate(self.layers):
            if not squares:
                break
            if layer & squares:
                out.append((d, layer & squares))
                squares &= ~layer
        return out

    def whole(self) -> list[int]:
        """Every layer."""
        self._grow(self.geo.full, every=True)
        return self.layers


def _monster_value(card, atk: int, defense: int) -> float:
    return 5.0 * card.level + (atk + defense) / 60.0


def _piece_value(state, piece) -> float:
    """`_monster_value` of a monster on the board; kept with the game per (card, attack change) when it has no
    equips."""
    key = None if piece[EQUIPS] else (piece[CARD], piece[TMP])
    found = state.game.plain_values.get(key)
    if found is None:
        found = _monster_value(state.game.content.cards[piece[CARD]], state.atk(piece), state.defense(piece))
        if key is not None:
            keep(state.game.plain_values, key, found)
    return found


# What a position is made of, each a difference (mine minus the opponent's, so a feature for one player is minus
# the other's): `features` gives them in this order.
FEATURES = ("hearts", "heart_danger", "crest_S", "crest_M", "crest_A", "crest_D", "crest_G", "crest_T", "crest_E",
            "crest_Z", "monster_stats", "monsters", "monster_steps", "threats", "strikes", "road", "pending",
            "traps_set", "summoned", "summoned_levels", "to_move", "nearest_steps", "monsters_near")

# `evaluate`'s weights: set by hand for one-ply choices in the middle of a turn.
HAND = dict(zip(FEATURES, (HEART, 0.0, *CREST, 1.0, PRESENCE, STEP, THREAT, STRIKE, ROAD, PENDING, SET_TRAP, COUNT,
                           0.5, 1.0 - NEXT_ROLL / 2, 0.0, 0.0)))

# `value`'s weights: a logistic model of the win chance, in logits per unit, fitted on the positions where the
# player to act changes (a turn's start, an answer to an attack) in greedy self-play: the positions where an
# `mcts` tree that plans the mover's turn stops. Fitted by `python -m coliseo.agents.value_fit dungeon_dice --games
# 0-236,10000-10237 --seed 777` on games of `greedy` with HAND (docs/ai.md: how well it predicts, and why these games).
FITTED = {
    "hearts": 0.42802, "heart_danger": -0.34291, "crest_S": 0.05765, "crest_M": 0.02205,
    "crest_A": 0.10557, "crest_D": 0.06208, "crest_G": 0.05663, "crest_T": 0.06038,
    "crest_E": 0.07188, "crest_Z": 0.05417, "monster_stats": -0.00495, "monsters": 0.1926,
    "monster_steps": -0.00041, "threats": 0.24795, "strikes": 0.87326, "road": 0.04024,
    "pending": 0.86072, "traps_set": 0.23012, "summoned": -0.117, "summoned_levels": 0.09189,
    "to_move": -0.036, "nearest_steps": 0.00666, "monsters_near": 0.04073,
}


def features(state, player: int) -> list[float]:
    """The FEATURES of `state` for `player`, from what `player` may know: the public board, pools, hearts and
    set-zone sizes."""
    in_line = state.game.geo.in_line
    other = 1 - player
    hearts, pool = state.hearts, state.pool
    toward = (_field(state, state.ac[1]), _field(state, state.ac[0]))   # toward the Master each side attacks
    active = state.active
    strike_phase = state.result is None and state.phase in ("spend1", "battle")
    stats, monsters, steps, threats, strikes, near = ([0.0, 0.0] for _ in range(6))
    nearest = [FAR, FAR]
    squares = [0, 0]
    for sq, piece in state.pieces.items():
        cid = piece[1]
        if cid is None:
            continue
        ctrl = piece[3]
        stats[ctrl] += _piece_value(state, piece)
        monsters[ctrl] += 1
        squares[ctrl] |= 1 << sq
        enemy = state.ac[1 - ctrl]
        if in_line[enemy] >> sq & 1 and enemy in state.targets_in_line(sq, piece):
            threats[ctrl] += 1
            if strike_phase and ctrl == active and not piece[6] and pool[ctrl][2] >= 1:
                strikes[ctrl] += 1
    for ctrl in (0, 1):
        for to_go, there in toward[ctrl].reached(squares[ctrl]):
            count = there.bit_count()
            steps[ctrl] += (FAR - to_go) * count
            nearest[ctrl] = min(nearest[ctrl], to_go)
            near[ctrl] += count if to_go <= 3 else 0
    pending = 0
    if state.window is not None and state.window[1] == state.ac[1 - active]:
        pending = 1 if active == player else -1

    def side(p: int) -> list:
        return [hearts[p], *pool[p], stats[p], monsters[p], steps[p], threats[p], strikes[p], len(state.setzone[p]),
                *state.counts[p]]

    diff = [a - b for a, b in zip(side(player), side(other))]
    road = toward[other].steps(state.path[other]) - toward[player].steps(state.path[player])
    danger = 1.0 / max(hearts[other], 0.5) - 1.0 / max(hearts[player], 0.5)
    return [diff[0], danger, *diff[1:14], road, pending, *diff[14:17], 1 if active == player else -1,
            nearest[other] - nearest[player], near[player] - near[other]]


_HAND_WEIGHTS = tuple(HAND[name] for name in FEATURES)
_FITTED_WEIGHTS = tuple(FITTED[name] for name in FEATURES)


def _weighted(weights: tuple, state, player: int) -> float:
    return sum(map(mul, weights, features(state, player)))


def evaluate(state, player: int) -> float:
    score = _weighted(_HAND_WEIGHTS, state, player)
    if state.placing is not None and state.active == player and state.result is None:
        # a declared summon is worth what its placement will bring, minus its cost
        card = state.game.content.cards[state.placing]
        near_home = STEP * (FAR - _field(state, state.ac[1 - player]).steps(1 << state.ac[player]))
        score += 0.9 * (_monster_value(card, card.atk, card.defense) + PRESENCE + COUNT + near_home
                        - CREST[0] * card.level)
    return score


def value(state, player: int) -> float:
    """The search's value of a position where its tree stops: the FITTED logit of `player`'s win, in the
    evaluation's units (a thousand a logit)."""
    return 1000.0 * _weighted(_FITTED_WEIGHTS, state, player)


def values(state) -> dict[int, float]:
    """`value` for both players from one reading: every feature is a difference between the sides, so each
    player's value is minus the other's."""
    first = value(state, 0)
    return {0: first, 1: -first}


SHORTLIST = 12      # nets the search tries at a placing step
PRESELECT = 160     # nets nearest the enemy Master, among which the evaluation picks those SHORTLIST
_shortlists: dict = {}


def shortlist(state, actions: list) -> list:
    """At a placing step (up to ~1,800 nets), the SHORTLIST best nets by the evaluation one ply ahead, among the
    PRESELECT whose monster lands nearest the enemy Master, then whose nearest square is (read off the current
    distance field without applying the nets: the evaluation also counts the roads a net opens for the other
    monsters, of both sides). `actions` is the step's legal list. Cached per board: a search meets the same
    board under every summon it tries."""
    if state.phase != "placing" or len(actions) <= SHORTLIST:
        return actions
    player = state.active
    key = (state.path[0], state.path[1], tuple(state.ac), player, state.placed[player], len(actions))
    found = _shortlists.get(key)
    if found is None:
        found = keep(_shortlists, key, _best_nets(state, player, _nearest_nets(state, player, actions)))
    return found


def _nearest_nets(state, player: int, actions: list) -> list:
    geo = state.game.geo
    steps = [FAR] * geo.n
    for d, layer in enumerate(_field(state, state.ac[1 - player]).whole()):
        for sq in _bits(layer):
            steps[sq] = d
    own_master = state.ac[player]

    def distance(action):
        squares = geo.placements[action[1]][2]
        lands = geo.nearest(squares, own_master, player)
        return STEP * steps[lands] + ROAD * min(steps[sq] for sq in squares)

    return sorted(actions, key=distance)[:PRESELECT]


def _best_nets(state, player: int, nets: list) -> list:
    def value(action):
        after = state.clone()
        after.apply(action)
        return evaluate(after, player)

    return sorted(nets, key=value, reverse=True)[:SHORTLIST]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
