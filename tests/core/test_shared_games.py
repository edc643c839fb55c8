"""One Game per game, options and content: `load_game` shares it, playing never changes it, and a game nobody holds
any more is freed (counted with the garbage collector, so the counts are exact)."""

from __future__ import annotations

import gc
import pickle
import random

import pytest

from coliseo import list_games, load_game
from coliseo.agents import make_agent, play_game
from coliseo.core.game import Game
from coliseo.core.registry import RECENT_GAMES, game_class

# What a game only memoizes (answers derived from its content, filled as it is played): left out of its fingerprint.
MEMOS = {"_eligible", "_pay_cache", "_names", "_offsets", "_total", "die_sides", "library_views", "plain_values",
         "unaccounted", "fusion_cache", "step_rows", "_lines"}


def play_some(game: Game, seed: int, actions: int = 40) -> None:
    """Random actions, with what a table and a search do besides: views, determinizations, positions, notation."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(actions):
        if state.is_over:
            break
        world = state.determinize(state.current_player, rng)
        game.state_from_json(world.to_json())
        for event in state.apply(rng.choice(state.legal_actions())):
            game.render(event, "es")
        state.observation(None)
        [game.format_action(a) for a in state.legal_actions()]


def games_alive(cls=Game) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, cls))


def fingerprint(game: Game) -> bytes:
    """The game's options and content, as bytes: whatever a game is made of apart from its memos."""
    def parts(value):
        if hasattr(value, "__dict__") and not isinstance(value, type):
            return {k: v for k, v in vars(value).items() if k not in MEMOS}
        return value
    return pickle.dumps({k: parts(v) for k, v in vars(game).items() if k not in MEMOS})


@pytest.mark.parametrize("game_id", list_games())
def test_the_same_options_load_the_same_game(game_id):
    game = load_game(game_id)
    defaults = {o.name: o.default for o in game.options_schema}
    assert load_game(game_id) is game
    assert load_game(game_id, **defaults) is game, "defaults spelled out are the same options"
    changed = next(o for o in game.options_schema if o.name == "max_turns" or o.choices)
    other = (next(c for c in changed.choices if c != changed.default) if changed.choices else changed.default + 1)
    assert load_game(game_id, **{changed.name: other}) is not game


def test_a_pack_changed_on_disk_loads_a_new_game_and_the_same_pack_the_same_one(tmp_path):
    pack = tmp_path / "pack.toml"
    monster = ('[[monster]]\nid = "glass_bat"\nname = {{ en = "Glass Bat", es = "Murcielago" }}\nlevel = 2\n'
               'atk = {atk}\ndef = 500\n')
    pack.write_text(monster.format(atk=700), encoding="utf-8")
    first = load_game("dungeon_dice", packs=[str(pack)])
    assert load_game("dungeon_dice", packs=(str(pack),)) is first, "a tuple of packs is the same list"
    pack.write_text(monster.format(atk=1700), encoding="utf-8")
    again = load_game("dungeon_dice", packs=[str(pack)])
    assert again is not first and again.content.cards["glass_bat"].atk == 1700


def test_a_caller_changing_its_own_list_of_packs_does_not_change_the_shared_game(tmp_path):
    pack = tmp_path / "pack.toml"
    pack.write_text('[[monster]]\nid = "glass_bat"\nname = { en = "Glass Bat", es = "Murcielago" }\nlevel = 2\n'
                    'atk = 700\ndef = 500\n', encoding="utf-8")
    packs = [str(pack)]
    game = load_game("dungeon_dice", packs=packs)
    packs.append("elsewhere.toml")
    assert game.options["packs"] == [str(pack)]


@pytest.mark.parametrize("game_id", list_games())
def test_playing_never_changes_the_game(game_id):
    """Games are shared by every table and every search, so none of them may change one: only memos fill."""
    game = load_game(game_id)
    before = fingerprint(game)
    play_some(game, seed=3)
    state = game.new_state(5)
    agents = [make_agent("greedy", game, seed=p) for p in state.players]
    play_game(state, agents, random.Random(5), max_steps=60)
    game.card_rows("es"), game.sides("es"), game.rules_text("es")
    assert fingerprint(game) == before


@pytest.mark.parametrize("game_id", list_games())
def test_three_hundred_loads_played_leave_one_game_behind(game_id):
    cls = game_class(game_id)
    load_game(game_id)
    start = games_alive(cls)
    for n in range(300):
        play_some(load_game(game_id), seed=n, actions=3 if n % 10 else 30)
    assert games_alive(cls) == start


@pytest.mark.parametrize("game_id", list_games())
def test_games_built_and_played_and_dropped_are_freed(game_id):
    """No table of a game's modules keeps a game alive (a game built directly, not shared, included)."""
    cls = game_class(game_id)
    start = games_alive(cls)
    for n in range(20):
        play_some(cls(), seed=n, actions=40)
    assert games_alive(cls) == start


def test_at_most_the_recent_games_stay_loaded_once_nothing_holds_them():
    start = games_alive(game_class("dungeon_dice"))
    for hearts in range(1, 10):
        for max_turns in range(1000, 1000 + 2 * RECENT_GAMES // 9 + 2):
            play_some(load_game("dungeon_dice", hearts=hearts, max_turns=max_turns), seed=hearts, actions=6)
    assert games_alive(game_class("dungeon_dice")) - start <= RECENT_GAMES
