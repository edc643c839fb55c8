"""Round-robin tournaments between agent specs, rated with OpenSkill (Plackett-Luce)."""

from __future__ import annotations

from itertools import combinations

from coliseo.core.rng import seed_from

from .run import make_config, simulate
from .stats import outcome_of


def tournament(game_id: str, specs: list[str], games: int, seed: int, options: dict | None = None,
               workers: int = 1, backend: str = "local", address: str | None = None, on_row=None) -> dict:
    """Every pair of specs plays `games` games (seats rotated); returns the ratings and the games."""
    if len(set(specs)) < 2:
        from coliseo.core.errors import SetupError

        raise SetupError("a tournament needs at least two different agents")
    matches = []
    for a, b in combinations(dict.fromkeys(specs), 2):
        config = make_config(game_id, [a, b], seed_from(seed, a, b), options)
        matches.append((config, simulate(config, games, workers=workers, backend=backend, address=address,
                                         on_row=on_row)))
    return {"ratings": rate(specs, [row for _, rows in matches for row in rows]),
            "pairs": [{"agents": list(c.agents), "rows": rows} for c, rows in matches]}


def rate(specs: list[str], rows: list[dict]) -> list[dict]:
    """OpenSkill ratings (mu, sigma, ordinal = mu - 3 sigma), best first, from the games in order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {spec: model.rating(name=spec) for spec in dict.fromkeys(specs)}
    record = {spec: {"games": 0, "wins": 0, "draws": 0} for spec in ratings}
    for row in rows:
        if row["winners"] is None:
            continue
        seats = row["seats"]
        outcomes = [outcome_of(row, p) for p in range(len(seats))]
        ranks = [0 if o == "win" else 1 if o == "draw" else 2 for o in outcomes]
        if all(o == "draw" for o in outcomes):
            ranks = [0] * len(seats)
        new = model.rate([[ratings[s]] for s in seats], ranks=ranks)
        for spec, team, outcome in zip(seats, new, outcomes):
            ratings[spec] = team[0]
            record[spec]["games"] += 1
            record[spec]["wins"] += outcome == "win"
            record[spec]["draws"] += outcome == "draw"
    table = [{"agent": spec, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), **record[spec]}
             for spec, r in ratings.items()]
    return sorted(table, key=lambda r: -r["ordinal"])


def ratings_plot(table: list[dict], path, title: str = "") -> None:
    """A PNG of each agent's rating with a ±2 sigma bar."""
    from .report import plt_figure

    fig, ax = plt_figure(6, 0.5 + 0.45 * len(table))
    names = [r["agent"] for r in table][::-1]
    mus = [r["mu"] for r in table][::-1]
    errs = [2 * r["sigma"] for r in table][::-1]
    ax.errorbar(mus, range(len(names)), xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("OpenSkill rating (mu ± 2 sigma)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
