"""Visit a Statue (R17-R20), Complete a Quest (R21-R22), committing (R27-R28).

Layout: TL Forest/AT, TR Fields/BB, ML Highlands/QC, MR Hills/AT, BL Wetlands/BB, BR Frozen Wastes/QC.
"""

from contract import check_illegal_untouched
from games.fantastiqa.helpers import GAMES, act, legal_text, scenario

from coliseo import load_game

G = GAMES[2]






# --- Artifact Tower / Beast Bazaar -------------------------------------------------------------

def test_artifact_tower_reveals_three_and_buys_what_the_gems_afford():
    s = scenario(decks={"AT": ["a05", "a01", "a13"]}, hands=[["p1SW"]], gems=[3, 3])
    events = act(s, "draw")
    assert events == [{"type": "statue_draw", "player": 0, "statue": "AT", "cards": ["a13", "a01", "a05"]}]
    assert s.phase == "statue"
    assert legal_text(s) == ["buy a01", "buy a13", "done"]             # a05 costs 5
    act(s, "buy a01")
    assert s.gems[0] == 1 and s.discard[0] == ["a01"]
    assert legal_text(s) == ["buy a13", "done"]
    events = act(s, "done")
    assert events[-1]["cards"] == ["a13", "a05"]
    assert s.decks["AT"] == ["a05", "a13"] and s.known["AT"] == 2       # under the deck, first drawn highest
    assert s.phase == "after"
    obs = s.observation(1)
    assert obs["decks"]["AT"]["bottom"] == ["a13", "a05"]


def test_beast_bazaar_sells_beasts_to_the_discard_pile():
    s = scenario(positions=("TR", "BR"), decks={"BB": ["b02", "b01"]}, gems=[4, 3])
    act(s, "draw")
    assert s.row == ["b01", "b02"]                  # fewer than three left: all of them
    act(s, "buy b02")
    assert s.gems[0] == 0 and s.discard[0] == ["b02"]
    assert legal_text(s) == ["done"]


def test_spy_adds_cards_to_a_statue_draw():
    s = scenario(decks={"AT": ["a01", "a02", "a03", "a04", "a05"]}, hands=[["c06"]])
    act(s, "power c06")
    assert s.spy == 1
    act(s, "draw")
    assert len(s.row) == 4


def test_no_statue_draw_from_an_empty_deck():
    s = scenario(decks={"AT": []})
    assert "draw" not in legal_text(s)
    check_illegal_untouched(G, s, ("draw",))


# --- Quest Chest -------------------------------------------------------------------------------

def test_quest_chest_keeps_at_least_one_quest():
    s = scenario(positions=("ML", "BR"), decks={"QC": ["q04", "q03", "q02", "q01"]})
    act(s, "draw")
    assert s.row == ["q01", "q02", "q03"]
    assert legal_text(s) == ["keep q01", "keep q02", "keep q03"]      # done only after a keep
    act(s, "keep q02")
    assert legal_text(s) == ["done", "keep q01", "keep q03"]
    act(s, "done")
    assert s.priv[0] == ["q02"] and s.decks["QC"] == ["q03", "q01", "q04"]


def test_quest_chest_stops_at_three_held_quests():
    s = scenario(positions=("ML", "BR"), quests=[["q10", "q11"]], decks={"QC": ["q04", "q03", "q02", "q01"]})
    act(s, "draw")
    act(s, "keep q03")
    assert legal_text(s) == ["done"]


def test_no_quest_chest_draw_while_holding_three_quests():
    s = scenario(positions=("ML", "BR"), quests=[["q10", "q11", "q12"]])
    assert "draw" not in legal_text(s)


# --- release and teleport ----------------------------------------------------------------------

def test_release_pays_a_gem_per_card_and_ends_when_the_gems_run_out():
    s = scenario(hands=[["p1SW", "p1FI"]], discards=[["p1WA"]], gems=[2, 3])
    act(s, "release p1SW")
    assert s.phase == "release" and s.gems[0] == 1 and "p1SW" in s.box
    assert legal_text(s) == ["done", "release p1FI", "release p1WA"]
    act(s, "release p1WA")
    assert s.gems[0] == 0 and s.phase == "after"                    # no gem left: the visit ends


def test_release_at_most_three_cards_per_visit():
    s = scenario(hands=[["p1SW", "p1FI", "p1WA", "p1BR"]], gems=[9, 3])
    for c in ("p1SW", "p1FI", "p1WA"):
        act(s, f"release {c}")
    assert s.phase == "after" and s.gems[0] == 6 and s.hand[0] == ["p1BR"]


def test_release_needs_a_gem():
    s = scenario(hands=[["p1SW"]], gems=[0, 3])
    assert "release p1SW" not in legal_text(s)
    assert "gem" in check_illegal_untouched(G, s, ("release", "p1SW"))


def test_teleport_costs_two_gems_and_needs_the_same_statue():
    s = scenario(gems=[2, 3])                  # TL is an Artifact Tower; MR is the other one
    assert legal_text(s, "teleport") == ["teleport MR"]
    act(s, "teleport MR")
    assert s.pos[0] == 3 and s.gems[0] == 0 and s.phase == "after"
    s = scenario(gems=[1, 3])
    assert legal_text(s, "teleport") == []


def test_only_one_turn_action_per_turn():
    s = scenario(gems=[5, 3], hands=[["p1SW"]])
    act(s, "teleport MR")
    assert not {"draw", "teleport", "release", "sub", "complete"} & {a[0] for a in s.legal_actions()}
    assert "turn action" in check_illegal_untouched(G, s, ("draw",))


# --- completing quests -------------------------------------------------------------------------

def test_complete_a_private_quest_on_its_region():
    # q01: Forest, SW2 WA1, 2 points, reward 1 gem. Player 1 stands on TL = Forest.
    s = scenario(quests=[["q01"]], hands=[["p1SW", "p2SW", "p1WA", "p1FI"]], gems=[3, 3])
    assert legal_text(s, "complete") == ["complete q01 p1SW p1WA p2SW"]
    events = act(s, "complete q01 p1SW p2SW p1WA")
    assert events[-1]["type"] == "complete" and events[-1]["points"] == 2
    assert s.completed[0] == ["q01"] and s.priv[0] == [] and s.gems[0] == 4
    assert s.discard[0] == ["p1SW", "p1WA", "p2SW"] and s.score(0) == 2 and s.phase == "after"


def test_no_quest_completion_outside_its_region():
    s = scenario(positions=("TR", "BR"), quests=[["q01"]], hands=[["p1SW", "p2SW", "p1WA"]])
    assert legal_text(s, "complete") == []
    msg = check_illegal_untouched(G, s, G._parse_action_text(s, "complete q01 p1SW p2SW p1WA"))
    assert "Region" in msg


def test_wild_pairs_never_pay_quests():
    s = scenario(quests=[["q01"]], hands=[["p1SW", "p2SW", "p1FI", "p2FI", "sa3"]])
    assert legal_text(s, "complete") == []


def test_double_cards_give_two_units_to_a_quest():
    s = scenario(quests=[["q01"]], hands=[["c19", "p1WA", "p1SW"]])       # c19 = SW SW
    assert legal_text(s, "complete") == ["complete q01 c19 p1WA"]


def test_committed_cards_count_toward_the_quest_and_go_to_the_discard():
    s = scenario(quests=[["q01"]], hands=[["p1SW", "p2SW", "p1WA"]])
    act(s, "commit p1SW q01")
    act(s, "commit p1WA q01")
    assert s.commits[0] == {"q01": ["p1SW", "p1WA"]}
    assert legal_text(s, "complete") == ["complete q01 p2SW"]
    act(s, "complete q01 p2SW")
    assert s.discard[0] == ["p1SW", "p1WA", "p2SW"] and s.commits[0] == {}


def test_commit_only_symbols_the_quest_still_needs():
    s = scenario(quests=[["q01"]], hands=[["p1SW", "p2SW", "c19", "p1FI", "p1WA"]])
    assert legal_text(s, "commit") == ["commit c19 q01", "commit p1SW q01", "commit p1WA q01", "commit p2SW q01"]
    act(s, "commit p1SW q01")
    act(s, "commit c19 q01")                     # 1 < 2 SW committed: a double may overshoot by one
    assert "commit p2SW q01" not in legal_text(s, "commit")
    check_illegal_untouched(G, s, ("commit", "p1FI", "q01"))


def test_withdraw_returns_a_committed_card_to_the_discard():
    s = scenario(quests=[["q01"]], hands=[["p1SW"]])
    act(s, "commit p1SW q01")
    act(s, "withdraw p1SW")
    assert s.commits[0] == {} and s.discard[0] == ["p1SW"]


def test_open_quest_uses_the_quest_token_one_open_quest_at_a_time():
    s = scenario(open_quests=["q01", "q02"], hands=[["p1SW", "p1FA"]])
    assert legal_text(s, "commit") == ["commit p1FA q02", "commit p1SW q01"]
    act(s, "commit p1SW q01")
    assert s.token_quest(0) == "q01"
    assert "commit p1FA q02" not in legal_text(s, "commit")
    act(s, "withdraw p1SW")
    assert s.token_quest(0) is None and "commit p1FA q02" in legal_text(s, "commit")


def test_completing_an_open_quest_takes_its_bonus_and_returns_rival_commits():
    s = scenario(open_quests=["q01", "q02"], hands=[["p1SW", "p2SW", "p1WA"]],
                 commits={(1, "q01"): ["c19"]}, gems=[3, 3])
    act(s, "complete q01 p1SW p2SW p1WA")
    assert s.bonus[0] == 1 and s.score(0) == 3 and s.open_q == [None, "q02"]
    assert s.commits[1] == {} and s.discard[1] == ["c19"] and s.token_quest(1) is None


def test_open_slot_refills_at_the_next_replenish():
    s = scenario(open_quests=["q01", "q02"], hands=[["p1SW", "p2SW", "p1WA"]], decks={"QC": ["q20", "q21"]})
    supply = s.bonus_supply
    act(s, "complete q01 p1SW p2SW p1WA")
    act(s, "end")
    assert s.open_q == ["q21", "q02"] and s.open_bonus[0] and s.bonus_supply == supply - 1


def test_reaching_the_goal_wins_at_once():
    game = load_game("fantastiqa", players=2, goal=2)
    s = scenario(game, quests=[["q01"]], hands=[["p1SW", "p2SW", "p1WA"]])
    events = s.apply(game.parse_action(s, "complete q01 p1SW p2SW p1WA"))
    assert events[-1] == {"type": "game_over", "winners": [0], "reason": "goal_reached", "scores": [2, 0]}
    assert s.is_over and s.legal_actions() == [] and s.current_player is None


def test_held_quests_subtract_points_unless_the_penalty_is_off():
    s = scenario(quests=[["q01", "q06"]])
    assert s.score(0) == -7
    game = load_game("fantastiqa", players=2, quest_penalty=False)
    assert scenario(game, quests=[["q01", "q06"]]).score(0) == 0


def test_gross_goal_check_ignores_held_quests():
    game = load_game("fantastiqa", players=2, goal=2, goal_check="gross")
    s = scenario(game, quests=[["q01", "q06"]], hands=[["p1SW", "p2SW", "p1WA"]])
    s.apply(game.parse_action(s, "complete q01 p1SW p2SW p1WA"))
    assert s.is_over and s.result["winners"] == [0] and s.result["scores"][0] == -3
