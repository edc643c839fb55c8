"""Random play to the end with the invariants of capsule.md §8, the leak property, determinism, golden file."""

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from contract import compare_golden, golden_playthrough, play_random_games, replay

from coliseo import load_game
from coliseo.games.capsule.state import (
    ATTACK,
    ATTACKED,
    CAPSULE,
    CARD,
    DMG,
    KIND,
    KING,
    MONSTER,
    MOVE,
    MOVED,
    OWNER,
    SQ,
    STUN,
    SUMMON,
    USED,
)

# (options, games, the players who place by hand)
VARIANTS = [
    ({}, 400, ()),
    ({"mode": "advanced"}, 250, (1,)),
    ({"first_player": "random", "o_pattern": "star"}, 150, (0, 1)),
    ({"faction_advantage": True, "capsule_damage_carries": False, "stun_blocks_abilities": True}, 100, (0,)),
    ({"auto_end_turn": False, "max_turns": 40, "double_pass_ends": False, "all_monsters_rule": False}, 60, (0, 1)),
    ({"width": 10, "height": 6, "capsule_hp": 3, "mode": "advanced", "enforce_team_rules": False}, 40, ()),
]


def team_of(state, player):
    return Counter(p[CARD].id for p in [*state.own[player], *(x for _, x in state.tray[player])] if p[KIND] != KING)


def action_cost(state, action):
    piece = state.board[action[1]] if len(action) > 1 else None
    if action[0] == SUMMON:
        return piece[CARD].cost
    if action[0] == MOVE:
        return piece[CARD].move.cost
    if action[0] == ATTACK:
        return piece[CARD].attack.cost
    if action[0] == 4:
        return piece[CARD].cost
    if action[0] == 5:
        return piece[CARD].ability(action[2]).cost
    return 0


def make_invariants(teams):
    def check(s):
        game = s.game
        options = game.options
        over = s.result is not None
        placing = s.turn == 0
        on_board = [p for pieces in s.own for p in pieces]
        assert len({p[SQ] for p in on_board}) == len(on_board)                      # 1
        assert all(s.board[p[SQ]] is p for p in on_board)
        assert sum(x is not None for x in s.board) == len(on_board)
        if placing:
            assert not over and s.ap == 0 and s.tray[s.active] and (0,) not in s.legal_actions()
            assert all(p[SQ] in game.zones[p[OWNER]] for p in on_board)
        elif not over:
            assert s.king(0) and s.king(1) and not any(s.tray)
            king_ap = s.action_points(s.king(s.active)[CARD])
            assert 0 <= s.ap <= king_ap                                               # 2
        for p in on_board:                                                            # 3
            limit = (s.monster_points(p[CARD]) if p[KIND] == KING else
                     options["capsule_hp"] if p[KIND] == CAPSULE else p[CARD].hp)
            assert 0 <= p[DMG] < limit
        for player in (0, 1):                                                         # 4
            now = team_of(s, player) + Counter(s.destroyed[player])
            assert now == teams[player]
            king = s.king(player)
            if king:                                                                  # 5
                costs = sum(game.content.monsters[c].cost for c in s.destroyed[player])
                assert king[DMG] - costs >= 0
        for p in on_board:                                                            # 6
            assert not p[STUN] or p[KIND] == MONSTER
            if p[OWNER] != s.active and not over:
                assert not (p[MOVED] or p[ATTACKED] or p[USED])
            if p[KIND] == KING:
                assert not p[ATTACKED]
        legal = s.legal_actions()
        assert (not over) == (s.current_player is not None) == ((0,) in legal or placing)   # 7
        if options["auto_end_turn"] and not over:
            assert legal != [(0,)]
        for action in legal:                                                          # 8
            assert action_cost(s, action) <= s.ap
        if options["max_turns"]:                                                      # 10
            assert s.turn <= options["max_turns"]
        obs = {v: json.dumps(s.observation(v)) for v in (0, 1, None)}                 # 9
        for p in on_board:
            if p[KIND] == CAPSULE:
                for viewer in (0, 1, None):
                    view = next((x for x in json.loads(obs[viewer])["pieces"] if x["sq"] == game.board.name(p[SQ])),
                                None)
                    if placing and viewer != p[OWNER]:                               # R9: placed in secret
                        assert view is None
                        continue
                    may_know = viewer is not None and (viewer == p[OWNER] or p[9] >> viewer & 1)
                    assert ("card" in view) == bool(may_know)
    return check


@pytest.mark.parametrize("options,games,people", VARIANTS, ids=[json.dumps(v[0]) for v in VARIANTS])
def test_random_games_keep_every_invariant(options, games, people):
    game = load_game("capsule", **options)
    teams = {}
    setup = game.setup_for_people(None, set(people))

    def setup_for(i):
        state = game.new_state(0, setup)
        teams.clear()
        teams.update({p: team_of(state, p) for p in (0, 1)})
        return setup

    histories = play_random_games(game, games, seed=hash(json.dumps(options, sort_keys=True)) % 1000,
                                  invariants=lambda s: make_invariants(teams)(s), setup_for=setup_for)
    assert sum(len(h) for h in histories) > games * 5


def test_same_seed_and_actions_give_the_same_game():
    game = load_game("capsule", first_player="random")
    setup = game.setup_for_people(None, {0})
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_state(seed, setup)
        actions = []
        while not state.is_over:
            actions.append(rng.choice(state.legal_actions()))
            state.apply(actions[-1])
        assert replay(game, seed, actions, setup) == state


def test_three_default_games_do_not_put_the_same_monsters_on_the_same_squares():
    """Issue 49: a default game's capsules were always b8 Spark Hound, c8 Shade Lancer, e8 Night Wisp (old D22)."""
    game = load_game("capsule")
    layouts = [{p["sq"]: p["card"] for p in game.new_state(seed).observation(1)["pieces"] if p["owner"] == 1}
               for seed in (1, 2, 3)]
    assert not layouts[0] == layouts[1] == layouts[2]


def test_placement_depends_on_the_seed_and_stays_in_the_zone():
    game = load_game("capsule")
    layouts = {json.dumps(game.new_state(seed).observation(None)["pieces"]) for seed in range(10)}
    assert len(layouts) > 5
    for seed in range(10):
        for p in game.new_state(seed).observation(None)["pieces"]:
            assert p["sq"][1] == ("1" if p["owner"] == 0 else "8")


def test_golden_playthrough():
    game = load_game("capsule")    # 204 steps, 13 event kinds: Player 1 places by hand (R9), Player 2 at random
    text = golden_playthrough(game, seed=2024, agent_seed=266, setup=game.setup_for_people(None, {0}))
    compare_golden(Path(__file__).with_name("golden.txt"), text)


def test_determinize_keeps_the_hidden_team_within_the_team_rules():
    game = load_game("capsule", mode="advanced")
    state = game.new_state(3)
    rng = random.Random(1)
    for _ in range(200):
        world = state.determinize(0, rng)
        team = [p[CARD] for p in world.own[1] if p[KIND] != KING]
        assert sum(c.cost for c in team) <= 32
        assert all(c.level < 2 or c.faction == "dark" for c in team)
        assert [c.faction for c in team] == [p[CARD].faction for p in state.own[1] if p[KIND] != KING]
    worlds = {tuple(p[CARD].id for p in state.determinize(0, rng).own[1]) for _ in range(50)}
    assert len(worlds) > 10                                   # the hidden cards really are resampled
