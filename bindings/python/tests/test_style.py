"""Source style: ns-3's clang-format style (the repository's .clang-format)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_cpp_sources_are_clang_formatted():
    exe = Path(sys.executable).parent / "clang-format"
    if not exe.exists():
        pytest.skip("clang-format is not installed in this venv (./testbed setup installs it)")
    files = sorted(str(p) for d in ("model", "helper", "test", "examples", "bench", "fuzz")
                   for p in (ROOT / d).rglob("*") if p.suffix in (".h", ".cc"))
    assert files
    proc = subprocess.run([str(exe), "--dry-run", "-Werror", *files], capture_output=True,
                          text=True)
    bad = sorted({line.split(":")[0] for line in proc.stderr.splitlines() if "warning" in line})
    assert proc.returncode == 0, "not clang-formatted (run .venv/bin/clang-format -i):\n" + \
        "\n".join(bad)
