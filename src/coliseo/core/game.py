"""The Game/State contract every game implements (docs/engine.md, "The contract").

A game subclasses `Game` and `State`. The base classes hold what is the same for every game:
option handling, the legality check before `apply`, the cached legal actions, the action mask,
notation parsing with errors that list what is legal, determinization's reseeding, and the
common parts of a position document.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_left
from collections.abc import Hashable
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

from .content import file_stamps
from .errors import IllegalAction, InvalidNotation, PositionError, SetupError
from .i18n import joined, refusal, refused, render_event
from .options import Option, resolve_options
from .position import Doc
from .rng import Rng

Action = Hashable
POSITION_FORMAT = "coliseo-position/1"


NOTATION_ERRORS = {
    "en": {"unknown": "{text!r} is not an action of {game}; legal now: {legal}",
           "illegal": "{text!r} is not legal: {reason}", "legal": "Legal now: {legal}",
           "none": "none (the game is over)"},
    "es": {"unknown": "{text!r} no es una acción de {game}; legales ahora: {legal}",
           "illegal": "{text!r} no es legal: {reason}", "legal": "Legales ahora: {legal}",
           "none": "ninguna (la partida ha terminado)"},
}


class Game:
    """One game with its options and loaded content. Immutable once built."""

    id: ClassVar[str]
    names: ClassVar[dict[str, str]]            # {"en": ..., "es": ...}
    score_names: ClassVar[dict[str, str]] = {"en": "Scores", "es": "Puntuación"}   # what a result's scores count
    side_word: ClassVar[dict[str, str]] = {}   # what a side is (see sides): {"en": "Team", "es": "Equipo"}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_schema: ClassVar[list[Option]] = []
    event_text: ClassVar[dict[str, dict[str, str | list[str]]]] = {}
    # Why an action is refused: {key: (English, Spanish)} for State.why_illegal (see i18n.refusal).
    refusals: ClassVar[dict[str, tuple[str, str]]] = {}
    # What each kind of action offers the player to move, for `prompt`: {kind: (English, Spanish)}, in reading order;
    # kinds that share words are named once.
    action_words: ClassVar[dict[Hashable, tuple[str, str]]] = {}
    # Why the rules end a game (core/reasons.py): the codes of the shared vocabulary they use, the ends only this game
    # has with their words {code: {"en", "es"}}, and this game's older codes {old: today's}, which records may hold.
    shared_reasons: ClassVar[tuple[str, ...]] = ()
    own_reasons: ClassVar[dict[str, dict[str, str]]] = {}
    old_reasons: ClassVar[dict[str, str]] = {}
    # Event types after which a person may not undo: they reveal hidden information.
    revealing_events: ClassVar[frozenset[str]] = frozenset()
    # The game's view.py, which reads the rules' state for a player: `observe(state, player)`,
    # `resample_hidden(state, player, rng)`, `position_doc(state)` and `load_position(game, doc)`. A state reaches
    # it through its game, so the rules never import their view.
    view: ClassVar[ModuleType]

    def __init__(self, **options: Any):
        self.options = resolve_options(self.options_schema, options)

    # --- to implement -------------------------------------------------------------------------
    def new_state(self, seed: int, setup: Any = None) -> State:
        raise NotImplementedError

    def format_action(self, action: Action) -> str:
        raise NotImplementedError

    def board_steps(self, state: State, actions: list[Action]) -> list[list[str]]:
        """What a person clicks on the game's board to build each of `actions` (the legal ones of `state`), in
        order: the ids its board draws as `data-target`; [] for an action chosen among the turn controls. The
        browser only matches clicks against these (docs/web.md, "The board contract"). By default the
        notation's words, which the generic board offers one after another."""
        return [self.format_action(a).split() for a in actions]

    def action_texts(self, state: State, actions: list[Action], lang: str = "en") -> list[str]:
        """Each of `actions` (the legal ones of `state`) in words for the seat to move, in `lang` ("Summon Clay
        Brute on d1"): what the table's buttons and action list say. Built only from what that seat may know (its
        own observation); by default the notation."""
        return [self.format_action(a) for a in actions]

    def action_kinds(self, state: State, actions: list[Action]) -> list[str]:
        """What each of `actions` is, as a word the board may draw it by (Capsule: a dot for `move`, a ring for
        `attack`); by default the key `action_kind` gives it for the prompt."""
        return [str(self.action_kind(state, a)) for a in actions]

    def board_marks(self, event: dict, viewer: int | None) -> list[str]:
        """The ids its board draws (as for `board_steps`) of what `event`, as `viewer` reads it, moved, placed,
        attacked, damaged or played: the table marks them after the opponent's turn (docs/web.md, "The board
        contract"). By default the event's short strings, which the generic board's words may match."""
        return short_strings(event)

    def _parse_action_text(self, state: State, text: str) -> Action | None:
        """The action the text denotes (legal or not), or None if the text is not notation."""
        raise NotImplementedError

    @property
    def num_distinct_actions(self) -> int:
        raise NotImplementedError

    def action_index(self, action: Action) -> int:
        raise NotImplementedError

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        """A plain-text picture of a player's observation for the terminal (legal actions optional)."""
        raise NotImplementedError

    def card_rows(self, lang: str = "en") -> list[dict]:
        """The loaded content as flat rows (id, name, stats) for `coliseo cards`."""
        raise NotImplementedError

    def rules_text(self, lang: str = "en") -> str:
        """The player's guide shipped in the game package (`rules.<lang>.md`, else `rules.en.md`)."""
        from importlib import resources

        package = resources.files(f"coliseo.games.{self.id}")
        for name in (f"rules.{lang}.md", "rules.en.md"):
            if package.joinpath(name).is_file():
                return package.joinpath(name).read_text(encoding="utf-8")
        raise NotImplementedError

    def setup_for(self, **choices: Any) -> Any:
        """A setup from simple command-line choices (e.g. duelist="..."); None = the default setup."""
        if choices:
            raise SetupError(f"{self.name()} takes no setup choices such as {', '.join(choices)}")
        return None

    def sides(self, lang: str = "en") -> list[dict]:
        """What a seat may pick to play with from the shipped content (Capsule's team presets, the duel's
        starter decks; `side_word` names them), each {"id", "name", "detail", "options"}: `options` are the
        option values under which it can be picked."""
        return []

    def option_value_words(self, name: str, lang: str = "en") -> dict | None:
        """Option `name`'s values in words where the values are codes of the content (Forbidden's terrains and CPU
        duelists by number), for a form to offer them by name; None where the values say what they are."""
        return None

    def inert_options(self) -> set[str]:
        """Options that cannot change anything with this game's content (Forbidden's `cpu_privileged` where no
        CPU duelist of the pack sees face-down cards): a form leaves them out."""
        return set()

    def setup_for_sides(self, sides: list[str | None]) -> Any:
        """The setup in which seat p plays sides[p] (None: its default side); a side it cannot pick is a
        SetupError."""
        if any(side is not None for side in sides):
            raise SetupError(f"{self.name()} has no sides to pick; leave them out")
        return None

    def setup_for_people(self, setup: Any, people: set[int]) -> Any:
        """The setup with the seats in `people` (played by a person) making the choices a person makes at the
        table and an agent's seat leaves to the seed (Capsule's placement, R9); by default the setup as it is."""
        return setup

    def content_sources(self) -> list[Path]:
        """The files (or pack folders) this game's content was read from, bundled and user packs alike."""
        return []

    @classmethod
    def content_key(cls, options: dict[str, Any]) -> Hashable:
        """The user content the (resolved) options name, as it stands now: `load_game` shares one game per game,
        options and content key, and builds it again once a pack file changes. The packs are the option `packs`."""
        return file_stamps(options.get("packs", ()))

    def render_value(self, key: str, value: Any, lang: str) -> str:
        """How one event field reads in text (card ids become names, squares become notation)."""
        return str(value)

    # --- shared -------------------------------------------------------------------------------
    def name(self, lang: str = "en") -> str:
        return self.names.get(lang, self.names["en"])

    def score_name(self, lang: str = "en") -> str:
        return self.score_names.get(lang, self.score_names["en"])

    def result_detail(self, observation: dict, lang: str = "en") -> str | None:
        """What decided a finished game where its scores alone do not tell (a tie broken by another count), in
        words, from the public part of an observation; None where the scores tell."""
        return None

    def prompt(self, state: State, lang: str = "en") -> str | None:
        """What the player to move may do now, in words: the kinds of their legal actions as `action_words` names
        them, e.g. "summon a monster, move or end the turn"; None when there is nothing to do."""
        kinds = {self.action_kind(state, a) for a in state.legal_actions()}
        phrases = dict.fromkeys(es if lang == "es" else en for kind, (en, es) in self.action_words.items()
                                if kind in kinds)
        return joined(list(phrases), "or", lang) or None

    def action_kind(self, state: State, action: Action) -> Hashable:
        """The key of `action_words` for `action`; its first element, unless a game's phase says more."""
        return action[0]

    def content_digest(self) -> str:
        """SHA-256 of the content files' bytes, in load order: equal digests, the same cards and stats."""
        digest = hashlib.sha256()
        for source in map(Path, self.content_sources()):
            for path in sorted(source.rglob("*")) if source.is_dir() else [source]:
                if path.is_file():
                    digest.update(path.read_bytes())
        return digest.hexdigest()

    def parse_action(self, state: State, text: str, lang: str = "en") -> Action:
        """The legal action written as `text`; InvalidNotation (listing the legal ones) otherwise."""
        legal = state.legal_actions()
        action = self._parse_action_text(state, text)
        if action is not None and action in legal:
            return action
        words = NOTATION_ERRORS[lang]
        listing = self.legal_listing(state, legal, lang)
        if action is None:
            reason = self.notation_problem(state, text, lang)
            if reason is None:
                raise InvalidNotation(words["unknown"].format(text=text.strip(), game=self.name(lang), legal=listing))
        else:
            try:
                reason = self.illegal_reason(state, action, lang)
            except Exception:  # noqa: BLE001 - an explanation must never hide the real error
                reason = refusal(self, "not_now", lang)
        raise InvalidNotation(words["illegal"].format(text=text.strip(), reason=reason) + ". "
                              + words["legal"].format(legal=listing))

    def legal_listing(self, state: State, legal: list[Action], lang: str = "en") -> str:
        """The legal actions as a notation error lists them: all of them by default."""
        return ", ".join(self.format_action(a) for a in legal) or NOTATION_ERRORS[lang]["none"]

    def notation_problem(self, state: State, text: str, lang: str = "en") -> str | None:
        """What is wrong with `text`, which denotes no action, where the game can say more than that it is not an
        action (a hand position that does not exist); None by default."""
        return None

    def illegal_reason(self, state: State, action: Action, lang: str = "en") -> str:
        """Why `action` is refused, in `lang`."""
        return state.why_illegal(action, lang)

    def render(self, event: dict, lang: str = "en") -> str:
        return render_event(self, event, lang)

    def state_from_json(self, doc: dict) -> State:
        """The state a position document describes; PositionError names the first field that is wrong."""
        self.check_position_header(doc)
        return self.view.load_position(self, doc)

    def position_header(self, state: State) -> dict:
        return {"format": POSITION_FORMAT, "game": self.id, "options": dict(self.options),
                "rng": state.rng.state}

    def check_position_header(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            raise PositionError("a position must be a JSON object")
        if doc.get("format") != POSITION_FORMAT:
            raise PositionError(f"field 'format' must be {POSITION_FORMAT!r}, got {doc.get('format')!r}")
        if doc.get("game") != self.id:
            raise PositionError(f"field 'game' must be {self.id!r}, got {doc.get('game')!r}")
        if doc.get("options") != self.options:
            raise PositionError("field 'options' does not match this game's options; load the game with "
                                f"the position's options: {doc.get('options')!r}")
        Doc(doc).int("rng", 0)


def short_strings(value: Any) -> list[str]:
    """The short strings inside an event (squares, zones, card ids), its type left out."""
    if isinstance(value, str):
        return [value] if len(value) <= 12 else []
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != "type" for s in short_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in short_strings(v)]
    return []


def in_sorted(legal: list, action: Action, order) -> bool:
    """Whether `action` is in `legal`, a list in ascending `order(a)` with no two alike, by bisection instead of
    a scan. Only for an action of the exact types the list holds, so that `order` agrees with equality."""
    i = bisect_left(legal, order(action), key=order)
    return i < len(legal) and legal[i] == action


class State:
    """A position. Subclasses keep their data in `__slots__` and implement the `_`-methods."""

    # `_legal` is the legal list derived from the position, the one cache the core keeps: None when a state is made,
    # shared by a clone, dropped by apply and by determinize (see there).
    __slots__ = ("game", "rng", "_legal")
    # A game whose lists are long sets a method `_is_legal(action)` that tells faster than a scan whether the
    # action is in legal_actions() (see `in_sorted`); without one, apply scans (one call fewer per step).
    _is_legal = None

    game: Game
    rng: Rng

    # --- to implement -------------------------------------------------------------------------
    @property
    def players(self) -> tuple[int, ...]:
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def result(self) -> dict | None:
        raise NotImplementedError

    @property
    def turn(self) -> int:
        raise NotImplementedError

    @property
    def first_turn_player(self) -> int | None:
        """Asked of a new game: the player who takes the first turn (after any setup such as a draft)."""
        return self.current_player

    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> list[dict]:
        """Apply a legal action (already checked) and return its events."""
        raise NotImplementedError

    def why_illegal(self, action: Action, lang: str = "en") -> str:
        """Why an action is not legal here, in the mover's words (naming only what the mover may know)."""
        return refusal(self.game, "not_now", lang)

    def observation(self, player: int | None) -> dict:
        """Only what `player` may know (None = a spectator), JSON-safe; from the game's view.py (`Game.view`)."""
        return self.game.view.observe(self, player)

    def _resample_hidden(self, player: int, rng: random.Random) -> None:
        """Replace, in place, what `player` cannot know with values consistent with their view."""
        self.game.view.resample_hidden(self, player, rng)

    def clone(self) -> State:
        raise NotImplementedError

    def to_json(self) -> dict:
        """The position document that `game.state_from_json` reads back; from the game's view.py."""
        return self.game.view.position_doc(self)

    # --- shared -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a stable order; empty when the game is over."""
        if self._legal is None:
            self._legal = [] if self.result is not None else self._legal_actions()
        return self._legal

    def apply(self, action: Action) -> list[dict]:
        """Play a legal action and return its events; IllegalAction leaves the state untouched."""
        if self.result is not None:
            raise refused(self.game, "over")
        is_legal = self._is_legal
        if not (action in self.legal_actions() if is_legal is None else is_legal(action)):
            raise IllegalAction(self.why_illegal(action))
        self._legal = None
        return self._apply(action)

    def legal_action_mask(self) -> list[int]:
        mask = [0] * self.game.num_distinct_actions
        for action in self.legal_actions():
            mask[self.game.action_index(action)] = 1
        return mask

    def determinize(self, player: int, rng: random.Random) -> State:
        """A state `player` cannot tell from this one: hidden information and future chance resampled."""
        other = self.clone()
        other.rng = Rng(rng.getrandbits(64))
        other._resample_hidden(player, rng)
        # The derived cache is the core's, so no game can forget it: what was derived from the real hidden parts is
        # dropped, except the legal list when the mover determinizes. What the mover may do is theirs to know, so
        # hidden parts cannot change it (at a DDM placing step deriving it is most of a search iteration's cost);
        # another player's world may give the mover other cards, hence other actions.
        other._legal = self._legal if player == self.current_player else None
        return other

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} turn {self.turn} player {self.current_player}>"
