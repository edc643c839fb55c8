"""Games and their accepted actions in a SQL database.

A game is stored as what determines it — game id, options, setup, seed (with its salt) — plus its
seats and the list of accepted actions in notation. Restarting a game is replaying those actions
from the seed, so nothing else needs saving. The seed lives only here and in the live `Match`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    exc,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("setup", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("salt", String(64), nullable=False),
    Column("created", String(40), nullable=False),
    Column("seats", Text, nullable=False),        # [{"kind", "agent", "token_hash", "name"}]
    Column("idle_seconds", Integer, nullable=True),
    Column("finished", Boolean, nullable=False, default=False),
    Column("result", Text, nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(200), nullable=False),
    Column("player", Integer, nullable=False),
    Column("at", String(40), nullable=False),
)


# Who is computing an AI seat's move: exactly one process at a time, until `expires` (seconds since the epoch).
ai_leases = Table(
    "ai_leases", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("ply", Integer, nullable=False),       # the ply the move will have
    Column("owner", String(80), nullable=False),
    Column("expires", Float, nullable=False),
)


# How many actions of each game were taken back. An undo makes a ply name a second position, never the pair (ply,
# undos): every command names the pair, and every write checks it here (a compare-and-set, see `_position`). A table
# of its own, so `create_all` adds it to a database made before it; a game without a row has had none taken back.
undos = Table(
    "undos", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("taken_back", Integer, nullable=False),
)


class PlyTaken(Exception):
    """Another writer got there first: the game is no longer at the ply this write was made on."""


class AlreadyRematched(Exception):
    """Another writer made this finished game's rematch first (nothing of this one was stored)."""

# Who may find, join and watch a game. A game without a row (stored before access existed) is listed and open.
access = Table(
    "access", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("listed", Boolean, nullable=False, default=False),
    Column("invite_hash", String(64), nullable=False),
    Column("spectators_need_invite", Boolean, nullable=False, default=False),
    Column("creator", Integer, nullable=True),      # the creator's seat, who may list or unlist the game
)

# A finished game played again: one row per finished game, so every player, asking any process, joins the same
# rematch. A table of its own, so `create_all` adds it to a database made before rematches were stored. The
# invite is kept as it is (not hashed): each player of the finished game asking later is handed it.
rematches = Table(
    "rematches", metadata,
    Column("game_id", String(32), primary_key=True),    # the finished game
    Column("rematch_id", String(32), nullable=False),
    Column("invite", String(64), nullable=False),
)


# The statements of every action, built once: building a statement and its cache key cost more CPU than running it.
# (Parameter names differ from the columns': a SET clause reserves its columns' names.)
_LOCK_GAME = select(games.c.id).where(games.c.id == bindparam("g")).with_for_update()
_previous = actions.alias("previous")
_PLY = bindparam("p", type_=Integer)
# An action is appended only after the one before it (an undo may have taken that back meanwhile). The previous action
# is locked for the check (KEY SHARE): an undo deleting it waits for this append, then sees it and is refused.
_APPEND_ACTION = insert(actions).from_select(
    ["game_id", "ply", "text", "player", "at"],
    select(bindparam("g", type_=String), _PLY, bindparam("t", type_=String), bindparam("pl", type_=Integer),
           bindparam("at", type_=String))
    .where((_PLY == 1) | exists(select(_previous.c.ply)
                                .where(_previous.c.game_id == bindparam("g"), _previous.c.ply == _PLY - 1)
                                .with_for_update(read=True, key_share=True)))
).execution_options(preserve_rowcount=True)       # an INSERT's row count is kept only when asked
_SPEND_LEASE = update(ai_leases).where(
    ai_leases.c.game_id == bindparam("g"), ai_leases.c.ply == bindparam("p"), ai_leases.c.owner == bindparam("o"),
    ai_leases.c.expires >= bindparam("clock")).values(expires=0.0)
_FINISH = update(games).where(games.c.id == bindparam("g")).values(finished=True, result=bindparam("r"))
_TAKE_LEASE = update(ai_leases).where(
    ai_leases.c.game_id == bindparam("g"),
    (ai_leases.c.expires < bindparam("clock")) | (ai_leases.c.ply < bindparam("p"))
    | ((ai_leases.c.ply == bindparam("p")) & (ai_leases.c.owner == bindparam("o"))),
).values(ply=bindparam("p"), owner=bindparam("o"), expires=bindparam("until"))
_LEASE_HELD = select(ai_leases.c.game_id).where(ai_leases.c.game_id == bindparam("g"))
_INSERT_LEASE = insert(ai_leases)
_COUNT_UNDOS = update(undos).where(undos.c.game_id == bindparam("g"), undos.c.taken_back == bindparam("u")).values(
    taken_back=undos.c.taken_back + bindparam("d", type_=Integer))
_ADD_UNDOS = update(undos).where(undos.c.game_id == bindparam("g")).values(
    taken_back=undos.c.taken_back + bindparam("d", type_=Integer))
_UNDOS = select(undos.c.taken_back).where(undos.c.game_id == bindparam("g"))
_INSERT_UNDOS = insert(undos)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict
    setup: object
    seed: int
    salt: str
    created: str
    seats: list[dict]
    idle_seconds: int | None = None
    finished: bool = False
    result: dict | None = None
    actions: list[str] = field(default_factory=list)
    access: dict | None = None       # {"listed", "invite_hash", "spectators_need_invite", "creator"}
    rematch: dict | None = None      # {"id", "invite"} of this game played again, once a player asked
    undos: int = 0                   # how many of its actions were taken back: with the ply, it names the position


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


# How many threads of a server process talk to a server database at once (SQLite has one writer at a time).
WRITERS = 8


class Store:
    """Thin, synchronous storage of games; every write is committed before it returns."""

    def __init__(self, url: str):
        self.url = url
        if url.startswith("sqlite"):
            self.engine = create_engine(url, future=True)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:   # a connection per writer thread kept open: a new PostgreSQL connection forks a server process
            self.engine = create_engine(url, future=True, pool_size=WRITERS, max_overflow=WRITERS)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_game(self, stored: StoredGame, *, rematch_of: str | None = None, invite: str | None = None) -> None:
        """Store a new game; as the rematch of finished game `rematch_of` (with its `invite`) only if that game has
        none yet (else AlreadyRematched, and nothing is stored)."""
        try:
            with self.engine.begin() as db:
                db.execute(insert(games).values(
                    id=stored.id, game=stored.game, options=json.dumps(stored.options),
                    setup=json.dumps(stored.setup), seed=stored.seed, salt=stored.salt, created=stored.created,
                    seats=json.dumps(stored.seats), idle_seconds=stored.idle_seconds, finished=False, result=None))
                if stored.access is not None:
                    db.execute(insert(access).values(game_id=stored.id, **stored.access))
                if rematch_of is not None:
                    db.execute(insert(rematches).values(game_id=rematch_of, rematch_id=stored.id, invite=invite))
        except exc.IntegrityError:
            if rematch_of is not None and self.load_rematch(rematch_of) is not None:
                raise AlreadyRematched(f"game {rematch_of} has its rematch already") from None
            raise

    def load_rematch(self, game_id: str) -> dict | None:
        with self.engine.connect() as db:
            return _rematch(db, game_id)

    def set_listed(self, game_id: str, listed: bool) -> None:
        with self.engine.begin() as db:
            db.execute(update(access).where(access.c.game_id == game_id).values(listed=listed))

    def add_action(self, game_id: str, ply: int, text: str, player: int, result: dict | None = None,
                   lease: str | None = None, claim_next: tuple[str, float] | None = None,
                   undos: int | None = None) -> bool:
        """Append one action at `ply` (and the result, if it ended the game) in one transaction.

        A compare-and-set on (game, ply): PlyTaken if that ply is taken, if the ply before it is not stored
        (an undo took it back), if the game has had other than `undos` actions taken back (None: not checked), or
        if `lease` (the owner of the AI seat's lease on this ply) has lost its lease meanwhile. With `claim_next`
        (owner, seconds), the lease on the AI move at ply + 1 is taken in the same transaction when it is free: True
        if it was.
        """
        try:
            with self.engine.begin() as db:
                _position(db, game_id, undos, 0)
                if lease is not None:
                    spent = db.execute(_SPEND_LEASE, {"g": game_id, "p": ply, "o": lease, "clock": time.time()})
                    if spent.rowcount != 1:
                        raise PlyTaken(f"the lease on ply {ply} of game {game_id} was lost")
                added = db.execute(_APPEND_ACTION, {"g": game_id, "p": ply, "t": text, "pl": player, "at": now()})
                if added.rowcount != 1:
                    raise PlyTaken(f"ply {ply - 1} of game {game_id} is no longer stored (it was taken back)")
                if result is not None:
                    db.execute(_FINISH, {"g": game_id, "r": json.dumps(result)})
                # Only a game's existing lease row is taken here: inserting its first one may collide with another
                # process's, which would undo the action too (claim_lease makes that row).
                return claim_next is not None and _take_lease(db, game_id, ply + 1, *claim_next, create=False)
        except exc.IntegrityError:
            raise PlyTaken(f"ply {ply} of game {game_id} is already taken") from None

    def remove_action(self, game_id: str, ply: int, undos: int | None = None) -> None:
        """Undo: forget the action at `ply`, only if it is still the last one and the game has had `undos` actions
        taken back (None: not checked); else PlyTaken. The count of undos grows by one."""
        try:
            with self.engine.begin() as db:
                _position(db, game_id, undos, 1)
                _lock_game(db, game_id)
                gone = db.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.ply == ply))
                later = db.execute(select(func.max(actions.c.ply)).where(actions.c.game_id == game_id)).scalar()
                if gone.rowcount != 1 or (later or 0) > ply:
                    raise PlyTaken(f"ply {ply} of game {game_id} is no longer the last one")
        except exc.IntegrityError:       # another writer made the game's first row of undos at the same time
            raise PlyTaken(f"game {game_id} changed meanwhile") from None

    def claim_lease(self, game_id: str, ply: int, owner: str, seconds: float) -> bool:
        """Take (or renew) the lease to play the AI move at `ply`: True for exactly one owner at a time."""
        try:
            with self.engine.begin() as db:
                return _take_lease(db, game_id, ply, owner, seconds)
        except exc.IntegrityError:       # another owner inserted the first lease of this game at the same time
            return False

    def lease_of(self, game_id: str) -> dict | None:
        with self.engine.connect() as db:
            row = db.execute(select(ai_leases).where(ai_leases.c.game_id == game_id)).mappings().first()
        return dict(row) if row else None

    def set_seats(self, game_id: str, seats: list[dict]) -> None:
        with self.engine.begin() as db:
            db.execute(update(games).where(games.c.id == game_id).values(seats=json.dumps(seats)))

    def load(self, game_id: str, known: list[str] = ()) -> StoredGame | None:
        """The game; `known` are its first actions as the caller has them (no undo can take them back any more),
        so only the later ones are read."""
        with self.engine.connect() as db:
            row = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            texts = db.execute(select(actions.c.text).where(actions.c.game_id == game_id, actions.c.ply > len(known))
                               .order_by(actions.c.ply)).scalars().all()
            rights = db.execute(select(access).where(access.c.game_id == game_id)).mappings().first()
            again = _rematch(db, game_id)
            taken_back = db.execute(_UNDOS, {"g": game_id}).scalar()
        stored = _stored(row, [*known, *texts])
        stored.undos = taken_back or 0
        if rights is not None:
            stored.access = {k: v for k, v in rights.items() if k != "game_id"}
        stored.rematch = again
        return stored

    def list_games(self, limit: int = 100) -> list[StoredGame]:
        """The most recent listed games, without their actions (the count is in `actions` as placeholders)."""
        with self.engine.connect() as db:
            counts = (select(actions.c.game_id, func.count().label("n")).group_by(actions.c.game_id).subquery())
            rows = db.execute(select(games, counts.c.n).outerjoin(counts, counts.c.game_id == games.c.id)
                              .outerjoin(access, access.c.game_id == games.c.id)
                              .where(or_(access.c.game_id.is_(None), access.c.listed.is_(True)))
                              .order_by(games.c.created.desc(), games.c.id).limit(limit)).mappings().all()
        return [_stored(row, [""] * (row["n"] or 0)) for row in rows]

    def idle_unfinished(self, before: str) -> list[tuple[str, int]]:
        """(id, number of actions) of each unfinished game whose last action (or creation) is before `before`."""
        last = (select(actions.c.game_id, func.max(actions.c.at).label("at"), func.count().label("n"))
                .group_by(actions.c.game_id).subquery())
        moved = func.coalesce(last.c.at, games.c.created)
        with self.engine.connect() as db:
            rows = db.execute(select(games.c.id, func.coalesce(last.c.n, 0))
                              .outerjoin(last, last.c.game_id == games.c.id)
                              .where(games.c.finished.is_(False), moved < before)).all()
        return [(row[0], row[1]) for row in rows]

    def unfinished_seats(self) -> list[list[dict]]:
        """The seats of every unfinished game."""
        with self.engine.connect() as db:
            return [json.loads(text) for text in db.execute(select(games.c.seats)
                                                            .where(games.c.finished.is_(False))).scalars()]

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as db:
            return list(db.execute(select(games.c.id).where(games.c.finished.is_(False))).scalars().all())


def _lock_game(db, game_id: str) -> None:
    """Writers of one game queue here (PostgreSQL row lock; SQLite has one writer at a time anyway)."""
    db.execute(_LOCK_GAME, {"g": game_id})


def _position(db, game_id: str, expected: int | None, taken_back: int) -> None:
    """The compare-and-set on the position, first in every write of a game: PlyTaken unless the game has had
    `expected` actions taken back (None: any number); adds `taken_back` to them. The row stays locked until the
    transaction ends, so the writers of one game take turns here (and always lock this row first)."""
    if expected is None and not taken_back:
        return
    params = {"g": game_id, "u": expected, "d": taken_back}
    if db.execute(_ADD_UNDOS if expected is None else _COUNT_UNDOS, params).rowcount == 1:
        return
    if expected in (None, 0) and db.execute(_UNDOS, params).first() is None:
        # The game's first row (IntegrityError, in the caller, if another writer inserts it at the same time).
        db.execute(_INSERT_UNDOS, {"game_id": game_id, "taken_back": taken_back})
        return
    raise PlyTaken(f"game {game_id} is no longer at the position named: an action was taken back since")


def _take_lease(db, game_id: str, ply: int, owner: str, seconds: float, *, create: bool = True) -> bool:
    clock = time.time()
    params = {"g": game_id, "p": ply, "o": owner, "clock": clock, "until": clock + seconds}
    if db.execute(_TAKE_LEASE, params).rowcount == 1:
        return True
    if not create or db.execute(_LEASE_HELD, params).first() is not None:
        return False
    db.execute(_INSERT_LEASE, {"game_id": game_id, "ply": ply, "owner": owner, "expires": clock + seconds})
    return True


def _rematch(db, game_id: str) -> dict | None:
    row = db.execute(select(rematches).where(rematches.c.game_id == game_id)).mappings().first()
    return {"id": row["rematch_id"], "invite": row["invite"]} if row else None


def _stored(row, texts: list[str]) -> StoredGame:
    return StoredGame(id=row["id"], game=row["game"], options=json.loads(row["options"]),
                      setup=json.loads(row["setup"]), seed=row["seed"], salt=row["salt"], created=row["created"],
                      seats=json.loads(row["seats"]), idle_seconds=row["idle_seconds"],
                      finished=bool(row["finished"]), result=json.loads(row["result"]) if row["result"] else None,
                      actions=texts)


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")      # readers do not block the writer
    cursor.execute("PRAGMA synchronous=NORMAL")    # a killed process loses nothing committed
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
