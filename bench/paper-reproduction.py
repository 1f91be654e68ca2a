#!/usr/bin/env python3
"""Bench: the paper-scale reproduction of all five studies as one timed command, and where its
time goes.

    .venv/bin/python bench/paper-reproduction.py [--jobs 2] [--out DIR]   # run it, then analyse
    .venv/bin/python bench/paper-reproduction.py --analyse DIR            # a finished run's

Runs ``./testbed reproduce --scale paper --jobs N --out DIR`` (the bands included, as a user
runs it) under ``/usr/bin/time -v``: the wall time, the CPU time of the whole process tree and
the peak RSS of its largest process. Then reads every point record below DIR and prints, per
folder (an experiment, an experiment's sensitivity samples, the calibration samples, a leverage
study): its points, their CPU seconds, the span from its first point's start (the record's
time less its wall time) to its last point's end, and its costliest point. A point stored in
several folders (a campaign reuses a point another experiment has run) is counted once, in the
folder that computed it first. The measured figures are in bench/mega-bench.md. Not part of
./testbed test: it takes the machine for an hour or more.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _time_v(text: str) -> dict:
    def field(name):
        m = re.search(rf"^\s*{re.escape(name)}: (.*)$", text, re.M)
        return m.group(1).strip() if m else None

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    if wall is None:
        return {}
    secs = sum(float(v) * 60 ** i for i, v in enumerate(reversed(wall.split(":"))))
    user, sys_ = float(field("User time (seconds)")), float(field("System time (seconds)"))
    return {"wall_s": secs, "cpu_s": user + sys_,
            "maxrss_mb": int(field("Maximum resident set size (kbytes)")) / 1024,
            "exit": int(field("Exit status"))}


def analyse(out: Path) -> dict:
    """Per folder of ``out``: points, CPU seconds, span and costliest point (see the module)."""
    seen = {}
    for path in out.glob("*/points/*.json"):
        try:
            rec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        end = path.stat().st_mtime
        key = rec.get("checksum") or str(path)
        if key not in seen or end < seen[key][1]:
            seen[key] = (path.parent.parent.name, end, rec)
    folders = {}
    for name, end, rec in seen.values():
        f = folders.setdefault(name, {"points": 0, "cpu_s": 0.0, "start": end, "end": end,
                                      "costliest_cpu_s": 0.0, "costliest": None})
        cpu, wall = float(rec.get("cpu_s") or 0), float(rec.get("wall_s") or 0)
        f["points"] += 1
        f["cpu_s"] += cpu
        f["start"] = min(f["start"], end - wall)
        f["end"] = max(f["end"], end)
        if cpu > f["costliest_cpu_s"]:
            f["costliest_cpu_s"], f["costliest"] = cpu, rec.get("params")
    t0 = min((f["start"] for f in folders.values()), default=0.0)
    for f in folders.values():
        f["span_s"] = f["end"] - f["start"]
        f["from_s"], f["to_s"] = f["start"] - t0, f["end"] - t0
        del f["start"], f["end"]
    return folders


def table(folders: dict) -> str:
    rows = ["| folder | points | CPU s | from s | to s | span s | costliest point CPU s |",
            "|---|---|---|---|---|---|---|"]
    for name, f in sorted(folders.items(), key=lambda kv: -kv[1]["cpu_s"]):
        rows.append(f"| {name} | {f['points']} | {f['cpu_s']:.1f} | {f['from_s']:.0f} | "
                    f"{f['to_s']:.0f} | {f['span_s']:.0f} | {f['costliest_cpu_s']:.1f} |")
    total = sum(f["cpu_s"] for f in folders.values())
    rows.append(f"| all | {sum(f['points'] for f in folders.values())} | {total:.1f} | | | | |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("bench-paper-reproduction"))
    ap.add_argument("--analyse", type=Path, metavar="DIR",
                    help="only analyse the records of a finished reproduction in DIR")
    a = ap.parse_args()
    report = {}
    out = (a.analyse or a.out).resolve()
    if a.analyse is None:
        out.mkdir(parents=True, exist_ok=True)
        timing = out / "time-reproduce.txt"
        report["load_before"] = os.getloadavg()
        t0 = time.monotonic()
        rc = subprocess.call(["/usr/bin/time", "-v", "-o", str(timing), str(ROOT / "testbed"),
                              "reproduce", "--scale", "paper", "--jobs", str(a.jobs), "--out",
                              str(out)])
        report["wall_s"] = time.monotonic() - t0
        report["exit"] = rc
        report["reproduce"] = _time_v(timing.read_text())
    folders = analyse(out)
    report["folders"] = folders
    print(table(folders))
    print(json.dumps({k: v for k, v in report.items() if k != "folders"}, indent=1))
    (out / "bench-report.json").write_text(json.dumps(report, indent=1) + "\n")
    return 0 if report.get("exit", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
