"""`coliseo serve` refuses settings that cannot work, before anything starts; its workers answer without delay; its log
says what happens to games and keeps their secrets."""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import socket
import time

import uvicorn
from typer.testing import CliRunner
from web.conftest import Server

from coliseo.cli.main import app
from coliseo.cli.web import tcp_socket

runner = CliRunner()


def test_several_workers_without_redis_are_refused():
    result = runner.invoke(app, ["serve", "--workers", "2", "--db", "sqlite:///unused.db"])
    assert result.exit_code == 2
    assert "--workers above 1 needs --redis" in result.output


def test_an_unreachable_database_is_named_without_its_password():
    result = runner.invoke(app, ["serve", "--db", "postgresql+psycopg://someone:secret@127.0.0.1:1/nothing"])
    assert result.exit_code == 2
    assert "cannot open the database postgresql+psycopg://someone:***@127.0.0.1:1/nothing" in result.output
    assert "secret" not in result.output


def test_an_unknown_log_level_is_refused():
    result = runner.invoke(app, ["serve", "--log-level", "loud", "--db", "sqlite:///unused.db"])
    assert result.exit_code == 2
    assert "--log-level must be one of debug, info, warning, error, not 'loud'" in result.output


def logged(server, text: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while text not in server.errors():
        assert time.monotonic() < deadline, f"the log never said {text!r}: {server.errors()}"
        time.sleep(0.1)
    return server.errors()


def test_the_log_has_a_line_per_game_created_and_finished_and_no_secret(server):
    people = server.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
    ais = server.post("/api/games", {"game": "capsule", "options": {"max_turns": 2},
                                     "seats": [{"kind": "ai", "agent": "random"}] * 2})
    log = logged(server, f"game {ais['id']} over after ")
    # two random first turns may both end without an action (R39's double pass) before the turn limit
    ended = "(Draw|Player [12] wins) — (turn limit|two empty turns)"
    assert re.search(f"game {ais['id']} over after \\d+ actions: {ended}", log)
    process = server.get("/api/status")["process"]                # the status names the process its lines name
    assert f"[{process}] game {people['id']} created: capsule, seats human, human" in log
    assert f"game {ais['id']} created: capsule, seats random, random" in log
    assert people["token"] not in log and people["invite"] not in log and ais["invite"] not in log


def test_at_the_warning_level_the_log_keeps_to_problems(tmp_path):
    quiet = Server(tmp_path / "quiet.db", args=("--log-level", "warning")).start()
    try:
        made = quiet.post("/api/games", {"game": "capsule", "seats": [{"kind": "human"}, {"kind": "human"}]})
        quiet.get(f"/api/games/{made['id']}")
        assert "created" not in quiet.errors() and "resumed" not in quiet.errors()
    finally:
        quiet.stop()


def accept_one(listening, answer) -> None:
    """A worker process's part: serve on the inherited socket, report TCP_NODELAY of the first connection."""
    async def serve() -> None:
        accepted = asyncio.get_running_loop().create_future()

        def on_connection(_reader, writer) -> None:
            accepted.set_result(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        async with await asyncio.start_server(on_connection, sock=listening):
            answer.put(await accepted)

    asyncio.run(serve())


def test_the_workers_connections_send_at_once_without_nagles_delay():
    """`serve --workers N` hands one listening socket to N spawned workers (as uvicorn's supervisor does); each
    accepted connection must have TCP_NODELAY, or an ack right after a state waits 40 ms for a delayed ACK."""
    config = uvicorn.Config("coliseo.web.app:app_from_env", host="127.0.0.1", port=0, workers=2)
    listening = tcp_socket(config.bind_socket())
    listening.listen()
    spawn = multiprocessing.get_context("spawn")
    answer = spawn.Queue()
    worker = spawn.Process(target=accept_one, args=(listening, answer))
    worker.start()
    try:
        with socket.create_connection(listening.getsockname(), timeout=30):
            assert answer.get(timeout=30) != 0
    finally:
        worker.join(30)
        listening.close()


def test_a_trusted_proxy_that_is_no_address_is_refused():
    result = runner.invoke(app, ["serve", "--trusted-proxy", "nginx.local", "--db", "sqlite:///unused.db"])
    assert result.exit_code == 2
    assert "--trusted-proxy takes an IP address or network (127.0.0.1, 10.0.0.0/24), not 'nginx.local'" in result.output
