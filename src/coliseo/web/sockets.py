"""The web table's WebSocket, `/ws/{game_id}`: one per reader (a seat or a spectator), JSON messages.

  client → {"type": "hello", "token": str | null, "lang": "en" | "es", "invite": str?}   first; null token =
           spectator (who also gives the invite when the creator asked that spectators need it)
  client → {"type": "act", "action": notation, "ply": n, "undos": u, "ref": any}
           {"type": "undo", "ply": n, "undos": u, "ref": any}
  client → {"type": "resign" | "offer-draw" | "accept-draw" | "decline-draw", "ply": n, "undos": u, "ref": any}
  server → {"type": "state", ...}   the reader's whole picture, after every change (see Table.payload)
  server → {"type": "ack", "ref": any, "ply": n}   the action is stored and every reader was sent the new state
  server → {"type": "error", "message": str, "ref": any}
  server → {"type": "error", "message": "the game has moved on: …", "stale": true, "ref": any}, then a "state"
The token travels inside the socket, never in a URL, so it appears in no log.

Every command (act, undo, resign, the draw offers) names the position it was chosen on: the state's "ply" and
"undos" (how many actions were taken back so far; 0 when left out). An undo makes a ply name a second position,
never the pair. Any other position is refused as stale and changes nothing: a double click, a late click or a
replayed message can never land on a later position. The store checks the pair in the same transaction as each
write (a compare-and-set), which settles a race between writers the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from functools import partial

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from coliseo.core.errors import ColiseoError

from .guards import origin_allowed
from .table import Conflict, Forbidden, MovedOn, NotFound, Table, Watcher, log

MAX_MESSAGE = 4 * 1024         # characters of one WebSocket message
MAX_DEPTH = 8                  # arrays and objects inside each other in one WebSocket message (the protocol needs 2)
TABLE_COMMANDS = ("resign", "offer-draw", "accept-draw", "decline-draw")
router = APIRouter()


@router.websocket("/ws/{game_id}")
async def seat_socket(websocket: WebSocket, game_id: str):
    service = websocket.app.state
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host", ""), service.origins):
        await websocket.close(code=4403)   # before accepting: the browser gets a 403 for the handshake
        return
    await websocket.accept()
    greeted = await _greet(websocket, game_id)
    if greeted is None:
        return
    table, seat, lang = greeted
    tables, settings = service.tables, service.settings
    if seat is None and sum(w.seat is None for w in table.watchers) >= settings.spectators_per_game:
        await _try_later(websocket, f"this game has {settings.spectators_per_game} spectators already, the most "
                                    "this server lets in; try again later")
        return
    if seat is not None:
        await tables.reclaim(table, seat)
    watcher = Watcher(seat, lang, websocket.send_json)
    table = await tables.add_reader(table, watcher)
    try:
        await websocket.send_json(await table.settled(partial(table.payload, seat, lang)))
        await tables.seen(table, watcher)
        await _commands(websocket, table, seat, lang)
    except WebSocketDisconnect:
        pass
    finally:
        table.watchers.discard(watcher)
        await tables.seen(table)
        tables.release(table)


async def _greet(websocket: WebSocket, game_id: str) -> tuple[Table, int | None, str] | None:
    """The hello: the game's table, the reader's seat (None: a spectator) and language; None once the socket was
    refused (and told why)."""
    service, client = websocket.app.state, _client(websocket)
    try:
        hello = await _receive(websocket, service.settings.hello_seconds)
        table = await service.tables.open(game_id)
        if hello.get("type") != "hello":
            raise ColiseoError("the first message must be {\"type\": \"hello\", \"token\": ..., \"lang\": ...}")
        token = hello.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 100):
            raise Forbidden("a seat token is a short string")
        seat = table.seat_of(token)
        if seat is None and not table.may_watch(hello.get("invite")):
            raise Forbidden("watching this game needs its invite link")
        return table, seat, hello.get("lang") if hello.get("lang") in ("en", "es") else "en"
    except TooMany as e:
        await _try_later(websocket, str(e))
    except (ColiseoError, NotFound, Forbidden, Conflict) as e:
        if isinstance(e, Malformed):
            _warn_malformed(client, e)
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "message": str(e), "fatal": True})
            await websocket.close(code=4400 if not isinstance(e, NotFound) else 4404)
    except WebSocketDisconnect:
        pass
    return None


async def _commands(websocket: WebSocket, table: Table, seat: int | None, lang: str) -> None:
    """Each command of the reader, answered with an ack or an error, until the socket closes."""
    tables, client, warned = websocket.app.state.tables, _client(websocket), False
    while True:
        ref = None
        try:
            message = await _receive(websocket)
            ref = message.get("ref")
            if seat is None:
                raise Forbidden("spectators cannot act")
            kind, ply, undos = _command(message)
            if kind == "act":
                now = await tables.act(table, seat, message["action"], ply, lang, undos)
            elif kind == "undo":
                now = await tables.undo(table, seat, ply, undos)
            else:
                now = await tables.command(table, seat, kind, ply, undos)
        except MovedOn as e:
            await websocket.send_json({"type": "error", "message": e.text(lang), "ref": ref, "stale": True})
            await websocket.send_json(await table.settled(partial(table.payload, seat, lang)))
        except ColiseoError as e:
            if isinstance(e, Malformed) and not warned:
                warned = _warn_malformed(client, e)
            await websocket.send_json({"type": "error", "message": e.text(lang), "ref": ref})
        except Forbidden as e:
            await websocket.send_json({"type": "error", "message": str(e), "ref": ref})
        except (WebSocketDisconnect, asyncio.CancelledError):
            raise
        except Exception:
            log.exception("game %s: an action could not be completed", table.id)
            await websocket.send_json({"type": "error", "ref": ref,
                                       "message": "the server could not store that action; try again"})
        else:
            await websocket.send_json({"type": "ack", "ref": ref, "ply": now})


def _command(message: dict) -> tuple[str, int, int]:
    """A command's kind and the position it names (ply, undos); ColiseoError for any other shape."""
    kind, ply = message.get("type"), message.get("ply")
    if kind not in ("act", "undo", *TABLE_COMMANDS) or (kind == "act" and not isinstance(message.get("action"), str)):
        raise ColiseoError("messages are {\"type\": \"act\", \"action\": notation, \"ply\": n} or "
                           "{\"type\": \"undo\" | \"resign\" | \"offer-draw\" | \"accept-draw\" | "
                           "\"decline-draw\", \"ply\": n}")
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise ColiseoError(f"{kind} carries \"ply\": the ply of the position it was chosen on")
    undos = message.get("undos", 0)
    if not isinstance(undos, int) or isinstance(undos, bool):
        raise ColiseoError(f"{kind} carries \"undos\": the state's count of actions taken back")
    return kind, ply, undos


def _client(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else ""


async def _receive(websocket: WebSocket, hello_within: float | None = None) -> dict:
    """The next message, counted against the client's rate before anything else is done with it, then parsed."""
    try:
        text = await asyncio.wait_for(_receive_text(websocket), hello_within)
    except TimeoutError:
        raise ColiseoError(f"no hello within {hello_within:g} s; the socket is closed") from None
    service = websocket.app.state
    if await service.messages.wait(_client(websocket)):
        rate = service.settings.messages_per_second
        raise TooMany(f"too many messages: at most {rate} a second; this one was ignored",
                      es=f"demasiados mensajes: como mucho {rate} por segundo; este se ha ignorado")
    return _parse(text)


class TooMany(ColiseoError):
    """A WebSocket message over the client's rate: ignored."""


async def _try_later(websocket: WebSocket, message: str) -> None:
    """Refuse a socket for now: not as fatal, so a page tries again a few seconds later."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=4429)


class Malformed(ColiseoError):
    """A WebSocket message that is not a JSON object of the protocol's shape: too long, binary, too deep, not JSON."""


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    if message.get("text") is None:
        raise Malformed("messages must be JSON text, not binary")
    return message["text"]


def _parse(text: str) -> dict:
    """The message as a JSON object; its nesting is measured first, so that no message can make the parser recurse
    deeply."""
    if len(text) > MAX_MESSAGE:
        raise Malformed(f"message longer than {MAX_MESSAGE} characters")
    if _depth(text) > MAX_DEPTH:
        raise Malformed(f"message nested deeper than {MAX_DEPTH} arrays or objects")
    try:
        message = json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError:
        raise Malformed("messages must be JSON objects") from None
    if not isinstance(message, dict):
        raise Malformed("messages must be JSON objects")
    return message


JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')     # a string (skipped whole) or a bracket


def _depth(text: str) -> int:
    """How deeply `text` nests arrays and objects, brackets inside strings aside (malformed text may count more)."""
    depth = deepest = 0
    for token in JSON_NESTING.finditer(text):
        if token[0] in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token[0] in "]}":
            depth -= 1
    return deepest


def _warn_malformed(client: str, error: Malformed) -> bool:
    """One line (no traceback, nothing of the message itself) for the first malformed message of a socket."""
    log.warning("a WebSocket client at %s sent a malformed message (%s); any more on that socket are answered "
                "but not logged", client, error)
    return True


def _not_json(name: str):
    raise Malformed(f"{name} is not a JSON number (JSON has no NaN or Infinity); send a finite number")
