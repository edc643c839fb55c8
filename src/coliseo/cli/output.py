"""The terminal every command prints to, and the one way a command fails."""

import typer
from rich.console import Console
from rich.markup import escape

console = Console()


def fail(message: str) -> None:
    """Print the error (its text never read as markup) and exit with status 2."""
    console.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    raise typer.Exit(2)
