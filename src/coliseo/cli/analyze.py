"""`coliseo analyze`: each decision of a game judged, as a table with a summary per player or as JSON lines."""

from __future__ import annotations

import json

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from coliseo.agents.analysis import MARKS, Analyst, Decision, decisions, summary
from coliseo.core.match import Match

from .output import console, progress_console, show_rows, table


def analyze(match: Match, players: list[int], iterations: int | None, json_out: bool) -> None:
    """Judge `players`' decisions with a progress bar on stderr; JSON lines go out as they are judged. Ctrl-C stops:
    what was judged is shown, and the command exits with status 130."""
    analyst = Analyst(match.game, iterations)
    todo = decisions(match, set(players))
    found: list[Decision] = []
    stopped = False
    with analysis_bar() as bar:
        task = bar.add_task(f"{match.game.id}: {analyst.agent.iterations} iterations a decision", total=len(todo))
        try:
            for ply, state, action in todo:
                found.append(analyst.judge(ply, state, action))
                if json_out:
                    print(json.dumps(found[-1].to_json()), flush=True)
                bar.advance(task)
        except KeyboardInterrupt:
            stopped = True
    if not json_out:
        show_decisions(match, found)
        show_summary(match, found, players)
    if stopped:
        # beside the table; with --json on stderr, so that stdout holds nothing but JSON lines
        (progress_console if json_out else console).print(
            f"stopped: {len(found)} of {len(todo)} decisions analysed", highlight=False)
        raise typer.Exit(130)


def analysis_bar() -> Progress:
    # stdout is not redirected through the bar: the JSON lines printed meanwhile must stay on stdout
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                    TimeRemainingColumn(), console=progress_console, redirect_stdout=False, redirect_stderr=False)


def show_decisions(match: Match, found: list[Decision]) -> None:
    grid = table("ply", "player", "played", "before", "after", "best", "loss", "mark")
    for d in found:
        grid.add_row(str(d.ply), str(d.player + 1), d.action, f"{d.before:.3f}", f"{d.after:.3f}",
                     "=" if d.best == d.action else d.best, f"{d.loss:+.3f}", d.mark or "")
    console.print(grid)


def show_summary(match: Match, found: list[Decision], players: list[int]) -> None:
    rows = []
    for p, s in summary(found, players).items():
        mean = "–" if s["mean_loss"] is None else f"{s['mean_loss']:.4f}"
        rows.append([player_name(match, p), str(s["decisions"]), mean, *(str(s[name]) for name in MARKS)])
    show_rows(["player", "decisions", "mean loss", "inaccuracies", "mistakes", "blunders"], rows, title="summary")


def player_name(match: Match, player: int) -> str:
    names = match.players or []
    return f"player {player + 1}" + (f" ({names[player]})" if player < len(names) and names[player] else "")
