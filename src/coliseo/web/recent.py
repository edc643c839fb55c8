"""What the opponent's last turn touched on a reader's board, from only the events that reader may read.

A player sees marked everything the other players did since the player's own last action, so the marks stay
until the player acts; a spectator sees the steps of the player who moved last, from the start of their run. The
state message carries the marks as `marks` (board ids, as `Game.board_marks` names them); each board gives the
elements they name the class `recent` (docs/web.md, "The board contract").
"""

from __future__ import annotations

from collections.abc import Sequence

from coliseo.core.events import view_events
from coliseo.core.match import Step


def last_turn(steps: Sequence[Step], reader: int | None) -> Sequence[Step]:
    """The steps the reader has not answered: a player's, those after their own last step; a spectator's, the run
    of steps by the player who moved last."""
    start = len(steps)
    if reader is None:
        mover = steps[-1].player if steps else None
        while start and steps[start - 1].player == mover:
            start -= 1
    else:
        while start and steps[start - 1].player != reader:
            start -= 1
    return steps[start:]


def touched(game, events: list[dict], reader: int | None) -> list[str]:
    """The board ids the events touched as `reader` reads them, each once, in the order they were last touched."""
    ids = [mark for event in view_events(events, reader) for mark in game.board_marks(event, reader)]
    return list(dict.fromkeys(reversed(ids)))[::-1]


def recent_marks(game, steps: Sequence[Step], reader: int | None) -> list[str]:
    """The board ids the opponent's last turn touched, as `reader` may know them."""
    return touched(game, [event for step in last_turn(steps, reader) for event in step.events], reader)
