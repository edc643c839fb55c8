"""Every legal action in words for the table (Game.action_texts), in English and Spanish, from what the mover may
know; and what each is for the board (Game.action_kinds)."""

import random
import re

import pytest

from coliseo import list_games, load_game

from .test_prompts import states_of_random_games


@pytest.mark.parametrize("game_id", list_games())
def test_every_legal_action_has_words_in_both_languages_that_hide_nothing(game_id):
    game = load_game(game_id)
    rng = random.Random(5)
    worded = 0
    for step, state in enumerate(states_of_random_games(game, seed=70, games=3)):
        legal = state.legal_actions()
        if not legal:
            continue
        texts = {lang: game.action_texts(state, legal, lang) for lang in ("en", "es")}
        for lang, words in texts.items():
            assert len(words) == len(legal), f"{game_id}: one text per legal action in {lang}"
            assert all(isinstance(w, str) and w.strip() for w in words), f"{game_id} {lang}: {words}"
        notation = [game.format_action(a) for a in legal]
        worded += sum(w != n for w, n in zip(texts["en"], notation, strict=True))
        assert len(game.action_kinds(state, legal)) == len(legal)
        if step % 5 == 0:
            world = state.determinize(state.current_player, rng)
            assert game.action_texts(world, world.legal_actions(), "es") == texts["es"], \
                f"{game_id}: the words depend on what the mover cannot see"
    assert worded, f"{game_id}: no action was put in words other than its notation"


def test_capsule_actions_name_their_cards_and_squares():
    game = load_game("capsule")
    state = game.new_state(1)
    while state.placing:
        state.apply(game.parse_action(state, "random"))
    legal = state.legal_actions()
    texts = dict(zip((game.format_action(a) for a in legal), game.action_texts(state, legal, "en"), strict=True))
    summons = [t for n, t in texts.items() if n.startswith("S ")]
    assert summons and all(t.startswith("Summon ") and " on " in t for t in summons), summons
    assert texts["end"] == "End turn"
    assert game.action_texts(state, [a for a in legal if game.format_action(a) == "end"], "es") == ["Terminar turno"]


def test_forbidden_attacks_and_plays_name_the_cards_and_zones_the_mover_sees():
    game = load_game("forbidden")
    seen = {}
    for state in states_of_random_games(game, seed=11, games=2):
        legal = state.legal_actions()
        for action, text in zip(legal, game.action_texts(state, legal, "en"), strict=True):
            seen.setdefault(game.format_action(action).split()[0], text)
    assert re.fullmatch(r".+ \(your monster zone \d\) attacks (directly|.+ \(opponent's monster zone \d\))",
                        seen["attack"]), seen["attack"]
    assert re.fullmatch(r"Play .+ (to (monster|spell) zone \d|activate it)( \(Face down\))?", seen["play"]), seen
    assert re.fullmatch(r"(Attack|Defence), guardian star . \w+", seen["place"]), seen["place"]
    assert seen["end"] == "End turn"
