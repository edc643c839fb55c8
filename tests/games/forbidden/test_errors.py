"""Bad input gives a clear error: positions, content files, setups and notation."""

import shutil
from pathlib import Path

import pytest
from contract import check_bad_notation

import coliseo
from coliseo.core.errors import ContentError, PositionError, SetupError
from coliseo.games.forbidden.content import BUNDLED, Pack

GAME = coliseo.load_game("forbidden")


# --- positions -------------------------------------------------------------------------------------------

def doc():
    return GAME.new_state(3).to_json()


@pytest.mark.parametrize("change,field", [
    (lambda d: d.update(phase="lunch"), "phase"),
    (lambda d: d.update(turn=-1), "turn"),
    (lambda d: d.update(player=2), "player"),
    (lambda d: d.update(terrain=9), "terrain"),
    (lambda d: d["sides"][0].update(lp=9000), "sides[0].lp"),
    (lambda d: d["sides"][1].update(hand=[1, 2, 3, 4, 5, 6]), "sides[1].hand"),
    (lambda d: d["sides"][0].update(deck=[1, 99999]), "sides[0].deck"),
    (lambda d: d["sides"][0]["monsters"].__setitem__(0, {"id": 343, "face_up": True, "defence": False, "star": 1,
                                                         "mod": 0, "curse": 0, "used": False, "moved": False,
                                                         "known": False}), "sides[0].monsters[0].id"),
    (lambda d: d["sides"][0]["monsters"].__setitem__(0, {"id": 1}), "sides[0].monsters[0].face_up"),
    (lambda d: d["sides"][0].update(monsters=[None] * 4), "sides[0].monsters"),
    (lambda d: d["sides"][0]["counters"].update(fusions="x"), "sides[0].counters.fusions"),
    (lambda d: d["sides"][0]["deck"].pop(), "field 'sides[0]': deck + hand"),
    (lambda d: d.update(result={"winners": [0]}), "result"),
    (lambda d: d.update(sides=[]), "sides"),
    (lambda d: d.update(game="capsule"), "game"),
    (lambda d: d["sides"][1].update(lp=0), "sides[1].lp"),
    (lambda d: d.update(phase="place", pending=2), "pending"),
])
def test_malformed_positions_name_the_field(change, field):
    d = doc()
    change(d)
    with pytest.raises(PositionError) as caught:
        GAME.state_from_json(d)
    assert field in str(caught.value)


def test_position_must_be_an_object():
    with pytest.raises(PositionError):
        GAME.state_from_json([1, 2])


# --- content files ------------------------------------------------------------------------------------

@pytest.fixture
def pack_dir(tmp_path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(BUNDLED / "starter", folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("file,old,new,message", [
    ("cards.csv", "1,Blue-eyes White Dragon,monster,DR,3000", "1,Blue-eyes White Dragon,monstr,DR,3000",
     "cards.csv:2: field 'kind' must be one of"),
    ("cards.csv", "DR,3000,2500", "DR,30000,2500", "cards.csv:2: field 'atk' must be in 0..9999"),
    ("cards.csv", "Su,Ma,,,,", "Xx,Ma,,,,", "field 'star1' must be one of"),
    ("cards.csv", "2,Mystical Elf", "1,Mystical Elf", "card 1 is defined twice"),
    ("cards.csv", "681,House of Adhesive Tape,trap,,,,,,,0,500,attack", "681,House of Adhesive Tape,trap,,,,,,,0,500,",
     "field 'trigger' is missing"),
    ("fusions.csv", "345,432,73", "345,432,99999", "fusions.csv:2: field 'result': no card 99999"),
    ("fusions.csv", "94,329,97", "345,432,74", "conflicts with an earlier row"),
    ("equips.csv", "301,15", "4,15", "equips.csv:2: field 'equip': card 4 is a monster, expected equip"),
    ("rituals.csv", "670,27,38,58,364", "670,27,38,343,364", "field 'material3': card 343 is a magic"),
    ("fusion_families.csv", "AQ,AQ,647", "AQ,AQ,343", "is not a monster of the pack"),
    ("pack.toml", '"2x2", "4x3"', '"2x5"', "at most 3 copies"),
    ("pack.toml", '"2x2", ', '', "exactly 40 cards"),
    ("duelists.csv", "starter_b,20", "nodeck,20", "field 'deck': no deck 'nodeck'"),
    ("pools.csv", "1,sa_pow,613", "1,sa_pew,613", "field 'pool' must be one of"),
    ("pools.csv", "1,sa_pow,571", "1,sa_pow,613", "card 613 is listed twice in duelist 1's sa_pow pool"),
    ("pools.csv", "1,sa_pow,571,512", "1,sa_pow,571,-5", "field 'weight' must be at least 0, got -5"),
    ("rituals.csv", "675,1,1,1,380", "670,1,1,1,380", "ritual 670 has two recipes"),
    ("duelists.csv", "1,Sparring Partner,5,0", "1,Sparring Partner,5,9", "field 'terrain' must be in 0..6"),
    ("rules.toml", "start_lp = 8000", "start_lp = -1", "field 'start_lp'"),
    ("rules.toml", 'star_cycles = [["Su"', 'star_cycles = [["Xx"', "star_cycles"),
    ("rules.toml", "turns = [[5, 12]", "turns = [[5]", "rank.turns"),
    ("rules.toml", "deckout = -40", "deck_ot = -40",
     "rank.end_adjustment.deck_ot is not an end a rank adjusts: name deck_out or exodia_assembled"),
    ("rules.toml", "deckout = -40", "life_points_zero = -40", "takes the option lp_win_bonus"),
    ("rules.toml", "deckout = -40", "deckout = -40, deck_out = -30", "names deck_out twice"),
])
def test_bad_content_names_file_line_and_field(pack_dir, file, old, new, message):
    edit(pack_dir / file, old, new)
    with pytest.raises(ContentError) as caught:
        Pack(pack_dir)
    assert message in str(caught.value)
    with pytest.raises(SetupError, match="option 'pack'"):
        coliseo.load_game("forbidden", pack=str(pack_dir))


def test_end_adjustments_keyed_by_the_older_codes_read_as_todays(pack_dir):
    """The starter pack (and an fm pack imported earlier) keys them by `exodia` and `deckout`, so that its content
    digest stays as it was: the same points as today's keys."""
    shipped = Pack(pack_dir).end_adjustment
    assert shipped == {"exodia_assembled": 40, "deck_out": -40}
    edit(pack_dir / "rules.toml", "{ exodia = 40, deckout = -40 }", "{ exodia_assembled = 40, deck_out = -40 }")
    assert Pack(pack_dir).end_adjustment == shipped == coliseo.load_game("forbidden").pack.end_adjustment


def test_missing_content_file(pack_dir):
    (pack_dir / "equips.csv").unlink()
    with pytest.raises(ContentError, match="equips.csv: no such content file"):
        Pack(pack_dir)


def test_a_user_pack_folder_can_be_selected(pack_dir):
    edit(pack_dir / "cards.csv", "1,Blue-eyes White Dragon,monster,DR,3000", "1,Blue-eyes White Dragon,monster,DR,3100")
    game = coliseo.load_game("forbidden", pack=str(pack_dir))
    assert game.pack.cards[1].atk == 3100


# --- setups --------------------------------------------------------------------------------------------

def test_deck_with_39_cards():
    deck = GAME.pack.deck_ids("starter_a")[:39]
    with pytest.raises(SetupError, match="Player 1's deck: a deck has exactly 40 cards, this one has 39"):
        GAME.new_state(1, {"decks": [deck, None]})


def test_deck_with_four_copies():
    deck = GAME.pack.deck_ids("starter_b")[:36] + [1, 1, 1, 1]
    with pytest.raises(SetupError, match=r"Player 2's deck: at most 3 copies of a card; too many of 1 \(4 copies\)"):
        GAME.new_state(1, {"decks": [None, deck]})


def test_deck_with_unknown_card_or_name():
    deck = GAME.pack.deck_ids("starter_a")[:39] + [99999]
    with pytest.raises(SetupError, match="card 99999 is not in the pack"):
        GAME.new_state(1, {"decks": [deck, None]})
    with pytest.raises(SetupError, match="Player 1's deck: unknown deck 'nope'"):
        GAME.new_state(1, {"decks": ["nope", None]})
    with pytest.raises(SetupError, match="a setup is an object"):
        GAME.new_state(1, {"deck": []})


def test_unknown_duelist_and_options():
    with pytest.raises(SetupError, match="no duelist 5"):
        coliseo.load_game("forbidden", mode="campaign", opponent=5)
    with pytest.raises(SetupError, match="unknown duelist 'Pegasus'"):
        GAME.setup_for(duelist="Pegasus")
    with pytest.raises(SetupError, match="unknown pack"):
        coliseo.load_game("forbidden", pack="nope")
    with pytest.raises(SetupError, match="start_lp"):
        coliseo.load_game("forbidden", start_lp=0)


def test_duelist_pool_too_small_for_a_deck(pack_dir):
    edit(pack_dir / "duelists.csv", "starter_b,20", ",20")
    (pack_dir / "pools.csv").write_text("duelist,pool,card,weight\n1,deck,1,100\n1,deck,2,100\n")
    game = coliseo.load_game("forbidden", pack=str(pack_dir), mode="campaign")
    with pytest.raises(SetupError, match="duelist 1: the deck pool has 2 usable cards"):
        game.new_state(1)


def test_setup_for_a_duelist_by_name():
    setup = GAME.setup_for(duelist="sparring partner")
    assert setup == {"duelist": 1}
    s = GAME.new_state(2, setup)
    assert sorted(s.lists[1]) == sorted(GAME.pack.deck_ids("starter_b"))


def test_each_seat_plays_the_deck_picked_for_it_and_a_cpu_brings_its_own():
    assert [s["id"] for s in GAME.sides()] == ["starter_a", "starter_b"]
    assert "Crawling Dragon (1600)" in GAME.sides()[0]["detail"]
    s = GAME.new_state(2, GAME.setup_for_sides(["starter_b", "starter_b"]))
    assert sorted(s.lists[0]) == sorted(s.lists[1]) == sorted(GAME.pack.deck_ids("starter_b"))
    with pytest.raises(SetupError, match="player 2: no deck 'starter_c'; the decks: starter_a, starter_b"):
        GAME.setup_for_sides(["starter_a", "starter_c"])
    with pytest.raises(SetupError, match="the CPU duelist brings its own deck"):
        coliseo.load_game("forbidden", mode="free_duel").setup_for_sides(["starter_a", "starter_b"])


# --- notation ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["fly", "play 1+1 m1", "play 6 m1", "play 1 m6", "attack m1 m7", "place a3",
                                  "act s1 m0", "pos s1", "play 1+2 m1 fd"])
def test_bad_notation_lists_the_legal_actions(text):
    check_bad_notation(GAME, GAME.new_state(1), text)


def test_notation_is_case_and_space_tolerant_and_canonical():
    s = GAME.new_state(1)
    assert GAME.parse_action(s, "  PLAY  1   m1 ") == ("play", (1,), 1, False)
    assert GAME.format_action(("play", (3, 1), 6, False)) == "play 3+1 s1"
    assert GAME.format_action(("attack", 2, 0)) == "attack m2 direct"
    assert GAME.format_action(("act", 1, 3)) == "act s1 m3"
    assert GAME.action_index(("end",)) == 3669 and GAME.num_distinct_actions == 3670
    assert GAME.action_index(("play", (5, 4, 3, 2, 1), 10, False)) == 3574
    assert GAME.action_index(("play", (5,), 5, True)) == 3599
    assert GAME.action_index(("attack", 5, 0)) == 3633 and GAME.action_index(("act", 5, 5)) == 3668


def test_bad_notation_in_the_main_phase_summarizes_the_plays():
    s = GAME.new_state(1)
    message = check_bad_notation(GAME, s, "fly")
    assert len(message) < 1000 and f"and {len(s.legal_actions()) - 30} more plays" in message
    assert message.startswith("'fly' is not an action of")
