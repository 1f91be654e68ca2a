#!/usr/bin/env python3
"""The two-way step's increment over the one-way step per reading of pRTI's serial structure
(doc/rti.rst, 'Threads and write order'), split into bytes and serial processing.

For each configuration (the nominal one, thread hand-offs, the CRC's write order remote first or
local first, wake-up preemption between the processes of a PC, peer-b over loopback TCP, the
CRC's TSO bookkeeping by counts on each request or by a note per TSO message read) K is
refitted on Fig. 4's beta (jaxa06.calibrate_k, the calibration's procedure),
then the one-way and the two-way benchmark run at 128 kbit/s, 1 Mbit/s and 20 Mbit/s with
64-byte data. The increment is two-way minus one-way. Its bytes part is the increment of the same
configuration with the RTI's own processing at zero (K = 0, no cost variation, no collections,
no hand-offs; the hosts' socket and receive-path costs stay): what the extra messages and TCP
segments cost on the wire and in the kernels. The rest is the RTI's serial processing. Prints
one table; changes nothing.

    ./testbed python bench/jaxa-twoway-structure.py [--reps 2] [--exchanges 300] [--no-refit]
"""

import argparse
import sys

from testbed import EXAMPLES_DIR
from testbed.runner import run_program_json
from testbed.experiments import jaxa06 as J

CONFIGS = {
    "nominal": {},
    "handoffs": {"ns3::RtiSettings::ThreadHandoffCost": str(J.HANDOFF_CYCLES)},
    "remote-first": {"ns3::RtiSettings::WriteOrder": "RemoteFirst"},
    "local-first": {"ns3::RtiSettings::WriteOrder": "LocalFirst"},
    "wakeup-preemption": {"ns3::HostCpu::WakeUpPreemption": "true"},
    "loopback-tcp": {"ns3::RtiSettings::LocalPath": "LoopbackTcp"},
    "tso-counts": {"ns3::RtiSettings::TsoBookkeeping": "Counts"},
    "tso-read-notes": {"ns3::RtiSettings::TsoBookkeeping": "ReadNotes"},
}
#: The RTI's own processing off (the bytes-only counterfactual).
NO_PROCESSING = ("CostVariation=0;EdenSize=0;ThreadHandoffCost=0;" + J.rti_costs(0))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--exchanges", type=int, default=300)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--no-refit", action="store_true", help="keep the profile's K (or --k)")
    p.add_argument("--k", type=float, default=None, help="K without a refit (cycles)")
    p.add_argument("--configs", default=",".join(CONFIGS))
    args = p.parse_args()
    if not (EXAMPLES_DIR / "jaxa-benchmark").exists():
        sys.exit("build first (./testbed build)")
    print("| configuration | K (cycles) | bandwidth | one-way ms | two-way ms | increment ms | "
          "bytes part ms | bytes share | serial-processing share |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.configs.split(","):
        options = CONFIGS[name]
        if args.no_refit:
            k = args.k if args.k is not None else J._profile_k()
        else:
            fit = J.calibrate_k(J._profile_k(), round(1.2 * J._profile_k(), -2), options=options,
                                per_federate=False, reps=1, exchanges=args.exchanges,
                                jobs=args.jobs, tolerance_ms=0.01)
            k = fit["value"]
        for bw in J.BIDIR_BW:
            t = {}
            for mode in ("sync", "bidir"):
                for label, rti_set in (("full", J.rti_costs(k, per_federate=False)),
                                       ("bytes", NO_PROCESSING)):
                    params = {"mode": mode, "bandwidth": J.BW[bw][0], "dataSize": 64,
                              "reps": args.reps, "exchanges": args.exchanges,
                              "rtiSet": rti_set}
                    # the bytes run has no hand-offs (processing); the write order stays
                    opts = options if label == "full" else {
                        o: v for o, v in options.items() if not o.endswith("ThreadHandoffCost")}
                    t[(mode, label)] = run_program_json(J.PROGRAM, params, options=opts)[
                        "time_per_exchange_ms"]
            inc = t[("bidir", "full")] - t[("sync", "full")]
            inc_b = t[("bidir", "bytes")] - t[("sync", "bytes")]
            share = inc_b / inc if inc else float("nan")
            print(f"| {name} | {k:.0f} | {bw} | {t[('sync', 'full')]:.4f} | "
                  f"{t[('bidir', 'full')]:.4f} | {inc:.4f} | {inc_b:.4f} | {share:.2f} | "
                  f"{1 - share:.2f} |", flush=True)


if __name__ == "__main__":
    main()
