"""Set up the virtual environment and run Coliseo's main job.

Usage: python3 scripts/run.py [coliseo arguments]   (default: the web table on http://127.0.0.1:8000/)
"""

import os
import signal
import subprocess
import sys


def exit_reason(code: int) -> str:
    """Why `coliseo` ended, from its exit code, in words."""
    if code == 0:
        return "it ended normally"
    if code < 0:
        try:
            return f"it was stopped by the signal {signal.Signals(-code).name}"
        except ValueError:
            return f"it was stopped by signal {-code}"
    if code == 130:
        return "it was interrupted (Ctrl-C)"
    if code == 2:
        return "it was given arguments it does not accept (exit code 2; see the message above)"
    return f"it failed with exit code {code} (see the message above)"


def run(coliseo: str, args: list[str]) -> int:
    """Run `coliseo args` from the repository and say when and why it ended; returns its exit code."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        code = subprocess.run([coliseo, *args], cwd=root).returncode
    except KeyboardInterrupt:
        code = 130
    print(f"coliseo {' '.join(args)} exited: {exit_reason(code)}", file=sys.stderr, flush=True)
    return code


if __name__ == "__main__":
    from bootstrap import VENV, ensure

    ensure("web")
    sys.exit(run(str(VENV / ("Scripts/coliseo.exe" if os.name == "nt" else "bin/coliseo")), sys.argv[1:] or ["serve"]))
