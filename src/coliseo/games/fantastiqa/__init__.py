"""Fantastiqa: a deck-building adventure across six Regions (docs/rules/fantastiqa.md)."""

from .game import Fantastiqa

GAME = Fantastiqa

__all__ = ["GAME", "Fantastiqa"]
