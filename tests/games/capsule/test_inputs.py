"""Bad input gets a clear error naming the problem, and nothing changes: setups, content, positions, notation."""

import copy
import json

import pytest
from contract import check_bad_notation
from games.capsule.helpers import FIXED, GAME, kings, piece, position

from coliseo import ContentError, InvalidNotation, PositionError, SetupError, load_game
from coliseo.core.i18n import LANGS
from coliseo.core.registry import game_class

# --- setups and team building (R6, R7, R9) -----------------------------------------------------------


def team(king, monsters, placement=None):
    entry = {"king": king, "team": monsters}
    if placement is not None:
        entry["placement"] = placement
    return entry


@pytest.mark.parametrize("player,problem,match", [
    (team("dawn_king", ["seraph_of_noon", "prism_colossus", "sunspear_lancer"]), "cost", "R7a"),
    (team("dawn_king", ["abyss_dragon"]), "level", "R7b"),
    (team("dawn_king", []), "size", "1 to 7 monsters"),
    (team("dawn_king", ["volt_mite"] * 8), "size", "1 to 7 monsters"),
    (team("sun_king", ["volt_mite"]), "king", "unknown King 'sun_king'"),
    (team("dawn_king", ["volt_mite", "ghost"]), "monster", "unknown monster"),
    ({"preset": "nope"}, "preset", "unknown team preset"),
    ({"king": "dawn_king"}, "shape", "needs 'king'"),
])
def test_each_broken_team_rule_is_named(player, problem, match):
    with pytest.raises(SetupError, match=match) as caught:
        GAME.new_state(1, {"players": [player, {"preset": "starter_dusk"}]})
    assert "player 1" in str(caught.value)


def test_team_rules_can_be_relaxed_but_the_team_size_cannot():
    game = load_game("capsule", enforce_team_rules=False)
    game.new_state(1, {"players": [team("dawn_king", ["abyss_dragon", "storm_titan"]), {"preset": "starter_dusk"}]})
    with pytest.raises(SetupError, match="1 to 7"):
        game.new_state(1, {"players": [team("dawn_king", []), {"preset": "starter_dusk"}]})


def test_an_omitted_placement_is_random_and_fills_the_zone():
    setup = {"players": [team("dawn_king", ["volt_mite"] * 7), {"preset": "starter_dusk"}]}
    kings = set()
    for seed in range(6):
        own = [p for p in GAME.new_state(seed, setup).observation(0)["pieces"] if p["owner"] == 0]
        assert {p["sq"] for p in own} == {f"{f}1" for f in "abcdefgh"}
        kings.add(next(p for p in own if p["kind"] == "king")["sq"])
    assert len(kings) > 1


def test_the_removed_random_placement_option_is_refused_unless_it_asks_for_the_rule():
    assert game_class("capsule")(random_placement=True).options == GAME.options
    with pytest.raises(SetupError, match="'random_placement' was removed"):
        game_class("capsule")(random_placement=False)


@pytest.mark.parametrize("placement,match", [
    ("fixed", "must be \"random\", \"choose\" or a map"), ([["d1", "K"]], "must be \"random\""),
])
def test_a_placement_is_random_choose_or_a_map(placement, match):
    with pytest.raises(SetupError, match=match):
        GAME.new_state(1, {"players": [{"preset": "starter_dawn", "placement": placement},
                                       {"preset": "starter_dusk"}]})


def test_a_given_placement_is_used_and_must_be_complete():
    setup = {"players": [team("dawn_king", ["prism_archer", "volt_mite"], {"a1": "K", "h1": 0, "g1": 1}),
                         {"preset": "starter_dusk"}]}
    state = GAME.new_state(1, setup)
    assert {p["sq"]: p.get("card") for p in state.observation(0)["pieces"] if p["owner"] == 0} == \
        {"a1": "dawn_king", "h1": "prism_archer", "g1": "volt_mite"}
    setup["players"][0]["placement"] = {"a1": "K", "h1": 0}
    with pytest.raises(SetupError, match="leaves out 1"):
        GAME.new_state(1, setup)
    setup["players"][0]["placement"] = {"a1": "K", "h2": 0, "g1": 1}
    with pytest.raises(SetupError, match="not in your start zone"):
        GAME.new_state(1, setup)


def test_a_random_first_player_comes_from_the_seed():
    game = load_game("capsule", first_player="random")
    firsts = {game.new_state(seed).current_player for seed in range(20)}
    assert firsts == {0, 1}
    assert game.new_state(4).current_player == game.new_state(4).current_player


@pytest.mark.parametrize("options,match", [
    ({"width": 3}, "at least 4"), ({"mode": "expert"}, "basic, advanced"), ({"start_zone": ["a1"]}, "at least 2"),
    ({"start_zone": ["a1", "z9"]}, "not on the"), ({"height": 4, "start_zone": ["a1", "a4"]}, "overlap"),
    ({"capsule_hp": 0}, "at least 1"), ({"packs": ["/nonexistent/pack.toml"]}, "no such content file"),
])
def test_bad_options_are_refused(options, match):
    with pytest.raises((SetupError, ContentError), match=match):
        load_game("capsule", **options)


# --- content packs ------------------------------------------------------------------------------------

GOOD_PACK = """
[pack]
id = "mine"
name = { en = "Mine", es = "Mío" }
version = "1"

[[monster]]
id = "ember_newt"
name = { en = "Ember Newt", es = "Tritón de Ascuas" }
faction = "light"
cost = 2
hp = 3
move = { cost = 1, range = 2, pattern = "+" }
attack = { cost = 1, range = 1, pattern = "+", damage = 1 }
abilities = [{ id = "heal", cost = 1, amount = 1 }]
"""


def test_a_user_pack_loads_beside_the_bundled_ones(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD_PACK)
    game = load_game("capsule", packs=[str(path)])
    state = game.new_state(1, {"players": [team("dawn_king", ["ember_newt"]), {"preset": "starter_dusk"}]})
    assert "ember_newt" in json.dumps(state.observation(0))


@pytest.mark.parametrize("change,match", [
    (('cost = 2', 'cost = 0'), "field 'cost' must be at least 1"),
    (('faction = "light"', 'faction = "fire"'), "field 'faction' must be one of"),
    (('pattern = "+" }\nattack', 'pattern = "*" }\nattack'), "field 'pattern' must be one of"),
    (('id = "ember_newt"', 'id = "Ember Newt"'), r"must match \[a-z0-9_\]\+"),
    (('id = "ember_newt"', 'id = "volt_mite"'), "defined twice"),
    (('hp = 3', 'hp = "three"'), "field 'hp' must be int"),
    (('{ id = "heal", cost = 1, amount = 1 }', '{ id = "laser" }'), "field 'id' must be one of"),
    (('abilities = [', 'speed = 3\nabilities = ['), "unknown field"),
    (('range = 2, pattern = "+"', 'range = 3, pattern = "O"'), "an O line must have range 2"),
    (('[pack]', '[pack\n'), "not valid TOML"),
])
def test_a_broken_content_file_names_the_file_entry_and_field(tmp_path, change, match):
    path = tmp_path / "broken.toml"
    path.write_text(GOOD_PACK.replace(*change, 1))
    with pytest.raises(ContentError, match=match) as caught:
        load_game("capsule", packs=[str(path)])
    assert "broken.toml" in str(caught.value)


# --- positions ------------------------------------------------------------------------------------


def doc_of(state):
    return copy.deepcopy(state.to_json())


@pytest.mark.parametrize("edit,match", [
    (lambda d: d.update(format="fen"), "field 'format'"),
    (lambda d: d.update(game="chess"), "field 'game'"),
    (lambda d: d.update(turn=-1), "field 'turn'"),
    (lambda d: d.update(ap="six"), "field 'ap'"),
    (lambda d: d.update(active=2), "field 'active'"),
    (lambda d: d["pieces"][0].update(sq="z9"), r"'pieces\[0\]\.sq' must be a square on the board"),
    (lambda d: d["pieces"][1].update(card="ghost"), r"'pieces\[1\]\.card' must be a monster id"),
    (lambda d: d["pieces"][1].update(kind="dragon"), r"'pieces\[1\]\.kind' must be one of"),
    (lambda d: d["pieces"][1].update(damage=-2), r"'pieces\[1\]\.damage' must be an integer ≥ 0"),
    (lambda d: d["pieces"][0].update(stunned=True), "only summoned monsters can be stunned"),
    (lambda d: d["pieces"][1].update(sq=d["pieces"][0]["sq"]), "holds two pieces"),
    (lambda d: d["pieces"].pop(0), "needs both Kings"),
    (lambda d: d.update(ap=99), "more than the active King"),
    (lambda d: d.update(options={"mode": "advanced"}), "field 'options'"),
])
def test_a_malformed_position_names_the_bad_field(edit, match):
    doc = doc_of(GAME.new_state(1))
    edit(doc)
    with pytest.raises(PositionError, match=match):
        GAME.state_from_json(doc)


# --- notation ---------------------------------------------------------------------------------------


def test_the_parser_accepts_any_case_and_spaces():
    s = position(kings("h1", "h8") + [piece("c3", 0, "mirror_monk", damage=1), piece("d4", 1, "shade_lancer")])
    game = s.game
    assert game.format_action(game.parse_action(s, " c3 X D4 ")) == "c3xd4"
    assert game.format_action(game.parse_action(s, "c3 ! HEAL @ c3")) == "c3!heal@c3"
    assert game.format_action(game.parse_action(s, "END")) == "end"
    state = GAME.new_state(1, FIXED)
    assert GAME.format_action(GAME.parse_action(state, "s c1")) == "S c1"


@pytest.mark.parametrize("text,match", [
    ("castle", "not an action"), ("c1-c9", "not an action"), ("S d1", "there is no capsule on d1"),
    ("S c8", "the piece on c8 is not yours"), ("d1-d3", "cannot move there"), ("a4-a5", "no piece on a4"),
])
def test_bad_notation_says_why_and_lists_the_legal_actions(text, match):
    state = GAME.new_state(1, FIXED)
    message = check_bad_notation(GAME, state, text)
    assert match in message and "S c1" in message


def test_error_messages_never_name_a_hidden_capsule():
    state = GAME.new_state(1, FIXED)
    hidden = {p["card"] for p in state.observation(1)["pieces"] if p["kind"] == "capsule" and p["owner"] == 1}
    hidden |= {GAME.card_name(card, "en") for card in hidden}
    for text in ("S c8", "c8-c7", "c1xc8", "c1!scout@c8", "R c8"):
        with pytest.raises(InvalidNotation) as caught:
            GAME.parse_action(state, text)
        assert not any(card in str(caught.value) for card in hidden)


# --- text -----------------------------------------------------------------------------------------


def test_every_event_reads_in_both_languages():
    import random

    from contract import play_random_games  # noqa: F401  (the same games the contract plays)

    game = load_game("capsule", mode="advanced")
    seen = set()
    choose = game.setup_for_people(None, {0, 1})
    for seed in range(30):
        state = game.new_state(seed, choose if seed % 2 else None)
        rng = random.Random(seed)
        while not state.is_over:
            for event in state.apply(rng.choice(state.legal_actions())):
                seen.add(event["type"])
                for lang in LANGS:
                    for viewer in (0, 1, None):
                        from coliseo.core.events import view_event
                        text = game.render(view_event(event, viewer), lang)
                        assert text and "{" not in text
    assert {"place", "summon", "move", "attack", "destroyed", "king_damage", "turn_end", "turn_start",
            "game_over"} <= seen


def test_the_terminal_picture_shows_only_the_viewers_knowledge():
    state = GAME.new_state(1)
    mine = GAME.render_text(state.observation(0), "en")
    theirs = GAME.render_text(state.observation(1), "en")
    assert "?PA" in mine and "?PA" not in theirs     # Prism Archer's initials show only to its owner
    assert "?l" in theirs.lower()


def test_the_terminal_picture_keeps_two_digit_damage_and_tells_own_capsules_apart():
    obs = GAME.new_state(1).observation(0)
    king = next(p for p in obs["pieces"] if p["owner"] == 0 and p["kind"] == "king")
    king["damage"] = 11
    picture = GAME.render_text(obs, "en")
    assert "KL11" in picture
    own = [p for p in obs["pieces"] if p["owner"] == 0 and p["kind"] == "capsule"]
    labels = {"?" + "".join(w[0] for w in GAME.card_name(p["card"], "en").split()[:2]).upper() for p in own}
    assert len(labels) == len(own) and all(label in picture for label in labels)
