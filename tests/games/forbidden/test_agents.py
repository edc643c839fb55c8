"""fm-classic (docs/rules/forbidden.md §9) and the greedy evaluation."""

import random

from games.forbidden.helpers import duel, mon, setc

import coliseo
from coliseo.agents.base import Seat, make_agent, play_game
from coliseo.agents.fm_classic import FmClassicAgent
from coliseo.games.forbidden.evaluation import evaluate, params_for

GAME = coliseo.load_game("forbidden")


def seat(state):
    return Seat(state, state.current_player, random.Random(0))


def wins(first, second, games, **options):
    game = coliseo.load_game("forbidden", **options)
    won = 0
    for i in range(games):
        agents = [make_agent(first, game, seed=i), make_agent(second, game, seed=100 + i)]
        if i % 2:
            agents.reverse()
        s = game.new_state(i)
        play_game(s, agents, random.Random(i))
        won += (s.result["winners"][0] == 0) == (i % 2 == 0)
    return won


def test_fm_classic_beats_random():
    assert wins("fm-classic", "random", 20) >= 16


def test_greedy_beats_random():
    assert wins("greedy", "random", 6) >= 5


def test_fm_classic_is_registered_for_this_game_only():
    agent = make_agent("fm-classic", GAME, seed=1)
    assert isinstance(agent, FmClassicAgent) and agent.name == "fm-classic"


def test_parameters_come_from_the_duelist_row():
    p = params_for(GAME.pack, 1)  # Sparring Partner: 20,10,2,2,25,50 df
    assert (p.lp, p.low_deck, p.combo, p.power, p.duster, p.blind) == (2000, 10, 2, 2, 25, 50)
    assert p.ahead == (40, 30, 30) and p.weak == (30, 30, 40)
    q = params_for(GAME.pack, None)  # no duelist: row 7 = 20,10,3,3,50,50 ae
    assert (q.combo, q.power, q.duster, q.ahead) == (3, 3, 50, (70, 15, 15))


def test_lethal_burn_first():
    s = duel(hand=[1, 344, 4], lp=(8000, 100), deck=[1] * 30)
    assert FmClassicAgent(GAME, seed=1).act(seat(s)) == ("play", (2,), 0, False)


def test_new_monsters_are_placed_in_attack_with_star_1():
    s = duel(hand=[4, 5])
    s.apply(("play", (1,), 1, False))
    assert FmClassicAgent(GAME).act(seat(s)) == ("place", "a", 1)


def test_attacks_the_strongest_beatable_target_with_its_weakest_winner():
    s = duel(mine=[mon(22), mon(15)], theirs=[mon(4, star=1), mon(7, star=1)], phase="battle",
             lp=(8000, 8000))
    # Flame Swordsman (1800, Mars) beats Winged Dragon (1400, Saturn: neutral) and is weaker than the Skull.
    assert FmClassicAgent(GAME).act(seat(s)) == ("attack", 2, 2)


def test_direct_attack_when_the_opponent_has_no_monster_and_end_after():
    s = duel(mine=[mon(15)], phase="battle")
    agent = FmClassicAgent(GAME)
    assert agent.act(seat(s)) == ("attack", 1, 0)
    s.apply(("attack", 1, 0))
    assert agent.act(seat(s)) == ("end",)


def test_set_equip_goes_onto_the_first_monster_it_fits():
    s = duel(mine=[mon(4), mon(15)], my_spells=[setc(301)], phase="battle")
    assert FmClassicAgent(GAME).act(seat(s)) == ("act", 1, 2)


def test_hidden_opponent_cards_do_not_change_its_choice():
    """fm-classic reads only its Seat: a different face-down card gives the same decisions."""
    choices = []
    for hidden in (1, 105):
        s = duel(hand=[4, 5, 15, 343, 657], theirs=[mon(hidden, up=False)], their_spells=[setc(683)],
                 opp_hand=[hidden, 1, 2])
        choices.append(FmClassicAgent(GAME, seed=3).act(seat(s)))
    assert choices[0] == choices[1]


def test_evaluation_prefers_more_lp_and_ignores_hidden_identities():
    a = duel(theirs=[mon(1, up=False)])
    b = duel(theirs=[mon(105, up=False)])
    assert evaluate(a, 0) == evaluate(b, 0)
    c = duel(theirs=[mon(1, up=False)], lp=(8000, 5000))
    assert evaluate(c, 0) > evaluate(a, 0)


def test_fm_classic_plays_against_itself_as_a_cpu_duelist():
    game = coliseo.load_game("forbidden", mode="free_duel")
    for i in range(5):
        s = game.new_state(i)
        play_game(s, [make_agent("fm-classic", game, seed=i), make_agent("fm-classic", game, seed=i + 9)],
                  random.Random(i))
        assert s.is_over


def test_behind_it_plays_the_type_killer_for_their_strongest():
    s = duel(hand=[105, 329, 343], theirs=[mon(1)], deck=[8] * 20)
    assert FmClassicAgent(GAME, seed=2).act(seat(s)) == ("play", (2,), 0, False)


def test_behind_with_a_full_deck_it_tries_the_strongest_combination():
    s = duel(hand=[4, 105, 9, 4, 343], theirs=[mon(1)])  # deck of 35 >= 33: strategy A
    action = FmClassicAgent(GAME, seed=2).act(seat(s))
    assert action[0] == "play" and len(action[1]) >= 2


def test_with_only_spells_it_sets_the_trap_first():
    s = duel(hand=[343, 657, 683], deck=[8] * 20)
    assert FmClassicAgent(GAME, seed=5).act(seat(s)) == ("play", (3,), 6, False)


def test_walls_go_to_defence_and_weak_monsters_too_but_not_the_aces():
    s = duel(mine=[mon(2)], theirs=[mon(380)], phase="battle")
    assert FmClassicAgent(GAME).act(seat(s)) == ("pos", 1)
    s = duel(mine=[mon(4)], theirs=[mon(380)], phase="battle")
    assert FmClassicAgent(GAME).act(seat(s)) == ("pos", 1)
    s = duel(mine=[mon(1)], theirs=[mon(380)], phase="battle")
    assert FmClassicAgent(GAME).act(seat(s)) == ("end",)


def test_lethal_attack_on_their_weakest_attacker():
    s = duel(mine=[mon(15, star=2)], theirs=[mon(22, star=2), mon(4, star=1)], phase="battle", lp=(8000, 500))
    assert FmClassicAgent(GAME).act(seat(s)) == ("attack", 1, 2)


def test_home_field_card_is_played_when_the_terrain_differs(tmp_path):
    import shutil

    from coliseo.games.forbidden.content import BUNDLED
    folder = tmp_path / "home"
    shutil.copytree(BUNDLED / "starter", folder)
    text = (folder / "duelists.csv").read_text().replace("0,d,f,0,\n", "0,d,f,0,330\n")
    (folder / "duelists.csv").write_text(text)
    game = coliseo.load_game("forbidden", pack=str(folder), mode="free_duel")
    s = game.new_state(1)
    s.player, s.hands[1], s._legal = 1, [4, 330, 5], None
    assert FmClassicAgent(game).act(Seat(s, 1, random.Random(0))) == ("play", (2,), 0, False)


def privileged_game(tmp_path, privileged=True):
    import shutil

    from coliseo.games.forbidden.content import BUNDLED
    folder = tmp_path / "seer"
    if not folder.exists():
        shutil.copytree(BUNDLED / "starter", folder)
        text = (folder / "duelists.csv").read_text().replace("0,d,f,0,\n", "0,d,f,1,\n")
        (folder / "duelists.csv").write_text(text)
    return coliseo.load_game("forbidden", pack=str(folder), mode="free_duel", cpu_privileged=privileged)


def test_cpu_privileged_duelist_sees_face_down_cards_and_nobody_else_does(tmp_path):
    game = privileged_game(tmp_path)
    s = game.new_state(3)
    s.apply(("play", (1,), 1, True))
    s.apply(("place", "d", 1))
    hidden = s.monsters[0][0][0]
    assert s.observation(1)["sides"][0]["monsters"][0]["id"] == hidden
    assert s.observation(None)["sides"][0]["monsters"][0]["id"] is None
    plain = privileged_game(tmp_path, privileged=False).state_from_json(
        dict(s.to_json(), options=dict(s.to_json()["options"], cpu_privileged=False)))
    assert plain.observation(1)["sides"][0]["monsters"][0]["id"] is None


def test_cpu_privileged_is_inert_only_where_no_duelist_sees_face_down(tmp_path):
    assert privileged_game(tmp_path).inert_options() == set()
    assert coliseo.load_game("forbidden").inert_options() == {"cpu_privileged"}


def test_cpu_privileged_keeps_the_leak_property(tmp_path):
    from contract import play_random_games
    play_random_games(privileged_game(tmp_path), games=4, seed=3, sample_every=3)


def test_privileged_fm_classic_attacks_a_face_down_monster_it_can_beat(tmp_path):
    game = privileged_game(tmp_path)
    s = game.new_state(1)
    s.player, s.phase, s._legal = 1, "battle", None
    s.monsters[1][0] = mon(15, star=1)
    s.monsters[0][0] = mon(105, up=False, defence=True, star=1)
    assert FmClassicAgent(game, seed=0).act(Seat(s, 1, random.Random(0))) == ("attack", 1, 1)
