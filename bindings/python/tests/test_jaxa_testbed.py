"""System checks of the JAXA06 testbed programs against hand-derived expectations."""

import subprocess

import pytest

from testbed import EXAMPLES_DIR
from programs import run_program as _run

RTC_TICK_MS = 1000.0 / 8192
#: The kernels' timer interrupts off (pc2006-linux26: HZ 1000, nistnet-linux24: HZ 100), for
#: checks to the nanosecond of the paths without them.
NO_TICK = "HostCpu.InterferenceRate=0"
#: The longest tick handler of both profiles (ms).
TICK_MAX_MS = 3.2e-3


def test_ping_delay_adds_twice_the_setting_plus_rtc_quantisation(tmp_path):
    """RTT(d) - RTT(0) lies in [2d, 2d + 2 RTC ticks]: NIST Net delays each direction by d and
    releases a delayed packet on the first tick of its 8192 Hz clock after that."""
    base = _run("jaxa-table2", tmp_path, delay="0ms", count=5, hostSet=NO_TICK)["rtt_mean_ms"]
    for d in (5, 50):
        rtts = _run("jaxa-table2", tmp_path, delay=f"{d}ms", count=20, RngRun=3,
                    hostSet=NO_TICK)["rtt_ms"]
        for rtt in rtts:
            assert 2 * d <= rtt - base <= 2 * d + 2 * RTC_TICK_MS + 1e-6


def test_zero_delay_ping_is_the_sum_of_the_documented_path_costs(tmp_path):
    """At delay 0 without a rate limit NIST Net forwards at once and nothing idles: the RTT is
    the ping's send path, four 100BASE-TX hops and four receptions, hand-summed from the host
    profiles (pc2006-linux26, nistnet-linux24: 3 GHz; doc/host.rst). The 56-byte echo is an
    84-byte IP datagram, a 110-byte frame on the wire with preamble, header and FCS."""
    ghz = 3.0
    send = (15000 + 2 * 84) / ghz                  # SendCost + SendCostPerByte x IP bytes
    hop = 110 * 8 / 100e6 * 1e9 + 50               # wire time at 100 Mbit/s + 50 ns of cable
    rx = (9000 + 3000 + 15000 + 1 * 84) / ghz      # interrupt + driver + stack (+ per byte)
    expected_ms = (send + 4 * hop + 4 * rx) * 1e-6
    rtts = _run("jaxa-table2", tmp_path, delay="0ms", count=3, hostSet=NO_TICK)["rtt_ms"]
    for rtt in rtts:
        assert abs(rtt - expected_ms) < 1e-6
    # With the kernels' ticks (the profiles' default) a tick handler may fall into the path
    # on each of the three PCs (the path, 77 us, is shorter than either tick period), and only
    # delays it: expected <= RTT <= expected + 3 x the longest handler.
    rtts = _run("jaxa-table2", tmp_path, delay="0ms", count=50)["rtt_ms"]
    for rtt in rtts:
        assert expected_ms - 1e-6 <= rtt <= expected_ms + 3 * TICK_MAX_MS + 1e-6


def test_a_receive_coalescing_timer_delays_each_of_the_four_receptions(tmp_path):
    """--hostSet changes the three PCs' profiles: a receive interrupt delay of 50 us (a NIC that
    coalesces on a timer) makes each of the ping's four isolated frames wait exactly 50 us for
    its interrupt: the RTT grows by 4 x 50 us (doc/host.rst, the zero-delay ping)."""
    base = _run("jaxa-table2", tmp_path, delay="0ms", count=2, hostSet=NO_TICK)["rtt_ms"]
    slow = _run("jaxa-table2", tmp_path, delay="0ms", count=2,
                hostSet="HostNic.InterruptDelay=50us;" + NO_TICK)["rtt_ms"]
    for b, s in zip(base, slow):
        assert abs(s - b - 4 * 0.050) < 1e-9


def test_ftp_rate_is_bounded_by_tcp_payload_share_of_the_ip_rate(tmp_path):
    """NIST Net limits IP bytes; TCP carries 1448 payload bytes per 1500-byte packet (MSS with
    timestamps), so the ftp rate cannot exceed 1448/1500 of the setting, and a long transfer
    comes within 1% of it."""
    r = _run("jaxa-table1", tmp_path, bandwidth="1Mbps", fileBytes=1_500_000)
    share = 1448 / 1500
    assert r["ftp_rate_bps"] <= 1e6 * share * 1.0001
    assert r["ftp_rate_bps"] >= 1e6 * share * 0.99


def test_bad_arguments_are_refused(tmp_path):
    proc = subprocess.run([str(EXAMPLES_DIR / "jaxa-table2"), "--count=0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--count" in proc.stderr
    proc = subprocess.run([str(EXAMPLES_DIR / "jaxa-table2"), "--hostSet=NoSuch=1"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--hostSet" in proc.stderr and "NoSuch" in proc.stderr
    proc = subprocess.run([str(EXAMPLES_DIR / "jaxa-table1"), "--bandwidth=fast"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "not a data rate" in proc.stderr
    proc = subprocess.run([str(EXAMPLES_DIR / "jaxa-table1"), "--nonsense=1"],
                          capture_output=True, text=True)
    assert proc.returncode not in (0,) and proc.returncode > 0


@pytest.mark.parametrize("mode,feds", [("bidir", 2), ("sync", 1)])
def test_two_way_step_costs_the_crc_the_messages_of_the_1516_services(tmp_path, mode, feds):
    """The [JAXA06] step as pRTI 1516 runs it, counted at the CRC against the IEEE 1516-2000
    services each federate calls per step. Two-way: each of the two federates calls Update
    Attribute Values (clause 6: one UPDATE_ATTRIBUTES to the CRC) and Time Advance Request
    (clause 8: one TIME_ADVANCE_REQUEST); the CRC routes each update to the other federate, its
    subscriber (Reflect Attribute Values: one REFLECT_ATTRIBUTES), and grants both (one
    TIME_ADVANCE_GRANT each): 4 messages in and 4 out per step. One-way: 1 + 2 in, 1 + 2 out.
    Nothing else per step (central GALT: no null messages; TSO release at the grant: no GALT
    notices). Counted as the difference between runs of 20 and 10 steps, which cancels the set-up
    (join, publish, subscribe, register, time regulation/constrained, the synchronization point).
    The per-type counts tell the modes apart: with --galt=null the totals would also be 4/4 (null
    messages instead of requests and grants), but no TAR/TAG. No TSO message may arrive after its
    grant: the CRC saw both updates before either grant."""
    for n in (10, 20):
        (tmp_path / str(n)).mkdir()
    recs = {n: _run("jaxa-benchmark", tmp_path / str(n), mode=mode, dataSize=64,
                    bandwidth="1Mbps", reps=1, exchanges=n)
            for n in (10, 20)}

    def per_step(field):
        return (recs[20][field] - recs[10][field]) / 10.0

    assert per_step("crc_updates_in_last_run") == feds
    assert per_step("crc_requests_in_last_run") == 2
    assert per_step("crc_reflects_out_last_run") == feds
    assert per_step("crc_grants_out_last_run") == 2
    assert per_step("crc_messages_in_last_run") == feds + 2
    assert per_step("crc_messages_out_last_run") == feds + 2
    assert recs[10]["late_tso_messages"] + recs[20]["late_tso_messages"] == 0


def test_loopback_tcp_to_the_crc_costs_what_the_in_memory_path_charges(tmp_path):
    """Peer-b, on the CRC's PC, reaches it in memory (the loopback's kernel work charged as the
    sender's send cost) or over a real TCP connection to 127.0.0.1 (RtiSettings LocalPath
    LoopbackTcp). The host model charges send and receive per call on either path and ns-3's
    loopback delivers at once, so the one-way and two-way times agree; the TCP path has events
    of its own (segments and ACKs over the loopback)."""
    for mode in ("sync", "bidir"):
        r = {lp: _run("jaxa-benchmark", tmp_path, mode=mode, bandwidth="128000bps",
                      dataSize=1024, exchanges=100, rtiSet=f"LocalPath={lp}")
             for lp in ("InMemory", "LoopbackTcp")}
        assert r["LoopbackTcp"]["time_per_exchange_ms"] == pytest.approx(
            r["InMemory"]["time_per_exchange_ms"], rel=1e-9)
        assert r["LoopbackTcp"]["events"] > r["InMemory"]["events"]


@pytest.mark.parametrize("mode,feds", [("bidir", 2), ("sync", 1)])
def test_tso_bookkeeping_adds_what_each_reading_sends(tmp_path, mode, feds):
    """The CRC's TSO bookkeeping (RtiSettings TsoBookkeeping), counted per step as the
    difference between runs of 20 and 10 steps. Counts: the same messages as None (the counts
    ride on each TIME_ADVANCE_REQUEST). ReadNotes: every reflect the CRC forwards is a TSO
    message to a constrained federate, which notes it: one TSO_NOTE_READ in per reflect out,
    feds + 2 + feds messages in per step. A step whose grant waits for the note cannot be
    shorter than without it."""
    recs = {}
    for bk in ("None", "Counts", "ReadNotes"):
        for n in (10, 20):
            recs[(bk, n)] = _run("jaxa-benchmark", tmp_path, mode=mode, dataSize=64,
                                 bandwidth="1Mbps", reps=1, exchanges=n,
                                 rtiSet=f"TsoBookkeeping={bk}")

    def per_step(bk, field):
        return (recs[(bk, 20)][field] - recs[(bk, 10)][field]) / 10.0

    for bk in ("None", "Counts"):
        assert per_step(bk, "crc_tso_notes_in_last_run") == 0
        assert per_step(bk, "crc_messages_in_last_run") == feds + 2
    assert per_step("ReadNotes", "crc_reflects_out_last_run") == feds
    assert per_step("ReadNotes", "crc_tso_notes_in_last_run") == feds
    assert per_step("ReadNotes", "crc_messages_in_last_run") == 2 * feds + 2
    assert per_step("ReadNotes", "crc_messages_out_last_run") == feds + 2
    t = {bk: recs[(bk, 20)]["time_per_exchange_ms"] for bk in ("None", "Counts", "ReadNotes")}
    assert t["Counts"] >= t["None"] and t["ReadNotes"] > t["None"]
    for n in (10, 20):
        assert recs[("ReadNotes", n)]["late_tso_messages"] == 0
