"""Capsule Monsters observation encoder.

The board is seen from the viewer's side: ranks are flipped for player 2, so one's own start
zone is always rank 0. Parts, in vector order:

- `board` (height, width, channels), per square: mine, theirs, king, capsule, monster,
  card shown (a capsule whose monster the viewer knows, or any face-up piece), damage / 20,
  stunned, moved, attacked, abilities used, faction one-hot, card one-hot (the loaded content,
  sorted by id; an unknown capsule has no card bit).
- `destroyed` (2, cards): counts of each card destroyed, mine then theirs.
- `scalars`: my turn, action points / 10, passes, acted, turn / max_turns, team sizes / 10
  (mine, theirs), game over.
"""

from __future__ import annotations

import numpy as np

from coliseo.rl.encoding import Encoder, square_xy

BASE_CHANNELS = ["mine", "theirs", "king", "capsule", "monster", "card_shown", "damage", "stunned", "moved",
                 "attacked", "used"]
KIND_CHANNEL = {"king": 2, "capsule": 3, "monster": 4}


class CapsuleEncoder(Encoder):
    def declare(self) -> None:
        rows = self.game.card_rows()
        self.cards = {row["id"]: i for i, row in enumerate(sorted(rows, key=lambda r: r["id"]))}
        self.factions = {f: i for i, f in enumerate(sorted({row["faction"] for row in rows}))}
        self.width = self.game.options["width"]
        self.height = self.game.options["height"]
        self.faction_base = len(BASE_CHANNELS)
        self.card_base = self.faction_base + len(self.factions)
        self.part("board", self.height, self.width, self.card_base + len(self.cards))
        self.part("destroyed", 2, len(self.cards))
        self.part("scalars", 8)

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        board = out["board"]
        for piece in observation["pieces"]:
            file, rank = square_xy(piece["sq"])
            if player == 1:
                rank = self.height - 1 - rank
            cell = board[rank, file]
            cell[0 if piece["owner"] == player else 1] = 1
            cell[KIND_CHANNEL[piece["kind"]]] = 1
            cell[6] = piece.get("damage", 0) / 20
            cell[7] = bool(piece.get("stunned"))
            cell[8] = bool(piece.get("moved"))
            cell[9] = bool(piece.get("attacked"))
            cell[10] = len(piece.get("used", ()))
            if piece.get("faction") in self.factions:
                cell[self.faction_base + self.factions[piece["faction"]]] = 1
            if piece.get("card") in self.cards:
                cell[5] = 1
                cell[self.card_base + self.cards[piece["card"]]] = 1
        for side, owner in enumerate((player, 1 - player)):
            for card in observation["destroyed"][owner]:
                if card in self.cards:
                    out["destroyed"][side, self.cards[card]] += 1
        max_turns = self.game.options.get("max_turns") or 200
        out["scalars"][:] = [
            observation["current_player"] == player,
            observation["ap"] / 10,
            observation["passes"],
            bool(observation["acted"]),
            observation["turn"] / max_turns,
            observation["team_sizes"][player] / 10,
            observation["team_sizes"][1 - player] / 10,
            observation["result"] is not None,
        ]


def make_encoder(game) -> CapsuleEncoder:
    return CapsuleEncoder(game)
