"""Capsule Monsters content: Kings, monsters and team presets from TOML packs, validated on load."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from coliseo.core.content import Entry, bundled_file, entries, read_toml, unique_ids
from coliseo.core.errors import ContentError

FACTIONS = ("light", "dark", "electric", "earth")
# Each faction beats the next one in this cycle (R1).
BEATS = {"light": "dark", "dark": "earth", "earth": "electric", "electric": "light"}
MONSTER_PATTERNS = ("+", "X", "O")
PASSIVE = ("fly", "stun", "pierce", "armor", "bane")
ACTIVATED = ("heal", "scout", "rouse")
KING_ABILITIES = ("fly", "armor", "heal", "scout", "rouse")
BUNDLED = ("starter.toml", "set1.toml")


@dataclass(frozen=True, slots=True)
class Line:
    """A move or attack line: AP cost, range, pattern (and damage for attacks)."""

    cost: int
    range: int
    pattern: str
    damage: int = 0


@dataclass(frozen=True, slots=True)
class Ability:
    id: str
    cost: int = 0
    n: int = 0            # armor points, bane bonus
    amount: int = 0       # heal
    range: int = 0        # scout
    faction: str = ""     # bane


@dataclass(frozen=True, slots=True)
class Card:
    """A King or monster card; derived ability flags are precomputed for the rules' hot paths."""

    id: str
    names: dict
    kind: str                      # "king" or "monster"
    faction: str
    move: Line
    abilities: tuple[Ability, ...]
    level: int = 1
    cost: int = 0
    hp: int = 0
    attack: Line | None = None
    monster_points: tuple[int, int] = (0, 0)
    action_points: tuple[int, int] = (0, 0)
    fly: bool = field(init=False)
    stun: bool = field(init=False)
    pierce: bool = field(init=False)
    armor: int = field(init=False)
    bane: dict = field(init=False)
    activated: tuple[Ability, ...] = field(init=False)

    def __post_init__(self):
        ids = {a.id: a for a in self.abilities}
        set_ = object.__setattr__
        set_(self, "fly", "fly" in ids)
        set_(self, "stun", "stun" in ids)
        set_(self, "pierce", "pierce" in ids)
        set_(self, "armor", ids["armor"].n if "armor" in ids else 0)
        set_(self, "bane", {a.faction: a.n for a in self.abilities if a.id == "bane"})
        set_(self, "activated", tuple(a for a in self.abilities if a.id in ACTIVATED))

    def name(self, lang: str = "en") -> str:
        label = self.names.get(lang, self.names["en"])
        return f"{label} ({self.level})" if self.kind == "monster" and self.level >= 2 else label

    def ability(self, ability_id: str) -> Ability | None:
        return next((a for a in self.activated if a.id == ability_id), None)


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    mode: str
    king: str
    monsters: tuple[str, ...]


@dataclass
class Content:
    packs: list[str]
    kings: dict[str, Card]
    monsters: dict[str, Card]
    teams: dict[str, Team]
    sources: list[Path]          # the files read, bundled first

    def card(self, card_id: str) -> Card:
        return self.kings.get(card_id) or self.monsters[card_id]


def _line(entry: Entry, name: str, *, attack: bool, patterns: tuple) -> Line:
    sub = entry.sub(name)
    sub.known_fields({"cost", "range", "pattern", "damage"} if attack else {"cost", "range", "pattern"})
    pattern = sub.get("pattern", str, choices=patterns)
    rng = sub.get("range", int, minimum=1)
    if pattern == "O" and rng != 2:
        raise sub.fail("an O line must have range 2")
    damage = sub.get("damage", int, minimum=0) if attack else 0
    return Line(sub.get("cost", int, minimum=0), rng, pattern, damage)


_ABILITY_FIELDS = {"fly": set(), "stun": set(), "pierce": set(), "armor": {"n"}, "bane": {"faction", "n"},
                   "heal": {"cost", "amount"}, "scout": {"cost", "range"}, "rouse": {"cost"}}


def _abilities(entry: Entry, allowed: tuple) -> tuple[Ability, ...]:
    raw = entry.get("abilities", list, [])
    found = []
    for i, item in enumerate(raw):
        a = Entry(f"{entry.where}.abilities[{i}]", item)
        kind = a.get("id", str, choices=allowed)
        a.known_fields({"id"} | _ABILITY_FIELDS[kind])
        if any(f.id == kind for f in found):
            raise a.fail(f"ability {kind!r} appears twice on one card")
        found.append(Ability(
            id=kind,
            cost=a.get("cost", int, minimum=0) if kind in ACTIVATED else 0,
            n=a.get("n", int, 1, minimum=1) if kind in ("armor", "bane") else 0,
            amount=a.get("amount", int, minimum=1) if kind == "heal" else 0,
            range=a.get("range", int, minimum=1) if kind == "scout" else 0,
            faction=a.get("faction", str, choices=FACTIONS) if kind == "bane" else ""))
    if sum(f.id in ACTIVATED for f in found) > 2:
        raise entry.fail("a card may have at most 2 activated abilities")
    return tuple(found)


def _king(e: Entry) -> Card:
    e.known_fields({"id", "name", "faction", "move", "monster_points", "action_points", "abilities"})
    pairs = {}
    for name in ("monster_points", "action_points"):
        pair = e.get(name, list)
        if len(pair) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in pair):
            raise e.fail(f"field {name!r} must be [basic, advanced], two whole numbers ≥ 1")
        pairs[name] = tuple(pair)
    return Card(id=e.id(), names=e.names(), kind="king", faction=e.get("faction", str, choices=FACTIONS),
                move=_line(e, "move", attack=False, patterns=("*",)), abilities=_abilities(e, KING_ABILITIES),
                monster_points=pairs["monster_points"], action_points=pairs["action_points"])


def _monster(e: Entry) -> Card:
    e.known_fields({"id", "name", "faction", "level", "cost", "hp", "move", "attack", "abilities"})
    return Card(id=e.id(), names=e.names(), kind="monster", faction=e.get("faction", str, choices=FACTIONS),
                level=e.get("level", int, 1, minimum=1, maximum=3), cost=e.get("cost", int, minimum=1),
                hp=e.get("hp", int, minimum=1), move=_line(e, "move", attack=False, patterns=MONSTER_PATTERNS),
                attack=_line(e, "attack", attack=True, patterns=MONSTER_PATTERNS),
                abilities=_abilities(e, PASSIVE + ACTIVATED))


def _team(e: Entry) -> Team:
    e.known_fields({"id", "mode", "king", "monsters"})
    monsters = e.get("monsters", list)
    if not all(isinstance(m, str) for m in monsters):
        raise e.fail("field 'monsters' must be a list of monster ids")
    return Team(e.id(), e.get("mode", str, choices=("basic", "advanced")), e.get("king", str), tuple(monsters))


def load_content(user_packs: tuple[str, ...] = ()) -> Content:
    """The bundled packs plus the user's, validated; ids must be unique across all of them."""
    paths = [bundled_file("coliseo.games.capsule", f"content/{name}") for name in BUNDLED]
    paths += [Path(p) for p in user_packs]
    kings: dict[str, Card] = {}
    monsters: dict[str, Card] = {}
    teams: dict[str, Team] = {}
    pack_ids: list[str] = []
    seen: set[str] = set()
    for path in paths:
        doc = read_toml(path)
        where = str(path)
        known = {"pack", "king", "monster", "team"}
        if set(doc) - known:
            raise ContentError(f"{where}: unknown table(s) {', '.join(sorted(set(doc) - known))}")
        pack = Entry(f"{where}: [pack]", doc.get("pack"))
        pack.known_fields({"id", "name", "version"})
        pack_ids.append(pack.id())
        pack.names()
        pack.get("version", str)
        new_kings = [_king(e) for e in entries(where, doc, "king")]
        new_monsters = [_monster(e) for e in entries(where, doc, "monster")]
        new_teams = [_team(e) for e in entries(where, doc, "team")]
        unique_ids(where, [c.id for c in new_kings + new_monsters] + [t.id for t in new_teams], seen)
        kings.update((c.id, c) for c in new_kings)
        monsters.update((c.id, c) for c in new_monsters)
        teams.update((t.id, t) for t in new_teams)
        for t in new_teams:
            problem = team_problem(t.king, list(t.monsters), kings, monsters, t.mode, zone_size=8, enforce=True)
            if problem:
                raise ContentError(f"{where}: team[{t.id}]: {problem}")
    return Content(pack_ids, kings, monsters, teams, paths)


def team_problem(king_id: str, monster_ids: list[str], kings: dict, monsters: dict, mode: str,
                 zone_size: int, enforce: bool) -> str | None:
    """The first broken team rule (R6–R7) in words, or None."""
    if king_id not in kings:
        return f"unknown King {king_id!r}"
    unknown = [m for m in monster_ids if m not in monsters]
    if unknown:
        return f"unknown monster(s) {', '.join(unknown)}"
    if not 1 <= len(monster_ids) <= zone_size - 1:
        return f"a team has 1 to {zone_size - 1} monsters (R6, R7c); this one has {len(monster_ids)}"
    if not enforce:
        return None
    king = kings[king_id]
    mp = king.monster_points[mode == "advanced"]
    total = sum(monsters[m].cost for m in monster_ids)
    if total > mp:
        return f"the team costs {total}, more than the King's {mp} Monster Points in {mode} mode (R7a)"
    off = [m for m in monster_ids if monsters[m].level >= 2 and monsters[m].faction != king.faction]
    if off:
        return (f"Level-2 monster(s) {', '.join(off)} must share the King's faction {king.faction} (R7b)")
    return None
