"""What the player to move may do, and how a game ended, in words: every kind of action a game offers has English and
Spanish words."""

import random

import pytest

from coliseo import list_games, load_game
from coliseo.core.i18n import result_words


def states_of_random_games(game, seed: int, games: int = 4):
    """Every state of some random games: one state object per game, played on after each yield."""
    rng = random.Random(seed)
    for i in range(games):
        state = game.new_state(seed + i)
        while not state.is_over:
            yield state
            state.apply(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("game_id", list_games())
def test_every_kind_of_action_is_named_in_both_languages_and_the_prompt_hides_nothing(game_id):
    game = load_game(game_id)
    for kind, (en, es) in game.action_words.items():
        assert en and es and en != es, f"{game_id}: the action kind {kind!r} needs its own Spanish words"
    rng = random.Random(3)
    kinds_seen = set()
    for step, state in enumerate(states_of_random_games(game, seed=40)):
        if state.is_over:
            assert game.prompt(state) is None
            continue
        kinds = {game.action_kind(state, a) for a in state.legal_actions()}
        assert kinds <= game.action_words.keys(), f"{game_id}: no words for {kinds - game.action_words.keys()}"
        kinds_seen |= kinds
        if step % 7 == 0:
            prompt = game.prompt(state, "en")
            world = state.determinize(state.current_player, rng)
            assert game.prompt(world, "en") == prompt, f"{game_id}: the prompt depends on what the mover cannot see"
    assert len(kinds_seen) >= 5, f"{game_id}: random games reached only {kinds_seen}"


@pytest.mark.parametrize("game_id, options, expected_en, expected_es", [
    ("capsule", {}, "summon a monster, move or end the turn", "invocar un monstruo, mover o terminar el turno"),
    ("forbidden", {}, "play a card or a chain of cards from your hand",
     "jugar una carta o una cadena de cartas de tu mano"),
    ("fantastiqa", {}, "take one of the starting quests", "tomar una de las misiones iniciales"),
])
def test_the_first_prompt_of_a_game_names_what_its_rules_allow(game_id, options, expected_en, expected_es):
    game = load_game(game_id, **options)
    state = game.new_state(1)
    assert game.prompt(state, "en") == expected_en
    assert game.prompt(state, "es") == expected_es


def test_a_phase_with_one_kind_of_action_reads_as_that_phase():
    """Dungeon Dice: after choosing a monster to summon, the only thing left is to unfold its die; Fantastiqa's
    "done" reads by what it ends."""
    game = load_game("dungeon_dice")
    placing = next(game.prompt(s) for s in states_of_random_games(game, seed=2)
                   if s.legal_actions() and all(a[0] == "dim" for a in s.legal_actions()))
    assert placing == "unfold the die onto the dungeon"
    game = load_game("fantastiqa")
    read = {}
    for state in states_of_random_games(game, seed=9, games=2):   # one state, played on: read it as it passes
        if state.phase in ("statue", "release") and ("done",) in state.legal_actions():
            read.setdefault(state.phase, game.prompt(state))
    assert read["statue"].endswith("leave the statue")
    assert read["release"].endswith("stop releasing")


def test_a_result_names_its_winners_as_a_sentence_does():
    game = load_game("fantastiqa", players=3)
    assert result_words(game, {"winners": [0, 1, 2]}, "en") == "Player 1, Player 2 and Player 3 share the win"
    assert result_words(game, {"winners": [0, 2]}, "es") == "Jugador 1 y Jugador 3 comparten la victoria"
