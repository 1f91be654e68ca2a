"""A campaign's points: which are missing or stale, computing them on the Dask cluster, and the
records of every experiment in point order.

A point is identified by its program and its parameters: experiments that need the same point
get it computed once, and the worker that finishes it stores its record for every experiment
that needs it (runner.run_point). A stored record is reused when it was made by the current build
(records.load_point); the others run on the cluster, costliest first, one point per worker at a
time on the embedded cluster.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

from . import cluster as dask_cluster
from .build import (IDENTITY, build_guard, build_identity, describe_options, git_describe,
                    point_inputs, program_path, resolve_params)
from .errors import CampaignError, PointsFailed
from .experiment import SCALES, Experiment, Record
from .outputs import atomic_write_json, check_out, clean_stale, load_json, lock_folder
from .progress import Progress, point_costs
from .records import load_point, point_key, read_point
from .runner import run_point


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


def run_campaign(exps: list[Experiment], scale: str, jobs: int, out: Path,
                 log=print, scheduler: str | None = None,
                 progress: bool = True, rerun: bool = False,
                 shared: bool = True) -> dict[str, list[Record] | Exception]:
    """Compute every missing or stale point of the experiments (in parallel across all of them).

    A point's stored record (``<out>/<experiment>/points/<key>.json``) is reused when it was made
    by the current build (build_identity, computed once per program and campaign); a record of
    another build is computed again, ``rerun`` computes every point again. With ``shared`` the
    other experiments' folders under ``out`` are searched for the same (program, parameters)
    point too; nothing outside ``out`` is ever searched.

    Returns, per experiment id, its records in point order, or the exception that stopped it.
    """
    if scale not in SCALES:
        # A what-if scale is an experiment's own: every experiment of the campaign must name it.
        have = [e.id for e in exps if scale in e.what_if_scales]
        if len(have) < len(exps):
            where = (f" (a what-if scale of {', '.join(have)} only: ./testbed run {have[0]} "
                     f"--scale {scale})") if have else ""
            without = [e.id for e in exps if scale not in e.what_if_scales]
            shown = ", ".join(without[:3]) + (", ..." if len(without) > 3 else "")
            raise CampaignError(f"unknown scale {scale!r} for {shown}{where}; use one of "
                                f"{', '.join(SCALES)}")
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise TypeError(f"jobs={jobs!r}: a whole number >= 1, not {type(jobs).__name__}")
    if jobs < 1:
        raise ValueError(f"jobs={jobs!r}: must be >= 1")
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out={out!r}: a folder (str or Path), not {type(out).__name__}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(f"scheduler={scheduler!r}: an address (str), not "
                        f"{type(scheduler).__name__}")
    out = Path(out)
    for exp in exps:
        check_out(out / exp.id)
    locks = []
    try:
        for exp in exps:
            locks.append(lock_folder(out / exp.id))
        return _run_campaign(exps, scale, jobs, out, log, scheduler, progress, rerun, shared)
    finally:
        for fd in locks:
            os.close(fd)


def _run_campaign(exps, scale, jobs, out, log, scheduler, progress, rerun, shared):
    """Both rounds: every experiment's points(scale), then the points that an experiment's
    more_points adds from those records (Experiment.more_points), run as one more campaign in
    which the first round's points are stored and reused."""
    import dataclasses

    results = _run_round(exps, scale, jobs, out, log, scheduler, progress,
                         lambda p, every=bool(rerun): every, shared)
    second, added = [], set()
    for exp in exps:
        records = results.get(exp.id)
        if exp.more_points is None or not isinstance(records, list):
            continue
        try:
            extra = exp.more_points(scale, records)
        except Exception as e:  # noqa: BLE001 - the experiment's failure, not the campaign's
            results[exp.id] = e
            continue
        if extra:
            added |= {point_key(p) for p in extra}
            first = [r.params for r in records]
            second.append(dataclasses.replace(exp, points=lambda s, a=first, b=extra: a + b,
                                              more_points=None))
    if second:
        # --rerun: the added points are computed again (the first round's have been already)
        results.update(_run_round(second, scale, jobs, out, log, scheduler, progress,
                                  lambda p: bool(rerun) and point_key(p) in added, shared))
    return results


def _run_round(exps, scale, jobs, out, log, scheduler, progress, rerun_point, shared):
    """One campaign over the experiments' points(scale); ``rerun_point(params)``: whether a
    point is computed again though a current record holds it (--rerun)."""
    plan: dict[str, list[tuple[dict, Path]]] = {}
    failed: dict[str, Exception] = {}
    # (program, key) -> [(experiment, params, dest)] still missing
    groups: dict[tuple[str, str], list[tuple[Experiment, dict, Path]]] = {}
    stored: dict[tuple[str, str], Path] = {}  # (program, key) -> a current record
    builds: dict[str, dict] = {}  # program -> its build identity (hashed once)
    options: dict[str, list[dict] | None] = {}  # program -> its --describe options
    git = git_describe()
    for exp in exps:
        try:
            pts = _points(exp, scale)
        except Exception as e:  # a broken points() must not stop the others
            failed[exp.id] = e
            continue
        if not program_path(exp.program).exists():
            failed[exp.id] = CampaignError(
                f"{exp.id}: program {exp.program} is not built (looked for "
                f"{program_path(exp.program)}; set TESTBED_PROGRAMS_DIR or TESTBED_NS3_TREE for "
                f"an in-tree build)")
            continue
        if exp.program not in builds:
            builds[exp.program] = build_identity(exp.program, git)
            options[exp.program] = describe_options(exp.program)
        pdir = out / exp.id / "points"
        removed = clean_stale(pdir)
        if removed:
            log(f"{exp.id}: removed {removed} temporaries of an interrupted run")
        plan[exp.id] = [(p, pdir / f"{point_key(p)}.json") for p in pts]

    def inputs(exp, p):
        return point_inputs(options[exp.program], p)

    def current(exp, p, path, say=None):
        if rerun_point(p):
            return None
        return load_point(path, p, exp.program, builds[exp.program], inputs(exp, p), say)

    for exp_id, pts in plan.items():
        exp = next(e for e in exps if e.id == exp_id)
        for p, d in pts:
            if current(exp, p, d, log) is not None:
                stored.setdefault((exp.program, point_key(p)), d)
    stale: dict[tuple[str, str], str] = {}  # (program, key) -> why its record is not reused
    for exp in exps:
        if exp.id not in plan:
            continue
        missing = 0
        for p, d in plan[exp.id]:
            k = (exp.program, point_key(p))
            if current(exp, p, d) is not None:
                continue
            if k not in stored and shared and not rerun_point(p):
                # Any experiment's current record of the same program and parameters in this
                # folder (also of experiments not in this campaign): the programs are
                # deterministic.
                for cand in out.glob(f"*/points/{k[1]}.json"):
                    if current(exp, p, cand) is not None:
                        stored[k] = cand
                        break
            if k in stored:  # another experiment has it: same program, parameters and build
                try:
                    data = load_json(stored[k].read_text())
                except (OSError, ValueError):  # gone meanwhile: compute it
                    stored.pop(k)
                    missing += 1
                    groups.setdefault(k, []).append((exp, p, d))
                    continue
                data["experiment"] = exp.id
                atomic_write_json(d, data)
                continue
            old = read_point(d, p, exp.program)
            if old is not None:
                b = old.get("build")
                stale[k] = ("rerun" if rerun_point(p) else "unknown" if not isinstance(b, dict)
                            else "build" if any(b.get(x) != builds[exp.program].get(x)
                                                for x in IDENTITY)
                            or b.get("inputs", {}) != inputs(exp, p) else "edited")
            missing += 1
            groups.setdefault(k, []).append((exp, p, d))
        log(f"{exp.id}: {len(plan[exp.id])} points ({len(plan[exp.id]) - missing} already done)")
    why = {"build": "the build changed", "unknown": "their records name no build",
           "edited": "their records do not match their checksum (edited or damaged)",
           "rerun": "--rerun"}
    for reason, text in why.items():
        n = sum(1 for r in stale.values() if r == reason)
        if n:
            log(f"{n} point{'s' if n != 1 else ''} recomputed: {text}")
    todo = []
    for k, members in groups.items():
        exp, p, _ = members[0]
        todo.append((exp, p, members, k))
    todo = _costliest_first(todo)

    if todo:
        extra = {}
        for exp, p, _, k in todo:
            b = builds[exp.program]
            extra[k] = {"build": {**b, "inputs": inputs(exp, p)},
                        "resolved": resolve_params(options[exp.program], p),
                        "guard": build_guard(b)}
        _compute(todo, jobs, scheduler, log, failed, progress, scale, extra)
        # Every point has ended: a temporary output still there is a killed worker's (an
        # external worker's program survives its worker; the folder is this campaign's).
        for exp_id in plan:
            clean_stale(out / exp_id / "points")

    results: dict[str, list[Record] | Exception] = dict(failed)
    for exp_id, pts in plan.items():
        if exp_id in failed:
            continue
        exp = next(e for e in exps if e.id == exp_id)
        records = []
        for p, d in pts:
            r = load_point(d, p, exp.program, builds[exp.program], inputs(exp, p))
            if r is None:
                results[exp_id] = CampaignError(f"{exp_id}: point {p} has no record of this "
                                                f"build")
                break
            records.append(r)
        else:
            results[exp_id] = records
    return results


def _costliest_first(todo: list[tuple]) -> list[tuple]:
    """Longest-processing-time-first: items (experiment, params, ...) without a cost estimate
    first, in their order; then the others, costliest first (a stable sort)."""
    return sorted(todo, key=lambda t: -math.inf if t[0].cost is None else -t[0].cost(t[1]))


def _compute(todo, jobs, scheduler, log, failed, progress, scale, extra):
    from distributed import wait

    # No more workers than points (a worker process per --jobs cost memory and start-up time),
    # unless a point may split: its parts need the workers of --jobs, even when it is alone.
    size = jobs if any(exp.split for exp, *_ in todo) else min(jobs, len(todo))
    cluster = dask_cluster.Cluster(size, scheduler)
    log(cluster.describe())
    workers = max(1, size if scheduler is None else cluster.workers())
    bar = Progress(len(todo), log, progress, costs=point_costs(todo),
                   params=[p for _, p, *_ in todo], jobs=workers)
    # A point that is the campaign's critical path may run as parts in parallel, merged into
    # its one record (Experiment.split: given the point, its cost function's total over the
    # campaign and the workers, a task in place of run_point, or None).
    totals = {}
    for exp, p, *_ in todo:
        if exp.cost is not None:
            totals[exp.cost] = totals.get(exp.cost, 0.0) + float(exp.cost(p))
    futures = {}
    # Records written from now on are this campaign's: a second run of a point's task, after
    # its worker died, finds them and does not compute the point again. (A file system's
    # coarser clock can only make a record look older: then it is computed again, as before.)
    since = time.time()
    index = {}
    # Simulated-time progress at the paper and what-if scales only (their runs take minutes; a
    # quick point's run is over before the reporter's first line).
    show = scale != "quick"
    if show and any(exp.progress for exp, *_ in todo):
        cluster.client.subscribe_topic("testbed-progress", lambda event: log(f"  {event[1]}"))
    n = len(todo)
    queue = list(enumerate(todo))  # costliest first (_costliest_first)

    def submit():
        rank, (exp, p, members, k) = queue.pop(0)
        dests = [(e.id, str(d)) for e, _, d in members]
        task = exp.split(p, totals.get(exp.cost, 0.0), workers) if exp.split else None
        f = cluster.client.submit(task or run_point, str(program_path(exp.program)), exp.program, p,
                                  dests, exp.timeout_s, show and exp.progress,
                                  extra[k]["build"], extra[k]["resolved"],
                                  extra[k]["guard"], since, key=f"point-{k[0]}-{k[1]}",
                                  priority=n - rank, pure=False)
        futures[f] = members
        index[f] = rank
        return f

    # The embedded cluster gets one point per worker at a time, the next when one finishes, so
    # the points start in their order (costliest first) on whichever worker is free. Dask's
    # scheduler would hand a single-thread worker a second point at once (it queues only large
    # groups of tasks on the scheduler): a short point then waited behind the longest one while
    # the other worker idled (the paper mega-scale campaign: 12 minutes). An external cluster
    # gets every point at once (its workers may come and go; its scheduler orders them).
    slots = min(jobs, n) if cluster.cluster is not None else n
    try:
        pending = {submit() for _ in range(min(slots, n))}
        alone_since = None
        while pending:
            try:
                done, pending = wait(pending, timeout=10, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            if not done and cluster.cluster is None:
                # An external cluster may lose every worker: say so instead of waiting for ever.
                if cluster.workers() > 0:
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > dask_cluster.WORKER_WAIT_S:
                    raise CampaignError(f"--scheduler {scheduler}: no workers for "
                                        f"{dask_cluster.WORKER_WAIT_S:.0f} s ({len(pending)} "
                                        f"points left; finished points are kept)")
            for f in done:
                _finish(f, futures, show, failed, log, bar, index.pop(f), cluster, scheduler)
            while queue and len(pending) < slots:
                pending.add(submit())
    except KeyboardInterrupt:
        for f in futures:
            f.cancel()
        log("interrupted: finished points are kept; run again to continue")
        raise
    finally:
        bar.close()
        cluster.close()


#: The programs' --progress period: a line every this many seconds of wall clock (and one as
#: the run starts; helper/program-options-progress.cc).
PROGRESS_PERIOD_S = 10.0

#: How long one wait for a finished point's result lasts before the campaign looks whether an
#: external cluster still has workers.
RESULT_POLL_S = 10.0


def _result(f, cluster=None, scheduler=None):
    """A finished future's result. Its result lives on the worker that computed it: when that
    worker dies before the result is fetched, Dask computes the point again, which an external
    cluster whose last worker died never does. So the wait is bounded: while no worker is
    connected for dask_cluster.WORKER_WAIT_S, CampaignError (as the campaign's own wait says)."""
    alone_since = None
    while True:
        try:
            return f.result(timeout=RESULT_POLL_S)
        except TimeoutError:
            pass
        if cluster is None or cluster.workers() > 0:
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since > dask_cluster.WORKER_WAIT_S:
            raise CampaignError(f"--scheduler {scheduler}: no workers for "
                                f"{dask_cluster.WORKER_WAIT_S:.0f} s (finished points are kept)")



def _finish(f, futures, show, failed, log, bar, rank=None, cluster=None, scheduler=None):
    """A point's future is done: its record was written (or it failed); report and release it.
    Every failed point is logged once, as it fails, with its error; the experiment's exception
    (``failed``) counts and names them all."""
    # Released once its record is written: a finished point held by the client would
    # be computed again when the worker that holds its (small) result dies.
    members = futures.pop(f)
    try:
        res = _result(f, cluster, scheduler)
    except CampaignError:
        raise
    except Exception as e:  # the point's workers died too often (KilledWorker), ...
        res = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    f.release()
    if show and members[0][0].progress and res.get("wall", 0.0) >= PROGRESS_PERIOD_S:
        # A point that reported its progress may have printed a line just before it ended:
        # that line is still on its way through the cluster's event log. (The wait is the
        # campaign's, one point at a time: never for the short points, which print none.)
        time.sleep(0.2)
    if not res["ok"]:
        log(f"{members[0][0].id}: point FAILED: {res['error']}")
        for e, p, _ in members:
            prev = failed.get(e.id)
            if isinstance(prev, PointsFailed):
                prev.add(res["error"], p)
            elif prev is None:
                failed[e.id] = PointsFailed(e.id, [res["error"]], [p])
    bar.step(index=rank, wall=res.get("wall"))
