"""`coliseo simulate`, `coliseo tournament` and `coliseo report`: the balance lab on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
from rich.text import Text

from coliseo.core.errors import ColiseoError, SetupError
from coliseo.core.options import parse_option_text
from coliseo.core.registry import game_class

from .output import console, fail, progress_console, table


class RateColumn(ProgressColumn):
    """Games per second over the whole run so far: games finished in this run / time since it began.

    Rich's own speed looks at the last few updates only, so rows that arrive together (several workers,
    results delivered in index order) or games counted as already done (--resume) made it spike.
    """

    def render(self, task) -> Text:
        start = task.fields.get("start_time", task.start_time)
        done = task.completed - task.fields.get("start_completed", 0)
        elapsed = (task.stop_time or task.get_time()) - start if start is not None else 0
        return Text(f"{done / elapsed:.2f} games/s" if done > 0 and elapsed > 0 else "– games/s")


def progress_bar(get_time=None) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                    TextColumn("ETA"), TimeRemainingColumn(), console=progress_console, transient=False,
                    get_time=get_time)


def add_run_task(bar: Progress, description: str, total: int, completed: int = 0):
    """A progress task whose rate counts only the games of this run (not those resumed from a file)."""
    return bar.add_task(description, total=total, completed=completed, start_completed=completed,
                        start_time=bar.get_time())


def game_options(game_id: str, option: list[str], players: int | None) -> dict:
    schema = game_class(game_id).options_schema
    options = dict(parse_option_text(schema, text) for text in option)
    if players is not None:
        if "players" not in {o.name for o in schema}:
            raise SetupError(f"{game_id} has no option 'players'")
        options["players"] = players
    return options


def read_setups(path: Path | None) -> list | None:
    """A setup JSON file: one setup, or a list of setups played in turn (game i: setup i mod n)."""
    if path is None:
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SetupError(f"cannot read the setup file: {e}") from None
    except json.JSONDecodeError as e:
        raise SetupError(f"the setup file {path} is not JSON: {e}") from None
    if isinstance(doc, list):
        if not doc:
            raise SetupError(f"the setup file {path} holds an empty list")
        return doc
    return [doc]


def pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"


def print_summary(summary: dict, config) -> None:
    from coliseo.sim.report import run_reason_words

    grid = table("agent", "games", "win [95%]", "draw [95%]", "mean length", "median length",
                 title=f"{summary['games']} games")
    for spec, s in summary["agents"].items():
        grid.add_row(spec, str(s["games"]), pct(s["win"]), pct(s["draw"]), f"{s['mean_length']:.1f}",
                     f"{s['median_length']:g}")
    console.print(grid)
    seats = table("seat", "games", "win [95%]", "draw [95%]")
    for p, s in summary["seats"].items():
        seats.add_row(f"player {int(p) + 1}", str(s["games"]), pct(s["win"]), pct(s["draw"]))
    console.print(seats)
    if len(summary["pairings"]) > 1:
        console.print(pairing_table(summary["pairings"]))
    ends = ", ".join(f"{run_reason_words(config.game, k)} {v}"
                     for k, v in sorted(summary["reasons"].items()))
    console.print(f"first-seat advantage: the player who took the first turn won {pct(summary['first_player'])} "
                  f"(fair: {100 / len(config.agents):.0f}%); ends: {ends}", highlight=False)


def pairing_table(rows: list[dict]):
    grid = table("sides, in seat order", "games", *(f"player {p + 1} wins [95%]" for p in range(len(rows[0]["seats"]))),
                 "first mover wins", "fair", title="match-ups")
    for r in rows:
        grid.add_row(" vs ".join(r["sides"]), str(r["games"]), *(pct(s) for s in r["seats"]), pct(r["first_player"]),
                     "yes" if r["fair"] else "no")
    return grid


def simulate(game: str | None = typer.Argument(None, help="the game (not needed with --resume)"),
             agents: str | None = typer.Option(None, "--agents", help="agent specs A,B[,C,D], e.g. "
                                               "mcts:iterations=400,greedy"),
             games: int = typer.Option(100, "--games", help="number of games (with --resume: the total)"),
             seed: int = typer.Option(0, "--seed", help="the run's seed; game i is seeded from (seed, i)"),
             workers: int = typer.Option(1, "--workers", help="processes (or Ray CPUs) to use"),
             backend: str = typer.Option("local", "--backend", help="local or ray"),
             address: str | None = typer.Option(None, "--address", help="a Ray cluster to join "
                                                "(default: a local Ray started for the run)"),
             out: Path | None = typer.Option(None, "--out", help="FILE.jsonl or FILE.parquet"),
             setup: Path | None = typer.Option(None, "--setup", help="a setup JSON file (one or a list)"),
             resume: Path | None = typer.Option(None, "--resume", help="continue the run in this file"),
             force: bool = typer.Option(False, "--force", help="replace an existing --out file"),
             option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
             players: int | None = typer.Option(None, "--players", help="number of players"),
             json_out: bool = typer.Option(False, "--json", help="print the summary as JSON")) -> None:
    """Play many seeded games between agents, seats rotated; print win rates with intervals."""
    from coliseo.sim.run import check_out_path, check_writable, make_config, read_run
    from coliseo.sim.run import simulate as run_simulation
    from coliseo.sim.spec import parse_agents
    from coliseo.sim.stats import summarize

    try:
        if games < 1 or workers < 1:
            raise SetupError("--games and --workers must be at least 1")
        if backend not in ("local", "ray"):
            raise SetupError(f"--backend must be local or ray, not {backend!r}")
        if resume:
            if agents or setup or option or players is not None:
                raise SetupError("--resume continues a run with its own settings; give only --games, "
                                 "--workers and --backend")
            config, done = read_run(resume)
            if game and game != config.game:
                raise SetupError(f"{resume} is a run of {config.game}, not {game}")
            out = resume
        else:
            if not game or not agents:
                raise SetupError("name the GAME and --agents (or --resume FILE)")
            if out:
                check_out_path(out)
                check_writable(out)
                if out.exists() and not force:
                    raise SetupError(f"{out} already holds a run: continue it with --resume {out}, "
                                     "or replace it with --force")
            config = make_config(game, parse_agents(agents), seed, game_options(game, option, players),
                                 read_setups(setup))
            done = []
    except (ColiseoError, OSError) as e:
        fail(str(e))
    todo = games - len({r["index"] for r in done if r["index"] < games})
    stopped = False
    with progress_bar() as bar:
        task = add_run_task(bar, config.game, games, games - todo)
        try:
            rows = run_simulation(config, games, out, workers, backend, address, done,
                                  on_row=lambda _: bar.advance(task))
        except KeyboardInterrupt:
            stopped = True
        except (ColiseoError, OSError) as e:
            fail(str(e))
    if stopped:
        kept = len(read_run(out)[1]) if out else 0
        where = f"; continue with: coliseo simulate --resume {out} --games {games}" if out else ""
        console.print(f"stopped: {kept} finished games kept{where}", highlight=False)
        raise typer.Exit(130)
    rows = [r for r in rows if r["index"] < games]
    summary = summarize(rows)
    if json_out:
        print(json.dumps({"config": config.to_json(), "summary": summary}))
        return
    print_summary(summary, config)
    if out:
        console.print(f"games saved in {out}", highlight=False)


def tournament(game: str,
               agents: str = typer.Option(..., "--agents", help="agent specs A,B,C..., settings allowed: "
                                          "mcts:iterations=100,mcts:iterations=400,greedy"),
               games: int = typer.Option(20, "--games", help="games per pair"),
               seed: int = typer.Option(0, "--seed"),
               workers: int = typer.Option(1, "--workers"),
               backend: str = typer.Option("local", "--backend", help="local or ray"),
               address: str | None = typer.Option(None, "--address", help="a Ray cluster to join"),
               option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
               plot: Path | None = typer.Option(None, "--plot", help="write the ratings plot (PNG)"),
               json_out: bool = typer.Option(False, "--json", help="print the ratings as JSON")) -> None:
    """Round robin of agents (and agent settings), rated with OpenSkill; a table and a plot."""
    from itertools import combinations

    from coliseo.sim.ratings import ratings_plot
    from coliseo.sim.ratings import tournament as run_tournament
    from coliseo.sim.run import check_writable
    from coliseo.sim.spec import parse_agents

    try:
        if games < 1 or workers < 1:
            raise SetupError("--games and --workers must be at least 1")
        if plot:
            check_writable(plot, "the plot")
        specs = parse_agents(agents)
        pairs = len(list(combinations(dict.fromkeys(specs), 2)))
        with progress_bar() as bar:
            task = add_run_task(bar, f"{game} round robin", pairs * games)
            result = run_tournament(game, specs, games, seed, game_options(game, option, None), workers,
                                    backend, address, on_row=lambda _: bar.advance(task))
    except ColiseoError as e:
        fail(str(e))
    ratings = result["ratings"]
    if plot:
        ratings_plot(ratings, plot, f"{game}: {games} games per pair")
    if json_out:
        print(json.dumps(ratings))
        return
    out = table("rank", "agent", "rating (mu)", "sigma", "ordinal (mu−3σ)", "games", "wins", "draws")
    for n, r in enumerate(ratings, 1):
        out.add_row(str(n), r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}",
                    str(r["games"]), str(r["wins"]), str(r["draws"]))
    console.print(out)
    if plot:
        console.print(f"plot saved in {plot}", highlight=False)


def report(file: Path = typer.Argument(..., help="a simulation file (.jsonl or .parquet)"),
           out: Path = typer.Option(Path("report.html"), "--out", help="the HTML page to write")) -> None:
    """An HTML report of a simulation: win rates, lengths, first-player advantage, item balance."""
    from coliseo.sim.report import build_report
    from coliseo.sim.run import check_writable, read_header, read_run

    try:
        config, rows = read_run(file)
        check_writable(out, "the report")
        page = build_report(config, [r for r in rows if r["winners"] is not None] or rows,
                            header=read_header(file))
        out.write_text(page, encoding="utf-8")
    except ColiseoError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write the report {out}: {e.strerror or e}")
    console.print(f"report written to {out}", highlight=False)


def register(app: typer.Typer) -> None:
    for command in (simulate, tournament, report):
        app.command()(command)
