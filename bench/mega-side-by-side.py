#!/usr/bin/env python3
"""The MEGA06 switch path against stock ns-3 (BridgeNetDevice over CSMA), side by side.

Runs build/bench/mega-side-by-side on the same senders and receivers (S sender hosts x N virtual
senders, R receivers, one switch, 100 Mbit/s links; the module side on MEGA06's full-duplex
links) in four configurations:
- module: the module's path as MEGA06 runs it (--rx=nic: the receivers' NIC models hand the
  datagrams to the program without ns-3's IPv4/UDP; their CPU work is simulated);
- module, stack receivers (--rx=stack): the same, but the receivers read a UDP socket through
  ns-3's IPv4/UDP, as on the stock side (shows what the receive path is worth);
- stock: ns-3 as released (BridgeNetDevice over CSMA, DefaultSimulatorImpl with MapScheduler);
- stock, lean core: the same on the module's simulator core (shows what the core is worth).
It prints per configuration link-hops and delivered frames per wall and CPU second, events, peak
RSS, and the ratios module / stock (the issue's bar: module against stock ns-3 as released; also
against the stock side on the lean core). Memory per sender: the difference of the peak RSS of runs with N and
2N virtual senders per host, divided by the added senders. Timings on a shared machine are
noisy: the events and hops are exact, compare the ratios of one run.

    .venv/bin/python bench/mega-side-by-side.py [--nodes 5000] [--seconds 20] [--out FILE]
"""

import argparse
import json
import os
from pathlib import Path

from benchutil import emit, measure

ROOT = Path(__file__).resolve().parents[1]


CONFIGS = {
    "module": ("module", "nic", "lean"),
    "module, stack receivers": ("module", "stack", "lean"),
    "stock": ("stock", "stack", "ns3"),
    "stock, lean core": ("stock", "stack", "lean"),
}


def run(exe, config, senders, nodes, receivers, seconds):
    side, rx, core = CONFIGS[config]
    args = [str(exe), f"--side={side}", f"--rx={rx}", f"--core={core}", f"--senders={senders}",
            f"--nodes={nodes}", f"--receivers={receivers}", f"--seconds={seconds}"]
    out, wall, usage = measure(args)
    r = json.loads(out.strip().splitlines()[-1])
    r["cpu_s"] = usage.ru_utime + usage.ru_stime
    r["maxrss_mb"] = usage.ru_maxrss / 1024
    r["total_wall_s"] = wall
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--senders", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--receivers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    exe = Path(a.build) / "bench" / "mega-side-by-side"
    res = {}
    for config in CONFIGS:
        big = run(exe, config, a.senders, 2 * a.nodes, a.receivers, 2.0)
        small = run(exe, config, a.senders, a.nodes, a.receivers, 2.0)
        r = run(exe, config, a.senders, a.nodes, a.receivers, a.seconds)
        r["bytes_per_sender"] = ((big["maxrss_mb"] - small["maxrss_mb"]) * 2**20
                                 / (a.senders * a.nodes))
        r["hops_per_wall_s"] = r["hops"] / r["wall_s"]
        r["delivered_per_wall_s"] = r["delivered"] / r["wall_s"]
        r["hops_per_cpu_s"] = r["hops"] / r["cpu_s"]
        r["delivered_per_cpu_s"] = r["delivered"] / r["cpu_s"]
        res[config] = r
    lines = [
        f"{a.senders} sender hosts x {a.nodes} virtual senders (1 datagram/s each), "
        f"{a.receivers} receivers, one switch, 100 Mbit/s links (module side: full duplex), "
        f"{a.seconds:g} s simulated; "
        f"load average {os.getloadavg()[0]:.1f} at the end (2 shared cores).",
        "",
        "| side | wall s | CPU s | events | link-hops | hops/wall s | delivered | "
        "delivered/wall s | events/hop | bytes/sender | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for config, r in res.items():
        lines.append(f"| {config} | {r['wall_s']:.1f} | {r['cpu_s']:.2f} | {r['events']:,} | "
                     f"{r['hops']:,} | {r['hops_per_wall_s']:,.0f} | {r['delivered']:,} | "
                     f"{r['delivered_per_wall_s']:,.0f} | {r['events'] / r['hops']:.2f} | "
                     f"{r['bytes_per_sender']:.0f} | {r['maxrss_mb']:.0f} |")
    lines.append("")
    for mod, ref in (("module", "stock"), ("module", "stock, lean core"),
                     ("module, stack receivers", "stock")):
        m, s = res[mod], res[ref]
        lines.append(
            f"{mod} / {ref}: link-hops per CPU second {m['hops_per_cpu_s'] / s['hops_per_cpu_s']:.2f}x"
            f" (per wall second {m['hops_per_wall_s'] / s['hops_per_wall_s']:.2f}x), frames "
            f"delivered per CPU second {m['delivered_per_cpu_s'] / s['delivered_per_cpu_s']:.2f}x "
            f"(per wall second {m['delivered_per_wall_s'] / s['delivered_per_wall_s']:.2f}x); "
            f"events per hop {m['events'] / m['hops']:.2f} vs {s['events'] / s['hops']:.2f}.")
    emit(lines, a.out)


if __name__ == "__main__":
    main()
