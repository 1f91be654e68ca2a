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


def test_nothing_points_outside_the_repository():
    """The documentation is self-contained: no link to the spec or notes outside the checkout
    (../shared/, shared/spec); the studies are described in doc/studies.rst."""
    import re

    assert (ROOT / "doc" / "studies.rst").exists()
    outside = re.compile(r"\.\./shared|shared/spec|/work/")
    for path in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "doc").glob("*.rst"))]:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not outside.search(line), f"{path.name}:{n} points outside: {line.strip()}"
    assert ":doc:`studies`" in (ROOT / "doc" / "multicast.rst").read_text()
    assert "doc/studies.rst" in (ROOT / "README.md").read_text()
