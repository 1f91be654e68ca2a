#!/usr/bin/env python3
"""Wall time of the whole [JAXA06] RTI set (jaxa-fig4 ... jaxa-duplex, program jaxa-benchmark) at paper scale.

Runs the campaign of the eight RTI experiments (10 repetitions x 1000 exchanges per point)
from scratch into a temporary directory with --jobs 2, as `./testbed reproduce --scale paper`
would, and prints the wall time of the simulations, of the analysis, the CPU time of the
points (sum of their own wall times), the simulator events, and the machine's load average
before and after (the machine may be shared: compare the CPU time with the wall time).

    ./testbed python bench/jaxa-rti-paper-scale.py [--jobs 2] [--scale paper] [--keep DIR]
"""

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from testbed import campaign
from testbed.experiment import SCALES, experiments

IDS = ["jaxa-fig4", "jaxa-fig5", "jaxa-fig6", "jaxa-fig7", "jaxa-fig8", "jaxa-order",
       "jaxa-bidir", "jaxa-duplex"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--scale", default="paper", choices=SCALES)
    p.add_argument("--keep", type=Path, help="results directory to keep (default: temporary)")
    p.add_argument("--plots", action="store_true", help="also draw the figures (gnuplot)")
    args = p.parse_args()
    exps = [experiments()[i] for i in IDS]
    out = args.keep or Path(tempfile.mkdtemp(prefix="jaxa-rti-bench-"))
    load0 = os.getloadavg()
    t0 = time.monotonic()
    results = campaign.run_campaign(exps, args.scale, args.jobs, out, log=lambda m: None)
    t1 = time.monotonic()
    failed = {k: str(v) for k, v in results.items() if isinstance(v, Exception)}
    for e in exps:
        if e.id not in failed:
            campaign.finish_experiment(e, results[e.id], args.scale, out, plots=args.plots)
    t2 = time.monotonic()
    load1 = os.getloadavg()
    cpu, events, points = 0.0, 0, set()
    for f in out.glob("jaxa-*/points/*.json"):
        if f.name in points:
            continue
        points.add(f.name)
        record = json.loads(f.read_text())
        cpu += record.get("wall_s", 0.0)  # the campaign's measurement, beside the result
        events += record["result"].get("events", 0)
    report = {"scale": args.scale, "jobs": args.jobs, "unique_points": len(points),
              "simulation_wall_s": round(t1 - t0, 1), "analysis_wall_s": round(t2 - t1, 1),
              "total_wall_s": round(t2 - t0, 1), "points_cpu_s": round(cpu, 1),
              "events": events, "us_per_event": round(cpu / max(events, 1) * 1e6, 2),
              "loadavg_before": [round(x, 2) for x in load0],
              "loadavg_after": [round(x, 2) for x in load1], "failed": failed}
    print(json.dumps(report, indent=1))
    if not args.keep:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
