"""Capsule Monsters figure game (rules and decisions: docs/rules/capsule.md)."""

from .game import GAME, CapsuleGame

__all__ = ["GAME", "CapsuleGame"]
