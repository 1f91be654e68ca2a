#!/usr/bin/env python3
"""Bench: one mega-scale point of scaling method A split by sets over processes (doc/mega.rst,
"An exact split over processes"), every process measured with /usr/bin/time -v (wall, user +
system CPU, peak RSS), and optionally the same point run whole, with the records compared.

    .venv/bin/python bench/mega-split.py [--sets 50] [--nodes 5000] [--duration 180]
        [--parts 2] [--querier true] [--on6009 0] [--receivers N] [--max-events N] [--whole]
        [--out DIR]

The 10^6-sender point of the paper campaign: --sets 50 --nodes 5000 --duration 180 (the
default); mega-cat6009's paper points: --sets 32 --receivers 32 --on6009 R; mega-scale's
what-if scale "tenfold", 10^7 senders at the study's multiplexing: --sets 500 --receivers 500
--max-events 1e11. The critical path of the split run is its wall time
from the first part's start to the merge's end; its CPU is the parts' and the merge's.
"""

import argparse
import json
import os
import re
import stat
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

from testbed import EXAMPLES_DIR, mega_split  # noqa: E402


def _time_v(path: Path) -> dict:
    text = path.read_text()

    def field(name):
        m = re.search(rf"^\s*{re.escape(name)}: (.*)$", text, re.M)
        return m.group(1).strip() if m else None

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    parts = [float(x) for x in wall.split(":")]
    secs = sum(v * 60 ** i for i, v in enumerate(reversed(parts)))
    return {"wall_s": secs, "user_s": float(field("User time (seconds)")),
            "sys_s": float(field("System time (seconds)")),
            "cpu_s": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "maxrss_mb": int(field("Maximum resident set size (kbytes)")) / 1024,
            "exit": int(field("Exit status"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=50)
    ap.add_argument("--nodes", type=int, default=5000, help="send_udp nodes per sender PC")
    ap.add_argument("--duration", type=float, default=180.0)
    ap.add_argument("--warmup", type=float, default=1.6)
    ap.add_argument("--parts", type=int, default=2)
    ap.add_argument("--querier", default="true")
    ap.add_argument("--receivers", type=int, default=None, help="default: one per set")
    ap.add_argument("--on6009", type=int, default=0)
    ap.add_argument("--max-events", type=float, default=None,
                    help="the program's --maxEvents (its default budget refuses 10^7 x 180 s)")
    ap.add_argument("--whole", action="store_true", help="also run the point whole and compare")
    ap.add_argument("--out", default="bench-mega-split")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    prog = EXAMPLES_DIR / "mega-scale"
    args = [f"--senderPcs={4 * a.sets}", "--sendersPerGroup=4", f"--nodesPerPc={a.nodes}",
            f"--receivers={a.receivers or min(a.sets, 64)}", f"--receiversOn6009={a.on6009}",
            f"--querier={a.querier}", "--querierItr=100", f"--warmup={a.warmup}",
            f"--duration={a.duration}"]
    if a.max_events is not None:
        args.append(f"--maxEvents={a.max_events:g}")
    # Every process of the split under /usr/bin/time -v, named by its part (or "merge").
    wrapper = out / "timed-mega-scale"
    wrapper.write_text(f"""#!/bin/sh
name=merge
for x in "$@"; do case "$x" in --part=*) name=part${{x#--part=}};; esac; done
exec /usr/bin/time -v -o "{out}/time-$name.txt" "{prog}" "$@"
""")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    report = {"args": args, "parts": a.parts, "load_before": os.getloadavg()}
    t0 = time.monotonic()
    merged = mega_split.run(args, parts=a.parts, workdir=out / "parts", output=out / "split.json",
                            program=str(wrapper))
    report["split_wall_s"] = time.monotonic() - t0
    report["processes"] = {p.stem[5:]: _time_v(p) for p in sorted(out.glob("time-*.txt"))}
    report["split_cpu_s"] = sum(v["cpu_s"] for v in report["processes"].values())
    report["events"] = merged["events"]
    report["load_after_split"] = os.getloadavg()
    if a.whole:
        t0 = time.monotonic()
        os.system(f"/usr/bin/time -v -o {out}/time-whole.txt {prog} {' '.join(args)} "
                  f"--output={out}/whole.json > /dev/null 2>&1")
        report["whole"] = _time_v(out / "time-whole.txt")
        whole = json.loads((out / "whole.json").read_text())
        report["identical"] = whole == merged
        report["load_after_whole"] = os.getloadavg()
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
