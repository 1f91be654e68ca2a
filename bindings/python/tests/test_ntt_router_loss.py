"""NTT96's router can lose what arrives on its FDDI side: the study saw UDP loss through the
overloaded router in exps. 2 and 3 ("TCP only (UDP lost packets there)"). The expectation is
derived by hand from the router's documented costs (doc/router.rst), not from a captured run.

The stream's 4 188-byte IP packets (4 209 bytes with the FDDI MAC header) need IOS's VeryBig
public buffers (4 520 bytes), 10 permanent. With the FDDI interface's packets process-switched
and the IP input process overloaded by Ethernet-side traffic, that interface's hold queue keeps
75 packets ahead of each stream packet. The process gets what the interrupt-level work leaves:
1 - r x 72 us of the CPU at r packets/s through the router (FastPathCost 1 800 cycles at
25 MHz), so a packet takes 720 us / (1 - r x 72 us) to process-switch: at r = 6 680/s (exp. 2's
6 500 load frames/s and the stream) 1.39 ms, and a stream packet waits about (75 + n) x 1.39 ms,
during which n = wait / 5.55 ms stream packets arrive: n = 0.25 (75 + n), n = 25 > 10. The
pool manager grows the pool only after a failure, one buffer at a time, so stream packets are
dropped for want of a buffer. Nothing else arrives on the FDDI interface, and its hold queue
(75) and receive ring (32) hold more than those 25, so every drop there is a stream packet lost
to the pools."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")


def _run(tmp_path, **params):
    return run_program("ntt-stream", tmp_path, setup="router", tcp="false", receiverSide="fddi",
                       packets=200, maxTime="10s", **params)


@needs_build
@pytest.mark.parametrize("pools", [True, False])
def test_ntt_exp2_udp_through_the_overloaded_router_loses_packets(tmp_path, pools):
    r = _run(tmp_path, loadPps=6500, loadFrame=1518, cacheEthernet="true", cacheFddi="false",
             bufferPools=str(pools).lower())
    assert r["protocol"] == "udp" and r["router_ethernet_drops"] > 0  # the process is overloaded
    assert r["router_fddi_drops"] == 0 and r["router_fddi_ring_drops"] == 0
    if pools:
        assert r["router_fddi_pool_drops"] >= 1
        assert r["router_buffers_created"] >= 1
    else:
        # without the pools nothing on the FDDI side is lost: the loss path is the pools
        assert r["router_fddi_pool_drops"] == 0 and r["seq_missing"] == 0


@needs_build
def test_ntt_exp3_udp_through_the_overloaded_router_loses_packets(tmp_path):
    """Exp. 3 at 3 000 random datagrams/s: the full cache sends them all to the IP input
    process (r = 3 180/s: 720 us / 0.77 = 0.93 ms a packet, overloaded at 1 070/s), so the
    same holds: n = 0.168 (75 + n), n = 15 > 10."""
    r = _run(tmp_path, randomRate=3000, flushInterval="60s")
    assert r["cache_filled"] == 1 and r["router_ethernet_drops"] > 0
    assert r["router_fddi_drops"] == 0 and r["router_fddi_ring_drops"] == 0
    assert r["router_fddi_pool_drops"] >= 1


@needs_build
def test_ntt_exp2_input_reading_each_switch_governs_some_packets(tmp_path):
    """Under the Input reading the Ethernet interface's switch governs the load (it enters there)
    and the FDDI interface's the stream: with only the FDDI switch off the IP input process gets
    the stream's packets and acknowledgements (about 200/s, well under its 1 389/s), with both
    off the 2 000 load frames/s too, more than it can take (the Ethernet hold queue drops). So
    the two combinations' records differ, by hand; under the Output reading every packet leaves
    by the FDDI interface and the Ethernet switch reaches none of them."""
    base = dict(setup="router", tcp="true", receiverSide="fddi", loadPps=2000, loadFrame=1518,
                cacheFddi="false", cacheSide="Input", packets=200, maxTime="10s")
    for d in ("on", "off"):
        (tmp_path / d).mkdir()
    eth_on = run_program("ntt-stream", tmp_path / "on", cacheEthernet="true", **base)
    both_off = run_program("ntt-stream", tmp_path / "off", cacheEthernet="false", **base)
    assert eth_on["router_ethernet_drops"] == 0 and not eth_on["jitter_is_lower_bound"]
    assert eth_on["router_ethernet_fast"] > 0 and eth_on["router_fddi_slow"] > 0
    assert both_off["router_ethernet_drops"] > 0 and both_off["router_ethernet_fast"] == 0
    assert (eth_on["jitter_s"], eth_on["window_logged"]) != \
        (both_off["jitter_s"], both_off["window_logged"])
