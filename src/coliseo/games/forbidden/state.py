"""The duel's rules: the state, legal actions and their effects (docs/rules/forbidden.md §2, R1–R37).

Field records are small lists `[id, face_up, defence, star, mod, curse, used, moved, known]` so a clone
copies them with one slice each. Seats are 0 and 1; zones are 1..5 in actions and 0..4 inside.
"""

from __future__ import annotations

from itertools import permutations

from coliseo.core.events import private
from coliseo.core.game import State, in_sorted
from coliseo.core.i18n import refusal
from coliseo.core.rng import Rng

from .content import EQUIP, MAGIC, MONSTER, RITUAL, TRAP, Pack

# Record fields.
ID, UP, DEF, STAR, MOD, CURSE, USED, MOVED, KNOWN = range(9)
# Counter slots per side (R32; cards_used and lp are derived).
TURNS, EFFECTIVE_ATTACKS, DEFENSIVE_WINS, FACEDOWN_PLAYS, PURE_MAGIC, TRAPS_TRIGGERED, FUSIONS, EQUIPS = range(8)
COUNTER_NAMES = ("turns", "effective_attacks", "defensive_wins", "facedown_plays", "pure_magic",
                 "traps_triggered", "fusions", "equips")
MAIN, PLACE, BATTLE, OVER = "main", "place", "battle", "over"
PHASES = (MAIN, PLACE, BATTLE, OVER)

# --- the action space (docs/rules/forbidden.md §5) -------------------------------------------------------------
# A play is ("play", seq, dest, fd): seq = hand positions 1..5 in combination order,
# dest 0 = act, 1..5 = m1..m5, 6..10 = s1..s5. Every action tuple exists once and is reused.
SEQS: list[tuple[int, ...]] = [p for n in range(1, 6) for p in permutations(range(1, 6), n)]
SEQ_INDEX = {s: i for i, s in enumerate(SEQS)}
PLAY = [[("play", s, d, False) for d in range(11)] for s in SEQS]


class _PlaysByMask(dict):
    """The plays of one chain by its set of destinations (an 11-bit mask), each built when first needed."""

    __slots__ = ("plays",)

    def __init__(self, plays: list[tuple]):
        super().__init__()
        self.plays = plays

    def __missing__(self, mask: int) -> tuple:
        found = self[mask] = tuple(self.plays[d] for d in range(11) if mask >> d & 1)
        return found


PLAYS_BY_MASK = [_PlaysByMask(row) for row in PLAY]


def _chains(n: int) -> tuple[list, list]:
    """The chains of an n-card hand in SEQS order as (parent's place in this order, last hand index, hand
    positions as bits, plays by mask): the single cards, then the chains of two or more."""
    seqs = [s for s in SEQS if max(s) <= n]
    place = {s: i for i, s in enumerate(seqs)}
    rows = [(place.get(s[:-1], -1), s[-1] - 1, sum(1 << (h - 1) for h in s), PLAYS_BY_MASK[SEQ_INDEX[s]])
            for s in seqs]
    return rows[:n], rows[n:]


CHAINS = [_chains(n) for n in range(6)]
# NO_MONSTER[m][positions]: whether those hand positions hold no monster, m = the hand's monster positions.
NO_MONSTER = [tuple(not positions & m for positions in range(32)) for m in range(32)]
# The destination masks of the chain classes (survivor kind * 2 + "no card is a monster") by the board's
# occupied zones (bit d = destination d), built when first needed.
CLASS_MASKS: dict[int, list[int]] = {}
PLAY_FD = {(h, n): ("play", (h,), n, True) for h in range(1, 6) for n in range(1, 6)}
PLACE_ACTIONS = [("place", x, y) for x in ("a", "d") for y in (1, 2)]
ATTACK = {(i, j): ("attack", i, j) for i in range(1, 6) for j in range(6)}  # j = 0: direct
POS = {i: ("pos", i) for i in range(1, 6)}
ACT = {i: ("act", i) for i in range(1, 6)}
ACT_ON = {(i, j): ("act", i, j) for i in range(1, 6) for j in range(1, 6)}
END = ("end",)


class DuelState(State):
    __slots__ = ("pack", "lp", "max_lp", "decks", "hands", "monsters", "spells", "removed", "counters", "pinned",
                 "created", "lists", "terrain", "turn_no", "player", "phase", "pending", "winner", "reason",
                 "outcome", "duelist")

    # --- contract properties -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return (0, 1)

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.player

    @property
    def result(self) -> dict | None:
        return self.outcome

    @property
    def turn(self) -> int:
        return self.turn_no

    # --- cards and stats -----------------------------------------------------------------------------
    def stat(self, rec: list, defence: bool = False) -> int:
        """Effective ATK (or DEF) of a field record (R2)."""
        card = self.pack.cards[rec[ID]]
        value = (card.defense if defence else card.atk) + rec[MOD] + rec[CURSE]
        value += self.pack.terrain_table[self.terrain][card.type]
        return 0 if value < 0 else (self.pack.max_stat if value > self.pack.max_stat else value)

    def star_of(self, rec: list) -> int:
        card = self.pack.cards[rec[ID]]
        return card.star1 if rec[STAR] == 1 else card.star2

    # --- legal actions ------------------------------------------------------------------------------
    def _legal_actions(self) -> list:
        if self.phase == MAIN:
            return self._legal_plays()
        if self.phase == PLACE:
            return list(PLACE_ACTIONS)
        return self._legal_battle()

    def _legal_plays(self) -> list:
        """Every play (R10, R11): each candidate chain is folded by card ids, one step on from its parent
        chain; its class (survivor kind, whether all its cards are non-monsters) gives its destinations."""
        p = self.player
        hand = self.hands[p]
        pack = self.pack
        kind2 = pack.kind2_of
        mons, spells = self.monsters[p], self.spells[p]
        occupied = monsters = 0
        for z in range(5):
            if mons[z] is not None:
                occupied |= 2 << z
            if spells[z] is not None:
                occupied |= 64 << z
        for h in range(len(hand)):
            if kind2[hand[h]] == MONSTER * 2:
                monsters |= 1 << h
        classes = CLASS_MASKS.get(occupied) or _class_masks(occupied)
        no_monster = NO_MONSTER[monsters]
        steps = [pack.step_rows[c] for c in hand]
        survivors = list(hand)
        append = survivors.append
        out: list = []
        extend = out.extend
        singles, longer = CHAINS[len(hand)]
        for _, last, positions, plays in singles:
            extend(plays[classes[kind2[hand[last]] + no_monster[positions]]])
        for parent, last, positions, plays in longer:
            s = steps[last][survivors[parent]]
            append(s)
            extend(plays[classes[kind2[s] + no_monster[positions]]])
        for h in range(1, len(hand) + 1):
            if monsters >> (h - 1) & 1:
                extend(PLAY_FD[h, z + 1] for z in range(5) if mons[z] is None)
        return out

    def _is_legal(self, action) -> bool:
        """As the base, but a play among the ~1,600 of a main phase is found by bisection: they are listed in
        `_play_order`."""
        legal = self.legal_actions()
        if self.phase == MAIN and type(action) is tuple and len(action) == 4 and type(action[0]) is str and \
                type(action[1]) is tuple and all(type(h) is int for h in action[1]) and \
                type(action[2]) is int and type(action[3]) is bool:
            return in_sorted(legal, action, _play_order)
        return action in legal

    def _attack_barred(self) -> str | None:
        """Why the player to move may not attack at all now (a refusal key), or None."""
        if self.pinned[self.player]:
            return "pinned"
        if self.turn_no == 1 and not self.game.options["first_turn_attack"]:
            return "first_turn"
        return None

    def _legal_battle(self) -> list:
        p, q = self.player, 1 - self.player
        mine, theirs = self.monsters[p], self.monsters[q]
        out = []
        if self._attack_barred() is None:
            targets = [j + 1 for j in range(5) if theirs[j] is not None] or [0]
            for i in range(5):
                rec = mine[i]
                if rec is not None and not rec[DEF] and not rec[USED]:
                    out.extend(ATTACK[i + 1, j] for j in targets)
        for i in range(5):
            rec = mine[i]
            if rec is not None and not rec[USED] and not rec[MOVED]:
                out.append(POS[i + 1])
        kind = self.pack.kind_of
        spells = self.spells[p]
        own = [j + 1 for j in range(5) if mine[j] is not None]
        equips = []
        for i in range(5):
            rec = spells[i]
            if rec is not None:
                k = kind[rec[ID]]
                if k == MAGIC or k == RITUAL:
                    out.append(ACT[i + 1])
                elif k == EQUIP:
                    equips.extend(ACT_ON[i + 1, j] for j in own)
        out.extend(equips)
        out.append(END)
        return out

    def why_illegal(self, action, lang: str = "en") -> str:
        def why(key: str, **fields) -> str:
            return refusal(self.game, key, lang, **fields)

        if self.phase == OVER:
            return why("over")
        tag = action[0] if isinstance(action, tuple) and action else None
        if self.phase == MAIN and tag != "play":
            return why("play_first")
        if self.phase == PLACE and tag != "place":
            return why("place_first")
        if self.phase == BATTLE and tag in ("play", "place"):
            return why("one_play")
        if tag == "play":
            seq = action[1]
            if any(h > len(self.hands[self.player]) for h in seq):
                return why("hand_size", n=len(self.hands[self.player]))
            if action[3]:
                return why("face_down")
            return why("no_fit")
        if tag == "attack":
            barred = self._attack_barred()
            if barred is not None:
                return why(barred)
            if action[2] == 0:
                return why("direct")
            return why("attack")
        if tag == "pos":
            return why("position")
        if tag == "act":
            return why("activate")
        return why("not_now")

    # --- applying actions ---------------------------------------------------------------------------
    def _apply(self, action) -> list[dict]:
        ev: list[dict] = []
        tag = action[0]
        p = self.player
        if tag == "play":
            self._play(p, action[1], action[2], action[3], ev)
        elif tag == "place":
            self._place(p, action[1] == "d", action[2], ev)
        elif tag == "attack":
            self._attack(p, action[1] - 1, action[2], ev)
        elif tag == "pos":
            rec = self.monsters[p][action[1] - 1]
            rec[DEF] = not rec[DEF]
            rec[MOVED] = True
            ev.append({"type": "position", "player": p, "zone": f"m{action[1]}",
                       "position": "def" if rec[DEF] else "atk"})
        elif tag == "act":
            zone = action[1] - 1
            card = self.spells[p][zone][ID]
            self.spells[p][zone] = None
            if len(action) == 2:
                self._activate(p, card, ev)
            else:
                self._combine(p, action[2], [card], False, True, ev)
        else:
            self._end_turn(p, ev)
        if self.phase != OVER and self.phase != PLACE and tag in ("play", "place", "act"):
            self.phase = BATTLE
        return ev

    def _play(self, p: int, seq: tuple, dest: int, fd: bool, ev: list) -> None:
        """A play from the hand (R10–R15)."""
        hand = self.hands[p]
        ids = [hand[h - 1] for h in seq]
        for h in sorted(seq, reverse=True):
            del hand[h - 1]
        occupied = (dest >= 6 and self.spells[p][dest - 6] is not None) or \
                   (1 <= dest <= 5 and self.monsters[p][dest - 1] is not None)
        combo = len(seq) >= 2 or occupied
        if len(seq) == 1 and (fd or dest >= 6):
            self.counters[p][FACEDOWN_PLAYS] += 1
        if len(seq) == 1 and (fd or dest >= 6) and not combo:  # nothing shown to the opponent: undoable
            event = {"type": "play_hidden", "player": p, "dest": _dest_name(dest), "count": 1,
                     "private": private([p], card=ids[0])}
        else:
            event = {"type": "play", "player": p, "dest": _dest_name(dest), "count": len(seq), "cards": ids}
        ev.append(event)
        self._combine(p, dest, ids, fd, combo, ev)

    def _combine(self, p: int, dest: int, ids: list[int], fd: bool, combo: bool, ev: list) -> None:
        """Fold a chain (R12) onto `dest` and place its survivor (R13)."""
        pack = self.pack
        cards = pack.cards
        removed = self.removed[p]
        field = None
        if 1 <= dest <= 5:
            field = self.monsters[p][dest - 1]
        elif dest >= 6:
            field = self.spells[p][dest - 6]
        if field is not None:
            a, mod, kept = field[ID], field[MOD], True
            rest = ids
        else:
            a, mod, kept = ids[0], 0, False
            rest = ids[1:]
        for b in rest:
            r = pack.fuse(a, b)
            ka, kb = cards[a].kind, cards[b].kind
            if r:
                removed.append(a)
                removed.append(b)
                ev.append({"type": "fusion", "player": p, "materials": [a, b], "result": r})
                self.counters[p][FUSIONS] += 1
                self.created[p].append(r)
                a, mod, kept = r, 0, False
            elif ka == MONSTER and kb == EQUIP and pack.fits(b, a):
                removed.append(b)
                mod += self._equip_value(p, cards[b].value, ev)
                ev.append({"type": "equip", "player": p, "equip": b, "monster": a})
            elif ka == EQUIP and kb == MONSTER and pack.fits(a, b):
                removed.append(a)
                value = self._equip_value(p, cards[a].value, ev)
                ev.append({"type": "equip", "player": p, "equip": a, "monster": b})
                a, mod, kept = b, value, False
            elif ka == MONSTER and kb != MONSTER:
                removed.append(b)
                ev.append({"type": "fail", "player": p, "kept": a, "discarded": b})
            else:
                removed.append(a)
                ev.append({"type": "fail", "player": p, "kept": b, "discarded": a})
                a, mod, kept = b, 0, False
        if field is not None and not kept:
            if dest >= 6:
                self.spells[p][dest - 6] = None
            else:
                self.monsters[p][dest - 1] = None
        kind = cards[a].kind
        if kept:  # a field monster that absorbed equips or survived failures keeps its record
            field[MOD] = mod
            if not field[UP]:
                field[UP] = True
                ev.append({"type": "flip", "player": p, "zone": _dest_name(dest), "card": a})
            return
        if dest == 0:
            self._activate(p, a, ev)
        elif dest <= 5:
            if kind == MONSTER:
                self._enter(p, dest - 1, [a, not fd or combo, False, 0, mod, 0, False, False, combo], ev)
            else:
                self._non_monster_from_monster_zone(p, a, ev)
        else:
            if kind == MONSTER:
                free = _first_empty(self.monsters[p])
                if free < 0:
                    removed.append(a)
                    ev.append({"type": "fail", "player": p, "discarded": a})   # no free zone for it
                else:
                    self._enter(p, free, [a, True, False, 0, mod, 0, False, False, True], ev)
            else:
                self.spells[p][dest - 6] = [a, False, False, 0, 0, 0, False, False, combo]
                if combo:
                    ev.append({"type": "set", "player": p, "zone": _dest_name(dest), "card": a})
                else:
                    ev.append({"type": "set_hidden", "player": p, "zone": _dest_name(dest)})

    def _non_monster_from_monster_zone(self, p: int, a: int, ev: list) -> None:
        kind = self.pack.cards[a].kind
        if kind in (MAGIC, RITUAL):
            self._activate(p, a, ev)
            return
        free = _first_empty(self.spells[p])
        if free < 0:
            self.removed[p].append(a)
            ev.append({"type": "fail", "player": p, "discarded": a})   # no free zone for it
        else:
            self.spells[p][free] = [a, False, False, 0, 0, 0, False, False, True]
            ev.append({"type": "set", "player": p, "zone": f"s{free + 1}", "card": a})

    def _enter(self, p: int, zone: int, rec: list, ev: list) -> None:
        """A monster record new to the field: its owner places it next (R14)."""
        self.monsters[p][zone] = rec
        if rec[UP] or rec[KNOWN]:
            e = {"type": "summon", "player": p, "zone": f"m{zone + 1}", "card": rec[ID]}
        else:
            e = {"type": "summon_hidden", "player": p, "zone": f"m{zone + 1}", "private": private([p], card=rec[ID])}
        ev.append(e)
        self.pending = zone
        self.phase = PLACE

    def _place(self, p: int, defence: bool, star: int, ev: list) -> None:
        rec = self.monsters[p][self.pending]
        rec[DEF] = defence
        rec[STAR] = star
        e = {"type": "place", "player": p, "zone": f"m{self.pending + 1}", "position": "def" if defence else "atk"}
        if rec[UP] or rec[KNOWN]:
            e["star"] = star
        else:
            e["private"] = private([p], star=star)
        ev.append(e)
        self.pending = -1
        self.phase = BATTLE

    def _equip_value(self, p: int, value: int, ev: list) -> int:
        """One equip step's bonus; the opponent's Reverse Trap turns it negative (R27)."""
        self.counters[p][EQUIPS] += 1
        if self._fire_response(1 - p, "reverse_power", ev):
            return -value
        return value

    # --- magic (R22, R23) ------------------------------------------------------------------------------
    def _activate(self, p: int, x: int, ev: list) -> None:
        card = self.pack.cards[x]
        q = 1 - p
        self.removed[p].append(x)
        if card.kind == MAGIC:
            self.counters[p][PURE_MAGIC] += 1
        ev.append({"type": "activate", "player": p, "card": x})
        g, v = card.group, card.value
        if g == 1:
            if 0 <= v < len(self.pack.terrain_table):
                self.terrain = v
                ev.append({"type": "terrain", "terrain": v})
        elif g == 2:
            if self._fire_response(q, "reverse_heal", ev):
                self._damage(p, v, ev)
            else:
                before = self.lp[p]
                self.lp[p] = min(self.lp[p] + v, self.max_lp)
                ev.append({"type": "heal", "player": p, "amount": self.lp[p] - before, "lp": self.lp[p]})
        elif g == 3:
            if self._fire_response(q, "reflect_burn", ev):
                self._damage(p, v, ev)
            else:
                self._damage(q, v, ev)
        elif g == 4:
            if v == -1:
                self._destroy_monsters(p, lambda rec: True, ev)
                self._destroy_monsters(q, lambda rec: True, ev)
            else:
                self._destroy_monsters(q, lambda rec: self.pack.cards[rec[ID]].type == v, ev)
        elif g == 5:
            if v < 100:
                self._destroy_monsters(q, lambda rec: self.pack.cards[rec[ID]].type == v, ev)
            else:
                self._destroy_monsters(q, lambda rec: self.stat(rec) >= v, ev)
        elif g == 6:
            for z, rec in enumerate(self.monsters[q]):
                if rec is not None and rec[DEF]:
                    rec[DEF] = False
                    ev.append({"type": "position", "player": q, "zone": f"m{z + 1}", "position": "atk"})
        elif g == 7:
            self._destroy_monsters(q, lambda rec: True, ev)
        elif g == 8 or g == 10:
            for z, rec in enumerate(self.monsters[q]):
                if rec is not None and not rec[UP]:
                    rec[UP] = True
                    ev.append({"type": "flip", "player": q, "zone": f"m{z + 1}", "card": rec[ID]})
            if g == 10:
                self.pinned[q] = v
                ev.append({"type": "pin", "player": q, "turns": v})
        elif g == 9:
            for rec in self.monsters[q]:
                if rec is not None:
                    rec[CURSE] -= v
            ev.append({"type": "curse", "player": q, "amount": v})
        elif g == 11:
            for rec in self.monsters[p]:
                if rec is not None:
                    rec[CURSE] = 0
            ev.append({"type": "curse", "player": p, "amount": 0})
        elif g == 12:
            self._ritual(p, x, ev)
        elif g == 13:
            decoy = self._trap_zone(q, "decoy")
            if decoy >= 0:
                self._fire_trap(q, decoy, ev)
            else:
                for z in range(5):
                    rec = self.spells[q][z]
                    if rec is not None:
                        self.spells[q][z] = None
                        self.removed[q].append(rec[ID])
                        ev.append({"type": "destroy", "player": q, "zone": f"s{z + 1}", "card": rec[ID]})

    def _destroy_monsters(self, side: int, which, ev: list) -> None:
        row = self.monsters[side]
        for z in range(5):
            rec = row[z]
            if rec is not None and which(rec):
                row[z] = None
                self.removed[side].append(rec[ID])
                ev.append({"type": "destroy", "player": side, "zone": f"m{z + 1}", "card": rec[ID]})

    def _ritual(self, p: int, x: int, ev: list) -> None:
        """R28: three distinct records of the recipe on the own field, lowest zones; else nothing."""
        recipe = self.pack.rituals.get(x)
        if recipe is None:
            return
        row = self.monsters[p]
        picked = []
        for material in recipe[:3]:
            zone = next((z for z in range(5) if row[z] is not None and row[z][ID] == material and z not in picked), -1)
            if zone < 0:
                ev.append({"type": "ritual_failed", "player": p, "card": x})
                return
            picked.append(zone)
        for z in picked:
            self.removed[p].append(row[z][ID])
            ev.append({"type": "tribute", "player": p, "zone": f"m{z + 1}", "card": row[z][ID]})
            row[z] = None
        self.created[p].append(recipe[3])
        self._enter(p, min(picked), [recipe[3], True, False, 0, 0, 0, False, False, True], ev)

    # --- traps (R24–R27) ------------------------------------------------------------------------------
    def _trap_zone(self, side: int, trigger: str) -> int:
        cards = self.pack.cards
        for z, rec in enumerate(self.spells[side]):
            if rec is not None and cards[rec[ID]].kind == TRAP and cards[rec[ID]].trigger == trigger:
                return z
        return -1

    def _fire_trap(self, side: int, zone: int, ev: list) -> None:
        card = self.spells[side][zone][ID]
        self.spells[side][zone] = None
        self.removed[side].append(card)
        self.counters[side][TRAPS_TRIGGERED] += 1
        ev.append({"type": "trap", "player": side, "zone": f"s{zone + 1}", "card": card})

    def _fire_response(self, side: int, trigger: str, ev: list) -> bool:
        zone = self._trap_zone(side, trigger)
        if zone < 0:
            return False
        self._fire_trap(side, zone, ev)
        return True

    # --- battle (R17–R20) ------------------------------------------------------------------------------
    def _attack(self, p: int, i: int, j: int, ev: list) -> None:
        q = 1 - p
        att = self.monsters[p][i]
        att[USED] = True
        e = {"type": "attack", "player": p, "attacker": f"m{i + 1}", "target": f"m{j}" if j else "direct"}
        ev.append(e)
        cards = self.pack.cards
        # (1) traps: the lowest covering threshold, else a decoy (R25, R26b)
        power = self.stat(att)
        best = -1
        for z, rec in enumerate(self.spells[q]):
            if rec is not None:
                c = cards[rec[ID]]
                if c.kind == TRAP and c.trigger == "attack" and c.value >= power and \
                        (best < 0 or c.value < cards[self.spells[q][best][ID]].value):
                    best = z
        if best >= 0:
            self._fire_trap(q, best, ev)
            self.monsters[p][i] = None
            self.removed[p].append(att[ID])
            ev.append({"type": "destroy", "player": p, "zone": f"m{i + 1}", "card": att[ID]})
            return
        if self.options_fake_trap():
            decoy = self._trap_zone(q, "decoy")
            if decoy >= 0:
                self._fire_trap(q, decoy, ev)
                self._flip(p, i, ev)
                return
        # (2) face-down monsters in the battle turn face-up
        self._flip(p, i, ev)
        if j == 0:
            ev.append({"type": "battle", "player": p, "attacker": att[ID], "attack": power, "target": None})
            self._damage(q, power, ev)
            return
        tgt = self.monsters[q][j - 1]
        self._flip(q, j - 1, ev)
        # (3) compare (R20): the star bonus counts for the attacker only
        a_star, t_star = self.star_of(att), self.star_of(tgt)
        beats = self.pack.beats
        adj = self.pack.star_bonus if beats[a_star] == t_star else (-self.pack.star_bonus if beats[t_star] == a_star
                                                                     else 0)
        level = min(power + adj, self.pack.max_stat)
        defence = tgt[DEF]
        t = self.stat(tgt, defence)
        d = level - t
        ev.append({"type": "battle", "player": p, "attacker": att[ID], "attack": level, "target": tgt[ID],
                   "defence": t, "position": "def" if defence else "atk"})
        if not defence:
            if d >= 0:
                self._destroy(q, j - 1, ev)
            if d <= 0:
                self._destroy(p, i, ev)
            if d > 0:
                self.counters[p][EFFECTIVE_ATTACKS] += 1
                self._damage(q, d, ev)
            elif d < 0:
                self._damage(p, -d, ev)
        elif d > 0:
            self._destroy(q, j - 1, ev)
        elif d < 0:
            self.counters[q][DEFENSIVE_WINS] += 1
            self._damage(p, -d, ev)

    def options_fake_trap(self) -> bool:
        return self.game.options["fake_trap_stops_attacks"]

    def _flip(self, side: int, zone: int, ev: list) -> None:
        rec = self.monsters[side][zone]
        if not rec[UP]:
            rec[UP] = True
            ev.append({"type": "flip", "player": side, "zone": f"m{zone + 1}", "card": rec[ID]})

    def _destroy(self, side: int, zone: int, ev: list) -> None:
        rec = self.monsters[side][zone]
        self.monsters[side][zone] = None
        self.removed[side].append(rec[ID])
        ev.append({"type": "destroy", "player": side, "zone": f"m{zone + 1}", "card": rec[ID]})

    def _damage(self, side: int, amount: int, ev: list) -> None:
        if self.phase == OVER:
            return
        self.lp[side] = max(0, self.lp[side] - amount)
        ev.append({"type": "damage", "player": side, "amount": amount, "lp": self.lp[side]})
        if self.lp[side] == 0:
            self._finish(1 - side, "life_points_zero", ev)

    # --- turns (R8, R9) and the end (R29–R35) -----------------------------------------------------------
    def _end_turn(self, p: int, ev: list) -> None:
        if self.pinned[p] > 0:
            self.pinned[p] -= 1
        ev.append({"type": "end_turn", "player": p})
        self._draw_phase(1 - p, ev)

    def _draw_phase(self, p: int, ev: list) -> None:
        self.player = p
        self.turn_no += 1
        self.counters[p][TURNS] += 1
        for rec in self.monsters[p]:
            if rec is not None:
                rec[USED] = False
                rec[MOVED] = False
        hand, deck = self.hands[p], self.decks[p]
        if len(hand) < 5:
            if not deck:
                ev.append({"type": "deck_out", "player": p})
                self._finish(1 - p, "deck_out", ev)
                return
            n = min(5 - len(hand), len(deck))
            drawn = deck[:n]
            del deck[:n]
            hand.extend(drawn)
            ev.append({"type": "draw", "player": p, "count": n, "private": private([p], cards=drawn)})
        exodia = self.pack.exodia
        if self.game.options["exodia"] and exodia and all(c in hand for c in exodia):
            ev.append({"type": "exodia", "player": p, "cards": list(exodia)})
            self._finish(p, "exodia_assembled", ev)
            return
        self.phase = MAIN

    def _finish(self, winner: int, reason: str, ev: list) -> None:
        self.phase = OVER
        self.winner, self.reason = winner, reason
        self.outcome = duel_outcome(self, winner, reason)
        ev.append({"type": "game_over", "winner": winner, "reason": reason,
                   "score": self.outcome["rank"]["score"], "letter": self.outcome["rank"]["letter"]})

    def counter_values(self, side: int) -> dict:
        """The ten rank counters of a side (R32)."""
        values = dict(zip(COUNTER_NAMES, self.counters[side]))
        values["cards_used"] = self.pack.deck_size - len(self.decks[side])
        values["lp"] = self.lp[side]
        return values

    def clone(self) -> DuelState:
        s = DuelState.__new__(DuelState)
        s.game, s.pack = self.game, self.pack
        s.rng = Rng(self.rng.state)
        s._legal = self._legal
        s.lp = self.lp[:]
        s.max_lp = self.max_lp
        s.decks = [self.decks[0][:], self.decks[1][:]]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.monsters = [[r[:] if r else None for r in self.monsters[0]], [r[:] if r else None for r in self.monsters[1]]]
        s.spells = [[r[:] if r else None for r in self.spells[0]], [r[:] if r else None for r in self.spells[1]]]
        s.removed = [self.removed[0][:], self.removed[1][:]]
        s.counters = [self.counters[0][:], self.counters[1][:]]
        s.pinned = self.pinned[:]
        s.created = [self.created[0][:], self.created[1][:]]
        s.lists = self.lists
        s.terrain, s.turn_no, s.player, s.phase, s.pending = (self.terrain, self.turn_no, self.player, self.phase,
                                                              self.pending)
        s.winner, s.reason, s.outcome, s.duelist = self.winner, self.reason, self.outcome, self.duelist
        return s


def _class_masks(occupied: int) -> list[int]:
    """CLASS_MASKS of a board: a chain may go to the act zone if its survivor is a magic or ritual card, onto an
    occupied monster zone, to an empty zone of its survivor's kind, and onto a set card if no card is a monster."""
    m_full, s_full = occupied & 0b111110, occupied & 0b11111000000
    m_empty, s_empty = m_full ^ 0b111110, s_full ^ 0b11111000000
    masks = []
    for kind in range(5):
        base = (1 if kind in (MAGIC, RITUAL) else 0) | m_full | (m_empty if kind == MONSTER else s_empty)
        masks += [base, base | s_full]
    CLASS_MASKS[occupied] = masks
    return masks


def _play_order(play: tuple) -> tuple:
    """The order of `_legal_plays`: face-down plays last, chains by length then hand positions, then
    destination."""
    return play[3], len(play[1]), play[1], play[2]


def _first_empty(row: list) -> int:
    for z in range(5):
        if row[z] is None:
            return z
    return -1


def _dest_name(dest: int) -> str:
    return "act" if dest == 0 else (f"m{dest}" if dest <= 5 else f"s{dest - 5}")


# --- rank and rewards (R33–R35) -------------------------------------------------------------------------

def rank_score(pack: Pack, counters: dict, reason: str, lp_win_bonus: int) -> int:
    """The winner's duel-rank score (R33)."""
    score = pack.rank_base + (lp_win_bonus if reason == "life_points_zero" else pack.end_adjustment.get(reason, 0))
    for name, row in pack.rank_rows.items():
        value = counters[name]
        for threshold, points in row:
            if threshold > value:
                score += points
                break
    return score


def rank_letter(pack: Pack, score: int) -> tuple[str, int]:
    """(letter, tier) of a score (R34): 'S-POW' ... 'S-TEC'."""
    if score >= 50:
        tier = (min(score, 99) - 50) // 10
        return f"{pack.letters[tier]}-POW", tier
    tier = (min(99 - score, 99) - 50) // 10
    return f"{pack.letters[tier]}-TEC", tier


def draw_weighted(rng: Rng, pool: list[tuple[int, int]]) -> int | None:
    """One id from (id, weight) pairs sorted by id: t uniform 1..W, first id whose running sum reaches t."""
    total = sum(w for _, w in pool)
    if total <= 0:
        return None
    t = rng.randrange(total) + 1
    running = 0
    for cid, w in pool:
        running += w
        if running >= t:
            return cid
    return None


def duel_outcome(state: DuelState, winner: int, reason: str) -> dict:
    pack = state.pack
    options = state.game.options
    counters = state.counter_values(winner)
    score = rank_score(pack, counters, reason, options["lp_win_bonus"])
    letter, tier = rank_letter(pack, score)
    result = {"winners": [winner], "reason": reason, "scores": [score if s == winner else 0 for s in (0, 1)],
              "rank": {"score": score, "letter": letter, "tier": tier}}
    if options["mode"] in ("free_duel", "campaign") and winner == 0 and state.duelist:
        pool_name = "bcd" if tier <= 2 else ("sa_pow" if letter.endswith("POW") else "sa_tec")
        result["starchips"] = tier + 1
        result["pool"] = pool_name
        result["drop"] = draw_weighted(state.rng, pack.pools.get((state.duelist, pool_name), []))
    return result
