"""Why an action is refused: every game says it in the mover's language, naming only what the mover may know."""

import random
import re
import string

import pytest

from coliseo import InvalidNotation, list_games, load_game
from coliseo.core.i18n import REFUSALS


def fields_of(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("game_id", list_games())
def test_every_refusal_has_english_and_spanish_words_with_the_same_fields(game_id):
    game = load_game(game_id)
    table = {**REFUSALS, **game.refusals}
    assert len(game.refusals) >= 10, f"{game_id} keeps its refusals in its `refusals` table"
    for key, (en, es) in table.items():
        assert en and es and en != es, f"{game_id} refusal {key!r} needs its own Spanish words"
        assert fields_of(en) == fields_of(es), f"{game_id} refusal {key!r}: the languages name different fields"


def refused_actions(game, seed: int, games: int = 3, per_state: int = 12):
    """(state, action) pairs from random games: actions legal somewhere in the game but not at that state."""
    rng = random.Random(seed)
    for i in range(games):
        state = game.new_state(seed + i)
        seen: list = []
        step = 0
        while not state.is_over:
            legal = state.legal_actions()
            seen.extend(rng.sample(legal, min(5, len(legal))))
            if step % 5 == 0:
                refused = [a for a in dict.fromkeys(seen) if a not in legal]
                for action in rng.sample(refused, min(per_state, len(refused))):
                    yield state, action
            state.apply(rng.choice(legal))
            step += 1
        yield state, seen[-1]


@pytest.mark.parametrize("game_id", list_games())
def test_a_refusal_reads_in_spanish_and_depends_only_on_what_the_mover_knows(game_id):
    game = load_game(game_id)
    rng = random.Random(5)
    checked = set()
    for state, action in refused_actions(game, seed=20):
        en = game.illegal_reason(state, action, "en")
        es = game.illegal_reason(state, action, "es")
        assert en and es and en != es, f"{game_id}: {game.format_action(action)!r} is refused only in English: {en}"
        checked.add(en)
        mover = state.current_player
        if mover is not None:
            world = state.determinize(mover, rng)
            assert game.illegal_reason(world, action, "en") == en, \
                f"{game_id}: the reason for {game.format_action(action)!r} depends on what the mover cannot see"
        text = game.format_action(action)
        if game._parse_action_text(state, text) == action:     # some notation indexes the hand at hand
            with pytest.raises(InvalidNotation, match=re.escape(f"no es legal: {es}")):
                game.parse_action(state, text, "es")
    assert len(checked) >= 4, f"{game_id}: the random games reached too few kinds of refusal: {checked}"
