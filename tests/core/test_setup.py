"""What a fresh clone runs first: the extras in pyproject.toml and the two scripts of the README."""

import importlib.util
import socket
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_TOOLS = {"pytest", "pytest-xdist", "ruff", "playwright", "schemathesis", "hypothesis", "httpx"}


def script(name: str):
    spec = importlib.util.spec_from_file_location(f"coliseo_script_{name}", ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def requirement_name(req: str) -> str:
    for stop in "[<>=~! ":
        req = req.split(stop)[0]
    return req


def test_runtime_extras_hold_no_test_tools_and_dev_holds_them():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name, reqs in extras.items():
        if name != "dev":
            assert not {requirement_name(r) for r in reqs} & TEST_TOOLS, name
    assert {"pytest", "playwright", "schemathesis", "httpx"} <= {requirement_name(r) for r in extras["dev"]}
    assert any(r.startswith("ray[client]") for r in extras["sim"])     # for --address ray://host:port


def test_run_script_says_why_the_server_exited(capfd, tmp_path):
    run = script("run")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = str(busy.getsockname()[1])
    coliseo = str(Path(sys.executable).parent / "coliseo")
    try:
        code = run.run(coliseo, ["serve", "--port", port, "--db", f"sqlite:///{tmp_path}/t.db"])
    finally:
        busy.close()
    err = capfd.readouterr().err
    assert code != 0 and "address already in use" in err.lower()
    assert f"--db sqlite:///{tmp_path}/t.db exited: it failed with exit code {code}" in err
    assert run.run("/bin/sh", ["-c", "kill -TERM $$"]) == -15
    assert "exited: it was stopped by the signal SIGTERM" in capfd.readouterr().err
    assert run.run("/bin/sh", ["-c", "exit 0"]) == 0
    assert "exited: it ended normally" in capfd.readouterr().err


def test_test_script_announces_the_apt_get_install_before_running_it():
    test = script("test")
    notice = test.chromium_notice()
    assert "apt-get update && apt-get install -y chromium" in notice and "as root" in notice
    assert test.APT[-1] == ["apt-get", "install", "-y", "chromium"]
