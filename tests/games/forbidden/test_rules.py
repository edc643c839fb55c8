"""Scenario tests that read like docs/rules/forbidden.md: a position, an action, the events and the position after."""

import pytest
from contract import check_illegal_untouched
from games.forbidden.helpers import act, duel, mon, setc, types

import coliseo
from coliseo.core.errors import IllegalAction
from coliseo.games.forbidden.content import TYPES
from coliseo.games.forbidden.state import (
    DEFENSIVE_WINS,
    EFFECTIVE_ATTACKS,
    EQUIPS,
    FACEDOWN_PLAYS,
    FUSIONS,
    PURE_MAGIC,
    TRAPS_TRIGGERED,
    rank_letter,
    rank_score,
)

BABY, RYU, KOUMORI, WINGED, BLACKLAND, FLAME, SPECTER = 4, 5, 31, 7, 10, 15, 9
DRAGON_ZOMBIE, CURSE_OF_DRAGON = 97, 39
MEGAMORPH, LEGENDARY_SWORD = 657, 301


# --- plays and fusion chains (R10–R15, R37) ---------------------------------------------------------

def test_two_monsters_of_matching_families_fuse_into_the_weakest_result_above_both():
    s = duel(hand=[BABY, RYU, FLAME])
    ev = act(s, "play 1+2 m1")
    assert types(ev) == ["play", "fusion", "summon"]
    assert ev[1]["materials"] == [BABY, RYU] and ev[1]["result"] == KOUMORI
    assert s.monsters[0][0][:3] == [KOUMORI, True, False] and s.monsters[0][0][8]  # face-up, known
    assert s.phase == "place" and s.removed[0] == [BABY, RYU] and s.counters[0][FUSIONS] == 1
    assert s.hands[0] == [FLAME]
    act(s, "place d2")
    assert s.monsters[0][0][2] and s.monsters[0][0][3] == 2 and s.phase == "battle"


def test_chain_of_three_fuses_twice():
    # Baby Dragon + Shadow Specter -> Dragon Zombie (1600); + Baby Dragon -> Curse of Dragon (2000).
    s = duel(hand=[BABY, SPECTER, BABY])
    ev = act(s, "play 1+2+3 m2")
    assert [e["result"] for e in ev if e["type"] == "fusion"] == [DRAGON_ZOMBIE, CURSE_OF_DRAGON]
    assert s.monsters[0][1][0] == CURSE_OF_DRAGON and s.counters[0][FUSIONS] == 2


def test_two_monsters_that_do_not_fuse_discard_the_first_and_go_on_with_the_second():
    s = duel(hand=[BABY, RYU, FLAME])
    ev = act(s, "play 1+2+3 m1")
    assert types(ev) == ["play", "fusion", "fail", "summon"]
    assert ev[2] == {"type": "fail", "player": 0, "kept": FLAME, "discarded": KOUMORI}
    assert s.monsters[0][0][0] == FLAME and s.monsters[0][0][8]
    assert s.removed[0] == [BABY, RYU, KOUMORI]


def test_monster_then_non_monster_failure_discards_the_later_card():
    s = duel(hand=[BABY, 343])
    ev = act(s, "play 1+2 m1")
    assert ev[1] == {"type": "fail", "player": 0, "kept": BABY, "discarded": 343}
    assert s.monsters[0][0][0] == BABY and s.removed[0] == [343]


def test_hand_monster_that_does_not_fuse_with_the_field_monster_replaces_it():
    s = duel(hand=[FLAME], mine=[mon(BABY, star=2, mod=500)])
    ev = act(s, "play 1 m1")
    assert ev[1] == {"type": "fail", "player": 0, "kept": FLAME, "discarded": BABY}
    assert s.monsters[0][0][0] == FLAME and s.monsters[0][0][4] == 0 and s.phase == "place"
    assert s.removed[0] == [BABY]


def test_chain_of_five_through_magic_fusions_activates_the_result():
    # Sparks+Sparks=Hinotama, +Hinotama=Final Flame, +Final Flame=Ookazi, +Ookazi=Tremendous Fire (1000).
    s = duel(hand=[343, 343, 344, 345, 346])
    ev = act(s, "play 1+2+3+4+5 act")
    assert [e["result"] for e in ev if e["type"] == "fusion"] == [344, 345, 346, 347]
    assert s.lp == [8000, 7000] and s.counters[0][FUSIONS] == 4 and s.counters[0][PURE_MAGIC] == 1
    assert s.removed[0] == [343, 343, 344, 344, 345, 345, 346, 346, 347]
    assert s.phase == "battle"


def test_chain_of_four_fusion_then_equip():
    s = duel(hand=[BABY, SPECTER, BABY, MEGAMORPH])
    act(s, "play 1+2+3+4 m1")
    assert s.monsters[0][0][0] == CURSE_OF_DRAGON and s.monsters[0][0][4] == 1000
    assert s.counters[0][EQUIPS] == 1 and s.counters[0][FUSIONS] == 2


def test_fusion_loses_earlier_equip_bonuses():
    s = duel(hand=[BABY, MEGAMORPH, SPECTER])
    act(s, "play 1+2+3 m1")
    assert s.monsters[0][0][0] == DRAGON_ZOMBIE and s.monsters[0][0][4] == 0


def test_non_monster_first_is_discarded_and_the_next_card_goes_on():
    s = duel(hand=[343, BABY])
    ev = act(s, "play 1+2 m1")
    assert ev[1] == {"type": "fail", "player": 0, "kept": BABY, "discarded": 343}
    assert s.monsters[0][0][0] == BABY and s.removed[0] == [343]


def test_equip_after_the_monster_and_before_it_give_the_same_bonus():
    for seq in ("1+2", "2+1"):
        s = duel(hand=[BABY, MEGAMORPH])
        ev = act(s, f"play {seq} m1")
        assert "equip" in types(ev) and s.monsters[0][0][4] == 1000 and s.monsters[0][0][0] == BABY
        assert s.stat(s.monsters[0][0]) == 2200 and s.counters[0][EQUIPS] == 1


def test_equip_that_does_not_fit_is_discarded():
    s = duel(hand=[BABY, LEGENDARY_SWORD])
    ev = act(s, "play 1+2 m1")
    assert ev[1]["type"] == "fail" and s.monsters[0][0][4] == 0 and s.counters[0][EQUIPS] == 0
    s = duel(hand=[FLAME, LEGENDARY_SWORD])
    act(s, "play 1+2 m1")
    assert s.monsters[0][0][4] == 500


def test_card_played_onto_own_monster_keeps_its_record():
    s = duel(hand=[MEGAMORPH], mine=[mon(BABY, up=False, defence=True, star=2)])
    ev = act(s, "play 1 m1")
    assert s.monsters[0][0] == [BABY, True, True, 2, 1000, 0, False, False, False]
    assert s.phase == "battle" and "flip" in types(ev) and s.counters[0][FACEDOWN_PLAYS] == 0


def test_fusion_with_a_field_monster_needs_a_new_placement():
    s = duel(hand=[RYU], mine=[mon(BABY, star=2, mod=500)])
    act(s, "play 1 m1")
    assert s.monsters[0][0][0] == KOUMORI and s.monsters[0][0][4] == 0 and s.phase == "place"
    assert s.removed[0] == [BABY, RYU]


def test_single_face_down_play_counts_and_hides_the_card():
    s = duel(hand=[BABY, 682])
    ev = act(s, "play 1 m3 fd")
    assert ev[0]["type"] == "play_hidden" and "card" not in ev[0] and ev[0]["private"]["fields"]["card"] == BABY
    assert s.monsters[0][2][1] is False and s.counters[0][FACEDOWN_PLAYS] == 1
    obs = s.observation(1)
    assert obs["sides"][0]["monsters"][2]["id"] is None
    act(s, "place d1")
    assert s.observation(1)["sides"][0]["monsters"][2]["star"] is None


def test_card_set_in_the_spell_row_counts_as_face_down_play():
    s = duel(hand=[682, BABY])
    act(s, "play 1 s2")
    assert s.spells[0][1][0] == 682 and s.counters[0][FACEDOWN_PLAYS] == 1 and s.phase == "battle"


def test_chain_on_a_monster_zone_ending_in_an_equip_sets_it_known_in_the_spell_row():
    # Flame Swordsman + Umi = Legendary Sword (an equip): the monster zone empties, the sword is set, known.
    s = duel(hand=[334, BABY], mine=[mon(FLAME)], my_spells=[setc(343)])
    ev = act(s, "play 1 m1")
    assert ev[1]["result"] == 301 and s.monsters[0][0] is None
    assert s.spells[0][1] == [301, False, False, 0, 0, 0, False, False, True] and s.phase == "battle"
    s = duel(hand=[334], mine=[mon(FLAME)], my_spells=[setc(343)] * 5)
    act(s, "play 1 m1")
    assert s.monsters[0][0] is None and s.removed[0] == [FLAME, 334, 301]


def test_chain_on_a_monster_zone_ending_in_a_magic_activates_it():
    # Harpie Lady + House of Adhesive Tape = Harpie's Feather Duster, activated at once.
    s = duel(hand=[681], mine=[mon(62)], their_spells=[setc(682), setc(339)])
    act(s, "play 1 m1")
    assert s.monsters[0][0] is None and s.spells[1] == [None] * 5 and s.counters[0][PURE_MAGIC] == 1
    assert s.removed[0] == [62, 681, 672]


def test_card_onto_a_set_card_is_a_combination():
    # Sparks onto a set Sparks fuses into Hinotama (set, known).
    s = duel(hand=[343], my_spells=[setc(343)])
    ev = act(s, "play 1 s1")
    assert s.spells[0][0] == [344, False, False, 0, 0, 0, False, False, True]
    assert types(ev) == ["play", "fusion", "set"] and ev[0]["cards"] == [343]  # a combination is shown
    assert s.counters[0][FACEDOWN_PLAYS] == 1  # one hand card onto an occupied spell zone still counts (R15)


def test_only_one_play_per_turn_and_place_comes_first():
    s = duel(hand=[BABY, RYU])
    act(s, "play 1 m1")
    check_illegal_untouched(s.game, s, ("play", (1,), 2, False))
    check_illegal_untouched(s.game, s, ("end",))
    act(s, "place a1")
    check_illegal_untouched(s.game, s, ("play", (1,), 2, False))


def test_illegal_plays_leave_the_state_untouched():
    s = duel(hand=[BABY, MEGAMORPH, 343])
    for bad in (("play", (1,), 6, False),        # a monster to an empty spell zone
                ("play", (2,), 0, False),        # an equip cannot be activated
                ("play", (3,), 1, False),        # a magic card to an empty monster zone
                ("play", (1, 2), 1, True),       # only single plays may be face-down
                ("attack", 1, 0), ("end",)):
        msg = check_illegal_untouched(s.game, s, bad)
        assert "legal" not in msg.lower() or msg
    with pytest.raises(IllegalAction, match="not been played"):
        s.apply(("end",))


# --- battle (R16–R20) --------------------------------------------------------------------------------

def battle(mine, theirs, **kw):
    return duel(hand=[], mine=mine, theirs=theirs, phase="battle", **kw)


def test_winning_star_gives_the_attacker_500():
    s = battle([mon(BABY, star=2)], [mon(WINGED, star=2)])  # Sun beats Moon: 1700 vs 1400
    ev = act(s, "attack m1 m1")
    b = next(e for e in ev if e["type"] == "battle")
    assert b["attack"] == 1700 and b["defence"] == 1400
    assert s.monsters[1][0] is None and s.lp == [8000, 7700] and s.counters[0][EFFECTIVE_ATTACKS] == 1


def test_losing_star_costs_the_attacker_500_and_never_helps_the_defender():
    s = battle([mon(BABY, star=2)], [mon(BLACKLAND, star=1)])  # Mercury beats Sun: 700 vs 1500
    ev = act(s, "attack m1 m1")
    b = next(e for e in ev if e["type"] == "battle")
    assert b["attack"] == 700 and b["defence"] == 1500
    assert s.monsters[0][0] is None and s.monsters[1][0] is not None and s.lp == [7200, 8000]


@pytest.mark.parametrize("att,att_star,tgt,tgt_star", [(FLAME, 1, WINGED, 1),   # Mars / Saturn
                                                         (BABY, 2, 27, 2),       # Sun / Venus
                                                         (BABY, 2, BABY, 2)])    # equal
def test_non_neighbour_and_equal_stars_are_neutral(att, att_star, tgt, tgt_star):
    s = battle([mon(att, star=att_star)], [mon(tgt, star=tgt_star)])
    ev = act(s, "attack m1 m1")
    b = next(e for e in ev if e["type"] == "battle")
    assert b["attack"] == s.pack.cards[att].atk


def test_equal_attack_destroys_both_without_damage():
    s = battle([mon(BABY, star=2)], [mon(BABY, star=2)])
    act(s, "attack m1 m1")
    assert s.monsters[0][0] is None and s.monsters[1][0] is None and s.lp == [8000, 8000]


def test_attack_on_defence_position():
    s = battle([mon(FLAME)], [mon(BABY, defence=True, up=False)])  # 1800 vs DEF 700
    ev = act(s, "attack m1 m1")
    assert "flip" in types(ev) and s.monsters[1][0] is None and s.lp == [8000, 8000]
    s = battle([mon(BABY, star=1)], [mon(74, defence=True, star=1)])  # Giant Soldier DEF 2000 (Ur/Ur)
    act(s, "attack m1 m1")
    assert s.lp == [7200, 8000] and s.monsters[0][0] is not None and s.counters[1][DEFENSIVE_WINS] == 1
    s = battle([mon(BABY, star=1)], [mon(28, defence=True, star=1)])  # Rock Ogre DEF 1200, Ur vs Ur
    act(s, "attack m1 m1")
    assert s.lp == [8000, 8000] and s.monsters[0][0] and s.monsters[1][0]


def test_direct_attack_only_when_the_opponent_has_no_monster():
    s = battle([mon(FLAME, mod=500)], [])
    assert ("attack", 1, 0) in s.legal_actions()
    act(s, "attack m1 direct")
    assert s.lp == [8000, 5700] and s.counters[0][EFFECTIVE_ATTACKS] == 0
    s = battle([mon(FLAME)], [mon(BABY)])
    check_illegal_untouched(s.game, s, ("attack", 1, 0))



def test_first_turn_attack_off_keeps_the_first_player_from_attacking_on_the_first_turn_only():
    s = duel(hand=[FLAME], opp_hand=[BABY], first_turn_attack=False)
    act(s, "play 1 m1")
    act(s, "place a1")
    assert s.turn == 1 and [a for a in s.legal_actions() if a[0] == "attack"] == []
    assert "first turn" in s.why_illegal(("attack", 1, 0))
    check_illegal_untouched(s.game, s, ("attack", 1, 0))
    act(s, "end")                            # the second player's first turn: attacks as usual
    act(s, "play 1 m1")
    act(s, "place a1")
    assert s.turn == 2 and ("attack", 1, 1) in s.legal_actions()
    act(s, "end")
    assert ("attack", 1, 1) not in s.legal_actions()   # the first player's second turn: main phase first
    play = next(a for a in s.legal_actions() if s.game.format_action(a).split()[2] in ("m2", "s1"))
    s.apply(play)                            # a monster to m2 or a set card: Flame Swordsman stays on m1
    if s.phase == "place":
        act(s, "place a1")
    assert ("attack", 1, 1) in s.legal_actions()


def test_by_default_the_first_player_attacks_on_the_first_turn():
    s = duel(hand=[FLAME])
    act(s, "play 1 m1")
    act(s, "place a1")
    assert s.turn == 1 and ("attack", 1, 0) in s.legal_actions()
    act(s, "attack m1 direct")
    assert s.lp == [8000, 6200]

def test_used_monsters_and_defence_monsters_cannot_attack():
    s = battle([mon(FLAME, used=True), mon(BABY, defence=True)], [])
    assert [a for a in s.legal_actions() if a[0] == "attack"] == []


def test_position_changes_once_per_turn_and_not_after_attacking():
    s = battle([mon(FLAME), mon(BABY)], [])
    act(s, "pos m1")
    assert s.monsters[0][0][2] is True
    check_illegal_untouched(s.game, s, ("pos", 1))
    act(s, "attack m2 direct")
    check_illegal_untouched(s.game, s, ("pos", 2))


def test_lp_zero_ends_the_duel_at_once():
    s = battle([mon(FLAME)], [], lp=(8000, 1800))
    act(s, "attack m1 direct")
    assert s.is_over and s.result["winners"] == [0] and s.result["reason"] == "life_points_zero"
    assert s.current_player is None and s.legal_actions() == []


TERRAIN_BONUS = {1: {"BW": 500, "BE": 500, "IN": 500, "PL": 500}, 2: {"ZO": 500, "DI": 500, "RO": 500},
                 3: {"DR": 500, "WB": 500, "TH": 500}, 4: {"WA": 500, "BW": 500},
                 5: {"FS": 500, "SS": 500, "TH": 500, "AQ": 500, "MA": -500, "PY": -500},
                 6: {"SC": 500, "FI": 500, "FA": -500}}


@pytest.mark.parametrize("terrain", range(7))
def test_terrain_bonus_for_each_type(terrain):
    s = duel()
    s.terrain = terrain
    for card in s.pack.cards.values():
        if card.kind == 0:
            rec = mon(card.id)
            bonus = TERRAIN_BONUS.get(terrain, {}).get(TYPES[card.type], 0)
            assert s.stat(rec) == max(0, card.atk + bonus), (terrain, card.name)
            assert s.stat(rec, True) == max(0, card.defense + bonus)


def test_terrain_bonus_applies_to_face_down_monsters_and_in_battle():
    s = battle([mon(BABY, star=1)], [mon(WINGED, star=1, up=False)], terrain=3)  # Mountain: both +500
    ev = act(s, "attack m1 m1")
    b = next(e for e in ev if e["type"] == "battle")
    assert b["attack"] == 1200 and b["defence"] == 1900  # Ur vs Sa: Saturn beats Uranus: -500


# --- traps (R24–R27) -----------------------------------------------------------------------------------

@pytest.mark.parametrize("trap,threshold", [(681, 500), (682, 1000), (683, 1500), (684, 2000), (685, 3000),
                                            (686, 25500)])
def test_attack_trap_fires_when_its_threshold_covers_the_attacker(trap, threshold):
    power = min(threshold, 9999)
    s = battle([mon(BABY, mod=power - 1200)], [], their_spells=[setc(trap)])
    ev = act(s, "attack m1 direct")
    assert types(ev) == ["attack", "trap", "destroy"] and s.lp == [8000, 8000]
    assert s.monsters[0][0] is None and s.counters[1][TRAPS_TRIGGERED] == 1 and s.removed[1] == [trap]
    if threshold < 9999:
        s = battle([mon(BABY, mod=power + 1 - 1200)], [], their_spells=[setc(trap)])
        ev = act(s, "attack m1 direct")
        assert "trap" not in types(ev) and s.lp == [8000, 8000 - power - 1]


def test_the_lowest_covering_trap_fires():
    spells = [setc(685), setc(683), setc(684)]
    s = battle([mon(WINGED)], [], their_spells=spells)  # 1400: Bear Trap (1500)
    ev = act(s, "attack m1 direct")
    assert ev[1]["card"] == 683 and ev[1]["zone"] == "s2"
    s = battle([mon(CURSE_OF_DRAGON)], [], their_spells=[setc(685), setc(683), setc(684)])  # 2000: Wire (2000)
    assert act(s, "attack m1 direct")[1]["card"] == 684


def test_fired_trap_leaves_the_target_face_down():
    s = battle([mon(BABY)], [mon(WINGED, up=False)], their_spells=[setc(683)])
    act(s, "attack m1 m1")
    assert s.monsters[1][0][1] is False and s.monsters[0][0] is None


def test_fake_trap_stops_an_attack_no_trap_covered():
    s = battle([mon(BABY, up=False)], [mon(SPECTER)], their_spells=[setc(690)])
    ev = act(s, "attack m1 m1")
    assert types(ev) == ["attack", "trap", "flip"]
    assert s.monsters[0][0][1] and s.monsters[0][0][6] and s.monsters[1][0] is not None and s.lp == [8000, 8000]
    s = battle([mon(BABY)], [mon(SPECTER)], their_spells=[setc(690)], fake_trap_stops_attacks=False)
    ev = act(s, "attack m1 m1")
    assert "trap" not in types(ev) and s.monsters[1][0] is None


def test_attack_trap_fires_before_fake_trap():
    s = battle([mon(BABY)], [], their_spells=[setc(690), setc(683)])
    assert act(s, "attack m1 direct")[1]["card"] == 683 and s.spells[1][0] is not None


def test_goblin_fan_reflects_burn_and_simochi_reverses_heal():
    s = duel(hand=[344], their_spells=[setc(687)])
    act(s, "play 1 act")
    assert s.lp == [7900, 8000] and s.spells[1][0] is None and s.counters[1][TRAPS_TRIGGERED] == 1
    s = duel(hand=[339], their_spells=[setc(688)], lp=(7000, 8000))
    act(s, "play 1 act")
    assert s.lp == [6500, 8000]


def test_reverse_trap_turns_an_equip_negative():
    s = duel(hand=[FLAME, MEGAMORPH], their_spells=[setc(689)])
    act(s, "play 1+2 m1")
    assert s.monsters[0][0][4] == -1000 and s.stat(s.monsters[0][0]) == 800 and s.counters[0][EQUIPS] == 1
    assert s.removed[1] == [689]


def test_traps_never_fire_on_their_owners_actions():
    s = duel(hand=[344], my_spells=[setc(687)])
    act(s, "play 1 act")
    assert s.lp == [8000, 7900] and s.spells[0][0] is not None


# --- magic (R22, R23) ----------------------------------------------------------------------------------

def test_field_card_sets_the_terrain():
    s = duel(hand=[330])
    act(s, "play 1 act")
    assert s.terrain == 1 and s.counters[0][PURE_MAGIC] == 1


def test_heal_is_capped_at_max_lp():
    s = duel(hand=[339], lp=(7800, 8000))
    ev = act(s, "play 1 act")
    assert s.lp[0] == 8000 and ev[-1]["amount"] == 200


def test_dark_hole_destroys_every_monster_and_jar_only_the_opponents_dragons():
    s = duel(hand=[336], mine=[mon(FLAME)], theirs=[mon(BABY), mon(SPECTER)])
    act(s, "play 1 act")
    assert s.monsters == [[None] * 5, [None] * 5] and s.removed[0] == [336, FLAME]
    s = duel(hand=[329], mine=[mon(BABY)], theirs=[mon(SPECTER), mon(BABY, up=False)])
    act(s, "play 1 act")
    assert s.monsters[0][0] is not None and s.monsters[1][0] is not None and s.monsters[1][1] is None


def test_type_killer_and_crush_card():
    s = duel(hand=[653], mine=[mon(FLAME)], theirs=[mon(FLAME), mon(BABY)])
    act(s, "play 1 act")
    assert s.monsters[0][0] is not None and s.monsters[1][0] is None and s.monsters[1][1] is not None
    s = duel(hand=[661], theirs=[mon(BABY, mod=300), mon(BABY, mod=299)])  # effective ATK >= 1500
    act(s, "play 1 act")
    assert s.monsters[1][0] is None and s.monsters[1][1] is not None


def test_stop_defense_raigeki_and_dark_piercing_light():
    s = duel(hand=[320], theirs=[mon(BABY, defence=True, up=False)])
    act(s, "play 1 act")
    assert s.monsters[1][0][2] is False and s.monsters[1][0][1] is False
    s = duel(hand=[350], theirs=[mon(BABY, up=False), mon(RYU)])
    ev = act(s, "play 1 act")
    assert s.monsters[1][0][1] and types(ev) == ["play", "activate", "flip"]
    s = duel(hand=[337], theirs=[mon(BABY), None, mon(RYU)])
    act(s, "play 1 act")
    assert s.monsters[1] == [None] * 5 and s.removed[1] == [BABY, RYU]


def test_magic_with_nothing_to_act_on_is_consumed():
    s = duel(hand=[337, BABY])
    ev = act(s, "play 1 act")
    assert types(ev) == ["play", "activate"] and s.removed[0] == [337] and s.counters[0][PURE_MAGIC] == 1
    assert s.hands[0] == [BABY] and s.phase == "battle"


def test_spellbinding_curse_stays_and_cursebreaker_lifts_it():
    s = duel(hand=[349], theirs=[mon(FLAME), mon(BABY)])
    act(s, "play 1 act")
    assert [r[5] for r in s.monsters[1][:2]] == [-500, -500] and s.stat(s.monsters[1][1]) == 700
    s.player, s.phase, s.hands[1], s._legal = 1, "main", [655], None
    act(s, "play 1 act")
    assert [r[5] for r in s.monsters[1][:2]] == [0, 0]


def test_swords_flip_and_pin_the_opponent_for_three_of_their_turns():
    s = duel(hand=[348], theirs=[mon(BABY, up=False)], deck=[1] * 10, opp_deck=[RYU] * 10, opp_hand=[SPECTER])
    act(s, "play 1 act")
    assert s.monsters[1][0][1] and s.pinned[1] == 3
    for left in (2, 1, 0):
        act(s, "end")                         # the opponent's turn
        act(s, s.game.format_action(s.legal_actions()[0]))
        if s.phase == "place":
            act(s, "place a1")
        if left:
            assert [a for a in s.legal_actions() if a[0] == "attack"] == []
        act(s, "end")
        assert s.pinned[1] == left
        act(s, s.game.format_action(s.legal_actions()[0]))
        if s.phase == "place":
            act(s, "place a1")


def test_duster_destroys_the_spell_row_but_fake_trap_takes_it_alone():
    s = duel(hand=[672], their_spells=[setc(681), setc(339), setc(683)])
    act(s, "play 1 act")
    assert s.spells[1] == [None] * 5 and s.removed[1] == [681, 339, 683]
    s = duel(hand=[672], their_spells=[setc(681), setc(690), setc(683)])
    ev = act(s, "play 1 act")
    assert s.spells[1][1] is None and s.spells[1][0] and s.spells[1][2] and ev[-1]["type"] == "trap"


def test_set_magic_is_activated_in_battle_and_set_equip_onto_a_monster():
    s = duel(hand=[], mine=[mon(BABY)], my_spells=[setc(344), setc(MEGAMORPH)], phase="battle")
    assert ("act", 1) in s.legal_actions() and ("act", 2, 1) in s.legal_actions()
    act(s, "act s1")
    assert s.lp == [8000, 7900]
    act(s, "act s2 m1")
    assert s.monsters[0][0][4] == 1000 and s.spells[0] == [None] * 5


def test_set_equip_onto_a_misfit_is_discarded():
    s = duel(hand=[], mine=[mon(BABY)], my_spells=[setc(LEGENDARY_SWORD)], phase="battle")
    ev = act(s, "act s1 m1")
    assert ev[0]["type"] == "fail" and s.monsters[0][0][4] == 0 and s.removed[0] == [LEGENDARY_SWORD]


# --- rituals (R28) -------------------------------------------------------------------------------------

def test_ritual_with_face_down_and_defence_tributes():
    s = duel(hand=[670], mine=[mon(BABY), mon(58, defence=True), mon(38, up=False), mon(27)])
    ev = act(s, "play 1 act")
    assert [e["card"] for e in ev if e["type"] == "tribute"] == [27, 38, 58]
    assert s.removed[0] == [670, 27, 38, 58] and s.monsters[0][1][0] == 364 and s.phase == "place"
    assert s.monsters[0][2] is None and s.monsters[0][3] is None and s.monsters[0][0][0] == BABY


def test_ritual_needs_distinct_records():
    s = duel(hand=[675], mine=[mon(1), mon(1)])
    ev = act(s, "play 1 act")
    assert types(ev) == ["play", "activate", "ritual_failed"] and s.monsters[0][0] and s.removed[0] == [675]
    s = duel(hand=[675], mine=[mon(1), mon(1), mon(1, up=False)])
    act(s, "play 1 act")
    assert s.monsters[0][0][0] == 380 and s.monsters[0][1] is None


# --- the end (R29–R31) ---------------------------------------------------------------------------------

def test_exodia_wins_after_the_draw():
    s = duel(hand=[], opp_hand=[17, 18, 19, 20], opp_deck=[21, 1, 1], mine=[mon(BABY)], phase="battle")
    ev = act(s, "end")
    assert s.result["winners"] == [1] and s.result["reason"] == "exodia_assembled" and "exodia" in types(ev)
    s = duel(hand=[], opp_hand=[17, 18, 19, 20], opp_deck=[21], mine=[mon(BABY)], phase="battle", exodia=False)
    act(s, "end")
    assert not s.is_over


def test_deck_out_loses_only_when_a_draw_is_due():
    s = duel(hand=[], opp_hand=[1, 1], opp_deck=[2], mine=[mon(BABY)], phase="battle")
    act(s, "end")
    assert not s.is_over and s.hands[1] == [1, 1, 2]
    s = duel(hand=[], opp_hand=[1, 1], opp_deck=[], mine=[mon(BABY)], phase="battle")
    act(s, "end")
    assert s.result["winners"] == [0] and s.result["reason"] == "deck_out"
    s = duel(hand=[], opp_hand=[1, 1, 1, 2, 2], opp_deck=[], mine=[mon(BABY)], phase="battle")
    act(s, "end")
    assert not s.is_over


# --- rank (R33, R34) and rewards (R35) -------------------------------------------------------------------

BASE = {"turns": 10, "effective_attacks": 5, "defensive_wins": 0, "facedown_plays": 0, "pure_magic": 0,
        "traps_triggered": 0, "cards_used": 20, "lp": 5000, "fusions": 2, "equips": 2}
BASE_SCORE = 50 + 2 + 2 + 2  # LP win, no pure magic, no traps


@pytest.mark.parametrize("row,counter,points", [
    ("turns", 4, 12), ("turns", 5, 8), ("turns", 8, 8), ("turns", 9, 0), ("turns", 29, -8), ("turns", 33, -12),
    ("effective_attacks", 1, 4), ("effective_attacks", 2, 2), ("effective_attacks", 10, -2),
    ("effective_attacks", 20, -4), ("defensive_wins", 1, 0), ("defensive_wins", 2, -10),
    ("defensive_wins", 6, -20), ("defensive_wins", 10, -30), ("defensive_wins", 15, -40),
    ("facedown_plays", 1, -2), ("facedown_plays", 11, -4), ("facedown_plays", 21, -6), ("facedown_plays", 31, -8),
    ("pure_magic", 0, 2), ("pure_magic", 1, -4), ("pure_magic", 4, -8), ("pure_magic", 7, -12),
    ("pure_magic", 10, -16), ("traps_triggered", 0, 2), ("traps_triggered", 1, -8), ("traps_triggered", 3, -16),
    ("traps_triggered", 5, -24), ("traps_triggered", 7, -32), ("cards_used", 8, 15), ("cards_used", 9, 12),
    ("cards_used", 13, 0), ("cards_used", 33, -5), ("cards_used", 37, -7), ("lp", 99, -7), ("lp", 100, -5),
    ("lp", 1000, 0), ("lp", 7000, 4), ("lp", 8000, 6), ("fusions", 0, 4), ("fusions", 5, -4), ("fusions", 10, -8),
    ("fusions", 15, -12), ("equips", 0, 4), ("equips", 1, 0), ("equips", 14, -8)])
def test_each_rank_row(row, counter, points):
    pack = coliseo.load_game("forbidden").pack
    counters = dict(BASE, **{row: counter})
    baseline = {"pure_magic": 2, "traps_triggered": 2}.get(row, 0)
    assert rank_score(pack, counters, "life_points_zero", 2) == BASE_SCORE - baseline + points


def test_end_adjustments():
    pack = coliseo.load_game("forbidden").pack
    assert rank_score(pack, BASE, "exodia_assembled", 2) == BASE_SCORE - 2 + 40
    assert rank_score(pack, BASE, "deck_out", 2) == BASE_SCORE - 2 - 40
    assert rank_score(pack, BASE, "life_points_zero", 0) == BASE_SCORE - 2


@pytest.mark.parametrize("score,letter", [(120, "S-POW"), (99, "S-POW"), (90, "S-POW"), (89, "A-POW"),
                                          (80, "A-POW"), (79, "B-POW"), (70, "B-POW"), (69, "C-POW"),
                                          (60, "C-POW"), (59, "D-POW"), (50, "D-POW"), (49, "D-TEC"),
                                          (40, "D-TEC"), (39, "C-TEC"), (30, "C-TEC"), (29, "B-TEC"),
                                          (20, "B-TEC"), (19, "A-TEC"), (10, "A-TEC"), (9, "S-TEC"),
                                          (0, "S-TEC"), (-30, "S-TEC")])
def test_letter_bands(score, letter):
    assert rank_letter(coliseo.load_game("forbidden").pack, score)[0] == letter


def test_winner_gets_rank_starchips_and_a_drop_against_a_cpu_duelist():
    s = battle([mon(FLAME)], [], lp=(8000, 1000), mode="free_duel")
    act(s, "attack m1 direct")
    r = s.result
    assert r["winners"] == [0] and r["starchips"] == r["rank"]["tier"] + 1
    pool = {"bcd": {425, 409, 426, 15}, "sa_pow": {613, 571, 531, 529}, "sa_tec": {686, 337}}[r["pool"]]
    assert r["drop"] in pool


def test_no_rewards_in_a_plain_duel_or_for_the_cpu():
    s = battle([mon(FLAME)], [], lp=(8000, 1000))
    act(s, "attack m1 direct")
    assert "drop" not in s.result and s.result["scores"][1] == 0
    s = battle([mon(FLAME)], [], lp=(1000, 8000), mode="free_duel", player=1)
    act(s, "attack m1 direct")
    assert s.result["winners"] == [1] and "drop" not in s.result


def test_chain_of_five_through_every_branch():
    # Baby Dragon + Megamorph: equip onto A; + Ryu-kishin: fusion (the bonus is lost); + Sparks: failure,
    # the magic card is discarded; + Flame Swordsman: failure between monsters, Koumori is discarded.
    s = duel(hand=[BABY, MEGAMORPH, RYU, 343, FLAME])
    ev = act(s, "play 1+2+3+4+5 m4")
    assert types(ev) == ["play", "equip", "fusion", "fail", "fail", "summon"]
    assert s.monsters[0][3][0] == FLAME and s.monsters[0][3][4] == 0
    assert s.removed[0] == [MEGAMORPH, BABY, RYU, 343, KOUMORI]
    assert s.counters[0][EQUIPS] == 1 and s.counters[0][FUSIONS] == 1 and s.hands[0] == []


# --- setup (R6, R35, R36) -----------------------------------------------------------------------------

def test_new_state_shuffles_seat_1_then_seat_2_and_deals_five_each():
    from coliseo.core.rng import Rng
    game = coliseo.load_game("forbidden")
    s = game.new_state(42)
    rng = Rng(42)
    decks = [game.pack.deck_ids("starter_a"), game.pack.deck_ids("starter_b")]
    rng.shuffle(decks[0])
    rng.shuffle(decks[1])
    assert s.hands == [decks[0][:5], decks[1][:5]] and s.decks == [decks[0][5:], decks[1][5:]]
    assert s.lp == [8000, 8000] and s.turn == 1 and s.current_player == 0 and s.phase == "main"
    assert s.counter_values(0)["cards_used"] == 5 and s.counters[0][0] == 1 and s.counters[1][0] == 0


def test_first_player_random_draws_before_the_shuffles():
    from coliseo.core.rng import Rng
    game = coliseo.load_game("forbidden", first_player="random")
    for seed in range(6):
        rng = Rng(seed)
        first = rng.randrange(2)
        deck = game.pack.deck_ids("starter_a")
        rng.shuffle(deck)
        s = game.new_state(seed)
        assert s.current_player == first and s.hands[0] == deck[:5]


class FixedRng:
    def __init__(self, t):
        self.t = t

    def randrange(self, n):
        return self.t - 1


@pytest.mark.parametrize("t,expected", [(1, 10), (2, 20), (3, 20), (4, 30)])
def test_weighted_draw_walks_ids_ascending(t, expected):
    from coliseo.games.forbidden.state import draw_weighted
    assert draw_weighted(FixedRng(t), [(10, 1), (20, 2), (30, 1)]) == expected
    assert draw_weighted(FixedRng(1), [(10, 0)]) is None


def test_cpu_mode_uses_the_duelists_deck_and_terrain_and_seat_1_moves_first():
    game = coliseo.load_game("forbidden", mode="campaign", first_player="1")
    s = game.new_state(3)
    assert s.current_player == 0 and s.duelist == 1
    assert sorted(s.lists[1]) == sorted(game.pack.deck_ids("starter_b"))


def test_starter_families_yield_the_784_monster_pairs_of_the_rules_file():
    """§6.2: the 44 family lines give 784 fusing monster pairs (a card with itself included)."""
    pack = coliseo.load_game("forbidden").pack
    monsters = sorted(c.id for c in pack.cards.values() if c.kind == 0)
    pairs = [(a, b) for i, a in enumerate(monsters) for b in monsters[i:] if pack.fuse(a, b)]
    assert len(monsters) == 111 and len(pairs) == 784


def test_family_fusion_takes_the_weakest_result_above_both_materials():
    pack = coliseo.load_game("forbidden").pack
    assert pack.fuse(4, 9) == 97      # DR+ZO: Dragon Zombie 1600 > 1200
    assert pack.fuse(97, 4) == 39     # Dragon Zombie is not above 1600: Curse of Dragon 2000
    assert pack.fuse(39, 9) == 0      # nothing above 2000 in DR+ZO
    assert pack.fuse(15, 1) == 0      # WA+DR results (D. Human, Sword Arm) are below Blue-eyes
    assert pack.fuse(62, 682) == 672  # an explicit pair with a trap
    assert pack.fuse(73, 448) == 0    # two Sea Serpents (tag DR): no SS+SS, DR+SS or DR+DR family
