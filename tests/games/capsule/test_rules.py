"""Scenario tests for every rule of capsule.md: a position, an action, the expected events and position."""

import pytest
from contract import check_illegal_untouched
from games.capsule.helpers import GAME, act, at, kings, legal_texts, piece, position, types

from coliseo import IllegalAction, SetupError, load_game
from coliseo.core.i18n import render_event

# --- turn structure (R11–R14) ---------------------------------------------------------------------


def test_turn_start_gives_the_kings_action_points_for_the_mode():
    assert GAME.new_state(1).ap == 6                                       # dawn_king basic
    advanced = load_game("capsule", mode="advanced")
    assert advanced.new_state(1).ap == 10


def test_the_first_turn_penalty_takes_action_points_from_turn_one_only():
    game = load_game("capsule", mode="advanced", first_turn_ap_penalty=3, double_pass_ends=False)
    s = game.new_state(1)
    assert (s.turn, s.current_player, s.ap) == (1, 0, 7)                     # dawn_king advanced: 10 − 3
    act(s, "end")
    assert (s.turn, s.current_player, s.ap) == (2, 1, 10)                    # the second player: all 10
    act(s, "end")
    assert (s.turn, s.current_player, s.ap) == (3, 0, 10)


def test_the_first_turn_penalty_follows_whoever_moves_first_and_never_goes_below_zero():
    game = load_game("capsule", first_player="random", first_turn_ap_penalty=99, auto_end_turn=False)
    states = [game.new_state(seed) for seed in range(8)]
    assert {s.current_player for s in states} == {0, 1}
    assert all(s.ap == 0 and s.legal_actions() == [(0,)] for s in states)


def test_the_second_player_bonus_adds_action_points_to_turn_two_only():
    game = load_game("capsule", second_player_ap_bonus=1, double_pass_ends=False)
    s = game.new_state(1)
    assert (s.turn, s.current_player, s.ap) == (1, 0, 6)                     # dawn_king basic: all 6
    act(s, "end")
    assert (s.turn, s.current_player, s.ap) == (2, 1, 7)                     # the second player: 6 + 1
    act(s, "end")
    assert (s.turn, s.current_player, s.ap) == (3, 0, 6)
    act(s, "end")
    assert (s.turn, s.current_player, s.ap) == (4, 1, 6)
    with pytest.raises(SetupError, match="second_player_ap_bonus"):
        load_game("capsule", second_player_ap_bonus=-1)


def test_without_the_first_turn_penalty_turn_one_has_the_kings_full_points():
    assert load_game("capsule").options["first_turn_ap_penalty"] == 0
    assert load_game("capsule", mode="advanced").new_state(1).ap == 10
    with pytest.raises(SetupError, match="first_turn_ap_penalty"):
        load_game("capsule", first_turn_ap_penalty=-1)


def test_unused_action_points_are_lost_and_the_opponent_gets_their_own():
    s = position(kings() + [piece("a1", 0, "dawnblade_knight"), piece("a8", 1, "shade_lancer")])
    events = act(s, "end")
    assert types(events) == ["turn_end", "turn_start"]
    assert s.current_player == 1 and s.ap == 6 and s.turn == 2


def test_each_piece_moves_and_attacks_once_per_turn_in_any_order():
    s = position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "shade_lancer"),
                            piece("h8", 1, "night_wisp")], ap=6)
    act(s, "c3xc4")
    assert "c3xc4" not in legal_texts(s)
    act(s, "d1-e2")
    act(s, "c3-b3")
    assert not any(t.startswith("c3") or t.startswith("b3") for t in legal_texts(s))


def test_markers_are_cleared_when_the_turn_ends():
    s = position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("h8", 1, "night_wisp")], ap=6,
                 game=load_game("capsule", auto_end_turn=False))
    act(s, "c3-c4")
    act(s, "end")
    assert at(s, "c4")["moved"] is False


def test_turn_ends_by_itself_when_only_end_is_left():
    s = position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("h8", 1, "night_wisp")], ap=1)
    events = act(s, "c3-c4")
    assert {"type": "turn_end", "player": 0, "reason": "no_actions"} in events
    assert s.current_player == 1


def test_the_log_tells_a_turn_ended_by_choice_from_one_that_ended_by_itself():
    chosen = act(position(kings() + [piece("a1", 0, "dawnblade_knight"), piece("a8", 1, "shade_lancer")]), "end")
    by_itself = act(position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("h8", 1, "night_wisp")], ap=1),
                    "c3-c4")
    said = {lang: [render_event(GAME, e, lang) for e in (*chosen, *by_itself) if e["type"] == "turn_end"]
            for lang in ("en", "es")}
    assert said == {"en": ["Player 1 ends the turn", "Player 1's turn ends: nothing left to do"],
                    "es": ["Jugador 1 termina el turno", "El turno de Jugador 1 termina: no le queda nada por hacer"]}


def test_without_auto_end_the_player_must_end_the_turn():
    game = load_game("capsule", auto_end_turn=False)
    s = position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("h8", 1, "night_wisp")], ap=1, game=game)
    act(s, "c3-c4")
    assert s.current_player == 0 and s.legal_actions() == [(0,)]


def test_auto_end_with_no_way_to_stop_is_a_setup_error():
    with pytest.raises(SetupError, match="D29"):
        load_game("capsule", double_pass_ends=False, max_turns=0)


def test_an_action_costing_more_than_the_remaining_points_is_refused():
    s = position(kings() + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "shade_lancer")], ap=1)
    message = check_illegal_untouched(GAME, s, (3, s.game.board.parse("c3"), s.game.board.parse("c4")))
    assert "costs 2 AP" in message


# --- summon (R15, R27) ----------------------------------------------------------------------------


def test_summon_opens_the_capsule_and_reveals_the_monster():
    s = position(kings() + [piece("c1", 0, "prism_archer", kind="capsule"), piece("h8", 1, "night_wisp")])
    assert "card" not in next(p for p in s.observation(1)["pieces"] if p["sq"] == "c1")
    events = act(s, "S c1")
    assert events[0] == {"type": "summon", "player": 0, "sq": "c1", "card": "prism_archer"}
    assert s.ap == 2
    assert next(p for p in s.observation(1)["pieces"] if p["sq"] == "c1")["card"] == "prism_archer"


def test_a_summoned_monster_can_move_and_attack_the_same_turn():
    s = position(kings() + [piece("c1", 0, "spark_hound", kind="capsule"), piece("c2", 1, "night_wisp")], ap=6)
    act(s, "S c1")
    assert "c1xc2" in legal_texts(s)


def test_capsule_damage_carries_onto_the_summoned_monster():
    s = position(kings() + [piece("c1", 0, "prism_archer", kind="capsule", damage=1), piece("h8", 1, "night_wisp")])
    act(s, "S c1")
    assert at(s, "c1")["damage"] == 1


def test_capsule_damage_is_discarded_when_the_option_is_off():
    game = load_game("capsule", capsule_damage_carries=False)
    s = position(kings() + [piece("c1", 0, "prism_archer", kind="capsule", damage=1),
                            piece("h8", 1, "night_wisp")], game=game)
    act(s, "S c1")
    assert at(s, "c1")["damage"] == 0


def test_a_summon_whose_carried_damage_reaches_its_hp_destroys_it_at_once():
    game = load_game("capsule", capsule_hp=5)
    s = position(kings() + [piece("c1", 0, "grave_rat", kind="capsule", damage=2), piece("b1", 0, "volt_mite"),
                            piece("h8", 1, "night_wisp")], game=game)
    events = act(s, "S c1")
    assert types(events)[:3] == ["summon", "destroyed", "king_damage"]
    assert events[2]["amount"] == 2


# --- movement (R16, R20–R22) ------------------------------------------------------------------------


def test_plus_move_passes_friends_and_is_blocked_by_enemies():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 0, "prism_archer"),
                                      piece("d3", 1, "shade_lancer")])
    moves = {t for t in legal_texts(s) if t.startswith("c3-")}
    assert moves == {"c3-c5", "c3-c2", "c3-c1", "c3-b3", "c3-a3"}      # c4 friend passed; d3 enemy blocks


def test_fly_passes_over_enemy_pieces():
    s = position(kings("h1", "h8") + [piece("d4", 0, "lantern_sprite"), piece("e5", 1, "shade_lancer")])
    assert "d4-f6" in legal_texts(s)


def test_without_fly_an_enemy_stops_a_diagonal_move():
    s = position(kings("h1", "h8") + [piece("d4", 0, "prism_archer"), piece("e5", 1, "shade_lancer")])
    assert "d4-f6" not in legal_texts(s) and "d4-e5" not in legal_texts(s)


def test_o_pattern_jumps_to_the_ring_at_distance_two():
    s = position(kings("h1", "h8") + [piece("d4", 0, "spark_hound"), piece("d5", 1, "shade_lancer"),
                                      piece("c5", 1, "night_wisp")])
    moves = {t.split("-")[1] for t in legal_texts(s) if t.startswith("d4-")}
    assert moves == {"b2", "c2", "d2", "e2", "f2", "b3", "f3", "b4", "f4", "b5", "f5", "b6", "c6", "d6", "e6", "f6"}


def test_o_star_keeps_only_the_straight_ring_squares():
    game = load_game("capsule", o_pattern="star")
    s = position(kings("h1", "h8") + [piece("d4", 0, "spark_hound")], game=game)
    moves = {t.split("-")[1] for t in legal_texts(s) if t.startswith("d4-")}
    assert moves == {"b2", "d2", "f2", "b4", "f4", "b6", "d6", "f6"}


def test_a_move_never_ends_on_an_occupied_square():
    s = position(kings("h1", "h8") + [piece("d4", 0, "spark_hound"), piece("d6", 0, "prism_archer")])
    assert "d4-d6" not in legal_texts(s)


def test_the_king_moves_in_all_eight_directions_up_to_its_range():
    s = position([piece("d4", 0, "storm_king"), piece("h8", 1, "dusk_king"), piece("a1", 0, "volt_mite")],
                 ap=7)
    moves = {t.split("-")[1] for t in legal_texts(s) if t.startswith("d4-")}
    assert {"d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6", "d5", "e5"} <= moves
    assert "d7" not in moves


def test_capsules_never_move():
    s = position(kings("h1", "h8") + [piece("d4", 0, "spark_hound", kind="capsule")])
    assert not any(t.startswith("d4-") for t in legal_texts(s))
    check_illegal_untouched(GAME, s, (2, s.game.board.parse("d4"), s.game.board.parse("d6")))


# --- attacks and damage (R17, R20, R23–R27) ------------------------------------------------------------


def test_attack_hits_the_first_enemy_in_the_line_and_never_an_own_piece():
    s = position(kings("h1", "h8") + [piece("c3", 0, "prism_archer"), piece("c4", 0, "spark_hound"),
                                      piece("c5", 1, "shade_lancer"), piece("c6", 1, "night_wisp")])
    attacks = {t for t in legal_texts(s) if t.startswith("c3x")}
    assert attacks == {"c3xc5"}


def test_pierce_reaches_every_enemy_in_range_but_hits_only_the_chosen_one():
    s = position(kings("h1", "h8") + [piece("c3", 0, "coil_sniper"), piece("c4", 1, "shade_lancer"),
                                      piece("c6", 1, "night_wisp")])
    assert {t for t in legal_texts(s) if t.startswith("c3x")} == {"c3xc4", "c3xc6"}
    events = act(s, "c3xc6")
    assert events[0]["amount"] == 2 and at(s, "c4")["damage"] == 0


def test_o_attack_targets_enemies_on_the_ring_over_anything_between():
    s = position(kings("h1", "h8") + [piece("d4", 0, "night_wisp"), piece("d5", 1, "shade_lancer"),
                                      piece("d6", 1, "clay_brute")])
    assert {t for t in legal_texts(s) if t.startswith("d4x")} == {"d4xd6"}


def test_kings_and_capsules_never_attack():
    s = position([piece("d4", 0, "dawn_king"), piece("d5", 1, "dusk_king"), piece("a1", 0, "prism_archer",
                                                                                   kind="capsule")])
    assert not any("x" in t for t in legal_texts(s))


def test_attack_deals_damage_and_a_monster_is_destroyed_at_its_hp():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "prism_archer"),
                                      piece("a8", 1, "night_wisp")])
    events = act(s, "c3xc4")
    assert types(events)[:3] == ["attack", "destroyed", "king_damage"]
    assert events[1] == {"type": "destroyed", "player": 1, "sq": "c4", "card": "prism_archer", "was_capsule": False}
    assert events[2] == {"type": "king_damage", "player": 1, "amount": 4, "total": 4}
    assert s.observation(0)["destroyed"][1] == ["prism_archer"]


def test_a_capsule_breaks_at_two_damage_revealing_its_monster_and_hurting_its_king():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"),
                                      piece("c4", 1, "night_wisp", kind="capsule"), piece("a8", 1, "clay_brute")])
    events = act(s, "c3xc4")
    assert events[1] == {"type": "destroyed", "player": 1, "sq": "c4", "card": "night_wisp", "was_capsule": True}
    assert events[2]["amount"] == 4


def test_capsule_hp_option_changes_its_durability():
    game = load_game("capsule", capsule_hp=4)
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"),
                                      piece("c4", 1, "night_wisp", kind="capsule"), piece("a8", 1, "clay_brute")],
                 game=game)
    act(s, "c3xc4")
    assert at(s, "c4")["damage"] == 3 and at(s, "c4")["kind"] == "capsule"


def test_bane_adds_damage_against_its_faction():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawn_falcon"), piece("d4", 1, "hollow_mask"),
                                      piece("a8", 1, "clay_brute")])
    assert act(s, "c3xd4")[0]["amount"] == 3


def test_bane_counts_a_capsules_faction():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawn_falcon"), piece("d4", 1, "shade_lancer", kind="capsule"),
                                      piece("a8", 1, "clay_brute")])
    assert act(s, "c3xd4")[0]["amount"] == 3


def test_faction_advantage_adds_one_when_the_option_is_on():
    game = load_game("capsule", faction_advantage=True)
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "mountain_behemoth"),
                                      piece("a8", 1, "clay_brute")], game=game)
    # light does not beat earth; armor 2 reduces 3 to 1
    assert act(s, "c3xc4")[0]["amount"] == 1
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "shade_lancer"),
                                      piece("a8", 1, "clay_brute")], game=game)
    assert act(s, "c3xc4")[0]["amount"] == 4                           # light beats dark


def test_armor_reduces_attack_damage_but_never_below_zero():
    s = position(kings("h1", "h8") + [piece("c3", 0, "volt_mite"), piece("c4", 1, "root_warden"),
                                      piece("a8", 1, "clay_brute")])
    assert act(s, "c3xc4")[0]["amount"] == 0


def test_armor_sleeps_inside_a_capsule():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"),
                                      piece("c4", 1, "root_warden", kind="capsule"), piece("a8", 1, "clay_brute")])
    assert act(s, "c3xc4")[0]["amount"] == 3


def test_king_armor_reduces_attacks_on_the_king_but_not_cost_damage():
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "stone_king"), piece("d7", 0, "dawnblade_knight"),
                  piece("a8", 1, "volt_mite")], ap=6)
    assert act(s, "d7xd8")[0]["amount"] == 2


def test_attacking_the_king_to_its_points_destroys_it_and_wins():
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "dusk_king", damage=13),
                  piece("d7", 0, "dawnblade_knight"), piece("a8", 1, "volt_mite")])
    events = act(s, "d7xd8")
    assert types(events) == ["attack", "king_destroyed", "game_over"]
    assert s.result == {"winners": [0], "reason": "king_destroyed", "scores": [15, 0]}
    assert s.current_player is None and s.legal_actions() == []


def test_cost_damage_can_destroy_the_king():
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "dusk_king", damage=12),
                  piece("d6", 0, "dawnblade_knight"),
                  piece("d7", 1, "prism_archer"), piece("a8", 1, "volt_mite")])
    events = act(s, "d6xd7")
    assert types(events) == ["attack", "destroyed", "king_damage", "king_destroyed", "game_over"]
    assert s.result["winners"] == [0]


# --- stun and recover (R18, R28) ---------------------------------------------------------------------


def test_stun_follows_the_attack_on_a_summoned_monster():
    s = position(kings("h1", "h8") + [piece("c3", 0, "spark_hound"), piece("c4", 1, "dawnblade_knight"),
                                      piece("a8", 1, "clay_brute")])
    events = act(s, "c3xc4")
    assert types(events) == ["attack", "stunned"]
    assert at(s, "c4")["stunned"] is True


def test_zero_damage_still_stuns():
    s = position(kings("h1", "h8") + [piece("c3", 0, "spark_hound"), piece("c4", 1, "root_warden"),
                                      piece("a8", 1, "clay_brute")])
    events = act(s, "c3xc4")
    assert events[0]["amount"] == 0 and types(events) == ["attack", "stunned"]


def test_capsules_and_kings_are_never_stunned():
    s = position(kings("h1", "c4") + [piece("c3", 0, "spark_hound"), piece("b3", 0, "clay_brute"),
                                      piece("b4", 1, "prism_archer", kind="capsule")])
    assert types(act(s, "c3xc4")) == ["attack"]
    assert types(act(s, "b3xc4")) == ["attack"]


def test_an_already_stunned_monster_gives_no_new_stun_event():
    s = position(kings("h1", "h8") + [piece("c3", 0, "spark_hound"), piece("c4", 1, "mountain_behemoth", stunned=True),
                                      piece("a8", 1, "clay_brute")])
    assert types(act(s, "c3xc4")) == ["attack"]


def test_a_stunned_monster_cannot_move_or_attack_until_recovered_for_its_cost():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight", stunned=True),
                                      piece("c4", 1, "shade_lancer")], ap=6)
    assert not any(t.startswith("c3-") or t.startswith("c3x") for t in legal_texts(s))
    message = check_illegal_untouched(GAME, s, (3, s.game.board.parse("c3"), s.game.board.parse("c4")))
    assert "stunned" in message
    events = act(s, "R c3")
    assert events[0]["type"] == "recover" and s.ap == 2
    assert "c3xc4" in legal_texts(s)


def test_stunned_monsters_may_use_abilities_unless_the_option_says_no():
    pieces = kings("h1", "h8") + [piece("c3", 0, "mirror_monk", stunned=True, damage=1), piece("a8", 1, "volt_mite")]
    assert "c3!heal@c3" in legal_texts(position(pieces))
    game = load_game("capsule", stun_blocks_abilities=True)
    assert "c3!heal@c3" not in legal_texts(position(pieces, game=game))


# --- abilities (R19, R35–R37) ---------------------------------------------------------------------------


def test_heal_removes_damage_from_a_friendly_monster_within_one_square_itself_included():
    s = position(kings("h1", "h8") + [piece("c3", 0, "mirror_monk", damage=1),
                                      piece("c4", 0, "dawnblade_knight", damage=3),
                                      piece("c6", 0, "prism_archer", damage=1), piece("a8", 1, "volt_mite")])
    targets = {t for t in legal_texts(s) if "!heal" in t}
    assert targets == {"c3!heal@c3", "c3!heal@c4"}
    events = act(s, "c3!heal@c4")
    assert events[0]["amount"] == 2 and at(s, "c4")["damage"] == 1 and s.ap == 5
    assert not any("!heal" in t for t in legal_texts(s))                # once per turn


def test_heal_never_targets_a_king_or_a_capsule():
    s = position([piece("d1", 0, "dawn_king", damage=3), piece("h8", 1, "dusk_king"),
                  piece("d2", 0, "prism_archer", kind="capsule", damage=1), piece("a8", 1, "volt_mite")])
    assert not any("!heal" in t for t in legal_texts(s))


def test_scout_shows_a_capsule_to_the_scouting_player_only():
    s = position([piece("d1", 0, "dawn_king"), piece("d4", 1, "dusk_king"),
                  piece("d3", 0, "prism_archer", kind="capsule"),
                  piece("h8", 1, "volt_mite")], active=1, ap=6)
    events = act(s, "d4!scout@d3")
    assert events[0]["private"] == {"to": [1], "fields": {"card": "prism_archer"}}
    capsule_for = {v: next(p for p in s.observation(v)["pieces"] if p["sq"] == "d3") for v in (0, 1, None)}
    assert capsule_for[1]["card"] == "prism_archer" and "card" not in capsule_for[None]
    assert "d4!scout@d3" not in legal_texts(s)
    from coliseo.core.events import view_event
    assert "card" not in view_event(events[0], 0)
    assert view_event(events[0], 1)["card"] == "prism_archer"
    assert "card" not in view_event(events[0], None)


def test_scout_ignores_blocking_but_not_its_range():
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "dusk_king"),
                  piece("d4", 0, "prism_archer", kind="capsule"),
                  piece("d6", 0, "grave_rat", kind="capsule"), piece("d7", 1, "volt_mite")], active=1, ap=6)
    assert {t for t in legal_texts(s) if "scout" in t} == {"d8!scout@d6"}


def test_rouse_removes_another_friendly_monsters_stun():
    s = position([piece("d1", 0, "storm_king"), piece("h8", 1, "dusk_king"), piece("d2", 0, "volt_mite", stunned=True),
                  piece("a8", 1, "grave_rat")], ap=7)
    events = act(s, "d1!rouse@d2")
    assert events[0]["type"] == "rouse" and at(s, "d2")["stunned"] is False and s.ap == 6


# --- the end of the game (R38–R41) ---------------------------------------------------------------------


def test_losing_every_monster_loses_the_game():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "prism_archer")])
    events = act(s, "c3xc4")
    assert s.result == {"winners": [0], "reason": "all_monsters_destroyed", "scores": [15, 11]}
    assert events[-1]["type"] == "game_over"


def test_the_all_monsters_rule_can_be_switched_off():
    game = load_game("capsule", all_monsters_rule=False)
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "prism_archer")], game=game)
    act(s, "c3xc4")
    assert s.result is None


def test_two_empty_turns_end_the_game_scored_by_king_points():
    s = position([piece("d1", 0, "dawn_king", damage=2), piece("d8", 1, "dusk_king", damage=5),
                  piece("a1", 0, "volt_mite"), piece("a8", 1, "grave_rat")])
    act(s, "end")
    events = act(s, "end")
    assert s.result == {"winners": [0], "reason": "double_pass", "scores": [13, 10]}
    assert events[-1] == {"type": "game_over", "winner": 0, "reason": "double_pass", "scores": [13, 10]}


def test_an_action_resets_the_double_pass_count():
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "dusk_king"), piece("a1", 0, "volt_mite"),
                  piece("a8", 1, "grave_rat")])
    act(s, "end")
    act(s, "d8-d7")
    act(s, "end")
    assert s.result is None


def test_the_turn_limit_ends_the_game_and_equal_scores_draw():
    game = load_game("capsule", max_turns=3, double_pass_ends=False)
    s = position([piece("d1", 0, "dawn_king"), piece("d8", 1, "dusk_king"), piece("a1", 0, "volt_mite"),
                  piece("a8", 1, "grave_rat")], game=game, turn=3)
    act(s, "end")
    assert s.result == {"winners": [], "reason": "turn_limit", "scores": [15, 15]}


def test_illegal_actions_after_the_game_is_over_are_refused():
    s = position(kings("h1", "h8") + [piece("c3", 0, "dawnblade_knight"), piece("c4", 1, "prism_archer")])
    act(s, "c3xc4")
    with pytest.raises(IllegalAction, match="over"):
        s.apply((0,))
