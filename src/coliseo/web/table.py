"""One live game of the web table (`Table`): its `Match`, its seats, its watchers, and what each reader is sent.

Everything a browser receives is built here by `Table.payload`, only from the seat's own
observation, the events as that seat may read them, and (for the seat to move) its legal actions.
Every accepted action is written to the store before anyone is told about it.

The store is the truth and a `Table` is this process's cache of one game: other processes may append
to the same game (a compare-and-set on (game, ply) decides), and say so on the bus; a table that hears
of a change reloads the new steps from the store. AI moves are computed by a `thinking` pool, under a
lease in the store so that exactly one process plays each of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from coliseo.core.errors import ColiseoError
from coliseo.core.events import view_events
from coliseo.core.i18n import player_name, result_words
from coliseo.core.match import Match
from coliseo.core.reasons import reason_words
from coliseo.core.registry import list_games, load_game
from coliseo.store import StoredGame

from .recent import recent_marks
from .thinking import Job

# Options a browser may not set: they name files on the server.
SERVER_ONLY_OPTIONS = frozenset({"packs", "pack", "bundled"})
HANDOVER_AGENT = "greedy"
LOG_TAIL = 300                 # events sent with each update
# Games drawn by a board module of their own (static/boards/<game>.js); the others get the generic board, the only
# one that shows the text picture.
OWN_BOARDS = frozenset(p.name.removesuffix(".js") for p in resources.files("coliseo.web").joinpath("static", "boards")
                       .iterdir() if p.name.endswith(".js")) & set(list_games())
log = logging.getLogger("coliseo.web")


class NotFound(LookupError):
    """No such game."""


class Forbidden(PermissionError):
    """A token that is not this seat's."""


class Conflict(RuntimeError):
    """The request is well formed but the game's state does not allow it (e.g. the record is sealed)."""


class MovedOn(ColiseoError):
    """A command chosen on an earlier (or later) position than the game's: refused, nothing changed."""

    def __init__(self, chosen: int | None, now: int, undone: bool = False):
        since, desde = (", and an action was taken back since", "; desde entonces se deshizo una acción") if undone \
            else ("", "")
        super().__init__(f"the game has moved on: that was chosen at ply {chosen}, the game is at ply {now}{since}",
                         es=f"la partida ha avanzado: eso se eligió en la jugada {chosen} y la partida va por la "
                            f"{now}{desde}")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(eq=False)
class Watcher:
    """One open WebSocket: a seat (or None for a spectator) and its language."""

    seat: int | None
    lang: str
    send: Any                              # async callable taking a dict


class Table:
    def __init__(self, game_id: str, stored: StoredGame, match: Match):
        self.id = game_id
        self.stored = stored
        self.match = match
        self.game = match.game
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.agents: dict[int, str] = {}       # AI seat -> its agent's name
        self.last_activity = time.monotonic()
        self.ai_task: asyncio.Task | None = None
        self.changed = asyncio.Event()         # set whenever a reload from the store changed something
        self.refreshing: asyncio.Task | None = None
        self.stale = False                     # a notice came while a reload was under way
        self.leased: int | None = None         # the AI move whose lease this process took with the last action
        self.unread_since: float | None = None  # when `Tables.let_go_unread` first found it unread and idle
        self._rendered: dict[tuple, list[tuple]] = {}
        self.shared_seats: set[int] = set()    # the seats read here, as the other processes were last told
        self.remote_seats: set[int] = set()    # the seats read through other processes
        self.commitment = match.commitment     # made once, when the game was created (a replay makes the same)
        self.seat_agents()

    def seat_agents(self) -> None:
        """The AI seats by agent name; in games of three or more a resigned player's seat plays on by the AI."""
        self.agents = {p: s["agent"] for p, s in enumerate(self.stored.seats) if s["kind"] == "ai"}
        for player in self.match.resigned - set(self.agents):
            self.agents[player] = HANDOVER_AGENT

    def sync(self, stored: StoredGame, *, rebuild: bool = False) -> bool:
        """Catch up with the store: play its new actions (or replay from the start after an undo)."""
        if not rebuild and (stored.seats, stored.actions, stored.access, stored.rematch, stored.undos) == (
                self.stored.seats, self.stored.actions, self.stored.access, self.stored.rematch, self.stored.undos):
            return False
        known = self.stored.actions
        if rebuild or stored.actions[:len(known)] != known:
            self.match = match_of(stored)
            self.game = self.match.game
        else:
            for text in stored.actions[len(known):]:
                self.match.play_text(text)
        self.stored = stored
        self.leased = None
        self.seat_agents()
        self.last_activity = time.monotonic()
        self.changed.set()
        return True

    def job(self, player: int) -> Job:
        s = self.stored
        return Job(key=s.id, game=s.game, options=s.options, seed=s.seed, setup=s.setup, salt=s.salt,
                   created=s.created, actions=tuple(s.actions), player=player, agent=self.agents[player],
                   agent_seed=secrets.randbits(32))

    # --- who is who --------------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat the token opens; None for no token (a spectator); Forbidden for a wrong token."""
        if token is None:
            return None
        digest = hash_token(token)
        for player, seat in enumerate(self.stored.seats):
            if seat.get("token_hash") and hmac.compare_digest(seat["token_hash"], digest):
                return player
        raise Forbidden("this seat token does not open any seat of this game")

    def seat_of_or_none(self, token: str) -> int | None:
        try:
            return self.seat_of(token)
        except Forbidden:
            return None

    # --- who may find, join and watch the game ------------------------------------------------------------
    def listed(self) -> bool:
        return self.stored.access is None or self.stored.access["listed"]

    def invited(self, invite: str | None) -> bool:
        rights = self.stored.access
        if rights is None:
            return True
        return (isinstance(invite, str) and len(invite) <= 100
                and hmac.compare_digest(rights["invite_hash"], hash_token(invite)))

    def may_watch(self, invite: str | None) -> bool:
        rights = self.stored.access
        return rights is None or not rights["spectators_need_invite"] or self.invited(invite)

    def ai_to_move(self) -> int | None:
        """The AI seat to move; a seat the AI plays for a person (idle, or resigned) waits while no person is at the
        table: the game never plays on by itself, outside the cap on games between AIs."""
        player = self.match.current_player
        if player not in self.agents:
            return None
        seat = self.stored.seats[player]
        if (seat["kind"] == "human" or seat.get("handed_over")) and not any(self.present()):
            return None
        return player

    def unread(self) -> bool:
        """Nobody reads it, no AI plays it and no request holds it now."""
        return not self.watchers and (self.ai_task is None or self.ai_task.done()) and not self.lock.locked()

    # --- what a seat sees ------------------------------------------------------------------------------
    def payload(self, seat: int | None, lang: str, present: list[bool] | None = None) -> dict:
        """The whole picture for one reader, from their observation and their view of the events (`present`: the
        seats' presence, when a broadcast has read it once for every reader)."""
        match, state, game = self.match, self.match.state, self.game
        log: list[dict] = []
        rendered = self.rendered_steps(seat, lang)
        for ply in range(len(rendered), 0, -1):   # the latest events; the whole game is in the replay
            log[:0] = rendered[ply - 1][1]
            if len(log) >= LOG_TAIL:
                break
        observation = state.observation(seat)
        to_move = seat is not None and seat == match.current_player and seat not in self.agents
        legal = state.legal_actions() if to_move else []
        resigner = None if match.resigner is None else player_name(match.resigner, lang)
        return {
            "type": "state",
            "id": self.id,
            "game": game.id,
            "board": board_of(game.id),
            "name": game.name(lang),
            "you": seat,
            "seats": self.public_seats(),
            "present": self.present() if present is None else present,
            "ply": len(match.steps),
            "undos": self.stored.undos,
            "turn": state.turn,
            "current_player": match.current_player,
            "result": match.result,
            "result_text": result_words(game, match.result, lang, match.resigner) if match.result else None,
            "reason_text": reason_words(game, match.result["reason"], lang, resigner) if match.result else None,
            "result_detail": game.result_detail(observation, lang) if match.result else None,
            "scores_name": game.score_name(lang) if match.result else None,
            "draw_offer": match.draw_offer,
            "listed": self.listed(),
            "watch_needs_invite": bool(self.stored.access and self.stored.access["spectators_need_invite"]),
            "resigned": sorted(match.resigned),
            "observation": observation,
            "picture": picture(game, observation, lang),
            "log": log,
            "marks": recent_marks(game, match.steps, seat),
            "legal": [game.format_action(a) for a in legal],
            "steps": game.board_steps(state, legal) if legal else [],
            "texts": game.action_texts(state, legal, lang) if legal else [],
            "kinds": game.action_kinds(state, legal) if legal else [],
            "hints": board_hints(game, observation) if to_move else None,
            "prompt": game.prompt(state, lang) if to_move else None,
            "can_undo": seat is not None and seat not in self.agents and match.can_undo(seat),
            "seed_commitment": self.commitment,
            "rematch": self.stored.rematch and self.stored.rematch["id"],
        }

    def rendered_steps(self, seat: int | None, lang: str) -> list[tuple]:
        """(step, its events as `seat` reads them in `lang`) for every step, rendered once per reader."""
        cache = self._rendered.setdefault((seat, lang), [])
        steps = self.match.steps
        kept = min(len(cache), len(steps))
        while kept and cache[kept - 1][0] is not steps[kept - 1]:   # an undo (a replay) made new steps
            kept -= 1
        del cache[kept:]
        for ply in range(kept + 1, len(steps) + 1):
            events = view_events(steps[ply - 1].events, seat)
            cache.append((steps[ply - 1], [{"ply": ply, "text": render(self.game, e, lang)} for e in events]))
        return cache

    def public_seats(self) -> list[dict]:
        return [{"kind": s["kind"], "agent": s.get("agent"), "taken": bool(s.get("token_hash")) or s["kind"] == "ai",
                 "handed_over": bool(s.get("handed_over")), "resigned": p in self.match.resigned}
                for p, s in enumerate(self.stored.seats)]

    async def settled(self, read: Callable[[], Any]) -> Any:
        """`read()` once no action sits between being applied and being stored: no reader sees what a crash would
        lose (`_apply` holds the lock across the store write; an AI thinks outside it)."""
        async with self.lock:
            return read()

    def summary(self) -> dict:
        state = self.match.state
        return {"id": self.id, "game": self.game.id, "name": self.game.name("en"), "created": self.stored.created,
                "seats": self.public_seats(), "ply": len(self.match.steps), "turn": state.turn,
                "listed": self.listed(),
                "current_player": self.match.current_player, "finished": self.match.is_over,
                "result": self.match.result,
                "seed_commitment": self.commitment}

    def seats_read_here(self) -> set[int]:
        return {w.seat for w in self.watchers if w.seat is not None}

    def present(self) -> list[bool]:
        """Each seat: whether its player has the table open now (in any process serving the game)."""
        here = self.seats_read_here() | self.remote_seats
        return [p in here for p in range(len(self.stored.seats))]

    async def broadcast(self) -> None:
        present = self.present()
        await self._send_each(lambda w: self.payload(w.seat, w.lang, present))

    async def send_presence(self, but: Watcher | None = None) -> None:
        present = self.present()
        await self._send_each(lambda _w: {"type": "presence", "present": present}, but)

    async def _send_each(self, message: Callable[[Watcher], dict], but: Watcher | None = None) -> None:
        for watcher in list(self.watchers):
            if watcher is but:
                continue
            try:
                await watcher.send(message(watcher))
            except Exception:  # noqa: BLE001 - a closed socket must not stop the others
                self.watchers.discard(watcher)


def ai_only(seats: list[dict]) -> bool:
    """Every seat is an AI by choice (not a person's seat handed to the AI for idling)."""
    return all(s["kind"] == "ai" and not s.get("handed_over") for s in seats)


def check_ply(table: Table, ply: int, undos: int | None = None) -> None:
    """Every command names the position it was chosen on, by its ply and the number of undos before it (an undo makes
    a ply name a second position, never the pair); any other position refuses it. (`undos` None: the caller holds
    the table itself and names the ply only.)"""
    if ply != len(table.match.steps) or undos not in (None, table.stored.undos):
        raise MovedOn(ply, len(table.match.steps), undos is not None and undos < table.stored.undos)


def store_version(stored: StoredGame) -> str:
    """A digest of everything the store holds of a game: equal digests, equal summaries."""
    return hashlib.sha256(json.dumps(dataclasses.asdict(stored), sort_keys=True, default=str).encode()).hexdigest()


def match_of(stored: StoredGame) -> Match:
    """The live `Match` of a stored game: its actions played again from its seed."""
    try:
        game = load_game(stored.game, **stored.options)
        match = Match(game, stored.seed, stored.setup, salt=stored.salt, created=stored.created,
                      players=[s.get("agent") or "human" for s in stored.seats])
        for text in stored.actions:
            match.play_text(text)
    except ColiseoError as e:
        raise Conflict(f"game {stored.id} no longer replays with this engine: {e}") from None
    return match


def render(game, event: dict, lang: str) -> str:
    try:
        return game.render(event, lang)
    except (KeyError, ValueError, IndexError):
        return event.get("type", "?")


def board_hints(game, observation: dict) -> dict | None:
    """A game's extra help for the board of the seat to move (forbidden: its fusion steps), made only from
    that seat's observation and the public content."""
    hints = getattr(game, "board_hints", None)
    return hints(observation) if hints else None


def board_of(game_id: str) -> str:
    """The board module that draws a game: its own, else `generic`."""
    return game_id if game_id in OWN_BOARDS else "generic"


def picture(game, observation: dict, lang: str) -> str | None:
    """The game's text picture, for the generic board: None for a game with a board of its own or without one."""
    if game.id in OWN_BOARDS:
        return None
    try:
        return game.render_text(observation, lang)
    except NotImplementedError:
        return None
