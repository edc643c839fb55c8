"""The Dungeon Dice evaluation plays for hearts: nearer the enemy Master is better, a heart in reach is taken,
and only what the player may know is read."""

import heapq
import random

import pytest
from games.dungeon_dice.helpers import GAME, path, position, put

from coliseo.agents import Seat, make_agent
from coliseo.core.registry import load_game
from coliseo.games.dungeon_dice.evaluation import (
    FAR,
    FEATURES,
    FITTED,
    GAP,
    SHORTLIST,
    _Field,
    _nearest_nets,
    evaluate,
    features,
    shortlist,
    value,
    values,
)

ROAD = [f"h{rank}" for rank in range(2, 20)]     # player 1's path from beside g1 up to h19, beside h20


def knight_on(square: str, **kw):
    s = position(**kw)
    path(s, 0, *ROAD)
    put(s, square, "dungeon_knight", 0)
    return s


def greedy_turn(s):
    """Player 1's greedy agent plays until its turn ends (or the game does)."""
    agent = make_agent("greedy", GAME, 0)
    rng = random.Random(0)
    while not s.is_over and s.active == 0:
        s.apply(agent.act(Seat(s, s.current_player, rng)))


def test_a_monster_nearer_the_enemy_master_along_the_path_is_worth_more():
    values = [evaluate(knight_on(square), 0) for square in ("h4", "h10", "h16")]
    assert values[0] < values[1] < values[2]
    # the opponent sees the same race from the other side
    assert [evaluate(knight_on(square), 1) for square in ("h4", "h10", "h16")] == sorted(
        (evaluate(knight_on(square), 1) for square in ("h4", "h10", "h16")), reverse=True)


def test_greedy_takes_a_heart_in_reach():
    s = knight_on("h19", pool={"A": 1})
    greedy_turn(s)
    assert s.hearts == [5, 4]


def test_greedy_walks_to_the_master_and_attacks_in_the_same_turn():
    s = knight_on("h16", pool={"A": 1, "M": 3})
    greedy_turn(s)
    assert s.hearts == [5, 4]


def test_without_an_attack_crest_the_knight_still_walks_up():
    s = knight_on("h10", pool={"M": 6})
    greedy_turn(s)
    knight = next(q for q, p in s.pieces.items() if p[1] == "dungeon_knight")
    assert GAME.geo.names[knight] == "h16"


def random_positions():
    """Positions of six random games, 60 to 260 actions in."""
    rng = random.Random(7)
    for seed in range(6):
        s = GAME.new_state(seed)
        for _ in range(60 + 40 * seed):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            yield s


def test_the_evaluation_and_the_value_read_only_what_their_player_may_know():
    checked = 0
    for s in random_positions():
        for player in (0, 1):
            worlds = [s.determinize(player, random.Random(k)) for k in range(3)]
            assert {evaluate(w, player) for w in worlds} == {evaluate(s, player)}
            assert {value(w, player) for w in worlds} == {value(s, player)}
            checked += 1
    assert checked >= 6


def test_each_feature_for_one_player_is_minus_the_others():
    for s in random_positions():
        assert features(s, 0) == [-x for x in features(s, 1)]
        assert value(s, 0) == pytest.approx(-value(s, 1))


def test_values_gives_each_players_value_exactly():
    for s in random_positions():
        assert values(s) == {0: value(s, 0), 1: value(s, 1)}


def steps_by_dijkstra(s, master: int) -> list[int]:
    """Each square's steps to stand beside `master` (FAR at most), square by square: entering a square costs 1,
    and GAP more while it is not path."""
    geo = s.game.geo
    allpath = s.path[0] | s.path[1]

    def cost(sq):
        return 0 if allpath >> sq & 1 else GAP

    steps, heap = {}, [(cost(sq), sq) for sq in geo.nbrs[master]]
    while heap:
        d, sq = heapq.heappop(heap)
        if sq not in steps:
            steps[sq] = d
            heap.extend((d + 1 + cost(n), n) for n in geo.nbrs[sq] if n != master and n not in steps)
            heapq.heapify(heap)
    return [min(steps.get(sq, FAR), FAR) for sq in range(geo.n)]


def test_the_lazily_grown_distance_field_answers_as_the_whole_field():
    rng = random.Random(3)
    checked = 0
    for s in [*random_positions(), knight_on("h10")]:
        geo = s.game.geo
        allpath = s.path[0] | s.path[1]
        for master in s.ac:
            truth = steps_by_dijkstra(s, master)
            whole = _Field(geo, allpath, master).whole()
            assert [next((d for d, layer in enumerate(whole) if layer >> sq & 1), FAR) for sq in range(geo.n)] == truth
            field = _Field(geo, allpath, master)      # grown only as each question needs, in a random order
            for _ in range(30):
                squares = sum(1 << sq for sq in rng.sample(range(geo.n), rng.randrange(1, 6)))
                if rng.random() < 0.5:
                    assert field.steps(squares) == min(truth[sq] for sq in range(geo.n) if squares >> sq & 1)
                else:
                    expected = sorted((truth[sq], sq) for sq in range(geo.n) if squares >> sq & 1 and truth[sq] < FAR)
                    assert [(d, sq) for d, there in field.reached(squares) for sq in range(geo.n)
                            if there >> sq & 1] == expected
                checked += 1
            assert field.whole() == whole
    assert checked >= 300


def test_the_fitted_value_weighs_every_feature_and_counts_a_heart_for_the_side_ahead():
    assert set(FITTED) == set(FEATURES)
    s = knight_on("h10")
    even = value(s, 0)
    s.hearts = [5, 4]
    assert value(s, 0) > even


def test_mcts_scores_its_leaves_with_the_value_and_greedy_with_the_evaluation():
    assert make_agent("mcts", GAME, 0).evaluate is value
    assert make_agent("greedy", GAME, 0).evaluate is evaluate
    assert make_agent("mcts", load_game("capsule"), 0).evaluate.__module__ == "coliseo.games.capsule.evaluation"


def declared_summon_at_the_end_of(*road):
    """Player 1's path runs along `road`; a monster is declared and waits for its net."""
    s = position(pool={"S": 6})
    path(s, 0, *road)
    s.placed[0] = True
    s.placing = next(c for c in s.library[0] if GAME.content.cards[c].type == "monster")
    s.phase, s.ret_phase, s._legal = "placing", "spend1", None
    return s


def test_the_shortlist_keeps_the_nets_that_reach_furthest_toward_the_enemy_master():
    s = declared_summon_at_the_end_of(*(f"h{rank}" for rank in range(2, 9)))
    legal = s.legal_actions()
    short = shortlist(s, legal)
    assert len(legal) > 1000 and len(short) == SHORTLIST
    for action in short:
        names = [GAME.geo.names[q] for q in GAME.geo.placements[action[1]][2]]
        assert "h9" in names and max(int(name[1:]) for name in names) == 12, names   # from the tip, 4 ranks on


def test_the_shortlist_keeps_the_best_net_by_the_evaluation_where_the_nearest_miss_it():
    s = load_game("dungeon_dice").new_state(0)
    rng = random.Random(0)
    for _ in range(190):       # a placing step of a random game where a far net opens the better roads
        s.apply(rng.choice(s.legal_actions()))
    assert s.phase == "placing"
    legal = s.legal_actions()

    def net_value(action):
        after = s.clone()
        after.apply(action)
        return evaluate(after, s.active)

    best = max(legal, key=net_value)
    assert best not in _nearest_nets(s, s.active, legal)[:SHORTLIST]
    assert best in shortlist(s, legal)


def test_mcts_searches_only_the_shortlisted_nets():
    s = declared_summon_at_the_end_of(*(f"h{rank}" for rank in range(2, 9)))
    agent = make_agent("mcts", GAME, 3, iterations=40)
    action = agent.act(Seat(s, 0, random.Random(1)))
    assert action in shortlist(s, s.legal_actions())
    narrowing = make_agent("mcts", GAME, 3, iterations=20, width=4)   # root ranking: only shortlisted nets
    narrowing.act(Seat(s, 0, random.Random(1)))
    assert len(narrowing.last.root_actions) == 4 and narrowing.last.root_actions <= set(shortlist(s, s.legal_actions()))


def test_the_shortlist_leaves_other_steps_whole():
    s = knight_on("h10", pool={"M": 6, "A": 1})
    assert shortlist(s, s.legal_actions()) == s.legal_actions()


def test_scale_move_measures_leaves_from_the_root_position():
    """Four hearts up: on the game's scale that is a near-certain win, on the move's scale the root itself is
    the middle and only what the options change counts."""
    s = knight_on("h10", pool={"M": 6})
    s.hearts = [5, 1]
    by_move = make_agent("mcts", GAME, 3, iterations=20, scale="move")
    by_move.act(Seat(s, 0, random.Random(1)))
    assert by_move.last.heuristic(s) == {0: 0.5, 1: 0.5}
    by_game = make_agent("mcts", GAME, 3, iterations=20, scale="game")
    by_game.act(Seat(s, 0, random.Random(1)))
    assert by_game.last.heuristic(s)[0] > 0.7
