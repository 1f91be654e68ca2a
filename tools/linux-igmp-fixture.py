#!/usr/bin/env python3
"""Capture the IGMP messages of real Linux hosts and a real Linux snooping bridge.

Makes test/data/linux-igmp.pcap (the fixture read by the testbed-igmp-linux-fixture test suite):
a bridge with mcast_snooping 1 and mcast_querier 1 (address 10.77.0.254, queries from it) and two
hosts in network namespaces. Captured on host h0's bridge port (tshark, IGMP only):

  phase 1, bridge mcast_igmp_version 3 (v3 queries): h0 joins 239.7.7.1 (TO_EX), joins
  239.7.7.2 for source 10.77.0.99 only (ALLOW/TO_IN), answers the general queries (IS_EX,
  IS_IN), leaves 239.7.7.1 (TO_IN({}) -> group-specific query);
  phase 2, bridge mcast_igmp_version 2 (v2 queries; hosts fall back to v2): h0 joins 239.7.7.3
  (v2 report), leaves it (v2 leave to 224.0.0.2 -> group-specific query).

Usage (root): tools/linux-igmp-fixture.py [--out test/data/linux-igmp.pcap]
Exits 77 with a message when root / network namespaces / tshark are missing.
"""

import argparse
import pathlib
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mcast_netns as mn  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(REPO / "test" / "data" / "linux-igmp.pcap"))
    a = ap.parse_args()
    why = mn.unavailable() or (None if shutil.which("tshark") else "tshark is not installed")
    if why:
        print(f"SKIP: {why}")
        return mn.SKIP
    opts = ["mcast_snooping", "1", "mcast_querier", "1", "mcast_query_use_ifaddr", "1",
            "mcast_igmp_version", "3", "mcast_query_interval", "300", "mcast_query_response_interval", "100",
            "mcast_startup_query_interval", "100", "mcast_last_member_interval", "100"]
    lan = mn.BridgeLan(["h0", "h1"], opts)
    cap = None
    try:
        tmp = pathlib.Path(a.out).with_suffix(".tmp.pcap")
        _, veth, _ = lan.hosts["h0"]
        cap = subprocess.Popen(["tshark", "-q", "-i", veth, "-f", "igmp", "-F", "pcap", "-w", str(tmp)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2.5)  # tshark start-up
        start = time.monotonic() + 0.5
        lan.bridge_up()
        h0 = lan.agent("h0", start, 9.0, ["1:join:239.7.7.1", "2:sjoin:239.7.7.2/10.77.0.99", "7:leave:239.7.7.1"])
        h0.wait()
        subprocess.run(["ip", "link", "set", lan.br, "type", "bridge", "mcast_igmp_version", "2"], check=True)
        start2 = time.monotonic()
        h0b = lan.agent("h0", start2, 8.0, ["4:join:239.7.7.3", "6:leave:239.7.7.3"])
        h0b.wait()
        time.sleep(1.0)
    finally:
        if cap:
            cap.terminate()
            cap.wait()
        lan.teardown()
    tmp.replace(a.out)
    print(f"wrote {a.out}")
    subprocess.run(["tshark", "-n", "-r", a.out], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
