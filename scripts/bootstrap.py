"""Create the project's virtual environment when missing and install the project into it.

Used by scripts/run.py and scripts/test.py; safe to run again: it reinstalls only when
pyproject.toml changed since the last install.
"""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("COLISEO_VENV", ROOT / ".venv"))


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure(extras: str) -> Path:
    """The venv's python, with the project installed with `extras` (e.g. "dev")."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script runs on whatever python3 a user has
        sys.exit(f"Coliseo needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    python = venv_python()
    if not python.exists():
        print(f"creating the virtual environment in {VENV}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / f".coliseo-installed-{extras or 'base'}"
    if not stamp.exists() or stamp.read_text() != wanted:
        print(f"installing coliseo[{extras}] into {VENV}", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
        target = f"{ROOT}[{extras}]" if extras else str(ROOT)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-e", target], check=True)
        stamp.write_text(wanted)
    return python
