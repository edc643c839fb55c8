"""Bad input gives clear errors (positions, content packs, setups, notation); text output; the greedy agent."""

import json
import random

import pytest
from contract import check_bad_notation
from games.dungeon_dice.helpers import GAME, act, legal_texts, position, put

from coliseo import load_game
from coliseo.agents import make_agent, play_game
from coliseo.core.errors import ContentError, PositionError, SetupError
from coliseo.core.events import view_event

# --- positions ---------------------------------------------------------------------------------------


def doc():
    s = GAME.new_state(3)
    rng = random.Random(2)
    for _ in range(60):
        s.apply(rng.choice(s.legal_actions()))
    return json.loads(json.dumps(s.to_json()))


@pytest.mark.parametrize("field,value,words", [
    ("format", "chess", "format"),
    ("hearts", [5, 9], "hearts[1]"),
    ("pool", [[0] * 7, [0] * 8], "pool[0]"),
    ("path", [["z99"], ["h20"]], "path[0]"),
    ("path", [["a1"], ["h20"]], "master square"),
    ("holes", ["g1"], "holes"),
    ("phase", "lunch", "phase"),
    ("turn", 0, "turn"),
    ("drawn", [1, 1, 2], "drawn"),
    ("rolls", [[0, 9, 1]], "rolls"),
    ("library", [["no_such_card"], []], "library[0]"),
    ("setzone", [[["cave_rat", 1]], []], "setzone[0]"),
    ("deck_size", [34, 35], "deck_size"),
    ("window", ["g1", "h20", []], "window"),
    ("placing", "cave_rat", "placing"),
    ("result", {"winners": [0]}, "result"),
    ("spent1", ["Q"], "spent1"),
])
def test_malformed_positions_name_the_bad_field(field, value, words):
    d = doc()
    d[field] = value
    with pytest.raises(PositionError) as caught:
        GAME.state_from_json(d)
    assert words in str(caught.value)


def test_position_missing_or_unknown_fields_and_piece_errors():
    d = doc()
    del d["pool"]
    with pytest.raises(PositionError, match="missing field"):
        GAME.state_from_json(d)
    d = doc()
    d["colour"] = 1
    with pytest.raises(PositionError, match="unknown field"):
        GAME.state_from_json(d)
    d = doc()
    d["pieces"].append(["a10", 999, "cave_rat", 0, 0, [], 0, False, False, False])
    with pytest.raises(PositionError, match="path tile"):
        GAME.state_from_json(d)
    d = doc()
    d["pieces"] = [p for p in d["pieces"] if p[2] is not None]
    with pytest.raises(PositionError, match="Master"):
        GAME.state_from_json(d)


def test_a_position_round_trips_mid_game():
    d = doc()
    s = GAME.state_from_json(d)
    assert s.to_json() == d


# --- content packs -----------------------------------------------------------------------------------

GOOD = '''
[[monster]]
id = "glass_bat"
name = { en = "Glass Bat", es = "Murciélago de Cristal" }
level = 2
atk = 700
def = 500
effect = { kind = "boost_self", once = "turn", params = { atk = 300 } }
'''


def write(tmp_path, text, name="pack.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_a_user_pack_adds_cards_that_decks_may_use(tmp_path):
    game = load_game("dungeon_dice", packs=[write(tmp_path, GOOD)], first_player="1")
    assert game.content.cards["glass_bat"].params == {"atk": 300}
    deck = ["glass_bat"] * 3 + ["cave_rat"] * 3 + ["pebble_golem"] * 3 + ["moss_sprite"]
    s = game.new_state(1, [{"deck": deck}, None])
    assert s.library[0].count("glass_bat") == 3


@pytest.mark.parametrize("text,words", [
    (GOOD.replace("level = 2", "level = 13"), "at most 12"),
    (GOOD.replace("atk = 700", "atk = -5"), "at least 0"),
    (GOOD.replace("level = 2", "level = 2\ncolour = 1"), "unknown field"),
    (GOOD.replace("boost_self", "explode"), "kind"),
    (GOOD.replace('params = { atk = 300 }', 'params = { }'), "missing field 'atk'"),
    (GOOD.replace("glass_bat", "cave_rat"), "defined twice"),
    (GOOD.replace("glass_bat", "Glass Bat!"), "[a-z0-9_]+"),
    ('[[spell]]\nid = "x"\nname = { en = "X", es = "X" }\nkind = "crests"\nparams = { crest = "Q", amount = 2 }\n',
     "crest"),
    ('[[trap]]\nid = "x"\nname = { en = "X", es = "X" }\nkind = "negate_attack"\nlimit = 4\n', "at most 3"),
    ('[[die]]\nid = "d"\nname = { en = "D", es = "D" }\nclass = "common"\nfaces = ["S3","M4","A2","D2","G2","X2"]\n'
     'copies = 25\n', "face"),
    ('[[die]]\nid = "d"\nname = { en = "D", es = "D" }\nclass = "special"\nfaces = ["Z","Z","Z","Z","Z","Z"]\n'
     'copies = 20\n', "sum to 25"),
    ('[[wizard]]\nid = "x"\n', "unknown table"),
    ("this is = = not toml", "not valid TOML"),
])
def test_bad_content_packs_give_a_clear_error(tmp_path, text, words):
    with pytest.raises(ContentError) as caught:
        load_game("dungeon_dice", packs=[write(tmp_path, text)])
    assert words in str(caught.value) and "pack.toml" in str(caught.value)


def test_missing_pack_file_is_named(tmp_path):
    with pytest.raises(ContentError, match="no such content file"):
        load_game("dungeon_dice", packs=[str(tmp_path / "nope.toml")])


def test_a_pack_with_dice_replaces_the_dice_set(tmp_path):
    text = ('[[die]]\nid = "grey"\nname = { en = "Grey", es = "Gris" }\nclass = "common"\n'
            'faces = ["S1","M1","A1","D1","G1","E1"]\ncopies = 25\n')
    game = load_game("dungeon_dice", packs=[write(tmp_path, text)])
    assert list(game.content.dice) == ["grey"]
    assert game.new_state(1).dice[0] == ("grey",) * 15


# --- setups ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("setup,words", [
    ([{"dice": ["zash"] * 15}, None], "player 1: 15 copies of die 'zash'"),
    ([None, {"dice": ["common_magic"] * 5}], "player 2: the dice deck must hold exactly 15"),
    ([{"dice": ["gold_die"] * 15}, None], "unknown die"),
    ([None, {"deck": ["cave_rat"] * 3}], "player 2: the card deck must hold 10-60"),
    ([{"deck": ["cave_rat"] * 4 + ["pebble_golem"] * 6}, None], "player 1: 4 copies of 'cave_rat'"),
    ([{"deck": ["void_collapse"] * 2 + ["cave_rat"] * 3 + ["pebble_golem"] * 3 + ["moss_sprite"] * 2}, None],
     "limit is 1"),
    ([{"deck": ["nothing"] * 10}, None], "unknown card"),
    ([{"cards": []}, None], "unknown setup field"),
    ({"dice": []}, "list of two entries"),
])
def test_bad_setups_name_the_player_and_the_broken_constraint(setup, words):
    with pytest.raises(SetupError) as caught:
        GAME.new_state(1, setup)
    assert words in str(caught.value)


def test_bad_options_are_refused():
    with pytest.raises(SetupError):
        load_game("dungeon_dice", board="hexagonal")
    with pytest.raises(SetupError):
        load_game("dungeon_dice", max_turns=0)


# --- notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["move z9 a1", "dim T9@a1", "dim T0@q1", "zash6", "zash5 g1",
                                  "spell trail_map k99", "summon", "attack g1", "effect", ""])
def test_malformed_notation_lists_the_legal_actions(text):
    s = position(pool={"S": 1})
    check_bad_notation(GAME, s, text)


def test_notation_is_case_insensitive_but_canonical_output_is_lowercase_with_net_letters():
    s = position(pool={"S": 1})
    act(s, "SUMMON Cave_Rat")
    a = GAME.parse_action(s, "dim l5@H1")
    assert GAME.format_action(a) == "dim L5@h1"


# --- text --------------------------------------------------------------------------------------------


def test_every_event_reads_in_english_and_spanish_for_every_viewer():
    game = load_game("dungeon_dice", max_turns=60)
    rng = random.Random(9)
    for seed in range(3):
        s = game.new_state(seed)
        while not s.is_over:
            if s.turn % 3 == 0:
                s.pool[s.active] = [v + 1 for v in s.pool[s.active]]
                s._legal = None
            for event in s.apply(rng.choice(s.legal_actions())):
                for viewer in (0, 1, None):
                    seen = view_event(event, viewer)
                    for lang in ("en", "es"):
                        line = game.render(seen, lang)
                        assert line and "{" not in line
                        if event["type"] == "set" and viewer != event["player"]:
                            assert event["private"]["fields"]["card"] not in line
                            assert game.card_name(event["private"]["fields"]["card"], lang) not in line


def test_render_text_shows_the_dungeon_and_labels_each_candidate_net():
    s = position(pool={"S": 1})
    put(s, "h19", "cave_rat", 1)
    act(s, "summon pebble_golem")
    text = GAME.render_text(s.observation(0), "en", s.legal_actions())
    assert "[1]" in text and "[2]" in text and " a " in text           # Masters and player 2's monster
    assert "S0" in text or "S1" in text
    assert "Placing Pebble Golem" in text
    assert "1.T0@f3 " in text and "166.L5@i1" in text
    assert text.count("#") == 6 * 166 + 1             # plus the key "(# = the six new squares)"
    es = GAME.render_text(s.observation(0), "es", s.legal_actions())
    assert "Colocando Gólem de Guijarros" in es


def test_render_text_of_one_observation_hides_the_opponents_cards():
    s = position(pool={"S": 1})
    s.library[1] = sorted(s.library[1])
    text = GAME.render_text(s.observation(0), "en", legal_texts(s) and s.legal_actions())
    assert "Your deck" in text
    spectator = GAME.render_text(s.observation(None), "en")
    assert "Your deck" not in spectator and "Cave Rat" not in spectator


# --- agents ------------------------------------------------------------------------------------------


def test_greedy_plays_legal_games_and_holds_its_own_against_random():
    """Seeded, so deterministic: greedy wins 3 of these 6 100-turn games (most end on the turn-limit tie-break)."""
    game = load_game("dungeon_dice", max_turns=100)
    wins = 0
    for i in range(6):
        greedy_seat = i % 2
        agents = [None, None]
        agents[greedy_seat] = make_agent("greedy", game, i)
        agents[1 - greedy_seat] = make_agent("random", game, i)
        s = game.new_state(100 + i)
        play_game(s, agents, random.Random(i))
        assert s.is_over
        wins += s.result["winners"] == [greedy_seat]
    assert wins >= 3


def test_a_person_may_pick_a_candidate_net_by_its_number():
    s = position(pool={"S": 1})
    act(s, "summon cave_rat")
    third = s.legal_actions()[2]
    assert GAME.parse_action(s, "3") == third
    assert GAME.parse_action(s, "dim 3") == third     # as the guide writes it: `dim T0@h3` (or its number)
    check_bad_notation(GAME, s, "167")
    check_bad_notation(GAME, s, "dim 167")
    s2 = position(pool={"S": 1})
    check_bad_notation(GAME, s2, "3")                 # numbers mean nothing outside the placing step


def test_cards_listing_and_players_guide():
    rows = GAME.card_rows("es")
    assert len(rows) == 10 + 34
    wisp = next(r for r in rows if r["id"] == "lantern_wisp")
    assert wisp["name"] == "Fuego Fatuo" and wisp["level"] == 1 and "crests" in wisp["effect"]
    assert "Amo del Calabozo" in GAME.rules_text("es") and "Dungeon Master" in GAME.rules_text("en")
