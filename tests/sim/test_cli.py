"""`coliseo simulate`, `tournament` and `report` on real games; Ctrl-C on a real process."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from coliseo.cli.main import app
from coliseo.sim.run import read_run

runner = CliRunner()


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_simulate_prints_win_rates_and_saves_games(tmp_path):
    out = tmp_path / "g.jsonl"
    result = run("simulate", "capsule", "--agents", "greedy,random", "--games", 6, "--seed", 4, "--out", out)
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "first-seat advantage" in result.output
    assert "greedy" in result.output and "player 2" in result.output
    assert len(read_run(out)[1]) == 6


def test_simulate_json_summary_is_the_same_whatever_the_workers():
    outputs = [json.loads(run("simulate", "capsule", "--agents", "greedy,random", "--games", 4, "--seed", 9,
                              "--workers", w, "--json").stdout.splitlines()[-1]) for w in (1, 2)]
    assert outputs[0] == outputs[1]
    assert outputs[0]["summary"]["agents"]["greedy"]["games"] == 4


def test_simulate_plays_a_list_of_setups(tmp_path):
    setups = tmp_path / "setups.json"
    setups.write_text(json.dumps([{"players": [{"preset": "starter_dawn"}, {"preset": "starter_dusk"}]},
                                  {"players": [{"preset": "starter_dusk"}, {"preset": "starter_dawn"}]}]))
    out = tmp_path / "g.parquet"
    result = run("simulate", "capsule", "--agents", "greedy,greedy", "--games", 4, "--setup", setups, "--out", out)
    assert result.exit_code == 0, result.output
    rows = read_run(out)[1]
    assert [r["items"][0] for r in rows] == [["preset=starter_dawn"], ["preset=starter_dusk"]] * 2
    assert "match-ups" in result.output   # its cells may wrap: a console made before COLUMNS was set is 80 wide


@pytest.mark.parametrize("args, words", [
    (("simulate", "capsule", "--agents", "greedy,ghost"), "unknown agent 'ghost'"),
    (("simulate", "capsule", "--agents", "greedy,random", "--out", "x.csv"), "must end in .jsonl or .parquet"),
    (("simulate", "capsule", "--agents", "greedy,random", "--backend", "cloud"), "--backend must be local or ray"),
    (("simulate", "capsule", "--agents", "greedy,random", "--games", 0), "must be at least 1"),
    (("simulate", "capsule"), "name the GAME and --agents"),
    (("simulate", "--resume", "missing.jsonl"), "no run file"),
    (("tournament", "capsule", "--agents", "greedy"), "at least two different agents"),
    (("report", "missing.jsonl"), "no run file"),
])
def test_bad_commands_say_what_is_wrong(args, words):
    result = run(*args)
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_tournament_rates_greedy_above_random_and_plots(tmp_path):
    plot = tmp_path / "ratings.png"
    result = run("tournament", "capsule", "--agents", "greedy,random,mcts:iterations=10:depth=2", "--games", 4,
                 "--plot", plot, "--json")
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout.splitlines()[-1])
    order = [r["agent"] for r in table]
    assert order.index("greedy") < order.index("random")
    assert all(r["games"] == 8 for r in table)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_writes_a_page_with_plots_and_item_balance(tmp_path):
    setups = tmp_path / "setups.json"
    teams = ["adv_dawn", "adv_dusk", "adv_storm", "adv_stone"]
    setups.write_text(json.dumps([{"players": [{"preset": a}, {"preset": b}]} for a in teams for b in teams
                                  if a != b]))
    out = tmp_path / "g.jsonl"
    assert run("simulate", "capsule", "-o", "mode=advanced", "--agents", "greedy,greedy", "--games", 12,
               "--setup", setups, "--out", out).exit_code == 0
    page = tmp_path / "report.html"
    result = run("report", out, "--out", page)
    assert result.exit_code == 0, result.output
    text = page.read_text()
    for part in ("Win rates", "Self-play: greedy plays every seat", "first-player advantage", "Match-ups",
                 "adv_storm vs adv_dawn", "Game length", "Balance", "preset=adv_storm"):
        assert part.lower() in text.lower()
    assert "<th>mean length</th>" not in text and text.count("data:image/png;base64,") >= 4


def test_ctrl_c_stops_cleanly_and_resume_finishes_the_run(tmp_path):
    out = tmp_path / "g.jsonl"
    command = [str(Path(sys.executable).parent / "coliseo"), "simulate", "capsule", "--agents", "greedy,greedy",
               "--games", "20000", "--workers", "2", "--seed", "5", "--out", str(out)]
    env = {**os.environ, "COLUMNS": "200"}
    # Another test in this worker (Ray, uvicorn) may leave SIGINT ignored, which a child would inherit.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 4):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 130, output
    assert "continue with" in output
    kept = read_run(out)[1]
    assert 3 <= len(kept) < 20000
    assert [r["index"] for r in kept] == list(range(len(kept)))
    result = run("simulate", "--resume", out, "--games", len(kept) + 2)
    assert result.exit_code == 0, result.output
    assert len(read_run(Path(out))[1]) == len(kept) + 2


def test_simulate_out_in_a_missing_folder_is_a_clear_error(tmp_path):
    result = run("simulate", "capsule", "--agents", "greedy,random", "--games", 2, "--out",
                 tmp_path / "nowhere" / "x.jsonl")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "the folder" in result.output and "does not exist" in " ".join(result.output.split())


def test_the_rate_counts_games_of_this_run_since_it_began_without_spikes():
    from coliseo.cli.sim import RateColumn, add_run_task, progress_bar

    clock = [100.0]
    bar = progress_bar(get_time=lambda: clock[0])
    task = add_run_task(bar, "capsule", 200, completed=150)       # a resumed run: 150 games already done
    column = RateColumn()
    assert str(column.render(bar.tasks[0])) == "– games/s"
    clock[0] = 110.0
    bar.advance(task)
    clock[0] = 110.0001                                           # two workers' rows arrive together
    bar.advance(task)
    assert str(column.render(bar.tasks[0])) == "0.20 games/s"     # 2 games in 10 s, not 10,000 games/s


def test_report_reads_end_codes_in_words_and_shows_engine_and_agent_settings(tmp_path):
    out = tmp_path / "g.jsonl"
    assert run("simulate", "capsule", "--agents", "mcts:iterations=5,random", "--games", 2, "--out", out).exit_code == 0
    page = tmp_path / "report.html"
    assert run("report", out, "--out", page).exit_code == 0
    text = page.read_text()
    assert "engine version 0.1.0" in text and "iterations=5" in text and "c=0.7" in text
    assert "<th>mean length</th>" in text and "Self-play" not in text            # two agents: a rate each
    codes = {json.loads(line)["reason"] for line in out.read_text().splitlines()[1:]}
    from coliseo.sim.report import run_reason_words
    for code in codes:
        assert f"<td>{run_reason_words('capsule', code)}</td>" in text and run_reason_words("capsule", code) != code
    assert run_reason_words("forbidden", "life_points_zero") == "the opponent's LP reached 0"
    assert run_reason_words("dungeon_dice", "all_hearts_lost") == "a Master lost all its hearts"
    assert run_reason_words("forbidden", "lp") == "the opponent's LP reached 0", "an older run's code reads the same"


# The end codes a Fantastiqa run wrote before the one vocabulary (core/reasons.py).
OLD_FANTASTIQA_CODES = {"turn_limit": "max_turns", "goal_reached": "goal"}


def test_a_run_file_written_with_the_old_end_codes_still_reports_replays_and_resumes(tmp_path):
    out = tmp_path / "old.jsonl"
    made = run("simulate", "fantastiqa", "-o", "max_turns=6", "--agents", "random,random", "--games", 3, "--seed", 2,
               "--out", out)
    assert made.exit_code == 0, made.output
    header, *lines = out.read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert {row["reason"] for row in rows} == {"turn_limit"}
    older = [{**row, "reason": OLD_FANTASTIQA_CODES.get(row["reason"], row["reason"])} for row in rows]
    out.write_text("\n".join([header, *map(json.dumps, older)]) + "\n")
    assert {row["reason"] for row in read_run(out)[1]} == {"turn_limit"}, "read back in today's code"
    page = tmp_path / "old.html"
    assert run("report", out, "--out", page).exit_code == 0
    assert "<td>turn limit</td>" in page.read_text() and "<td>max" not in page.read_text()   # one row, in words
    replayed = run("replay", out, "--game", 1, "--lang", "en")
    assert replayed.exit_code == 0 and "the same result as the run file" in replayed.output
    resumed = run("simulate", "--resume", out, "--games", 4)
    assert resumed.exit_code == 0 and "turn limit 4" in resumed.output
