"""System checks of the GINE14 programs against hand-derived expectations."""

import subprocess

import pytest

from testbed import EXAMPLES_DIR
from testbed.experiments.gine14 import beats_below
from programs import run_program as _run

RTC_US = 1e6 / 8192
WIRE_US = (84 + 38) * 8 / 100  # a ping request (84-byte IP packet) on 100BASE-TX: 9.76 us
LOOP_US = 2000 / 1.8e3  # the loop's default work: 2000 cycles at 1.8 GHz


def _timer(tmp_path, timer, **params):
    r = _run("gine-timer", tmp_path, timer=timer, minUs=10, maxUs=250, stepUs=60, firings=300,
             RngRun=2, **params)
    return dict(zip(r["requested_us"], r["measured_us"]))


def test_rtc_intervals_are_whole_ticks_at_least_one(tmp_path):
    """The 8192 Hz RTC counted from the tick that woke the loop: ceil(X / 122.07 us) ticks; the
    mean of 300 intervals moves only by the difference of two wake-up latencies / 300."""
    for q, m in _timer(tmp_path, "rtc").items():
        ticks = max(1, -(-q // RTC_US))
        assert m == pytest.approx(ticks * RTC_US, abs=0.4)


def test_nanosleep_oversleeps_by_slack_plus_work_and_wakeup(tmp_path):
    """A relative sleep armed after the loop's work: interval >= X + 50 us slack + work."""
    for q, m in _timer(tmp_path, "nanosleep").items():
        assert q + 50 + LOOP_US <= m <= q + 80


def test_tctimer_is_charged_whole_cells_and_boosting_corrects_it(tmp_path):
    """43-octet packets are charged as 48 (8-byte cells): the TCTimer runs at least 48/43 of the
    request (less one 64 ns tick of truncation); the Boosted TCTimer comes within 1 %."""
    for q, m in _timer(tmp_path, "tctimer").items():
        assert m >= q * 48 / 43 - 0.064
    for q, m in _timer(tmp_path, "boosted").items():
        assert m == pytest.approx(q, rel=0.01)


def test_burst_delay_bounds(tmp_path):
    """Against the ideal timer (packets leave the switch as they arrive), gating on an RTC tick
    delays each request by at most one tick period (the burst's serialisation on the wire is
    no longer than the spread of the arrivals it gathers), and the 10 us Boosted TCTimer by
    at most two of its periods. Arrivals at B are at least a wire time apart."""
    ideal = _run("gine-burst", tmp_path, timer="ideal", RngRun=4)
    for timer, bound in (("rtc", RTC_US), ("boosted", 20.0)):
        r = _run("gine-burst", tmp_path, timer=timer, RngRun=4)
        assert r["send_us"] == pytest.approx(ideal["send_us"])
        for d, d0 in zip(r["delay_us"], ideal["delay_us"]):
            assert -1e-6 <= d - d0 <= bound + 0.5
        arrivals = sorted(r["recv_us"])
        assert all(b - a >= WIRE_US - 1e-6 for a, b in zip(arrivals, arrivals[1:]))


def test_beats_below_is_the_first_request_where_tctimer_loses():
    reqs = [10, 20, 30]
    rtc = {10: 5.0, 20: 1.0, 30: 5.0}
    nano = {10: 9.0, 20: 9.0, 30: 9.0}
    assert beats_below(reqs, {10: 1.0, 20: 2.0, 30: 1.0}, rtc, nano, 10) == 20
    assert beats_below(reqs, {10: 0.5, 20: 0.5, 30: 0.5}, rtc, {**rtc, 20: 2.0}, 10) == 20
    assert beats_below(reqs, {10: 0.5, 20: 0.5, 30: 0.5}, {**rtc, 20: 2.0}, nano, 10) == 40
    assert beats_below(reqs, {10: 9.5, 20: 0.5, 30: 0.5}, rtc, nano, 10) == 10


def test_beats_below_needs_a_difference_the_studys_timestamps_resolve():
    """A win by less than gettimeofday's 1 us is no win: at 20 us the TCTimer's 0.5 us error
    is within 1 us of RTC's 1.0 us."""
    reqs = [10, 20, 30]
    rtc = {10: 5.0, 20: 1.0, 30: 5.0}
    nano = {10: 9.0, 20: 9.0, 30: 9.0}
    assert beats_below(reqs, {10: 0.5, 20: 0.5, 30: 0.5}, rtc, nano, 10) == 20
    assert beats_below(reqs, {10: 0.5, 20: 0.5, 30: 0.5}, rtc, nano, 10, resolution=0) == 40


def test_bad_arguments_are_refused():
    for prog, arg, word in (("gine-timer", "--timer=hpet", "--timer"),
                            ("gine-timer", "--firings=0", "--firings"),
                            ("gine-burst", "--count=1", "--count"),
                            ("gine-burst", "--bandwidth=fast", "not a data rate")):
        proc = subprocess.run([str(EXAMPLES_DIR / prog), arg], capture_output=True, text=True)
        assert proc.returncode == 2 and word in proc.stderr
