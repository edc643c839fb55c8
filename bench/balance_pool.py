"""The pooled balance tables: every game of the given run files, each counted once.

    .venv/bin/python bench/balance_pool.py docs/balance/sentinel/seed*/*.jsonl

The run files are `bench/balance.py` sweeps of one game, its options and agents, at any seeds and indices. A game
two files both played (the same seed and sides in the same seats: a focus run and a round robin of one seed share
some) is counted once. Refused: the same game played on other content in another file (it would count one game
twice) and a repeat that ended otherwise on the same content (the seeds promise the same game). Prints JSON: each
ordered match-up's Player 1 win rate, each pairing's with the seats alternated (the first-named side's, over both
orders), the first mover's, and each side's over all its games, with 95% Wilson intervals and the bar's verdict
(within 45-55% and the interval holding 50%); and the games each content digest played.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from balance import both_orders, percent, side_win_pct

from coliseo.core.errors import SetupError
from coliseo.sim.run import read_header, read_run
from coliseo.sim.stats import pairings_both_orders, summarize


def pooled_rows(paths: list[Path]) -> tuple[list[dict], Counter, int]:
    """The finished games of the run files, each once and tagged with its content digest; the games per digest;
    how many repeats were dropped."""
    games: dict[tuple, dict] = {}
    settings = None
    repeats = 0
    for path in paths:
        try:
            config, rows = read_run(path)
        except SetupError as e:
            raise SystemExit(str(e)) from None
        header = read_header(path)
        mine = {"game": config.game, "options": config.options, "agents": config.agents,
                "agent settings": header.get("agent_settings")}
        if settings is None:
            settings = (path, mine)
        differ = [name for name in mine if mine[name] != settings[1][name]]
        if differ:
            raise SystemExit(f"{path} is not a sweep of {settings[0]}'s game: its {', '.join(differ)} differ")
        for row in rows:
            if row["winners"] is None:
                continue
            key = (row["seed"], json.dumps(row.get("items")))
            if key in games:
                if games[key]["content"] != header.get("content"):
                    raise SystemExit(f"{path} game {row['index']} is a game {games[key]['path']} played on other "
                                     "content: pool one content's games")
                if (games[key]["winners"], games[key]["length"]) != (row["winners"], row["length"]):
                    raise SystemExit(f"{path} game {row['index']} ended otherwise in {games[key]['path']}, on the "
                                     "same content: the two runs are not the same games")
                repeats += 1
                continue
            games[key] = {**row, "content": header.get("content"), "path": str(path)}
    rows = list(games.values())
    return rows, Counter(row["content"] for row in rows), repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run files (.jsonl or .parquet) of bench/balance.py")
    rows, contents, repeats = pooled_rows(parser.parse_args().runs)
    summary = summarize(rows)
    ordered = sorted(summary["pairings"], key=lambda p: p["sides"])
    by_pair = pairings_both_orders(rows)
    print(json.dumps({
        "games": len(rows), "repeats_dropped": repeats, "games_per_content": dict(contents),
        "matchups_fair": f"{sum(p['fair'] for p in ordered)} of {len(ordered)}",
        "pairings_fair": f"{sum(p['fair'] for p in by_pair)} of {len(by_pair)}",
        "first_mover_win_pct": percent(summary["first_player"]),
        "side_win_pct": dict(sorted(side_win_pct(rows).items())),
        "matchups": [{"sides": p["sides"], "games": p["games"], "player_1_win_pct": percent(p["seats"][0]),
                      "fair": p["fair"]} for p in ordered],
        "pairings": [both_orders(p) for p in by_pair]}))


if __name__ == "__main__":
    main()
