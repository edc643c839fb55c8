"""Rules-fidelity audit scenarios for dungeon_dice (each reads like the rule it checks)."""

from games.dungeon_dice.helpers import act, path, position, put, sq, types


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
