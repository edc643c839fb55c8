"""Forbidden-Memories-style duel (rules: docs/rules/forbidden.md and the shared rules file)."""

from .game import ForbiddenGame

GAME = ForbiddenGame
