"""Running a built experiment program from a test: shared by the system-check test files."""

import json
import subprocess

from testbed import EXAMPLES_DIR


def run_program(program, tmp_path, **params):
    """Run build/examples/<program> with --<key>=<value> options; return its JSON result."""
    out = tmp_path / f"{program}.json"
    args = [str(EXAMPLES_DIR / program)] + [f"--{k}={v}" for k, v in params.items()]
    subprocess.run(args + [f"--output={out}"], check=True, capture_output=True, text=True)
    return json.loads(out.read_text())


def run_args(program, tmp_path, *args, timeout=900):
    """Run build/examples/<program> with the given arguments (ns-3's --ns3::Type::Attribute=
    too); return the finished process and its JSON result (None unless it exited 0)."""
    out = tmp_path / f"{program}.json"
    r = subprocess.run([str(EXAMPLES_DIR / program), *args, f"--output={out}"],
                       capture_output=True, text=True, timeout=timeout)
    return r, (json.loads(out.read_text()) if r.returncode == 0 else None)
