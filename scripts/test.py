"""Set up the virtual environment with the test extras and run the whole test suite.

Usage: python3 scripts/test.py [pytest arguments]
"""

import os
import shutil
import subprocess
import sys

from bootstrap import ROOT, ensure


def ensure_chromium() -> None:
    """The browser tests drive Debian's Chromium; install it when missing and we may (root on Debian)."""
    if os.name != "posix" or os.path.exists("/usr/bin/chromium") or not shutil.which("apt-get") or os.geteuid():
        return
    print("installing chromium for the browser tests", flush=True)
    quiet = {"stdout": subprocess.DEVNULL, "env": {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}}
    subprocess.run(["apt-get", "update", "-qq"], check=True, **quiet)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, **quiet)


ensure_chromium()
python = ensure("dev,web,sim,rl")
code = subprocess.run([str(python), "-m", "pytest", "-n", "auto", *sys.argv[1:]], cwd=ROOT).returncode
sys.exit(code)
