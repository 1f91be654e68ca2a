#!/usr/bin/env python3
"""CPU seconds of the reproduction's costliest experiments, per build, side by side.

Runs the points of each experiment at a scale (quick by default) (every --every-th point, all by default) with each
build in turn, point by point (so that the machine's load falls on the builds alike), one point
at a time, and sums the program's CPU seconds (user + system, from wait4) and its simulator
events per experiment and build. The events must agree between builds (the same points do the
same work); the CPU seconds are the measurement. Prints a Markdown table (and writes it to
--out). Not part of ./testbed test.

    ./testbed python bench/quick-points-cpu.py --build /work/main/build --build build \\
        [--experiments ntt-router,jaxa-spread] [--every 3] [--scale quick|paper] [--out FILE]
"""

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path

from benchutil import emit, measure

from testbed.experiment import get
from testbed.runner import command_line

import testbed.experiments  # noqa: F401  (registers the experiments)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["ntt-router", "ntt-load", "ntt-overflow", "jaxa-spread", "tno-pipeline"]


def run(exe: Path, params: dict) -> tuple[float, int]:
    """Run one point; return (CPU seconds, simulator events)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        _, _, usage = measure(command_line(exe, params, out))
        return usage.ru_utime + usage.ru_stime, int(json.loads(out.read_text())["events"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", required=True,
                    help="a build directory (repeatable: the builds compared)")
    ap.add_argument("--experiments", default=",".join(DEFAULT))
    ap.add_argument("--every", type=int, default=1, help="run every N-th point (default: all)")
    ap.add_argument("--scale", choices=("quick", "paper"), default="quick")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    builds = [Path(b).resolve() for b in a.build]
    head = ["| experiment | program | points | events | "
            + " | ".join(f"CPU s {b.parent.name}/{b.name}" for b in builds)
            + (" | ratio |" if len(builds) == 2 else " |"),
            "|---|---|---|---|" + "---|" * len(builds) + ("---|" if len(builds) == 2 else "")]
    lines = []
    totals = [0.0] * len(builds)
    for exp_id in a.experiments.split(","):
        exp = get(exp_id)
        points = exp.points(a.scale)[:: a.every]
        cpu = [0.0] * len(builds)
        events = [0] * len(builds)
        for p in points:
            for i, b in enumerate(builds):
                c, e = run(b / "examples" / exp.program, p)
                cpu[i] += c
                events[i] += e
        if len(set(events)) != 1:
            raise SystemExit(f"{exp_id}: the builds' events differ ({events}): not the same work")
        totals = [t + c for t, c in zip(totals, cpu)]
        row = (f"| {exp_id} | {exp.program} | {len(points)} | {events[0]:,} | "
               + " | ".join(f"{c:.1f}" for c in cpu)
               + (f" | {cpu[1] / cpu[0]:.2f} |" if len(builds) == 2 else " |"))
        lines.append(row)
        print(row, flush=True)
    lines.append("| total | | | | " + " | ".join(f"{t:.1f}" for t in totals)
                 + (f" | {totals[1] / totals[0]:.2f} |" if len(builds) == 2 else " |"))
    info = [f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"load average at the end {os.getloadavg()[0]:.2f}; every {a.every}. {a.scale} point, "
            "one at a time, the builds in turn.", ""]
    emit(info + head + lines, a.out)


if __name__ == "__main__":
    main()
