"""Fantastiqa: a deck-building adventure across six Regions (rules/fantastiqa.md)."""

from .game import Fantastiqa

GAME = Fantastiqa

__all__ = ["GAME", "Fantastiqa"]
