"""bench/balance.py: every ordered match-up of a game's shipped presets, in one resumable run file and report."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coliseo.sim.run import read_run

SWEEP = Path(__file__).parents[2] / "bench" / "balance.py"


def sweep(*args):
    return subprocess.run([sys.executable, str(SWEEP), *map(str, args)], capture_output=True, text=True,
                          env=os.environ, timeout=600)


def test_the_sweep_plays_every_ordered_pair_of_starter_decks_and_continues_its_own_run(tmp_path):
    first = sweep("forbidden", "--games", 2, "--workers", 1, "--seed", 5, "--out", tmp_path)
    assert first.returncode == 0, first.stderr
    result = json.loads(first.stdout)
    assert sorted(tuple(m["sides"]) for m in result["matchups"]) == [("starter_a", "starter_b"),
                                                                     ("starter_b", "starter_a")]
    assert all(m["games"] == 2 for m in result["matchups"])
    [pairing] = result["pairings"]
    assert pairing["games"] == 4 and len(pairing["first_side_win_pct"]) == 3
    run_file = Path(result["run"])
    assert run_file.with_suffix(".html").read_text().count("starter_b vs starter_a") >= 1
    before = read_run(run_file)[1]
    more = sweep("forbidden", "--games", 3, "--workers", 1, "--seed", 5, "--out", tmp_path)
    assert more.returncode == 0, more.stderr
    after = read_run(run_file)[1]
    assert len(after) == 6 and after[:4] == before


def test_a_sweep_with_other_settings_does_not_overwrite_a_run(tmp_path):
    assert sweep("forbidden", "--games", 1, "--workers", 1, "--seed", 5, "--out", tmp_path).returncode == 0
    refused = sweep("forbidden", "--games", 1, "--workers", 1, "--seed", 6, "--out", tmp_path)
    assert refused.returncode != 0 and "other settings" in refused.stderr


@pytest.mark.parametrize("game", ["dungeon_dice", "fantastiqa"])
def test_a_game_with_one_setup_is_measured_as_its_mirror(tmp_path, game):
    done = sweep(game, "--games", 1, "--workers", 1, "--agent", "random", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    matchups = json.loads(done.stdout)["matchups"]
    assert [m["sides"] for m in matchups] == [["default", "default"]] and len(matchups[0]["seat_win_pct"]) == 2


def test_a_screen_plays_only_the_candidates_match_ups_against_the_presets_kept(tmp_path):
    pack = tmp_path / "cand.toml"
    pack.write_text('[pack]\nid = "cand"\nname = { en = "Candidates", es = "Candidatos" }\nversion = "1"\n\n'
                    '[[team]]\nid = "cand_dawn"\nmode = "advanced"\nking = "dawn_king"\n'
                    'monsters = ["prism_colossus", "mirror_monk", "halo_sentinel"]\n')
    done = sweep("capsule", "-o", "mode=advanced", "-o", f"packs={pack}", "-o", "max_turns=4", "--focus", "cand_dawn",
                 "--leave-out", "adv_dawn", "--leave-out", "adv_stone", "--agent", "random", "--games", 1,
                 "--workers", 1, "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert sorted(tuple(m["sides"]) for m in result["matchups"]) == [
        ("adv_dusk", "cand_dawn"), ("adv_storm", "cand_dawn"), ("cand_dawn", "adv_dusk"), ("cand_dawn", "adv_storm")]
    assert set(result["side_win_pct"]) <= {"cand_dawn", "adv_dusk", "adv_storm"}
    assert "focus_cand_dawn" in result["run"]


def test_a_screen_in_place_of_a_preset_plays_its_games_at_the_same_indices_and_seeds(tmp_path):
    """A candidate identical to Dusk in Dusk's place plays the very games of `--focus adv_dusk`, game by game."""
    pack = tmp_path / "cand.toml"
    pack.write_text('[pack]\nid = "cand"\nname = { en = "Candidates", es = "Candidatos" }\nversion = "1"\n\n'
                    '[[team]]\nid = "cand_dusk"\nmode = "advanced"\nking = "dusk_king"\nmonsters = ["abyss_dragon", '
                    '"shade_lancer", "night_wisp", "clay_brute", "shadow_wolf", "bat_swarm", "dusk_reaper"]\n')
    common = ["capsule", "-o", "mode=advanced", "-o", f"packs={pack}", "-o", "max_turns=3", "--agent", "random",
              "--games", 1, "--workers", 1, "--seed", 9, "--out", tmp_path]
    runs = []
    for args in (["--focus", "adv_dusk", "--leave-out", "cand_dusk"], ["--focus", "cand_dusk", "--in-place-of",
                                                                        "adv_dusk"]):
        done = sweep(*common, *args)
        assert done.returncode == 0, done.stderr
        runs.append(read_run(Path(json.loads(done.stdout)["run"]))[1])
    shipped, screen = runs
    assert [json.dumps(r["items"]) for r in screen] == [json.dumps(r["items"]).replace("adv_dusk", "cand_dusk")
                                                         for r in shipped]
    assert [(r["seed"], r["winners"], r["length"]) for r in screen] == [(r["seed"], r["winners"], r["length"])
                                                                         for r in shipped]
    for alone in (sweep(*common, "--in-place-of", "adv_dusk"), sweep(*common, "--focus", "adv_dusk", "--in-place-of",
                                                                     "adv_dusk")):
        assert alone.returncode != 0 and "give --focus another side" in alone.stderr


def test_a_screen_with_many_sides_left_out_still_gets_a_run_file_of_its_own(tmp_path):
    pack = tmp_path / ("a_pack_in_a_folder_with_a_long_name_" * 4 + ".toml")
    pack.write_text('[pack]\nid = "cand"\nname = { en = "Candidates", es = "Candidatos" }\nversion = "1"\n')
    args = ["capsule", "-o", "mode=advanced", "-o", f"packs={pack}", "-o", "max_turns=2", "--focus", "adv_dawn",
            "--agent", "random", "--games", 1, "--workers", 1, "--out", tmp_path]
    runs = []
    for left_out in (["adv_dusk", "adv_storm"], ["adv_dusk", "adv_stone"]):
        done = sweep(*args, *[a for side in left_out for a in ("--leave-out", side)])
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout)["run"])
    assert runs[0] != runs[1] and all(len(run.rsplit("/", 1)[-1]) < 140 and "focus_adv_dawn" in run for run in runs)


def test_a_sweep_is_not_continued_once_the_content_it_played_has_changed(tmp_path):
    pack = tmp_path / "cand.toml"
    pack.write_text('[pack]\nid = "cand"\nname = { en = "Candidates", es = "Candidatos" }\nversion = "1"\n')
    args = ["capsule", "-o", "mode=advanced", "-o", f"packs={pack}", "-o", "max_turns=2", "--focus", "adv_dawn",
            "--leave-out", "adv_stone", "--agent", "random", "--workers", 1, "--out", tmp_path]
    first = sweep(*args, "--games", 1)
    assert first.returncode == 0, first.stderr
    pack.write_text(pack.read_text().replace('version = "1"', 'version = "2"'))
    refused = sweep(*args, "--games", 2)
    assert refused.returncode != 0 and "played with other content" in refused.stderr
    assert len(read_run(Path(json.loads(first.stdout)["run"]))[1]) == 4          # the games played are kept


def test_a_screen_naming_no_such_side_says_which_sides_there_are(tmp_path):
    refused = sweep("forbidden", "--focus", "starter_z", "--games", 1, "--workers", 1, "--out", tmp_path)
    assert refused.returncode != 0 and "no such side: starter_z" in refused.stderr and "starter_a" in refused.stderr


def test_a_screen_against_the_base_run_compares_game_by_game_and_refuses_a_base_of_other_games(tmp_path):
    """A candidate Dusk in Dusk's place, compared with the shipped Dusk's run game by game; each side of the
    comparison agrees with that run's own summary (every game of both is common)."""
    pack = tmp_path / "cand.toml"
    pack.write_text('[pack]\nid = "cand"\nname = { en = "Candidates", es = "Candidatos" }\nversion = "1"\n\n'
                    '[[team]]\nid = "cand_dusk"\nmode = "advanced"\nking = "dusk_king"\nmonsters = ["hollow_mask", '
                    '"shade_lancer", "night_wisp", "clay_brute", "shadow_wolf", "bat_swarm", "dusk_reaper"]\n')
    common = ["capsule", "-o", "mode=advanced", "-o", f"packs={pack}", "-o", "max_turns=6", "--agent", "random",
              "--games", 3, "--workers", 1, "--seed", 9]
    base = sweep(*common, "--focus", "adv_dusk", "--leave-out", "cand_dusk", "--out", tmp_path / "base")
    assert base.returncode == 0, base.stderr
    base = json.loads(base.stdout)
    screen = sweep(*common, "--focus", "cand_dusk", "--in-place-of", "adv_dusk", "--against", base["run"],
                   "--out", tmp_path / "screen")
    assert screen.returncode == 0, screen.stderr
    screen = json.loads(screen.stdout)
    against = screen["against"]
    assert against["run"] == base["run"] and against["games"] == 18
    first = {tuple(m["sides"]): m["seat_win_pct"][0][0] for m in screen["matchups"]}
    first_before = {tuple(s.replace("adv_dusk", "cand_dusk") for s in m["sides"]): m["seat_win_pct"][0][0]
                    for m in base["matchups"]}
    assert {tuple(m["sides"]): m["player_1_win_pct"] for m in against["matchups"]} == {
        sides: [first[sides], first_before[sides]] for sides in first}
    assert set(against["cand_dusk_win_pct"]) == {"moving_first", "moving_second"}
    assert 0 <= against["changed_winner"] <= 18
    other_seed = sweep(*common[:-1], 10, "--focus", "adv_dusk", "--leave-out", "cand_dusk", "--against", base["run"],
                       "--out", tmp_path / "other")
    assert other_seed.returncode != 0 and "not the same seed as this run" in other_seed.stderr
    assert not (tmp_path / "other").exists() or not list((tmp_path / "other").glob("*.jsonl"))   # nothing played


def test_a_pair_played_between_two_sides_is_the_sweeps_own_games_of_that_pair(tmp_path):
    """`--between` plays game i of the whole sweep for each i whose match-up is that pair, so its rows are the
    sweep's rows of that pair, and it refuses sides that do not play each other there."""
    common = ["capsule", "-o", "mode=advanced", "-o", "max_turns=3", "--agent", "random", "--games", 2,
              "--workers", 1, "--seed", 9]
    whole = sweep(*common, "--out", tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr
    pair = sweep(*common, "--between", "adv_dusk,adv_dawn", "--against", json.loads(whole.stdout)["run"],
                 "--out", tmp_path / "pair")
    assert pair.returncode == 0, pair.stderr
    result = json.loads(pair.stdout)
    assert "between_adv_dusk_adv_dawn" in result["run"] and result["against"]["changed_winner"] == 0
    pair_rows = read_run(Path(result["run"]))[1]
    whole_rows = [r for r in read_run(Path(json.loads(whole.stdout)["run"]))[1]
                  if {items[0] for items in r["items"]} == {"preset=adv_dawn", "preset=adv_dusk"}]
    assert [r["index"] for r in pair_rows] == [0, 3, 12, 15]
    assert pair_rows == whole_rows
    for between in ("adv_dawn,adv_dawn", "adv_dawn", "adv_dawn,starter_dusk"):
        refused = sweep(*common, "--between", between, "--out", tmp_path / "refused")
        assert refused.returncode != 0 and "name two sides that play each other" in refused.stderr


POOL = SWEEP.with_name("balance_pool.py")


def pool(*runs):
    return subprocess.run([sys.executable, str(POOL), *map(str, runs)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, timeout=120)


def test_the_pool_counts_a_game_two_runs_share_once_and_adds_up_the_rest(tmp_path):
    """A focus run of Dusk and the round robin of the same seed share some games; pooled with a run of another seed,
    each game counts once, each ordered match-up reads as the rows say and each pairing over both orders."""
    common = ["capsule", "-o", "mode=advanced", "-o", "max_turns=3", "--agent", "random", "--games", 1,
              "--workers", 1]
    runs = []
    samples = (["--seed", 9], ["--seed", 9, "--focus", "adv_dusk"], ["--seed", 10, "--focus", "adv_dusk"])
    for n, args in enumerate(samples):
        done = sweep(*common, *args, "--out", tmp_path / str(n))
        assert done.returncode == 0, done.stderr
        runs.append(Path(json.loads(done.stdout)["run"]))
    rows = {(r["seed"], json.dumps(r["items"])): r for run in runs for r in read_run(run)[1]}
    assert len(rows) < 12 + 6 + 6                                   # the two runs of seed 9 share a game
    pooled = pool(*runs)
    assert pooled.returncode == 0, pooled.stderr
    result = json.loads(pooled.stdout)
    assert result["games"] == len(rows) and result["repeats_dropped"] == 12 + 6 + 6 - len(rows)
    for matchup in result["matchups"]:
        games = [r for r in rows.values() if [i[0].split("=")[1] for i in r["items"]] == matchup["sides"]]
        assert matchup["games"] == len(games)
        assert matchup["player_1_win_pct"][0] == round(100 * sum(r["winners"] == [0] for r in games) / len(games), 1)
    dawn_dusk = next(p for p in result["pairings"] if set(p["sides"]) == {"adv_dawn", "adv_dusk"})
    games = [r for r in rows.values() if {i[0] for i in r["items"]} == {"preset=adv_dawn", "preset=adv_dusk"}]
    first = dawn_dusk["sides"][0]
    won = sum(r["winners"] == [[i[0] for i in r["items"]].index(f"preset={first}")] for r in games)
    assert dawn_dusk["games"] == len(games) and dawn_dusk["first_side_win_pct"][0] == round(100 * won / len(games), 1)


def test_the_pool_refuses_a_game_played_on_other_content_and_runs_of_other_agents(tmp_path):
    done = sweep("forbidden", "--agent", "random", "--games", 1, "--workers", 1, "--seed", 5, "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    run = Path(json.loads(done.stdout)["run"])
    lines = run.read_text().splitlines()
    header = json.loads(lines[0])
    other = tmp_path / "other" / run.name
    other.parent.mkdir()
    other.write_text("\n".join([json.dumps({**header, "content": "0" * 64}), *lines[1:]]) + "\n")
    refused = pool(run, other)
    assert refused.returncode != 0 and "played on other content" in refused.stderr and str(other) in refused.stderr
    first = json.loads(lines[1])
    other.write_text("\n".join([lines[0], json.dumps({**first, "length": first["length"] + 1}), *lines[2:]]) + "\n")
    refused = pool(run, other)
    assert refused.returncode != 0 and "not the same games" in refused.stderr
    other.write_text("\n".join(lines) + "\n")
    assert json.loads(pool(run, other).stdout)["repeats_dropped"] == len(lines) - 1
    greedy = sweep("forbidden", "--agent", "greedy", "--games", 1, "--workers", 1, "--seed", 5,
                   "--out", tmp_path / "greedy")
    assert greedy.returncode == 0, greedy.stderr
    refused = pool(run, json.loads(greedy.stdout)["run"])
    assert refused.returncode != 0 and "agents" in refused.stderr


def test_the_published_advanced_tables_are_what_the_pool_of_the_kept_run_files_reads():
    """docs/balance.md's tables of every game on the content shipped are rebuilt, cell by cell, by the one command
    it gives, from the run files the repository keeps, and every one of those games was played on that content."""
    docs = Path(__file__).parents[2] / "docs"
    text = (docs / "balance.md").read_text(encoding="utf-8")
    section = text.split("#### Where the advanced presets stand: every game on the content shipped")[1]
    section = section.split("\n#### ")[0]
    pooled = pool(*sorted((docs / "balance" / "sentinel").glob("seed*/*.jsonl")))
    assert pooled.returncode == 0, pooled.stderr
    result = json.loads(pooled.stdout)
    assert len(result["games_per_content"]) == 1

    def cell(pct):
        return f"{pct[0]}% [{pct[1]}–{pct[2]}]"

    for m in result["matchups"]:
        a, b = m["sides"]
        assert f"| `{a}` | `{b}` | {m['games']:,} | {cell(m['player_1_win_pct'])} |" in section
    for p in result["pairings"]:
        a, b = p["sides"]
        flipped = [round(100 - p["first_side_win_pct"][i], 1) for i in (0, 2, 1)]
        assert (f"| `{a}` – `{b}` | {p['games']:,} | {cell(p['first_side_win_pct'])} |" in section
                or f"| `{b}` – `{a}` | {p['games']:,} | {cell(flipped)} |" in section)
    prose = " ".join(section.split())
    assert f"{result['pairings_fair']}**" in prose and f"{result['matchups_fair']} ordered match-ups" in prose
