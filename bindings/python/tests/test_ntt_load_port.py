"""NTT96's load comes from the analyser's load port, a traffic generator's port that puts
frames on the wire as addressed at set-up (no host stack: a UdpFrameSource). What it sends must
be what a host's stack would have sent, so that the router forwards it and the sink's stack
takes it: below the medium's capacity every frame reaches the sink, and the load carried equals
the load offered (a conservation law), on the ring (exp. 1, to L on the same ring) and through
the router (exp. 2, to the router's Ethernet interface, forwarded to L on the ring)."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")


@needs_build
@pytest.mark.parametrize("setup,frame,pps,cache", [
    ("ring", 4377, 856.751, "true"),  # 30 Mbit/s of 4 377-byte frames on the 100 Mbit/s ring
    ("ring", 1518, 2000.0, "true"),
    ("router", 1518, 2000.0, "true"),  # 24.3 Mbit/s through the router, fast switching on
    ("router", 64, 2000.0, "true"),
])
def test_every_load_frame_below_capacity_reaches_the_sink(tmp_path, setup, frame, pps, cache):
    r = run_program("ntt-stream", tmp_path, setup=setup, tcp="false", packets=200,
                    maxTime="10s", loadPps=pps, loadFrame=frame, cacheFddi=cache)
    offered = pps * frame * 8 / 1e6
    assert r["load_offered_mbps"] == pytest.approx(offered)
    # over the run's few seconds the carried rate counts whole frames: within one frame a second
    assert r["load_carried_mbps"] == pytest.approx(offered, rel=2e-3)


@needs_build
def test_the_load_is_lost_at_the_saturated_ring_not_created():
    """Beyond the ring's capacity the carried load levels off below the offered (the port's
    adapter refuses what its queue cannot hold) and never exceeds the ring's 100 Mbit/s."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        r = run_program("ntt-stream", Path(d), setup="ring", tcp="false", packets=200,
                        maxTime="10s", loadPps=3712.589, loadFrame=4377)
    assert r["load_offered_mbps"] == pytest.approx(130.0, rel=1e-6)
    assert 80.0 < r["load_carried_mbps"] < 100.0
