"""Fantastiqa content: cards and quests read from packs (TOML or JSON) and validated (rules §6.7).

A pack is `{"pack": str, "version": int, "cards": [Card], "quests": [Quest]}`. The bundled pack
is `content/original.toml`; users load their own with the `packs` option.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from coliseo.core.content import Entry, bundled_file, read_toml, unique_ids
from coliseo.core.errors import ContentError

SYMBOLS = ("SW", "FI", "WA", "BR", "FA", "NE", "HE", "CL", "WN")
SYMBOL_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
REGIONS = ("FOR", "FLD", "HGH", "HIL", "WET", "FRZ")
REGION_NAMES = {
    "FOR": {"en": "Forest", "es": "Bosque"}, "FLD": {"en": "Fields", "es": "Campos"},
    "HGH": {"en": "Highlands", "es": "Tierras Altas"}, "HIL": {"en": "Hills", "es": "Colinas"},
    "WET": {"en": "Wetlands", "es": "Humedales"}, "FRZ": {"en": "Frozen Wastes", "es": "Páramo Helado"},
}
STATUES = ("AT", "BB", "QC")
KINDS = ("adventurer", "dog", "dragon", "creature", "event", "beast", "artifact")
ABILITIES = ("GEMS", "DRAW", "FLY", "CARPET", "REARRANGE", "SPY", "KEY", "DRAGON", "GIFT", "RELEASE",
             "TELEPORT", "WILD")
ABILITIES_WITHOUT_N = ("FLY", "KEY", "DRAGON", "GIFT", "TELEPORT")
REWARDS = ("GEMS", "CARPET", "REARRANGE")
CARD_ID = re.compile(r"^[A-Za-z0-9]+$")


class Card:
    """One card. `sym` is its symbol index (-1 if none) and `units` its symbol units (0, 1 or 2)."""

    __slots__ = ("id", "name", "kind", "star", "seat", "symbols", "sym", "units", "ability", "n",
                 "section", "min_players", "vuln", "gems", "event", "cost")

    def __repr__(self) -> str:
        return f"<Card {self.id}>"


class Quest:
    __slots__ = ("id", "name", "region", "req", "points", "reward", "star")

    def __repr__(self) -> str:
        return f"<Quest {self.id}>"


class Content:
    """Every loaded card and quest, by id, in load order."""

    def __init__(self, cards: dict[str, Card], quests: dict[str, Quest], sources: list[Path]):
        self.cards = cards
        self.quests = quests
        self.sources = sources        # the files read, bundled first
        self.names = {**{c.id: c.name for c in cards.values()}, **{q.id: q.name for q in quests.values()}}


def read_pack(path: str | Path) -> dict:
    path = Path(path)
    if path.suffix.lower() == ".json":
        try:
            with path.open(encoding="utf-8") as f:
                doc = json.load(f)
        except FileNotFoundError:
            raise ContentError(f"{path}: no such content file") from None
        except json.JSONDecodeError as e:
            raise ContentError(f"{path}: not valid JSON: {e}") from None
        if not isinstance(doc, dict):
            raise ContentError(f"{path}: a pack must be an object with 'pack', 'version', 'cards', 'quests'")
        return doc
    return read_toml(path)


_PARSED: dict[tuple, tuple[list[Card], list[Quest]]] = {}


def _parsed_pack(path: str | Path) -> tuple[list[Card], list[Quest]]:
    """A pack file read and validated, cached while the file is unchanged (cards are never mutated)."""
    try:
        stat = Path(path).stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _PARSED:
        return _PARSED[key]
    found = parse_pack(str(path), read_pack(path))
    if key is not None:
        _PARSED[key] = found
    return found


def load_content(packs: list[str], bundled: bool = True) -> Content:
    """The bundled pack (unless `bundled` is false) and the user packs, validated; ids unique across all."""
    paths = []
    if bundled:
        paths.append(bundled_file("coliseo.games.fantastiqa", "content/original.toml"))
    paths.extend(packs)
    if not paths:
        raise ContentError("no content: the bundled pack is off and no pack was given")
    cards: dict[str, Card] = {}
    quests: dict[str, Quest] = {}
    seen: set[str] = set()
    for n, path in enumerate(paths):
        where = str(path)
        pack_cards, pack_quests = _parsed_pack(path)
        unique_ids(where, [c.id for c in pack_cards] + [q.id for q in pack_quests], seen)
        if (n > 0 or not bundled) and any(_starting(c) for c in pack_cards):
            # R6: a user pack's starting cards replace the bundled pack's.
            bundled_cards = _parsed_pack(paths[0])[0] if bundled else []
            for c in bundled_cards:
                if _starting(c):
                    cards.pop(c.id, None)
        cards.update((c.id, c) for c in pack_cards)
        quests.update((q.id, q) for q in pack_quests)
    return Content(cards, quests, [Path(p) for p in paths])


def _starting(card: Card) -> bool:
    return card.star and card.kind in ("adventurer", "dog", "dragon")


def parse_pack(where: str, doc: dict) -> tuple[list[Card], list[Quest]]:
    top = Entry(where, doc)
    top.known_fields({"pack", "version", "cards", "quests"})
    top.get("pack", str)
    top.get("version", int, minimum=1)
    raw_cards = top.get("cards", list, [])
    raw_quests = top.get("quests", list, [])
    cards = [_card(Entry(f"{where}: cards[{_label(item, i)}]", item)) for i, item in enumerate(raw_cards)]
    quests = [_quest(Entry(f"{where}: quests[{_label(item, i)}]", item)) for i, item in enumerate(raw_quests)]
    return cards, quests


def _label(item, i):
    return item.get("id", i) if isinstance(item, dict) else i


def _card_id(e: Entry) -> str:
    value = e.get("id", str)
    if not CARD_ID.match(value):
        raise e.fail(f"field 'id' must match [A-Za-z0-9]+, got {value!r}")
    return value


def _symbols(e: Entry, name: str, lo: int, hi: int) -> tuple[str, ...]:
    value = e.get(name, list)
    if not lo <= len(value) <= hi:
        raise e.fail(f"field {name!r} must hold {lo} to {hi} symbols, got {len(value)}")
    for s in value:
        if s not in SYMBOL_INDEX:
            raise e.fail(f"field {name!r}: {s!r} is not a symbol; symbols are {', '.join(SYMBOLS)}")
    return tuple(value)


def _card(e: Entry) -> Card:
    kind = e.get("kind", str, choices=KINDS)
    allowed = {"id", "name", "kind", "star", "seat", "symbols", "ability"}
    if kind in ("creature", "event"):
        allowed |= {"section", "min_players"}
    if kind == "creature":
        allowed |= {"vuln", "gems"}
    if kind == "event":
        allowed |= {"event"}
    if kind in ("beast", "artifact"):
        allowed |= {"cost"}
    e.known_fields(allowed)
    c = Card()
    c.id = _card_id(e)
    c.name = e.get("name", str)
    if not c.name:
        raise e.fail("field 'name' must not be empty")
    c.kind = kind
    c.star = e.get("star", bool, False)
    c.seat = e.get("seat", int, None, minimum=1, maximum=4) if "seat" in e.data else None
    c.symbols = _symbols(e, "symbols", 0, 2)
    if len(c.symbols) == 2 and c.symbols[0] != c.symbols[1]:
        raise e.fail(f"field 'symbols': two symbols on one card must be equal, got {list(c.symbols)}")
    c.sym = SYMBOL_INDEX[c.symbols[0]] if c.symbols else -1
    c.units = len(c.symbols)
    c.ability, c.n = None, 0
    raw = e.data.get("ability")
    if raw is not None:
        a = Entry(f"{e.where}.ability", raw)
        a.known_fields({"type", "n"})
        c.ability = a.get("type", str, choices=ABILITIES)
        if c.ability in ABILITIES_WITHOUT_N:
            if "n" in a.data:
                raise a.fail(f"field 'n' is not used by {c.ability}")
            c.n = 1
        else:
            c.n = a.get("n", int, minimum=1)
        if c.ability == "WILD" and kind != "artifact":
            raise e.fail("WILD appears only on artifacts")
    c.section = c.min_players = 0
    c.vuln = ()
    c.gems = 0
    c.event = None
    c.cost = 0
    if kind in ("creature", "event"):
        c.section = e.get("section", int, minimum=1, maximum=3)
        c.min_players = e.get("min_players", int, minimum=2, maximum=4)
    if kind == "creature":
        c.vuln = tuple(SYMBOL_INDEX[s] for s in _symbols(e, "vuln", 1, 3))
        c.gems = e.get("gems", int, minimum=0, maximum=2)
        if c.gems and c.ability:
            raise e.fail("a creature has gems or an ability, never both")
        if c.sym in c.vuln:
            raise e.fail("a creature's vulnerability never contains its own symbol")
    if kind == "event":
        c.event = e.get("event", str, choices=("CROW",))
    if kind in ("beast", "artifact"):
        c.cost = e.get("cost", int, minimum=0)
    if kind == "beast" and (c.units != 2 or c.ability is None):
        raise e.fail("a beast is a double card with an ability")
    if kind in ("adventurer", "dog") or (kind == "dragon" and c.star):
        if c.star and c.seat is None:
            raise e.fail(f"a starting {kind} card needs field 'seat' (1-4)")
    return c


def _quest(e: Entry) -> Quest:
    e.known_fields({"id", "name", "region", "req", "points", "reward", "star"})
    q = Quest()
    q.id = _card_id(e)
    q.name = e.get("name", str)
    q.region = e.get("region", str, choices=REGIONS)
    req = e.get("req", dict)
    if not 1 <= len(req) <= 3:
        raise e.fail(f"field 'req' must name 1 to 3 symbols, got {len(req)}")
    q.req = {}
    for s, k in req.items():
        if s not in SYMBOL_INDEX:
            raise e.fail(f"field 'req': {s!r} is not a symbol; symbols are {', '.join(SYMBOLS)}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise e.fail(f"field 'req.{s}' must be an integer of at least 1, got {k!r}")
        q.req[SYMBOL_INDEX[s]] = k
    q.points = e.get("points", int, minimum=1)
    q.reward = []
    for i, r in enumerate(e.get("reward", list)):
        r = Entry(f"{e.where}.reward[{i}]", r)
        r.known_fields({"type", "n"})
        q.reward.append((r.get("type", str, choices=REWARDS), r.get("n", int, minimum=1)))
    q.reward = tuple(q.reward)
    q.star = e.get("star", bool, False)
    return q


def check_for_players(content: Content, n: int, simplified: bool = False) -> None:
    """The §6.8 checks that depend on the player count."""
    star_quests = [q for q in content.quests.values() if q.star]
    if len(star_quests) < n + 2:
        raise ContentError(f"content has {len(star_quests)} starting quests; {n} players need at least {n + 2}")
    star_arts = [c for c in content.cards.values() if c.kind == "artifact" and c.star]
    if len(star_arts) < n:
        raise ContentError(f"content has {len(star_arts)} starting artifacts; {n} players need at least {n}")
    creatures = [c for c in content.cards.values() if c.kind == "creature" and c.min_players <= n]
    if len(creatures) < 7:
        raise ContentError(f"content has {len(creatures)} creatures for {n} players; at least 7 are needed")
    adv_syms = {c.sym for c in content.cards.values() if c.kind == "adventurer"}
    missing = [SYMBOLS[i] for i in range(9) if i not in adv_syms]
    if missing:
        raise ContentError(f"every symbol must be on an adventurer card; missing: {', '.join(missing)}")
    for seat in range(1, n + 1):
        if not any(c.star and c.seat == seat for c in content.cards.values()):
            raise ContentError(f"content has no starting cards for seat {seat}")
