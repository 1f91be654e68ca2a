#!/usr/bin/env python3
"""Differential check: the snooping switch model against the Linux kernel bridge.

One scenario, run twice with the same shortened timers:

  * Linux: a bridge with mcast_snooping 1 and mcast_querier 1 (IGMPv2 querier) in the root
    namespace; hosts h0..h3 and a sender in network namespaces on veth ports; hosts join and
    leave with IP_ADD/DROP_MEMBERSHIP (kernel IGMPv2, force_igmp_version=2); the "silent" host
    sends one IGMPv2 report through a raw socket and never answers a query, so its membership
    times out; each host records the multicast UDP frames reaching its interface.
  * Simulation: examples/mcast-bridge-diff (SnoopingBridgeNetDevice + IgmpL4Protocol querier
    and hosts, same timers and plan).

The forwarding sets (which host receives which group's traffic) are sampled every 0.1 s on both
sides; they must agree except within --tolerance seconds of a change, and every (host, group)
must change the same number of times on both sides.

Exit status: 0 agree, 1 disagree, 77 skipped (not root / no netns / no bridge), 2 error.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mcast_netns as mn  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[1]
G = ["239.1.1.1", "239.1.1.2", "239.1.1.3"]
HOSTS = 4
# (time s, host, action, group): h0, h1 join G1; h2 joins G2; h3 sends one report for G3 and
# falls silent (its membership must time out); h1 also joins G2; h0 leaves G1 (h1 stays).
PLAN = [
    (2.0, 0, "join", G[0]),
    (2.0, 1, "join", G[0]),
    (2.0, 2, "join", G[1]),
    (2.0, 3, "silent", G[2]),
    (4.0, 1, "join", G[1]),
    (6.0, 0, "leave", G[0]),
]
TIMERS = dict(query_interval=3.0, query_response_interval=1.0, last_member_interval=1.0,
              last_member_count=2, startup_query_count=2, startup_query_interval=0.75,
              membership_interval=8.0, querier_interval=7.0)
END = 16.0
SEND_START = 1.0
# Linux treats its own querier as present only some seconds after the bridge comes up (and
# floods all multicast until then); both sides therefore run WARMUP seconds before time 0.
WARMUP = 12.0
PERIOD = 0.1


def cs(seconds):
    return str(int(round(seconds * 100)))


def run_linux(workdir):
    opts = ["mcast_snooping", "1", "mcast_querier", "1", "mcast_query_use_ifaddr", "1",
            "mcast_igmp_version", "2",
            "mcast_query_interval", cs(TIMERS["query_interval"]),
            "mcast_query_response_interval", cs(TIMERS["query_response_interval"]),
            "mcast_last_member_interval", cs(TIMERS["last_member_interval"]),
            "mcast_last_member_count", str(TIMERS["last_member_count"]),
            "mcast_startup_query_count", str(TIMERS["startup_query_count"]),
            "mcast_startup_query_interval", cs(TIMERS["startup_query_interval"]),
            "mcast_membership_interval", cs(TIMERS["membership_interval"]),
            "mcast_querier_interval", cs(TIMERS["querier_interval"])]
    names = [f"h{i}" for i in range(HOSTS)] + ["src"]
    lan = mn.BridgeLan(names, opts, force_igmp_version=2)
    procs = []
    try:
        lan.bridge_up()
        start = time.monotonic() + WARMUP
        for i in range(HOSTS):
            acts = []
            for t, h, what, g in PLAN:
                if h == i:
                    acts.append(f"{t}:{'rawreport' if what == 'silent' else what}:{g}")
            procs.append(lan.agent(f"h{i}", start, END, acts, record=str(workdir / f"linux-h{i}.txt")))
        procs.append(lan.agent("src", start, END, [f"{SEND_START}:send:{'+'.join(G)}:{PERIOD}"]))
        for p in procs:
            p.wait()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        lan.teardown()
    rx = []
    for i in range(HOSTS):
        for line in (workdir / f"linux-h{i}.txt").read_text().splitlines():
            t, g = line.split()
            rx.append((float(t), i, g))
    return rx


def run_sim(build, workdir):
    exe = build / "examples" / "mcast-bridge-diff"
    if not exe.exists():
        raise SystemExit(f"{exe} not built (./testbed build)")
    out = workdir / "sim.csv"
    actions = ";".join(f"{t + WARMUP}:{what}:{h}:{g}" for t, h, what, g in PLAN)
    subprocess.run([str(exe), f"--hosts={HOSTS}", f"--groups={','.join(G)}", f"--actions={actions}",
                    f"--out={out}", f"--period={PERIOD}", f"--sendStart={SEND_START + WARMUP}",
                    f"--stop={END + WARMUP}", "--unregistered=RouterPorts",
                    f"--queryInterval={TIMERS['query_interval']}",
                    f"--queryResponseInterval={TIMERS['query_response_interval']}",
                    f"--lmqi={TIMERS['last_member_interval']}", f"--lmqc={TIMERS['last_member_count']}",
                    f"--startupCount={TIMERS['startup_query_count']}",
                    f"--startupInterval={TIMERS['startup_query_interval']}",
                    f"--membershipInterval={TIMERS['membership_interval']}",
                    f"--routerPortTimeout={TIMERS['querier_interval']}"], check=True)
    rx = []
    for line in out.read_text().splitlines():
        t, h, g = line.split(",")
        rx.append((float(t) - WARMUP, int(h), g))
    return rx


def presence(rx, samples, window=0.25):
    """{(host, group): [bool per sample]}: a frame arrived in (t - window, t]."""
    by = {}
    for t, h, g in rx:
        by.setdefault((h, g), []).append(t)
    res = {}
    for h in range(HOSTS):
        for g in G:
            ts = sorted(by.get((h, g), []))
            res[(h, g)] = [any(s - window < x <= s for x in ts) for s in samples]
    return res


def flips(seq, samples):
    return [samples[i] for i in range(1, len(seq)) if seq[i] != seq[i - 1]]


def compare(lin, sim, samples, tol):
    ok = True
    report = []
    for key in sorted(lin):
        fl, fs = flips(lin[key], samples), flips(sim[key], samples)
        bad = []
        for i, s in enumerate(samples):
            if lin[key][i] != sim[key][i] and not any(abs(s - f) <= tol for f in fl + fs):
                bad.append(round(s, 2))
        agree = not bad and len(fl) == len(fs)
        ok = ok and agree
        report.append(dict(host=f"h{key[0]}", group=key[1], linux_changes=[round(x, 2) for x in fl],
                           sim_changes=[round(x, 2) for x in fs], disagree_at=bad, agree=agree))
    return ok, report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.environ.get("TESTBED_BUILD_DIR", str(REPO / "build")))
    ap.add_argument("--tolerance", type=float, default=0.6, help="seconds around a change (default 0.6)")
    ap.add_argument("--json", help="write the comparison here")
    a = ap.parse_args()
    why = mn.unavailable()
    if why:
        print(f"SKIP: {why}")
        return mn.SKIP
    with tempfile.TemporaryDirectory(prefix="tbmc-diff-") as d:
        work = pathlib.Path(d)
        sim = run_sim(pathlib.Path(a.build), work)
        lin = run_linux(work)
    samples = [round(SEND_START + 0.3 + 0.1 * k, 3) for k in range(int((END - SEND_START - 0.6) / 0.1))]
    ok, report = compare(presence(lin, samples), presence(sim, samples), samples, a.tolerance)
    print(f"{'host':5} {'group':10} {'Linux changes (s)':32} {'simulation changes (s)':32} agree")
    for r in report:
        print(f"{r['host']:5} {r['group']:10} {str(r['linux_changes']):32} {str(r['sim_changes']):32} "
              f"{'yes' if r['agree'] else 'NO ' + str(r['disagree_at'])}")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(dict(plan=PLAN, timers=TIMERS, ok=ok, rows=report), indent=1))
    print("forwarding sets agree" if ok else "forwarding sets DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
