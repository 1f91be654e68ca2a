"""Experiment campaigns: sweep an experiment's points, collect the records, analyse, report.

An experiment is declared once, in a module of ``testbed.experiments``::

    register(Experiment(
        id="jaxa-table1", study="JAXA06",
        title="NIST Net bandwidth setting vs measured ftp rate (Table 1)",
        program="jaxa-table1",          # build/examples/<program>
        points=points,                   # points(scale) -> [ {param: value}, ... ]
        analyse=analyse))                # analyse(records) -> Analysis

Each point runs ``<program> --param=value ... --output=<file>`` as its own process; the JSON
record it writes is stored at ``<out>/<id>/points/<key>.json`` together with its parameters, as
soon as it is finished (atomically). A sweep that is interrupted or fails part-way keeps every
finished point, and the next run only computes the missing ones.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import EXAMPLES_DIR, ROOT

SCALES = ("quick", "paper")

# --------------------------------------------------------------------------------------------
# Declarations


@dataclass
class Series:
    """One line of a figure."""

    title: str
    x: list
    y: list
    style: str = "linespoints"  # lines | points | linespoints | errorbars ...
    yerr: list | None = None


@dataclass
class Figure:
    """A 2-D figure drawn with gnuplot (through ns-3's Gnuplot class)."""

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


@dataclass
class Validation:
    """A simulated value compared with a measured (calibration) value."""

    point: str
    measured: float
    simulated: float
    tolerance_pct: float

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
        return {
            "point": self.point,
            "measured": self.measured,
            "simulated": self.simulated,
            "error_pct": round(self.error_pct, 4) if math.isfinite(self.error_pct) else None,
            "tolerance_pct": self.tolerance_pct,
            "pass": self.passed,
        }


@dataclass
class Record:
    """A finished point: its parameters and the program's JSON record."""

    params: dict
    result: dict


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
    # Experiments with the same engine (programs that give the same record for the same
    # parameters) share points: a parameter set is computed once and copied to the others.
    engine: str | None = None
    # Optional estimate of a point's relative cost (any unit, the same within the experiment set
    # that declares it): the runner starts the costliest points first, so that the last ones to
    # finish are short (longest-processing-time-first scheduling). Order only: results do not
    # depend on it.
    cost: Callable[[dict], float] | None = None


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


# --------------------------------------------------------------------------------------------
# Running points


class CampaignError(RuntimeError):
    """A point or an experiment could not be computed."""


def point_key(params: dict) -> str:
    """A stable file name for a parameter set."""
    canon = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()[:20]


def _format(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def program_path(program: str) -> Path:
    return EXAMPLES_DIR / program


def command_line(program: str, params: dict, output: Path) -> list[str]:
    exe = program_path(program)
    args = [str(exe)]
    for k, v in params.items():
        args.append(f"--{k}={_format(v)}")
    args.append(f"--output={output}")
    return args


def _atomic_write_json(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


class _Runner:
    """Runs point processes in parallel; terminates them all on interruption."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._procs: set[subprocess.Popen] = set()
        self._lock = threading.Lock()
        self._stopping = False

    def run_point(self, exp: Experiment, params: dict, dest: Path) -> float:
        """Run one point; store its record at dest. Returns the wall time."""
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_out = tempfile.mkstemp(dir=dest.parent, prefix=".out-", suffix=".json")
        os.close(fd)
        tmp = Path(tmp_out)
        cmd = command_line(exp.program, params, tmp)
        t0 = time.monotonic()
        try:
            with self._lock:
                if self._stopping:
                    raise CampaignError("interrupted")
                proc = subprocess.Popen(
                    cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    start_new_session=True)
                self._procs.add(proc)
            try:
                out, err = proc.communicate(timeout=exp.timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                raise CampaignError(
                    f"{exp.id}: point {params} timed out after {exp.timeout_s} s")
            finally:
                with self._lock:
                    self._procs.discard(proc)
            if proc.returncode != 0:
                tail = "\n".join((err or out or "").strip().splitlines()[-15:])
                raise CampaignError(
                    f"{exp.id}: point {params} failed (exit {proc.returncode}):\n"
                    f"  {' '.join(cmd)}\n{tail}")
            try:
                result = json.loads(tmp.read_text())
            except (OSError, ValueError) as e:
                raise CampaignError(f"{exp.id}: point {params} wrote no valid JSON: {e}")
            wall = time.monotonic() - t0
            _atomic_write_json(dest, {"params": params, "result": result, "wall_s": wall})
            return wall
        finally:
            tmp.unlink(missing_ok=True)

    def stop(self):
        with self._lock:
            self._stopping = True
            for p in list(self._procs):
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except (ProcessLookupError, PermissionError):
                    pass


def _points(exp: Experiment, scale: str) -> list[dict]:
    pts = exp.points(scale)
    seen = {}
    for p in pts:
        k = point_key(p)
        if k in seen:
            raise CampaignError(f"{exp.id}: duplicate point {p}")
        seen[k] = p
    if not pts:
        raise CampaignError(f"{exp.id}: no points at scale {scale!r}")
    return pts


def _load_point(path: Path, params: dict) -> Record | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if data.get("params") != params:
        return None
    return Record(params=data["params"], result=data["result"])


def _engine(exp: Experiment) -> str:
    return exp.engine or exp.program


def _shared_point(exp: Experiment, params: dict, out: Path, scale: str) -> Path | None:
    """A stored record of another experiment with the same engine and parameters, if any."""
    key = point_key(params)
    for other in _REGISTRY.values():
        if other.id == exp.id or _engine(other) != _engine(exp):
            continue
        cand = out / other.id / "points" / f"{key}.json"
        if cand.exists() and _load_point(cand, params) is not None:
            return cand
    return None


def _costliest_first(todo: list[tuple]) -> list[tuple]:
    """Points without a cost estimate first, in their order; then the others, costliest first."""
    # sorted() is stable: equal keys keep their order.
    return sorted(todo, key=lambda t: -math.inf if t[0].cost is None else -t[0].cost(t[1]))


def run_campaign(exps: list[Experiment], scale: str, jobs: int, out: Path,
                 log=print) -> dict[str, list[Record] | Exception]:
    """Compute every missing point of the experiments (in parallel across all of them).

    Returns, per experiment id, its records in point order, or the exception that stopped it.
    """
    if scale not in SCALES:
        raise CampaignError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
    plan: dict[str, list[tuple[dict, Path]]] = {}
    failed: dict[str, Exception] = {}
    todo = []
    for exp in exps:
        try:
            pts = _points(exp, scale)
        except Exception as e:  # a broken points() must not stop the others
            failed[exp.id] = e
            continue
        if not program_path(exp.program).exists():
            failed[exp.id] = CampaignError(
                f"{exp.id}: program {program_path(exp.program)} is not built")
            continue
        pdir = out / exp.id / "points"
        plan[exp.id] = [(p, pdir / f"{point_key(p)}.json") for p in pts]
        missing = []
        for p, d in plan[exp.id]:
            if _load_point(d, p) is not None:
                continue
            shared = _shared_point(exp, p, out, scale)
            if shared is not None:
                _atomic_write_json(d, json.loads(shared.read_text()))
                continue
            missing.append((exp, p, d))
        cached = len(pts) - len(missing)
        log(f"{exp.id}: {len(pts)} points ({cached} already done)")
        todo.extend(missing)

    # Identical points of experiments with the same engine run once; the others get a copy.
    first: dict[tuple, tuple] = {}
    copies: list[tuple] = []
    unique = []
    for exp, p, d in todo:
        k = (_engine(exp), point_key(p))
        if k in first:
            copies.append((first[k], exp, d))
        else:
            first[k] = (exp, p, d)
            unique.append((exp, p, d))
    todo = _costliest_first(unique)

    runner = _Runner(jobs)
    t0 = time.monotonic()
    done = 0
    with ThreadPoolExecutor(max_workers=runner.jobs) as pool:
        futures = {pool.submit(runner.run_point, exp, p, d): exp.id for exp, p, d in todo}
        try:
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    exp_id = futures[f]
                    done += 1
                    try:
                        f.result()
                    except Exception as e:
                        if exp_id not in failed:
                            failed[exp_id] = e
                            log(f"{exp_id}: FAILED: {e}")
                if todo and (done % max(1, len(todo) // 10) == 0 or not pending):
                    log(f"  {done}/{len(todo)} points computed "
                        f"({time.monotonic() - t0:.0f} s)")
        except KeyboardInterrupt:
            runner.stop()
            for f in futures:
                f.cancel()
            log("interrupted: finished points are kept; run again to continue")
            raise

    for (src_exp, src_p, src_d), exp, d in copies:
        if src_d.exists():
            _atomic_write_json(d, json.loads(src_d.read_text()))
        elif exp.id not in failed:
            failed[exp.id] = CampaignError(f"{exp.id}: shared point {src_p} of {src_exp.id} "
                                           "failed")

    results: dict[str, list[Record] | Exception] = dict(failed)
    for exp_id, pts in plan.items():
        if exp_id in failed:
            continue
        records = []
        for p, d in pts:
            r = _load_point(d, p)
            if r is None:
                results[exp_id] = CampaignError(f"{exp_id}: point {p} has no record")
                break
            records.append(r)
        else:
            results[exp_id] = records
    return results


# --------------------------------------------------------------------------------------------
# Analysis output


def write_csv(path: Path, rows: list[dict]) -> None:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for r in rows:
            w.writerow(r)


def _clean(value):
    """JSON-safe metric values: numbers (finite), strings, booleans."""
    if isinstance(value, bool) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, int):
        return value
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f if math.isfinite(f) else None


def finish_experiment(exp: Experiment, records: list[Record], scale: str, out: Path,
                      plots: bool = True) -> dict:
    """Analyse an experiment's records and write data.csv, metrics.json and figures."""
    analysis = exp.analyse(records)
    edir = out / exp.id
    write_csv(edir / "data.csv", analysis.rows)
    metrics = {
        "experiment": exp.id,
        "study": exp.study,
        "scale": scale,
        "metrics": {k: _clean(v) for k, v in analysis.metrics.items()},
        "validation": [v.as_dict() for v in analysis.validation],
    }
    _atomic_write_json(edir / "metrics.json", metrics)
    summary = {"title": exp.title, "notes": analysis.notes,
               "figures": [f.name + ".png" for f in analysis.figures]}
    _atomic_write_json(edir / "summary.json", summary)
    if plots:
        from .plot import render

        for fig in analysis.figures:
            render(fig, edir)
    return metrics
