"""The programs' --progress reporter leaves no trace in their records: a run with it records
what a run without records, its event count included (ns-3's ShowProgress, used before, schedules
events that follow the wall clock, so the same point recorded different event counts)."""

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
