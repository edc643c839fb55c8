"""Random play, round trips, the leak property, determinism and the golden playthrough for dungeon_dice."""

import json
import random
from pathlib import Path

import pytest
from contract import check_leak, check_round_trips, compare_golden, golden_playthrough, replay
from games.dungeon_dice.helpers import end_turn_resets, invariants

from coliseo import load_game
from coliseo.core.errors import IllegalAction, InvalidNotation
from coliseo.games.dungeon_dice.content import CRESTS
from coliseo.games.dungeon_dice.state import UID

HERE = Path(__file__).parent
SPEND = {"summon": "S", "ssummon": "S", "esummon": "E", "move": "M", "spell": "G", "effect": "E", "zash": "Z",
         "dim": "S"}


def play_checked(game, seed, rng, sample_every=13):
    """One random game with §8 invariants after every action; returns its actions."""
    s = game.new_state(seed)
    actions, step = [], 0
    turn_key, summons, movers, attackers, effects = None, 0, set(), set(), set()
    while not s.is_over:
        if (s.turn, s.active) != turn_key:
            turn_key, summons, movers, attackers, effects = (s.turn, s.active), 0, set(), set(), set()
        legal = s.legal_actions()
        assert legal
        if step % sample_every == 0:
            check_round_trips(game, s)
            check_leak(s, rng)
            hidden_ids_not_leaked(s)
            bad = "summon " + rng.choice(list(game.content.cards))
            if game._parse_action_text(s, bad) not in legal:
                before = s.to_json()
                with pytest.raises(InvalidNotation):
                    game.parse_action(s, bad)
                with pytest.raises(IllegalAction):
                    s.apply(game._parse_action_text(s, bad))
                assert s.to_json() == before
        a = rng.choice(legal)
        kind = a[0]
        # invariant 6: within a turn
        if kind in ("dim", "ssummon"):
            summons += 1
        if kind == "move" and s.pieces[a[1]][1] is not None:
            movers.add(s.pieces[a[1]][UID])
        if kind == "attack":
            uid = s.pieces[a[1]][UID]
            assert uid not in attackers
            attackers.add(uid)
        if kind == "effect":
            uid = s.pieces[a[1]][UID]
            assert uid not in effects
            effects.add(uid)
        if s.phase == "spend2" and kind in SPEND and game.options["spend2_lock"] == "type":
            assert not s.spent1 >> CRESTS.index(SPEND[kind]) & 1
        assert summons <= 1 and len(movers) <= 1
        before_turn = s.turn
        s.apply(a)
        actions.append(a)
        invariants(s)
        if s.turn != before_turn:
            end_turn_resets(s)
        step += 1
    check_round_trips(game, s)
    return actions


def hidden_ids_not_leaked(s):
    """observation(p) holds no card id of the opponent's library or set zone that is not public anyway."""
    public = json.dumps(s.observation(None))
    for p in (0, 1):
        o = 1 - p
        text = json.dumps(s.observation(p))
        mine = set(s.library[p]) | {c for c, _ in s.setzone[p]}
        for cid in set(s.library[o]) | {c for c, _ in s.setzone[o]}:
            if f'"{cid}"' not in public and cid not in mine:
                assert f'"{cid}"' not in text, f"player {p + 1} sees the hidden card {cid}"


@pytest.mark.parametrize("options,games", [
    ({}, 40),
    ({"max_turns": 40, "board": "classic", "hearts": 3}, 40),
    ({"max_turns": 40, "crest_amounts": "one", "triple_bonus": "none", "spend2_lock": "magic"}, 20),
    ({"max_turns": 40, "ac_move_limited": True, "crest_cap": 6, "first_player": "2", "spend2_lock": "none"}, 20),
])
def test_random_games_keep_every_invariant(options, games):
    game = load_game("dungeon_dice", **options)
    rng = random.Random(7)
    for i in range(games):
        play_checked(game, 1000 + i, rng)


def test_random_games_with_rich_decks_reach_battles_and_hearts():
    """Games with many crests: summons, attacks, windows and heart losses all happen."""
    game = load_game("dungeon_dice", max_turns=60, crest_amounts="printed")
    seen = set()
    rng = random.Random(3)
    for i in range(6):
        s = game.new_state(50 + i)
        while not s.is_over:
            if s.phase == "spend1" and s.turn % 2 == 1:
                for p in (0, 1):
                    s.pool[p] = [v + 2 for v in s.pool[p]]
                s._legal = None
            a = rng.choice(s.legal_actions())
            for e in s.apply(a):
                seen.add(e["type"])
            invariants(s)
    assert {"summon", "attack", "battle", "destroyed", "heart", "window", "move", "spell"} <= seen


def test_same_seed_and_actions_give_the_same_game():
    game = load_game("dungeon_dice", max_turns=30)
    actions = play_checked(game, 77, random.Random(1), sample_every=1000)
    a = replay(game, 77, actions)
    b = replay(game, 77, actions)
    assert a == b and a.is_over


def test_golden_playthrough():
    game = load_game("dungeon_dice", max_turns=20)
    text = golden_playthrough(game, seed=2026, agent_seed=11, max_steps=400)
    compare_golden(HERE / "golden.txt", text)


def test_a_net_is_legal_exactly_when_it_is_listed():
    """apply finds a net by bisection (DDMState._is_legal): nets there are or not, and look-alikes of other
    types, must be judged as `in legal_actions()` judges them."""
    game = load_game("dungeon_dice")
    rng = random.Random(4)
    every = [("dim", pid) for pid in range(len(game.geo.placements))]
    odd = [("dim", 3.0), ["dim", 3], ("dim",), ("dim", True), ("dim", -1), ("dim", len(every)), ("end",), "dim"]
    checked = 0
    for seed in range(4):
        s = game.new_state(seed)
        while not s.is_over and checked < 40:
            legal = s.legal_actions()
            if s.phase == "placing":
                listed = set(legal)
                fresh = [("dim", int(str(a[1]))) for a in rng.sample(every, 300)]
                for a in rng.sample(every, 1500) + legal + fresh:
                    assert s._is_legal(a) == (a in listed), a
                for a in odd + [("dim", float(legal[0][1]))]:
                    assert s._is_legal(a) == (a in legal), a
                checked += 1
            s.apply(rng.choice(legal))
    assert checked > 20


@pytest.mark.parametrize("options", [{"max_turns": 60},
                                     {"max_turns": 40, "board": "classic", "crest_amounts": "printed"}])
def test_a_player_has_a_net_exactly_when_a_placement_is_listed(options):
    """has_net remembers an answer over boards (a legal net stays legal while its squares stay empty; with none,
    none appears while no square is freed): at every position it must say what the full list says."""
    game = load_game("dungeon_dice", **options)
    rng = random.Random(9)
    asked = 0
    for seed in range(6):
        s = game.new_state(300 + seed)
        while not s.is_over:
            for p in (0, 1):
                assert s.has_net(p) == bool(s.placements(p)), (seed, s.turn, p)
                asked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert asked > 1000
