"""Declarations of experiments: what a study's module registers and what its analysis returns.

Kept apart from the engine (campaign.py) and the figure renderer (plot.py), which both use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

SCALES = ("quick", "paper")


@dataclass
class Series:
    """One line of a figure."""

    title: str
    x: list
    y: list
    # lines | points | linespoints | segments (point pairs) | ...; with yerr: errorlines
    style: str = "linespoints"
    yerr: list | None = None


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


#: The roles of a validation point (``Validation.role``).
ROLES = ("check", "calibration", "known_gap")


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
    """

    point: str
    measured: float
    simulated: float
    tolerance_pct: float
    role: str = "check"
    reason: str = ""
    parameter: str | None = None  # calibration: the parameter this number set
    doc: str | None = None  # known_gap: the doc/ section that documents it

    def __post_init__(self):
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

    @property
    def error_pct(self) -> float:
        if self.measured == 0:
            return math.inf if self.simulated != 0 else 0.0
        return (self.simulated - self.measured) / abs(self.measured) * 100.0

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
    build: dict | None = None  # the build that computed it (campaign.build_identity)
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
