"""Cliffs named, not hidden: where an input within its documented range flips an outcome's
regime, the record names the driver and both regimes' values (<metric>_regime), and one byte
either side of the cliff gives the two regimes (doc/sensitivity.rst)."""

import re
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from testbed.experiment import Record
from testbed.experiments import jaxa06, mega06, ntt96
from testbed.regimes import set_regime

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")

#: FDDI's timed-token rule (ANSI X3.139): a station waits at most 2 x TTRT for the token, 8 ms
#: in these runs (the record's ttrt_ms), so a stream that is not held elsewhere keeps its
#: jitter within that bound on a saturated ring.
TOKEN_BOUND_TTRTS = 2


def test_nagle_regime_is_set_by_whole_segments():
    # 4.4BSD tcp_mss on FDDI: 4 352 - 40 rounded down to 2 048: 4 096
    assert ntt96.FDDI_MSS == (4352 - 40) // 2048 * 2048
    assert ntt96.nagle_regime(4096, 4096) == "whole segments"
    assert ntt96.nagle_regime(8192, 4096) == "whole segments"
    for record in (4095, 4097, ntt96.STREAM_RECORD):
        assert ntt96.nagle_regime(record, 4096) == "partial segment held"


@needs_build
@pytest.mark.parametrize("record", [ntt96.FDDI_MSS, ntt96.FDDI_MSS + 1])
def test_ntt_exp1_record_one_byte_either_side_of_the_mss(tmp_path, record):
    """Exp. 1 over TCP on the saturated ring (the quick grid's highest load): a record of one
    MSS leaves no partial segment and the jitter stays within FDDI's token bound; one byte more
    leaves a 1-byte segment that Nagle holds for the acknowledgement of the previous one, and
    the stream falls behind (jitter beyond the bound)."""
    load = ntt96.RING_MBPS["quick"][-1]
    r = run_program("ntt-stream", tmp_path, setup="ring", tcp="true",
                    loadPps=ntt96._rate(load, ntt96.FDDI_MAX_FRAME),
                    loadFrame=ntt96.FDDI_MAX_FRAME, packetSize=record, maxTime="30s")
    assert r["mss"] == ntt96.FDDI_MSS and not r["jitter_is_lower_bound"]
    bound_s = TOKEN_BOUND_TTRTS * r["ttrt_ms"] / 1e3
    if ntt96.nagle_regime(record, r["mss"]) == "whole segments":
        assert r["jitter_s"] <= bound_s
    else:
        assert r["jitter_s"] > bound_s


def _rec(params, protocol, load, jitter, mss=4096):
    return Record(params=params, result={
        "analyser_on_ring": True, "load_frame_bytes": ntt96.FDDI_MAX_FRAME, "protocol": protocol,
        "load_offered_mbps": load, "load_carried_mbps": min(load, 90.0), "jitter_s": jitter,
        "jitter_is_lower_bound": False, "seq_missing": 0, "stream_rate_mbps": 6.0,
        "window_logged": 1000, "window_s": 5.5, "seq_jitter_s": jitter, "ttrt_ms": 8.0,
        "mss": mss, "load_rate_pps": 1.0})


def test_ntt_load_names_the_record_size_cliff_with_both_regimes():
    """Records of the quick points (the program's form): the regime names the driver, the
    central value's regime first, both values; the band spans both."""
    recs = []
    for p in ntt96.load_points("quick"):
        if not p.get("analyserOnRing", True) or p["loadFrame"] != ntt96.FDDI_MAX_FRAME:
            continue
        load = p["loadPps"] * 8 * ntt96.FDDI_MAX_FRAME / 1e6
        whole = "packetSize" in p
        jitter = (0.0004 if load < 90 else (0.007 if whole else 1.8)) if p["tcp"] else 0.0005
        recs.append(_rec(p, "tcp" if p["tcp"] else "udp", load, jitter))
    m = ntt96.load_analyse(recs).metrics
    regime = m["exp1_tcp_jitter_highest_s_regime"]
    assert regime.startswith("partial segment held")
    assert "4160 B record" in regime and "4096 B MSS" in regime
    assert "partial segment held: 1.8" in regime and "whole segments: 0.007" in regime
    assert m["exp1_tcp_jitter_highest_s"] == pytest.approx(1.8)
    assert (m["exp1_tcp_jitter_highest_s_low"], m["exp1_tcp_jitter_highest_s_high"]) == \
        pytest.approx((0.007, 1.8))
    assert m["exp1_tcp_saturated_over_unloaded_low"] == pytest.approx(0.007 / 0.0004)
    # the whole-segment points stay out of the main curve's metrics
    assert not any(k.startswith("exp1_tcp_") and "4096" in k for k in m)


@needs_build
@pytest.mark.parametrize("record,rule,regime", [
    (ntt96.FDDI_MSS - 1, "bsd44", "partial segment held"),
    (ntt96.FDDI_MSS, "bsd44", "whole segments"),
    (ntt96.FDDI_MSS + 1, "bsd44", "partial segment held"),
    # MTU - 40 = 4 312 (SysV/Mentat stacks): the study's 4 160-byte record is one short segment
    (ntt96.STREAM_RECORD, "mtu", "partial segment held"),
    (4312, "mtu", "whole segments"),
])
def test_ntt_record_reports_its_nagle_regime(tmp_path, record, rule, regime):
    """Each record names its regime and the MSS its stack family's rule gives (4.4BSD: 4 352 -
    40 rounded down to 2 048, 4 096; SysV: 4 312), by hand."""
    r = run_program("ntt-stream", tmp_path, setup="ring", tcp="true", loadPps=0,
                    packetSize=record, mssRule=rule, packets=20, maxTime="10s")
    assert r["mss"] == (4096 if rule == "bsd44" else 4312) and r["mss_rule"] == rule
    assert r["nagle_regime"] == regime


# --- the shared helper ----------------------------------------------------------------------

def test_set_regime_names_both_sides_and_spans_them():
    m = {"x": 2.0}
    set_regime(m, "x", "the driver", [("held", 2.0), ("free", 0.5)])
    assert m["x_regime"] == "held (driver: the driver); held: 2; free: 0.5"
    assert (m["x_low"], m["x_high"]) == (0.5, 2.0)
    # a cut-off side is said so and leaves the band alone
    m = {"x": 2.0}
    set_regime(m, "x", "d", [("held", 2.0), ("free", None)])
    assert m["x_regime"].endswith("free: cut off") and "x_low" not in m
    # the same regime on both sides is no cliff
    m = {"x": 2.0}
    set_regime(m, "x", "d", [("held", 2.0), ("held", 3.0)])
    assert m == {"x": 2.0}


# --- MEGA06: the memory cap of mega-multiplex ---------------------------------------------------

#: doc/mega.rst, "Memory": the StarBED PC's 512 MB, of which the kernel, mem_map, the reserve and
#: the daemons take 40 MB (the profile's estimate): fork fails beyond
#: floor((512 MiB - 40 MiB) / ProcessMemory) processes.
MIB = 2 ** 20
PC_MEMORY, BASE_MEMORY = 512 * MIB, 40 * MIB
ASKED = 10000  # the sweep's largest count (quick and paper)
#: The largest process size that still lets all 10 000 run: (536 870 912 - 41 943 040) / 10 000
#: = 49 492.8 bytes, so 49 492 B holds 10 000 and 49 493 B only 9 999.
PROCESS_AT_CLIFF = (PC_MEMORY - BASE_MEMORY) // ASKED


def test_memory_cap_formula_by_hand():
    assert PROCESS_AT_CLIFF == 49492
    assert mega06.memory_cap(PC_MEMORY, BASE_MEMORY, 49492) == 10000
    assert mega06.memory_cap(PC_MEMORY, BASE_MEMORY, 49493) == 9999
    # the profile's 63 KB process: 7 671 (doc/mega.rst's result)
    assert mega06.memory_cap(PC_MEMORY, BASE_MEMORY, 63 * 1024) == 7671


def test_the_other_side_is_the_memory_ranges_low_ends_and_across_the_cliff():
    """CAP_OTHER_SIDE is what the profile's #@range lines say, and there all 10 000 fit:
    (536 870 912 - 31 457 280) // 49 152 = 10 282."""
    text = (Path(__file__).resolve().parents[3] / "model/host/host-profiles.cc").read_text()
    for key, value in mega06.CAP_OTHER_SIDE.items():
        low = re.search(rf"#@range {re.escape(key)} (\d+) (\d+)", text)
        assert low and int(low.group(1)) == value, key
    cap = mega06.memory_cap(PC_MEMORY, *mega06.CAP_OTHER_SIDE.values())
    assert cap == 10282 and cap >= ASKED > mega06.memory_cap(PC_MEMORY, BASE_MEMORY, 64512)
    other = [p for p in mega06.multiplex_points("quick") if p["role"] == "cap-other-side"]
    assert len(other) == 1 and other[0]["nodes"] == ASKED


@needs_build
@pytest.mark.parametrize("process,regime", [(PROCESS_AT_CLIFF, "all asked for run"),
                                            (PROCESS_AT_CLIFF + 1, "memory-capped")])
def test_mega_memory_cap_one_byte_either_side(tmp_path, process, regime):
    """10 000 send_udp processes asked for on the 512 MB PC: at 49 492 B a process every one
    runs; one byte more and fork fails at the 10 000th (9 999 run)."""
    r = run_program("mega-multiplex", tmp_path, nodes=ASKED, duration=0.1, memoryMb=0,
                    seriesLength=1, bin=1,
                    hostSet=f"HostPlatform.BaseMemory={BASE_MEMORY};"
                            f"HostPlatform.ProcessMemory={process}")
    assert r["launched"] == mega06.memory_cap(PC_MEMORY, BASE_MEMORY, process)
    assert mega06.cap_regime(r) == regime


def _mm(role, nodes, launched, std, process=64512):
    return Record(params={"role": role, "nodes": nodes}, result={
        "nodes": nodes, "memory_bytes": PC_MEMORY, "process_memory_bytes": process,
        "launched": launched, "launch_failed": launched < nodes,
        "launch_duration_s": 0.5e-3 * launched,
        "send_interval_mean_us": 1008000.0, "send_interval_std_us": std,
        "send_interval_node_std_mean_us": std, "refill_us_per_wakeup": 17.28,
        "sender_cpu_process": 0.1, "send_rate_per_node": 1.0, "events": 1, "bin_s": 1.0,
        "sent_pps": [1.0]})


def test_mega_multiplex_names_the_memory_cap_cliff_with_both_regimes():
    """Records in the program's form: the capped central run first, the other side's value, the
    band over both; the other side stays out of the sweep's own metrics."""
    recs = [_mm("count", 1, 1, 290.0), _mm("count", 5000, 5000, 313.0),
            _mm("count", ASKED, 7671, 414.0), _mm("cap-other-side", ASKED, ASKED, 530.0, 49152),
            _mm("memory", 30000, 7671, 0.0)]
    m = mega06.multiplex_analyse(recs).metrics
    regime = m[f"multiplex_send_interval_std_us_{ASKED}_regime"]
    assert regime.startswith("memory-capped (driver: 10000 processes asked for")
    assert regime.endswith("memory-capped: 414; all asked for run: 530")
    assert m[f"multiplex_send_interval_std_us_{ASKED}"] == 414.0
    assert (m[f"multiplex_send_interval_std_us_{ASKED}_low"],
            m[f"multiplex_send_interval_std_us_{ASKED}_high"]) == (414.0, 530.0)
    assert m["multiplex_max_processes_normal"] == 7671
    assert m["multiplex_max_processes_normal_high"] == ASKED
    assert m["multiplex_launched_10000_regime"].endswith(
        "memory-capped: 7671; all asked for run: 10000")
    assert m["multiplex_max_processes_512mb"] == 7671
    assert m["multiplex_process_memory_bytes"] == 64512


# --- JAXA06: the duplex reading's late collisions ------------------------------------------------

#: IEEE 802.3 4.2.3.2.4 and 4.4.2: a collision after the slot time, 512 bit times of the frame
#: (the 64-bit preamble and SFD not counted), is late: the MAC discards the frame. At 100 Mbit/s
#: a bit is 10 ns: the slot ends 5 760 ns after the frame's first bit; one byte is 80 ns.
BIT_NS = 10
SLOT_END_NS = (64 + 512) * BIT_NS

MISMATCH_CPP = r"""
namespace cliffs
{
// A duplex mismatch on a cable of length 0: the forced-half NIC starts a frame of `bytes`, the
// forced-full NIC starts one of its own `leadNs` after the half one's first bit (it does not
// defer). Returns the half NIC's collisions, late collisions and frames sent.
std::vector<uint64_t>
Mismatch(double leadNs, uint32_t bytes)
{
    using namespace ns3;
    NodeContainer n(2);
    EthernetHelper eth;
    eth.SetCableLength(0);
    eth.SetDeviceAttribute("Duplex", StringValue("ForcedHalf"));
    Ptr<EthernetNetDevice> half = eth.CreateDevice(n.Get(0));
    eth.SetDeviceAttribute("Duplex", StringValue("ForcedFull"));
    Ptr<EthernetNetDevice> full = eth.CreateDevice(n.Get(1));
    eth.Connect(half, full);
    const Time at = MicroSeconds(10);
    Simulator::Schedule(at,
                        [=]() { half->Send(Create<Packet>(bytes), full->GetAddress(), 0x88B5); });
    Simulator::Schedule(at + NanoSeconds(leadNs),
                        [=]() { full->Send(Create<Packet>(100), half->GetAddress(), 0x88B5); });
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    const auto& st = half->GetStats();
    std::vector<uint64_t> out{st.collisions, st.lateCollisions, st.txFrames};
    Simulator::Destroy();
    return out;
}
} // namespace cliffs
"""


@needs_build
def test_jaxa_duplex_mismatch_one_byte_either_side_of_the_slot(tmp_path):
    """The mismatch's regime (jaxa06.collision_regime): the full end's frame reaching the half
    end one byte (80 ns) before the slot's end is an early collision, retried (the half end's
    frame goes out); one byte after, a late collision, and the frame is discarded."""
    import cppyy

    import testbed

    testbed.ns  # loads ns-3 and the module
    if not hasattr(cppyy.gbl, "cliffs") or not hasattr(cppyy.gbl.cliffs, "Mismatch"):
        cppyy.cppdef(MISMATCH_CPP)
    out = {}
    for lead in (SLOT_END_NS - 8 * BIT_NS, SLOT_END_NS + 8 * BIT_NS):
        collisions, late, sent = cppyy.gbl.cliffs.Mismatch(float(lead), 1000)
        out[lead] = (jaxa06.collision_regime({"eth_collisions": collisions,
                                              "eth_late_collisions": late}), sent)
    assert out == {SLOT_END_NS - 80: ("early collisions only", 1),
                   SLOT_END_NS + 80: ("late collisions", 0)}


def test_jaxa_duplex_names_the_reading_cliff_with_both_regimes():
    """Records of jaxa-duplex's points (the program's form): where the mismatch collides late
    and the other readings early, the main metric names the mismatch's regime first, each other
    reading's, and the band spans them; where every reading is alike no regime is named."""
    recs = []
    for setting, (bw, size) in jaxa06.DUPLEX_SETTINGS.items():
        for mode in ("sync", "bidir"):
            for nic in [None] + jaxa06.DUPLEX_CONFIGS:
                stress_two = setting == "stress" and mode == "bidir" and nic is not None
                late = 120 if stress_two and nic == "full" else 0
                collisions = (154 if nic == "full" else 1318) if stress_two else 0
                params = {"mode": mode, "bandwidth": jaxa06.BW[bw][0], "dataSize": size}
                if nic is not None:
                    params["halfDuplex"] = True
                    if nic != "half":
                        params["emulatorNic"] = nic
                t = 20.19 if late else 2.57 if setting == "stress" else 12.2
                recs.append(Record(params=params, result={
                    "bandwidth_bps": jaxa06.BW[bw][1], "data_size": size,
                    "time_per_exchange_ms": t, "eth_collisions": collisions,
                    "eth_late_collisions": late, "eth_fcs_errors": late, "reps": 2,
                    "exchanges": 200}))
    m = jaxa06.duplex_analyse(recs).metrics
    regime = m["stress_halfduplex_twoway_hd_ms_regime"]
    assert regime.startswith("late collisions (mismatch) (driver: which NICs")
    assert regime.endswith("late collisions (mismatch): 20.19; early collisions only (every NIC "
                           "half): 2.57; early collisions only (NIST Net autonegotiating): 2.57")
    assert (m["stress_halfduplex_twoway_hd_ms_low"],
            m["stress_halfduplex_twoway_hd_ms_high"]) == (2.57, 20.19)
    assert "halfduplex_twoway_hd_ms_regime" not in m
    assert "stress_halfduplex_oneway_hd_ms_regime" not in m
    # the other readings' own values stay their own
    assert m["stress_halfduplex_twoway_hd_half_ms"] == 2.57


#: 4.4BSD's fast timeout (PR_FASTHZ = 5): the receiver's delayed ACKs go on a 200 ms tick.
FAST_TICK_S = 0.2


@needs_build
def test_ntt_exp1_partial_segment_stream_is_clocked_by_the_delayed_ack_tick(tmp_path):
    """A record 13 bytes over the MSS, an 8 KB send buffer (two segments) and a 16 KB receive
    buffer, on a ring loaded to 5 Mbit/s: the stream keeps flowing to the cut-off, clocked by
    the receiver's delayed ACK. By hand (tcp_output): at each tick the ACK leaves U bytes of the
    full send buffer unsent, 0 < U < MSS; they go (idle), one whole segment follows and 4 096 - U
    are held by Nagle, so the receiver never reads two whole segments between ticks and sends no
    window update; every two ticks carry 3 x MSS bytes. No retransmission and no persist timeout
    is needed: the records arrive throughout the window at that rate."""
    r = run_program("ntt-stream", tmp_path, setup="ring", tcp="true", loadPps=142.792,
                    loadFrame=ntt96.FDDI_MAX_FRAME, packetSize=4109, rcvBuf=16384, sndBuf=8192,
                    maxTime="30s")
    assert r["mss"] == ntt96.FDDI_MSS and r["nagle_regime"] == "partial segment held"
    assert r["jitter_is_lower_bound"] and r["end_s"] >= 30
    assert r["tcp_retransmissions"] == 0 and r["tcp_persist_forced"] == 0
    tick_mbps = 3 * r["mss"] * 8 / (2 * FAST_TICK_S) / 1e6
    # One record of the count's rounding and one tick's worth of the cycle's phase.
    slack_mbps = (4109 + 2 * r["mss"]) * 8 / r["window_s"] / 1e6
    assert r["window_s"] >= 25
    assert r["stream_rate_mbps"] == pytest.approx(tick_mbps, abs=slack_mbps)
