"""The script that made test/data/linux-igmp.pcap still works, and the fixture is what it says.

tools/linux-igmp-fixture.py captures the IGMP of Linux hosts and a Linux snooping bridge in
network namespaces. Regenerating it needs root and network namespaces (skipped otherwise); the
committed fixture is then read by the C++ suite testbed-igmp-linux-fixture.
"""

import shutil
import subprocess
import sys

import pytest

from mcast_common import REPO

# Both namespace scenarios put a bridge with the same subnet (tools/mcast_netns.py) into the root
# namespace: under pytest-xdist (./testbed test) they run one after the other on one worker.
pytestmark = pytest.mark.xdist_group("netns")


def igmp_types(pcap):
    out = subprocess.run(
        ["tshark", "-n", "-r", str(pcap), "-T", "fields", "-e", "igmp.version", "-e", "igmp.type"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {tuple(line.split("\t")) for line in out.splitlines() if line}


@pytest.fixture(scope="module")
def tshark():
    if shutil.which("tshark") is None:
        pytest.skip("tshark is not installed")


def test_committed_fixture_holds_v2_and_v3_messages(tshark):
    kinds = igmp_types(REPO / "test" / "data" / "linux-igmp.pcap")
    for k in [("3", "0x11"), ("3", "0x22"), ("2", "0x11"), ("2", "0x16"), ("2", "0x17")]:
        assert k in kinds, f"fixture lacks IGMPv{k[0]} type {k[1]}: {sorted(kinds)}"


def test_fixture_script_regenerates(tshark, tmp_path):
    out = tmp_path / "linux-igmp.pcap"
    r = subprocess.run(
        [sys.executable, str(REPO / "tools" / "linux-igmp-fixture.py"), f"--out={out}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if r.returncode == 77:
        pytest.skip(r.stdout.strip())
    assert r.returncode == 0, r.stdout + r.stderr
    kinds = igmp_types(out)
    assert ("3", "0x22") in kinds and ("2", "0x17") in kinds, sorted(kinds)
