"""Exp. 3's free readings of the route cache and its filler (doc/ntt.rst), each expectation
counted by hand. The ageing timer (``--flushPhase``): the first flush at the phase's share of
the interval after the router starts, then one every interval; phase 0 is one interval. The
random computer (``--randomAfterFill``): it stops at the fill or goes on."""

import math
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                 reason="programs not built")


@needs_build
@pytest.mark.parametrize("phase", [0.0, 0.25, 0.9])
def test_flushes_follow_the_phase(tmp_path, phase):
    interval = 0.5
    r = run_program("ntt-stream", tmp_path, setup="router", tcp="false", receiverSide="fddi",
                    packets=200, maxTime="10s", flushInterval=f"{interval:g}s",
                    flushPhase=phase)
    first = (phase or 1.0) * interval
    expected = 0 if r["end_s"] < first else math.floor((r["end_s"] - first) / interval) + 1
    assert r["flush_phase"] == phase
    assert r["cache_flushes"] == expected, (r["end_s"], first)
    assert expected >= 1


@needs_build
@pytest.mark.parametrize("phase", ["-0.1", "1.5"])
def test_a_phase_outside_one_interval_is_refused(tmp_path, phase):
    import subprocess

    p = subprocess.run([str(Path(EXAMPLES_DIR) / "ntt-stream"), "--setup=router",
                        f"--flushPhase={phase}"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "flushPhase" in p.stderr and "Traceback" not in p.stderr


@needs_build
@pytest.mark.parametrize("after", ["continue", "stop"])
def test_the_random_computer_stops_at_the_fill_or_goes_on(tmp_path, after):
    """Exp. 3's two readings: the random computer sends one datagram every 1 / rate from the
    load's start; stopped when the fill is seen it has sent rate x fill time (+1 for the one at
    0); going on, rate x (end - start)."""
    rate = 1000.0
    r = run_program("ntt-stream", tmp_path, setup="router", tcp="true", receiverSide="fddi",
                    randomRate=rate, flushInterval="60s", maxTime="30s", randomAfterFill=after)
    assert r["random_after_fill"] == after and r["cache_filled"] == 1
    start = r["stream_start_s"] - 0.5 - r["fill_time_s"]  # the load's start
    span = r["fill_time_s"] if after == "stop" else r["end_s"] - start
    assert abs(r["random_sent"] - (math.floor(span * rate + 1e-9) + 1)) <= 1, (r["random_sent"], span)
