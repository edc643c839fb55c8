"""Why a game ended: one vocabulary of end codes for every game (core/reasons.py), each with English and Spanish
words; one code per meaning; and the codes of older records and run files still read, replay and verify."""

import ast
import random
import re
from importlib import resources

import pytest

from coliseo import list_games, load_game
from coliseo.core.errors import RecordError
from coliseo.core.i18n import result_words
from coliseo.core.match import Match, verify
from coliseo.core.reasons import COMMAND_REASONS, END_REASONS, OLD_REASONS, end_reasons, reason_words
from coliseo.core.registry import game_class

SNAKE_CASE = re.compile(r"[a-z]+(_[a-z]+)*")


def finish_codes(game_id: str) -> set[str]:
    """The codes a game's rules pass to their `_finish…` calls, read from its source: the ends random games rarely
    reach (Exodia's five pieces) are there too."""
    codes = set()
    for source in resources.files(f"coliseo.games.{game_id}").iterdir():
        if not source.name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "").startswith("_finish"):
                codes |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return codes


def random_ends(game, games: int = 6) -> set[str]:
    ends = set()
    for seed in range(games):
        rng, state = random.Random(seed), game.new_state(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        ends.add(state.result["reason"])
    return ends


def test_the_shared_vocabulary_has_words_in_both_languages_and_the_table_commands_are_in_it():
    assert set(COMMAND_REASONS) <= END_REASONS.keys()
    for code, words in END_REASONS.items():
        assert SNAKE_CASE.fullmatch(code), code
        assert words["en"] and words["es"] and words["en"] != words["es"], f"{code} needs its own Spanish words"


@pytest.mark.parametrize("game_id", list_games())
def test_every_end_a_game_reaches_is_in_the_vocabulary_or_its_own_declared_list_with_words(game_id):
    game = load_game(game_id)
    assert set(game.shared_reasons) <= END_REASONS.keys() - set(COMMAND_REASONS)
    assert not game.own_reasons.keys() & END_REASONS.keys(), f"{game_id} declares a shared end as its own"
    for code, words in game.own_reasons.items():
        assert SNAKE_CASE.fullmatch(code), f"{game_id}: {code!r} is not snake_case words"
        assert words["en"] and words["es"] and words["en"] != words["es"], f"{game_id}: {code} needs Spanish words"
    reached = finish_codes(game_id) | random_ends(game)
    assert reached, f"{game_id}: found no end in its rules"
    assert reached <= set(end_reasons(game)), f"{game_id} ends with undeclared codes {reached - set(end_reasons(game))}"
    for code in reached:
        for lang in ("en", "es"):
            assert "_" not in reason_words(game, code, lang), f"{game_id}: {code} has no {lang} words"


def test_two_games_never_name_one_end_by_two_codes():
    """A code two games have belongs to the shared vocabulary; and words two codes share mean one end under two
    names (as Fantastiqa's `max_turns` and the others' `turn_limit` both read "turn limit")."""
    owners: dict[str, str] = {}
    words_of: dict[tuple[str, str], str] = {(lang, w[lang]): code for code, w in END_REASONS.items()
                                            for lang in ("en", "es")}
    for game_id in list_games():
        for code, words in game_class(game_id).own_reasons.items():
            assert code not in owners, f"{owners.get(code)} and {game_id} both have {code}: make it a shared end"
            owners[code] = game_id
            for lang in ("en", "es"):
                same = words_of.setdefault((lang, words[lang]), code)
                assert same == code, f"{game_id}'s {code} and {same} read the same ({words[lang]!r}): one end, one code"


def test_every_old_code_reads_as_a_code_of_today():
    today = set(END_REASONS)
    for game_id in list_games():
        game = game_class(game_id)
        today |= set(end_reasons(game))
        for old, new in game.old_reasons.items():
            assert new in end_reasons(game) and old not in end_reasons(game), f"{game_id}: {old} -> {new}"
    for old, new in OLD_REASONS.items():
        assert new in END_REASONS and old not in today, f"{old} -> {new}"


def finished_record(game_id: str, seed: int, **options) -> dict:
    match = Match(load_game(game_id, **options), seed)
    rng = random.Random(seed)
    while not match.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    return match.record()


@pytest.mark.parametrize("game_id, options, today, old", [
    ("fantastiqa", {"max_turns": 6}, "turn_limit", "max_turns"),
    ("dungeon_dice", {"max_turns": 4}, "turn_limit", "max_turns"),
    ("forbidden", {}, "deck_out", "deckout"),
])
def test_a_record_written_with_an_old_code_still_verifies_and_replays(game_id, options, today, old):
    record = finished_record(game_id, 3, **options)
    assert record["result"]["reason"] == today
    older = {**record, "result": {**record["result"], "reason": old}}
    match = verify(older)
    assert match.result == record["result"] and reason_words(match.game, old, "es") == reason_words(
        match.game, today, "es")
    wrong = {**record, "result": {**record["result"], "reason": "goal"}}    # Fantastiqa's old code of another end
    with pytest.raises(RecordError, match="the record says"):
        verify(wrong)


@pytest.mark.parametrize("game_id, options, old", [("fantastiqa", {"max_turns": 6}, "max_turns"),
                                                   ("forbidden", {}, "deckout")])
def test_a_finished_position_saved_with_an_old_code_loads_with_todays(game_id, options, old):
    game = load_game(game_id, **options)
    rng, state = random.Random(3), game.new_state(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    doc = state.to_json()
    older = {**doc, "result": {**doc["result"], "reason": old}}
    if "reason" in doc:                                    # Forbidden keeps the reason beside its result too
        older["reason"] = old
    assert game.state_from_json(older).result == state.result


def test_a_resignation_names_who_resigned_the_last_of_several_in_a_game_of_four():
    game = load_game("fantastiqa", players=4)
    match = Match(game, 3)
    for player in (2, 0):
        match.play_text(f"!resign {player}")
        assert match.resigner is None
    match.play_text("!resign 3")
    assert match.result["winners"] == [1] and match.resigner == 3
    assert result_words(game, match.result, "en", match.resigner) == "Player 2 wins — Player 4 resigned"
    assert reason_words(game, "resigned", "es", "Jugador 4") == "Jugador 4 se rindió"
    assert reason_words(game, "resigned", "en") == "by resignation"     # where nobody says who (a run's report)
