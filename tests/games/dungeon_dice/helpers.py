"""Position builders and docs/rules/dungeon_dice.md's §8 invariants for the dungeon_dice tests."""

from __future__ import annotations

from coliseo import load_game
from coliseo.games.dungeon_dice.content import CRESTS
from coliseo.games.dungeon_dice.state import ATTACKED, CARD, CTRL, EFF_TURN, OWNER, TMP

GAME = load_game("dungeon_dice", first_player="1")


class Scripted:
    """A stand-in RNG that returns scripted values (for rolls the test chooses)."""

    def __init__(self, values):
        self.values = list(values)
        self.state = 0

    def randrange(self, n):
        v = self.values.pop(0)
        assert 0 <= v < n
        return v

    def clone(self):
        return Scripted(self.values)


def sq(name, game=GAME):
    return game.geo.index[name]


def position(game=GAME, *, seed=0, pool=None, pool2=None, phase="spend1", turn=3, setup=None):
    """Player 1 to act in `phase`, no crests unless given, no dice drawn effects beyond the start."""
    s = game.new_state(seed, setup)
    s.pool = [[0] * 8, [0] * 8]
    for player, given in ((0, pool), (1, pool2)):
        for letter, n in (given or {}).items():
            s.pool[player][CRESTS.index(letter)] = n
    s.phase, s._turn, s.active = phase, turn, 0
    s._legal = None
    return s


def path(s, player, *names):
    for name in names:
        s.path[player] |= 1 << sq(name, s.game)
    s._legal = None


def put(s, name, card, player, owner=None):
    """A face-up monster of `player` on `name` (made a path tile of that player if it is not one)."""
    q = sq(name, s.game)
    if not (s.path[0] | s.path[1]) >> q & 1:
        s.path[player] |= 1 << q
    s.pieces[q] = [s.next_uid, card, player if owner is None else owner, player, [], 0, False, False, False]
    s.next_uid += 1
    s.library[player if owner is None else owner].remove(card) if card in s.library[
        player if owner is None else owner] else None
    s._legal = None
    return s.pieces[q]


def move_master(s, player, name):
    q = sq(name, s.game)
    piece = s.pieces.pop(s.ac[player])
    s.pieces[q] = piece
    s.ac[player] = q
    s._legal = None


def act(s, text):
    return s.apply(s.game.parse_action(s, text))


def legal_texts(s):
    return [s.game.format_action(a) for a in s.legal_actions()]


def types(events):
    return [e["type"] for e in events]


def invariants(s) -> None:
    """docs/rules/dungeon_dice.md's §8 invariants 1-8 and 11 (9 and 10 are checked by the contract helpers)."""
    geo, opts = s.game.geo, s.game.options
    # 1
    assert all(0 <= h <= opts["hearts"] for h in s.hearts)
    over = s.result is not None
    assert over == (min(s.hearts) == 0 or (s.phase == "over" and s.turn == opts["max_turns"]))
    assert (s.current_player is None) == over
    # 2
    cap = opts["crest_cap"]
    for pool in s.pool:
        assert all(v >= 0 and (not cap or v <= cap) for v in pool)
    # 3
    allpath = s.path[0] | s.path[1]
    assert not s.path[0] & s.path[1]
    masters = [p for p in s.pieces.values() if p[CARD] is None]
    assert sorted(p[CTRL] for p in masters) == [0, 1]
    for q, p in s.pieces.items():
        assert allpath >> q & 1
        if p[CARD] is None:
            assert s.ac[p[CTRL]] == q
    # 4
    assert len(s.holes) <= 2 and len(set(s.holes)) == len(s.holes)
    for h in s.holes:
        assert h not in geo.masters and allpath >> h & 1
    for p, m in enumerate(geo.masters):
        assert s.path[p] >> m & 1
    # 5
    for p in (0, 1):
        held = len(s.library[p]) + len(s.setzone[p]) + len(s.grave[p])
        for piece in s.pieces.values():
            held += piece[CARD] is not None and piece[OWNER] == p
            held += sum(1 for _, o in piece[4] if o == p)
        assert held == s.deck_size[p]
    # 6 (per-turn flags are consistent)
    monsters_moved = s.mover
    if monsters_moved is not None:
        assert isinstance(monsters_moved, int)
    if s.phase in ("spend2",) or (s.phase == "placing" and s.ret_phase == "spend2"):
        pass
    # 7
    for d in s.dice:
        assert len(d) == 15
    if not over:
        assert len(s.drawn) == 3 and len(set(s.drawn)) == 3 and all(0 <= i < 15 for i in s.drawn)
    # 8
    for piece in s.pieces.values():
        if piece[CARD] is not None:
            assert s.atk(piece) >= 0 and s.defense(piece) >= 0
    # 11
    if not over:
        legal = s.legal_actions()
        if s.phase == "window":
            assert s.current_player == 1 - s.active
            assert {a[0] for a in legal} <= {"trap", "defend", "pass"}
        elif s.phase == "placing":
            assert legal and {a[0] for a in legal} == {"dim"}


def end_turn_resets(s) -> None:
    """After an End: no temporary modifier, attack or effect flag survives."""
    for piece in s.pieces.values():
        assert piece[TMP] == 0 and not piece[ATTACKED] and not piece[EFF_TURN]
