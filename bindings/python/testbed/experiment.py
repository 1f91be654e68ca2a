"""Declarations of experiments: what a study's module registers and what its analysis returns.

Kept apart from the engine (campaign.py) and the figure renderer (plot.py), which both use it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

#: The reproduction's scales: quick (a reduced sweep, minutes) and paper (the studies' full
#: procedure). Every experiment has both; an experiment may name scales of its own beyond the
#: study's (Experiment.what_if_scales), which only ``./testbed run EXPERIMENT --scale NAME``
#: runs.
SCALES = ("quick", "paper")


@dataclass
class Series:
    """One line of a figure."""

    title: str
    x: list
    y: list
    # lines | points | linespoints | segments (point pairs) | ...; with yerr: errorlines (a line
    # with error bars), points/linespoints (bars), band (a shaded band y - yerr .. y + yerr)
    style: str = "linespoints"
    yerr: list | float | None = None  # one half-width per point, or one for all
    # Series of one group share a colour (a model's points and its fit line); a series whose
    # title is "" has no entry in the key (it is explained by another of its group).
    group: str | None = None


def band(title: str, x, y, half, group: str | None = None) -> Series:
    """A shaded band from y - half to y + half (half: one value, or one per point): a tolerance
    around measured values, or a confidence interval around a mean. Drawn under every line."""
    return Series(title, list(x), list(y), style="band", yerr=half, group=group)


def band_between(title: str, x, low, high, group: str | None = None) -> Series:
    """A shaded band from low to high at each x (a prediction's 5-95 % band or seed interval,
    whose ends need not lie symmetric about its central value). Points where either end is
    missing are left out."""
    pts = [(a, lo, hi) for a, lo, hi in zip(x, low, high) if lo is not None and hi is not None]
    return band(title, [a for a, _, _ in pts], [(lo + hi) / 2 for _, lo, hi in pts],
                [(hi - lo) / 2 for _, lo, hi in pts], group=group)


@dataclass
class Figure:
    """A 2-D figure drawn with gnuplot (plot.py writes the script)."""

    name: str  # file name without extension
    title: str
    xlabel: str
    ylabel: str
    series: list[Series] = field(default_factory=list)
    logx: bool = False
    logy: bool = False
    xrange: tuple | None = None
    yrange: tuple | None = None
    extra: list[str] = field(default_factory=list)  # raw gnuplot commands
    # A line under the title: what the figure holds fixed (a sweep's other parameters, a scale).
    subtitle: str = ""


#: The roles of a validation point (``Validation.role``).
ROLES = ("check", "calibration", "known_gap")

#: Seeds (RngRun values) an extreme is computed over, per scale: a max, a min, a jitter
#: (max - min) or a percentile of one run is one draw of a distribution, so it is compared as
#: that distribution's 5-95 % interval over this many runs (doc/sensitivity.rst, "Extremes").
EXTREME_SEEDS = {"quick": 10, "paper": 20}
#: Statistics compared over seeds (``Validation.statistic``): the extremes of a run, and a
#: standard deviation of a run with few samples (a hundred intervals: its seed spread is tens of
#: percent), which the same rule serves.
EXTREMES = ("max", "min", "jitter", "percentile", "std")
_EXTREME_NAME = re.compile(r"(^|_)(max|min|jitter|shortest|longest|p\d\d|percentile)(_|$)")


def looks_extreme(name: str) -> bool:
    """Whether a metric's name says it is an extreme of a run (max, min, jitter, shortest,
    longest, a percentile pNN), by the naming convention of the experiments' metrics."""
    return bool(_EXTREME_NAME.search(name))


def seed_interval(values) -> tuple[float, float, float]:
    """(central, low, high) of one metric's values over seeds: the median and the 5 % and 95 %
    quantiles (numpy's linear interpolation between order statistics)."""
    import numpy as np

    v = np.asarray([float(x) for x in values], dtype=float)
    if v.size == 0:
        raise ValueError("a seed interval of no values")
    lo, mid, hi = np.percentile(v, [5.0, 50.0, 95.0])
    return float(mid), float(lo), float(hi)


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with df degrees of freedom (the 95 % two-sided
    interval's factor), from scipy.stats. (scipy.stats is imported here, not with the module:
    it takes a noticeable part of a second, which only a statistic needs to pay.)"""
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def mean_std_ci(values) -> tuple[float, float, float]:
    """Mean, sample standard deviation and the half-width of the 95 % confidence interval of
    the mean (Student's t) of repetitions; NaN where fewer than one or two values define them.
    The mean is statistics.mean's (exact before its one rounding)."""
    from statistics import mean

    values = [float(v) for v in values]
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = mean(values)
    if n < 2:
        return m, math.nan, math.nan
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, sd, t_quantile_975(n - 1) * sd / math.sqrt(n)


def levels_text(levels: dict) -> str:
    """A verdict's outcomes and the fraction of each, as a metric value (metrics are scalars):
    "non-crc=0.8, equal=0.2", largest fraction first."""
    return ", ".join(f"{k}={v:.3g}" for k, v in sorted(levels.items(), key=lambda kv: -kv[1]))


def set_seed_interval(metrics: dict, name: str, values) -> None:
    """metrics[name] = the median over seeds, name_low / name_high the 5-95 % interval, and
    name_seeds the number of seeds."""
    mid, lo, hi = seed_interval(values)
    metrics[name] = mid
    metrics[f"{name}_low"] = lo
    metrics[f"{name}_high"] = hi
    metrics[f"{name}_seeds"] = len(list(values))


@dataclass
class Validation:
    """A simulated value compared with a measured value of a study.

    ``role`` says what the comparison is worth:

    - ``"check"``: an independent check: no model parameter was set from this number. Only
      checks count in a report's headline, and a failing check fails ``run``/``reproduce``.
    - ``"calibration"``: the number set a model parameter (``parameter`` names it, as doc/
      says); its comparison shows that the calibration is still reproduced, nothing more.
    - ``"known_gap"``: a documented disagreement the model does not close (``doc`` points to
      the doc/ section that says why); listed, never a failure.

    ``reason`` says where the tolerance comes from: the study's own spread, its stated accuracy,
    or the measurement's resolution.

    An extreme (``statistic`` one of EXTREMES) is compared as a seed interval: ``simulated`` is
    the median over ``seeds`` runs and ``low``/``high`` the 5-95 % interval (seed_interval). The
    point passes when the study's value lies in that interval widened by the tolerance (a
    fraction of the study's value at each end); its error is the distance from the interval, 0
    inside it. Without an interval the rule is the same with low = high = simulated.
    """

    point: str
    measured: float
    simulated: float
    tolerance_pct: float
    role: str = "check"
    reason: str = ""
    parameter: str | None = None  # calibration: the parameter this number set
    doc: str | None = None  # known_gap: the doc/ section that documents it
    statistic: str | None = None  # an extreme of a run: one of EXTREMES
    low: float | None = None  # the seed interval of an extreme
    high: float | None = None
    seeds: int | None = None  # how many seeds the interval is over

    def __post_init__(self):
        if self.statistic is not None and self.statistic not in EXTREMES:
            raise ValueError(f"validation point {self.point!r}: statistic {self.statistic!r} is "
                             f"not one of {', '.join(EXTREMES)}")
        if (self.low is None) != (self.high is None):
            raise ValueError(f"validation point {self.point!r}: a seed interval needs both ends")
        if self.low is not None and not self.low <= self.simulated <= self.high:
            raise ValueError(f"validation point {self.point!r}: central value {self.simulated} "
                             f"outside its interval [{self.low}, {self.high}]")
        if self.role not in ROLES:
            raise ValueError(f"validation point {self.point!r}: role {self.role!r} is not one of "
                             f"{', '.join(ROLES)}")
        if not self.reason:
            raise ValueError(f"validation point {self.point!r}: no reason for its tolerance "
                             f"(the study's spread, its stated accuracy or the resolution)")
        if self.role == "calibration" and not self.parameter:
            raise ValueError(f"calibration point {self.point!r}: name the parameter it set")
        if self.role == "known_gap" and not self.doc:
            raise ValueError(f"known gap {self.point!r}: point to the doc/ section about it")

    @classmethod
    def over_seeds(cls, point: str, measured: float, values, tolerance_pct: float,
                   statistic: str, **kw) -> "Validation":
        """An extreme compared as its seed interval: ``values`` are the metric's per-seed
        values (one per RngRun)."""
        values = list(values)
        mid, lo, hi = seed_interval(values)
        return cls(point, measured, mid, tolerance_pct, statistic=statistic, low=lo, high=hi,
                   seeds=len(values), **kw)

    @property
    def error_pct(self) -> float:
        lo = self.simulated if self.low is None else self.low
        hi = self.simulated if self.high is None else self.high
        # the signed distance from the study's value to the nearest simulated value
        nearest = min(max(self.measured, lo), hi)
        if self.measured == 0:
            return math.inf if nearest != 0 else 0.0
        return (nearest - self.measured) / abs(self.measured) * 100.0

    @property
    def passed(self) -> bool:
        # (a tolerance is inclusive; the epsilon absorbs floating-point rounding at the boundary)
        return math.isfinite(self.error_pct) and abs(self.error_pct) <= self.tolerance_pct + 1e-9

    def as_dict(self) -> dict:
        d = {
            "point": self.point,
            "measured": self.measured,
            "simulated": self.simulated,
            "error_pct": round(self.error_pct, 4) if math.isfinite(self.error_pct) else None,
            "tolerance_pct": self.tolerance_pct,
            "pass": self.passed,
            "role": self.role,
            "reason": self.reason,
        }
        if self.parameter:
            d["parameter"] = self.parameter
        if self.doc:
            d["doc"] = self.doc
        if self.statistic:
            d["statistic"] = self.statistic
        if self.low is not None:
            d["simulated_low"] = self.low
            d["simulated_high"] = self.high
            d["seeds"] = self.seeds
        return d


def failing_checks(validation: list[dict]) -> list[dict]:
    """The independent checks outside their tolerance (metrics.json validation entries; an entry
    without a role, from before roles existed, counts as a check)."""
    return [v for v in validation if v.get("role", "check") == "check" and not v.get("pass")]


def role_counts(validation: list[dict]) -> dict:
    """Per role: (within tolerance, total), of metrics.json validation entries."""
    out = {r: [0, 0] for r in ROLES}
    for v in validation:
        c = out.setdefault(v.get("role", "check"), [0, 0])
        c[1] += 1
        c[0] += bool(v.get("pass"))
    return {r: tuple(c) for r, c in out.items()}


def headline(validation: list[dict]) -> str:
    """"checks 3/4; 7 calibration points reproduced; 1 known gap": checks counted, calibration
    points and known gaps named apart."""
    if not validation:
        return "prediction"
    c = role_counts(validation)
    parts = []
    if c["check"][1]:
        parts.append(f"checks {c['check'][0]}/{c['check'][1]}")
    else:
        parts.append("no independent check")
    ok, n = c["calibration"]
    if n:
        parts.append(f"{ok} calibration point{'s' if ok != 1 else ''} reproduced"
                     + (f" ({n - ok} NOT)" if ok != n else ""))
    if c["known_gap"][1]:
        g = c["known_gap"][1]
        parts.append(f"{g} known gap{'s' if g != 1 else ''}")
    return "; ".join(parts)


@dataclass
class Record:
    """A finished point: its parameters and the program's JSON record."""

    params: dict
    result: dict
    experiment: str = ""  # the experiment it was computed for
    program: str = ""  # the program that computed it
    build: dict | None = None  # the build that computed it (build.build_identity)
    resolved: dict | None = None  # every parameter of the program, defaults included


@dataclass
class Analysis:
    """What an experiment's analysis produces."""

    rows: list[dict]  # data.csv: every simulated point
    metrics: dict[str, Any]
    validation: list[Validation] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # sentences for the report


@dataclass
class Experiment:
    """An experiment: one table or figure of a study."""

    id: str
    study: str
    title: str
    program: str
    points: Callable[[str], list[dict]]
    analyse: Callable[[list[Record]], Analysis]
    timeout_s: float | None = None  # per point
    # Optional estimate of a point's relative cost (any unit, the same within the experiment set
    # that declares it): the runner starts the costliest points first, so that the last ones to
    # finish are short (longest-processing-time-first scheduling). Order only: results do not
    # depend on it.
    cost: Callable[[dict], float] | None = None
    # Whether a point's program reports simulated-time progress (--progress, a line on stderr
    # every 10 s of wall clock) at paper scale: for programs whose single run takes minutes. (The
    # record is the same with and without it, its "events" field included.)
    progress: bool = False
    # Optional testbed.sensitivity.Sensitivity: the ranged assumptions, the predicted metrics and
    # the recalibrations of ./testbed sensitivity (doc/sensitivity.rst).
    sensitivity: Any = None
    # The doc/ chapter that discusses this experiment's comparison with its study (printed with
    # a failing check); default: the study's chapter (STUDY_DOCS).
    doc: str | None = None
    # Optional: a point run as parts in parallel where that shortens the campaign, merged into
    # the record of the point run whole (testbed.mega_split). Given the point, the total of
    # `cost` over the campaign's points and the number of workers: a task with
    # runner.run_point's arguments, or None to run the point whole.
    split: Callable[[dict, float, int], Callable | None] | None = None
    # Optional: points that depend on the results of the points(scale) ones (the seeds of an
    # extreme that only the points not cut off by a horizon need: testbed.experiments.ntt96).
    # Given the scale and the first round's records in point order, the points to add; the
    # campaign runs them as a second round and the analysis gets both rounds' records, first
    # round first. A deterministic function of the records: a campaign run again finds the
    # same points stored.
    more_points: Callable[[str, list[Record]], list[dict]] | None = None
    # Optional: named scales beyond the study's, a what-if the hardware never ran (mega-scale's
    # "tenfold": ten times the study's senders), as name -> one line of what it is. points(scale)
    # knows them; ./testbed run EXPERIMENT --scale NAME runs them, a reproduction never does.
    what_if_scales: dict[str, str] = field(default_factory=dict)

    @property
    def doc_chapter(self) -> str:
        return self.doc or STUDY_DOCS.get(self.study, "doc/experiments.rst")


#: The doc/ chapter that discusses each study's experiments and their comparison with it.
STUDY_DOCS = {
    "GINE14": "doc/gine.rst",
    "JAXA06": "doc/rti.rst",
    "MEGA06": "doc/mega.rst",
    "NTT96": "doc/ntt.rst",
    "TNO03": "doc/tno.rst",
}


_REGISTRY: dict[str, Experiment] = {}


def register(exp: Experiment) -> Experiment:
    if exp.id in _REGISTRY:
        raise ValueError(f"experiment {exp.id!r} registered twice")
    _REGISTRY[exp.id] = exp
    return exp


def experiments() -> dict[str, Experiment]:
    """All experiments, in registration order (importing testbed.experiments registers them)."""
    from . import experiments as _  # noqa: F401

    return dict(_REGISTRY)


def get(exp_id: str) -> Experiment:
    exps = experiments()
    if exp_id not in exps:
        raise KeyError(f"unknown experiment {exp_id!r}; known: {', '.join(exps)}")
    return exps[exp_id]


# --- extremes over seeds for experiments whose points are run once, then again over seeds -------

def run_of(rec: Record) -> int:
    """The RngRun a record was computed with (its resolved value, else the point's, else 1)."""
    if rec.resolved and "RngRun" in rec.resolved:
        return int(rec.resolved["RngRun"])
    return int(rec.params.get("RngRun", 1))


def more_seeds(needs_seeds: Callable[[Record, list[Record]], bool]):
    """An Experiment.more_points: the same point at the other RngRuns of EXTREME_SEEDS[scale]
    (1..N but the point's own run) for each first-round record that ``needs_seeds(record,
    records)`` (a point whose extremes a metric reads and that a horizon did not cut off: a
    cut-off point is a bound whatever its other seeds give, so they are not run)."""
    def more(scale: str, records: list[Record]) -> list[dict]:
        n = EXTREME_SEEDS[scale]
        out = []
        for rec in records:
            if needs_seeds(rec, records):
                own = run_of(rec)
                # n runs in all: 1..n but its own, or 1..n-1 when its own is not among them
                out += [dict(rec.params, RngRun=r) for r in range(1, n + 1) if r != own][:n - 1]
        return out
    return more


def _merge_seed_metrics(per_seed: list[dict]) -> dict:
    """One metrics dict from one analysis per seed (the first the first round's): a number is the
    seed interval of its values (set_seed_interval), widened to any band a seed's analysis gave
    it (a named regime's values: NAME_low/NAME_high); a number that is a bound in some seed (a
    cut-off, NAME_lower_bound) is a bound: NAME None and NAME_lower_bound the median over the
    seeds of the values and bounds, a lower bound of the median; a number the same in every seed
    is kept as it is (no interval); a boolean or undetermined
    verdict is its most frequent outcome (the first seed's on a tie) with NAME_levels; text is
    the first seed's."""
    from collections import Counter

    first = per_seed[0]
    names = list(first) + [k for m in per_seed[1:] for k in m if k not in first]
    companions = ("_low", "_high", "_lower_bound", "_seeds", "_levels", "_regime")

    def owner(k):
        """The metric whose companion k is (NAME_low, NAME_lower_bound, ...), or None."""
        return next((k[:-len(c)] for c in companions
                     if k.endswith(c) and k[:-len(c)] in names), None)

    bases = [k for k in names if owner(k) is None]
    out = {k: first.get(k) for k in names if k not in bases and k.endswith("_regime")}
    for name in bases:
        vals = [m[name] for m in per_seed if name in m]
        bounds = [m.get(f"{name}_lower_bound") for m in per_seed if name in m]
        if all(isinstance(v, str) for v in vals):
            out[name] = first.get(name, vals[0])
            continue
        if all(v is None or isinstance(v, bool) for v in vals) and any(
                isinstance(v, bool) for v in vals):
            levels = Counter("undetermined" if v is None else str(v).lower() for v in vals)
            top = max(levels.values())
            pick = next(v for v in [first.get(name)] + vals
                        if levels["undetermined" if v is None else str(v).lower()] == top)
            out[name] = pick
            if len(vals) > 1:
                out[f"{name}_levels"] = levels_text({k: c / len(vals) for k, c in levels.items()})
            continue
        if any(b is not None for b in bounds):
            out[name] = None
            lows = [b if b is not None else v for v, b in zip(vals, bounds)
                    if b is not None or v is not None]
            out[f"{name}_lower_bound"] = float(seed_interval(lows)[0])
            continue
        nums = [v for v in vals if v is not None]
        if not nums:
            out[name] = None
            continue
        if len(per_seed) == 1:
            out[name] = first[name]
            continue
        if len(set(nums)) == 1:
            # the seeds do not move it: an echo, or a metric of points whose other seeds were
            # not run (a cut-off curve's): as it is, without a seed interval
            out[name] = nums[0]
            continue
        set_seed_interval(out, name, nums)
        ends = [m[f"{name}_{e}"] for m in per_seed for e in ("low", "high")
                if m.get(f"{name}_{e}") is not None]
        if ends:
            # the seed interval alone stays apart (report.md joins it with the ranges' band)
            out[f"{name}_seed_low"], out[f"{name}_seed_high"] = (out[f"{name}_low"],
                                                                 out[f"{name}_high"])
            out[f"{name}_low"] = min([out[f"{name}_low"]] + ends)
            out[f"{name}_high"] = max([out[f"{name}_high"]] + ends)
    return out


def analyse_over_seeds(analyse: Callable[[list[Record]], Analysis]):
    """An Experiment.analyse over the records of both rounds (more_seeds): the analysis of each
    seed's set of records (a point run at that seed, else its first-round record) and their
    metrics merged (_merge_seed_metrics). Rows, figures and notes are the first round's (the
    nominal runs); records of one seed only (a sensitivity sample's) give ``analyse``'s own
    result."""
    def over_seeds(records: list[Record]) -> Analysis:
        groups: dict[str, dict[int, Record]] = {}
        order = []
        for rec in records:
            key = repr(sorted((k, repr(v)) for k, v in rec.params.items() if k != "RngRun"))
            if key not in groups:
                groups[key] = {}
                order.append((key, run_of(rec)))
            groups[key].setdefault(run_of(rec), rec)
        runs = sorted({r for g in groups.values() for r in g})
        if len(runs) == 1:
            return analyse(records)
        firsts = [groups[k][r] for k, r in order]
        base = analyse(firsts)
        own = {r0 for _, r0 in order}
        rest = [r for r in runs if r not in own] if len(own) == 1 else runs
        others = [analyse([groups[k].get(r, groups[k][r0]) for k, r0 in order]) for r in rest]
        per_seed = [base.metrics] + [a.metrics for a in others]
        _draw_seed_intervals(base.figures, [a.figures for a in others], len(per_seed))
        return Analysis(rows=base.rows, metrics=_merge_seed_metrics(per_seed),
                        validation=base.validation, figures=base.figures,
                        notes=base.notes + [
                            f"Extremes over {len(per_seed)} seeds (RngRun "
                            f"{min(runs)}-{max(runs)}; doc/sensitivity.rst, \"Extremes over "
                            f"seeds\"): the metrics' central values are medians, their _low/"
                            f"_high the 5-95 % seed interval; data.csv and the figures' lines "
                            f"show the first seed's runs, the figures' shading the 5-95 % "
                            f"interval over the seeds of each point."])
    return over_seeds


def _draw_seed_intervals(figures: list[Figure], others: list[list[Figure]], seeds: int) -> None:
    """Add to each line of the first seed's figures the 5-95 % interval of its value at each x
    over the seeds (the same figure and line of the other seeds' analyses, seed_interval): a
    shaded band in the line's colour, where the seeds differ, said in the subtitle. Measured
    data and bands are left as they are; a point some seed's analysis leaves out (a cut-off
    run) has its interval over the seeds that give it."""
    for fig in figures:
        same = [next((g for g in figs if g.name == fig.name), None) for figs in others]
        drawn = False
        for line in list(fig.series):
            if (line.style == "band" or line.yerr is not None
                    or line.title.lower().startswith("measured") or len(set(line.x)) < len(line.x)):
                continue
            columns = []
            for g in same:
                twin = next((t for t in g.series if t.title == line.title
                             and t.style == line.style), None) if g is not None else None
                columns.append(dict(zip(twin.x, twin.y)) if twin is not None else {})
            xs, lows, highs = [], [], []
            for x, y in zip(line.x, line.y):
                vals = [v for v in [y] + [c.get(x) for c in columns]
                        if isinstance(v, (int, float)) and not isinstance(v, bool)
                        and math.isfinite(v)]
                if len(vals) > 1:
                    _, lo, hi = seed_interval(vals)
                    xs.append(x)
                    lows.append(lo)
                    highs.append(hi)
            if any(hi > lo for lo, hi in zip(lows, highs)):
                fig.series.append(band_between("", xs, lows, highs,
                                               group=line.group or line.title))
                line.group = line.group or line.title
                drawn = True
        if drawn:
            note = f"shaded: 5-95 % over {seeds} seeds"
            fig.subtitle = f"{fig.subtitle}; {note}" if fig.subtitle else note
