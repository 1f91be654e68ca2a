"""Analyses as stages of shared campaigns: ``./testbed reproduce`` runs every experiment's bands,
every calibration point's leverage and the reproduction's own points together, so that the
cluster always has the costliest points of all of them in flight (doc/sensitivity.rst, "Cost").

An analysis is a generator. It yields what it needs next and receives the outcome:

* ``Fits(fits)``: recalibrations (short sequences of dependent program runs) that must finish
  before its points are known; it receives None. The fits of every analysis waiting on fits run
  together, ``jobs`` at a time, in threads that wait on the programs' processes.
* ``Points(experiment)``: the points of an experiment (its folder under ``--out`` is its id);
  it receives the campaign's outcome for it, its records in point order or the exception that
  stopped it. The points of every analysis waiting on points run as one campaign
  (points.run_campaign: shared points once, costliest first, stored records reused).

The generator's return value is the analysis's result; an exception it raises is its result
and stops no other analysis. A round runs the fits first, then the points of every analysis
that then waits on points; an analysis with a second set of points (a gate's, Sensitivity.gate)
gets it in the next round.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Generator

from .errors import SchedulerError
from .experiment import Experiment
from .outputs import atomic_write_json
from .points import run_campaign
from .progress import Progress


@dataclass
class Fit:
    """One recalibration: ``run()`` returns the JSON-able fit, stored at ``dest``."""

    dest: Path
    run: Callable[[], dict]


@dataclass
class Fits:
    fits: list[Fit]


@dataclass
class Points:
    experiment: Experiment


Stage = Generator["Fits | Points", object, object]


def run_stages(stages: dict[str, Stage], scale: str, jobs: int, out: Path, log=print,
               scheduler: str | None = None, progress: bool = True) -> dict[str, object]:
    """Run the analyses {name: generator} to their ends; {name: result or exception}.
    KeyboardInterrupt and SchedulerError (no cluster: nothing can run) stop them all."""
    results: dict[str, object] = {}
    pending: dict[str, tuple[Stage, Fits | Points]] = {}

    def advance(name, gen, value=None):
        try:
            req = gen.send(value)
        except StopIteration as stop:
            results[name] = stop.value
            return
        except (KeyboardInterrupt, SchedulerError):
            raise
        except Exception as e:  # noqa: BLE001 - the analysis's outcome, reported by the caller
            results[name] = e
            return
        if not isinstance(req, (Fits, Points)):
            results[name] = TypeError(f"{name}: yielded {type(req).__name__}, not Fits or "
                                      "Points")
            gen.close()
            return
        pending[name] = (gen, req)

    for name, gen in stages.items():
        advance(name, gen)
    while pending:
        waiting = {n: gr for n, gr in pending.items() if isinstance(gr[1], Fits)}
        if waiting:
            _run_fits([f for _, req in waiting.values() for f in req.fits], jobs, log,
                      progress)
            for n, (gen, _) in waiting.items():
                del pending[n]
                advance(n, gen)
            continue
        batch = dict(pending)
        pending.clear()
        ids = [req.experiment.id for _, req in batch.values()]
        if len(set(ids)) != len(ids):
            raise ValueError(f"two analyses run points in the same folder: {sorted(ids)}")
        res = run_campaign([req.experiment for _, req in batch.values()], scale, jobs, out,
                           log=log, scheduler=scheduler, progress=progress)
        for n, (gen, req) in batch.items():
            advance(n, gen, res[req.experiment.id])
    return results


def run_one(name: str, stage: Stage, jobs: int, out: Path, log=print,
            scheduler: str | None = None, progress: bool = True):
    """One analysis on its own (./testbed sensitivity, run_leverage): its result; its
    exception raised."""
    res = run_stages({name: stage}, "quick", jobs, out, log=log, scheduler=scheduler,
                     progress=progress)[name]
    if isinstance(res, Exception):
        raise res
    return res


def _run_fits(fits: list[Fit], jobs: int, log, progress: bool) -> None:
    """Each fit's result written to its dest (atomically); a failed fit is logged and leaves
    no file, which fails its sample, not the analysis. Two fits of the same dest run once."""
    unique = list({str(f.dest): f for f in fits}.values())
    bar = Progress(len(unique), log, progress)
    try:
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            futs = {pool.submit(f.run): f.dest for f in unique}
            for fut in as_completed(futs):
                try:
                    atomic_write_json(Path(futs[fut]), fut.result())
                except Exception as e:  # noqa: BLE001
                    log(f"  recalibration failed ({Path(futs[fut]).stem}): "
                        f"{type(e).__name__}: {e}")
                bar.step()
    finally:
        bar.close()


def points_stage(exp: Experiment) -> Stage:
    """An experiment's own points at the campaign's scale, nothing else: the reproduction's,
    run with the bands' so that the cluster is never short of work (its analysis reads the
    stored records afterwards)."""
    return (yield Points(exp))
