"""The bundled content is what capsule.md §6 specifies, and every monster meets the design rating."""

from collections import Counter

import pytest

from coliseo import load_game
from coliseo.core.errors import SetupError
from coliseo.games.capsule.content import load_content, team_problem

CONTENT = load_content()
ABILITY_RATING = {"stun": 2.5, "heal": 1.5, "pierce": 1.0, "fly": 0.5, "scout": 0.5, "rouse": 0.5}
PER_POINT = {"armor": 2.0, "bane": 0.5}


def rating(card) -> float:
    """capsule.md §6: V = hp + 1.5·damage + mv + at + Σab − (move cost − 1) − 1.5·(attack cost − 1)."""
    move, attack = card.move, card.attack
    mv = {"+": move.range, "X": 0.6 * move.range, "O": 1.6}[move.pattern]
    at = {"+": 1 + 1.5 * (attack.range - 1), "X": 0.6 + 1.2 * (attack.range - 1), "O": 2.5}[attack.pattern]
    ab = sum(PER_POINT[a.id] * a.n if a.id in PER_POINT else ABILITY_RATING[a.id] for a in card.abilities)
    return card.hp + 1.5 * attack.damage + mv + at + ab - (move.cost - 1) - 1.5 * (attack.cost - 1)


def test_the_packs_hold_the_specified_kings_monsters_and_presets():
    assert CONTENT.packs == ["starter", "set1"]
    assert set(CONTENT.kings) == {"dawn_king", "dusk_king", "storm_king", "stone_king"}
    assert len(CONTENT.monsters) == 34
    assert set(CONTENT.teams) == {"starter_dawn", "starter_dusk", "adv_dawn", "adv_dusk", "adv_storm", "adv_stone"}
    costs = {t.id: sum(CONTENT.monsters[m].cost for m in t.monsters) for t in CONTENT.teams.values()}
    assert costs == {"starter_dawn": 12, "starter_dusk": 12, "adv_dawn": 32, "adv_dusk": 30, "adv_storm": 29,
                     "adv_stone": 31}


@pytest.mark.parametrize("team", list(CONTENT.teams.values()), ids=list(CONTENT.teams))
def test_every_shipped_preset_keeps_the_team_rules_of_its_mode(team):
    assert team_problem(team.king, list(team.monsters), CONTENT.kings, CONTENT.monsters, team.mode, zone_size=8,
                        enforce=True) is None
    game = load_game("capsule", mode=team.mode)
    rivals = [t.id for t in CONTENT.teams.values() if t.mode == team.mode]
    for rival in rivals:
        state = game.new_state(1, {"players": [{"preset": team.id}, {"preset": rival}]})
        assert [len(state.own[p]) - 1 for p in (0, 1)] == [len(team.monsters), len(CONTENT.teams[rival].monsters)]


def test_set1_has_five_level_one_and_two_level_two_monsters_per_faction():
    set1 = list(CONTENT.monsters.values())[6:]
    per = Counter((c.faction, c.level >= 2) for c in set1)
    assert all(per[(f, False)] == 5 and per[(f, True)] == 2 for f in ("light", "dark", "electric", "earth"))


@pytest.mark.parametrize("card", list(CONTENT.monsters.values()), ids=list(CONTENT.monsters))
def test_every_monster_costs_its_design_rating(card):
    target = rating(card) / 2.6 - (1 if card.level >= 2 else 0)
    assert abs(card.cost - target) <= 1


def test_spot_check_of_the_tables():
    empress = CONTENT.monsters["night_empress"]
    assert (empress.level, empress.cost, empress.hp, empress.stun, empress.bane) == (2, 6, 6, True, {"light": 1})
    assert CONTENT.kings["dusk_king"].fly and CONTENT.kings["dusk_king"].ability("scout").range == 3
    assert CONTENT.kings["stone_king"].armor == 1
    assert CONTENT.kings["storm_king"].monster_points == (13, 31)          # content note: 28 → 31 in advanced
    assert load_game("capsule").card_name("seraph_of_noon", "es") == "Serafín del Mediodía (2)"


def test_the_level_two_banes_docs_balance_measured():
    """Content notes, seventh step: each answers one pair (Dawn–Storm, Dusk–Stone) and no basic team can hold it."""
    assert CONTENT.monsters["plasma_phoenix"].bane == {"light": 2}
    assert CONTENT.monsters["mountain_behemoth"].bane == {"dark": 1}
    abilities = {row["id"]: row["abilities"] for row in load_game("capsule").card_rows()}
    assert abilities["plasma_phoenix"] == "fly, pierce, bane light 2"
    assert abilities["mountain_behemoth"] == "armor 2, bane dark"


def test_the_shadow_wolfs_bane_docs_balance_measured():
    """Content notes, eighth step: a Level-1 bane that only `adv_dusk` fields, so it reaches no basic game."""
    assert CONTENT.monsters["shadow_wolf"].bane == {"electric": 1}
    assert [t.id for t in CONTENT.teams.values() if "shadow_wolf" in t.monsters] == ["adv_dusk"]
    abilities = {row["id"]: row["abilities"] for row in load_game("capsule").card_rows()}
    assert abilities["shadow_wolf"] == "bane electric"


def test_the_seraph_of_noons_eighth_hit_point_docs_balance_measured():
    """Content notes, ninth step: a Level-2 monster (only `adv_dawn` fields it); its bane went with that hit point."""
    seraph = CONTENT.monsters["seraph_of_noon"]
    assert (seraph.level, seraph.cost, seraph.hp, seraph.bane) == (2, 6, 8, {})
    abilities = {row["id"]: row["abilities"] for row in load_game("capsule").card_rows()}
    assert abilities["seraph_of_noon"] == "fly"


def test_the_lighter_halo_sentinel_and_the_sand_scorpions_bane_light_docs_balance_measured():
    """Content notes, tenth step: the Sentinel is fielded only by `adv_dawn`, the Scorpion only by `adv_stone`, and
    of the advanced presets only `adv_dawn` fields light, so the bane reaches Dawn-Stone alone."""
    sentinel = CONTENT.monsters["halo_sentinel"]
    assert (sentinel.cost, sentinel.hp, sentinel.attack.cost, sentinel.attack.damage) == (3, 3, 2, 1)
    assert CONTENT.monsters["sand_scorpion"].bane == {"light": 1}
    assert [t.id for t in CONTENT.teams.values() if "halo_sentinel" in t.monsters] == ["adv_dawn"]
    assert [t.id for t in CONTENT.teams.values() if "sand_scorpion" in t.monsters] == ["adv_stone"]
    light = {t.id for t in CONTENT.teams.values() if any(CONTENT.monsters[m].faction == "light" for m in t.monsters)}
    assert light == {"starter_dawn", "adv_dawn"}
    abilities = {row["id"]: row["abilities"] for row in load_game("capsule").card_rows()}
    assert abilities["sand_scorpion"] == "stun, bane light"


def test_a_seat_picks_a_preset_of_the_games_mode_and_the_other_keeps_its_default():
    game = load_game("capsule", mode="advanced")
    assert [s["id"] for s in game.sides() if s["options"] == {"mode": "advanced"}] == [
        "adv_dawn", "adv_dusk", "adv_storm", "adv_stone"]
    state = game.new_state(1, game.setup_for_sides([None, "adv_stone"]))
    kings = {p[1]: p[3].id for p in state.board if p and p[3].id.endswith("_king")}
    assert kings == {0: "dawn_king", 1: "stone_king"}
    with pytest.raises(SetupError, match="player 1: no advanced team preset 'starter_dawn'; the advanced presets"):
        game.setup_for_sides(["starter_dawn", None])
