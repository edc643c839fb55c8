"""Rules-fidelity audit scenarios for dungeon_dice (each reads like the rule it checks)."""

from games.dungeon_dice.helpers import act, position, put, sq, types


def test_r30_a_trap_that_destroys_the_attacker_goes_to_the_graveyard_after_it():
    """R30: 'reveal and resolve; C goes to Q's graveyard' — the trap is sent after the attacker it destroyed
    (as R24 does for spells). Visible when the attacker is a card of the trap's owner, revived by the enemy."""
    s = position(pool={"A": 1}, pool2={"T": 1}, phase="battle")
    s.setzone[1].append(("spiked_carapace", 1))
    s.library[1].remove("spiked_carapace")
    put(s, "g2", "cave_rat", 0, owner=1)          # player 2's card, controlled by player 1 (revived)
    put(s, "g3", "moss_sprite", 1)
    act(s, "attack g2 g3")
    events = act(s, "trap spiked_carapace")
    assert types(events) == ["trap", "destroyed", "attack_ends"]
    assert s.grave[1] == ["cave_rat", "spiked_carapace"]
    assert sq("g2") not in s.pieces and s.phase == "battle"


def test_section4_observations_and_events_never_name_the_opponents_hidden_cards():
    """§4: with decks that share no card, neither observation(p) nor the events p sees name a card of the
    opponent that is still hidden (in their library or set zone, and not the card declared in an open
    placing step)."""
    import json
    import random

    from coliseo import load_game
    from coliseo.core.events import view_event

    game = load_game("dungeon_dice", max_turns=80)
    cards = game.content.cards
    monsters = [c for c in cards if cards[c].type == "monster"]
    spells = [c for c in cards if cards[c].type == "spell"]
    traps = [c for c in cards if cards[c].type == "trap"]
    decks = [monsters[0::2] + spells[0::2] + traps[:2], monsters[1::2] + spells[1::2] + traps[2:]]
    assert not set(decks[0]) & set(decks[1])
    rng = random.Random(5)
    for seed in range(4):
        s = game.new_state(300 + seed, [{"deck": decks[0]}, {"deck": decks[1]}])
        while not s.is_over:
            if s.phase == "spend1" and rng.random() < 0.5:
                s.pool[s.active] = [v + 2 for v in s.pool[s.active]]
                s._legal = None
            events = s.apply(rng.choice(s.legal_actions()))
            for p in (0, 1):
                o = 1 - p
                hidden = set(s.library[o]) | {c for c, _ in s.setzone[o]}
                if s.phase == "placing" and s.active == o:
                    hidden.discard(s.placing)
                text = json.dumps(s.observation(p)) + json.dumps([view_event(e, p) for e in events])
                for cid in hidden:
                    assert f'"{cid}"' not in text, f"player {p + 1} sees the hidden card {cid}"
