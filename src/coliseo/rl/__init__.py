"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters for every Coliseo game (`rl` extra)."""

from __future__ import annotations

try:
    import numpy  # noqa: F401
except ModuleNotFoundError as error:  # pragma: no cover - only without the extra
    raise ModuleNotFoundError("coliseo.rl needs the rl extra: pip install 'coliseo[rl]'") from error

from .encoding import Encoder, HashedEncoder, encoder_for
from .policy_agent import PolicyAgent


def pettingzoo_env(game, **options):
    """A PettingZoo AEC environment for `game` (an id or a loaded Game); see docs/rl.md."""
    from .pettingzoo_adapter import pettingzoo_env as make

    return make(game, **options)


def gymnasium_env(game, **options):
    """A Gymnasium environment: one seat against opponent agents; see docs/rl.md."""
    from .gymnasium_adapter import gymnasium_env as make

    return make(game, **options)


def register_gymnasium_envs() -> list[str]:
    """Register every game as `coliseo/<id>-v0` for `gymnasium.make`; returns the ids."""
    from .gymnasium_adapter import register_gymnasium_envs as register

    return register()


def register_openspiel_games() -> list[str]:
    """Register every game as the OpenSpiel Python game `coliseo_<id>`; returns the names."""
    from .openspiel_adapter import register_openspiel_games as register

    return register()


__all__ = ["Encoder", "HashedEncoder", "PolicyAgent", "encoder_for", "pettingzoo_env", "gymnasium_env",
           "register_gymnasium_envs", "register_openspiel_games"]
