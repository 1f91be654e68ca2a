"""Attribute precedence on the programs' command lines: a `--ns3::Type::Attribute=`
value wins over what a helper or a study set-up gives by default; one that a program sets itself
from its own options or topology is refused with exit status 2 naming what sets it; a malformed
one is exit status 2 with a reason (ns-3 alone: exit status 1, or an abort over a bad time).
The module's helpers' defaults are tested one by one in the testbed-user-attributes suite; the
study set-ups (examples/<study>/, which test/ does not link) through their
programs here."""

import pytest
from programs import run_args

from testbed import EXAMPLES_DIR

built = pytest.mark.skipif(not (EXAMPLES_DIR / "jaxa-table2").exists(),
                           reason="programs not built")


def _run(tmp_path, program, *args):
    r, rec = run_args(program, tmp_path, *args)
    # the tests use the options' current names (an old name is a deprecated alias that warns)
    assert "deprecated" not in r.stderr, r.stderr
    return r, rec


@built
def test_user_semantics_win_over_the_testbed_default(tmp_path):
    """jaxa-table2 through NIST Net at 128 kbit/s, 10 ms each way: NIST Net releases a ping at
    max(transmission, delay), netem at transmission + delay. The user's Netem adds the 84-byte
    IP packet's 5.25 ms of transmission in each direction: 10.5 ms more round trip (give or
    take NIST Net's 122 us tick per crossing)."""
    base = ["--count=5", "--delay=10ms", "--bandwidth=128kbps"]
    r, nist = _run(tmp_path, "jaxa-table2", *base)
    assert r.returncode == 0, r.stderr
    r, netem = _run(tmp_path, "jaxa-table2", *base, "--ns3::LinkEmulatorQueueDisc::Semantics=Netem")
    assert r.returncode == 0, r.stderr
    assert netem["rtt_mean_ms"] - nist["rtt_mean_ms"] == pytest.approx(2 * 84 * 8 / 128, abs=0.5)


@built
def test_user_host_parameter_wins_over_the_profile(tmp_path):
    """tno-jitter's IRIX network latency: without CPU 0's events (the profile's 100/s of up to
    170 us, doc/tno.rst) the spread is what is left, the shielded CPUs' 35 us events and the
    wake-up paths' 8 us on each side: under 100 us, against more than 170 us with them."""
    args = ["--measure=net", "--platform=irix", "--samples=10000", "--period=0.01"]
    r, with_events = _run(tmp_path, "tno-jitter", *args)
    assert r.returncode == 0, r.stderr
    r, without = _run(tmp_path, "tno-jitter", *args, "--ns3::HostCpu::InterferenceRate=0")
    assert r.returncode == 0, r.stderr
    assert with_events["jitter_us"] > 170
    assert without["jitter_us"] < 100


@built
def test_user_queue_size_wins_over_bsd_ifq_maxlen(tmp_path):
    """ntt-stream, UDP stream on the FDDI ring beside a 99 Mbit/s load (2862 frames/s of
    FDDI's largest frame, 4377 bytes: 99 Mbit/s of 4324-byte UDP payload): with BSD's
    50-packet interface queue no sequence number of the stream's window is lost; with the
    user's 1-packet queue the forwarding station's queue overflows and the window has gaps."""
    args = ["--tcp=false", "--loadPps=2862", "--packets=300", "--maxTime=30s"]
    r, bsd = _run(tmp_path, "ntt-stream", *args)
    assert r.returncode == 0, r.stderr
    r, small = _run(tmp_path, "ntt-stream", *args, "--ns3::DropTailQueue<Packet>::MaxSize=1p")
    assert r.returncode == 0, r.stderr
    assert bsd["seq_missing"] == 0 and small["seq_missing"] > 0


@built
def test_user_scheduling_latency_wins_in_the_mega06_set_up(tmp_path):
    """mega-flooding, one StarBED PC's send_udp processes (Mega06Testbed installs the profile
    through HostPlatformHelper): each wake-up is a timer tick plus the profile's exponential
    scheduling latency (mean 212 us, doc/mega.rst), so an interval is a tick-exact period plus
    the difference of two independent exponential draws: std sqrt(2) x 212 us = 300 us. With
    the user's zero latency every interval is tick-exact: std 0."""
    args = ["--nodesPerPc=200", "--warmup=1.6", "--duration=2"]
    r, profile = _run(tmp_path, "mega-flooding", *args)
    assert r.returncode == 0, r.stderr
    r, zero = _run(tmp_path, "mega-flooding", *args,
                   "--ns3::HostPlatform::SchedulingLatency=ns3::ConstantRandomVariable[Constant=0]")
    assert r.returncode == 0, r.stderr
    assert profile["send_interval_std_us"] == pytest.approx(2 ** 0.5 * 212, rel=0.2)
    assert zero["send_interval_std_us"] < 1e-3


@built
@pytest.mark.parametrize("program,args,word", [
    # the emulator's delay comes from --delay (the example: once silently ignored)
    ("jaxa-table2", ["--ns3::LinkEmulatorQueueDisc::Delay=20ms"], "LinkEmulatorHelper"),
    # the switch's snooping timers follow the querier's (the second example: once
    # overwritten by SetTimers)
    ("mega-scale", ["--senderPcs=1", "--nodesPerPc=10",
                    "--ns3::SnoopingBridgeNetDevice::MembershipInterval=1s"], "--igmpTimeScale"),
    ("mega-querier", ["--ns3::IgmpL4Protocol::QueryInterval=10s"], "IgmpHelper::SetTimers"),
    ("jaxa-benchmark", ["--ns3::JaxaBenchmarkFederate::DataSize=10"], "--dataSize"),
    ("jaxa-table1", ["--ns3::FullDuplexEthernetNetDevice::DataRate=10Mbps"], "EthernetLinkHelper"),
    ("jaxa-table1", ["--ns3::FullDuplexEthernetChannel::Delay=1us"], "EthernetLinkHelper"),
    ("jaxa-table2", ["--hostSet=HostCpu.InterferenceRate=5",
                     "--ns3::HostCpu::InterferenceRate=0"], "--hostSet"),
    ("gine-burst", ["--ns3::TcTimer::Rate=1Mbps", "--timer=tctimer"], "b = 8 l / X"),
    ("tno-schedulers", ["--ns3::RciFederate::Lookahead=5ms"], "--lookahead"),
    ("ntt-stream", ["--ns3::NttReceiver::RecordSize=100"], "--packetSize"),
    # the socket buffers come from --sndBuf/--rcvBuf (the record's tcp_buffer_bytes), the MSS
    # from the path and --mclBytes (the record's mss)
    ("ntt-stream", ["--ns3::TcpSocket::RcvBufSize=16384"], "--sndBuf/--rcvBuf"),
    ("ntt-stream", ["--ns3::TcpSocket::SegmentSize=536"], "--mclBytes"),
    ("ntt-stream", ["--setup=router", "--randomRate=100",
                    "--ns3::RandomDestinationSource::PacketSize=100"], "--randomSize"),
])
def test_an_attribute_the_program_sets_itself_is_refused(tmp_path, program, args, word):
    r, _ = _run(tmp_path, program, *args)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert f"{program} sets ns3::" in r.stderr and word in r.stderr, r.stderr


@built
@pytest.mark.parametrize("arg,word", [
    ("--ns3::LinkEmulatorQueueDisc::Nope=1", "has no attribute Nope"),
    ("--ns3::NoSuchType::Delay=1", "no type ns3::NoSuchType"),
    ("--ns3::LinkEmulatorQueueDisc::Delay=soon", "not a time"),   # ns-3: abort (134)
    ("--ns3::LinkEmulatorQueueDisc::LossProbability=2", "does not take"),
    ("--ns3::LinkEmulatorQueueDisc::LossProbability=0.5x", "not a number"),  # ns-3: abort
    ("--ns3::LinkEmulatorQueueDisc::Semantics=Fast", "not one of NistNet|Netem"),
    ("--ns3::BoostedTcTimer::Rate=1Mbps", "give --ns3::TcTimer::Rate"),
    ("--ns3::ArpL3Protocol::RequestJitter=ns3::Nope[Constant=0]", "not an object"),
])
def test_a_malformed_attribute_is_exit_status_2_with_a_reason(tmp_path, arg, word):
    r, _ = _run(tmp_path, "jaxa-table2", "--count=1", arg)
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert word in r.stderr, r.stderr
