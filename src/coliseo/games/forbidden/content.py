"""Content packs of the duel: cards, fusion/equip/ritual tables, duelists, pools, rule tables.

A pack is a folder (docs/rules/forbidden.md §6.1): `pack.toml`, `rules.toml`, `cards.csv`, `fusions.csv`,
`fusion_families.csv`, `equips.csv`, `rituals.csv`, `duelists.csv`, `pools.csv`. Every file is
validated on load; a bad field raises ContentError naming the file, the line and the field.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from coliseo.core.content import read_toml
from coliseo.core.errors import ContentError, SetupError
from coliseo.core.reasons import OLD_REASONS as SHARED_OLD_REASONS

MONSTER, MAGIC, RITUAL, EQUIP, TRAP = range(5)
KINDS = ("monster", "magic", "ritual", "equip", "trap")
TYPES = ("DR", "SC", "ZO", "WA", "BW", "BE", "WB", "FI", "FA", "IN",
         "DI", "RE", "FS", "SS", "MA", "TH", "AQ", "PY", "RO", "PL")
TYPE_NAMES = ("Dragon", "Spellcaster", "Zombie", "Warrior", "Beast-Warrior", "Beast", "Winged Beast", "Fiend",
              "Fairy", "Insect", "Dinosaur", "Reptile", "Fish", "Sea Serpent", "Machine", "Thunder", "Aqua",
              "Pyro", "Rock", "Plant")
STARS = ("Su", "Mo", "Ve", "Me", "Ma", "Ju", "Sa", "Ur", "Pl", "Ne")
STAR_NAMES = ("Sun", "Moon", "Venus", "Mercury", "Mars", "Jupiter", "Saturn", "Uranus", "Pluto", "Neptune")
TRIGGERS = ("attack", "reflect_burn", "reverse_heal", "reverse_power", "decoy")
POOLS = ("deck", "sa_pow", "bcd", "sa_tec")
RANK_ROWS = ("turns", "effective_attacks", "defensive_wins", "facedown_plays", "pure_magic", "traps_triggered",
             "cards_used", "lp", "fusions", "equips")
SPLITS = {"a": (70, 15, 15), "b": (30, 60, 10), "c": (15, 15, 70), "d": (40, 30, 30), "e": (30, 40, 30),
          "f": (30, 30, 40), "g": (20, 60, 20), "h": (10, 60, 30), "i": (30, 10, 60), "j": (20, 20, 60)}
BUNDLED = Path(__file__).parent / "content"
# The ends of a duel that a [rank] table's `end_adjustment` scores (R33; a win on Life Points takes the option
# `lp_win_bonus` instead), and the duel's own end codes before the one vocabulary (core/reasons.py), which results
# and an older pack's `end_adjustment` may still use.
ADJUSTED_ENDS = ("deck_out", "exodia_assembled")
OLD_REASONS = {"lp": "life_points_zero", "exodia": "exodia_assembled"}


class Card:
    """One card of a pack; monsters have type/atk/def/stars, the others group/value/trigger."""

    __slots__ = ("id", "name", "kind", "type", "atk", "defense", "star1", "star2", "tags", "families",
                 "group", "value", "trigger", "extra")

    def __init__(self, id, name, kind, type=-1, atk=0, defense=0, star1=0, star2=0, tags=(), group=0, value=0,
                 trigger="", extra=None):
        self.id, self.name, self.kind, self.type = id, name, kind, type
        self.atk, self.defense, self.star1, self.star2 = atk, defense, star1, star2
        self.tags = tuple(tags)
        self.families = frozenset(((TYPES[type],) if type >= 0 else ()) + self.tags)
        self.group, self.value, self.trigger, self.extra = group, value, trigger, extra or {}

    @property
    def is_monster(self) -> bool:
        return self.kind == MONSTER

    @property
    def strength(self) -> int:
        return max(self.atk, self.defense)


class Duelist:
    __slots__ = ("id", "name", "hand_window", "terrain", "deck", "lp_threshold", "low_deck", "combo_depth",
                 "power_depth", "duster_pct", "blind_pct", "split_ahead", "split_weak", "sees_facedown",
                 "home_field")

    def __init__(self, **fields):
        for k, v in fields.items():
            setattr(self, k, v)


class Pack:
    """A loaded, validated content pack with its lookup tables precomputed."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.fusion_cache: dict[int, int] = {}
        _load(self)
        # step_rows[b][a]: the survivor of the fold step A then B, filled on first use (legal plays read a
        # row per hand card for its hundreds of chains)
        self.step_rows = [_StepRow(self, b) for b in range(len(self.kind_of))]

    # --- lookups --------------------------------------------------------------------------------
    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    def fuse(self, a: int, b: int) -> int:
        """The fusion result of cards a and b (R37), or 0 for none."""
        key = a * 100003 + b if a <= b else b * 100003 + a
        found = self.fusion_cache.get(key)
        if found is None:
            found = self._fuse(a, b)
            self.fusion_cache[key] = found
        return found

    def _fuse(self, a: int, b: int) -> int:
        explicit = self.explicit.get((a, b) if a <= b else (b, a))
        if explicit is not None:
            return explicit
        ca, cb = self.cards[a], self.cards[b]
        if ca.kind != MONSTER or cb.kind != MONSTER or not self.families:
            return 0
        floor = max(ca.atk, cb.atk)
        best = None
        for k1 in ca.families:
            for k2 in cb.families:
                for r in self.families.get((k1, k2) if k1 <= k2 else (k2, k1), ()):
                    rc = self.cards[r]
                    if rc.atk > floor:
                        if best is None or (rc.atk, r) < best:
                            best = (rc.atk, r)
                        break  # results are sorted by (ATK, id): the first above the floor is the family's best
        return best[1] if best else 0

    def fits(self, equip: int, monster: int) -> bool:
        allowed = self.equips.get(equip, ())
        return allowed is None or monster in allowed

    def _step_survivor(self, a: int, b: int) -> int:
        r = self.fuse(a, b)
        if r:
            return r
        ka, kb = self.cards[a].kind, self.cards[b].kind
        if ka == MONSTER and kb == EQUIP and self.fits(b, a):
            return a
        if ka == EQUIP and kb == MONSTER and self.fits(a, b):
            return b
        return a if ka == MONSTER and kb != MONSTER else b

    def deck_ids(self, name: str) -> list[int]:
        if name not in self.decks:
            raise SetupError(f"unknown deck {name!r}; the pack {self.id!r} has: {', '.join(sorted(self.decks))}")
        return list(self.decks[name])

    def terrain_bonus(self, terrain: int, type_code: int) -> int:
        return self.terrain_table[terrain][type_code]


class _StepRow(dict):
    """The survivors of fold steps onto card `b`, by the card folded first (Pack.step_rows)."""

    __slots__ = ("pack", "b")

    def __init__(self, pack: Pack, b: int):
        super().__init__()
        self.pack, self.b = pack, b

    def __missing__(self, a: int) -> int:
        found = self[a] = self.pack._step_survivor(a, self.b)
        return found


# --- loading ------------------------------------------------------------------------------------

def user_packs_dir() -> Path:
    """Where imported and user packs live: $COLISEO_HOME or ~/.local/share/coliseo, then packs/forbidden."""
    home = os.environ.get("COLISEO_HOME")
    base = Path(home) if home else Path.home() / ".local" / "share" / "coliseo"
    return base / "packs" / "forbidden"


def find_pack(name: str) -> Path:
    """The folder of a pack: a bundled name, a user pack name, or a folder path."""
    if "/" in name or os.sep in name:
        path = Path(name)
        if not path.is_dir():
            raise SetupError(f"pack folder {name!r} does not exist")
        return path
    for root in (BUNDLED, user_packs_dir()):
        if (root / name / "pack.toml").is_file():
            return root / name
    known = sorted({p.parent.name for root in (BUNDLED, user_packs_dir()) if root.is_dir()
                    for p in root.glob("*/pack.toml")})
    hint = " (import the full one with `coliseo content import forbidden --ygofm DIR`)" if name == "fm" else ""
    raise SetupError(f"unknown pack {name!r}{hint}; available: {', '.join(known)}")


_CACHE: dict[tuple[str, float], Pack] = {}


def load_pack(name: str) -> Pack:
    """The pack `name` (bundled, user, or a folder path), loaded once per process."""
    root = find_pack(name).resolve()
    stamp = (root / "cards.csv").stat().st_mtime if (root / "cards.csv").exists() else 0.0
    key = (str(root), stamp)
    if key not in _CACHE:
        _CACHE[key] = Pack(root)
    return _CACHE[key]


class _Row:
    """One CSV row read field by field with errors that say file, line and field."""

    def __init__(self, where: str, data: dict):
        self.where, self.data = where, data

    def fail(self, msg: str) -> ContentError:
        return ContentError(f"{self.where}: {msg}")

    def text(self, name: str, required: bool = True) -> str:
        value = (self.data.get(name) or "").strip()
        if required and not value:
            raise self.fail(f"field {name!r} is missing or empty")
        return value

    def int(self, name: str, lo: int | None = None, hi: int | None = None, default: int | None = None) -> int:
        raw = self.text(name, default is None)
        if not raw:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise self.fail(f"field {name!r} must be a whole number, got {raw!r}") from None
        if lo is not None and value < lo or hi is not None and value > hi:
            bound = f"in {lo}..{hi}" if lo is not None and hi is not None else (
                f"at least {lo}" if lo is not None else f"at most {hi}")
            raise self.fail(f"field {name!r} must be {bound}, got {value}")
        return value

    def choice(self, name: str, choices: tuple, required: bool = True) -> str:
        value = self.text(name, required)
        if value and value not in choices:
            raise self.fail(f"field {name!r} must be one of {', '.join(choices)}; got {value!r}")
        return value


def _rows(root: Path, name: str, columns: tuple[str, ...], required: bool = True) -> list[_Row]:
    path = root / name
    if not path.is_file():
        if required:
            raise ContentError(f"{path}: no such content file")
        return []
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        missing = [c for c in columns if c not in header]
        if missing:
            raise ContentError(f"{path}: missing column(s) {', '.join(missing)}")
        return [_Row(f"{path}:{i + 2}", row) for i, row in enumerate(reader)]


def _load(pack: Pack) -> None:
    """Every file of the pack, in the order their references need: cards before what names them."""
    root = pack.root
    meta = read_toml(root / "pack.toml")
    where = str(root / "pack.toml")
    for field in ("id", "name"):
        if not isinstance(meta.get(field), str) or not meta[field]:
            raise ContentError(f"{where}: field {field!r} must be a non-empty string")
    pack.id, pack.name = meta["id"], meta["name"]
    pack.version, pack.licence = str(meta.get("version", "")), str(meta.get("licence", ""))
    _load_rules(pack, read_toml(root / "rules.toml"), str(root / "rules.toml"))
    pack.cards = _load_cards(root)
    _load_fusions(pack, root)
    _load_equips_and_rituals(pack, root)
    _load_decks(pack, meta, where)
    _load_duelists(pack, root)
    _load_pools(pack, root)
    pack.by_name = {c.name.lower(): c.id for c in pack.cards.values()}
    pack.kind_of = [-1] * (max(pack.cards) + 1)
    for c in pack.cards.values():
        pack.kind_of[c.id] = c.kind
    pack.kind2_of = [k * 2 for k in pack.kind_of]  # the kind's part of a chain's class in legal plays


def _load_cards(root) -> dict[int, Card]:
    cards: dict[int, Card] = {}
    for row in _rows(root, "cards.csv", ("id", "name", "kind")):
        cid = row.int("id", 1)
        if cid in cards:
            raise row.fail(f"field 'id': card {cid} is defined twice")
        kind = KINDS.index(row.choice("kind", KINDS))
        extra = {k: row.data[k] for k in ("level", "attribute", "password", "cost", "text")
                 if row.data.get(k) not in (None, "")}
        if kind == MONSTER:
            tags = tuple(row.text("tags", False).split())
            cards[cid] = Card(cid, row.text("name"), kind, TYPES.index(row.choice("type", TYPES)),
                              row.int("atk", 0, 9999), row.int("def", 0, 9999),
                              STARS.index(row.choice("star1", STARS)), STARS.index(row.choice("star2", STARS)),
                              tags, extra=extra)
        else:
            group = row.int("group", 0, 13)
            value = row.int("value", default=0)
            trigger = row.choice("trigger", TRIGGERS, required=kind == TRAP)
            if kind != TRAP and trigger:
                raise row.fail("field 'trigger' is only for traps")
            if kind == RITUAL and group != 12:
                raise row.fail("field 'group': a ritual card has group 12")
            if kind == TRAP and trigger == "attack" and value <= 0:
                raise row.fail("field 'value': an attack trap needs a threshold > 0")
            cards[cid] = Card(cid, row.text("name"), kind, group=group, value=value, trigger=trigger, extra=extra)
    if not cards:
        raise ContentError(f"{root / 'cards.csv'}: the pack has no cards")
    return cards


def _ref(cards: dict[int, Card], row: _Row, field: str, kinds: tuple[int, ...] | None = None) -> int:
    """The card id in `field`, which must be a card of the pack (of one of `kinds`, if given)."""
    cid = row.int(field)
    if cid not in cards:
        raise row.fail(f"field {field!r}: no card {cid} in the pack")
    if kinds is not None and cards[cid].kind not in kinds:
        raise row.fail(f"field {field!r}: card {cid} is a {KINDS[cards[cid].kind]}, expected "
                       + " or ".join(KINDS[k] for k in kinds))
    return cid


def _load_fusions(pack: Pack, root) -> None:
    cards = pack.cards
    pack.explicit = {}
    for row in _rows(root, "fusions.csv", ("material1", "material2", "result")):
        a, b, r = _ref(cards, row, "material1"), _ref(cards, row, "material2"), _ref(cards, row, "result")
        key = (a, b) if a <= b else (b, a)
        if pack.explicit.get(key, r) != r:
            raise row.fail(f"fusion {a}+{b} conflicts with an earlier row ({pack.explicit[key]} vs {r})")
        pack.explicit[key] = r

    families: dict[tuple[str, str], list[int]] = {}
    for row in _rows(root, "fusion_families.csv", ("kind1", "kind2", "results"), required=False):
        k1, k2 = row.text("kind1"), row.text("kind2")
        results = []
        for raw in row.text("results").split():
            if not raw.isdigit() or int(raw) not in cards or cards[int(raw)].kind != MONSTER:
                raise row.fail(f"field 'results': {raw!r} is not a monster of the pack")
            results.append(int(raw))
        key = (k1, k2) if k1 <= k2 else (k2, k1)
        families[key] = sorted(set(families.get(key, []) + results), key=lambda r: (cards[r].atk, r))
    pack.families = families


def _load_equips_and_rituals(pack: Pack, root) -> None:
    cards = pack.cards
    equips: dict[int, frozenset | None] = {}
    for row in _rows(root, "equips.csv", ("equip", "monster")):
        e = _ref(cards, row, "equip", (EQUIP,))
        if row.text("monster") == "*":
            equips[e] = None
        elif equips.get(e, ()) is not None:
            equips[e] = frozenset(equips.get(e, frozenset())) | {_ref(cards, row, "monster", (MONSTER,))}
    pack.equips = equips

    pack.rituals = {}
    for row in _rows(root, "rituals.csv", ("ritual", "material1", "material2", "material3", "result")):
        rid = _ref(cards, row, "ritual", (RITUAL,))
        if rid in pack.rituals:
            raise row.fail(f"field 'ritual': ritual {rid} has two recipes")
        pack.rituals[rid] = (_ref(cards, row, "material1", (MONSTER,)), _ref(cards, row, "material2", (MONSTER,)),
                             _ref(cards, row, "material3", (MONSTER,)), _ref(cards, row, "result", (MONSTER,)))


def _load_decks(pack: Pack, meta: dict, where: str) -> None:
    cards = pack.cards
    exodia = meta.get("exodia", [])
    if not isinstance(exodia, list) or any(not isinstance(x, int) or x not in cards for x in exodia):
        raise ContentError(f"{where}: field 'exodia' must be a list of card ids of the pack")
    pack.exodia = tuple(exodia)
    decks_raw = meta.get("decks", {})
    if not isinstance(decks_raw, dict):
        raise ContentError(f"{where}: field 'decks' must be a table of deck name -> card ids")
    pack.decks = {}
    for name, items in decks_raw.items():
        pack.decks[name] = _deck_items(f"{where}: decks.{name}", items, cards)
        problem = deck_problem(pack, pack.decks[name])
        if problem:
            raise ContentError(f"{where}: decks.{name}: {problem}")


def _load_duelists(pack: Pack, root) -> None:
    cards = pack.cards
    pack.duelists = {}
    for row in _rows(root, "duelists.csv", ("id", "name", "hand_window", "terrain", "deck"), required=False):
        did = row.int("id", 1)
        if did in pack.duelists:
            raise row.fail(f"field 'id': duelist {did} is defined twice")
        deck = row.text("deck", False)
        if deck and deck != "copy_player" and deck not in pack.decks:
            raise row.fail(f"field 'deck': no deck {deck!r} in pack.toml (or write copy_player, or leave empty)")
        split_ahead = row.choice("split_ahead", tuple(SPLITS), False) or "a"
        split_weak = row.choice("split_weak", tuple(SPLITS), False) or "e"
        home = row.int("home_field", default=0)
        if home and (home not in cards or cards[home].kind != MAGIC or cards[home].group != 1):
            raise row.fail(f"field 'home_field': {home} is not a field (group 1) magic card of the pack")
        pack.duelists[did] = Duelist(
            id=did, name=row.text("name"), hand_window=row.int("hand_window", 1, 99),
            terrain=row.int("terrain", 0, len(pack.terrain_table) - 1), deck=deck,
            lp_threshold=row.int("lp_threshold", 0, 655, default=20), low_deck=row.int("low_deck", 0, 40, default=10),
            combo_depth=row.int("combo_depth", 1, 4, default=2), power_depth=row.int("power_depth", 1, 4, default=2),
            duster_pct=row.int("duster_pct", 0, 100, default=50), blind_pct=row.int("blind_pct", 0, 100, default=50),
            split_ahead=split_ahead, split_weak=split_weak,
            sees_facedown=bool(row.int("sees_facedown", 0, 1, default=0)), home_field=home)


def _load_pools(pack: Pack, root) -> None:
    pack.pools = {}
    for row in _rows(root, "pools.csv", ("duelist", "pool", "card", "weight"), required=False):
        did = row.int("duelist")
        if did not in pack.duelists:
            raise row.fail(f"field 'duelist': no duelist {did} in duelists.csv")
        pool = row.choice("pool", POOLS)
        cid = _ref(pack.cards, row, "card")
        entries = pack.pools.setdefault((did, pool), {})
        if cid in entries:
            raise row.fail(f"field 'card': card {cid} is listed twice in duelist {did}'s {pool} pool")
        entries[cid] = row.int("weight", 0)
    pack.pools = {k: sorted(v.items()) for k, v in pack.pools.items()}


def _deck_items(where: str, items, cards) -> list[int]:
    if not isinstance(items, list):
        raise ContentError(f"{where}: must be a list of card ids ('id' or 'idxN')")
    ids: list[int] = []
    for item in items:
        text = str(item).replace("×", "x")
        cid, _, count = text.partition("x")
        if not cid.isdigit() or (count and not count.isdigit()):
            raise ContentError(f"{where}: {item!r} is not a card id or 'idxN'")
        if int(cid) not in cards:
            raise ContentError(f"{where}: no card {cid} in the pack")
        ids.extend([int(cid)] * (int(count) if count else 1))
    return ids


def deck_problem(pack: Pack, ids: list[int]) -> str | None:
    """Why `ids` is not a legal deck (R5), or None."""
    if len(ids) != pack.deck_size:
        return f"a deck has exactly {pack.deck_size} cards, this one has {len(ids)}"
    counts: dict[int, int] = {}
    for cid in ids:
        if cid not in pack.cards:
            return f"card {cid} is not in the pack {pack.id!r}"
        counts[cid] = counts.get(cid, 0) + 1
    over = [f"{cid} ({n} copies)" for cid, n in sorted(counts.items()) if n > pack.copy_limit]
    if over:
        return f"at most {pack.copy_limit} copies of a card; too many of " + ", ".join(over)
    return None


def _end_adjustment(adj, where: str) -> dict[str, int]:
    """[rank] end_adjustment: the points each end of ADJUSTED_ENDS adds, keyed by its code (or its older one)."""
    if not isinstance(adj, dict) or any(not isinstance(v, int) for v in adj.values()):
        raise ContentError(f"{where}: rank.end_adjustment must map reasons to whole numbers")
    table: dict[str, int] = {}
    for key, points in adj.items():
        end = SHARED_OLD_REASONS.get(key) or OLD_REASONS.get(key, key)
        if end not in ADJUSTED_ENDS:
            raise ContentError(f"{where}: rank.end_adjustment.{key} is not an end a rank adjusts: name "
                               f"{' or '.join(ADJUSTED_ENDS)} (a win on Life Points takes the option lp_win_bonus)")
        if end in table:
            raise ContentError(f"{where}: rank.end_adjustment names {end} twice ({key} is its older code)")
        table[end] = points
    return table


def _load_rules(pack: Pack, doc: dict, where: str) -> None:
    def num(name, lo, hi):
        v = doc.get(name)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ContentError(f"{where}: field {name!r} must be a whole number in {lo}..{hi}, got {v!r}")
        return v

    pack.start_lp = num("start_lp", 1, 65535)
    pack.hand_size = num("hand_size", 5, 5)
    pack.deck_size = num("deck_size", 5, 99)
    pack.copy_limit = num("copy_limit", 1, 99)
    pack.max_stat = num("max_stat", 1, 99999)
    pack.star_bonus = num("star_bonus", 0, 9999)
    cycles = doc.get("star_cycles")
    beats = [-1] * len(STARS)
    if not isinstance(cycles, list):
        raise ContentError(f"{where}: field 'star_cycles' must be a list of lists of star codes")
    for cycle in cycles:
        if not isinstance(cycle, list) or any(s not in STARS for s in cycle):
            raise ContentError(f"{where}: field 'star_cycles': {cycle!r} is not a list of star codes "
                               f"({' '.join(STARS)})")
        for i, s in enumerate(cycle):
            beats[STARS.index(s)] = STARS.index(cycle[(i + 1) % len(cycle)])
    pack.beats = tuple(beats)
    terrains = doc.get("terrain")
    if not isinstance(terrains, list) or not terrains:
        raise ContentError(f"{where}: [[terrain]] must list the terrains 0..n")
    table, names = [], []
    for i, t in enumerate(terrains):
        if not isinstance(t, dict) or t.get("code") != i or not isinstance(t.get("bonus"), dict):
            raise ContentError(f"{where}: terrain[{i}] needs code = {i}, a name and a bonus table")
        row = [0] * len(TYPES)
        for code, bonus in t["bonus"].items():
            if code not in TYPES or not isinstance(bonus, int):
                raise ContentError(f"{where}: terrain[{i}].bonus.{code}: type code and whole number needed")
            row[TYPES.index(code)] = bonus
        table.append(tuple(row))
        names.append(str(t.get("name", i)))
    pack.terrain_table, pack.terrain_names = tuple(table), tuple(names)
    rank = doc.get("rank")
    if not isinstance(rank, dict):
        raise ContentError(f"{where}: missing table [rank]")
    pack.rank_base = rank.get("base", 50)
    pack.end_adjustment = _end_adjustment(rank.get("end_adjustment", {}), where)
    pack.rank_rows = {}
    for name in RANK_ROWS:
        row = rank.get(name)
        if (not isinstance(row, list) or not row or
                any(not isinstance(p, list) or len(p) != 2 or not all(isinstance(x, int) for x in p) for p in row)
                or row[-1][0] != -1):
            raise ContentError(f"{where}: rank.{name} must be [[threshold, value], ...] ending with [-1, value]")
        pack.rank_rows[name] = tuple((float("inf") if t == -1 else t, v) for t, v in row)
    letters = doc.get("letters", {}).get("tiers")
    if not isinstance(letters, list) or len(letters) != 5:
        raise ContentError(f"{where}: letters.tiers must list the 5 tier letters")
    pack.letters = tuple(letters)
