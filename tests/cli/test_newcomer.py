"""What a newcomer meets in the first hour: the documented examples run, tables fit 80 columns, a bad path or
number is one clear line (never a traceback), and nothing is overwritten or saved without being asked."""

import json
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coliseo.cli.main import app
from coliseo.cli.session import Session
from coliseo.core.match import Match

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "home"


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def documented_examples() -> list[str]:
    """Every complete `coliseo …` command the README and the players' guides show (placeholders left out)."""
    texts = [ROOT / "README.md", *sorted((ROOT / "src/coliseo/games").glob("*/rules.*.md"))]
    found = {m for path in texts for m in re.findall(r"`coliseo ([^`]+)`", path.read_text(encoding="utf-8"))}
    placeholder = r"\b(FILE|DIR|CARD|GAME|TEXT|N|A,B.*)\b|…|\[|\||<"
    complete = [c for c in found if not re.search(placeholder, c) and c.split()[0] != "serve"]
    return sorted(complete)


def test_the_documented_examples_include_the_tools_a_guide_shows():
    assert 'forbidden drops "Metal Dragon"' in documented_examples()
    assert "cards forbidden --where type=DR" in documented_examples()


@pytest.mark.parametrize("command", documented_examples())
def test_every_documented_example_runs_on_a_fresh_clone(command):
    result = run(*shlex.split(command), input="quit\n")
    assert result.exit_code in (0, 1) if command.startswith("play") else result.exit_code == 0, result.stdout
    assert "Traceback" not in result.stdout and "error:" not in result.stdout


def test_drops_without_the_imported_data_uses_the_starter_pack_and_says_where_the_full_tables_are():
    assert "Sparring Partner" in run("forbidden", "drops", "Metal Dragon").stdout
    out = " ".join(run("forbidden", "drops", "Blue-eyes White Dragon").stdout.split())
    assert "no duelist drops this card in the starter pack" in out and "content import forbidden" in out


@pytest.mark.parametrize("width", [80, 120])
def test_card_tables_keep_every_value_whole_at_the_terminal_width(monkeypatch, width):
    monkeypatch.setenv("COLUMNS", str(width))
    for game, whole in (("capsule", ["15/32", "Dawn King", "Dawnblade Knight"]),
                        ("forbidden", ["Blue-eyes White Dragon", "Hitotsu-me Giant"])):
        out = run("cards", game).stdout
        assert max(len(line) for line in out.splitlines()) <= width
        for value in whole:
            assert value in out, f"{value!r} was split across lines at {width} columns"


def test_the_games_list_fits_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = run("games").stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "first_turn_ap_penalty" in out and "Dungeon Dice Monsters" in out


def test_simulate_refuses_to_overwrite_a_run_unless_told(tmp_path):
    out = tmp_path / "run.jsonl"
    assert run("simulate", "capsule", "--agents", "random,random", "--games", "3", "--out", str(out)).exit_code == 0
    before = out.read_text()
    again = run("simulate", "capsule", "--agents", "random,random", "--games", "1", "--out", str(out))
    assert again.exit_code == 2 and "--resume" in again.stdout and "--force" in again.stdout
    assert out.read_text() == before
    forced = run("simulate", "capsule", "--agents", "random,random", "--games", "1", "--out", str(out), "--force")
    assert forced.exit_code == 0 and len(out.read_text().splitlines()) == 2


def test_report_errors_name_the_input_or_the_output_that_is_wrong(tmp_path):
    header_only = tmp_path / "h.jsonl"
    header_only.write_text(json.dumps({"format": "coliseo-sim/1"}) + "\n")
    result = run("report", str(header_only))
    assert result.exit_code == 2 and "the header lacks config" in result.stdout
    (tmp_path / "bad.txt").write_text("hi\n")
    result = run("report", str(tmp_path / "bad.txt"))
    assert result.exit_code == 2 and "is not a simulation file" in result.stdout and "output" not in result.stdout
    run_file = tmp_path / "run.jsonl"
    run("simulate", "capsule", "--agents", "random,random", "--games", "2", "--out", str(run_file))
    result = run("report", str(run_file), "--out", str(tmp_path / "nowhere" / "r.html"))
    assert result.exit_code == 2 and "the folder" in result.stdout and "does not exist" in result.stdout
    assert "Errno" not in result.stdout


def test_tournament_checks_the_plot_path_before_playing(tmp_path):
    result = run("tournament", "capsule", "--agents", "random,greedy", "--games", "50",
                 "--plot", str(tmp_path / "nowhere" / "r.png"))
    assert result.exit_code == 2 and "cannot write the plot" in result.stdout
    assert "round robin" not in result.output, "no game is played before the path is checked"


def test_replaying_a_run_file_without_a_game_number_says_to_name_one(tmp_path):
    run_file = tmp_path / "run.jsonl"
    run("simulate", "capsule", "--agents", "random,random", "--games", "1", "--out", str(run_file))
    result = run("replay", str(run_file))
    assert result.exit_code == 2 and "--game 0" in result.stdout and "not JSON" not in result.stdout


def test_a_bad_agent_setting_names_the_setting():
    result = run("simulate", "capsule", "--agents", "mcts:iterations=abc,random", "--games", "1")
    assert result.exit_code == 2 and "iterations must be a whole number, not 'abc'" in result.stdout


def serve(*args: str) -> subprocess.CompletedProcess:
    coliseo = Path(sys.executable).parent / "coliseo"
    return subprocess.run([str(coliseo), "serve", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("port", ["-1", "99999"])
def test_serve_refuses_a_port_out_of_range_in_one_line(port, tmp_path):
    result = serve("--port", port, "--db", f"sqlite:///{tmp_path}/x.db")
    assert result.returncode == 2 and "--port" in result.stderr and "Traceback" not in result.stderr


def test_serve_on_a_port_in_use_says_so_before_any_banner(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = serve("--port", str(port), "--db", f"sqlite:///{tmp_path}/x.db")
    assert result.returncode == 1 and "Address already in use" in result.stderr
    assert "Coliseo web table on" not in result.stdout and "Traceback" not in result.stderr


def test_quitting_before_any_action_keeps_no_record(home):
    result = run("play", "capsule", "--vs", "random", "--seed", "1", input="quit\n")
    assert "no record is kept" in result.stdout
    assert not list((home / "records").glob("*.json")) if (home / "records").exists() else True


def test_ctrl_c_keeps_the_game_so_far_says_so_and_is_marked_interrupted(home):
    from rich.console import Console

    import coliseo

    game = coliseo.load_game("capsule")
    match = Match(game, 5)
    first = next(text for text in map(game.format_action, match.state.legal_actions()) if text != "end")
    typed = iter([first])

    def read(prompt):
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    console = Console(record=True, width=100)
    session = Session(match, {}, "en", console, read)
    record = session.run()
    assert session.interrupted and record["result"] is None and record["actions"] == [first]
    out = console.export_text()
    assert "Interrupted (Ctrl-C)" in out and "The record is in" in out


def test_resign_asks_first_and_no_keeps_playing(home):
    result = run("play", "capsule", "--vs", "random", "--seed", "1", input="resign\nn\nquit\n")
    assert "Resign this game? (y/N)" in result.stdout and "resigns" not in result.stdout


def test_verify_of_a_folder_is_one_line_and_a_verified_result_is_in_words(home, tmp_path):
    result = run("verify", str(tmp_path))
    assert result.exit_code == 1 and "is a folder, not a file" in result.stdout and "Traceback" not in result.stdout
    run("play", "capsule", "--vs", "random", "--seed", "4", input="resign\ny\n")
    record = next((home / "records").glob("capsule-*.json"))
    out = " ".join(run("verify", str(record)).stdout.split())
    assert "result: Player 2 wins — by resignation" in out and "'winners'" not in out
