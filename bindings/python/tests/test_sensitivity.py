"""./testbed sensitivity: the Morris ranking on a function with known effects, the ranges as data
(profiles' #@range lines, the doc/ convention) and the recalibration hook."""

import json
import os

import numpy as np
import pytest

from testbed import EXAMPLES_DIR
from testbed.ranges import (Profiles, Range, RangeError, check_docs, doc_markers,
                            profile_file_text)
from testbed.sensitivity import analyse, sample


# ---------------------------------------------------------------------------------------------
# Morris on an analytic function


def test_morris_linear_mu_star_is_coefficient_times_range():
    # y = sum a_i x_i: every elementary effect of x_i is a_i * delta_i exactly, where delta_i is
    # the Morris step in x_i's units; SALib reports effects per unit of the scaled [0, 1] input,
    # so mu*_i = |a_i| * (high_i - low_i) and sigma_i = 0 (hand-computed, independent of SALib's
    # design).
    coef = [3.0, -0.5, 0.0, 12.0]
    factors = [Range(f"x{i}", lo, hi, "test") for i, (lo, hi) in
               enumerate([(0, 1), (10, 30), (-1, 1), (1e-3, 2e-3)])]
    X = sample(factors, "morris", 6, seed=3)
    Y = X @ np.array(coef)
    rank = analyse(factors, "morris", X, Y)
    for a, f, r in zip(coef, factors, rank):
        assert r["mu_star"] == pytest.approx(abs(a) * (f.high - f.low), rel=1e-9, abs=1e-12)
        assert r["sigma"] == pytest.approx(0.0, abs=1e-9)


def test_morris_sees_an_interaction_as_sigma():
    # y = x0 * x1 on [0, 1]^2: x0's effect depends on x1, so sigma > 0 (what a one-at-a-time
    # design can tell of an interaction: that there is one, not what it is).
    factors = [Range("x0", 0, 1, "test"), Range("x1", 0, 1, "test")]
    X = sample(factors, "morris", 10, seed=1)
    rank = analyse(factors, "morris", X, X[:, 0] * X[:, 1])
    assert all(r["sigma"] > 0.05 for r in rank)


def test_sobol_linear_indices_sum_to_one():
    # y = 2 x0 + x1, uniform inputs on [0, 1]: V = 4/12 + 1/12, S1 = (0.8, 0.2), ST = S1.
    factors = [Range("x0", 0, 1, "test"), Range("x1", 0, 1, "test")]
    X = sample(factors, "sobol", 256, seed=1)
    rank = analyse(factors, "sobol", X, 2 * X[:, 0] + X[:, 1])
    assert rank[0]["S1"] == pytest.approx(0.8, abs=0.05)
    assert rank[1]["S1"] == pytest.approx(0.2, abs=0.05)
    assert rank[0]["ST"] == pytest.approx(0.8, abs=0.05)


# ---------------------------------------------------------------------------------------------
# Ranges as data


def test_profile_ranges_are_well_formed_and_contain_the_nominal_value():
    prof = Profiles()  # raises RangeError on a malformed or out-of-range #@range line
    assert prof.ranges, "no #@range line in model/*/*-profiles.cc"
    for r in prof.ranges:
        for (name, key), (v, _, _) in r.nominal.items():
            if r.relative:
                assert r.low <= 1 <= r.high
            elif name == r.profile:
                assert r.low <= v <= r.high, (r.id, v)


def test_a_range_applies_to_derived_profiles_unless_they_set_the_key():
    prof = Profiles()
    stack = next(r for r in prof.ranges if r.id == "host/onyx-irix65-250/stack")
    assert stack.applies_to == ("onyx-irix65-250", "onyx-irix65-195")  # 195: base = 250
    cores = next(r for r in prof.ranges if r.id == "host/onyx-irix65-250/HostPlatform.Cpu.Cores")
    assert cores.applies_to == ("onyx-irix65-250",)  # 195 sets its own Cores
    # A factor of 0.5 halves each cost of each profile (20 000 -> 10 000 send cycles).
    text = profile_file_text(stack.settings(0.5))
    assert "[host onyx-irix65-195]\nbase = onyx-irix65-195\nHostPlatform.SendCost = 10000" in text


def test_a_range_outside_its_nominal_value_is_refused(tmp_path):
    model = tmp_path / "model" / "host"
    model.mkdir(parents=True)
    (model / "host-profiles.cc").write_text(
        'const char* t = R"(\n[host a]\nHostPlatform.SendCost = 100\n'
        '#@range HostPlatform.SendCost 200 300 : test\n)";\n')
    with pytest.raises(RangeError, match="outside its range"):
        Profiles(tmp_path)


def _doc_tree(tmp_path, rst):
    (tmp_path / "doc").mkdir(parents=True)
    (tmp_path / "doc" / "x.rst").write_text(rst)
    model = tmp_path / "model" / "host"
    model.mkdir(parents=True)
    (model / "host-profiles.cc").write_text(
        'const char* t = R"(\n[host a]\nHostPlatform.SendCost = 100\n'
        '#@range HostPlatform.SendCost 50 200 : test\n)";\n')
    return check_docs(tmp_path, experiment_ranges={"e": [Range("ttrt", 1, 2, "test")]})


def test_missing_range_check_fails_on_an_unmarked_assumption(tmp_path):
    problems = _doc_tree(tmp_path, "Title\n=====\n\nThe send cost is an assumption.\n")
    assert len(problems) == 1 and "no '.. ranged:'" in problems[0]


def test_missing_range_check_fails_on_a_marker_without_a_range(tmp_path):
    problems = _doc_tree(tmp_path, "The receive cost is an estimate.\n\n"
                                   ".. ranged: host/a HostPlatform.RecvCost\n")
    assert len(problems) == 1 and "no '#@range' for HostPlatform.RecvCost" in problems[0]
    problems = _doc_tree(tmp_path.joinpath("2"), "TTRT: an assumption.\n\n"
                                                 ".. ranged: experiment e flush\n")
    assert len(problems) == 1 and "no range 'flush'" in problems[0]


def test_missing_range_check_passes_with_ranges_or_reasons(tmp_path):
    assert _doc_tree(tmp_path, "The send cost is an assumption; TTRT too.\n\n"
                               ".. ranged: host/a HostPlatform.SendCost\n"
                               ".. ranged: experiment e ttrt\n\n"
                               "The formula assumes nothing here, an estimated order.\n\n"
                               ".. not-ranged: not a parameter value\n") == []


def test_every_assumption_in_doc_has_a_range():
    # The convention of doc/sensitivity.rst on the real chapters and declarations.
    problems = check_docs()
    assert not problems, "\n".join(problems)
    assert doc_markers(), "doc/ has no assumption at all?"


# ---------------------------------------------------------------------------------------------
# Recalibration


@pytest.mark.skipif(not (EXAMPLES_DIR / "tno-pipeline").exists(), reason="not built")
def test_recalibration_moves_k_and_keeps_the_calibration_metric(tmp_path):
    # A sampled assumption (the IRIX stack cost, x0.6: 30 000 instead of 50 000 cycles a
    # message) lowers 1b's latency; the hook refits RTI-DM's K upwards so that 1b's latency is
    # the measured 780 us again (within the 1 % tolerance), by the calibration procedure of
    # bench/tno-calibrate.py.
    from testbed.experiment import get
    from testbed.experiments import tno03
    from testbed.sensitivity import recalibrate, sample_changes

    exp = get("tno-pipeline")
    factors = exp.sensitivity.factors()
    row = [1.0 if f.relative else None for f in factors]
    names = [f.id for f in factors]
    for i, f in enumerate(factors):
        if row[i] is None:  # absolute ranges: their nominal value (no change)
            row[i] = f.nominal[(f.profile, f.keys[0])][0]
    row[names.index("host/onyx-irix65-250/stack")] = 0.6
    changes, options = sample_changes(factors, row)
    res = recalibrate("tno-pipeline", {f"{k}/{p}": v for (k, p), v in changes.items()},
                      options, str(tmp_path))
    (fit,) = res["fits"]
    k0 = float(Profiles().value("rti", "tno-rti-dm", "RtiSettings.CallCost"))
    assert fit["value"] > k0 * 1.2  # the stack's 40 % less is made up by K
    assert abs(fit["achieved"] - 780.0) <= 0.01 * 780.0
    assert fit["pass"]
    # The fitted K, run on its own, gives the calibration metric (not just the fit's claim).
    pf = tmp_path / "check.profiles"
    pf.write_text(profile_file_text(
        {**changes, **{tuple(k.split("/", 1)): v for k, v in res["settings"].items()}}))
    lat = tno03.pipeline_latency_us(tno03.k_calibration_point("1b"), "", str(pf))
    assert abs(lat - 780.0) <= 0.01 * 780.0
    assert json.dumps(res)  # storable as the sample's calibration record
