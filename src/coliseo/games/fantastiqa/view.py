"""What each Fantastiqa player may see, determinization, and positions (the state as JSON, and loading one back)."""

from __future__ import annotations

import random
from collections import Counter

from coliseo.core.errors import PositionError
from coliseo.core.position import Doc
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


def load_position(game, doc: dict) -> FantastiqaState:
    """The state a position document describes (its header already checked); PositionError names the first field
    that is wrong."""
    fields = Doc(doc)
    s = FantastiqaState.__new__(FantastiqaState)
    s.game, s.rng, s._legal, s.n = game, Rng(doc["rng"]), None, game.n
    _read_turn(s, fields)
    _read_map(game, s, fields)
    _read_decks(game, s, fields)
    _read_supply(game, s, fields)
    _read_people(game, s, fields)
    _check_every_card_once(game, s)
    _check_adventure(s, fields)
    _check_commits(game, s, fields)
    if s.bonus_supply + sum(s.bonus) + sum(s.open_bonus) != 12:
        raise fields.fail("bonus_supply", "the +1 tokens in supply, on slots and held must total 12")
    return s


def _of_kind(cards: dict, *kinds: str) -> set:
    return {c for c, card in cards.items() if card.kind in kinds}


def _read_turn(s: FantastiqaState, fields: Doc) -> None:
    """The phase, whose turn, which turn, the result of a finished game and the Quest Goal."""
    s.phase = fields.choice("phase", PHASES)
    s.cur = fields.int("current", 0, s.n - 1)
    s.turn_no = fields.int("turn", 0)
    s.res = canonical_result(s.game, fields.result(s.n))
    if (s.res is None) != (s.phase != OVER):
        raise fields.fail("result", "must be set exactly when phase is 'over'")
    s.goal = fields.int("goal", 1)


def _read_map(game, s: FantastiqaState, fields: Doc) -> None:
    """The Regions and statues laid out, the Adventurers on them, the creatures on the seven spaces (and the cards
    paid towards those being subdued), and the route of an adventure so far."""
    s.regions = _read_layout(fields, "regions", REGIONS, "Regions")
    s.statues = _read_layout(fields, "statues", ("AT", "AT", "BB", "BB", "QC", "QC"), "statues")
    positions = fields.list("positions", s.n, "positions (or null before the draft's start)")
    s.pos = []
    for q in positions.keys():
        where = positions.choice(q, POSITIONS, none=True)
        s.pos.append(-1 if where is None else POSITIONS.index(where))
    cards = game.content.cards
    creatures = _of_kind(cards, "creature")
    spaces = fields.list("spaces", 7, "spaces, each a creature id or null")
    s.spaces = [spaces.id(i, creatures, "creature", none=True) for i in spaces.keys()]
    s.sgems = fields.ints("space_gems", 0, length=7)
    pending = fields.list("pending", what="[space, cards] steps")
    s.pending = []
    for i in pending.keys():
        step = pending.record(i, ("space", "cards"))
        space = step.int("space", 1, 7)
        if s.spaces[space - 1] is None:
            raise step.fail("space", f"space {space} holds no creature")
        s.pending.append((space, tuple(step.ids("cards", cards))))
    if s.pending and s.phase not in (ADVENTURE, RELEASE):
        raise fields.fail("pending", "pending creatures exist only during an adventure")
    route = fields.list("route", what="positions")
    s.route = [POSITIONS.index(route.choice(i, POSITIONS)) for i in route.keys()]
    s.crossed = fields.ints("crossed", 1, 7)


def _read_layout(fields: Doc, key: str, pieces: tuple, what: str) -> list:
    """A list holding each of `pieces` (as often as it is there), in any order."""
    layout = fields.list(key, len(pieces), f"{what} ({' '.join(pieces)} in any order)")
    kinds = tuple(dict.fromkeys(pieces))
    found = [layout.choice(i, kinds) for i in layout.keys()]
    if sorted(found) != sorted(pieces):
        raise fields.must(key, f"each of {' '.join(pieces)} in any order", found)
    return found


def _read_decks(game, s: FantastiqaState, fields: Doc) -> None:
    """The creature deck in its blocks, the three statue decks (and how many of each one's bottom cards are known),
    a statue's row of cards to choose from and the phase it returns to."""
    cards, quests = game.content.cards, game.content.quests
    s.cdeck = fields.ids("creature_deck", _of_kind(cards, "creature", "event"), "creature or event")
    s.cblock = fields.ints("creature_blocks", 0, 3, length=len(s.cdeck))
    decks = fields.object("decks")
    decks.fields(STATUES)
    known = fields.object("known")
    known.fields(STATUES)
    s.decks, s.known = {}, {}
    for k in STATUES:
        if k == "QC":
            s.decks[k] = decks.ids(k, quests, "quest")
        else:
            kind = "artifact" if k == "AT" else "beast"
            s.decks[k] = decks.ids(k, _of_kind(cards, kind), kind)
        s.known[k] = known.int(k, 0, len(s.decks[k]))
    s.row_kind = fields.choice("row_kind", STATUES, none=True)
    s.row = fields.ids("row", quests if s.row_kind == "QC" else cards, "quest" if s.row_kind == "QC" else "card")
    if (s.phase == STATUE) != (s.row_kind is not None) or (s.row and s.phase != STATUE):
        raise fields.fail("row_kind", "a statue row exists exactly in phase 'statue'")
    s.kept = fields.int("kept", 0, 3)
    s.ret = fields.choice("return_phase", (MAIN, ADVENTURE, "after"), none=True)
    if (s.ret is None) == (s.phase in (STATUE, RELEASE)):
        raise fields.fail("return_phase", "must be set exactly in phases 'statue' and 'release'")
    s.rel_left = fields.int("release_left", 0, 99)
    s.rel_paid = fields.bool("release_paid")


def _read_supply(game, s: FantastiqaState, fields: Doc) -> None:
    """The open quests and their +1 tokens, the supply of those, the spy, the box, the Peaceful Dragons, and the
    draft of quests and artifacts at the start."""
    cards, quests = game.content.cards, game.content.quests
    open_quests = fields.list("open_quests", 2, "slots, each a quest id or null")
    s.open_q = [open_quests.id(k, quests, "quest", none=True) for k in (0, 1)]
    open_bonus = fields.list("open_bonus", 2, "true or false")
    s.open_bonus = [open_bonus.bool(k) for k in (0, 1)]
    s.bonus_supply = fields.int("bonus_supply", 0, 12)
    s.spy = fields.int("spy", 0)
    s.box = fields.ids("box", game.content.names)
    s.dragons = fields.ids("dragon_supply", _of_kind(cards, "dragon"), "Peaceful Dragon")
    s.first_fill = fields.bool("first_fill")
    draft = fields.object("draft")
    s.qpool = draft.ids("quests", quests, "quest")
    s.apool = draft.ids("artifacts", cards)
    s.draft_i = draft.int("index", 0, s.n)
    s.draft_step = draft.choice("step", ("quest", "artifact", "start"), none=True)
    if (s.draft_step is None) == (s.phase == DRAFT):
        raise draft.fail("step", "must be set exactly during the draft")


def _read_people(game, s: FantastiqaState, fields: Doc) -> None:
    """Each player's cards (hand, draw pile, play, discards), quests (private, committed to, completed) and tokens."""
    cards, quests = game.content.cards, game.content.quests
    people = fields.list("people", s.n, "player records")
    s.hand, s.draw, s.play, s.discard, s.priv, s.commits, s.completed = [], [], [], [], [], [], []
    s.bonus, s.gems, s.carpets, s.rearr = [], [], [], []
    for p in people.keys():
        person = people.object(p)
        for name, pile in (("hand", s.hand), ("draw", s.draw), ("play", s.play), ("discard", s.discard)):
            pile.append(person.ids(name, cards))
        s.priv.append(person.ids("quests", quests, "quest"))
        if len(s.priv[p]) > 3:
            raise person.fail("quests", "a player holds at most 3 private quests")
        s.completed.append(person.ids("completed", quests, "quest"))
        s.commits.append(_read_commits(s, person, p))
        s.bonus.append(person.int("bonus", 0, 12))
        s.gems.append(person.int("gems", 0))
        s.carpets.append(person.int("carpets", 0))
        s.rearr.append(person.int("rearranges", 0))


def _read_commits(s: FantastiqaState, person: Doc, p: int) -> dict:
    """The cards a player has committed to each quest: their private ones, and one open quest by the Quest token."""
    commits = person.object("commits")
    found = {}
    for q in commits.keys():
        if q not in s.priv[p] and q not in s.open_q:
            raise commits.fail(None, f"{q!r} is neither a private quest of this player nor open")
        found[q] = commits.ids(q, s.game.content.cards)
        if not found[q]:
            raise commits.fail(q, "must not be empty")
    if sum(1 for q in found if q in s.open_q and q not in s.priv[p]) > 1:
        raise commits.fail(None, "one Quest token serves at most one open quest")
    return found


def _check_every_card_once(game, s: FantastiqaState) -> None:
    """Every card and quest is in exactly one zone."""
    zones = (s.spaces + [c for _, cs in s.pending for c in cs] + s.cdeck + [c for d in s.decks.values() for c in d]
             + s.row + s.open_q + s.box + s.dragons + s.qpool + s.apool)
    for p in range(s.n):
        zones += s.hand[p] + s.draw[p] + s.play[p] + s.discard[p] + s.priv[p] + s.completed[p]
        zones += [c for cs in s.commits[p].values() for c in cs]
    counts = Counter(z for z in zones if z is not None)
    dup = sorted(k for k, v in counts.items() if v > 1)
    if dup:
        raise PositionError(f"card(s) {', '.join(dup)} appear in more than one zone")
    missing = sorted(set(game.all_ids) - set(counts))
    if missing:
        raise PositionError(f"card(s) {', '.join(missing[:10])} are in no zone")


def _check_commits(game, s: FantastiqaState, fields: Doc) -> None:
    """Each card committed to a quest has a symbol the quest requires."""
    cards, quests = game.content.cards, game.content.quests
    for p in range(s.n):
        for q, committed in s.commits[p].items():
            for c in committed:
                if not cards[c].units or cards[c].sym not in quests[q].req:
                    raise fields.fail(f"people[{p}].commits.{q}", f"{c} has no symbol the quest requires")


def _check_adventure(s: FantastiqaState, fields: Doc) -> None:
    """Every Adventurer is on the board after the draft; an adventure's route starts where it set off and ends on
    the Adventurer's Region, one crossed space joining each two Regions in it; no route outside an adventure."""
    if s.phase != DRAFT and s.phase != OVER and any(p < 0 for p in s.pos):
        raise fields.fail("positions", "every Adventurer is on the board after the draft")
    in_adventure = s.phase == ADVENTURE or (s.phase == RELEASE and s.ret == ADVENTURE)
    if in_adventure:
        if not s.route or s.route[-1] != s.pos[s.cur] or len(s.crossed) != len(s.route) - 1:
            raise fields.fail("route", "in an adventure the route ends on the Adventurer's Region, one crossed space "
                                       "per move")
        for a, b, space in zip(s.route, s.route[1:], s.crossed):
            if (space, b) not in ADJACENT[a]:
                raise fields.fail("crossed", f"space {space} does not join {POSITIONS[a]} and {POSITIONS[b]}")
    elif s.route or s.crossed:
        raise fields.fail("route", "a route exists only during an adventure")
