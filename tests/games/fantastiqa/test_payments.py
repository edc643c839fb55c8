"""R14/R22 payments checked against a brute force over every subset of random hands."""

import itertools
import random

from games.fantastiqa.helpers import GAMES, scenario

from coliseo.games.fantastiqa.game import _payments


def pays_by_the_book(vuln, cards):
    """R14 as written: match slot by slot, then every two leftover identical units make one wild."""
    need = [0] * 9
    for x in vuln:
        need[x] += 1
    have = [0] * 9
    wild = 0
    for sym, units, w in cards:
        if units:
            have[sym] += units
        wild += w
    unmatched = sum(max(0, need[x] - have[x]) for x in range(9))
    pairs = sum(max(0, have[x] - need[x]) // 2 for x in range(9))
    return wild + pairs >= unmatched


def test_payments_are_exactly_the_minimal_paying_subsets():
    rng = random.Random(7)
    for _ in range(400):
        hand = []
        for _ in range(rng.randint(1, 7)):
            if rng.random() < 0.1:
                hand.append((0, 0, rng.choice((1, 2))))                 # a WILD artifact
            else:
                hand.append((rng.randrange(9), rng.choice((1, 1, 2)), 0))
        vuln = tuple(rng.randrange(9) for _ in range(rng.randint(1, 3)))
        expected = []
        for k in range(1, len(hand) + 1):
            for combo in itertools.combinations(range(len(hand)), k):
                chosen = [hand[i] for i in combo]
                if pays_by_the_book(vuln, chosen) and not any(
                        pays_by_the_book(vuln, chosen[:j] + chosen[j + 1:]) for j in range(k)):
                    expected.append(combo)
        assert sorted(_payments(vuln, tuple(hand))) == sorted(expected), (vuln, hand)


def test_quest_hand_parts_are_exactly_the_minimal_subsets():
    game = GAMES[2]
    cards = game.content.cards
    pool = ["p1SW", "p2SW", "c19", "p1WA", "p2WA", "c23", "p1FI", "c01", "c37"]
    rng = random.Random(3)
    for _ in range(60):
        hand = rng.sample(pool, rng.randint(1, 7))
        s = scenario(quests=[["q01"]], hands=[hand])                    # q01: SW2 WA1, in the Forest (TL)
        got = sorted(a[2] for a in s.legal_actions() if a[0] == "complete")
        expected = []
        for k in range(1, len(hand) + 1):
            for combo in itertools.combinations(sorted(hand), k):
                def meets(cs):
                    units = {}
                    for c in cs:
                        units[cards[c].sym] = units.get(cards[c].sym, 0) + cards[c].units
                    return units.get(0, 0) >= 2 and units.get(2, 0) >= 1
                if meets(combo) and not any(meets(combo[:j] + combo[j + 1:]) for j in range(k)):
                    expected.append(combo)
        assert got == sorted(expected), hand
