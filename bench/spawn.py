#!/usr/bin/env python3
"""What starting one program costs a campaign worker: the runner's spawn (vfork, the
parent's pid in the environment) against a pre-exec hook (which makes Python fork the whole
worker), from a process the size of a Dask worker. Prints wall and CPU milliseconds per spawn
(the worker's and the child's), median of --rounds rounds of --spawns spawns each.

    bench/spawn.py [--program build/examples/gine-timer] [--worker-mb 200]

With --program, the program is started with --PrintHelp (its own start-up included, the same in
both columns); without it, /bin/true.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bindings" / "python"))

from testbed.runner import PARENT_PID_VARIABLE  # noqa: E402


def _hook():
    """A pre-exec hook that does nothing: its presence alone rules out vfork."""


def measure(cmd, hook, spawns):
    env = {**os.environ, PARENT_PID_VARIABLE: str(os.getpid())}
    t0, c0 = time.perf_counter(), os.times()
    for _ in range(spawns):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True, preexec_fn=hook,
                             env=None if hook else env)
        p.wait()
    c1 = os.times()
    per = 1000.0 / spawns
    return ((time.perf_counter() - t0) * per,
            (c1.user + c1.system - c0.user - c0.system) * per,
            (c1.children_user + c1.children_system - c0.children_user - c0.children_system)
            * per)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", help="a program to start with --PrintHelp (default /bin/true)")
    ap.add_argument("--worker-mb", type=int, default=200, help="the worker's resident memory")
    ap.add_argument("--spawns", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    ballast = bytearray(a.worker_mb << 20)
    for i in range(0, len(ballast), 4096):  # resident, as a worker's heap is
        ballast[i] = 1
    cmd = [a.program, "--PrintHelp"] if a.program else ["/bin/true"]
    print(f"{' '.join(cmd)} from a {a.worker_mb} MB process, {a.spawns} spawns x {a.rounds}")
    print("| spawn | wall ms | worker CPU ms | child CPU ms |\n|---|---|---|---|")
    for name, hook in (("runner (vfork, pid in the environment)", None),
                       ("pre-exec hook (fork)", _hook)):
        rows = [measure(cmd, hook, a.spawns) for _ in range(a.rounds)]
        med = [statistics.median(r[i] for r in rows) for i in range(3)]
        print(f"| {name} | {med[0]:.1f} | {med[1]:.1f} | {med[2]:.1f} |")


if __name__ == "__main__":
    main()
