"""The reader every game's load_position uses (core/position.py): each value read or refused, and each refusal a
PositionError that names the value's path in the document and what is wrong with it."""

import doctest
import re

import pytest

from coliseo.core import position
from coliseo.core.errors import PositionError
from coliseo.core.position import Doc

DOC = {"turn": 3, "acted": False, "phase": "main", "card": "imp", "winner": None,
       "pieces": [{"sq": "a1", "owner": 0, "known_by": [0, 1]}, {"sq": "b2", "owner": 1, "known_by": [1]}],
       "window": ["a1", "b2", ["trap"]], "hearts": [5, 4], "result": None}


def refused(read, message):
    """`read` raises a PositionError whose message is `message` word for word."""
    with pytest.raises(PositionError, match=re.escape(message) + "$"):
        read()


def test_the_examples_in_the_module_run():
    outcome = doctest.testmod(position)
    assert outcome.attempted and not outcome.failed


def test_good_values_are_read_as_they_are():
    doc = Doc(DOC)
    assert doc.int("turn", 0, 9) == 3
    assert doc.bool("acted") is False
    assert doc.choice("phase", ("main", "battle")) == "main"
    assert doc.id("card", {"imp", "orc"}) == "imp"
    assert doc.int("winner", 0, 1, none=True) is None
    assert doc.ints("hearts", 0, 5, length=2) == [5, 4]
    assert doc.result(2) is None
    piece = doc.list("pieces").object(1)
    assert (piece.path, piece.int("owner", 0, 1), piece.ints("known_by", 0, 1)) == ("pieces[1]", 1, [1])


@pytest.mark.parametrize("value", [True, False, 1.0, "3", None, [3]])
def test_an_integer_is_a_whole_number_never_true_or_false(value):
    refused(lambda: Doc({"turn": value}).int("turn"), f"field 'turn' must be an integer, got {value!r}")


@pytest.mark.parametrize("lo,hi,value,words", [
    (0, 1, 2, "an integer in 0..1"), (0, None, -1, "an integer ≥ 0"), (None, 9, 10, "an integer ≤ 9"),
])
def test_an_integer_out_of_its_range_names_the_range(lo, hi, value, words):
    refused(lambda: Doc({"n": value}).int("n", lo, hi), f"field 'n' must be {words}, got {value}")


def test_null_is_refused_unless_it_is_allowed_and_the_error_says_so():
    refused(lambda: Doc(DOC).int("winner", 0, 1), "field 'winner' must be an integer in 0..1, got None")
    refused(lambda: Doc({"winner": 2}).int("winner", 0, 1, none=True),
            "field 'winner' must be an integer in 0..1 or null, got 2")
    refused(lambda: Doc({"phase": None}).choice("phase", ("main",)), "field 'phase' must be one of main, got None")
    assert Doc({"phase": None}).choice("phase", ("main",), none=True) is None


@pytest.mark.parametrize("value", [0, 1, "true", None])
def test_a_flag_is_true_or_false_only(value):
    refused(lambda: Doc({"acted": value}).bool("acted"), f"field 'acted' must be true or false, got {value!r}")


def test_a_missing_field_is_named_by_its_path_unless_it_has_a_default():
    pieces = Doc(DOC).list("pieces")
    refused(lambda: pieces.object(0).int("damage", 0), "missing field 'pieces[0].damage'")
    refused(lambda: pieces.object(2), "missing field 'pieces[2]'")
    assert pieces.object(0).int("damage", 0, default=0) == 0
    assert pieces.object(0).bool("stunned", default=False) is False


def test_a_choice_lists_the_options_and_true_is_not_one_of_them():
    refused(lambda: Doc({"phase": "lunch"}).choice("phase", ("main", "battle")),
            "field 'phase' must be one of main, battle, got 'lunch'")
    refused(lambda: Doc({"owner": True}).choice("owner", (0, 1)), "field 'owner' must be one of 0, 1, got True")
    refused(lambda: Doc({"sq": ["a1"]}).choice("sq", {"a1": 0}, "a square of the board"),
            "field 'sq' must be a square of the board, got ['a1']")


def test_an_id_not_in_the_content_says_what_it_should_be():
    refused(lambda: Doc({"card": "ghost"}).id("card", {"imp"}, "monster"),
            "field 'card' must be a monster id of the loaded content, got 'ghost'")
    refused(lambda: Doc({"card": {}}).id("card", {"imp"}, "artifact"),
            "field 'card' must be an artifact id of the loaded content, got {}")


def test_ids_name_the_entry_that_is_wrong():
    doc = Doc({"hand": ["imp", "ghost"], "deck": "imp"})
    refused(lambda: doc.ids("hand", {"imp"}), "field 'hand[1]' must be a card id of the loaded content, got 'ghost'")
    refused(lambda: doc.ids("deck", {"imp"}), "field 'deck' must be a list of card ids, got 'imp'")
    refused(lambda: doc.ids("hand", {"imp", "ghost"}, "die", length=15),
            "field 'hand' must be a list of 15 die ids, got ['imp', 'ghost']")


def test_lists_and_pairs_say_how_many_entries_of_what():
    doc = Doc({"holes": ["a1", "b1", "c1"], "hearts": [5], "pool": {}})
    refused(lambda: doc.list("holes", what="squares", most=2),
            "field 'holes' must be a list of at most 2 squares, got ['a1', 'b1', 'c1']")
    refused(lambda: doc.pair("hearts", "heart counts"),
            "field 'hearts' must be a list of 2 heart counts (one per player), got [5]")
    refused(lambda: doc.list("pool"), "field 'pool' must be a list of entries, got {}")


def test_a_record_is_a_list_read_by_the_names_of_its_places():
    window = Doc(DOC).record("window", ("attacker", "target", "traps"))
    assert (window.get("target"), window.ids("traps", {"trap"}, "trap")) == ("b2", ["trap"])
    refused(lambda: window.int("attacker"), "field 'window.attacker' must be an integer, got 'a1'")
    refused(lambda: Doc(DOC).record("window", ("attacker", "target")),
            "field 'window' must be [attacker, target], got ['a1', 'b2', ['trap']]")
    assert Doc({"window": None}).record("window", ("attacker",), none=True) is None


def test_nested_paths_join_names_and_indices():
    doc = Doc({"people": [{"commits": {"q01": ["imp", 7]}}]})
    commits = doc.list("people").object(0).object("commits")
    refused(lambda: commits.ids("q01", {"imp"}), "field 'people[0].commits.q01[1]' must be a card id of the "
                                                 "loaded content, got 7")
    refused(lambda: doc.object("people"), "field 'people' must be an object, got [{'commits': {'q01': ['imp', 7]}}]")


def test_the_fields_of_an_object_are_exactly_the_ones_named():
    doc = Doc({"a": 1, "b": 2, "sides": [{"lp": 1, "colour": "red"}]})
    doc.fields({"a", "b", "sides"})
    refused(lambda: doc.fields({"a", "b", "c", "d", "sides"}), "missing field(s) c, d")
    refused(lambda: doc.fields({"a"}), "unknown field(s) b, sides")
    refused(lambda: doc.list("sides").object(0).fields({"lp"}), "unknown field(s) sides[0].colour")


@pytest.mark.parametrize("result", [
    {"winners": [0]}, {"winners": [0], "reason": "lp", "scores": [1]}, {"winners": 0, "reason": "lp", "scores": [1, 0]},
    {"winners": [0], "reason": "lp", "scores": [1, 0], "extra": 1}, "over",
])
def test_a_result_is_null_or_winners_reason_and_one_score_per_player(result):
    refused(lambda: Doc({"result": result}).result(2),
            f"field 'result' must be null or {{winners, reason, scores}} with one score per player, got {result!r}")
    good = {"winners": [0], "reason": "lp", "scores": [1, 0]}
    assert Doc({"result": good}).result(2) == good


def test_a_problem_beyond_the_value_names_the_field_and_what_is_wrong():
    pieces = Doc(DOC).list("pieces")
    assert str(pieces.fail(1, "two pieces on b2")) == "field 'pieces[1]': two pieces on b2"
    assert str(pieces.fail(None, "no King")) == "field 'pieces': no King"


def test_a_long_value_is_cut_short_in_the_message():
    with pytest.raises(PositionError) as caught:
        Doc({"deck": list(range(100))}).int("deck")
    message = str(caught.value)
    assert message.startswith("field 'deck' must be an integer, got [0, 1, 2") and message.endswith("…")
    assert len(message) < 130
