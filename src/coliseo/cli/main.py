"""`coliseo`: list, read about, play, replay and verify the games."""

from __future__ import annotations

import json
import os
import secrets
import sys
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.markdown import Markdown
from rich.markup import escape

from coliseo import __version__, list_games, load_game
from coliseo.agents import agent_names
from coliseo.core.errors import ColiseoError, RecordError
from coliseo.core.events import view_events
from coliseo.core.i18n import card_word, check_lang, default_lang, result_words
from coliseo.core.match import Command, Match, check_record, ends_as_recorded, read_record, replay, verify
from coliseo.core.options import parse_option_text
from coliseo.core.registry import game_class
from coliseo.sim.spec import build_agent, parse_spec

from .analyze import analyze as analyze_match
from .output import console, fail, show_rows
from .session import Session
from .words import words

app = typer.Typer(help="Coliseo: four monster games, their AI and their records.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)
content_app = typer.Typer(help="Content packs: import public data sets as user packs.", no_args_is_help=True)
app.add_typer(content_app, name="content")

LangOption = typer.Option(None, "--lang", help="es or en (default: from the locale)")
JsonOption = typer.Option(False, "--json", help="print JSON for scripts")


def lang_of(lang: str | None) -> str:
    try:
        return check_lang(lang or default_lang())
    except ValueError as e:
        fail(str(e))


def build_game(game_id: str, options: list[str], lang: str, **extra):
    """The game with `--option name=value` settings (and named ones such as --players) applied."""
    if game_id not in list_games():
        fail(words("unknown_game", lang, game=game_id, games=", ".join(list_games())))
    try:
        schema = game_class(game_id).options_schema
        settings = dict(parse_option_text(schema, text) for text in options)
        names = {o.name for o in schema}
        for name, value in extra.items():
            if value is None:
                continue
            if name not in names:
                fail(words("no_option", lang, game=game_id, name=name))
            settings[name] = value
        return load_game(game_id, **settings)
    except ColiseoError as e:
        fail(e.text(lang))


@app.callback(invoke_without_command=True)
def main(version: bool = typer.Option(False, "--version", help="print the version")) -> None:
    if version:
        console.print(f"coliseo {__version__}")
        raise typer.Exit()


@app.command()
def games(json_out: bool = JsonOption, lang: str | None = LangOption) -> None:
    """List the games."""
    lang = lang_of(lang)
    rows = []
    for game_id in list_games():
        cls = game_class(game_id)
        rows.append({"id": game_id, "name": cls.names.get(lang, cls.names["en"]),
                     "players": f"{cls.min_players}-{cls.max_players}" if cls.min_players != cls.max_players
                     else str(cls.min_players), "options": [o.name for o in cls.options_schema]})
    if json_out:
        print(json.dumps(rows, ensure_ascii=False))
        return
    show_rows(["id", "name", "players", "options"],
              [[row["id"], row["name"], row["players"], ", ".join(row["options"])] for row in rows])


@app.command()
def rules(game: str, lang: str | None = LangOption) -> None:
    """Print how to play GAME."""
    lang = lang_of(lang)
    g = build_game(game, [], lang)
    try:
        guide = Markdown(g.rules_text(lang))
    except NotImplementedError:
        fail(words("no_guide", lang, game=game))
    if not console.is_terminal:
        console.print(guide)
        return
    os.environ.setdefault("LESS", "-RFX")       # less shows the colours, and quits at once on a short text
    with console.pager(styles=True):
        console.print(guide)


@app.command()
def cards(game: str, name: str | None = typer.Option(None, help="part of the name"),
          where: list[str] = typer.Option([], "--where", help="FIELD=VALUE, e.g. faction=dark (repeatable)"),
          minimum: list[str] = typer.Option([], "--min", help="FIELD=N, e.g. atk=1500 (repeatable)"),
          maximum: list[str] = typer.Option([], "--max", help="FIELD=N (repeatable)"),
          option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
          json_out: bool = JsonOption, lang: str | None = LangOption) -> None:
    """Browse GAME's cards (monsters, Kings, dice...), with filters."""
    lang = lang_of(lang)
    g = build_game(game, option, lang)
    try:
        rows = g.card_rows(lang)
    except NotImplementedError:
        fail(words("no_cards", lang, game=game))
    rows = [{k: card_word(v, lang) if k in ("kind", "faction") else v for k, v in row.items()} for row in rows]
    rows = filter_rows(rows, name, where, minimum, maximum, lang)
    if json_out:
        print(json.dumps(rows, ensure_ascii=False))
        return
    columns = list(dict.fromkeys(k for row in rows for k in row))
    show_rows(columns, [[str(row.get(c, "")) for c in columns] for row in rows])
    console.print(f"{len(rows)} cards")


def filter_rows(rows: list[dict], name: str | None, where: list[str], minimum: list[str],
                maximum: list[str], lang: str = "en") -> list[dict]:
    def pairs(items: list[str], numeric: bool):
        out = []
        for item in items:
            key, sep, value = item.partition("=")
            if not sep:
                fail(words("filter_form", lang, item=item))
            if rows and key not in rows[0] and not any(key in r for r in rows):
                fail(words("no_field", lang, field=key, fields=", ".join(dict.fromkeys(k for r in rows for k in r))))
            if numeric:
                try:
                    value = float(value)
                except ValueError:
                    fail(words("filter_number", lang, item=item))
            out.append((key, value))
        return out

    exact, low, high = pairs(where, False), pairs(minimum, True), pairs(maximum, True)

    def number(row, key):
        try:
            return float(row.get(key))
        except (TypeError, ValueError):
            return None

    kept = []
    for row in rows:
        if name and name.lower() not in str(row.get("name", "")).lower():
            continue
        if any(str(row.get(k, "")).lower() != v.lower() for k, v in exact):
            continue
        if any(number(row, k) is None or number(row, k) < v for k, v in low):
            continue
        if any(number(row, k) is None or number(row, k) > v for k, v in high):
            continue
        kept.append(row)
    return kept


@app.command()
def play(game: str,
         vs: str = typer.Option("greedy", "--vs", help="the AI seat(s): one agent spec "
                                           "(e.g. mcts:iterations=800), or several separated by commas"),
         seat: int = typer.Option(1, "--seat", help="your seat, 1 = first player"),
         players: int | None = typer.Option(None, "--players", help="number of players (games for 3–4)"),
         variant: str | None = typer.Option(None, "--variant", help="shorthand for the game's mode option"),
         option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE (repeatable)"),
         duelist: str | None = typer.Option(None, "--duelist", help="Forbidden duel: the CPU duelist"),
         teams: str | None = typer.Option(None, "--teams", help="Capsule Monsters: two team presets"),
         setup_file: Path | None = typer.Option(None, "--setup", help="a setup JSON file"),
         seed: int | None = typer.Option(None, "--seed", help="the game's seed (default: random)"),
         load: Path | None = typer.Option(None, "--load", help="resume a game saved with `save`"),
         lang: str | None = LangOption) -> None:
    """Play GAME in the terminal against the AI."""
    lang = lang_of(lang)
    try:
        if load:
            doc = read_record_file(load, lang)
            if doc["game"] != game:
                fail(words("other_game", lang, path=load, game=doc["game"], wanted=game))
            match = replay_record(doc, load, lang)
            g = match.game
            if match.is_over:
                fail(words("finished", lang, path=load, result=result_words(g, match.result, lang)))
        else:
            g = build_game(game, option, lang, players=players, mode=variant)
            choices = {k: v for k, v in {"duelist": duelist, "teams": teams}.items() if v is not None}
            setup = read_json(setup_file, lang) if setup_file else g.setup_for(**choices)
            match = Match(g, secrets.randbits(63) if seed is None else seed, g.setup_for_people(setup, {seat - 1}))
        seats = match.state.players
        if not 1 <= seat <= len(seats):
            fail(words("seat_range", lang, n=len(seats)))
        others = [p for p in seats if p != seat - 1]
        names = [n.strip() for n in vs.split(",")]
        if len(names) == 1:
            names *= len(others)
        if len(names) != len(others):
            fail(words("vs_count", lang, agents=len(names), seats=len(others)))
        for spec in names:
            if parse_spec(spec)[0] not in agent_names(g.id):
                fail(words("unknown_agent", lang, name=parse_spec(spec)[0], game=g.id,
                           agents=", ".join(agent_names(g.id))))
        agents = {p: build_agent(n, g, match.seed + p) for p, n in zip(others, names)}
    except ColiseoError as e:
        fail(e.text(lang))
    match.players = [("human" if p == seat - 1 else names[others.index(p)]) for p in seats]
    session = Session(match, agents, lang, console, read=lambda prompt: console.input(f"{prompt}: "))
    record = session.run()
    if session.interrupted:
        raise typer.Exit(130)
    if record["result"] is None:
        raise typer.Exit(1)


def read_json(path: Path, lang: str):
    """The JSON document in a file the user named; a missing file, a folder or bad JSON fails saying so."""
    if not path.exists():
        fail(words("no_file", lang, path=path))
    if path.is_dir():
        fail(words("is_folder", lang, path=path))
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        fail(words("unreadable", lang, path=path, error=e.strerror or e))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(words("not_json", lang, path=path, error=e))


def read_record_file(path: Path, lang: str) -> dict:
    doc = read_json(path, lang)
    try:
        check_record(doc)
    except RecordError as e:
        fail(words("bad_record", lang, path=path, error=e))
    return doc


def replay_record(doc: dict, path: Path, lang: str) -> Match:
    try:
        return replay(doc)
    except ColiseoError as e:
        fail(words("bad_record", lang, path=path, error=e))


def played_match(file: Path, game: int | None, lang: str, command: str) -> tuple[Match, bool]:
    """The game of a record, or game `game` of a simulation run, played again; and whether it ends as the file says."""
    if game is not None:
        return replay_run_game(file, game)
    if file.suffix in (".jsonl", ".parquet"):
        fail(words("run_needs_game", lang, path=file, command=command))
    doc = read_record_file(file, lang)
    match = replay_record(doc, file, lang)
    return match, ends_as_recorded(match, doc)


def replay_run_game(path: Path, index: int) -> tuple[Match, bool]:
    """Game `index` of the simulation run in `path`, played again; and whether it ends as the run recorded."""
    from coliseo.sim.run import check_same_content, read_run, replay_game

    try:
        config, rows = read_run(path)
        row = next((r for r in rows if r["index"] == index), None)
        if row is None:
            numbers = sorted(r["index"] for r in rows)
            held = f"its {len(rows)} games are numbered {numbers[0]}–{numbers[-1]}" if rows else "it holds no games"
            raise RecordError(f"{path} has no game {index}: {held}")
        check_same_content(path, config)
        match = replay_game(config, index)
    except (ColiseoError, OSError) as e:
        fail(str(e))
    result = match.result or {}
    return match, all(result.get(key) == row[key] for key in ("winners", "reason", "scores"))


@app.command("replay")
def replay_cmd(file: Path, view: str = typer.Option("spectator", help="whose view: 1, 2, … or spectator"),
               step: bool = typer.Option(False, "--step", help="one action at a time with its board: Enter or "
                                         "→ next, b or ← back, q quit"),
               game: int | None = typer.Option(None, "--game", help="FILE is a simulation run: play its game N "
                                               "again (the same game, from the run's seed) and show it"),
               lang: str | None = LangOption, json_out: bool = JsonOption) -> None:
    """Re-run a record, as one player or a spectator saw it (all at once, or step by step with --step); or a game
    of a simulation run, with --game."""
    lang = lang_of(lang)
    match, same = played_match(file, game, lang, "replay")
    viewer = None if view == "spectator" else int(view) - 1 if view.isdigit() else -1
    if viewer is not None and viewer not in match.state.players:
        fail(words("view", lang))
    g = match.game
    if json_out:
        print(json.dumps({"events": match.events_for(viewer), "result": match.result}, ensure_ascii=False))
        return
    if step:
        with key_reader() as read:
            step_through(match, viewer, lang, read)
    else:
        for i, played in enumerate(match.steps, 1):
            label, events = step_words(match, played, viewer, lang)
            console.print(f"[bold]{i}.[/bold] {escape(label)}")
            for event in events:
                console.print(f"    {g.render(event, lang)}")
        console.print(g.render_text(match.state.observation(viewer), lang), markup=False, highlight=False)
    if match.result:
        console.print(escape(words("result", lang, result=result_words(g, match.result, lang))))
    source = "record" if game is None else "run"
    outcome = words(f"same_{source}", lang) if same else f"[red]{words(f'other_{source}', lang)}[/red]"
    console.print(words("replayed", lang, n=len(match.steps), outcome=outcome))


def step_words(match: Match, played, viewer: int | None, lang: str) -> tuple[str, list[dict]]:
    """A replayed step's headline and the events shown under it: an action's notation, or for a table command
    (resign, draw offers, abandonment) its first event in words rather than its record form `!resign 0`."""
    events = view_events(played.events, viewer)
    if isinstance(played.action, Command) and events:
        return match.game.render(events[0], lang), events[1:]
    return match.format(played.action), events


NEXT_KEYS = {"", "n", " ", "\x1b[C", "\x1b[B"}      # Enter, n, space, → and ↓
BACK_KEYS = {"b", "p", "\x1b[D", "\x1b[A"}          # b, p, ← and ↑


@contextmanager
def key_reader():
    """`read(prompt)` for --step: one key from a terminal (an arrow as its escape sequence), else one line.

    The terminal stays in cbreak mode for the whole walk, not just while a key is awaited: a key pressed while a
    board is printed then waits for the next read instead of being echoed and flushed away."""
    if not sys.stdin.isatty():
        yield lambda prompt: console.input(prompt).strip().lower()
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)

    def read(prompt: str) -> str:
        console.print(prompt, end="")
        key = os.read(fd, 1)
        if key == b"\x1b":
            key += os.read(fd, 2)
        console.print()
        text = key.decode(errors="replace")
        return "" if text in ("\r", "\n") else text if text.startswith("\x1b") else text.lower()

    try:
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def step_through(match: Match, viewer: int | None, lang: str, read) -> None:
    """Show the record one action at a time: the action, what it caused, and the board after it."""
    g = match.game
    again = Match(g, match.seed, match.setup)
    boards = [g.render_text(again.state.observation(viewer), lang)]
    for played in match.steps:
        again.play(played.action)            # an action or a table command (resign, draw, abandon)
        boards.append(g.render_text(again.state.observation(viewer), lang))
    i, last = 0, len(match.steps)
    while True:
        if i == 0:
            console.print(f"[bold]0/{last}[/bold] {words('the_start', lang)}", highlight=False)
        else:
            label, events = step_words(match, played=match.steps[i - 1], viewer=viewer, lang=lang)
            console.print(f"[bold]{i}/{last}.[/bold] {escape(label)}", highlight=False)
            for event in events:
                console.print(f"    {g.render(event, lang)}", markup=False, highlight=False)
        console.print(boards[i], markup=False, highlight=False)
        try:
            key = read(words("step_keys", lang))
        except (EOFError, KeyboardInterrupt):
            return
        if key in NEXT_KEYS:
            if i == last:
                return
            i += 1
        elif key in BACK_KEYS:
            i = max(0, i - 1)
        elif key == "q":
            return


@app.command()
def analyze(file: Path = typer.Argument(..., help="a record, or a simulation run with --game"),
            game: int | None = typer.Option(None, "--game", help="FILE is a simulation run: analyse its game N"),
            view: str | None = typer.Option(None, "--view", help="only this player's decisions: 1, 2, … "
                                            "(default: every player's)"),
            iterations: str | None = typer.Option(None, "--iterations", help="search iterations per decision "
                                                  "(default: the game's, about a minute for a whole game)"),
            json_out: bool = typer.Option(False, "--json", help="one JSON object per decision per line")) -> None:
    """Judge each decision of a game by a search from what its mover knew: their estimated chance to win before and
    after it, the move the search prefers, the loss, and inaccuracies, mistakes and blunders."""
    budget = None
    if iterations is not None:
        budget = int(iterations) if iterations.isdigit() else 0
        if budget < 1:
            fail(f"--iterations must be a whole number of at least 1, not {iterations!r}")
    match, _ = played_match(file, game, "en", "analyze")
    players = match.state.players
    if view is not None:
        if not view.isdigit() or int(view) - 1 not in players:
            fail(f"--view must be a player of this game: 1 to {len(players)}, not {view!r}")
        players = [int(view) - 1]
    analyze_match(match, list(players), budget, json_out)


@app.command("verify")
def verify_cmd(file: Path, commitment: str | None = typer.Option(
        None, "--commitment", help="the seed commitment the table showed you during the game: it must be the record's"),
        json_out: bool = JsonOption) -> None:
    """Check a record: the seed, salt, options and setup match its commitment (the one you were shown, if given) and
    the replay reaches the recorded result."""
    try:
        if file.is_dir():
            raise RecordError(words("is_folder", "en", path=file))
        doc = read_record(file)
        match = verify(doc, commitment)
    except (ColiseoError, OSError) as e:
        error = str(e) if isinstance(e, ColiseoError) else words("unreadable", "en", path=file, error=e.strerror or e)
        if json_out:
            print(json.dumps({"ok": False, "error": error}))
            raise typer.Exit(1) from None
        console.print(f"[red]NOT VERIFIED:[/red] {escape(error)}", soft_wrap=True)
        raise typer.Exit(1) from None
    scheme = doc.get("commitment_scheme", 1)
    summary = {"ok": True, "game": match.game.id, "actions": len(match.steps), "result": match.result,
               "seed_commitment": doc["seed_commitment"], "commitment_scheme": scheme,
               "commitment_shown": commitment is not None}
    if json_out:
        print(json.dumps(summary))
    else:
        parts = "seed, salt, options and setup" if scheme != 1 else "seed, salt and setup"
        older = " (an older record, of scheme 1: its options were not committed)" if scheme == 1 else ""
        shown = ", which is the commitment you were shown" if commitment is not None else ""
        console.print(f"[green]VERIFIED[/green]: {match.game.id}, {len(match.steps)} actions, the {parts} match "
                      f"the seed commitment {doc['seed_commitment'][:16]}…{older}{shown}; result: "
                      f"{escape(result_words(match.game, match.result, 'en')) if match.result else 'unfinished'}")


@app.command("agents")
def agents_cmd(game: str | None = typer.Argument(None), json_out: bool = JsonOption) -> None:
    """List the agents (for one game, if named)."""
    names = agent_names(game)
    print(json.dumps(names)) if json_out else console.print(", ".join(names))


def _mount_game_commands() -> None:
    """Game-specific command groups (e.g. `coliseo forbidden fusions`) join when their game is installed."""
    try:
        from coliseo.cli.forbidden import app as forbidden_app
        from coliseo.cli.forbidden import import_ygofm
    except ImportError:
        return
    app.add_typer(forbidden_app, name="forbidden", help="Forbidden duel tools: fusions, drops.")

    @content_app.command("import")
    def import_content(game: str, ygofm: Path = typer.Option(..., "--ygofm", help="the YGOFM-gamedata folder"),
                       name: str = typer.Option("fm", "--name", help="the pack's name")) -> None:
        """Import a public data set as a user content pack (Forbidden duel: --ygofm DIR)."""
        if game != "forbidden":
            fail("only the forbidden game imports a data set (--ygofm)")
        try:
            path = import_ygofm(ygofm, name)
        except (ColiseoError, OSError) as e:
            fail(str(e))
        console.print(f"imported into {path}; play with -o pack={name}")


_mount_game_commands()

# Command groups of the service layers, each a module with `register(app)`; absent ones are skipped.
OPTIONAL_COMMANDS = ("coliseo.cli.sim", "coliseo.cli.web")


def _mount_optional_commands() -> None:
    import importlib

    for module in OPTIONAL_COMMANDS:
        try:
            commands = importlib.import_module(module)
        except ModuleNotFoundError:   # not written yet, or its extra is not installed
            continue
        commands.register(app)


_mount_optional_commands()


def run() -> None:  # pragma: no cover - console entry point
    sys.exit(app())
