"""Capsule Monsters rules: the position, its legal actions and how each action resolves.

Rule numbers (R15, R20, …) refer to docs/rules/capsule.md. A piece is a small list
[square, owner, kind, card, damage, stunned, moved, attacked, used, known]: `used` is a bitmask
over the card's activated abilities and `known` a bitmask of the players who know a capsule's card.
Before turn 1 comes the placement (R9): a player who places by hand has their pieces in a tray (square -1) and
places them one action at a time, Player 1 first; turn 0 is that phase.
"""

from __future__ import annotations

from coliseo.core.events import private
from coliseo.core.game import State
from coliseo.core.i18n import refusal

from .content import BEATS, Card

SQ, OWNER, KIND, CARD, DMG, STUN, MOVED, ATTACKED, USED, KNOWN = range(10)
KING, CAPSULE, MONSTER = 0, 1, 2
KIND_NAMES = ("king", "capsule", "monster")

# Actions: (END,), (SUMMON, sq), (MOVE, from, to), (ATTACK, from, to), (RECOVER, sq),
# (ABILITY, from, ability id, target); during the placement (R9): (PLACE, piece, sq) with piece 0 the King and
# 1 + i team monster i, and (PLACE_REST,): every piece still in the tray on a random free square.
END, SUMMON, MOVE, ATTACK, RECOVER, ABILITY, PLACE, PLACE_REST = range(8)
END_ACTION = (END,)
PLACE_REST_ACTION = (PLACE_REST,)


def piece_order(piece: list) -> tuple:
    """Each player's pieces are kept King first, then by square: legal actions come in that order."""
    return piece[KIND] != KING, piece[SQ]


class CapsuleState(State):
    __slots__ = ("board", "own", "tray", "first", "destroyed", "turn_no", "active", "ap", "passes", "acted",
                 "_result")

    def __init__(self, game, rng):
        self.game = game
        self.rng = rng
        self._legal = None
        self.board: list = [None] * game.board.size
        self.own: list[list] = [[], []]              # each player's pieces on the board, King first
        self.tray: list[list] = [[], []]             # each player's pieces still to place: [piece number, piece]
        self.first = 0                               # who takes turn 1 (R10), once the placement is over
        self.destroyed: list[list[str]] = [[], []]   # card ids, in order of destruction
        self.turn_no = 0
        self.active = 0
        self.ap = 0
        self.passes = 0
        self.acted = False
        self._result: dict | None = None

    # --- contract -------------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        return (0, 1)

    @property
    def current_player(self) -> int | None:
        return None if self._result is not None else self.active

    @property
    def result(self) -> dict | None:
        return self._result

    @property
    def turn(self) -> int:
        return self.turn_no

    @property
    def first_turn_player(self) -> int:
        return self.first

    @property
    def placing(self) -> bool:
        """R9: the placement before turn 1 is still going on."""
        return self.turn_no == 0 and self._result is None

    def clone(self) -> CapsuleState:
        other = CapsuleState.__new__(CapsuleState)
        other.game = self.game
        other.rng = self.rng.clone()
        other._legal = self._legal
        board = [None] * len(self.board)
        own = []
        for pieces in self.own:
            copies = [p[:] for p in pieces]
            for p in copies:
                board[p[SQ]] = p
            own.append(copies)
        other.board = board
        other.own = own
        other.tray = [[[n, p[:]] for n, p in tray] for tray in self.tray] if self.turn_no == 0 else [[], []]
        other.first = self.first
        other.destroyed = [self.destroyed[0][:], self.destroyed[1][:]]
        other.turn_no = self.turn_no
        other.active = self.active
        other.ap = self.ap
        other.passes = self.passes
        other.acted = self.acted
        other._result = self._result
        return other

    # --- pieces and numbers ---------------------------------------------------------------------
    def king(self, player: int) -> list | None:
        pieces = self.own[player]
        return pieces[0] if pieces and pieces[0][KIND] == KING else None

    def monster_points(self, card: Card) -> int:
        return card.monster_points[self.game.advanced]

    def action_points(self, card: Card) -> int:
        return card.action_points[self.game.advanced]

    def score(self, player: int) -> int:
        """R41: the King's remaining points."""
        king = self.king(player)
        return max(0, self.monster_points(king[CARD]) - king[DMG]) if king else 0

    # --- legal actions (R15–R22, R35–R37) --------------------------------------------------------
    def _legal_actions(self) -> list:
        if self.turn_no == 0:
            free = [sq for sq in self.game.zones[self.active] if self.board[sq] is None]
            return [*((PLACE, n, sq) for n, _ in self.tray[self.active] for sq in free), PLACE_REST_ACTION]
        return [END_ACTION, *self._actions_but_end()]

    def _actions_but_end(self):
        """Every legal action other than ending the turn, lazily: R14 asks only whether there is one."""
        ap = self.ap
        stun_blocks = self.game.options["stun_blocks_abilities"]
        for piece in self.own[self.active]:
            sq, kind, card = piece[SQ], piece[KIND], piece[CARD]
            if kind == CAPSULE:
                if card.cost <= ap:
                    yield SUMMON, sq
                continue
            stunned = piece[STUN]
            if stunned and card.cost <= ap:
                yield RECOVER, sq
            if not stunned:
                if not piece[MOVED] and card.move.cost <= ap:
                    for to in self.move_targets(piece):
                        yield MOVE, sq, to
                if kind == MONSTER and not piece[ATTACKED] and card.attack.cost <= ap:
                    for to in self.attack_targets(piece):
                        yield ATTACK, sq, to
            if card.activated and not (stunned and stun_blocks):
                for k, ability in enumerate(card.activated):
                    if not piece[USED] >> k & 1 and ability.cost <= ap:
                        for t in self.ability_targets(piece, ability):
                            yield ABILITY, sq, ability.id, t

    def move_targets(self, piece: list) -> list[int]:
        """R20–R22: empty squares the piece can reach with its move line."""
        board = self.board
        line = piece[CARD].move
        if line.pattern == "O":
            return [t for t in self.game.board.ring[piece[SQ]] if board[t] is None]
        owner, fly = piece[OWNER], piece[CARD].fly
        out = []
        for ray in self.game.board.lines(line.pattern, line.range)[piece[SQ]]:
            for t in ray:
                other = board[t]
                if other is None:
                    out.append(t)
                elif other[OWNER] != owner and not fly:
                    break
        return out

    def attack_targets(self, piece: list) -> list[int]:
        """R20–R21: enemy pieces in the attack line; the first blocks the ray unless `pierce`."""
        board = self.board
        line = piece[CARD].attack
        owner = piece[OWNER]
        if line.pattern == "O":
            return [t for t in self.game.board.ring[piece[SQ]] if board[t] is not None and board[t][OWNER] != owner]
        pierce = piece[CARD].pierce
        out = []
        for ray in self.game.board.lines(line.pattern, line.range)[piece[SQ]]:
            for t in ray:
                other = board[t]
                if other is not None and other[OWNER] != owner:
                    out.append(t)
                    if not pierce:
                        break
        return out

    def ability_targets(self, piece: list, ability) -> list[int]:
        geometry = self.game.board
        sq, owner = piece[SQ], piece[OWNER]
        if ability.id == "scout":      # R36
            bit = 1 << owner
            return sorted(p[SQ] for p in self.own[1 - owner]
                          if p[KIND] == CAPSULE and not p[KNOWN] & bit
                          and geometry.distance(sq, p[SQ]) <= ability.range)
        own = self.own[owner]
        if ability.id == "heal":       # R35
            return sorted(p[SQ] for p in own if p[KIND] == MONSTER and p[DMG] >= 1
                          and geometry.distance(sq, p[SQ]) <= 1)
        return sorted(p[SQ] for p in own if p is not piece and p[KIND] == MONSTER and p[STUN]   # R37 rouse
                      and geometry.distance(sq, p[SQ]) <= 1)

    def why_illegal(self, action, lang: str = "en") -> str:
        if self._result is not None:
            return refusal(self.game, "over", lang)
        if not isinstance(action, tuple) or not action or action[0] not in range(8):
            return refusal(self.game, "not_action", lang)
        if self.turn_no == 0:
            if action[0] != PLACE:
                return refusal(self.game, "placing", lang)
            if not any(n == action[1] for n, _ in self.tray[self.active]):
                return refusal(self.game, "placed", lang)
            return refusal(self.game, "not_zone", lang)
        if action[0] in (PLACE, PLACE_REST):
            return refusal(self.game, "not_placing", lang)
        if action[0] == END:
            return refusal(self.game, "no_end", lang)
        geometry = self.game.board
        sq = action[1]
        if not isinstance(sq, int) or not 0 <= sq < geometry.size:
            return refusal(self.game, "off_board", lang)
        piece = self.board[sq]
        where = geometry.name(sq)
        if piece is None:
            return refusal(self.game, "no_piece", lang, where=where)
        if piece[OWNER] != self.active:
            return refusal(self.game, "not_yours", lang, where=where)
        kind, card = piece[KIND], piece[CARD]
        if action[0] == SUMMON:
            if kind != CAPSULE:
                return refusal(self.game, "no_capsule", lang, where=where)
            return refusal(self.game, "summon_ap", lang, cost=card.cost, ap=self.ap)
        if kind == CAPSULE:
            return refusal(self.game, "capsule_acts", lang, where=where)
        if action[0] == RECOVER:
            if not piece[STUN]:
                return refusal(self.game, "not_stunned", lang, where=where)
            return refusal(self.game, "recover_ap", lang, cost=card.cost, ap=self.ap)
        if action[0] in (MOVE, ATTACK) and piece[STUN]:
            return refusal(self.game, "stunned", lang, where=where)
        if action[0] == MOVE:
            if piece[MOVED]:
                return refusal(self.game, "moved", lang, where=where)
            if card.move.cost > self.ap:
                return refusal(self.game, "move_ap", lang, cost=card.move.cost, ap=self.ap)
            return refusal(self.game, "bad_move", lang, where=where, range=card.move.range,
                           pattern=card.move.pattern)
        if action[0] == ATTACK:
            if kind == KING:
                return refusal(self.game, "king_attack", lang)
            if piece[ATTACKED]:
                return refusal(self.game, "attacked", lang, where=where)
            if card.attack.cost > self.ap:
                return refusal(self.game, "attack_ap", lang, cost=card.attack.cost, ap=self.ap)
            return refusal(self.game, "no_target", lang, where=where)
        ability = card.ability(action[2]) if len(action) > 2 and isinstance(action[2], str) else None
        if ability is None:
            return refusal(self.game, "no_ability", lang, where=where, ability=repr(action[2]))
        if piece[USED] >> card.activated.index(ability) & 1:
            return refusal(self.game, "used", lang, ability=ability.id, where=where)
        if ability.cost > self.ap:
            return refusal(self.game, "ability_ap", lang, ability=ability.id, cost=ability.cost, ap=self.ap)
        return refusal(self.game, "bad_target", lang, ability=ability.id)

    # --- resolving actions ----------------------------------------------------------------------
    def _apply(self, action) -> list[dict]:
        events: list[dict] = []
        kind = action[0]
        if kind == PLACE:
            self.place(self.active, action[1], action[2], events)
            self._placed(events)
            return events
        if kind == PLACE_REST:
            self.place_rest(self.active, events)
            self._placed(events)
            return events
        if kind == END:
            self._end_turn(events)
            if self.game.options["auto_end_turn"]:
                self._auto_end(events)
            return events
        player = self.active
        geometry = self.game.board
        piece = self.board[action[1]]
        card = piece[CARD]
        self.acted = True
        if kind == SUMMON:                                         # R15
            self.ap -= card.cost
            piece[KIND] = MONSTER
            if not self.game.options["capsule_damage_carries"]:
                piece[DMG] = 0
            events.append({"type": "summon", "player": player, "sq": geometry.name(piece[SQ]), "card": card.id})
            if piece[DMG] >= card.hp:
                self._destroy(piece, events, was_capsule=False)
        elif kind == MOVE:                                         # R16
            self.ap -= card.move.cost
            frm, to = action[1], action[2]
            self.board[frm] = None
            self.board[to] = piece
            piece[SQ] = to
            piece[MOVED] = True
            self.own[player].sort(key=piece_order)
            events.append({"type": "move", "player": player, "piece": card.id,
                           "from": geometry.name(frm), "to": geometry.name(to)})
        elif kind == ATTACK:                                       # R17, R23–R28
            self.ap -= card.attack.cost
            piece[ATTACKED] = True
            self._attack(piece, self.board[action[2]], events)
        elif kind == RECOVER:                                      # R18
            self.ap -= card.cost
            piece[STUN] = False
            events.append({"type": "recover", "player": player, "sq": geometry.name(piece[SQ]), "card": card.id})
        else:                                                      # R19, R35–R37
            self._use_ability(piece, action[2], self.board[action[3]], events)
        if not self._check_loss(events) and self.game.options["auto_end_turn"]:
            self._auto_end(events)
        return events

    def _attack(self, attacker: list, target: list, events: list) -> None:
        card, geometry = attacker[CARD], self.game.board
        target_card = target[CARD]
        amount = card.attack.damage + card.bane.get(target_card.faction, 0)
        if self.game.options["faction_advantage"] and BEATS[card.faction] == target_card.faction:
            amount += 1
        if target[KIND] != CAPSULE:
            amount -= target_card.armor            # D27: armor sleeps inside a capsule
        amount = max(0, amount)
        event = {"type": "attack", "player": attacker[OWNER], "piece": card.id,
                 "from": geometry.name(attacker[SQ]), "to": geometry.name(target[SQ]), "amount": amount}
        if target[KIND] != CAPSULE:
            event["target"] = target_card.id
        events.append(event)
        target[DMG] += amount
        if target[KIND] == KING:
            if target[DMG] >= self.monster_points(target_card):
                self._remove(target)
                events.append({"type": "king_destroyed", "player": target[OWNER]})
        elif target[DMG] >= (self.game.options["capsule_hp"] if target[KIND] == CAPSULE else target_card.hp):
            self._destroy(target, events, was_capsule=target[KIND] == CAPSULE)
        elif card.stun and target[KIND] == MONSTER and not target[STUN]:     # R28
            target[STUN] = True
            events.append({"type": "stunned", "sq": geometry.name(target[SQ]), "card": target_card.id})

    def _remove(self, piece: list) -> None:
        self.board[piece[SQ]] = None
        self.own[piece[OWNER]].remove(piece)

    def _destroy(self, piece: list, events: list, was_capsule: bool) -> None:
        """R25: the monster leaves, its card is revealed, its King takes its cost."""
        owner, card = piece[OWNER], piece[CARD]
        self._remove(piece)
        self.destroyed[owner].append(card.id)
        events.append({"type": "destroyed", "player": owner, "sq": self.game.board.name(piece[SQ]),
                       "card": card.id, "was_capsule": was_capsule})
        king = self.king(owner)
        if king is None:
            return
        king[DMG] += card.cost
        events.append({"type": "king_damage", "player": owner, "amount": card.cost, "total": king[DMG]})
        if king[DMG] >= self.monster_points(king[CARD]):
            self._remove(king)
            events.append({"type": "king_destroyed", "player": owner})

    def _use_ability(self, piece: list, ability_id: str, target: list, events: list) -> None:
        card, geometry = piece[CARD], self.game.board
        ability = card.ability(ability_id)
        self.ap -= ability.cost
        piece[USED] |= 1 << card.activated.index(ability)
        base = {"player": piece[OWNER], "piece": card.id, "from": geometry.name(piece[SQ]),
                "to": geometry.name(target[SQ])}
        if ability_id == "heal":
            healed = min(ability.amount, target[DMG])
            target[DMG] -= healed
            events.append({"type": "heal", **base, "target": target[CARD].id, "amount": healed})
        elif ability_id == "scout":
            target[KNOWN] |= 1 << piece[OWNER]
            events.append({"type": "scout", **base, "private": private([piece[OWNER]], card=target[CARD].id)})
        else:
            target[STUN] = False
            events.append({"type": "rouse", **base, "target": target[CARD].id})

    # --- the placement (R9) ------------------------------------------------------------------------
    def place(self, player: int, number: int, sq: int, events: list) -> None:
        """Piece `number` of the player's tray goes on `sq`; only its owner reads which piece and where."""
        entry = next(e for e in self.tray[player] if e[0] == number)
        self.tray[player].remove(entry)
        piece = entry[1]
        piece[SQ] = sq
        self.board[sq] = piece
        self.own[player].append(piece)
        self.own[player].sort(key=piece_order)
        events.append({"type": "place", "player": player,
                       "private": private([player], piece=piece[CARD].id, sq=self.game.board.name(sq))})

    def place_rest(self, player: int, events: list) -> None:
        """Every piece still in the tray, in order, on a square drawn (state RNG) from the free ones of the zone."""
        free = [sq for sq in self.game.zones[player] if self.board[sq] is None]
        for number, _ in list(self.tray[player]):
            self.place(player, number, free.pop(self.rng.randrange(len(free))), events)

    def _placed(self, events: list) -> None:
        """After a placement: the next player with pieces to place, else turn 1 (R10, R11)."""
        if self.tray[self.active]:
            return
        if self.tray[1 - self.active]:
            self.active = 1 - self.active
            return
        self.start_turn(self.first, events)
        if self.game.options["auto_end_turn"]:
            self._auto_end(events)

    # --- turns and the end of the game (R11, R14, R38–R41) ----------------------------------------
    def _auto_end(self, events: list) -> None:
        """R14: while the active player can only end the turn, the turn ends by itself."""
        while self._result is None and next(self._actions_but_end(), None) is None:
            self._end_turn(events, "no_actions")

    def _end_turn(self, events: list, reason: str | None = None) -> None:
        """The active player's turn ends: by their choice, or by itself for `reason` (R14)."""
        player = self.active
        events.append({"type": "turn_end", "player": player, **({"reason": reason} if reason else {})})
        self.ap = 0
        for piece in self.own[player]:
            piece[MOVED] = piece[ATTACKED] = False
            piece[USED] = 0
        self.passes = 0 if self.acted else self.passes + 1
        options = self.game.options
        if options["double_pass_ends"] and self.passes >= 2:
            self._finish_by_score("double_pass", events)
        elif options["max_turns"] and self.turn_no >= options["max_turns"]:
            self._finish_by_score("turn_limit", events)
        else:
            self.start_turn(1 - player, events)

    def start_turn(self, player: int, events: list) -> None:
        """R11: the turn counter advances and the player's AP are refilled from their King; the options
        `first_turn_ap_penalty` and `second_player_ap_bonus` take some from turn 1 and add some to turn 2."""
        self.turn_no += 1
        self.active = player
        self.acted = False
        self.ap = self.action_points(self.king(player)[CARD])
        if self.turn_no == 1:
            self.ap = max(0, self.ap - self.game.options["first_turn_ap_penalty"])
        elif self.turn_no == 2:
            self.ap += self.game.options["second_player_ap_bonus"]
        events.append({"type": "turn_start", "player": player, "turn": self.turn_no, "ap": self.ap})

    def _check_loss(self, events: list) -> bool:
        """R38: after every action, a player without a King (or without monsters) has lost."""
        all_monsters = self.game.options["all_monsters_rule"]
        reasons = {}
        for p in (0, 1):
            if self.king(p) is None:
                reasons[p] = "king_destroyed"
            elif all_monsters and len(self.own[p]) == 1:
                reasons[p] = "all_monsters_destroyed"
        if not reasons:
            return False
        if len(reasons) == 2:
            self._finish([], "both_lost", events)
        else:
            (loser, reason), = reasons.items()
            self._finish([1 - loser], reason, events)
        return True

    def _finish_by_score(self, reason: str, events: list) -> None:
        s0, s1 = self.score(0), self.score(1)
        self._finish([0] if s0 > s1 else [1] if s1 > s0 else [], reason, events)

    def _finish(self, winners: list[int], reason: str, events: list) -> None:
        scores = [self.score(0), self.score(1)]
        self._result = {"winners": winners, "reason": reason, "scores": scores}
        self._legal = []
        events.append({"type": "game_over", "winner": winners[0] if winners else None, "reason": reason,
                       "scores": scores})
