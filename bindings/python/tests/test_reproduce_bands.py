"""Bands by default: ./testbed reproduce runs every declared sensitivity analysis first, with
the design of its scale (doc/sensitivity.rst, "Running it"); verdicts get levels over the
design; experiments that declare the same recalibrations share their fits."""

import json
import shutil

import pytest

from testbed import cli, experiment
from testbed.experiment import Analysis, Experiment, Record
from testbed.ranges import Range
from testbed.sensitivity import (REPRODUCE_SAMPLES, Recalibration, Sensitivity,
                                 calibration_dir, levels, reproduce_samples, run_sensitivity)


def _reproduce_args(argv, tmp_path):
    """The arguments ./testbed reproduce ARGV parses to (the real parser, the command not
    run)."""
    captured = []
    orig = cli.cmd_reproduce
    cli.cmd_reproduce = captured.append  # main() takes the function when it builds
    try:
        cli.main(["reproduce", "--out", str(tmp_path), *argv])
    finally:
        cli.cmd_reproduce = orig
    [args] = captured
    return args


def test_reproduce_computes_bands_unless_told_not_to(tmp_path):
    assert _reproduce_args([], tmp_path).sensitivity is True
    assert _reproduce_args(["--no-sensitivity"], tmp_path).sensitivity is False
    # the former opt-in is accepted and changes nothing
    assert _reproduce_args(["--with-sensitivity"], tmp_path).sensitivity is True


def test_reproduce_runs_every_declared_analysis_with_its_scales_design(tmp_path, monkeypatch):
    """Every declared experiment's bands (its scale's design), every calibration point's
    leverage and every experiment's own points are stages of one run (testbed.stages), before
    the reproduction's analyses; --no-sensitivity runs none of them."""
    from testbed.leverage import calibration_leverage

    ran, runs, levered, together = [], [], [], []
    monkeypatch.setattr("testbed.sensitivity.sensitivity_stage",
                        lambda exp, method, samples, out, log, **kw:
                        ran.append((exp.id, samples)) or iter(()))
    monkeypatch.setattr("testbed.sensitivity.leverage_stage",
                        lambda exp, decls, out, log: levered.append(exp.id) or iter(()))
    monkeypatch.setattr("testbed.stages.run_stages",
                        lambda stages, *a, **k: together.append(list(stages))
                        or {n: None for n in stages})
    monkeypatch.setattr(cli, "_run", lambda exps, args: runs.append(len(exps)) or 0)
    exps = list(experiment.experiments().values())
    declared = [e for e in exps if e.sensitivity is not None]
    lever = [e.id for e in exps if e.id in calibration_leverage({e.id for e in exps})]
    assert declared and lever
    for scale in ("quick", "paper"):
        ran.clear(), levered.clear(), together.clear()
        args = _reproduce_args(["--scale", scale], tmp_path)
        assert cli.cmd_reproduce(args) == 0
        assert [i for i, _ in ran] == [e.id for e in declared]
        assert all(n == reproduce_samples(e, scale) for (_, n), e in zip(ran, declared))
        assert levered == lever
        assert together == [[f"sensitivity-{e.id}" for e in declared]
                            + [f"leverage-{i}" for i in lever] + [e.id for e in exps]]
    # the paper scale's design is the larger
    assert REPRODUCE_SAMPLES["paper"] > REPRODUCE_SAMPLES["quick"] >= 1
    assert runs == [len(exps)] * 2
    ran.clear(), levered.clear(), together.clear()
    assert cli.cmd_reproduce(_reproduce_args(["--no-sensitivity"], tmp_path)) == 0
    assert ran == levered == together == [] and runs[-1] == len(exps)


def test_a_failed_analysis_fails_the_reproduction_but_not_the_others(tmp_path, monkeypatch):
    """A stage's exception is its own: exit 1 (2 for bad input), the reproduction still runs."""
    from testbed.campaign import CampaignError
    from testbed.sensitivity import SensitivityError

    runs = []
    monkeypatch.setattr(cli, "_run", lambda exps, args: runs.append(len(exps)) or 0)
    for err, rc in ((CampaignError("a point failed"), 1), (ValueError("a bug"), 1),
                    (SensitivityError("bad input"), 2)):
        monkeypatch.setattr("testbed.stages.run_stages",
                            lambda stages, *a, err=err, **k:
                            {n: (err if n == "sensitivity-tno-jitter" else None)
                             for n in stages})
        assert cli.cmd_reproduce(_reproduce_args([], tmp_path)) == rc
    assert runs == [len(experiment.experiments())] * 3


def test_a_declaration_overrides_the_design_per_scale():
    exp = Experiment(id="x", study="S", title="t", program="p", points=lambda s: [],
                     analyse=lambda r: None,
                     sensitivity=Sensitivity(reproduce_samples={"quick": 3}))
    assert reproduce_samples(exp, "quick") == 3
    assert reproduce_samples(exp, "paper") == REPRODUCE_SAMPLES["paper"]


def test_levels_are_the_fractions_of_the_defined_samples():
    # 3 yes, 1 no, 1 undefined (a cut-off): yes 0.75, no 0.25
    assert levels([True, True, None, False, True]) == {"yes": 0.75, "no": 0.25}
    assert levels(["a", "b", "b", "b"]) == {"b": 0.75, "a": 0.25}
    assert levels([None]) == {}


def _toy(exp_id, recal=None):
    """An experiment of one point whose metric y is its option x, a verdict y > 5 and a named
    outcome; x ranged 0..10."""
    def analyse(records):
        from testbed.experiment import Figure, Series

        x = float(records[0].params.get("x", 4))
        fig = Figure("curve", "a curve", "n (count)", "y (s)", series=[
            Series("model", [1, 2], [x, 2 * x]), Series("study", [1.5], [1.0], style="points", yerr=0.1)])
        return Analysis(rows=[], metrics={"y": x, "big": x > 5,
                                          "ended_by": "loss" if x > 5 else "rate",
                                          "echo_s": "setting"}, figures=[fig])

    return Experiment(id=exp_id, study="S", title="t", program="jaxa-benchmark",
                      points=lambda s: [{"p": 1}], analyse=analyse,
                      sensitivity=Sensitivity(ranges=[Range("x", 0, 10, "a toy range")],
                                              metrics=("y", "big", "ended_by"),
                                              recalibrate=list(recal or [])))


def _fake_campaign(monkeypatch):
    """Campaigns that run nothing (every record empty); the list of the points they got."""
    from testbed import stages

    ran = []

    def fake(exps, scale, jobs, out, **kw):
        [sexp] = exps
        pts = sexp.points(scale)
        ran.extend(pts)
        return {sexp.id: [Record(params=p, result={}) for p in pts]}

    monkeypatch.setattr(stages, "run_campaign", fake)
    return ran


def test_a_verdict_gets_its_levels_over_the_design(tmp_path, monkeypatch):
    from testbed import sensitivity

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot missing")
    _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    s = run_sensitivity(_toy("toy-levels"), samples=4, out=tmp_path, log=lambda *a: None,
                        progress=False)
    lv = {r["metric"]: r for r in s["levels"]}
    assert set(lv) == {"big", "ended_by"}  # not the echo (no pattern), not y (a band)
    # Morris's 4-level grid over 0..10: 0, 3.33, 6.67, 10; x > 5 on the two upper levels
    rows = json.loads((tmp_path / "sensitivity-toy-levels" / "sensitivity.json").read_text())
    assert rows["levels"] == s["levels"]
    big = lv["big"]["levels"]
    assert set(big) == {"yes", "no"} and sum(big.values()) == pytest.approx(1)
    assert lv["big"]["central"] == "no"  # the nominal x = 4
    assert lv["ended_by"]["levels"] == {"loss" if k == "yes" else "rate": v
                                        for k, v in big.items()}
    # the report shows them: attach() carries the levels
    monkeypatch.setattr("testbed.sensitivity.program_path", lambda p: tmp_path)
    block = sensitivity.attach(_toy("toy-levels"), tmp_path)
    assert block["metrics"]["big"]["levels"] == big
    assert block["metrics"]["y"]["band_low"] is not None
    from testbed.report import _metric_table

    table = "\n".join(_metric_table({"y": 4.0, "big": False}, block))
    assert "levels over the ranges: " in table and "| `big` | no |" in table


def test_experiments_with_the_same_recalibrations_share_their_fits(tmp_path, monkeypatch):
    from testbed import sensitivity

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot missing")
    _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    fits = []

    def fit(profile_file, options):
        fits.append(dict(options))
        return {"settings": {}, "value": 1.0, "achieved": 1.0, "iterations": 1}

    rc = Recalibration(parameter="K", metric="beta", target=1.0, tolerance_pct=5.0,
                       procedure=fit)
    a, b = _toy("toy-a", [rc]), _toy("toy-b", [rc])
    other = _toy("toy-c", [Recalibration("K", "beta", 1.0, 3.0, fit)])  # another tolerance
    for e in (a, b, other):
        monkeypatch.setitem(experiment._REGISTRY, e.id, e)
    assert calibration_dir(tmp_path, a.sensitivity) == calibration_dir(tmp_path, b.sensitivity)
    assert calibration_dir(tmp_path, a.sensitivity) != calibration_dir(tmp_path,
                                                                       other.sensitivity)
    run_sensitivity(a, samples=2, out=tmp_path, log=lambda *a: None, progress=False)
    first = len(fits)
    assert first == len({json.dumps(f, sort_keys=True) for f in fits}) > 0
    run_sensitivity(b, samples=2, out=tmp_path, log=lambda *a: None, progress=False)
    assert len(fits) == first  # the same design: every fit found
    run_sensitivity(other, samples=2, out=tmp_path, log=lambda *a: None, progress=False)
    assert len(fits) == 2 * first


def test_a_fitted_option_reaches_the_points_and_a_calibration_option_does_not(tmp_path,
                                                                             monkeypatch):
    # A parameter its calibration identifies to an interval only (tno-pipeline's RCI costs): a
    # factor places it in the interval, which only the recalibration reads; the fitted value is
    # a program option. Every point a sample runs has the fitted option, none the placing
    # factor, and each fit saw its sample's placing factor.
    from testbed import sensitivity

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot missing")
    ran = _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    seen = []

    def fit(profile_file, options):
        seen.append(dict(options))
        pos = float(options["pos"])
        return {"settings": {}, "options": {"fitted": f"{100 + 10 * pos:.3f}"}, "value": pos,
                "achieved": 1.0, "iterations": 1}

    exp = _toy("toy-pos", [Recalibration("fitted", "m", 1.0, 5.0, fit)])
    exp.sensitivity.ranges.append(Range("pos", 0, 1, "where in its interval"))
    exp.sensitivity.calibration_options = ("pos",)
    monkeypatch.setitem(experiment._REGISTRY, exp.id, exp)
    run_sensitivity(exp, samples=2, out=tmp_path, log=lambda *a: None, progress=False)
    samples = [p for p in ran if "x" in p]  # the nominal model's point has neither
    assert samples and all("pos" not in p for p in ran)
    assert all("fitted" in p for p in samples)
    assert {round(100 + 10 * float(o["pos"]), 3) for o in seen} == {float(p["fitted"])
                                                                     for p in samples}


def test_calibration_leverage_reruns_the_points_at_the_parameters_band(tmp_path, monkeypatch):
    """A calibration point whose simulated value is its parameter x (fitted 4, band +-10 %:
    3.6 .. 4.4) against a study's 5: leverage (4.4 - 3.6) / 5 = 16 %; only the points the
    point comes from are re-run, the other keeps its nominal record; the report shows it."""
    from testbed import sensitivity
    from testbed.experiment import Validation
    from testbed.report import _validation_tables
    from testbed.sensitivity import Leverage, leverage_of, option_factor, run_leverage

    ran = _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    monkeypatch.setattr("testbed.sensitivity.program_path", lambda p: tmp_path)

    def analyse(records):
        x = float(next(r.params for r in records if r.params["p"] == 1).get("x", 4))
        other = next(r.params for r in records if r.params["p"] == 2)
        assert "x" not in other  # the other point keeps its nominal record
        return Analysis(rows=[], metrics={}, validation=[
            Validation("fit", 5.0, x, 30, role="calibration", parameter="x", reason="r")])

    exp = Experiment(id="toy-lev", study="S", title="t", program="p",
                     points=lambda s: [{"p": 1}, {"p": 2}], analyse=analyse)
    decl = Leverage("fit", option_factor("x", 4.0, "the fitted value +-10 %"),
                    lambda p: p["p"] == 1)
    s = run_leverage(exp, [decl], out=tmp_path, log=lambda *a: None, progress=False)
    [row] = s["points"]
    assert (row["simulated_low"], row["simulated_high"]) == pytest.approx((3.6, 4.4))
    assert row["leverage_pct"] == pytest.approx(16.0)
    # the nominal p = 1 and p = 2, p = 1 at the two ends
    assert len({json.dumps(p, sort_keys=True) for p in ran}) == 4
    lev = leverage_of("toy-lev", "p", tmp_path)
    text = "\n".join(_validation_tables([exp.analyse([Record({"p": 1}, {}),
                                                      Record({"p": 2}, {})]).validation[0]
                                         .as_dict()], lev))
    assert "| 3.6 .. 4.4 (+16 %) |" in text


def test_every_calibration_point_of_the_quick_reproduction_has_a_leverage_declaration():
    """The calibration points of the experiments' analyses (by their names in
    calibration_leverage) against those the declarations name: every declared point is one
    its experiment has as a calibration point (checked on the records of test_seed_intervals
    where its analysis runs on synthetic records)."""
    from testbed.leverage import calibration_leverage

    decls = calibration_leverage()
    import test_seed_intervals as T
    from testbed.experiments import gine14, tno03

    for exp_id, analysis in (("tno-jitter", tno03.jitter_analyse(T._jitter_records("quick"))),
                             ("gine-timer", gine14.timer_analyse(T._timer_records("quick")))):
        calib = {v.point for v in analysis.validation if v.role == "calibration"}
        assert calib == {d.point for d in decls[exp_id]}, exp_id


def test_a_figure_draws_its_curves_band_over_the_samples(tmp_path, monkeypatch):
    """The toy's curve y = (x, 2x) over Morris's grid of x in 0..10 (0, 10/3, 20/3, 10): the
    band at each point is the 5-95 % of the samples' values, in the curve's colour, without a
    key entry of its own; a series with its own error bars gets none."""
    import numpy as np

    from testbed import sensitivity
    from testbed.plot import layout_problems, script

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot missing")
    _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    monkeypatch.setattr("testbed.sensitivity.program_path", lambda p: tmp_path)
    exp = _toy("toy-fig")
    s = run_sensitivity(exp, samples=4, out=tmp_path, log=lambda *a: None, progress=False)
    import csv

    rows = list(csv.DictReader(open(tmp_path / "sensitivity-toy-fig" / "samples.csv")))
    xs = [float(r["x"]) for r in rows[1:]]  # sample 0 is the nominal model
    b = s["figure_bands"]["curve"]["model"]
    assert b["x"] == [1.0, 2.0]
    # (the option's text carries 6 significant digits)
    assert b["low"] == pytest.approx([np.percentile(xs, 5), 2 * np.percentile(xs, 5)], rel=1e-5)
    assert b["high"] == pytest.approx([np.percentile(xs, 95), 2 * np.percentile(xs, 95)],
                                      rel=1e-5)
    assert "study" not in s["figure_bands"]["curve"]
    figs = exp.analyse([Record({"p": 1}, {})]).figures
    sensitivity.draw_bands(exp, figs, tmp_path)
    [band] = [sr for sr in figs[0].series if sr.style == "band"]
    assert band.title == "" and band.group == "model"
    assert [y - h for y, h in zip(band.y, band.yerr)] == pytest.approx(b["low"])
    assert "5-95 % over the documented ranges" in figs[0].subtitle
    assert layout_problems(script(figs[0], tmp_path / "f.png")) == []


def test_a_one_trajectory_design_ranks_by_one_elementary_effect(tmp_path, monkeypatch):
    """./testbed reproduce's quick design (one trajectory, REPRODUCE_SAMPLES): k + 1
    samples, each factor's mu* its one elementary effect (the toy's y = x: 1 per unit, scaled
    to the range: 10), sigma undefined; ./testbed sensitivity still refuses one trajectory."""
    from testbed import sensitivity
    from testbed.sensitivity import SensitivityError

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot missing")
    _fake_campaign(monkeypatch)
    monkeypatch.setattr(sensitivity, "build_id", lambda program: "b")
    with pytest.raises(SensitivityError, match="at least 2 trajectories"):
        run_sensitivity(_toy("toy-one"), samples=1, out=tmp_path, log=lambda *a: None,
                        progress=False)
    s = run_sensitivity(_toy("toy-one"), samples=1, out=tmp_path, log=lambda *a: None,
                        progress=False, screening=True)
    [y] = [m for m in s["metrics"] if m["metric"] == "y"]
    assert s["runs"] == 2 and y["drivers"] == ["x"]
    [r] = y["ranking"]
    assert r["mu_star"] == pytest.approx(10, rel=1e-5) and r["sigma"] is None
    assert (tmp_path / "sensitivity-toy-one" / "tornado-y.png").exists()


def test_the_report_band_covers_a_regime_and_the_ranges():
    """A metric with its own band (a named cliff's two regimes, 0.007 .. 1.8) and a band over
    the ranges (0.26 .. 4.8): report.md's band covers both, 0.007 .. 4.8."""
    from testbed.report import _metric_table

    m = {"j_s": 1.8, "j_s_low": 0.007, "j_s_high": 1.8, "j_s_regime": "held: 1.8; whole: 0.007"}
    sens = {"metrics": {"j_s": {"band_low": 0.26, "band_high": 4.8, "drivers": ["ttrt"]}}}
    row = [r for r in _metric_table(m, sens) if r.startswith("| `j_s`")][0]
    assert "| 0.007 .. 4.8 (ranges and its own band) | `ttrt` |" in row
