"""The core's small parts: the RNG, options, events for each viewer, i18n, the registry."""

import pytest

from coliseo import SetupError, list_games, load_game
from coliseo.core.events import private, view_event
from coliseo.core.i18n import default_lang
from coliseo.core.options import Option, parse_option_text, resolve_options
from coliseo.core.rng import Rng, seed_from


def test_rng_is_reproducible_and_clones_its_position():
    a = Rng(42)
    first = [a.randrange(1000) for _ in range(5)]
    again = Rng(42)
    assert [again.randrange(1000) for _ in range(5)] == first
    b = a.clone()
    assert [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]


def test_rng_is_uniform_enough():
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.roll(6) - 1] += 1
    assert all(9_400 < c < 10_600 for c in counts)


def test_shuffle_is_a_permutation():
    items = list(range(40))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(40)) and items != list(range(40))


def test_seed_from_separates_games_of_a_run():
    assert seed_from(1, 0) != seed_from(1, 1) and seed_from(1, 0) == seed_from(1, 0)


def test_options_validate_with_clear_errors():
    schema = [Option("size", 8, "board", minimum=4, maximum=26), Option("mode", "a", "m", choices=("a", "b"))]
    assert resolve_options(schema, {}) == {"size": 8, "mode": "a"}
    with pytest.raises(SetupError, match="unknown option"):
        resolve_options(schema, {"colour": 1})
    with pytest.raises(SetupError, match="at most 26"):
        resolve_options(schema, {"size": 40})
    with pytest.raises(SetupError, match="must be int"):
        resolve_options(schema, {"size": "8"})
    with pytest.raises(SetupError, match="one of a, b"):
        resolve_options(schema, {"mode": "c"})
    assert parse_option_text(schema, "size=10") == ("size", 10)
    with pytest.raises(SetupError, match="whole number"):
        parse_option_text(schema, "size=big")


def test_a_private_event_part_reaches_only_its_readers():
    event = {"type": "scout", "to": "d3", "private": private([1], card="x")}
    assert view_event(event, 1) == {"type": "scout", "to": "d3", "card": "x"}
    assert view_event(event, 0) == {"type": "scout", "to": "d3"}
    assert view_event(event, None) == {"type": "scout", "to": "d3"}


def test_default_language_follows_the_locale(monkeypatch):
    for var in ("COLISEO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert default_lang() == "es"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert default_lang() == "en"


def test_the_registry_lists_and_loads_games():
    assert "capsule" in list_games()
    assert load_game("capsule").id == "capsule"
    with pytest.raises(SetupError, match="unknown game"):
        load_game("chess")
