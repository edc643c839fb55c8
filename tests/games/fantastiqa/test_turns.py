"""Setup and draft (R5-R8), replenishing and the Crow (R9-R11), powers (R24-R26), the end of a turn
(R29-R31) and the end of the game (R34-R35).

Layout: TL Forest/AT, TR Fields/BB, ML Highlands/QC, MR Hills/AT, BL Wetlands/BB, BR Frozen Wastes/QC.
"""

import random

import pytest
from contract import check_illegal_untouched
from games.fantastiqa.helpers import GAMES, SEVEN, act, check_invariants, legal_text, scenario

from coliseo import load_game
from coliseo.core.events import view_event

G = GAMES[2]






# --- setup and draft ---------------------------------------------------------------------------

def test_draft_goes_in_reverse_turn_order_quest_artifact_start():
    game = GAMES[3]
    s = game.new_state(5)
    assert s.phase == "draft" and s.current_player == 2
    assert legal_text(s) == sorted(f"quest sq{i}" for i in range(1, 10))
    act(s, "quest sq4")
    assert legal_text(s) == sorted(f"artifact sa{i}" for i in range(1, 7))
    act(s, "artifact sa2")
    assert len(legal_text(s)) == 6
    act(s, "start MR")
    assert s.current_player == 1 and "quest sq4" not in legal_text(s)
    act(s, "quest sq1")
    assert "artifact sa2" not in legal_text(s)
    act(s, "artifact sa1")
    assert "start MR" not in legal_text(s)
    act(s, "start TL")
    act(s, "quest sq2")
    act(s, "artifact sa3")
    events = act(s, "start BR")
    assert s.phase == "main" and s.current_player == 0 and s.turn == 1
    assert s.priv == [["sq2"], ["sq1"], ["sq4"]]
    assert [q for q in s.open_q if q] and len([q for q in s.open_q if q]) == 2
    assert s.bonus_supply == 10 and all(s.open_bonus)
    for p in range(3):
        assert len(s.hand[p]) == 5 and len(s.draw[p]) == 7 and s.gems[p] == 3
        assert s.carpets[p] == 3 and s.rearr[p] == 3
    assert all(c is not None for c in s.spaces)
    assert {"sa4", "sa5", "sa6"} <= set(s.box)
    assert sum(1 for e in events if e["type"] == "cards_drawn") == 3


def test_creature_deck_size_by_player_count():
    for n, size in ((2, 47), (3, 53), (4, 59)):
        s = GAMES[n].new_state(0)
        assert len(s.cdeck) == size
        assert [b for b in s.cblock] == sorted(s.cblock, reverse=True)    # section 1 on top (end)


def test_absent_seats_starting_cards_go_to_the_box_and_twelve_dragons_form_the_supply():
    s = GAMES[2].new_state(0)
    assert {"p3SW", "dog3", "dr3", "p4WN", "dog4", "dr4"} <= set(s.box)
    assert len(s.dragons) == 12 and len(s.draw[0]) == 11


def test_fixed_layout_from_the_setup():
    game = load_game("fantastiqa", players=2, layout="fixed")
    lay = {"TL": ["FRZ", "QC"], "TR": ["FOR", "AT"], "ML": ["FLD", "BB"], "MR": ["HGH", "QC"],
           "BL": ["HIL", "AT"], "BR": ["WET", "BB"]}
    s = game.new_state(3, {"layout": lay})
    assert s.regions == ["FRZ", "FOR", "FLD", "HGH", "HIL", "WET"]
    assert s.statues == ["QC", "AT", "BB", "QC", "AT", "BB"]


# --- replenish and the Crow ----------------------------------------------------------------------

def crow_scenario(game, gems):
    spaces = [None] + SEVEN[1:]
    return scenario(game, spaces=spaces, gems=gems, creature_deck=["c03", "c07", "e1"], phase="after")


@pytest.mark.parametrize("n,gems,after", [
    (2, [7, 7], [4, 4]),          # tie at the top: both lose half, rounded down
    (3, [6, 9, 9], [6, 5, 5]),
    (3, [5, 2, 1], [3, 2, 1]),    # 5 -> loses 2
    (2, [4, 4], [4, 4]),          # 4 or fewer: nobody is affected
    (4, [4, 2, 0, 3], [4, 2, 0, 3]),
])
def test_the_crow_takes_half_the_gems_of_the_richest(n, gems, after):
    s = crow_scenario(GAMES[n], gems)
    events = act(s, "end")
    crow = [e for e in events if e["type"] == "crow"]
    assert len(crow) == 1 and s.gems == after
    assert "e1" in s.box and s.spaces[0] == "c07"           # another card is drawn for the space


def test_crows_drawn_in_the_first_fill_are_shuffled_into_the_top_ten():
    game = GAMES[2]
    s = game.new_state(11)
    crow_at = s.cdeck.index("e1")
    s.cdeck.append(s.cdeck.pop(crow_at))                    # the Crow is the first card drawn
    while s.phase == "draft":
        events = s.apply(s.legal_actions()[0])
    types = [e["type"] for e in events]
    assert "crow_set_aside" in types and "crow" not in types
    assert {"type": "crow_shuffled", "count": 11} in events
    assert "e1" in s.cdeck[-11:] and s.cblock[-11:] == [0] * 11
    assert all(game.content.cards[c].kind == "creature" for c in s.spaces)
    check_invariants(s)


def test_a_crow_set_aside_in_the_first_fill_goes_back_to_the_deck_when_the_deck_runs_out():
    game = GAMES[2]
    s = scenario(game, spaces=SEVEN[:5] + [None, None], creature_deck=["e1", "c07"], phase="after",
                 first_fill=False)
    events = act(s, "end")
    assert {"type": "crow_set_aside", "card": "e1"} in events
    assert s.is_over and s.result["reason"] == "deck_out"
    assert s.cdeck == ["e1"] and "e1" not in s.box              # R3: every card in exactly one zone
    assert game.state_from_json(s.to_json()).cdeck == ["e1"]


def test_no_crow_no_reshuffle_in_the_first_fill():
    game = GAMES[2]
    s = game.new_state(11)
    s.cdeck.insert(0, s.cdeck.pop(s.cdeck.index("e1")))
    s.cblock.sort(reverse=True)
    while s.phase == "draft":
        events = s.apply(s.legal_actions()[0])
    assert not [e for e in events if e["type"].startswith("crow")]


def test_creatures_with_gems_bring_gems_onto_their_space():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=["c02", "c01"], phase="after")
    act(s, "end")
    assert s.spaces[0] == "c01" and s.sgems[0] == 1


# --- powers ------------------------------------------------------------------------------------

def test_dog_gives_a_gem_and_waits_in_the_play_area_until_the_end_of_turn():
    s = scenario(hands=[["dog1"]], gems=[3, 3])
    act(s, "power dog1")
    assert s.gems[0] == 4 and s.play[0] == ["dog1"] and s.hand[0] == []
    act(s, "end")
    assert s.play[0] == [] and "dog1" in s.discard[0] + s.hand[0] + s.draw[0]


def test_draw_power_draws_from_the_draw_pile():
    s = scenario(hands=[["c04"]], draws=[["p1SW", "p1FI"]])
    events = act(s, "power c04")
    assert s.hand[0] == ["p1FI"] and s.draw[0] == ["p1SW"]
    drawn = [e for e in events if e["type"] == "cards_drawn"][0]
    assert view_event(drawn, 0)["cards"] == ["p1FI"] and "cards" not in view_event(drawn, 1)


def test_fly_moves_without_a_carpet():
    s = scenario(spaces=SEVEN, hands=[["c02"]], carpets=[0, 3])
    assert legal_text(s, "power") == ["power c02 1", "power c02 6"]
    act(s, "power c02 6")
    assert s.pos[0] == 2 and s.carpets[0] == 0 and s.phase == "main"


def test_carpet_and_rearrange_powers_give_tokens():
    s = scenario(hands=[["c34", "c50"]], carpets=[3, 3], rearranges=[3, 3])
    act(s, "power c34")
    act(s, "power c50")
    assert s.carpets[0] == 4 and s.rearr[0] == 4


def test_key_draws_at_the_statue_as_a_free_action():
    s = scenario(hands=[["sa4"]], decks={"AT": ["a01", "a02", "a03"]}, gems=[0, 3])
    assert "power sa4 draw" in legal_text(s)
    act(s, "power sa4 draw")
    assert s.phase == "statue"
    act(s, "done")
    assert s.phase == "main" and "draw" in legal_text(s)              # the turn action is still there


def test_key_release_opens_a_release_that_may_close_at_once():
    s = scenario(hands=[["sa4", "p1SW"]], gems=[1, 3])
    act(s, "power sa4 release")
    assert s.phase == "release" and legal_text(s) == ["done", "release p1SW"]
    act(s, "done")
    assert s.phase == "main" and s.gems[0] == 1


def test_key_teleport_pays_two_gems():
    s = scenario(hands=[["sa4"]], gems=[2, 3])
    act(s, "power sa4 teleport MR")
    assert s.pos[0] == 3 and s.gems[0] == 0 and s.phase == "main"


def test_key_and_teleport_are_not_usable_in_an_adventure():
    s = scenario(spaces=SEVEN, hands=[["sa4", "a18", "p1WN"]], gems=[5, 3])
    act(s, "sub 1 p1WN")
    assert legal_text(s, "power") == []
    assert "adventure" in check_illegal_untouched(G, s, ("power", "a18", "teleport", 5))


def test_release_power_is_free_of_gems_and_returns_to_the_adventure():
    s = scenario(spaces=SEVEN, hands=[["c36", "p1WN", "p1SW"]], gems=[0, 3])
    act(s, "sub 1 p1WN")
    act(s, "power c36")
    assert s.phase == "release"
    act(s, "release p1SW")
    assert s.phase == "adventure" and s.gems[0] == 0 and "p1SW" in s.box and s.pending


def test_teleport_power_goes_anywhere_for_free():
    s = scenario(hands=[["a18"]], gems=[0, 3])
    assert len(legal_text(s, "power")) == 5
    act(s, "power a18 BL")
    assert s.pos[0] == 4


def test_dragon_sends_supply_dragons_to_opponents_on_your_region_lowest_id_first():
    s = scenario(GAMES[3], hands=[["c10"]], positions=("TL", "BR", "TL"), dragon_supply=["dr5", "dr10"])
    act(s, "power c10")
    assert s.discard[2] == ["dr10"] and s.dragons == ["dr5"] and s.discard[1] == []


def test_dragon_needs_an_opponent_on_your_region():
    s = scenario(hands=[["c10"]], positions=("TL", "BR"))
    assert legal_text(s, "power") == []


def test_peaceful_dragon_gifts_itself_to_an_opponent_on_your_region():
    s = scenario(hands=[["dr1"]], positions=("TL", "TL"))
    assert legal_text(s, "power") == ["power dr1 P2"]
    act(s, "power dr1 P2")
    assert s.discard[1] == ["dr1"] and s.play[0] == []


def test_rearrange_shuffles_discard_into_the_draw_pile():
    s = scenario(discards=[["p1SW", "p1FI"]], draws=[["p1WA"]], rearranges=[1, 3])
    act(s, "rearrange")
    assert sorted(s.draw[0]) == ["p1FI", "p1SW", "p1WA"] and s.discard[0] == [] and s.rearr[0] == 0
    assert "rearrange" not in legal_text(s)


def test_rearrange_new_hand_variant():
    game = load_game("fantastiqa", players=2, rearrange_effect="new_hand")
    s = scenario(game, hands=[["p1SW", "p1FI"]], draws=[["p1WA", "p1BR", "p1FA"]], rearranges=[1, 3])
    s.apply(("rearrange",))
    assert sorted(s.hand[0]) == ["p1BR", "p1FA"] and s.discard[0] == ["p1FI", "p1SW"]


def test_discard_is_free():
    s = scenario(hands=[["p1SW"]])
    act(s, "discard p1SW")
    assert s.discard[0] == ["p1SW"] and s.phase == "main"


# --- end of turn ------------------------------------------------------------------------------

def test_end_refills_the_hand_to_five_reshuffling_the_discard():
    s = scenario(hands=[["p1SW", "dog1"]], draws=[["p1FI"]], discards=[["p1WA", "p1BR", "p1FA"]], gems=[3, 3])
    act(s, "power dog1")
    events = act(s, "end")
    types = [e["type"] for e in events]
    assert types.index("reshuffle") < types.index("end_turn")
    assert len(s.hand[0]) == 5 and len(s.draw[0]) == 1 and s.discard[0] == []
    assert "dog1" in s.hand[0] + s.draw[0]                           # the play area went to the discard first
    assert s.current_player == 1 and s.turn == 2 and s.spy == 0


def test_a_hand_of_five_or_more_draws_nothing():
    s = scenario(hands=[["p1SW", "p1FI", "p1WA", "p1BR", "p1FA", "p1NE"]], draws=[["p1HE"]])
    act(s, "end")
    assert len(s.hand[0]) == 6 and s.draw[0] == ["p1HE"]


def test_drawing_stops_when_draw_and_discard_are_empty():
    s = scenario(hands=[["p1SW"]])
    act(s, "end")
    assert s.hand[0] == ["p1SW"]


def test_nobody_acts_out_of_turn():
    s = scenario(hands=[["p1SW"], ["p2SW"]])
    check_illegal_untouched(G, s, ("discard", "p2SW"))


# --- the end of the game ---------------------------------------------------------------------

def test_creature_deck_running_out_ends_the_game_highest_score_wins():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", quests=[["q01"]], gems=[3, 3])
    events = act(s, "end")
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "deck_out"
    assert s.result == {"winners": [1], "reason": "deck_out", "scores": [-2, 0]}
    assert s.legal_actions() == []


def test_ties_break_on_gems_then_completed_quests_then_are_shared():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", gems=[3, 4])
    act(s, "end")
    assert s.result["winners"] == [1]
    assert s.game.result_detail(s.observation(0)) == "Tied at 0 points: the most gems wins (Player 1 3, Player 2 4)."
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", gems=[4, 4])
    act(s, "end")
    assert s.result["winners"] == [0, 1]
    assert s.game.result_detail(s.observation(None), "es") == ("Empate a 0 puntos, en gemas y en misiones "
                                                               "completadas: la victoria se comparte.")


def test_completed_quests_break_a_tie_on_score_and_gems():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", gems=[4, 4],
                 completed=[["sq1", "sq2"], ["q01"]])
    act(s, "end")
    assert s.result["scores"] == [2, 2] and s.result["winners"] == [0]
    assert s.game.result_detail(s.observation(1)) == ("Tied at 2 points and on gems: the most completed quests wins "
                                                      "(Player 1 2, Player 2 1).")


def test_three_tied_on_points_with_two_tied_on_gems_go_on_to_completed_quests():
    """R35 narrows the tie step by step: the two top gem holders of three are decided by completed quests."""
    s = scenario(GAMES[3], spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", gems=[4, 4, 2],
                 completed=[["q01"], ["sq1", "sq2"], ["sq3", "sq4"]])
    act(s, "end")
    assert len(set(s.result["scores"])) == 1 and s.result["winners"] == [1]
    score = s.result["scores"][0]
    assert s.game.result_detail(s.observation(None)) == (
        f"Tied at {score} points: the most gems wins (Player 1 4, Player 2 4, Player 3 2). "
        "Tied again on gems: the most completed quests wins (Player 1 1, Player 2 2).")
    s = scenario(GAMES[3], spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", gems=[4, 4, 2],
                 completed=[["sq1", "sq2"], ["sq3", "sq4"], ["q01"]])
    act(s, "end")
    assert s.result["winners"] == [0, 1]
    assert s.game.result_detail(s.observation(2)).endswith(
        "(Player 1 4, Player 2 4, Player 3 2). Those still tied, on gems and on completed quests, share the win.")


def test_a_win_on_points_alone_needs_no_detail():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after", quests=[["q01"]], gems=[3, 3])
    act(s, "end")
    assert s.result["scores"] == [-2, 0] and s.game.result_detail(s.observation(0)) is None


def test_the_turn_limit_ends_the_game():
    game = load_game("fantastiqa", players=2, max_turns=1)
    s = scenario(game, phase="after")
    s.apply(("end",))
    assert s.is_over and s.result["reason"] == "turn_limit"


def test_a_finished_game_refuses_every_action():
    s = scenario(spaces=[None] + SEVEN[1:], creature_deck=[], phase="after")
    act(s, "end")
    from coliseo.core.errors import IllegalAction
    with pytest.raises(IllegalAction):
        s.apply(("end",))


def test_every_seed_plays_the_same_twice():
    game = load_game("fantastiqa", players=4, max_turns=20)
    for seed in range(3):
        runs = []
        for _ in range(2):
            s, rng, log = game.new_state(seed), random.Random(seed), []
            while not s.is_over:
                log.append(s.apply(rng.choice(s.legal_actions())))
            runs.append((log, s.to_json()))
        assert runs[0] == runs[1]


def test_spaces_filled_before_the_deck_runs_out_stay_filled():
    s = scenario(spaces=[None, None] + SEVEN[2:], creature_deck=["c01"], phase="after")
    events = act(s, "end")
    assert s.spaces[0] == "c01" and s.spaces[1] is None
    assert s.is_over and s.result["reason"] == "deck_out"
    assert [e["type"] for e in events][-2:] == ["creature_revealed", "game_over"]


def test_an_open_quest_gets_no_token_when_the_supply_is_empty():
    s = scenario(open_quests=[None, "q02"], decks={"QC": ["q20"]}, phase="after", bonus=[11, 0], bonus_supply=0)
    assert s.bonus_supply == 0
    act(s, "end")
    assert s.open_q == ["q20", "q02"] and s.open_bonus == [False, True]


def test_an_empty_quest_deck_leaves_the_slot_empty():
    s = scenario(open_quests=[None, "q02"], decks={"QC": []}, phase="after")
    act(s, "end")
    assert s.open_q == [None, "q02"] and not s.is_over


def test_statue_cards_are_revealed_to_everybody():
    s = scenario(decks={"AT": ["a05", "a01", "a13"]})
    events = s.apply(("draw",))
    assert "private" not in events[0]
    assert s.observation(1)["row"] == ["a13", "a01", "a05"] == s.observation(None)["row"]


@pytest.mark.parametrize("n,length,goal", [(2, "short", 9), (2, "standard", 11), (2, "long", 13),
                                           (3, "short", 7), (3, "standard", 9), (3, "long", 11),
                                           (4, "short", 7), (4, "standard", 7), (4, "long", 9)])
def test_quest_goal_by_player_count_and_length(n, length, goal):
    assert load_game("fantastiqa", players=n, goal_length=length).new_state(0).goal == goal


def test_an_explicit_goal_overrides_the_length():
    assert load_game("fantastiqa", players=2, goal=4).new_state(0).goal == 4


def test_simplified_boxes_the_crows_drops_the_penalty_and_sets_goal_seven():
    game = load_game("fantastiqa", players=2, simplified=True)
    s = game.new_state(0)
    assert {"e1", "e2", "e3"} <= set(s.box) and not {"e1", "e2", "e3"} & set(s.cdeck)
    assert s.goal == 7 and not game.quest_penalty


def test_starting_gems_option():
    s = load_game("fantastiqa", players=3, starting_gems=5).new_state(0)
    assert s.gems == [5, 5, 5]


def test_draw_power_needs_a_card_to_draw():
    s = scenario(hands=[["c04"]])
    assert legal_text(s, "power") == []


def test_release_power_needs_another_card():
    s = scenario(hands=[["c36"]])
    assert legal_text(s, "power") == []


def test_spy_also_widens_a_quest_chest_draw():
    s = scenario(positions=("ML", "BR"), hands=[["c32"]], decks={"QC": ["q01", "q02", "q03", "q04", "q05", "q06"]})
    act(s, "power c32")                     # SPY 2
    act(s, "draw")
    assert s.row == ["q06", "q05", "q04", "q03", "q02"]
