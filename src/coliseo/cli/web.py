"""`coliseo serve`: the web table on this machine, in one process or several."""

from __future__ import annotations

import json
import os

import typer


def default_db_url() -> str:
    from coliseo.cli.paths import home
    from coliseo.store.db import sqlite_url

    home().mkdir(parents=True, exist_ok=True)
    return sqlite_url(home() / "coliseo.db")


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
              port: int = typer.Option(8000, "--port", min=1, max=65535, help="port to listen on"),
              db: str | None = typer.Option(None, "--db", help="SQLAlchemy URL, e.g. postgresql://user@host/coliseo "
                                                              "(default: an SQLite file beside your records)"),
              idle_check: float = typer.Option(1.0, "--idle-check", help="seconds between idle-seat checks"),
              abandon_after: str = typer.Option("7d", "--abandon-after",
                                                help="an unfinished game with no action for this long ends as "
                                                     "abandoned: 7d, 12h, 30m, 90s"),
              max_ai_games: int = typer.Option(2, "--max-ai-games", min=0,
                                               help="live games with AI seats only, at once"),
              games_per_minute: int = typer.Option(10, "--games-per-minute", min=1,
                                                   help="new games per client address and minute"),
              messages_per_second: int = typer.Option(20, "--messages-per-second", min=1,
                                                      help="WebSocket messages per client address and second"),
              hello_timeout: float = typer.Option(5.0, "--hello-timeout", min=0.1, max=600.0,
                                                  help="seconds a new WebSocket has to say hello before it is closed"),
              sockets_per_address: int = typer.Option(50, "--sockets-per-address", min=1,
                                                      help="open WebSockets per client address, in each process"),
              spectators_per_game: int = typer.Option(100, "--spectators-per-game", min=0,
                                                      help="spectators' WebSockets per game, in each process"),
              allowed_origin: list[str] = typer.Option([], "--allowed-origin",
                                                       help="another origin whose pages may open the WebSocket, "
                                                            "e.g. https://games.example (repeatable)"),
              allowed_host: list[str] = typer.Option([], "--allowed-host",
                                                     help="a Host name served (repeatable; default: the loopback "
                                                          "names when bound to loopback, else any)"),
              trusted_proxy: list[str] = typer.Option([], "--trusted-proxy",
                                                      help="a reverse proxy's address or network (10.0.0.0/24) "
                                                           "whose X-Forwarded-For names the client (repeatable; "
                                                           "default: none, each client is the address it "
                                                           "connects from)"),
              workers: int = typer.Option(1, "--workers", min=1, max=64,
                                          help="server processes behind the one port (more than 1 needs --redis)"),
              redis: str | None = typer.Option(None, "--redis", help="Redis URL for fan-out between processes, "
                                               "e.g. redis://127.0.0.1:6379/0"),
              ai_workers: int | None = typer.Option(None, "--ai-workers", min=1, max=256,
                                                    help="processes computing AI moves, per server process "
                                                         "(default: the cores divided among --workers)"),
              ray: str | None = typer.Option(None, "--ray", help="compute AI moves on the Ray cluster at this "
                                             "address instead (e.g. auto, or ray://host:10001)"),
              ai_lease: float = typer.Option(10.0, "--ai-lease", min=1.0, max=3600.0,
                                             help="seconds an AI move's lease lasts without renewal; a killed "
                                                  "process's AI seats wait this long for another to take over"),
              log_level: str = typer.Option("info", "--log-level",
                                            help="info: a line per game created or finished and per seat handed "
                                                 "to the AI, and every problem; warning: problems only; debug: "
                                                 "also every HTTP request")
              ) -> None:
        """Serve the web table: lobby, boards, spectating and replays, in the browser."""
        try:
            import uvicorn

            from coliseo.web.app import SETTINGS_VARIABLE, Settings, create_app, settings_to_json
        except ImportError as e:
            typer.echo(f"error: the web table needs the web extra (pip install 'coliseo[web]'): {e}", err=True)
            raise typer.Exit(2) from None
        if log_level not in LOG_LEVELS:
            typer.echo(f"error: --log-level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}", err=True)
            raise typer.Exit(2)
        if workers > 1 and not redis:
            typer.echo("error: --workers above 1 needs --redis URL, so that a move on one process reaches the "
                       "readers on the others", err=True)
            raise typer.Exit(2)
        wrong = [p for p in trusted_proxy if not is_network(p)]
        if wrong:
            typer.echo(f"error: --trusted-proxy takes an IP address or network (127.0.0.1, 10.0.0.0/24), not "
                       f"{wrong[0]!r}", err=True)
            raise typer.Exit(2)
        table_settings = Settings(abandon_after=duration(abandon_after, "--abandon-after"),
                                  max_ai_games=max_ai_games, games_per_minute=games_per_minute,
                                  messages_per_second=messages_per_second, hello_seconds=hello_timeout,
                                  sockets_per_address=sockets_per_address, spectators_per_game=spectators_per_game,
                                  allowed_origins=tuple(allowed_origin),
                                  allowed_hosts=served_hosts(host, allowed_host, allowed_origin))
        url = db or default_db_url()
        settings = {"db_url": url, "idle_check_seconds": idle_check, "redis_url": redis,
                    "ai_workers": ai_workers or max(1, (os.cpu_count() or 1) // workers), "ray_address": ray,
                    "ai_lease_seconds": ai_lease}
        try:
            from coliseo.store import Store

            Store(url).close()           # the tables exist before several workers start at once
        except Exception as e:  # noqa: BLE001 - any driver's error, said plainly
            typer.echo(f"error: cannot open the database {_shown(url)}: {e}", err=True)
            raise typer.Exit(2) from None
        problem = listen_problem(host, port)
        if problem:
            typer.echo(f"error: cannot listen on {host}:{port}: {problem}", err=True)
            raise typer.Exit(1)         # not a bad argument (2): the same command works once the port is free
        typer.echo(f"Coliseo web table on http://{host}:{port}/  (games stored in {_shown(url)}, "
                   f"{workers} process{'es' if workers > 1 else ''})")
        common = {"host": host, "port": port, "ws_max_size": 64 * 1024, "log_config": log_config(log_level),
                  "log_level": "info" if log_level == "debug" else "warning",
                  # uvicorn's default believes X-Forwarded-For from loopback: only the proxies named are believed.
                  "proxy_headers": bool(trusted_proxy), "forwarded_allow_ips": trusted_proxy}
        if workers == 1:
            uvicorn.run(create_app(settings.pop("db_url"), settings=table_settings, **settings), **common)
        else:
            os.environ[SETTINGS_VARIABLE] = json.dumps({**settings, "settings": settings_to_json(table_settings)})
            # A worker whose event loop is busy for a moment on a loaded machine is not hung: restart only the dead.
            serve_workers(uvicorn.Config("coliseo.web.app:app_from_env", factory=True, workers=workers,
                                         timeout_worker_healthcheck=60, **common))


LOG_LEVELS = ("debug", "info", "warning", "error")


def listen_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (in use, not an address here), or None: asked before the
    banner, so a port in use is not announced as served."""
    import socket

    try:
        with socket.create_server((host, port)):
            return None
    except OSError as e:
        return os.strerror(e.errno) if e.errno else str(e)


def log_config(level: str) -> dict:
    """uvicorn's logging, and Coliseo's own lines on stderr with their time, level and process (several workers
    write to the one stream). Each worker applies it itself."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["coliseo"] = {"format": "%(asctime)s %(levelname)s [%(process)d] %(message)s"}
    config["handlers"]["coliseo"] = {"class": "logging.StreamHandler", "formatter": "coliseo",
                                     "stream": "ext://sys.stderr"}
    config["loggers"]["coliseo"] = {"handlers": ["coliseo"], "level": level.upper(), "propagate": False}
    return config


def serve_workers(config) -> None:
    """uvicorn's `run` for several workers, on a listening socket that turns off Nagle's algorithm."""
    from uvicorn.supervisors import Multiprocess

    Multiprocess(config, sockets=[tcp_socket(config.bind_socket())]).run()


def tcp_socket(listening):
    """The same listening socket, marked as TCP. uvicorn binds it with protocol 0, and asyncio sets TCP_NODELAY only
    on connections of a socket marked TCP: without it a state and the ack right after it wait for the reader's
    delayed ACK (40 ms on Linux) on every action."""
    import socket

    marked = socket.socket(listening.family, listening.type, socket.IPPROTO_TCP, fileno=listening.detach())
    marked.set_inheritable(True)
    return marked


UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}


def duration(text: str, option: str) -> float:
    """Seconds from '7d', '12h', '30m', '90s' or a plain number of seconds; a clear error otherwise."""
    number, unit = (text[:-1], text[-1]) if text[-1:] in UNITS else (text, "s")
    try:
        seconds = float(number) * UNITS[unit]
    except ValueError:
        seconds = -1
    if not seconds > 0 or seconds == float("inf"):
        raise typer.BadParameter(f"{text!r} is not a duration; write e.g. 7d, 12h, 30m or 90s", param_hint=option)
    return seconds


def is_network(text: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def served_hosts(bound: str, hosts: list[str], origins: list[str]) -> tuple[str, ...] | None:
    """The Host names to serve: the loopback names when bound to loopback, plus those named; None for any."""
    from urllib.parse import urlsplit

    from coliseo.web.guards import LOOPBACK_HOSTS

    named = [*hosts, *(urlsplit(o).hostname or "" for o in origins)]
    if bound in LOOPBACK_HOSTS:
        return (*LOOPBACK_HOSTS, *named)
    return tuple(named) if hosts else None


def _shown(url: str) -> str:
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
