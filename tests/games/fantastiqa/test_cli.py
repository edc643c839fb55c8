"""`coliseo play fantastiqa --players 3 --vs greedy,random`, `rules` and `cards` for Fantastiqa."""

import json

import pytest
from typer.testing import CliRunner

from coliseo.cli.main import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")


def test_play_three_players_against_greedy_and_random():
    moves = "quest sq1\nartifact sa1\nstart TL\nend\nquit\n"
    result = runner.invoke(app, ["play", "fantastiqa", "--players", "3", "--vs", "greedy,random", "--seed", "4",
                                 "--lang", "en"], input=moves)
    out = result.stdout
    assert "Traceback" not in out and result.exception is None or isinstance(result.exception, SystemExit)
    for part in ("Regions:", "Paths:", "Open quests:", "Your hand:", "Player 2", "Player 3", "Legal actions:"):
        assert part in out, part


def test_rules_and_cards():
    assert "Action notation" in runner.invoke(app, ["rules", "fantastiqa", "--lang", "en"]).stdout
    assert "Notación" in runner.invoke(app, ["rules", "fantastiqa", "--lang", "es"]).stdout
    rows = json.loads(runner.invoke(app, ["cards", "fantastiqa", "--where", "kind=beast", "--json"]).stdout)
    assert len(rows) == 18
