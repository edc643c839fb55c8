"""What the web table keeps in memory: a game nobody reads leaves it once its AI has finished and a short grace has
passed; the store keeps the game, which plays on when it is opened again (a real SQLite store, in process)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from coliseo.store import Store
from coliseo.web.app import create_app
from coliseo.web.table import Watcher
from coliseo.web.tables import Tables

from .conftest import on_own_loop

PEOPLE = [{"kind": "human"}, {"kind": "human"}]
VERSUS_AI = [{"kind": "human"}, {"kind": "ai", "agent": "greedy"}]


async def _ignore(_message: dict) -> None:
    pass


def test_a_game_created_and_never_opened_leaves_memory_after_the_grace_and_plays_on(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'unread.db'}")

    async def run() -> None:
        tables = Tables(store, unread_grace=30)
        table, seat, _, _ = await tables.create("capsule", {}, PEOPLE, None)
        tables.let_go_unread()
        tables.let_go_unread()
        assert tables.live[table.id] is table, "within the grace it stays"
        table.unread_since -= 30                       # thirty seconds unread, without waiting for them
        tables.let_go_unread()
        assert table.id not in tables.live
        again = await tables.get(table.id)
        assert again is not table and await tables.act(again, seat, "random", 0) == 1     # R9: the placement
        assert store.load(table.id).actions == ["random"]
        tables.close()

    on_own_loop(run())
    store.close()


def test_a_game_read_is_never_let_go(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'read.db'}")

    async def run() -> None:
        tables = Tables(store, unread_grace=0)
        table, seat, _, _ = await tables.create("capsule", {}, PEOPLE, None)
        await tables.add_reader(table, Watcher(seat, "en", _ignore))
        for _ in range(3):
            tables.let_go_unread()
        assert tables.live[table.id] is table and table.unread_since is None
        tables.close()

    on_own_loop(run())
    store.close()


def test_a_game_whose_last_reader_left_while_the_ai_was_to_move_stores_the_ai_move_then_leaves_memory(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'ai.db'}")

    async def run() -> None:
        tables = Tables(store, unread_grace=30)
        table, seat, _, _ = await tables.create("capsule", {}, VERSUS_AI, None)
        reader = Watcher(seat, "en", _ignore)
        await tables.add_reader(table, reader)
        await tables.act(table, seat, "random", 0)     # R9: the placement, then
        await tables.act(table, seat, "end", 1)        # the AI is to move
        table.watchers.discard(reader)                 # and the reader leaves, as a closed socket does
        tables.release(table)
        tables.let_go_unread()
        assert tables.live[table.id] is table and table.ai_task is not None, "the AI is thinking"
        await table.ai_task
        played = store.load(table.id).actions
        assert len(played) > 1 and table.match.current_player == seat, "the AI's turn is played and stored"
        tables.let_go_unread()
        table.unread_since -= 30
        tables.let_go_unread()
        assert table.id not in tables.live
        again = await tables.get(table.id)
        assert again.match.current_player == seat and again.stored.actions == played
        assert await tables.act(again, seat, "end", len(played)) == len(played) + 1
        tables.close()

    on_own_loop(run())
    store.close()


def test_the_server_lets_go_of_games_nobody_reads_and_opens_them_again(tmp_path):
    """A game nobody opened, and one whose reader left while the AI was to move: the idle watch lets both go (the
    server's own status says when), and both play on from the store."""
    app = create_app(f"sqlite:///{tmp_path / 'served.db'}", idle_check_seconds=0.05)
    with TestClient(app) as client:
        client.app.state.tables.unread_grace = 0.1
        status = lambda: client.get("/api/status").json()       # noqa: E731
        unopened = client.post("/api/games", json={"game": "capsule", "seats": PEOPLE}).json()
        left = client.post("/api/games", json={"game": "capsule", "seats": VERSUS_AI}).json()
        with client.websocket_connect(f"/ws/{left['id']}") as ws:
            ws.send_json({"type": "hello", "token": left["token"]})
            for ply, action in enumerate(("random", "end")):       # R9: the placement, then the turn to the AI
                ws.send_json({"type": "act", "action": action, "ply": ply, "ref": ply + 1})
                while ws.receive_json()["type"] != "ack":
                    pass
        deadline = time.monotonic() + 30
        while status()["live_games"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert status()["live_games"] == 0
        for made in (unopened, left):
            with client.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json({"type": "hello", "token": made["token"]})
                state = ws.receive_json()
                ply, action = state["ply"], "random" if "random" in state["legal"] else "end"
                ws.send_json({"type": "act", "action": action, "ply": ply, "ref": 1})
                while (message := ws.receive_json())["type"] != "ack":
                    assert message["type"] == "state"
            assert client.app.state.tables.store.load(made["id"]).actions[ply] == action
        assert ply > 2, "the AI played its turn after its reader left"
