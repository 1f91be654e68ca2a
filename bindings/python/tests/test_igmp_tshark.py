"""Every IGMP message the model emits is dissected by tshark without warnings.

examples/igmp-pcap makes the IGMPv2 and IGMPv3 hosts and queriers emit every message they can
send (queries: general, group-specific, group-and-source-specific; reports v1/v2/v3 with all six
record types; leaves) onto a shared segment that a passive node captures. tshark (Debian's
package, which CI installs) must find no malformed packet, no expert warning, good IPv4 and IGMP
checksums, TTL 1, the Router Alert option, and the RFC destination addresses.
"""

import shutil
import subprocess

import pytest

from mcast_common import example

FIELDS = [
    "frame.number",
    "ip.ttl",
    "ip.opt.type",
    "ip.checksum.status",
    "ip.dst",
    "igmp.version",
    "igmp.type",
    "igmp.checksum.status",
    "igmp.maddr",
    "igmp.num_src",
    "igmp.record_type",
]


def tshark(*args):
    return subprocess.run(
        ["tshark", "-n", "-o", "ip.check_checksum:TRUE", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture(scope="module")
def pcaps(tmp_path_factory):
    if shutil.which("tshark") is None:
        pytest.skip("tshark is not installed (Debian package tshark; ./testbed setup installs it)")
    out = tmp_path_factory.mktemp("igmp")
    subprocess.run([str(example("igmp-pcap")), f"--prefix={out}/igmp"], check=True)
    files = {v: out / f"igmp-v{v}-0-0.pcap" for v in (2, 3)}
    for f in files.values():
        assert f.exists(), f"{f} not written"
    return files


def rows(pcap):
    text = tshark("-r", str(pcap), "-T", "fields", "-E", "separator=|", *sum((["-e", f] for f in FIELDS), []))
    return [dict(zip(FIELDS, line.split("|"))) for line in text.splitlines() if line]


@pytest.mark.parametrize("version", [2, 3])
def test_no_malformed_or_warnings(pcaps, version):
    verbose = tshark("-r", str(pcaps[version]), "-V")
    assert "IGMP" in verbose
    for bad in ("Malformed", "Expert Info (Warning", "Expert Info (Error", "incorrect", "[Bad"):
        assert bad not in verbose, f"tshark reports '{bad}' in the IGMPv{version} capture"


@pytest.mark.parametrize("version", [2, 3])
def test_ip_layer(pcaps, version):
    rs = rows(pcaps[version])
    assert len(rs) >= 10
    for r in rs:
        assert r["ip.ttl"] == "1", r
        assert "148" in r["ip.opt.type"].split(","), f"no Router Alert option: {r}"
        assert r["ip.checksum.status"] == "1", f"IPv4 checksum not good: {r}"
        assert r["igmp.checksum.status"] == "1", f"IGMP checksum not good: {r}"


def test_v2_messages(pcaps):
    rs = rows(pcaps[2])
    kinds = set()
    for r in rs:
        t, dst, group = r["igmp.type"], r["ip.dst"], r["igmp.maddr"]
        if t == "0x11":
            kinds.add("general-query" if group == "0.0.0.0" else "group-query")
            assert dst == ("224.0.0.1" if group == "0.0.0.0" else group), r
        elif t in ("0x12", "0x16"):
            kinds.add({"0x12": "v1-report", "0x16": "v2-report"}[t])
            assert dst == group, f"reports go to the group: {r}"
        elif t == "0x17":
            kinds.add("leave")
            assert dst == "224.0.0.2", f"leaves go to all-routers: {r}"
        else:
            pytest.fail(f"unexpected IGMP type {t}")
    assert kinds == {"general-query", "group-query", "v1-report", "v2-report", "leave"}, kinds


def test_v3_messages(pcaps):
    rs = rows(pcaps[3])
    records = set()
    queries = set()
    for r in rs:
        assert r["igmp.version"] == "3", r
        if r["igmp.type"] == "0x22":
            assert r["ip.dst"] == "224.0.0.22", r
            records.update(int(x) for x in r["igmp.record_type"].split(",") if x)
        else:
            assert r["igmp.type"] == "0x11", r
            group = r["igmp.maddr"]
            if group == "0.0.0.0":
                queries.add("general")
                assert r["ip.dst"] == "224.0.0.1", r
            else:
                assert r["ip.dst"] == group, r
                queries.add("group-source" if int(r["igmp.num_src"] or 0) > 0 else "group")
    assert records == {1, 2, 3, 4, 5, 6}, f"record types seen: {sorted(records)}"
    assert queries == {"general", "group", "group-source"}, queries
