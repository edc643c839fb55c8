"""A real `coliseo serve` on loopback under many games created, played a little and abandoned: it lets every one go
and its RSS stays where it settled (bench/bench_soak.py is the same soak, larger, with its numbers)."""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .conftest import Server

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_soak.py"


def bench_soak():
    spec = importlib.util.spec_from_file_location("coliseo_bench_soak", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_games_created_played_and_abandoned_leave_memory_and_the_rss_stays_where_it_settled(tmp_path):
    soak = bench_soak()
    server = Server(tmp_path / "soak.db", args=soak.SERVER_ARGS, env=soak.SERVER_ENV).start()
    try:
        # The soak runs an event loop of its own, and a browser test may hold this thread's.
        with ThreadPoolExecutor(1) as thread:
            result = thread.submit(soak.soak, server.url, server.port, server.process.pid, rounds=4, warmup=2,
                                   games=100, clients=4, settle_seconds=20).result()
    finally:
        server.stop()
    assert [r["live_games"] for r in result["rounds"]] == [0] * 4, "every game abandoned has left memory"
    assert result["most_above_settled_mib"] < 4, result
