"""Dungeon Dice Monsters observation encoder.

The board is seen from the viewer's side: turned half a turn for player 2, so one's own dungeon
master starts near rank 0. Side 0 is always the viewer. `C` is the number of loaded cards and `D`
of loaded dice (sorted by id), each plus one slot for one the encoder does not know. Parts:

- `board` (height, width, 14), per square: my path, their path, hole, my master, their master,
  my monster, their monster, attack / 5000, defence / 5000, level / 8, moved, attacked, effect used,
  equipment count.
- `pieces_seen` (2, C): the cards of each side's monsters on the board.
- `graveyards` (2, C), `own_library` (C), `own_set_cards` (C): card counts; the library and the
  set cards are one's own (the opponent's are hidden).
- `placing` (C): the card being placed, if any.
- `dice_decks` (2, D), `drawn` (D): dice counts.
- `last_roll` (3, 9): per die, crest one-hot (S M A D G T E Z) and amount / 5.
- `pools` (2, 8): crests in each pool / 20; `locks`, `spent` (8): crests locked or spent this turn.
- `scalars`: my turn, active is me, turn / max_turns, hearts (mine, theirs) / 5, library sizes / 40,
  set zone sizes / 5, rolls this turn / 3, summoned, my net placed, their net placed,
  summons (2 x 2) / 10, attack window open, phase one-hot (spend1, spend2, placing, window, battle, over).
"""

from __future__ import annotations

import numpy as np

from coliseo.rl.encoding import Encoder, square_xy

CRESTS = "SMADGTEZ"
PHASES = ("spend1", "spend2", "placing", "window", "battle", "over")
BOARD_CHANNELS = 14


def _number(value) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


class DungeonDiceEncoder(Encoder):
    def declare(self) -> None:
        rows = self.game.card_rows()
        dice = sorted(r["id"] for r in rows if str(r["kind"]).startswith("die"))
        cards = sorted(r["id"] for r in rows if not str(r["kind"]).startswith("die"))
        self.dice = {d: i for i, d in enumerate(dice)}
        self.cards = {c: i for i, c in enumerate(cards)}
        self.width, self.height = self.game.geo.w, self.game.geo.h
        c, d = len(cards) + 1, len(dice) + 1
        self.part("board", self.height, self.width, BOARD_CHANNELS)
        self.part("pieces_seen", 2, c)
        self.part("graveyards", 2, c)
        self.part("own_library", c)
        self.part("own_set_cards", c)
        self.part("placing", c)
        self.part("dice_decks", 2, d)
        self.part("drawn", d)
        self.part("last_roll", 3, len(CRESTS) + 1)
        self.part("pools", 2, len(CRESTS))
        self.part("locks", len(CRESTS))
        self.part("spent", len(CRESTS))
        self.part("scalars", 18 + len(PHASES))

    def card(self, card_id) -> int:
        return self.cards.get(card_id, len(self.cards))

    def die(self, die_id) -> int:
        return self.dice.get(die_id, len(self.dice))

    def cell(self, square: str, player: int) -> tuple[int, int] | None:
        file, rank = square_xy(square)
        if player == 1:
            file, rank = self.width - 1 - file, self.height - 1 - rank
        return (rank, file) if 0 <= file < self.width and 0 <= rank < self.height else None

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        board = out["board"]
        sides = (player, 1 - player)
        for side, owner in enumerate(sides):
            for square in observation["path"][owner]:
                if (at := self.cell(square, player)) is not None:
                    board[at][side] = 1
        for square in observation.get("holes") or ():
            if (at := self.cell(square, player)) is not None:
                board[at][2] = 1
        for piece in observation["pieces"]:
            at = self.cell(piece["square"], player)
            owner = piece.get("player", piece.get("owner"))
            if at is None:
                continue
            side = 0 if owner == player else 1
            cell = board[at]
            if piece.get("master"):
                cell[3 + side] = 1
                continue
            cell[5 + side] = 1
            cell[7:] = [_number(piece.get("atk")) / 5000, _number(piece.get("def")) / 5000,
                        _number(piece.get("level")) / 8, bool(piece.get("moved")), bool(piece.get("attacked")),
                        bool(piece.get("effect_used")), len(piece.get("equips") or ())]
            if piece.get("card") is not None:
                out["pieces_seen"][side, self.card(piece["card"])] += 1
        for side, owner in enumerate(sides):
            for card_id in observation["graveyards"][owner]:
                out["graveyards"][side, self.card(card_id)] += 1
            for die_id in observation["dice_decks"][owner]:
                out["dice_decks"][side, self.die(die_id)] += 1
            pool = observation["pool"][owner]
            out["pools"][side] = [_number(pool.get(crest)) / 20 for crest in CRESTS]
        for card_id in observation.get("library") or ():
            out["own_library"][self.card(card_id)] += 1
        for entry in observation.get("set_cards") or ():
            card_id = entry[-1] if isinstance(entry, list) else entry
            out["own_set_cards"][self.card(card_id)] += 1
        if observation.get("placing") is not None:
            out["placing"][self.card(observation["placing"])] = 1
        for die_id in observation.get("drawn") or ():
            out["drawn"][self.die(die_id)] += 1
        rolls = observation.get("rolls") or []
        for slot, face in enumerate((rolls[-1] if rolls else [])[:3]):
            if face and face[0] in CRESTS:
                out["last_roll"][slot, CRESTS.index(face[0])] = 1
                out["last_roll"][slot, -1] = (int(face[1:]) if face[1:].isdigit() else 1) / 5
        for crest in observation.get("locks") or ():
            if crest in CRESTS:
                out["locks"][CRESTS.index(crest)] = 1
        for crest in observation.get("spent_in_spend1") or ():
            if crest in CRESTS:
                out["spent"][CRESTS.index(crest)] += 1
        summons = observation.get("summons") or [[0, 0], [0, 0]]
        max_turns = self.game.options.get("max_turns") or 200
        placed = observation.get("placed_net") or [False, False]
        scalars = [
            observation.get("current_player") == player, observation.get("active") == player,
            _number(observation.get("turn")) / max_turns,
            observation["hearts"][player] / 5, observation["hearts"][1 - player] / 5,
            observation["library_sizes"][player] / 40, observation["library_sizes"][1 - player] / 40,
            len(observation["set_zones"][player]) / 5, len(observation["set_zones"][1 - player]) / 5,
            len(rolls) / 3, bool(observation.get("summoned")), bool(placed[player]), bool(placed[1 - player]),
            *(_number(n) / 10 for n in (*summons[player][:2], *summons[1 - player][:2])),
        ]
        out["scalars"][:len(scalars)] = scalars
        out["scalars"][len(scalars)] = observation.get("window") is not None
        if observation.get("phase") in PHASES:
            out["scalars"][len(scalars) + 1 + PHASES.index(observation["phase"])] = 1


def make_encoder(game) -> DungeonDiceEncoder:
    return DungeonDiceEncoder(game)
