"""The Capsule Monsters game: options, setup and notation (docs/rules/capsule.md §3, §5); its view is view.py."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from coliseo.core.errors import SetupError
from coliseo.core.game import Game
from coliseo.core.options import Option
from coliseo.core.reasons import reason_words
from coliseo.core.rng import Rng

from . import view
from .board import board_for
from .content import ACTIVATED, Card, Content, load_content, team_problem
from .state import (
    ABILITY,
    ATTACK,
    CAPSULE,
    END,
    END_ACTION,
    KING,
    MOVE,
    PLACE,
    PLACE_REST,
    PLACE_REST_ACTION,
    RECOVER,
    SUMMON,
    CapsuleState,
)
from .text import ACTION_WORDS, EVENT_TEXT, OWN_REASONS, REFUSALS, TURN_END_REASONS, action_texts, render_text

# The word of each action kind for the board (CapsuleGame.action_kinds), in the order of state.py's kinds.
ACTION_KINDS = ("end", "summon", "move", "attack", "recover", "ability", "place", "random")
DEFAULT_TEAMS = {"basic": ("starter_dawn", "starter_dusk"), "advanced": ("adv_dawn", "adv_dusk")}


def _zone_problem(value: Any) -> str | None:
    if value == "back_row":
        return None
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        return "must be 'back_row' or a list of squares such as ['a1', 'b1']"
    return None


OPTIONS = [
    Option("mode", "basic", "basic or advanced (the King's second numbers; advanced presets)",
           choices=("basic", "advanced")),
    Option("width", 8, "board width", minimum=4, maximum=26),
    Option("height", 8, "board height", minimum=4, maximum=26),
    Option("start_zone", "back_row", "Player 1's start squares (Player 2's mirror them)", kind=object,
           check=_zone_problem),
    Option("o_pattern", "ring", "ring: the 16 squares at distance 2; star: only the 8 in straight lines",
           choices=("ring", "star")),
    Option("faction_advantage", False, "+1 damage when the attacker's faction beats the target's"),
    Option("capsule_hp", 2, "damage that destroys a capsule", minimum=1),
    Option("capsule_damage_carries", True, "capsule damage stays on the summoned monster"),
    Option("stun_blocks_abilities", False, "stunned monsters cannot use activated abilities"),
    Option("all_monsters_rule", True, "losing every monster loses the game"),
    Option("enforce_team_rules", True, "check team cost and Level-2 factions (R7 a, b)"),
    Option("auto_end_turn", True, "end the turn by itself when nothing but 'end' is legal"),
    Option("double_pass_ends", True, "two consecutive empty turns end the game"),
    Option("max_turns", 200, "turn limit (0 = none)", minimum=0),
    Option("first_player", "p1", "p1, or random", choices=("p1", "random")),
    Option("first_turn_ap_penalty", 0, "the player who takes turn 1 gets this many fewer AP on it", minimum=0),
    Option("second_player_ap_bonus", 0, "the player who takes turn 2 gets this many more AP on it", minimum=0),
    Option("packs", [], "extra content pack files (TOML) loaded beside the bundled ones", kind=list),
]

_SQUARE = r"([a-z]\d{1,2})"
_PATTERNS = [
    (re.compile(rf"^s{_SQUARE}$"), SUMMON),
    (re.compile(rf"^r{_SQUARE}$"), RECOVER),
    (re.compile(rf"^{_SQUARE}-{_SQUARE}$"), MOVE),
    (re.compile(rf"^{_SQUARE}x{_SQUARE}$"), ATTACK),
    (re.compile(rf"^{_SQUARE}!([a-z]+)@{_SQUARE}$"), ABILITY),
    (re.compile(rf"^(k|\d{{1,2}})@{_SQUARE}$"), PLACE),
]


@lru_cache(maxsize=8)
def _content(packs: tuple[str, ...]) -> Content:
    return load_content(packs)


class CapsuleGame(Game):
    id = "capsule"
    view = view
    names = {"en": "Capsule Monsters", "es": "Capsule Monsters"}
    score_names = {"en": "King's points left", "es": "Puntos que le quedan al Rey"}
    side_word = {"en": "Team", "es": "Equipo"}
    options_schema = OPTIONS
    event_text = EVENT_TEXT
    refusals = REFUSALS
    action_words = ACTION_WORDS
    shared_reasons = ("turn_limit",)
    own_reasons = OWN_REASONS
    revealing_events = frozenset({"summon", "destroyed", "scout"})

    def __init__(self, **options: Any):
        if options.pop("random_placement", True) is not True:     # D22: the option is gone; true is the rule now
            raise SetupError("option 'random_placement' was removed: placement is random unless a player places "
                             "by hand or the setup gives it (docs/rules/capsule.md R9, D22); the fixed order it "
                             "turned off is gone, so a record made with it needs an older engine")
        super().__init__(**options)
        o = self.options
        if o["auto_end_turn"] and not o["double_pass_ends"] and o["max_turns"] == 0:
            raise SetupError("auto_end_turn with neither double_pass_ends nor max_turns could end turns forever "
                             "(R14, D29): turn one of them on")
        self.advanced = o["mode"] == "advanced"
        self.board = board_for(o["width"], o["height"], o["o_pattern"])
        self.zones = self._zones()
        self.content = _content(tuple(o["packs"]))
        self._eligible: dict = {}

    def _zones(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        b = self.board
        zone = self.options["start_zone"]
        if zone == "back_row":
            first = tuple(range(b.width))
        else:
            squares = [b.parse(s) for s in zone]
            bad = [s for s, sq in zip(zone, squares) if sq is None]
            if bad:
                raise SetupError(f"option 'start_zone': {', '.join(bad)} not on the {b.width}x{b.height} board")
            first = tuple(sorted(set(squares)))
        second = tuple(sorted((b.height - 1 - b.rank(sq)) * b.width + b.file(sq) for sq in first))
        if len(first) < 2:
            raise SetupError("option 'start_zone': a start zone needs at least 2 squares")
        if set(first) & set(second):
            raise SetupError("option 'start_zone': the two players' zones overlap")
        return first, second

    def eligible(self, faction: str, king_faction: str | None) -> list[Card]:
        """Monsters a hidden capsule of `faction` could hold in a team led by a King of `king_faction`."""
        key = (faction, king_faction)
        if key not in self._eligible:
            enforce = self.options["enforce_team_rules"]
            self._eligible[key] = [c for c in self.content.monsters.values() if c.faction == faction
                                   and not (enforce and c.level >= 2 and c.faction != king_faction)]
        return self._eligible[key]

    # --- setup (R6–R10) ---------------------------------------------------------------------------
    def new_state(self, seed: int, setup: Any = None) -> CapsuleState:
        """R9, R10: the first player, then each player's placement, Player 1 first: given, drawn from the seed, or
        placed by the player before turn 1 (a setup entry's "placement": a map, "random" — the default — or
        "choose")."""
        teams = self._teams(setup)
        rng = Rng(seed)
        state = CapsuleState(self, rng)
        state.first = rng.randrange(2) if self.options["first_player"] == "random" else 0
        for player, (king, monsters, placement) in enumerate(teams):
            cards = [self.content.kings[king], *(self.content.monsters[m] for m in monsters)]
            state.tray[player] = [[n, [-1, player, CAPSULE if n else KING, card, 0, False, False, False, 0,
                                       1 << player]] for n, card in enumerate(cards)]
            if placement == "random":
                state.place_rest(player, [])
            elif placement != "choose":
                for sq, number in placement.items():
                    state.place(player, number, sq, [])
        placers = [p for p in (0, 1) if state.tray[p]]
        if placers:
            state.active = placers[0]
        else:
            state.start_turn(state.first, [])
            if self.options["auto_end_turn"]:
                state._auto_end([])
        return state

    def setup_for_people(self, setup: Any, people: set[int]) -> Any:
        """The setup in which the players in `people` (seats played by a person) place their pieces by hand where
        the setup does not place them (R9); the other seats' placements stay random."""
        if not people & {0, 1}:
            return setup
        if setup is None:
            setup = {"players": [{"preset": t} for t in DEFAULT_TEAMS[self.options["mode"]]]}
        self._teams(setup)
        players = [dict(entry) for entry in setup["players"]]
        for p in people & {0, 1}:
            if players[p].get("placement") is None:
                players[p]["placement"] = "choose"
        return {**setup, "players": players}

    def setup_for(self, **choices: Any) -> Any:
        teams = choices.pop("teams", None)
        if choices:
            raise SetupError(f"Capsule Monsters takes no setup choice {', '.join(choices)}; use teams=PRESET,PRESET")
        if not teams:
            return None
        names = teams.split(",") if isinstance(teams, str) else list(teams)
        if len(names) != 2:
            raise SetupError("name two team presets, one per player, e.g. teams=adv_storm,adv_stone")
        return {"players": [{"preset": n.strip()} for n in names]}

    def sides(self, lang: str = "en") -> list[dict]:
        return [{"id": t.id, "name": self.card_name(t.king, lang),
                 "detail": ", ".join(self.card_name(m, lang) for m in t.monsters), "options": {"mode": t.mode}}
                for t in self.content.teams.values()]

    def setup_for_sides(self, sides: list[str | None]) -> Any:
        mode = self.options["mode"]
        if len(sides) != 2:
            raise SetupError(f"name a team preset for each of the 2 players, not {len(sides)}")
        for n, side in enumerate(sides, 1):
            team = self.content.teams.get(side) if side is not None else None
            if side is not None and (team is None or team.mode != mode):
                raise SetupError(f"player {n}: no {mode} team preset {side!r}; the {mode} presets: "
                                 f"{', '.join(t.id for t in self.content.teams.values() if t.mode == mode)}")
        return {"players": [{"preset": side or default} for side, default in zip(sides, DEFAULT_TEAMS[mode])]}

    def _teams(self, setup: Any) -> list[tuple[str, list[str], dict | None]]:
        mode = self.options["mode"]
        if setup is None:
            setup = {"players": [{"preset": t} for t in DEFAULT_TEAMS[mode]]}
        if not isinstance(setup, dict) or not isinstance(setup.get("players"), list) or len(setup["players"]) != 2:
            raise SetupError('a setup is {"players": [player 1, player 2]}, each a preset or a King and team')
        out = []
        zone_size = len(self.zones[0])
        for n, entry in enumerate(setup["players"], 1):
            if not isinstance(entry, dict):
                raise SetupError(f"player {n}: must be an object with 'preset' or 'king' and 'team'")
            unknown = set(entry) - {"preset", "king", "team", "placement"}
            if unknown:
                raise SetupError(f"player {n}: unknown field(s) {', '.join(sorted(unknown))}")
            if "preset" in entry:
                preset = self.content.teams.get(entry["preset"])
                if preset is None:
                    raise SetupError(f"player {n}: unknown team preset {entry['preset']!r}; presets: "
                                     f"{', '.join(self.content.teams)}")
                king, monsters = preset.king, list(preset.monsters)
            else:
                king, monsters = entry.get("king"), entry.get("team")
                if not isinstance(king, str) or not isinstance(monsters, list) or \
                        not all(isinstance(m, str) for m in monsters):
                    raise SetupError(f"player {n}: needs 'king' (a King id) and 'team' (a list of monster ids)")
            problem = team_problem(king, monsters, self.content.kings, self.content.monsters, mode, zone_size,
                                   self.options["enforce_team_rules"])
            if problem:
                raise SetupError(f"player {n}: {problem}")
            placement = entry.get("placement")
            if placement is None:
                placement = "random"
            elif placement not in ("random", "choose"):
                placement = self._placement(n - 1, monsters, placement)
            out.append((king, monsters, placement))
        return out

    def _placement(self, player: int, monsters: list[str], given: Any) -> dict[int, int]:
        """R9: a given placement, square -> "K" or team index, as square -> piece number (0 the King, 1 + i team
        monster i); it must place every piece."""
        if not isinstance(given, dict):
            raise SetupError(f"player {player + 1}: 'placement' must be \"random\", \"choose\" or a map of "
                             "squares to \"K\" or team indexes")
        zone = self.zones[player]
        pieces = ["K", *range(len(monsters))]
        placed: dict[int, Any] = {}
        for text, piece in given.items():
            sq = self.board.parse(text) if isinstance(text, str) else None
            if sq is None or sq not in zone:
                raise SetupError(f"player {player + 1}: placement square {text!r} is not in your start zone")
            if piece not in pieces or piece in placed.values() or isinstance(piece, bool):
                raise SetupError(f"player {player + 1}: placement of {text!r} must be \"K\" or an unplaced team "
                                 f"index 0..{len(monsters) - 1}, got {piece!r}")
            placed[sq] = piece
        missing = [p for p in pieces if p not in placed.values()]
        if missing:
            raise SetupError(f"player {player + 1}: the placement leaves out {', '.join(map(str, missing))} "
                             "(it must place the King and every team monster)")
        return {sq: 0 if piece == "K" else piece + 1 for sq, piece in placed.items()}

    # --- notation (§5) and the action space -------------------------------------------------------------
    def format_action(self, action: tuple) -> str:
        kind, name = action[0], self.board.name
        if kind == END:
            return "end"
        if kind == PLACE:
            return f"{action[1] or 'K'}@{name(action[2])}"
        if kind == PLACE_REST:
            return "random"
        if kind == SUMMON:
            return f"S {name(action[1])}"
        if kind == RECOVER:
            return f"R {name(action[1])}"
        if kind == MOVE:
            return f"{name(action[1])}-{name(action[2])}"
        if kind == ATTACK:
            return f"{name(action[1])}x{name(action[2])}"
        return f"{name(action[1])}!{action[2]}@{name(action[3])}"

    def board_steps(self, state: CapsuleState, actions: list[tuple]) -> list[list[str]]:
        """A piece (its square, or `#K` / `#n` for one still in the tray), then its target square; an ability
        that shares both squares with another action adds `!name`; a summon or recovery clicks the Capsule's
        square; `random` and `end` are turn controls."""
        name = self.board.name
        squares = Counter((a[1], a[-1]) for a in actions if a[0] in (MOVE, ATTACK, ABILITY))
        steps = []
        for a in actions:
            kind = a[0]
            if kind in (SUMMON, RECOVER):
                steps.append([name(a[1])])
            elif kind == PLACE:
                steps.append([f"#{a[1] or 'K'}", name(a[2])])
            elif kind in (MOVE, ATTACK):
                steps.append([name(a[1]), name(a[2])])
            elif kind == ABILITY:
                shared = squares[a[1], a[3]] > 1
                steps.append([name(a[1]), name(a[3]), *([f"!{a[2]}"] if shared else [])])
            else:
                steps.append([])
        return steps

    def action_texts(self, state: CapsuleState, actions: list[tuple], lang: str = "en") -> list[str]:
        """"Summon Clay Brute on d1", "Clay Brute on c3 attacks the capsule on c5": from the mover's observation."""
        return action_texts(self, state.observation(state.current_player), actions, lang)

    def action_kinds(self, state: CapsuleState, actions: list[tuple]) -> list[str]:
        """`move`, `attack`, `ability`, `summon`, `recover`, `place`, `random` or `end`: the board draws a dot for a
        move or a placement, a ring for an attack or an ability."""
        return [ACTION_KINDS[a[0]] for a in actions]

    def board_marks(self, event: dict, viewer: int | None) -> list[str]:
        """The squares a piece left or reached, attacked or was hurt, stunned, healed, scouted or roused on; `king1`
        (`king2`) for Player 1's (2's) King hurt by the loss of one of its monsters (R25)."""
        if event["type"] == "king_damage":
            return [f"king{event['player'] + 1}"]
        return [event[key] for key in ("from", "to", "sq") if key in event]

    def _parse_action_text(self, state: CapsuleState, text: str) -> tuple | None:
        compact = "".join(text.split()).lower()
        if compact == "end":
            return END_ACTION
        if compact == "random":
            return PLACE_REST_ACTION
        for pattern, kind in _PATTERNS:
            m = pattern.match(compact)
            if not m:
                continue
            groups = m.groups()
            if kind == PLACE:
                sq = self.board.parse(groups[1])
                return None if sq is None else (PLACE, 0 if groups[0] == "k" else int(groups[0]), sq)
            squares = [self.board.parse(g) for g in (groups[0], groups[-1])]
            if None in squares:
                return None
            if kind in (SUMMON, RECOVER):
                return (kind, squares[0])
            if kind == ABILITY:
                return (ABILITY, squares[0], groups[1], squares[1])
            return (kind, squares[0], squares[1])
        return None

    @property
    def num_distinct_actions(self) -> int:
        n = self.board.size
        return 1 + 2 * n + 2 * n * n + len(ACTIVATED) * n * n + len(self.zones[0]) * n + 1

    def action_index(self, action: tuple) -> int:
        """end 0; summon 1+sq; recover 1+N+sq; move, attack, then abilities (heal, scout, rouse) by square pairs;
        then place by (piece number, square), and last `random`."""
        n = self.board.size
        kind = action[0]
        if kind == END:
            return 0
        if kind in (PLACE, PLACE_REST):
            base = 1 + 2 * n + 2 * n * n + len(ACTIVATED) * n * n
            return base + (action[1] * n + action[2] if kind == PLACE else len(self.zones[0]) * n)
        if kind == SUMMON:
            return 1 + action[1]
        if kind == RECOVER:
            return 1 + n + action[1]
        if kind == MOVE:
            return 1 + 2 * n + action[1] * n + action[2]
        if kind == ATTACK:
            return 1 + 2 * n + n * n + action[1] * n + action[2]
        k = ACTIVATED.index(action[2])
        return 1 + 2 * n + 2 * n * n + (action[1] * len(ACTIVATED) + k) * n + action[3]

    # --- text ------------------------------------------------------------------------------------------
    def card_name(self, card_id: str, lang: str) -> str:
        return self.content.card(card_id).name(lang)

    def render_value(self, key: str, value: Any, lang: str) -> str:
        from coliseo.core.i18n import player_name

        if key in ("card", "piece", "target"):
            return self.card_name(value, lang)
        if key in ("player", "winner"):
            return player_name(value, lang)
        if key == "reason":
            return TURN_END_REASONS[value][lang] if value in TURN_END_REASONS else reason_words(self, value, lang)
        if key == "scores":
            return "–".join(map(str, value))
        return str(value)

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        return render_text(self, observation, lang, legal)

    def content_sources(self) -> list:
        return self.content.sources

    def card_rows(self, lang: str = "en") -> list[dict]:
        rows = []
        for card in [*self.content.kings.values(), *self.content.monsters.values()]:
            line = card.move
            row = {"id": card.id, "name": card.name(lang), "kind": card.kind, "faction": card.faction}
            if card.kind == "king":
                row.update(mp="/".join(map(str, card.monster_points)), ap="/".join(map(str, card.action_points)))
            else:
                a = card.attack
                row.update(level=card.level, cost=card.cost, hp=card.hp,
                           attack=f"{a.cost}/{a.range}/{a.pattern}/{a.damage}")
            row["move"] = f"{line.cost}/{line.range}/{line.pattern}"
            row["abilities"] = ", ".join(_ability_text(a) for a in card.abilities)
            rows.append(row)
        return rows


def _ability_text(ability) -> str:
    extra = {"armor": f" {ability.n}", "bane": f" {ability.faction}" + (f" {ability.n}" if ability.n > 1 else ""),
             "heal": f" c{ability.cost} a{ability.amount}", "scout": f" c{ability.cost} r{ability.range}",
             "rouse": f" c{ability.cost}"}
    return ability.id + extra.get(ability.id, "")


GAME = CapsuleGame
__all__ = ["CapsuleGame", "GAME"]
