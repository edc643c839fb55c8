"""The store's compare-and-set on (game, ply), the AI leases, the one rematch per game and a table catching up with
the store, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

import pytest
from sqlalchemy import event, text

from coliseo.store import WRITERS, AlreadyRematched, PlyTaken, Store, StoredGame
from coliseo.web.bus import RedisBus
from coliseo.web.table import Table, Watcher
from coliseo.web.tables import Tables
from coliseo.web.thinking import PoolThinker

from .conftest import on_own_loop


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'store.db'}" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    s = Store(url)
    s.create_game(StoredGame(id="g1", game="capsule", options={}, setup=None, seed=7, salt="s", created="now",
                             seats=[{"kind": "human"}, {"kind": "human"}]))
    yield s
    s.close()


def test_an_append_at_a_taken_ply_is_refused_and_changes_nothing(store):
    store.add_action("g1", 1, "end", 0)
    with pytest.raises(PlyTaken):
        store.add_action("g1", 1, "other", 1, {"winner": 1})
    stored = store.load("g1")
    assert stored.actions == ["end"] and not stored.finished


def test_of_many_threads_appending_the_same_ply_exactly_one_wins(store):
    outcomes: list[str] = []

    def append(n: int) -> None:
        try:
            store.add_action("g1", 1, f"move{n}", 0)
            outcomes.append(f"move{n}")
        except PlyTaken:
            outcomes.append("moved on")

    threads = [threading.Thread(target=append, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [o for o in outcomes if o != "moved on"]
    assert len(outcomes) == 6 and len(winners) == 1
    assert store.load("g1").actions == winners


def test_a_server_database_keeps_one_connection_per_writer_thread(postgres_url):
    """A new PostgreSQL connection forks a server process: a server's writer threads reuse theirs."""
    store = Store(postgres_url)
    opened: list[object] = []
    event.listen(store.engine, "connect", lambda connection, _record: opened.append(connection))
    for n in range(WRITERS):
        store.create_game(StoredGame(id=f"g{n}", game="capsule", options={}, setup=None, seed=n, salt="s",
                                     created="now", seats=[{"kind": "human"}, {"kind": "human"}]))
    barrier = threading.Barrier(WRITERS)

    def play(n: int) -> None:
        for ply in range(1, 21):
            barrier.wait()                      # every thread holds a connection at the same moment
            store.add_action(f"g{n}", ply, "end", ply % 2)

    threads = [threading.Thread(target=play, args=(n,)) for n in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store.close()
    assert len(opened) <= WRITERS


def test_undo_removes_only_the_last_action(store):
    store.add_action("g1", 1, "a", 0)
    store.add_action("g1", 2, "b", 0)
    with pytest.raises(PlyTaken):
        store.remove_action("g1", 1)
    with pytest.raises(PlyTaken):
        store.remove_action("g1", 3)
    store.remove_action("g1", 2)
    assert store.load("g1").actions == ["a"]


def test_an_action_after_one_taken_back_is_refused(store):
    store.add_action("g1", 1, "a", 0)
    store.add_action("g1", 2, "b", 0)
    store.remove_action("g1", 2)
    with pytest.raises(PlyTaken):
        store.add_action("g1", 3, "c", 0)
    assert store.load("g1").actions == ["a"]


def test_an_undo_and_an_append_after_it_at_once_never_leave_a_gap(store):
    """One writer takes ply n back while another appends ply n + 1: whichever comes second is refused."""
    barrier = threading.Barrier(2)
    store.add_action("g1", 1, "a", 0)
    for _ in range(30):
        with store.engine.connect() as db:
            last = db.execute(text("SELECT max(ply) FROM actions WHERE game_id = 'g1'")).scalar() or 0
        if last == 0:
            store.add_action("g1", 1, "a", 0)
            last = 1

        def append(ply=last + 1) -> None:
            barrier.wait()
            with contextlib.suppress(PlyTaken):
                store.add_action("g1", ply, "a", 0)

        def undo(ply=last) -> None:
            barrier.wait()
            with contextlib.suppress(PlyTaken):
                store.remove_action("g1", ply)

        threads = [threading.Thread(target=append), threading.Thread(target=undo)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        with store.engine.connect() as db:
            plies = db.execute(text("SELECT ply FROM actions WHERE game_id = 'g1' ORDER BY ply")).scalars().all()
        assert plies == list(range(1, len(plies) + 1)), f"a gap in the stored plies: {plies}"


def test_a_lease_is_held_by_one_owner_until_it_runs_out(store):
    assert store.claim_lease("g1", 1, "A", 0.5)
    assert not store.claim_lease("g1", 1, "B", 0.5)
    assert store.claim_lease("g1", 1, "A", 0.5), "the owner renews its own lease"
    time.sleep(0.6)
    assert store.claim_lease("g1", 1, "B", 5)
    assert not store.claim_lease("g1", 1, "A", 5)
    assert store.lease_of("g1")["owner"] == "B"


def test_a_move_from_a_lost_lease_is_dropped(store):
    assert store.claim_lease("g1", 1, "A", 0.3)
    time.sleep(0.4)
    assert store.claim_lease("g1", 1, "B", 5)
    with pytest.raises(PlyTaken):
        store.add_action("g1", 1, "from A", 1, lease="A")
    assert store.load("g1").actions == []
    store.add_action("g1", 1, "from B", 1, lease="B")
    with pytest.raises(PlyTaken):           # a lease is spent by its move
        store.add_action("g1", 2, "again", 1, lease="B")
    assert store.load("g1").actions == ["from B"]
    assert store.claim_lease("g1", 2, "A", 5), "the next ply's lease is free"


def test_an_action_takes_the_next_ai_moves_lease_in_its_own_transaction_only_when_it_is_free(store):
    assert not store.add_action("g1", 1, "a", 0, claim_next=("A", 5)), "a game's first lease is made by claim_lease"
    assert store.lease_of("g1") is None
    assert store.claim_lease("g1", 2, "B", 5)
    store.add_action("g1", 2, "b", 1, lease="B")
    assert store.add_action("g1", 3, "c", 0, claim_next=("A", 5))
    assert (store.lease_of("g1")["owner"], store.lease_of("g1")["ply"]) == ("A", 4)
    assert not store.claim_lease("g1", 4, "B", 5)
    assert store.add_action("g1", 4, "d", 1, lease="A", claim_next=("A", 5)), "an AI move leases the next AI move"
    assert store.add_action("g1", 5, "e", 0, claim_next=("B", 5)), "a lease on an earlier ply is void"
    store.add_action("g1", 6, "f", 1, lease="B")
    with pytest.raises(PlyTaken):          # a refused action takes no lease
        store.add_action("g1", 6, "g", 0, claim_next=("A", 5))
    assert (store.lease_of("g1")["owner"], store.lease_of("g1")["ply"]) == ("B", 6)
    assert store.load("g1").actions == ["a", "b", "c", "d", "e", "f"]


def test_a_finished_game_has_one_rematch_and_a_second_one_stores_nothing(store):
    def new(game_id: str) -> StoredGame:
        return StoredGame(id=game_id, game="capsule", options={}, setup=None, seed=8, salt="s", created="now",
                          seats=[{"kind": "human"}, {"kind": "human"}])

    assert store.load("g1").rematch is None
    store.create_game(new("r1"), rematch_of="g1", invite="first")
    with pytest.raises(AlreadyRematched):
        store.create_game(new("r2"), rematch_of="g1", invite="second")
    assert store.load("g1").rematch == {"id": "r1", "invite": "first"}
    assert store.load("r2") is None


def test_a_database_made_before_rematches_were_stored_gains_them(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Store(url)
    old.create_game(StoredGame(id="g1", game="capsule", options={}, setup=None, seed=7, salt="s", created="now",
                               seats=[{"kind": "human"}, {"kind": "human"}]))
    with old.engine.begin() as db:
        db.execute(text("DROP TABLE rematches"))
    old.close()
    store = Store(url)
    store.create_game(StoredGame(id="r1", game="capsule", options={}, setup=None, seed=8, salt="s", created="now",
                                 seats=[{"kind": "human"}, {"kind": "human"}]), rematch_of="g1", invite="i")
    assert store.load("g1").rematch == {"id": "r1", "invite": "i"}
    store.close()


async def play_until_undoable(tables: Tables, table: Table, at_least: int) -> None:
    """Moves (never "end") until `at_least` more are made and the last one may be taken back."""
    for n in range(100):
        if n >= at_least and table.match.can_undo(table.match.current_player):
            return
        legal = [table.game.format_action(a) for a in table.match.state.legal_actions()]
        move = next((x for x in legal if x != "end"), "end")
        await tables.act(table, table.match.current_player, move, len(table.match.steps))
    raise AssertionError("no move that may be taken back in 100 plies")


def test_a_table_catching_up_reads_only_what_an_undo_may_change_and_ends_as_a_full_reload(store):
    """Two processes on one store: A holds the game while B plays on, then takes a move back and plays another. A
    catches up without reading again the actions no undo can take back, and every reader's view is a fresh load's."""
    async def run() -> None:
        here, there = Tables(store), Tables(store)
        table, _, _, invite = await here.create("capsule", {}, [{"kind": "human"}] * 2, None)
        await here.join(table.id, None, invite)
        theirs = await there.get(table.id)

        async def caught_up() -> None:
            assert await here.refresh(table)
            fresh = await Tables(store).get(table.id)
            assert table.stored.actions == fresh.stored.actions == theirs.stored.actions
            for seat in (0, 1, None):
                assert table.payload(seat, "en") == fresh.payload(seat, "en"), f"the view of {seat}"

        await play_until_undoable(there, theirs, 4)
        await caught_up()
        assert 0 < table.match.settled() < len(table.match.steps), "part read again, part kept"
        assert store.load(table.id, ["kept"]).actions[0] == "kept", "the settled actions are not read again"
        undone = theirs.stored.actions[-1]
        await there.undo(theirs, theirs.match.current_player, len(theirs.match.steps))
        legal = [theirs.game.format_action(a) for a in theirs.match.state.legal_actions()]
        other = next(x for x in legal if x not in (undone, "end"))
        await there.act(theirs, theirs.match.current_player, other, len(theirs.match.steps))
        await play_until_undoable(there, theirs, 3)
        await caught_up()
        for tables in (here, there):
            tables.close()

    on_own_loop(run())


def test_a_reader_arriving_as_its_game_is_let_go_is_attached_to_the_table_held_and_kept_up_to_date(store):
    """A notice from another process lets go of a game nobody reads here; a reader on its way to the old table
    is attached to the one the process holds again, which the next move reaches."""
    async def run() -> None:
        here, there = Tables(store), Tables(store)
        table, _, _, invite = await here.create("capsule", {}, [{"kind": "human"}] * 2, None)
        theirs = await there.get(table.id)
        await play_until_undoable(there, theirs, 1)
        await here.on_notice(table.id, len(theirs.match.steps), there.owner)
        assert table.id not in here.live, "nobody reads it here, so it was let go"
        reader = Watcher(None, "en", None)
        held = await here.add_reader(table, reader)
        assert here.live[table.id] is held and reader in held.watchers and reader not in table.watchers
        assert held.stored.actions == theirs.stored.actions
        for tables in (here, there):
            tables.close()

    on_own_loop(run())


async def _unheard(message: dict) -> None:
    pass


class HeldThinker:
    """The real AI pool, each answer held back until `released`: the game can change while a move is computed."""

    def __init__(self):
        self.pool = PoolThinker(1)
        self.released = asyncio.Event()
        self.jobs: list = []
        self.answers: list[str] = []

    def warm(self) -> None:
        pass

    async def think(self, job) -> str:
        self.jobs.append(job)
        move = await self.pool.think(job)
        await self.released.wait()
        self.answers.append(move)
        return move

    def close(self) -> None:
        self.pool.close()


async def eventually(condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        await asyncio.sleep(0.05)


async def another_move(tables: Tables, table: Table, player: int) -> None:
    """`player` takes back their last move and makes another one: the game is at the same ply again."""
    undone, ply = table.stored.actions[-1], len(table.match.steps)
    await tables.undo(table, player, ply)
    legal = [table.game.format_action(a) for a in table.match.state.legal_actions()]
    await tables.act(table, player, next(x for x in legal if x not in (undone, "end")), ply - 1)


def test_an_ai_move_computed_before_an_undo_does_not_land_on_the_position_after_it(store):
    """A player moves and idles: the AI computes the seat's next move. The player comes back, takes the move back,
    makes another and idles again before the AI answers: that answer, computed on the position taken back, names
    the same ply as the new one. It is dropped, and the AI plays a move computed on the position there is."""
    async def run() -> None:
        thinker = HeldThinker()
        tables = Tables(store, thinker=thinker)
        table, _, _, _ = await tables.create("capsule", {}, [{"kind": "human"}] * 2, 5)
        await play_until_undoable(tables, table, 1)
        player, ply = table.match.current_player, len(table.match.steps)
        await tables.add_reader(table, Watcher(1 - player, "en", _unheard))   # an idle seat is handed over
        # only while someone is at the table

        async def idle() -> None:
            table.last_activity -= 10
            await tables.hand_idle_seats()
            assert player in table.agents

        await idle()
        await eventually(lambda: len(thinker.jobs) == 1, "the AI is asked for the idle seat's move")
        await tables.reclaim(table, player)
        await another_move(tables, table, player)
        after_undo = tuple(table.stored.actions)
        await idle()
        thinker.released.set()
        await eventually(lambda: len(store.load(table.id).actions) > ply, "the AI moves")
        stored = store.load(table.id).actions
        assert thinker.jobs[0].actions != after_undo and thinker.jobs[1].actions == after_undo
        assert stored[:ply + 1] == [*after_undo, thinker.answers[1]]
        await eventually(table.ai_task.done, "the AI ends the seat's turn")
        tables.close()

    on_own_loop(run())


def test_an_ai_move_leased_before_an_undo_is_refused_by_the_store_on_the_position_after_it(store, redis_url):
    """This process holds the AI's lease on a ply and computes the move while another takes the last move back and
    makes another: the ply is the same and this process has not heard of the change (its memory still has the old
    position), so only the store's compare-and-set on the position refuses the move."""
    async def run() -> None:
        thinker = HeldThinker()
        here = Tables(store, bus=RedisBus(redis_url), thinker=thinker)
        await here.bus.start(here.on_notice)
        there = Tables(store)                        # no bus: nothing it stores is heard here
        table, _, _, _ = await there.create("capsule", {}, [{"kind": "human"}] * 2, None)
        await play_until_undoable(there, table, 1)
        player, ply, seats = table.match.current_player, len(table.match.steps), table.stored.seats

        def handed_over(to_ai: bool) -> None:
            changed = [dict(s) for s in seats]
            if to_ai:
                changed[player].update(kind="ai", agent="greedy", handed_over=True)
            store.set_seats(table.id, changed)

        handed_over(True)
        reader = Watcher(1 - player, "en", _unheard)    # the AI plays a handed-over seat only while someone is there
        held = await here.add_reader(await here.get(table.id), reader)
        await here.seen(held, reader)
        await eventually(lambda: len(thinker.jobs) == 1, "the AI is asked for the idle seat's move")
        assert store.lease_of(table.id)["owner"] == here.owner and store.lease_of(table.id)["ply"] == ply + 1
        handed_over(False)
        await another_move(there, table, player)
        after_undo = tuple(table.stored.actions)
        handed_over(True)
        assert held.stored.actions != list(after_undo), "this process still holds the position taken back"
        thinker.released.set()
        await eventually(lambda: len(store.load(table.id).actions) > ply, "the AI moves")
        stored = store.load(table.id).actions
        assert thinker.jobs[1].actions == after_undo and stored[:ply + 1] == [*after_undo, thinker.answers[1]]
        await eventually(held.ai_task.done, "the AI ends the seat's turn")
        await here.bus.close()
        for tables in (here, there):
            tables.close()

    on_own_loop(run())
