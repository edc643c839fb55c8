"""Tables' side of what other processes serving the same store do: notices of their writes, the readers they have
(presence), and telling them of this process's writes."""

from __future__ import annotations

import asyncio
from functools import partial

from .table import Table, Watcher, ai_only, log


class Sync:
    """Keeping this process's tables in step with the store and the other processes (a mixin of `Tables`)."""

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

    async def _reload(self, table: Table) -> None:
        stored = await self.stored_call(self.store.load, table.id)
        table.sync(stored, rebuild=True)
