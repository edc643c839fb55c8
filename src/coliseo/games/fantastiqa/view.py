"""What each Fantastiqa player may see, determinization, and positions (the state as JSON, and loading one back)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from coliseo.core.errors import PositionError
from coliseo.core.reasons import canonical_result
from coliseo.core.rng import Rng

from .board import ADJACENT, POSITIONS
from .content import REGIONS, STATUES
from .state import ADVENTURE, DRAFT, MAIN, OVER, PHASES, RELEASE, STATUE, FantastiqaState


# --- what each player may see -------------------------------------------------------------
def observe(s: FantastiqaState, player: int | None) -> dict:
    """Only what `player` may know: others' hands and draw piles as one pool; the order of what nobody has seen
    (own draw pile, each creature-deck block, the unknown part of each statue deck) hidden."""
    spaces = []
    pend = dict(s.pending)
    for i in range(7):
        spaces.append({"space": i + 1, "creature": s.spaces[i], "gems": s.sgems[i],
                       "pending": (i + 1) in pend, "paid": list(pend.get(i + 1, ()))})
    blocks = []
    j = len(s.cdeck)
    while j > 0:
        b = s.cblock[j - 1]
        i = j
        while i > 0 and s.cblock[i - 1] == b:
            i -= 1
        blocks.append({"block": b, "cards": sorted(s.cdeck[i:j])})
        j = i
    decks = {}
    for statue, deck in s.decks.items():
        k = s.known[statue]
        decks[statue] = {"size": len(deck), "unknown": sorted(deck[k:]), "bottom": deck[:k][::-1]}
    people = []
    for q in range(s.n):
        token_q = s.token_quest(q)
        info = {
            "player": q, "position": None if s.pos[q] < 0 else POSITIONS[s.pos[q]],
            "hand_size": len(s.hand[q]), "draw_size": len(s.draw[q]),
            "play": list(s.play[q]), "discard": list(s.discard[q]),
            "quests": [{"quest": x, "committed": list(s.commits[q].get(x, ()))} for x in s.priv[q]],
            "token": None if token_q is None else {"quest": token_q, "committed": list(s.commits[q][token_q])},
            "completed": list(s.completed[q]), "bonus": s.bonus[q], "gems": s.gems[q],
            "carpets": s.carpets[q], "rearranges": s.rearr[q], "score": s.score(q),
        }
        if q == player:
            info["hand"] = sorted(s.hand[q])
            info["draw"] = sorted(s.draw[q])
        else:
            info["unseen"] = sorted(s.hand[q] + s.draw[q])
        people.append(info)
    return {
        "game": "fantastiqa", "viewer": player, "players": s.n, "turn": s.turn_no,
        "phase": s.phase, "current": s.current_player, "goal": s.goal,
        "layout": [{"pos": POSITIONS[i], "region": s.regions[i], "statue": s.statues[i]}
                   for i in range(6)],
        "spaces": spaces, "route": [POSITIONS[r] for r in s.route], "crossed": list(s.crossed),
        "spy": s.spy,
        "open_quests": [{"slot": k + 1, "quest": s.open_q[k], "bonus": s.open_bonus[k]} for k in (0, 1)],
        "bonus_supply": s.bonus_supply, "creature_deck": blocks, "decks": decks,
        "row": list(s.row), "row_kind": s.row_kind, "kept": s.kept,
        "release_left": s.rel_left if s.phase == RELEASE else 0,
        "box": sorted(s.box), "dragon_supply": sorted(s.dragons),
        "draft": None if s.phase != DRAFT else {
            "step": s.draft_step, "quests": list(s.qpool), "artifacts": list(s.apool)},
        "people": people, "result": s.res,
    }

def resample_hidden(s: FantastiqaState, player: int, rng: random.Random) -> None:
    for q in range(s.n):
        if q == player:
            rng.shuffle(s.draw[q])
            continue
        pool = s.hand[q] + s.draw[q]
        rng.shuffle(pool)
        h = len(s.hand[q])
        s.hand[q] = pool[:h]
        s.draw[q] = pool[h:]
    deck, block = s.cdeck, s.cblock
    i = 0
    while i < len(deck):
        j = i
        while j < len(deck) and block[j] == block[i]:
            j += 1
        part = deck[i:j]
        rng.shuffle(part)
        deck[i:j] = part
        i = j
    for statue, d in s.decks.items():
        k = s.known[statue]
        part = d[k:]
        rng.shuffle(part)
        d[k:] = part


# --- positions ----------------------------------------------------------------------------
def position_doc(s: FantastiqaState) -> dict:
    doc = s.game.position_header(s)
    doc.update({
        "phase": s.phase, "current": s.cur, "turn": s.turn_no, "result": s.res, "goal": s.goal,
        "regions": list(s.regions), "statues": list(s.statues),
        "positions": [None if p < 0 else POSITIONS[p] for p in s.pos],
        "spaces": list(s.spaces), "space_gems": list(s.sgems),
        "pending": [[sp, list(cs)] for sp, cs in s.pending],
        "route": [POSITIONS[r] for r in s.route], "crossed": list(s.crossed),
        "creature_deck": list(s.cdeck), "creature_blocks": list(s.cblock),
        "decks": {k: list(v) for k, v in s.decks.items()}, "known": dict(s.known),
        "row": list(s.row), "row_kind": s.row_kind, "kept": s.kept, "return_phase": s.ret,
        "release_left": s.rel_left, "release_paid": s.rel_paid,
        "open_quests": list(s.open_q), "open_bonus": list(s.open_bonus), "bonus_supply": s.bonus_supply,
        "spy": s.spy, "box": list(s.box), "dragon_supply": list(s.dragons), "first_fill": s.first_fill,
        "draft": {"quests": list(s.qpool), "artifacts": list(s.apool), "index": s.draft_i, "step": s.draft_step},
        "people": [{
            "hand": list(s.hand[p]), "draw": list(s.draw[p]), "play": list(s.play[p]),
            "discard": list(s.discard[p]), "quests": list(s.priv[p]),
            "commits": {q: list(cs) for q, cs in s.commits[p].items()},
            "completed": list(s.completed[p]), "bonus": s.bonus[p], "gems": s.gems[p],
            "carpets": s.carpets[p], "rearranges": s.rearr[p],
        } for p in range(s.n)],
    })
    return doc


def _fail(field: str, message: str) -> PositionError:
    return PositionError(f"field {field!r}: {message}")


def _get(doc: dict, field: str, where: str = "") -> Any:
    name = f"{where}{field}"
    if not isinstance(doc, dict) or field not in doc:
        raise PositionError(f"missing field {name!r}")
    return doc[field]


def _int(doc, field, where="", lo=0, hi=None, none=False):
    v = _get(doc, field, where)
    if none and v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise _fail(where + field, f"must be an integer {rng}{' or null' if none else ''}, got {v!r}")
    return v


def _bool(doc, field, where=""):
    v = _get(doc, field, where)
    if not isinstance(v, bool):
        raise _fail(where + field, f"must be true or false, got {v!r}")
    return v


def _choice(doc, field, choices, where="", none=False):
    v = _get(doc, field, where)
    if none and v is None:
        return None
    if v not in choices:
        raise _fail(where + field, f"must be one of {', '.join(map(str, choices))}, got {v!r}")
    return v


def _ids(doc, field, known, where="", what="card"):
    v = _get(doc, field, where)
    if not isinstance(v, list):
        raise _fail(where + field, f"must be a list of {what} ids, got {v!r}")
    for x in v:
        if x not in known:
            raise _fail(where + field, f"{x!r} is not a {what} id of this game's content")
    return list(v)


def _position(v, field):
    if v not in POSITIONS:
        raise _fail(field, f"must be a position among {' '.join(POSITIONS)}, got {v!r}")
    return POSITIONS.index(v)


def load_position(game, doc: dict) -> FantastiqaState:
    cards, quests = game.content.cards, game.content.quests
    n = game.n
    s = FantastiqaState.__new__(FantastiqaState)
    s.game = game
    s.rng = Rng(doc["rng"])
    s._legal = None
    s.n = n
    s.phase = _choice(doc, "phase", PHASES)
    s.cur = _int(doc, "current", lo=0, hi=n - 1)
    s.turn_no = _int(doc, "turn")
    res = _get(doc, "result")
    if res is not None:
        if (not isinstance(res, dict) or set(res) != {"winners", "reason", "scores"}
                or not isinstance(res["winners"], list) or not isinstance(res["scores"], list)
                or len(res["scores"]) != n):
            raise _fail("result", "must be null or {winners, reason, scores} with one score per player")
    if (res is None) != (s.phase != OVER):
        raise _fail("result", "must be set exactly when phase is 'over'")
    s.res = canonical_result(game, res)
    s.goal = _int(doc, "goal", lo=1)
    s.regions = _get(doc, "regions")
    if not isinstance(s.regions, list) or sorted(s.regions) != sorted(REGIONS):
        raise _fail("regions", f"must list each of {' '.join(REGIONS)} once, got {s.regions!r}")
    s.statues = _get(doc, "statues")
    if not isinstance(s.statues, list) or sorted(s.statues) != ["AT", "AT", "BB", "BB", "QC", "QC"]:
        raise _fail("statues", f"must hold 2 AT, 2 BB and 2 QC, got {s.statues!r}")
    s.regions, s.statues = list(s.regions), list(s.statues)
    pos = _get(doc, "positions")
    if not isinstance(pos, list) or len(pos) != n:
        raise _fail("positions", f"must list {n} positions (or null before the draft start)")
    s.pos = [-1 if p is None else _position(p, "positions") for p in pos]
    spaces = _get(doc, "spaces")
    if not isinstance(spaces, list) or len(spaces) != 7:
        raise _fail("spaces", "must list 7 spaces, each a creature id or null")
    for c in spaces:
        if c is not None and (c not in cards or cards[c].kind != "creature"):
            raise _fail("spaces", f"{c!r} is not a creature")
    s.spaces = list(spaces)
    sg = _get(doc, "space_gems")
    if not isinstance(sg, list) or len(sg) != 7 or any(isinstance(g, bool) or not isinstance(g, int) or g < 0
                                                       for g in sg):
        raise _fail("space_gems", "must list 7 non-negative integers")
    s.sgems = list(sg)
    pend = _get(doc, "pending")
    if not isinstance(pend, list):
        raise _fail("pending", "must be a list of [space, [cards]]")
    s.pending = []
    for item in pend:
        if (not isinstance(item, list) or len(item) != 2 or item[0] not in range(1, 8)
                or not isinstance(item[1], list) or any(c not in cards for c in item[1])
                or s.spaces[item[0] - 1] is None):
            raise _fail("pending", f"bad step {item!r}: must be [occupied space 1-7, [card ids]]")
        s.pending.append((item[0], tuple(item[1])))
    if s.pending and s.phase not in (ADVENTURE, RELEASE):
        raise _fail("pending", "pending creatures exist only during an adventure")
    route = _get(doc, "route")
    if not isinstance(route, list):
        raise _fail("route", "must be a list of positions")
    s.route = [_position(r, "route") for r in route]
    crossed = _get(doc, "crossed")
    if not isinstance(crossed, list) or any(x not in range(1, 8) for x in crossed):
        raise _fail("crossed", "must be a list of spaces 1-7")
    s.crossed = list(crossed)
    s.cdeck = _ids(doc, "creature_deck", cards)
    for c in s.cdeck:
        if cards[c].kind not in ("creature", "event"):
            raise _fail("creature_deck", f"{c!r} is not a creature or event")
    blocks = _get(doc, "creature_blocks")
    if not isinstance(blocks, list) or len(blocks) != len(s.cdeck) or any(b not in (0, 1, 2, 3) for b in blocks):
        raise _fail("creature_blocks", "must give a block 0-3 for each creature-deck card")
    s.cblock = list(blocks)
    decks = _get(doc, "decks")
    known = _get(doc, "known")
    if not isinstance(decks, dict) or set(decks) != set(STATUES):
        raise _fail("decks", "must hold the decks AT, BB and QC")
    if not isinstance(known, dict) or set(known) != set(STATUES):
        raise _fail("known", "must give AT, BB and QC known-bottom counts")
    s.decks, s.known = {}, {}
    kinds = {"AT": ("artifact",), "BB": ("beast",)}
    for k in STATUES:
        pool = quests if k == "QC" else cards
        s.decks[k] = _ids(decks, k, pool, "decks.", "quest" if k == "QC" else "card")
        if k != "QC" and any(cards[c].kind not in kinds[k] for c in s.decks[k]):
            raise _fail(f"decks.{k}", f"holds a card that is not {'an artifact' if k == 'AT' else 'a beast'}")
        s.known[k] = _int(known, k, "known.", 0, len(s.decks[k]))
    s.row_kind = _choice(doc, "row_kind", STATUES, none=True)
    s.row = _ids(doc, "row", quests if s.row_kind == "QC" else cards)
    if (s.phase == STATUE) != (s.row_kind is not None) or (s.row and s.phase != STATUE):
        raise _fail("row_kind", "a statue row exists exactly in phase 'statue'")
    s.kept = _int(doc, "kept", hi=3)
    s.ret = _choice(doc, "return_phase", (MAIN, ADVENTURE, "after"), none=True)
    if (s.ret is None) == (s.phase in (STATUE, RELEASE)):
        raise _fail("return_phase", "must be set exactly in phases 'statue' and 'release'")
    s.rel_left = _int(doc, "release_left", hi=99)
    s.rel_paid = _bool(doc, "release_paid")
    oq = _get(doc, "open_quests")
    if not isinstance(oq, list) or len(oq) != 2 or any(q is not None and q not in quests for q in oq):
        raise _fail("open_quests", "must list 2 slots, each a quest id or null")
    s.open_q = list(oq)
    ob = _get(doc, "open_bonus")
    if not isinstance(ob, list) or len(ob) != 2 or any(not isinstance(b, bool) for b in ob):
        raise _fail("open_bonus", "must list 2 booleans")
    s.open_bonus = list(ob)
    s.bonus_supply = _int(doc, "bonus_supply", hi=12)
    s.spy = _int(doc, "spy")
    s.box = _ids(doc, "box", game.content.names)
    s.dragons = _ids(doc, "dragon_supply", cards)
    if any(cards[d].kind != "dragon" for d in s.dragons):
        raise _fail("dragon_supply", "holds a card that is not a Peaceful Dragon")
    s.first_fill = _bool(doc, "first_fill")
    draft = _get(doc, "draft")
    if not isinstance(draft, dict):
        raise _fail("draft", "must be an object {quests, artifacts, index, step}")
    s.qpool = _ids(draft, "quests", quests, "draft.", "quest")
    s.apool = _ids(draft, "artifacts", cards, "draft.")
    s.draft_i = _int(draft, "index", "draft.", 0, n)
    s.draft_step = _choice(draft, "step", ("quest", "artifact", "start"), "draft.", none=True)
    if (s.draft_step is None) == (s.phase == DRAFT):
        raise _fail("draft.step", "must be set exactly during the draft")
    people = _get(doc, "people")
    if not isinstance(people, list) or len(people) != n:
        raise _fail("people", f"must hold {n} player records")
    s.hand, s.draw, s.play, s.discard, s.priv, s.commits, s.completed = [], [], [], [], [], [], []
    s.bonus, s.gems, s.carpets, s.rearr = [], [], [], []
    for p, rec in enumerate(people):
        w = f"people[{p}]."
        if not isinstance(rec, dict):
            raise _fail(f"people[{p}]", "must be an object")
        for name, target in (("hand", s.hand), ("draw", s.draw), ("play", s.play), ("discard", s.discard)):
            target.append(_ids(rec, name, cards, w))
        s.priv.append(_ids(rec, "quests", quests, w, "quest"))
        if len(s.priv[p]) > 3:
            raise _fail(w + "quests", "a player holds at most 3 private quests")
        s.completed.append(_ids(rec, "completed", quests, w, "quest"))
        com = _get(rec, "commits", w)
        if not isinstance(com, dict):
            raise _fail(w + "commits", "must map quest ids to committed cards")
        commits = {}
        for q, _cs in com.items():
            if q not in s.priv[p] and q not in s.open_q:
                raise _fail(w + "commits", f"{q!r} is neither a private quest of this player nor open")
            ids = _ids(com, q, cards, w + "commits.")
            if not ids:
                raise _fail(w + "commits." + q, "must not be empty")
            commits[q] = ids
        if sum(1 for q in commits if q in s.open_q and q not in s.priv[p]) > 1:
            raise _fail(w + "commits", "one Quest token serves at most one open quest")
        s.commits.append(commits)
        s.bonus.append(_int(rec, "bonus", w, 0, 12))
        s.gems.append(_int(rec, "gems", w))
        s.carpets.append(_int(rec, "carpets", w))
        s.rearr.append(_int(rec, "rearranges", w))
    # every card and quest in exactly one zone
    zones = (s.spaces + [c for _, cs in s.pending for c in cs] + s.cdeck + [c for d in s.decks.values() for c in d]
             + s.row + s.open_q + s.box + s.dragons + s.qpool + s.apool)
    for p in range(n):
        zones += s.hand[p] + s.draw[p] + s.play[p] + s.discard[p] + s.priv[p] + s.completed[p]
        zones += [c for cs in s.commits[p].values() for c in cs]
    counts = Counter(z for z in zones if z is not None)
    dup = sorted(k for k, v in counts.items() if v > 1)
    if dup:
        raise PositionError(f"card(s) {', '.join(dup)} appear in more than one zone")
    missing = sorted(set(game.all_ids) - set(counts))
    if missing:
        raise PositionError(f"card(s) {', '.join(missing[:10])} are in no zone")
    if s.phase != DRAFT and s.phase != OVER and any(p < 0 for p in s.pos):
        raise _fail("positions", "every Adventurer is on the board after the draft")
    in_adventure = s.phase == ADVENTURE or (s.phase == RELEASE and s.ret == ADVENTURE)
    if in_adventure:
        if not s.route or s.route[-1] != s.pos[s.cur] or len(s.crossed) != len(s.route) - 1:
            raise _fail("route", "in an adventure the route ends on the Adventurer's Region, one crossed space "
                                 "per move")
        for a, b, space in zip(s.route, s.route[1:], s.crossed):
            if (space, b) not in ADJACENT[a]:
                raise _fail("crossed", f"space {space} does not join {POSITIONS[a]} and {POSITIONS[b]}")
    elif s.route or s.crossed:
        raise _fail("route", "a route exists only during an adventure")
    for p in range(n):
        for q, cs in s.commits[p].items():
            req = quests[q].req
            for c in cs:
                if not cards[c].units or cards[c].sym not in req:
                    raise _fail(f"people[{p}].commits.{q}", f"{c} has no symbol the quest requires")
    if s.bonus_supply + sum(s.bonus) + sum(s.open_bonus) != 12:
        raise _fail("bonus_supply", "the +1 tokens in supply, on slots and held must total 12")
    return s
