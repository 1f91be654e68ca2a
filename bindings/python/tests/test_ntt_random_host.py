"""NTT96 exp. 3's random computer as a host: its rate is what its send path and the Ethernet
allow ("because control was difficult, the throughput was not varied").

Expectations by hand (doc/ntt.rst, "The random computer"):

* the host profile ws1995-bsd44 charges a UDP send 10 000 cycles + 3 a byte at 100 MHz: a 64-byte
  datagram 10 192 cycles, 101.92 us, so one process sending in a loop hands at most
  1 / 101.92 us = 9 811.6 datagrams a second to its socket (a little less: the 100 Hz clock
  interrupt takes 10-30 us of every 10 ms, 0.1-0.3 %);
* a 10 Mbit/s hub carries at most one frame of 64 + 8 + 20 + 18 = 110 bytes plus preamble and
  inter-frame gap (20 bytes) every 1 040 bit times, 9 615.4 frames a second: the host's excess
  is lost at its own interface queue, and nothing else sends on the hub;
* at 100 Mbit/s the hub carries all of it."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")

SEND_PATH_RATE = 100e6 / (10000 + 3 * 64)
LINE_RATE_10 = 10e6 / ((64 + 8 + 20 + 18 + 20) * 8)


def _arrived(r):
    """Frames that reached the router's Ethernet interface and were forwarded or dropped."""
    return sum(r[f"router_ethernet_{k}"] for k in ("fast", "slow", "drops", "ring_drops",
                                                   "pool_drops"))


@needs_build
@pytest.mark.parametrize("hub", ["100Mbps", "10Mbps"])
def test_the_random_host_sends_as_fast_as_its_send_path_and_the_ethernet_allow(tmp_path, hub):
    # The random traffic for 1.5 s before the stream starts (the fill would take 20 s), then 1 s
    # with it.
    r = run_program("ntt-stream", tmp_path, setup="router", randomSender="host",
                    ethernetRate=hub, flushInterval="60s", fillTimeout="1.5s", maxTime="1s",
                    packets=10)
    assert r["random_sender"] == "host" and r["ethernet_mbps"] == float(hub[:-4])
    assert 0.995 * SEND_PATH_RATE <= r["random_rate_pps"] <= SEND_PATH_RATE
    seconds = r["random_sent"] / r["random_rate_pps"]
    on_wire = _arrived(r) / seconds
    if hub == "10Mbps":
        assert 0.99 * LINE_RATE_10 <= on_wire <= LINE_RATE_10 * 1.001
    else:
        # every datagram reached the router; those still in its receive ring (32) or hold
        # queue (75) at the end are not counted yet
        assert r["random_sent"] - 32 - 75 <= _arrived(r) <= r["random_sent"]


@needs_build
def test_a_host_has_no_rate_to_set(tmp_path):
    import subprocess

    r = subprocess.run([str(Path(EXAMPLES_DIR) / "ntt-stream"), "--setup=router",
                        "--randomSender=host", "--randomRate=500",
                        f"--output={tmp_path / 'x.json'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--randomRate is the generator's" in r.stderr


@needs_build
def test_a_fill_the_slow_path_cannot_finish_is_a_lower_bound(tmp_path):
    """Each cache entry is made by the process-switching path, so the router fills at most
    25 MHz / SlowPathCost entries a second: at 36 000 cycles, 694 a second, 2 083 in a 3 s fill
    timeout, short of the cache's 8 548 (fewer still: the host's frames take interrupt time).
    The fill times out, and exp. 3's analysis publishes its length as a lower bound (the
    timeout) beside cache_filled False."""
    from testbed.experiment import Record
    from testbed.experiments.ntt96 import overflow_analyse

    r = run_program("ntt-stream", tmp_path, setup="router", randomSender="host",
                    flushInterval="60s", slowCost=36000, fillTimeout="3s", maxTime="1s",
                    packets=10)
    assert r["cache_filled"] == 0 and r["fill_time_s"] == 3.0
    # the fill, the half second before the stream and the 1 s run: at most 4.5 s of slow path
    assert r["cache_fills"] <= r["router_slow"] <= 25e6 / 36000 * (3 + 0.5 + 1)
    params = {"setup": "router", "tcp": True, "receiverSide": "fddi", "flushInterval": "60s",
              "randomSender": "host", "ethernetRate": "100Mbps", "slowCost": 36000.0}
    m = overflow_analyse([Record(params=params, result=r)]).metrics
    assert m["exp3_host_sender_cache_filled"] is False
    assert m["exp3_host_sender_fill_time_s"] is None
    assert m["exp3_host_sender_fill_time_s_lower_bound"] == 3.0
