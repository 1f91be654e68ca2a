"""A campaign's progress: points done of the total, with an estimate of the time left."""

from __future__ import annotations

import math
import sys
import time
from typing import Callable

from .units import RATE_UNITS, TIME_UNITS, split_number


class Progress:
    """Points done / total with an ETA: a tqdm bar on a terminal, plain lines otherwise (CI).

    The ETA comes from the points' cost estimates (``costs``: per point, in submission order, a
    pair (unit, estimate); points of one unit have comparable estimates, e.g. one experiment
    set's ``Experiment.cost``): the finished points of a unit give its seconds per unit of
    estimate (their measured run times over their estimates), the unfinished points' estimates
    times that rate give the work left, shared by ``jobs`` workers. A unit none of whose points
    has finished yet is charged the mean run time of the finished points, per point. On a grid of
    uneven points (a sweep over --duration, a frequency ladder) this is what a mean over finished
    points gets wrong.

    A unit without an estimate (``(COUNTED, experiment)``: a sweep, an experiment without
    ``cost``) is estimated from the grid's own parameters (``params``: each point's parameters,
    in submission order): once more of its points have finished than it has numeric parameters
    that vary among them, plus one, an ordinary least-squares fit of their run times on those
    parameters (in base units: "50ms" is 0.05, "2Mbps" 2e6; RngRun left out), wall = a + sum
    b_j x_j, predicts each unfinished point's run time (at least 0). A run time that grows
    linearly with a parameter (--duration, --rate, --nodes) is then extrapolated where the mean
    of the first, cheaper points would be far too low; before that, the unit's mean per point."""

    def __init__(self, total: int, log: Callable[[str], None], enabled: bool = True,
                 costs: list[tuple[object, float]] | None = None, jobs: int = 1,
                 params: list[dict] | None = None):
        self.total = total
        self.done = 0
        self.log = log
        self.t0 = time.monotonic()
        self.last = self.t0
        self.bar = None
        self.enabled = enabled
        self.jobs = max(1, jobs)
        self.costs = costs if costs is not None else [(COUNTED, 1.0)] * total
        self.finished: set[int] = set()
        self.unit_cost: dict[object, float] = {}  # finished points' estimates, per unit
        self.unit_wall: dict[object, float] = {}  # and their measured run times
        self.wall: dict[int, float] = {}  # finished points' run times
        # numeric parameters of each point of a unit without an estimate
        self.features = [_numeric_params(p) for p in params] if params is not None else None
        if enabled and total and sys.stdout.isatty():
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit="point", dynamic_ncols=True)
            except ImportError:
                self.bar = None

    def _fit(self, unit) -> Callable[[int], float] | None:
        """The least-squares run time of a point of ``unit`` from its numeric parameters, or
        None (no parameters given, too few finished points, no parameter varies)."""
        if self.features is None or not _is_counted(unit):
            return None
        import numpy as np

        done = [i for i in self.finished if i in self.wall and self.costs[i][0] == unit]
        names = sorted({k for i in done for k in self.features[i]})
        names = [k for k in names
                 if all(k in self.features[i] for i in done)
                 and len({self.features[i][k] for i in done}) > 1]
        if not names or len(done) < len(names) + 2:
            return None
        x = np.array([[1.0] + [self.features[i][k] for k in names] for i in done])
        coef, *_ = np.linalg.lstsq(x, np.array([self.wall[i] for i in done]), rcond=None)
        mean = sum(self.wall[i] for i in done) / len(done)

        def predict(i: int) -> float:
            f = self.features[i]
            if not all(k in f for k in names):
                return mean
            return max(0.0, float(coef[0] + sum(c * f[k] for c, k in zip(coef[1:], names))))

        return predict

    def eta(self) -> float:
        """Seconds left (nan while no point with a run time has finished)."""
        walls = sum(self.unit_wall.values())
        timed = sum(1 for i in self.finished if self.costs[i][0] in self.unit_wall)
        if not timed:
            return math.nan
        per_point = walls / timed
        fits: dict[object, Callable[[int], float] | None] = {}
        work = 0.0
        left = 0
        for i, (unit, est) in enumerate(self.costs):
            if i in self.finished:
                continue
            left += 1
            if unit not in fits:
                fits[unit] = self._fit(unit)
            if fits[unit] is not None:
                work += fits[unit](i)
            elif self.unit_cost.get(unit, 0) > 0:
                work += est * self.unit_wall[unit] / self.unit_cost[unit]
            else:
                work += per_point
        return work / min(self.jobs, left) if left else 0.0

    def step(self, n: int = 1, index: int | None = None, wall: float | None = None):
        """``n`` points finished; ``index`` (submission order) and ``wall`` (its run time, s) of a
        point that finished with a record feed the ETA."""
        self.done += n
        if index is not None:
            self.finished.add(index)
            if wall is not None:
                unit, est = self.costs[index]
                self.wall[index] = wall
                self.unit_cost[unit] = self.unit_cost.get(unit, 0.0) + est
                self.unit_wall[unit] = self.unit_wall.get(unit, 0.0) + wall
        if not self.enabled:
            return
        if self.bar is not None:
            eta = self.eta()
            if math.isfinite(eta) and self.done < self.total:
                self.bar.set_postfix_str(f"about {eta:.0f} s left", refresh=False)
            self.bar.update(n)
            return
        now = time.monotonic()
        tenth = max(1, self.total // 10)
        if self.done == self.total or self.done % tenth == 0 or now - self.last >= 30:
            self.last = now
            elapsed = now - self.t0
            eta = self.eta()
            self.log(f"  {self.done}/{self.total} points computed ({elapsed:.0f} s"
                     + (f", about {eta:.0f} s left)" if self.done < self.total
                        and math.isfinite(eta) else ")"))

    def close(self):
        if self.bar is not None:
            self.bar.close()


#: The unit of the points of an experiment without a cost estimate: (COUNTED, experiment id).
COUNTED = "points"


def _is_counted(unit) -> bool:
    return unit == COUNTED or (isinstance(unit, tuple) and unit[:1] == (COUNTED,))


def _numeric_params(params: dict) -> dict[str, float]:
    """A point's parameters that are numbers, in base units ("50ms" 0.05, "2Mbps" 2e6, "7" 7;
    true/false, words and RngRun (a run number, not a cost) left out): the ETA's regressors."""
    out = {}
    for k, v in params.items():
        if k == "RngRun" or isinstance(v, bool) or v is None:
            continue
        if isinstance(v, (int, float)):
            x = float(v)
        else:
            sp = split_number(str(v))
            if sp is None:
                continue
            number, unit = sp
            scale = 1.0 if unit == "" else TIME_UNITS.get(unit, RATE_UNITS.get(unit))
            if scale is None:
                continue
            x = number * scale
        if math.isfinite(x):
            out[k] = x
    return out


def point_costs(todo: list[tuple]) -> list[tuple[object, float]]:
    """(unit, estimate) of each point to compute: the experiment's cost estimate (its function is
    the unit: one function's estimates are comparable), else one per point of that experiment
    (unit (COUNTED, id): the ETA fits its run times on the points' parameters)."""
    return [(exp.cost, float(exp.cost(p))) if exp.cost is not None else ((COUNTED, exp.id), 1.0)
            for exp, p, *_ in todo]
