"""Running a program at a point: its command line, and the task a Dask worker runs for a point.

A point runs as its own process in its own process group (killed when the worker or the campaign
dies), its output read to the end and its CPU time taken from the kernel (run_point); its record
is stored atomically at every destination with the build identity and resolved parameters the
campaign computed. run_program_json runs a program once outside a campaign (the calibration
procedures).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .build import guard_holds, program_path
from .outputs import atomic_write_json, load_json
from .records import record_checksum

# --------------------------------------------------------------------------------------------
# Programs


def _format(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def command_line(exe: Path | str, params: dict, output: Path, progress: bool = False) -> list[str]:
    args = [str(exe)]
    for k, v in params.items():
        args.append(f"--{k}={_format(v)}")
    if progress:
        args.append("--progress")
    args.append(f"--output={output}")
    return args


def run_program_json(program: str, params: dict, profile_file=None, options=None,
                     host_set: str = "") -> dict:
    """Run one program of the module at one point, outside a campaign (the calibration and
    recalibration procedures): ``params``, then ``options`` over them, then ``--profileFile`` and
    ``--hostSet`` where given; its record (JSON) from standard output. A failing run raises
    RuntimeError with the command and the end of its standard error."""
    params = dict(params)
    params.update(options or {})
    if profile_file:
        params["profileFile"] = profile_file
    if host_set:
        params["hostSet"] = host_set
    cmd = command_line(program_path(program), params, "-")
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout)


#: The program is killed when the process that starts it dies (ProgramOptions::Parse arms
#: Linux's PR_SET_PDEATHSIG when this names its parent). The program arms it itself: a pre-exec
#: hook here would make Python fork the whole worker instead of using vfork (bench/spawn.py).
PARENT_PID_VARIABLE = "TESTBED_PARENT_PID"


# --------------------------------------------------------------------------------------------
# The task that a worker runs

#: Programs running in this (worker) process, killed when the campaign that owns them dies.
_RUNNING: set[subprocess.Popen] = set()
_RUNNING_LOCK = threading.Lock()


def kill_running():
    """Kill every program this process runs (their process groups)."""
    with _RUNNING_LOCK:
        for p in list(_RUNNING):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _written_since(dests: list[tuple[str, str]], params: dict, build: dict | None,
                   since: float) -> bool:
    """Whether every destination already holds this point's record, of this build, written at
    or after ``since`` (by this campaign)."""
    for _, dest in dests:
        path = Path(dest)
        try:
            if not path.is_file() or path.stat().st_mtime < since:
                return False
            data = load_json(path.read_text())
        except (OSError, ValueError):
            return False
        if not isinstance(data, dict) or data.get("params") != params:
            return False
        if build is not None and (data.get("build") or {}).get("id") != build["id"]:
            return False
    return True


def _wait_timed(proc: subprocess.Popen, timeout: float | None, on_err_line=None):
    """Read a program's standard output and error to their end and reap it with ``os.wait4``,
    which returns its resource usage (the point's CPU time, which a shared machine's load does
    not stretch as it does the wall time), then set ``proc.returncode``: Popen's own wait()
    and poll() see a reaped process and do not wait again. Public interfaces only (Popen's
    pipes and returncode, os.wait4); readers in threads, as communicate() uses, and a timer
    that kills the program's process group after ``timeout`` seconds. ``on_err_line``: called
    with each line of standard error as it comes. Returns (out, err, rusage or None,
    timed_out)."""
    outs: list[str] = []
    errs: list[str] = []

    def drain(stream, sink, each=None):
        for line in stream:
            sink.append(line)
            if each is not None:
                each(line)

    readers = [threading.Thread(target=drain, args=(proc.stdout, outs), daemon=True),
               threading.Thread(target=drain, args=(proc.stderr, errs, on_err_line),
                                daemon=True)]
    for t in readers:
        t.start()
    expired = threading.Event()

    def expire():
        expired.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    timer = threading.Timer(timeout, expire) if timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    rusage = None
    try:  # os.wait4 retries by itself when a signal interrupts it (PEP 475)
        _, status, rusage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    except ChildProcessError:  # reaped elsewhere: its status through Popen
        proc.wait()
    finally:
        if timer is not None:
            timer.cancel()
    for t in readers:
        t.join()
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    return "".join(outs), "".join(errs), rusage, expired.is_set()


def run_point(exe: str, program: str, params: dict, dests: list[tuple[str, str]],
              timeout: float | None, progress: bool = False, build: dict | None = None,
              resolved: dict | None = None, guard=None, since: float | None = None,
              extra_args: tuple = ()) -> dict:
    """Run one point (in a worker): the program as its own process (its own process group, killed
    with the worker), then its record stored atomically at every destination
    ``(experiment id, path)``, with the build identity and resolved parameters the campaign
    computed. Returns {"ok": True, "wall": s} or {"ok": False, "error": text}: a failing program
    is a result, not an exception (an exception is left to the worker's death, which the
    scheduler answers by running the point elsewhere). ``guard``: the binaries' (path, size,
    mtime); a point whose binaries changed before or during its run fails instead of getting a
    record with the wrong identity. ``since``: the campaign's start (time.time()); a point
    whose records this campaign already wrote is not run again (a worker that died after it
    wrote them and before the scheduler heard of it: the scheduler runs the task again).
    ``extra_args``: appended to the program's command line (the merge of a split point,
    Experiment.split)."""
    if since is not None and _written_since(dests, params, build, since):
        return {"ok": True, "wall": 0.0}
    rebuilt = (f"point {params}: {program} or the module library was rebuilt while the campaign "
               f"ran; run the campaign again")
    if not guard_holds(guard):
        return {"ok": False, "error": rebuilt}
    first = Path(dests[0][1])
    first.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_out = tempfile.mkstemp(dir=first.parent, prefix=".out-", suffix=".json")
    os.close(fd)
    tmp = Path(tmp_out)
    cmd = command_line(exe, params, tmp, progress) + list(extra_args)
    t0 = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True,
                                env={**os.environ, PARENT_PID_VARIABLE: str(os.getpid())})
        with _RUNNING_LOCK:
            _RUNNING.add(proc)
        forward = None
        if progress:
            # The program's simulated-time progress (stderr) goes to the campaign's log as it
            # comes, through the cluster's event log (topic "testbed-progress").
            try:
                from distributed import get_worker

                worker = get_worker()  # in the task's thread (thread-local)
            except (ImportError, ValueError):
                worker = None
            if worker is not None:
                def forward(line):
                    worker.log_event("testbed-progress", f"{program}: {line.rstrip()}")
        try:
            out, err, rusage, timed_out = _wait_timed(proc, timeout, forward)
        finally:
            with _RUNNING_LOCK:
                _RUNNING.discard(proc)
        if timed_out:
            return {"ok": False, "error": f"point {params} timed out after {timeout} s"}
        if proc.returncode != 0:
            tail = "\n".join((err or out or "").strip().splitlines()[-15:])
            return {"ok": False, "error": f"point {params} failed (exit {proc.returncode}):\n"
                                          f"  {' '.join(cmd)}\n{tail}"}
        try:
            result = json.loads(tmp.read_text())
            json.dumps(result, allow_nan=False)
        except (OSError, ValueError, RecursionError) as e:
            return {"ok": False, "error": f"point {params} wrote no valid JSON: {e}"}
        wall = time.monotonic() - t0
        if not guard_holds(guard):
            return {"ok": False, "error": rebuilt}
        rng = {"RngRun": int(params.get("RngRun", 1)), "RngSeed": int(params.get("RngSeed", 1))}
        record = {"program": program, "params": params, "rng": rng, "result": result,
                  "wall_s": wall}
        if rusage is not None:  # user + system CPU seconds of the program
            record["cpu_s"] = rusage.ru_utime + rusage.ru_stime
        if build is not None:
            record["build"] = build
        if resolved is not None:
            record["resolved"] = resolved
        record["checksum"] = record_checksum(record)
        for exp_id, dest in dests:
            atomic_write_json(Path(dest), {"experiment": exp_id, **record})
        return {"ok": True, "wall": wall}
    finally:
        tmp.unlink(missing_ok=True)
