"""The terminal every command prints to (and stderr, for progress), tables that fit it, and the one way a command
fails."""

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Column, Table
from rich.text import Text

console = Console()
progress_console = Console(stderr=True)   # keeps stdout clean for --json


def fail(message: str) -> None:
    """Print the error (its text never read as markup, nor broken into lines: a path in it stays whole to copy)
    and exit with status 2."""
    console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def table(*headers: str, **settings) -> Table:
    """A table that wraps long values onto more lines instead of cutting them, with light rules to save width."""
    columns = [Column(h, overflow="fold") for h in headers]
    return Table(*columns, box=box.SIMPLE_HEAD, pad_edge=False, **settings)


def show_rows(headers: list[str], rows: list[list[str]], title: str | None = None) -> None:
    """Rows as a table when it fits the terminal's width, else one block per row (its first two values as the
    heading, then `header value` pairs): a wide table squeezed into 80 columns cuts its values into slivers."""
    grid = table(*headers, title=title)
    for row in rows:
        grid.add_row(*row)
    if console.measure(grid, options=console.options.update_width(10_000)).maximum <= console.width:
        console.print(grid)
        return
    if title:
        console.print(title, style="bold", highlight=False)
    for row in rows:
        heading = "  ".join(v for v in row[:2] if v)
        fields = " · ".join(f"{h} {v}" for h, v in zip(headers[2:], row[2:]) if v)
        console.print(Text(heading, style="bold"))
        if fields:
            console.print(Padding(Text(fields), (0, 0, 0, 2)))
