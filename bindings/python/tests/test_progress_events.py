"""The programs' --progress reporter leaves no trace in their records: a run with it records
what a run without records, its event count included (ns-3's ShowProgress, used before, schedules
events that follow the wall clock, so the same point recorded different event counts); and the
campaign waits for a point's last progress line only where there can be one."""

import pytest
from programs import run_args

WALL = {"wall_seconds", "wall_s", "setup_wall_s", "run_wall_s", "peak_rss_mb", "rss_mb"}


def _fields(rec):
    return {k: v for k, v in rec.items() if k not in WALL and "wall" not in k and "rss" not in k}


def test_progress_does_not_change_the_record(tmp_path):
    args = ["--senderPcs=2", "--sendersPerGroup=4", "--nodesPerPc=500", "--receivers=1",
            "--querier=true", "--querierItr=100", "--warmup=1.6", "--duration=1.4"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain, rec0 = run_args("mega-scale", tmp_path / "a", *args)
    shown, rec1 = run_args("mega-scale", tmp_path / "b", *args, "--progress=true")
    assert plain.returncode == 0, plain.stderr[-800:]
    assert shown.returncode == 0, shown.stderr[-800:]
    assert "simulating +3s" in shown.stderr  # the reporter ran, to warmup + duration (1.6 + 1.4 s)
    assert "simulating" not in plain.stderr
    assert rec0["events"] > 0
    assert _fields(rec0) == _fields(rec1)


class _Done:
    """A finished point's future."""

    def __init__(self, wall):
        self.wall = wall

    def result(self, timeout=None):
        return {"ok": True, "wall": self.wall}

    def release(self):
        pass


class _Bar:
    def step(self, **kwargs):
        pass


@pytest.mark.parametrize("progress, wall, sleeps", [(True, 0.05, 0), (False, 30.0, 0),
                                                    (True, 30.0, 1)])
def test_the_campaign_waits_for_progress_lines_only_after_a_point_that_can_have_printed_one(
        monkeypatch, progress, wall, sleeps):
    """At paper scale the campaign waits 0.2 s after a point for its last progress line, one
    point at a time: after each of a paper reproduction's 11 000 short band points that was 38
    minutes of an idle machine. A point prints a line every PROGRESS_PERIOD_S of wall clock, so
    only a point of an experiment with progress reports that ran that long is waited for."""
    from testbed import points
    from testbed.experiment import Experiment

    slept = []
    monkeypatch.setattr(points.time, "sleep", lambda s: slept.append(s))
    exp = Experiment(id="x", study="X", title="x", program="p", points=lambda s: [],
                     analyse=None, progress=progress)
    f = _Done(wall)
    futures = {f: [(exp, {}, None)]}
    points._finish(f, futures, True, {}, print, _Bar())
    assert len(slept) == sleeps
    assert not futures
