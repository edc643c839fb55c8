"""The balance lab: many seeded games between agents, their statistics, ratings and reports.

`run.simulate` plays the games (local processes or Ray), `stats` summarizes them, `ratings` rates
agents in a round robin with OpenSkill, and `report` writes an HTML page with plots.
"""
