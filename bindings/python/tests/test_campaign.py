"""The campaign engine: points, resumable storage, failures, validation arithmetic."""

import json
import stat

import pytest

from testbed import campaign
from testbed.campaign import Analysis, Experiment, Validation


def test_validation_error_and_tolerance():
    v = Validation("p", measured=100.0, simulated=103.0, tolerance_pct=3.0)
    assert v.error_pct == pytest.approx(3.0)
    assert v.passed
    assert not Validation("p", 100.0, 103.5, 3.0).passed
    assert Validation("p", 100.0, 96.5, 3.5).passed
    d = Validation("p", 0.0, 1.0, 5.0).as_dict()
    assert d["pass"] is False and d["error_pct"] is None


def test_point_key_is_order_independent():
    assert campaign.point_key({"a": 1, "b": 2}) == campaign.point_key({"b": 2, "a": 1})
    assert campaign.point_key({"a": 1}) != campaign.point_key({"a": 2})


@pytest.fixture
def fake_program(tmp_path, monkeypatch):
    """A stand-in experiment program: prints x*x as JSON; fails when x == failx."""
    bindir = tmp_path / "examples"
    bindir.mkdir()
    log = tmp_path / "calls.log"
    prog = bindir / "square"
    prog.write_text(f"""#!/usr/bin/env python3
import json, sys
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(log)!r}, "a").write(args["x"] + "\\n")
if args.get("failx") == args["x"]:
    sys.exit(3)
json.dump({{"y": float(args["x"]) ** 2}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(campaign, "EXAMPLES_DIR", bindir)
    return log


def _exp(failx=None):
    def points(scale):
        n = 3 if scale == "quick" else 6
        return [{"x": i, **({"failx": failx} if failx is not None else {})} for i in range(n)]

    def analyse(records):
        rows = [{"x": r.params["x"], "y": r.result["y"]} for r in records]
        return Analysis(rows=rows, metrics={"sum_y": sum(r["y"] for r in rows)},
                        validation=[Validation("sum", 5.0, sum(r["y"] for r in rows), 1.0)])

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
    assert set(saved) == {"experiment", "study", "scale", "metrics", "validation"}
    assert (out / "sq" / "data.csv").read_text().splitlines()[0] == "x,y"


def test_failed_point_keeps_finished_points(tmp_path, fake_program):
    out = tmp_path / "results"
    res = campaign.run_campaign([_exp(failx=1)], "quick", 1, out, log=lambda m: None)
    assert isinstance(res["sq"], Exception)
    assert "exit 3" in str(res["sq"])
    done = list((out / "sq" / "points").glob("*.json"))
    assert len(done) == 2  # x=0 and x=2 are kept


def test_missing_program_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign, "EXAMPLES_DIR", tmp_path)
    res = campaign.run_campaign([_exp()], "quick", 1, tmp_path / "r", log=lambda m: None)
    assert "is not built" in str(res["sq"])


def test_unknown_scale_rejected(tmp_path):
    with pytest.raises(campaign.CampaignError):
        campaign.run_campaign([_exp()], "huge", 1, tmp_path, log=lambda m: None)


def test_shared_points_run_once(tmp_path, fake_program):
    """Experiments with the same engine and identical points compute them once."""
    out = tmp_path / "results"
    a = _exp()
    b = _exp()
    a.id, b.id = "sq-a", "sq-b"
    a.engine = b.engine = "square-engine"
    campaign._REGISTRY.update({"sq-a": a, "sq-b": b})
    try:
        res = campaign.run_campaign([a, b], "quick", 2, out, log=lambda m: None)
        assert [r.result["y"] for r in res["sq-b"]] == [0.0, 1.0, 4.0]
        assert len(fake_program.read_text().split()) == 3  # not 6
        # A later run of one of them alone reuses the other's stored points.
        (out / "sq-a").rename(out / "sq-a-old")
        campaign.run_campaign([a], "quick", 1, out, log=lambda m: None)
        assert len(fake_program.read_text().split()) == 3
    finally:
        campaign._REGISTRY.pop("sq-a", None)
        campaign._REGISTRY.pop("sq-b", None)


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
    todo = [(costed, {"x": 0}, None), (plain, {"x": 1}, None), (costed, {"x": 2}, None)]
    assert [t[1]["x"] for t in campaign._costliest_first(todo)] == [1, 0, 2]


def test_jaxa_cost_estimate_orders_by_work():
    from testbed.experiments.jaxa06 import point_cost

    base = {"mode": "sync", "dataSize": 64, "reps": 10, "exchanges": 1000}
    assert point_cost({**base, "extraOther": 6}) > point_cost({**base, "extraCrc": 6})
    assert point_cost({**base, "mode": "bidir"}) > point_cost(base)
    assert point_cost({**base, "dataSize": 4096}) > point_cost(base)
    assert point_cost({**base, "mode": "async"}) < point_cost(base)
