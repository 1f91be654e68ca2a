"""bench/mega-side-by-side: its four configurations carry the same datagrams.

The bench compares the module's path (snooping switch, full-duplex links, the receivers' NIC
models handing the group's datagrams to the program without ns-3's IPv4/UDP) with stock ns-3
(BridgeNetDevice over CSMA, ns-3's own simulator core). A speed ratio means something only if
every configuration does the same work, so this checks the conservation law behind it: the same
senders' datagrams reach the same receivers, each datagram once per receiver, whichever path
and core carries them; and the hops follow from the topology (a snooping switch sends a group
frame to its members only, a bridge floods it to every other port)."""

import json
import subprocess

import pytest

from mcast_common import BUILD

BENCH = BUILD / "bench" / "mega-side-by-side"
SENDERS, NODES, RECEIVERS = 2, 40, 3


def _run(*args):
    r = subprocess.run([str(BENCH), f"--senders={SENDERS}", f"--nodes={NODES}",
                        f"--receivers={RECEIVERS}", "--seconds=4", *args],
                       capture_output=True, text=True, timeout=300)
    return r


@pytest.fixture(scope="module")
def runs():
    if not BENCH.exists():
        pytest.fail(f"{BENCH} is missing: ./testbed build builds bench/")
    out = {}
    for name, args in {"module-nic": ("--side=module", "--rx=nic"),
                       "module-stack": ("--side=module", "--rx=stack"),
                       "stock-ns3": ("--side=stock", "--core=ns3"),
                       "stock-lean": ("--side=stock", "--core=lean")}.items():
        r = _run(*args)
        assert r.returncode == 0, r.stderr
        out[name] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def test_every_configuration_delivers_the_same_datagrams(runs):
    delivered = {k: v["delivered"] for k, v in runs.items()}
    assert len(set(delivered.values())) == 1, delivered
    # Each virtual sender sends one datagram per second from 0.5 s on, at a random phase: over
    # 3.5 s each sends 3 or 4 of them, and each reaches every receiver once.
    n = delivered["module-nic"]
    assert RECEIVERS * SENDERS * NODES * 3 <= n <= RECEIVERS * SENDERS * NODES * 4
    assert n % RECEIVERS == 0


def test_hops_follow_the_topology(runs):
    # Per data datagram: one hop to the switch, then one per member port (snooping) or per
    # other port (flooding: the other sender and the receivers). The few IGMP frames differ.
    datagrams = runs["module-nic"]["delivered"] // RECEIVERS
    module = runs["module-nic"]["hops"]
    stock = runs["stock-ns3"]["hops"]
    assert module == runs["module-stack"]["hops"]
    assert stock == runs["stock-lean"]["hops"]
    assert 0 <= module - datagrams * (1 + RECEIVERS) < 50
    assert 0 <= stock - datagrams * (1 + RECEIVERS + SENDERS - 1) < 50


def test_the_nic_path_is_the_module_sides_only():
    r = _run("--side=stock", "--rx=nic")
    assert r.returncode == 2
    assert "--rx=nic" in r.stderr
