"""Running a program at a point: its command line, and the task a Dask worker runs for a point.

A point runs as a child of its program's server (the program started once per worker with
--serve, which forks a child per point: ns-3's start-up paid once) or, with progress reports, as
a new process; either in its own process group, killed when the worker or the campaign dies, its
output read to the end and its CPU time taken from the kernel (run_point); its record
is stored atomically at every destination with the build identity and resolved parameters the
campaign computed. run_program_json runs a program once outside a campaign (the calibration
procedures).
"""

from __future__ import annotations

import contextlib
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


@contextlib.contextmanager
def _deadline(timeout: float | None, kill, expired: threading.Event):
    """Call ``kill`` (and set ``expired``) if the block is still running after ``timeout``
    seconds (None: never); a process already gone is not an error."""
    def expire():
        expired.set()
        try:
            kill()
        except (ProcessLookupError, PermissionError):
            pass

    timer = threading.Timer(timeout, expire) if timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()


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
    rusage = None
    with _deadline(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL), expired):
        try:  # os.wait4 retries by itself when a signal interrupts it (PEP 475)
            _, status, rusage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:  # reaped elsewhere: its status through Popen
            proc.wait()
    for t in readers:
        t.join()
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    return "".join(outs), "".join(errs), rusage, expired.is_set()


class _ServerGone(Exception):
    """A program's server ended or answered out of protocol."""


class _Server:
    """A program started once with ``--serve`` (ProgramOptions::Serve): it forks a child per
    point, so that a worker pays ns-3's start-up (libraries loaded, TypeIds registered, the
    RNG's jump-ahead matrices) once per program instead of once per point, some 25-30 ms of CPU
    that is most of a short point's cost (bench/serve.py). A child is the program as a new
    process is before it parses its options, so its record is the one a new process writes
    (test_runner.py compares them). The server runs in its own process group, killed with the
    worker (kill_running, and the kernel's parent-death signal), and ends at the end of its
    input when the worker closes it."""

    def __init__(self, exe: str, key):
        self.key = key
        self.proc = subprocess.Popen([exe, "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, start_new_session=True,
                                     env={**os.environ, PARENT_PID_VARIABLE: str(os.getpid())})
        with _RUNNING_LOCK:
            _RUNNING.add(self.proc)

    def close(self):
        with _RUNNING_LOCK:
            _RUNNING.discard(self.proc)
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.proc.wait()
        self.proc.stdout.close()

    def run(self, args: list[str], log: Path, timeout: float | None):
        """One run: (exit status or minus its signal, CPU seconds, timed out)."""
        try:
            self.proc.stdin.write("\t".join([str(log), *args]) + "\n")
            self.proc.stdin.flush()
            pid = int(self.proc.stdout.readline())
        except (OSError, ValueError) as e:
            raise _ServerGone() from e
        expired = threading.Event()
        try:
            with _deadline(timeout, lambda: os.kill(pid, signal.SIGKILL), expired):
                end = self.proc.stdout.readline().split()
        except OSError as e:
            raise _ServerGone() from e
        if len(end) != 3:
            raise _ServerGone()
        try:
            return int(end[0]), float(end[1]) + float(end[2]), expired.is_set()
        except ValueError as e:
            raise _ServerGone() from e


#: This thread's servers: program path -> _Server.
_SERVERS = threading.local()


def _run_served(exe: str, args: list[str], guard, log: Path, timeout: float | None):
    """Run a point through its program's server (started on first use, started again when the
    binaries it loaded changed): (status, CPU seconds, timed out), or None when it cannot
    serve the point (an argument that holds a tab or a newline, or a server that died; the
    point then runs as a new process)."""
    if any("\t" in a or "\n" in a for a in args):
        return None
    servers = getattr(_SERVERS, "by_exe", None)
    if servers is None:
        servers = _SERVERS.by_exe = {}
    key = tuple(tuple(g) for g in guard or ())
    server = servers.get(exe)
    if server is not None and (server.key != key or server.proc.poll() is not None):
        servers.pop(exe).close()
        server = None
    try:
        if server is None:
            server = servers[exe] = _Server(exe, key)
        return server.run(args, log, timeout)
    except (OSError, _ServerGone):
        servers.pop(exe, None)
        if server is not None:
            server.close()
        return None


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
    log = tmp.with_suffix(".log")
    t0 = time.monotonic()
    try:
        # A point without progress reports runs through its program's server; one with them
        # (read from its standard error as they come), or one the server cannot take, as a
        # new process.
        served = None if progress else _run_served(exe, cmd[1:], guard, log, timeout)
        if served is not None:
            returncode, cpu, timed_out = served
            try:
                out, err = "", log.read_text(errors="replace")
            except OSError:
                out, err = "", ""
        else:
            returncode, out, err, cpu, timed_out = _run_new_process(program, cmd, timeout,
                                                                     progress)
        if timed_out:
            return {"ok": False, "error": f"point {params} timed out after {timeout} s"}
        if returncode != 0:
            tail = "\n".join((err or out or "").strip().splitlines()[-15:])
            return {"ok": False, "error": f"point {params} failed (exit {returncode}):\n"
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
        if cpu is not None:  # user + system CPU seconds of the run
            record["cpu_s"] = cpu
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
        log.unlink(missing_ok=True)


def _run_new_process(program: str, cmd: list[str], timeout: float | None, progress: bool):
    """A point's program as a new process: (exit status, standard output, standard error, CPU
    seconds or None, timed out)."""
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
    cpu = None if rusage is None else rusage.ru_utime + rusage.ru_stime
    return proc.returncode, out, err, cpu, timed_out
