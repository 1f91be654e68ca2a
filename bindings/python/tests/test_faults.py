"""Faults are results: an instrument that receives less than it expected records what
arrived and what did not (received, lost) and the program exits 0; only impossible states
abort. One heavy-loss run on each study's link: the emulated NIST Net link (JAXA06), GINE's
link (GINE14), the TNO03 LAN's switch, the MEGA06 switch and the NTT96 FDDI ring.

The expected losses are binomial bounds of the set loss probability (the runs have fixed seeds,
the bounds are 99.9 % intervals computed from the probability alone)."""

import math

import pytest
from programs import run_args

from testbed import EXAMPLES_DIR

built = pytest.mark.skipif(not (EXAMPLES_DIR / "jaxa-table2").exists(),
                           reason="programs not built")


def _run(tmp_path, program, *args):
    r, rec = run_args(program, tmp_path, *args)
    assert r.returncode == 0, (program, r.returncode, r.stderr[-800:])
    # the tests use the options' current names (an old name is a deprecated alias that warns)
    assert "deprecated" not in r.stderr, r.stderr
    return rec


def _binomial_interval(n, p, z=3.29):
    """A normal-approximation 99.9 % interval of a binomial count (n trials, probability p)."""
    m, s = n * p, math.sqrt(n * p * (1 - p))
    return m - z * s - 1, m + z * s + 1


@built
def test_jaxa_ping_through_a_lossy_nist_net(tmp_path):
    """50 % loss each way: a ping gets its reply with probability 0.25; the lost ones are a
    result, not 'only 4 of 40 echo replies' and an abort."""
    n = 40
    rec = _run(tmp_path, "jaxa-table2", f"--count={n}",
               "--ns3::LinkEmulatorQueueDisc::LossProbability=0.5")
    assert rec["received"] + rec["lost"] == n == rec["count"]
    lo, hi = _binomial_interval(n, 0.75)
    assert lo <= rec["lost"] <= hi
    assert len(rec["rtt_ms"]) == rec["received"]


@built
def test_jaxa_ftp_and_rti_benchmark_give_up_as_results(tmp_path):
    """90 % loss: TCP gives up (its retransmission limit); the transfer and the benchmark record
    what got through instead of aborting."""
    loss = "--ns3::LinkEmulatorQueueDisc::LossProbability=0.9"
    ftp = _run(tmp_path, "jaxa-table1", "--bandwidth=1Mbps", "--fileBytes=200000", loss)
    assert ftp["complete"] is False
    assert ftp["received"] + ftp["lost"] == ftp["file_bytes"] and ftp["lost"] > 0
    rti = _run(tmp_path, "jaxa-benchmark", "--reps=2", "--exchanges=50", "--bandwidth=1Mbps",
               loss)
    assert rti["finished_reps"] < 2
    assert rti["received"] + rti["lost"] == 2 * 50 and rti["lost"] > 0
    assert len(rti["time_per_exchange_ms_runs"]) == rti["finished_reps"]


@built
def test_gine_burst_through_a_lossy_gine_link(tmp_path):
    rec = _run(tmp_path, "gine-burst", "--count=100", "--timer=boosted",
               "--ns3::LinkEmulatorQueueDisc::LossProbability=0.5")
    assert rec["sent"] == 100 and rec["received"] + rec["lost"] == 100
    lo, hi = _binomial_interval(100, 0.5)
    assert lo <= rec["lost"] <= hi
    assert len(rec["delay_us"]) == rec["received"]


@built
def test_tno_network_latency_and_pipeline_on_a_lossy_switch(tmp_path):
    """The TNO03 LAN's switch dropping most frames: tno-jitter's datagrams and tno-pipeline's
    updates that never arrive are counted; a pipeline without any arrival has no latency."""
    drop = "--ns3::SwitchFabric::DropProbability=0.5"
    net = _run(tmp_path, "tno-jitter", "--measure=net", "--platform=irix", "--samples=1000",
               "--period=0.01", drop)
    assert net["received"] + net["lost"] == 1000 and net["lost"] > 0
    assert net["samples"] == net["received"]
    pipe = _run(tmp_path, "tno-pipeline", "--config=1b", "--frequency=100", "--duration=1", drop)
    assert pipe["received"] + pipe["lost"] == pipe["sent"] and pipe["lost"] > 0
    assert pipe["loss"] == pytest.approx(pipe["lost"] / pipe["sent"])
    if pipe["received"] == 0:
        assert "latency_mean_us" not in pipe


@built
def test_mega_switch_dropping_most_frames(tmp_path):
    """The MEGA06 switch with a per-frame drop probability of 0.9: the switch counts its random
    drops, sara captures what is left; the program records both."""
    rec = _run(tmp_path, "mega-scale", "--senderPcs=1", "--nodesPerPc=200", "--sendersPerGroup=1",
               "--querier=false", "--warmup=1.6", "--duration=2",
               "--ns3::SwitchFabric::DropProbability=0.9")
    assert rec["switch_drops_random-drop"] > 0
    assert rec["sara_packets"] < rec["sent"]


@built
def test_ntt_stream_on_an_overflowing_ring(tmp_path):
    """A UDP stream (one datagram every 5.55 ms) on the FDDI ring beside a 99 Mbit/s load
    (2862 frames/s of 4377 bytes), one-packet interface queues. The receiver still logs its
    window (the analyser sends until it has), and the losses are results: the sequence numbers
    of the window that never arrived are 'seq_missing', the datagrams S never read are
    stream_sent - stream_read. The study's statistic leaves no gap for a lost packet: the last
    logged packet is at least seq_missing intervals behind its standard, less the first
    packet's one-way delay (well under 50 ms on an idle-to-full ring)."""
    rec = _run(tmp_path, "ntt-stream", "--tcp=false", "--loadPps=2862", "--packets=300",
               "--interval=5.55ms", "--maxTime=30s", "--ns3::DropTailQueue<Packet>::MaxSize=1p")
    assert rec["window_logged"] == rec["window_packets"] == 300
    assert not rec["jitter_is_lower_bound"]
    assert rec["seq_missing"] > 0
    assert rec["stream_arrived"] <= rec["stream_forwarded"] == rec["stream_read"]
    assert rec["stream_read"] < rec["stream_sent"]
    assert rec["jitter_s"] >= rec["seq_missing"] * 5.55e-3 - 0.05
