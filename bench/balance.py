"""The balance sweep: every ordered match-up of a game's shipped presets in self-play, one run file and report.

    .venv/bin/python bench/balance.py capsule -o mode=advanced --agent greedy --games 400 --seed 21 --workers 2

The presets are Capsule's teams of the chosen mode and the Forbidden duel's starter decks; Dungeon Dice and
Fantastiqa ship one setup, so their only match-up is the mirror (where the seats are what is measured). Game i
of the run plays match-up i mod n, so each gets --games games. The run is saved as
runs/<game>[-options]-<agent>.jsonl; running the same command again continues it (more --games extend it;
refused once the content played has changed), and its report beside it as .html. Prints JSON: every
match-up's seat win rates with 95% Wilson intervals, whether it is fair (each seat within 45-55% and its
interval holding 50%), each pairing's over both seat orders (the first-named side's rate, the seats alternated),
the first mover's rate, and each side's rate over all its games.

A screen of a candidate (a team or deck in an extra pack, `-o packs=cand.toml`) plays only its match-ups:

    .venv/bin/python bench/balance.py capsule -o mode=advanced -o packs=cand.toml --focus cand_dawn \
        --leave-out adv_dawn --agent mcts --games 8 --seed 31

With `--in-place-of adv_dawn` instead of `--leave-out adv_dawn` the candidate's game i is game i of `--focus
adv_dawn` at the same seed with the candidate in Dawn's seat: the two runs compare index by index.

`--against BASE.jsonl` compares the run with such a base run game by game (the same seed, agents and match-up
order; its content or a candidate in place of a side may differ): over the games both played, each match-up's
Player 1 win rate in both, the focus side's rate moving first and second in both, and how many games changed
winner. A screen of content changed in a checkout (not a pack) is the same sweep run there `--against` the
shipped run.

`--between A,B` plays only the sweep's games between two sides, at the indices and seeds the whole sweep gives
them: one pair of a table played again on changed content, `--against` the table's run.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import re
from collections import defaultdict
from pathlib import Path

from coliseo import load_game
from coliseo.cli.sim import game_options
from coliseo.core.errors import SetupError
from coliseo.sim.report import build_report
from coliseo.sim.run import make_config, read_run, run_header, setup_items, simulate
from coliseo.sim.stats import item_lifts, pairings_both_orders, side_label, summarize


def matchup_setups(game, focus: str | None = None, leave_out: tuple = (),
                   in_place_of: str | None = None) -> list | None:
    """Every ordered pair of distinct sides (the game's presets under its options) as a setup; None (the default
    setup) where there is one side.

    `focus` keeps the pairs that side plays in; `leave_out` drops the sides named. `in_place_of` (with `focus`)
    puts the focus side where that side stands and drops it, so the pairs come in the order `--focus` of that side
    plays them: game i of both runs has the same seed and the same rival in the same seat."""
    every = [s["id"] for s in game.sides() if all(game.options[k] == v for k, v in s["options"].items())]
    unknown = ({focus, in_place_of} - {None} | set(leave_out)) - set(every)
    if unknown:
        raise SystemExit(f"no such side: {', '.join(sorted(unknown))}; sides: {', '.join(every)}")
    if in_place_of:
        if not focus or focus == in_place_of:
            raise SystemExit("--in-place-of names the side the --focus side stands in for; give --focus another side")
        every = [focus if s == in_place_of else s for s in every if s != focus]
    sides = [s for s in every if s not in leave_out]
    if len(sides) < 2:
        return None
    return [game.setup_for_sides([a, b]) for a, b in itertools.permutations(sides, 2)
            if focus is None or focus in (a, b)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[], help="game option NAME=VALUE")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--agent", default="greedy", help="the agent spec every seat plays")
    parser.add_argument("--games", type=int, default=400, help="games per match-up")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs"), help="folder for the run file and report")
    parser.add_argument("--focus", help="play only the match-ups of this side (a screen of a candidate)")
    parser.add_argument("--leave-out", action="append", default=[], help="a side not to play (repeatable)")
    parser.add_argument("--in-place-of", help="with --focus: play that side's match-ups in place of this side, at "
                                              "the same indices and seeds as --focus of this side (a paired screen)")
    parser.add_argument("--between", help="A,B: play only the sweep's games between these two sides, at the "
                                           "sweep's own indices and seeds (a pair of a table played again)")
    parser.add_argument("--against", type=Path, help="a base run (.jsonl) of the same seed, agents and match-up "
                                                     "order to compare with game by game")
    args = parser.parse_args()
    options = game_options(args.game, args.option, args.players)
    setups = matchup_setups(load_game(args.game, **options), args.focus, tuple(args.leave_out), args.in_place_of)
    players = args.players or 2
    config = make_config(args.game, [args.agent] * players, args.seed, options, setups)
    base_rows = base_run(args.against, config) if args.against else None
    games = args.games * len(setups or [None])
    indices = between_indices(setups, args.between, games) if args.between else None
    focus = [f"focus_{args.focus}"] if args.focus else []
    focus += [f"for_{args.in_place_of}"] if args.in_place_of else []
    focus += [f"between_{args.between.replace(',', '_')}"] if args.between else []
    agent = re.sub(r"\W+", "_", args.agent)
    tag = "-".join([args.game, *(re.sub(r"\W", "", t) for t in args.option), *focus,
                    *(f"without_{s}" for s in args.leave_out), agent])
    if len(tag) > 120:   # a file name has at most 255 bytes: a long one keeps game, focus and agent, and a digest
        tag = "-".join([args.game, *focus, agent, hashlib.sha1(tag.encode()).hexdigest()[:12]])
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{tag}.jsonl"
    done = []
    if path.exists():   # the same sweep again continues it; another one under this name is refused
        kept, done = read_run(path)
        if kept.to_json() != config.to_json():
            raise SystemExit(f"{path} holds a run with other settings; move it away or pick another --out")
    try:
        rows = simulate(config, games, path, args.workers, done=done, indices=indices)
    except SetupError as e:
        raise SystemExit(str(e)) from None
    summary = summarize(rows)
    path.with_suffix(".html").write_text(build_report(config, rows, header=run_header(config)), encoding="utf-8")
    print(json.dumps({"game": args.game, "options": options, "agent": args.agent, "seed": args.seed,
                      "games_per_matchup": args.games, "run": str(path),
                      "all_fair": all(p["fair"] for p in summary["pairings"]),
                      "first_mover_win_pct": percent(summary["first_player"]),
                      "side_win_pct": side_win_pct(rows),
                      "matchups": [{"sides": p["sides"], "games": p["games"],
                                    "seat_win_pct": [percent(s) for s in p["seats"]],
                                    "first_mover_win_pct": percent(p["first_player"]), "fair": p["fair"]}
                                   for p in summary["pairings"]],
                      "pairings": [both_orders(p) for p in pairings_both_orders(rows)],
                      **({"against": {"run": str(args.against), **paired(rows, base_rows, args.focus)}}
                         if args.against else {})}))


def between_indices(setups: list | None, between: str, games: int) -> list[int]:
    """The indices below `games` whose match-up is between the two sides named in "A,B" (either seat)."""
    sides = set(between.split(","))
    pairs = [{side_label(setup_items(s, p)) for p in range(2)} for s in setups or []]
    if len(sides) != 2 or sides not in pairs:
        raise SystemExit(f"--between {between}: name two sides that play each other in this sweep, as A,B")
    return [i for i in range(games) if pairs[i % len(pairs)] == sides]


def base_run(path: Path, config) -> list[dict]:
    """The rows of the run to compare with, checked before any game is played: a game by game comparison needs
    the same seed, agents and number of match-ups (so game i has the same seed and match-up slot in both)."""
    try:
        base, rows = read_run(path)
    except SetupError as e:
        raise SystemExit(f"--against: {e}") from None
    differ = [name for name, a, b in (("seed", base.seed, config.seed), ("agents", base.agents, config.agents),
                                      ("match-ups", len(base.setups or [None]), len(config.setups or [None])))
              if a != b]
    if differ:
        raise SystemExit(f"--against {path}: not the same {' or '.join(differ)} as this run, so its games are not "
                         "this run's games played on other content")
    return rows


def paired(rows: list[dict], base_rows: list[dict], focus: str | None) -> dict:
    """This run against the base run over the games both played (by index): Player 1's win rate per match-up and
    the focus side's moving first and second, each as [this run, base], and the games whose winner changed."""
    base = {r["index"]: r for r in base_rows}
    common = [r for r in rows if r["index"] in base and r["winners"] is not None]
    groups: dict[tuple, list[dict]] = defaultdict(list)
    focus_seats: dict[str, list[tuple[dict, int]]] = defaultdict(list)
    for row in common:
        sides = tuple(side_label(items) for items in row.get("items") or [])
        groups[sides].append(row)
        if focus in sides and row["first_player"] is not None:
            seat = sides.index(focus)
            focus_seats["moving_first" if seat == row["first_player"] else "moving_second"].append((row, seat))

    def pct(games: list[tuple[dict, int]]) -> list[float]:
        return [round(100 * sum(r["winners"] == [seat] for r, seat in games) / len(games), 1),
                round(100 * sum(base[r["index"]]["winners"] == [seat] for r, seat in games) / len(games), 1)]

    return {"games": len(common),
            "changed_winner": sum(r["winners"] != base[r["index"]]["winners"] for r in common),
            "matchups": [{"sides": list(sides) or ["default", "default"], "games": len(group),
                          "player_1_win_pct": pct([(r, 0) for r in group])} for sides, group in groups.items()],
            **({f"{focus}_win_pct": {k: pct(v) for k, v in focus_seats.items()}} if focus else {})}


def side_win_pct(rows: list[dict]) -> dict:
    """Each side's win rate over all its games, as printed."""
    return {side_label([r["item"]]): percent({"rate": r["win_rate"], **r}) for r in item_lifts(rows, min_games=1)}


def both_orders(pairing: dict) -> dict:
    """A pairing over both seat orders, as printed: the first-named side's win rate and the verdict."""
    return {"sides": pairing["sides"], "games": pairing["games"], "first_side_win_pct": percent(pairing["first_side"]),
            "fair": pairing["fair"]}


def percent(r: dict) -> list[float]:
    """A rate as [percent, interval low, interval high]."""
    return [round(100 * r[k], 1) for k in ("rate", "low", "high")]

if __name__ == "__main__":
    main()
