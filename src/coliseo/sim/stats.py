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
        "pairings": pairings(rows),
    }


def pairings(rows: list[dict]) -> list[dict]:
    """Each distinct match-up of sides (their setup items, in seat order): every seat's win rate.

    `fair` says whether each seat's rate lies within 5 points of its fair share and its interval
    holds that share (the bar issue 21 set for shipped content).
    """
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        if row["winners"] is not None:
            groups[tuple(tuple(items) for items in row.get("items") or [])].append(row)
    out = []
    for key, group in groups.items():
        n, players = len(group), len(group[0]["seats"])
        seats = [rate(sum(outcome_of(r, p) == "win" for r in group), n) for p in range(players)]
        moved_first = [r for r in group if r["first_player"] is not None]
        out.append({"sides": [side_label(items) for items in key] or ["default"] * players, "games": n,
                    "seats": seats, "draw": rate(sum(not r["winners"] for r in group), n),
                    "first_player": rate(sum(outcome_of(r, r["first_player"]) == "win" for r in moved_first),
                                         len(moved_first)),
                    "fair": all(is_fair(s, 1 / players) for s in seats)})
    return out


def pairings_both_orders(rows: list[dict]) -> list[dict]:
    """Each pair of sides of two-player games over both seat orders (a pairing played with the seats alternated):
    the first-named side's win rate and the same verdict as `pairings`. Sides are named in the order first seen."""
    groups: dict[frozenset, list[dict]] = defaultdict(list)
    for row in rows:
        sides = [side_label(items) for items in row.get("items") or []]
        if row["winners"] is not None and len(sides) == 2:
            groups[frozenset(sides)].append(row)
    out = []
    for group in groups.values():
        names = [side_label(items) for items in group[0]["items"]]
        won = rate(sum(outcome_of(r, [side_label(items) for items in r["items"]].index(names[0])) == "win"
                       for r in group), len(group))
        out.append({"sides": names, "games": len(group), "first_side": won, "fair": is_fair(won, 0.5)})
    return out


def side_label(items) -> str:
    """A side's setup items as a short name: `preset=adv_stone` → `adv_stone`."""
    return " ".join(item.split("=", 1)[-1] for item in items) or "default"


def is_fair(r: dict, share: float, band: float = 0.05) -> bool:
    """The band's edges count as inside it (55 of 100 is fair); rounding keeps 0.55 - 0.5 from exceeding 0.05."""
    return round(abs(r["rate"] - share), 9) <= band and r["low"] <= share <= r["high"]


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
