"""Per-game evaluation functions for the greedy agent (and MCTS rollouts)."""
