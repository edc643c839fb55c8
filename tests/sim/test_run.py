"""Simulations: seeded games whatever the workers, rotated seats, files, resume, every game, bad input."""

import json

import pytest

import coliseo
from coliseo.core.errors import SetupError
from coliseo.sim.run import make_config, read_header, read_run, replay_game, setup_items, simulate


@pytest.fixture(scope="module")
def config():
    return make_config("capsule", ["greedy", "random"], seed=7)


@pytest.fixture(scope="module")
def eight_games(config):
    return simulate(config, 8)


def test_same_seed_gives_the_same_games_whatever_the_workers(config, eight_games):
    assert simulate(config, 8, workers=2) == eight_games
    assert simulate(make_config("capsule", ["greedy", "random"], seed=8), 8) != eight_games


def test_a_game_of_a_run_plays_again_as_the_game_its_row_records(config, eight_games):
    for row in eight_games[:3]:
        match = replay_game(config, row["index"])
        assert len(match.steps) == row["length"]
        assert {k: match.result[k] for k in ("winners", "reason", "scores")} == {
            k: row[k] for k in ("winners", "reason", "scores")}
        assert match.players == row["seats"]


def test_seats_rotate_so_no_agent_always_moves_first(eight_games):
    first_movers = [row["seats"][row["first_player"]] for row in eight_games]
    assert first_movers.count("greedy") == first_movers.count("random") == 4
    assert [row["seats"] for row in eight_games[:2]] == [["greedy", "random"], ["random", "greedy"]]


def test_jsonl_and_parquet_files_keep_the_games(tmp_path, config, eight_games):
    for name in ("run.jsonl", "run.parquet"):
        simulate(config, 8, tmp_path / name, workers=2)
        stored_config, rows = read_run(tmp_path / name)
        assert stored_config == config
        assert sorted(rows, key=lambda r: r["index"]) == eight_games


def test_resume_continues_a_run_to_the_same_games(tmp_path, config, eight_games):
    path = tmp_path / "run.jsonl"
    simulate(config, 3, path)
    with path.open("a") as f:
        f.write('{"index": 3, "seed"')          # a line cut by a crash
    stored, done = read_run(path)
    assert len(done) == 3
    assert simulate(stored, 8, path, done=done) == eight_games
    assert len(read_run(path)[1]) == 8


def test_an_interrupted_run_keeps_its_finished_games(tmp_path, config, eight_games):
    path = tmp_path / "run.parquet"
    seen = []

    def stop_after_three(row):
        seen.append(row)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(config, 8, path, workers=2, on_row=stop_after_three)
    stored, done = read_run(path)
    assert done == eight_games[:3]
    assert simulate(stored, 8, path, done=done) == eight_games


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_every_game_simulates(game_id):
    rows = simulate(make_config(game_id, ["random", "random"], seed=1), 2)
    assert [r["index"] for r in rows] == [0, 1]
    for row in rows:
        assert row["length"] > 0 and row["reason"] != "unfinished"


def test_three_player_runs_set_the_player_count():
    config = make_config("fantastiqa", ["random", "random", "greedy"], seed=2)
    assert config.options["players"] == 3
    rows = simulate(config, 3)
    assert [row["seats"].index("greedy") for row in rows] == [2, 1, 0]


def test_setup_items_name_each_sides_content():
    setup = {"players": [{"preset": "adv_storm"}, {"king": "dusk_king", "team": ["night_wisp", "clay_brute"]}]}
    assert setup_items(setup, 0) == ["preset=adv_storm"]
    assert setup_items(setup, 1) == ["king=dusk_king", "team=clay_brute", "team=night_wisp"]
    assert setup_items(None, 0) == []


@pytest.mark.parametrize("args, words", [
    (("capsule", ["greedy", "nobody"], 0), "unknown agent 'nobody'"),
    (("capsule", ["greedy"], 0), "played by 2 players here, but 1 agents"),
    (("capsule", ["mcts:depth", "greedy"], 0), "must be written NAME=VALUE"),
    (("capsule", ["greedy", "random"], 0, None, [{"players": []}]), "setup 1:"),
    (("nogame", ["greedy", "random"], 0), "nogame"),
])
def test_bad_runs_are_refused_with_the_reason(args, words):
    with pytest.raises(coliseo.ColiseoError, match=words):
        make_config(*args)


def test_a_file_that_is_not_a_run_is_refused(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"hello": 1}) + "\n")
    with pytest.raises(SetupError, match="not a simulation file"):
        read_run(path)
    with pytest.raises(SetupError, match=r"end in \.jsonl or \.parquet"):
        read_run(tmp_path / "x.csv")


def test_fantastiqa_counts_the_player_who_takes_the_first_turn_not_the_first_drafter():
    from coliseo.sim.run import play_one

    config = make_config("fantastiqa", ["random", "random", "random"], seed=3)
    game = coliseo.load_game("fantastiqa", players=3)
    assert game.new_state(0).current_player == 2          # the draft starts with the last seat (R7)
    row = play_one(config, 0)
    assert row["first_player"] == 0                       # P1 takes turn 1 (R8)
    assert coliseo.load_game("capsule").new_state(5).first_turn_player == \
        coliseo.load_game("capsule").new_state(5).current_player


def test_the_run_file_header_names_the_engine_and_each_agents_full_settings(tmp_path):
    from coliseo.core.match import engine_version

    config = make_config("capsule", ["mcts:iterations=5", "random"], seed=1)
    for name in ("run.jsonl", "run.parquet"):
        simulate(config, 2, tmp_path / name)
        header = read_header(tmp_path / name)
        assert header["engine"] == engine_version()
        mcts = header["agent_settings"]["mcts:iterations=5"]
        assert mcts["iterations"] == 5 and mcts["c"] == 0.7 and mcts["rollout"] in ("random", "greedy")
        assert header["agent_settings"]["random"] == {}


def test_a_run_file_in_a_missing_folder_is_refused_before_any_game(tmp_path, config):
    with pytest.raises(SetupError, match="the folder .* does not exist"):
        simulate(config, 2, tmp_path / "nowhere" / "x.jsonl")
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(SetupError, match="is a folder"):
        simulate(config, 2, tmp_path / "dir.jsonl")



def test_a_run_is_continued_only_on_the_content_it_was_played_with(tmp_path):
    import shutil

    pack = tmp_path / "starter"
    shutil.copytree(coliseo.load_game("forbidden").pack.root, pack)
    config = make_config("forbidden", ["random", "random"], seed=3, options={"pack": str(pack)})
    path = tmp_path / "run.jsonl"
    simulate(config, 2, path)
    assert read_header(path)["content"] == coliseo.load_game("forbidden").content_digest()   # same bytes
    stored, done = read_run(path)
    assert len(simulate(stored, 3, path, done=done)) == 3                # the same content: it continues

    edited = sorted(p for p in pack.rglob("*") if p.is_file())[-1]      # any file of the pack folder counts
    edited.write_bytes(edited.read_bytes() + b"\n")
    stored, done = read_run(path)
    with pytest.raises(SetupError, match="played with other content"):
        simulate(stored, 6, path, done=done)
    assert len(read_run(path)[1]) == 3                                   # the games played are kept
