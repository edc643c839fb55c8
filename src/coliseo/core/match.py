"""A game in progress with its history: undo for people, records, replay and verification.

A record (`coliseo-record/1`) holds the game id, options, setup, the actions in notation, the
result and the engine version. The seed stays sealed behind a SHA-256 commitment to the seed, salt,
options and setup, made when the game is created and shown from the first move; the seed, salt and
setup are revealed when the game ends, so either player can check afterwards that nothing that
decided the game was changed.

Besides the game's own actions the history holds the table's commands, written `!name player`:
`!resign 0`, `!offer-draw 1`, `!accept-draw 0`, `!decline-draw 0` and `!abandon`. They are steps
like any other, so a resigned, agreed or abandoned result replays and verifies from the record.
In a game of three or more a resigning player does not end it: their seat plays on, handed to an
agent (`resigned` lists them), and the game's own result stands.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import ColiseoError, IllegalAction, RecordError
from .events import view_events
from .i18n import refused
from .reasons import canonical_result
from .registry import load_game

RECORD_FORMAT = "coliseo-record/1"


def engine_version() -> str:
    from coliseo import __version__

    return __version__


COMMITMENT_SCHEME = 2          # the record's `commitment_scheme`; a record without one is of scheme 1
COMMITTED = ("seed", "options", "setup")


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def commitment_parts(seed: int, salt: str, *, options: dict, setup: Any) -> dict[str, str]:
    """Each committed part's SHA-256, salted: the salt keeps a small seed, or a setup from a short list, from being
    guessed from its digest. The setup is committed because it can name hidden things (a team in capsules, a deck)."""
    values = {"seed": seed, "options": options, "setup": setup}
    return {part: _digest({"salt": salt, "part": part, "value": values[part]}) for part in COMMITTED}


def seed_commitment(seed: int, salt: str, *, options: dict, setup: Any) -> str:
    """The game's commitment: SHA-256 of the canonical JSON of the scheme and its parts' digests (`commitment_parts`).

    The one formula: computed when a game is created, shown at the table, kept in the record, checked by `verify`."""
    return _digest({"scheme": COMMITMENT_SCHEME, "parts": commitment_parts(seed, salt, options=options, setup=setup)})


def scheme_1_commitment(seed: int, salt: str, setup: Any) -> str:
    """The commitment of records written before `commitment_scheme` (seed, salt and setup; not the options)."""
    sealed = json.dumps(setup, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"coliseo-seed:{salt}:{seed}:{sealed}".encode()).hexdigest()


COMMANDS = ("resign", "offer-draw", "accept-draw", "decline-draw", "abandon")


@dataclass(frozen=True)
class Command:
    """A table command (not a game action): resign, the draw offers, abandonment."""

    name: str
    player: int | None = None            # None for `abandon`, which the table decides, not a player

    def __str__(self) -> str:
        return f"!{self.name}" if self.player is None else f"!{self.name} {self.player}"


def parse_command(text: str) -> Command | None:
    """The command a text names; None for a game action (text not starting with '!')."""
    if not text.startswith("!"):
        return None
    name, _, who = text[1:].strip().partition(" ")
    if name not in COMMANDS:
        raise IllegalAction(f"{text!r} is not a command; commands are {', '.join('!' + c for c in COMMANDS)}")
    if name == "abandon":
        if who:
            raise IllegalAction("'!abandon' names no player")
        return Command(name)
    if not who.isdigit():
        raise IllegalAction(f"{text!r}: write the player after the command, e.g. '!{name} 0'")
    return Command(name, int(who))


@dataclass(frozen=True)
class Step:
    """One action in the history, with what undo needs to know about it."""

    action: Any
    player: int
    turn: int
    barrier: bool            # revealed hidden information or drew on chance: no undo past it
    events: list


class Match:
    """A state plus its history. The only place that holds the seed of a live game."""

    def __init__(self, game, seed: int, setup: Any = None, *, salt: str | None = None,
                 players: list[str] | None = None, created: str | None = None):
        self.game = game
        self.seed = seed
        self.setup = setup
        self.salt = salt or secrets.token_hex(16)
        self.players = players
        self.created = created or datetime.now(UTC).isoformat(timespec="seconds")
        self.state = game.new_state(seed, setup)
        self.commitment = seed_commitment(seed, self.salt, options=dict(game.options), setup=setup)
        self.steps: list[Step] = []
        self.ended: dict | None = None       # a result decided by a command, not by the game
        self.draw_offer: int | None = None   # the player whose draw offer stands
        self.resigned: set[int] = set()      # in games of 3+, players who resigned and whose seat plays on

    # --- where the game is ------------------------------------------------------------------------
    @property
    def result(self) -> dict | None:
        return self.ended or self.state.result

    @property
    def resigner(self) -> int | None:
        """The player whose resignation ended the game (its last step), else None."""
        return self.steps[-1].player if self.ended and self.ended["reason"] == "resigned" else None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_player(self) -> int | None:
        return None if self.ended else self.state.current_player

    # --- playing -------------------------------------------------------------------------------
    def play(self, action) -> list[dict]:
        """Apply a legal action (or a table Command) for the current player and remember it."""
        if isinstance(action, Command):
            return self.command(action)
        if self.ended:
            raise refused(self.game, "over")
        state = self.state
        player, turn, rng_before = state.current_player, state.turn, state.rng.state
        events = state.apply(action)
        barrier = state.rng.state != rng_before or any(
            e["type"] in self.game.revealing_events for e in events)
        if self.draw_offer == player:         # an offer lapses at the offerer's next action
            self.draw_offer = None
            events = [*events, {"type": "draw_offer_lapsed", "player": player}]
        self.steps.append(Step(action, player, turn, barrier, events))
        return events

    def play_text(self, text: str) -> list[dict]:
        command = parse_command(text.strip())
        return self.play(command if command else self.game.parse_action(self.state, text))

    def format(self, action) -> str:
        """The text of an action or a command, as the record keeps it."""
        return str(action) if isinstance(action, Command) else self.game.format_action(action)

    def command(self, command: Command) -> list[dict]:
        """Resign, offer/accept/decline a draw, or abandon; IllegalAction says why not."""
        check_command(self, command)
        players, who = self.state.players, command.player
        if command.name == "resign":
            event = {"type": "resigned", "player": who}
            if len(players) - len(self.resigned) > 2:
                self.resigned.add(who)
            else:
                self.ended = {"winners": [p for p in players if p != who and p not in self.resigned],
                              "reason": "resigned", "scores": None}
        elif command.name == "offer-draw":
            self.draw_offer, event = who, {"type": "draw_offered", "player": who}
        elif command.name == "accept-draw":
            self.ended, event = {"winners": [], "reason": "draw_agreed", "scores": None}, \
                {"type": "draw_agreed", "player": who}
        elif command.name == "decline-draw":
            self.draw_offer, event = None, {"type": "draw_declined", "player": who}
        else:
            self.ended, event = {"winners": [], "reason": "abandoned", "scores": None}, \
                {"type": "abandoned"}
        if self.ended:
            self.draw_offer = None
        # A barrier: a command is never taken back by undo.
        self.steps.append(Step(command, who, self.state.turn, True, [event]))
        return [event]

    def can_undo(self, player: int) -> bool:
        """Only your own last action, within your own turn, never past a reveal or a random event."""
        if not self.steps or self.is_over:
            return False
        last = self.steps[-1]
        return (last.player == player == self.state.current_player and last.turn == self.state.turn
                and not last.barrier)

    def settled(self) -> int:
        """How many of the first steps no undo can ever take back. Undos take back, one by one, the last step if it
        is the mover's own in the same turn and no barrier; so consecutive ones share a player and a turn, and only
        the run of non-barrier steps at the end by the last step's player in its turn may go."""
        n = len(self.steps)
        while n and not self.steps[n - 1].barrier and (self.steps[n - 1].player, self.steps[n - 1].turn) == (
                self.steps[-1].player, self.steps[-1].turn):
            n -= 1
        return n

    def undo(self, player: int) -> None:
        if not self.can_undo(player):
            raise nothing_to_undo()
        kept = self.steps[:-1]
        self.state = self.game.new_state(self.seed, self.setup)
        self.steps, self.ended, self.draw_offer, self.resigned = [], None, None, set()
        for step in kept:
            self.play(step.action)

    def events_for(self, viewer: int | None) -> list[dict]:
        """Every event so far, as `viewer` may read it."""
        return [e for step in self.steps for e in view_events(step.events, viewer)]

    # --- records -------------------------------------------------------------------------------
    def record(self, *, reveal_seed: bool | None = None) -> dict:
        """The record; the seed and setup are revealed only when the game is over (or asked, for a save)."""
        reveal = self.is_over if reveal_seed is None else reveal_seed
        return {
            "format": RECORD_FORMAT,
            "engine": engine_version(),
            "game": self.game.id,
            "options": dict(self.game.options),
            "setup": self.setup if reveal else None,
            "players": self.players,
            "created": self.created,
            "seed_commitment": self.commitment,
            "commitment_scheme": COMMITMENT_SCHEME,
            "commitment_parts": commitment_parts(self.seed, self.salt, options=dict(self.game.options),
                                                 setup=self.setup),
            "seed": self.seed if reveal else None,
            "salt": self.salt if reveal else None,
            "actions": [self.format(s.action) for s in self.steps],
            "result": self.result,
        }


def nothing_to_undo() -> IllegalAction:
    return IllegalAction("nothing to undo: only your own last action in your current turn can be taken back, and "
                         "never one that revealed something or drew on chance",
                         es="no hay nada que deshacer: solo tu última acción de tu turno actual, y nunca una que "
                            "revelara algo o dependiera del azar")


def check_command(match: Match, command: Command) -> None:
    """Why a command cannot be played now (IllegalAction), in words; nothing when it can."""
    players, who, name = match.state.players, command.player, command.name
    if match.is_over:
        raise refused(match.game, "over")
    if name == "abandon":
        return
    if who not in players:
        raise IllegalAction(f"!{name}: there is no player {who} (players are 0..{len(players) - 1})")
    if who in match.resigned:
        raise IllegalAction("you have resigned; your seat is played by the AI",
                            es="te has rendido; la IA juega tu asiento")
    if name == "resign":
        return
    if len(players) != 2:
        raise IllegalAction("draw offers are for two-player games",
                            es="las ofertas de tablas son para partidas de dos jugadores")
    if name == "offer-draw" and match.draw_offer == who:
        raise IllegalAction("a draw offer already stands", es="ya hay una oferta de tablas")
    if name == "offer-draw" and match.draw_offer is not None:
        raise IllegalAction("your opponent has offered a draw: accept or decline it",
                            es="tu rival ha ofrecido tablas: acéptalas o recházalas")
    if name in ("accept-draw", "decline-draw") and match.draw_offer in (None, who):
        raise IllegalAction("there is no draw offer from your opponent to answer",
                            es="no hay ninguna oferta de tablas de tu rival que responder")


def save_record(record: dict, path: str | Path) -> None:
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(path)  # never a half-written record
    finally:
        tmp.unlink(missing_ok=True)


def read_record(path: str | Path) -> dict:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: not a JSON record: {e}") from None
    check_record(doc)
    return doc


_RECORD_FIELDS = {"format": str, "game": str, "options": dict, "seed_commitment": str, "actions": list}


def check_record(doc: Any) -> None:
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    for name, kind in _RECORD_FIELDS.items():
        if not isinstance(doc.get(name), kind):
            raise RecordError(f"record field {name!r} must be a {kind.__name__}, got {doc.get(name)!r}")
    if doc["format"] != RECORD_FORMAT:
        raise RecordError(f"record format {doc['format']!r} is not {RECORD_FORMAT!r}")
    if not all(isinstance(a, str) for a in doc["actions"]):
        raise RecordError("record field 'actions' must be a list of action texts")
    seed, salt = doc.get("seed"), doc.get("salt")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(salt, str)):
        raise RecordError("record fields 'seed' (an integer) and 'salt' (a string) go together")
    scheme, parts = doc.get("commitment_scheme", 1), doc.get("commitment_parts")
    if scheme not in (1, COMMITMENT_SCHEME) or isinstance(scheme, bool):
        raise RecordError(f"record field 'commitment_scheme' must be 1 or {COMMITMENT_SCHEME}, got {scheme!r}")
    if scheme == COMMITMENT_SCHEME and not (isinstance(parts, dict) and sorted(parts) == sorted(COMMITTED)
                                            and all(isinstance(v, str) for v in parts.values())):
        raise RecordError(f"record field 'commitment_parts' must hold the digests of {', '.join(COMMITTED)}")


def check_commitment(doc: dict) -> None:
    """The revealed seed, salt, options and setup make the record's seed commitment; RecordError names what does
    not. A record of scheme 1 (no `commitment_scheme`) committed the seed and setup only."""
    seed, salt, setup = doc["seed"], doc["salt"], doc.get("setup")
    if doc.get("commitment_scheme", 1) == 1:
        if scheme_1_commitment(seed, salt, setup) != doc["seed_commitment"]:
            raise RecordError("the revealed seed and setup do not match the seed commitment (scheme 1): "
                              "the record was tampered with")
        return
    parts = doc["commitment_parts"]
    if _digest({"scheme": COMMITMENT_SCHEME, "parts": parts}) != doc["seed_commitment"]:
        raise RecordError("the record's commitment parts do not make its seed commitment: "
                          "the record was tampered with")
    made = commitment_parts(seed, salt, options=doc["options"], setup=setup)
    wrong = [part for part in COMMITTED if made[part] != parts[part]]
    if wrong:
        raise RecordError(f"the seed commitment does not match the record's {_names(wrong)}"
                          f"{' (or its salt)' if len(wrong) == len(COMMITTED) else ''}: the record was tampered with")


def _names(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def replay(doc: dict) -> Match:
    """Re-run a record whose seed is revealed; RecordError at the first action that does not replay."""
    check_record(doc)
    if doc.get("seed") is None:
        raise RecordError("the record's seed is still sealed (the game was not over when it was written); "
                          "it can be replayed once the seed is revealed")
    check_commitment(doc)
    try:
        game = load_game(doc["game"], **doc["options"])
        match = Match(game, doc["seed"], doc.get("setup"), salt=doc["salt"], players=doc.get("players"),
                      created=doc.get("created"))
    except ColiseoError as e:
        raise RecordError(f"the record's game cannot be set up: {e}") from None
    for i, text in enumerate(doc["actions"], 1):
        try:
            match.play_text(text)
        except ColiseoError as e:
            raise RecordError(f"action {i} ({text!r}) does not replay: {e}") from None
    return match


def verify(doc: dict, shown: str | None = None) -> Match:
    """Replay and check that the replay reaches the recorded result; with `shown`, the commitment a player was shown
    during the game, also that it is the record's."""
    if shown is not None and shown.strip().lower() != doc.get("seed_commitment"):
        raise RecordError(f"the record's seed commitment {doc.get('seed_commitment')} is not the commitment you were "
                          f"shown ({shown.strip()}): this is not the game you played, or the record was remade")
    match = replay(doc)
    if not ends_as_recorded(match, doc):
        raise RecordError(f"the replay ends with {match.result!r}, the record says {doc.get('result')!r}")
    return match


def ends_as_recorded(match: Match, doc: dict) -> bool:
    """Whether the replay of `doc` ends with its recorded result; an older record may name the reason by an old code
    (core/reasons.py)."""
    return match.result == canonical_result(match.game, doc.get("result"))
