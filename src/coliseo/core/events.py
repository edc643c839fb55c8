"""Structured events and who may read which part of them.

An event is a JSON-safe dict with a "type". A part only some players may read goes under
"private": {"to": [players], "fields": {...}}; `view_event` hands each reader its own copy.
"""


def private(to: list[int], **fields) -> dict:
    """The private part of an event: fields only the listed players may read."""
    return {"to": list(to), "fields": fields}


def view_event(event: dict, viewer: int | None) -> dict:
    """The event as `viewer` (a player, or None for a spectator) may read it."""
    secret = event.get("private")
    if secret is None:
        return event
    seen = {k: v for k, v in event.items() if k != "private"}
    if viewer is not None and viewer in secret["to"]:
        seen.update(secret["fields"])
    return seen


def view_events(events: list[dict], viewer: int | None) -> list[dict]:
    return [view_event(e, viewer) for e in events]
