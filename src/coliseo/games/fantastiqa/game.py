"""The Fantastiqa game: options, setup, notation and text (docs/rules/fantastiqa.md); its view is view.py."""

from __future__ import annotations

from math import comb
from typing import Any

from coliseo.core.errors import SetupError
from coliseo.core.game import Game
from coliseo.core.i18n import player_name
from coliseo.core.memo import keep
from coliseo.core.options import Option
from coliseo.core.rng import Rng

from . import text as _text
from . import view
from .board import POSITION_INDEX, POSITIONS, SPACE_ENDS
from .content import REGIONS, STATUES, SYMBOLS, check_for_players, load_content
from .state import DRAFT, PHASES, RELEASE, FantastiqaState

GOALS = {2: (9, 11, 13), 3: (7, 9, 11), 4: (7, 7, 9)}
GOAL_LENGTHS = ("short", "standard", "long")
MAX_SUB_CARDS = 6        # a minimal payment of at most 3 slots uses at most 6 cards
MAX_QUEST_CARDS = 9      # a quest needs at most 9 units in the bundled set
SUB_SLOTS = 16           # hand candidates a `sub` index can tell apart
QUEST_SLOTS = 12         # hand candidates a `complete` index can tell apart
SUB_SETS = sum(comb(SUB_SLOTS, k) for k in range(1, MAX_SUB_CARDS + 1))
QUEST_SETS = sum(comb(QUEST_SLOTS, k) for k in range(0, MAX_QUEST_CARDS + 1))
POWER_ARGS = ([()] + [("fly", s) for s in range(1, 8)] + [("gift", p) for p in range(4)]
              + [("key", "draw"), ("key", "release")] + [("key", "teleport", r) for r in range(6)]
              + [("teleport", r) for r in range(6)])
POWER_ARG_INDEX = {a: i for i, a in enumerate(POWER_ARGS)}


def _rank(positions: tuple, slots: int, smallest: int) -> int:
    """The rank of a set of positions among all sets of size >= smallest (combinatorial number system)."""
    k = len(positions)
    rank = sum(comb(slots, j) for j in range(smallest, k))
    for i, c in enumerate(sorted(positions)):
        rank += comb(c, i + 1)
    return rank


def _payments(vuln: tuple, sig: tuple) -> list[tuple]:
    """Every minimal subset (as index tuples, lexicographic) of the cards `sig` that pays `vuln` (R14).

    `sig` lists (symbol index, units, wild units) per candidate card.
    """
    need = [0] * 9
    for x in vuln:
        need[x] += 1
    k = len(sig)
    suffix = [[0] * 10 for _ in range(k + 1)]
    for j in range(k - 1, -1, -1):
        row = suffix[j + 1][:]
        sym, units, wild = sig[j]
        if units:
            row[sym] += units
        row[9] += wild
        suffix[j] = row

    def pays(counts) -> bool:
        unmatched = pairs = 0
        for x in range(9):
            c, v = counts[x], need[x]
            if c >= v:
                pairs += (c - v) >> 1
            else:
                unmatched += v - c
        return counts[9] + pairs >= unmatched

    found: list[tuple] = []
    if not pays(suffix[0]):
        return found
    counts = [0] * 10
    chosen: list[int] = []

    def add(j, sign):
        sym, units, wild = sig[j]
        if units:
            counts[sym] += sign * units
        counts[9] += sign * wild

    def minimal() -> bool:
        for j in chosen:
            add(j, -1)
            ok = pays(counts)
            add(j, 1)
            if ok:
                return False
        return True

    def search(start: int) -> None:
        for j in range(start, k):
            add(j, 1)
            chosen.append(j)
            if pays(counts):
                if minimal():
                    found.append(tuple(chosen))
            elif len(chosen) < MAX_SUB_CARDS:
                best = [counts[x] + suffix[j + 1][x] for x in range(10)]
                if pays(best):
                    search(j + 1)
            chosen.pop()
            add(j, -1)

    search(0)
    return found


class Fantastiqa(Game):
    id = "fantastiqa"
    view = view
    names = {"en": "Fantastiqa", "es": "Fantastiqa"}
    score_names = {"en": "Quest points", "es": "Puntos de misión"}
    min_players = 2
    max_players = 4
    options_schema = [
        Option("players", 2, "number of players (2-4)", minimum=2, maximum=4),
        Option("goal_length", "standard", "Quest Goal by player count", choices=GOAL_LENGTHS),
        Option("goal", 0, "an explicit Quest Goal (0 = from goal_length)", minimum=0),
        Option("layout", "random", "random Regions and statues, or fixed from the setup",
               choices=("random", "fixed")),
        Option("starting_gems", 3, "gems each player starts with", minimum=0),
        Option("start_player_hand", 5, "cards P1 draws for the first hand (a variant offsetting the first move; "
               "every later hand is 5)", minimum=1, maximum=5),
        Option("route_rule", "no_revisit", "what 'no going back' forbids in an adventure",
               choices=("no_revisit", "no_repeat_path")),
        Option("quest_penalty", True, "held private quests subtract their points"),
        Option("goal_check", "net", "the Quest Goal is checked on the net or gross score",
               choices=("net", "gross")),
        Option("rearrange_effect", "reshuffle", "what a Rearrange token does",
               choices=("reshuffle", "new_hand")),
        Option("simplified", False, "no event cards, no quest penalty, goal 7"),
        Option("max_turns", 400, "the game ends after this many turns", minimum=1),
        Option("packs", [], "extra content packs (TOML or JSON files)", kind=list),
        Option("bundled", True, "load the bundled original card set"),
    ]
    event_text = _text.EVENT_TEXT
    refusals = _text.REFUSALS
    action_words = _text.ACTION_WORDS
    shared_reasons = ("deck_out", "turn_limit")
    own_reasons = _text.OWN_REASONS
    old_reasons = _text.OLD_REASONS
    revealing_events = frozenset({"cards_drawn", "creature_revealed", "quest_revealed", "statue_draw",
                                  "reshuffle", "rearrange", "crow", "crow_set_aside", "crow_shuffled"})

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        self.n = o["players"]
        self.content = load_content(o["packs"], o["bundled"])
        check_for_players(self.content, self.n, o["simplified"])
        self.route_rule = o["route_rule"]
        self.quest_penalty = o["quest_penalty"] and not o["simplified"]
        self.goal_check = o["goal_check"]
        self.rearrange_effect = o["rearrange_effect"]
        self.max_turns = o["max_turns"]
        if o["goal"]:
            self.goal = o["goal"]
        elif o["simplified"]:
            self.goal = 7
        else:
            self.goal = GOALS[self.n][GOAL_LENGTHS.index(o["goal_length"])]
        cards = self.content.cards
        self.signature = {c.id: (max(c.sym, 0), c.units, c.n if c.ability == "WILD" else 0)
                          for c in cards.values()}
        self._pay_cache: dict = {}
        self._names: dict[str, dict[str, str]] = {}
        self.card_ids = sorted(cards)
        self.quest_ids = sorted(self.content.quests)
        self.card_index = {c: i for i, c in enumerate(self.card_ids)}
        self.quest_index = {q: i for i, q in enumerate(self.quest_ids)}
        self.all_ids = sorted(self.card_ids + self.quest_ids)
        self._offsets = None
        self._total = 0

    def payments(self, vuln: tuple, sig: tuple) -> list[tuple]:
        """`_payments`, cached by the multiset of card signatures (index tuples mapped back to `sig`)."""
        order = sorted(range(len(sig)), key=sig.__getitem__)
        canon = tuple(sig[i] for i in order)
        key = (tuple(sorted(vuln)), canon)
        found = self._pay_cache.get(key)
        if found is None:
            found = keep(self._pay_cache, key, _payments(key[0], canon), 200_000)
        if not found:
            return found
        return sorted(tuple(sorted(order[i] for i in combo)) for combo in found)

    # --- setup --------------------------------------------------------------------------------
    def setup_for(self, **choices: Any) -> Any:
        if not choices:
            return None
        if set(choices) != {"layout"}:
            raise SetupError(f"fantastiqa takes only the setup choice 'layout', not {', '.join(choices)}")
        return {"layout": choices["layout"]}

    def _layout(self, setup: Any) -> tuple[list[str], list[str]]:
        if self.options["layout"] != "fixed":
            if setup not in (None, {}):
                raise SetupError("a setup is only used with layout=fixed")
            return [], []
        if not isinstance(setup, dict) or not isinstance(setup.get("layout"), dict):
            raise SetupError("layout=fixed needs a setup {'layout': {position: [region, statue]}} "
                             "for TL TR ML MR BL BR")
        lay = setup["layout"]
        if set(lay) != set(POSITIONS):
            raise SetupError(f"setup layout must name exactly the positions {' '.join(POSITIONS)}")
        regions, statues = [], []
        for pos in POSITIONS:
            v = lay[pos]
            if not isinstance(v, (list, tuple)) or len(v) != 2 or v[0] not in REGIONS or v[1] not in STATUES:
                raise SetupError(f"setup layout {pos}: must be [region, statue] with a region among "
                                 f"{' '.join(REGIONS)} and a statue among {' '.join(STATUES)}, got {v!r}")
            regions.append(v[0])
            statues.append(v[1])
        if sorted(regions) != sorted(REGIONS):
            raise SetupError("setup layout: each of the six Regions must be placed exactly once")
        if sorted(statues) != ["AT", "AT", "BB", "BB", "QC", "QC"]:
            raise SetupError("setup layout: the statues must be 2 AT, 2 BB and 2 QC")
        return regions, statues

    def new_state(self, seed: int, setup: Any = None) -> FantastiqaState:
        fixed_regions, fixed_statues = self._layout(setup)
        n = self.n
        cards = self.content.cards
        s = FantastiqaState.__new__(FantastiqaState)
        s.game = self
        s.rng = rng = Rng(seed)
        s._legal = None
        s.n = n
        s.goal = self.goal                                   # R5.1
        if fixed_regions:
            s.regions, s.statues = fixed_regions, fixed_statues
        else:                                                # R5.2
            s.regions = list(REGIONS)
            rng.shuffle(s.regions)
            s.statues = ["AT", "AT", "BB", "BB", "QC", "QC"]
            rng.shuffle(s.statues)
        box: list[str] = []
        beasts = [c.id for c in cards.values() if c.kind == "beast"]
        arts = [c.id for c in cards.values() if c.kind == "artifact" and not c.star]
        quests = [q.id for q in self.content.quests.values() if not q.star]
        for deck in (beasts, arts, quests):                  # R5.3
            rng.shuffle(deck)
        s.decks = {"AT": arts, "BB": beasts, "QC": quests}
        s.known = {"AT": 0, "BB": 0, "QC": 0}
        sections = {1: [], 2: [], 3: []}                     # R5.4
        for c in cards.values():
            if c.kind not in ("creature", "event"):
                continue
            if c.min_players > n or (c.kind == "event" and self.options["simplified"]):
                box.append(c.id)
            else:
                sections[c.section].append(c.id)
        for sec in (1, 2, 3):
            rng.shuffle(sections[sec])
        s.cdeck = sections[3] + sections[2] + sections[1]
        s.cblock = [3] * len(sections[3]) + [2] * len(sections[2]) + [1] * len(sections[1])
        s.hand = [[] for _ in range(n)]                       # R6
        s.draw = [[] for _ in range(n)]
        s.play = [[] for _ in range(n)]
        s.discard = [[] for _ in range(n)]
        s.dragons = []
        for c in cards.values():
            if c.kind in ("adventurer", "dog", "dragon") and c.star:
                if c.seat is not None and c.seat <= n:
                    s.draw[c.seat - 1].append(c.id)
                else:
                    box.append(c.id)
            elif c.kind == "dragon":
                s.dragons.append(c.id)
            elif c.kind in ("adventurer", "dog"):
                box.append(c.id)
        s.box = box
        s.priv = [[] for _ in range(n)]
        s.commits = [{} for _ in range(n)]
        s.completed = [[] for _ in range(n)]
        s.bonus = [0] * n
        s.gems = [self.options["starting_gems"]] * n
        s.carpets = [3] * n
        s.rearr = [3] * n
        s.spy = 0
        s.pos = [-1] * n
        s.spaces = [None] * 7
        s.sgems = [0] * 7
        s.pending = []
        s.route = []
        s.crossed = []
        s.row = []
        s.row_kind = None
        s.kept = 0
        s.ret = None
        s.rel_left = 0
        s.rel_paid = False
        s.open_q = [None, None]
        s.open_bonus = [False, False]
        s.bonus_supply = 12
        s.first_fill = False
        s.qpool = [q.id for q in self.content.quests.values() if q.star]      # R7
        s.apool = [c.id for c in cards.values() if c.kind == "artifact" and c.star]
        s.draft_i = 0
        s.draft_step = "quest"
        s.phase = DRAFT
        s.cur = n - 1
        s.turn_no = 0
        s.res = None
        return s

    # --- notation -----------------------------------------------------------------------------
    def format_action(self, a) -> str:
        kind = a[0]
        if kind == "start":
            return f"start {POSITIONS[a[1]]}"
        if kind == "teleport":
            return f"teleport {POSITIONS[a[1]]}"
        if kind == "sub":
            return " ".join(["sub", str(a[1]), *a[2]])
        if kind == "complete":
            return " ".join(["complete", a[1], *a[2]])
        if kind == "power":
            words = ["power", a[1]]
            if len(a) > 2:
                how = a[2]
                if how == "fly":
                    words.append(str(a[3]))
                elif how == "gift":
                    words.append(f"P{a[3] + 1}")
                elif how == "teleport":
                    words.append(POSITIONS[a[3]])
                elif a[3] == "teleport":
                    words += ["teleport", POSITIONS[a[4]]]
                else:
                    words.append(a[3])
            return " ".join(words)
        return " ".join(str(x) for x in a)

    def action_texts(self, state, actions, lang: str = "en") -> list[str]:
        """"Subdue Wandering Brigand on path 3 with Young Griffin", "Start in Forest": from the mover's
        observation."""
        notations = [self.format_action(a) for a in actions]
        return _text.action_texts(self, state.observation(state.current_player), notations, lang)

    def board_steps(self, state, actions) -> list[list[str]]:
        """The first thing clicked, then where it goes: quest/artifact/start/buy/keep/teleport X → X · draw →
        statue · sub 3 … → sp3, … · carpet 3 → carpet, sp3 · discard/withdraw C → C, discard · commit C Q → C, Q ·
        complete Q … → Q, … · release C → C (C, release outside the release phase) · power C args → C, play, each
        argument (a space as sp<n>, a statue draw as `statue`) · end, stop and done are turn controls."""
        steps = []
        for a in actions:
            kind, *args = self.format_action(a).split(" ")
            if kind in ("quest", "artifact", "start", "buy", "keep", "teleport"):
                steps.append([args[0]])
            elif kind == "draw":
                steps.append(["statue"])
            elif kind == "sub":
                steps.append([f"sp{args[0]}", *args[1:]])
            elif kind == "carpet":
                steps.append(["carpet", f"sp{args[0]}"])
            elif kind == "rearrange":
                steps.append(["rearrange"])
            elif kind in ("discard", "withdraw"):
                steps.append([args[0], "discard"])
            elif kind in ("commit", "complete"):
                steps.append(args)
            elif kind == "release":
                steps.append([args[0]] if state.phase == RELEASE else [args[0], "release"])
            elif kind == "power":
                steps.append([args[0], "play", *(_power_step(x) for x in args[1:] if x != "teleport")])
            else:
                steps.append([])
        return steps

    def board_marks(self, event: dict, viewer: int | None) -> list[str]:
        """The path (`sp3`) whose creature was subdued, crossed or newly revealed; the region an adventurer reached
        (`BL`); an open quest committed to or newly revealed; a card a player put into another's hands (gift,
        dragon, commitments returned); the panel (`P2`) of a player who played a card's power."""
        kind = event["type"]
        spaces = [f"sp{event['space']}"] if "space" in event else []
        regions = [POSITIONS[event["pos"]]] if "pos" in event else []
        if kind in ("subdue", "fly", "carpet", "teleport", "draft_start", "creature_revealed"):
            return [*spaces, *regions]
        if kind in ("commit", "quest_revealed", "draft_quest"):
            return [event["quest"]]
        if kind in ("gift", "dragon", "draft_artifact"):
            return [event["card"]]
        if kind == "commits_returned":
            return list(event["cards"])
        if kind == "power":
            return [f"P{event['player'] + 1}"]
        return []

    def _parse_action_text(self, state, text: str):
        words = text.split()
        if not words:
            return None
        kind, args = words[0].lower(), words[1:]
        ids = self.content.names
        if kind in ("stop", "end", "rearrange", "draw", "done") and not args:
            return (kind,)
        if kind in ("quest", "artifact", "discard", "withdraw", "buy", "keep", "release") and len(args) == 1:
            return (kind, args[0]) if args[0] in ids else None
        if kind in ("start", "teleport") and len(args) == 1:
            pos = POSITION_INDEX.get(args[0].upper())
            return None if pos is None else (kind, pos)
        if kind == "carpet" and len(args) == 1:
            return ("carpet", int(args[0])) if args[0] in ("1", "2", "3", "4", "5", "6", "7") else None
        if kind == "commit" and len(args) == 2:
            return ("commit", args[0], args[1]) if args[0] in ids and args[1] in ids else None
        if kind == "sub" and len(args) >= 2:
            if args[0] not in ("1", "2", "3", "4", "5", "6", "7") or any(c not in ids for c in args[1:]):
                return None
            if len(set(args[1:])) != len(args) - 1:
                return None
            paid = tuple(sorted(args[1:]))
            candidates = state.sub_candidates()
            key = tuple(candidates.index(c) if c in candidates else -1 for c in paid)
            return ("sub", int(args[0]), paid, key)
        if kind == "complete" and args:
            if any(c not in ids for c in args) or len(set(args[1:])) != len(args) - 1:
                return None
            quest = self.content.quests.get(args[0])
            if quest is None:
                return None
            part = tuple(sorted(args[1:]))
            candidates = state.quest_candidates(quest)
            key = tuple(candidates.index(c) if c in candidates else -1 for c in part)
            return ("complete", args[0], part, key)
        if kind == "power" and args and args[0] in ids:
            c, rest = args[0], args[1:]
            if not rest:
                return ("power", c)
            if len(rest) == 1:
                w = rest[0]
                if w in ("1", "2", "3", "4", "5", "6", "7"):
                    return ("power", c, "fly", int(w))
                if len(w) == 2 and w[0] in "Pp" and w[1] in "1234":
                    return ("power", c, "gift", int(w[1]) - 1)
                if w.lower() in ("draw", "release"):
                    return ("power", c, "key", w.lower())
                if w.upper() in POSITION_INDEX:
                    return ("power", c, "teleport", POSITION_INDEX[w.upper()])
            if len(rest) == 2 and rest[0].lower() == "teleport" and rest[1].upper() in POSITION_INDEX:
                return ("power", c, "key", "teleport", POSITION_INDEX[rest[1].upper()])
        return None

    # --- the fixed action space ---------------------------------------------------------------
    # `sub` and `complete` are indexed by their key: the cards' positions among the sorted hand
    # candidates (at most SUB_SLOTS / QUEST_SLOTS positions; larger hands wrap around, which could
    # only make two actions of one giant hand share an index).
    def _space(self):
        if self._offsets is None:
            nc, nq = len(self.card_ids), len(self.quest_ids)
            sizes = [("quest", nq), ("artifact", nc), ("start", 6), ("simple", 5), ("carpet", 7),
                     ("teleport", 6), ("discard", nc), ("withdraw", nc), ("buy", nc), ("release", nc),
                     ("keep", nq), ("commit", nc * nq), ("power", nc * len(POWER_ARGS)),
                     ("sub", 7 * SUB_SETS), ("complete", nq * QUEST_SETS)]
            offsets, total = {}, 0
            for name, size in sizes:
                offsets[name] = total
                total += size
            self._total, self._offsets = total, offsets      # the offsets last: another thread reads them first
        return self._offsets

    @property
    def num_distinct_actions(self) -> int:
        self._space()
        return self._total

    def action_index(self, a) -> int:
        off = self._space()
        kind = a[0]
        ci, qi = self.card_index, self.quest_index
        if kind in ("stop", "end", "rearrange", "draw", "done"):
            return off["simple"] + ("stop", "end", "rearrange", "draw", "done").index(kind)
        if kind in ("quest", "keep"):
            return off[kind] + qi[a[1]]
        if kind in ("artifact", "discard", "withdraw", "buy", "release"):
            return off[kind] + ci[a[1]]
        if kind in ("start", "teleport"):
            return off[kind] + a[1]
        if kind == "carpet":
            return off[kind] + a[1] - 1
        if kind == "commit":
            return off[kind] + ci[a[1]] * len(self.quest_ids) + qi[a[2]]
        if kind == "power":
            return off[kind] + ci[a[1]] * len(POWER_ARGS) + POWER_ARG_INDEX[tuple(a[2:])]
        if kind == "sub":
            return off[kind] + (a[1] - 1) * SUB_SETS + _rank(a[3], SUB_SLOTS, 1) % SUB_SETS
        if kind == "complete":
            return off[kind] + qi[a[1]] * QUEST_SETS + _rank(a[3], QUEST_SLOTS, 0) % QUEST_SETS
        raise ValueError(f"not a fantastiqa action: {a!r}")

    # --- text ---------------------------------------------------------------------------------
    def result_detail(self, observation: dict, lang: str = "en") -> str | None:
        """R35: a result on points whose top score is shared says which count broke the tie."""
        result = observation.get("result")
        if not result or result["reason"] not in ("deck_out", "turn_limit"):
            return None
        people = observation["people"]
        top = max(p["score"] for p in people)
        tied = [p for p in people if p["score"] == top]
        if len(tied) < 2:
            return None
        told, left = [], tied
        for key, count in (("gems", lambda p: p["gems"]), ("quests", lambda p: len(p["completed"]))):
            counts = [count(p) for p in left]
            if len(set(counts)) < 2:
                continue
            named = ", ".join(f"{player_name(p['player'], lang)} {n}" for p, n in zip(left, counts, strict=True))
            # Gems that split the tie only in part leave their top holders to the completed quests: "again".
            told.append(_text.TIE_WORDS[key if not told else "again_quests"][lang].format(score=top, counts=named))
            left = [p for p, n in zip(left, counts, strict=True) if n == max(counts)]
            if len(left) < 2:
                break
        if len(left) > 1:
            told.append(_text.TIE_WORDS["shared" if told else "all"][lang].format(score=top))
        return " ".join(told)

    def action_kind(self, state: FantastiqaState, action: tuple) -> str:
        return f"done_{state.phase}" if action[0] == "done" else action[0]

    def render_value(self, key: str, value: Any, lang: str) -> str:
        return _text.render_value(self, key, value, lang)

    def render(self, event: dict, lang: str = "en") -> str:
        return super().render(_text.worded(event), lang)

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        return _text.render_observation(self, observation, lang, legal)

    def content_sources(self) -> list:
        return self.content.sources

    def card_rows(self, lang: str = "en") -> list[dict]:
        rows = []
        for c in self.content.cards.values():
            rows.append({"id": c.id, "name": self.card_name(c.id, lang), "kind": c.kind, "symbols": " ".join(c.symbols),
                         "ability": "" if c.ability is None else
                         c.ability + ("" if c.ability in ("FLY", "KEY", "DRAGON", "GIFT", "TELEPORT") else f" {c.n}"),
                         "vuln": " ".join(SYMBOLS[x] for x in c.vuln), "gems": c.gems, "cost": c.cost,
                         "section": c.section, "min_players": c.min_players, "star": c.star})
        for q in self.content.quests.values():
            rows.append({"id": q.id, "name": self.card_name(q.id, lang), "kind": "quest", "region": q.region,
                         "req": " ".join(f"{SYMBOLS[x]}{k}" for x, k in q.req.items()), "points": q.points,
                         "reward": " ".join(f"{t} {n}" for t, n in q.reward), "star": q.star})
        return rows

    def card_name(self, cid: str, lang: str = "en") -> str:
        """The name a player reads (never a bare id for the bundled pack), in `lang`."""
        if lang not in self._names:
            self._names[lang] = _text.display_names(self.content, lang)
        return self._names[lang].get(cid, cid)


__all__ = ["Fantastiqa", "PHASES", "SPACE_ENDS", "SYMBOLS"]


PATHS = {str(n) for n in range(1, 8)}     # the seven paths between regions, by number


def _power_step(arg: str) -> str:
    """A power's argument as a board step: a path to fly across is its space, a statue draw the statue; a gift's
    player, `release` and a region are steps by their own names."""
    if arg in PATHS:
        return f"sp{arg}"
    return "statue" if arg == "draw" else arg
