"""The one door, for every game: each seat's payloads carry exactly its own observation and its view of the events."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import coliseo
import coliseo.web
from coliseo.core.events import view_events
from coliseo.core.match import Match
from coliseo.web.app import Settings, create_app
from coliseo.web.table import OWN_BOARDS, render


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('views') / 'web.db'}",
                               settings=Settings(messages_per_second=10_000))) as c:
        yield c


def latest_state(ws, ply: int) -> dict:
    while True:
        message = ws.receive_json()
        assert message["type"] != "error", message["message"]
        if message["type"] == "state" and message["ply"] == ply:
            return message


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_every_payload_is_the_readers_own_view(client, game_id):
    n = len(coliseo.load_game(game_id).new_state(0).players)
    made = client.post("/api/games", json={"game": game_id, "seats": [{"kind": "human"}] * n}).json()
    invite = {"invite": made["invite"]}
    tokens = [made["token"]] + [client.post(f"/api/games/{made['id']}/join", json=invite).json()["token"]
                                for _ in range(n - 1)]
    stored = client.app.state.tables.store.load(made["id"])
    truth = Match(coliseo.load_game(game_id, **stored.options), stored.seed, stored.setup)   # R9: people place
    rng = random.Random(11)
    sockets = [client.websocket_connect(f"/ws/{made['id']}") for _ in range(n + 1)]
    try:
        for ws, token in zip(sockets, [*tokens, None]):
            ws.__enter__()
            ws.send_json({"type": "hello", "token": token, "lang": "en"})
            ws.receive_json()
        for ply in range(1, 13):
            if truth.state.is_over:
                break
            mover = truth.state.current_player
            action = rng.choice(truth.state.legal_actions())
            events = truth.play(action)
            sockets[mover].send_json({"type": "act", "action": truth.game.format_action(action), "ply": ply - 1})
            for reader, ws in zip([*range(n), None], sockets):
                seen = latest_state(ws, ply)
                expected = json.loads(json.dumps(truth.state.observation(reader)))
                assert seen["observation"] == expected, f"{game_id}: seat {reader} saw another view"
                assert [e for e in seen["log"] if e["ply"] == ply] == [
                    {"ply": ply, "text": render(truth.game, e, "en")} for e in view_events(events, reader)]
                to_move = reader is not None and reader == truth.state.current_player
                legal = [truth.game.format_action(a) for a in truth.state.legal_actions()]
                assert seen["legal"] == (legal if to_move else [])
                assert seen["steps"] == (truth.game.board_steps(truth.state, truth.state.legal_actions())
                                         if to_move else [])
                hints = getattr(truth.game, "board_hints", None)   # a board's help, from the reader's own view
                assert seen.get("hints") == (json.loads(json.dumps(hints(expected))) if to_move and hints else None)
                assert str(stored.seed) not in json.dumps(seen)
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_the_text_picture_travels_only_to_the_generic_board(client):
    """The server names the board that draws each game (the catalog's and every payload's `board`): its own where
    static/boards/<game>.js exists, else the generic one; only the generic board shows the game's text picture, so
    only those games' payloads carry it."""
    boards = Path(coliseo.web.__file__).parent / "static" / "boards"
    own = {game_id for game_id in coliseo.list_games() if (boards / f"{game_id}.js").is_file()}
    assert own and own == OWN_BOARDS
    catalog = {entry["id"]: entry["board"] for entry in client.get("/api/catalog").json()}
    assert catalog == {game_id: game_id if game_id in own else "generic" for game_id in coliseo.list_games()}
    for game_id in coliseo.list_games():
        n = len(coliseo.load_game(game_id).new_state(0).players)
        made = client.post("/api/games", json={"game": game_id, "seats": [{"kind": "human"}] * n}).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": made["token"], "lang": "en"})
            state = ws.receive_json()
        assert (state["picture"] is None) == (game_id in own) and state["board"] == catalog[game_id], game_id
