import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
os.environ.setdefault("TESTBED_ROOT", str(ROOT))
os.environ.setdefault("TESTBED_BUILD_DIR", str(ROOT / "build"))


import stat  # noqa: E402

import pytest  # noqa: E402

import testbed.build  # noqa: E402


def write_square_program(prog: Path, log: Path, offset: float = 0.0) -> Path:
    """A stand-in experiment program "square": prints y = x*x (+ offset: a "rebuilt" program
    with a changed model) as JSON; fails when x == failx; answers --describe and --check like
    the module's programs."""
    prog.write_text(f"""#!/usr/bin/env python3
import json, sys
if sys.argv[1:] == ["--describe"]:
    json.dump({{"program": "square", "description": "x squared", "fields": [
        {{"name": "y", "type": "real", "help": "x squared"}}], "options": [
        {{"name": "x", "type": "uint", "default": 0, "help": "x"}},
        {{"name": "failx", "type": "uint", "default": 99, "help": "fail at this x"}},
        {{"name": "input", "type": "string", "default": "", "help": "a file it reads"}}]}},
        sys.stdout)
    sys.exit(0)
if sys.argv[1:2] == ["--check"]:
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(log)!r}, "a").write(args["x"] + "\\n")
if args.get("failx") == args["x"]:
    sys.exit(3)
json.dump({{"y": float(args["x"]) ** 2 + {offset!r}}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    return prog


@pytest.fixture
def fake_program(tmp_path, monkeypatch):
    """The stand-in program "square" in a folder of its own (testbed.build.EXAMPLES_DIR); returns
    the log of the x it was run with."""
    bindir = tmp_path / "examples"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    write_square_program(bindir / "square", log)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    return log
