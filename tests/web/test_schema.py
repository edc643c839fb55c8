"""No 500 from bad input: schemathesis drives every endpoint of the app's OpenAPI spec with generated requests.

Real games are created first, so generated requests reach the main paths too: most cases that name a game
name one of them (a game being played, or a finished one, whose record and replay are published), and most
joins carry the game's real invite.
"""

from __future__ import annotations

import itertools
import json
import tempfile
import urllib.error
import urllib.request

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from coliseo.web.app import Settings, create_app

# Generous limits: the rate limit would otherwise answer most generated creations with 429.
app = create_app(f"sqlite:///{tempfile.mkdtemp(prefix='coliseo-schema-')}/web.db",
                 settings=Settings(games_per_minute=100_000, messages_per_second=100_000))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
client = TestClient(app)
PEOPLE = {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]}


def new_game() -> dict:
    made = client.post("/api/games", json=PEOPLE)
    assert made.status_code == 201, made.text
    return made.json()


def finished_game() -> dict:
    made = new_game()
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        ws.receive_json()
        ws.send_json({"type": "resign", "ply": 0})
        while ws.receive_json()["type"] != "ack":
            pass
    return made


PLAYED, FINISHED = new_game(), finished_game()
# Which game a case names, in turn: the one being played, the finished one, or whatever was generated.
CHOICES = itertools.cycle(["played", "finished", "generated", "played", "finished"])


def aim_at_real_games(case) -> None:
    if case.operation.path == "/api/games" and case.method == "POST" and isinstance(case.body, dict):
        if next(CHOICES) != "generated":       # a real game and seats, the other fields as generated
            case.body.update(PEOPLE)
        return
    if not case.path_parameters or "game_id" not in case.path_parameters:
        return
    choice = next(CHOICES)
    if choice == "generated":
        return
    game = FINISHED if choice == "finished" else PLAYED
    if case.operation.path.endswith("/join"):
        game = new_game()                      # a join takes a seat: each one gets a fresh game
    case.path_parameters["game_id"] = game["id"]
    if isinstance(case.body, dict) and choice != "finished":
        if "invite" in case.body or case.operation.path.endswith("/join"):
            case.body["invite"] = game["invite"]
        if "token" in case.body:
            case.body["token"] = game["token"]


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case):
    aim_at_real_games(case)
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500


def test_the_real_games_answer_on_the_main_paths():
    """The games the generated cases aim at are what they seem: joinable, published, replayable."""
    fresh = new_game()
    assert client.post(f"/api/games/{fresh['id']}/join", json={"invite": fresh["invite"]}).status_code == 200
    assert client.get(f"/api/games/{FINISHED['id']}/record").json()["actions"] == ["!resign 0"]
    assert client.get(f"/api/games/{FINISHED['id']}/replay", params={"view": "1"}).status_code == 200
    assert client.get(f"/api/games/{PLAYED['id']}/record").status_code == 409


def test_the_sockets_http_neighbours_answer_without_a_server_error():
    for game_id in (PLAYED["id"], FINISHED["id"], "000000000000", "not-an-id", "%00", "a" * 300):
        for path in (f"/ws/{game_id}", f"/play/{game_id}", f"/replay/{game_id}"):
            for method in ("GET", "POST", "HEAD"):
                assert client.request(method, path).status_code < 500, (method, path)
    assert client.get(f"/play/{PLAYED['id']}").status_code == 200
    assert client.get("/docs").status_code == 200


def test_every_422_the_schema_declares_is_the_problem_the_server_sends(server):
    """The schema declared FastAPI's list of validation errors for some 422s; the server sends {"detail": "..."}."""
    spec = server.get("/openapi.json")
    assert "HTTPValidationError" not in json.dumps(spec)
    problem = spec["components"]["schemas"]["Problem"]
    assert problem["properties"] == {"detail": {"title": "Detail", "type": "string"}}
    bad = {("get", "/api/catalog"): "?lang=xx", ("get", "/api/games"): "?limit=0"}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if operation.get("parameters") or operation.get("requestBody"):
                declared = operation["responses"]["422"]["content"]["application/json"]["schema"]
                assert declared == {"$ref": "#/components/schemas/Problem"}, (method, path)
    for (method, path), query in bad.items():
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(server.url + path + query, method=method.upper()))
        body = json.loads(refused.value.read())
        assert refused.value.code == 422 and list(body) == ["detail"] and isinstance(body["detail"], str), body
