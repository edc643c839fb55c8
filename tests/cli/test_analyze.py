"""`coliseo analyze`: a record or a game of a run judged decision by decision, as JSON lines or a table."""

import json
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import coliseo
from coliseo.agents import Seat, make_agent
from coliseo.cli.main import app
from coliseo.core.match import Match, save_record
from coliseo.sim.run import make_config, simulate

runner = CliRunner()
KEYS = ["ply", "player", "action", "before", "after", "best", "loss", "mark"]


@pytest.fixture(autouse=True)
def narrow_terminal(monkeypatch, tmp_path):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "80")


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    """A finished Capsule game of greedy against random, as `coliseo play` writes it."""
    game = coliseo.load_game("capsule")
    match = Match(game, 21, players=["greedy", "random"])
    agents = [make_agent("greedy", game, seed=1), make_agent("random", game, seed=2)]
    rng = random.Random(3)
    while not match.is_over:
        player = match.current_player
        match.play(agents[player].act(Seat(match.state, player, rng)))
    path = tmp_path_factory.mktemp("records") / "capsule.json"
    save_record(match.record(), path)
    return path


def analyze(*args):
    return runner.invoke(app, ["analyze", *map(str, args)])


def test_each_decision_is_one_json_line_with_the_chances_the_best_move_and_the_mark(record):
    result = analyze(record, "--iterations", 20, "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) > 10 and all(list(line) == KEYS for line in lines)
    assert {line["player"] for line in lines} == {0, 1}
    for line in lines:
        assert 0 <= line["after"] <= 1 and 0 <= line["before"] <= 1
        assert line["loss"] == pytest.approx(line["before"] - line["after"], abs=2e-4)
        assert line["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert (line["loss"] == 0) if line["best"] == line["action"] else True
    assert [line["ply"] for line in lines] == sorted({line["ply"] for line in lines})


def test_the_same_record_and_settings_give_the_same_json(record):
    assert analyze(record, "--iterations", 20, "--json").stdout == analyze(record, "--iterations", 20, "--json").stdout


def test_view_keeps_only_that_players_decisions(record):
    result = analyze(record, "--iterations", 20, "--json", "--view", 2)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and {line["player"] for line in lines} == {1}


def test_the_table_fits_80_columns_and_ends_with_a_summary_per_player(record):
    result = analyze(record, "--iterations", 20)
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "best" in result.stdout and "mean loss" in result.stdout
    assert "player 1 (greedy)" in result.stdout and "player 2 (random)" in result.stdout


def test_a_game_of_a_simulation_run_is_named_with_game(tmp_path):
    run = tmp_path / "run.jsonl"
    simulate(make_config("capsule", ["greedy", "random"], 4), 2, run)
    lines = analyze(run, "--game", 1, "--iterations", 10, "--json").stdout.splitlines()
    assert lines and list(json.loads(lines[0])) == KEYS
    out_of_range = analyze(run, "--game", 5)
    assert out_of_range.exit_code == 2 and "has no game 5: its 2 games are numbered 0–1" in out_of_range.stdout
    unnamed = analyze(run)
    assert unnamed.exit_code == 2 and "coliseo analyze" in unnamed.stdout and "--game 0" in unnamed.stdout


@pytest.mark.parametrize("contents, says", [("{}", "is not a record"), ("not json", "is not JSON"),
                                            ('{"format": "coliseo-sim/1"}', "is not a record")])
def test_a_file_that_is_not_a_record_is_refused_in_one_line(tmp_path, contents, says):
    path = tmp_path / "game.json"
    path.write_text(contents)
    result = analyze(path)
    assert result.exit_code == 2 and says in result.stdout
    assert len(result.stdout.strip().splitlines()) == 1


@pytest.mark.parametrize("view", ["3", "0", "two"])
def test_a_view_that_is_not_a_player_is_refused_naming_the_players(record, view):
    result = analyze(record, "--view", view)
    assert result.exit_code == 2 and f"--view must be a player of this game: 1 to 2, not {view!r}" in result.stdout


def test_iterations_must_be_a_positive_whole_number(record):
    result = analyze(record, "--iterations", "0")
    assert result.exit_code == 2 and "--iterations must be a whole number of at least 1" in result.stdout


def test_ctrl_c_stops_keeping_the_lines_judged_and_says_how_far_it_got(record):
    command = [str(Path(sys.executable).parent / "coliseo"), "analyze", str(record), "--json", "--iterations", "3000"]
    # Another test in this worker may leave SIGINT ignored, which a child would inherit.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = [process.stdout.readline() for _ in range(2)]
    process.send_signal(signal.SIGINT)
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 130, errors
    lines = [json.loads(line) for line in first + rest.splitlines()]
    assert all(list(line) == KEYS for line in lines)
    assert re.search(rf"stopped: {len(lines)} of \d+ decisions analysed", errors)
