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
              port: int = typer.Option(8000, "--port", help="port to listen on"),
              db: str | None = typer.Option(None, "--db", help="SQLAlchemy URL, e.g. "
                                            "postgresql+psycopg://user@host/coliseo (default: an SQLite file "
                                            "beside your records)"),
              idle_check: float = typer.Option(1.0, "--idle-check", help="seconds between idle-seat checks"),
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
                                                  "process's AI seats wait this long for another to take over")
              ) -> None:
        """Serve the web table: lobby, boards, spectating and replays, in the browser."""
        try:
            import uvicorn

            from coliseo.web.app import SETTINGS_VARIABLE, create_app
        except ImportError as e:
            typer.echo(f"error: the web table needs the web extra (pip install 'coliseo[web]'): {e}", err=True)
            raise typer.Exit(2) from None
        if workers > 1 and not redis:
            typer.echo("error: --workers above 1 needs --redis URL, so that a move on one process reaches the "
                       "readers on the others", err=True)
            raise typer.Exit(2)
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
        typer.echo(f"Coliseo web table on http://{host}:{port}/  (games stored in {_shown(url)}, "
                   f"{workers} process{'es' if workers > 1 else ''})")
        common = {"host": host, "port": port, "ws_max_size": 64 * 1024, "log_level": "warning"}
        if workers == 1:
            uvicorn.run(create_app(settings.pop("db_url"), **settings), **common)
        else:
            os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
            # A worker whose event loop is busy for a moment on a loaded machine is not hung: restart only the dead.
            uvicorn.run("coliseo.web.app:app_from_env", factory=True, workers=workers, timeout_worker_healthcheck=60,
                        **common)


def _shown(url: str) -> str:
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
