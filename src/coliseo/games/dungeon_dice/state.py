"""Dungeon Dice Monsters (JDMC) rules: the state, its legal actions and their effects.

Rule numbers (R1..R36) refer to docs/rules/dungeon_dice.md.
Actions are tuples:
  ("summon", C) ("dim", placement id) ("ssummon", C) ("esummon", C) ("move", x, y)
  ("spell", C, target) ("set", C) ("effect", x, target) ("zash", n, arg)
  ("battle",) ("spend2",) ("end",) ("attack", x, y) ("trap", C) ("defend",) ("pass",)
where squares are ints, spell targets are None, a square or "gyN:C", and zash args a square, a card or None.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import itemgetter

from coliseo.core.events import private
from coliseo.core.game import State, in_sorted
from coliseo.core.i18n import refusal
from coliseo.core.memo import keep

from .board import bits
from .content import CREST_NAMES, CRESTS
from .text import crest_amount

S, M, A, D, G, T, E, Z = range(8)
BATTLE, SPEND2, END, DEFEND, PASS = ("battle",), ("spend2",), ("end",), ("defend",), ("pass",)
PHASES = ("spend1", "battle", "spend2", "placing", "window", "over")

# A piece is a list: [uid, card (None = the AC), owner, controller, equips [(card, owner)], tmp_atk,
#                     attacked, effect used this turn, effect used this game]
UID, CARD, OWNER, CTRL, EQUIPS, TMP, ATTACKED, EFF_TURN, EFF_GAME = range(9)


def attack_range(level: int) -> int:
    """R29: 1-6 -> 1, 7-8 -> 2, 9+ -> 3."""
    return 1 if level <= 6 else 2 if level <= 8 else 3


def effect_cost(level: int) -> int:
    """R26: 1-4 -> 1 E, 5-8 -> 2 E, 9+ -> 3 E."""
    return 1 if level <= 4 else 2 if level <= 8 else 3


def crest_gain(dice, faces, amounts_one: bool):
    """R9 for one roll: (crest index or None, amount, zash crests, triple?).

    `dice` are Die objects, `faces` the face index rolled on each (same order).
    """
    return _gain(tuple(sorted((*d.faces[f], d.cls) for d, f in zip(dice, faces))), amounts_one)[:4]


@lru_cache(maxsize=4096)
def _gain(shown: tuple, amounts_one: bool) -> tuple:
    """crest_gain of the faces shown, each (crest, printed amount, die class), in any order (the gain does not
    depend on it), and the event's text of it: cached, since the dice have few kinds of face (15 by default)."""
    counts = {}
    for i, (crest, _, _) in enumerate(shown):
        if crest != Z:
            counts.setdefault(crest, []).append(i)
    group = next((g for g in counts.values() if len(g) >= 2), None)
    zs = sum(1 for crest, _, _ in shown if crest == Z)
    if group is None:
        return None, 0, zs, False, f"{zs} Z" if zs else "-"
    crest = shown[group[0]][0]
    commons = [shown[i][1] for i in group if shown[i][2] == "common"]
    base = 1 if not commons or amounts_one else min(commons)
    mult = 1
    if commons and any(shown[i][2] == "particular" for i in group):
        mult = 2
        if len(group) == 2 and zs:
            mult, zs = 3, zs - 1
    amount = base * mult
    gained = ([f"{amount} {CRESTS[crest]}"] if amount else []) + ([f"{zs} Z"] if zs else [])
    return crest, amount, zs, len(group) == 3, ", ".join(gained) or "-"


def face_text(die, face: int) -> str:
    crest, amount = die.faces[face]
    return CRESTS[crest] + (str(amount) if die.cls == "common" else "")


class DDMState(State):
    __slots__ = ("path", "holes", "pieces", "ac", "pool", "hearts", "dice", "drawn", "rolls", "library",
                 "setzone", "grave", "deck_size", "active", "phase", "ret_phase", "placing", "window",
                 "spent1", "summoned", "mover", "placed", "counts", "next_uid", "_turn", "_result")

    # --- the contract ---------------------------------------------------------------------------
    @property
    def players(self):
        return (0, 1)

    @property
    def current_player(self):
        if self._result is not None:
            return None
        if self.phase == "window":
            return 1 - self.active
        return self.active

    @property
    def result(self):
        return self._result

    @property
    def turn(self):
        return self._turn

    def clone(self):
        s = DDMState.__new__(DDMState)
        s.game, s.rng, s._legal = self.game, self.rng.clone(), self._legal
        s.path, s.holes = self.path[:], self.holes[:]
        s.pieces = {sq: p[:4] + [p[4][:]] + p[5:] for sq, p in self.pieces.items()}
        s.ac, s.pool, s.hearts = self.ac[:], [self.pool[0][:], self.pool[1][:]], self.hearts[:]
        s.dice, s.drawn, s.rolls = self.dice, self.drawn, self.rolls
        s.library = [self.library[0][:], self.library[1][:]]
        s.setzone = [self.setzone[0][:], self.setzone[1][:]]
        s.grave = [self.grave[0][:], self.grave[1][:]]
        s.deck_size, s.active, s.phase, s.ret_phase = self.deck_size, self.active, self.phase, self.ret_phase
        s.placing, s.window, s.spent1, s.summoned = self.placing, self.window, self.spent1, self.summoned
        s.mover, s.placed, s.counts = self.mover, self.placed[:], [self.counts[0][:], self.counts[1][:]]
        s.next_uid, s._turn, s._result = self.next_uid, self._turn, self._result
        return s

    # --- small helpers --------------------------------------------------------------------------
    def card(self, cid):
        return self.game.content.cards[cid]

    def atk(self, piece) -> int:
        return max(0, self.game.content.cards[piece[CARD]].atk + self._equipped(piece, "atk") + piece[TMP])

    def defense(self, piece) -> int:
        return max(0, self.game.content.cards[piece[CARD]].defense + self._equipped(piece, "def"))

    def _equipped(self, piece, stat: str) -> int:
        """What the piece's equip cards add to `stat`."""
        if not piece[EQUIPS]:
            return 0
        cards = self.game.content.cards
        return sum(cards[c].params.get(stat, 0) for c, _ in piece[EQUIPS])

    def locked(self) -> int:
        """R13: the crest types (bitmask) the active player may not spend now."""
        if self.phase != "spend2" and not (self.phase == "placing" and self.ret_phase == "spend2"):
            return 0
        mode = self.game.options["spend2_lock"]
        if mode == "type":
            return self.spent1
        if mode == "magic":
            return self.spent1 & (1 << G)
        return 0

    def avail(self, crest: int) -> int:
        """Crests of a type the active player can spend now (0 if the type is locked)."""
        return 0 if self.locked() >> crest & 1 else self.pool[self.active][crest]

    def pay(self, crest: int, n: int) -> None:
        self.pool[self.active][crest] -= n
        if self.phase == "spend1" or (self.phase == "placing" and self.ret_phase == "spend1"):
            self.spent1 |= 1 << crest

    def gain(self, player: int, crest: int, n: int) -> None:
        pool = self.pool[player]
        pool[crest] += n
        cap = self.game.options["crest_cap"]
        if cap:
            for i in range(8):
                if pool[i] > cap:
                    pool[i] = cap

    def monsters_of(self, player: int):
        return [(sq, p) for sq, p in self.pieces.items() if p[CARD] is not None and p[CTRL] == player]

    def free_tiles(self):
        """Path tiles with no piece and no hole (special summons, revives)."""
        allpath = self.path[0] | self.path[1]
        for h in self.holes:
            allpath &= ~(1 << h)
        for sq in self.pieces:
            allpath &= ~(1 << sq)
        return allpath

    def frontier(self, player: int) -> int:
        """Empty squares (not path) adjacent to the player's path."""
        geo = self.game.geo
        own, w = self.path[player], geo.w
        left_ok = geo.not_last_file
        right_ok = geo.not_first_file
        adj = (own << w) | (own >> w) | ((own & left_ok) << 1) | ((own & right_ok) >> 1)
        return adj & geo.full & ~(self.path[0] | self.path[1])

    def placements(self, player: int) -> list[int]:
        """R18: the legal net placements of `player`, as placement ids (ascending)."""
        board = self._net_board(player)
        return list(_all_nets(*board)) if board else []

    def has_net(self, player: int) -> bool:
        """Whether `player` has a legal net, asked at every spend position. One answer holds over many boards:
        a legal net stays legal while its squares stay empty, and with none legal none becomes legal while no
        taken square is freed, as long as the player's path and first-net conditions do not change."""
        geo, taken = self.game.geo, self.path[0] | self.path[1]
        key = (geo, player, self.path[player], self.placed[player])
        known = _net_known.get(key)
        if known is not None:
            legal, squares = known
            if legal and not squares & taken:
                return True
            if not legal and not squares & ~taken:
                return False
        board = self._net_board(player)
        first = board and geo.first_fit(*board[1:])
        if first:
            shape, anchors = first
            keep(_net_known, key, (True, geo.placements[geo.shape_ids[shape][anchors.bit_length()]][3]), 4096)
            return True
        keep(_net_known, key, (False, taken), 4096)
        return False

    def _net_board(self, player: int):
        """What decides `player`'s legal nets: (geometry, empty squares, squares a net must touch, the first
        net's extra conditions); None when no net can touch the player's path."""
        geo = self.game.geo
        touch = self.frontier(player)
        if not touch:
            return None
        extra = () if self.placed[player] else (geo.nbr_mask[geo.masters[player]], geo.home_rank[player])
        return geo, geo.full & ~(self.path[0] | self.path[1]), touch, extra

    def reach(self, start: int, budget: int) -> dict:
        """R23: squares reachable from `start` in at most `budget` steps -> fewest steps."""
        path = self.path[0] | self.path[1]
        pieces, holes = self.pieces, self.holes
        nbrs = self.game.geo.nbrs
        blocked_hole = holes[0] if len(holes) == 1 else -1
        worm = {holes[0]: holes[1], holes[1]: holes[0]} if len(holes) == 2 else None
        dist = {start: 0}
        frontier = [start]
        for step in range(1, budget + 1):
            nxt = []
            for sq in frontier:
                around = nbrs[sq]
                if worm and sq in worm:
                    around = around + (worm[sq],)
                for n in around:
                    if n in dist or not path >> n & 1 or n in pieces or n == blocked_hole:
                        continue
                    dist[n] = step
                    nxt.append(n)
            if not nxt:
                break
            frontier = nxt
        del dist[start]
        return dist

    def targets_in_line(self, sq: int, piece, enemies_only_monsters: bool = False):
        """R29: enemy pieces on the same file or rank within range, nothing between."""
        level = self.game.content.cards[piece[CARD]].level
        me, pieces = piece[CTRL], self.pieces
        out = []
        for ray in self.game.geo.rays_within[attack_range(level)][sq]:
            for sq2 in ray:
                other = pieces.get(sq2)
                if other is None:
                    continue
                if other[CTRL] != me and not (enemies_only_monsters and other[CARD] is None):
                    out.append(sq2)
                break
        return out

    def _self_summon_ok(self, player: int, condition: str) -> bool:
        mine = sum(1 for p in self.pieces.values() if p[CARD] is not None and p[CTRL] == player)
        if condition == "no_own_monsters":
            return mine == 0
        theirs = sum(1 for p in self.pieces.values() if p[CARD] is not None and p[CTRL] != player)
        return theirs > mine

    def gy_targets(self, player: int, frm: str) -> list[str]:
        """Monsters a revive of `player` may take: `gyN:C`, one per distinct card."""
        cards = self.game.content.cards
        out = []
        for owner in ((player,) if frm == "own" else (0, 1)):
            for cid in sorted(set(self.grave[owner])):
                if cards[cid].type == "monster":
                    out.append(f"gy{owner + 1}:{cid}")
        return out

    # --- legal actions --------------------------------------------------------------------------
    def _legal_actions(self):
        phase = self.phase
        if phase == "placing":
            board = self._net_board(self.active)
            return list(_dim_actions(*board)) if board else []
        if phase == "window":
            return self._window_actions()
        if phase == "battle":
            return self._battle_actions()
        return self._spend_actions()

    def _is_legal(self, action) -> bool:
        """As the base, but a net among the ~600-1,800 of a placing step is found by bisection: they are listed
        by placement id."""
        legal = self.legal_actions()
        if self.phase == "placing" and type(action) is tuple and len(action) == 2 and type(action[0]) is str and \
                type(action[1]) is int:
            return in_sorted(legal, action, itemgetter(1))
        return action in legal

    def _window_actions(self):
        q = 1 - self.active
        out = []
        if self.pool[q][T] >= 1:
            seen = set()
            for cid, turn in self.setzone[q]:
                if turn < self._turn and cid not in seen:
                    seen.add(cid)
                    out.append(("trap", cid))
        target = self.pieces.get(self.window[1])
        if target is not None and target[CARD] is not None and self.pool[q][D] >= 1:
            out.append(DEFEND)
        out.append(PASS)
        return out

    def _battle_actions(self):
        out = []
        if self.pool[self.active][A] >= 1:
            for sq, p in sorted(self.monsters_of(self.active)):
                if not p[ATTACKED]:
                    for t in self.targets_in_line(sq, p):
                        out.append(("attack", sq, t))
        out.append(SPEND2)
        out.append(END)
        return out

    def _spend_actions(self):
        p = self.active
        cards = self.game.content.cards
        out = []
        monsters, min_level, spells, set_actions = _library_view(self.game, tuple(self.library[p]))
        locked, pool = self.locked(), self.pool[p]
        if locked:
            s_av, e_av, g_av, m_av, z_av = (0 if locked >> crest & 1 else pool[crest] for crest in (S, E, G, M, Z))
        else:
            s_av, e_av, g_av, m_av, z_av = pool[S], pool[E], pool[G], pool[M], pool[Z]
        free = None
        # R20 / R21 crest summons
        if not self.summoned and monsters and s_av >= min_level:
            if self.has_net(p):
                out.extend(("summon", c) for c in monsters if cards[c].level <= s_av)
            else:
                free = self.free_tiles()
                if free:
                    out.extend(("ssummon", c) for c in monsters if 2 * cards[c].level <= s_av)
        # R22 effect summons
        if e_av:
            for c in monsters:
                card = cards[c]
                if card.condition and effect_cost(card.level) <= e_av and self._self_summon_ok(p, card.condition):
                    if free is None:
                        free = self.free_tiles()
                    if free:
                        out.append(("esummon", c))
        # R23 moves
        if m_av:
            limited = self.game.options["ac_move_limited"]
            for sq, piece in sorted(self.pieces.items()):
                if piece[CTRL] != p:
                    continue
                if (piece[CARD] is not None or limited) and self.mover is not None and self.mover != piece[UID]:
                    continue
                for dest in sorted(self.reach(sq, m_av)):
                    out.append(("move", sq, dest))
        # R24 spells
        if g_av:
            for c in spells:
                card = cards[c]
                if card.kind in ("destroy", "weaken"):
                    mx = card.params.get("max_atk")
                    for sq, piece in sorted(self.monsters_of(1 - p)):
                        if mx is None or self.atk(piece) <= mx:
                            out.append(("spell", c, sq))
                elif card.kind == "equip":
                    for sq, _ in sorted(self.monsters_of(p)):
                        out.append(("spell", c, sq))
                elif card.kind == "revive":
                    if free is None:
                        free = self.free_tiles()
                    if free:
                        out.extend(("spell", c, t) for t in self.gy_targets(p, card.params.get("from", "own")))
                else:
                    out.append(("spell", c, None))
        # R25 set
        out.extend(set_actions)
        # R26 effects
        if e_av:
            for sq, piece in sorted(self.monsters_of(p)):
                card = cards[piece[CARD]]
                if card.kind is None or piece[EFF_TURN] or piece[EFF_GAME] or effect_cost(card.level) > e_av:
                    continue
                if card.kind == "destroy_in_range":
                    mx = card.params.get("max_atk")
                    for t in self.targets_in_line(sq, piece, enemies_only_monsters=True):
                        if mx is None or self.atk(self.pieces[t]) <= mx:
                            out.append(("effect", sq, t))
                else:
                    out.append(("effect", sq, None))
        # R27 zash
        if z_av:
            out.extend(("zash", 1, q) for q in bits(self.frontier(p)))
            if z_av >= 2:
                removable = self._removable()
                out.extend(("zash", 2, q) for q in bits(removable))
                if z_av >= 3 and len(self.holes) < 2:
                    for h in self.holes:
                        removable &= ~(1 << h)
                    out.extend(("zash", 3, q) for q in bits(removable))
                if z_av >= 4:
                    if free is None:
                        free = self.free_tiles()
                    if free:
                        out.extend(("zash", 4, c) for c in sorted(set(self.grave[p])) if cards[c].type == "monster")
                if z_av >= 5 and self.hearts[p] < self.game.options["hearts"]:
                    out.append(("zash", 5, None))
        out.append(BATTLE if self.phase == "spend1" else END)
        if self.phase == "spend1":
            out.append(END)
        return out

    def _removable(self) -> int:
        """Path tiles without a piece that are not master squares (zash2; zash3 also needs no hole)."""
        mask = self.path[0] | self.path[1]
        for m in self.game.geo.masters:
            mask &= ~(1 << m)
        for sq in self.pieces:
            mask &= ~(1 << sq)
        return mask

    # --- why an action is illegal ---------------------------------------------------------------
    def why_illegal(self, action, lang: str = "en") -> str:
        try:
            return self._why(action, lang)
        except (IndexError, KeyError, TypeError, ValueError):
            return refusal(self.game, "not_action", lang)

    def _why(self, action, lang: str) -> str:
        if self._result is not None:
            return refusal(self.game, "over", lang)
        kind = action[0] if isinstance(action, tuple) and action else None
        if self.phase == "placing":
            if kind == "dim":
                return refusal(self.game, "bad_net", lang)
            return refusal(self.game, "place_first", lang, card=self.game.card_name(self.placing, lang))
        if self.phase == "window":
            if kind == "trap":
                return refusal(self.game, "no_trap", lang)
            if kind in ("defend", "pass"):
                return refusal(self.game, "defend", lang)
            return refusal(self.game, "answer", lang)
        if kind in ("trap", "defend", "pass"):
            return refusal(self.game, "no_attack", lang)
        if kind == "attack":
            if self.phase != "battle":
                return refusal(self.game, "attack_phase", lang)
            if self.pool[self.active][A] < 1:
                return refusal(self.game, "attack_crest", lang)
            return refusal(self.game, "attack_target", lang)
        if self.phase == "battle" and kind not in ("spend2", "end"):
            return refusal(self.game, "battle_only", lang)
        if kind == "battle":
            return refusal(self.game, "battle_after", lang)
        if kind == "spend2":
            return refusal(self.game, "spend2_after", lang)
        if kind == "dim":
            return refusal(self.game, "declare_first", lang)
        lock = self.locked()
        need = {"summon": S, "ssummon": S, "esummon": E, "move": M, "spell": G, "effect": E, "zash": Z}.get(kind)
        if need is not None and lock >> need & 1:
            return refusal(self.game, "locked", lang, crest=CREST_NAMES[lang][CRESTS[need]])
        p = self.active
        cards = self.game.content.cards
        if kind in ("summon", "ssummon", "esummon"):
            c = action[1]
            if c not in self.library[p] or cards[c].type != "monster":
                return refusal(self.game, "not_in_deck", lang)
            lvl = cards[c].level
            if kind == "esummon":
                return refusal(self.game, "esummon", lang)
            if self.summoned:
                return refusal(self.game, "summoned", lang)
            if kind == "summon":
                if self.pool[p][S] < lvl:
                    return refusal(self.game, "summon_crests", lang, crests=crest_amount(lvl, "S", lang))
                return refusal(self.game, "no_place", lang)
            if self.pool[p][S] < 2 * lvl:
                return refusal(self.game, "ssummon_crests", lang, crests=crest_amount(2 * lvl, "S", lang))
            return refusal(self.game, "ssummon_only", lang)
        if kind == "move":
            if self.pool[p][M] < 1:
                return refusal(self.game, "move_crests", lang)
            piece = self.pieces.get(action[1])
            if piece is None or piece[CTRL] != p:
                square = action[1]
                return refusal(self.game, "no_piece", lang,
                               square=self.game.geo.names[square] if isinstance(square, int) else square)
            if piece[CARD] is not None and self.mover not in (None, piece[UID]):
                return refusal(self.game, "moved", lang)
            return refusal(self.game, "unreachable", lang)
        if kind == "spell":
            if self.pool[p][G] < 1:
                return refusal(self.game, "magic_crest", lang)
            if action[1] not in self.library[p]:
                return refusal(self.game, "spell_not_in_deck", lang)
            return refusal(self.game, "spell_target", lang)
        if kind == "set":
            return refusal(self.game, "set_trap", lang)
        if kind == "effect":
            return refusal(self.game, "effect", lang)
        if kind == "zash":
            return refusal(self.game, "zash", lang)
        return refusal(self.game, "not_now", lang)

    # --- applying -------------------------------------------------------------------------------
    def _apply(self, action):
        kind = action[0]
        handler = getattr(self, "_do_" + kind)
        events = handler(action)
        return events

    def _place_monster(self, player, cid, owner, sq, how):
        piece = [self.next_uid, cid, owner, player, [], 0, False, False, False]
        self.next_uid += 1
        self.pieces[sq] = piece
        self.counts[player][0] += 1
        self.counts[player][1] += self.game.content.cards[cid].level
        return {"type": "summon", "player": player, "card": cid, "square": self.game.geo.names[sq], "how": how}

    def _nearest_free(self, player):
        geo = self.game.geo
        return geo.nearest(list(bits(self.free_tiles())), self.ac[player], player)

    def _do_summon(self, action):
        self.placing, self.ret_phase, self.phase = action[1], self.phase, "placing"
        return [{"type": "declare", "player": self.active, "card": action[1]}]

    def _do_dim(self, action):
        p, geo = self.active, self.game.geo
        _, _, squares, mask, _ = geo.placements[action[1]]
        cid = self.placing
        self.pay(S, self.card(cid).level)
        self.path[p] |= mask
        self.placed[p] = True
        self.library[p].remove(cid)
        self.summoned = True
        self.phase, self.placing, self.ret_phase = self.ret_phase, None, None
        sq = geo.nearest(squares, self.ac[p], p)
        return [{"type": "dimension", "player": p, "net": geo.placement_text(action[1]),
                 "squares": [geo.names[s] for s in squares]},
                self._place_monster(p, cid, p, sq, "dimension")]

    def _do_ssummon(self, action):
        p, cid = self.active, action[1]
        self.pay(S, 2 * self.card(cid).level)
        self.library[p].remove(cid)
        self.summoned = True
        return [self._place_monster(p, cid, p, self._nearest_free(p), "special")]

    def _do_esummon(self, action):
        p, cid = self.active, action[1]
        self.pay(E, effect_cost(self.card(cid).level))
        self.library[p].remove(cid)
        return [self._place_monster(p, cid, p, self._nearest_free(p), "effect")]

    def _do_move(self, action):
        p, (_, x, y) = self.active, action
        cost = self.reach(x, self.avail(M))[y]
        self.pay(M, cost)
        piece = self.pieces.pop(x)
        self.pieces[y] = piece
        if piece[CARD] is None:
            self.ac[p] = y
            if self.game.options["ac_move_limited"]:
                self.mover = piece[UID]
        else:
            self.mover = piece[UID]
        names = self.game.geo.names
        return [{"type": "move", "player": p, "piece": piece[CARD] or "master", "from": names[x], "to": names[y],
                 "cost": cost}]

    def _destroy(self, sq):
        piece = self.pieces.pop(sq)
        self.grave[piece[OWNER]].append(piece[CARD])
        for c, owner in piece[EQUIPS]:
            self.grave[owner].append(c)
        # if it was this turn's moving monster, `mover` keeps its uid: no other monster moves this turn (E2)
        return {"type": "destroyed", "player": piece[OWNER], "card": piece[CARD], "square": self.game.geo.names[sq]}

    def _do_spell(self, action):
        p, (_, cid, target) = self.active, action
        card = self.card(cid)
        self.pay(G, 1)
        self.library[p].remove(cid)
        names = self.game.geo.names
        ev = {"type": "spell", "player": p, "card": cid}
        if isinstance(target, int):
            ev["target"] = names[target]
        elif target is not None:
            ev["target"] = target
        events = [ev]
        to_grave = True
        if card.kind == "destroy":
            events.append(self._destroy(target))
        elif card.kind == "weaken":
            self.pieces[target][TMP] -= card.params["atk"]
        elif card.kind == "equip":
            self.pieces[target][EQUIPS].append((cid, p))
            to_grave = False
        elif card.kind == "revive":
            owner = int(target[2]) - 1
            mid = target.split(":", 1)[1]
            gy = self.grave[owner]
            gy.pop(len(gy) - 1 - gy[::-1].index(mid))
            events.append(self._place_monster(p, mid, owner, self._nearest_free(p), "revive"))
        elif card.kind == "crests":
            self.gain(p, CRESTS.index(card.params["crest"]), card.params["amount"])
            events.append({"type": "gain", "player": p, "crests": f"{card.params['amount']} {card.params['crest']}"})
        if to_grave:
            self.grave[p].append(cid)
        return events

    def _do_set(self, action):
        p, cid = self.active, action[1]
        self.library[p].remove(cid)
        self.setzone[p].append((cid, self._turn))
        return [{"type": "set", "player": p, "private": private([p], card=cid)}]

    def _do_effect(self, action):
        p, (_, x, target) = self.active, action
        piece = self.pieces[x]
        card = self.card(piece[CARD])
        self.pay(E, effect_cost(card.level))
        piece[EFF_TURN] = True
        if card.once == "game":
            piece[EFF_GAME] = True
        names = self.game.geo.names
        ev = {"type": "effect", "player": p, "card": piece[CARD], "square": names[x]}
        events = [ev]
        if card.kind == "crests":
            self.gain(p, CRESTS.index(card.params["crest"]), card.params["amount"])
            events.append({"type": "gain", "player": p, "crests": f"{card.params['amount']} {card.params['crest']}"})
        elif card.kind == "boost_self":
            piece[TMP] += card.params["atk"]
        elif card.kind == "destroy_in_range":
            ev["target"] = names[target]
            events.append(self._destroy(target))
        return events

    def _do_zash(self, action):
        p, (_, n, arg) = self.active, action
        self.pay(Z, n)
        names = self.game.geo.names
        ev = {"type": "zash", "player": p, "n": n}
        events = [ev]
        if n == 1:
            self.path[p] |= 1 << arg
            ev["square"] = names[arg]
        elif n == 2:
            for q in (0, 1):
                self.path[q] &= ~(1 << arg)
            if arg in self.holes:
                self.holes.remove(arg)
            ev["square"] = names[arg]
        elif n == 3:
            self.holes.append(arg)
            ev["square"] = names[arg]
        elif n == 4:
            gy = self.grave[p]
            gy.pop(len(gy) - 1 - gy[::-1].index(arg))
            ev["card"] = arg
            events.append(self._place_monster(p, arg, p, self._nearest_free(p), "zash"))
        else:
            self.hearts[p] += 1
        return events

    def _do_battle(self, action):
        self.phase = "battle"
        return [{"type": "phase", "player": self.active, "phase": "battle"}]

    def _do_spend2(self, action):
        self.phase = "spend2"
        return [{"type": "phase", "player": self.active, "phase": "spend2"}]

    def _do_attack(self, action):
        p, (_, x, y) = self.active, action
        self.pay(A, 1)
        attacker, target = self.pieces[x], self.pieces[y]
        attacker[ATTACKED] = True
        names = self.game.geo.names
        events = [{"type": "attack", "player": p, "card": attacker[CARD], "square": names[x],
                   "target": target[CARD] or "master", "target_square": names[y]}]
        q = 1 - p
        has_trap = self.pool[q][T] >= 1 and any(t < self._turn for _, t in self.setzone[q])
        if has_trap or (target[CARD] is not None and self.pool[q][D] >= 1):
            self.phase, self.window = "window", (x, y, ())
            events.append({"type": "window", "player": q})
            return events
        return events + self._resolve(x, y, defend=False)

    def _resolve(self, x, y, defend):
        """R31: the battle between the pieces on x (attacker) and y (target)."""
        attacker, target = self.pieces[x], self.pieces[y]
        self.phase, self.window = "battle", None
        events = []
        if target[CARD] is None:
            q = target[CTRL]
            self.hearts[q] -= 1
            events.append({"type": "heart", "player": q, "hearts": self.hearts[q]})
            if self.hearts[q] <= 0:
                events.append(self._finish([1 - q], "all_hearts_lost"))
            return events
        a = self.atk(attacker)
        if defend:
            d = self.defense(target)
            events.append({"type": "battle", "mode": "defense", "atk": a, "value": d})
            if a > d:
                events.append(self._destroy(y))
            return events
        t = self.atk(target)
        events.append({"type": "battle", "mode": "attack", "atk": a, "value": t})
        if a > t:
            events.append(self._destroy(y))
        elif t > a:
            events.append(self._destroy(x))
        elif a > 0:
            events.append(self._destroy(x))
            events.append(self._destroy(y))
        return events

    def _do_trap(self, action):
        q, cid = 1 - self.active, action[1]
        zone = self.setzone[q]
        i = next(i for i, (c, t) in enumerate(zone) if c == cid and t < self._turn)
        zone.pop(i)
        self.pool[q][T] -= 1
        card = self.card(cid)
        x, y, traps = self.window
        events = [{"type": "trap", "player": q, "card": cid}]
        if card.kind == "weaken_attacker":
            self.pieces[x][TMP] -= card.params["atk"]
            self.grave[q].append(cid)
            self.window = (x, y, traps + (cid,))
            return events
        self.window = None
        if card.kind == "destroy_attacker":
            events.append(self._destroy(x))
            self.phase = "battle"
        else:
            self.phase = "spend2" if card.params.get("end_battle") else "battle"
        self.grave[q].append(cid)                 # R30: resolve, then the trap goes (after a destroyed attacker)
        events.append({"type": "attack_ends", "player": self.active})
        return events

    def _do_defend(self, action):
        q = 1 - self.active
        self.pool[q][D] -= 1
        x, y, _ = self.window
        return [{"type": "defend", "player": q}] + self._resolve(x, y, defend=True)

    def _do_pass(self, action):
        x, y, _ = self.window
        return [{"type": "pass", "player": 1 - self.active}] + self._resolve(x, y, defend=False)

    def _do_end(self, action):
        p = self.active
        events = [{"type": "end", "player": p, "turn": self._turn}]
        for piece in self.pieces.values():
            piece[TMP] = 0
            piece[ATTACKED] = False
            piece[EFF_TURN] = False
        self.spent1, self.summoned, self.mover = 0, False, None
        self.drawn, self.rolls = (), ()
        if self._turn >= self.game.options["max_turns"]:
            events.append(self._finish_by_limit())
            return events
        self.active = 1 - p
        self._turn += 1
        self.phase = "spend1"
        events.extend(self.start_turn())
        return events

    def _finish(self, winners, reason):
        self._result = {"winners": winners, "reason": reason, "scores": self.hearts[:]}
        self.phase = "over"
        return {"type": "game_over", "winners": winners, "reason": reason}

    def _finish_by_limit(self):
        """R36: hearts, then monsters put on the board, then their total level; else a draw."""
        h, c = self.hearts, self.counts
        for key in ((h[0], h[1]), (c[0][0], c[1][0]), (c[0][1], c[1][1])):
            if key[0] != key[1]:
                return self._finish([0 if key[0] > key[1] else 1], "turn_limit")
        return self._finish([], "turn_limit")

    def start_turn(self):
        """R8-R10: draw three dice, roll, gain; the triple bonus re-rolls once."""
        p, rng = self.active, self.rng
        deck = self.dice[p]
        pool = list(range(len(deck)))
        drawn = []
        for _ in range(3):
            drawn.append(pool.pop(rng.randrange(len(pool))))
        self.drawn = tuple(drawn)
        dice = [deck[i] for i in drawn]
        events = [{"type": "turn", "player": p, "turn": self._turn},
                  {"type": "draw", "player": p, "dice": dice}]
        sides = [_sides(self.game, d) for d in dice]
        one = self.game.options["crest_amounts"] == "one"
        rolls = []
        for n in range(2):
            faces = (rng.randrange(6), rng.randrange(6), rng.randrange(6))
            rolls.append(faces)
            a, b, c = sides[0][faces[0]], sides[1][faces[1]], sides[2][faces[2]]
            crest, amount, zs, triple, gained = _gain(tuple(sorted((a[0], b[0], c[0]))), one)
            if crest is not None and amount:
                self.gain(p, crest, amount)
            if zs:
                self.gain(p, Z, zs)
            events.append({"type": "roll", "player": p, "faces": f"{a[1]} {b[1]} {c[1]}", "gain": gained})
            if not (triple and n == 0 and self.game.options["triple_bonus"] == "reroll"):
                break
        self.rolls = tuple(rolls)
        return events


# (geometry, player, the player's path, first net placed?) -> (True, a net legal there lately) or (False, the
# taken squares of a board where none was): DDMState.has_net
_net_known: dict = {}


def _library_view(game, library: tuple):
    """A library's distinct monsters in order, their lowest level, its spells and its set actions: kept with the
    game, since a library changes only when a card leaves it."""
    found = game.library_views.get(library)
    if found is None:
        cards = game.content.cards
        lib = sorted(set(library))
        monsters = tuple(c for c in lib if cards[c].type == "monster")
        min_level = min((cards[c].level for c in monsters), default=None)
        spells = tuple(c for c in lib if cards[c].type == "spell")
        found = keep(game.library_views, library,
                     (monsters, min_level, spells, tuple(("set", c) for c in lib if cards[c].type == "trap")), 4096)
    return found


def _sides(game, die: str) -> tuple:
    """Per face of a die: (crest, printed amount, die class) as _gain reads it, and its text (kept with the game)."""
    found = game.die_sides.get(die)
    if found is None:
        kind = game.content.dice[die]
        found = game.die_sides[die] = tuple(((*kind.faces[f], kind.cls), face_text(kind, f)) for f in range(6))
    return found


def _nets(geo, empty: int, touch: int, extra: tuple, table=None) -> list:
    """The placement ids (or `table` entries: one list per shape, by anchor + 1) of the legal nets, ascending."""
    found = []
    add, top = found.append, geo.top_bit
    table = table or geo.shape_ids
    # Read from the top bit down (one big-int operation a net instead of three), then reversed.
    for shape, anchors in reversed(geo.fitting(empty, touch, extra)):
        by_length = table[shape]
        while anchors:
            b = anchors.bit_length()
            add(by_length[b])
            anchors ^= top[b]
    found.reverse()
    return found


@lru_cache(maxsize=1024)
def _all_nets(geo, empty: int, touch: int, extra: tuple) -> tuple[int, ...]:
    """Cached: a search derives the nets of the same few boards over and over."""
    return tuple(_nets(geo, empty, touch, extra))


@lru_cache(maxsize=1024)
def _dim_actions(geo, empty: int, touch: int, extra: tuple) -> tuple[tuple, ...]:
    return tuple(_nets(geo, empty, touch, extra, table=_dim_table(geo)))


@cache
def _dim_table(geo) -> list[list]:
    """Per shape, by anchor + 1: its ("dim", placement id) action, made once and shared."""
    return [[None if pid is None else ("dim", pid) for pid in ids] for ids in geo.shape_ids]
