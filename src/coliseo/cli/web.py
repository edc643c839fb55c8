"""`coliseo serve`: the web table on this machine."""

from __future__ import annotations

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
              db: str | None = typer.Option(None, "--db", help="SQLAlchemy URL, e.g. postgresql://user@host/coliseo "
                                                              "(default: an SQLite file beside your records)"),
              idle_check: float = typer.Option(1.0, "--idle-check", help="seconds between idle-seat checks")) -> None:
        """Serve the web table: lobby, boards, spectating and replays, in the browser."""
        try:
            import uvicorn

            from coliseo.web.app import create_app
        except ImportError as e:
            typer.echo(f"error: the web table needs the web extra (pip install 'coliseo[web]'): {e}", err=True)
            raise typer.Exit(2) from None
        url = db or default_db_url()
        typer.echo(f"Coliseo web table on http://{host}:{port}/  (games stored in {url})")
        uvicorn.run(create_app(url, idle_check_seconds=idle_check), host=host, port=port, ws_max_size=64 * 1024,
                    log_level="warning")
