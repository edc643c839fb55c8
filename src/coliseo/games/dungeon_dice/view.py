"""What each player may see of a Dungeon Dice position (§4), its determinization, and position documents (one
clear PositionError per bad field)."""

from __future__ import annotations

import random

from coliseo.core.errors import PositionError
from coliseo.core.memo import keep
from coliseo.core.position import Doc
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


def load_position(game, doc) -> DDMState:
    """The state a position document describes (its header already checked); PositionError names the first field
    that is wrong."""
    fields = Doc(doc)
    fields.fields(FIELDS)
    cards = game.content.cards
    monsters = {c for c, card in cards.items() if card.type == "monster"}
    traps = {c for c, card in cards.items() if card.type == "trap"}
    s = DDMState.__new__(DDMState)
    s.game, s.rng, s._legal = game, Rng(doc["rng"]), None
    _read_turn(game, s, fields, monsters)
    _read_crests(game, s, fields)
    _read_dungeon(game.geo, s, fields)
    uids = _read_pieces(game, s, fields, monsters)
    _read_dice(game, s, fields)
    _read_cards(s, fields, cards, traps)
    _read_turn_so_far(s, fields, uids)
    _read_window(game.geo, s, fields, traps)
    s._result = canonical_result(game, fields.result(2))
    if (s._result is not None) != (s.phase == "over"):
        raise fields.fail("result", "must be set exactly when 'phase' is 'over'")
    if s.phase in ("spend1", "battle", "spend2", "placing", "window") and len(s.drawn) != 3:
        raise fields.fail("drawn", "must hold the 3 dice of the running turn")
    return s


def _read_turn(game, s: DDMState, fields: Doc, monsters: set) -> None:
    """Whose turn, which, and its phase; a monster being placed and the phase to go back to after."""
    s._turn = fields.int("turn", 1, game.options["max_turns"])
    s.active = fields.int("active", 0, 1)
    s.phase = fields.choice("phase", PHASES)
    s.ret_phase = fields.choice("ret_phase", ("spend1", "spend2"), none=True)
    s.placing = fields.id("placing", monsters, "monster", none=True)
    if (s.phase == "placing") != (s.placing is not None) or (s.phase == "placing") != (s.ret_phase is not None):
        raise PositionError("fields 'placing'/'ret_phase' must be set exactly when 'phase' is 'placing'")


def _read_crests(game, s: DDMState, fields: Doc) -> None:
    """Each player's hearts and crest pool."""
    s.hearts = fields.ints("hearts", 0, game.options["hearts"], length=2)
    cap = game.options["crest_cap"] or None
    pools = fields.pair("pool", "crest pools")
    s.pool = []
    for p in (0, 1):
        pool = pools.record(p, CRESTS)
        s.pool.append([pool.int(c, 0, cap) for c in CRESTS])


def _read_dungeon(geo, s: DDMState, fields: Doc) -> None:
    """The path tiles each player has laid (their Master's square among them), and the holes in them."""
    paths = fields.pair("path", "lists of squares")
    s.path = [0, 0]
    for p in (0, 1):
        squares = paths.list(p, what="squares")
        for i in squares.keys():
            b = 1 << _square(geo, squares, i)
            if (s.path[0] | s.path[1]) & b:
                raise squares.fail(i, f"square {squares.get(i)} is listed twice")
            s.path[p] |= b
    for p, m in enumerate(geo.masters):
        if not s.path[p] >> m & 1:
            raise paths.fail(p, f"must hold player {p + 1}'s master square {geo.names[m]}")
    holes = fields.list("holes", what="squares", most=2)
    s.holes = [_square(geo, holes, i) for i in holes.keys()]
    for h in s.holes:
        if h in geo.masters or not (s.path[0] | s.path[1]) >> h & 1 or s.holes.count(h) > 1:
            raise holes.fail(None, f"{geo.names[h]} must be a distinct non-master path tile")


def _square(geo, part: Doc, key: str | int) -> int:
    return geo.index[part.choice(key, geo.index, f"a square of the board (a1..{geo.names[-1]})")]


PIECE = ("square", "uid", "card", "owner", "controller", "equips", "tmp_atk", "attacked", "effect_turn",
         "effect_game")


def _read_pieces(game, s: DDMState, fields: Doc, monsters: set) -> set:
    """The pieces on the path, each Master among them; their uids."""
    pieces = fields.list("pieces", what="pieces")
    equip_spells = {c for c, card in game.content.cards.items() if card.kind == "equip"}
    s.pieces, s.ac = {}, [None, None]
    uids = set()
    for i in pieces.keys():
        row = pieces.record(i, PIECE)
        sq = _square(game.geo, row, "square")
        if sq in s.pieces:
            raise pieces.fail(i, f"two pieces on {row.get('square')}")
        if not (s.path[0] | s.path[1]) >> sq & 1:
            raise pieces.fail(i, f"a piece must stand on a path tile, {row.get('square')} is not one")
        uid = row.int("uid")
        if uid in uids:
            raise pieces.fail(i, f"uid {uid} repeats")
        uids.add(uid)
        owner, ctrl = row.int("owner", 0, 1), row.int("controller", 0, 1)
        cid = row.id("card", monsters, "monster", none=True)
        if cid is None:
            if uid != -1 - owner or owner != ctrl or s.ac[owner] is not None:
                raise pieces.fail(i, "a Master has uid -1-player and one per player")
            s.ac[owner] = sq
        s.pieces[sq] = [uid, cid, owner, ctrl, _read_equips(row, equip_spells), row.int("tmp_atk"),
                        row.bool("attacked"), row.bool("effect_turn"), row.bool("effect_game")]
    if None in s.ac:
        raise pieces.fail(None, "must hold exactly one Master per player")
    return uids


def _read_equips(row: Doc, equip_spells: set) -> list:
    """The equip spells on a monster, each with the player who cast it."""
    equips = row.list("equips", what="[card, owner] pairs")
    entries = (equips.record(k, ("card", "owner")) for k in equips.keys())
    return [(entry.id("card", equip_spells, "equip spell"), entry.int("owner", 0, 1)) for entry in entries]


def _read_dice(game, s: DDMState, fields: Doc) -> None:
    """Each player's 15 dice, the 3 drawn this turn (indices into the active player's) and their rolls."""
    dice = fields.pair("dice", "dice decks")
    s.dice = tuple(tuple(dice.ids(p, game.content.dice, "die", length=15)) for p in (0, 1))
    s.drawn = tuple(fields.ints("drawn", 0, 14))
    if len(s.drawn) not in (0, 3) or len(set(s.drawn)) != len(s.drawn):
        raise fields.must("drawn", "3 distinct dice-deck indices (or empty)", list(s.drawn))
    rolls = fields.list("rolls", what="rolls", most=2)
    s.rolls = tuple(tuple(rolls.ints(r, 0, 5, length=len(s.drawn))) for r in rolls.keys())


def _read_cards(s: DDMState, fields: Doc, cards: dict, traps: set) -> None:
    """Where each player's cards are: library, set traps (with the turn each was set), graveyard; and the deck
    they add up to, with the monsters and equips on the board."""
    libraries = fields.pair("library", "lists of card ids")
    s.library = [sorted(libraries.ids(p, cards)) for p in (0, 1)]
    zones = fields.pair("setzone", "lists of [trap, turn]")
    s.setzone = [_read_set_traps(s, zones.list(p, what="[trap, turn] pairs"), traps) for p in (0, 1)]
    graveyards = fields.pair("graveyard", "lists of card ids")
    s.grave = [graveyards.ids(p, cards) for p in (0, 1)]
    sizes = fields.pair("deck_size", "deck sizes")
    s.deck_size = tuple(sizes.int(p, 10, 60) for p in (0, 1))
    for p in (0, 1):
        held = len(s.library[p]) + len(s.setzone[p]) + len(s.grave[p]) + sum(
            (pc[CARD] is not None and pc[2] == p) + sum(1 for _, o in pc[4] if o == p) for pc in s.pieces.values())
        if held != s.deck_size[p]:
            raise sizes.fail(p, f"player {p + 1}'s cards add up to {held}, not {s.deck_size[p]}")


def _read_set_traps(s: DDMState, zone: Doc, traps: set) -> list:
    entries = (zone.record(k, ("card", "turn")) for k in zone.keys())
    return [(entry.id("card", traps, "trap"), entry.int("turn", 1, s._turn)) for entry in entries]


def _read_turn_so_far(s: DDMState, fields: Doc, uids: set) -> None:
    """What the active player has done this turn (crests spent in Spend 1, a summon, the piece that moved), and
    each player's placements and summons over the game."""
    spent = fields.list("spent1", what=f"crest letters ({CRESTS})")
    s.spent1 = sum(1 << CRESTS.index(c) for c in {spent.choice(k, tuple(CRESTS)) for k in spent.keys()})
    s.summoned = fields.bool("summoned")
    s.mover = fields.int("mover", none=True)
    placed = fields.pair("placed", "true or false")
    s.placed = [placed.bool(p) for p in (0, 1)]
    summons = fields.pair("summons", "[monsters, levels] counts")
    s.counts = []
    for p in (0, 1):
        count = summons.record(p, ("monsters", "levels"))
        s.counts.append([count.int("monsters", 0), count.int("levels", 0)])
    s.next_uid = fields.int("next_uid", 0)
    if any(u >= s.next_uid for u in uids):
        raise fields.fail("next_uid", "must exceed every monster's uid")


def _read_window(geo, s: DDMState, fields: Doc, traps: set) -> None:
    """The trap window of an attack: the attacker, its target and the traps already sprung."""
    window = fields.record("window", ("attacker", "target", "traps"), none=True)
    if window is None:
        s.window = None
    else:
        s.window = (_square(geo, window, "attacker"), _square(geo, window, "target"),
                    tuple(window.ids("traps", traps, "trap")))
        if s.window[0] not in s.pieces or s.window[1] not in s.pieces:
            raise fields.fail("window", "the attacker and the target must be pieces on the board")
    if (s.phase == "window") != (s.window is not None):
        raise fields.fail("window", "must be set exactly when 'phase' is 'window'")
