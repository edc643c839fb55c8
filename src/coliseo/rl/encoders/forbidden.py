"""Forbidden Memories duel observation encoder.

Side 0 is always the viewer, side 1 the opponent. `C` is the number of loaded cards (sorted by
id) plus one slot for a card the encoder does not know (a card of a pack loaded later). Parts:

- `hand` (5, C): one-hot card per hand slot, in hand order (plays name hand slots).
- `hand_stats` (5, 4): monster, other kind, attack / 5000, defence / 5000 per hand slot.
- `monsters` (2, 5, 12): present, face up, known, attack / 5000, defence / 5000, modifier / 5000,
  attack position, defence position, moved, used, guardian star chosen (1 or 2 as 0.5 / 1), curse.
- `monster_cards` (2, 5, C): one-hot card of each monster the viewer knows.
- `spells` (2, 5, 2 + C): present, known, one-hot card when known.
- `removed` (2, C), `decklist` (2, C): card counts (decklists are public; the graveyard too).
- `own_deck` (C): counts of the cards left in one's own deck (the order stays hidden).
- `counters` (2, 9): the duel-rank counters / 10, plus life points / 8000.
- `scalars`: my turn, turn / 100, life points / 8000 (mine, theirs), deck sizes / 40, hand sizes / 5,
  terrain one-hot (7), phase one-hot (main, place, battle, over), pending monster zone one-hot (6).
"""

from __future__ import annotations

import numpy as np

from coliseo.rl.encoding import Encoder

SLOTS = 5
PHASES = ("main", "place", "battle", "over")
COUNTERS = ("turns", "effective_attacks", "defensive_wins", "facedown_plays", "pure_magic", "traps_triggered",
            "fusions", "equips", "cards_used")
TERRAINS = 7


def _number(value) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


class ForbiddenEncoder(Encoder):
    def declare(self) -> None:
        rows = sorted(self.game.card_rows(), key=lambda r: r["id"])
        self.cards = {row["id"]: i for i, row in enumerate(rows)}
        self.unknown = len(rows)
        self.stats = {row["id"]: (row["kind"] == "monster", row["kind"] != "monster",
                                  _number(row["atk"]) / 5000, _number(row["def"]) / 5000) for row in rows}
        c = len(rows) + 1
        self.part("hand", SLOTS, c)
        self.part("hand_stats", SLOTS, 4)
        self.part("monsters", 2, SLOTS, 12)
        self.part("monster_cards", 2, SLOTS, c)
        self.part("spells", 2, SLOTS, 2 + c)
        self.part("removed", 2, c)
        self.part("decklist", 2, c)
        self.part("own_deck", c)
        self.part("counters", 2, len(COUNTERS) + 1)
        self.part("scalars", 2 + 6 + TERRAINS + len(PHASES) + SLOTS + 1)

    def card(self, card_id) -> int:
        return self.cards.get(card_id, self.unknown)

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        sides = [observation["sides"][player], observation["sides"][1 - player]]
        for slot, card_id in enumerate((sides[0].get("hand") or [])[:SLOTS]):
            out["hand"][slot, self.card(card_id)] = 1
            out["hand_stats"][slot] = self.stats.get(card_id, (0, 0, 0, 0))
        for side, view in enumerate(sides):
            for slot, monster in enumerate(view["monsters"][:SLOTS]):
                if monster is None:
                    continue
                star = monster.get("star")
                out["monsters"][side, slot] = [
                    1, bool(monster.get("face_up")), bool(monster.get("known")),
                    _number(monster.get("atk")) / 5000, _number(monster.get("def")) / 5000,
                    _number(monster.get("mod")) / 5000,
                    monster.get("position") == "atk", monster.get("position") == "def",
                    bool(monster.get("moved")), bool(monster.get("used")),
                    _number(star) / 2, _number(monster.get("curse")),
                ]
                if monster.get("id") is not None:
                    out["monster_cards"][side, slot, self.card(monster["id"])] = 1
            for slot, spell in enumerate(view["spells"][:SLOTS]):
                if spell is None:
                    continue
                out["spells"][side, slot, 0] = 1
                out["spells"][side, slot, 1] = bool(spell.get("known"))
                if spell.get("id") is not None:
                    out["spells"][side, slot, 2 + self.card(spell["id"])] = 1
            for card_id in view.get("removed") or ():
                out["removed"][side, self.card(card_id)] += 1
            for card_id in view.get("decklist") or ():
                out["decklist"][side, self.card(card_id)] += 1
            counters = view.get("counters") or {}
            out["counters"][side, :len(COUNTERS)] = [_number(counters.get(name)) / 10 for name in COUNTERS]
            out["counters"][side, len(COUNTERS)] = _number(counters.get("lp")) / 8000
        for card_id in sides[0].get("deck_cards") or ():
            out["own_deck"][self.card(card_id)] += 1
        scalars = out["scalars"]
        scalars[0] = observation.get("player") == player
        scalars[1] = _number(observation.get("turn")) / 100
        scalars[2:8] = [sides[0]["lp"] / 8000, sides[1]["lp"] / 8000, sides[0]["deck_size"] / 40,
                        sides[1]["deck_size"] / 40, sides[0]["hand_size"] / 5, sides[1]["hand_size"] / 5]
        base = 8
        terrain = observation.get("terrain")
        if isinstance(terrain, int) and 0 <= terrain < TERRAINS:
            scalars[base + terrain] = 1
        base += TERRAINS
        if observation.get("phase") in PHASES:
            scalars[base + PHASES.index(observation["phase"])] = 1
        base += len(PHASES)
        pending = observation.get("pending")
        zone = int(pending[1:]) if isinstance(pending, str) and pending[1:].isdigit() else 0
        scalars[base + min(zone, SLOTS)] = 1


def make_encoder(game) -> ForbiddenEncoder:
    return ForbiddenEncoder(game)
