"""The fusion calculator, the drop table and the card list, through their functions and the typer app."""

import json

from games.forbidden.helpers import write_small_ygofm, ygofm_data
from typer.testing import CliRunner

import coliseo
from coliseo.cli.forbidden import app, import_ygofm
from coliseo.games.forbidden.calc import drop_table, fusion_chains
from coliseo.games.forbidden.content import load_pack

RUNNER = CliRunner()


def text(result) -> str:
    return " ".join(result.output.split())


def test_fusion_chains_best_attack_first_with_the_pick_order():
    pack = load_pack("starter")
    chains = fusion_chains(pack, [4, 5, 9, 4, 657])
    best = chains[0]
    assert best["result"] == 39 and best["atk"] == 3000 and len(best["cards"]) == 4
    assert [s["step"] for s in best["steps"]] == ["fusion", "fusion", "equip"]
    assert all(a["atk"] >= b["atk"] for a, b in zip(chains, chains[1:]) if a["atk"] and b["atk"])
    assert any(c["order"] == [1, 2] and c["result"] == 31 for c in chains)


def test_fusion_chains_onto_a_field_monster():
    chains = fusion_chains(load_pack("starter"), [5], [4])
    assert chains == [{"onto": 4, "order": [1], "cards": [5], "result": 31, "name": "Koumori Dragon",
                       "kind": "monster", "atk": 1500, "def": 1200,
                       "steps": [{"step": "fusion", "materials": [4, 5], "result": 31}]}]


def test_fusions_command_json_and_table():
    result = RUNNER.invoke(app, ["fusions", "--hand", "4,Ryu-kishin", "--json"])
    assert result.exit_code == 0
    chains = json.loads(result.output)
    assert {c["result"] for c in chains} == {31}
    result = RUNNER.invoke(app, ["fusions", "--hand", "343,343,344"])
    assert result.exit_code == 0 and "Final Flame #345" in result.output


def test_fusions_command_bad_input():
    result = RUNNER.invoke(app, ["fusions", "--hand", "4,xyzzy"])
    assert result.exit_code == 2 and "no card named 'xyzzy'" in text(result)
    result = RUNNER.invoke(app, ["fusions", "--hand", "1,2,3,4,5,7"])
    assert result.exit_code == 2 and "1 to 5 cards" in text(result)


def test_drops_from_the_starter_duelist():
    rows = drop_table(load_pack("starter"), 686)
    assert rows == [{"duelist": 1, "name": "Sparring Partner", "pool": "sa_tec", "weight": 1024, "total": 2048,
                     "probability": 0.5}]
    result = RUNNER.invoke(app, ["drops", "Widespread Ruin", "--pack", "starter", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["drops"][0]["probability"] == 0.5


def test_drops_without_the_full_pack_names_the_importer(tmp_path, monkeypatch):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path))
    result = RUNNER.invoke(app, ["drops", "1"])           # the starter pack, saying where the full tables are
    assert result.exit_code == 0 and "coliseo content import forbidden" in text(result)
    result = RUNNER.invoke(app, ["drops", "1", "--pack", "fm"])
    assert result.exit_code == 2 and "coliseo content import forbidden" in text(result)


def test_drops_with_the_imported_full_pack(tmp_path, monkeypatch):
    data = ygofm_data()
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path))
    folder = import_ygofm(data)
    assert folder == tmp_path / "packs" / "forbidden" / "fm"
    result = RUNNER.invoke(app, ["drops", "Blue-eyes White Dragon", "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.output)["drops"]
    assert rows and all(0 < r["probability"] <= 1 for r in rows)
    assert rows == sorted(rows, key=lambda r: -r["probability"])


def test_card_rows_for_the_cards_command():
    rows = coliseo.load_game("forbidden").card_rows()
    assert len(rows) == 164
    blue = next(r for r in rows if r["id"] == 1)
    assert blue == {"id": 1, "name": "Blue-eyes White Dragon", "kind": "monster", "type": "DR", "atk": 3000,
                    "def": 2500, "star1": "Sun", "star2": "Mars", "effect": "", "text": ""}
    trap = next(r for r in rows if r["id"] == 683)
    assert trap["effect"] == "attack 1500"
    assert trap["text"] == "Destroys an attacking monster whose ATK is 1500 or less."
    spanish = {r["id"]: r["text"] for r in coliseo.load_game("forbidden").card_rows("es")}
    assert spanish[347] == "El rival pierde 1000 LP." and spanish[330] == "El terreno pasa a ser Bosque."


def test_content_import_command_of_the_main_cli(tmp_path, monkeypatch):
    from coliseo.cli.main import app as main_app
    data = ygofm_data()
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path))
    result = RUNNER.invoke(main_app, ["content", "import", "forbidden", "--ygofm", str(data), "--name", "full"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "packs" / "forbidden" / "full" / "cards.csv").is_file()
    game = coliseo.load_game("forbidden", pack="full")
    assert len(game.pack.cards) == 722
    result = RUNNER.invoke(main_app, ["cards", "forbidden", "-o", "pack=full", "--where", "type=DR",
                                      "--min", "atk=3000", "--json"])
    assert result.exit_code == 0
    names = {row["name"] for row in json.loads(result.output)}
    assert "Blue-eyes White Dragon" in names and "Blue-eyes Ultimate Dragon" in names


def test_content_import_command_on_the_small_data_set(tmp_path, monkeypatch):
    from coliseo.cli.main import app as main_app
    write_small_ygofm(tmp_path / "small")
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    result = RUNNER.invoke(main_app, ["content", "import", "forbidden", "--ygofm", str(tmp_path / "small"),
                                      "--name", "mine"])
    assert result.exit_code == 0, result.output
    assert "-o pack=mine" in text(result)
    result = RUNNER.invoke(main_app, ["cards", "forbidden", "-o", "pack=mine", "--name", "Blue-eyes", "--json"])
    assert [row["id"] for row in json.loads(result.output)] == [1, 380]
    result = RUNNER.invoke(main_app, ["content", "import", "forbidden", "--ygofm", str(tmp_path / "none")])
    assert result.exit_code != 0 and "does not exist" in text(result)
