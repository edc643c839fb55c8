"""Rules-fidelity audit: scenarios read from docs/rules/fantastiqa.md that the other test files leave open.

Layout: TL Forest/AT, TR Fields/BB, ML Highlands/QC, MR Hills/AT, BL Wetlands/BB, BR Frozen Wastes/QC.
Spaces: 1 TL-TR, 2 TR-MR, 3 MR-BR, 4 BR-BL, 5 BL-ML, 6 ML-TL, 7 ML-MR.
"""

from collections import Counter

from games.fantastiqa.helpers import GAMES, SEVEN, act, check_no_hidden_ids, legal_text, scenario

from coliseo import load_game
from coliseo.core.events import view_event

G = GAMES[2]






# --- R7, R8: the draft and the end of setup ----------------------------------------------------

def test_after_the_draft_each_player_holds_five_of_twelve_and_two_open_quests_carry_bonus_tokens():
    for n in (2, 3, 4):
        game = GAMES[n]
        s = game.new_state(5)
        while s.phase == "draft":
            s.apply(s.legal_actions()[0])
        cards = game.content.cards
        for p in range(n):
            mine = s.hand[p] + s.draw[p]
            assert len(s.hand[p]) == 5 and len(mine) == 12                         # R8.2
            kinds = Counter(cards[c].kind for c in mine)
            assert kinds == {"adventurer": 9, "dog": 1, "dragon": 1, "artifact": 1}
            assert len(s.priv[p]) == 1 and s.gems[p] == 3 and s.carpets[p] == 3 and s.rearr[p] == 3  # R6
        assert all(q is not None for q in s.open_q) and s.open_bonus == [True, True]  # R8.1
        assert s.bonus_supply == 10
        starting_q = [q for q in game.content.quests.values() if q.star]
        in_box = [q.id for q in starting_q if q.id in s.box]
        assert len(in_box) == len(starting_q) - n - 2                               # the rest to the box
        starting_a = [c for c in cards.values() if c.kind == "artifact" and c.star]
        assert sum(1 for c in starting_a if c.id in s.box) == len(starting_a) - n
        assert s.turn_no == 1 and s.cur == 0 and s.phase == "main"                   # R8.3



def test_start_player_hand_deals_the_start_player_fewer_cards_once_and_leaves_the_rest_of_the_deal():
    for n in (2, 3):
        game, plain = load_game("fantastiqa", players=n, start_player_hand=4), GAMES[n]
        s, d = game.new_state(7), plain.new_state(7)
        for state in (s, d):
            while state.phase == "draft":
                state.apply(state.legal_actions()[0])
        assert len(s.hand[0]) == 4 and set(s.hand[0]) < set(d.hand[0]) and len(s.draw[0]) == 8
        assert s.hand[1:] == d.hand[1:] and s.draw[1:] == d.draw[1:]
        act(s, "end")                                                   # R29: refilled to five as usual
        assert len(s.hand[0]) == 5 and s.current_player == 1

# --- R13-R16: adventuring ---------------------------------------------------------------------

def test_a_carpet_before_the_first_sub_is_not_part_of_the_adventure_route():
    # R23: outside an adventure any adjacent Region is allowed; R13: the route starts where `sub` starts.
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1WN"]], carpets=[3, 3])
    act(s, "carpet 6")                                     # TL -> ML, no adventure yet
    assert s.phase == "main" and s.pos[0] == 2 and s.route == []
    act(s, "carpet 6")                                     # and back again: still allowed
    assert s.pos[0] == 0 and s.carpets[0] == 1
    act(s, "sub 1 p1WN")
    assert s.route == [0, 1]


def test_recruiting_goes_step_by_step_in_route_order_cards_canonical_then_the_creature():
    # R16.1: for each pending step in route order, its paying cards (canonical order), then the Creature.
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1WN", "p2BR", "p1BR"]])
    act(s, "sub 1 p1WN")
    act(s, "sub 2 p2BR")
    act(s, "stop")
    assert s.discard[0] == ["p1WN", "c01", "p2BR", "c09"]


def test_gems_on_subdued_creatures_are_gained_only_when_the_adventure_stops():
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1WN", "p1BR"]], gems=[0, 3])
    act(s, "sub 1 p1WN")
    act(s, "sub 2 p1BR")
    assert s.gems[0] == 0 and legal_text(s, "release") == []         # R16.2: never mid-adventure
    act(s, "stop")
    assert s.gems[0] == 2


# --- R17-R19: statues -------------------------------------------------------------------------

def test_a_key_draw_in_main_keeps_the_turn_action():
    # R17 / R26 KEY: the option runs as a free action and returns to the phase it came from.
    s = scenario(spaces=SEVEN, hands=[["sa4", "p1WN"]], decks={"AT": ["a01", "a13", "a05"]})
    act(s, "power sa4 draw")
    assert s.phase == "statue"
    act(s, "done")
    assert s.phase == "main"
    assert "sub 1 p1WN" in legal_text(s) and "draw" in legal_text(s) and "end" in legal_text(s)


def test_a_turn_action_release_with_one_gem_ends_the_visit_by_itself():
    # R19: the phase ends by itself when no further release is possible (no gems).
    s = scenario(hands=[["p1SW", "p1FI"]], gems=[1, 3])
    act(s, "release p1SW")
    assert s.phase == "after" and s.gems[0] == 0 and "p1SW" in s.box


def test_a_release_visit_ends_after_the_third_card():
    s = scenario(hands=[["p1SW", "p1FI", "p1WA", "p1BR"]], gems=[9, 3])
    act(s, "release p1SW")
    act(s, "release p1FI")
    act(s, "release p1WA")
    assert s.phase == "after" and s.gems[0] == 6 and s.hand[0] == ["p1BR"]


def test_the_quest_chest_row_is_seen_by_everybody_and_returned_quests_go_under_the_deck():
    s = scenario(positions=("ML", "BR"), decks={"QC": ["q04", "q03", "q02", "q01"]})
    events = act(s, "draw")
    seen = view_event(events[0], 1)                        # §4: cards drawn at any statue are public
    assert seen["cards"] == ["q01", "q02", "q03"]
    act(s, "keep q03")
    act(s, "done")
    assert s.decks["QC"] == ["q02", "q01", "q04"]          # first drawn highest, under the unknown part
    assert s.observation(1)["decks"]["QC"]["bottom"] == ["q01", "q02"]


# --- R21: completing quests -------------------------------------------------------------------

def test_completing_one_open_quest_leaves_my_token_cards_on_the_other():
    s = scenario(spaces=SEVEN, open_quests=["q01", "q13"], hands=[["p1SW", "p2SW", "p1WA"]],
                 commits={(0, "q13"): ["p1FI"]})
    act(s, "complete q01 p1SW p1WA p2SW")
    assert s.commits[0] == {"q13": ["p1FI"]} and s.bonus[0] == 1
    assert s.open_q == [None, "q13"] and s.completed[0] == ["q01"]


def test_a_committed_quest_can_complete_with_an_empty_hand_part():
    s = scenario(quests=[["q01"]], commits={(0, "q01"): ["p1SW", "p2SW", "p1WA"]}, hands=[["p3SW"]])
    assert legal_text(s, "complete") == ["complete q01"]                   # p3SW would be spare
    act(s, "complete q01")
    assert s.discard[0] == ["p1SW", "p2SW", "p1WA"] and s.gems[0] == 4     # q01 rewards 1 gem


# --- R26: powers ------------------------------------------------------------------------------

def test_dragons_go_to_opponents_in_turn_order_after_the_player_while_the_supply_lasts():
    s = scenario(GAMES[4], hands=[[], ["c10"]], positions=("TL", "TL", "BR", "TL"),
                 dragon_supply=["dr5"], current=1)
    act(s, "power c10")
    assert s.discard[3] == ["dr5"] and s.discard[0] == [] and s.dragons == []


def test_a_power_card_supplies_no_symbols_that_turn():
    # c02 gives SW and has FLY: once played for FLY it sits in the play area and cannot pay.
    s = scenario(spaces=SEVEN, positions=("ML", "BR"), hands=[["c02", "p1SW"]])
    act(s, "power c02 6")                                  # ML -> TL across space 6
    assert s.play[0] == ["c02"] and s.pos[0] == 0
    assert legal_text(s, "sub") == []                      # c01 needs WN: SW alone cannot go wild


# --- R29, R34c: the end of a turn and the turn limit --------------------------------------------

def test_the_game_ends_once_max_turns_turns_are_played():
    game = load_game("fantastiqa", players=2, max_turns=2)
    s = scenario(game, phase="after")
    s.apply(("end",))
    assert not s.is_over and s.cur == 1 and s.turn_no == 2
    s.apply(("end",))
    assert s.is_over and s.result["reason"] == "turn_limit"


# --- §4: hidden information -------------------------------------------------------------------

def test_an_opponent_sees_sizes_and_the_unseen_multiset_never_my_hand_or_draw_order():
    s = scenario(hands=[["p1SW", "p1FI"]], draws=[["p1WA", "p1BR"]])
    mine, theirs = s.observation(0)["people"][0], s.observation(1)["people"][0]
    assert mine["hand"] == ["p1FI", "p1SW"] and mine["draw"] == ["p1BR", "p1WA"]
    assert "hand" not in theirs and "draw" not in theirs
    assert theirs["unseen"] == ["p1BR", "p1FI", "p1SW", "p1WA"]
    assert theirs["hand_size"] == 2 and theirs["draw_size"] == 2
    events = act(s, "end")
    drawn = [e for e in events if e["type"] == "cards_drawn" and e["player"] == 0]
    assert drawn and "cards" not in view_event(drawn[0], 1) and view_event(drawn[0], 0)["cards"]
    check_no_hidden_ids(s)
