"""Set up the virtual environment and run Coliseo's main job.

Usage: python3 scripts/run.py [coliseo arguments]   (default: a game of Capsule Monsters vs the AI)
"""

import os
import subprocess
import sys

from bootstrap import ROOT, VENV, ensure

ensure("")
coliseo = VENV / ("Scripts/coliseo.exe" if os.name == "nt" else "bin/coliseo")
args = sys.argv[1:] or ["play", "capsule", "--vs", "greedy"]
sys.exit(subprocess.run([str(coliseo), *args], cwd=ROOT).returncode)
