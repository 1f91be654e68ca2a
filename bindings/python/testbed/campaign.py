"""Experiment campaigns: sweep experiments' points on dask.distributed, store, analyse, report.

An experiment is declared once, in a study's module of ``testbed.experiments`` (the declaration
types are in ``testbed.experiment``)::

    register(Experiment(
        id="jaxa-table1", study="JAXA06",
        title="NIST Net bandwidth setting vs measured ftp rate (Table 1)",
        program="jaxa-table1",          # an experiment program (build/examples/<program>)
        points=points,                   # points(scale) -> [ {param: value}, ... ]
        analyse=analyse))                # analyse(records) -> Analysis

Each point runs ``<program> --param=value ... --output=<file>`` as its own process, on a Dask
worker: by default an embedded ``LocalCluster`` of ``jobs`` worker processes, or the workers of an
existing cluster (``scheduler="tcp://host:8786"``) that see the same checkout and build on a
shared path. A point is identified by its program and its parameters: experiments that need the
same point (Fig. 5 of [JAXA06] is Fig. 4's data) get it computed once. The worker that finishes a
point stores its record at ``<out>/<experiment>/points/<key>.json`` for every experiment that
needs it, atomically, as soon as it is finished: a campaign that is interrupted, a worker that is
killed (the scheduler runs its point again elsewhere) or a point that fails keeps every finished
point, and the next run computes only the missing ones.

Every record carries the identity of the build that made it (``build``: hashes of the program
binary and of the module library it loads, the ns-3 version, ``git describe --dirty`` of the
checkout; see build.build_identity) and every parameter of the program, defaults included
(``resolved``, from the program's ``--describe``). A stored record is reused only when its build
identity equals the current build's; otherwise the point is computed again ("N points
recomputed: the build changed"), so a record made by another build is never returned.
``rerun=True`` recomputes every point. Only the campaign's ``out`` folder is searched for stored
records.

This module is the campaign's interface: run_campaign computes the points, finish_experiment
analyses an experiment's records into data.csv, metrics.json and figures. The parts live beside
it: ``build`` (program paths, build identity, a program's ``--describe``), ``points`` (which
points to compute, on the cluster), ``runner`` (the task a worker runs for a point), ``cluster``
(the Dask cluster and its worker plugins), ``records`` (a stored record and whether it is
current), ``progress`` (points done and time left), ``outputs`` (atomic writes, CSV, the output
folder's lock) and ``errors``.
"""

from __future__ import annotations

import math
from pathlib import Path

from .cluster import LEAN_DASK
from .errors import CampaignError, PointsFailed, SchedulerError
from .experiment import Experiment, Record, headline, role_counts
from .outputs import atomic_write_json, write_csv
from .plot import render
from .points import run_campaign
from .sensitivity import attach, draw_bands

__all__ = ["CampaignError", "LEAN_DASK", "PointsFailed", "SchedulerError", "finish_experiment",
           "run_campaign"]


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
    edir = Path(out) / exp.id
    write_csv(edir / "data.csv", analysis.rows)
    validation = [v.as_dict() for v in analysis.validation]
    counts = role_counts(validation)
    builds = {}
    for r in records:
        if r.build:
            b = {k: v for k, v in r.build.items() if k != "inputs"}
            builds.setdefault(b.get("id"), b)
    metrics = {
        "experiment": exp.id,
        "study": exp.study,
        "scale": scale,
        "metrics": {k: _clean(v) for k, v in analysis.metrics.items()},
        "validation": validation,
        # Beyond the fixed contract (the fields above): the counts per role
        # (only checks are independent of the calibration) and the builds the points came from.
        "validation_summary": {
            "headline": headline(validation),
            "checks_passed": counts["check"][0], "checks": counts["check"][1],
            "calibration_reproduced": counts["calibration"][0],
            "calibration": counts["calibration"][1],
            "known_gaps": counts["known_gap"][1],
        },
        "builds": list(builds.values()),
    }
    sens = attach(exp, out)  # bands and drivers of a sensitivity run of the same build
    if sens is not None:
        metrics["sensitivity"] = sens
    atomic_write_json(edir / "metrics.json", metrics)
    summary = {"title": exp.title, "notes": analysis.notes,
               "figures": [f.name + ".png" for f in analysis.figures]}
    atomic_write_json(edir / "summary.json", summary)
    if plots:
        draw_bands(exp, analysis.figures, out)  # the bands over the ranges, where computed
        for fig in analysis.figures:
            render(fig, edir)
    return metrics
