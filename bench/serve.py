#!/usr/bin/env python3
"""What a short point costs a campaign worker run as a new process (testbed.runner's
_run_new_process) against run through its program's server (--serve: ns-3's start-up paid once,
a fork per point). Prints wall and CPU milliseconds per point: the worker's, and the program's
from the worker's children's totals (a server's own start-up, forks and waits included); median
of --rounds rounds of --points points.

    bench/serve.py [--program gine-timer] [--args "--firings=10"] [--points 50] [--rounds 3]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bindings" / "python"))

from testbed import EXAMPLES_DIR  # noqa: E402
from testbed import runner  # noqa: E402


def _children_cpu():
    t = os.times()
    return t.children_user + t.children_system


def measure(exe, args, points, served, tmp):
    """(wall ms, worker CPU ms, programs' CPU ms) per point."""
    out = Path(tmp) / "out.json"
    cmd = [exe, *args, f"--output={out}"]
    t0, w0, c0 = time.perf_counter(), time.process_time(), _children_cpu()
    for _ in range(points):
        if served:
            code = runner._run_served(exe, cmd[1:], None, Path(tmp) / "log", 600)[0]
        else:
            code = runner._run_new_process("bench", cmd, 600, False)[0]
        assert code == 0, code
    wall = (time.perf_counter() - t0) * 1000 / points
    worker = (time.process_time() - w0) * 1000 / points
    if served:
        # the server (its start-up, forks and waits) and the children it reaped count in the
        # worker's children's totals once the worker has reaped the server
        for s in runner._SERVERS.by_exe.values():
            s.close()
        runner._SERVERS.by_exe = {}
    program = (_children_cpu() - c0) * 1000 / points
    return wall, worker, program


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", default="gine-timer")
    ap.add_argument("--args", default="", help="the point's options, space-separated")
    ap.add_argument("--points", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    exe = str(Path(EXAMPLES_DIR) / a.program)
    args = a.args.split()
    with tempfile.TemporaryDirectory() as tmp:
        rows = {}
        for served in (False, True):
            runs = [measure(exe, args, a.points, served, tmp) for _ in range(a.rounds)]
            rows[served] = [statistics.median(r[i] for r in runs) for i in range(3)]
    print(f"{a.program} {' '.join(args)}: {a.points} points x {a.rounds} rounds (median)")
    print(f"{'':14s} {'wall ms':>9s} {'worker CPU ms':>14s} {'program CPU ms':>15s}")
    for served, name in ((False, "new process"), (True, "served")):
        w, c, p = rows[served]
        print(f"{name:14s} {w:9.2f} {c:14.2f} {p:15.2f}")


if __name__ == "__main__":
    main()
