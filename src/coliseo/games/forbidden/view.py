"""What each player may see (docs/rules/forbidden.md §4), determinization, and full positions (documents)."""

from __future__ import annotations

import random
from collections import Counter

from coliseo.core.errors import PositionError
from coliseo.core.reasons import canonical_reason, canonical_result, end_reasons
from coliseo.core.rng import Rng

from .content import MONSTER
from .state import (
    COUNTER_NAMES,
    CURSE,
    DEF,
    ID,
    KNOWN,
    MOD,
    MOVED,
    OVER,
    PHASES,
    PLACE,
    STAR,
    UP,
    USED,
    DuelState,
)


def _monster_view(state: DuelState, rec: list | None, visible: bool) -> dict | None:
    if rec is None:
        return None
    shown = rec[UP] or rec[KNOWN] or visible
    view = {"id": rec[ID] if shown else None, "face_up": rec[UP], "position": "def" if rec[DEF] else "atk",
            "star": (rec[STAR] or None) if shown else None, "mod": rec[MOD], "curse": rec[CURSE],
            "used": rec[USED], "moved": rec[MOVED], "known": rec[KNOWN]}
    if shown:
        view["atk"] = state.stat(rec)
        view["def"] = state.stat(rec, True)
    return view


def _spell_view(rec: list | None, visible: bool) -> dict | None:
    if rec is None:
        return None
    return {"id": rec[ID] if (visible or rec[KNOWN]) else None, "known": rec[KNOWN]}


def sees_face_down(state: DuelState, player: int | None) -> bool:
    """The opt-in `cpu_privileged`: a CPU duelist marked `sees_facedown` reads the face-down cards (§9)."""
    options = state.game.options
    if player != 1 or not options["cpu_privileged"] or options["mode"] not in ("free_duel", "campaign"):
        return False
    duelist = state.pack.duelists.get(state.duelist)
    return bool(duelist and duelist.sees_facedown)


def observe(state: DuelState, player: int | None) -> dict:
    """The JSON-safe view of `player` (None = spectator): public data plus that player's own secrets."""
    open_lists = state.game.options["open_decklists"]
    privileged = sees_face_down(state, player)
    sides = []
    for side in (0, 1):
        own = player == side
        field = own or privileged
        sides.append({
            "lp": state.lp[side], "max_lp": state.max_lp,
            "deck_size": len(state.decks[side]), "hand_size": len(state.hands[side]),
            "hand": list(state.hands[side]) if own else None,
            "deck_cards": sorted(state.decks[side]) if own else None,
            "decklist": sorted(state.lists[side]) if (own or open_lists) else None,
            "monsters": [_monster_view(state, r, field) for r in state.monsters[side]],
            "spells": [_spell_view(r, field) for r in state.spells[side]],
            "removed": list(state.removed[side]),
            "counters": state.counter_values(side),
            "pinned": state.pinned[side],
        })
    return {"game": "forbidden", "viewer": player, "turn": state.turn_no, "player": state.current_player,
            "phase": state.phase, "terrain": state.terrain, "duelist": state.duelist or None,
            "pending": f"m{state.pending + 1}" if state.phase == PLACE else None,
            "sides": sides, "result": state.outcome}


def _public_from_list(state: DuelState, q: int, field_known: bool = False) -> Counter:
    """q's cards whose identity the viewer knows and that came from q's 40-card list (results excluded)."""
    seen = Counter(state.removed[q])
    for rec in state.monsters[q]:
        if rec is not None and (rec[UP] or rec[KNOWN] or field_known):
            seen[rec[ID]] += 1
    for rec in state.spells[q]:
        if rec is not None and (rec[KNOWN] or field_known):
            seen[rec[ID]] += 1
    seen.subtract(Counter(state.created[q]))
    return +seen


def resample_hidden(state: DuelState, player: int, rng: random.Random) -> None:
    """Redraw what `player` cannot know (§4): own deck order; the opponent's hand, deck and hidden cards."""
    rng.shuffle(state.decks[player])
    q = 1 - player
    pack = state.pack
    privileged = sees_face_down(state, player)
    hidden_m = [z for z in range(5) if state.monsters[q][z] is not None and not state.monsters[q][z][UP]
                and not state.monsters[q][z][KNOWN] and not privileged]
    hidden_s = [z for z in range(5) if state.spells[q][z] is not None and not state.spells[q][z][KNOWN]
                and not privileged]
    n_hand, n_deck = len(state.hands[q]), len(state.decks[q])
    if state.game.options["open_decklists"]:
        pool = Counter(state.lists[q])
        pool.subtract(_public_from_list(state, q, privileged))
        unknown = list((+pool).elements())
    else:
        unknown = _closed_list_sample(state, q, len(hidden_m), len(hidden_s), n_hand + n_deck, rng)
        # the real list is hidden too: the world gets one made of the public cards and the drawn ones
        lists = list(state.lists)
        lists[q] = tuple(sorted(list(_public_from_list(state, q, privileged).elements()) + unknown))
        state.lists = tuple(lists)
    unknown.sort()
    rng.shuffle(unknown)
    kind_of = pack.kind_of
    monsters = [c for c in unknown if kind_of[c] == MONSTER]
    others = [c for c in unknown if kind_of[c] != MONSTER]
    if len(monsters) < len(hidden_m) or len(others) < len(hidden_s):
        return  # cannot happen for positions reached by play; keep the real cards rather than invent
    rest = monsters[len(hidden_m):] + others[len(hidden_s):]
    for z, c in zip(hidden_m, monsters):
        state.monsters[q][z][ID] = c
        if state.monsters[q][z][STAR]:
            state.monsters[q][z][STAR] = rng.randint(1, 2)
    for z, c in zip(hidden_s, others):
        state.spells[q][z][ID] = c
    rng.shuffle(rest)
    state.hands[q] = rest[:n_hand]
    state.decks[q] = rest[n_hand:n_hand + n_deck]


def _closed_list_sample(state: DuelState, q: int, n_m: int, n_s: int, n_rest: int, rng: random.Random) -> list:
    """Closed deck lists: draw the hidden cards from the pack, keeping R5's copy limit."""
    pack = state.pack
    copies = _public_from_list(state, q, sees_face_down(state, 1 - q))
    ids = sorted(pack.cards)
    monsters = [c for c in ids if pack.cards[c].kind == MONSTER]
    others = [c for c in ids if pack.cards[c].kind != MONSTER]
    out = []

    def take(candidates, n):
        for _ in range(n):
            room = [c for c in candidates if copies[c] < pack.copy_limit]
            c = rng.choice(room or candidates)
            copies[c] += 1
            out.append(c)

    take(monsters, n_m)
    take(others, n_s)
    take(ids, n_rest)
    return out


# --- positions --------------------------------------------------------------------------------------------

def _rec_doc(rec: list | None) -> dict | None:
    if rec is None:
        return None
    return {"id": rec[ID], "face_up": rec[UP], "defence": rec[DEF], "star": rec[STAR], "mod": rec[MOD],
            "curse": rec[CURSE], "used": rec[USED], "moved": rec[MOVED], "known": rec[KNOWN]}


def position_doc(state: DuelState) -> dict:
    doc = state.game.position_header(state)
    doc.update({
        "turn": state.turn_no, "player": state.player, "phase": state.phase, "terrain": state.terrain,
        "pending": state.pending, "duelist": state.duelist, "max_lp": state.max_lp,
        "winner": state.winner, "reason": state.reason, "result": state.outcome,
        "sides": [{
            "lp": state.lp[s], "deck": list(state.decks[s]), "hand": list(state.hands[s]),
            "monsters": [_rec_doc(r) for r in state.monsters[s]],
            "spells": [_rec_doc(r) for r in state.spells[s]],
            "removed": list(state.removed[s]), "created": list(state.created[s]),
            "counters": dict(zip(COUNTER_NAMES, state.counters[s])), "pinned": state.pinned[s],
            "list": list(state.lists[s]),
        } for s in (0, 1)],
    })
    return doc


def _int(doc: dict, field: str, where: str, lo: int | None = None, hi: int | None = None, none: bool = False):
    value = doc.get(field) if isinstance(doc, dict) else None
    if value is None and none:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"field '{where}{field}' must be a whole number, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise PositionError(f"field '{where}{field}' must be in {lo}..{hi}, got {value}")
    return value


def _bool(doc: dict, field: str, where: str) -> bool:
    value = doc.get(field)
    if not isinstance(value, bool):
        raise PositionError(f"field '{where}{field}' must be true or false, got {value!r}")
    return value


def _ids(state: DuelState, doc: dict, field: str, where: str) -> list[int]:
    value = doc.get(field)
    if not isinstance(value, list):
        raise PositionError(f"field '{where}{field}' must be a list of card ids")
    for c in value:
        if not isinstance(c, int) or isinstance(c, bool) or c not in state.pack.cards:
            raise PositionError(f"field '{where}{field}' holds {c!r}, which is not a card of the pack")
    return list(value)


def _record(state: DuelState, doc, where: str, monster: bool) -> list | None:
    if doc is None:
        return None
    if not isinstance(doc, dict):
        raise PositionError(f"field '{where}' must be an object or null")
    cid = _int(doc, "id", where + ".")
    if cid not in state.pack.cards:
        raise PositionError(f"field '{where}.id': {cid} is not a card of the pack")
    if (state.pack.cards[cid].kind == MONSTER) != monster:
        raise PositionError(f"field '{where}.id': card {cid} cannot stand in a {'monster' if monster else 'spell'}"
                            " zone")
    rec = [cid, _bool(doc, "face_up", where + "."), _bool(doc, "defence", where + "."),
           _int(doc, "star", where + ".", 0, 2), _int(doc, "mod", where + ".", -99999, 99999),
           _int(doc, "curse", where + ".", -99999, 0), _bool(doc, "used", where + "."),
           _bool(doc, "moved", where + "."), _bool(doc, "known", where + ".")]
    if not monster and rec[UP]:
        raise PositionError(f"field '{where}.face_up': spell-row cards are always face-down")
    return rec


def load_position(game, doc: dict) -> DuelState:
    """A position document validated field by field (PositionError names the bad field)."""
    s = DuelState.__new__(DuelState)
    s.game, s.pack, s._legal = game, game.pack, None
    s.rng = Rng(doc["rng"])
    s.turn_no = _int(doc, "turn", "", 0)
    s.player = _int(doc, "player", "", 0, 1)
    s.phase = doc.get("phase")
    if s.phase not in PHASES:
        raise PositionError(f"field 'phase' must be one of {', '.join(PHASES)}, got {s.phase!r}")
    s.terrain = _int(doc, "terrain", "", 0, len(game.pack.terrain_table) - 1)
    s.pending = _int(doc, "pending", "", -1, 4)
    s.duelist = _int(doc, "duelist", "", 0)
    s.max_lp = _int(doc, "max_lp", "", 1, 65535)
    s.winner = _int(doc, "winner", "", 0, 1, none=True)
    s.reason = canonical_reason(game, doc.get("reason"))
    if s.reason is not None and s.reason not in end_reasons(game):
        raise PositionError(f"field 'reason' must be null or one of {', '.join(end_reasons(game))}")
    sides = doc.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(x, dict) for x in sides):
        raise PositionError("field 'sides' must be a list of two objects")
    s.lp, s.decks, s.hands, s.monsters, s.spells, s.removed, s.created = [], [], [], [], [], [], []
    s.counters, s.pinned, s.lists = [], [], []
    for i, side in enumerate(sides):
        w = f"sides[{i}]."
        s.lp.append(_int(side, "lp", w, 0, s.max_lp))
        s.decks.append(_ids(s, side, "deck", w))
        s.hands.append(_ids(s, side, "hand", w))
        if len(s.hands[i]) > 5:
            raise PositionError(f"field '{w}hand' holds {len(s.hands[i])} cards; a hand holds at most 5")
        for row, monster in (("monsters", True), ("spells", False)):
            zones = side.get(row)
            if not isinstance(zones, list) or len(zones) != 5:
                raise PositionError(f"field '{w}{row}' must be a list of 5 zones (null or a record)")
            getattr(s, row).append([_record(s, z, f"{w}{row}[{k}]", monster) for k, z in enumerate(zones)])
        s.removed.append(_ids(s, side, "removed", w))
        s.created.append(_ids(s, side, "created", w))
        counters = side.get("counters")
        if not isinstance(counters, dict):
            raise PositionError(f"field '{w}counters' must be an object")
        s.counters.append([_int(counters, name, w + "counters.", 0) for name in COUNTER_NAMES])
        s.pinned.append(_int(side, "pinned", w, 0, 99))
        s.lists.append(_ids(s, side, "list", w))
        total = len(s.decks[i]) + len(s.hands[i]) + len(s.removed[i]) + sum(
            r is not None for r in s.monsters[i] + s.spells[i])
        if total != len(s.lists[i]) + len(s.created[i]):
            raise PositionError(f"field '{w}': deck + hand + field + removed = {total} cards, but the list has "
                                f"{len(s.lists[i])} and {len(s.created[i])} were created by fusions and rituals")
    s.lists = tuple(tuple(x) for x in s.lists)
    if s.phase != OVER and 0 in s.lp:
        raise PositionError(f"field 'sides[{s.lp.index(0)}].lp' is 0 but the phase is not over")
    if s.phase == "main" and not s.hands[s.player]:
        raise PositionError(f"field 'sides[{s.player}].hand' is empty in the main phase (a play is due)")
    if s.phase == PLACE and (s.pending < 0 or s.monsters[s.player][s.pending] is None):
        raise PositionError("field 'pending' must name the player's monster zone awaiting placement")
    if s.phase == OVER:
        if s.winner is None or s.reason is None:
            raise PositionError("fields 'winner' and 'reason' are needed when the phase is over")
        s.outcome = canonical_result(game, doc.get("result"))
        if not isinstance(s.outcome, dict) or s.outcome.get("winners") != [s.winner]:
            raise PositionError("field 'result' must be the finished duel's result naming the winner")
    else:
        if doc.get("result") is not None or s.winner is not None:
            raise PositionError("fields 'result' and 'winner' must be null while the duel goes on")
        s.outcome = None
    return s
