"""A game in progress with its history: undo for people, records, replay and verification.

A record (`coliseo-record/1`) holds the game id, options, setup, the actions in notation, the
result and the engine version. The seed stays sealed behind a SHA-256 commitment until the game
ends, so either player can check afterwards that no shuffle or roll was tampered with.
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
from .registry import load_game

RECORD_FORMAT = "coliseo-record/1"


def engine_version() -> str:
    from coliseo import __version__

    return __version__


def seed_commitment(seed: int, salt: str, setup: Any = None) -> str:
    """SHA-256 of the salted seed and setup; the salt keeps a small seed from being guessed.

    The setup is sealed with the seed because it can name hidden things (a team in capsules, a deck).
    """
    sealed = json.dumps(setup, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"coliseo-seed:{salt}:{seed}:{sealed}".encode()).hexdigest()


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
        self.steps: list[Step] = []

    # --- playing -------------------------------------------------------------------------------
    def play(self, action) -> list[dict]:
        """Apply a legal action for the current player and remember it."""
        state = self.state
        player, turn, rng_before = state.current_player, state.turn, state.rng.state
        events = state.apply(action)
        barrier = state.rng.state != rng_before or any(
            e["type"] in self.game.revealing_events for e in events)
        self.steps.append(Step(action, player, turn, barrier, events))
        return events

    def play_text(self, text: str) -> list[dict]:
        return self.play(self.game.parse_action(self.state, text))

    def can_undo(self, player: int) -> bool:
        """Only your own last action, within your own turn, never past a reveal or a random event."""
        if not self.steps or self.state.is_over:
            return False
        last = self.steps[-1]
        return (last.player == player == self.state.current_player and last.turn == self.state.turn
                and not last.barrier)

    def undo(self, player: int) -> None:
        if not self.can_undo(player):
            raise IllegalAction("nothing to undo: only your own last action in your current turn can be "
                                "taken back, and never one that revealed something or drew on chance")
        kept = self.steps[:-1]
        self.state = self.game.new_state(self.seed, self.setup)
        self.steps = []
        for step in kept:
            self.play(step.action)

    def events_for(self, viewer: int | None) -> list[dict]:
        """Every event so far, as `viewer` may read it."""
        return [e for step in self.steps for e in view_events(step.events, viewer)]

    # --- records -------------------------------------------------------------------------------
    def record(self, *, reveal_seed: bool | None = None) -> dict:
        """The record; the seed and setup are revealed only when the game is over (or asked, for a save)."""
        reveal = self.state.is_over if reveal_seed is None else reveal_seed
        return {
            "format": RECORD_FORMAT,
            "engine": engine_version(),
            "game": self.game.id,
            "options": dict(self.game.options),
            "setup": self.setup if reveal else None,
            "players": self.players,
            "created": self.created,
            "seed_commitment": seed_commitment(self.seed, self.salt, self.setup),
            "seed": self.seed if reveal else None,
            "salt": self.salt if reveal else None,
            "actions": [self.game.format_action(s.action) for s in self.steps],
            "result": self.state.result,
        }


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


def replay(doc: dict) -> Match:
    """Re-run a record whose seed is revealed; RecordError at the first action that does not replay."""
    check_record(doc)
    if doc.get("seed") is None:
        raise RecordError("the record's seed is still sealed (the game was not over when it was written); "
                          "it can be replayed once the seed is revealed")
    if seed_commitment(doc["seed"], doc["salt"], doc.get("setup")) != doc["seed_commitment"]:
        raise RecordError("the revealed seed and setup do not match the seed commitment: "
                          "the record was tampered with")
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


def verify(doc: dict) -> Match:
    """Replay and check that the replay reaches the recorded result."""
    match = replay(doc)
    if match.state.result != doc.get("result"):
        raise RecordError(f"the replay ends with {match.state.result!r}, the record says {doc.get('result')!r}")
    return match
