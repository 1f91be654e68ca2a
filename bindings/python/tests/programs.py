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
