"""A Linux bridge with IGMP snooping and hosts in network namespaces (root only).

Used by tools/linux-igmp-fixture.py and tools/linux-bridge-diff.py. Every name carries the
process id, so concurrent runs do not collide; teardown() removes everything it made.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import time

SKIP = 77  # exit status meaning "skipped" (as automake's test drivers use it)
AGENT = pathlib.Path(__file__).resolve().parent / "mcast_agent.py"


def sh(*cmd, check=True, ns=None):
    if ns:
        cmd = ("ip", "netns", "exec", ns) + cmd
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def unavailable():
    """Why this machine cannot run the namespace scenarios, or None."""
    if sys.platform != "linux":
        return "not Linux"
    if os.geteuid() != 0:
        return "needs root (network namespaces, veth, bridge)"
    if shutil.which("ip") is None:
        return "iproute2 (ip) is not installed"
    probe = f"tbmcprobe{os.getpid() % 100000}"
    r = sh("ip", "netns", "add", probe, check=False)
    if r.returncode != 0:
        return f"cannot create a network namespace: {r.stderr.strip()}"
    sh("ip", "netns", "del", probe, check=False)
    br = f"tbp{os.getpid() % 100000}"
    r = sh("ip", "link", "add", br, "type", "bridge", "mcast_snooping", "1", check=False)
    if r.returncode != 0:
        return f"cannot create a Linux bridge with mcast_snooping: {r.stderr.strip()}"
    sh("ip", "link", "del", br, check=False)
    return None


class BridgeLan:
    """br (in the root namespace, address .254, the IGMP querier) + hosts h0..h(n-1) + extras."""

    def __init__(self, names, bridge_opts, force_igmp_version=0, subnet="10.77.0"):
        tag = os.getpid() % 100000
        self.tag = tag
        self.br = f"tbmb{tag}"
        self.subnet = subnet
        self.hosts = {}  # name -> (netns, bridge-side veth, address)
        self.made = []
        try:
            sh("ip", "link", "add", self.br, "type", "bridge", *bridge_opts)
            self.made.append(("link", self.br))
            sh("ip", "addr", "add", f"{subnet}.254/24", "dev", self.br)
            for i, name in enumerate(names):
                ns = f"tbmc{tag}{name}"
                veth = f"tbv{tag}{i}"
                addr = f"{subnet}.{i + 1}"
                sh("ip", "netns", "add", ns)
                self.made.append(("netns", ns))
                sh("ip", "link", "add", veth, "type", "veth", "peer", "name", f"tbp{tag}{i}")
                self.made.append(("link", veth))
                sh("ip", "link", "set", f"tbp{tag}{i}", "netns", ns)
                sh("ip", "link", "set", f"tbp{tag}{i}", "name", "eth0", ns=ns)
                sh("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", ns=ns, check=False)
                sh("sysctl", "-qw", "net.ipv6.conf.default.disable_ipv6=1", ns=ns, check=False)
                if force_igmp_version:
                    sh("sysctl", "-qw", f"net.ipv4.conf.all.force_igmp_version={force_igmp_version}", ns=ns)
                    sh("sysctl", "-qw", f"net.ipv4.conf.default.force_igmp_version={force_igmp_version}", ns=ns)
                sh("ip", "addr", "add", f"{addr}/24", "dev", "eth0", ns=ns)
                sh("ip", "link", "set", "lo", "up", ns=ns)
                sh("ip", "link", "set", "eth0", "up", ns=ns)
                if force_igmp_version:
                    sh("sysctl", "-qw", f"net.ipv4.conf.eth0.force_igmp_version={force_igmp_version}", ns=ns)
                sh("sysctl", "-qw", f"net.ipv6.conf.{veth}.disable_ipv6=1", check=False)
                sh("ip", "link", "set", veth, "master", self.br)
                sh("ip", "link", "set", veth, "up")
                self.hosts[name] = (ns, veth, addr)
        except Exception:
            self.teardown()
            raise

    def bridge_up(self):
        sh("ip", "link", "set", self.br, "up")

    def agent(self, name, start, end, actions, record=None):
        ns, _, addr = self.hosts[name]
        cmd = ["ip", "netns", "exec", ns, sys.executable, str(AGENT), f"--start={start}", f"--end={end}",
               f"--addr={addr}"]
        cmd += [f"--do={a}" for a in actions]
        if record:
            cmd.append(f"--record={record}")
        return subprocess.Popen(cmd)

    def teardown(self):
        for kind, name in reversed(self.made):
            if kind == "link":
                sh("ip", "link", "del", name, check=False)
            else:
                sh("ip", "netns", "del", name, check=False)
        self.made = []


def wait_until(t):
    d = t - time.monotonic()
    if d > 0:
        time.sleep(d)
