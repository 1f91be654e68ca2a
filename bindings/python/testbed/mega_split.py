"""A ``mega-scale`` point split by sets over processes, merged into the whole run's record
(doc/mega.rst, "An exact split over processes").

The campaign splits a point where it pays (``parts_for``): the point is a Dask task like any
(``run_point``), on the embedded cluster or on ``--scheduler``'s, and a last step (``mega-scale
--merge``) writes the one record, byte for byte the unsplit run's. Without the querier the parts
share nothing and run as Dask tasks of their own, whenever and wherever a worker is free. With it
(two parts) they run at the same time and wait for each other, so the point's task runs both,
joined by two pipes (``--peer=READ,WRITE``): two tasks could each hold a worker waiting for the
other. A part whose peer ended ends too (exit 1), so a failed part cannot leave the other
waiting.

Outside a campaign, ``run`` starts the parts as local processes (pipes) and merges them::

    from testbed import mega_split
    rec = mega_split.run(["--senderPcs=40", "--sendersPerGroup=4", "--receivers=10"], parts=2,
                         workdir="/tmp/split", output="/tmp/split/record.json")

The program refuses what it cannot split exactly (one group, more than two parts with the
querier, a part without a set of its own on the 6509), and a part whose sets turned out to be
coupled (flooding, drops at another part's port, a frame the lookahead did not allow for) exits
1: then no record is written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path

from . import runner
from .build import EXAMPLES_DIR
from .outputs import atomic_write_text
from .records import record_checksum
from .runner import command_line

__all__ = ["run", "SplitError", "parts_for", "max_parts", "run_point", "run_part",
           "run_coupled", "split_for", "part0_sets", "PART_SHARE", "QUERIER_SET_SHARE",
           "QUERIER_SHARED"]

#: Without the querier a part's CPU time is its share of the sets' (the parts share nothing but
#: the idle network): the largest part of P takes about 1/P of the whole run.
PART_SHARE = 1.0
#: With the querier (two parts), measured at 10^6 senders split 25/25 (bench/mega-bench.md):
#: part 1's 25 sets took 0.55 of the whole run's CPU time and part 0's 25 sets with the shared
#: work (the querier's NIC, the router port's frames, the other part's injected frames) 0.63.
#: Split, a fraction f of the sets costs QUERIER_SET_SHARE * f of the whole run (the parts
#: together 1.1: each part also keeps the whole network's skeleton and its own caches cold),
#: and part 0's shared work QUERIER_SHARED more.
QUERIER_SET_SHARE = 1.10
QUERIER_SHARED = 0.08


class SplitError(RuntimeError):
    """A part or the merge failed: its exit status and standard error."""


def _querier(params: dict) -> bool:
    q = params.get("querier", True)
    return str(q).lower() not in ("false", "0")


def _sets(params: dict) -> int:
    per = int(params.get("sendersPerGroup", 4))
    return (int(params.get("senderPcs", 4)) + per - 1) // per if per > 0 else 1


def max_parts(params: dict, workers: int) -> int:
    """The most parts a point splits into: 1 without sets; with the querier 2; else one per
    worker, at most one per set; with receivers on the 6009, part 0 takes their sets and every
    other part needs one on the 6509."""
    if int(params.get("sendersPerGroup", 4)) <= 0 or workers < 2:
        return 1
    n = min(workers, _sets(params), 64)
    if _querier(params):
        n = min(n, 2)
    on6009 = int(params.get("receiversOn6009", 0))
    if on6009 > 0:
        n = min(n, int(params.get("receivers", 1)) - on6009 + 1)
    return max(1, n)


def part0_sets(params: dict) -> int:
    """With the querier, the sets of part 0 (the program's ``--part0Sets``): the count that
    balances the two parts by the cost model, QUERIER_SET_SHARE * f0 + QUERIER_SHARED =
    QUERIER_SET_SHARE * (1 - f0) (23 of 50 sets), and at least the sets whose receivers are on
    the 6009 (part 0 runs the trunk); one set at least on either side."""
    n = _sets(params)
    k = round(n * (QUERIER_SET_SHARE - QUERIER_SHARED) / (2 * QUERIER_SET_SHARE))
    on6009 = int(params.get("receiversOn6009", 0))
    if on6009 > 0:
        k = max(k, n - (int(params.get("receivers", 1)) - on6009))
    return min(max(k, 1), n - 1)


def _cpu_shares(params: dict, parts: int) -> list[float]:
    """Each part's CPU time over the whole run's (the cost model of the split)."""
    if parts == 1:
        return [1.0]
    if _querier(params):
        f0 = part0_sets(params) / _sets(params)
        return [QUERIER_SET_SHARE * f0 + QUERIER_SHARED, QUERIER_SET_SHARE * (1 - f0)]
    return [PART_SHARE / parts] * parts


def parts_for(cost: float, total: float, workers: int, params: dict) -> int:
    """How many parts a point of ``cost`` runs as, in a campaign whose points cost ``total``
    (this one included) on ``workers`` workers: the count whose estimated critical path,
    max(the largest part, every point's work spread over the workers), is the shortest (the
    unsplit run on a tie). A point splits only where it is the campaign's critical path: longer
    than what one worker finishes of the rest."""
    best, best_path = 1, max(cost, total / max(1, workers))
    for p in range(2, max_parts(params, workers) + 1):
        shares = _cpu_shares(params, p)
        path = max(cost * max(shares), (total - cost + cost * sum(shares)) / workers)
        if path < best_path * (1 - 1e-9):
            best, best_path = p, path
    return best


def split_for(cost):
    """The campaign's hook (Experiment.split) for points whose cost function is ``cost``:
    given a point, the campaign's total cost and its workers, the point's run as parts (a task
    with runner.run_point's arguments), or None to run it whole."""

    def plan(params: dict, total: float, workers: int):
        parts = parts_for(float(cost(params)), total, workers, params)
        return _SplitRunner(parts) if parts > 1 else None

    return plan


class _SplitRunner:
    """A picklable ``run_point`` with its number of parts."""

    def __init__(self, parts: int):
        self.parts = parts

    def __call__(self, *args, **kwargs):
        return run_point(*args, parts=self.parts, **kwargs)


def _wait4(proc: subprocess.Popen, timeout: float | None):
    """Wait for a child, killing its process group after ``timeout`` s: (status, rusage)."""
    timer = None
    if timeout is not None:
        def kill():
            try:
                os.killpg(proc.pid, 9)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
    try:
        _, status, rusage = os.wait4(proc.pid, 0)
    finally:
        if timer is not None:
            timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, rusage


def _part_command(exe: str, params: dict, part: int, parts: int, work: str) -> tuple:
    f = Path(work) / f"part{part}of{parts}"
    cmd = command_line(exe, params, f.with_suffix(".json"))
    cmd += [f"--parts={parts}", f"--part={part}", f"--partOut={f}"]
    if _querier(params) and parts == 2:
        cmd.append(f"--part0Sets={part0_sets(params)}")
    return cmd, f


def _ended(part: int, parts: int, proc, status, ru, err, f, t0) -> dict:
    err.seek(0)
    text = err.read().strip()
    err.close()
    if status != 0:
        return {"ok": False, "error": f"part {part} of {parts}: exit {status}: {text}"}
    return {"ok": True, "file": str(f), "wall": time.monotonic() - t0,
            "cpu": ru.ru_utime + ru.ru_stime, "maxrss_kb": ru.ru_maxrss}


def run_part(exe: str, params: dict, part: int, parts: int, work: str,
             timeout: float | None) -> dict:
    """One part of a split without the querier (a Dask task of its own): the program with
    ``--parts/--part/--partOut``. Returns {"ok", "file", "wall", "cpu", "maxrss_kb"} or
    {"ok": False, "error"}."""
    cmd, f = _part_command(exe, params, part, parts, work)
    t0 = time.monotonic()
    err = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    status, ru = _wait4(proc, timeout)
    return _ended(part, parts, proc, status, ru, err, f, t0)


def run_coupled(exe: str, params: dict, work: str, timeout: float | None) -> list[dict]:
    """The two parts of a split with the querier, at the same time in this task (they wait for
    each other: two tasks could each hold a worker waiting for the other), joined by two pipes
    (``--peer=READ,WRITE``). A part whose peer ended ends too. Each part's result as
    run_part's."""
    a_to_b, b_to_a = os.pipe(), os.pipe()
    peers = [(b_to_a[0], a_to_b[1]), (a_to_b[0], b_to_a[1])]
    t0 = time.monotonic()
    started = []
    try:
        for k in range(2):
            cmd, f = _part_command(exe, params, k, 2, work)
            err = tempfile.TemporaryFile(mode="w+")
            proc = subprocess.Popen(cmd + [f"--peer={peers[k][0]},{peers[k][1]}"],
                                    stdout=subprocess.DEVNULL, stderr=err, pass_fds=peers[k],
                                    start_new_session=True)
            started.append((proc, err, f))
    finally:
        # Only the parts hold the pipes: when one ends, the other reads the end of its input.
        for fd in (*a_to_b, *b_to_a):
            os.close(fd)
    results = [None, None]
    threads = []
    for k, (proc, err, f) in enumerate(started):
        def wait(k=k, proc=proc, err=err, f=f):
            status, ru = _wait4(proc, timeout)
            results[k] = _ended(k, 2, proc, status, ru, err, f, t0)
        threads.append(threading.Thread(target=wait))
        threads[-1].start()
    for t in threads:
        t.join()
    if len(started) < 2:
        return [{"ok": False, "error": "a part did not start"}]
    return results


def run_point(exe: str, program: str, params: dict, dests: list[tuple[str, str]],
              timeout: float | None, progress: bool = False, build: dict | None = None,
              resolved: dict | None = None, guard=None, since: float | None = None, *,
              parts: int = 2) -> dict:
    """runner.run_point for a point split into ``parts`` (a Dask task): without the querier
    the parts as Dask tasks of their own (this task leaves its worker's thread to them while it
    waits), with it the two coupled parts as two processes of this task; then the merge as
    runner.run_point with ``--merge``. The record's ``wall_s`` is the split run's and
    ``cpu_s`` the parts' and the merge's, with each part's in ``parts``."""
    from distributed import worker_client

    first = Path(dests[0][1])
    first.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=first.parent, prefix=".parts-"))
    key = f"testbed-split-{uuid.uuid4().hex}"
    t0 = time.monotonic()
    try:
        if _querier(params) and parts == 2:
            done = run_coupled(exe, params, str(work), timeout)
        else:
            with worker_client() as client:  # this task's thread is free while it waits
                futures = [client.submit(run_part, exe, params, k, parts, str(work), timeout,
                                         key=f"{key}-part{k}", pure=False, priority=1000)
                           for k in range(parts)]
                done = client.gather(futures)
        failed = [d["error"] for d in done if not d["ok"]]
        if failed:
            return {"ok": False, "error": f"point {params} split into {parts}: "
                                          + "; ".join(failed)}
        files = ",".join(d["file"] for d in done)
        r = runner.run_point(exe, program, params, dests, timeout, False, build, resolved,
                             guard, since, extra_args=(f"--merge={files}",))
        if not r.get("ok") or r.get("wall") == 0.0:
            return r
        wall = time.monotonic() - t0
        for _, dest in dests:
            path = Path(dest)
            data = json.loads(path.read_text())
            data.pop("checksum", None)
            exp_id = data.pop("experiment")
            data["wall_s"] = wall
            data["cpu_s"] = data.get("cpu_s", 0.0) + sum(d["cpu"] for d in done)
            data["parts"] = [{"cpu_s": d["cpu"], "wall_s": d["wall"],
                              "maxrss_mb": d["maxrss_kb"] / 1024} for d in done]
            data["checksum"] = record_checksum(data)
            atomic_write_text(path, json.dumps({"experiment": exp_id, **data},
                                               indent=1, sort_keys=True) + "\n")
        return {"ok": True, "wall": wall}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(args, parts=2, workdir=".", output="record.json", program=None, timeout=None,
        sets0=None):
    """Run mega-scale with ``args`` (a list of ``--name=value``) as ``parts`` local processes
    at once, merge their files into ``output`` and return the record (a dict). With the
    querier, part 0 runs ``sets0`` sets (default: the cost model's, part0_sets())."""
    program = str(program or EXAMPLES_DIR / "mega-scale")
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    files = [work / f"part{k}of{parts}" for k in range(parts)]
    named = dict(a[2:].split("=", 1) for a in args if a.startswith("--") and "=" in a)
    querier = _querier(named)
    extra = [[] for _ in range(parts)]
    keep = [() for _ in range(parts)]
    fds = []
    if querier and parts == 2:
        a_to_b = os.pipe()
        b_to_a = os.pipe()
        fds = [*a_to_b, *b_to_a]
        k0 = f"--part0Sets={sets0 if sets0 is not None else part0_sets(named)}"
        extra = [[f"--peer={b_to_a[0]},{a_to_b[1]}", k0], [f"--peer={a_to_b[0]},{b_to_a[1]}", k0]]
        keep = [(b_to_a[0], a_to_b[1]), (a_to_b[0], b_to_a[1])]
    procs = []
    errs = []
    try:
        for k, f in enumerate(files):
            err = tempfile.TemporaryFile(mode="w+")
            errs.append(err)
            procs.append(subprocess.Popen([program, *args, f"--parts={parts}", f"--part={k}",
                                           f"--partOut={f}", *extra[k]],
                                          stdout=subprocess.DEVNULL, stderr=err,
                                          pass_fds=keep[k]))
    finally:
        # Only the parts hold the pipes: when one ends, the other reads the end of its input.
        for fd in fds:
            os.close(fd)
    failed = []
    for k, p in enumerate(procs):
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
                q.wait()
            raise
        if p.returncode != 0:
            errs[k].seek(0)
            failed.append(f"part {k}: exit {p.returncode}: {errs[k].read().strip()}")
        errs[k].close()
    if failed:
        raise SplitError("; ".join(failed))
    m = subprocess.run([program, *args, "--merge=" + ",".join(str(f) for f in files),
                        f"--output={output}"], capture_output=True, text=True, timeout=timeout)
    if m.returncode != 0:
        raise SplitError(f"merge: exit {m.returncode}: {m.stderr.strip()}")
    return json.loads(Path(output).read_text())
