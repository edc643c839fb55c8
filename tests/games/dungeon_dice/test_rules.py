"""Scenario tests for every rule of dungeon_dice.md: a position, an action, the expected events and position."""

import pytest
from contract import check_bad_notation, check_illegal_untouched
from games.dungeon_dice.helpers import GAME, Scripted, act, legal_texts, move_master, path, position, put, sq, types

from coliseo import load_game
from coliseo.core.errors import IllegalAction, InvalidNotation
from coliseo.core.events import view_event
from coliseo.games.dungeon_dice.board import NETS, SHAPES, orient
from coliseo.games.dungeon_dice.content import CRESTS
from coliseo.games.dungeon_dice.state import ATTACKED, CARD, EQUIPS, TMP, crest_gain


def crests(s, player=0):
    return {c: s.pool[player][i] for i, c in enumerate(CRESTS) if s.pool[player][i]}


def squares_of(s, player):
    return {s.game.geo.names[q] for q in range(s.game.geo.n) if s.path[player] >> q & 1}


# --- setup (R1-R5) ---------------------------------------------------------------------------------


def test_masters_start_on_their_pre_dimensioned_squares():
    s = GAME.new_state(1)
    assert squares_of(s, 0) == {"g1"} and squares_of(s, 1) == {"h20"}
    assert s.game.geo.names[s.ac[0]] == "g1" and s.game.geo.names[s.ac[1]] == "h20"
    classic = load_game("dungeon_dice", board="classic").new_state(1)
    assert squares_of(classic, 1) == {"g19"} and classic.game.geo.n == 13 * 19


def test_start_hearts_pool_and_first_turn_draw():
    s = GAME.new_state(5)
    assert s.hearts == [5, 5] and s.turn == 1 and s.current_player == 0
    assert len(s.drawn) == 3 and len(set(s.drawn)) == 3 and len(s.rolls) in (1, 2)
    assert s.library[0] == sorted(GAME.content.cards) and len(s.library[1]) == 34


def test_first_player_is_a_seeded_choice():
    game = load_game("dungeon_dice")
    firsts = {game.new_state(seed).active for seed in range(20)}
    assert firsts == {0, 1}
    assert load_game("dungeon_dice", first_player="2").new_state(3).active == 1



def test_second_player_summon_starts_only_the_second_players_pool_and_changes_nothing_else():
    game = load_game("dungeon_dice", second_player_summon=2)
    for seed in range(8):
        s, plain = game.new_state(seed), load_game("dungeon_dice").new_state(seed)
        first = s.active
        assert first == plain.active and s.rolls == plain.rolls and s.pool[first] == plain.pool[first]
        assert plain.pool[1 - first] == [0] * 8 and s.pool[1 - first] == [2, 0, 0, 0, 0, 0, 0, 0]


def test_second_player_summon_crests_pay_for_a_summon_the_roll_alone_could_not():
    game, plain = load_game("dungeon_dice", second_player_summon=2), load_game("dungeon_dice")
    for seed in range(40):
        s, d = game.new_state(seed), plain.new_state(seed)
        act(s, "end")
        act(d, "end")
        if d.pool[d.active][0] == 0:           # the second player's first roll gave no Summon crest
            break
    summons = [t for t in legal_texts(s) if t.startswith("summon ")]
    assert s.pool[s.active][0] == 2 and summons and not any(t.startswith("summon ") for t in legal_texts(d))
    assert all(game.content.cards[t.split()[1]].level <= 2 for t in summons)

# --- nets and placements (R17, R18) -----------------------------------------------------------------


def test_orientation_mirrors_then_turns_clockwise():
    t = NETS["T"]
    assert set(orient(t, 0)) == set(t)
    assert set(orient(t, 1)) == {(1, 1), (1, 0), (1, -1), (0, 0), (-1, 0), (-2, 0)}
    assert set(orient(t, 2)) == {(1, -1), (0, -1), (-1, -1), (0, 0), (0, 1), (0, 2)}
    assert set(orient(NETS["L"], 4)) == {(0, 2), (0, 1), (0, 0), (-1, 0), (-1, -1), (-1, -2)}


def test_the_nets_have_64_distinct_oriented_shapes():
    assert len(SHAPES) == 64
    assert {s.net for s in SHAPES} == set(NETS)


@pytest.mark.parametrize("net", sorted(NETS))
def test_each_net_in_each_of_its_8_orientations_dimensions_its_six_squares(net):
    geo = GAME.geo
    for o in range(8):
        s = position(pool={"S": 5})
        s.placed[0] = True
        anchor = sq("g10")
        expected = {geo.names[anchor + dy * geo.w + dx] for dx, dy in orient(NETS[net], o)}
        path(s, 0, "g5", "g6", "g7")                     # a corridor from g1 is not needed: touch g7
        near = min(expected, key=lambda n: (int(n[1:]), n[0]))
        # connect the target area to player 1's path through a column of path tiles
        col = near[0]
        for r in range(2, int(near[1:])):
            path(s, 0, f"{col}{r}")
        act(s, "summon cave_rat")
        events = act(s, f"dim {net}{o}@g10")
        assert set(events[0]["squares"]) == expected
        assert expected <= squares_of(s, 0)
        # the canonical text names the same squares
        again = GAME._parse_action_text(s, events[0]["net"].join(["dim ", ""]))
        assert again is not None


def test_a_placement_in_any_orientation_parses_to_its_canonical_form():
    s = position(pool={"S": 1})
    s.placed[0] = True
    act(s, "summon cave_rat")
    a = GAME.parse_action(s, "dim T4@g4")       # T is symmetric: mirrored it covers the same squares as T0
    assert GAME.format_action(a) == "dim T0@g4"
    assert GAME.parse_action(s, "dim T0@g4") == a
    b = GAME.parse_action(s, "dim X6@g3")       # X mirrored and turned twice = X turned twice
    assert GAME.format_action(b) == "dim X2@g3"


def test_first_net_must_touch_the_master_square_and_the_home_rank_166_ways():
    s = position(pool={"S": 1})
    assert len(s.placements(0)) == 166 and len(s.placements(1)) == 166
    act(s, "summon cave_rat")
    assert len(s.legal_actions()) == 166
    for a in s.legal_actions():
        squares = set(GAME.geo.placements[a[1]][2])
        assert squares & set(GAME.geo.nbrs[sq("g1")]) and any(q < GAME.geo.w for q in squares)


def brute_force_placements(s, player):
    geo = s.game.geo
    blocked = s.path[0] | s.path[1]
    out = []
    for pid, (_, _, _, mask, nb) in enumerate(geo.placements):
        if mask & blocked or not nb & s.path[player]:
            continue
        if not s.placed[player] and not (mask & geo.nbr_mask[geo.masters[player]] and mask & geo.home_rank[player]):
            continue
        out.append(pid)
    return out


def test_placement_enumeration_agrees_with_a_brute_force_check():
    import random
    rng = random.Random(4)
    game = load_game("dungeon_dice", max_turns=80)
    for seed in range(4):
        s = game.new_state(seed)
        while not s.is_over:
            for p in (0, 1):
                s.pool[p][0] += 1
            s._legal = None
            if rng.random() < 0.2:
                for p in (0, 1):
                    assert s.placements(p) == brute_force_placements(s, p)
            s.apply(rng.choice(s.legal_actions()))


def test_placement_must_be_on_the_board_on_empty_squares_and_connected():
    s = position(pool={"S": 3})
    s.placed[0] = True
    path(s, 0, "g2", "g3")
    path(s, 1, "c8")
    act(s, "summon cave_rat")
    legal = set(legal_texts(s))
    assert "dim X0@g6" in legal                     # g4 touches g3
    assert "dim X0@g8" not in legal                 # not connected to player 1's path
    assert "dim X0@g5" not in legal                 # g3 is path already
    assert "dim X0@c9" not in legal                 # c8, the opponent's path, is not empty
    before = s.to_json()
    with pytest.raises(InvalidNotation):
        GAME.parse_action(s, "dim X0@a1")           # the cross leaves the board
    assert s.to_json() == before
    act(s, "dim X0@g6")
    assert {"g4", "g5", "g6", "f6", "h6", "g7"} <= squares_of(s, 0)


def test_touching_only_the_opponents_path_is_not_connected():
    s = position(pool={"S": 3})
    s.placed[0] = True
    path(s, 1, "g8")
    act(s, "summon cave_rat")
    assert not any(t.endswith("@g10") and t.startswith("dim X0") for t in legal_texts(s))


def test_summon_stands_on_the_new_square_nearest_the_master():
    s = position(pool={"S": 4})
    s.placed[0] = True
    events = act(s, "summon dungeon_knight")
    assert events == [{"type": "declare", "player": 0, "card": "dungeon_knight"}]
    assert s.current_player == 0 and {a[0] for a in s.legal_actions()} == {"dim"}
    events = act(s, "dim X0@g4")                     # g5 f4 g4 h4 g3 g2
    assert types(events) == ["dimension", "summon"]
    assert events[1]["square"] == "g2" and s.pieces[sq("g2")][CARD] == "dungeon_knight"
    assert crests(s) == {} and "dungeon_knight" not in s.library[0]


def test_nearest_tie_breaks_by_player_relative_rank_then_file():
    geo = GAME.geo
    assert geo.names[geo.nearest([sq("f2"), sq("h2"), sq("g3")], sq("g2"), 0)] == "f2"
    assert geo.names[geo.nearest([sq("f19"), sq("h19")], sq("g19"), 1)] == "h19"
    assert geo.names[geo.nearest([sq("h18"), sq("h20")], sq("h19"), 1)] == "h20"


# --- crests (R9-R11) --------------------------------------------------------------------------------

D = GAME.content.dice
CM, CT, PS, PM, Zd = D["common_magic"], D["common_trap"], D["part_summon"], D["part_move"], D["zash"]


def test_no_pair_gains_no_basic_crest():
    assert crest_gain([CM, CT, Zd], [0, 1, 0], False)[:3] == (None, 0, 1)      # S3 M4 Z: only the Z
    assert crest_gain([CM, CT, PS], [1, 2, 0], False)[:3] == (None, 0, 0)      # M4 A2 S


def test_a_common_pair_gains_the_smallest_printed_amount():
    assert crest_gain([CM, CT, Zd], [1, 1, 0], False) == (1, 4, 1, False)     # M4 M4 Z: 4 M and 1 Z
    assert crest_gain([CM, CT, PM], [0, 0, 0], False) == (0, 3, 0, False)     # S3 S3 M: 3 S


def test_common_and_particular_pair_doubles():
    assert crest_gain([CM, PS, CT], [0, 0, 1], False) == (0, 6, 0, False)     # S3 + S -> 6 S


def test_common_particular_and_zash_triples_and_uses_the_zash():
    assert crest_gain([CM, PS, Zd], [0, 0, 3], False) == (0, 9, 0, False)     # S3 + S + Z -> 9 S, no Z


def test_a_particular_pair_gains_one_crest_and_zash_still_counts():
    assert crest_gain([PS, PS, Zd], [0, 0, 0], False) == (0, 1, 1, False)


def test_a_triple_gains_what_its_group_gives_and_is_flagged():
    assert crest_gain([CM, CT, PS], [0, 0, 0], False) == (0, 6, 0, True)      # S3 S3 S: 3 x 2
    assert crest_gain([CM, CT, CM], [1, 1, 1], False) == (1, 4, 0, True)


def test_crest_amounts_one_counts_every_printed_amount_as_one():
    assert crest_gain([CM, PS, Zd], [0, 0, 0], True) == (0, 3, 0, False)


def test_triple_on_the_first_roll_rolls_the_same_dice_once_more():
    s = position(pool={})
    s.dice = (tuple(["common_magic"] * 4 + ["common_trap"] * 4 + ["part_summon"] * 2 + ["part_move",
                     "part_attack", "part_magic", "part_trap", "zash"]),) * 2
    # draw dice 0, 4, 8 (common_magic, common_trap, part_summon); roll S3 S3 S (triple), then S3 S3 S again
    s.rng = Scripted([0, 3, 6, 0, 0, 0, 0, 0, 0])
    events = s.start_turn()
    assert [e["gain"] for e in events if e["type"] == "roll"] == ["6 S", "6 S"]
    assert crests(s) == {"S": 12} and len(s.rolls) == 2
    s.pool[0] = [0] * 8
    s.rng = Scripted([0, 3, 6, 0, 0, 0])
    game = load_game("dungeon_dice", triple_bonus="none")
    s.game = game
    events = s.start_turn()
    assert len([e for e in events if e["type"] == "roll"]) == 1


def test_crests_are_kept_across_turns():
    s = position(pool={"M": 3, "A": 2})
    s.rng = Scripted([0, 0, 0, 1, 2, 3] + [0, 0, 0, 1, 2, 3])     # opponent and then player 1 roll nothing
    act(s, "end")
    act(s, "end")
    assert crests(s) == {"M": 3, "A": 2}


def test_crest_cap_cuts_counters_after_each_gain():
    game = load_game("dungeon_dice", crest_cap=5, first_player="1")
    s = position(game, pool={"M": 3, "G": 1})
    put(s, "g2", "lantern_wisp", 0)
    s.pool[0][6] = 1
    act(s, "effect g2")
    assert crests(s)["M"] == 5


# --- summons (R20-R22) ------------------------------------------------------------------------------


def test_summon_needs_summon_crests_equal_to_the_level():
    s = position(pool={"S": 3})
    assert "summon tunnel_sentinel" in legal_texts(s) and "summon dungeon_knight" not in legal_texts(s)
    msg = check_illegal_untouched(GAME, s, ("summon", "dungeon_knight"))
    assert "4 Summon crests" in msg


def test_only_one_crest_summon_per_turn():
    s = position(pool={"S": 6})
    act(s, "summon cave_rat")
    act(s, "dim L5@h1")
    assert not any(t.startswith("summon") for t in legal_texts(s))
    assert "already made a crest summon" in check_illegal_untouched(GAME, s, ("summon", "pebble_golem"))


def fill_board_except(s, keep_player1=()):
    """Make every square path (player 2's) except player 1's master: no net can be placed anywhere."""
    geo = s.game.geo
    s.path[1] = geo.full & ~s.path[0]
    for name in keep_player1:
        q = sq(name)
        s.path[1] &= ~(1 << q)
        s.path[0] |= 1 << q
    s._legal = None


def test_special_summon_costs_double_and_only_when_no_die_can_be_dimensioned():
    s = position(pool={"S": 8})
    assert "ssummon dungeon_knight" not in legal_texts(s)
    fill_board_except(s)
    legal = legal_texts(s)
    assert not any(t.startswith("summon ") for t in legal)
    assert "ssummon dungeon_knight" in legal and "ssummon marsh_troll" not in legal
    events = act(s, "ssummon dungeon_knight")
    assert events[0]["how"] == "special" and events[0]["square"] in ("f1", "h1", "g2")
    assert events[0]["square"] == "f1"                 # distance 1; rank 1 before rank 2; file f before h
    assert crests(s) == {}
    assert not any(t.startswith("ssummon") for t in legal_texts(s))


def test_effect_summon_pays_effect_crests_when_its_condition_holds_and_is_not_a_crest_summon():
    s = position(pool={"E": 2, "S": 1})
    put(s, "g10", "cave_rat", 1)
    path(s, 0, "g2")
    assert "esummon chrome_serpent" in legal_texts(s)
    act(s, "esummon chrome_serpent")
    assert crests(s) == {"S": 1}
    assert "summon cave_rat" in legal_texts(s)        # the crest summon is still available
    assert not any(t.startswith("esummon") for t in legal_texts(s))


def test_effect_summon_needs_the_opponent_to_control_more_monsters():
    s = position(pool={"E": 2})
    assert "esummon chrome_serpent" not in legal_texts(s)
    s2 = position(pool={"E": 2})
    put(s2, "g10", "cave_rat", 1)
    put(s2, "g2", "cave_rat", 0)
    assert "esummon chrome_serpent" not in legal_texts(s2)


# --- movement (R23) ---------------------------------------------------------------------------------


def test_move_costs_the_fewest_steps_along_path_of_either_player():
    s = position(pool={"M": 5})
    path(s, 0, "g2", "g3")
    path(s, 1, "g4", "g5")
    put(s, "g2", "cave_rat", 0)
    events = act(s, "move g2 g5")
    assert events[0]["cost"] == 3 and crests(s) == {"M": 2}


def test_pieces_block_movement_and_cannot_be_entered():
    s = position(pool={"M": 9})
    path(s, 0, "g2", "g3", "g4", "g5")
    put(s, "g2", "cave_rat", 0)
    put(s, "g4", "goblin_sapper", 1)
    legal = legal_texts(s)
    assert "move g2 g3" in legal and "move g2 g4" not in legal and "move g2 g5" not in legal


def test_one_monster_moves_per_turn_but_it_may_move_again():
    s = position(pool={"M": 5})
    path(s, 0, "f1", "h1", "g2", "g3", "f2", "h2")
    put(s, "f1", "cave_rat", 0)
    put(s, "h1", "goblin_sapper", 0)
    act(s, "move f1 f2")
    assert not any(t.startswith("move h1") for t in legal_texts(s))
    assert "another monster already moved" in check_illegal_untouched(GAME, s, ("move", sq("h1"), sq("h2")))
    act(s, "move f2 g2")
    act(s, "move g1 f1")                              # the Master moves freely (D10)


def test_master_shares_the_moving_piece_with_ac_move_limited():
    game = load_game("dungeon_dice", ac_move_limited=True, first_player="1")
    s = position(game, pool={"M": 5})
    path(s, 0, "f1", "h1", "f2")
    put(s, "h1", "cave_rat", 0)
    act(s, "move g1 f1")
    assert not any(t.startswith("move h1") for t in legal_texts(s))


def test_a_single_black_hole_is_impassable_and_two_make_a_wormhole():
    s = position(pool={"M": 3})
    path(s, 0, "g2", "g3", "g4", "b10", "b11")
    put(s, "g2", "cave_rat", 0)
    s.holes = [sq("g3")]
    s._legal = None
    assert "move g2 g4" not in legal_texts(s) and "move g2 g3" not in legal_texts(s)
    s.holes = [sq("g3"), sq("b10")]
    s._legal = None
    legal = legal_texts(s)
    assert "move g2 g3" in legal and "move g2 b10" in legal and "move g2 b11" in legal
    assert act(s, "move g2 b11")[0]["cost"] == 3


def test_move_needs_movement_crests():
    s = position(pool={})
    path(s, 0, "g2")
    put(s, "g2", "cave_rat", 0)
    assert "Movement" in check_illegal_untouched(GAME, s, ("move", sq("g2"), sq("g1")))


# --- spells, traps, effects (R24-R26, R34) -----------------------------------------------------------


def test_destroy_spell_respects_max_atk_and_sends_both_cards_to_graveyards():
    s = position(pool={"G": 2})
    put(s, "c10", "ember_hound", 1)
    put(s, "d10", "dungeon_knight", 1)
    legal = legal_texts(s)
    assert "spell fissure_bolt c10" in legal and "spell fissure_bolt d10" not in legal
    events = act(s, "spell fissure_bolt c10")
    assert types(events) == ["spell", "destroyed"]
    assert s.grave == [["fissure_bolt"], ["ember_hound"]] and crests(s) == {"G": 1}


def test_weaken_lasts_until_end_and_combines_with_destroy():
    s = position(pool={"G": 2})
    put(s, "d10", "dungeon_knight", 1)
    act(s, "spell hex_of_frailty d10")
    assert s.atk(s.pieces[sq("d10")]) == 1000
    assert "spell fissure_bolt d10" in legal_texts(s)
    act(s, "end")
    assert s.atk(s.pieces[sq("d10")]) == 1800


def test_equip_stays_attached_and_goes_to_its_owners_graveyard_with_the_monster():
    s = position(pool={"G": 1, "A": 1})
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "dungeon_knight", 1)
    act(s, "spell runed_blade g2")
    rat = s.pieces[sq("g2")]
    assert rat[EQUIPS] == [("runed_blade", 0)] and s.atk(rat) == 1000 and "runed_blade" not in s.grave[0]
    act(s, "battle")
    act(s, "attack g2 g3")
    act(s, "pass") if s.phase == "window" else None
    assert s.grave[0] == ["cave_rat", "runed_blade"]


def test_revive_from_either_graveyard_under_your_control():
    s = position(pool={"G": 1})
    path(s, 0, "g2")
    s.grave[1].append("goblin_sapper")
    s.library[1].remove("goblin_sapper")
    assert "spell second_dawn gy2:goblin_sapper" in legal_texts(s)
    events = act(s, "spell second_dawn gy2:goblin_sapper")
    assert events[1]["how"] == "revive" and events[1]["square"] == "g2"
    piece = s.pieces[sq(events[1]["square"])]
    assert piece[2] == 1 and piece[3] == 0 and s.counts[0] == [1, 2]


def test_set_trap_is_hidden_and_usable_only_from_a_later_turn():
    s = position(pool={"A": 2}, pool2={"T": 1})
    s.active = 1
    events = act(s, "set spiked_carapace")
    assert events[0]["private"]["fields"] == {"card": "spiked_carapace"}
    assert "spiked_carapace" not in str(view_event(events[0], 0))
    assert s.observation(0)["set_zones"][1] == [3] and "set_cards" not in str(s.observation(None))
    assert s.observation(1)["set_cards"] == [["spiked_carapace", 3]]
    # same turn: player 2 sets; it is still turn 3, so an attack now would not open the window with it
    s.active = 0
    s.phase = "battle"
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "moss_sprite", 1)
    act(s, "attack g2 g3")
    assert s.phase == "battle"                         # no window: trap set this turn, no Defense crest
    s.setzone[1][0] = ("spiked_carapace", 2)
    s._legal = None
    put(s, "f2", "goblin_sapper", 1)
    path(s, 0, "f1")
    put(s, "f1", "ember_hound", 0)
    act(s, "attack f1 f2")
    assert s.current_player == 1 and legal_texts(s) == ["trap spiked_carapace", "pass"]
    events = act(s, "trap spiked_carapace")
    assert types(events) == ["trap", "destroyed", "attack_ends"]
    assert "ember_hound" in s.grave[0] and s.current_player == 0 and s.phase == "battle"


def test_negate_attack_trap_ends_the_battle_phase():
    s = position(pool={"A": 2}, pool2={"T": 1}, phase="battle")
    s.setzone[1].append(("bastion_ward", 1))
    s.library[1].remove("bastion_ward")
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "moss_sprite", 1)
    act(s, "attack g2 g3")
    act(s, "trap bastion_ward")
    assert s.phase == "spend2" and sq("g3") in s.pieces and crests(s) == {"A": 1}
    assert s.pieces[sq("g2")][ATTACKED]


def test_weaken_attacker_trap_keeps_the_window_open():
    s = position(pool={"A": 1}, pool2={"T": 2, "D": 1}, phase="battle")
    s.setzone[1].append(("binding_roots", 1))
    s.library[1].remove("binding_roots")
    put(s, "g2", "dungeon_knight", 0)
    put(s, "g3", "tunnel_sentinel", 1)
    act(s, "attack g2 g3")
    act(s, "trap binding_roots")
    assert s.phase == "window" and s.current_player == 1 and legal_texts(s) == ["defend", "pass"]
    events = act(s, "pass")                             # 800 ATK against 1200 ATK
    assert events[-1]["type"] == "destroyed" and events[-1]["card"] == "dungeon_knight"


def test_monster_effects_crests_boost_and_once_per_game_flip():
    s = position(pool={"E": 3}, phase="spend1")
    put(s, "g2", "lantern_wisp", 0)
    put(s, "f1", "storm_harpy", 0)
    put(s, "h1", "burrow_mite", 0)
    put(s, "h2", "cave_rat", 1)
    act(s, "effect g2")
    assert crests(s) == {"E": 2, "M": 4}
    assert "effect g2" not in legal_texts(s)
    act(s, "effect f1")
    assert s.atk(s.pieces[sq("f1")]) == 2200
    act(s, "effect h1 h2")
    assert "cave_rat" in s.grave[1]
    act(s, "end")
    assert s.atk(s.pieces[sq("f1")]) == 1600
    s.active, s.phase, s.pool[0][6] = 0, "spend1", 5
    put(s, "h2", "moss_sprite", 1)
    assert "effect h1 h2" not in legal_texts(s) and "effect g2" in legal_texts(s)


def test_effect_cost_by_level():
    s = position(pool={"E": 2})
    put(s, "g5", "rune_sage", 0)
    put(s, "g6", "ember_hound", 1)
    act(s, "effect g5 g6")
    assert crests(s) == {}


# --- spend 2 lock (R13) -----------------------------------------------------------------------------


def test_crest_types_spent_in_spend1_are_locked_in_spend2():
    s = position(pool={"M": 4, "G": 1})
    path(s, 0, "f1")
    act(s, "move g1 f1")
    act(s, "battle")
    act(s, "spend2")
    assert not any(t.startswith("move") for t in legal_texts(s))
    assert "spell trail_map" in legal_texts(s)
    msg = check_illegal_untouched(GAME, s, ("move", sq("f1"), sq("g1")))
    assert "locked" in msg


def test_spend2_lock_magic_locks_only_magic():
    game = load_game("dungeon_dice", spend2_lock="magic", first_player="1")
    s = position(game, pool={"M": 4, "G": 2})
    path(s, 0, "f1")
    act(s, "move g1 f1")
    act(s, "spell trail_map")
    act(s, "battle")
    act(s, "spend2")
    legal = legal_texts(s)
    assert any(t.startswith("move") for t in legal) and not any(t.startswith("spell") for t in legal)


# --- zash (R27) -------------------------------------------------------------------------------------


def test_zash1_adds_a_path_tile_next_to_your_path():
    s = position(pool={"Z": 1})
    assert set(t for t in legal_texts(s) if t.startswith("zash1")) == {"zash1 f1", "zash1 h1", "zash1 g2"}
    act(s, "zash1 g2")
    assert "g2" in squares_of(s, 0) and crests(s) == {}


def test_zash2_removes_a_path_tile_without_a_piece_even_the_opponents():
    s = position(pool={"Z": 2})
    path(s, 1, "c5", "c6")
    put(s, "c6", "cave_rat", 1)
    legal = legal_texts(s)
    assert "zash2 c5" in legal and "zash2 c6" not in legal and "zash2 g1" not in legal and "zash2 h20" not in legal
    act(s, "zash2 c5")
    assert "c5" not in squares_of(s, 1)


def test_zash3_puts_a_black_hole_at_most_two():
    s = position(pool={"Z": 9})
    path(s, 0, "g2", "g3", "g4")
    act(s, "zash3 g2")
    act(s, "zash3 g3")
    assert not any(t.startswith("zash3") for t in legal_texts(s))
    assert [GAME.geo.names[h] for h in s.holes] == ["g2", "g3"]


def test_zash4_revives_from_your_own_graveyard_and_zash5_restores_a_heart():
    s = position(pool={"Z": 9})
    s.grave[0].append("ember_hound")
    s.library[0].remove("ember_hound")
    path(s, 0, "g2")
    s.hearts[0] = 4
    assert "zash5" in legal_texts(s)
    events = act(s, "zash4 ember_hound")
    assert events[1]["square"] == "g2" and s.grave[0] == []
    act(s, "zash5")
    assert s.hearts[0] == 5 and "zash5" not in legal_texts(s)


# --- battle (R29-R33) -------------------------------------------------------------------------------


@pytest.mark.parametrize("card,reach", [("cave_rat", 1), ("bone_archer", 1), ("thunder_drake", 2),
                                        ("gravemaw_dragon", 2), ("titan_of_depths", 3), ("sovereign_wyrm", 3)])
def test_attack_range_by_level(card, reach):
    for d in (1, 2, 3, 4):
        s = position(pool={"A": 1}, phase="battle")
        put(s, "d5", card, 0)
        put(s, f"d{5 + d}", "cave_rat", 1)
        assert (f"attack d5 d{5 + d}" in legal_texts(s)) == (d <= reach)


def test_attack_line_is_blocked_by_any_piece_but_not_by_gaps():
    s = position(pool={"A": 1}, phase="battle")
    put(s, "d5", "titan_of_depths", 0)
    put(s, "d8", "cave_rat", 1)                  # d6 and d7 are empty squares, not path: allowed
    put(s, "g5", "cave_rat", 1)
    put(s, "f5", "pebble_golem", 0)              # own piece in the way
    legal = legal_texts(s)
    assert "attack d5 d8" in legal and "attack d5 g5" not in legal and "attack d5 f5" not in legal
    assert not any(t.startswith("attack d5 e") for t in legal)


def test_undefended_battle_compares_atk_and_the_lower_is_destroyed():
    s = position(pool={"A": 1}, phase="battle")
    put(s, "g2", "dungeon_knight", 0)
    put(s, "g3", "tunnel_sentinel", 1)
    events = act(s, "attack g2 g3")
    assert types(events) == ["attack", "battle", "destroyed"]
    assert events[2]["card"] == "tunnel_sentinel" and s.hearts == [5, 5] and s.grave[1] == ["tunnel_sentinel"]


def test_equal_atk_destroys_both_attacker_first_and_zero_destroys_none():
    s = position(pool={"A": 1}, phase="battle")
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "lantern_wisp", 1)
    s.pieces[sq("g3")][TMP] = 200
    events = act(s, "attack g2 g3")
    assert [e["card"] for e in events if e["type"] == "destroyed"] == ["cave_rat", "lantern_wisp"]
    s = position(pool={"A": 1}, phase="battle")
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "lantern_wisp", 1)
    s.pieces[sq("g2")][TMP] = -600
    s.pieces[sq("g3")][TMP] = -300
    events = act(s, "attack g2 g3")
    assert "destroyed" not in types(events)


def test_defended_battle_compares_atk_with_def():
    s = position(pool={"A": 1}, pool2={"D": 2}, phase="battle")
    put(s, "g2", "dungeon_knight", 0)
    put(s, "g3", "iron_beetle", 1)
    act(s, "attack g2 g3")
    assert s.current_player == 1 and legal_texts(s) == ["defend", "pass"]
    events = act(s, "defend")
    assert types(events) == ["defend", "battle"] and sq("g3") in s.pieces and s.pool[1][3] == 1
    s = position(pool={"A": 1}, pool2={"D": 1}, phase="battle")
    put(s, "g2", "dungeon_knight", 0)
    put(s, "g3", "ember_hound", 1)
    act(s, "attack g2 g3")
    events = act(s, "defend")
    assert events[-1] == {"type": "destroyed", "player": 1, "card": "ember_hound", "square": "g3"}


def test_direct_attack_on_the_master_takes_a_heart_whatever_the_atk():
    s = position(pool={"A": 2}, phase="battle")
    move_master(s, 1, "g3")
    put(s, "g2", "pebble_golem", 0)
    events = act(s, "attack g2 g3")
    assert events[-1] == {"type": "heart", "player": 1, "hearts": 4} and s.hearts == [5, 4]
    assert "attack g2 g3" not in legal_texts(s)


def test_losing_the_last_heart_ends_the_game_at_once():
    s = position(pool={"A": 1}, phase="battle")
    move_master(s, 1, "g3")
    put(s, "g2", "pebble_golem", 0)
    s.hearts[1] = 1
    events = act(s, "attack g2 g3")
    assert events[-1]["type"] == "game_over" and s.result["winners"] == [0] and s.current_player is None
    assert s.legal_actions() == []


def test_battles_between_monsters_never_change_hearts():
    s = position(pool={"A": 1}, phase="battle")
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "gravemaw_dragon", 1)
    act(s, "attack g2 g3")
    assert s.hearts == [5, 5] and "cave_rat" in s.grave[0]


def test_attacks_only_in_battle_and_each_monster_once():
    s = position(pool={"A": 3})
    put(s, "g2", "dungeon_knight", 0)
    put(s, "g3", "cave_rat", 1)
    assert "Battle phase" in check_illegal_untouched(GAME, s, ("attack", sq("g2"), sq("g3")))
    act(s, "battle")
    put(s, "f2", "cave_rat", 1)
    act(s, "attack g2 g3")
    assert "attack g2 f2" not in legal_texts(s)


# --- phases, end, tie-breaks (R12, R15, R36) ---------------------------------------------------------


def test_phase_order_and_turn_passes_at_end():
    s = position()
    assert legal_texts(s)[-2:] == ["battle", "end"]
    act(s, "battle")
    assert legal_texts(s) == ["spend2", "end"]
    act(s, "spend2")
    assert legal_texts(s)[-1] == "end" and "battle" not in legal_texts(s)
    events = act(s, "end")
    assert types(events)[:3] == ["end", "turn", "draw"] and s.current_player == 1 and s.turn == 4


@pytest.mark.parametrize("hearts,counts,winners,detail", [
    ([5, 4], [[0, 0], [3, 9]], [0], None),
    ([3, 3], [[2, 2], [1, 9]], [0], "Hearts tied at 3 each: the most monsters put on the board wins (Player 1 2, "
                                    "Player 2 1)."),
    ([3, 3], [[2, 5], [2, 9]], [1], "Hearts tied at 3 each, and 2 monsters put on the board each: the larger total "
                                    "level of those monsters wins (Player 1 5, Player 2 9)."),
    ([3, 3], [[2, 5], [2, 5]], [], "Hearts (3 each), monsters put on the board (2 each) and their total level (5 "
                                   "each) all tied: a draw."),
])
def test_turn_limit_decides_by_hearts_then_monsters_then_levels(hearts, counts, winners, detail):
    game = load_game("dungeon_dice", max_turns=3, first_player="1")
    s = position(game, turn=3)
    s.hearts, s.counts = hearts, counts
    events = act(s, "end")
    assert events[-1]["type"] == "game_over" and s.result == {"winners": winners, "reason": "turn_limit",
                                                             "scores": hearts}
    for viewer in (0, 1, None):          # the scores (hearts) alone do not tell a tie's winner: the detail does
        assert game.result_detail(s.observation(viewer), "en") == detail
    assert (game.result_detail(s.observation(None), "es") is None) == (detail is None)


# --- illegal input -----------------------------------------------------------------------------------


def test_illegal_actions_are_refused_and_leave_the_state_unchanged():
    s = position(pool={"S": 1})
    check_illegal_untouched(GAME, s, ("spend2",))
    check_illegal_untouched(GAME, s, ("defend",))
    check_illegal_untouched(GAME, s, ("spell", "trail_map", None))
    act(s, "summon cave_rat")
    assert "dim" in check_illegal_untouched(GAME, s, ("end",))
    check_bad_notation(GAME, s, "summon cave_rat")
    check_bad_notation(GAME, s, "dim Q9@a1")
    check_bad_notation(GAME, s, "fly to the moon")


def test_the_game_over_refuses_every_action():
    game = load_game("dungeon_dice", max_turns=1, first_player="1")
    s = position(game, turn=1)
    act(s, "end")
    with pytest.raises(IllegalAction):
        s.apply(("end",))


def test_a_master_under_attack_may_spring_a_trap_but_not_defend():
    s = position(pool={"A": 1}, pool2={"T": 1, "D": 3}, phase="battle")
    s.setzone[1].append(("binding_roots", 1))
    s.library[1].remove("binding_roots")
    move_master(s, 1, "g3")
    put(s, "g2", "cave_rat", 0)
    act(s, "attack g2 g3")
    assert legal_texts(s) == ["trap binding_roots", "pass"]
    act(s, "trap binding_roots")
    assert legal_texts(s) == ["pass"]
    events = act(s, "pass")
    assert events[-1] == {"type": "heart", "player": 1, "hearts": 4}


def test_the_earliest_set_copy_springs_and_the_last_sent_copy_revives():
    s = position(pool={"A": 1, "Z": 4}, pool2={"T": 1}, phase="battle")
    s.library[1].remove("binding_roots")
    s.library[1].remove("bastion_ward")
    s.setzone[1] = [("binding_roots", 1), ("bastion_ward", 1), ("binding_roots", 2)]
    s.deck_size = (34, 35)                               # a second copy of binding_roots in player 2's deck
    put(s, "g2", "cave_rat", 0)
    put(s, "g3", "moss_sprite", 1)
    act(s, "attack g2 g3")
    act(s, "trap binding_roots")
    assert s.setzone[1] == [("bastion_ward", 1), ("binding_roots", 2)]
    s2 = position(pool={"Z": 4})
    path(s2, 0, "g2")
    s2.grave[0] = ["cave_rat", "trail_map", "cave_rat"]
    act(s2, "zash4 cave_rat")
    assert s2.grave[0] == ["cave_rat", "trail_map"]


def test_no_own_monsters_condition_from_a_user_pack(tmp_path):
    pack = tmp_path / "lone.toml"
    pack.write_text('[[monster]]\nid = "lone_wolf"\nname = { en = "Lone Wolf", es = "Lobo Solitario" }\n'
                    'level = 3\natk = 1200\ndef = 1000\nself_summon = { condition = "no_own_monsters" }\n')
    game = load_game("dungeon_dice", packs=[str(pack)], first_player="1")
    s = position(game, pool={"E": 1})
    path(s, 0, "g2", "f1")
    assert "esummon lone_wolf" in legal_texts(s)
    put(s, "f1", "cave_rat", 0)
    assert "esummon lone_wolf" not in legal_texts(s)


@pytest.mark.parametrize("action", [("move",), ("dim", 10**6), ("spell",), ("zash", 9, None), ("fly", 1),
                                    ("attack", "g1", "g2")])
def test_malformed_actions_raise_illegal_action_and_change_nothing(action):
    s = position(pool={"M": 2, "G": 1, "Z": 3})
    check_illegal_untouched(GAME, s, action)


def test_a_piece_on_a_lone_black_hole_may_leave_it_and_zash2_removes_tile_and_hole():
    s = position(pool={"M": 2, "Z": 2})
    path(s, 0, "g2", "g3", "g4", "c5")
    put(s, "g3", "cave_rat", 0)
    s.holes = [sq("g3"), sq("c5")]
    act(s, "zash2 c5")                              # the hole on c5 goes with its tile
    assert [GAME.geo.names[h] for h in s.holes] == ["g3"] and "c5" not in squares_of(s, 0)
    assert "move g3 g4" in legal_texts(s) and "move g3 g2" in legal_texts(s)
    act(s, "move g3 g4")
    assert "move g4 g3" not in legal_texts(s)       # nobody may enter the lone hole


def test_a_summon_declared_in_spend1_locks_summon_crests_in_spend2():
    s = position(pool={"S": 3})
    act(s, "summon cave_rat")
    act(s, "dim L5@h1")
    act(s, "battle")
    act(s, "spend2")
    assert s.observation(0)["locks"] == ["S"]


def test_zash1_path_before_the_first_net_does_not_lift_the_first_net_conditions():
    s = position(pool={"Z": 1, "S": 1})
    act(s, "zash1 g2")
    act(s, "summon cave_rat")
    for a in s.legal_actions():
        squares = set(GAME.geo.placements[a[1]][2])
        assert squares & set(GAME.geo.nbrs[sq("g1")]) and any(q < GAME.geo.w for q in squares)
