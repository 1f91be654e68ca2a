"""Helpers shared by the bench/ scripts: run a program measuring its wall time and resource
usage, and print or write a Markdown report."""

import os
import subprocess
import tempfile
import time
from pathlib import Path


def measure(args):
    """Run args; return (stdout text, wall seconds, resource usage of the child). Raise with the
    tail of its standard error if it fails."""
    # Output to files, not pipes: a talkative program cannot block, and wait4 gives its usage.
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen([str(a) for a in args], stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        if status != 0:
            raise RuntimeError(f"{' '.join(map(str, args))} failed: "
                               f"{err.read().decode()[-800:]}")
        return out.read().decode(), wall, usage


def emit(lines, out=None):
    """Print the report and write it to out (if given)."""
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        Path(out).write_text(text)
