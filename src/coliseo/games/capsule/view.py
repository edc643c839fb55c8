"""What each player may see of a Capsule Monsters position (§4), its determinization, and position documents."""

from __future__ import annotations

import random
from typing import Any

from coliseo.core.errors import PositionError
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
    state = CapsuleState(game, Rng(doc["rng"]))

    def field(name, kind, minimum=None):
        value = doc.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) or \
                (minimum is not None and value < minimum):
            raise PositionError(f"field {name!r} must be {kind.__name__}"
                                f"{'' if minimum is None else f' ≥ {minimum}'}, got {value!r}")
        return value

    state.turn_no = field("turn", int, 0)
    state.active = field("active", int, 0)
    state.ap = field("ap", int, 0)
    state.passes = field("passes", int, 0)
    state.acted = field("acted", bool)
    if state.active > 1:
        raise PositionError(f"field 'active' must be 0 or 1, got {state.active}")
    destroyed = field("destroyed", list)
    if len(destroyed) != 2 or not all(isinstance(d, list) for d in destroyed):
        raise PositionError("field 'destroyed' must be two lists of monster ids")
    for d in destroyed:
        for card_id in d:
            if card_id not in game.content.monsters:
                raise PositionError(f"field 'destroyed': unknown monster {card_id!r}")
    state.destroyed = [list(d) for d in destroyed]
    for i, raw in enumerate(field("pieces", list)):
        piece = _piece_from_json(game, i, raw)
        if state.board[piece[SQ]] is not None:
            raise PositionError(f"pieces[{i}]: square {raw['sq']} holds two pieces")
        state.board[piece[SQ]] = piece
        state.own[piece[OWNER]].append(piece)
    _load_trays(game, state, doc.get("unplaced", [[], []]))
    first = doc.get("first", state.active if state.turn_no % 2 else 1 - state.active)
    if first not in (0, 1) or isinstance(first, bool):
        raise PositionError(f"field 'first' must be 0 or 1, got {first!r}")
    state.first = first
    for p in (0, 1):
        kings = [x for x in state.own[p] if x[KIND] == KING] + [x for n, x in state.tray[p] if n == 0]
        if len(kings) > 1:
            raise PositionError(f"player {p + 1} has more than one King")
        state.own[p].sort(key=piece_order)
    result = doc.get("result")
    if result is not None and (not isinstance(result, dict) or set(result) != {"winners", "reason", "scores"}):
        raise PositionError("field 'result' must be null or {winners, reason, scores}")
    state._result = canonical_result(game, result)
    if state.turn_no == 0:
        if result is not None or not state.tray[state.active] or state.tray[0] and state.active == 1:
            raise PositionError("turn 0 is the placement (R9): the game is not over and the player to place is "
                                "the first with pieces in 'unplaced'")
        if state.ap:
            raise PositionError("field 'ap' must be 0 during the placement")
        return state
    if any(state.tray):
        raise PositionError("field 'unplaced' must be empty after the placement (turn 1 on)")
    if result is None and any(state.king(p) is None for p in (0, 1)):
        raise PositionError("a game in progress needs both Kings on the board")
    if result is None:
        king_ap = state.action_points(state.king(state.active)[CARD])
        if state.ap > king_ap:
            raise PositionError(f"field 'ap' is {state.ap}, more than the active King's {king_ap}")
    return state


def _load_trays(game, state: CapsuleState, trays: Any) -> None:
    """The pieces still to place: per player, [{"piece": number, "card": id}], the King number 0."""
    if not isinstance(trays, list) or len(trays) != 2 or not all(isinstance(t, list) for t in trays):
        raise PositionError("field 'unplaced' must be two lists of {piece, card}")
    for owner, tray in enumerate(trays):
        for raw in tray:
            number = raw.get("piece") if isinstance(raw, dict) else None
            if not isinstance(number, int) or isinstance(number, bool) or number < 0 or \
                    any(n == number for n, _ in state.tray[owner]):
                raise PositionError(f"field 'unplaced': player {owner + 1}'s piece numbers must be distinct whole "
                                    f"numbers ≥ 0, got {number!r}")
            table = game.content.kings if number == 0 else game.content.monsters
            card = table.get(raw.get("card"))
            if card is None:
                raise PositionError(f"field 'unplaced': unknown {'King' if number == 0 else 'monster'} "
                                    f"{raw.get('card')!r}")
            state.tray[owner].append([number, [-1, owner, CAPSULE if number else KING, card, 0, False, False,
                                               False, 0, 1 << owner]])
        state.tray[owner].sort(key=lambda e: e[0])


def _piece_from_json(game, i: int, raw: Any) -> list:
    where = f"pieces[{i}]"
    if not isinstance(raw, dict):
        raise PositionError(f"{where} must be an object")
    sq = game.board.parse(raw.get("sq")) if isinstance(raw.get("sq"), str) else None
    if sq is None:
        raise PositionError(f"{where}: 'sq' must be a square on the board, got {raw.get('sq')!r}")
    owner = raw.get("owner")
    if owner not in (0, 1) or isinstance(owner, bool):
        raise PositionError(f"{where}: 'owner' must be 0 or 1, got {owner!r}")
    kind_name = raw.get("kind")
    if kind_name not in KIND_NAMES:
        raise PositionError(f"{where}: 'kind' must be one of {', '.join(KIND_NAMES)}, got {kind_name!r}")
    kind = KIND_NAMES.index(kind_name)
    table = game.content.kings if kind == KING else game.content.monsters
    card = table.get(raw.get("card"))
    if card is None:
        raise PositionError(f"{where}: unknown {'King' if kind == KING else 'monster'} {raw.get('card')!r}")
    damage = raw.get("damage", 0)
    if not isinstance(damage, int) or isinstance(damage, bool) or damage < 0:
        raise PositionError(f"{where}: 'damage' must be a whole number ≥ 0")
    flags = {}
    for name in ("stunned", "moved", "attacked"):
        flags[name] = raw.get(name, False)
        if not isinstance(flags[name], bool):
            raise PositionError(f"{where}: {name!r} must be true or false")
    if flags["stunned"] and kind != MONSTER:
        raise PositionError(f"{where}: only summoned monsters can be stunned")
    used = raw.get("used", [])
    ids = [a.id for a in card.activated]
    if not isinstance(used, list) or any(u not in ids for u in used):
        raise PositionError(f"{where}: 'used' must list activated abilities of {card.id}: {ids}")
    known_by = raw.get("known_by", [owner])
    if not isinstance(known_by, list) or any(q not in (0, 1) for q in known_by) or owner not in known_by:
        raise PositionError(f"{where}: 'known_by' must list the players who know the card, owner included")
    return [sq, owner, kind, card, damage, flags["stunned"], flags["moved"], flags["attacked"],
            sum(1 << ids.index(u) for u in set(used)), sum(1 << q for q in set(known_by))]
