"""What each player may see of a Dungeon Dice position (§4), its determinization, and position documents (one
clear PositionError per bad field)."""

from __future__ import annotations

import random

from coliseo.core.errors import PositionError
from coliseo.core.memo import keep
from coliseo.core.reasons import canonical_result
from coliseo.core.rng import Rng

from .board import bits
from .content import CRESTS
from .state import ATTACKED, CARD, CTRL, EFF_GAME, EFF_TURN, EQUIPS, OWNER, PHASES, TMP, UID, DDMState, face_text


# --- what each player may see (§4) ----------------------------------------------------------
def _public(s: DDMState) -> dict:
    geo = s.game.geo
    names = geo.names
    cards = s.game.content.cards
    pieces = []
    for sq in sorted(s.pieces):
        p = s.pieces[sq]
        if p[CARD] is None:
            pieces.append({"square": names[sq], "master": True, "player": p[CTRL]})
            continue
        card = cards[p[CARD]]
        pieces.append({"square": names[sq], "master": False, "player": p[CTRL], "owner": p[OWNER],
                       "card": p[CARD], "level": card.level, "printed_atk": card.atk, "printed_def": card.defense,
                       "atk": s.atk(p), "def": s.defense(p), "equips": [list(e) for e in p[EQUIPS]],
                       "attacked": p[ATTACKED], "effect_used": p[EFF_TURN] or p[EFF_GAME],
                       "moved": s.mover == p[UID]})
    deck = s.dice[s.active]
    content = s.game.content
    return {
        "turn": s._turn, "active": s.active, "phase": s.phase, "current_player": s.current_player,
        "hearts": s.hearts[:],
        "pool": [{c: pool[i] for i, c in enumerate(CRESTS)} for pool in s.pool],
        "path": [[names[sq] for sq in bits(s.path[q])] for q in (0, 1)],
        "holes": [names[h] for h in s.holes],
        "pieces": pieces,
        "dice_decks": [list(d) for d in s.dice],
        "drawn": [deck[i] for i in s.drawn],
        "rolls": [[face_text(content.dice[deck[i]], f) for i, f in zip(s.drawn, r)] for r in s.rolls],
        "graveyards": [g[:] for g in s.grave],
        "library_sizes": [len(lib) for lib in s.library],
        "set_zones": [[t for _, t in z] for z in s.setzone],
        "placing": s.placing,
        "window": None if s.window is None else {
            "attacker": names[s.window[0]], "target": names[s.window[1]], "traps": list(s.window[2])},
        "locks": [c for i, c in enumerate(CRESTS) if s.locked() >> i & 1],
        "spent_in_spend1": [c for i, c in enumerate(CRESTS) if s.spent1 >> i & 1],
        "summoned": s.summoned,
        "placed_net": s.placed[:],
        "summons": [c[:] for c in s.counts],
        "result": s._result,
        "options": dict(s.game.options),
    }


def observe(s: DDMState, player: int | None) -> dict:
    obs = _public(s)
    obs["player"] = player
    if player is not None:
        obs["library"] = s.library[player][:]
        obs["set_cards"] = [[c, t] for c, t in s.setzone[player]]
    return obs


def resample_hidden(s: DDMState, player: int, rng: random.Random) -> None:
    """§4: the opponent's library and set cards drawn from the copies not publicly accounted for."""
    o = 1 - player
    public = {}
    for piece in s.pieces.values():
        if piece[CARD] is not None and piece[OWNER] == o:
            public[piece[CARD]] = public.get(piece[CARD], 0) + 1
        for c, owner in piece[EQUIPS]:
            if owner == o:
                public[c] = public.get(c, 0) + 1
    for c in s.grave[o]:
        public[c] = public.get(c, 0) + 1
    declared = s.placing if s.phase == "placing" and s.active == o else None
    if declared:
        public[declared] = public.get(declared, 0) + 1
    avail, traps = _unaccounted(s.game, public)
    avail = list(avail)
    chosen = rng.sample(traps, len(s.setzone[o]))
    s.setzone[o] = [(c, t) for c, (_, t) in zip(chosen, s.setzone[o])]
    for c in chosen:
        avail.remove(c)
    size = len(s.library[o]) - (1 if declared else 0)
    lib = rng.sample(avail, size)
    if declared:
        lib.append(declared)
    s.library[o] = sorted(lib)


def _unaccounted(game, public: dict) -> tuple[tuple, tuple]:
    """The copies of each card (all, and the traps among them) beyond the `public` counts, in the content's
    order; kept with the game per counts, as a search resamples the same position over and over."""
    key = frozenset(public.items())
    found = game.unaccounted.get(key)
    if found is None:
        cards = game.content.cards
        avail = []
        for cid, card in cards.items():
            avail.extend([cid] * max(0, card.limit - public.get(cid, 0)))
        found = keep(game.unaccounted, key, (tuple(avail), tuple(c for c in avail if cards[c].type == "trap")))
    return found


# --- positions ------------------------------------------------------------------------------
def position_doc(s: DDMState) -> dict:
    geo = s.game.geo
    names = geo.names
    doc = s.game.position_header(s)
    doc.update({
        "turn": s._turn, "active": s.active, "phase": s.phase, "ret_phase": s.ret_phase,
        "placing": s.placing,
        "window": None if s.window is None else [names[s.window[0]], names[s.window[1]],
                                                    list(s.window[2])],
        "hearts": s.hearts[:], "pool": [p[:] for p in s.pool],
        "path": [[names[sq] for sq in bits(s.path[q])] for q in (0, 1)],
        "holes": [names[h] for h in s.holes],
        "pieces": [[names[sq], p[UID], p[CARD], p[OWNER], p[CTRL], [list(e) for e in p[EQUIPS]], p[TMP],
                    p[ATTACKED], p[EFF_TURN], p[EFF_GAME]] for sq, p in sorted(s.pieces.items())],
        "dice": [list(d) for d in s.dice], "drawn": list(s.drawn), "rolls": [list(r) for r in s.rolls],
        "library": [lib[:] for lib in s.library],
        "setzone": [[[c, t] for c, t in z] for z in s.setzone],
        "graveyard": [g[:] for g in s.grave], "deck_size": list(s.deck_size),
        "spent1": [c for i, c in enumerate(CRESTS) if s.spent1 >> i & 1], "summoned": s.summoned,
        "mover": s.mover, "placed": s.placed[:], "summons": [c[:] for c in s.counts],
        "next_uid": s.next_uid, "result": s._result,
    })
    return doc


FIELDS = {"format", "game", "options", "rng", "turn", "active", "phase", "ret_phase", "placing", "window", "hearts",
          "pool", "path", "holes", "pieces", "dice", "drawn", "rolls", "library", "setzone", "graveyard",
          "deck_size", "spent1", "summoned", "mover", "placed", "summons", "next_uid", "result"}


_NO = object()


def _int(doc, name, lo=None, hi=None, value=_NO, where=None):
    v = doc[name] if value is _NO else value
    where = where or name
    if not isinstance(v, int) or isinstance(v, bool):
        raise PositionError(f"field {where!r} must be an integer, got {v!r}")
    if lo is not None and v < lo or hi is not None and v > hi:
        raise PositionError(f"field {where!r} must be in {lo}..{hi}, got {v}")
    return v


def _pair(doc, name):
    v = doc[name]
    if not isinstance(v, list) or len(v) != 2:
        raise PositionError(f"field {name!r} must be a list of two entries (one per player)")
    return v


def load_position(game, doc) -> DDMState:
    missing = sorted(FIELDS - set(doc))
    if missing:
        raise PositionError(f"missing field(s) {', '.join(missing)}")
    extra = sorted(set(doc) - FIELDS)
    if extra:
        raise PositionError(f"unknown field(s) {', '.join(extra)}")
    geo, content, opts = game.geo, game.content, game.options
    cards = content.cards

    def square(v, where):
        if not isinstance(v, str) or v not in geo.index:
            raise PositionError(f"field {where!r} must be a square of the board (a1..{geo.names[-1]}), got {v!r}")
        return geo.index[v]

    def card(v, where, typ=None):
        if not isinstance(v, str) or v not in cards or (typ and cards[v].type != typ):
            raise PositionError(f"field {where!r} must be a {typ or 'card'} id of the loaded content, got {v!r}")
        return v

    def flag(v, where):
        if not isinstance(v, bool):
            raise PositionError(f"field {where!r} must be true or false, got {v!r}")
        return v

    s = DDMState.__new__(DDMState)
    s.game, s.rng, s._legal = game, Rng(doc["rng"]), None
    s._turn = _int(doc, "turn", 1, opts["max_turns"])
    s.active = _int(doc, "active", 0, 1)
    if doc["phase"] not in PHASES:
        raise PositionError(f"field 'phase' must be one of {', '.join(PHASES)}, got {doc['phase']!r}")
    s.phase = doc["phase"]
    if doc["ret_phase"] not in (None, "spend1", "spend2"):
        raise PositionError("field 'ret_phase' must be null, 'spend1' or 'spend2'")
    s.ret_phase = doc["ret_phase"]
    s.placing = None if doc["placing"] is None else card(doc["placing"], "placing", "monster")
    if (s.phase == "placing") != (s.placing is not None) or (s.phase == "placing") != (s.ret_phase is not None):
        raise PositionError("fields 'placing'/'ret_phase' must be set exactly when 'phase' is 'placing'")
    hearts = _pair(doc, "hearts")
    s.hearts = [_int(None, None, 0, opts["hearts"], h, f"hearts[{i}]") for i, h in enumerate(hearts)]
    pools = _pair(doc, "pool")
    s.pool = []
    for i, pool in enumerate(pools):
        if not isinstance(pool, list) or len(pool) != 8:
            raise PositionError(f"field 'pool[{i}]' must be 8 counters ({CRESTS})")
        cap = opts["crest_cap"] or None
        s.pool.append([_int(None, None, 0, cap, v, f"pool[{i}][{CRESTS[j]}]") for j, v in enumerate(pool)])
    s.path = [0, 0]
    for i, sqs in enumerate(_pair(doc, "path")):
        if not isinstance(sqs, list):
            raise PositionError(f"field 'path[{i}]' must be a list of squares")
        for v in sqs:
            b = 1 << square(v, f"path[{i}]")
            if (s.path[0] | s.path[1]) & b:
                raise PositionError(f"field 'path[{i}]': square {v} is listed twice")
            s.path[i] |= b
    for p, m in enumerate(geo.masters):
        if not s.path[p] >> m & 1:
            raise PositionError(f"field 'path[{p}]' must hold player {p + 1}'s master square {geo.names[m]}")
    if not isinstance(doc["holes"], list) or len(doc["holes"]) > 2:
        raise PositionError("field 'holes' must be a list of at most 2 squares")
    s.holes = [square(v, "holes") for v in doc["holes"]]
    for h in s.holes:
        if h in geo.masters or not (s.path[0] | s.path[1]) >> h & 1 or s.holes.count(h) > 1:
            raise PositionError(f"field 'holes': {geo.names[h]} must be a distinct non-master path tile")
    if not isinstance(doc["pieces"], list):
        raise PositionError("field 'pieces' must be a list")
    s.pieces, s.ac = {}, [None, None]
    uids = set()
    for i, row in enumerate(doc["pieces"]):
        where = f"pieces[{i}]"
        if not isinstance(row, list) or len(row) != 10:
            raise PositionError(f"field {where!r} must be [square, uid, card, owner, controller, equips, tmp_atk, "
                                "attacked, effect_turn, effect_game]")
        sq = square(row[0], where + ".square")
        if sq in s.pieces:
            raise PositionError(f"field {where!r}: two pieces on {row[0]}")
        if not (s.path[0] | s.path[1]) >> sq & 1:
            raise PositionError(f"field {where!r}: a piece must stand on a path tile, {row[0]} is not one")
        uid = _int(None, None, None, None, row[1], where + ".uid")
        if uid in uids:
            raise PositionError(f"field {where!r}: uid {uid} repeats")
        uids.add(uid)
        owner = _int(None, None, 0, 1, row[3], where + ".owner")
        ctrl = _int(None, None, 0, 1, row[4], where + ".controller")
        if row[2] is None:
            if uid != -1 - owner or owner != ctrl or s.ac[owner] is not None:
                raise PositionError(f"field {where!r}: a Master has uid -1-player and one per player")
            s.ac[owner] = sq
            cid = None
        else:
            cid = card(row[2], where + ".card", "monster")
        if not isinstance(row[5], list):
            raise PositionError(f"field '{where}.equips' must be a list of [card, owner]")
        equips = []
        for e in row[5]:
            if not isinstance(e, list) or len(e) != 2:
                raise PositionError(f"field '{where}.equips' must be a list of [card, owner]")
            if cards.get(e[0]) is None or cards[e[0]].kind != "equip":
                raise PositionError(f"field '{where}.equips': {e[0]!r} is not an equip spell")
            equips.append((e[0], _int(None, None, 0, 1, e[1], where + ".equips.owner")))
        tmp = _int(None, None, None, None, row[6], where + ".tmp_atk")
        s.pieces[sq] = [uid, cid, owner, ctrl, equips, tmp, flag(row[7], where + ".attacked"),
                        flag(row[8], where + ".effect_turn"), flag(row[9], where + ".effect_game")]
    if None in s.ac:
        raise PositionError("field 'pieces' must hold exactly one Master per player")
    dice = _pair(doc, "dice")
    s.dice = []
    for i, d in enumerate(dice):
        if not isinstance(d, list) or len(d) != 15 or not all(x in content.dice for x in d):
            raise PositionError(f"field 'dice[{i}]' must be 15 die ids of the loaded dice set")
        s.dice.append(tuple(d))
    s.dice = tuple(s.dice)
    drawn = doc["drawn"]
    if not isinstance(drawn, list) or len(drawn) not in (0, 3) or len(set(drawn)) != len(drawn):
        raise PositionError("field 'drawn' must be 3 distinct dice-deck indices (or empty)")
    s.drawn = tuple(_int(None, None, 0, 14, v, "drawn") for v in drawn)
    rolls = doc["rolls"]
    if not isinstance(rolls, list) or len(rolls) > 2 or any(not isinstance(r, list) or len(r) != len(drawn)
                                                            for r in rolls):
        raise PositionError("field 'rolls' must be up to 2 lists of one face index per drawn die")
    s.rolls = tuple(tuple(_int(None, None, 0, 5, v, "rolls") for v in r) for r in rolls)
    s.library = []
    for i, lib in enumerate(_pair(doc, "library")):
        if not isinstance(lib, list):
            raise PositionError(f"field 'library[{i}]' must be a list of card ids")
        s.library.append(sorted(card(c, f"library[{i}]") for c in lib))
    s.setzone = []
    for i, zone in enumerate(_pair(doc, "setzone")):
        if not isinstance(zone, list) or not all(isinstance(e, list) and len(e) == 2 for e in zone):
            raise PositionError(f"field 'setzone[{i}]' must be a list of [trap id, turn]")
        s.setzone.append([(card(c, f"setzone[{i}]", "trap"), _int(None, None, 1, s._turn, t, f"setzone[{i}].turn"))
                          for c, t in zone])
    s.grave = []
    for i, gy in enumerate(_pair(doc, "graveyard")):
        if not isinstance(gy, list):
            raise PositionError(f"field 'graveyard[{i}]' must be a list of card ids")
        s.grave.append([card(c, f"graveyard[{i}]") for c in gy])
    s.deck_size = tuple(_int(None, None, 10, 60, v, f"deck_size[{i}]") for i, v in enumerate(_pair(doc, "deck_size")))
    for p in (0, 1):
        held = len(s.library[p]) + len(s.setzone[p]) + len(s.grave[p]) + sum(
            (pc[CARD] is not None and pc[2] == p) + sum(1 for _, o in pc[4] if o == p) for pc in s.pieces.values())
        if held != s.deck_size[p]:
            raise PositionError(f"field 'deck_size[{p}]': player {p + 1}'s cards add up to {held}, "
                                f"not {s.deck_size[p]}")
    if not isinstance(doc["spent1"], list) or not all(c in CRESTS for c in doc["spent1"]):
        raise PositionError(f"field 'spent1' must be a list of crest letters ({CRESTS})")
    s.spent1 = sum(1 << CRESTS.index(c) for c in set(doc["spent1"]))
    s.summoned = flag(doc["summoned"], "summoned")
    s.mover = None if doc["mover"] is None else _int(doc, "mover")
    s.placed = [flag(v, f"placed[{i}]") for i, v in enumerate(_pair(doc, "placed"))]
    s.counts = []
    for i, c in enumerate(_pair(doc, "summons")):
        if not isinstance(c, list) or len(c) != 2:
            raise PositionError(f"field 'summons[{i}]' must be [monsters put on the board, their total level]")
        s.counts.append([_int(None, None, 0, None, v, f"summons[{i}]") for v in c])
    s.next_uid = _int(doc, "next_uid", 0)
    if any(u >= s.next_uid for u in uids):
        raise PositionError("field 'next_uid' must exceed every monster's uid")
    w = doc["window"]
    if w is None:
        s.window = None
    else:
        if not isinstance(w, list) or len(w) != 3 or not isinstance(w[2], list):
            raise PositionError("field 'window' must be null or [attacker square, target square, [traps]]")
        s.window = (square(w[0], "window.attacker"), square(w[1], "window.target"),
                    tuple(card(c, "window.traps", "trap") for c in w[2]))
        if s.window[0] not in s.pieces or s.window[1] not in s.pieces:
            raise PositionError("field 'window': the attacker and the target must be pieces on the board")
    if (s.phase == "window") != (s.window is not None):
        raise PositionError("field 'window' must be set exactly when 'phase' is 'window'")
    r = doc["result"]
    if r is not None and (not isinstance(r, dict) or set(r) != {"winners", "reason", "scores"}):
        raise PositionError("field 'result' must be null or {winners, reason, scores}")
    if (r is not None) != (s.phase == "over"):
        raise PositionError("field 'result' must be set exactly when 'phase' is 'over'")
    s._result = canonical_result(game, r)
    if s.phase in ("spend1", "battle", "spend2", "placing", "window") and len(s.drawn) != 3:
        raise PositionError("field 'drawn' must hold the 3 dice of the running turn")
    return s
