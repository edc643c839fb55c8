"""Dungeon Dice Monsters (JDMC): the Game — options, setup and notation; its view is view.py, its words text.py."""

from __future__ import annotations

from collections import Counter

from coliseo.core.errors import SetupError
from coliseo.core.game import Game
from coliseo.core.i18n import player_name
from coliseo.core.options import Option
from coliseo.core.reasons import reason_words
from coliseo.core.rng import Rng

from . import view
from .board import NETS, SHAPES, geometry
from .content import CRESTS, load_content
from .state import BATTLE, DEFEND, END, PASS, PHASES, SPEND2, DDMState, S
from .text import (
    ACTION_WORDS,
    EVENT_TEXT,
    OLD_REASONS,
    OWN_REASONS,
    REFUSALS,
    TIE_WORDS,
    WORDS,
    ability_text,
    action_texts,
    crest_amount,
    crests_text,
    faces_text,
    render_text,
)

DICE_DECK_SIZE = 15
CONTROLS = frozenset(("battle", "spend2", "end", "defend", "pass"))    # actions chosen among the turn controls
DEFAULT_DICE = ["common_magic"] * 4 + ["common_trap"] * 4 + ["part_summon"] * 2 + [
    "part_move", "part_attack", "part_magic", "part_trap", "zash"]
DECK_MIN, DECK_MAX = 10, 60


def _check_packs(value):
    if not all(isinstance(p, str) for p in value):
        return "packs must be a list of file paths"
    return None


OPTIONS = [
    Option("board", "jdmc", "jdmc: 14x20, Masters g1/h20; classic: 13x19, Masters g1/g19", choices=("jdmc", "classic")),
    Option("hearts", 5, "starting and maximum hearts", minimum=1, maximum=9),
    Option("crest_amounts", "printed", "printed: a pair gains the printed amount; one: every amount counts 1",
           choices=("printed", "one")),
    Option("triple_bonus", "reroll", "reroll: a triple on the first roll rolls the same dice again; none",
           choices=("reroll", "none")),
    Option("spend2_lock", "type", "crest types spent in Spend 1 locked in Spend 2: type, magic (only Magic), none",
           choices=("type", "magic", "none")),
    Option("ac_move_limited", False, "the Master shares the one moving piece per turn with the monsters"),
    Option("crest_cap", 0, "0: no cap; n: every crest counter is cut to n after each gain", minimum=0),
    Option("max_turns", 200, "total turns (both players) before the turn-limit result", minimum=1),
    Option("first_player", "random", "random, 1 or 2", choices=("random", "1", "2")),
    Option("second_player_summon", 0, "Summon crests the second player starts with (a variant offsetting the "
           "first move)", minimum=0, maximum=9),
    Option("packs", [], "extra content packs (TOML files)", kind=list, check=_check_packs),
]

class DungeonDice(Game):
    id = "dungeon_dice"
    names = {"en": "Dungeon Dice Monsters", "es": "Juego de Dados de Monstruos del Calabozo"}
    score_names = {"en": "Hearts left", "es": "Corazones restantes"}
    min_players = 2
    max_players = 2
    options_schema = OPTIONS
    view = view
    event_text = EVENT_TEXT
    refusals = REFUSALS
    action_words = ACTION_WORDS
    shared_reasons = ("turn_limit",)
    own_reasons = OWN_REASONS
    old_reasons = OLD_REASONS
    revealing_events = frozenset({"declare", "summon", "spell", "trap"})

    def __init__(self, **options):
        super().__init__(**options)
        self.content = load_content(self.options["packs"])
        self.geo = geometry(self.options["board"])
        self.card_ids = list(self.content.cards)
        self.card_index = {c: i for i, c in enumerate(self.card_ids)}
        n, nc = self.geo.n, len(self.card_ids)
        # Fixed action space: consecutive blocks.
        sizes = [("fixed", 5), ("summon", nc), ("ssummon", nc), ("esummon", nc), ("set", nc), ("trap", nc),
                 ("zash4", nc), ("zash5", 1), ("zash1", n), ("zash2", n), ("zash3", n),
                 ("dim", len(self.geo.placements)), ("move", n * n), ("attack", n * 12),
                 ("spell", nc * (1 + n + 2 * nc)), ("effect", n * 13)]
        self.blocks, total = {}, 0
        for name, size in sizes:
            self.blocks[name] = total
            total += size
        self._num_actions = total
        # Answers read off the content alone, kept with the game rather than in tables of the modules (those would
        # keep every game ever built alive): the faces of each die and the views of libraries (state.py), the values
        # of monsters (evaluation.py), the cards a position leaves unaccounted for (view.py).
        self.die_sides: dict = {}
        self.library_views: dict = {}
        self.plain_values: dict = {}
        self.unaccounted: dict = {}

    # --- setup ----------------------------------------------------------------------------------
    def default_dice(self) -> list[str]:
        dice = self.content.dice
        if all(d in dice for d in DEFAULT_DICE):
            return list(DEFAULT_DICE)
        return [d for d, die in dice.items() for _ in range(die.copies)][:DICE_DECK_SIZE]

    def default_deck(self) -> list[str]:
        return list(self.card_ids) if len(self.card_ids) <= DECK_MAX else self.card_ids[:DECK_MAX]

    def check_setup(self, setup) -> tuple[list, list]:
        """Each player's dice deck and card deck; SetupError names the player and the broken rule."""
        if setup is None:
            setup = [None, None]
        if not isinstance(setup, (list, tuple)) or len(setup) != 2:
            raise SetupError("the setup must be a list of two entries (one per player), each null or "
                             "{'dice': [15 die ids], 'deck': [10-60 card ids]}")
        dice_decks, decks = [], []
        for p, entry in enumerate(setup):
            who = f"player {p + 1}"
            entry = entry or {}
            if not isinstance(entry, dict):
                raise SetupError(f"{who}: the setup entry must be an object with 'dice' and/or 'deck'")
            unknown = sorted(set(entry) - {"dice", "deck"})
            if unknown:
                raise SetupError(f"{who}: unknown setup field(s) {', '.join(unknown)}; allowed: dice, deck")
            dice = entry.get("dice", self.default_dice())
            if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
                raise SetupError(f"{who}: the dice deck must be a list of die ids")
            if len(dice) != DICE_DECK_SIZE:
                raise SetupError(f"{who}: the dice deck must hold exactly {DICE_DECK_SIZE} dice, got {len(dice)}")
            for d, k in sorted(Counter(dice).items()):
                if d not in self.content.dice:
                    raise SetupError(f"{who}: unknown die {d!r}; the dice are: {', '.join(self.content.dice)}")
                if k > self.content.dice[d].copies:
                    raise SetupError(f"{who}: {k} copies of die {d!r}, but the dice set has only "
                                     f"{self.content.dice[d].copies}")
            deck = entry.get("deck", self.default_deck())
            if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
                raise SetupError(f"{who}: the card deck must be a list of card ids")
            if not DECK_MIN <= len(deck) <= DECK_MAX:
                raise SetupError(f"{who}: the card deck must hold {DECK_MIN}-{DECK_MAX} cards, got {len(deck)}")
            for c, k in sorted(Counter(deck).items()):
                if c not in self.content.cards:
                    raise SetupError(f"{who}: unknown card {c!r}")
                if k > self.content.cards[c].limit:
                    raise SetupError(f"{who}: {k} copies of {c!r}, but its limit is {self.content.cards[c].limit}")
            dice_decks.append(tuple(dice))
            decks.append(sorted(deck))
        return dice_decks, decks

    def new_state(self, seed: int, setup=None) -> DDMState:
        dice_decks, decks = self.check_setup(setup)
        s = DDMState.__new__(DDMState)
        s.game, s.rng, s._legal = self, Rng(seed), None
        geo = self.geo
        s.path = [1 << geo.masters[0], 1 << geo.masters[1]]
        s.holes = []
        s.pieces = {geo.masters[p]: [-1 - p, None, p, p, [], 0, False, False, False] for p in (0, 1)}
        s.ac = list(geo.masters)
        s.pool = [[0] * 8, [0] * 8]
        s.hearts = [self.options["hearts"]] * 2
        s.dice = tuple(dice_decks)
        s.drawn, s.rolls = (), ()
        s.library = decks
        s.setzone, s.grave = [[], []], [[], []]
        s.deck_size = (len(decks[0]), len(decks[1]))
        first = self.options["first_player"]
        s.active = s.rng.randrange(2) if first == "random" else int(first) - 1
        s.pool[1 - s.active][S] = self.options["second_player_summon"]
        s.phase, s.ret_phase, s.placing, s.window = "spend1", None, None, None
        s.spent1, s.summoned, s.mover = 0, False, None
        s.placed, s.counts = [False, False], [[0, 0], [0, 0]]
        s.next_uid, s._turn, s._result = 0, 1, None
        s.start_turn()
        return s

    # --- notation -------------------------------------------------------------------------------
    def format_action(self, a) -> str:
        kind, names = a[0], self.geo.names
        if kind in CONTROLS:
            return kind
        if kind in ("summon", "ssummon", "esummon", "set", "trap"):
            return f"{kind} {a[1]}"
        if kind == "dim":
            return "dim " + self.geo.placement_text(a[1])
        if kind in ("move", "attack"):
            return f"{kind} {names[a[1]]} {names[a[2]]}"
        if kind == "spell":
            t = a[2]
            return f"spell {a[1]}" + ("" if t is None else " " + (names[t] if isinstance(t, int) else t))
        if kind == "effect":
            return f"effect {names[a[1]]}" + ("" if a[2] is None else " " + names[a[2]])
        if kind == "zash":
            n, arg = a[1], a[2]
            if n == 5:
                return "zash5"
            return f"zash{n} " + (arg if n == 4 else names[arg])
        raise ValueError(f"not a dungeon_dice action: {a!r}")

    def action_texts(self, state, actions, lang: str = "en") -> list[str]:
        """"Unfold the die as the T net at e5", "Summon (dimension a die): Kuriboh": from the mover's observation."""
        notations = [self.format_action(a) for a in actions]
        return action_texts(self, state.observation(state.current_player), notations, lang)

    def board_steps(self, state, actions) -> list[list[str]]:
        """dim T1@e5 → net:T1, e5 · summon C (and ssummon, esummon, set) → card:C, summon · spell C [target] →
        card:C, the target (or `spell`) · trap C → trap:C · effect sq [sq2] → sq, effect[, sq2] · move/attack a b →
        a, b · zash4 C → zash4, gy<seat>:C · zash1-3 sq → zash<n>, sq · zash5 → zash5 · battle, spend2, end,
        defend and pass are turn controls."""
        steps = []
        for a in actions:
            kind, *args = self.format_action(a).split(" ")
            if kind in CONTROLS:
                steps.append([])
            elif kind == "dim":
                net, anchor = args[0].split("@")
                steps.append([f"net:{net}", anchor])
            elif kind in ("summon", "ssummon", "esummon", "set"):
                steps.append([f"card:{args[0]}", kind])
            elif kind == "spell":
                steps.append([f"card:{args[0]}", args[1] if len(args) > 1 else "spell"])
            elif kind == "trap":
                steps.append([f"trap:{args[0]}"])
            elif kind == "effect":
                steps.append([args[0], "effect", *args[1:]])
            elif kind == "zash4":
                steps.append(["zash4", f"gy{state.current_player + 1}:{args[0]}"])
            elif kind in ("move", "attack"):
                steps.append(args)
            else:
                steps.append([kind, *args])          # zash1-3 sq, zash5
        return steps

    def board_marks(self, event: dict, viewer: int | None) -> list[str]:
        """The squares a die unfolded on, a monster was summoned, moved, attacked, aimed at or destroyed on, or Zash
        changed; the graveyard card a destroyed monster, a spell or a trap became (`gy1:C`); `hearts1` for the hearts
        Player 1 lost or won back; `set1` for a card Player 1 set face-down (the board marks their newest)."""
        kind, seat = event["type"], event.get("player", 0) + 1
        squares = [event[key] for key in ("square", "from", "to", "target_square") if key in event]
        if kind in ("dimension", "summon", "move", "attack"):
            return event.get("squares", squares)
        if kind == "destroyed":
            return [*squares, f"gy{seat}:{event['card']}"]
        if kind in ("spell", "effect"):
            aimed = [event["target"]] if "target" in event else []
            return [*squares, *aimed, *([f"gy{seat}:{event['card']}"] if kind == "spell" else [])]
        if kind == "zash":
            return squares or ([f"hearts{seat}"] if event["n"] == 5 else [])
        if kind == "trap":
            return [f"gy{seat}:{event['card']}"]
        if kind == "heart":
            return [f"hearts{seat}"]
        if kind == "set":
            return [f"set{seat}"]
        return []

    def _parse_action_text(self, state, text: str):
        tokens = text.strip().split()
        if not tokens:
            return None
        kind = tokens[0].lower()
        args = tokens[1:]
        number = args[0] if kind == "dim" and len(args) == 1 else kind if not args else ""
        if number.isdigit() and state.phase == "placing":
            # the placing step's candidates are numbered in the terminal picture: "12" or "dim 12" picks the 12th
            dims = state.legal_actions()
            k = int(number)
            return dims[k - 1] if 1 <= k <= len(dims) else None
        sq = self.geo.index.get
        cards = self.content.cards
        if kind in ("battle", "spend2", "end", "defend", "pass") and not args:
            return {"battle": BATTLE, "spend2": SPEND2, "end": END, "defend": DEFEND, "pass": PASS}[kind]
        if kind in ("summon", "ssummon", "esummon", "set", "trap") and len(args) == 1:
            c = args[0].lower()
            return (kind, c) if c in cards else None
        if kind == "dim" and len(args) == 1:
            net, _, where = args[0].partition("@")
            if len(net) != 2 or net[0].upper() not in NETS or net[1] not in "01234567":
                return None
            anchor = sq(where.lower())
            if anchor is None:
                return None
            pid = self.geo.placement_of(net[0].upper(), int(net[1]), anchor)
            return None if pid is None else ("dim", pid)
        if kind in ("move", "attack") and len(args) == 2:
            x, y = sq(args[0].lower()), sq(args[1].lower())
            return None if x is None or y is None else (kind, x, y)
        if kind == "spell" and len(args) in (1, 2):
            c = args[0].lower()
            if c not in cards:
                return None
            if len(args) == 1:
                return ("spell", c, None)
            t = args[1].lower()
            if t.startswith("gy"):
                owner, _, cid = t[2:].partition(":")
                if owner in ("1", "2") and cid in cards:
                    return ("spell", c, f"gy{owner}:{cid}")
                return None
            t2 = sq(t)
            return None if t2 is None else ("spell", c, t2)
        if kind == "effect" and len(args) in (1, 2):
            x = sq(args[0].lower())
            t = sq(args[1].lower()) if len(args) == 2 else None
            if x is None or (len(args) == 2 and t is None):
                return None
            return ("effect", x, t)
        if kind.startswith("zash") and kind[4:] in ("1", "2", "3", "4", "5"):
            n = int(kind[4:])
            if n == 5:
                return ("zash", 5, None) if not args else None
            if len(args) != 1:
                return None
            if n == 4:
                c = args[0].lower()
                return ("zash", 4, c) if c in cards else None
            q = sq(args[0].lower())
            return None if q is None else ("zash", n, q)
        return None

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    def action_index(self, a) -> int:
        kind, b, n, ci = a[0], self.blocks, self.geo.n, self.card_index
        if kind in ("battle", "spend2", "end", "defend", "pass"):
            return ("battle", "spend2", "end", "defend", "pass").index(kind)
        if kind in ("summon", "ssummon", "esummon", "set", "trap"):
            return b[kind] + ci[a[1]]
        if kind == "dim":
            return b["dim"] + a[1]
        if kind == "move":
            return b["move"] + a[1] * n + a[2]
        if kind == "attack":
            x, y, w = a[1], a[2], self.geo.w
            dx, dy = y % w - x % w, y // w - x // w
            d = 0 if dy > 0 else 1 if dx > 0 else 2 if dy < 0 else 3
            return b["attack"] + x * 12 + d * 3 + abs(dx + dy) - 1
        if kind == "spell":
            t = a[2]
            if t is None:
                k = 0
            elif isinstance(t, int):
                k = 1 + t
            else:
                k = 1 + n + (int(t[2]) - 1) * len(ci) + ci[t.split(":", 1)[1]]
            return b["spell"] + ci[a[1]] * (1 + n + 2 * len(ci)) + k
        if kind == "effect":
            x, t, w = a[1], a[2], self.geo.w
            if t is None:
                return b["effect"] + x * 13
            dx, dy = t % w - x % w, t // w - x // w
            d = 0 if dy > 0 else 1 if dx > 0 else 2 if dy < 0 else 3
            return b["effect"] + x * 13 + 1 + d * 3 + abs(dx + dy) - 1
        if kind == "zash":
            if a[1] == 5:
                return b["zash5"]
            if a[1] == 4:
                return b["zash4"] + ci[a[2]]
            return b[f"zash{a[1]}"] + a[2]
        raise ValueError(f"not a dungeon_dice action: {a!r}")

    # --- text -----------------------------------------------------------------------------------
    def card_name(self, cid: str, lang: str) -> str:
        card = self.content.cards.get(cid)
        return card.names.get(lang, card.names["en"]) if card else str(cid)

    def render(self, event: dict, lang: str = "en") -> str:
        if event["type"] == "zash":              # each Zash power reads as its own sentence
            event = {**event, "type": f"zash{event['n']}"}
        return super().render(event, lang)

    def result_detail(self, observation: dict, lang: str = "en") -> str | None:
        """R36: a turn-limit result with hearts tied says which count broke the tie."""
        result, hearts = observation.get("result"), observation["hearts"]
        if not result or result["reason"] != "turn_limit" or hearts[0] != hearts[1]:
            return None
        (n0, l0), (n1, l1) = observation["summons"]
        key, a, b = ("monsters", n0, n1) if n0 != n1 else ("levels", l0, l1) if l0 != l1 else ("all", l0, l1)
        return TIE_WORDS[key][lang].format(h=hearts[0], n=n0, a=a, b=b, p1=player_name(0, lang),
                                           p2=player_name(1, lang))

    def action_kind(self, state, action):
        return "summon" if action[0] in ("ssummon", "esummon") else action[0]

    def render_value(self, key, value, lang):
        if key == "reason":
            return reason_words(self, value, lang)
        if key == "player":
            return player_name(value, lang)
        if key in ("card", "piece", "target"):
            if value == "master":
                return WORDS["master"][lang]
            if isinstance(value, str) and value.startswith("gy") and ":" in value:
                return f"{self.card_name(value.split(':', 1)[1], lang)} ({value.split(':')[0]})"
            if value in self.content.cards:
                return self.card_name(value, lang)
            return str(value)
        if key == "dice":
            return ", ".join(self.content.dice[d].names.get(lang, d) if d in self.content.dice else d for d in value)
        if key == "crests":
            return crests_text(value, lang)
        if key == "gain":
            return WORDS["gains"][lang][value in ("-", "")].format(c=crests_text(value, lang))
        if key == "faces":
            return faces_text(value, lang)
        if key == "cost":
            return crest_amount(value, "M", lang)
        if key == "net":
            shape, _, square = value.partition("@")
            return WORDS["net"][lang].format(n=shape[0], sq=square)
        if key == "mode":
            return WORDS[f"{value}_mode"][lang]
        if key == "hearts":
            return WORDS["hearts_left"][lang][value != 1].format(n=value)
        if key in ("phase", "how"):
            return WORDS.get(value, {}).get(lang, str(value))
        if key == "winners":
            if not value:
                return WORDS["draw"][lang]
            return WORDS["wins"][lang].format(p=player_name(value[0], lang))
        return str(value)

    def content_sources(self) -> list:
        return self.content.sources

    def card_rows(self, lang: str = "en") -> list[dict]:
        """The loaded content as flat rows for `coliseo cards dungeon_dice` (dice first, then cards)."""
        rows = []
        for die in self.content.dice.values():
            faces = " ".join(CRESTS[c] + (str(n) if die.cls == "common" else "") for c, n in die.faces)
            rows.append({"id": die.id, "name": die.names.get(lang, die.names["en"]), "kind": f"die ({die.cls})",
                         "faces": faces, "copies": die.copies})
        for card in self.content.cards.values():
            row = {"id": card.id, "name": card.names.get(lang, card.names["en"]), "kind": card.type,
                   "limit": card.limit}
            if card.type == "monster":
                row.update(level=card.level, atk=card.atk, defense=card.defense)
                if card.kind:
                    params = " ".join(f"{k}={v}" for k, v in sorted(card.params.items()))
                    row["effect"] = f"{card.kind} {params} (once per {card.once})".replace("  ", " ")
                if card.condition:
                    row["self_summon"] = card.condition
            else:
                row["effect"] = (card.kind + " " + " ".join(f"{k}={v}" for k, v in sorted(card.params.items()))).strip()
            row["text"] = ability_text(card, lang)
            rows.append(row)
        return rows

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        return render_text(self, observation, lang, legal)


__all__ = ["DungeonDice", "PHASES", "SHAPES", "CRESTS"]
