"""Dungeon Dice Monsters (JDMC): dice with crests, nets dimensioned into paths, Dungeon Masters with hearts."""

from .game import DungeonDice

GAME = DungeonDice

__all__ = ["GAME", "DungeonDice"]
