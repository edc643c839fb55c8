"""Rules-fidelity audit: scenarios written from the docs/rules/forbidden.md (§9 fm-classic) that the code got wrong."""

import random

from games.forbidden.helpers import duel, mon, setc

import coliseo
from coliseo.agents.base import Seat
from coliseo.agents.fm_classic import FmClassicAgent

GAME = coliseo.load_game("forbidden")


def seat(state):
    return Seat(state, state.current_player, random.Random(0))


def test_strength_is_the_higher_base_stat_not_the_boosted_one():
    """§9: Strength = max(base ATK, base DEF). Their Baby Dragon (1200/700) carries +1000 from an equip;
    by base stats its Flame Swordsman (1800/1600) is stronger, so it is not behind: with only Dragon
    Capture Jar in hand, strategy A/B fall to C, which sets the card (behind, (6) would activate it)."""
    s = duel(hand=[329], mine=[mon(15)], theirs=[mon(4, mod=1000)], deck=[8] * 20)
    assert FmClassicAgent(GAME, seed=1).act(seat(s)) == ("play", (1,), 6, False)


def test_a_chain_that_only_adds_equip_bonus_does_not_raise_strength():
    """§9 B: the best chain onto its weakest monster that raises its strength (base stats): an equip does
    not, so B finds nothing and C sets the equip in the spell row instead of equipping now."""
    s = duel(hand=[657], mine=[mon(15)], theirs=[], deck=[8] * 20, lp=(1000, 8000))  # LP < L: always B
    assert FmClassicAgent(GAME, seed=1).act(seat(s)) == ("play", (1,), 6, False)


def test_hidden_opponent_monsters_do_not_make_it_behind():
    """§9: hidden opponent cards are ignored, so a lone face-down monster does not send it to (6) (which
    would activate Swords of Revealing Light); (5) leads to C, which sets the Swords."""
    s = duel(hand=[348], mine=[], theirs=[mon(1, up=False)], deck=[8] * 20)
    assert FmClassicAgent(GAME, seed=1).act(seat(s)) == ("play", (1,), 6, False)


def test_each_set_removal_card_is_judged_by_its_own_condition_in_zone_order():
    """§9 battle (1): each own set card once per turn, zone order; Raigeki in s1 fires when their
    strongest is at least as strong as its own and they have at least as many monsters, even though a
    type killer for their strongest sits in s2."""
    s = duel(mine=[mon(4)], theirs=[mon(1)], my_spells=[setc(337), setc(329)], phase="battle")
    assert FmClassicAgent(GAME).act(seat(s)) == ("act", 1)


def test_a_defence_monster_switches_to_attack_for_a_blind_attack():
    """§9 battle (3): each hidden monster with prob B% using its strongest (a defence monster may `pos`
    first) - also when it has no monster in attack position yet."""
    s = duel(mine=[mon(15, defence=True)], theirs=[mon(1, up=False)], phase="battle")
    agent = FmClassicAgent(GAME, seed=1)
    agent.rng.randrange = lambda n: 0  # the B% roll succeeds
    assert agent.act(seat(s)) == ("pos", 1)
    s.apply(("pos", 1))
    assert agent.act(seat(s)) == ("attack", 1, 1)


def test_home_field_card_follows_the_agents_own_duelist_row(tmp_path):
    """§9 main (2): the duelist whose row the agent plays (its `duelist` setting) brings its home field card,
    as its parameters already did."""
    import shutil

    from coliseo.games.forbidden.content import BUNDLED
    folder = tmp_path / "home"
    shutil.copytree(BUNDLED / "starter", folder)
    text = (folder / "duelists.csv").read_text().replace("0,d,f,0,\n", "0,d,f,0,330\n")
    (folder / "duelists.csv").write_text(text)
    game = coliseo.load_game("forbidden", pack=str(folder))  # a plain duel: no duelist in the observation
    s = game.new_state(1)
    s.hands[0], s._legal = [4, 330, 5], None
    assert FmClassicAgent(game, duelist=1).act(Seat(s, 0, random.Random(0))) == ("play", (2,), 0, False)
