"""Declarations of experiments: what a study's module registers and what its analysis returns.

Kept apart from the engine (campaign.py) and the figure renderer (plot.py), which both use it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable

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
