"""Live games of the web table: one `Match` per game, its seats, its watchers, its AI seats.

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
import contextlib
import dataclasses
import hashlib
import hmac
import json
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from importlib import resources
from typing import Any

from coliseo.agents import agent_names
from coliseo.core.errors import ColiseoError, SetupError
from coliseo.core.events import view_events
from coliseo.core.i18n import refused, result_words
from coliseo.core.match import Command, Match, nothing_to_undo
from coliseo.core.reasons import reason_words
from coliseo.core.registry import list_games, load_game
from coliseo.store import WRITERS, AlreadyRematched, PlyTaken, Store, StoredGame

from .bus import LocalBus, RedisBus
from .recent import recent_marks, touched
from .thinking import Job, PoolThinker, RayThinker

# Options a browser may not set: they name files on the server.
SERVER_ONLY_OPTIONS = frozenset({"packs", "pack", "bundled"})
HANDOVER_AGENT = "greedy"
SERVER_PLAYER = -1             # the `player` stored with a command no player made (abandonment)
LOG_TAIL = 300                 # events sent with each update
SUMMARIES_KEPT = 2000          # summaries of games not in memory, kept with their store version for the lobbies' reads
# Tests only: seconds a load waits after reading the store, to widen the window in which a move can come meanwhile.
LOAD_DELAY = float(os.environ.get("COLISEO_TEST_LOAD_DELAY", "0"))
# Seconds a game stays in memory with no reader and no AI playing it (one created and never opened, one whose last
# reader left while its AI was to move) before it is let go; the store keeps it. Tests shorten it.
UNREAD_GRACE = float(os.environ.get("COLISEO_TEST_UNREAD_GRACE", "30"))
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
            self.match = replay(stored)
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
            "result_text": result_words(game, match.result, lang) if match.result else None,
            "reason_text": reason_words(game, match.result["reason"], lang) if match.result else None,
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


class Tables:
    """All games: the live ones in memory, every one in the store."""

    def __init__(self, store: Store, *, bus: LocalBus | RedisBus | None = None,
                 thinker: PoolThinker | RayThinker | None = None, lease_seconds: float = 10.0,
                 unread_grace: float = UNREAD_GRACE):
        self.store = store
        self.bus = bus or LocalBus()
        self.thinker = thinker or PoolThinker(1)
        self.lease_seconds = lease_seconds
        self.unread_grace = unread_grace
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"   # this process, on the bus
        self.live: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self.loading: dict[str, bool] = {}     # the game being loaded -> whether a notice of it came meanwhile
        self.store_pool: ThreadPoolExecutor | None = None
        self.summaries: OrderedDict[str, tuple[str, dict]] = OrderedDict()   # game -> (store version, summary)
        self.summary_replays = 0               # summaries of games not in memory that had to be replayed

    def live_ai_only_games(self) -> int:
        return sum(1 for t in self.live.values() if not t.match.is_over and ai_only(t.stored.seats))

    async def ai_only_games(self) -> int:
        """Unfinished games whose every seat is an AI (they are capped: each one keeps a core busy); with other
        processes serving the store, counted in the store."""
        if self.alone:
            return self.live_ai_only_games()
        return sum(1 for seats in await self.stored_call(self.store.unfinished_seats) if ai_only(seats))

    async def stored_call(self, function, *args):
        if self.store_pool is None:       # SQLite has one writer at a time; a server database takes more
            threads = 2 if self.store.url.startswith("sqlite") else WRITERS
            self.store_pool = ThreadPoolExecutor(threads, thread_name_prefix="coliseo-store")
        return await asyncio.get_running_loop().run_in_executor(self.store_pool, function, *args)

    def close(self) -> None:
        self.thinker.close()
        if self.store_pool:
            self.store_pool.shutdown(wait=True)
        self.store_pool = None

    # --- the bus ---------------------------------------------------------------------------------------
    async def on_notice(self, game_id: str, _ply: int, sender: str) -> None:
        """Another process changed game `game_id`: reload it, if this process holds it (in the background)."""
        table = self.live.get(game_id)
        if sender == self.owner:
            return
        if table is None:
            if game_id in self.loading:
                self.loading[game_id] = True   # the load may have read the game before this change
            return
        if not table.watchers and not ai_only(table.stored.seats):
            # Nobody reads it here and a person plays it elsewhere: the process they are connected to plays its AI
            # seats too; holding it here would only double every reload and every AI lease claim.
            self._let_go(game_id)
            return
        self._catch_up(table)

    def _catch_up(self, table: Table) -> None:
        """Reload `table` in the background (once more if it is being reloaded now)."""
        table.stale = True
        if table.refreshing is None or table.refreshing.done():
            table.refreshing = asyncio.get_running_loop().create_task(self._refresh_while_stale(table))

    async def _refresh_while_stale(self, table: Table) -> None:
        while table.stale:                 # notices that arrive during a reload make one more reload
            table.stale = False
            try:
                await self.refresh(table)
            except Exception:
                log.exception("game %s could not be reloaded from the store", table.id)
                return

    async def refresh_all(self) -> None:
        """After the bus was down: every live table catches up with the store, and with who is at it (a Redis that
        restarted has lost what it was told: this process says again which seats it serves)."""
        await self.bus.heartbeat(self.owner)
        for table in list(self.live.values()):
            await self.refresh(table)
            table.shared_seats = set()
            await self.seen(table)
            await self.read_presence(table)

    async def refresh(self, table: Table) -> bool:
        """Reload `table` from the store (the actions no undo can take back are not read again); if anything
        changed, its readers get their new payloads."""
        async with table.lock:
            known = table.stored.actions[:table.match.settled()]
            stored = await self.stored_call(partial(self.store.load, table.id, known))
            if stored is None or not table.sync(stored):
                return False
        await table.broadcast()
        self.kick_ai(table)
        return True

    # --- who is at the table ---------------------------------------------------------------------------
    async def seen(self, table: Table, newcomer: Watcher | None = None) -> None:
        """A reader came (`newcomer`, whose first payload said it all) or left: if that changed the seats read here,
        the other processes holding the game hear of it, and the other readers here get the new presence."""
        seats = table.seats_read_here()
        if seats == table.shared_seats:
            return
        table.shared_seats = seats
        await self.bus.share_presence(table.id, self.owner, seats)
        await table.send_presence(but=newcomer)
        self.kick_ai(table)                    # a seat the AI plays for a person waits for someone at the table

    async def on_presence(self, game_id: str, sender: str) -> None:
        table = self.live.get(game_id)
        if table is not None and sender != self.owner:
            await self.read_presence(table)

    async def read_presence(self, table: Table) -> None:
        remote = await self.bus.presence_elsewhere(table.id, self.owner)
        if remote != table.remote_seats:
            table.remote_seats = remote
            await table.send_presence()
            self.kick_ai(table)

    async def sweep_presence(self) -> None:
        """With other processes: this one is still running, and the games read here drop the seats of a process that
        stopped without a word (only a game with seats read elsewhere can have such seats)."""
        if self.alone:
            return
        await self.bus.heartbeat(self.owner)
        for table in list(self.live.values()):
            if table.watchers and table.remote_seats:
                await self.read_presence(table)

    async def announce(self, table: Table) -> None:
        """After a commit: this process's readers, then every other process, then the AI."""
        await table.broadcast()
        await self.bus.publish(table.id, len(table.match.steps), self.owner)
        self.kick_ai(table)

    # --- creating and loading --------------------------------------------------------------------------
    async def create(self, game_id: str, options: dict, seats: list[dict], idle_seconds: int | None, *,
                     sides: list | None = None, setup: Any = None, listed: bool = False,
                     spectators_need_invite: bool = False,
                     creator_seat: int | None = None, rematch_of: str | None = None) -> tuple:
        """A new game; returns (table, seat, token, invite): the creator's seat (`creator_seat`, else the first
        human one, if any) and token, and the invite secret that opens the other seats (and spectating, when
        asked). What each seat plays with comes from `sides` (the game's sides by id), or a rematch's `setup`.
        As the rematch of finished game `rematch_of`, AlreadyRematched if another request made it first."""
        if game_id not in list_games():
            raise SetupError(f"unknown game {game_id!r}; the games are: {', '.join(list_games())}")
        blocked = sorted(SERVER_ONLY_OPTIONS & set(options))
        if blocked:
            raise SetupError(f"option(s) {', '.join(blocked)} can only be set on the server")
        game = load_game(game_id, **options)
        if sides:
            setup = game.setup_for_sides(sides)
        setup = game.setup_for_people(setup, {p for p, seat in enumerate(seats) if seat.get("kind") != "ai"})
        seed = secrets.randbits(63)
        probe = game.new_state(seed, setup)
        if len(seats) != len(probe.players):
            raise SetupError(f"{game.name()} with these options has {len(probe.players)} players: "
                             f"give {len(probe.players)} seats, not {len(seats)}")
        known_agents = agent_names(game_id)
        stored_seats = []
        for n, seat in enumerate(seats, 1):
            if seat["kind"] == "ai":
                if seat.get("agent") not in known_agents:
                    raise SetupError(f"seat {n}: agent {seat.get('agent')!r} does not play {game_id}; "
                                     f"choose one of {', '.join(known_agents)}")
                stored_seats.append({"kind": "ai", "agent": seat["agent"]})
            else:
                stored_seats.append({"kind": "human"})
        token, creator = None, None
        humans = [p for p, s in enumerate(stored_seats) if s["kind"] == "human"]
        if humans:
            creator, token = humans[0] if creator_seat is None else creator_seat, new_token()
            stored_seats[creator]["token_hash"] = hash_token(token)
        match = Match(game, seed, setup)
        invite = new_token()
        stored = StoredGame(id=secrets.token_hex(6), game=game_id, options=dict(game.options), setup=setup,
                            seed=seed, salt=match.salt, created=match.created, seats=stored_seats,
                            idle_seconds=idle_seconds,
                            access={"listed": listed, "invite_hash": hash_token(invite),
                                    "spectators_need_invite": spectators_need_invite, "creator": creator})
        match.players = [s.get("agent") or "human" for s in stored_seats]
        await self.bus.hold(stored.id)         # before other processes can find the game: none of its moves is unheard
        try:
            await self.stored_call(partial(self.store.create_game, stored, rematch_of=rematch_of, invite=invite))
        except BaseException:
            self.bus.unwatch(stored.id)
            raise
        table = Table(stored.id, stored, match)
        self.live[stored.id] = table
        log.info("game %s created: %s, seats %s%s", stored.id, game_id, ", ".join(match.players),
                 f" (rematch of {rematch_of})" if rematch_of else "")
        self.kick_ai(table)
        return table, creator, token, invite

    async def get(self, game_id: str) -> Table:
        table = self.live.get(game_id)
        if table is not None:
            return table
        async with self._loading:              # one load at a time: loads are rare (after a restart)
            table = self.live.get(game_id)
            if table is None:
                self.loading[game_id] = False
                try:
                    await self.bus.hold(game_id)       # before the read: a move stored after it is announced here
                    table = await self.stored_call(self._load, game_id)
                except BaseException:
                    self.bus.unwatch(game_id)
                    raise
                finally:
                    heard = self.loading.pop(game_id)
                self.live[game_id] = table
                # A notice heard during the load may be of a change made after the read. Its ply alone cannot tell:
                # an undo lowers the ply and a seat taken keeps it. So any notice means one more (cheap) refresh.
                if heard:
                    self._catch_up(table)
                if not self.alone:
                    await self.read_presence(table)
                self.kick_ai(table)
        return table

    async def open(self, game_id: str) -> Table:
        """The game for a new reader: with other processes writing, a table already held here may trail the
        store by a notice still on its way, so it catches up first."""
        live = game_id in self.live
        table = await self.get(game_id)
        if live and not self.alone:
            await self.refresh(table)
        return table

    async def summary(self, game_id: str) -> dict:
        """One game's public summary. A game held here answers from memory. Any other is read from the store and
        replayed only if it changed since its last summary here: a lobby reads each of its games every 10 s, and
        the replay of a long game costs far more than the read (Fantastiqa, ~900 steps: 76 ms of CPU against 5)."""
        if game_id in self.live:
            async with self.reading(game_id) as table:
                stored, summary = await table.settled(lambda: (table.stored, table.summary()))
            version = store_version(stored)
        else:
            stored = await self.stored_call(self.store.load, game_id)
            if stored is None:
                raise NotFound(f"no game {game_id!r}")
            version = store_version(stored)
            kept_version, summary = self.summaries.get(game_id, (None, None))
            if kept_version != version:
                summary = await self.stored_call(lambda: Table(game_id, stored, replay(stored)).summary())
                self.summary_replays += 1
        self.summaries[game_id] = (version, summary)
        self.summaries.move_to_end(game_id)
        while len(self.summaries) > SUMMARIES_KEPT:
            self.summaries.popitem(last=False)
        return summary

    @contextlib.asynccontextmanager
    async def reading(self, game_id: str) -> AsyncIterator[Table]:
        """The game for one request (a summary, a record, a replay): held in memory only while it is read, unless
        a reader or an AI keeps it; a lobby that reads many games does not keep them all."""
        table = await self.open(game_id)
        try:
            yield table
        finally:
            self.release(table)

    async def add_reader(self, table: Table, watcher: Watcher) -> Table:
        """Attach a new reader to its game, the table this process holds now: while the reader was on its way
        (awaiting a refresh or a seat's return) a notice may have let the game go, and a table let go is no
        longer updated."""
        while self.live.get(table.id) is not table:
            table = await self.open(table.id)
        table.watchers.add(watcher)
        return table

    def _load(self, game_id: str) -> Table:
        stored = self.store.load(game_id)
        if stored is None:
            raise NotFound(f"no game {game_id!r}")
        time.sleep(LOAD_DELAY)
        return Table(game_id, stored, replay(stored))

    async def resume_all(self) -> int:
        """Load every unfinished game and let its AI seats go on; returns how many."""
        ids = await self.stored_call(self.store.unfinished_ids)
        for game_id in ids:
            try:
                await self.get(game_id)
            except Conflict:
                continue
        log.info("%d unfinished game%s resumed", len(ids), "" if len(ids) == 1 else "s")
        return len(ids)

    def status(self) -> dict:
        """What this process holds: games in memory, their readers, AI-only games among them, and how many summaries
        of games not in memory it has had to replay (the others came from its kept summaries)."""
        return {"live_games": len(self.live),
                "readers": sum(len(t.watchers) for t in self.live.values()),
                "ai_only_games": self.live_ai_only_games(),
                "summary_replays": self.summary_replays}

    def release(self, table: Table) -> None:
        """Forget a game nobody is watching and no AI is playing; the store has it, `get` reloads it."""
        if table.unread() and self.live.get(table.id) is table:
            self._let_go(table.id)

    def let_go_unread(self) -> None:
        """Forget every game found unread and idle for `unread_grace` seconds by these calls (made every second or
        so): a game nobody opened, one whose AI finished its turns after the last reader left."""
        clock = time.monotonic()
        for table in list(self.live.values()):
            if not table.unread():
                table.unread_since = None
            elif table.unread_since is None:
                table.unread_since = clock
            elif clock - table.unread_since >= self.unread_grace:
                self._let_go(table.id)

    def _let_go(self, game_id: str) -> None:
        self.live.pop(game_id, None)
        self.bus.unwatch(game_id)

    async def join(self, game_id: str, seat: int | None, invite: str | None) -> tuple[int, str]:
        table = await self.get(game_id)
        if not table.listed() and not table.invited(invite):
            raise Forbidden("joining this game needs its invite link")
        async with table.lock:
            seats = table.stored.seats
            free = [p for p, s in enumerate(seats) if s["kind"] == "human" and not s.get("token_hash")]
            if seat is None:
                if not free:
                    raise Conflict("every seat of this game is taken; you can spectate it")
                seat = free[0]
            elif not 0 <= seat < len(seats):
                raise SetupError(f"seat must be 0..{len(seats) - 1}")
            elif seat not in free:
                raise Conflict(f"seat {seat} is not free")
            token = new_token()
            updated = [dict(s) for s in seats]
            updated[seat]["token_hash"] = hash_token(token)
            await self.stored_call(self.store.set_seats, game_id, updated)
            table.stored.seats = updated
        await self.announce(table)
        return seat, token

    async def rematch(self, game_id: str, token: str) -> tuple:
        """The finished game again for one of its players: same seats and options, a new seed. The first player to
        ask creates it and sits in their old seat; each other player asking later gets their own old seat in it."""
        table = await self.get(game_id)
        seat = table.seat_of(token)
        if seat is None:
            raise Forbidden("only a player of this game can ask for a rematch")
        if not table.match.is_over:
            raise Conflict("the game is not over yet: a rematch starts after it")
        made = None
        async with table.lock:
            if table.stored.rematch is None:
                seats = [{"kind": s["kind"], "agent": s.get("agent")} for s in table.stored.seats]
                options = {k: v for k, v in table.stored.options.items() if k not in SERVER_ONLY_OPTIONS}
                try:
                    made = await self.create(
                        table.stored.game, options, seats, table.stored.idle_seconds, setup=table.stored.setup,
                        listed=table.listed(),
                        spectators_need_invite=bool(table.stored.access
                                                    and table.stored.access["spectators_need_invite"]),
                        creator_seat=seat, rematch_of=table.id)
                except AlreadyRematched:            # another process made it first: this one learns of it
                    table.sync(await self.stored_call(self.store.load, table.id))
                else:
                    table.stored.rematch = {"id": made[0].id, "invite": made[3]}
        if made:
            await self.announce(table)
            return made
        again = table.stored.rematch
        seat, token = await self.join(again["id"], seat, again["invite"])
        return await self.get(again["id"]), seat, token, again["invite"]

    # --- playing ------------------------------------------------------------------------------------------
    async def act(self, table: Table, seat: int, text: str, ply: int, lang: str = "en", undos: int | None = None
                  ) -> int:
        """Play `text` for `seat`, chosen at `ply` after `undos` undos: checked, stored, announced; the new ply.
        ColiseoError (its message in the seat's `lang`) if not."""
        async with table.lock:
            check_ply(table, ply, undos)
            state = table.match.state
            if table.match.is_over:
                raise refused(table.game, "over")
            if seat in table.agents:
                raise refused(table.game, "ai_seat")
            if table.match.current_player != seat:
                raise refused(table.game, "not_your_turn")
            action = table.game.parse_action(state, text, lang)
            stored = await self._play(table, action)
            table.last_activity = time.monotonic()
        return await self._settle(table, stored, ply, ply + 1, undos)

    async def undo(self, table: Table, seat: int, ply: int, undos: int | None = None) -> int:
        async with table.lock:
            check_ply(table, ply, undos)
            match = table.match
            if seat in table.agents or not match.can_undo(seat):
                raise nothing_to_undo()
            try:
                await self.stored_call(self.store.remove_action, table.id, ply, table.stored.undos)
            except PlyTaken:
                moved_on = True
                await self._reload(table)
            else:
                moved_on = False
                match.undo(seat)
                table.stored.actions.pop()
                table.stored.undos += 1
        return await self._settle(table, not moved_on, ply, ply - 1, undos)

    async def set_listed(self, table: Table, token: str, listed: bool) -> None:
        """The creator lists the game in the lobby (or takes it off)."""
        rights = table.stored.access
        if rights is None or rights["creator"] is None or table.seat_of_or_none(token) != rights["creator"]:
            raise Forbidden("only the game's creator, with their seat token, can list or unlist it")
        await self.stored_call(self.store.set_listed, table.id, listed)
        rights["listed"] = listed
        await self.announce(table)

    async def command(self, table: Table, seat: int, name: str, ply: int, undos: int | None = None) -> int:
        """A seat's table command (resign, offer-draw, accept-draw, decline-draw) at (`ply`, `undos`); the new ply."""
        async with table.lock:
            check_ply(table, ply, undos)
            stored = await self._play(table, Command(name, seat))
            table.seat_agents()
            table.last_activity = time.monotonic()
        return await self._settle(table, stored, ply, ply + 1, undos)

    async def _settle(self, table: Table, stored: bool, chosen: int, new_ply: int, undos: int | None = None) -> int:
        """After a command: announce it and return the new ply, or, if another process wrote that ply first,
        show this process's readers the store's version and refuse with "the game has moved on"."""
        if not stored:
            await table.broadcast()
            raise MovedOn(chosen, len(table.match.steps), undos is not None and undos < table.stored.undos)
        await self.announce(table)
        return new_ply

    async def _play(self, table: Table, action, lease: str | None = None) -> bool:
        """Apply and store (under `table.lock`); False if another write came first and the table was reloaded.

        If storing fails otherwise, the game is put back as the store has it (or forgotten, if the store is out
        of reach: `get` reloads it later).
        """
        match = table.match
        ply = len(match.steps) + 1
        if isinstance(action, Command):
            player = SERVER_PLAYER if action.player is None else action.player
        else:
            player = match.state.current_player
        text = match.format(action)
        match.play(action)
        # An AI to move next: its lease is taken with this action, saving the AI its own transaction.
        claim_next = None if self.alone or table.ai_to_move() is None else (self.owner, self.lease_seconds)
        try:
            claimed = await self.stored_call(self.store.add_action, table.id, ply, text, player, match.result, lease,
                                             claim_next, table.stored.undos)
        except PlyTaken:
            await self._reload(table)
            return False
        except Exception:
            try:
                await self._reload(table)
            except Exception:  # noqa: BLE001 - the store is out of reach
                self._let_go(table.id)
            raise
        table.stored.actions.append(text)
        table.leased = ply + 1 if claimed else None
        if match.is_over:
            table.stored.finished, table.stored.result = True, match.result
            log.info("game %s over after %d actions: %s", table.id, ply, result_words(table.game, match.result, "en"))
        return True

    async def _reload(self, table: Table) -> None:
        stored = await self.stored_call(self.store.load, table.id)
        table.sync(stored, rebuild=True)

    async def abandon_idle(self, idle_seconds: float) -> None:
        """Unfinished games nobody has moved in for `idle_seconds` end as abandoned; their records are published."""
        before = datetime.fromtimestamp(time.time() - idle_seconds, UTC).isoformat(timespec="seconds")
        for game_id, plies in await self.stored_call(self.store.idle_unfinished, before):
            try:
                table = await self.get(game_id)
            except (NotFound, Conflict):
                continue
            async with table.lock:
                if table.match.is_over or len(table.match.steps) != plies:
                    continue                   # it moved since the store was asked
                if not await self._play(table, Command("abandon")):
                    continue
            await self.announce(table)
            self.release(table)

    def kick_ai(self, table: Table) -> None:
        if table.ai_task is None or table.ai_task.done():
            if table.ai_to_move() is not None:
                table.ai_task = asyncio.get_running_loop().create_task(self._run_ai(table))

    async def _run_ai(self, table: Table) -> None:
        """The AI seats play, one action at a time, off the event loop, until a person is to move."""
        try:
            await self._ai_turns(table)
        except Exception:
            log.exception("the AI of game %s stopped", table.id)

    async def _ai_turns(self, table: Table) -> None:
        """Claim the lease on the AI's next move, have it computed, append it if the lease still holds.

        Without the lease (another process is thinking), wait for that process's move or for its lease
        to run out (it may have died), then try again.
        """
        while True:
            async with table.lock:
                player = table.ai_to_move()
                if player is None or self.live.get(table.id) is not table:
                    return
                ply, undos = len(table.match.steps) + 1, table.stored.undos
                claimed = table.leased == ply or await self.claim(table, ply)
                table.leased = None
                job = table.job(player) if claimed else None
                table.changed.clear()
            if job is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.changed.wait(), self.lease_seconds / 2)
                await self.refresh(table)
                continue
            text = await self._think(table, job, ply)
            if text is None:
                continue                                    # the lease was lost: the move is dropped
            async with table.lock:
                if (len(table.match.steps) + 1, table.stored.undos) != (ply, undos) or table.ai_to_move() != player:
                    continue                                # the game moved on while the AI thought
                stored = await self._play(table, table.game.parse_action(table.match.state, text),
                                          lease=None if self.alone else self.owner)
                table.last_activity = time.monotonic()
            if stored:
                await self.announce(table)
            else:
                await table.broadcast()

    @property
    def alone(self) -> bool:
        """One process serves the store (no bus between processes): its table lock is lease enough."""
        return isinstance(self.bus, LocalBus)

    async def claim(self, table: Table, ply: int) -> bool:
        return self.alone or await self.stored_call(self.store.claim_lease, table.id, ply, self.owner,
                                                    self.lease_seconds)

    async def _think(self, table: Table, job: Job, ply: int) -> str | None:
        """The move, renewing the lease while the AI thinks; None if the lease was lost meanwhile."""
        thinking = asyncio.ensure_future(self.thinker.think(job))
        while True:
            done, _ = await asyncio.wait({thinking}, timeout=self.lease_seconds / 3)
            if done:
                return thinking.result()
            if not await self.claim(table, ply):
                thinking.add_done_callback(_ignore_result)
                return None

    async def hand_idle_seats(self) -> None:
        """Seats whose person has not acted within the game's idle limit are handed to the AI."""
        clock = time.monotonic()
        for table in list(self.live.values()):
            limit = table.stored.idle_seconds
            player = table.match.current_player
            if not limit or player is None or player in table.agents or clock - table.last_activity < limit:
                continue
            if not any(table.present()):
                continue                       # nobody waits for the seat; the AI would play the game out alone
            async with table.lock:
                seats = [dict(s) for s in table.stored.seats]
                seats[player].update(kind="ai", agent=HANDOVER_AGENT, handed_over=True)
                await self.stored_call(self.store.set_seats, table.id, seats)
                table.stored.seats = seats
                table.seat_agents()
            log.info("game %s: Player %d was idle for %d s; the AI (%s) plays the seat", table.id, player + 1, limit,
                     HANDOVER_AGENT)
            await self.announce(table)

    async def reclaim(self, table: Table, seat: int) -> None:
        """A seat handed to the AI for idling returns to its owner, who came back with the seat token."""
        if not table.stored.seats[seat].get("handed_over"):
            return
        async with table.lock:                 # an AI move in progress for the seat finishes first
            seats = [dict(s) for s in table.stored.seats]
            for key in ("agent", "handed_over"):
                seats[seat].pop(key, None)
            seats[seat]["kind"] = "human"
            await self.stored_call(self.store.set_seats, table.id, seats)
            table.stored.seats = seats
            table.seat_agents()
            table.last_activity = time.monotonic()
        log.info("game %s: Player %d is back and plays the seat again", table.id, seat + 1)
        await self.announce(table)

    def record(self, table: Table) -> dict:
        """The record, only once the game is over: before that even the action list could tell too much."""
        if not table.match.is_over:
            raise Conflict("the record is published when the game is over")
        return table.match.record()

    def replay(self, table: Table, viewer: int | None, lang: str) -> dict:
        """Every step of a finished game as `viewer` saw it: the events and the observation after it."""
        record = self.record(table)
        game, match = table.game, table.match
        if viewer is not None and viewer not in match.state.players:
            raise SetupError(f"view must be a player 0..{len(match.state.players) - 1} or spectator")
        again = Match(game, match.seed, match.setup, salt=match.salt)
        frames = [{"ply": 0, "action": None, "events": [], "marks": [], "observation": again.state.observation(viewer)}]
        for ply, step in enumerate(match.steps, 1):
            turn = again.state.turn
            events = again.play(step.action)
            observation = again.state.observation(viewer)
            frames.append({"ply": ply, "action": again.format(step.action), "player": step.player, "turn": turn,
                           "events": [render(game, e, lang) for e in view_events(events, viewer)],
                           "marks": touched(game, events, viewer),
                           "observation": observation, "picture": picture(game, observation, lang)})
        frames[0]["picture"] = picture(game, frames[0]["observation"], lang)
        return {"id": table.id, "game": game.id, "board": board_of(game.id), "name": game.name(lang), "viewer": viewer,
                "record": record,
                "result_text": result_words(game, match.result, lang),
                "result_detail": game.result_detail(frames[-1]["observation"], lang), "frames": frames}


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


def replay(stored: StoredGame) -> Match:
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


def _ignore_result(future) -> None:
    if not future.cancelled():
        future.exception()          # retrieved, so asyncio does not log a dropped move's error


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


def catalog(lang: str = "en") -> list[dict]:
    """The games a lobby can offer: names, player counts, the options a browser may set, the agents, the sides
    a seat may pick (in `lang`)."""
    out = []
    for game_id in list_games():
        game = load_game(game_id)
        left_out = SERVER_ONLY_OPTIONS | game.inert_options()
        options = []
        for o in game.options_schema:
            if o.name in left_out:
                continue
            kind = (o.kind or type(o.default)).__name__
            words = game.option_value_words(o.name, lang)
            options.append({"name": o.name, "default": o.default, "help": o.help, "kind": kind,
                            "choices": list(o.choices), "minimum": o.minimum, "maximum": o.maximum,
                            "value_words": words and [[value, text] for value, text in words.items()]})
        out.append({"id": game_id, "names": dict(game.names), "min_players": game.min_players,
                    "max_players": game.max_players, "options": options, "agents": agent_names(game_id),
                    "sides": game.sides(lang), "side_word": game.side_word.get(lang, ""), "board": board_of(game_id)})
    return out
