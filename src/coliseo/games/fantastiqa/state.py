"""Fantastiqa rules: the position, its legal actions and their effects (docs/rules/fantastiqa.md §2).

Piles are lists with the top at the end. Actions are tuples:
("quest", qid) ("artifact", cid) ("start", pos) ("sub", space, cards, key) ("stop",) ("end",)
("carpet", space) ("rearrange",) ("discard", cid) ("commit", cid, qid) ("withdraw", cid)
("power", cid, *args) ("draw",) ("buy", cid) ("keep", qid) ("done",) ("release", cid)
("teleport", pos) ("complete", qid, cards, key); card lists are sorted tuples of ids.
The `key` of sub/complete (not printed) holds the cards' positions among the sorted hand candidates
(`sub_candidates`, `quest_candidates`), so the fixed action space stays small (see Game.action_index).
"""

from __future__ import annotations

from coliseo.core.events import private
from coliseo.core.game import State
from coliseo.core.i18n import refusal

from .board import ADJACENT, SPACE_ENDS, beyond

DRAFT, MAIN, ADVENTURE, STATUE, RELEASE, AFTER, OVER = (
    "draft", "main", "adventure", "statue", "release", "after", "over")
PHASES = (DRAFT, MAIN, ADVENTURE, STATUE, RELEASE, AFTER, OVER)
FREE_PHASES = (MAIN, ADVENTURE, AFTER)
STATUE_DECK = {"AT": "artifact", "BB": "beast", "QC": "quest"}
QUEST_LIMIT = 3
HAND_SIZE = 5
BONUS_TOKENS = 12
INITIAL_FILL_TOP = 10
NEW_BLOCK = 0  # the block made by the initial-fill Crow shuffle (sections are 1..3)


class FantastiqaState(State):
    __slots__ = (
        "n", "phase", "cur", "turn_no", "res", "goal", "regions", "statues", "pos",
        "spaces", "sgems", "pending", "route", "crossed",
        "cdeck", "cblock", "decks", "known", "row", "row_kind", "kept", "ret", "rel_left", "rel_paid",
        "open_q", "open_bonus", "bonus_supply",
        "hand", "draw", "play", "discard", "priv", "commits", "completed", "bonus",
        "gems", "carpets", "rearr", "spy", "box", "dragons", "first_fill",
        "qpool", "apool", "draft_i", "draft_step",
    )

    # --- contract properties ------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    @property
    def current_player(self) -> int | None:
        return None if self.res is not None else self.cur

    @property
    def first_turn_player(self) -> int:
        return 0                 # R7-R8: the draft runs Pn..P1, then P1 begins turn 1

    @property
    def result(self) -> dict | None:
        return self.res

    @property
    def turn(self) -> int:
        return self.turn_no

    # --- derived ------------------------------------------------------------------------------
    def score(self, p: int) -> int:
        qs = self.game.content.quests
        total = sum(qs[q].points for q in self.completed[p]) + self.bonus[p]
        if self.game.quest_penalty:
            total -= sum(qs[q].points for q in self.priv[p])
        return total

    def gross_score(self, p: int) -> int:
        qs = self.game.content.quests
        return sum(qs[q].points for q in self.completed[p]) + self.bonus[p]

    def token_quest(self, p: int) -> str | None:
        """The Open Quest under p's Quest token, or None when the token is in reserve."""
        for q in self.commits[p]:
            if q in self.open_q:
                return q
        return None

    def place(self, pos: int) -> dict:
        """A place on the map as events carry it: its position and the region there (for the words)."""
        return {"pos": pos, "region": self.regions[pos]}

    def _move_allowed(self, space: int, dest: int) -> bool:
        """R15 in an adventure; any adjacent move otherwise (adjacency is checked by the caller)."""
        if self.phase != ADVENTURE:
            return True
        if self.game.route_rule == "no_revisit":
            return dest not in self.route
        return space not in self.crossed

    def _moves(self) -> list[tuple[int, int]]:
        """(space, destination) pairs the Adventurer may cross now, obeying R15."""
        here = self.pos[self.cur]
        return [(s, d) for s, d in ADJACENT[here] if self._move_allowed(s, d)]

    def _opponents_here(self) -> list[int]:
        p = self.cur
        here = self.pos[p]
        return [(p + k) % self.n for k in range(1, self.n) if self.pos[(p + k) % self.n] == here]

    def _release_candidates(self, exclude: str | None = None) -> list[str]:
        p = self.cur
        return sorted([c for c in self.hand[p] if c != exclude] + self.discard[p])

    def _can_draw_statue(self, statue: str) -> bool:
        if not self.decks[statue]:
            return False
        return statue != "QC" or len(self.priv[self.cur]) < QUEST_LIMIT

    # --- legal actions ------------------------------------------------------------------------
    def _legal_actions(self) -> list:
        phase = self.phase
        p = self.cur
        if phase == DRAFT:
            if self.draft_step == "quest":
                return [("quest", q) for q in self.qpool]
            if self.draft_step == "artifact":
                return [("artifact", a) for a in self.apool]
            taken = set(self.pos)
            return [("start", i) for i in range(6) if i not in taken]
        if phase == STATUE:
            return self._statue_actions()
        if phase == RELEASE:
            acts = [("release", c) for c in self._release_candidates()]
            acts.append(("done",))
            return acts
        acts: list = []
        if phase in (MAIN, ADVENTURE):
            acts.extend(self._sub_actions())
        if phase == ADVENTURE:
            acts.append(("stop",))
        if phase == MAIN:
            here = self.pos[p]
            statue = self.statues[here]
            if self._can_draw_statue(statue):
                acts.append(("draw",))
            if self.gems[p] >= 1:
                acts.extend(("release", c) for c in self._release_candidates())
            if self.gems[p] >= 2:
                acts.extend(("teleport", r) for r in range(6) if r != here and self.statues[r] == statue)
            acts.extend(self._complete_actions())
        acts.extend(self._free_actions())
        if phase in (MAIN, AFTER):
            acts.append(("end",))
        return acts

    def _statue_actions(self) -> list:
        p = self.cur
        if self.row_kind == "QC":
            if len(self.priv[p]) >= QUEST_LIMIT:
                return [("done",)]
            acts = [("keep", q) for q in self.row]
            if self.kept:
                acts.append(("done",))
            return acts
        cards = self.game.content.cards
        acts = [("buy", c) for c in self.row if cards[c].cost <= self.gems[p]]
        acts.append(("done",))
        return acts

    def _sub_actions(self) -> list:
        cards = self.game.content.cards
        pending_spaces = {s for s, _ in self.pending}
        candidates = None
        acts = []
        for space, _dest in self._moves():
            creature = self.spaces[space - 1]
            if creature is None or space in pending_spaces:
                continue
            if candidates is None:
                candidates = self.sub_candidates()
                if not candidates:
                    return acts
                sig = tuple(self.game.signature[c] for c in candidates)
            for combo in self.game.payments(cards[creature].vuln, sig):
                acts.append(("sub", space, tuple(candidates[i] for i in combo), combo))
        return acts

    def _committed_units(self, p: int, q: str) -> list[int]:
        units = [0] * 9
        cards = self.game.content.cards
        for c in self.commits[p].get(q, ()):
            card = cards[c]
            if card.units:
                units[card.sym] += card.units
        return units

    def _complete_actions(self) -> list:
        p = self.cur
        region = self.regions[self.pos[p]]
        qs = self.game.content.quests
        token_q = self.token_quest(p)
        acts = []
        for q in list(self.priv[p]) + [q for q in self.open_q if q is not None]:
            quest = qs[q]
            if quest.region != region:
                continue
            have = self._committed_units(p, q) if (q in self.priv[p] or q == token_q) else [0] * 9
            relevant = self.quest_candidates(quest)
            for hand_part in self._minimal_quest_hands(quest, have):
                acts.append(("complete", q, hand_part, tuple(relevant.index(c) for c in hand_part)))
        return acts

    def sub_candidates(self) -> list[str]:
        """The hand cards that can pay a vulnerability (symbols or WILD), sorted: `sub` keys index them."""
        cards = self.game.content.cards
        return sorted(c for c in self.hand[self.cur] if cards[c].units or cards[c].ability == "WILD")

    def quest_candidates(self, quest) -> list[str]:
        """The hand cards with a symbol the quest requires, sorted: `complete` keys index them."""
        cards = self.game.content.cards
        return sorted(c for c in self.hand[self.cur] if cards[c].units and cards[c].sym in quest.req)

    def _minimal_quest_hands(self, quest, have: list[int]) -> list[tuple]:
        """Every minimal set of hand cards that, with the committed units `have`, meets the quest (R22)."""
        cards = self.game.content.cards
        hand = sorted(self.hand[self.cur])
        options: list[list[tuple]] = [[()]]
        for sym, need in quest.req.items():
            missing = need - have[sym]
            if missing <= 0:
                continue
            mine = [c for c in hand if cards[c].sym == sym and cards[c].units]
            choices = []
            k = len(mine)
            for mask in range(1, 1 << k):
                chosen = [mine[i] for i in range(k) if mask >> i & 1]
                units = [cards[c].units for c in chosen]
                total = sum(units)
                if total >= missing and total - min(units) < missing:
                    choices.append(tuple(chosen))
            if not choices:
                return []
            options.append(choices)
        result = [()]
        for choices in options[1:]:
            result = [a + b for a in result for b in choices]
        return sorted(tuple(sorted(r)) for r in result)

    def _free_actions(self) -> list:
        p = self.cur
        g = self.game
        cards = g.content.cards
        acts: list = []
        moves = None
        if self.carpets[p]:
            moves = self._moves()
            acts.extend(("carpet", s) for s, _ in moves)
        if self.rearr[p] and (self.hand[p] if g.rearrange_effect == "new_hand" else self.discard[p]):
            acts.append(("rearrange",))
        hand = sorted(self.hand[p])
        acts.extend(("discard", c) for c in hand)
        in_adventure = self.phase == ADVENTURE
        for c in hand:
            ab = cards[c].ability
            if ab is None or ab == "WILD":
                continue
            if ab in ("GEMS", "CARPET", "REARRANGE", "SPY"):
                acts.append(("power", c))
            elif ab == "DRAW":
                if self.draw[p] or self.discard[p]:
                    acts.append(("power", c))
            elif ab == "FLY":
                if moves is None:
                    moves = self._moves()
                acts.extend(("power", c, "fly", s) for s, _ in moves)
            elif ab == "KEY":
                if in_adventure:
                    continue
                here = self.pos[p]
                statue = self.statues[here]
                if self._can_draw_statue(statue):
                    acts.append(("power", c, "key", "draw"))
                if self.gems[p] >= 1 and self._release_candidates(c):
                    acts.append(("power", c, "key", "release"))
                if self.gems[p] >= 2:
                    acts.extend(("power", c, "key", "teleport", r) for r in range(6)
                                if r != here and self.statues[r] == statue)
            elif ab == "DRAGON":
                if self.dragons and self._opponents_here():
                    acts.append(("power", c))
            elif ab == "GIFT":
                acts.extend(("power", c, "gift", q) for q in sorted(self._opponents_here()))
            elif ab == "RELEASE":
                if self._release_candidates(c):
                    acts.append(("power", c))
            elif ab == "TELEPORT":
                if not in_adventure:
                    acts.extend(("power", c, "teleport", r) for r in range(6) if r != self.pos[p])
        quests = list(self.priv[p]) + [q for q in self.open_q if q is not None]
        if quests:
            token_q = self.token_quest(p)
            qs = g.content.quests
            units = {q: self._committed_units(p, q) for q in quests}
            for c in hand:
                card = cards[c]
                if not card.units:
                    continue
                for q in quests:
                    need = qs[q].req.get(card.sym, 0)
                    if need and units[q][card.sym] < need and (
                            q in self.priv[p] or token_q is None or token_q == q):
                        acts.append(("commit", c, q))
        for q in sorted(self.commits[p]):
            acts.extend(("withdraw", c) for c in self.commits[p][q])
        return acts

    # --- effects ------------------------------------------------------------------------------
    def _apply(self, action) -> list[dict]:
        kind = action[0]
        ev: list[dict] = []
        handler = getattr(self, "_do_" + kind)
        handler(action, ev)
        return ev

    # draft (R7, R8)
    def _do_quest(self, a, ev):
        self.qpool.remove(a[1])
        self.priv[self.cur].append(a[1])
        self.draft_step = "artifact"
        ev.append({"type": "draft_quest", "player": self.cur, "quest": a[1]})

    def _do_artifact(self, a, ev):
        self.apool.remove(a[1])
        self.draw[self.cur].append(a[1])
        self.draft_step = "start"
        ev.append({"type": "draft_artifact", "player": self.cur, "card": a[1]})

    def _do_start(self, a, ev):
        self.pos[self.cur] = a[1]
        ev.append({"type": "draft_start", "player": self.cur, **self.place(a[1])})
        self.draft_i += 1
        if self.draft_i < self.n:
            self.cur = self.n - 1 - self.draft_i
            self.draft_step = "quest"
            return
        self._finish_setup(ev)

    def _finish_setup(self, ev):
        rest = self.qpool
        self.rng.shuffle(rest)
        for slot in (0, 1):
            if rest:
                q = rest.pop()
                self.open_q[slot] = q
                self.open_bonus[slot] = self.bonus_supply > 0
                if self.bonus_supply:
                    self.bonus_supply -= 1
                ev.append({"type": "quest_revealed", "slot": slot + 1, "quest": q})
        self.box.extend(rest)
        self.box.extend(self.apool)
        self.qpool, self.apool = [], []
        self.draft_step = None
        for p in range(self.n):
            self.rng.shuffle(self.draw[p])
            self._draw_cards(p, self.game.options["start_player_hand"] if p == 0 else HAND_SIZE, ev)
        self.cur = 0
        self.turn_no = 1
        self._start_turn(ev)

    # turn start (R9-R11)
    def _start_turn(self, ev):
        self.phase = MAIN
        ev.append({"type": "turn_start", "player": self.cur, "turn": self.turn_no})
        if not self._replenish_creatures(ev):
            self._finish("deck_out", ev)
            return
        self._replenish_quests(ev)

    def _replenish_creatures(self, ev) -> bool:
        """R9; False when the Creature deck ran out (the game ends)."""
        cards = self.game.content.cards
        first = not self.first_fill
        aside: list[str] = []
        for i in range(7):
            while self.spaces[i] is None:
                if not self.cdeck:
                    self.cdeck.extend(aside)          # R3, R9: a Crow set aside goes back to the deck
                    self.cblock.extend([NEW_BLOCK] * len(aside))
                    return False
                c = self.cdeck.pop()
                self.cblock.pop()
                card = cards[c]
                if card.kind == "event":
                    if first:
                        aside.append(c)
                        ev.append({"type": "crow_set_aside", "card": c})
                    else:
                        self._crow(c, ev)
                    continue
                self.spaces[i] = c
                self.sgems[i] = card.gems
                ev.append({"type": "creature_revealed", "space": i + 1, "card": c, "gems": card.gems})
        if first:
            self.first_fill = True
            if aside:
                k = min(INITIAL_FILL_TOP, len(self.cdeck))
                top = self.cdeck[len(self.cdeck) - k:] + aside
                del self.cdeck[len(self.cdeck) - k:]
                del self.cblock[len(self.cblock) - k:]
                self.rng.shuffle(top)
                self.cdeck.extend(top)
                self.cblock.extend([NEW_BLOCK] * len(top))
                ev.append({"type": "crow_shuffled", "count": len(top)})
        return True

    def _crow(self, c, ev):
        """R10: the richest players with 5 or more gems return half (rounded down)."""
        top = max(self.gems)
        losers = []
        if top >= 5:
            losers = [p for p in range(self.n) if self.gems[p] == top]
            for p in losers:
                self.gems[p] -= top // 2
        self.box.append(c)
        ev.append({"type": "crow", "card": c, "players": losers, "amount": top // 2 if losers else 0})

    def _replenish_quests(self, ev):
        deck = self.decks["QC"]
        for slot in (0, 1):
            if self.open_q[slot] is None and deck:
                q = self._pop_statue_deck("QC")
                self.open_q[slot] = q
                self.open_bonus[slot] = self.bonus_supply > 0
                if self.bonus_supply:
                    self.bonus_supply -= 1
                ev.append({"type": "quest_revealed", "slot": slot + 1, "quest": q})

    def _pop_statue_deck(self, statue: str) -> str:
        deck = self.decks[statue]
        c = deck.pop()
        if self.known[statue] > len(deck):
            self.known[statue] = len(deck)
        return c

    # drawing (R31)
    def _draw_cards(self, p: int, k: int, ev) -> None:
        drawn = []
        draw = self.draw[p]
        for _ in range(k):
            if not draw:
                if not self.discard[p]:
                    break
                draw = self.draw[p] = self.discard[p]
                self.discard[p] = []
                self.rng.shuffle(draw)
                ev.append({"type": "reshuffle", "player": p, "count": len(draw)})
            c = draw.pop()
            self.hand[p].append(c)
            drawn.append(c)
        if drawn:
            ev.append({"type": "cards_drawn", "player": p, "count": len(drawn),
                       "private": private([p], cards=drawn)})

    # go adventuring (R13-R16)
    def _do_sub(self, a, ev):
        _, space, paid, _key = a
        p = self.cur
        if self.phase == MAIN:
            self.phase = ADVENTURE
            self.route = [self.pos[p]]
            self.crossed = []
        hand = self.hand[p]
        for c in paid:
            hand.remove(c)
        self.pending.append((space, paid))
        dest = beyond(space, self.pos[p])
        self.pos[p] = dest
        self.route.append(dest)
        self.crossed.append(space)
        ev.append({"type": "subdue", "player": p, "space": space, "card": self.spaces[space - 1],
                   "cards": list(paid), **self.place(dest)})

    def _do_stop(self, a, ev):
        p = self.cur
        gained = 0
        recruited = []
        for space, paid in self.pending:
            creature = self.spaces[space - 1]
            self.discard[p].extend(paid)
            self.discard[p].append(creature)
            recruited.append(creature)
            gained += self.sgems[space - 1]
            self.spaces[space - 1] = None
            self.sgems[space - 1] = 0
        self.gems[p] += gained
        self.pending = []
        self.route = []
        self.crossed = []
        self.phase = AFTER
        ev.append({"type": "recruit", "player": p, "cards": recruited, "gems": gained})

    # visit a statue (R17-R20)
    def _open_statue(self, ret, ev):
        p = self.cur
        statue = self.statues[self.pos[p]]
        k = min(3 + self.spy, len(self.decks[statue]))
        self.row = [self._pop_statue_deck(statue) for _ in range(k)]
        self.row_kind = statue
        self.kept = 0
        self.ret = ret
        self.phase = STATUE
        ev.append({"type": "statue_draw", "player": p, "statue": statue, "cards": list(self.row)})

    def _do_draw(self, a, ev):
        self._open_statue(AFTER, ev)

    def _do_buy(self, a, ev):
        p = self.cur
        c = a[1]
        cost = self.game.content.cards[c].cost
        self.gems[p] -= cost
        self.row.remove(c)
        self.discard[p].append(c)
        ev.append({"type": "buy", "player": p, "card": c, "cost": cost})

    def _do_keep(self, a, ev):
        p = self.cur
        self.row.remove(a[1])
        self.priv[p].append(a[1])
        self.kept += 1
        ev.append({"type": "keep", "player": p, "quest": a[1]})

    def _do_done(self, a, ev):
        p = self.cur
        if self.phase == STATUE:
            statue = self.row_kind
            returned = list(self.row)
            self.decks[statue][:0] = returned[::-1]
            self.known[statue] += len(returned)
            self.row = []
            self.row_kind = None
            self.kept = 0
            ev.append({"type": "statue_done", "player": p, "cards": returned})
        else:
            self.rel_left = 0
            ev.append({"type": "release_done", "player": p})
        self.phase = self.ret
        self.ret = None

    def _do_release(self, a, ev):
        p = self.cur
        c = a[1]
        if self.phase != RELEASE:       # the statue option itself: the first card of a visit
            self.phase = RELEASE
            self.ret = AFTER
            self.rel_left = 3
            self.rel_paid = True
        if c in self.hand[p]:
            self.hand[p].remove(c)
        else:
            self.discard[p].remove(c)
        if self.rel_paid:
            self.gems[p] -= 1
        self.box.append(c)
        self.rel_left -= 1
        ev.append({"type": "release", "player": p, "card": c, "paid": 1 if self.rel_paid else 0})
        self._maybe_close_release()

    def _maybe_close_release(self):
        p = self.cur
        if self.rel_left <= 0 or (self.rel_paid and self.gems[p] < 1) or not (self.hand[p] or self.discard[p]):
            self.phase = self.ret
            self.ret = None
            self.rel_left = 0

    def _do_teleport(self, a, ev):
        p = self.cur
        self.gems[p] -= 2
        self.pos[p] = a[1]
        self.phase = AFTER
        ev.append({"type": "teleport", "player": p, **self.place(a[1]), "paid": 2})

    # complete a quest (R21)
    def _do_complete(self, a, ev):
        _, q, hand_part, _key = a
        p = self.cur
        quest = self.game.content.quests[q]
        moved = list(self.commits[p].pop(q, ()))
        for c in hand_part:
            self.hand[p].remove(c)
        moved.extend(hand_part)
        self.discard[p].extend(moved)
        bonus = 0
        if q in self.priv[p]:
            self.priv[p].remove(q)
        else:
            slot = self.open_q.index(q)
            self.open_q[slot] = None
            if self.open_bonus[slot]:
                bonus = 1
                self.bonus[p] += 1
                self.open_bonus[slot] = False
            for other in range(self.n):
                if other != p and q in self.commits[other]:
                    back = self.commits[other].pop(q)
                    self.discard[other].extend(back)
                    ev.append({"type": "commits_returned", "player": other, "quest": q, "cards": back})
        self.completed[p].append(q)
        reward = {"GEMS": 0, "CARPET": 0, "REARRANGE": 0}
        for kind, k in quest.reward:
            reward[kind] += k
        self.gems[p] += reward["GEMS"]
        self.carpets[p] += reward["CARPET"]
        self.rearr[p] += reward["REARRANGE"]
        self.phase = AFTER
        ev.append({"type": "complete", "player": p, "quest": q, "cards": moved, "points": quest.points,
                   "bonus": bonus, "gems": reward["GEMS"], "carpets": reward["CARPET"],
                   "rearranges": reward["REARRANGE"]})
        score = self.gross_score(p) if self.game.goal_check == "gross" else self.score(p)
        if score >= self.goal:
            self._finish("goal_reached", ev, winner=p)

    # free actions (R23-R28)
    def _move(self, space, ev, how):
        p = self.cur
        dest = beyond(space, self.pos[p])
        self.pos[p] = dest
        if self.phase == ADVENTURE:
            self.route.append(dest)
            self.crossed.append(space)
        return dest

    def _do_carpet(self, a, ev):
        p = self.cur
        self.carpets[p] -= 1
        dest = self._move(a[1], ev, "carpet")
        ev.append({"type": "carpet", "player": p, "space": a[1], **self.place(dest)})

    def _do_rearrange(self, a, ev):
        p = self.cur
        self.rearr[p] -= 1
        if self.game.rearrange_effect == "new_hand":
            hand = sorted(self.hand[p])
            self.hand[p] = []
            self.discard[p].extend(hand)
            ev.append({"type": "rearrange_hand", "player": p, "cards": hand})
            self._draw_cards(p, len(hand), ev)
            return
        pile = self.draw[p] + self.discard[p]
        self.discard[p] = []
        self.rng.shuffle(pile)
        self.draw[p] = pile
        ev.append({"type": "rearrange", "player": p, "count": len(pile)})

    def _do_discard(self, a, ev):
        p = self.cur
        self.hand[p].remove(a[1])
        self.discard[p].append(a[1])
        ev.append({"type": "discard", "player": p, "card": a[1]})

    def _do_commit(self, a, ev):
        _, c, q = a
        p = self.cur
        self.hand[p].remove(c)
        self.commits[p].setdefault(q, []).append(c)
        ev.append({"type": "commit", "player": p, "card": c, "quest": q})

    def _do_withdraw(self, a, ev):
        p = self.cur
        c = a[1]
        for q, cs in self.commits[p].items():
            if c in cs:
                cs.remove(c)
                if not cs:
                    del self.commits[p][q]
                break
        self.discard[p].append(c)
        ev.append({"type": "withdraw", "player": p, "card": c})

    def _do_power(self, a, ev):
        p = self.cur
        c = a[1]
        card = self.game.content.cards[c]
        ab, n = card.ability, card.n
        self.hand[p].remove(c)
        if ab == "GIFT":
            to = a[3]
            self.discard[to].append(c)
            ev.append({"type": "gift", "player": p, "card": c, "to": to})
            return
        self.play[p].append(c)
        ev.append({"type": "power", "player": p, "card": c, "effect": ab})
        if ab == "GEMS":
            self.gems[p] += n
        elif ab == "CARPET":
            self.carpets[p] += n
        elif ab == "REARRANGE":
            self.rearr[p] += n
        elif ab == "SPY":
            self.spy += n
        elif ab == "DRAW":
            self._draw_cards(p, n, ev)
        elif ab == "FLY":
            dest = self._move(a[3], ev, "fly")
            ev.append({"type": "fly", "player": p, "space": a[3], **self.place(dest)})
        elif ab == "TELEPORT":
            self.pos[p] = a[3]
            ev.append({"type": "teleport", "player": p, **self.place(a[3]), "paid": 0})
        elif ab == "KEY":
            option = a[3]
            if option == "draw":
                self._open_statue(self.phase, ev)
            elif option == "release":
                self.ret = self.phase
                self.phase = RELEASE
                self.rel_left = 3
                self.rel_paid = True
            else:
                self.gems[p] -= 2
                self.pos[p] = a[4]
                ev.append({"type": "teleport", "player": p, **self.place(a[4]), "paid": 2})
        elif ab == "RELEASE":
            self.ret = self.phase
            self.phase = RELEASE
            self.rel_left = n
            self.rel_paid = False
        elif ab == "DRAGON":
            for q in self._opponents_here():
                if not self.dragons:
                    break
                d = min(self.dragons)
                self.dragons.remove(d)
                self.discard[q].append(d)
                ev.append({"type": "dragon", "player": p, "to": q, "card": d})

    # end of turn (R29, R34c)
    def _do_end(self, a, ev):
        p = self.cur
        self.discard[p].extend(self.play[p])
        self.play[p] = []
        if len(self.hand[p]) < HAND_SIZE:
            self._draw_cards(p, HAND_SIZE - len(self.hand[p]), ev)
        self.spy = 0
        ev.append({"type": "end_turn", "player": p})
        self.turn_no += 1
        if self.turn_no > self.game.max_turns:
            self._finish("turn_limit", ev)
            return
        self.cur = (p + 1) % self.n
        self._start_turn(ev)

    def _finish(self, reason: str, ev, winner: int | None = None):
        scores = [self.score(p) for p in range(self.n)]
        if winner is not None:
            winners = [winner]
        else:
            key = [(scores[p], self.gems[p], len(self.completed[p])) for p in range(self.n)]
            best = max(key)
            winners = [p for p in range(self.n) if key[p] == best]
        self.res = {"winners": winners, "reason": reason, "scores": scores}
        self.phase = OVER
        ev.append({"type": "game_over", "winners": winners, "reason": reason, "scores": scores})

    # --- explanations -------------------------------------------------------------------------
    def why_illegal(self, action, lang: str = "en") -> str:
        try:
            return self._why_illegal(action, lang)
        except (IndexError, KeyError, TypeError, ValueError):
            return refusal(self.game, "not_action", lang)

    def _why_illegal(self, action, lang: str) -> str:
        def why(key: str, **fields) -> str:
            return refusal(self.game, key, lang, **fields)

        if self.res is not None:
            return why("over")
        if not isinstance(action, tuple) or not action:
            return why("not_action")
        kind = action[0]
        phase = self.phase
        p = self.cur
        if phase == DRAFT:
            if kind == "start" and kind == self.draft_step and action[1] in self.pos:
                return why("taken_start")
            if kind == self.draft_step:
                return why("draft_pool", kind=kind)
            return why("draft_asks", step=self.draft_step)
        if phase == STATUE:
            if kind == "buy" and action[1] in self.row and self.row_kind != "QC":
                cost = self.game.content.cards[action[1]].cost
                return why("cost", card=self.game.card_name(action[1], lang), cost=cost, gems=self.gems[p])
            if kind == "done" and self.row_kind == "QC" and not self.kept:
                return why("keep_one")
            if kind == "keep" and len(self.priv[p]) >= QUEST_LIMIT:
                return why("three_quests")
            if kind in ("buy", "keep"):
                return why("not_in_row")
            return why("at_statue")
        if phase == RELEASE and kind not in ("release", "done"):
            return why("releasing")
        cards = self.game.content.cards
        if kind in ("sub", "carpet") or (kind == "power" and len(action) > 2 and action[2] == "fly"):
            space = action[1] if kind != "power" else action[3]
            if space not in SPACE_ENDS or self.pos[p] not in SPACE_ENDS[space]:
                return why("not_adjacent", space=space)
            if not self._move_allowed(space, beyond(space, self.pos[p])):
                return why("no_going_back")
        if kind == "sub":
            if phase not in (MAIN, ADVENTURE):
                return why("adventure_action")
            if self.spaces[action[1] - 1] is None:
                return why("no_creature", space=action[1])
            if any(s == action[1] for s, _ in self.pending):
                return why("subdued")
            if any(c not in self.hand[p] for c in action[2]):
                return why("pay_from_hand")
            return why("pay_exactly")
        if kind == "stop":
            return why("not_adventuring")
        if kind == "end":
            return why("stop_first")
        if kind in ("draw", "teleport", "complete") or (kind == "release" and phase != RELEASE):
            if phase != MAIN:
                return why("action_used")
            if kind in ("teleport", "release", "complete"):
                return why(kind)
            return why("statue_draw")
        if kind in ("buy", "keep", "done"):
            return why("no_statue")
        if kind == "carpet" and not self.carpets[p]:
            return why("no_carpet")
        if kind in ("discard", "power", "commit") and (len(action) < 2 or action[1] not in self.hand[p]):
            return why("not_in_hand")
        if kind == "power":
            card = cards.get(action[1])
            if card is None or card.ability in (None, "WILD"):
                return why("no_power")
            if card.ability in ("KEY", "TELEPORT") and phase == ADVENTURE:
                return why("power_in_adventure")
            return why("power_condition")
        if kind == "commit":
            return why("commit")
        if kind == "withdraw":
            return why("not_committed")
        if kind == "rearrange":
            return why("rearrange")
        return why("not_now")

    def clone(self) -> FantastiqaState:
        s = FantastiqaState.__new__(FantastiqaState)
        s.game = self.game
        s.rng = self.rng.clone()
        s._legal = self._legal
        s.n = self.n
        s.phase = self.phase
        s.cur = self.cur
        s.turn_no = self.turn_no
        s.res = self.res
        s.goal = self.goal
        s.regions = self.regions
        s.statues = self.statues
        s.pos = self.pos[:]
        s.spaces = self.spaces[:]
        s.sgems = self.sgems[:]
        s.pending = self.pending[:]
        s.route = self.route[:]
        s.crossed = self.crossed[:]
        s.cdeck = self.cdeck[:]
        s.cblock = self.cblock[:]
        d = self.decks
        s.decks = {"AT": d["AT"][:], "BB": d["BB"][:], "QC": d["QC"][:]}
        s.known = dict(self.known)
        s.row = self.row[:]
        s.row_kind = self.row_kind
        s.kept = self.kept
        s.ret = self.ret
        s.rel_left = self.rel_left
        s.rel_paid = self.rel_paid
        s.open_q = self.open_q[:]
        s.open_bonus = self.open_bonus[:]
        s.bonus_supply = self.bonus_supply
        s.hand = [x[:] for x in self.hand]
        s.draw = [x[:] for x in self.draw]
        s.play = [x[:] for x in self.play]
        s.discard = [x[:] for x in self.discard]
        s.priv = [x[:] for x in self.priv]
        s.commits = [{q: v[:] for q, v in x.items()} for x in self.commits]
        s.completed = [x[:] for x in self.completed]
        s.bonus = self.bonus[:]
        s.gems = self.gems[:]
        s.carpets = self.carpets[:]
        s.rearr = self.rearr[:]
        s.spy = self.spy
        s.box = self.box[:]
        s.dragons = self.dragons[:]
        s.first_fill = self.first_fill
        s.qpool = self.qpool[:]
        s.apool = self.apool[:]
        s.draft_i = self.draft_i
        s.draft_step = self.draft_step
        return s
