"""Capsule Monsters figure game (rules: ../shared/rules/capsule.md; decisions: docs/rules/capsule.md)."""

from .game import GAME, CapsuleGame

__all__ = ["GAME", "CapsuleGame"]
