"""Statistics of a simulation: win and draw rates with Wilson intervals, seat advantage, lengths, lifts."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 when there is no trial)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - margin) / denominator), min(1.0, (centre + margin) / denominator)


def outcome_of(row: dict, player: int) -> str:
    """'win' (sole winner), 'draw' (no winner or shared), 'loss', or 'unfinished'."""
    winners = row["winners"]
    if winners is None:
        return "unfinished"
    if len(winners) == 1:
        return "win" if player in winners else "loss"
    return "draw" if not winners or player in winners else "loss"


def rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "games": n, "rate": k / n if n else 0.0, "low": lo, "high": hi}


def summarize(rows: list[dict]) -> dict:
    """Per agent, per seat and first-mover results, and game lengths."""
    per_agent: dict[str, dict] = defaultdict(lambda: {"games": 0, "win": 0, "draw": 0, "lengths": []})
    per_seat: dict[int, dict] = defaultdict(lambda: {"games": 0, "win": 0, "draw": 0})
    first = {"games": 0, "win": 0}
    reasons: dict[str, int] = defaultdict(int)
    for row in rows:
        reasons[row["reason"]] += 1
        for player, spec in enumerate(row["seats"]):
            result = outcome_of(row, player)
            for bucket in (per_agent[spec], per_seat[player]):
                bucket["games"] += 1
                bucket["win"] += result == "win"
                bucket["draw"] += result == "draw"
            per_agent[spec]["lengths"].append(row["length"])
        if row["first_player"] is not None and row["winners"] is not None:
            first["games"] += 1
            first["win"] += outcome_of(row, row["first_player"]) == "win"
    lengths = [row["length"] for row in rows]
    return {
        "games": len(rows),
        "agents": {spec: {"games": b["games"], "win": rate(b["win"], b["games"]),
                          "draw": rate(b["draw"], b["games"]),
                          "mean_length": statistics.fmean(b["lengths"]),
                          "median_length": statistics.median(b["lengths"])}
                   for spec, b in per_agent.items()},
        "seats": {player: {"games": b["games"], "win": rate(b["win"], b["games"]),
                           "draw": rate(b["draw"], b["games"])} for player, b in sorted(per_seat.items())},
        "first_player": rate(first["win"], first["games"]),
        "mean_length": statistics.fmean(lengths) if lengths else 0.0,
        "median_length": statistics.median(lengths) if lengths else 0.0,
        "reasons": dict(reasons),
    }


def item_lifts(rows: list[dict], min_games: int = 5) -> list[dict]:
    """For each setup item (monster, card, die, King...), the win rate of the sides that had it.

    `lift` is that win rate minus the win rate of all sides; a lift whose interval stays above zero
    marks an item that is likely too strong.
    """
    sides = wins = 0
    seen: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if row["winners"] is None:
            continue
        for player, items in enumerate(row.get("items") or []):
            won = outcome_of(row, player) == "win"
            sides += 1
            wins += won
            for item in set(items):
                seen[item][0] += 1
                seen[item][1] += won
    if sides == 0:
        return []
    base = wins / sides
    out = []
    for item, (n, k) in seen.items():
        if n < min_games or n == sides:   # an item every side has tells nothing
            continue
        lo, hi = wilson(k, n)
        out.append({"item": item, "sides": n, "win_rate": k / n, "low": lo, "high": hi,
                    "lift": k / n - base, "lift_low": lo - base, "lift_high": hi - base})
    out.sort(key=lambda r: -r["lift"])
    return out
