"""The web table's REST API and WebSockets, against the real app and a real SQLite file."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

import coliseo
from coliseo.core.events import view_event
from coliseo.core.reasons import reason_words
from coliseo.store.db import games as stored_games
from coliseo.web.app import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as c:
        yield c


def create(client, game="capsule", seats=None, **extra):
    seats = seats or [{"kind": "human"}, {"kind": "ai", "agent": "greedy"}]
    response = client.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def hello(ws, token=None, lang="en"):
    ws.send_json({"type": "hello", "token": token, "lang": lang})
    return ws.receive_json()


def until_my_turn(ws):
    """Messages until a state where this seat has legal actions (or the game is over)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "state" and (message["legal"] or message["result"]):
            return message


def test_catalog_lists_every_game_with_its_agents_and_no_server_only_options(client):
    rows = client.get("/api/catalog").json()
    assert [r["id"] for r in rows] == coliseo.list_games()
    for row in rows:
        assert "random" in row["agents"]
        assert not {"packs", "pack"} & {o["name"] for o in row["options"]}
    forbidden = next(r for r in rows if r["id"] == "forbidden")
    assert "cpu_privileged" not in {o["name"] for o in forbidden["options"]}, \
        "no CPU duelist of the shipped pack sees face-down cards, so the option would change nothing"


def test_the_catalog_offers_capsules_team_presets_by_mode_in_the_readers_language(client):
    rows = {r["id"]: r for r in client.get("/api/catalog?lang=es").json()}
    sides = {s["id"]: s for s in rows["capsule"]["sides"]}
    assert sides["adv_storm"]["name"] == "Rey de la Tormenta" and sides["adv_storm"]["options"] == {"mode": "advanced"}
    assert "Titán de la Tormenta" in sides["adv_storm"]["detail"]
    assert sides["starter_dawn"]["options"] == {"mode": "basic"}
    assert rows["dungeon_dice"]["sides"] == []
    terrain = next(o for o in rows["forbidden"]["options"] if o["name"] == "terrain")
    assert terrain["value_words"][0] == [0, "Normal"] and terrain["value_words"][-1] == [6, "Oscuridad (Yami)"]
    assert all(o["value_words"] is None for o in rows["capsule"]["options"])


def test_each_seat_plays_the_team_it_was_given_and_a_rematch_keeps_them(client):
    humans = [{"kind": "human"}, {"kind": "human"}]
    made = create(client, seats=humans, options={"mode": "advanced", "max_turns": 3},
                  sides=["adv_storm", "adv_stone"])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        tray = hello(ws, made["token"])["observation"]["tray"]       # R9: each person first places their pieces
        state = client.app.state.tables.live[made["id"]].match.state
    assert tray[0] == {"piece": "K", "kind": "king", "card": "storm_king", "faction": "electric"}
    assert {p: state.tray[p][0][1][3].id for p in (0, 1)} == {0: "storm_king", 1: "stone_king"}
    token = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()["token"]
    _play_to_the_end(client, made["id"], [made["token"], token])
    again = client.post(f"/api/games/{made['id']}/rematch", json={"token": made["token"]}).json()
    store = client.app.state.tables.store
    assert store.load(again["id"]).setup == store.load(made["id"]).setup == {
        "players": [{"preset": "adv_storm", "placement": "choose"}, {"preset": "adv_stone", "placement": "choose"}]}


def test_a_seat_plays_against_the_ai_and_the_action_is_stored_before_the_ack(client, tmp_path):
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = hello(ws, made["token"])
        assert first["you"] == 0 and first["legal"] and first["observation"] == _observation_now(client, made, 0)
        ws.send_json({"type": "act", "action": first["legal"][1], "ply": 0, "ref": "a"})
        while (message := ws.receive_json())["type"] != "ack":
            assert message["type"] == "state"
        assert message["ref"] == "a"
    stored = client.app.state.tables.store.load(made["id"])
    assert stored.actions[0] == first["legal"][1]


def _observation_now(client, made, seat):
    table = client.app.state.tables.live[made["id"]]
    return json.loads(json.dumps(table.match.state.observation(seat)))


def test_an_illegal_action_says_why_and_changes_nothing(client):
    made = create(client)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        hello(ws, made["token"])
        ws.send_json({"type": "act", "action": "z9-z10", "ply": 0, "ref": 1})
        error = ws.receive_json()
        assert error["type"] == "error" and "legal now" in error["message"] and error["ref"] == 1
        ws.send_json({"type": "act", "action": 42})
        assert "act" in ws.receive_json()["message"]
        ws.send_text("not json")
        assert "JSON" in ws.receive_json()["message"]
    assert client.app.state.tables.store.load(made["id"]).actions == []


def test_nobody_acts_for_another_seat(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        state = hello(ws, joined["token"])
        assert state["you"] == 1 and state["legal"] == []
        ws.send_json({"type": "act", "action": "random", "ply": 0})
        assert ws.receive_json()["message"] == "it is not your turn"
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        refused = hello(ws, "not-a-real-token")
        assert refused["type"] == "error" and refused["fatal"]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        spectator = hello(ws, None)
        assert spectator["you"] is None and spectator["legal"] == []
        assert spectator["observation"] == _observation_now(client, made, None)
        ws.send_json({"type": "act", "action": "random", "ply": 0})
        assert ws.receive_json()["message"] == "spectators cannot act"
    assert client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).status_code == 409


def test_no_payload_shows_the_opponents_hidden_capsules(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as ws0, client.websocket_connect(f"/ws/{made['id']}") as ws1:
        seen0 = hello(ws0, made["token"])
        hello(ws1, joined["token"])
        updates = []                                      # what Player 1's socket receives, through turn 1
        ws0.send_json({"type": "act", "action": "random", "ply": 0})       # R9: both place, then turn 1
        while updates[-1:] == [] or updates[-1]["type"] != "ack":
            updates.append(ws0.receive_json())
        ws1.receive_json()
        ws1.send_json({"type": "act", "action": "random", "ply": 1})
        while ws1.receive_json()["type"] != "ack":
            pass
        updates.append(ws0.receive_json())
        seen1 = {"observation": client.app.state.tables.live[made["id"]].match.state.observation(1)}
        table = client.app.state.tables.live[made["id"]]
        secret = {p["card"] for p in table.match.state.observation(1)["pieces"] if p["owner"] == 1}
        visible_to_0 = {p.get("card") for p in table.match.state.observation(0)["pieces"]}
        hidden = secret - visible_to_0
        assert hidden, "player 2 has capsules player 1 cannot see"
        for card in hidden:
            assert card not in json.dumps([seen0, *updates])
        assert hidden <= {p.get("card") for p in seen1["observation"]["pieces"]}


def test_undo_takes_back_a_move_within_the_turn_and_in_the_store(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        state = hello(ws, made["token"])
        move = next(a for a in state["legal"] if "@" in a)         # R9: a piece placed, then taken back
        ws.send_json({"type": "act", "action": move, "ply": 0})
        after = ws.receive_json()
        assert ws.receive_json()["type"] == "ack" and after["can_undo"] and after["ply"] == 1
        ws.send_json({"type": "undo", "ply": 1})
        undone = ws.receive_json()
        assert undone["ply"] == 0 and undone["observation"] == state["observation"] and undone["log"] == []
        assert ws.receive_json()["type"] == "ack"
        ws.send_json({"type": "undo", "ply": 0, "undos": undone["undos"]})
        assert "nothing to undo" in ws.receive_json()["message"]
    assert client.app.state.tables.store.load(made["id"]).actions == []


def test_a_finished_game_publishes_its_record_and_replays_from_each_view(client):
    made = create(client, seats=[{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}],
                  options={"max_turns": 4})
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        if hello(ws)["result"] is None:
            until_my_turn(ws)
    record = client.get(f"/api/games/{made['id']}/record").json()
    assert record["format"] == "coliseo-record/1" and record["seed"] is not None and record["result"]
    assert record["seed_commitment"] == client.get(f"/api/games/{made['id']}").json()["seed_commitment"]
    assert coliseo.core.match.verify(record).state.result == record["result"]
    for view in ("0", "1", "spectator"):
        replay = client.get(f"/api/games/{made['id']}/replay", params={"view": view}).json()
        assert len(replay["frames"]) == len(record["actions"]) + 1
        assert all(frame["picture"] is None for frame in replay["frames"])   # drawn by the game's own board
        assert any(frame["marks"] for frame in replay["frames"])            # the squares each step touched
        # Each step in the words its player was offered, in that player's own view only.
        own = [f["words"] for f in replay["frames"][1:] if not f["action"].startswith("!") and str(f["player"]) == view]
        others = [f["words"] for f in replay["frames"][1:] if str(f["player"]) != view]
        assert all(own) and (own or view == "spectator") and not any(others), (view, own, others)
    assert client.get(f"/api/games/{made['id']}/replay", params={"view": "9"}).status_code == 422


def test_the_end_reads_in_the_readers_words_and_an_older_stored_code_lists_as_todays(client):
    """The page shows the server's words for why a game ended (it keeps no table of its own); a game stored while
    Fantastiqa ended at its turn limit as `max_turns` lists with today's `turn_limit` (core/reasons.py)."""
    made = create(client, seats=[{"kind": "ai", "agent": "random"}, {"kind": "ai", "agent": "random"}],
                  options={"max_turns": 4}, listed=True)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        over = hello(ws, lang="es")
        over = over if over["result"] else until_my_turn(ws)
    game = coliseo.load_game("capsule", max_turns=4)
    assert over["reason_text"] == reason_words(game, over["result"]["reason"], "es")
    assert over["result_text"].endswith(f" — {over['reason_text']}") and "_" not in over["reason_text"]
    with client.app.state.tables.store.engine.begin() as db:
        db.execute(update(stored_games).where(stored_games.c.id == made["id"]).values(
            result=json.dumps({"winners": [], "reason": "max_turns", "scores": [3, 3]})))
    listed = next(g for g in client.get("/api/games").json() if g["id"] == made["id"])
    assert listed["result"] == {"winners": [], "reason": "turn_limit", "scores": [3, 3]}


def test_a_game_read_over_rest_alone_is_not_kept_in_memory(client):
    """A lobby reads the summaries of many games; only a game someone watches (or an AI plays) stays live."""
    people = [{"kind": "human"}, {"kind": "human"}]
    made = create(client, seats=people)
    live = lambda: client.get("/api/status").json()["live_games"]      # noqa: E731
    assert client.get(f"/api/games/{made['id']}").status_code == 200 and live() == 0
    assert client.get(f"/api/games/{made['id']}/record").status_code == 409 and live() == 0
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        hello(ws, made["token"])
        assert client.get(f"/api/games/{made['id']}").status_code == 200 and live() == 1
    assert client.get(f"/api/games/{made['id']}").json()["ply"] == 0 and live() == 0


def test_a_summary_read_again_is_not_replayed_until_its_game_changes(client):
    """Lobbies read each of their games every 10 s: a game not in memory is replayed for its summary only when the
    store holds a new version of it (a move, a seat taken, a listing), and the summary is never stale."""
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    summary = lambda: client.get(f"/api/games/{made['id']}").json()                  # noqa: E731
    status = lambda: client.get("/api/status").json()                                # noqa: E731

    def read_twice() -> dict:
        first, before = summary(), status()
        again = summary()
        assert again == first and status()["summary_replays"] == before["summary_replays"], "an unchanged game replayed"
        assert before["live_games"] == 0
        return first

    start = read_twice()                                 # the new game was in memory: its summary is kept from there
    assert (start["ply"], start["current_player"], start["listed"]) == (0, 0, False)
    assert status()["summary_replays"] == 0
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        hello(ws, made["token"])
        ws.send_json({"type": "act", "action": "random", "ply": 0})
        assert ws.receive_json()["type"] == "state" and ws.receive_json()["type"] == "ack"
    ended = read_twice()
    assert (ended["ply"], ended["current_player"]) == (1, 1)
    client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).raise_for_status()
    assert read_twice()["seats"][1]["taken"] and not start["seats"][1]["taken"]
    client.post(f"/api/games/{made['id']}/listing", json={"token": made["token"], "listed": True}).raise_for_status()
    assert read_twice()["listed"]


def next_of(ws, kind: str) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def test_each_reader_sees_which_seats_have_the_table_open(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as first:
        assert hello(first, made["token"])["present"] == [True, False]
        with client.websocket_connect(f"/ws/{made['id']}") as second:
            assert hello(second, joined["token"])["present"] == [True, True]
            assert next_of(first, "presence") == {"type": "presence", "present": [True, True]}
            with client.websocket_connect(f"/ws/{made['id']}?spectate=1") as watcher:   # a spectator is no seat
                assert hello(watcher, None, "es")["present"] == [True, True]
            second.send_json({"type": "act", "action": "random", "ply": 0})         # not Player 2's turn: refused
            assert next_of(second, "error")
        assert next_of(first, "presence") == {"type": "presence", "present": [True, False]}


def test_the_record_and_the_seed_stay_sealed_while_the_game_is_played(client):
    made = create(client)
    assert client.get(f"/api/games/{made['id']}/record").status_code == 409
    assert client.get(f"/api/games/{made['id']}/replay").status_code == 409
    seed = str(client.app.state.tables.store.load(made["id"]).seed)
    for path in (f"/api/games/{made['id']}", "/api/games"):
        assert seed not in client.get(path).text


@pytest.mark.parametrize("body, status, words", [
    ({"game": "chess", "seats": [{"kind": "human"}]}, 400, "unknown game"),
    ({"game": "capsule", "seats": [{"kind": "human"}]}, 400, "2 players"),
    ({"game": "capsule", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "nobody"}]}, 400, "agent"),
    ({"game": "capsule", "seats": [{"kind": "human"}] * 2, "options": {"max_turns": "x"}}, 400, "max_turns"),
    ({"game": "capsule", "seats": [{"kind": "human"}] * 2, "options": {"packs": ["/etc/passwd"]}}, 400, "server"),
    ({"game": "capsule", "seats": [{"kind": "human"}] * 2, "sides": ["adv_storm", "adv_stone"]}, 400,
     "no basic team preset 'adv_storm'"),
    ({"game": "capsule", "seats": [{"kind": "human"}] * 2, "sides": ["starter_dawn"]}, 400, "each of the 2 players"),
    ({"game": "dungeon_dice", "seats": [{"kind": "human"}] * 2, "sides": ["x", None]}, 400, "no sides to pick"),
    ({"game": "capsule", "seats": [{"kind": "robot"}] * 2}, 422, "seats"),
    ({"seats": []}, 422, "game"),
])
def test_bad_requests_get_a_clear_4xx_and_create_nothing(client, body, status, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == status and words in response.json()["detail"]
    assert client.get("/api/games").json() == []


def test_too_large_bodies_and_unknown_games_are_refused(client):
    big = client.post("/api/games", content=b"{" + b" " * 20_000 + b"}", headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert client.get("/api/games/000000000000").status_code == 404
    assert client.get("/api/games/not-an-id").status_code == 422
    with client.websocket_connect("/ws/000000000000") as ws:
        assert hello(ws)["fatal"]


def test_an_idle_seat_is_handed_to_the_ai(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'idle.db'}", idle_check_seconds=0.05)
    with TestClient(app) as client:
        made = create(client, idle_seconds=5)
        table = client.app.state.tables.live[made["id"]]
        table.last_activity -= 10          # five seconds of nobody acting, without waiting for them
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            hello(ws, made["token"])
            while not ws.receive_json()["seats"][0]["handed_over"]:
                pass
        assert client.app.state.tables.store.load(made["id"]).seats[0]["kind"] == "ai"


def test_the_pages_and_their_files_are_served_by_the_app(client):
    for path in ("/", "/play/000000000000", "/replay/000000000000"):
        page = client.get(path)
        assert page.status_code == 200 and "<script" in page.text
        assert "http" not in page.text.replace("http-equiv", "")
        for src in __import__("re").findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
            assert client.get(src).status_code == 200, src
    assert "default-src 'self'" in client.get("/").headers["content-security-policy"]


def test_a_seat_reads_the_events_in_its_language(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()
    with client.websocket_connect(f"/ws/{made['id']}") as english, \
            client.websocket_connect(f"/ws/{made['id']}") as spanish:
        hello(english, made["token"], "en")
        hello(spanish, joined["token"], "es")
        english.send_json({"type": "act", "action": "random", "ply": 0})      # R9: the placement first
        seen = spanish.receive_json()
        game = coliseo.load_game("capsule")
        event = view_event(client.app.state.tables.live[made["id"]].match.steps[-1].events[0], 1)
        assert seen["log"][0]["text"] == game.render(event, "es") != game.render(event, "en")


def test_a_chunked_body_without_a_length_is_limited_too(client):
    def chunks():
        for _ in range(40):
            yield b" " * 1024

    response = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413 and "larger" in response.json()["detail"]


def test_a_game_nobody_watches_leaves_memory_and_comes_back_from_the_store(client):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        state = hello(ws, made["token"])
        ws.send_json({"type": "act", "action": "random", "ply": 0})
        while ws.receive_json()["type"] != "ack":
            pass
    assert made["id"] not in client.app.state.tables.live
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        again = hello(ws, made["token"])
    assert again["ply"] == 1 and again["observation"] != state["observation"]


def test_nothing_is_loaded_from_outside(client):
    from coliseo.web.app import STATIC

    namespace = "http://www.w3.org/2000/svg"      # an identifier in SVG, never fetched
    for path in STATIC.rglob("*"):
        if path.is_file():
            served = client.get(f"/static/{path.relative_to(STATIC).as_posix()}")
            assert served.status_code == 200
            text = served.text.replace(namespace, "")
            assert "http://" not in text and "https://" not in text and "//cdn" not in text, path.name


def _too_many(message: dict) -> bool:
    return message["type"] == "error" and "too many messages" in message["message"]


@contextlib.contextmanager
def _patient_socket(client, game_id, token=None):
    """A socket past its hello: the server's rate limit (every message counts) closes a socket whose hello is
    over it, so after a pause a new socket says hello again."""
    while True:
        with client.websocket_connect(f"/ws/{game_id}") as ws:
            state = hello(ws, token)
            if not _too_many(state):
                yield ws, state
                return
        time.sleep(0.25)


def _play_to_the_end(client, game_id, tokens):
    """Each seat in turn plays its first legal action (ending the turn when it can) until the game is over."""
    while True:
        with _patient_socket(client, game_id) as (ws, state):
            if state["result"]:
                return state
            seat = state["current_player"]
        with _patient_socket(client, game_id, tokens[seat]) as (ws, state):
            action = "end" if "end" in state["legal"] else state["legal"][0]
            act = {"type": "act", "action": action, "ply": state["ply"]}
            ws.send_json(act)
            while (message := ws.receive_json())["type"] != "ack":
                if _too_many(message):
                    time.sleep(0.25)
                    ws.send_json(act)
                else:
                    assert message["type"] != "error", message


def test_a_rematch_keeps_seats_and_options_with_a_new_seed_and_each_player_their_seat(client):
    humans = [{"kind": "human"}, {"kind": "human"}]
    made = create(client, seats=humans, options={"max_turns": 3})
    invite = {"invite": made["invite"]}
    tokens = [made["token"], client.post(f"/api/games/{made['id']}/join", json=invite).json()["token"]]
    rematch = f"/api/games/{made['id']}/rematch"
    early = client.post(rematch, json={"token": tokens[0]})
    assert early.status_code == 409 and "not over" in early.json()["detail"]
    _play_to_the_end(client, made["id"], tokens)
    assert client.post(rematch, json={"token": "wrong"}).status_code == 403
    assert client.post(rematch, json={}).status_code == 422
    second = client.post(rematch, json={"token": tokens[1]})
    assert second.status_code == 201 and second.json()["seat"] == 1
    first = client.post(rematch, json={"token": tokens[0]}).json()
    assert first["id"] == second.json()["id"] and first["seat"] == 0
    assert client.post(rematch, json={"token": tokens[1]}).status_code == 409   # that seat is taken already
    store = client.app.state.tables.store
    old, new = store.load(made["id"]), store.load(first["id"])
    assert new.options == old.options and new.options["max_turns"] == 3 and new.seed != old.seed
    assert [s["kind"] for s in new.seats] == ["human", "human"] and new.actions == []
    with _patient_socket(client, made["id"]) as (_, state):
        assert state["rematch"] == first["id"]
    with _patient_socket(client, first["id"], first["token"]) as (_, state):
        assert state["you"] == 0


def test_a_player_asking_another_server_process_joins_the_same_rematch(client, tmp_path):
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], options={"max_turns": 3})
    joined = client.post(f"/api/games/{made['id']}/join", json={"invite": made["invite"]}).json()
    tokens = [made["token"], joined["token"]]
    _play_to_the_end(client, made["id"], tokens)
    first = client.post(f"/api/games/{made['id']}/rematch", json={"token": tokens[0]}).json()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}")) as other:     # another process, or a restart
        with other.websocket_connect(f"/ws/{made['id']}") as ws:
            assert hello(ws)["rematch"] == first["id"]
        second = other.post(f"/api/games/{made['id']}/rematch", json={"token": tokens[1]})
    assert second.status_code == 201, second.text
    assert second.json()["id"] == first["id"] and second.json()["seat"] == 1
    assert second.json()["invite"] == first["invite"]
    seats = client.app.state.tables.store.load(first["id"]).seats
    assert all(s.get("token_hash") for s in seats)
