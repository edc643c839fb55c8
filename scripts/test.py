"""Set up the virtual environment with the test extras and run the whole test suite.

Usage: python3 scripts/test.py [pytest arguments]
"""

import subprocess
import sys

from bootstrap import ROOT, ensure

python = ensure("dev,web,sim,rl")
code = subprocess.run([str(python), "-m", "pytest", "-n", "auto", *sys.argv[1:]], cwd=ROOT).returncode
sys.exit(code)
