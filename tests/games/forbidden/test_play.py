"""Random play, round trips, the leak property, determinism and the golden playthrough."""

import json
import random
from pathlib import Path

from contract import check_leak, check_round_trips, compare_golden, golden_playthrough, play_random_games, replay
from games.forbidden.helpers import Invariants

import coliseo

GAME = coliseo.load_game("forbidden")


def test_random_games_keep_the_invariants():
    """Many seeded random duels to the end, §8 after every action."""
    inv = Invariants()
    reasons = set()
    for seed in range(500):
        rng = random.Random(seed)
        s = GAME.new_state(seed)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            inv(s)
        reasons.add(s.result["reason"])
        inv.last.clear()
    assert {"life_points_zero", "deck_out"} <= reasons


def test_contract_round_trips_and_leak_property_at_sampled_steps():
    histories = play_random_games(GAME, games=12, seed=5, invariants=Invariants(), sample_every=9)
    # Same seed and actions -> same game.
    for i, actions in enumerate(histories[:4]):
        a, b = replay(GAME, 5 + i, actions), replay(GAME, 5 + i, actions)
        assert a == b and a.is_over


def test_variants_play_to_the_end_with_round_trips():
    for options in ({"first_player": "random"}, {"fake_trap_stops_attacks": False, "exodia": False},
                    {"open_decklists": False}, {"mode": "free_duel"}, {"start_lp": 1000, "terrain": 5}):
        game = coliseo.load_game("forbidden", **options)
        play_random_games(game, games=3, seed=11, invariants=Invariants(), sample_every=13)


def hidden_ids(state, player):
    """Card ids `player` may not know: the opponent's hand and unknown face-down cards, deck contents."""
    q = 1 - player
    secret = set(state.hands[q])
    for rec in state.monsters[q] + state.spells[q]:
        if rec is not None and not rec[1] and not rec[8]:
            secret.add(rec[0])
    return secret


def test_observation_never_contains_hidden_cards():
    """Scan the JSON of each view for ids the viewer may not know (that are not public elsewhere)."""
    game = coliseo.load_game("forbidden", open_decklists=False)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_state(seed)
        while not s.is_over:
            if rng.random() < 0.2:
                for viewer in (0, 1, None):
                    obs = s.observation(viewer)
                    text = json.dumps(obs)
                    public = set()
                    for side in obs["sides"]:
                        public.update(side["removed"])
                        public.update(x["id"] for x in side["monsters"] + side["spells"] if x and x["id"])
                        public.update(side["hand"] or [])
                        public.update(side["deck_cards"] or [])
                    for player in (0, 1):
                        if viewer == player:
                            continue
                        for cid in hidden_ids(s, player if viewer is None else viewer) - public:
                            assert f'"id": {cid},' not in text and f"[{cid}," not in text and f" {cid}]" not in text
                    if viewer is not None:
                        assert obs["sides"][1 - viewer]["hand"] is None
                        assert obs["sides"][1 - viewer]["deck_cards"] is None
                    checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 100


def test_leak_property_with_hidden_cards_on_the_field():
    """Face-down monsters and set cards are resampled for the opponent but the views stay equal."""
    rng = random.Random(3)
    found = 0
    for seed in range(30):
        s = GAME.new_state(seed)
        r = random.Random(seed)
        while not s.is_over:
            hidden = any(rec and not rec[1] and not rec[8]
                         for side in (0, 1) for rec in s.monsters[side] + s.spells[side])
            if hidden:
                check_leak(s, rng)
                found += 1
            s.apply(r.choice(s.legal_actions()))
    assert found > 50


def test_determinize_shuffles_hidden_cards():
    s = GAME.new_state(4)
    world = s.determinize(0, random.Random(1))
    assert world.hands[0] == s.hands[0]
    assert sorted(world.hands[1] + world.decks[1]) == sorted(s.hands[1] + s.decks[1])
    assert world.decks[1] != s.decks[1] or world.hands[1] != s.hands[1]


def test_round_trip_of_the_opening_and_every_legal_play():
    s = GAME.new_state(2)
    check_round_trips(GAME, s)


def test_golden_playthrough():
    text = golden_playthrough(GAME, seed=2026, agent_seed=7)
    compare_golden(Path(__file__).with_name("golden.txt"), text)


def test_determinize_redraws_face_down_cards_and_stars_but_keeps_the_viewers_own():
    s = GAME.new_state(8)
    s.apply(("play", (1,), 1, True))      # seat 1 plays a face-down monster
    s.apply(("place", "d", 2))
    s.apply(("end",))
    ids, stars = set(), set()
    for seed in range(30):
        world = s.determinize(1, random.Random(seed))
        ids.add(world.monsters[0][0][0])
        stars.add(world.monsters[0][0][3])
        assert world.observation(1) == s.observation(1)
        own = s.determinize(0, random.Random(seed))
        assert own.monsters[0][0] == s.monsters[0][0] and own.hands[0] == s.hands[0]
    assert len(ids) > 1 and stars == {1, 2}


def test_closed_deck_lists_are_not_in_a_determinization():
    game = coliseo.load_game("forbidden", open_decklists=False)
    s = game.new_state(6)
    world = s.determinize(0, random.Random(2))
    assert world.lists[0] == s.lists[0] and world.lists[1] != s.lists[1] and len(world.lists[1]) == 40
    assert sorted(world.hands[1] + world.decks[1]) == sorted(world.lists[1])
    assert world.observation(0) == s.observation(0)


def test_setup_with_named_decks_and_id_lists():
    setup = GAME.setup_for(deck="starter_b")
    s = GAME.new_state(1, setup)
    assert sorted(s.lists[0]) == sorted(GAME.pack.deck_ids("starter_b"))
    ids = ",".join(map(str, GAME.pack.deck_ids("starter_a")))
    s = GAME.new_state(1, GAME.setup_for(deck=ids))
    assert sorted(s.lists[0]) == sorted(GAME.pack.deck_ids("starter_a"))


def test_a_main_phase_play_is_legal_exactly_when_it_is_listed():
    """apply finds a play by bisection (DuelState._is_legal): every play there is, and look-alikes of other
    types, must be judged as `in legal_actions()` judges them."""
    from coliseo.games.forbidden.state import PLAY, PLAY_FD

    candidates = [a for row in PLAY for a in row] + list(PLAY_FD.values())
    odd = [("play", (1,), 1.0, False), ["play", (1,), 1, False], ("play", [1], 1, False), ("play", (1,), 1),
           ("play", (1,), True, False), ("play", (1, 1), 1, False), ("play", (9,), 1, False), ("end",), "play"]
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        s = GAME.new_state(seed)
        while not s.is_over:
            legal = s.legal_actions()
            if s.phase == "main":
                listed = set(legal)
                fresh = [("play", tuple(a[1]), a[2], a[3]) for a in rng.sample(candidates, 40)]
                for a in candidates + fresh:
                    assert s._is_legal(a) == (a in listed), a
                for a in odd:
                    assert s._is_legal(a) == (a in legal), a
                checked += 1
            s.apply(rng.choice(legal))
    assert checked > 50
