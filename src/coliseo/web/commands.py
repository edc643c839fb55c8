"""What players do to games: create, join, rematch, act, undo, the table commands and abandonment; every accepted
action is stored before anyone is told."""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from functools import partial
from typing import Any

from coliseo.agents import agent_names
from coliseo.core.errors import SetupError
from coliseo.core.i18n import refused, result_words
from coliseo.core.match import Command, Match, nothing_to_undo
from coliseo.core.registry import list_games, load_game
from coliseo.store import AlreadyRematched, PlyTaken, StoredGame

from .table import (
    SERVER_ONLY_OPTIONS,
    Conflict,
    Forbidden,
    MovedOn,
    NotFound,
    Table,
    check_ply,
    hash_token,
    log,
    new_token,
)

SERVER_PLAYER = -1             # the `player` stored with a command no player made (abandonment)


class Commands:
    """The commands on live games (a mixin of `Tables`)."""

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
