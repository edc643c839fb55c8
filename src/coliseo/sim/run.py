"""Play many seeded games between agents, on local processes or on Ray, and store one row per game.

Game i of a run is a pure function of the run's settings and i: its seed is `seed_from(S, i)`,
its agents' seeds and the seats' sampling seed are derived the same way, and the agents rotate
through the seats (seat p gets agent (p + i) mod n). So the results do not depend on the number
of workers, the backend, or the order in which games finish, and a stopped run can resume.
"""

from __future__ import annotations

import json
import os
import random
import signal
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from coliseo import load_game
from coliseo.agents import play_game
from coliseo.core.errors import SetupError
from coliseo.core.match import Match
from coliseo.core.reasons import canonical_reason
from coliseo.core.registry import game_class
from coliseo.core.rng import seed_from

from .spec import build_agent

FORMAT = "coliseo-sim/1"


@dataclass(frozen=True)
class RunConfig:
    game: str
    agents: tuple[str, ...]                 # agent specs, in the order of the first game's seats
    seed: int
    options: dict = field(default_factory=dict)
    setups: tuple | None = None             # game i plays setups[i % len(setups)]; None: the default

    def to_json(self) -> dict:
        doc = asdict(self)
        doc["agents"] = list(self.agents)
        doc["setups"] = list(self.setups) if self.setups is not None else None
        return doc

    @classmethod
    def from_json(cls, doc: dict) -> RunConfig:
        setups = doc.get("setups")
        return cls(doc["game"], tuple(doc["agents"]), doc["seed"], doc.get("options") or {},
                   tuple(setups) if setups is not None else None)


def make_config(game_id: str, agents: list[str], seed: int, options: dict | None = None,
                setups: list | None = None) -> RunConfig:
    """A checked run: the game loads, the agents exist for it, the player count fits, each setup works."""
    options = dict(options or {})
    game = load_game(game_id, **options)
    if "players" in game.options and "players" not in options and len(agents) != game.options["players"]:
        options["players"] = len(agents)
        game = load_game(game_id, **options)
    for n, setup in enumerate(setups or [], 1):
        try:
            game.new_state(0, setup)
        except SetupError as e:
            raise SetupError(f"setup {n}: {e}") from None
    players = len(game.new_state(0, setups[0] if setups else None).players)
    if len(agents) != players:
        raise SetupError(f"{game_id} is played by {players} players here, but {len(agents)} agents were named")
    for spec in agents:
        build_agent(spec, game, 0)
    return RunConfig(game_id, tuple(agents), seed, options, tuple(setups) if setups else None)


@lru_cache(maxsize=8)
def _game(game_id: str, options_json: str):
    return load_game(game_id, **json.loads(options_json))


def config_game(config: RunConfig):
    """The run's game, loaded once per process."""
    return _game(config.game, json.dumps(config.options, sort_keys=True))


def play_one(config: RunConfig, index: int, max_steps: int = 100_000, clock: dict | None = None) -> dict:
    """Game `index` of the run, as a row (the same row wherever and whenever it is played).

    `clock`, if given, collects each agent spec's time per move: {spec: [(wall s, CPU s), ...]}.
    """
    game, seed, setup, seats, agents, rng = _seated(config, index)
    state = game.new_state(seed, setup)
    first = state.first_turn_player
    timed = None if clock is None else lambda player, wall, cpu: clock.setdefault(seats[player], []).append((wall, cpu))
    length = play_game(state, agents, rng, max_steps, timed=timed)
    result = state.result
    return {
        "index": index,
        "seed": seed,
        "seats": seats,
        "winners": list(result["winners"]) if result else None,
        "reason": result["reason"] if result else "unfinished",
        "scores": result.get("scores") if result else None,
        "length": length,
        "first_player": first,
        "items": [setup_items(setup, p) for p in range(len(seats))],
    }


def _seated(config: RunConfig, index: int) -> tuple:
    """What game `index` is played from: the game, its seed and setup, the agent spec in each seat, the agents, and
    the seats' chance (every piece a function of the run's seed and the index)."""
    game = config_game(config)
    n = len(config.agents)
    seats = [config.agents[(p + index) % n] for p in range(n)]
    setup = config.setups[index % len(config.setups)] if config.setups else None
    agents = [build_agent(spec, game, seed_from(config.seed, index, "agent", p)) for p, spec in enumerate(seats)]
    rng = random.Random(seed_from(config.seed, index, "seats"))
    return game, seed_from(config.seed, index), setup, seats, agents, rng


def replay_game(config: RunConfig, index: int, max_steps: int = 100_000) -> Match:
    """Game `index` of the run played again as a Match, with every action and event: the game its row records."""
    game, seed, setup, seats, agents, rng = _seated(config, index)
    match = Match(game, seed, setup, players=seats)
    play_game(match.state, agents, rng, max_steps, apply=match.play)
    return match


def setup_items(setup, player: int) -> list[str]:
    """What one side brought, as `field=value` words (`preset=starter_a`, `team=flame_drake`, `decks=17`).

    A setup that lists its sides under a key holding one entry per player (`players`, `decks`,
    `dice`, ...) names that side's items; anything else in the setup is shared by every side.
    """
    if not isinstance(setup, dict):
        return []
    items: list[str] = []
    for key, value in setup.items():
        if isinstance(value, list) and len(value) > player and key in ("players", "decks", "dice", "teams",
                                                                         "pools", "seats"):
            _flatten(key, value[player], items)
    return sorted(set(items))


def _flatten(key: str, value, out: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(k, v, out)
    elif isinstance(value, list):
        for v in value:
            _flatten(key, v, out)
    elif value is not None:
        out.append(f"{key}={value}")


# --- backends ---------------------------------------------------------------------------------------
def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle


def _play_indexed(args: tuple[RunConfig, int]) -> dict:
    return play_one(*args)


def run_local(config: RunConfig, indices: list[int], workers: int) -> Iterator[dict]:
    """Rows in index order, played on `workers` processes (1: in this process)."""
    if workers <= 1:
        for i in indices:
            yield play_one(config, i)
        return
    import multiprocessing

    # forkserver, not fork: a process that runs threads (Ray's gRPC, a web server) may hold a lock at fork time, and
    # a forked worker would wait on it forever.
    pool = multiprocessing.get_context("forkserver").Pool(workers, initializer=_ignore_sigint)
    try:
        yield from pool.imap(_play_indexed, [(config, i) for i in indices], chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_ray(config: RunConfig, indices: list[int], workers: int, address: str | None = None) -> Iterator[dict]:
    """Rows in index order, played as Ray tasks; a local Ray is started for the run unless `address`."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address:
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, ImportError, ValueError, RuntimeError) as e:
                raise SetupError(f"cannot join the Ray cluster at {address}: {e} (a ray:// address needs "
                                 "the sim extra, which brings ray[client])") from None
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(play_one)
        window = max(2, 4 * max(1, workers))
        pending = [task.remote(config, i) for i in indices[:window]]
        following = iter(indices[window:])
        while pending:
            row = ray.get(pending.pop(0))
            nxt = next(following, None)
            if nxt is not None:
                pending.append(task.remote(config, nxt))
            yield row
    finally:
        if started:
            ray.shutdown()


def run_games(config: RunConfig, indices: list[int], workers: int = 1, backend: str = "local",
              address: str | None = None) -> Iterator[dict]:
    if backend == "local":
        return run_local(config, indices, workers)
    if backend == "ray":
        return run_ray(config, indices, workers, address)
    raise SetupError(f"unknown backend {backend!r}; use local or ray")


# --- files ------------------------------------------------------------------------------------------
RUN_SUFFIXES = (".jsonl", ".parquet")


def check_out_path(path: Path) -> None:
    if path.suffix not in RUN_SUFFIXES:
        raise SetupError(f"the output file must end in .jsonl or .parquet, not {path.name!r}")


def check_writable(path: Path, what: str = "the run file") -> None:
    """`what` can be written at `path`: its folder exists and it is not a folder itself."""
    path = Path(path)
    if path.is_dir():
        raise SetupError(f"cannot write {what} {path}: it is a folder")
    if not path.parent.is_dir():
        raise SetupError(f"cannot write {what} {path}: the folder {path.parent} does not exist")


def run_header(config: RunConfig) -> dict:
    """What a run file starts with: its settings, the engine version, each agent's full settings, and the
    digest of the content played (a run is continued only with the same cards and stats)."""
    from coliseo.core.match import engine_version

    game = config_game(config)
    agents = {spec: build_agent(spec, game, 0).effective_settings() for spec in dict.fromkeys(config.agents)}
    return {"format": FORMAT, "config": config.to_json(), "engine": engine_version(), "agent_settings": agents,
            "content": game.content_digest()}


def read_header(path: Path) -> dict:
    """The header of a run file (engine version, agent settings and content digest are missing from older
    files)."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        meta = pq.read_schema(path).metadata or {}
        return {"format": FORMAT, "config": json.loads(meta[b"config"]),
                "engine": meta.get(b"engine", b"").decode() or None,
                "agent_settings": json.loads(meta.get(b"agent_settings", b"null")),
                "content": meta.get(b"content", b"").decode() or None}
    with path.open(encoding="utf-8") as f:
        return json.loads(f.readline())


def read_run(path: Path) -> tuple[RunConfig, list[dict]]:
    """The settings and the rows of a run file (.jsonl or .parquet), each row's reason in today's code."""
    config, rows = _read_run(Path(path))
    game = game_class(config.game)
    for row in rows:
        if isinstance(row, dict) and "reason" in row:    # a run file written before the one vocabulary
            row["reason"] = canonical_reason(game, row["reason"])
    return config, rows


def _read_run(path: Path) -> tuple[RunConfig, list[dict]]:
    if path.suffix not in RUN_SUFFIXES:
        raise SetupError(f"{path} is not a simulation file: those end in .jsonl or .parquet")
    if not path.exists():
        raise SetupError(f"no run file {path}")
    if path.is_dir():
        raise SetupError(f"{path} is a folder, not a simulation file")
    if path.suffix == ".parquet":
        return _read_parquet(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise SetupError(f"{path} is empty")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise SetupError(f"{path}: the first line is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SetupError(f"{path} is not a simulation file (its first line must be a {FORMAT} header)")
    config = header_config(path, header)
    rows = []
    for n, line in enumerate(lines[1:], 2):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if n == len(lines):   # a last line cut by a crash: drop it, the game is played again
                break
            raise SetupError(f"{path} line {n} is not JSON") from None
    return config, rows


def header_config(path: Path, header: dict) -> RunConfig:
    """The run's settings from its header, or an error naming what the header lacks."""
    doc = header.get("config")
    missing = [k for k in ("game", "agents", "seed") if k not in doc] if isinstance(doc, dict) else ["config"]
    if missing:
        raise SetupError(f"{path}: the header lacks {', '.join(missing)} (the run's settings)")
    return RunConfig.from_json(doc)


class RunWriter:
    """Appends rows as they come (.jsonl, flushed per game) or writes them all on close (.parquet)."""

    def __init__(self, path: Path, config: RunConfig, rows: list[dict]):
        self.path, self.config, self.rows = Path(path), config, list(rows)
        check_out_path(self.path)
        check_writable(self.path)
        self._file = None
        if self.path.suffix == ".jsonl":
            # The kept rows are written to a new file that replaces the old one whole, so a crash here
            # loses nothing; new rows are then appended one by one.
            fresh = self.path.with_name(self.path.name + ".tmp")
            with fresh.open("w", encoding="utf-8") as f:
                f.write(json.dumps(run_header(config)) + "\n")
                for row in self.rows:
                    f.write(json.dumps(row) + "\n")
            os.replace(fresh, self.path)
            self._file = self.path.open("a", encoding="utf-8")

    def add(self, row: dict) -> None:
        self.rows.append(row)
        if self._file:
            self._file.write(json.dumps(row) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file:
            self._file.close()
        else:
            _write_parquet(self.path, self.config, self.rows)


_JSON_COLUMNS = ("seats", "winners", "scores", "items")


def _write_parquet(path: Path, config: RunConfig, rows: list[dict]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = {
        "index": pa.array([r["index"] for r in rows], pa.int64()),
        "seed": pa.array([r["seed"] for r in rows], pa.uint64()),
        "reason": pa.array([r["reason"] for r in rows], pa.string()),
        "length": pa.array([r["length"] for r in rows], pa.int64()),
        "first_player": pa.array([r["first_player"] for r in rows], pa.int64()),
    }
    for name in _JSON_COLUMNS:   # nested and mixed-type values kept as JSON text
        columns[name] = pa.array([json.dumps(r[name]) for r in rows], pa.string())
    header = run_header(config)
    table = pa.table(columns).replace_schema_metadata(
        {"format": FORMAT, "config": json.dumps(config.to_json()), "engine": header["engine"],
         "agent_settings": json.dumps(header["agent_settings"]), "content": header["content"]})
    pq.write_table(table, path)


def _read_parquet(path: Path) -> tuple[RunConfig, list[dict]]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    meta = table.schema.metadata or {}
    if meta.get(b"format", b"").decode() != FORMAT:
        raise SetupError(f"{path} is not a simulation file (no {FORMAT} metadata)")
    rows = table.to_pylist()
    for row in rows:
        for name in _JSON_COLUMNS:
            row[name] = json.loads(row[name])
    return RunConfig.from_json(json.loads(meta[b"config"])), rows


def check_same_content(path: Path, config: RunConfig) -> None:
    """A run is continued only on the content it was played with (a pack edited since would mix two sets of
    stats in one table); a file from before content digests is trusted."""
    played = read_header(path).get("content")
    game = config_game(config)
    if played and played != game.content_digest():
        raise SetupError(f"{path} was played with other content (a pack's cards or stats changed since), so its "
                         "games can be neither continued nor played again; start a new run file to measure the "
                         "content as it is now")


def missing_indices(rows: Iterable[dict], wanted: Iterable[int]) -> list[int]:
    done = {row["index"] for row in rows}
    return [i for i in wanted if i not in done]


def simulate(config: RunConfig, games: int, out: Path | None = None, workers: int = 1, backend: str = "local",
             address: str | None = None, done: list[dict] | None = None, on_row=None,
             indices: Iterable[int] | None = None) -> list[dict]:
    """Play the games of `config` numbered below `games` (or those of `indices`) that are not in `done`; rows are
    saved as they finish.

    Ctrl-C (KeyboardInterrupt) stops the run: the finished games are saved and the exception goes on.
    """
    done = list(done or [])
    if done and out:
        check_same_content(out, config)
    writer = RunWriter(out, config, done) if out else None
    rows = done
    stream = run_games(config, missing_indices(done, range(games) if indices is None else indices), workers,
                       backend, address)
    try:
        for row in stream:
            if writer:
                writer.add(row)
            else:
                rows.append(row)
            if on_row:
                on_row(row)
    finally:
        stream.close()
        if writer:
            writer.close()
    result = writer.rows if writer else rows
    return sorted(result, key=lambda r: r["index"])
