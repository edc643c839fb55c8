"""The `coliseo` command line, run in-process with typer's runner on real games and records."""

import json
import re

import pytest
from typer.testing import CliRunner

from coliseo.cli.main import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path / "home"


def run(*args, input=None):
    result = runner.invoke(app, list(args), input=input)
    return result


def test_games_lists_capsule_as_json():
    result = run("games", "--json")
    assert result.exit_code == 0
    assert "capsule" in [g["id"] for g in json.loads(result.stdout)]


def test_rules_in_both_languages():
    assert "Action Points" in run("rules", "capsule", "--lang", "en").stdout
    assert "Puntos de Acción" in run("rules", "capsule", "--lang", "es").stdout


def test_cards_filters_by_field_and_range():
    rows = json.loads(run("cards", "capsule", "--where", "faction=dark", "--min", "cost=5", "--json").stdout)
    assert {r["id"] for r in rows} == {"dusk_reaper", "abyss_dragon", "night_empress"}
    names = json.loads(run("cards", "capsule", "--name", "king", "--json").stdout)
    assert len(names) == 4
    bad = run("cards", "capsule", "--where", "colour=red")
    assert bad.exit_code == 2 and "no field 'colour'" in bad.stdout


PLACED = ["K@d1", "1@c1", "2@e1", "3@b1"]        # the person's placement (R9): the King on d1, the team on c, e, b
PLACING = "\n".join(PLACED) + "\n"


def test_play_against_the_ai_to_the_end_and_verify_the_record(home):
    moves = "\n".join(["help", "castle", *PLACED, "S c1", "d1-d2", "end"] + ["end"] * 300) + "\n"
    result = run("play", "capsule", "--vs", "greedy", "--seed", "4", "--lang", "en", input=moves)
    assert "is not an action" in result.stdout
    assert "summons" in result.stdout
    assert "Player 1 may summon a monster, move or end the turn." in " ".join(result.stdout.split())
    records = list((home / "records").glob("capsule-*.json"))
    assert len(records) == 1
    record = json.loads(records[0].read_text())
    assert record["actions"][:6] == [*PLACED, "S c1", "d1-d2"] and record["players"] == ["human", "greedy"]
    assert record["result"] is not None and result.exit_code == 0
    verified = run("verify", str(records[0]), "--json")
    assert json.loads(verified.stdout)["ok"] is True


def test_quit_keeps_the_unfinished_game_and_load_resumes_it(home, tmp_path):
    result = run("play", "capsule", "--seed", "8",
                 input=PLACING + "d1-d2\nsave " + str(tmp_path / "s.json") + "\nquit\n")
    assert result.exit_code == 1 and "Saved" in result.stdout
    saved = json.loads((tmp_path / "s.json").read_text())
    assert saved["actions"] == [*PLACED, "d1-d2"] and saved["result"] is None
    resumed = run("play", "capsule", "--load", str(tmp_path / "s.json"), input="undo\nquit\n")
    assert "Undone" in resumed.stdout


def test_verify_catches_a_tampered_record(tmp_path):
    from coliseo import load_game
    from coliseo.core.match import Match, save_record

    match = Match(load_game("capsule"), 3)
    match.play_text("end")
    match.play_text("end")
    assert match.state.is_over
    path = tmp_path / "r.json"
    save_record(match.record(), path)
    assert run("verify", str(path)).exit_code == 0
    doc = json.loads(path.read_text())
    doc["seed"] = 4
    path.write_text(json.dumps(doc))
    result = run("verify", str(path))
    assert result.exit_code == 1 and "tampered" in result.stdout
    replayed = run("replay", str(tmp_path / "missing.json"))
    assert replayed.exit_code == 2 and "missing.json: no such file" in replayed.stdout


def test_replay_shows_a_players_view(tmp_path):
    _, path = finished_capsule_record(tmp_path)
    result = run("replay", str(path), "--view", "2", "--lang", "es")
    assert result.exit_code == 0 and "invoca" in result.stdout
    assert "el mismo resultado que el registro" in " ".join(result.stdout.split())
    stepped = run("replay", str(path), "--step", "--lang", "es", input="q\n")
    assert "el inicio" in stepped.stdout and "siguiente · b/← atrás · q salir" in stepped.stdout


def test_replay_plays_a_game_of_a_simulation_run_again(tmp_path):
    import shutil

    import coliseo
    from coliseo.sim.run import make_config, simulate

    pack = tmp_path / "starter"
    shutil.copytree(coliseo.load_game("forbidden").pack.root, pack)
    path = tmp_path / "run.jsonl"
    rows = simulate(make_config("forbidden", ["greedy", "random"], seed=5, options={"pack": str(pack)}), 2, path)
    shown = run("replay", str(path), "--game", "1", "--lang", "en")
    assert shown.exit_code == 0, shown.stdout
    assert f"Replayed {rows[1]['length']} actions: the same result as the run file." in " ".join(shown.stdout.split())
    missing = run("replay", str(path), "--game", "2")
    assert missing.exit_code == 2 and "has no game 2: its 2 games are numbered 0–1" in missing.stdout
    edited = sorted(p for p in pack.rglob("*") if p.is_file())[-1]
    edited.write_bytes(edited.read_bytes() + b"\n")
    changed = run("replay", str(path), "--game", "1")
    assert changed.exit_code == 2 and "played with other content" in changed.stdout


def test_bad_options_and_agents_are_reported():
    assert "unknown agent" in run("play", "capsule", "--vs", "wizard", input="quit\n").stdout
    assert "must be at least 4" in run("play", "capsule", "-o", "width=2", input="quit\n").stdout
    assert "unknown game" in run("play", "chess", input="quit\n").stdout


def test_bad_save_paths_are_reported_and_the_game_goes_on(home, tmp_path):
    folder = tmp_path / "dir"
    folder.mkdir()
    lines = ["save", f"save {tmp_path}/nowhere/x.json", f"save {folder}", *PLACED, "d1-d2", f"save {tmp_path}/ok.json",
             "quit"]
    result = run("play", "capsule", "--seed", "8", "--lang", "en", input="\n".join(lines) + "\n")
    out = "".join(result.stdout.split())              # long paths may be wrapped anywhere
    assert "saveneedsafilename" in out and "isnotanaction" not in out
    assert f"Cannotsaveto{tmp_path}/nowhere/x.json:Nosuchfileordirectory.Thegamegoeson." in out
    assert f"{folder}isafolder" in out and not (tmp_path / "dir.tmp").exists()
    assert json.loads((tmp_path / "ok.json").read_text())["actions"] == [*PLACED, "d1-d2"]
    assert "Traceback" not in out and result.exit_code == 1


def test_save_cleans_its_temporary_file_when_the_target_cannot_be_replaced(tmp_path):
    from coliseo import load_game
    from coliseo.core.match import Match, save_record

    (tmp_path / "taken").mkdir()
    with pytest.raises(OSError):
        save_record(Match(load_game("capsule"), 3).record(), tmp_path / "taken")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_play_takes_agent_settings_in_vs(home):
    result = run("play", "capsule", "--vs", "mcts:iterations=5", "--seed", "4", "--seat", "2", input="random\nquit\n")
    assert "unknown agent" not in result.stdout and "Turn 2: Player 2 has" in result.stdout   # the AI played turn 1
    record = json.loads(next((home / "records").glob("capsule-*.json")).read_text())
    assert record["players"] == ["mcts:iterations=5", "human"]
    assert "no setting" in run("play", "capsule", "--vs", "mcts:speed=5", input="quit\n").stdout


def finished_capsule_record(tmp_path):
    from coliseo import load_game
    from coliseo.core.match import Match, save_record

    match = Match(load_game("capsule"), 3)
    for text in ("S c1", "end", "end", "end"):
        if not match.state.is_over:
            match.play_text(text)
    path = tmp_path / "r.json"
    save_record(match.record(reveal_seed=True), path)
    return match, path


def test_load_refuses_another_games_record_and_a_finished_one(home, tmp_path):
    run("play", "capsule", "--seed", "8", input=PLACING + "d1-d2\nsave " + str(tmp_path / "s.json") + "\nquit\n")
    other = run("play", "forbidden", "--load", str(tmp_path / "s.json"), input="quit\n")
    assert other.exit_code == 2 and "is a record of capsule, not forbidden" in " ".join(other.stdout.split())
    match, done = finished_capsule_record(tmp_path)
    before = sorted((home / "records").glob("*.json"))
    finished = run("play", "capsule", "--load", str(done), input="quit\n")
    assert finished.exit_code == 2 and "is a finished game" in " ".join(finished.stdout.split())
    assert sorted((home / "records").glob("*.json")) == before           # no duplicate record written


def test_replay_step_goes_forward_and_back_one_action_at_a_time(tmp_path):
    match, path = finished_capsule_record(tmp_path)
    last = len(match.steps)
    result = run("replay", str(path), "--step", "--lang", "en", input="\n\nb\n" + "\n" * (last + 2))
    out = result.stdout
    assert result.exit_code == 0 and "0/" + str(last) + " the start" in out
    assert out.count("1/" + str(last) + ".") == 2 and out.count("2/" + str(last) + ".") == 2   # back from 2 to 1
    assert out.count(f"{last}/{last}.") == 1 + (last <= 2)
    quit_early = run("replay", str(path), "--step", input="\nq\n")
    assert quit_early.exit_code == 0 and f"2/{last}." not in quit_early.stdout


def test_replay_step_answers_the_arrow_keys_in_a_real_terminal(tmp_path):
    """The real command in a pseudo-terminal: keys arrive one at a time in raw mode, arrows as escape sequences."""
    import os
    import pty
    import re
    import select
    import subprocess
    import sys

    match, path = finished_capsule_record(tmp_path)
    last = len(match.steps)
    controller, terminal = pty.openpty()
    command = [sys.executable, "-c", "from coliseo.cli.main import run; run()", "replay", str(path), "--step",
               "--lang", "en"]
    process = subprocess.Popen(command, stdin=terminal, stdout=terminal, stderr=terminal, close_fds=True,
                               env={**os.environ, "COLUMNS": "100", "TERM": "xterm"})
    os.close(terminal)
    screen = ""

    def until_prompt() -> str:
        """What the command printed up to its next prompt, without colours."""
        nonlocal screen
        start = len(screen)
        while "quit: " not in screen[start:]:
            ready, _, _ = select.select([controller], [], [], 30)
            assert ready, f"no prompt within 30 s; the screen so far:\n{screen[start:]}"
            screen += re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", os.read(controller, 65536).decode(errors="replace"))
        return screen[start:]

    def steps(shown: str) -> list[str]:
        return re.findall(rf"^(\d+)/{last}", shown, re.M)

    try:
        assert steps(until_prompt()) == ["0"]
        for key, step in [("\x1b[C", "1"), ("\x1b[C", "2"), ("\x1b[D", "1"), ("\x1b[B", "2"), ("\x1b[A", "1")]:
            os.write(controller, key.encode())
            assert steps(until_prompt()) == [step], f"after {key!r}"
        os.write(controller, b"q")
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        os.close(controller)


def test_wide_tables_wrap_instead_of_cutting_names(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = run("cards", "capsule").stdout
    assert "…" not in out and "cards" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_spanish_cards_words_board_letters_and_errors(home):
    rows = json.loads(run("cards", "capsule", "--lang", "es", "--json").stdout)
    assert {r["faction"] for r in rows} == {"luz", "oscuridad", "electricidad", "tierra"}
    assert {r["kind"] for r in rows} == {"rey", "monstruo"}
    played = run("play", "capsule", "--seed", "4", "--lang", "es", input="castle\nundo\n" + PLACING + "d1-d5\nquit\n")
    out = " ".join(played.stdout.split())
    assert "no es una acción de" in out and "No hay nada que deshacer" in out
    assert "'d1-d5' no es legal: la pieza de d1 no puede moverse ahí" in out and "Legales ahora" in out
    assert "Jugador 1 puede invocar un monstruo, mover o terminar el turno." in out
    assert "RL" in out or "RD" in out or "RE" in out or "RT" in out or "RO" in out   # the Rey's letter


def test_the_commands_errors_read_in_spanish(home, tmp_path):
    run("play", "capsule", "--seed", "8", input=PLACING + "d1-d2\nsave " + str(tmp_path / "s.json") + "\nquit\n")
    _, done = finished_capsule_record(tmp_path)
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "folder").mkdir()
    cases = [
        (["play", "capsule", "--load", str(tmp_path / "none.json")], "none.json: no existe ese fichero"),
        (["play", "capsule", "--load", str(tmp_path / "folder")], "es una carpeta, no un fichero"),
        (["play", "capsule", "--setup", str(tmp_path / "bad.json")], "no es JSON"),
        (["play", "capsule", "--load", str(tmp_path / "bad.json")], "no es JSON"),
        (["play", "capsule", "--vs", "wizard"], "agente desconocido 'wizard' para capsule; los agentes son:"),
        (["play", "forbidden", "--load", str(tmp_path / "s.json")], "es un registro de capsule, no de forbidden"),
        (["play", "capsule", "--load", str(done)], "es una partida terminada (Empate — dos turnos vacíos)"),
        (["play", "capsule", "--seat", "5"], "--seat debe ser 1..2"),
        (["play", "capsule", "--vs", "greedy,greedy"], "--vs nombra 2 agentes para 1 asientos de la IA"),
        (["play", "chess"], "juego desconocido 'chess'"),
        (["play", "capsule", "--players", "3"], "capsule no tiene la opción 'players'"),
        (["play", "capsule", "-o", "width=99"], "la opción 'width' debe ser como mucho"),
        (["play", "capsule", "-o", "max_turns=many"], "la opción 'max_turns' admite un número entero, no 'many'"),
        (["play", "capsule", "-o", "colour=red"], "opción incorrecta 'colour=red': escribe nombre=valor"),
        (["play", "capsule", "-o", "mode=huge"], "la opción 'mode' debe ser una de basic, advanced; no 'huge'"),
        (["replay", str(tmp_path / "none.json")], "no existe ese fichero"),
        (["replay", str(done), "--view", "7"], "--view debe ser un número de asiento o spectator"),
        (["cards", "capsule", "--where", "faction"], "el filtro 'faction' debe ser CAMPO=VALOR"),
        (["cards", "capsule", "--min", "colour=2"], "no hay ningún campo 'colour'"),
        (["cards", "capsule", "--min", "cost=high"], "el filtro 'cost=high' necesita un número"),
    ]
    for args, words in cases:
        result = run(*args, "--lang", "es", input="quit\n")
        out = " ".join(result.stdout.split())
        assert result.exit_code == 2 and words in out and "Traceback" not in out, (args, out)
    saved = run("play", "capsule", "--seed", "8", "--lang", "es", input=f"save {tmp_path}/nowhere/x.json\nquit\n")
    assert "No se puede guardar en" in " ".join(saved.stdout.split())


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("game", ["capsule", "dungeon_dice", "fantastiqa", "forbidden"])
def test_the_rules_command_is_a_players_guide_without_rule_numbers(game, lang):
    import re

    text = run("rules", game, "--lang", lang).stdout
    assert len(text) > 500 and not re.search(r"\b[RDE]\d+\b", text)
    assert "specification" not in text and "especificación" not in text and "seed" not in text


def test_the_guides_explain_the_fantastiqa_symbols_and_the_capsule_stat_notation():
    guide = " ".join(run("rules", "fantastiqa", "--lang", "en").stdout.split())
    for code, name in [("SW", "Sword"), ("FA", "Fang"), ("NE", "Net"), ("HE", "Helm"), ("WA", "Water"),
                       ("FI", "Fire"), ("CL", "Club"), ("WN", "Wand"), ("BR", "Broom")]:
        assert f"{code} {name}" in guide
    assert "WN Varita" in " ".join(run("rules", "fantastiqa", "--lang", "es").stdout.split())
    assert "attack 1/1/+/1 = AP cost / range / pattern / damage" in " ".join(run("rules", "capsule").stdout.split())
    assert "coste en PA / alcance / patrón / daño" in " ".join(run("rules", "capsule", "--lang", "es").stdout.split())


def test_rules_are_rendered_for_the_terminal_at_its_width(monkeypatch):
    for width in (80, 120):
        monkeypatch.setenv("COLUMNS", str(width))
        guide = run("rules", "capsule").stdout
        assert max(len(line) for line in guide.splitlines()) <= width
        assert "**" not in guide and "|---" not in guide and "`" not in guide
        assert "Capsule Monsters — how to play" in guide


def test_resign_ends_a_two_player_game_and_the_record_verifies_and_replays_it(home):
    result = run("play", "capsule", "--vs", "greedy", "--seed", "4", "--lang", "en",
                 input=PLACING + "d1-d2\nresign\nno\nresign\ny\n")
    assert result.exit_code == 0 and "Player 1 resigns" in result.stdout
    assert "Player 2 wins — by resignation" in result.stdout
    record_file = next((home / "records").glob("capsule-*.json"))
    record = json.loads(record_file.read_text())
    assert record["actions"] == [*PLACED, "d1-d2", "!resign 0"]
    assert record["result"] == {"winners": [1], "reason": "resigned", "scores": None}
    verified = json.loads(run("verify", str(record_file), "--json").stdout)
    assert verified["ok"] is True and verified["result"]["reason"] == "resigned"
    replayed = run("replay", str(record_file), "--lang", "es").stdout
    assert "!resign" not in replayed and re.search(r"\d\. Jugador 1 se rinde", replayed) and "por rendición" in replayed
    record["result"] = {"winners": [0], "reason": "resigned", "scores": None}
    record_file.write_text(json.dumps(record))
    assert json.loads(run("verify", str(record_file), "--json").stdout)["ok"] is False


def test_a_resigning_adventurer_in_three_player_fantastiqa_hands_the_seat_to_the_ai(home):
    result = run("play", "fantastiqa", "--players", "3", "--vs", "random", "--seed", "2", "--lang", "en",
                 input="resign\ny\n")
    assert "the AI (greedy) plays their seat to the end" in result.stdout and result.exit_code == 0
    record_file = next((home / "records").glob("fantastiqa-*.json"))
    record = json.loads(record_file.read_text())
    assert "!resign 0" in record["actions"][:-1]
    assert record["result"]["reason"] != "resigned", "the game went on to its own end"
    assert json.loads(run("verify", str(record_file), "--json").stdout)["ok"] is True


def test_the_end_of_a_game_says_what_broke_a_tie_the_scores_do_not_show(home):
    """Two turns of Dungeon Dice Monsters leave both Masters their 5 hearts: the turn limit's tie-break decides."""
    result = run("play", "dungeon_dice", "-o", "max_turns=2", "--vs", "random", "--seed", "3", "--lang", "en",
                 input="end\n" * 20)
    assert result.exit_code == 0 and "turn limit" in result.stdout
    assert "Hearts tied at 5 each: the most monsters" in result.stdout or "Hearts (5 each)" in result.stdout


def test_verify_says_when_an_older_record_did_not_commit_its_options(tmp_path):
    from coliseo import load_game
    from coliseo.core.match import Match, scheme_1_commitment

    match = Match(load_game("capsule"), 3)
    match.play_text("end")
    match.play_text("end")
    record = match.record()
    assert "options were not committed" not in run("verify", str(_saved(record, tmp_path))).stdout
    older = {k: v for k, v in record.items() if k not in ("commitment_scheme", "commitment_parts")}
    older["seed_commitment"] = scheme_1_commitment(record["seed"], record["salt"], record["setup"])
    result = run("verify", str(_saved(older, tmp_path)))
    assert result.exit_code == 0 and "scheme 1: its options were not committed" in " ".join(result.stdout.split())
    assert json.loads(run("verify", str(_saved(older, tmp_path)), "--json").stdout)["commitment_scheme"] == 1


def test_a_record_written_with_an_old_end_code_verifies_and_replays_as_the_same_result(tmp_path):
    """A Forbidden duel recorded while a deck-out was `deckout` (core/reasons.py: today `deck_out`)."""
    import random

    from coliseo import load_game
    from coliseo.core.match import Match

    match, rng = Match(load_game("forbidden"), 3), random.Random(3)
    while not match.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    record = match.record()
    assert record["result"]["reason"] == "deck_out"
    older = _saved({**record, "result": {**record["result"], "reason": "deckout"}}, tmp_path)
    verified = run("verify", str(older))
    assert verified.exit_code == 0 and "result: Player 2 wins — a deck ran out" in " ".join(verified.stdout.split())
    replayed = run("replay", str(older), "--lang", "es")
    assert replayed.exit_code == 0 and "el mismo resultado que el registro" in replayed.stdout


def _saved(record: dict, tmp_path):
    from coliseo.core.match import save_record

    path = tmp_path / "record.json"
    save_record(record, path)
    return path


def test_the_person_places_in_the_terminal_and_the_ai_places_at_random(home):
    """R9: the zone and the numbered pieces to place are shown; the AI's pieces stay out of sight until turn 1."""
    result = run("play", "capsule", "--vs", "greedy", "--seed", "4", "--lang", "en",
                 input="K@d8\nK@d1\n1@c1\nrandom\nquit\n")
    out = " ".join(result.stdout.split())
    assert "Placement (secret): Player 1 places" in out
    assert "To place on your zone (a1–h1), as «piece@square», or «random» for the rest:" in out
    assert all(piece in out for piece in ("K Dawn King", "1 Dawnblade Knight", "2 Clay Brute", "3 Prism Archer"))
    assert "'K@d8' is not legal: place pieces only on free squares of your start zone" in out
    assert "Player 1 places Dawn King on d1" in out and "Turn 1: Player 1 has 6 AP" in out
    first_board = out.split("Placement (secret)")[0]
    assert "kd" not in first_board and "?d" not in first_board and "?e" not in first_board   # no Player 2 piece yet
    record = json.loads(next((home / "records").glob("capsule-*.json")).read_text())
    assert record["actions"][:2] == ["K@d1", "1@c1"] and record["actions"][2] == "random"
    assert record["setup"]["players"][0]["placement"] == "choose" and "placement" not in record["setup"]["players"][1]
