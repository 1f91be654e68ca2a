#!/usr/bin/env python3
"""Benchmark of the MEGA06 programs: frames/s through the snooping switch and the host receive
path, send_udp virtual-node iterations/s, simulator events/s and peak memory.

Runs each configuration once, sequentially (one core), and prints a Markdown table (and writes
it to --out). Not part of ./testbed test.

    .venv/bin/python bench/mega-bench.py [--build build] [--out bench/mega-bench.md]
"""

import argparse
import json
import os
import platform
import tempfile
from pathlib import Path

from benchutil import emit, measure

ROOT = Path(__file__).resolve().parents[1]

# name, program, parameters, what is counted per wall second
CASES = [
    ("switch only: 10^6 frames/s, snooping on (load stays behind its port)", "mega-flooding",
     dict(nodesPerPc=1, load=1e6, snooping="true", warmup=1.6, duration=1, loadLead=1),
     "frames"),
    ("switch + 2 hosts' receive path, 10^6 frames/s flooded (livelock: ring drops)",
     "mega-flooding",
     dict(nodesPerPc=1, load=1e6, snooping="false", warmup=1.6, duration=1, loadLead=1),
     "frames"),
    ("switch + 2 hosts' receive path and stack, 5*10^4 frames/s flooded", "mega-flooding",
     dict(nodesPerPc=1, load=5e4, snooping="false", warmup=1.6, duration=4, loadLead=1.6),
     "frames"),
    ("send_udp: 1 PC x 5 000 virtual nodes, 5 s (+ receiver)", "mega-flooding",
     dict(nodesPerPc=5000, load=0, warmup=1.6, duration=5, loadLead=0), "sends"),
    ("send_udp: 1 PC x 50 000 virtual nodes, 5 s (+ receiver)", "mega-flooding",
     dict(nodesPerPc=50000, load=0, warmup=1.6, duration=5, loadLead=0), "sends"),
    ("mega-querier quick point (10^5 frames/s at the router port, unmoderated)",
     "mega-querier",
     dict(load=1e5, itr=0, igmpTimeScale=0.02, duration=1.25, nodesPerPc=1000, receivers=2),
     "frames"),
]


def run(exe, params):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        args = [str(exe)] + [f"--{k}={v}" for k, v in params.items()] + [f"--output={out}"]
        _, wall, usage = measure(args)
        return json.loads(out.read_text()), wall, usage.ru_utime, usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    exdir = Path(a.build) / "examples"
    lines = ["| case | wall s | CPU s | events | events/s (CPU) | counted | per CPU s | "
             "peak RSS MB |", "|---|---|---|---|---|---|---|---|"]
    for name, prog, params, what in CASES:
        r, wall, cpu, rss = run(exdir / prog, params)
        if what == "frames":
            n = r["load_frames_sent"]
        else:
            n = r["sent"] * (r["duration_s"] + 1.6) / r["duration_s"]  # whole run, approx.
        lines.append(f"| {name} | {wall:.1f} | {cpu:.1f} | {r['events']:,} | "
                     f"{r['events'] / cpu:,.0f} | {n:,.0f} {what} | {n / cpu:,.0f} | "
                     f"{rss / 1024:.0f} |")
        print(lines[-1], flush=True)
    head = [f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"load average at the end {os.getloadavg()[0]:.2f}; ns-3.44 wheel (optimized, "
            "logging compiled in).", ""]
    emit(head + lines, a.out)


if __name__ == "__main__":
    main()
