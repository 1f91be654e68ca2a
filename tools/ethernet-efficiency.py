#!/usr/bin/env python3
"""The IEEE 802.3 model's efficiency validation plot (doc/ethernet.rst).

Runs examples/ethernet/ethernet-saturation over frame sizes 64..1518 octets and 2..32 stations
on a 100 Mbit/s hub, writes the table (CSV) and the figure (efficiency against stations, one line
per frame size, with Metcalfe and Boggs's prediction and the framing bound), drawn by gnuplot
through ns-3's Gnuplot class.

    ./testbed python tools/ethernet-efficiency.py [--out build/doc/ethernet] [--seconds 1]
"""

import argparse
import csv
import json
import subprocess
from pathlib import Path

from testbed import EXAMPLES_DIR, ROOT
from testbed.experiment import Figure, Series
from testbed.plot import render

PAYLOADS = [46, 110, 238, 494, 1006, 1500]  # frames of 64, 128, 256, 512, 1024, 1518 octets
STATIONS = [2, 4, 8, 16, 32]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=ROOT / "build" / "doc" / "ethernet")
    p.add_argument("--seconds", default="1")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for payload in PAYLOADS:
        for n in STATIONS:
            r = subprocess.run([str(EXAMPLES_DIR / "ethernet-saturation"), f"--stations={n}",
                                f"--payload={payload}", f"--seconds={args.seconds}s",
                                "--output=-"], capture_output=True, text=True, check=True)
            rows.append(json.loads(r.stdout))
            print(f"frame {payload + 18:5d} stations {n:3d}: efficiency "
                  f"{rows[-1]['efficiency']:.3f} (Metcalfe-Boggs {rows[-1]['metcalfe_boggs']:.3f})")
    with open(args.out / "efficiency.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    series = []
    for payload in PAYLOADS:
        sel = [r for r in rows if r["frame_octets"] == payload + 18]
        series.append(Series(f"{payload + 18} octets, model", STATIONS,
                             [r["efficiency"] for r in sel], style="linespoints"))
        series.append(Series(f"{payload + 18} octets, Metcalfe-Boggs", STATIONS,
                             [r["metcalfe_boggs"] for r in sel], style="lines"))
    fig = Figure(name="efficiency", title="IEEE 802.3 CSMA/CD: saturated stations on a hub",
                 xlabel="stations", ylabel="channel efficiency", series=series, logx=True,
                 xrange=(1.5, 40), yrange=(0, 1), extra=["set key bottom left"])
    print(render(fig, args.out))


if __name__ == "__main__":
    main()
