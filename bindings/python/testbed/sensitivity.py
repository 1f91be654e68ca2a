"""``./testbed sensitivity EXPERIMENT``: which assumptions drive each predicted metric, and the
band of the predictions over the assumptions' documented ranges (doc/sensitivity.rst).

An experiment opts in with a ``Sensitivity`` declaration (``Experiment(..., sensitivity=...)``):
the profiles whose ``#@range`` lines apply (testbed.ranges), its own set-up ranges (program
options, ns-3 attribute defaults), the metrics it predicts, the points a sample runs, and the
recalibrations: calibrated parameters that depend on an assumed one are fitted again, sample by
sample, with the experiment's own calibration procedure, so that every sampled prediction still
matches the calibration data.

The design is SALib's (Morris elementary effects by default, Sobol indices on request); the
points run on the campaign engine (testbed.campaign: Dask, stored records, resume, progress) as
an experiment ``sensitivity-EXPERIMENT`` whose points are the experiment's points with each
sample's options and a ``--profileFile`` that carries its profile values.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .build import build_identity, program_path
from .errors import CampaignError
from .experiment import Experiment, experiments, get
from .outputs import atomic_write_json, atomic_write_text, check_out, write_csv
from .plot import draw
from .stages import Fit, Fits, Points, Stage, run_one
from .ranges import Profiles, Range, format_number, parse_number, profile_file_text

METHODS = ("morris", "sobol")
#: Morris grid levels (SALib's default p = 4: every factor takes low, 1/3, 2/3, high).
MORRIS_LEVELS = 4
#: Small sample sizes: Morris trajectories, Sobol base samples (a power of 2): the default of
#: ./testbed sensitivity.
DEFAULT_SAMPLES = {"morris": 4, "sobol": 8}
#: The design ./testbed reproduce runs for every declared experiment's bands, per scale: Morris
#: trajectories. Quick: a screening design, one trajectory (k + 1 samples + the nominal model,
#: each factor's mu* its one elementary effect; each design point one seed: the seed spread is
#: the experiment's own seed interval), the design that keeps the quick reproduction within
#: 10 minutes on 2 cores; paper: the ./testbed sensitivity default. A declaration's
#: ``reproduce_samples`` overrides it per scale.
REPRODUCE_SAMPLES = {"quick": 1, "paper": 4}
#: Most runs (samples x points, before shared points are merged) a sensitivity analysis starts:
#: a sweep's default --max-points.
MAX_RUNS = 10000


@dataclass
class Recalibration:
    """A calibrated parameter refitted for each sample.

    ``procedure(profile_file, options)`` runs the experiment's calibration (the one the bench/
    script or doc/ names, not a copy) with the sample's assumed values (a --profileFile path or
    None, and program options) and returns ``{"settings": {(kind, profile): {key: text}},
    "value": fitted value, "achieved": calibration metric, "iterations": n}``, and
    ``"options": {option: text}`` where the fitted parameter is a program option."""

    parameter: str  # e.g. "rti/tno-rti-dm K"
    metric: str  # what it keeps: "1b latency_us"
    target: float
    tolerance_pct: float
    procedure: Callable[[str | None, dict], dict]


@dataclass
class Sensitivity:
    """An experiment's sensitivity declaration."""

    profiles: tuple[str, ...] = ()  # profiles whose #@range lines are factors
    # single #@range lines of other profiles that are factors too, by Range.id
    # ("host/onyx-irix65-250/irix"), without the rest of their profiles' ranges
    profile_ranges: tuple[str, ...] = ()
    # factors that only the recalibrations read (where a fit puts a parameter that its
    # calibration number identifies to an interval): never passed to the program
    calibration_options: tuple[str, ...] = ()
    ranges: list[Range] = field(default_factory=list)  # options and ns3:: attribute defaults
    metrics: tuple[str, ...] = ("*",)  # fnmatch patterns of the predicted metrics
    point_filter: Callable[[dict], bool] | None = None  # which quick points a sample runs
    recalibrate: list[Recalibration] = field(default_factory=list)
    # A point of a sample -> (the point whose run stands in for it, the result fields in which
    # its record differs: the program's echo of the setting), or None (the point itself). Only
    # for a setting that provably reaches no packet of the point (a test shows the two records
    # equal but for the echo): the sample runs one of the two, the analysis sees both.
    stand_in: Callable[[dict], tuple[dict, dict] | None] | None = None
    # A point of a sample -> its gate (another point of the same sample) or None. The gates run
    # first; a point whose gate's result ``settles`` (True) is not run and the analysis does not
    # see it: only where the gate's outcome provably fixes every metric the point could move
    # (a test shows the metrics equal with and without the point).
    gate: Callable[[dict], dict | None] | None = None
    settles: Callable[[dict], bool] | None = None
    # The experiment's analysis with a sample's analysis choices: (records, {choice name:
    # level}) -> Analysis. Needed when a factor is a choice applied in the analysis
    # (ranges.Choice(..., in_analysis=True)): a reading that every sample runs as its own
    # points, whose level picks the points the main metrics come from (sample_analysis).
    analyse: Callable[[list, dict], object] | None = None
    # Options a point that sets them keeps in every sample: the point is that reading's own
    # point (a per-reading floor), so the sample's level of the same factor applies only to the
    # points that leave it open.
    point_readings: tuple[str, ...] = ()
    # Morris trajectories of ./testbed reproduce's bands per scale, where they differ from
    # REPRODUCE_SAMPLES (an experiment whose samples are costly).
    reproduce_samples: dict[str, int] = field(default_factory=dict)
    notes: str = ""

    def factors(self) -> list[Range]:
        prof = Profiles().ranges_of(self.profiles) if self.profiles else []
        if self.profile_ranges:
            by_id = {r.id: r for r in Profiles().ranges}
            missing = [i for i in self.profile_ranges if i not in by_id]
            if missing:
                raise SensitivityError(f"no profile declares the range(s) {missing}")
            prof += [by_id[i] for i in self.profile_ranges if by_id[i] not in prof]
        return list(self.ranges) + prof


def reproduce_samples(exp: Experiment, scale: str) -> int:
    """The Morris trajectories of the bands ./testbed reproduce computes at this scale."""
    return exp.sensitivity.reproduce_samples.get(scale, REPRODUCE_SAMPLES[scale])


def declared_ranges() -> dict[str, list[Range]]:
    """Experiment id -> the set-up ranges of its declaration."""
    return {e.id: list(e.sensitivity.ranges) for e in experiments().values()
            if getattr(e, "sensitivity", None) is not None}


def build_id(program: str) -> str:
    """The build a result belongs to: the campaign's build identity (the program binary, the
    module library with its compiled-in profiles, the ns-3 version; testbed.campaign)."""
    return build_identity(program)["id"]


# ---------------------------------------------------------------------------------------------
# Samples


def problem(factors: list[Range]) -> dict:
    return {"num_vars": len(factors), "names": [f.id for f in factors],
            "bounds": [[f.low, f.high] for f in factors]}


def sample(factors: list[Range], method: str, n: int, seed: int = 1):
    """SALib's design: rows of factor values."""
    prob = problem(factors)
    if method == "morris":
        from SALib.sample import morris

        return morris.sample(prob, N=n, num_levels=MORRIS_LEVELS, seed=seed)
    if method == "sobol":
        from SALib.sample import sobol

        return sobol.sample(prob, N=n, calc_second_order=False, seed=seed)
    raise ValueError(f"unknown method {method!r}")


def analyse(factors: list[Range], method: str, X, Y) -> list[dict]:
    """Per factor: mu_star, sigma, mu_star_conf (Morris) or S1, S1_conf, ST, ST_conf (Sobol)."""
    import numpy as np

    prob = problem(factors)
    Y = np.asarray(Y, dtype=float)
    if method == "morris":
        from SALib.analyze import morris

        import warnings

        with warnings.catch_warnings():
            if len(Y) == len(factors) + 1:  # one trajectory: numpy's "ddof" warning of sigma
                warnings.simplefilter("ignore", RuntimeWarning)
            r = morris.analyze(prob, X, Y, num_levels=MORRIS_LEVELS, print_to_console=False,
                               seed=1)
        return [{"parameter": f.id, "mu_star": float(r["mu_star"][i]),
                 # one trajectory: one elementary effect per factor, no spread (None)
                 "sigma": _finite_or_none(r["sigma"][i]),
                 "mu_star_conf": _finite_or_none(r["mu_star_conf"][i])}
                for i, f in enumerate(factors)]
    from SALib.analyze import sobol

    if np.allclose(Y, Y[0]):  # no variance: no index (SALib would divide by zero)
        return [{"parameter": f.id, "S1": 0.0, "S1_conf": 0.0, "ST": 0.0, "ST_conf": 0.0}
                for f in factors]
    r = sobol.analyze(prob, Y, calc_second_order=False, print_to_console=False, seed=1)
    return [{"parameter": f.id, "S1": float(r["S1"][i]), "S1_conf": float(r["S1_conf"][i]),
             "ST": float(r["ST"][i]), "ST_conf": float(r["ST_conf"][i])}
            for i, f in enumerate(factors)]


def morris_steps(factors: list[Range], X, ys) -> tuple[list[dict] | None, int]:
    """Morris's statistics from the steps of the trajectories whose two samples are defined:
    a step changes one factor by +-delta (in the unit range), its elementary effect is the
    change of the outcome over that delta. mu_star is the mean |effect| of each factor's
    steps, mu their mean, sigma their standard deviation (ddof 1; None below two),
    mu_star_conf None. On a complete design these are SALib's (test_sensitivity.py checks it);
    written here because SALib's analysis takes complete trajectories only, and one undefined
    sample would otherwise leave a one-trajectory design without any ranking. Returns (the
    ranking, the number of steps used) or (None, 0) when no step is defined."""
    import numpy as np

    k1 = len(factors) + 1
    span = np.array([f.high - f.low for f in factors], dtype=float)
    effects: list[list[float]] = [[] for _ in factors]
    used = 0
    for t in range(len(ys) // k1):
        for j in range(t * k1, (t + 1) * k1 - 1):
            if not (_numeric(ys[j]) and _numeric(ys[j + 1])):
                continue
            d = (np.asarray(X[j + 1], dtype=float) - np.asarray(X[j], dtype=float)) / span
            i = int(np.argmax(np.abs(d)))
            if d[i] == 0:
                continue
            effects[i].append((float(ys[j + 1]) - float(ys[j])) / d[i])
            used += 1
    if not used:
        return None, 0
    out = []
    for f, e in zip(factors, effects):
        out.append({"parameter": f.id,
                    "mu_star": float(np.mean(np.abs(e))) if e else None,
                    "sigma": float(np.std(e, ddof=1)) if len(e) > 1 else None,
                    "mu_star_conf": None, "steps": len(e)})
    return out, used


def _finite_or_none(v):
    v = float(v)
    return v if math.isfinite(v) else None


def _complete(factors, method, X, ys, least: int = 2):
    """The design rows whose outcome is defined, as a design SALib can analyse: Morris keeps
    the complete trajectories (k + 1 rows each; at least two), Sobol needs every row.
    ``least``: the fewest complete trajectories that rank (2; 1 for a one-trajectory
    design). Returns (X, Y, number of trajectories or rows used) or (None, None, 0)."""
    import numpy as np

    ok = [_numeric(y) for y in ys]
    if method == "morris":
        k1 = len(factors) + 1
        keep = [t for t in range(len(ys) // k1) if all(ok[t * k1:(t + 1) * k1])]
        if len(keep) < least:
            return None, None, 0
        idx = [t * k1 + j for t in keep for j in range(k1)]
        return X[idx], np.array([ys[i] for i in idx], dtype=float), len(keep)
    if all(ok):
        return X, np.array(ys, dtype=float), len(ys)
    return None, None, 0


def sample_changes(factors: list[Range], row) -> tuple[dict, dict]:
    """A design row -> (profile changes {(kind, profile): {key: text}}, program options). A
    fixed-sum split's two shares (ranges.Split) multiply their keys' values, after the other
    factors set them (a relative range over the same keys multiplies on top)."""
    changes: dict[tuple[str, str], dict[str, str]] = {}
    options: dict[str, str] = {}
    splits: dict[int, tuple] = {}
    for f, x in zip(factors, row):
        if f.in_analysis:  # no program option: the analysis applies it (sample_choices)
            continue
        if f.split is not None:
            splits.setdefault(id(f.split), (f.split, {}))[1][f.name] = float(x)
        elif f.kind:
            for pk, settings in f.settings(float(x)).items():
                changes.setdefault(pk, {}).update(settings)
        else:
            options[f.name] = f.value(float(x))
    if splits:
        profiles = Profiles()
        for split, xs in splits.values():
            s1, s3 = (xs[f"{split.label}.{n}"] for n in split.names)
            for pk, mult in split.multipliers(s1, s3, profiles).items():
                for key, m in mult.items():
                    text = changes.get(pk, {}).get(key) or profiles.value(*pk, key)
                    v, unit, integer = parse_number(text)
                    changes.setdefault(pk, {})[key] = format_number(v * m, unit, integer)
    return changes, options


def sample_choices(factors: list[Range], row) -> dict[str, str]:
    """A design row's levels of the choices applied in the analysis ({name: level}); the
    nominal readings for the nominal model (row None)."""
    if row is None:
        return {f.name: f.default for f in factors if f.in_analysis}
    return {f.name: f.level(float(x)) for f, x in zip(factors, row) if f.in_analysis}


def sample_analysis(exp: Experiment, records: list, choices: dict):
    """A sample's Analysis: the declaration's ``analyse`` with the sample's analysis choices
    where it has one, else the experiment's own analysis."""
    decl = exp.sensitivity
    if decl.analyse is not None:
        return decl.analyse(records, choices)
    if choices:
        raise SensitivityError(f"{exp.id}: choices {sorted(choices)} are applied in the analysis "
                               f"but the sensitivity declaration has no analyse")
    return exp.analyse(records)


def _key(obj) -> str:
    canon = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def _changes_json(changes):
    return {f"{k}/{p}": s for (k, p), s in sorted(changes.items())}


def _merge(changes, more):
    out = {k: dict(v) for k, v in changes.items()}
    for pk, settings in more.items():
        out.setdefault(tuple(pk), {}).update(settings)
    return out


# ---------------------------------------------------------------------------------------------
# Recalibration (a Dask task per sample)


def write_profile_file(directory: Path, changes) -> str | None:
    """Content-addressed --profileFile of the changes (None when there are none)."""
    if not changes:
        return None
    text = profile_file_text(changes)
    path = Path(directory) / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.profiles"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # one temporary file per writer: the recalibration threads of samples with the same
        # changes write the same file at the same time
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)
    return str(path)


def recalibrate(exp_id: str, changes_json: dict, options: dict, profiles_dir: str) -> dict:
    """Run the experiment's recalibrations in order on one sample's assumed values; each sees
    the parameters fitted before it. Returns {"settings": changes as JSON, "fits": [...]}."""
    decl = get(exp_id).sensitivity
    changes = {tuple(k.split("/", 1)): v for k, v in changes_json.items()}
    fitted: dict = {}
    fitted_options: dict = {}
    fits = []
    for rc in decl.recalibrate:
        pf = write_profile_file(Path(profiles_dir), _merge(changes, fitted))
        res = rc.procedure(pf, {**options, **fitted_options})
        fitted = _merge(fitted, res["settings"])
        fitted_options.update(res.get("options", {}))
        err = (res["achieved"] - rc.target) / abs(rc.target) * 100
        fits.append({"parameter": rc.parameter, "metric": rc.metric, "target": rc.target,
                     "value": res["value"], "achieved": res["achieved"],
                     "error_pct": err, "tolerance_pct": rc.tolerance_pct,
                     "pass": abs(err) <= rc.tolerance_pct + 1e-9,
                     "iterations": res.get("iterations")})
    return {"settings": _changes_json(fitted), "options": fitted_options, "fits": fits}


def calibration_dir(out_root: Path, decl: Sensitivity) -> Path:
    """Where a declaration's per-sample fits are stored: one folder per set of
    recalibrations (parameter, metric, target, tolerance) under --out, shared by every
    experiment that declares the same ones (jaxa-order, jaxa-bidir and jaxa-fig8 refit K on
    the same design; tno-pipeline and tno-jitter the cold lines): a sample with the same
    assumed values and options is fitted once. The procedures are deterministic, and the fit's
    key is its sample's assumed values and options."""
    ident = [[r.parameter, r.metric, r.target, r.tolerance_pct] for r in decl.recalibrate]
    return Path(out_root) / "sensitivity-calibration" / _key(ident)


# ---------------------------------------------------------------------------------------------
# The run


class SensitivityError(RuntimeError):
    pass


def _as_point(rec, params: dict, echo: dict):
    """The record of a point that another point's run stands in for (Sensitivity.stand_in):
    its own parameters, the run's result with the point's echo of the setting."""
    from dataclasses import replace

    if not echo and rec.params == params:
        return rec
    return replace(rec, params=dict(params), result={**rec.result, **echo})


def points_cpu(points_dir: Path, unique: dict) -> float:
    """The summed CPU time (user + system, s) of the programs that computed these points, as
    their records store it (``cpu_s``; a record from before it was stored counts 0)."""
    total = 0.0
    for f in Path(points_dir).glob("*.json"):
        try:
            data = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        if _key(data.get("params")) in unique:
            total += float(data.get("cpu_s") or 0.0)
    return total


#: Metric companions that are not predictions of their own: a cut-off point's bound (a function
#: of the horizon: kept out of bands, doc/sensitivity.rst) and a seed interval's seed count.
NOT_BANDED = ("_lower_bound", "_seeds")


def banded_names(nominal: dict, patterns) -> list[str]:
    """The metrics of the nominal model that get a band: numeric, matching a pattern, and not
    a bound or a seed count (NOT_BANDED)."""
    return [m for m in nominal if _numeric(nominal[m]) and not m.endswith(NOT_BANDED)
            and any(fnmatch.fnmatch(m, pat) for pat in patterns)]


def leveled_names(nominal: dict, patterns) -> list[str]:
    """The metrics of the nominal model that get levels instead of a band: a verdict, a
    boolean or a named outcome (a string) matching a pattern. Over the design they get the set
    of outcomes and the fraction of the samples that give each (levels)."""
    return [m for m in nominal if isinstance(nominal[m], (bool, str))
            and not m.endswith(NOT_BANDED)
            and any(fnmatch.fnmatch(m, pat) for pat in patterns)]


#: Companions of a metric NAME, never a prediction of their own: NAME_low / NAME_high (a band
#: or a seed interval), NAME_seeds, NAME_seed_low / NAME_seed_high (the seed interval alone,
#: where _low/_high are wider), NAME_levels (a verdict's outcomes), NAME_regime (a named
#: cliff), NAME_ends (a named outcome at each end of a band: which end gives which),
#: NAME_lower_bound (a value cut off by a horizon: NAME itself is None).
COMPANIONS = ("_low", "_high", "_seeds", "_seed_low", "_seed_high", "_levels", "_regime",
              "_ends", "_lower_bound")


def without_band(metrics: dict, decl: "Sensitivity | None", compared=(),
                 attached: dict | None = None) -> list[str]:
    """The metrics of an analysis (the nominal model's) that get neither a band nor levels:
    not their own band (``_low``/``_high``: seeds or a regime), levels (``_levels``) or bound
    (``_lower_bound``), not compared with the study (``compared``: the validation points'
    names, a check or a calibration point), and not banded or levelled by the declaration
    (banded_names, leveled_names), or, given a metrics.json's ``attached`` sensitivity block,
    not in it (the metrics the samples' analyses gave). A prediction metric in this list is
    reported bare."""
    pats = decl.metrics if decl is not None else ()
    if attached is not None:
        covered = {k for k, b in attached.get("metrics", {}).items()
                   if b.get("band_low") is not None or b.get("levels")}
    else:
        covered = set(banded_names(metrics, pats)) | set(leveled_names(metrics, pats))
    out = []
    for k in metrics:
        if any(k.endswith(c) and k[:-len(c)] in metrics for c in COMPANIONS):
            continue
        if (f"{k}_low" in metrics or f"{k}_levels" in metrics
                or f"{k}_lower_bound" in metrics or k in compared or k in covered):
            continue
        out.append(k)
    return out


def levels(values) -> dict[str, float]:
    """The outcomes of a verdict over the design's samples and the fraction of the defined
    samples (not None) that give each, largest first."""
    from collections import Counter

    vals = [_level_text(v) for v in values if v is not None]
    if not vals:
        return {}
    return {k: c / len(vals) for k, c in Counter(vals).most_common()}


def _level_text(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _numeric(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _checked_request(exp: Experiment, method: str, samples: int | None, screening: bool):
    """The declaration, the number of samples and the factors of a sensitivity run, or
    SensitivityError naming what is wrong with the request."""
    decl = getattr(exp, "sensitivity", None)
    if decl is None:
        raise SensitivityError(f"{exp.id} has no sensitivity declaration (its assumptions have "
                               f"no ranges yet; see doc/sensitivity.rst)")
    if method not in METHODS:
        raise SensitivityError(f"--method {method}: one of {', '.join(METHODS)}")
    n = samples or DEFAULT_SAMPLES[method]
    if method == "morris" and n < (1 if screening else 2):
        # One trajectory gives each parameter one elementary effect: no spread (sigma), and
        # mu* of a single effect ranks nothing.
        raise SensitivityError(f"--samples {n}: Morris needs at least 2 trajectories (the "
                               f"spread of a parameter's elementary effects needs two)")
    factors = decl.factors()
    if not factors:
        raise SensitivityError(f"{exp.id}: no ranged parameter")
    if any(f.in_analysis for f in factors) and decl.analyse is None:
        raise SensitivityError(f"{exp.id}: a choice applied in the analysis needs the "
                               f"declaration's analyse")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SensitivityError(f"--samples {n!r}: a whole number >= 1")
    if method == "sobol" and n & (n - 1):
        raise SensitivityError(f"--samples {n}: Sobol's base samples are a power of 2 (its "
                               f"sequence's balance; e.g. {1 << (n.bit_length() - 1)} or "
                               f"{1 << n.bit_length()})")
    return decl, n, factors


def run_sensitivity(exp: Experiment, method: str = "morris", samples: int | None = None,
                    jobs: int = 2, out: Path | None = None, scheduler: str | None = None,
                    log=print, progress: bool = True, seed: int = 1,
                    screening: bool = False) -> dict:
    """Sample, recalibrate, run and analyse; write results/sensitivity-EXPERIMENT/.
    ``screening``: a one-trajectory Morris design is allowed (./testbed reproduce's smallest
    design for a costly experiment: each factor's mu* is its one elementary effect, sigma
    undefined). ./testbed reproduce runs sensitivity_stage of every declared experiment
    together instead (stages.run_stages)."""
    out_root = Path(out or Path.cwd() / "results").resolve()
    return run_one(exp.id, sensitivity_stage(exp, method, samples, out_root, log, seed,
                                             screening), jobs, out_root, log, scheduler,
                   progress)


def sensitivity_stage(exp: Experiment, method: str, samples: int | None, out_root: Path,
                      log=print, seed: int = 1, screening: bool = False) -> Stage:
    """run_sensitivity as a stage (testbed.stages): yields the recalibrations, then the
    samples' points, then the points that their gates do not settle; returns the summary."""
    decl, n, factors = _checked_request(exp, method, samples, screening)
    base_points = [p for p in exp.points("quick")
                   if decl.point_filter is None or decl.point_filter(p)]
    per = len(factors) + (1 if method == "morris" else 2)
    runs = (n * per + 1) * max(1, len(base_points))
    if runs > MAX_RUNS:
        raise SensitivityError(f"--samples {n}: {n} x {per} samples + the nominal, x "
                               f"{len(base_points)} points = {runs} runs, more than {MAX_RUNS}")
    sid = f"sensitivity-{exp.id}"
    sdir = Path(out_root) / sid
    try:
        check_out(sdir)
    except CampaignError as e:
        raise SensitivityError(str(e)) from None
    sdir.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    X = sample(factors, method, n, seed)
    log(f"{sid}: {method}, {len(factors)} parameters, {len(X)} samples (N = {n}) + the nominal")
    samples_info, recal_todo = _plan_samples(decl, factors, X, out_root)
    t_recal = time.monotonic()
    if recal_todo:
        log(f"{sid}: recalibrating {len(recal_todo)} samples "
            f"({', '.join(r.parameter for r in decl.recalibrate)})")
        profiles = str(sdir / "profiles")
        yield Fits([Fit(Path(dest), (lambda cj=cj, opts=opts:
                                     recalibrate(exp.id, cj, opts, profiles)))
                    for _, cj, opts, dest in recal_todo])
    t_recal = time.monotonic() - t_recal
    unique, deferred = _sample_points(decl, samples_info, base_points, sdir)

    def campaign(points):
        sexp = Experiment(id=sid, study=exp.study, title=f"sensitivity of {exp.id}",
                          program=exp.program, points=lambda scale: list(points),
                          analyse=exp.analyse, timeout_s=exp.timeout_s, cost=exp.cost)
        return Points(sexp)

    t_run = time.monotonic()
    by_key = _by_key((yield campaign(list(unique.values()))))
    skipped = set()
    if deferred:
        # the gates have run: a deferred point runs unless its gate settles it in every sample
        needed = {}
        for info in samples_info:
            for q, run, echo, gate in info.get("points", []):
                if gate is None:
                    continue
                if decl.settles(by_key[_key(gate)].result):
                    skipped.add((info["index"], _key(q)))
                else:
                    needed.setdefault(_key(run), run)
        log(f"{sid}: {len(needed)} of {len(deferred)} gated points needed "
            f"({len(skipped)} sample points settled by their gates)")
        if needed:
            by_key.update(_by_key((yield campaign(list(needed.values())))))
            unique.update(needed)
    t_run = time.monotonic() - t_run
    summary = _analyse_samples(exp, decl, method, n, seed, factors, X, samples_info, by_key,
                               skipped, base_points, unique, sdir)
    summary["timing_s"] = {"recalibration": round(t_recal, 1), "points": round(t_run, 1),
                           "total": round(time.monotonic() - t0, 1),
                           "points_cpu": round(points_cpu(sdir / "points", unique), 1)}
    _write_sensitivity(summary, factors, sdir, log)
    return summary


def _by_key(res) -> dict:
    """A stage's campaign outcome as {point key: record}; a failed campaign raises."""
    if isinstance(res, Exception):
        raise CampaignError(str(res))
    return {_key(r.params): r for r in res}


def _plan_samples(decl, factors, X, out_root):
    """The samples (the nominal model first: no change) and the recalibrations they need:
    ([{index, row, changes, options[, calibration]}], [(index, changes_json, options, dest)])."""
    rows = [None] + [list(map(float, r)) for r in X]
    samples_info, recal_todo = [], []
    for i, row in enumerate(rows):
        changes, options = ({}, {}) if row is None else sample_changes(factors, row)
        info = {"index": i, "row": row, "changes": changes, "options": options}
        if decl.recalibrate and row is not None:
            cj = _changes_json(changes)
            dest = calibration_dir(out_root, decl) / f"{_key([cj, options])}.json"
            info["calibration"] = dest
            # once per distinct set of assumed values: samples that differ only in a choice
            # applied in the analysis share their fit
            if not dest.exists() and all(d != str(dest) for *_, d in recal_todo):
                recal_todo.append((i, cj, options, str(dest)))
        samples_info.append(info)
    return samples_info, recal_todo


def _sample_points(decl, samples_info, base_points, sdir):
    """Each sample's points (info["points"]: [(point, its run, echo, gate)], with its fitted
    settings); ({key: run} of the points to run, {key: run} of the points behind a gate)."""
    unique: dict[str, dict] = {}
    deferred: dict[str, dict] = {}  # points behind a gate (Sensitivity.gate)
    for info in samples_info:
        changes = info["changes"]
        info["fits"] = []
        if "calibration" in info:
            if not info["calibration"].exists():
                info["failed"] = "recalibration failed"
                continue
            cal = json.loads(info["calibration"].read_text())
            changes = _merge(changes, {tuple(k.split("/", 1)): v
                                       for k, v in cal["settings"].items()})
            # fitted program options go with the sample's own (a sample never sets them)
            info["options"] = {**info["options"], **cal.get("options", {})}
            info["fits"] = cal["fits"]
            if not all(f["pass"] for f in cal["fits"]):
                # No value of the calibrated parameter reproduces the calibration data with
                # these assumptions: the sample is outside what the data allow.
                info["infeasible"] = [f["parameter"] for f in cal["fits"] if not f["pass"]]
        info["options"] = {k: v for k, v in info["options"].items()
                           if k not in decl.calibration_options}
        pf = write_profile_file(sdir / "profiles", changes)
        pts = []
        for p in base_points:
            q = dict(p)
            q.update({k: v for k, v in info["options"].items()
                      if not (k in decl.point_readings and k in p)})
            if pf:
                q["profileFile"] = pf
            run, echo = q, {}
            if decl.stand_in is not None and (si := decl.stand_in(q)) is not None:
                run, echo = si
            gate = decl.gate(q) if decl.gate is not None else None
            if gate is not None:  # a point of the same sample (its options, its profiles)
                if decl.stand_in is not None and (sg := decl.stand_in(gate)) is not None:
                    gate = sg[0]
                deferred.setdefault(_key(run), run)
            else:
                unique.setdefault(_key(run), run)
            pts.append((q, run, echo, gate))
        info["points"] = pts
    return unique, deferred



def _analyse_samples(exp, decl, method, n, seed, factors, X, samples_info, by_key, skipped,
                     base_points, unique, sdir):
    """Each sample's metrics through the experiment's own analysis; the summary (bands,
    rankings, levels, figure bands) with what _write_sensitivity tabulates under "_table"."""
    import numpy as np

    # Each sample's metrics through the experiment's own analysis.
    table = []
    for info in samples_info:
        metrics, ok_val = {}, None
        if "failed" not in info and "infeasible" not in info:
            try:
                a = sample_analysis(exp, [_as_point(by_key[_key(run)], q, echo)
                                          for q, run, echo, _ in info["points"]
                                          if (info["index"], _key(q)) not in skipped],
                                    sample_choices(factors, info["row"]))
                metrics = a.metrics
                ok_val = sum(v.passed for v in a.validation), len(a.validation)
                if info["index"]:  # the samples' figures: the bands the figures draw
                    info["figures"] = a.figures
            except Exception as e:
                info["failed"] = f"analysis: {type(e).__name__}: {e}"
        info["metrics"] = metrics
        info["validation"] = ok_val
        table.append(info)
    nominal = table[0]["metrics"]
    names = banded_names(nominal, decl.metrics)
    results = []
    ranking_rows = []
    for m in names:
        ys = [t["metrics"].get(m) for t in table[1:]]
        good = [y for y in ys if _numeric(y)]
        entry = {"metric": m, "central": nominal[m], "n": len(ys), "defined": len(good)}
        if good:
            entry["band_low"] = float(np.percentile(good, 5))
            entry["band_high"] = float(np.percentile(good, 95))
            entry["min"], entry["max"] = float(min(good)), float(max(good))
        Xr, Yr, used = _complete(factors, method, X, ys, least=min(2, n))
        entry["ranked_on"] = used
        rank = analyse(factors, method, Xr, Yr) if Yr is not None else None
        if rank is None and method == "morris":
            # a trajectory broken by an undefined or infeasible sample still has the
            # elementary effects of its other steps
            rank, steps = morris_steps(factors, X, ys)
            if rank is not None:
                entry["ranked_on_steps"] = steps
                entry["note"] = (f"undefined in {len(ys) - len(good)} of {len(ys)} samples: "
                                 f"ranked on the {steps} elementary effects whose two samples "
                                 "are defined")
        if rank is not None:
            key = "mu_star" if method == "morris" else "ST"
            rank.sort(key=lambda r: -(r[key] or 0))  # a factor without a step: None, last
            entry["ranking"] = rank
            entry["drivers"] = [r["parameter"] for r in rank if (r[key] or 0) > 0][:3]
            for r in rank:
                ranking_rows.append({"metric": m, **r})
        else:
            entry["ranking"] = []
            entry["drivers"] = []
            entry["note"] = (f"undefined in {len(ys) - len(good)} of {len(ys)} samples: no "
                             "ranking (the band is of the samples where it is defined)")
        if len(good) < len(ys):
            entry["undefined"] = len(ys) - len(good)
        results.append(entry)
    level_rows = []
    for m in leveled_names(nominal, decl.metrics):
        ys = [t["metrics"].get(m) for t in table[1:]]
        lv = levels(ys)
        level_rows.append({"metric": m, "central": _level_text(nominal[m]), "n": len(ys),
                           "defined": sum(y is not None for y in ys), "levels": lv})
    fits = [f for t in table for f in t["fits"]]
    summary = {
        "experiment": exp.id, "program": exp.program, "method": method, "samples": n,
        "runs": len(X), "seed": seed,
        "build": build_id(exp.program),
        "factors": [{"id": f.id, "low": f.low, "high": f.high, "unit": f.unit,
                     "relative": f.relative, "source": f.source, "origin": f.origin,
                     "applies_to": list(f.applies_to), "levels": list(f.levels),
                     "nominal": f.default, "in_analysis": f.in_analysis} for f in factors],
        "recalibrations": [{"parameter": r.parameter, "metric": r.metric, "target": r.target,
                            "tolerance_pct": r.tolerance_pct} for r in decl.recalibrate],
        "recalibration_pass": [sum(f["pass"] for f in fits), len(fits)],
        "failed_samples": [t["index"] for t in table if "failed" in t],
        "infeasible_samples": [t["index"] for t in table if "infeasible" in t],
        "points_per_sample": len(base_points),
        "points_run_per_sample": len({_key(run) for _, run, _, _ in
                                      next((t["points"] for t in table if "points" in t), [])}),
        "points_settled_by_gates": len(skipped),
        "points": len(unique),
        "timing_s": {},  # sensitivity_stage's
        "metrics": results,
        # verdicts, booleans and named outcomes: their levels over the samples
        "levels": level_rows,
        # each figure's curves over the samples (figure_bands): what the figures draw
        "figure_bands": figure_bands([t["figures"] for t in table if t.get("figures")]),
    }
    summary["_table"] = (table, names, results, ranking_rows)
    return summary


def _write_sensitivity(summary, factors, sdir, log):
    """sensitivity.json, bands.csv, ranking.csv, samples.csv, the tornado figures and
    sensitivity.md of an analysed summary (_analyse_samples)."""
    table, names, results, ranking_rows = summary.pop("_table")
    atomic_write_json(sdir / "sensitivity.json", summary)
    write_csv(sdir / "bands.csv", [{k: r.get(k) for k in ("metric", "central", "band_low",
                                                          "band_high", "min", "max", "defined",
                                                          "n")}
                                   | {"drivers": " ".join(r["drivers"])} for r in results])
    write_csv(sdir / "ranking.csv", ranking_rows)
    srows = []
    for t in table:
        r = {"sample": t["index"]}
        for f, x in zip(factors, t["row"] or [None] * len(factors)):
            r[f.id] = x
        for f, x in zip(factors, t["row"] or [None] * len(factors)):
            if f.levels:  # a choice's reading, by name
                r[f"level:{f.id}"] = f.default if x is None else f.level(x)
        for fit in t["fits"]:
            r[f"fit:{fit['parameter']}"] = fit["value"]
            r[f"fit:{fit['metric']}"] = fit["achieved"]
        r.update({m: t["metrics"].get(m) for m in names})
        srows.append(r)
    write_csv(sdir / "samples.csv", srows)
    figs = []
    for r in results:
        if r["drivers"]:  # a metric that no factor moves gets no figure
            figs.append(tornado(r, summary["method"], sdir))
    atomic_write_text(sdir / "sensitivity.md", markdown(summary, figs))
    log(f"{sdir.name}: {len(results)} metrics, {len(summary['failed_samples'])} failed "
        f"samples; recalibrations in tolerance {summary['recalibration_pass'][0]}/"
        f"{summary['recalibration_pass'][1]}; {summary['points']} points, "
        f"{summary['timing_s']['points_cpu']:.0f} s of CPU in them; {sdir} "
        f"({summary['timing_s']['total']:.0f} s)")


# ---------------------------------------------------------------------------------------------
# Output


def _fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def markdown(summary: dict, figs: list[str]) -> str:
    method = summary["method"]
    lines = [f"# Sensitivity of {summary['experiment']}", "",
             f"{method.capitalize()} design, N = {summary['samples']} "
             f"({summary['runs']} samples + the nominal model), "
             f"{summary['points_per_sample']} points per sample "
             f"({summary['points_run_per_sample']} run), {summary['points']} points run, "
             f"build {summary['build']}; {summary['timing_s']['total']:.0f} s "
             f"({summary['timing_s']['points_cpu']:.0f} s of CPU in the points). The band is "
             f"the 5-95 % of the sampled outcomes; *central* is the nominal model's value "
             f"(doc/sensitivity.rst).", "",
             "## Parameters", "", "| parameter | low | high | source |", "|---|---|---|---|"]
    for f in summary["factors"]:
        x = "x" if f["relative"] else ""
        if f.get("levels"):  # a choice: its readings, the nominal first
            where = " (applied in the analysis)" if f.get("in_analysis") else ""
            lines.append(f"| `{f['id']}` | levels{where} | {' / '.join(f['levels'])} (nominal "
                         f"{f['nominal']}) | {f['source']} |")
            continue
        lines.append(f"| `{f['id']}` | {x}{_fmt(f['low'])}{f['unit']} | "
                     f"{x}{_fmt(f['high'])}{f['unit']} | {f['source']} |")
    if summary["recalibrations"]:
        p, t = summary["recalibration_pass"]
        lines += ["", "## Recalibrated per sample", ""]
        for r in summary["recalibrations"]:
            lines.append(f"* `{r['parameter']}` on {r['metric']} = {r['target']:g} "
                         f"(± {r['tolerance_pct']:g} %)")
        lines.append(f"\n{p}/{t} fits within tolerance.")
    if summary.get("infeasible_samples"):
        lines.append(f"\n{len(summary['infeasible_samples'])} samples left out: no value of a "
                     f"recalibrated parameter reproduces its calibration metric with their "
                     f"assumptions (samples {summary['infeasible_samples']}).")
    key = ("mu_star", "sigma") if method == "morris" else ("ST", "S1")
    lines += ["", "## Metrics", "",
              f"| metric | central | 5-95 % band | top drivers ({key[0]}) |", "|---|---|---|---|"]
    for r in summary["metrics"]:
        drivers = ", ".join(f"`{x['parameter']}` {_fmt(x[key[0]])}" for x in r["ranking"][:3]
                            if (x[key[0]] or 0) > 0) or r.get("note", "none")
        lines.append(f"| `{r['metric']}` | {_fmt(r['central'])} | "
                     f"{_fmt(r.get('band_low'))} .. {_fmt(r.get('band_high'))} | {drivers} |")
    if summary.get("levels"):
        lines += ["", "## Verdicts and named outcomes", "",
                  "| metric | central | levels over the samples |", "|---|---|---|"]
        for r in summary["levels"]:
            lines.append(f"| `{r['metric']}` | {r['central']} | "
                         f"{_levels_cell(r['levels'])} |")
    lines += ["", f"## Ranking ({', '.join(key)})", ""]
    for r in summary["metrics"]:
        if not r["ranking"]:
            continue
        lines += [f"### {r['metric']}", "", "| parameter | " + " | ".join(
            k for k in r["ranking"][0] if k != "parameter") + " |",
            "|---" * len(r["ranking"][0]) + "|"]
        for x in r["ranking"]:
            lines.append(f"| `{x['parameter']}` | " + " | ".join(
                _fmt(v) for k, v in x.items() if k != "parameter") + " |")
        lines.append("")
    for f in figs:
        lines += [f"![{f}]({f})", ""]
    return "\n".join(lines) + "\n"


def _levels_cell(lv: dict) -> str:
    from .experiment import levels_text

    return levels_text(lv).replace("|", "\\|") or "undefined in every sample"


def _nan(v):
    """None (sigma of a one-trajectory design) as NaN, which gnuplot leaves undrawn."""
    return float("nan") if v is None else v


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


#: Characters of a tornado title's line. gnuplot centres the title over the plot, which the
#: factors' names (up to ~55 characters) push right: 60 characters of Sans 10 (~420 px) stay
#: inside the 1 000-pixel figure (a long name and its band on one line did not).
TITLE_WIDTH = 60


def title_lines(entry: dict, width: int = TITLE_WIDTH) -> list[str]:
    """A tornado's title: the metric's name (cut at underscores into lines of at most
    ``width`` characters when longer), then its central value and band on a line of their
    own."""
    lines, cur = [], ""
    for part in entry["metric"].split("_"):
        piece = part if not cur else "_" + part
        if cur and len(cur) + len(piece) > width:
            lines.append(cur + "_")
            cur = part
        else:
            cur += piece
    while len(cur) > width:  # a name without underscores
        lines.append(cur[:width])
        cur = cur[width:]
    lines.append(cur)
    lines.append(f"central {entry['central']:.4g}, 5-95 % band "
                 f"{entry.get('band_low', float('nan')):.4g} .. "
                 f"{entry.get('band_high', float('nan')):.4g}")
    return lines


def tornado(entry: dict, method: str, sdir: Path) -> str:
    """A horizontal bar per parameter (mu* with sigma, or ST with S1), largest on top, drawn by
    gnuplot. Hand-written script: ns-3's Gnuplot class has no horizontal-bar style."""
    key, second = ("mu_star", "sigma") if method == "morris" else ("ST", "S1")
    rank = list(reversed(entry["ranking"]))  # gnuplot draws the first row at the bottom
    name = f"tornado-{_safe(entry['metric'])}"
    import tempfile

    # The data go to a temporary that the figure is drawn from, and replace <name>.dat only
    # when the figure is whole (a full disk leaves the previous .dat, .plt and .png together).
    fd, tmp_dat = tempfile.mkstemp(dir=sdir, prefix=".tmp-", suffix=".dat")
    os.close(fd)
    tmp_dat = Path(tmp_dat)
    dat = sdir / f"{name}.dat"
    label = {"mu_star": "mu* (mean |elementary effect|, metric units)",
             "ST": "total-order Sobol index ST"}[key]
    lab2 = {"sigma": "sigma (interactions, non-linearity)", "S1": "first-order S1"}[second]
    title = title_lines(entry)
    height = max(300, 60 + 34 * len(rank) + 16 * (len(title) - 1))

    def script(png):
        data = dat.name if png == f"{name}.png" else tmp_dat.name
        return "\n".join([
            f"set terminal pngcairo size 1000,{height} enhanced font 'Sans,10'",
            f"set output '{png}'",
            # one line per part (gnuplot's "\n" in a double-quoted string): a long metric name
            # and its band on one line ran past the figure's right edge
            "set title \"" + "\\n".join(t.replace('"', "'") for t in title) + "\" noenhanced",
            f"set xlabel '{label}'",
            "set ytics noenhanced", "set grid xtics", "set key bottom right",
            f"set yrange [-0.6:{len(rank) - 0.4}]", "set xrange [0:*]",
            "set style fill solid 0.6 border -1",
            f"plot '{data}' using ($3/2):1:($3/2):(0.35):ytic(2) with boxxyerror "
            f"title '{key.replace('_star', '*')}' noenhanced, '' using 4:1 with points pt 7 ps 1.2 "
            f"title '{lab2}'",
        ]) + "\n"

    try:
        atomic_write_text(tmp_dat, "".join(f'{i} "{r["parameter"]}" {_nan(r[key]):.10g} '
                                           f'{_nan(r[second]):.10g}\n'
                                           for i, r in enumerate(rank)))
        draw(script, sdir, name, "tornado figure")
        os.replace(tmp_dat, dat)
    finally:
        tmp_dat.unlink(missing_ok=True)
    return f"{name}.png"


def figure_bands(sample_figures: list[list]) -> dict:
    """The 5-95 % band of every curve of the experiment's figures over the design's samples:
    {figure name: {series title: {"x": [...], "low": [...], "high": [...]}}}, at each x where
    at least two samples have a numeric value (a series drawn as a band already, or whose
    title changes between samples, has none)."""
    import numpy as np

    vals: dict = {}
    for figs in sample_figures:
        for f in figs:
            for sr in f.series:
                if sr.style == "band" or sr.yerr is not None or not sr.title:
                    continue
                per = vals.setdefault(f.name, {}).setdefault(sr.title, {})
                for x, y in zip(sr.x, sr.y):
                    if _numeric(x) and _numeric(y):
                        per.setdefault(float(x), []).append(float(y))
    out: dict = {}
    for name, series in vals.items():
        for title, per in series.items():
            xs = sorted(x for x, ys in per.items() if len(ys) >= 2)
            if not xs:
                continue
            out.setdefault(name, {})[title] = {
                "x": xs, "low": [float(np.percentile(per[x], 5)) for x in xs],
                "high": [float(np.percentile(per[x], 95)) for x in xs]}
    return out


def draw_bands(exp: Experiment, figures: list, out: Path) -> None:
    """Add to the experiment's figures the 5-95 % band of each curve over the documented
    ranges (figure_bands of out/sensitivity-EXP/sensitivity.json of the same build): a shaded
    band in the curve's colour, said in the subtitle."""
    from .plot import band_between

    if getattr(exp, "sensitivity", None) is None:
        return
    path = Path(out) / f"sensitivity-{exp.id}" / "sensitivity.json"
    if attach(exp, out) is None:
        return
    bands = json.loads(path.read_text()).get("figure_bands", {})
    for f in figures:
        fb = bands.get(f.name)
        if not fb:
            continue
        drawn = False
        for sr in list(f.series):
            b = fb.get(sr.title)
            if b is None or sr.style == "band" or sr.yerr is not None:
                continue
            f.series.append(band_between("", b["x"], b["low"], b["high"],
                                         group=sr.group or sr.title))
            if sr.group is None:
                sr.group = sr.title
            drawn = True
        if drawn:
            note = "shaded: 5-95 % over the documented ranges"
            f.subtitle = f"{f.subtitle}; {note}" if f.subtitle else note


def combine_band(band_low, band_high, central, seed_low, seed_high):
    """The one rule that joins a band over the ranges and choice factors (a design whose
    samples each run one seed: common random numbers) with the seed spread measured at the
    nominal model (median ``central``, 5-95 % ``seed_low``..``seed_high``): the ranges' band
    widened on each side by the seed spread's half on that side. Widths add (not in quadrature):
    the ranges are stated bounds, not distributions. The result covers the seed interval itself
    (the nominal model's own runs lie in its band even where the design's samples, each a
    corner of the ranges, all lie to one side of it), and a quantity that cannot be negative
    (every input >= 0: a jitter, a latency, a ratio of them) keeps a low end >= 0. Either part
    may be missing (None)."""
    if band_low is None or band_high is None:
        return seed_low, seed_high
    if seed_low is None or seed_high is None or central is None:
        return band_low, band_high
    low = min(band_low - (central - seed_low), seed_low)
    high = max(band_high + (seed_high - central), seed_high)
    if min(band_low, seed_low, central) >= 0:
        low = max(low, 0.0)
    return low, high


def attach(exp: Experiment, out: Path) -> dict | None:
    """The sensitivity block of exp's metrics.json: bands and top-3 drivers per metric, when
    out/sensitivity-EXP/sensitivity.json exists for the program as built now."""
    path = Path(out) / f"sensitivity-{exp.id}" / "sensitivity.json"
    if not path.exists() or not program_path(exp.program).exists():
        return None
    s = json.loads(path.read_text())
    if s.get("build") != build_id(exp.program):
        return None
    block = {"method": s["method"], "samples": s["samples"], "build": s["build"],
             "metrics": {m["metric"]: {"band_low": m.get("band_low"),
                                       "band_high": m.get("band_high"),
                                       "drivers": m["drivers"]} for m in s["metrics"]}}
    for m in s.get("levels", []):
        block["metrics"][m["metric"]] = {"levels": m["levels"], "drivers": []}
    return block


# ---------------------------------------------------------------------------------------------
# Calibration leverage: how much a calibration point moves when its own fitted parameter moves
# over a declared band (doc/sensitivity.rst, "Calibration leverage")

#: The band of a fitted parameter: +-10 % of its fitted value.
LEVERAGE_FACTORS = (0.9, 1.1)


@dataclass
class Leverage:
    """A calibration point (``point``: its validation point's name) and the parameter it set
    as a factor (``factor``: a profile range relative to the fitted values, or an option or
    attribute range around the fitted value). ``points``: the experiment's quick points the
    calibration point comes from (re-run at the factor's two ends; the others keep their
    nominal records)."""

    point: str
    factor: Range
    points: Callable[[dict], bool] | None = None


def profile_factor(kind: str, profile: str, keys, reason: str) -> Range:
    """A fitted profile setting (or several set together, as one factor) over its band
    LEVERAGE_FACTORS, relative to the fitted values of the profile and of the profiles derived
    from it that do not set the keys themselves."""
    lo, hi = LEVERAGE_FACTORS
    keys = tuple(keys)
    return Profiles()._make_range((kind, profile), keys, f"x{lo:g}", f"x{hi:g}", reason,
                                  "leverage", "")


def option_factor(name: str, fitted: float, reason: str, integer: bool = False,
                  template: str = "{}") -> Range:
    """A fitted program option or ns-3 attribute default over its band LEVERAGE_FACTORS."""
    lo, hi = LEVERAGE_FACTORS
    return Range(name, fitted * lo, fitted * hi, reason, integer=integer, template=template)


def run_leverage(exp: Experiment, decls: list[Leverage], jobs: int = 2,
                 out: Path | None = None, scheduler: str | None = None, log=print,
                 progress: bool = True) -> dict:
    """Re-run each calibration point's points with its parameter at the two ends of its band
    and analyse; write out/leverage-EXPERIMENT/leverage.json: per point the parameter, the
    point's simulated value at the nominal model and at each end, and the leverage (the
    change between the ends in % of the study's value; in the metric's units where the study's
    value is 0). ./testbed reproduce runs leverage_stage of every experiment together instead
    (stages.run_stages)."""
    out_root = Path(out or Path.cwd() / "results").resolve()
    return run_one(exp.id, leverage_stage(exp, decls, out_root, log), jobs, out_root, log,
                   scheduler, progress)


def leverage_stage(exp: Experiment, decls: list[Leverage], out_root: Path,
                   log=print) -> Stage:
    """run_leverage as a stage (testbed.stages): yields its points; returns the summary."""
    lid = f"leverage-{exp.id}"
    ldir = Path(out_root) / lid
    ldir.mkdir(parents=True, exist_ok=True)
    base = exp.points("quick")
    runs: list[dict] = list(base)  # the nominal model's (the reproduction's own points)
    plan = []  # (decl, end, [point per base index])
    for d in decls:
        for x in (d.factor.low, d.factor.high):
            changes, options = sample_changes([d.factor], [x])
            pf = write_profile_file(ldir / "profiles", changes)
            pts = []
            for p in base:
                q = dict(p)
                if d.points is None or d.points(p):
                    q.update(options)
                    if pf:
                        q["profileFile"] = pf
                pts.append(q)
            runs += pts
            plan.append((d, x, pts))
    unique = {_key(p): p for p in runs}
    sexp = Experiment(id=lid, study=exp.study, title=f"calibration leverage of {exp.id}",
                      program=exp.program, points=lambda scale: list(unique.values()),
                      analyse=exp.analyse, timeout_s=exp.timeout_s, cost=exp.cost)
    by_key = _by_key((yield Points(sexp)))
    nominal = {v.point: v for v in exp.analyse([by_key[_key(p)] for p in base]).validation}
    ends: dict[str, list] = {}
    for d, x, pts in plan:
        val = {v.point: v for v in exp.analyse([by_key[_key(p)] for p in pts]).validation}
        ends.setdefault(d.point, []).append((x, val[d.point].simulated))
    rows = []
    for d in decls:
        (lo_x, lo_y), (hi_x, hi_y) = ends[d.point]
        nom = nominal[d.point]
        change = hi_y - lo_y
        rows.append({"point": d.point, "parameter": d.factor.id, "low": lo_x, "high": hi_x,
                     "relative": d.factor.relative, "simulated": nom.simulated,
                     "simulated_low": lo_y, "simulated_high": hi_y,
                     "measured": nom.measured, "tolerance_pct": nom.tolerance_pct,
                     "leverage_pct": (change / abs(nom.measured) * 100
                                      if nom.measured else None),
                     "leverage_abs": change})
    summary = {"experiment": exp.id, "build": build_id(exp.program), "band": LEVERAGE_FACTORS,
               "points": rows}
    atomic_write_json(ldir / "leverage.json", summary)
    log(f"{lid}: " + "; ".join(
        f"{r['point']}: {r['simulated_low']:.4g} .. {r['simulated_high']:.4g}" for r in rows))
    return summary


def leverage_of(exp_id: str, program: str, out: Path) -> dict[str, dict]:
    """{calibration point: its leverage row} of out/leverage-EXP/leverage.json when it is of
    the program as built now."""
    path = Path(out) / f"leverage-{exp_id}" / "leverage.json"
    if not path.exists() or not program_path(program).exists():
        return {}
    s = json.loads(path.read_text())
    if s.get("build") != build_id(program):
        return {}
    return {r["point"]: r for r in s["points"]}
