"""Set up the virtual environment and run Coliseo's main job.

Usage: python3 scripts/run.py [coliseo arguments]   (default: the web table on http://127.0.0.1:8000/)
"""

import os
import subprocess
import sys

from bootstrap import ROOT, VENV, ensure

ensure("web")
coliseo = VENV / ("Scripts/coliseo.exe" if os.name == "nt" else "bin/coliseo")
args = sys.argv[1:] or ["serve"]
sys.exit(subprocess.run([str(coliseo), *args], cwd=ROOT).returncode)
