"""Analyses as stages of shared campaigns (testbed.stages): the points of every analysis waiting
on points run as one campaign, the fits of every analysis waiting on fits first and once per
destination, a later set of points in the next round, and an analysis's exception is its own."""

import json

import pytest

from testbed import stages
from testbed.experiment import Experiment, Record
from testbed.stages import Fit, Fits, Points, points_stage, run_stages


def _exp(exp_id, pts):
    return Experiment(id=exp_id, study="S", title="t", program="p",
                      points=lambda scale: list(pts), analyse=lambda r: None)


@pytest.fixture
def campaigns(monkeypatch):
    calls = []

    def fake(exps, scale, jobs, out, **kw):
        calls.append(sorted(e.id for e in exps))
        return {e.id: [Record(params=p, result={"y": p["x"] * 2}) for p in e.points(scale)]
                for e in exps}

    monkeypatch.setattr(stages, "run_campaign", fake)
    return calls


def test_points_of_all_analyses_run_in_one_campaign_and_gates_in_the_next(tmp_path, campaigns):
    fitted = []

    def with_fits(name):
        dest = tmp_path / "fits" / "k.json"  # both analyses need the same fit
        yield Fits([Fit(dest, lambda: fitted.append(name) or {"k": 3})])
        k = json.loads(dest.read_text())["k"]
        recs = yield Points(_exp(f"a-{name}", [{"x": k}]))
        more = yield Points(_exp(f"a-{name}", [{"x": 10}]))  # a gate's points
        return [r.result["y"] for r in recs + more]

    def plain():
        recs = yield Points(_exp("b", [{"x": 1}, {"x": 2}]))
        return [r.result["y"] for r in recs]

    res = run_stages({"one": with_fits("one"), "two": with_fits("two"), "b": plain()},
                     "quick", 2, tmp_path, log=lambda *a: None, progress=False)
    assert res == {"one": [6, 20], "two": [6, 20], "b": [2, 4]}
    assert len(fitted) == 1  # one fit per destination
    # round 1: every analysis's first points together; round 2: the gates' points
    assert campaigns == [["a-one", "a-two", "b"], ["a-one", "a-two"]]


def test_an_analysis_exception_is_its_own_result(tmp_path, campaigns):
    def broken():
        yield Points(_exp("x", [{"x": 1}]))
        raise ValueError("analysis bug")

    def early():
        raise RuntimeError("bad input")
        yield  # a generator

    res = run_stages({"broken": broken(), "early": early(),
                      "fine": points_stage(_exp("f", [{"x": 4}]))},
                     "quick", 1, tmp_path, log=lambda *a: None, progress=False)
    assert isinstance(res["broken"], ValueError) and isinstance(res["early"], RuntimeError)
    assert [r.result["y"] for r in res["fine"]] == [8]
    assert campaigns == [["f", "x"]]


def test_a_failed_fit_leaves_no_file_and_the_others_run(tmp_path, campaigns):
    logged = []

    def fits():
        bad, good = tmp_path / "bad.json", tmp_path / "good.json"
        yield Fits([Fit(bad, lambda: 1 / 0), Fit(good, lambda: {"ok": True})])
        return bad.exists(), good.exists()

    res = run_stages({"f": fits()}, "quick", 2, tmp_path, log=logged.append, progress=False)
    assert res == {"f": (False, True)}
    assert any("recalibration failed (bad)" in ln and "ZeroDivisionError" in ln
               for ln in logged)
    assert campaigns == []


def test_two_analyses_may_not_share_a_folder(tmp_path, campaigns):
    def one():
        yield Points(_exp("same", [{"x": 1}]))

    with pytest.raises(ValueError, match="same folder"):
        run_stages({"a": one(), "b": one()}, "quick", 1, tmp_path, log=lambda *a: None,
                   progress=False)
