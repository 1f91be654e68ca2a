"""Diagnostics of a campaign: an unreachable --scheduler is one line on stderr
and exit 2 within seconds (Dask's own connect retried a refused connection for 30 s, then a
traceback); the ETA comes from the points' cost estimates, not from a mean over finished points
(wrong on uneven grids)."""

import os
import socket
import subprocess
import sys
import threading
import time

import pytest

import testbed.build
import testbed.progress
from testbed.experiment import get
from testbed.experiments import tno03
from testbed.progress import Progress, point_costs

ROOT = testbed.build.ROOT


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*args, timeout=60):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "testbed.cli", *args], capture_output=True,
                       text=True, timeout=timeout, env=env, cwd=ROOT)
    return r, time.monotonic() - t0


def _one_line(r):
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert lines and "--scheduler" in lines[-1], r.stderr[-2000:]
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    return lines[-1]


@pytest.mark.skipif(not (testbed.build.EXAMPLES_DIR / "gine-timer").exists(),
                    reason="programs not built")
@pytest.mark.parametrize("address", ["refused", "garbage", "noport"])
def test_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, address):
    """A port nothing listens on (connection refused), a server that answers something that is
    not Dask's protocol, an address without a port: one line naming --scheduler, exit 2, in
    well under Dask's 30 s connect timeout."""
    server = None
    if address == "refused":
        addr = f"tcp://127.0.0.1:{_free_port()}"
    elif address == "noport":
        addr = "tcp://127.0.0.1"
    else:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(4)

        def answer():
            while True:
                try:
                    c, _ = server.accept()
                except OSError:
                    return
                c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 64)
                c.close()

        threading.Thread(target=answer, daemon=True).start()
        addr = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        r, took = _cli("sweep", "gine-timer", "--param", "minUs=100,200", "--scheduler", addr,
                       "--out", str(tmp_path / "o"), "--no-progress")
    finally:
        if server is not None:
            server.close()
    line = _one_line(r)
    assert addr in line
    assert took < 25, f"took {took:.1f} s"


class _Exp:
    """An experiment stand-in: what Progress and _point_costs read."""

    def __init__(self, id, cost):
        self.id = id
        self.cost = cost


def test_eta_follows_the_cost_estimates_on_an_uneven_grid():
    """Four points of one experiment whose cost estimates are 1, 1, 1 and 9 (e.g. --duration
    1, 1, 1, 9 s), one worker: the three cheap ones took 1 s each, so the last one needs about
    9 s (cost x measured seconds per unit), not the 1 s a mean over finished points says."""
    exp = _Exp("uneven", lambda p: p["duration"])
    todo = [(exp, {"duration": d}) for d in (1, 1, 1, 9)]
    lines = []
    bar = Progress(4, lines.append, True, costs=point_costs(todo), jobs=1)
    assert bar.eta() != bar.eta()  # nothing finished: no estimate (nan)
    for i in range(3):
        bar.step(index=i, wall=1.0)
    assert bar.eta() == pytest.approx(9.0)
    # Two workers share the work left only when there are two points left.
    bar2 = Progress(4, lines.append, False, costs=point_costs(todo), jobs=2)
    bar2.step(index=0, wall=1.0)
    bar2.step(index=1, wall=1.0)
    assert bar2.eta() == pytest.approx((1 + 9) / 2)


def test_eta_of_experiments_without_estimates_and_with_several_units():
    """An experiment without a cost estimate counts points (its own mean run time); a unit of
    which no point has finished yet is charged the mean run time of all finished points."""
    a = _Exp("a", None)
    b = _Exp("b", lambda p: p["n"])
    todo = [(a, {}), (a, {}), (b, {"n": 10}), (b, {"n": 30})]
    bar = Progress(4, lambda m: None, False, costs=point_costs(todo), jobs=1)
    bar.step(index=0, wall=4.0)
    # a: one point left at 4 s; b: no point finished, 2 points at the mean 4 s each.
    assert bar.eta() == pytest.approx(4 + 2 * 4)
    bar.step(index=2, wall=5.0)  # b: 0.5 s per unit of estimate
    assert bar.eta() == pytest.approx(4 + 30 * 0.5)
    # A failed point (no run time) is done, but teaches nothing about its unit's rate.
    bar.step(index=1)
    assert bar.eta() == pytest.approx(30 * 0.5)


def _grid_eta(walls_done, durations, jobs=1):
    """Progress over a sweep-like experiment without estimates (points "--duration=Ns"), after
    the first len(walls_done) points finished with those run times."""
    exp = _Exp("sweep-x", None)
    todo = [(exp, {"duration": f"{d}s", "netem": "true", "RngRun": 1 + k})
            for k, d in enumerate(durations)]
    bar = Progress(len(todo), lambda m: None, False, costs=point_costs(todo),
                            jobs=jobs, params=[p for _, p in todo])
    for i, w in enumerate(walls_done):
        bar.step(index=i, wall=w)
    return bar.eta()


def test_eta_without_estimates_fits_the_grids_parameters():
    """A sweep over --duration 1..10 s whose points take 0.5 s + 2 s per simulated second (the
    program's start-up plus its events): after the points 1-4 s (2.5, 4.5, 6.5, 8.5 s), the 6
    left take by hand 6 x 0.5 + 2 x (5 + ... + 10) = 93 s. The mean per finished point says
    6 x 5.5 = 33 s (65 % low); the least-squares fit on the parameter is within 1 %."""
    durations = list(range(1, 11))
    walls = [0.5 + 2 * d for d in durations[:4]]
    assert _grid_eta(walls, durations) == pytest.approx(93.0, rel=0.01)
    assert abs(6 * sum(walls) / 4 - 93.0) / 93.0 > 0.6  # the old rule, for the record
    # two workers share it
    assert _grid_eta(walls, durations, jobs=2) == pytest.approx(93.0 / 2, rel=0.01)
    # measured run times are noisy (+-5 %): within 10 % of the hand value
    noisy = [w * f for w, f in zip(walls, (1.05, 0.95, 1.04, 0.97))]
    assert _grid_eta(noisy, durations) == pytest.approx(93.0, rel=0.10)


def test_eta_without_estimates_falls_back_to_the_mean():
    """Too few finished points to fit (fewer than the varying parameters + 2), or no parameter
    that varies: the mean run time per point, as before. Units ("ms") are read: 1000 ms and 1 s
    are one value."""
    assert _grid_eta([2.5, 4.5], list(range(1, 11))) == pytest.approx(8 * 3.5)
    assert _grid_eta([3.0, 5.0, 4.0], [2] * 6) == pytest.approx(3 * 4.0)
    assert testbed.progress._numeric_params({"delay": "50ms", "bandwidth": "2Mbps", "n": "7",
                                     "netem": "true", "RngRun": 3, "name": "x",
                                     "d": "1000ms"}) == {
        "delay": pytest.approx(0.05), "bandwidth": 2e6, "n": 7.0, "d": pytest.approx(1.0)}


def test_pipeline_points_have_the_programs_event_estimate():
    """tno-pipeline's experiment orders its points and computes the ETA with the estimate that
    the program itself uses for --maxEvents: 100 x frequency x (warmup + duration)."""
    assert tno03.pipeline_cost({"frequency": 1000, "duration": 1.0}) == pytest.approx(
        100 * 1000 * 1.3)
    assert get("tno-pipeline").cost is tno03.pipeline_cost
