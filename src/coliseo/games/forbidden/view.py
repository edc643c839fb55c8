"""What each player may see (docs/rules/forbidden.md §4), determinization, and full positions (documents)."""

from __future__ import annotations

import random
from collections import Counter

from coliseo.core.errors import PositionError
from coliseo.core.position import Doc
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


def load_position(game, doc: dict) -> DuelState:
    """The state a position document describes (its header already checked); PositionError names the first field
    that is wrong."""
    fields = Doc(doc)
    s = DuelState.__new__(DuelState)
    s.game, s.pack, s._legal = game, game.pack, None
    s.rng = Rng(doc["rng"])
    _read_duel(game, s, fields)
    sides = fields.list("sides", 2, "side objects")
    s.lp, s.decks, s.hands, s.monsters, s.spells, s.removed, s.created = [], [], [], [], [], [], []
    s.counters, s.pinned, s.lists = [], [], []
    for i in (0, 1):
        _read_side(s, sides.object(i), i)
    s.lists = tuple(tuple(x) for x in s.lists)
    if s.phase != OVER and 0 in s.lp:
        raise PositionError(f"field 'sides[{s.lp.index(0)}].lp' is 0 but the phase is not over")
    if s.phase == "main" and not s.hands[s.player]:
        raise PositionError(f"field 'sides[{s.player}].hand' is empty in the main phase (a play is due)")
    if s.phase == PLACE and (s.pending < 0 or s.monsters[s.player][s.pending] is None):
        raise fields.fail("pending", "must name the player's monster zone awaiting placement")
    s.outcome = _read_outcome(s, fields)
    return s


def _read_duel(game, s: DuelState, fields: Doc) -> None:
    """The turn, the player to move, the phase, the terrain, a monster awaiting placement, the CPU duelist, the
    LP both start with, and the winner and the reason of a finished duel."""
    s.turn_no = fields.int("turn", 0)
    s.player = fields.int("player", 0, 1)
    s.phase = fields.choice("phase", PHASES)
    s.terrain = fields.int("terrain", 0, len(game.pack.terrain_table) - 1)
    s.pending = fields.int("pending", -1, 4)
    s.duelist = fields.int("duelist", 0)
    s.max_lp = fields.int("max_lp", 1, 65535)
    s.winner = fields.int("winner", 0, 1, none=True, default=None)
    s.reason = canonical_reason(game, fields.get("reason", None))
    if s.reason is not None and s.reason not in end_reasons(game):
        raise fields.must("reason", f"one of {', '.join(end_reasons(game))} or null", fields.get("reason"))


def _read_side(s: DuelState, side: Doc, i: int) -> None:
    """One player's LP, deck, hand, field, removed cards, counters and deck list; every card of the list (and
    every one a fusion or ritual made) is in exactly one of those places."""
    cards = s.pack.cards
    s.lp.append(side.int("lp", 0, s.max_lp))
    s.decks.append(side.ids("deck", cards))
    s.hands.append(side.ids("hand", cards))
    if len(s.hands[i]) > 5:
        raise side.fail("hand", f"holds {len(s.hands[i])} cards; a hand holds at most 5")
    for row, monster in (("monsters", True), ("spells", False)):
        zones = side.list(row, 5, "zones (null or a record)")
        getattr(s, row).append([_read_card(s, zones, k, monster) for k in zones.keys()])
    s.removed.append(side.ids("removed", cards))
    s.created.append(side.ids("created", cards))
    counters = side.object("counters")
    s.counters.append([counters.int(name, 0) for name in COUNTER_NAMES])
    s.pinned.append(side.int("pinned", 0, 99))
    s.lists.append(side.ids("list", cards))
    total = len(s.decks[i]) + len(s.hands[i]) + len(s.removed[i]) + sum(
        r is not None for r in s.monsters[i] + s.spells[i])
    if total != len(s.lists[i]) + len(s.created[i]):
        raise side.fail(None, f"deck + hand + field + removed = {total} cards, but the list has "
                              f"{len(s.lists[i])} and {len(s.created[i])} were created by fusions and rituals")


def _read_card(s: DuelState, zones: Doc, k: int, monster: bool) -> list | None:
    """The card in a zone of the field (None for an empty one)."""
    card = zones.object(k, none=True)
    if card is None:
        return None
    cid = card.id("id", s.pack.cards)
    if (s.pack.cards[cid].kind == MONSTER) != monster:
        raise card.fail("id", f"card {cid} cannot stand in a {'monster' if monster else 'spell'} zone")
    rec = [cid, card.bool("face_up"), card.bool("defence"), card.int("star", 0, 2), card.int("mod", -99999, 99999),
           card.int("curse", -99999, 0), card.bool("used"), card.bool("moved"), card.bool("known")]
    if not monster and rec[UP]:
        raise card.fail("face_up", "spell-row cards are always face-down")
    return rec


def _read_outcome(s: DuelState, fields: Doc) -> dict | None:
    """The result of a finished duel, which names its winner; none while the duel goes on."""
    result = fields.get("result", None)
    if s.phase != OVER:
        if result is not None or s.winner is not None:
            raise PositionError("fields 'result' and 'winner' must be null while the duel goes on")
        return None
    if s.winner is None or s.reason is None:
        raise PositionError("fields 'winner' and 'reason' are needed when the phase is over")
    if not isinstance(result, dict) or result.get("winners") != [s.winner]:
        raise fields.must("result", "the finished duel's result naming the winner", result)
    return canonical_result(s.game, result)
