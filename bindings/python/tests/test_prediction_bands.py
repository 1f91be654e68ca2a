"""Every prediction a distribution: which prediction experiments' metrics carry a band, and by
which mechanism (doc/sensitivity.rst). A prediction experiment without a band mechanism fails
here unless it is listed, with its reason, in KNOWN_MISSING."""

import pytest

from testbed.experiment import experiments

#: The experiments whose outcome is a prediction (the studies' outcomes withheld or not given;
#: /doc/studies.rst): every headline metric of these needs a band or levels.
PREDICTIONS = ("jaxa-order", "jaxa-bidir", "jaxa-duplex", "jaxa-fig8", "tno-pipeline",
               "tno-jitter", "tno-schedulers", "ntt-load", "ntt-router", "ntt-overflow",
               "mega-multiplex", "mega-scale", "mega-cat6009", "gine-burst")

#: Band mechanisms: "ranges" (a Sensitivity declaration: ./testbed sensitivity's 5-95 % band
#: over the documented ranges and choice factors, attached to metrics.json), "seeds" (the
#: experiment's own seed interval of its extremes, <metric>_low/_high, from points over seeds or
#: seeds added after a first round: Experiment.more_points), "band-ends" (the
#: experiment's --band runs at the ends of its ranges, <metric>_low/_high).
COVERED = {
    "jaxa-duplex": ("ranges",),
    "jaxa-order": ("ranges",),
    "jaxa-bidir": ("ranges",),
    "jaxa-fig8": ("ranges",),
    "tno-pipeline": ("ranges", "band-ends"),
    "tno-jitter": ("ranges", "band-ends", "seeds"),
    "tno-schedulers": ("ranges", "band-ends"),
    "ntt-router": ("ranges", "seeds"),
    "ntt-load": ("ranges", "seeds"),
    "ntt-overflow": ("ranges", "seeds"),
    "mega-scale": ("ranges",),
    "mega-multiplex": ("ranges",),
    "mega-cat6009": ("ranges",),
    "gine-burst": ("seeds",),
}

#: Prediction experiments with no band mechanism yet (known missing: a band needs their
#: ranges declared first):
KNOWN_MISSING: dict[str, str] = {}


def test_every_prediction_experiment_is_covered_or_listed_as_missing():
    exps = experiments()
    assert set(PREDICTIONS) <= set(exps)
    assert set(COVERED) | set(KNOWN_MISSING) == set(PREDICTIONS)
    assert not set(COVERED) & set(KNOWN_MISSING)


@pytest.mark.parametrize("exp_id", sorted(COVERED))
def test_a_covered_experiment_has_its_mechanism(exp_id):
    exp = experiments()[exp_id]
    if "ranges" in COVERED[exp_id]:
        assert exp.sensitivity is not None and exp.sensitivity.metrics
    if "band-ends" in COVERED[exp_id]:
        assert any("band" in p for p in exp.points("quick"))
    if "seeds" in COVERED[exp_id]:
        from testbed.experiment import EXTREME_SEEDS

        # the seeds in the points, or added to the points a metric reads once they have run
        # (Experiment.more_points: NTT96, whose cut-off points get no more seeds)
        runs = {p.get("RngRun", 1) for p in exp.points("quick")}
        assert len(runs) >= EXTREME_SEEDS["quick"] or exp.more_points is not None


@pytest.mark.parametrize("exp_id", sorted(KNOWN_MISSING))
def test_a_known_missing_experiment_is_still_missing(exp_id):
    """Declaring ranges for one of these moves it to COVERED."""
    assert experiments()[exp_id].sensitivity is None


# ---------------------------------------------------------------------------------------------
# The metrics themselves: every metric of the quick reproduction's metrics.json of every
# prediction experiment (the experiments' quick points run here, or the metrics.json files of a
# reproduction's folder given as TESTBED_REPRODUCTION) has a band or levels
# (testbed.sensitivity.without_band) unless listed below as a measured configuration's or an
# input echo.

#: Per experiment, metrics (fnmatch patterns) that are no prediction, with the reason: an input
#: echo (a setting the analysis reports back), the study's criterion, or a metric of a
#: configuration the study measured (its comparisons are validation points of other names).
NOT_PREDICTIONS = {
    "jaxa-fig8": {
        # the slopes' 95 % half-widths over the repetitions: the spread of a banded slope
        "federates_*_slope_*_ci95_ms": "a half-width over the repetitions",
        "federates_*_repetitions": "input echo",
        "federates_*_dominant_resolution_pct": "input echo (the study's resolution)",
    },
    "tno-pipeline": {
        "1a_*": "configuration 1a: measured by the study (K's calibration, doc/tno.rst)",
        "1b_*": "configuration 1b: measured by the study (a check and a known gap)",
        "2_*": "configuration 2: measured by the study (K's calibration)",
    },
    "mega-multiplex": {
        "multiplex_normal_std_limit_us": "the study's criterion, an input",
        "multiplex_process_memory_bytes": "input echo (the profile's per-process memory)",
    },
    "mega-cat6009": {
        "cat6009_receivers": "input echo",
        # no frame is dropped at quick scale (a structural zero, doc/sensitivity.rst): the
        # fit's r^2 of constant zeros is undefined (None)
        "cat6009_r2": "undefined at quick scale (no drops, a constant fit)",
    },
    "gine-burst": {
        "*_arrival_spacing_cv_sd": "the seeds' standard deviation of a banded metric",
    },
}


@pytest.fixture(scope="module")
def quick_metrics(tmp_path_factory):
    """{experiment: (metrics, validation point names)} of every prediction experiment at quick
    scale: a reproduction's metrics.json (TESTBED_REPRODUCTION), or its quick points run and
    analysed here."""
    import json
    import os
    from pathlib import Path

    from testbed import EXAMPLES_DIR
    from testbed.campaign import run_campaign

    done = os.environ.get("TESTBED_REPRODUCTION")
    if done:
        out = {}
        for e in PREDICTIONS:
            m = json.loads((Path(done) / e / "metrics.json").read_text())
            assert m["scale"] == "quick", e
            out[e] = (m["metrics"], {v["point"] for v in m["validation"]},
                      m.get("sensitivity") or {} if experiments()[e].sensitivity else None)
        return out
    exps = [experiments()[e] for e in PREDICTIONS]
    if not all((Path(EXAMPLES_DIR) / e.program).exists() for e in exps):
        pytest.skip("programs not built")
    res = run_campaign(exps, "quick", os.cpu_count() or 1, tmp_path_factory.mktemp("quick"),
                       log=lambda *a: None, progress=False)
    out = {}
    for e in exps:
        assert not isinstance(res[e.id], Exception), res[e.id]
        a = e.analyse(res[e.id])
        out[e.id] = (a.metrics, {v.point for v in a.validation}, _sampled_block(e, res[e.id]))
    return out


def _sampled_block(exp, records):
    """What a sensitivity block can band without running the design: the metrics of the
    declaration's analysis of the records of the quick points its samples run (the first
    round's, Sensitivity.point_filter), as sensitivity_stage analyses each sample. A metric that
    comes from a point the samples leave out gets no band from them (None: no declaration)."""
    from testbed.sensitivity import (banded_names, leveled_names, sample_analysis,
                                     sample_choices)

    decl = exp.sensitivity
    if decl is None:
        return None
    first = [p for p in exp.points("quick")
             if decl.point_filter is None or decl.point_filter(p)]
    kept = [r for r in records if r.params in first]
    nominal = sample_choices(decl.ranges, None)  # the readings the analysis applies
    m = sample_analysis(exp, kept, nominal).metrics if kept else {}
    block = {k: {"band_low": 0.0} for k in banded_names(m, decl.metrics)}
    block.update({k: {"levels": {"any": 1.0}} for k in leveled_names(m, decl.metrics)})
    return {"metrics": block}


@pytest.mark.parametrize("exp_id", PREDICTIONS)
def test_every_prediction_metric_of_the_quick_reproduction_has_a_band(exp_id, quick_metrics):
    """A metric is covered by its own band (_low/_high: seeds, --band ends or a regime), its
    levels, its bound (cut off), the declaration's band or levels over the design, or a
    validation point (a check or a calibration point: not a prediction); else it must be
    listed above as no prediction."""
    import fnmatch

    from testbed.sensitivity import without_band

    metrics, compared, attached = quick_metrics[exp_id]
    listed = NOT_PREDICTIONS.get(exp_id, {})
    bare = without_band(metrics, experiments()[exp_id].sensitivity, compared, attached)
    uncovered = [k for k in bare if not any(fnmatch.fnmatch(k, p) for p in listed)]
    assert not uncovered, f"{exp_id}: prediction metrics without a band: {uncovered}"
    used = {p for p in listed if any(fnmatch.fnmatch(k, p) for k in bare)}
    assert used == set(listed), f"{exp_id}: a listed pattern matches nothing: {set(listed) - used}"


def test_without_band_finds_a_bare_metric():
    """Hand-made metrics: each kind of cover, and the two bare ones."""
    from testbed.sensitivity import Sensitivity, without_band

    m = {"a_s": 1.0, "a_s_low": 0.5, "a_s_high": 2.0, "v": "equal", "v_levels": "equal=1",
         "cut_s": None, "cut_s_lower_bound": 30.0, "checked_us": 3.0, "banded_ms": 2.0,
         "flag": True, "bare_ms": 4.0, "bare_flag": False}
    decl = Sensitivity(metrics=("banded_*", "flag"))
    assert without_band(m, decl, {"checked_us"}) == ["bare_ms", "bare_flag"]
    assert without_band(m, None, {"checked_us"}) == ["banded_ms", "flag", "bare_ms",
                                                      "bare_flag"]


def _fig8_records():
    """jaxa-fig8 records of the quick points, times linear in the federates."""
    from testbed.experiment import Record
    from testbed.experiments import jaxa06

    recs = []
    for p in jaxa06.fig8_points("quick"):
        c, o = p.get("extraCrc", 0), p.get("extraOther", 0)
        runs = [10 + 0.06 * c + 0.061 * o + 0.001 * i for i in range(p["reps"])]
        recs.append(Record(params=p, result={"time_per_exchange_ms": sum(runs) / len(runs),
                                             "time_per_exchange_ms_runs": runs}))
    return recs


def _analyses():
    from testbed.experiment import Record
    from testbed.experiments import gine14, jaxa06

    burst = []
    for p in gine14.burst_points("quick"):
        k = p["RngRun"]
        burst.append(Record(params=p, result={
            "send_us": [0.0, 1.0], "recv_us": [5.0, 6.0 + k], "delay_us": [5.0, 5.0 + k],
            "arrival_spacing_cv": 0.1, "mean_delay_us": 5.0, "max_delay_us": 5.0 + k}))
    return {"gine-burst": gine14.burst_analyse(burst),
            "jaxa-fig8": jaxa06.fig8_analyse(_fig8_records())}


# ---------------------------------------------------------------------------------------------
# The figures: a prediction figure draws its band (a shaded band, or error bars).

def _schedulers_analysis():
    from testbed.experiment import Record
    from testbed.experiments import tno03

    recs = []
    for p in tno03.schedulers_points("quick"):
        shift = {"fast": -1.0, "slow": 2.0}.get(p.get("band"), 0.0)
        recs.append(Record(params=p, result={q: 10.0 + shift
                                             for q in tno03.SCHED_QUANTITIES}))
    return tno03.schedulers_analyse(recs)


def _drawn_bands(fig):
    """(title, x, low, high) of each band or error-bar series of a figure."""
    out = []
    for s in fig.series:
        if s.yerr is None:
            continue
        half = s.yerr if isinstance(s.yerr, (list, tuple)) else [s.yerr] * len(s.y)
        out.append((s.title, list(s.x), [y - h for y, h in zip(s.y, half)],
                    [y + h for y, h in zip(s.y, half)]))
    return out


def _burst_figure_bands(name):
    """gine-burst's figure NAME, its drawn bands (two: one per timer) and the quick seeds."""
    from testbed.experiments import gine14

    fig = next(f for f in _analyses()["gine-burst"].figures if f.name == name)
    bands = _drawn_bands(fig)
    assert len(bands) == 2  # one per timer
    seeds = sorted(p["RngRun"] for p in gine14.burst_points("quick") if p["timer"] == "rtc")
    return fig, bands, seeds


def test_burst_delay_figure_draws_each_packets_spread_over_the_seeds(tmp_path):
    from testbed.plot import layout_problems, script

    # the records' last packet is delayed by 5 + k us on seed k: the band spans seeds' least
    # and largest
    fig, bands, seeds = _burst_figure_bands("burst-delay")
    for _, x, low, high in bands:
        assert low[-1] == pytest.approx(5.0 + seeds[0])
        assert high[-1] == pytest.approx(5.0 + seeds[-1])
        assert low[0] == pytest.approx(5.0) and high[0] == pytest.approx(5.0)
    assert layout_problems(script(fig, tmp_path / "f.png")) == []


def test_burst_figure_draws_each_arrivals_spread_over_the_seeds(tmp_path):
    """The timeline's lines are run 1's; under each receive line, each request's arrival
    between its earliest and latest over the seeds (the records: the last arrival at 6 + k us
    on seed k)."""
    from testbed.plot import layout_problems, script

    fig, bands, seeds = _burst_figure_bands("burst")
    for _, x, low, high in bands:
        assert low == pytest.approx([5.0, 6.0 + seeds[0]])
        assert high == pytest.approx([5.0, 6.0 + seeds[-1]])
    assert layout_problems(script(fig, tmp_path / "f.png")) == []


def test_fig8_figure_draws_each_points_confidence_interval(tmp_path):
    from testbed.experiments.jaxa06 import mean_ci
    from testbed.plot import layout_problems, script

    a = _analyses()["jaxa-fig8"]
    fig = a.figures[0]
    bands = _drawn_bands(fig)
    assert bands and all(len(x) > 1 for _, x, _, _ in bands)
    # the synthetic repetitions are 0.001 ms apart: each point's half-width is the Student t
    # interval of those values, independent of the point
    reps = _fig8_records()[0].params["reps"]
    half = mean_ci([0.001 * i for i in range(reps)])[1]
    for _, _, low, high in bands:
        assert all(h - lo == pytest.approx(2 * half) for lo, h in zip(low, high))
    assert layout_problems(script(fig, tmp_path / "f.png")) == []


def test_schedulers_figure_draws_the_band_over_the_ranges(tmp_path):
    from testbed.plot import layout_problems, script

    fig = _schedulers_analysis().figures[0]
    bands = _drawn_bands(fig)
    assert bands
    # central 10, the range's ends 9 and 12: the band is 9..12 at every network
    for _, _, low, high in bands:
        assert low == pytest.approx([9.0] * len(low))
        assert high == pytest.approx([12.0] * len(high))
    assert layout_problems(script(fig, tmp_path / "f.png")) == []


def test_pipeline_figure_draws_the_band_where_every_end_kept_up(tmp_path):
    from testbed.experiment import Record
    from testbed.experiments import tno03
    from testbed.plot import layout_problems, script

    recs = []
    for p in tno03.pipeline_points("quick"):
        lat = 100.0 + {"fast": -10.0, "slow": 30.0}.get(p.get("band"), 0.0)
        f = p["frequency"]
        recs.append(Record(params=p, result={
            "latency_mean_us": lat, "latency_max_us": lat, "loss": 0.0, "read_rate_hz": f,
            "send_rate_hz": f, "latency_growth": 1.0, "relay_max_burst": 1}))
    fig = tno03.pipeline_analyse(recs).figures[0]
    bands = _drawn_bands(fig)
    assert len(bands) == len(tno03.PREDICTIONS)  # the configurations with --band ends
    for _, x, low, high in bands:
        assert low == pytest.approx([90.0] * len(x))
        assert high == pytest.approx([130.0] * len(x))
    assert layout_problems(script(fig, tmp_path / "f.png")) == []


#: Prediction metrics whose names say max or min but that are no extreme of a run's samples:
#: thresholds found on a sweep's grid, or the largest over a sweep of run statistics over many
#: samples (doc/sensitivity.rst, "Extremes over seeds").
NOT_EXTREMES = {
    "tno-pipeline": {"*_max_hz": "the highest frequency of a sweep before it ends: a threshold "
                                 "on the sweep's grid"},
    "mega-multiplex": {"multiplex_max_processes_*": "the most processes that fit: a threshold"},
    "mega-scale": {
        "max_nodes_without_loss": "the largest node count of the sweep without loss: a "
                                  "threshold on the grid",
        "scale_max_*": "the largest over the sweep's node counts of a run's mean or standard "
                       "deviation over thousands of intervals",
    },
}


@pytest.mark.parametrize("exp_id", PREDICTIONS)
def test_every_extreme_prediction_of_the_quick_reproduction_is_over_seeds(exp_id,
                                                                           quick_metrics):
    """A prediction metric named as an extreme of a run (max, min, jitter, a percentile:
    looks_extreme) is a seed interval over at least EXTREME_SEEDS seeds (NAME_seeds), a bound
    (cut off: None), a number no seed moves (it then has no interval; the analysis over seeds
    keeps it as it is) or listed in NOT_EXTREMES; never one run's value."""
    import fnmatch

    from testbed.experiment import EXTREME_SEEDS, looks_extreme
    from testbed.sensitivity import COMPANIONS

    metrics, compared, _ = quick_metrics[exp_id]
    listed = NOT_EXTREMES.get(exp_id, {})
    one_run = []
    for k, v in metrics.items():
        if (not looks_extreme(k) or k.endswith(COMPANIONS) or v is None or isinstance(v, bool)
                or not isinstance(v, (int, float)) or k in compared
                or any(fnmatch.fnmatch(k, p) for p in listed) or k.endswith("_lower_bound")):
            continue
        if metrics.get(f"{k}_seeds", 0) >= EXTREME_SEEDS["quick"]:
            continue
        one_run.append(k)
    assert not one_run, f"{exp_id}: extremes of one run: {one_run}"
