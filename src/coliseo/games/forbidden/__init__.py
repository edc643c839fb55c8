"""Forbidden-Memories-style duel (rules: docs/rules/forbidden.md)."""

from .game import ForbiddenGame

GAME = ForbiddenGame
