"""Event text in both languages, private parts only for their readers, and the terminal view."""

import random
import re

from games.fantastiqa.helpers import GAMES, scenario

from coliseo import load_game
from coliseo.core.events import view_event
from coliseo.games.fantastiqa.content import REGION_NAMES


def test_every_event_renders_in_english_and_spanish_for_every_reader():
    game = load_game("fantastiqa", players=3, max_turns=60)
    seen = set()
    for seed in range(4):
        s, rng = game.new_state(seed), random.Random(seed)
        while not s.is_over:
            for event in s.apply(rng.choice(s.legal_actions())):
                seen.add(event["type"])
                for reader in (0, 1, 2, None):
                    view = view_event(event, reader)
                    for lang in ("en", "es"):
                        text = game.render(view, lang)
                        assert text and "{" not in text
                    if event.get("private") and reader not in event["private"]["to"]:
                        assert not set(event["private"]["fields"]) & set(view)
    assert {"subdue", "recruit", "cards_drawn", "statue_draw", "end_turn", "game_over"} <= seen
    assert set(game.event_text) >= seen


def test_drawn_cards_are_named_only_to_their_owner():
    game = GAMES[2]
    s = scenario(hands=[["c04"]], draws=[["p1SW"]])
    event = [e for e in s.apply(("power", "c04")) if e["type"] == "cards_drawn"][0]
    assert "Butter Knife" in game.render(view_event(event, 0))
    assert "Butter Knife" not in game.render(view_event(event, 1))
    assert "1 card" in game.render(view_event(event, None))


def test_terminal_view_shows_board_quests_hand_and_the_others():
    game = GAMES[2]
    s = scenario(spaces=["c01", "c09", "c11", "c15", "c17", "c05", "c13"], hands=[["p1WN", "p1SW"], ["p2CL"]],
                 quests=[["q01"]], open_quests=["q02", None], gems=[4, 2])
    text = game.render_text(s.observation(0), "en", s.legal_actions())
    for part in ("TL Forest", "AT", "1 TL-TR: Young Brigand", "vuln WN", "+1 gems", "O1: q02", "O2: (empty)",
                 "Your hand: p1SW (SW) p1WN (WN)", "Player 2 @ BR", "gems 4", "gems 2", "q01 (FOR SW2 WA1, 2pt)",
                 "Legal actions:", "sub 1 p1WN", "end"):
        assert part in text, part
    other = game.render_text(s.observation(1), "es")
    assert "p1WN" not in other and "Tu mano: p2CL (CL)" in other and "Bosque" in other
    spectator = game.render_text(s.observation(None), "en")
    assert "Your hand" not in spectator and "p1WN" not in spectator and "p2CL" not in spectator


def test_log_lines_name_things_in_words_never_codes_with_plurals_right():
    game = load_game("fantastiqa", players=3, max_turns=80)
    codes = set(game.content.cards) | set(game.content.quests) | {"TL", "TR", "ML", "MR", "BL", "BR", "AT", "BB", "QC"}
    codes |= {"GEMS", "DRAW", "FLY", "KEY", "SPY", "RELEASE", "TELEPORT", "CARPET", "REARRANGE", "DRAGON", "GIFT"}
    lines = set()
    for seed in range(3):
        s, rng = game.new_state(seed), random.Random(seed)
        while not s.is_over:
            for event in s.apply(rng.choice(s.legal_actions())):
                for reader in (0, None):
                    for lang in ("en", "es"):
                        lines.add(game.render(view_event(event, reader), lang))
    for line in lines:
        words = set(re.split(r"[\s,.:()]+", line))
        assert not words & codes, line
        for wrong in (" 1 gems", " 1 cards", " 1 points", " 1 gemas", " 1 cartas", "(s)", " -.", "0 gem"):
            assert wrong not in line, line
    assert any("1 gem" in line and "1 gems" not in line for line in lines)
    assert any("Forest" in line or "Fields" in line or "Hills" in line for line in lines)
    assert any("Bosque" in line or "Campos" in line or "Colinas" in line for line in lines)


def test_a_move_names_the_region_the_adventurer_reaches_never_its_place_on_the_map():
    game = load_game("fantastiqa", players=3, max_turns=80)
    moves = set()
    for seed in range(3):
        s, rng = game.new_state(seed), random.Random(seed)
        while not s.is_over:
            for event in s.apply(rng.choice(s.legal_actions())):
                if "pos" not in event:
                    continue
                moves.add(event["type"])
                for lang, places in (("en", ("top-", "middle-", "bottom-")), ("es", ("arriba", "central", "abajo"))):
                    text = game.render(event, lang)
                    assert REGION_NAMES[s.regions[event["pos"]]][lang] in text, text
                    assert not any(place in text for place in places), text
    assert moves == {"draft_start", "subdue", "teleport", "carpet", "fly"}


def test_every_bundled_card_and_quest_has_a_name_that_is_not_its_id_in_both_languages():
    game = GAMES[2]
    for lang in ("en", "es"):
        names = {i: game.card_name(i, lang) for i in [*game.content.cards, *game.content.quests]}
        assert all(name != i for i, name in names.items()), [i for i, n in names.items() if n == i]
        assert len({names[q] for q in game.content.quests}) == len(game.content.quests)
    assert game.card_name("p1SW", "es") == "Cuchillo de mantequilla"
    assert game.card_name("c01", "es") == "Bandolero joven" and game.card_name("c04", "es") == "Salamandra astuta"
