"""Fantastiqa observation encoder (2 to 4 players).

People are listed from the viewer: slot 0 is the viewer, then the others in seat order; slots of
absent players stay zero, and the size depends on the `players` option. `C` is the number of
loaded cards (adventurers, creatures, quests, artifacts, beasts, dragons, dogs, events; sorted by
id) plus one slot for a card the encoder does not know. Parts:

- `layout` (6, 9): per map position (TL TR ML MR BL BR): region one-hot (6), statue one-hot (3).
- `positions` (P, 6): where each person stands.
- `route` (6), `crossed` (7): positions on the current route, spaces crossed.
- `spaces` (7, 3 + C): gems, pending, cards paid, and the creature's card one-hot.
- `row` (C), `open_quests` (2, 1 + C): the face-up row; quest slots with bonus flag.
- `people` (P, 9, C): card counts in hand, play, discard, own draw pile (as a set: order is hidden),
  unseen (cards of another person not yet seen), completed quests, quests held, cards committed
  to quests, token quest. Each list only where the observation gives it.
- `people_scalars` (P, 12): present, is to move, gems / 5, carpets / 3, rearranges / 3, bonus / 2,
  score / 20, hand size / 6, draw size / 30, quests held / 4, completed / 5, has a token.
- `supply` (16): per statue deck (AT BB QC) size / 40, known bottom / 40, unknown / 40; creature
  deck cards per block (4) / 20; box / 60, dragons / 16, bonus supply / 12.
- `scalars`: turn / max_turns, goal / 20, spy / 2, kept / 3, release left / 3, row kind one-hot
  (AT BB QC), phase one-hot (draft, statue, main, adventure, release, after, over), draft step
  one-hot (quest, artifact, start).
"""

from __future__ import annotations

import numpy as np

from coliseo.rl.encoding import Encoder

POSITIONS = ("TL", "TR", "ML", "MR", "BL", "BR")
REGIONS = ("FOR", "FLD", "HIL", "HGH", "WET", "FRZ")
STATUES = ("AT", "BB", "QC")
PHASES = ("draft", "statue", "main", "adventure", "release", "after", "over")
DRAFT_STEPS = ("quest", "artifact", "start")
SPACES = 7
LISTS = ("hand", "play", "discard", "draw", "unseen", "completed")


def _number(value) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _one_hot(target: np.ndarray, choices: tuple, value) -> None:
    if value in choices:
        target[choices.index(value)] = 1


class FantastiqaEncoder(Encoder):
    def declare(self) -> None:
        ids = sorted(row["id"] for row in self.game.card_rows())
        self.cards = {card: i for i, card in enumerate(ids)}
        self.players = self.game.options["players"]
        c = len(ids) + 1
        self.part("layout", len(POSITIONS), len(REGIONS) + len(STATUES))
        self.part("positions", self.players, len(POSITIONS))
        self.part("route", len(POSITIONS))
        self.part("crossed", SPACES)
        self.part("spaces", SPACES, 3 + c)
        self.part("row", c)
        self.part("open_quests", 2, 1 + c)
        self.part("people", self.players, len(LISTS) + 3, c)
        self.part("people_scalars", self.players, 12)
        self.part("supply", 16)
        self.part("scalars", 5 + len(STATUES) + len(PHASES) + len(DRAFT_STEPS))

    def card(self, card_id) -> int:
        return self.cards.get(card_id, len(self.cards))

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        for place in observation["layout"]:
            if place.get("pos") in POSITIONS:
                row = out["layout"][POSITIONS.index(place["pos"])]
                _one_hot(row[:len(REGIONS)], REGIONS, place.get("region"))
                _one_hot(row[len(REGIONS):], STATUES, place.get("statue"))
        for position in observation.get("route") or ():
            _one_hot(out["route"], POSITIONS, position)
        for space in observation.get("crossed") or ():
            if isinstance(space, int) and 1 <= space <= SPACES:
                out["crossed"][space - 1] = 1
        for space in observation["spaces"][:SPACES]:
            row = out["spaces"][space["space"] - 1]
            row[:3] = [_number(space.get("gems")), bool(space.get("pending")), len(space.get("paid") or ())]
            if space.get("creature") is not None:
                row[3 + self.card(space["creature"])] = 1
        for card_id in observation.get("row") or ():
            out["row"][self.card(card_id)] += 1
        for i, slot in enumerate((observation.get("open_quests") or [])[:2]):
            out["open_quests"][i, 0] = bool(slot.get("bonus"))
            if slot.get("quest") is not None:
                out["open_quests"][i, 1 + self.card(slot["quest"])] = 1
        by_player = {person["player"]: person for person in observation["people"]}
        order = [(player + k) % self.players for k in range(self.players)]
        current = observation.get("current")
        for slot, seat in enumerate(order):
            person = by_player.get(seat)
            if person is None:
                continue
            _one_hot(out["positions"][slot], POSITIONS, person.get("position"))
            cards = out["people"][slot]
            for row, name in enumerate(LISTS):
                for card_id in person.get(name) or ():
                    cards[row, self.card(card_id)] += 1
            quests = person.get("quests") or []
            token = person.get("token")
            for quest in quests:
                cards[len(LISTS), self.card(quest["quest"])] += 1
            for quest in [*quests, *([token] if token else [])]:
                for card_id in quest.get("committed") or ():
                    cards[len(LISTS) + 1, self.card(card_id)] += 1
            if token:
                cards[len(LISTS) + 2, self.card(token["quest"])] = 1
            out["people_scalars"][slot] = [
                1, current == seat, _number(person.get("gems")) / 5, _number(person.get("carpets")) / 3,
                _number(person.get("rearranges")) / 3, _number(person.get("bonus")) / 2,
                _number(person.get("score")) / 20, _number(person.get("hand_size")) / 6,
                _number(person.get("draw_size")) / 30, len(quests) / 4, len(person.get("completed") or ()) / 5,
                token is not None,
            ]
        supply = out["supply"]
        decks = observation.get("decks") or {}
        for i, statue in enumerate(STATUES):
            deck = decks.get(statue) or {}
            supply[3 * i:3 * i + 3] = [_number(deck.get("size")) / 40, len(deck.get("bottom") or ()) / 40,
                                       len(deck.get("unknown") or ()) / 40]
        for block in (observation.get("creature_deck") or [])[:4]:
            index = int(block.get("block", 0))
            if 0 <= index < 4:
                supply[9 + index] = len(block.get("cards") or ()) / 20
        supply[13:] = [len(observation.get("box") or ()) / 60, len(observation.get("dragon_supply") or ()) / 16,
                       _number(observation.get("bonus_supply")) / 12]
        scalars = out["scalars"]
        max_turns = self.game.options.get("max_turns") or 400
        scalars[:5] = [_number(observation.get("turn")) / max_turns, _number(observation.get("goal")) / 20,
                       _number(observation.get("spy")) / 2, _number(observation.get("kept")) / 3,
                       _number(observation.get("release_left")) / 3]
        base = 5
        _one_hot(scalars[base:base + len(STATUES)], STATUES, observation.get("row_kind"))
        base += len(STATUES)
        _one_hot(scalars[base:base + len(PHASES)], PHASES, observation.get("phase"))
        base += len(PHASES)
        _one_hot(scalars[base:], DRAFT_STEPS, (observation.get("draft") or {}).get("step"))


def make_encoder(game) -> FantastiqaEncoder:
    return FantastiqaEncoder(game)
