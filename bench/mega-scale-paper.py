#!/usr/bin/env python3
"""Benchmark of mega-scale at paper scale: 50 sets (4 sender PCs x 5 000 nodes + 1 receiver each,
10^6 senders), the querier on its router port, 180 s of observation after start-up.

Runs build/examples/mega-scale once with the given sets and observation and reports wall time,
CPU time, simulator events, events and sends per CPU second, peak RSS, and the RSS the program
itself recorded every 60 s of simulated time (rss_mb series: must not grow with simulated time).
--sets and --duration scale the run down for a measurement that fits a session; the sends and
link-hops of the full run are then extrapolated from the measured rates (said so in the output).
Timings on the shared 2-core machine are noisy; events and sends are exact.

    .venv/bin/python bench/mega-scale-paper.py [--sets 50] [--duration 180] [--out FILE]
"""

import argparse
import json
import os
import tempfile
from pathlib import Path

from benchutil import emit, measure

ROOT = Path(__file__).resolve().parents[1]
GOAL_WALL_S = 600
GOAL_RSS_MB = 4096


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--sets", type=int, default=50)
    ap.add_argument("--nodes-per-pc", type=int, default=5000)
    ap.add_argument("--duration", type=float, default=180.0)
    ap.add_argument("--warmup", type=float, default=1.6)
    ap.add_argument("--rss-every", type=float, default=60.0,
                    help="simulated seconds between RSS samples")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    exe = Path(a.build) / "examples" / "mega-scale"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        args = [str(exe), f"--senderPcs={4 * a.sets}", "--sendersPerGroup=4",
                f"--receivers={a.sets}", f"--nodesPerPc={a.nodes_per_pc}", "--querier=true",
                "--querierItr=100", f"--warmup={a.warmup}", f"--duration={a.duration}",
                f"--rssEvery={a.rss_every:g}", f"--output={out}"]
        _, wall, usage = measure(args)
        r = json.loads(out.read_text())
    cpu = usage.ru_utime + usage.ru_stime
    sim = a.warmup + a.duration
    sends = r["sent_total"]
    full_sends = 50 * 4 * 5000 * (1.6 + 180.0)
    lines = [
        f"mega-scale: {a.sets} sets x 4 PCs x {a.nodes_per_pc} nodes = "
        f"{4 * a.sets * a.nodes_per_pc:,} senders, querier (100 interrupts/s), "
        f"{a.duration:g} s observed after {a.warmup:g} s; load average "
        f"{os.getloadavg()[0]:.1f} (2 shared cores).",
        "",
        "| wall s | CPU s | events | sends | events/send | events per CPU s | sends per CPU s | "
        f"peak RSS MB | RSS MB every {a.rss_every:g} s simulated |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {wall:.1f} | {cpu:.1f} | {r['events']:,} | {sends:,} | {r['events'] / sends:.1f} | "
        f"{r['events'] / cpu:,.0f} | {sends / cpu:,.0f} | {usage.ru_maxrss / 1024:.0f} | "
        f"{', '.join(f'{x:.0f}' for x in r.get('rss_mb', []))} |",
        "",
        f"Paper scale (50 sets, 181.6 s simulated) is {full_sends:.3g} sends: at the measured "
        f"{sends / cpu:,.0f} sends per CPU second {full_sends / (sends / cpu) / 60:.0f} CPU minutes "
        f"against the goal of {GOAL_WALL_S / 60:.0f} minutes "
        f"({full_sends / (sends / cpu) / GOAL_WALL_S:.1f}x too slow)"
        + (" (extrapolated from this smaller run)." if a.sets != 50 or a.duration != 180 else "."),
    ]
    emit(lines, a.out)


if __name__ == "__main__":
    main()
