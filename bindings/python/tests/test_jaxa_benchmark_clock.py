"""JAXA06's benchmark program: how it waits for callbacks and where its clock starts, as named
choices (doc/jaxa.rst, "The benchmark program and its clock").

Hand-timed expectations for sleep-polling (evokeCallback(0), then a 1 ms sleep when nothing came)
on the federate PCs' jiffy timer (a sleep ends on the first tick at or after its expiry, plus one
tick, then the scheduling latency of some microseconds), with no bandwidth limit, where a step's
calls and its grant's round trip take about 0.3 ms (the evoke run's time per exchange):

* a program woken at tick k finds its grant, makes the next step's calls, polls (nothing yet) and
  sleeps from about k + 0.1 ms: its 1 ms expires at about k + 1.1 ms, the first tick at or after
  it is k + 2 ticks at 1000 Hz (2 ms) or k + 1 tick at 250 Hz (4 ms), plus one tick: it wakes at
  k + 3 ms or k + 8 ms, where the grant (0.3 ms after the calls) is waiting. Both programs' ticks
  fall together (both PCs run the same timer from 0), so every step takes 3 ms or 8 ms, plus the
  scheduling latency;
* the clock started before "ready" adds the time from that start to "ready" over the exchanges:
  the operator starts the benchmark 1 s after the programs (doc/rti.rst), so about 1 ms per
  exchange of 1 000 from the program's start, its join or its discovery alike."""

from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR

from programs import run_program

needs_build = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "jaxa-benchmark").exists(),
                                 reason="programs not built")


def _run(tmp_path, wait):
    d = tmp_path / wait
    d.mkdir()
    return run_program("jaxa-benchmark", d, mode="sync", dataSize=64, reps=2, wait=wait)


@needs_build
@pytest.mark.parametrize("wait,step_ms", [("poll1000", 3.0), ("poll250", 8.0)])
def test_sleep_polling_quantises_each_step_to_the_tick(tmp_path, wait, step_ms):
    evoke = _run(tmp_path, "evoke")
    poll = _run(tmp_path, wait)
    assert evoke["wait"] == "evoke" and poll["wait"] == wait
    assert evoke["time_per_exchange_ms"] < 0.5  # the premise: a step well inside a tick
    for t in poll["time_per_exchange_ms_runs"]:
        # the tick's steps plus at most 0.1 ms of scheduling latency a step
        assert step_ms <= t <= step_ms + 0.1


@needs_build
def test_a_clock_started_before_ready_adds_the_wait_for_ready_per_exchange(tmp_path):
    r = _run(tmp_path, "evoke")
    for region in ("program_start", "join", "discovery"):
        per_exchange = r[f"clock_from_{region}_ms_per_exchange"]
        assert 0.95 <= per_exchange <= 1.05, region
    # the program starts before it joins, and joins before it discovers the sender's instance
    assert (r["clock_from_program_start_ms_per_exchange"] >= r["clock_from_join_ms_per_exchange"]
            >= r["clock_from_discovery_ms_per_exchange"])
