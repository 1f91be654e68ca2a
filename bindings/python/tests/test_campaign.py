"""The campaign engine: points, resumable storage, failures, validation arithmetic."""

import json
import os
import stat
from pathlib import Path

import pytest

import testbed.build
import testbed.points
import testbed.records
from testbed import campaign
from testbed.experiment import Analysis, Experiment, Validation
from testbed.records import point_key
from testbed.runner import PARENT_PID_VARIABLE


def test_validation_error_and_tolerance():
    why = {"reason": "test"}
    v = Validation("p", measured=100.0, simulated=103.0, tolerance_pct=3.0, **why)
    assert v.error_pct == pytest.approx(3.0)
    assert v.passed
    assert not Validation("p", 100.0, 103.5, 3.0, **why).passed
    assert Validation("p", 100.0, 96.5, 3.5, **why).passed
    d = Validation("p", 0.0, 1.0, 5.0, **why).as_dict()
    assert d["pass"] is False and d["error_pct"] is None


def test_point_key_is_order_independent():
    assert point_key({"a": 1, "b": 2}) == point_key({"b": 2, "a": 1})
    assert point_key({"a": 1}) != point_key({"a": 2})


def _exp(failx=None):
    def points(scale):
        n = 3 if scale == "quick" else 6
        return [{"x": i, **({"failx": failx} if failx is not None else {})} for i in range(n)]

    def analyse(records):
        rows = [{"x": r.params["x"], "y": r.result["y"]} for r in records]
        return Analysis(rows=rows, metrics={"sum_y": sum(r["y"] for r in rows)},
                        validation=[Validation("sum", 5.0, sum(r["y"] for r in rows), 1.0,
                                               reason="test")])

    return Experiment(id="sq", study="TEST", title="squares", program="square",
                      points=points, analyse=analyse)


def test_campaign_runs_and_resumes(tmp_path, fake_program):
    out = tmp_path / "results"
    res = campaign.run_campaign([_exp()], "quick", 2, out, log=lambda m: None)
    recs = res["sq"]
    assert [r.result["y"] for r in recs] == [0.0, 1.0, 4.0]
    assert len(fake_program.read_text().split()) == 3
    # Second run: nothing recomputed.
    campaign.run_campaign([_exp()], "quick", 2, out, log=lambda m: None)
    assert len(fake_program.read_text().split()) == 3
    # Paper scale adds points 3..5 only.
    res = campaign.run_campaign([_exp()], "paper", 2, out, log=lambda m: None)
    assert len(res["sq"]) == 6
    assert sorted(fake_program.read_text().split()) == ["0", "1", "2", "3", "4", "5"]
    m = campaign.finish_experiment(_exp(), res["sq"], "paper", out, plots=False)
    assert m["metrics"]["sum_y"] == 55.0
    assert m["validation"][0]["pass"] is False
    saved = json.loads((out / "sq" / "metrics.json").read_text())
    # The contract's fields (design.md), with the validation summary and the builds that made
    # the records.
    assert set(saved) == {"experiment", "study", "scale", "metrics", "validation",
                          "validation_summary", "builds"}
    assert (out / "sq" / "data.csv").read_text().splitlines()[0] == "x,y"


def test_failed_point_keeps_finished_points(tmp_path, fake_program):
    out = tmp_path / "results"
    res = campaign.run_campaign([_exp(failx=1)], "quick", 1, out, log=lambda m: None)
    assert isinstance(res["sq"], Exception)
    assert "exit 3" in str(res["sq"])
    done = list((out / "sq" / "points").glob("*.json"))
    assert len(done) == 2  # x=0 and x=2 are kept


def test_missing_program_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", tmp_path)
    res = campaign.run_campaign([_exp()], "quick", 1, tmp_path / "r", log=lambda m: None)
    assert "is not built" in str(res["sq"])


def test_unknown_scale_rejected(tmp_path):
    with pytest.raises(campaign.CampaignError):
        campaign.run_campaign([_exp()], "huge", 1, tmp_path, log=lambda m: None)


def test_shared_points_run_once(tmp_path, fake_program):
    """Experiments of the same program with identical points compute them once; each stored
    record carries its own experiment's id."""
    out = tmp_path / "results"
    a = _exp()
    b = _exp()
    a.id, b.id = "sq-a", "sq-b"
    res = campaign.run_campaign([a, b], "quick", 2, out, log=lambda m: None)
    assert [r.result["y"] for r in res["sq-b"]] == [0.0, 1.0, 4.0]
    assert len(fake_program.read_text().split()) == 3  # not 6
    for exp_id in ("sq-a", "sq-b"):
        for f in (out / exp_id / "points").glob("*.json"):
            rec = json.loads(f.read_text())
            assert rec["experiment"] == exp_id and rec["program"] == "square"
    # A later run of one of them alone reuses the other's stored points.
    (out / "sq-a").rename(out / "sq-a-old")
    res = campaign.run_campaign([a], "quick", 1, out, log=lambda m: None)
    assert len(fake_program.read_text().split()) == 3
    assert {r.experiment for r in res["sq-a"]} == {"sq-a"}


def test_point_records_say_rng_and_have_the_files_mode(tmp_path, fake_program):
    out = tmp_path / "results"
    exp = _exp()
    pts = exp.points

    def with_rng(scale):
        return [{**p, "RngRun": 7} for p in pts(scale)]

    exp.points = with_rng
    campaign.run_campaign([exp], "quick", 1, out, log=lambda m: None)
    campaign.finish_experiment(exp, campaign.run_campaign([exp], "quick", 1, out,
                                                          log=lambda m: None)["sq"],
                               "quick", out, plots=False)
    f = next((out / "sq" / "points").glob("*.json"))
    assert json.loads(f.read_text())["rng"] == {"RngRun": 7, "RngSeed": 1}
    mode = lambda p: stat.S_IMODE(p.stat().st_mode)  # noqa: E731
    assert mode(f) == mode(out / "sq" / "data.csv") == mode(out / "sq" / "metrics.json")


def test_stale_temporaries_are_removed(tmp_path, fake_program):
    out = tmp_path / "results"
    pdir = out / "sq" / "points"
    pdir.mkdir(parents=True)
    (pdir / ".out-abc.json").write_text("{")
    (pdir / ".tmp-def.json").write_text("{")
    campaign.run_campaign([_exp()], "quick", 1, out, log=lambda m: None)
    assert not list(pdir.glob(".*"))


def test_costliest_points_start_first(tmp_path, fake_program):
    """With one job the points run costliest first (estimate x); results keep point order."""
    out = tmp_path / "results"
    exp = _exp()
    exp.cost = lambda p: {0: 1.0, 1: 5.0, 2: 3.0}[p["x"]]
    res = campaign.run_campaign([exp], "quick", 1, out, log=lambda m: None)
    assert fake_program.read_text().split() == ["1", "2", "0"]
    assert [r.result["y"] for r in res["sq"]] == [0.0, 1.0, 4.0]
    # Points without an estimate go first, in their order; equal estimates keep their order.
    plain, costed = _exp(), _exp()
    costed.cost = lambda p: 1.0
    todo = [(costed, {"x": 0}), (plain, {"x": 1}), (costed, {"x": 2})]
    assert [t[1]["x"] for t in testbed.points._costliest_first(todo)] == [1, 0, 2]


def test_jaxa_cost_estimate_orders_by_work():
    from testbed.experiments.jaxa06 import point_cost

    base = {"mode": "sync", "dataSize": 64, "reps": 10, "exchanges": 1000}
    assert point_cost({**base, "extraOther": 6}) > point_cost({**base, "extraCrc": 6})
    assert point_cost({**base, "mode": "bidir"}) > point_cost(base)
    assert point_cost({**base, "dataSize": 4096}) > point_cost(base)
    assert point_cost({**base, "mode": "async"}) < point_cost(base)


def _sleepy_program(tmp_path, seconds):
    """A program that records its pid, sleeps, then prints x*x. As the module's programs do
    (ProgramOptions::Parse), it arms Linux's death signal when the runner names its parent
    (runner.PARENT_PID_VARIABLE)."""
    bindir = tmp_path / "examples"
    bindir.mkdir(exist_ok=True)
    prog = bindir / "sleepy"
    prog.write_text(f"""#!/usr/bin/env python3
import ctypes, json, os, signal, sys, time
parent = os.environ.get({PARENT_PID_VARIABLE!r})
if parent and sys.platform == "linux":
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != int(parent):
        os.kill(os.getpid(), signal.SIGKILL)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(tmp_path)!r} + "/pid-" + args["x"], "w").write(f"{{os.getpid()}} {{os.getppid()}}")
time.sleep({seconds})
json.dump({{"y": float(args["x"]) ** 2}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    return bindir


def _sleepy_exp():
    e = _exp()
    e.program = "sleepy"
    return e


def test_killed_worker_loses_only_its_point(tmp_path, monkeypatch):
    """A campaign on an existing 2-worker cluster: one worker is killed while a point runs; the
    scheduler runs the point again, the campaign completes, and the records equal those of a
    run without the kill."""
    import threading
    import time as _time

    from distributed import LocalCluster

    bindir = _sleepy_program(tmp_path, 1.0)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    reference = campaign.run_campaign([_sleepy_exp()], "quick", 2, tmp_path / "ref",
                                      log=lambda m: None, progress=False)
    for f in tmp_path.glob("pid-*"):
        f.unlink()
    killed = []

    def killer():
        for _ in range(200):
            pids = list(tmp_path.glob("pid-*"))
            if pids:
                worker = int(pids[0].read_text().split()[1])  # the program's parent
                os.kill(worker, 9)
                killed.append(worker)
                return
            _time.sleep(0.05)

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        t = threading.Thread(target=killer)
        t.start()
        res = campaign.run_campaign([_sleepy_exp()], "quick", 2, tmp_path / "killed",
                                    log=lambda m: None, scheduler=cluster.scheduler_address,
                                    progress=False)
        t.join()
    assert killed, "no worker was killed"
    assert not isinstance(res["sq"], Exception), res["sq"]
    assert [r.result for r in res["sq"]] == [r.result for r in reference["sq"]]


def test_sigkilled_campaign_leaves_no_program_running(tmp_path):
    """SIGKILL of the campaign process: its workers notice, kill the running program and go."""
    import subprocess as sp
    import sys as _sys
    import time as _time

    bindir = _sleepy_program(tmp_path, 60)
    script = tmp_path / "run.py"
    script.write_text(f"""
import sys
sys.path.insert(0, {str(Path(campaign.__file__).parents[1])!r})
import testbed.build
from testbed import campaign
from testbed.experiment import Analysis, Experiment
testbed.build.EXAMPLES_DIR = __import__("pathlib").Path({str(bindir)!r})
if __name__ == "__main__":
    exp = Experiment(id="sq", study="T", title="t", program="sleepy",
                     points=lambda s: [{{"x": 0}}], analyse=lambda r: Analysis([], {{}}))
    campaign.run_campaign([exp], "quick", 1, __import__("pathlib").Path({str(tmp_path / "r")!r}),
                          log=lambda m: None, progress=False)
""")
    proc = sp.Popen([_sys.executable, str(script)])
    pidfile = tmp_path / "pid-0"
    for _ in range(600):
        if pidfile.exists() and pidfile.read_text():
            break
        _time.sleep(0.05)
    assert pidfile.exists(), "the program never started"
    program = int(pidfile.read_text().split()[0])
    proc.kill()
    proc.wait()
    for _ in range(100):
        try:
            os.kill(program, 0)
        except ProcessLookupError:
            break
        _time.sleep(0.1)
    else:
        os.kill(program, 9)
        raise AssertionError("the program outlived its campaign by 10 s")


def test_paper_points_forward_progress(tmp_path, monkeypatch):
    """A long experiment's paper-scale points run with --progress; their stderr lines reach the
    campaign's log while they run."""
    bindir = tmp_path / "examples"
    bindir.mkdir()
    prog = bindir / "chatty"
    prog.write_text("""#!/usr/bin/env python3
import json, sys
args = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "true") for a in sys.argv[1:])
assert args.get("progress") == "true", args
print("simulated 50%", file=sys.stderr, flush=True)
json.dump({"y": 1.0}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    exp = _exp()
    exp.program, exp.progress = "chatty", True
    lines = []
    res = campaign.run_campaign([exp], "paper", 1, tmp_path / "r", log=lines.append,
                                progress=False)
    assert not isinstance(res["sq"], Exception), res["sq"]
    assert any("chatty: simulated 50%" in line for line in lines), lines


def test_programs_of_an_in_tree_build_are_found(tmp_path, monkeypatch):
    """contrib/testbed in an ns-3 tree: programs are build/.../ns3.<version>-<name>-<profile>."""
    tree = tmp_path / "ns-3-dev"
    exe = tree / "build" / "contrib" / "testbed" / "examples" / "ns3.44-jaxa-benchmark-default"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    (exe.parent / "ns3.44-jaxa-benchmark-extra-default").write_text("")  # another program
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", tmp_path / "no-standalone-build")
    monkeypatch.setenv("TESTBED_NS3_TREE", str(tree))
    assert testbed.build.program_path("jaxa-benchmark") == exe
    monkeypatch.setenv("TESTBED_PROGRAMS_DIR", str(tmp_path / "mine"))
    assert testbed.build.program_path("jaxa-benchmark") == tmp_path / "mine" / "jaxa-benchmark"


def test_a_short_point_never_waits_behind_a_long_one(tmp_path, monkeypatch):
    """Two jobs, four points, costliest first: x=0 (cost 10) runs until x=2 and x=3 (cost 1 each)
    have run, or gives up after 20 s. The other worker must take x=1, then x=2 and x=3 while x=0
    runs; if a worker were handed a second point at once (as Dask's scheduler does with a few
    tasks), x=2 would wait behind x=0 and x=0 would give up (y = -1)."""
    bindir = tmp_path / "examples"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    prog = bindir / "waiter"
    prog.write_text(f"""#!/usr/bin/env python3
import json, sys, time
if sys.argv[1:] == ["--describe"]:
    json.dump({{"program": "waiter", "description": "waits", "fields": [
        {{"name": "y", "type": "real", "help": "0, or -1 if it gave up"}}], "options": [
        {{"name": "x", "type": "uint", "default": 0, "help": "x"}}]}}, sys.stdout)
    sys.exit(0)
if sys.argv[1:2] == ["--check"]:
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(log)!r}, "a").write(args["x"] + "\\n")
y = 0.0
if args["x"] == "0":
    t0 = time.monotonic()
    while not {{"2", "3"}} <= set(open({str(log)!r}).read().split()):
        if time.monotonic() - t0 > 20:
            y = -1.0
            break
        time.sleep(0.05)
json.dump({{"y": y}}, open(args["output"], "w"))
""")
    prog.chmod(0o755)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    exp = Experiment(id="wt", study="TEST", title="waits", program="waiter",
                     points=lambda scale: [{"x": i} for i in range(4)],
                     analyse=lambda records: Analysis(rows=[], metrics={}),
                     cost=lambda p: {0: 10.0, 1: 5.0, 2: 1.0, 3: 1.0}[p["x"]])
    res = campaign.run_campaign([exp], "quick", 2, tmp_path / "results", log=lambda m: None)
    assert [r.result["y"] for r in res["wt"]] == [0.0, 0.0, 0.0, 0.0]
    assert sorted(log.read_text().split()[:2]) == ["0", "1"]
