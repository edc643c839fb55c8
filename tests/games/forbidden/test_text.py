"""Event text in both languages, the terminal view, and records (replay / verify / undo)."""

import random
import re

import pytest

import coliseo
from coliseo.core.errors import InvalidNotation
from coliseo.core.events import view_event
from coliseo.core.match import Match, replay, verify
from coliseo.games.forbidden.text import STAR_NAMES

GAME = coliseo.load_game("forbidden")


def test_every_event_reads_in_both_languages_and_hides_private_cards():
    seen_types = set()
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.new_state(seed)
        while not s.is_over:
            for event in s.apply(rng.choice(s.legal_actions())):
                seen_types.add(event["type"])
                for viewer in (0, 1, None):
                    view = view_event(event, viewer)
                    for lang in ("en", "es"):
                        text = GAME.render(view, lang)
                        assert text and "{" not in text
                    secret = event.get("private")
                    if secret and viewer not in secret["to"]:
                        for value in secret["fields"].values():
                            for cid in value if isinstance(value, list) else [value]:
                                if isinstance(cid, int) and cid in GAME.pack.cards:
                                    assert GAME.pack.cards[cid].name not in GAME.render(view, "en")
    assert {"play", "fusion", "summon", "place", "attack", "battle", "damage", "draw", "end_turn",
            "destroy", "activate", "game_over"} <= seen_types


def test_private_draw_reads_fully_for_its_owner_only():
    s = GAME.new_state(1)
    for _ in range(2):
        s.apply(("play", (1,), 1 if not s.monsters[s.player][0] else 2, False))
        s.apply(("place", "a", 1))
        events = s.apply(("end",))
    draw = next(e for e in events if e["type"] == "draw")
    mine = GAME.render(view_event(draw, 0), "en")
    theirs = GAME.render(view_event(draw, 1), "es")
    drawn = GAME.pack.cards[draw["private"]["fields"]["cards"][0]].name
    assert mine == f"Player 1 draws {drawn}"
    assert theirs == "Jugador 1 roba 1 carta"


def test_log_words_name_cards_and_zones_never_codes():
    """Issue 16: names, never codes (card ids, m3, s2, direct, deckout); plurals right."""
    codes = re.compile(r"#\d+\b(?<!#1)(?<!#2)|\b[ms][1-5]\b|\bdirect\b|\bdeckout\b|\(s\)")
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.new_state(seed)
        while not s.is_over:
            for event in s.apply(rng.choice(s.legal_actions())):
                for viewer in (0, 1, None):
                    for lang in ("en", "es"):
                        text = GAME.render(view_event(event, viewer), lang)
                        plain = text
                        for card in GAME.pack.cards.values():  # real names such as "Winged Dragon #1"
                            plain = plain.replace(card.name, "CARD")
                        assert not codes.search(plain), text
    attack = {"type": "attack", "player": 0, "attacker": "m1", "target": "m4"}
    assert GAME.render(attack, "en") == "Player 1 attacks from monster zone 1 against monster zone 4"
    assert GAME.render({**attack, "target": "direct"}, "es") == \
        "Jugador 1 ataca desde la zona de monstruo 1 directamente"
    assert GAME.render({"type": "pin", "player": 1, "turns": 1}, "en") == "Player 2 cannot attack for 1 turn"
    over = {"type": "game_over", "winner": 0, "reason": "life_points_zero", "score": 52, "letter": "A-POW"}
    assert GAME.render(over, "en") == "Player 1 wins: the opponent's LP reached 0. Duel rank A-POW (52 points)"


def test_a_failed_chain_step_says_why_its_card_is_discarded():
    """R12 (4): neither card fuses with nor equips the other; or the result has no free zone to go to."""
    fail = None
    for seed in range(40):
        rng, s = random.Random(seed), GAME.new_state(seed)
        while fail is None and not s.is_over:
            fail = next((e for e in s.apply(rng.choice(s.legal_actions())) if e["type"] == "fail"), None)
        if fail:
            break
    name = lambda cid: GAME.render_value("card", cid, "en")                  # noqa: E731
    assert GAME.render(fail, "en") == (f"Player {fail['player'] + 1}: {name(fail['discarded'])} neither fuses with "
                                       f"nor equips {name(fail['kept'])}, and is discarded")
    full = {"type": "fail", "player": 1, "discarded": fail["discarded"]}
    assert GAME.render(full, "es") == f"Jugador 2: {GAME.render_value('card', fail['discarded'], 'es')} se descarta: " \
                                      "no le queda ninguna zona libre"


def test_terminal_view_shows_only_the_viewers_secrets():
    s = GAME.new_state(5)
    s.apply(("play", (1,), 1, True))
    text_opp = GAME.render_text(s.observation(1), "en")
    text_own = GAME.render_text(s.observation(0), "en", s.legal_actions())
    hidden = s.monsters[0][0][0]
    assert "face-down monster" in text_opp and f"#{hidden} " not in text_opp.split("Player 1:")[1]
    assert "hand 1:" in text_own and "Legal: place a1" in text_own
    assert "hand 1:" not in GAME.render_text(s.observation(None), "en")


def test_record_replays_and_verifies():
    match = Match(GAME, 99, None)
    rng = random.Random(4)
    while not match.state.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    doc = match.record()
    again = replay(doc)
    assert again.state == match.state
    verify(doc)


def test_undo_only_before_a_reveal():
    match = Match(GAME, 7, None)
    match.play(("play", (1,), 1, True))   # a face-down single monster reveals nothing
    assert match.can_undo(0)
    match.undo(0)
    assert match.state.phase == "main" and len(match.state.hands[0]) == 5
    match.play(("play", (1, 2), 1, False))  # a combination shows its cards
    assert not match.can_undo(0)


def test_main_phase_view_suggests_chains_instead_of_listing_every_play():
    s = GAME.new_state(11)
    text = GAME.render_text(s.observation(0), "en", s.legal_actions())
    assert f"Legal: {len(s.legal_actions())} plays, e.g. play 1 m1" in text
    assert "chain 1+5 -> Crawling Dragon 2600/2400" in text   # hand 1 Crawling Dragon, hand 5 Megamorph


def test_the_view_shows_the_guardian_star_of_each_face_up_field_monster():
    from games.forbidden.helpers import duel, mon

    s = duel(mine=[mon(1, star=2), mon(2, star=1, up=False)], theirs=[mon(4, star=1)])
    mine = GAME.render_text(s.observation(0), "en")
    assert "m1 Blue-eyes White Dragon #1 3000/2500 star Mars" in mine
    assert "m2 Mystical Elf #2 800/2000 star Sun" in mine                  # my own face-down monster
    assert "Baby Dragon #4 1200/700 star Uranus" in mine
    theirs = GAME.render_text(s.observation(1), "en")
    assert "face-down monster" in theirs and "Mystical Elf" not in theirs and "star Sun" not in theirs


def test_a_play_naming_a_card_number_instead_of_a_hand_position_says_why():
    s = GAME.new_state(3)
    hand = s.hands[0]
    for text, words in [("play 9 m1", "play takes hand positions 1..5, not 9"),
                        ("play 1+1 m1", "each hand position can be played once"),
                        ("play 1 m7", "m1..m5 (monsters) or s1..s5")]:
        with pytest.raises(InvalidNotation, match=re.escape(words)):
            GAME.parse_action(s, text)
    assert 9 in hand
    with pytest.raises(InvalidNotation, match=f"la carta #9 es la mano {hand.index(9) + 1}"):
        GAME.parse_action(s, "play 9 m1", "es")


def test_the_place_step_names_the_new_monster_and_its_two_guardian_stars():
    rng = random.Random(1)
    s = GAME.new_state(3)
    while s.legal_actions()[0][0] != "place":
        s.apply(rng.choice(s.legal_actions()))
    card = GAME.pack.cards[s.observation(s.player)["sides"][s.player]["monsters"][s.pending]["id"]]
    picture = GAME.render_text(s.observation(s.player), "en", s.legal_actions())
    stars = STAR_NAMES[card.star1], STAR_NAMES[card.star2]
    assert f"1 = star {stars[0]}, 2 = star {stars[1]}" in picture and GAME.card_name(card.id) in picture
    assert "1 = star" not in GAME.render_text(s.observation(1 - s.player), "en")
