"""What each player may see of a Capsule Monsters position (§4), its determinization, and position documents."""

from __future__ import annotations

import random

from coliseo.core.errors import PositionError
from coliseo.core.position import Doc
from coliseo.core.reasons import canonical_result
from coliseo.core.rng import Rng

from .state import (
    ATTACKED,
    CAPSULE,
    CARD,
    DMG,
    KIND,
    KIND_NAMES,
    KING,
    KNOWN,
    MONSTER,
    MOVED,
    OWNER,
    SQ,
    STUN,
    USED,
    CapsuleState,
    piece_order,
)


# --- what each player may see (§4) ---------------------------------------------------------------
def card_visible(piece: list, viewer: int | None) -> bool:
    if piece[KIND] != CAPSULE:
        return True
    return viewer is not None and (piece[OWNER] == viewer or bool(piece[KNOWN] >> viewer & 1))


def observe(state: CapsuleState, player: int | None) -> dict:
    """While the placement lasts (turn 0, R9) each player sees only their own pieces, placed or in their tray."""
    game = state.game
    geometry = game.board
    pieces = []
    placing = state.placing
    for piece in sorted((p for pieces in state.own for p in pieces), key=lambda p: p[SQ]):
        if placing and piece[OWNER] != player:
            continue
        card = piece[CARD]
        view = {"sq": geometry.name(piece[SQ]), "owner": piece[OWNER], "kind": KIND_NAMES[piece[KIND]],
                "faction": card.faction, "damage": piece[DMG]}
        if card_visible(piece, player):
            view["card"] = card.id
        if piece[KIND] != CAPSULE:
            view.update(stunned=piece[STUN], moved=piece[MOVED], attacked=piece[ATTACKED],
                        used=[a.id for k, a in enumerate(card.activated) if piece[USED] >> k & 1])
        pieces.append(view)
    return {
        "game": "capsule",
        "viewer": player,
        "width": geometry.width,
        "height": geometry.height,
        "zones": [[geometry.name(sq) for sq in zone] for zone in game.zones],
        "mode": game.options["mode"],
        "turn": state.turn_no,
        "current_player": state.current_player,
        "ap": state.ap,
        "passes": state.passes,
        "acted": state.acted,
        "pieces": pieces,
        "destroyed": [list(d) for d in state.destroyed],
        "team_sizes": [sum(p[KIND] != KING for p in state.own[q]) + sum(n > 0 for n, _ in state.tray[q])
                       + len(state.destroyed[q]) for q in (0, 1)],
        "placing": placing,
        "to_place": [len(state.tray[q]) for q in (0, 1)],
        "tray": [{"piece": "K" if n == 0 else n, "kind": KIND_NAMES[p[KIND]], "card": p[CARD].id,
                  "faction": p[CARD].faction} for n, p in state.tray[player]] if player is not None else [],
        "result": state.result,
    }


def resample_hidden(state: CapsuleState, player: int, rng: random.Random) -> None:
    """§4: every enemy capsule the player has not seen gets a monster of its faction, team rules kept; while the
    placement lasts (R9) the enemy's placed pieces also get new squares of their zone."""
    if player is None:
        raise ValueError("determinize needs a player")
    enemy = 1 - player
    bit = 1 << player
    if state.placing:
        _replace_pieces(state, enemy, rng)
    hidden = sorted((p for p in state.own[enemy] if p[KIND] == CAPSULE and not p[KNOWN] & bit),
                    key=lambda p: p[SQ]) + [p for _, p in state.tray[enemy] if p[KIND] == CAPSULE]
    if not hidden:
        return
    game = state.game
    king = state.king(enemy) or next((p for n, p in state.tray[enemy] if n == 0), None)
    enforce = game.options["enforce_team_rules"]
    fixed_cost = sum(p[CARD].cost for p in state.own[enemy] if p not in hidden and p[KIND] != KING)
    fixed_cost += sum(game.content.monsters[c].cost for c in state.destroyed[enemy])
    budget = state.monster_points(king[CARD]) if king else 0
    choices = [game.eligible(piece[CARD].faction, king[CARD].faction if king else None) for piece in hidden]
    for _ in range(100):
        draw = [rng.choice(options) for options in choices]
        if not enforce or king is None or fixed_cost + sum(c.cost for c in draw) <= budget:
            break
    else:
        draw = [min(options, key=lambda c: (c.cost, c.id)) for options in choices]
    for piece, card in zip(hidden, draw):
        piece[CARD] = card


def _replace_pieces(state: CapsuleState, player: int, rng: random.Random) -> None:
    """The player's placed pieces on other squares of their zone, drawn uniformly."""
    pieces = state.own[player]
    for piece in pieces:
        state.board[piece[SQ]] = None
    for piece, sq in zip(pieces, rng.sample(state.game.zones[player], len(pieces))):
        piece[SQ] = sq
        state.board[sq] = piece
    pieces.sort(key=piece_order)


# --- positions ------------------------------------------------------------------------------------
def position_doc(state: CapsuleState) -> dict:
    geometry = state.game.board
    doc = state.game.position_header(state)
    doc.update({
        "turn": state.turn_no,
        "active": state.active,
        "ap": state.ap,
        "passes": state.passes,
        "acted": state.acted,
        "pieces": [{"sq": geometry.name(p[SQ]), "owner": p[OWNER], "kind": KIND_NAMES[p[KIND]],
                    "card": p[CARD].id, "damage": p[DMG], "stunned": p[STUN], "moved": p[MOVED],
                    "attacked": p[ATTACKED], "used": [a.id for k, a in enumerate(p[CARD].activated)
                                                      if p[USED] >> k & 1],
                    "known_by": [q for q in (0, 1) if p[KNOWN] >> q & 1]}
                   for pieces in state.own for p in pieces],
        "unplaced": [[{"piece": n, "card": p[CARD].id} for n, p in tray] for tray in state.tray],
        "first": state.first,
        "destroyed": [list(d) for d in state.destroyed],
        "result": state.result,
    })
    return doc


def load_position(game, doc: dict) -> CapsuleState:
    """The state a position document describes (its header already checked); PositionError names the first field
    that is wrong."""
    fields = Doc(doc)
    state = CapsuleState(game, Rng(doc["rng"]))
    state.turn_no = fields.int("turn", 0)
    state.active = fields.int("active", 0, 1)
    state.ap = fields.int("ap", 0)
    state.passes = fields.int("passes", 0)
    state.acted = fields.bool("acted")
    destroyed = fields.pair("destroyed", "lists of monster ids")
    state.destroyed = [destroyed.ids(p, game.content.monsters, "monster") for p in (0, 1)]
    _read_pieces(game, state, fields)
    _read_trays(game, state, fields)
    state.first = fields.int("first", 0, 1, default=state.active if state.turn_no % 2 else 1 - state.active)
    for p in (0, 1):
        kings = [x for x in state.own[p] if x[KIND] == KING] + [x for n, x in state.tray[p] if n == 0]
        if len(kings) > 1:
            raise PositionError(f"player {p + 1} has more than one King")
        state.own[p].sort(key=piece_order)
    state._result = canonical_result(game, fields.result(2, default=None))
    if state.turn_no == 0:
        _check_placement(state)
    else:
        _check_play(state)
    return state


def _read_pieces(game, state: CapsuleState, fields: Doc) -> None:
    """The pieces on the board, each on a square of its own."""
    pieces = fields.list("pieces", what="pieces")
    for i in pieces.keys():
        entry = pieces.object(i)
        piece = _read_piece(game, entry)
        if state.board[piece[SQ]] is not None:
            raise entry.fail("sq", f"square {entry.get('sq')} holds two pieces")
        state.board[piece[SQ]] = piece
        state.own[piece[OWNER]].append(piece)


def _read_piece(game, entry: Doc) -> list:
    """One piece: {sq, owner, kind, card}, and what changes in play (damage, stunned, moved, attacked, the
    activated abilities used, the players who know a capsule's card) where it is not as a piece begins."""
    sq = _read_square(game, entry, "sq")
    owner = entry.int("owner", 0, 1)
    kind = KIND_NAMES.index(entry.choice("kind", KIND_NAMES))
    table = game.content.kings if kind == KING else game.content.monsters
    card = table[entry.id("card", table, "King" if kind == KING else "monster")]
    damage = entry.int("damage", 0, default=0)
    stunned, moved, attacked = (entry.bool(name, default=False) for name in ("stunned", "moved", "attacked"))
    if stunned and kind != MONSTER:
        raise entry.fail("stunned", "only summoned monsters can be stunned")
    abilities = [a.id for a in card.activated]
    used = entry.list("used", what=f"activated abilities of {card.id}", default=[])
    used = {used.choice(k, abilities) for k in used.keys()}
    known_by = entry.ints("known_by", 0, 1, default=[owner])
    if owner not in known_by:
        raise entry.fail("known_by", "must list the players who know the card, owner included")
    return [sq, owner, kind, card, damage, stunned, moved, attacked,
            sum(1 << abilities.index(u) for u in used), sum(1 << q for q in set(known_by))]


def _read_square(game, entry: Doc, key: str) -> int:
    text = entry.get(key)
    sq = game.board.parse(text) if isinstance(text, str) else None
    if sq is None:
        raise entry.must(key, "a square on the board", text)
    return sq


def _read_trays(game, state: CapsuleState, fields: Doc) -> None:
    """The pieces still to place: per player, [{"piece": number, "card": id}], the King number 0."""
    trays = fields.pair("unplaced", "lists of {piece, card}", default=[[], []])
    for owner in (0, 1):
        tray = trays.list(owner, what="{piece, card} objects")
        for i in tray.keys():
            entry = tray.object(i)
            number = entry.int("piece", 0)
            if any(n == number for n, _ in state.tray[owner]):
                raise entry.fail("piece", f"player {owner + 1}'s piece numbers must be distinct, {number} repeats")
            table = game.content.kings if number == 0 else game.content.monsters
            card = table[entry.id("card", table, "King" if number == 0 else "monster")]
            state.tray[owner].append([number, [-1, owner, CAPSULE if number else KING, card, 0, False, False,
                                               False, 0, 1 << owner]])
        state.tray[owner].sort(key=lambda e: e[0])


def _check_placement(state: CapsuleState) -> None:
    """Turn 0 is the placement (R9)."""
    if state._result is not None or not state.tray[state.active] or state.tray[0] and state.active == 1:
        raise PositionError("turn 0 is the placement (R9): the game is not over and the player to place is "
                            "the first with pieces in 'unplaced'")
    if state.ap:
        raise PositionError("field 'ap' must be 0 during the placement")


def _check_play(state: CapsuleState) -> None:
    """From turn 1 on every piece is placed, and a game in progress has both Kings and no more AP than the active
    King gives."""
    if any(state.tray):
        raise PositionError("field 'unplaced' must be empty after the placement (turn 1 on)")
    if state._result is None and any(state.king(p) is None for p in (0, 1)):
        raise PositionError("a game in progress needs both Kings on the board")
    if state._result is None:
        king_ap = state.action_points(state.king(state.active)[CARD])
        if state.ap > king_ap:
            raise PositionError(f"field 'ap' is {state.ap}, more than the active King's {king_ap}")
