"""Agent specs: an agent and its settings written as one word, `mcts:iterations=400:rollout=greedy`."""

from __future__ import annotations

from coliseo.agents import make_agent
from coliseo.core.errors import SetupError


def parse_spec(spec: str) -> tuple[str, dict]:
    """`"mcts:iterations=400"` -> `("mcts", {"iterations": 400})`."""
    name, *parts = spec.strip().split(":")
    if not name:
        raise SetupError(f"agent spec {spec!r} has no agent name")
    settings = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise SetupError(f"agent spec {spec!r}: setting {part!r} must be written NAME=VALUE")
        settings[key] = _value(value)
    return name, settings


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agents(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise SetupError("name at least one agent, e.g. --agents mcts,greedy")
    return specs


def build_agent(spec: str, game, seed: int):
    name, settings = parse_spec(spec)
    return make_agent(name, game, seed=seed, **settings)
