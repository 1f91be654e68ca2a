"""The route cache's ageing timer (``--flushPhase``, doc/ntt.rst): the first flush at the phase's
share of the interval after the router starts, then one every interval; phase 0 is one interval.
The expected count is the number of those instants up to the run's end, by hand."""

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
