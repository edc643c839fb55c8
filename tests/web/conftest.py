"""A real `coliseo serve` process on a free loopback port, headless Chromium from Debian, and the servers
PostgreSQL and Redis (a fresh database per test; skipped with a reason where they are unreachable, a
failure under COLISEO_REQUIRE_SERVICES=1, as in CI)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

POSTGRES = os.environ.get("COLISEO_TEST_POSTGRES", "host=127.0.0.1 port=5432 dbname=test user=postgres")
REDIS = os.environ.get("COLISEO_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`coliseo serve` in its own process; `kill()` is SIGKILL, `start()` brings it back on the same port and store.

    `db` is an SQLite file or a database URL; `args` are more `serve` options (--redis, --workers, ...); `env`, more
    environment variables."""

    def __init__(self, db: Path | str, port: int | None = None, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None):
        self.db_url = db if isinstance(db, str) else f"sqlite:///{db}"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()       # a file, not a pipe: a chatty server never blocks on it

    def errors(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def start(self) -> Server:
        coliseo = Path(sys.executable).parent / "coliseo"
        self.process = subprocess.Popen([str(coliseo), "serve", "--port", str(self.port), "--db", self.db_url,
                                         *self.args], stdout=subprocess.DEVNULL, stderr=self.log,
                                        env=self.env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.errors()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/catalog", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not answer within 60 s: {self.errors()}")

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


def on_own_loop(coroutine):
    """The coroutine's result, on an event loop of its own (a browser test may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def unavailable(service: str, error: Exception):
    message = f"{service} is unreachable: {error}"
    if os.environ.get("COLISEO_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message} (COLISEO_REQUIRE_SERVICES=1 requires it)")
    pytest.skip(message)


@pytest.fixture
def postgres_url():
    """A fresh, uniquely named PostgreSQL database for one test (dropped after it), as a SQLAlchemy URL."""
    import psycopg

    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as e:
        unavailable(f"PostgreSQL ({POSTGRES})", e)
    name = f"coliseo_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    info = admin.info
    yield f"postgresql+psycopg://{info.user}@{info.host}:{info.port}/{name}"
    admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.close()


@pytest.fixture
def redis_url():
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        unavailable(f"Redis ({REDIS})", e)
    return REDIS


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "web.db").start()
    yield srv
    srv.stop()


PAGE_ERRORS: list[str] = []        # the current test's pages' uncaught errors
CONSOLE_PROBLEMS: list[str] = []   # and their console's errors and warnings


class RecordingBrowser:
    """The session's Chromium: every context it opens records its pages' errors and console problems, so a failing
    test's report says what the pages said (a timeout alone does not)."""

    def __init__(self, chromium):
        self.chromium = chromium

    def __getattr__(self, name):
        return getattr(self.chromium, name)

    def new_context(self, **options):
        context = self.chromium.new_context(**options)
        context.on("weberror", lambda e: PAGE_ERRORS.append(str(e.error)))
        context.on("console", self.record_console)
        return context

    @staticmethod
    def record_console(message):
        if message.type in ("error", "warning"):
            where = f"{message.location['url']}:{message.location['lineNumber']}"
            CONSOLE_PROBLEMS.append(f"console.{message.type} at {where}: {message.text}")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test.py does it)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield RecordingBrowser(chromium)
        chromium.close()


@pytest.fixture
def page_errors() -> list[str]:
    """The uncaught errors of every page the test opens, as they come (a fixture, not an import: pytest loads this
    file as a module of its own, apart from the tests' `web.conftest`)."""
    return PAGE_ERRORS


@pytest.fixture
def console_problems() -> list[str]:
    return CONSOLE_PROBLEMS


def pytest_runtest_setup(item):
    PAGE_ERRORS.clear()
    CONSOLE_PROBLEMS.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing web test's report carries its pages' problems and the tail of its `server` fixture's log."""
    report = yield
    if report.failed:
        if PAGE_ERRORS or CONSOLE_PROBLEMS:
            report.sections.append(("the pages said", "\n".join(PAGE_ERRORS + CONSOLE_PROBLEMS)))
        server = item.funcargs.get("server")
        if isinstance(server, Server):
            report.sections.append(("the server's log (its last 4,000 characters)", server.errors()[-4000:]))
    return report


@pytest.fixture
def page(browser, server):
    """A desk-sized page (1280×800) for a test with its own server; a test file may define its own `page`."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()
