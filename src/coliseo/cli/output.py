"""The terminal every command prints to, tables that fit it, and the one way a command fails."""

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

console = Console()


def fail(message: str) -> None:
    """Print the error (its text never read as markup, nor broken into lines: a path in it stays whole to copy)
    and exit with status 2."""
    console.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def table(*headers: str, **settings) -> Table:
    """A table that wraps long values onto more lines instead of cutting them, with light rules to save width."""
    columns = [Column(h, overflow="fold") for h in headers]
    return Table(*columns, box=box.SIMPLE_HEAD, pad_edge=False, **settings)
