"""NTT96 exp. 2: which interface's fast-switching switch reaches which packets, for every
reading of who governs (the output or the input interface), the load entering or leaving the
router by its Ethernet interface, and the receiving computer on either side.

The expectation is derived by hand from the set-up (doc/ntt.rst, "Which switch governs which
packets"), not from a captured run. Three traffics cross the router:

* the stream's data, S (ring) -> R: in by FDDI, out by FDDI (R on the ring's other subnet) or by
  Ethernet (R behind the hub);
* its TCP acknowledgements, R -> S: in by FDDI or Ethernet (R's side), out by FDDI;
* the load: in by Ethernet and out by FDDI (load port on the hub, the study's words), or the
  other way round (load port on the ring, sink on the hub).

A packet is governed by the switch of the interface it leaves by (Output) or arrives on (Input).
A switch that governs some packet changes the router's fast- and slow-path counts when it is
flipped; one that governs none leaves the record exactly as it is. So where both switches govern,
the four combinations must give four different records; where one governs nothing, the
combinations that differ only in it must give identical records. That holds where every traffic
flows in every combination: the load is 500 frames/s, so that with both switches off the IP
input process gets about 500 + 180 (stream) + 90 (acknowledgements) packets a second, under the
1 389 a second it can take (720 us a packet, doc/router.rst). (Under overload a traffic that
never gets through, such as the acknowledgements of a stream starved by process-switched load,
cannot show its switch.)"""

from itertools import product
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from testbed.experiments.ntt96 import READINGS, _switches_that_matter

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")


def _interfaces(receiver_side, load_direction):
    """(in, out) interface of each traffic crossing the router."""
    stream = ("fddi", receiver_side)
    acks = (receiver_side, "fddi")
    load = ("ethernet", "fddi") if load_direction == "in" else ("fddi", "ethernet")
    return [stream, acks, load]


def _governing(cache_side, receiver_side, load_direction):
    """The interfaces whose switch governs at least one traffic, by hand."""
    pick = 1 if cache_side == "Output" else 0
    return {t[pick] for t in _interfaces(receiver_side, load_direction)}


def test_the_hand_analysis_matches_the_review():
    # The study's reading with R on the ring: every packet leaves by FDDI (the review's finding
    # that the Ethernet switch is inert there); each other reading has its own.
    assert _governing("Output", "fddi", "in") == {"fddi"}
    assert _governing("Input", "fddi", "in") == {"fddi", "ethernet"}
    assert _governing("Output", "fddi", "out") == {"fddi", "ethernet"}
    assert _governing("Input", "fddi", "out") == {"fddi"}
    assert _governing("Output", "ethernet", "in") == {"fddi", "ethernet"}
    assert _governing("Output", "ethernet", "out") == {"fddi", "ethernet"}  # acks leave by FDDI


def _sig(r):
    return (r["jitter_s"], r["window_logged"], r["router_fast"], r["router_slow"],
            r["router_fddi_fast"], r["router_ethernet_fast"])


@needs_build
@pytest.mark.parametrize("cache_side,load_direction", READINGS)
@pytest.mark.parametrize("receiver_side", ["fddi", "ethernet"])
def test_each_switch_changes_the_records_exactly_where_it_governs(tmp_path, cache_side,
                                                                  load_direction, receiver_side):
    records = {}
    for e, f in product((True, False), repeat=2):
        d = tmp_path / f"{int(e)}{int(f)}"
        d.mkdir()
        records[(e, f)] = run_program(
            "ntt-stream", d, setup="router", tcp="true", receiverSide=receiver_side,
            loadPps=500, loadFrame=1518, cacheSide=cache_side, loadDirection=load_direction,
            cacheEthernet=str(e).lower(), cacheFddi=str(f).lower(), packets=100, maxTime="5s")
        assert records[(e, f)]["load_direction"] == load_direction
    governs = _governing(cache_side, receiver_side, load_direction)
    for e, f in records:
        # flipping a switch changes the record if and only if it governs some packet
        assert (_sig(records[(e, f)]) != _sig(records[(not e, f)])) == ("ethernet" in governs)
        assert (_sig(records[(e, f)]) != _sig(records[(e, not f)])) == ("fddi" in governs)
    if governs == {"fddi", "ethernet"}:
        assert len({_sig(r) for r in records.values()}) == 4
    # the analysis says the same from the records
    reading = (cache_side, load_direction)
    curves = {(reading, receiver_side, e, f, 1518): [(500.0, r)] for (e, f), r in records.items()}
    assert _switches_that_matter(curves, reading, receiver_side) == {
        "ethernet": "ethernet" in governs, "fddi": "fddi" in governs}


@needs_build
def test_load_direction_needs_the_router_setup(tmp_path):
    import subprocess

    r = subprocess.run([str(Path(EXAMPLES_DIR) / "ntt-stream"), "--setup=ring",
                        "--loadDirection=out", f"--output={tmp_path / 'x.json'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "--loadDirection needs --setup=router" in r.stderr
