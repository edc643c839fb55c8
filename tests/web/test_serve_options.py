"""`coliseo serve` refuses settings that cannot work, before anything starts; its workers answer without delay."""

from __future__ import annotations

import asyncio
import multiprocessing
import socket

import uvicorn
from typer.testing import CliRunner

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
