"""Agents: they see a Seat (their player's view), never the full state."""

from coliseo.agents.base import Agent, Seat, agent_names, make_agent, play_game

__all__ = ["Agent", "Seat", "make_agent", "agent_names", "play_game"]
