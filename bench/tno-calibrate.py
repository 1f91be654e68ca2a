#!/usr/bin/env python3
"""Calibrate the per-operation cost K of TNO03's RTIs on their configurations' low-frequency
latency (doc/tno.rst, "Calibration"): tno-rti (the upper layers RTI-DM and RTI-SM share) on
2's 450 us, the 1.3NG-like RTI on 1a's 2900 us. --relay: tno-rti's K with the RCI's ActionCost
and ReflectCost (2's knee and highest frequency, at their positions in the intervals those
identify), refitted together.

The procedures are testbed.experiments.tno03.calibrate_k and calibrate_relay, the ones that
./testbed sensitivity runs for every sample (doc/sensitivity.rst): no second copy. Prints the
values to put in model/rti/rti-profiles.cc and examples/tno03/tno-lan.h; it changes nothing.

    ./testbed python bench/tno-calibrate.py [--rti tno-rti] [--relay] [--profileFile FILE]
"""

import argparse
import sys

from testbed import EXAMPLES_DIR
from testbed.experiments import tno03


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rti", choices=sorted(tno03.K_CALIBRATION), action="append",
                   help="the RTI profile(s) to calibrate (default: all)")
    p.add_argument("--profileFile", default=None,
                   help="host/RTI profiles replacing the built-in ones (a proposed change)")
    p.add_argument("--tolerance", type=float, default=0.5, help="percent of the target")
    p.add_argument("--relay", action="store_true",
                   help="configuration 2's three calibrations together (tno03.calibrate_relay)")
    args = p.parse_args()
    if not (EXAMPLES_DIR / "tno-pipeline").exists():
        sys.exit("build first (./testbed build)")
    if args.relay:
        res = tno03.calibrate_relay(args.profileFile, log=print)
        s = res["sweep"]
        print(f"tno-rti: K = {res['k']['value']} cycles; "
              + ", ".join(f"{o} = {v:.0f} (interval {res['intervals'][o]})"
                          for o, v in res["rci"].items())
              + f": 2 gives {s['latency_us']:.1f} us, knee {s['knee_hz']} Hz, highest "
              f"{s['max_hz']} Hz (measured 450 us, 2 500 Hz, 3 900 Hz; {res['rounds']} rounds)")
        return 0
    for rti in args.rti or sorted(tno03.K_CALIBRATION):
        config, target, _ = tno03.K_CALIBRATION[rti]
        res = tno03.calibrate_k(rti, args.profileFile, None, args.tolerance, log=print)
        print(f"{rti}: K = {res['value']} cycles gives {config} {res['achieved']:.1f} us "
              f"(measured {target:g} us; {res['iterations']} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
