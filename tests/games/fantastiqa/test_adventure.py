"""Go Adventuring (R13-R16) and paying vulnerabilities (R14), as the rulebook tells them.

Layout of every scenario: TL Forest/AT, TR Fields/BB, ML Highlands/QC, MR Hills/AT, BL Wetlands/BB,
BR Frozen Wastes/QC. Spaces: 1 TL-TR, 2 TR-MR, 3 MR-BR, 4 BR-BL, 5 BL-ML, 6 ML-TL, 7 ML-MR.
"""

from contract import check_illegal_untouched
from games.fantastiqa.helpers import GAMES, SEVEN, act, scenario

from coliseo import load_game
from coliseo.games.fantastiqa.game import _payments

G = GAMES[2]




def subs(s, space):
    return sorted(s.game.format_action(a) for a in s.legal_actions() if a[0] == "sub" and a[1] == space)




def test_subdue_with_the_exact_symbol_moves_across_and_leaves_the_creature_pending():
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1WN", "p1SW", "p1FI"]])
    assert subs(s, 1) == ["sub 1 p1WN"]
    events = act(s, "sub 1 p1WN")
    assert events == [{"type": "subdue", "player": 0, "space": 1, "card": "c01", "cards": ["p1WN"], "pos": 1,
                       "region": "FLD"}]
    assert s.phase == "adventure" and s.pos[0] == 1 and s.pending == [(1, ("p1WN",))]
    assert s.spaces[0] == "c01" and s.sgems[0] == 1 and s.gems[0] == 3   # gems only at stop
    assert s.hand[0] == ["p1SW", "p1FI"]


def test_stop_recruits_payment_then_creature_to_the_discard_and_gains_the_gems():
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1WN", "p1BR"]])
    act(s, "sub 1 p1WN")
    act(s, "sub 2 p1BR")                      # TR -> MR across space 2 (c09, vulnerable to BR)
    events = act(s, "stop")
    assert events[-1] == {"type": "recruit", "player": 0, "cards": ["c01", "c09"], "gems": 2}
    assert s.discard[0] == ["p1WN", "c01", "p1BR", "c09"]
    assert s.gems[0] == 5 and s.spaces[0] is None and s.spaces[1] is None
    assert s.phase == "after" and s.pos[0] == 3


def test_a_double_card_pays_a_single_vulnerability_with_surplus():
    s = scenario(spaces=SEVEN, hands=[["c35"]])                 # c35 gives WN WN; c01 needs WN
    assert subs(s, 1) == ["sub 1 c35"]


def test_a_double_card_counts_two_units():
    s = scenario(spaces=["c19"] + SEVEN[1:], hands=[["c35", "p1WN", "c17"]])   # c19 needs WN WN
    assert subs(s, 1) == ["sub 1 c17 p1WN", "sub 1 c35"]


def test_two_identical_symbols_go_wild_for_any_one_symbol():
    s = scenario(spaces=SEVEN, hands=[["p1SW", "c02", "p1FI"]])   # SW + SW stand in for WN
    assert subs(s, 1) == ["sub 1 c02 p1SW"]
    act(s, "sub 1 c02 p1SW")
    assert s.pos[0] == 1


def test_a_double_card_of_another_symbol_alone_goes_wild():
    s = scenario(spaces=SEVEN, hands=[["c19"]])                 # SW SW on one card = one wild
    assert subs(s, 1) == ["sub 1 c19"]


def test_half_a_double_plus_a_single_make_a_wild_pair():
    # vulnerability SW WN; SW SW double + SW single: one unit matches SW, the other two go wild for WN
    sw, wn = 0, 8
    sig = ((sw, 2, 0), (sw, 1, 0))
    assert _payments((sw, wn), sig) == [(0, 1)]
    assert _payments((sw, wn), ((sw, 2, 0),)) == []


def test_a_wild_artifact_pays_one_symbol_of_any_kind():
    s = scenario(spaces=SEVEN, hands=[["sa3", "p1SW"]])
    assert subs(s, 1) == ["sub 1 sa3"]
    assert not any(a[0] == "power" and a[1] == "sa3" for a in s.legal_actions())   # WILD is not a power


def test_payments_must_be_minimal():
    s = scenario(spaces=SEVEN, hands=[["p1WN", "p1SW"]])
    msg = check_illegal_untouched(G, s, ("sub", 1, ("p1SW", "p1WN"), (0, 1)))
    assert "spare" in msg or "pay" in msg


def test_too_few_symbols_cannot_subdue():
    s = scenario(spaces=SEVEN, hands=[["p1SW", "p1HE"]])
    assert subs(s, 1) == [] and subs(s, 6) == []             # c01 needs WN, c05 (space 6) needs FI
    check_illegal_untouched(G, s, ("sub", 1, ("p1SW",), (0,)))


def test_no_diagonal_moves_only_spaces_touching_the_region():
    s = scenario(spaces=SEVEN, positions=("TL", "BR"), hands=[["p1HE", "p1FA"]])
    assert subs(s, 3) == [] and subs(s, 4) == []
    msg = check_illegal_untouched(G, s, ("sub", 4, ("p1HE",), (0,)))
    assert "diagonal" in msg


def test_an_adventure_travels_in_one_line_without_going_back():
    spaces = ["c01", "c09", "c11", "c15", "c17", "c05", "c13"]
    s = scenario(spaces=spaces, positions=("TL", "BR"), hands=[["p1WN", "p1BR", "p1NE", "p1FI", "p1CL"]])
    act(s, "sub 1 p1WN")                   # TL -> TR
    act(s, "sub 2 p1BR")                   # TR -> MR
    act(s, "sub 7 p1NE")                   # MR -> ML across the centre (c13 needs NE)
    assert s.route == [0, 1, 3, 2]
    assert subs(s, 6) == []                # ML -> TL would revisit TL
    assert subs(s, 5) == ["sub 5 p1CL"]    # ML -> BL is a new Region
    act(s, "sub 5 p1CL")
    assert s.route == [0, 1, 3, 2, 4] and len(s.pending) == 4


def test_no_revisit_forbids_returning_but_allows_new_regions():
    spaces = ["c01", "c09", "c11", "c15", "c17", "c05", "c13"]
    s = scenario(spaces=spaces, positions=("TL", "BR"), hands=[["p1WN", "p1BR", "p1NE", "p1FI", "p1CL"]])
    act(s, "sub 1 p1WN")
    act(s, "sub 2 p1BR")
    act(s, "sub 7 p1NE")
    assert [a for a in s.legal_actions() if a[0] == "sub"] == [("sub", 5, ("p1CL",), (0,))]
    assert "no going back" in check_illegal_untouched(G, s, ("sub", 6, ("p1FI",), (1,)))


def test_no_repeat_path_variant_allows_a_region_twice_but_not_a_path():
    game = load_game("fantastiqa", players=2, route_rule="no_repeat_path")
    spaces = ["c01", "c09", "c11", "c15", "c17", "c05", "c13"]
    s = scenario(game, spaces=spaces, positions=("TL", "BR"), hands=[["p1WN", "p1BR", "p1NE", "p1FI"]])
    for text in ("sub 1 p1WN", "sub 2 p1BR", "sub 7 p1NE"):
        s.apply(game.parse_action(s, text))
    assert ("sub", 6, ("p1FI",), (0,)) in s.legal_actions()      # back to TL by a new path
    s.apply(("sub", 6, ("p1FI",), (0,)))
    assert s.route == [0, 1, 3, 2, 0]


def test_a_pending_creature_cannot_be_subdued_again():
    spaces = ["c01", "c09", "c11", "c15", "c17", "c05", "c13"]
    game = load_game("fantastiqa", players=2, route_rule="no_repeat_path")
    s = scenario(game, spaces=spaces, positions=("TL", "BR"), hands=[["p1WN", "p2WN"]])
    s.apply(game.parse_action(s, "sub 1 p1WN"))
    assert not [a for a in s.legal_actions() if a[0] == "sub"]


def test_in_an_adventure_only_sub_free_actions_and_stop_are_legal():
    s = scenario(spaces=SEVEN, hands=[["p1WN", "p1SW"]])
    act(s, "sub 1 p1WN")
    kinds = {a[0] for a in s.legal_actions()}
    assert "end" not in kinds and "draw" not in kinds and "complete" not in kinds and "stop" in kinds
    assert "stop" in check_illegal_untouched(G, s, ("end",))


def test_stop_is_only_legal_in_an_adventure():
    s = scenario(spaces=SEVEN, hands=[["p1WN"]])
    check_illegal_untouched(G, s, ("stop",))


def test_carpet_crosses_an_occupied_space_without_subduing_and_extends_the_route():
    s = scenario(spaces=SEVEN, hands=[["p1WN"]], carpets=[2, 3])
    act(s, "carpet 6")                       # outside an adventure: any adjacent Region
    assert s.pos[0] == 2 and s.carpets[0] == 1 and s.spaces[5] == "c05" and s.phase == "main"
    s = scenario(spaces=SEVEN, hands=[["p1WN"]], carpets=[2, 3])
    act(s, "sub 1 p1WN")
    act(s, "carpet 2")                       # TR -> MR, on the route
    assert s.route == [0, 1, 3] and s.spaces[1] == "c09"
    assert ("carpet", 2) not in s.legal_actions()   # back to TR: revisit
    act(s, "stop")
    assert s.discard[0] == ["p1WN", "c01"]


def test_no_carpet_without_a_carpet_token():
    s = scenario(spaces=SEVEN, hands=[["p1WN"]], carpets=[0, 3])
    assert "Carpet" in check_illegal_untouched(G, s, ("carpet", 1))
