"""Live games of the web table: this process's tables, loaded from the store when first read and let go when
nobody reads them; the commands (commands.py), the AI seats (ai_seats.py) and the sync between processes
(sync.py) are its mixins."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

from coliseo.core.errors import SetupError
from coliseo.core.events import view_events
from coliseo.core.i18n import result_words
from coliseo.core.match import Command, Match
from coliseo.store import WRITERS, Store

from .ai_seats import AiSeats
from .bus import LocalBus, RedisBus
from .commands import Commands
from .recent import touched
from .sync import Sync
from .table import Conflict, NotFound, Table, Watcher, board_of, log, match_of, picture, render, store_version
from .thinking import PoolThinker, RayThinker

SUMMARIES_KEPT = 2000          # summaries of games not in memory, kept with their store version for the lobbies' reads
# Tests only: seconds a load waits after reading the store, to widen the window in which a move can come meanwhile.
LOAD_DELAY = float(os.environ.get("COLISEO_TEST_LOAD_DELAY", "0"))
# Seconds a game stays in memory with no reader and no AI playing it (one created and never opened, one whose last
# reader left while its AI was to move) before it is let go; the store keeps it. Tests shorten it.
UNREAD_GRACE = float(os.environ.get("COLISEO_TEST_UNREAD_GRACE", "30"))


class Tables(Commands, AiSeats, Sync):
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
                summary = await self.stored_call(lambda: Table(game_id, stored, match_of(stored)).summary())
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
        return Table(game_id, stored, match_of(stored))

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

    def record(self, table: Table) -> dict:
        """The record, only once the game is over: before that even the action list could tell too much."""
        if not table.match.is_over:
            raise Conflict("the record is published when the game is over")
        return table.match.record()

    def replay_frames(self, table: Table, viewer: int | None, lang: str) -> dict:
        """Every step of a finished game as `viewer` saw it: the events and the observation after it."""
        record = self.record(table)
        game, match = table.game, table.match
        if viewer is not None and viewer not in match.state.players:
            raise SetupError(f"view must be a player 0..{len(match.state.players) - 1} or spectator")
        again = Match(game, match.seed, match.setup, salt=match.salt)
        frames = [{"ply": 0, "action": None, "events": [], "marks": [], "observation": again.state.observation(viewer)}]
        for ply, step in enumerate(match.steps, 1):
            turn = again.state.turn
            words = own_words(again, step, viewer, lang)
            events = again.play(step.action)
            observation = again.state.observation(viewer)
            frames.append({"ply": ply, "action": again.format(step.action), "words": words,
                           "player": step.player, "turn": turn,
                           "events": [render(game, e, lang) for e in view_events(events, viewer)],
                           "marks": touched(game, events, viewer),
                           "observation": observation, "picture": picture(game, observation, lang)})
        frames[0]["picture"] = picture(game, frames[0]["observation"], lang)
        return {"id": table.id, "game": game.id, "board": board_of(game.id), "name": game.name(lang), "viewer": viewer,
                "record": record,
                "result_text": result_words(game, match.result, lang, match.resigner),
                "result_detail": game.result_detail(frames[-1]["observation"], lang), "frames": frames}


def own_words(match: Match, step, viewer: int | None, lang: str) -> str | None:
    """A step's action in the words its player was offered (Game.action_texts), for that player's own view of the
    replay; None for anyone else (the words may name what only the player knew: the events tell the others) and for
    a table command."""
    if viewer != step.player or isinstance(step.action, Command):
        return None
    return match.game.action_texts(match.state, [step.action], lang)[0]
