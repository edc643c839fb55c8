"""The Dungeon Dice log and card texts read as words in both languages: no crest letters, no codes, plurals right."""

from __future__ import annotations

import random
import re

import pytest

from coliseo.games.dungeon_dice.game import DungeonDice
from coliseo.games.dungeon_dice.text import ability_text

GAME = DungeonDice(max_turns=60)
# A crest letter or a net code standing alone (`4 M`, `gains -`, `P2@e2`, `turn_limit`) is a code, not a word.
CODE = re.compile(r"\b\d+ [SMADGTEZ]\b|: -|\b[A-Z]\d@|_|\(attack\)|\(defense\)|\(dimension\)")


def texts_of_a_random_game(seed: int) -> dict[str, list[str]]:
    state, rng = GAME.new_state(seed), random.Random(seed)
    seen: dict[str, list[str]] = {}
    while not state.is_over:
        for event in state.apply(rng.choice(state.legal_actions())):
            for lang in ("en", "es"):
                seen.setdefault(f"{event['type']}/{lang}", []).append(GAME.render(event, lang))
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_log_line_of_a_random_game_is_words(seed):
    seen = texts_of_a_random_game(seed)
    assert {"roll/en", "move/es", "dimension/en", "game_over/es"} <= seen.keys()
    for kind, lines in seen.items():
        for line in lines:
            assert not CODE.search(line), f"{kind}: {line}"


def test_crest_amounts_are_named_and_counted():
    move = {"type": "move", "player": 0, "piece": "cave_rat", "from": "g2", "to": "g3", "cost": 1}
    assert GAME.render(move, "en").endswith("(1 Movement crest).")
    assert GAME.render({**move, "cost": 3}, "es").endswith("(3 crestas de Movimiento).")
    roll = {"type": "roll", "player": 1, "faces": "M4 D2 S", "gain": "-"}
    assert GAME.render(roll, "en") == (
        "Player 2 rolls Movement 4, Defense 2, Summon: gains nothing (no two dice show the same crest).")
    assert GAME.render({**roll, "faces": "S3 Z S", "gain": "3 S, 1 Z"}, "es") == (
        "Jugador 2 tira Convocación 3, Zash, Convocación: gana 3 crestas de Convocación, 1 cresta de Zash.")
    heart = {"type": "heart", "player": 0, "hearts": 1}
    assert GAME.render(heart, "en") == "Player 1 loses a heart (1 heart left)."
    assert GAME.render({**heart, "hearts": 4}, "es") == "Jugador 1 pierde un corazón (le quedan 4)."


def test_each_zash_power_reads_as_its_own_sentence():
    lines = {GAME.render({"type": "zash", "player": 0, "n": n, "square": "c3", "card": "cave_rat"}, "en")
             for n in range(1, 6)}
    assert len(lines) == 5 and all("Zash crest" in line for line in lines)


def test_every_card_with_a_behaviour_explains_it_in_both_languages():
    for card in GAME.content.cards.values():
        for lang in ("en", "es"):
            text = ability_text(card, lang)
            assert bool(text) == bool(card.kind or card.condition), card.id
            assert "{" not in text and "_" not in text, text
