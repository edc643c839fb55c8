"""Set up the virtual environment with the test extras and run the whole test suite.

Usage: python3 scripts/test.py [pytest arguments]
"""

import os
import shutil
import subprocess
import sys

APT = [["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]]


def chromium_notice() -> str:
    return ("Chromium is missing and the browser tests need it: installing Debian's package now with "
            + " && ".join(" ".join(c) for c in APT) + " (as root, system-wide)")


def ensure_chromium() -> None:
    """The browser tests drive Debian's Chromium; install it when missing and we may (root on Debian)."""
    if os.name != "posix" or os.path.exists("/usr/bin/chromium") or not shutil.which("apt-get") or os.geteuid():
        return
    print(chromium_notice(), flush=True)
    for command in APT:
        subprocess.run(command, check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


if __name__ == "__main__":
    from bootstrap import ROOT, ensure

    ensure_chromium()
    python = ensure("dev,web,sim,rl")
    sys.exit(subprocess.run([str(python), "-m", "pytest", "-n", "auto", *sys.argv[1:]], cwd=ROOT).returncode)
