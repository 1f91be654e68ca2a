"""JAXA06's benchmark under traffic besides its own (jaxa-benchmark --background; doc/rti.rst,
"Traffic besides the benchmark's"), against expectations derived by hand:

* arp: the NIST Net PC probes each federate PC once per cycle of reachable_time (uniform in
  [15, 45) s) plus delay_first_probe_time (5 s), the first probe uniform within the first
  cycle: over a run of T seconds each of the two links carries between floor(T / 50) and
  floor(T / 20) + 1 probes;
* on short cables a collision between half-duplex NICs always falls in the first 512 bit times
  (the round trip is under a microsecond): a late collision needs a full-duplex end that sends
  without listening (the duplex mismatch);
* a repetition whose background has sent 500 000 datagrams ends there, unfinished."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_args, run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "jaxa-benchmark").exists(),
                                 reason="programs not built")

# The study's half-duplex setting: 1 Mbit/s, 1024 bytes (about 12 ms per exchange).
SETTING = {"mode": "sync", "bandwidth": "1Mbps", "dataSize": 1024}


@needs_build
def test_arp_probes_follow_the_linux_cycle(tmp_path):
    r = run_program("jaxa-benchmark", tmp_path, **SETTING, exchanges=10000, reps=1,
                    background="arp")
    assert r["finished_reps"] == 1
    loop_s = r["time_per_exchange_ms"] * r["exchanges"] / 1e3
    # The run: the loop plus the start (joins, the operator's ready 1 s after the programs).
    t_min, t_max = loop_s, loop_s + 5.0
    assert 2 * int(t_min // 50) <= r["background_frames"] <= 2 * (int(t_max // 20) + 1)
    assert r["background_frames_runs"] == [r["background_frames"]]


@needs_build
def test_late_collisions_need_the_duplex_mismatch(tmp_path):
    common = dict(SETTING, exchanges=200, reps=1, halfDuplex="true", background="udp",
                  backgroundRate=100)
    (tmp_path / "half").mkdir()
    half = run_program("jaxa-benchmark", tmp_path / "half", **common, emulatorNic="half")
    assert half["eth_late_collisions"] == 0
    mis = tmp_path / "mismatch"
    mis.mkdir()
    mismatch = run_program("jaxa-benchmark", mis, **common, emulatorNic="full")
    assert mismatch["eth_late_collisions"] > 0
    assert sum(mismatch["eth_late_collisions_runs"]) == mismatch["eth_late_collisions"]


@needs_build
def test_background_limit_ends_a_repetition_unfinished(tmp_path):
    r = run_program("jaxa-benchmark", tmp_path, **SETTING, exchanges=200, reps=1,
                    halfDuplex="true", emulatorNic="full", background="udp",
                    backgroundRate=1000)
    assert r["finished_reps"] == 0
    assert r["background_limit_reps"] == 1
    assert r["background_frames"] == 500000


@needs_build
@pytest.mark.parametrize("args,message", [
    (["--background=udp"], "--background=udp needs --backgroundRate above 0"),
    (["--backgroundRate=5"], "--backgroundRate is for --background=udp"),
    (["--background=dns"], "background"),
])
def test_bad_background_options_are_refused(tmp_path, args, message):
    r, out = run_args("jaxa-benchmark", tmp_path, *args)
    assert r.returncode != 0 and out is None
    assert message in r.stderr
