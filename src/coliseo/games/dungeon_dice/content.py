"""Dungeon Dice content: dice, monsters, spells and traps read from TOML packs and validated.

A pack is one TOML file with `[[die]]`, `[[monster]]`, `[[spell]]` and `[[trap]]` tables (schema in
docs/rules/dungeon_dice.md). The bundled pack `content/jdmc.toml` is always loaded first; user packs
from the `packs` option add cards, and a pack that defines dice replaces the dice set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from coliseo.core.content import Entry, bundled_file, entries, read_toml, unique_ids
from coliseo.core.errors import ContentError

CRESTS = "SMADGTEZ"                       # Summon Movement Attack Defense Magic Trap Effect Zash
CREST_NAMES = {
    "en": {"S": "Summon", "M": "Movement", "A": "Attack", "D": "Defense", "G": "Magic", "T": "Trap", "E": "Effect",
           "Z": "Zash"},
    "es": {"S": "Convocación", "M": "Movimiento", "A": "Ataque", "D": "Defensa", "G": "Magia", "T": "Trampa",
           "E": "Efecto", "Z": "Zash"},
}


BASIC = CRESTS[:7]
CREST_INDEX = {c: i for i, c in enumerate(CRESTS)}
DICE_SET_SIZE = 25

MONSTER_EFFECTS = ("crests", "boost_self", "destroy_in_range")
SPELL_KINDS = ("destroy", "weaken", "equip", "revive", "crests")
TRAP_KINDS = ("negate_attack", "destroy_attacker", "weaken_attacker")
CONDITIONS = ("opp_more_monsters", "no_own_monsters")
# Which params each kind takes (and which it requires).
KIND_PARAMS = {
    "destroy": ({"max_atk"}, set()),
    "weaken": ({"atk"}, {"atk"}),
    "equip": ({"atk", "def"}, set()),
    "revive": ({"from"}, set()),
    "crests": ({"crest", "amount"}, {"crest", "amount"}),
    "boost_self": ({"atk"}, {"atk"}),
    "destroy_in_range": ({"max_atk"}, set()),
    "negate_attack": ({"end_battle"}, set()),
    "destroy_attacker": (set(), set()),
    "weaken_attacker": ({"atk"}, {"atk"}),
}


@dataclass(frozen=True)
class Die:
    id: str
    names: dict
    cls: str                     # common | particular | special
    faces: tuple                 # 6 (crest index, printed amount) pairs; amount 1 for non-common
    copies: int


@dataclass(frozen=True)
class Card:
    id: str
    names: dict
    type: str                    # monster | spell | trap
    limit: int = 3
    level: int = 0
    atk: int = 0
    defense: int = 0
    kind: str | None = None      # spell/trap kind, or the monster effect kind
    params: dict = field(default_factory=dict)
    once: str = "turn"           # monster effect: once per "turn" or per "game"
    condition: str | None = None  # monster self_summon condition


@dataclass
class Content:
    dice: dict                   # id -> Die, in file order
    cards: dict                  # id -> Card, in file order
    sources: list                # the files read, bundled first

    def die(self, die_id: str) -> Die:
        return self.dice[die_id]


def _params(entry: Entry, kind: str) -> dict:
    allowed, required = KIND_PARAMS[kind]
    raw = entry.get("params", dict, {})
    sub = Entry(f"{entry.where}.params", raw)
    sub.known_fields(allowed)
    out = {}
    for name in sorted(allowed):
        if name not in raw:
            if name in required:
                raise sub.fail(f"missing field {name!r} (kind {kind!r} needs it)")
            continue
        if name in ("max_atk", "atk", "def"):
            out[name] = sub.get(name, int, minimum=0)
        elif name == "amount":
            out[name] = sub.get(name, int, minimum=1, maximum=9)
        elif name == "crest":
            out[name] = sub.get(name, str, choices=tuple(BASIC))
        elif name == "from":
            out[name] = sub.get(name, str, choices=("own", "any"))
        elif name == "end_battle":
            out[name] = sub.get(name, bool)
    return out


def _die(entry: Entry) -> Die:
    entry.known_fields({"id", "name", "class", "faces", "copies"})
    cls = entry.get("class", str, choices=("common", "particular", "special"))
    faces = entry.get("faces", list)
    if len(faces) != 6 or not all(isinstance(f, str) for f in faces):
        raise entry.fail(f"field 'faces' must be 6 strings, got {faces!r}")
    parsed = []
    for f in faces:
        if cls == "common":
            if len(f) != 2 or f[0] not in BASIC or f[1] not in "123456789":
                raise entry.fail(f"common die face {f!r} must be a basic crest letter ({BASIC}) and an amount 1-9")
            parsed.append((CREST_INDEX[f[0]], int(f[1])))
        elif cls == "particular":
            if f not in BASIC or len(f) != 1:
                raise entry.fail(f"particular die face {f!r} must be one basic crest letter ({BASIC})")
            parsed.append((CREST_INDEX[f], 1))
        else:
            if f != "Z":
                raise entry.fail(f"special die face {f!r} must be 'Z'")
            parsed.append((CREST_INDEX["Z"], 1))
    if cls == "particular" and len(set(faces)) != 1:
        raise entry.fail("a particular die shows the same crest on all six faces")
    return Die(entry.id(), entry.names(), cls, tuple(parsed), entry.get("copies", int, minimum=1, maximum=25))


def _monster(entry: Entry) -> Card:
    entry.known_fields({"id", "name", "level", "atk", "def", "limit", "effect", "self_summon"})
    kind, params, once, condition = None, {}, "turn", None
    if "effect" in entry.data:
        eff = entry.sub("effect")
        eff.known_fields({"kind", "once", "params"})
        kind = eff.get("kind", str, choices=MONSTER_EFFECTS)
        once = eff.get("once", str, "turn", choices=("turn", "game"))
        params = _params(eff, kind)
    if "self_summon" in entry.data:
        ss = entry.sub("self_summon")
        ss.known_fields({"condition"})
        condition = ss.get("condition", str, choices=CONDITIONS)
    return Card(entry.id(), entry.names(), "monster", entry.get("limit", int, 3, minimum=1, maximum=3),
                entry.get("level", int, minimum=1, maximum=12), entry.get("atk", int, minimum=0),
                entry.get("def", int, minimum=0), kind, params, once, condition)


def _spell_or_trap(entry: Entry, typ: str) -> Card:
    entry.known_fields({"id", "name", "kind", "params", "limit"})
    kind = entry.get("kind", str, choices=SPELL_KINDS if typ == "spell" else TRAP_KINDS)
    return Card(entry.id(), entry.names(), typ, entry.get("limit", int, 3, minimum=1, maximum=3),
                kind=kind, params=_params(entry, kind))


def read_pack(path, seen: set[str]) -> tuple[list[Die], list[Card]]:
    """One pack's dice and cards, validated; ids must not repeat across `seen`."""
    where = str(path)
    doc = read_toml(path)
    unknown = sorted(set(doc) - {"die", "monster", "spell", "trap"})
    if unknown:
        raise ContentError(f"{where}: unknown table(s) {', '.join(unknown)}; allowed: die, monster, spell, trap")
    dice = [_die(e) for e in entries(where, doc, "die")]
    cards = [_monster(e) for e in entries(where, doc, "monster")]
    cards += [_spell_or_trap(e, "spell") for e in entries(where, doc, "spell")]
    cards += [_spell_or_trap(e, "trap") for e in entries(where, doc, "trap")]
    unique_ids(where, [d.id for d in dice] + [c.id for c in cards], seen)
    if dice:
        total = sum(d.copies for d in dice)
        if total != DICE_SET_SIZE:
            raise ContentError(f"{where}: the dice set's copies must sum to {DICE_SET_SIZE}, got {total}")
    return dice, cards


_BUNDLED: tuple | None = None
BUNDLED_PATH = bundled_file("coliseo.games.dungeon_dice", "content/jdmc.toml")


def load_content(packs: list[str] | tuple = ()) -> Content:
    """The bundled pack plus the user packs, in order."""
    global _BUNDLED
    if _BUNDLED is None:
        _BUNDLED = read_pack(BUNDLED_PATH, set())
    dice, cards = list(_BUNDLED[0]), list(_BUNDLED[1])
    seen = {d.id for d in dice} | {c.id for c in cards}
    for path in packs:
        pack_dice, pack_cards = read_pack(path, seen)
        if pack_dice:
            for d in dice:
                seen.discard(d.id)
            dice = pack_dice
        cards += pack_cards
    return Content({d.id: d for d in dice}, {c.id: c for c in cards}, [BUNDLED_PATH, *map(Path, packs)])
