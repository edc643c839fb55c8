"""The AI seats of live games: the lease loop that computes and stores each AI move once across processes, the
idle hand-over of a person's seat and its return, and the cap on games between AIs."""

from __future__ import annotations

import asyncio
import contextlib
import time

from .bus import LocalBus
from .table import HANDOVER_AGENT, Table, ai_only, log
from .thinking import Job


class AiSeats:
    """The AI seats of the live tables (a mixin of `Tables`)."""

    def live_ai_only_games(self) -> int:
        return sum(1 for t in self.live.values() if not t.match.is_over and ai_only(t.stored.seats))

    async def ai_only_games(self) -> int:
        """Unfinished games whose every seat is an AI (they are capped: each one keeps a core busy); with other
        processes serving the store, counted in the store."""
        if self.alone:
            return self.live_ai_only_games()
        return sum(1 for seats in await self.stored_call(self.store.unfinished_seats) if ai_only(seats))

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


def _ignore_result(future) -> None:
    if not future.cancelled():
        future.exception()          # retrieved, so asyncio does not log a dropped move's error
