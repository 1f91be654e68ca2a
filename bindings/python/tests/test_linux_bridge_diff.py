"""Differential check against the Linux kernel bridge (tools/linux-bridge-diff.py).

Runs one scenario (an IGMPv2 querier, 4 hosts, 3 groups, joins, a leave, a host that falls
silent until its membership times out) on a real Linux bridge with mcast_snooping in network
namespaces and in the simulation; the forwarding sets over time must agree. Needs root and
network namespaces; skipped with the script's reason otherwise.
"""

import os
import subprocess
import sys

import pytest

from mcast_common import BUILD, REPO, example

# Both namespace scenarios put a bridge with the same subnet (tools/mcast_netns.py) into the root
# namespace: under pytest-xdist (./testbed test) they run one after the other on one worker.
pytestmark = pytest.mark.xdist_group("netns")


def test_forwarding_sets_agree_with_linux_bridge(tmp_path):
    example("mcast-bridge-diff")
    script = REPO / "tools" / "linux-bridge-diff.py"
    r = subprocess.run(
        [sys.executable, str(script), f"--build={BUILD}", f"--json={tmp_path / 'diff.json'}"],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, TESTBED_BUILD_DIR=str(BUILD)),
    )
    if r.returncode == 77:
        pytest.skip(r.stdout.strip() or "linux-bridge-diff skipped")
    assert r.returncode == 0, f"forwarding sets differ from the Linux bridge:\n{r.stdout}\n{r.stderr}"
    assert "forwarding sets agree" in r.stdout
