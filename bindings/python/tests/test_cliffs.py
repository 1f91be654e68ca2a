"""Cliffs named, not hidden: where an input within its documented range flips an outcome's
regime, the record names the driver and both regimes' values (<metric>_regime), and one byte
either side of the cliff gives the two regimes (doc/sensitivity.rst)."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from testbed.experiment import Record
from testbed.experiments import ntt96

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
