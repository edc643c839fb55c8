"""`fm-classic`: the original CPU opponent's documented strategy (docs/rules/forbidden.md §9), per-duelist parameters.

It acts from its Seat only: the observation (own hand and field, the public rest) and the legal
actions. Hidden opponent cards are ignored, unless the game's `cpu_privileged` option puts them in a
seeing duelist's observation (docs/rules/forbidden.md, D33).
"""

from __future__ import annotations

from itertools import permutations

from coliseo.agents.base import Agent, Seat
from coliseo.games.forbidden.evaluation import (
    ALWAYS_ATTACK,
    CRUSH,
    DARK_HOLE,
    DARK_LIGHT,
    DUSTER,
    EQUIP,
    MAGIC,
    MONSTER,
    RAIGEKI,
    REMOVAL_TRAPS,
    RITUAL,
    STOP_DEFENSE,
    SWORDS,
    TRAP,
    TYPE_KILLERS,
    WALLS,
    params_for,
)


class FmClassicAgent(Agent):
    name = "fm-classic"
    games = ("forbidden",)

    def __init__(self, game, seed: int = 0, **settings):
        super().__init__(game, seed, **settings)
        self.pack = game.pack
        self.done: set = set()       # (turn, what) already considered this turn
        self.duelist = settings.get("duelist")

    # --- helpers over the observation --------------------------------------------------------------
    def card(self, cid):
        return self.pack.cards[cid]

    def fold(self, ids, start=None):
        """(survivor id, mod) of a chain, as the engine folds it (R12; Reverse Trap not foreseen)."""
        pack = self.pack
        a, mod = start if start else (ids[0], 0)
        for b in (ids if start else ids[1:]):
            r = pack.fuse(a, b)
            ka, kb = pack.kind_of[a], pack.kind_of[b]
            if r:
                a, mod = r, 0
            elif ka == MONSTER and kb == EQUIP and pack.fits(b, a):
                mod += pack.cards[b].value
            elif ka == EQUIP and kb == MONSTER and pack.fits(a, b):
                a, mod = b, pack.cards[a].value
            elif ka != MONSTER or kb == MONSTER:
                a, mod = b, 0
        return a, mod

    def strength_of(self, cid, mod=0) -> int:
        """§9: Strength = max(base ATK, base DEF); equips, curses and terrain do not count."""
        c = self.card(cid)
        return max(c.atk, c.defense) if c.kind == MONSTER else -1

    def view_strength(self, m) -> int:
        return self.strength_of(m["id"]) if m and m.get("id") is not None else -1

    def choose(self, seat: Seat, action):
        if action is not None and action in seat.legal_actions:
            return action
        return None

    # --- decisions -----------------------------------------------------------------------------------
    def act(self, seat: Seat):
        obs = seat.observation
        legal = seat.legal_actions
        if len(legal) == 1:
            return legal[0]
        p = seat.player
        self.me, self.them = obs["sides"][p], obs["sides"][1 - p]
        self.obs = obs
        self.params = params_for(self.pack, self.duelist or obs.get("duelist"))
        if obs["phase"] == "place":
            return self.choose(seat, ("place", "a", 1)) or legal[0]
        if obs["phase"] == "main":
            action = self.choose(seat, self.main_phase())
        else:
            action = self.choose(seat, self.battle_phase(seat))
        return action if action is not None else (("end",) if ("end",) in legal else self.rng.choice(legal))

    def their_monsters(self):
        return [(z, m) for z, m in enumerate(self.them["monsters"]) if m is not None]

    def my_monsters(self):
        return [(z, m) for z, m in enumerate(self.me["monsters"]) if m is not None]

    def their_strongest(self) -> int:
        return max((self.view_strength(m) for _, m in self.their_monsters()), default=-1)

    def my_strongest(self) -> int:
        return max((self.view_strength(m) for _, m in self.my_monsters()), default=-1)

    def my_weakest(self) -> int:
        return min((self.view_strength(m) for _, m in self.my_monsters()), default=-1)

    def monster_dest(self) -> int:
        mine = self.me["monsters"]
        for z in range(5):
            if mine[z] is None:
                return z + 1
        return 1 + min(range(5), key=lambda z: self.view_strength(mine[z]))

    def play(self, h: int, dest: int):
        return ("play", (h,), dest, False)

    def main_phase(self):
        hand = self.me["hand"]
        pr = self.params
        their_spells = [s for s in self.them["spells"] if s is not None]
        # (1) lethal burn
        if not their_spells:
            for i, c in enumerate(hand):
                card = self.card(c)
                if card.kind == MAGIC and card.group == 3 and card.value >= self.them["lp"]:
                    return self.play(i + 1, 0)
        # (2) home field card
        who = self.duelist or self.obs.get("duelist")
        home = self.pack.duelists[who].home_field if who in self.pack.duelists else 0
        if home and home in hand and self.obs["terrain"] != self.card(home).value:
            return self.play(hand.index(home) + 1, 0)
        # (3) behind -> (6); hidden opponent cards are ignored (§9)
        theirs, mine = [zm for zm in self.their_monsters() if zm[1].get("id") is not None], self.my_monsters()
        if theirs and (not mine or self.my_strongest() <= self.their_strongest()):
            return self.behind()
        # (4) Duster
        if their_spells and DUSTER in hand and self.rng.randrange(100) < pr.duster:
            return self.play(hand.index(DUSTER) + 1, 0)
        # (5) strategy
        if self.me["lp"] < pr.lp:
            return self.strategy_b() or self.strategy_c()
        ahead = not mine or self.my_weakest() >= self.their_strongest()
        split = pr.ahead if ahead else pr.weak
        roll = self.rng.randrange(100)
        if roll < split[0]:
            return self.strategy_a()
        if roll < split[0] + split[1]:
            return self.strategy_b() or self.strategy_c()
        return self.strategy_c()

    def depths(self):
        pr = self.params
        if self.me["deck_size"] <= pr.low_deck:
            return 1, 1
        return pr.combo, pr.power

    def strategy_a(self):
        hand = self.me["hand"]
        k, _ = self.depths()
        best = None  # (strength, -cards, positions) -> action
        empty = [z + 1 for z in range(5) if self.me["monsters"][z] is None]
        for n in range(2, min(k + 1, len(hand)) + 1):
            if not empty:
                break
            for seq in permutations(range(1, len(hand) + 1), n):
                cid, mod = self.fold([hand[h - 1] for h in seq])
                s = self.strength_of(cid, mod)
                if s >= 0:
                    key = (s, -n, tuple(-h for h in seq))
                    if best is None or key > best[0]:
                        best = (key, ("play", seq, empty[0], False))
        for z, m in self.my_monsters():
            for n in range(1, min(k, len(hand)) + 1):
                for seq in permutations(range(1, len(hand) + 1), n):
                    cid, mod = self.fold([hand[h - 1] for h in seq], (m["id"], m["mod"]))
                    s = self.strength_of(cid, mod)
                    if s >= 0:
                        key = (s, -n, tuple(-h for h in seq))
                        if best is None or key > best[0]:
                            best = (key, ("play", seq, z + 1, False))
        if best is not None and best[0][0] > self.my_strongest():
            return best[1]
        field = self.boosting_field_card()
        if field:
            return self.play(field, 0)
        monster = self.strongest_hand_monster()
        if monster:
            return self.play(monster, self.monster_dest())
        return self.strategy_c()

    def boosting_field_card(self, exclude_their_type: bool = False):
        mine = self.my_monsters()
        if not mine:
            return None
        _, top = max(mine, key=lambda zm: self.view_strength(zm[1]))
        top_type = self.card(top["id"]).type
        their_types = {self.card(m["id"]).type for _, m in self.their_monsters() if m.get("id") is not None}
        for i, c in enumerate(self.me["hand"]):
            card = self.card(c)
            if card.kind == MAGIC and card.group == 1 and card.value != self.obs["terrain"]:
                bonus = self.pack.terrain_table[card.value]
                if bonus[top_type] > 0 and not (exclude_their_type and any(bonus[t] > 0 for t in their_types)):
                    return i + 1
        return None

    def strongest_hand_monster(self):
        hand = self.me["hand"]
        best = None
        for i, c in enumerate(hand):
            if self.pack.kind_of[c] == MONSTER and (best is None or
                                                   self.strength_of(c) > self.strength_of(hand[best - 1])):
                best = i + 1
        return best

    def strategy_b(self):
        hand = self.me["hand"]
        _, q = self.depths()
        for z, m in sorted(self.my_monsters(), key=lambda zm: self.view_strength(zm[1])):
            base = self.strength_of(m["id"], m["mod"])
            best = None
            for n in range(1, min(q, len(hand)) + 1):
                for seq in permutations(range(1, len(hand) + 1), n):
                    cid, mod = self.fold([hand[h - 1] for h in seq], (m["id"], m["mod"]))
                    s = self.strength_of(cid, mod)
                    if s > base and (best is None or s > best[0]):
                        best = (s, ("play", seq, z + 1, False))
            if best:
                return best[1]
        return None

    def strategy_c(self):
        hand = self.me["hand"]
        empty = [z + 6 for z in range(5) if self.me["spells"][z] is None]
        for kind in (TRAP, EQUIP, MAGIC, RITUAL):
            for i, c in enumerate(hand):
                if self.pack.kind_of[c] != kind:
                    continue
                if empty:
                    return self.play(i + 1, empty[0])
                if kind == EQUIP:
                    mine = self.my_monsters()
                    fits = [z for z, m in mine if self.pack.fits(c, m["id"])]
                    if fits:
                        return self.play(i + 1, fits[0] + 1)
                    if mine:
                        z = min(mine, key=lambda zm: self.view_strength(zm[1]))[0]
                        return self.play(i + 1, z + 1)
                    return self.play(i + 1, 6)
                if kind == TRAP:
                    return self.play(i + 1, 6 + self.rng.randrange(5))
                return self.play(i + 1, 6)
        monster = self.strongest_hand_monster()
        return self.play(monster, self.monster_dest()) if monster else None

    def behind(self):
        hand = self.me["hand"]
        monster = self.strongest_hand_monster()
        if monster and self.strength_of(hand[monster - 1]) >= self.their_strongest():
            return self.play(monster, self.monster_dest())
        if self.me["deck_size"] >= 33:
            return self.strategy_a()
        removal = self.removal_in(hand, self.pinned_opponent())
        if removal:
            return self.play(removal, 0) if self.pack.kind_of[hand[removal - 1]] != TRAP else \
                self.play(removal, self.first_empty_spell())
        return self.strategy_a()

    def pinned_opponent(self) -> bool:
        return self.them["pinned"] > 0

    def first_empty_spell(self) -> int:
        for z in range(5):
            if self.me["spells"][z] is None:
                return z + 6
        return 6

    def removal_in(self, cards, pinned: bool, battle: bool = False):
        """§9 (6): the first held removal card that applies (hand positions, or spell zones in battle)."""
        theirs = self.their_monsters()
        visible = [m for _, m in theirs if m.get("id") is not None]
        top = max(visible, key=self.view_strength, default=None)
        held = {c: i + 1 for i, c in reversed(list(enumerate(cards))) if c is not None}
        if top is not None:
            top_type = self.card(top["id"]).type
            for c in TYPE_KILLERS:
                if c in held and self.card(c).value == top_type:
                    return held[c]
        for c in (349, 669):
            if c in held and theirs:
                return held[c]
        if CRUSH in held and top is not None and top["atk"] >= 1500:
            return held[CRUSH]
        if RAIGEKI in held and theirs and (not battle or len(theirs) >= len(self.my_monsters())):
            return held[RAIGEKI]
        if not battle:
            for c in REMOVAL_TRAPS:
                if c in held:
                    return held[c]
        if SWORDS in held and not pinned:
            return held[SWORDS]
        if DARK_HOLE in held and len(self.my_monsters()) < len(theirs):
            return held[DARK_HOLE]
        return None

    # --- battle phase ------------------------------------------------------------------------------------
    def battle_phase(self, seat: Seat):
        turn = self.obs["turn"]
        pr = self.params
        mine, theirs = self.my_monsters(), self.their_monsters()
        legal = seat.legal_actions
        their_spells = any(s is not None for s in self.them["spells"])
        # (1) set cards, once per turn each, zone order
        for z, s in enumerate(self.me["spells"]):
            if s is None or (turn, "set", z) in self.done:
                continue
            self.done.add((turn, "set", z))
            card = self.card(s["id"])
            act = ("act", z + 1)
            if card.id == DUSTER:
                if their_spells and self.rng.randrange(100) < pr.duster:
                    return act
            elif card.kind == MAGIC and card.group in (2, 3):
                if self.me["lp"] >= self.them["lp"]:
                    continue
                if self.me["lp"] > pr.lp or not their_spells or self.rng.randrange(100) >= pr.duster:
                    return act
            elif card.kind == EQUIP:
                fits = [mz for mz, m in mine if self.pack.fits(card.id, m["id"])]
                if fits:
                    return ("act", z + 1, fits[0] + 1)
            elif card.kind == RITUAL:
                recipe = self.pack.rituals.get(card.id)
                ids = [m["id"] for _, m in mine]
                if recipe and all(ids.count(x) >= recipe[:3].count(x) for x in recipe[:3]):
                    return act
            elif card.id == DARK_LIGHT:
                if theirs and all(not m["face_up"] for _, m in theirs) and len(theirs) > len(mine):
                    return act
            elif card.id == SWORDS:
                if not self.pinned_opponent() and (not mine or self.my_strongest() < self.their_strongest()):
                    return act
            elif card.id == STOP_DEFENSE:
                their_atk = sorted((m["atk"] for _, m in theirs if "atk" in m), reverse=True)
                my_atk = sorted((m["atk"] for _, m in mine), reverse=True)
                lethal = their_atk and my_atk and my_atk[0] - their_atk[-1] >= self.them["lp"]
                pairwise = theirs and len(mine) >= len(theirs) and len(their_atk) == len(theirs) and \
                    all(a > t for a, t in zip(my_atk, their_atk))
                if lethal or pairwise:
                    return act
            elif card.kind == MAGIC and card.group == 1:
                if self.their_strongest() >= self.my_strongest() and self.boosting_field_card_id(card.id):
                    return act
            elif card.kind == MAGIC and self.their_strongest() >= self.my_strongest():
                if self.removal_in([card.id], self.pinned_opponent(), battle=True):  # this card's own condition
                    return act
        # (2) walls to defence
        for z, m in mine:
            if m["id"] in WALLS and m["position"] == "atk" and ("pos", z + 1) in legal:
                return ("pos", z + 1)
        # (3) attacks
        if self.me["pinned"] == 0:
            attack = self.choose_attack(legal, turn)
            if attack:
                return attack
        # (4) the rest to defence
        for z, m in mine:
            if m["position"] == "atk" and m["id"] not in ALWAYS_ATTACK and ("pos", z + 1) in legal:
                return ("pos", z + 1)
        return ("end",)

    def boosting_field_card_id(self, cid) -> bool:
        mine = self.my_monsters()
        if not mine:
            return False
        top = max(mine, key=lambda zm: self.view_strength(zm[1]))[1]
        bonus = self.pack.terrain_table[self.card(cid).value]
        their_types = {self.card(m["id"]).type for _, m in self.their_monsters() if m.get("id") is not None}
        return bonus[self.card(top["id"]).type] > 0 and not any(bonus[t] > 0 for t in their_types)

    def star_adjusted(self, attacker, target) -> int:
        power = attacker["atk"]
        if target.get("id") is None or not target.get("star") or not attacker.get("star"):
            return power
        a = self.card(attacker["id"])
        t = self.card(target["id"])
        a_star = a.star1 if attacker["star"] == 1 else a.star2
        t_star = t.star1 if target["star"] == 1 else t.star2
        beats = self.pack.beats
        return power + (500 if beats[a_star] == t_star else (-500 if beats[t_star] == a_star else 0))

    def choose_attack(self, legal, turn):
        attackers = [(z, m) for z, m in self.my_monsters() if m["position"] == "atk" and not m["used"]]
        theirs = self.their_monsters()
        if not attackers and not (theirs and any(not m["used"] for _, m in self.my_monsters())):
            return None
        if not theirs:
            best = max(attackers, key=lambda zm: zm[1]["atk"])
            return ("attack", best[0] + 1, 0)
        strongest = max(attackers, key=lambda zm: zm[1]["atk"], default=None)
        visible = [(z, m) for z, m in theirs if m.get("id") is not None]
        atk_targets = [(z, m) for z, m in visible if m["position"] == "atk"]
        if atk_targets and strongest:
            z, weakest = min(atk_targets, key=lambda zm: zm[1]["atk"])
            if strongest[1]["atk"] - weakest["atk"] >= self.them["lp"]:
                return ("attack", strongest[0] + 1, z + 1)
        for group, stat in ((atk_targets, "atk"), ([zm for zm in visible if zm[1]["position"] == "def"], "def")):
            for z, target in sorted(group, key=lambda zm: -zm[1][stat]):
                for az, a in sorted(attackers, key=lambda zm: zm[1]["atk"]):
                    if self.star_adjusted(a, target) > target[stat]:
                        return ("attack", az + 1, z + 1)
        for z, m in theirs:
            if m.get("id") is None and (turn, "blind_go", z) in self.done and attackers:
                self.done.discard((turn, "blind_go", z))
                return ("attack", strongest[0] + 1, z + 1)
            if m.get("id") is None and (turn, "blind", z) not in self.done:
                self.done.add((turn, "blind", z))
                if self.rng.randrange(100) < self.params.blind:
                    # its strongest attacks; a stronger defence monster may switch to attack first
                    mine = [(mz, mm) for mz, mm in self.my_monsters() if not mm["used"]]
                    top = max(mine, key=lambda zm: zm[1]["atk"])
                    if top[1]["position"] == "def" and ("pos", top[0] + 1) in legal:
                        self.done.add((turn, "blind_go", z))
                        return ("pos", top[0] + 1)
                    if strongest:
                        return ("attack", strongest[0] + 1, z + 1)
        return None
