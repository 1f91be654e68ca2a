#!/usr/bin/env python3
"""Calibrate the RTI's two physical knobs on [JAXA06]'s calibration numbers (doc/rti.rst).

1. EncodingHeaderSize H (bytes): alpha of the synchronised (Fig. 4) and asynchronous (Fig. 7)
   benchmarks grows linearly with H (3 messages per step vs 1 per update); H is chosen to fit
   both measured alphas (least squares of the relative errors), at zero processing cost.
2. The per-operation cost K (CPU cycles of one RTI operation: call, callback, encode, decode,
   routing step, time-management evaluation; per federate K/10; 1 cycle per byte encoded or
   decoded): beta of Fig. 4 grows linearly with K; K is chosen so that beta = the measured one.

alpha and beta are measured exactly as in the experiments (testbed.experiments.jaxa06: the
crossing-point method over 128k, 512k, 1M, 10M). The host profiles are main's unless --hostSet
changes them (for a calibration against a proposed host change). Prints the values to put in
model/rti/rti-profile.cc; it changes nothing itself.

    ./testbed python bench/rti-calibrate.py [--hostSet "HostNic.InterruptDelay=50us"] [--exchanges 300]
"""

import argparse
import sys

from testbed import EXAMPLES_DIR
from testbed.experiments import jaxa06 as J

CAL = J._calibration()


def measure(args, mode, h, k):
    """alpha, beta by the experiments' crossing-point method (testbed.experiments.jaxa06, the
    procedure shared with the sensitivity analysis's recalibration)."""
    alpha, beta, frac = J.crossing_alpha_beta(
        mode, f"EncodingHeaderSize={h};" + J.rti_costs(k), args.hostSet, reps=args.reps,
        exchanges=args.exchanges, jobs=args.jobs)
    print(f"  {mode:5s} H={h:3d} K={k:7.0f}: alpha {alpha:6.1f} B  beta {beta:.3f} ms  "
          f"rate {100 * frac:.1f} %", flush=True)
    return alpha, beta


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hostSet", default="", help="host parameter changes (see the programs)")
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--exchanges", type=int, default=300)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--k1", type=float, default=50000, help="second K of the beta line")
    args = p.parse_args()
    if not (EXAMPLES_DIR / "jaxa-benchmark").exists():
        sys.exit("build first (./testbed build)")
    print("1. header size H from the two alphas (K = 0)")
    h0, h1 = 16, 80
    s0, _ = measure(args, "sync", h0, 0)
    s1, _ = measure(args, "sync", h1, 0)
    a0, _ = measure(args, "async", h0, 0)
    a1, _ = measure(args, "async", h1, 0)
    ds, da = (s1 - s0) / (h1 - h0), (a1 - a0) / (h1 - h0)
    ts, ta = CAL["sync_alpha_bytes"], CAL["async_alpha_bytes"]
    # minimise ((s0 + ds x - ts)/ts)^2 + ((a0 + da x - ta)/ta)^2, x = H - h0
    num = ds / ts * (ts - s0) / ts + da / ta * (ta - a0) / ta
    den = (ds / ts) ** 2 + (da / ta) ** 2
    h = max(16, min(255, round(h0 + num / den)))
    print(f"   alpha_sync = {s0:.1f} + {ds:.3f} (H - 16), alpha_async = {a0:.1f} + {da:.3f} "
          f"(H - 16)  ->  H = {h}")
    print("2. per-operation cost K from beta_sync")
    # beta is not exactly linear in K (part of the work hides behind transmissions at low
    # bandwidth): secant steps from K = 0 and --k1 (jaxa06.calibrate_k, the procedure the
    # sensitivity analysis refits K with per sample).
    fit = J.calibrate_k(0, args.k1, header=h, host_set=args.hostSet, log=print, reps=args.reps,
                        exchanges=args.exchanges, jobs=args.jobs)
    k = fit["value"]
    print(f"   K = {k:.0f} cycles: beta_sync {fit['achieved']:.4f} ms (target "
          f"{CAL['sync_beta_ms']} ms)")
    print("3. check")
    measure(args, "sync", h, k)
    measure(args, "async", h, k)
    print(f"\nmodel/rti/rti-profile.cc: EncodingHeaderSize={h}, K={k:.0f} cycles "
          f"({k / 3e3:.1f} us at 3 GHz)")


if __name__ == "__main__":
    main()
