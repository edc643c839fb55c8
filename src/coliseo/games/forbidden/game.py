"""The `forbidden` game: options, setup, notation (docs/rules/forbidden.md §5); its view is view.py, words text.py."""

from __future__ import annotations

import re
from typing import Any

from coliseo.core.content import file_stamps
from coliseo.core.errors import PositionError, SetupError
from coliseo.core.game import Game
from coliseo.core.i18n import player_name, refusal
from coliseo.core.options import Option
from coliseo.core.reasons import reason_words
from coliseo.core.rng import Rng

from . import view
from .content import KINDS, MONSTER, OLD_REASONS, STAR_NAMES, TYPES, Pack, deck_problem, find_pack, load_pack
from .state import ACT, ACT_ON, ATTACK, END, PLACE_ACTIONS, PLAY, PLAY_FD, POS, SEQ_INDEX, DuelState, draw_weighted
from .text import (
    ACTION_WORDS,
    EVENT_TEXT,
    OWN_REASONS,
    REFUSALS,
    action_texts,
    card_text,
    count,
    destination,
    lang_of,
    render_text,
    terrain_name,
    zone,
)

CPU_MODES = ("free_duel", "campaign")
EXCLUDED_FROM_POOL_DECKS = (721, 722)  # R36


def _pack_check(name: str) -> str | None:
    try:
        load_pack(name)
    except Exception as e:  # noqa: BLE001 - the option error carries the pack's own message
        return str(e)
    return None


LOOSE_PLAY_RE = re.compile(r"^play (\d+(?:\+\d+)*) (\S+)( fd)?$")
PLAY_RE = re.compile(r"^play ([1-5](?:\+[1-5]){0,4}) (act|m[1-5]|s[1-5])( fd)?$")
PLACE_RE = re.compile(r"^place ([ad])([12])$")
ATTACK_RE = re.compile(r"^attack m([1-5]) (m[1-5]|direct)$")
POS_RE = re.compile(r"^pos m([1-5])$")
ACT_RE = re.compile(r"^act s([1-5])(?: m([1-5]))?$")


class ForbiddenGame(Game):
    id = "forbidden"
    names = {"en": "Forbidden Memories duel", "es": "Duelo de Forbidden Memories"}
    score_names = {"en": "Duel rank points (the winner's)", "es": "Puntos de rango del duelo (del ganador)"}
    side_word = {"en": "Deck", "es": "Mazo"}
    min_players = 2
    max_players = 2
    options_schema = [
        Option("mode", "duel", "duel (no rewards), free_duel or campaign (seat 2 is a CPU duelist)",
               choices=("duel", "free_duel", "campaign")),
        Option("opponent", 1, "duelist id of the CPU in free_duel/campaign", minimum=1),
        Option("pack", "starter", "content pack: a bundled or imported pack name, or a pack folder",
               check=_pack_check),
        Option("start_lp", 8000, "start and max LP", minimum=1, maximum=65535),
        Option("first_player", "0", "who moves first: 0, 1 or random (CPU modes: 0)", choices=("0", "1", "random")),
        Option("first_turn_attack", True, "off: the first player cannot attack on the duel's first turn (a variant "
               "offsetting the first move)"),
        Option("terrain", 0, "starting terrain (0 normal .. 6 Yami)", minimum=0, maximum=6),
        Option("exodia", True, "holding the five Exodia pieces wins"),
        Option("fake_trap_stops_attacks", True, "a set Fake Trap stops an attack no attack trap stopped"),
        Option("lp_win_bonus", 2, "duel-rank adjustment of an LP win"),
        Option("open_decklists", True, "both 40-card lists are public"),
        Option("cpu_privileged", False, "fm-classic reads hidden cards like the original CPU"),
    ]
    view = view
    event_text = EVENT_TEXT
    refusals = REFUSALS
    action_words = ACTION_WORDS
    shared_reasons = ("deck_out",)
    own_reasons = OWN_REASONS
    old_reasons = OLD_REASONS
    revealing_events = frozenset({"play", "draw", "flip", "trap", "battle", "destroy", "activate", "fusion", "set",
                                  "summon", "game_over", "deck_out", "exodia", "tribute"})

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.pack: Pack = load_pack(self.options["pack"])
        if self.options["mode"] in CPU_MODES and self.options["opponent"] not in self.pack.duelists:
            raise SetupError(f"option 'opponent': no duelist {self.options['opponent']} in the pack "
                             f"{self.pack.id!r}; duelists: {', '.join(map(str, sorted(self.pack.duelists)))}")

    # --- setup ---------------------------------------------------------------------------------------
    def duelist_id(self, value: Any) -> int:
        """A duelist by id or (case-insensitive) name."""
        if isinstance(value, int) and not isinstance(value, bool) and value in self.pack.duelists:
            return value
        if isinstance(value, str):
            if value.isdigit() and int(value) in self.pack.duelists:
                return int(value)
            for d in self.pack.duelists.values():
                if d.name.lower() == value.lower():
                    return d.id
        names = ", ".join(f"{d.id} {d.name}" for d in sorted(self.pack.duelists.values(), key=lambda d: d.id))
        raise SetupError(f"unknown duelist {value!r}; the pack {self.pack.id!r} has: {names}")

    def setup_for(self, **choices: Any) -> Any:
        """`deck=` (a deck name of the pack, or ids joined by commas) and `duelist=` (id or name)."""
        unknown = set(choices) - {"deck", "duelist"}
        if unknown:
            raise SetupError(f"{self.name()} takes the setup choices deck and duelist, not {', '.join(unknown)}")
        setup: dict = {}
        if choices.get("deck"):
            deck = choices["deck"]
            setup["decks"] = [deck if deck in self.pack.decks else [int(x) for x in str(deck).split(",")], None]
        if choices.get("duelist") is not None:
            setup["duelist"] = self.duelist_id(choices["duelist"])
        return setup or None

    def sides(self, lang: str = "en") -> list[dict]:
        """The pack's decks, picked in a duel between two seats (a CPU duelist brings its own deck)."""
        words = {"en": "{n} cards; strongest: {best}", "es": "{n} cartas; las más fuertes: {best}"}
        out = []
        for name, ids in self.pack.decks.items():
            monsters = sorted({c for c in ids if self.pack.cards[c].kind == MONSTER},
                              key=lambda c: (-self.pack.cards[c].atk, c))
            best = ", ".join(f"{self.pack.cards[c].name} ({self.pack.cards[c].atk})" for c in monsters[:3])
            detail = words.get(lang, words["en"]).format(n=len(ids), best=best)
            out.append({"id": name, "name": name.replace("_", " ").title(), "detail": detail,
                        "options": {"mode": "duel"}})
        return out

    def setup_for_sides(self, sides: list[str | None]) -> Any:
        if len(sides) != 2:
            raise SetupError(f"name a deck for each of the 2 players, not {len(sides)}")
        if self.options["mode"] != "duel" and sides[1] is not None:
            raise SetupError(f"in mode {self.options['mode']} the CPU duelist brings its own deck: "
                             "leave Player 2's out")
        for n, side in enumerate(sides, 1):
            if side is not None and side not in self.pack.decks:
                raise SetupError(f"player {n}: no deck {side!r}; the decks: {', '.join(self.pack.decks)}")
        return {"decks": list(sides)}

    def _deck(self, player: int, deck: Any) -> list[int]:
        who = player_name(player, "en")
        if isinstance(deck, str):
            try:
                return self.pack.deck_ids(deck)
            except SetupError as e:
                raise SetupError(f"{who}'s deck: {e}") from None
        if not isinstance(deck, list) or any(not isinstance(c, int) or isinstance(c, bool) for c in deck):
            raise SetupError(f"{who}'s deck must be a deck name or a list of card ids, got {deck!r}")
        problem = deck_problem(self.pack, deck)
        if problem:
            raise SetupError(f"{who}'s deck: {problem}")
        return list(deck)

    def pool_deck(self, rng: Rng, duelist: int) -> list[int]:
        """A CPU deck drawn from the duelist's deck pool (R36)."""
        pool = [(c, w) for c, w in self.pack.pools.get((duelist, "deck"), []) if c not in EXCLUDED_FROM_POOL_DECKS]
        usable = sum(1 for _, w in pool if w > 0)
        if usable * self.pack.copy_limit < self.pack.deck_size:
            raise SetupError(f"duelist {duelist}: the deck pool has {usable} usable cards; at least "
                             f"{-(-self.pack.deck_size // self.pack.copy_limit)} are needed for a "
                             f"{self.pack.deck_size}-card deck")
        counts: dict[int, int] = {}
        deck: list[int] = []
        while len(deck) < self.pack.deck_size:
            c = draw_weighted(rng, pool)
            if counts.get(c, 0) < self.pack.copy_limit:
                counts[c] = counts.get(c, 0) + 1
                deck.append(c)
        return deck

    def new_state(self, seed: int, setup: Any = None) -> DuelState:
        if setup is None:
            setup = {}
        if not isinstance(setup, dict) or set(setup) - {"decks", "duelist"}:
            raise SetupError("a setup is an object with 'decks' ([deck of player 1, deck of player 2]; a deck is "
                             "a deck name or 40 card ids; null = default) and optionally 'duelist'")
        decks = setup.get("decks") or [None, None]
        if not isinstance(decks, list) or len(decks) != 2:
            raise SetupError("setup 'decks' must list two decks (null for the default)")
        options = self.options
        cpu = options["mode"] in CPU_MODES
        duelist = setup.get("duelist")
        if duelist is not None:
            duelist = self.duelist_id(duelist)
        elif cpu:
            duelist = options["opponent"]
        rng = Rng(seed)
        if cpu:
            first = 0
        else:
            first = rng.randrange(2) if options["first_player"] == "random" else int(options["first_player"])
        lists = [self._deck(0, decks[0] if decks[0] is not None else "starter_a"), None]
        terrain = options["terrain"]
        if duelist is not None:
            d = self.pack.duelists[duelist]
            terrain = d.terrain
            if d.deck == "copy_player":
                lists[1] = list(lists[0])
            elif d.deck:
                lists[1] = self.pack.deck_ids(d.deck)
            else:
                lists[1] = self.pool_deck(rng, duelist)
        else:
            lists[1] = self._deck(1, decks[1] if decks[1] is not None else "starter_b")
        s = DuelState.__new__(DuelState)
        s.game, s.pack, s.rng, s._legal = self, self.pack, rng, None
        s.lists = (tuple(lists[0]), tuple(lists[1]))
        s.decks = [list(lists[0]), list(lists[1])]
        rng.shuffle(s.decks[0])
        rng.shuffle(s.decks[1])
        s.hands = []
        for side in (0, 1):
            s.hands.append(s.decks[side][:5])
            del s.decks[side][:5]
        s.lp = [options["start_lp"], options["start_lp"]]
        s.max_lp = options["start_lp"]
        s.monsters = [[None] * 5, [None] * 5]
        s.spells = [[None] * 5, [None] * 5]
        s.removed, s.created = [[], []], [[], []]
        s.counters = [[0] * 8, [0] * 8]
        s.pinned = [0, 0]
        s.terrain, s.turn_no, s.pending = terrain, 0, -1
        s.winner = s.reason = s.outcome = None
        s.duelist = duelist or 0
        s.phase = "main"
        s._draw_phase(first, [])
        return s

    def state_from_json(self, doc: dict) -> DuelState:
        """As the base (view.load_position), and a document malformed deep inside is a PositionError too."""
        try:
            return super().state_from_json(doc)
        except PositionError:
            raise
        except (KeyError, TypeError, AttributeError) as e:
            raise PositionError(f"malformed position: {e}") from None

    # --- notation ------------------------------------------------------------------------------------
    def format_action(self, a) -> str:
        tag = a[0]
        if tag == "play":
            dest = a[2]
            where = "act" if dest == 0 else (f"m{dest}" if dest <= 5 else f"s{dest - 5}")
            return f"play {'+'.join(map(str, a[1]))} {where}" + (" fd" if a[3] else "")
        if tag == "place":
            return f"place {a[1]}{a[2]}"
        if tag == "attack":
            return f"attack m{a[1]} " + (f"m{a[2]}" if a[2] else "direct")
        if tag == "pos":
            return f"pos m{a[1]}"
        if tag == "act":
            return f"act s{a[1]}" + (f" m{a[2]}" if len(a) == 3 else "")
        return "end"

    def board_steps(self, state, actions) -> list[list[str]]:
        """play 3+1 m2 → h3, h1, my-m2, then `down` for a face-down play, or `up` when the same play may go face
        down too (R11) · play 2 act → h2, act · place a1 → place-a1 · attack m1 m2 → my-m1, op-m2 (or `direct`) ·
        pos m1 → my-m1, pos · act s2 [m1] → my-s2, my-m1 (or `activate`) · end → [] (a turn control)."""
        legal = set(actions)
        steps = []
        for a in actions:
            tag = a[0]
            if tag == "play":
                cards, dest, face_down = a[1], a[2], a[3]
                hand = [f"h{n}" for n in cards]
                if dest == 0:
                    steps.append([*hand, "act"])
                    continue
                zone = f"my-m{dest}" if dest <= 5 else f"my-s{dest - 5}"
                face = "down" if face_down else "up" if ("play", cards, dest, True) in legal else None
                steps.append([*hand, zone, *([face] if face else [])])
            elif tag == "place":
                steps.append([f"place-{a[1]}{a[2]}"])
            elif tag == "attack":
                steps.append([f"my-m{a[1]}", f"op-m{a[2]}" if a[2] else "direct"])
            elif tag == "pos":
                steps.append([f"my-m{a[1]}", "pos"])
            elif tag == "act":
                steps.append([f"my-s{a[1]}", f"my-m{a[2]}" if len(a) == 3 else "activate"])
            else:
                steps.append([])
        return steps

    def action_texts(self, state, actions, lang: str = "en") -> list[str]:
        """"Play Dark Elf + Gaia to monster zone 2", "Dark Elf (your monster zone 1) attacks directly": from the
        mover's observation."""
        return action_texts(self, state.observation(state.current_player), actions, lang)

    def board_marks(self, event: dict, viewer: int | None) -> list[str]:
        """The zones a card was played, set, summoned, flipped, turned, destroyed, tributed or sprung in, and the
        attacker's; the LP plate (`op-lp`) hurt or healed; the removed pile (`my-grave`) a card went to (destroyed,
        tributed, sprung, activated, fused, equipped or failed); `terrain`.
        Named from `viewer`'s side (a spectator's `my-` is Player 1's), never by a card."""
        kind, seat = event["type"], event.get("player")
        if kind == "attack":
            target = "lp" if event["target"] == "direct" else event["target"]
            return [_on_side(seat, event["attacker"], viewer), _on_side(1 - seat, target, viewer)]
        if kind in ("damage", "heal"):
            return [_on_side(seat, "lp", viewer)]
        if kind == "terrain":
            return ["terrain"]
        zone = event.get("zone") or (event.get("dest") if kind in ("play", "play_hidden") else None)
        marks = [_on_side(seat, zone, viewer)] if zone and zone != "act" else []
        if kind in ("destroy", "tribute", "trap", "activate", "fusion", "equip", "fail"):
            marks.append(_on_side(seat, "grave", viewer))
        return marks

    def legal_listing(self, state, legal, lang: str = "en") -> str:
        """A main phase's hundreds of plays are summarized: the first 30, then how many more and their shape."""
        if len(legal) <= 60:
            return super().legal_listing(state, legal, lang)
        shown = ", ".join(self.format_action(a) for a in legal[:30])
        more = {"en": f"and {len(legal) - 30} more plays (play <hand positions joined by +> <act|m1..m5|s1..s5>[ fd])",
                "es": f"y {len(legal) - 30} jugadas más (play <posiciones de la mano unidas por +> "
                      "<act|m1..m5|s1..s5>[ fd])"}
        return f"{shown}, ... {more[lang]}"

    def notation_problem(self, state, text: str, lang: str = "en") -> str | None:
        """Why `play N ...` names no card: hand positions are 1..hand size, zones m1..m5 and s1..s5."""
        m = LOOSE_PLAY_RE.match(" ".join(text.strip().lower().split()))
        if not m or state.current_player is None or self._parse_action_text(state, text) is not None:
            return None
        hand = state.hands[state.current_player]
        numbers = [int(x) for x in m.group(1).split("+")]
        wrong = [n for n in numbers if not 1 <= n <= len(hand)]
        if wrong:
            card = next((i + 1 for i, c in enumerate(hand) if c == wrong[0]), None)
            hint = refusal(self, "card_in_hand", lang, n=wrong[0], position=card) if card else ""
            return refusal(self, "hand_position", lang, size=len(hand), n=wrong[0]) + hint
        if len(set(numbers)) != len(numbers):
            return refusal(self, "position_twice", lang)
        if not re.fullmatch(r"act|[ms][1-5]", m.group(2)):
            return refusal(self, "zone", lang, zone=m.group(2))
        return None

    def _parse_action_text(self, state, text: str):
        t = " ".join(text.strip().lower().split())
        if t == "end":
            return END
        m = PLAY_RE.match(t)
        if m:
            seq = tuple(int(x) for x in m.group(1).split("+"))
            if len(set(seq)) != len(seq):
                return None
            d = m.group(2)
            dest = 0 if d == "act" else (int(d[1]) if d[0] == "m" else int(d[1]) + 5)
            if m.group(3):
                if len(seq) != 1 or not 1 <= dest <= 5:
                    return ("play", seq, dest, True)
                return PLAY_FD[seq[0], dest]
            return PLAY[SEQ_INDEX[seq]][dest]
        m = PLACE_RE.match(t)
        if m:
            return PLACE_ACTIONS[(m.group(1) == "d") * 2 + int(m.group(2)) - 1]
        m = ATTACK_RE.match(t)
        if m:
            return ATTACK[int(m.group(1)), 0 if m.group(2) == "direct" else int(m.group(2)[1])]
        m = POS_RE.match(t)
        if m:
            return POS[int(m.group(1))]
        m = ACT_RE.match(t)
        if m:
            return ACT[int(m.group(1))] if m.group(2) is None else ACT_ON[int(m.group(1)), int(m.group(2))]
        return None

    @property
    def num_distinct_actions(self) -> int:
        return 3670

    def action_index(self, a) -> int:
        tag = a[0]
        if tag == "play":
            if a[3]:
                return 3575 + (a[1][0] - 1) * 5 + a[2] - 1
            return SEQ_INDEX[a[1]] * 11 + a[2]
        if tag == "place":
            return 3600 + (a[1] == "d") * 2 + a[2] - 1
        if tag == "attack":
            return 3604 + (a[1] - 1) * 6 + (a[2] - 1 if a[2] else 5)
        if tag == "pos":
            return 3634 + a[1] - 1
        if tag == "act":
            return 3639 + a[1] - 1 if len(a) == 2 else 3644 + (a[1] - 1) * 5 + a[2] - 1
        return 3669

    def board_hints(self, observation: dict) -> dict | None:
        """The web board's help for the seat to move (fusion and equip steps of its own cards, star wins)."""
        from .calc import board_hints
        return board_hints(self.pack, observation)

    # --- text ----------------------------------------------------------------------------------------
    def card_name(self, card_id: int | None) -> str:
        if card_id is None:
            return "?"
        card = self.pack.cards.get(card_id)
        return f"{card.name} #{card_id}" if card else f"#{card_id}"

    def render(self, event: dict, lang: str = "en") -> str:
        if event["type"] == "curse" and not event.get("amount"):
            event = {**event, "type": "curse_lifted"}
        return super().render(event, lang)

    def option_value_words(self, name: str, lang: str = "en") -> dict | None:
        if name == "terrain":
            return {code: terrain_name(self.pack, code, lang) for code in range(len(self.pack.terrain_names))}
        if name == "opponent":
            return {did: duelist.name for did, duelist in sorted(self.pack.duelists.items())}
        return None

    def inert_options(self) -> set[str]:
        return set() if any(d.sees_facedown for d in self.pack.duelists.values()) else {"cpu_privileged"}

    def render_value(self, key: str, value: Any, lang: str) -> str:
        """Names, never codes: cards by name, zones and counts in """
        es = lang == "es"
        if key in ("player", "winner"):
            return player_name(value, lang)
        if key in ("card", "result", "equip", "monster", "kept", "discarded") or \
                (key in ("attacker", "target") and isinstance(value, int)):
            return self._plain_name(value)
        if key in ("cards", "materials"):
            return " + ".join(self._plain_name(c) for c in value)
        if key == "terrain":
            return terrain_name(self.pack, value, lang)
        if key == "target" and value is None:
            return "-"
        if key == "target":
            if value == "direct":
                return "directamente" if es else "directly"
            return f"a {zone(value, lang)}" if es else f"against {zone(value, lang)}"
        if key in ("zone", "attacker"):
            return zone(value, lang)
        if key == "dest":
            return destination(value, lang)
        if key == "count":
            return count(value, "carta", "cartas") if es else count(value, "card", "cards")
        if key == "turns":
            return count(value, "turno", "turnos") if es else count(value, "turn", "turns")
        if key == "star":
            return {1: "primera" if es else "first", 2: "segunda" if es else "second"}.get(value, str(value))
        if key == "reason":
            return reason_words(self, value, lang_of(lang))
        if key == "position":
            return {"en": {"atk": "attack", "def": "defence"}, "es": {"atk": "ataque", "def": "defensa"}}[
                lang_of(lang)][value]
        return str(value)

    def _plain_name(self, card_id: int | None) -> str:
        card = self.pack.cards.get(card_id) if card_id is not None else None
        return card.name if card else "?"

    def content_sources(self) -> list:
        return [self.pack.root]

    @classmethod
    def content_key(cls, options: dict) -> tuple:
        """The pack's folder as the option `pack` finds it now (a name may mean another folder under another
        COLISEO_HOME) and its files as they stand."""
        return file_stamps([find_pack(options["pack"])])

    def card_rows(self, lang: str = "en") -> list[dict]:
        """Every card of the pack as a flat row (filter with --where type=DR, --min atk=1500, star1=Sun...)."""
        rows = []
        for c in sorted(self.pack.cards.values(), key=lambda c: c.id):
            monster = c.kind == MONSTER
            rows.append({"id": c.id, "name": c.name, "kind": KINDS[c.kind], "type": TYPES[c.type] if monster else "",
                         "atk": c.atk if monster else "", "def": c.defense if monster else "",
                         "star1": STAR_NAMES[c.star1] if monster else "",
                         "star2": STAR_NAMES[c.star2] if monster else "",
                         "effect": "" if monster else
                         (c.trigger or f"group {c.group}") + (f" {c.value}" if c.value else ""),
                         "text": card_text(self.pack, c, lang),
                         **{k: c.extra[k] for k in ("level", "attribute") if k in c.extra}})
        return rows

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        return render_text(self, observation, lang, legal)


def _on_side(seat: int, thing: str, viewer: int | None) -> str:
    """A board id on a seat's side of the field as `viewer`'s board names it: `my-m2`, `op-lp`."""
    return f"{'my' if seat == (viewer or 0) else 'op'}-{thing}"
