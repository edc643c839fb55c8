"""`coliseo serve` refuses settings that cannot work, before anything starts."""

from __future__ import annotations

from typer.testing import CliRunner

from coliseo.cli.main import app

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
