"""Extremes over seeds: a max, a min, a jitter (max - min) or a percentile of one run is one draw
of a distribution; it is computed over EXTREME_SEEDS seeds and compared as its seed interval
(doc/sensitivity.rst, "Extremes")."""

import pytest

from testbed import validation
from testbed.experiment import (EXTREME_SEEDS, Record, Validation, looks_extreme,
                                seed_interval)


# ---------------------------------------------------------------------------------------------
# The rule


def test_seed_interval_is_median_and_5_95_quantiles():
    # 1..11: median 6; the 5 % quantile at rank 0.05 * 10 = 0.5 -> 1.5, the 95 % at 9.5 -> 10.5
    assert seed_interval(range(1, 12)) == pytest.approx((6.0, 1.5, 10.5))
    assert seed_interval([4.0]) == (4.0, 4.0, 4.0)


def test_a_check_passes_when_the_study_lies_in_the_widened_seed_interval():
    # The IRIX network jitter: the model's values over seeds 1-10 span 188-291 us; the study's
    # 216 us lies inside, error 0. One seed's 271.1 us alone is 25.5 % off, outside 25 %.
    per_seed = [188, 205, 221, 236, 244, 252, 263, 271.1, 280, 291]
    v = Validation.over_seeds("irix_net_jitter_us", 216, per_seed, 25, "jitter", reason="r")
    assert v.low <= 216 <= v.high and v.error_pct == 0 and v.passed
    assert v.seeds == 10 and v.simulated == pytest.approx(248.0)
    assert not Validation("irix_net_jitter_us", 216, 271.1, 25, reason="r").passed
    # Outside the interval the error is the distance to its nearer end, in % of the study's:
    # interval [100, 110] against 80 -> (100 - 80) / 80 = +25 %; against 140 -> -21.4 %.
    w = Validation("x_max_us", 80, 105, 24, reason="r", statistic="max", low=100, high=110)
    assert w.error_pct == pytest.approx(25.0) and not w.passed
    w = Validation("x_max_us", 140, 105, 22, reason="r", statistic="max", low=100, high=110)
    assert w.error_pct == pytest.approx(-30 / 1.4) and w.passed
    d = w.as_dict()
    assert (d["simulated_low"], d["simulated_high"], d["statistic"]) == (100, 110, "max")
    with pytest.raises(ValueError):
        Validation("x", 1, 5, 1, reason="r", low=1, high=4)  # central outside its interval
    with pytest.raises(ValueError):
        Validation("x", 1, 1, 1, reason="r", low=1)  # one end only


def test_looks_extreme_by_name():
    for name in ("irix_net_max_us", "irix_net_min_us", "irix_sched_jitter_us",
                 "rtc_shortest_interval_us", "latency_p99_us", "rtc_max_delay_us"):
        assert looks_extreme(name), name
    for name in ("irix_net_mean_us", "nanosleep_mean_excess_us", "maximal", "send_rate_ratio"):
        assert not looks_extreme(name), name


# ---------------------------------------------------------------------------------------------
# Every extreme check of the studies


def _jitter_records(scale):
    """tno-jitter records of every point, values varying with the seed (the analysis's input)."""
    from testbed.experiments import tno03

    recs = []
    for p in tno03.jitter_points(scale):
        k = p["RngRun"]
        base = 250.0 if p["platform"] == "irix" else 45.0
        r = {"samples": 10000, "mean_us": base + 20 + 0.1 * k, "min_us": base - 0.2 * k,
             "max_us": base + 200 + 9 * k, "hist_bin_us": 1.0, "hist_start_us": 0.0,
             "hist_counts": [1, 2, 1]}
        r["jitter_us"] = r["max_us"] - r["min_us"]
        if p["measure"] == "sched":
            r.update(min_us=1.0, max_us=30 + 2 * k, jitter_us=29 + 2 * k)
        recs.append(Record(params=p, result=r))
    return recs


def _timer_records(scale):
    from testbed.experiments import gine14

    recs = []
    for p in gine14.timer_points(scale):
        qs = list(range(gine14.MIN_US, gine14.MAX_US + 1, gine14.STEP_US))
        k = p["RngRun"]
        meas = {"ideal": [float(q) for q in qs],
                "rtc": [max(122.07 + 0.01 * k, q + 30.0) for q in qs],
                "nanosleep": [q + 60.0 + 0.1 * k for q in qs],
                "tctimer": [q * 1.1 for q in qs],
                "boosted": [q + 0.5 + (0.05 * k if q == 100 else 0) for q in qs]}[p["timer"]]
        recs.append(Record(params=p, result={"requested_us": qs, "measured_us": meas}))
    return recs


#: The experiments whose validation compares an extreme, and records for their analysis.
def _spread_records(scale):
    """jaxa-spread records: 10 runs per point whose spread varies with the set and whose largest
    spread is at 20 Mbit/s in most sets, not all (the location's interval is not one point)."""
    from testbed.experiments import jaxa06

    recs = []
    for p in jaxa06.spread_points(scale):
        j = (p["RngRun"] - 1) // jaxa06.SPREAD_REPS
        wide = 0.01 * (1 + j % 3) if "20" in jaxa06._bw_label(p) or j % 4 == 3 else 0.001
        runs = [1.0 + wide * ((i % 3) - 1) for i in range(jaxa06.SPREAD_REPS)]
        recs.append(Record(params=p, result={"time_per_exchange_ms_runs": runs,
                                             "time_per_exchange_ms": sum(runs) / len(runs)}))
    return recs


EXTREME_CHECKS = {"jaxa-spread": ("jaxa06", "spread_analyse", _spread_records),
                  "tno-jitter": ("tno03", "jitter_analyse", _jitter_records),
                  "gine-timer": ("gine14", "timer_analyse", _timer_records)}


def _fact_tables():
    """The fact tables (experiment, metric, value rows) of validation/."""
    out = []
    for f in sorted(validation.VALIDATION_DIR.glob("*.csv")):
        try:
            validation.read_facts(f)
        except validation.FactTableError:
            continue  # a measured table (parameter columns), no fact table
        out.append(f.name)
    return out


#: Metrics named like an extreme that are not an extreme of a run's samples, and why.
NOT_EXTREMES = {
    # doc/tno.rst, "Keeps up": the highest frequency of a grid before the sweep ends (keep-up
    # over a window's mean rates and latencies, loss): a threshold on a sweep, not the largest
    # of a run's samples
    ("tno-pipeline", "1a_dmso_max_hz"), ("tno-pipeline", "1b_dm_max_hz"),
    ("tno-pipeline", "2_sm_max_hz"),
}


def test_every_extreme_fact_belongs_to_an_experiment_checked_over_seeds():
    """A fact table's row on an extreme names an experiment whose analysis this file runs
    (a new one fails here until its seeds are shown below)."""
    seen = set()
    for name in _fact_tables():
        for metric, row in validation.facts(name).items():
            if (row["experiment"], metric) in NOT_EXTREMES:
                continue
            if looks_extreme(metric) or metric.endswith("_body_us"):
                assert row["experiment"] in EXTREME_CHECKS, (name, metric)
                seen.add(row["experiment"])
    assert seen == set(EXTREME_CHECKS)


@pytest.mark.parametrize("exp_id", sorted(EXTREME_CHECKS))
@pytest.mark.parametrize("scale", ["quick", "paper"])
def test_extreme_checks_carry_a_seed_interval_over_enough_seeds(exp_id, scale):
    """Every validation point on an extreme (by its statistic or its name) is compared as a
    seed interval over at least EXTREME_SEEDS[scale] seeds; none from a single seed."""
    import importlib

    mod, fn, make = EXTREME_CHECKS[exp_id]
    analyse = getattr(importlib.import_module(f"testbed.experiments.{mod}"), fn)
    a = analyse(make(scale))
    extremes = [v for v in a.validation
                if v.statistic or looks_extreme(v.point) or v.point.endswith("_body_us")
                or "shortest" in v.point.lower()]
    assert extremes
    for v in extremes:
        assert v.statistic, v.point
        assert v.seeds is not None and v.seeds >= EXTREME_SEEDS[scale], (v.point, v.seeds)
        assert v.low < v.high, v.point  # the records vary with the seed
        assert v.low <= v.simulated <= v.high


def test_tno_jitter_metrics_are_seed_intervals_and_predictions_unions_with_the_band():
    from testbed.experiments import tno03

    m = tno03.jitter_analyse(_jitter_records("quick")).metrics
    # irix max over seeds 1-10: 459 + 9 k -> median 458.5 + ... = 250 + 200 + 9 * 5.5
    assert m["irix_net_max_us"] == pytest.approx(450 + 9 * 5.5)
    assert m["irix_net_max_us_seeds"] == 10
    assert m["irix_net_max_us_low"] == pytest.approx(450 + 9 * 1.45)
    # iHawk: central and band ends have the same synthetic values here, so the union is the
    # central seed interval
    assert m["ihawk_net_jitter_us_low"] <= m["ihawk_net_jitter_us"] <= m["ihawk_net_jitter_us_high"]
    assert not any(k.endswith(("_fast", "_slow")) for k in m)
    # the central runs' own seed interval is kept apart from the union with the band's ends
    assert m["ihawk_net_max_us_seed_low"] >= m["ihawk_net_max_us_low"]
    assert m["ihawk_net_max_us_seed_high"] <= m["ihawk_net_max_us_high"]


def test_gine_burst_maximum_delay_is_a_seed_interval():
    from testbed.experiments import gine14

    recs = []
    for p in gine14.burst_points("quick"):
        k = p["RngRun"]
        recs.append(Record(params=p, result={
            "send_us": [0.0, 1.0], "recv_us": [5.0, 6.0], "delay_us": [5.0, 5.0 + k],
            "arrival_spacing_cv": 0.1, "mean_delay_us": 5.0, "max_delay_us": 5.0 + k}))
    m = gine14.burst_analyse(recs).metrics
    assert m["rtc_max_delay_us_seeds"] >= EXTREME_SEEDS["quick"]
    assert m["rtc_max_delay_us"] == pytest.approx(10.5)  # the median, not the largest (15)
    assert m["rtc_max_delay_us_high"] < 15


# ---------------------------------------------------------------------------------------------
# Cut-offs kept out (NTT96: a stream cut off at --maxTime reports "the horizon minus what was
# logged")


def _router_records(cut_jitter, cut_logged=500, off_cut_pps=6500.0):
    """ntt-router records of the quick points: jitter 1 ms per 1000 packets/s of load, the
    FDDI-side both-off curve cut off at its highest load (jitter cut_jitter, a bound)."""
    from testbed.experiments import ntt96

    recs = []
    for p in ntt96.router_points("quick"):
        pps = p["loadPps"]
        cut = (p["receiverSide"] == "fddi" and not p["cacheEthernet"] and not p["cacheFddi"]
               and p["loadFrame"] == ntt96.ETHERNET_MAX_FRAME and pps == off_cut_pps)
        r = {"load_rate_pps": pps, "load_frame_bytes": p["loadFrame"],
             "load_offered_mbps": pps * p["loadFrame"] * 8e-6, "load_carried_mbps": 1.0,
             "jitter_s": cut_jitter if cut else 1e-3 * pps / 1000,
             "jitter_is_lower_bound": cut, "window_logged": cut_logged if cut else 1000,
             "window_s": 2.0, "stream_rate_mbps": 6.0, "seq_jitter_s": 0.0, "seq_missing": 0,
             "analyser_on_ring": True, "ttrt_ms": 8.0, "mss": 1460,
             "receiver_side": p["receiverSide"], "cache_ethernet": p["cacheEthernet"],
             "cache_fddi": p["cacheFddi"], "router_fast": 0, "router_slow": 0,
             "router_queue_drops": 0, "router_fddi_drops": 0, "router_ethernet_drops": 0}
        recs.append(Record(params=p, result=r))
    return recs


def test_a_cut_off_point_is_a_bound_kept_out_of_values_and_comparisons():
    from testbed.experiments import ntt96

    m30 = ntt96.router_analyse(_router_records(25.0)).metrics  # 30 s horizon
    m60 = ntt96.router_analyse(_router_records(55.0)).metrics  # the same, 60 s
    assert m30["exp2_both_off_jitter_s"] is None
    assert m30["exp2_both_off_jitter_s_lower_bound"] == 25.0
    assert not any(k.endswith("_is_lower_bound") for k in m30)  # a bound is NAME_lower_bound
    assert m30["exp2_eth_off_fddi_off_worst_jitter_s"] is None
    assert m30["exp2_eth_off_fddi_off_worst_jitter_s_lower_bound"] == 25.0
    # Nothing but the bounds depends on the horizon.
    assert ({k: v for k, v in m30.items() if not k.endswith("_lower_bound")}
            == {k: v for k, v in m60.items() if not k.endswith("_lower_bound")})
    # Uncut curves keep their values.
    assert m30["exp2_eth_on_fddi_on_worst_jitter_s"] == pytest.approx(6.5e-3)


def test_a_bound_decides_a_comparison_only_where_it_exceeds_the_other():
    from testbed.experiments import ntt96

    def rec(j, bound=False, logged=1000):
        return {"jitter_s": j, "jitter_is_lower_bound": bound, "window_logged": logged}

    assert ntt96._worse(rec(1.0), rec(2.0)) is True
    assert ntt96._worse(rec(1.0), rec(2.0, True, 10)) is True  # >= 2 > 1
    assert ntt96._worse(rec(3.0), rec(2.0, True, 10)) is None  # >= 2: may exceed 3
    assert ntt96._worse(rec(3.0, True, 10), rec(2.0)) is False  # >= 3 > 2
    assert ntt96._worse(rec(1.0), rec(0.0, True, 0)) is True  # nothing logged: worse


def test_a_jitter_is_worse_only_by_more_than_the_receivers_clock_resolves():
    """The instrument's resolution: one tick of the receiving application's clock (1 us with
    microtime(), 10 ms with the 100 Hz tick alone)."""
    from testbed.experiments import ntt96

    def rec(j, hz=1000000):
        return {"jitter_s": j, "jitter_is_lower_bound": False, "window_logged": 1000,
                "timestamp_hz": hz}

    assert ntt96._worse(rec(1.0e-3), rec(1.0005e-3)) is False  # 0.5 us: not resolved
    assert ntt96._worse(rec(1.0e-3), rec(1.002e-3)) is True  # 2 us
    assert ntt96._worse(rec(0.01, 100), rec(0.015, 100)) is False  # within one 10 ms tick
    assert ntt96._worse(rec(0.01, 100), rec(0.025, 100)) is True


def test_report_shows_a_bound_a_seed_interval_and_levels(tmp_path):
    import json

    from testbed.experiment import Experiment
    from testbed.report import write_report

    v = Validation.over_seeds("irix_net_jitter_us", 216, [188, 230, 291] * 4, 25, "jitter",
                              reason="r")
    metrics = {"cut_jitter_s": None, "cut_jitter_s_lower_bound": 25.0, "x_us": 3.0,
               "x_us_low": 2.0, "x_us_high": 4.0, "x_us_seeds": 10,
               "verdict": "equal", "verdict_levels": "equal=0.5, crc=0.5"}
    exp = Experiment(id="e", study="S", title="t", program="p", points=lambda s: [],
                     analyse=lambda r: None)
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "metrics.json").write_text(json.dumps(
        {"study": "S", "scale": "quick", "metrics": metrics, "validation": [v.as_dict()]}))
    text = write_report(tmp_path, [exp]).read_text()
    assert "| `cut_jitter_s` | >= 25 (cut off) |" in text
    assert "| `x_us` | 3 | 2 .. 4 (10 seeds) |" in text
    assert "| `verdict` | equal |  |  | levels: equal=0.5, crc=0.5 |" in text
    assert "230 [188, 291] (12 seeds)" in text
    assert "cut_jitter_s_lower_bound" not in text and "x_us_low" not in text
    # With a sensitivity band over the ranges (1 .. 5) the seed spread (2 .. 4 around 3)
    # widens it on each side: 0 .. 6.
    m = json.loads((tmp_path / "e" / "metrics.json").read_text())
    m["sensitivity"] = {"method": "morris", "samples": 4, "metrics": {
        "x_us": {"band_low": 1.0, "band_high": 5.0, "drivers": ["a", "b"]}}}
    (tmp_path / "e" / "metrics.json").write_text(json.dumps(m))
    text = write_report(tmp_path, [exp]).read_text()
    assert "| `x_us` | 3 | 0 .. 6 (ranges and 10 seeds) | `a`, `b` |" in text
    # A band over the ranges alone that lies to one side of the nominal (3 against 3.5 .. 5:
    # a nominal at a corner of the ranges) is widened to it, and says so.
    m["metrics"] = {"y_us": 3.0}
    m["sensitivity"]["metrics"] = {"y_us": {"band_low": 3.5, "band_high": 5.0, "drivers": ["a"]}}
    (tmp_path / "e" / "metrics.json").write_text(json.dumps(m))
    text = write_report(tmp_path, [exp]).read_text()
    assert "| `y_us` | 3 | 3 .. 5 (ranges, widened to the nominal) | `a` |" in text


def test_one_rule_combines_the_ranges_band_with_the_seed_spread():
    """doc/sensitivity.rst: the ranges' band widened on each side by the seed spread on that
    side (hand values: band 10..20, seeds 14.5..16 around 15 -> 9.5..21)."""
    from testbed.sensitivity import combine_band

    assert combine_band(10, 20, 15, 14.5, 16) == (9.5, 21)
    # the nominal outside the ranges' band (the design's corners all to one side): the band
    # still covers the nominal's own seed interval, and a jitter's low end stays >= 0
    assert combine_band(10, 20, 5, 4.5, 6) == (4.5, 21)
    assert combine_band(1, 400, 3000, 2800, 3800) == (0.0, 3800)
    assert combine_band(-5, 5, 0, -1, 1) == (-6, 6)  # a signed quantity is not clipped
    assert combine_band(None, None, 5, 4.5, 6) == (4.5, 6)  # seeds only
    assert combine_band(10, 20, 5, None, None) == (10, 20)  # ranges only


@pytest.mark.parametrize("scale", ["quick", "paper"])
def test_mega_one_process_deviation_runs_over_enough_seeds(scale):
    """The one-process send-interval std (about a hundred intervals at quick scale, a
    calibration point) is compared as a seed interval."""
    from testbed.experiments import mega06

    pts = [p for p in mega06.flooding_points(scale) if p["role"] == "one-process"]
    assert len({p.get("RngRun", 1) for p in pts}) >= EXTREME_SEEDS[scale]
    assert len({tuple(sorted((k, v) for k, v in p.items() if k != "RngRun"))
                for p in pts}) == 1  # the same point, seeds apart


def test_a_bound_gets_no_sensitivity_band():
    """A cut-off point's bound (a function of the horizon) and a seed count are no prediction
    of their own: ./testbed sensitivity bands neither; a cut-off metric (None) has no band."""
    from testbed.sensitivity import banded_names

    nominal = {"exp2_both_off_jitter_s": None, "exp2_both_off_jitter_s_lower_bound": 26.1,
               "x_us": 3.0, "x_us_low": 2.0, "x_us_seeds": 10, "flag": True}
    assert banded_names(nominal, ("*",)) == ["x_us", "x_us_low"]


# ---------------------------------------------------------------------------------------------
# Experiments that run their points once, then over seeds (Experiment.more_points): NTT96


def _ntt_record(params, run, jitter, cut=False, logged=1000):
    return Record(params=dict(params, **({"RngRun": run} if run != 1 else {})),
                  result={"jitter_s": jitter, "jitter_is_lower_bound": cut,
                          "window_logged": logged},
                  resolved={"RngRun": run})


def test_merged_seed_metrics_by_hand():
    """Medians and 5-95 % quantiles of numbers, a bound as soon as one seed is cut off (its
    value the median of the values and bounds: a lower bound of the median), a verdict's
    levels, a number the seeds do not move kept as it is, a regime's band kept inside."""
    from testbed.experiment import _merge_seed_metrics

    per_seed = []
    for s in range(1, 11):
        per_seed.append({
            "a_jitter_s": float(s),
            "b_jitter_s": None if s == 3 else 2.0 * s,
            **({"b_jitter_s_lower_bound": 100.0} if s == 3 else {}),
            "flat": s <= 3, "echo_pps": 1000, "c_s": 5.0 + s,
            "c_s_low": 0.5, "c_s_high": 7.0, "c_s_regime": "held (driver: x); held: 6; whole: 0.5"})
    m = _merge_seed_metrics(per_seed)
    # 1..10: median 5.5, 5 % at 1.45, 95 % at 9.55 (linear interpolation)
    assert m["a_jitter_s"] == pytest.approx(5.5)
    assert (m["a_jitter_s_low"], m["a_jitter_s_high"]) == pytest.approx((1.45, 9.55))
    assert m["a_jitter_s_seeds"] == 10 and "a_jitter_s_lower_bound" not in m
    # seed 3 cut off: a bound; values 2, 4, 8, ..., 20 and 100 -> median (12 + 14) / 2
    assert m["b_jitter_s"] is None
    assert m["b_jitter_s_lower_bound"] == pytest.approx(13.0)
    assert "b_jitter_s_low" not in m and "b_jitter_s_seeds" not in m
    assert m["flat"] is False and m["flat_levels"] == "false=0.7, true=0.3"
    assert m["echo_pps"] == 1000 and "echo_pps_seeds" not in m
    # the regime's band (0.5 .. 7) widened by the seed interval (6.45 .. 14.55)
    assert m["c_s"] == pytest.approx(10.5)
    assert (m["c_s_low"], m["c_s_high"]) == pytest.approx((0.5, 14.55))
    assert (m["c_s_seed_low"], m["c_s_seed_high"]) == pytest.approx((6.45, 14.55))
    assert m["c_s_regime"].startswith("held")


def test_more_seeds_skips_cut_off_points_and_keeps_the_points_own_run():
    from testbed.experiment import more_seeds

    recs = [_ntt_record({"loadPps": 1.0}, 1, 0.1), _ntt_record({"loadPps": 2.0}, 1, 26.0, True),
            _ntt_record({"loadPps": 3.0}, 4, 0.2)]
    more = more_seeds(lambda r, rs: not r.result["jitter_is_lower_bound"])
    pts = more("quick", recs)
    assert len(pts) == 2 * (EXTREME_SEEDS["quick"] - 1)
    assert {p["RngRun"] for p in pts if p["loadPps"] == 1.0} == set(range(2, 11))
    assert {p["RngRun"] for p in pts if p["loadPps"] == 3.0} == set(range(1, 11)) - {4}
    assert not [p for p in pts if p["loadPps"] == 2.0]
    assert len(more("paper", recs)) == 2 * (EXTREME_SEEDS["paper"] - 1)


def test_analysis_over_seeds_reads_each_seeds_records_and_a_single_seed_as_before():
    """Each seed's analysis sees that seed's run of a point, or its first run where no other
    was needed; one seed's records give the analysis's own result."""
    from testbed.experiment import Analysis, analyse_over_seeds

    seen = []

    def analyse(records):
        seen.append([(r.params["loadPps"], r.resolved["RngRun"]) for r in records])
        return Analysis(rows=[], metrics={"top_jitter_s": max(r.result["jitter_s"]
                                                              for r in records)})

    over = analyse_over_seeds(analyse)
    first = [_ntt_record({"loadPps": 1.0}, 1, 0.1), _ntt_record({"loadPps": 2.0}, 1, 0.5)]
    assert over(first).metrics == {"top_jitter_s": 0.5}
    seen.clear()
    more = [_ntt_record({"loadPps": 1.0}, r, 0.1 * r) for r in range(2, 11)]
    m = over(first + more).metrics
    assert seen[0] == [(1.0, 1), (2.0, 1)] and seen[3] == [(1.0, 4), (2.0, 1)]
    assert len(seen) == 10
    # per seed max(0.1 r, 0.5): 0.5 x 5, then 0.6 .. 1.0 -> median 0.55
    assert m["top_jitter_s"] == pytest.approx(0.55) and m["top_jitter_s_seeds"] == 10


def test_a_figure_over_seeds_shades_each_points_seed_interval():
    """The first seed's line, and under it the 5-95 % interval of each point's value over the
    seeds (numpy's percentiles of the values, computed here by hand for ten values); a point
    that is the same in every seed adds no width, and measured data get no interval."""
    from testbed.experiment import Analysis, Figure, Series, analyse_over_seeds

    def analyse(records):
        pts = sorted((r.params["loadPps"], r.result["jitter_s"]) for r in records)
        return Analysis(rows=[], metrics={}, figures=[Figure(
            "jit", "t", "x", "y", series=[
                Series("model", [x for x, _ in pts], [y for _, y in pts]),
                Series("measured", [1.0, 2.0], [0.3, 0.3], style="points")])])

    recs = [_ntt_record({"loadPps": 1.0}, r, 0.1 * r) for r in range(1, 11)]
    recs += [_ntt_record({"loadPps": 2.0}, 1, 0.5)]
    fig = analyse_over_seeds(analyse)(recs).figures[0]
    bands = [s for s in fig.series if s.style == "band"]
    assert len(bands) == 1 and bands[0].group == "model" and bands[0].x == [1.0, 2.0]
    # 0.1 .. 1.0: the 5 % quantile at rank 0.45 (0.1 + 0.45 x 0.1), the 95 % at rank 8.55
    low = [y - h for y, h in zip(bands[0].y, bands[0].yerr)]
    high = [y + h for y, h in zip(bands[0].y, bands[0].yerr)]
    assert low == pytest.approx([0.145, 0.5]) and high == pytest.approx([0.955, 0.5])
    model = next(s for s in fig.series if s.title == "model")
    assert model.y == [0.1, 0.5]  # the first seed's line
    assert "over 10 seeds" in fig.subtitle


def test_ntt96_jitters_of_the_quick_reproduction_are_over_seeds_or_bounds():
    """Every NTT96 jitter metric (an extreme: max - min of the logged packets' delays) of the
    quick points is a seed interval over EXTREME_SEEDS seeds, a bound (cut off), or a number
    the seeds do not move; the seeds' points are only those a metric reads, never a cut-off
    one's."""
    import os

    from testbed import EXAMPLES_DIR
    from testbed.campaign import run_campaign
    from testbed.experiment import experiments
    from pathlib import Path

    exps = [experiments()[e] for e in ("ntt-load", "ntt-overflow")]
    if not (Path(EXAMPLES_DIR) / "ntt-stream").exists():
        pytest.skip("programs not built")
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        res = run_campaign(exps, "quick", os.cpu_count() or 1, Path(out), log=lambda *a: None,
                           progress=False)
        for e in exps:
            recs = res[e.id]
            assert not isinstance(recs, Exception), recs
            first = e.points("quick")
            assert len(recs) > len(first)
            for r in recs[len(first):]:
                base = next(x for x in recs[:len(first)] if x.params == {
                    k: v for k, v in r.params.items() if k != "RngRun"})
                assert not base.result["jitter_is_lower_bound"]
            m = e.analyse(recs).metrics
            jitters = [k for k in m if k.endswith("_jitter_s") and m[k] is not None]
            assert jitters
            seeded = [k for k in jitters if m.get(f"{k}_seeds", 0) >= EXTREME_SEEDS["quick"]]
            assert len(seeded) >= len(jitters) - 1, set(jitters) - set(seeded)
            for k in seeded:
                assert m[f"{k}_low"] <= m[k] <= m[f"{k}_high"]


def test_tno_schedulers_extremes_are_seed_intervals_and_means_stay_means():
    """A run's largest latency and its scheduling jitter over EXTREME_SEEDS seeds: the median,
    the 5-95 % seed interval, the band the union with the ends' seed intervals; a mean quantity
    is the mean over the runs; a limit's flag says every run and its levels the share."""
    from testbed.experiments import tno03

    recs = []
    for p in tno03.schedulers_points("quick"):
        shift = {"fast": -100.0, "slow": 200.0}.get(p.get("band"), 0.0)
        k = p["RngRun"]
        recs.append(Record(params=p, result={
            **{q: 10.0 for q in tno03.SCHED_QUANTITIES},
            "federate_latency_max_ms": 90.0 + 2 * k + shift,  # 92 .. 110 over RngRun 1-10
            "federate_latency_mean_ms": float(k)}))
    m = tno03.schedulers_analyse(recs).metrics
    name = "default_lan_card_federate_latency_max_ms"
    assert m[f"{name}_seeds"] == EXTREME_SEEDS["quick"]
    assert m[name] == pytest.approx(101.0)
    assert (m[f"{name}_seed_low"], m[f"{name}_seed_high"]) == pytest.approx((92.9, 109.1))
    # the fast end's interval is 100 lower, the slow end's 200 higher
    assert (m[f"{name}_low"], m[f"{name}_high"]) == pytest.approx((-7.1, 309.1))
    assert m["default_lan_card_federate_latency_mean_ms"] == pytest.approx(5.5)
    assert "default_lan_card_federate_latency_mean_ms_seeds" not in m
    # runs 1-5 give 92-100 ms, within 100 ms; runs 6-10 102-110 ms, beyond
    assert m[f"{name}_within_limit"] is False
    assert m[f"{name}_within_limit_levels"] == "true=0.5, false=0.5"
