"""The Sphinx model documentation builds without warnings."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_sphinx_builds_without_warnings(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "doc"), str(tmp_path / "html")],
        capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
