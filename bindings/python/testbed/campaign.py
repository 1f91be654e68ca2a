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
checkout; see build_identity) and every parameter of the program, defaults included
(``resolved``, from the program's ``--describe``). A stored record is reused only when its build
identity equals the current build's; otherwise the point is computed again ("N points
recomputed: the build changed"), so a record made by another build is never returned.
``rerun=True`` recomputes every point. Only the campaign's ``out`` folder is searched for stored
records.
"""

from __future__ import annotations

import csv
import ctypes
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
from pathlib import Path
from typing import Callable

from . import EXAMPLES_DIR, ROOT, SCRATCH_DIR
from .experiment import (  # noqa: F401  (re-exported: the studies' modules import them here)
    SCALES,
    Analysis,
    Experiment,
    Figure,
    Record,
    Series,
    Validation,
    experiments,
    get,
    headline,
    register,
    role_counts,
)

# --------------------------------------------------------------------------------------------
# Programs


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


def _ns3_tree_programs(name: str) -> list[Path]:
    """Programs named ns3.<version>-<name>-<profile> of an in-tree build (contrib/testbed)."""
    trees = []
    if os.environ.get("TESTBED_NS3_TREE"):
        trees.append(Path(os.environ["TESTBED_NS3_TREE"]))
    # This checkout itself as contrib/testbed of an ns-3 tree.
    if ROOT.parent.name == "contrib":
        trees.append(ROOT.parent.parent)
    found = []
    for tree in trees:
        build = tree / "build"
        if build.is_dir():
            found.extend(p for p in build.rglob(f"ns3*-{name}-*")
                         if p.is_file() and os.access(p, os.X_OK)
                         and p.name.split("-", 1)[1].rsplit("-", 1)[0] == name)
    return sorted(found)


def program_path(program: str) -> Path:
    """Where a program is, by name: the standalone build's build/scratch/<program> (a user's
    scratch/<program>.cc or scratch/<program>/, as ./testbed run-program finds it), else its
    build/examples/<program>, else an in-tree build's ns3.<version>-<program>-<profile> (the tree
    in $TESTBED_NS3_TREE, or the one this checkout is contrib/testbed of). $TESTBED_PROGRAMS_DIR,
    when set, overrides all of these: the programs of that folder under their plain names."""
    if os.environ.get("TESTBED_PROGRAMS_DIR"):
        return Path(os.environ["TESTBED_PROGRAMS_DIR"]) / program
    for folder in (SCRATCH_DIR, EXAMPLES_DIR):
        if (folder / program).is_file():
            return folder / program
    standalone = EXAMPLES_DIR / program
    tree = _ns3_tree_programs(program)
    return tree[0] if tree else standalone


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
    import subprocess

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


def _file_mode() -> int:
    """The mode of an ordinary new file under this process's umask (0644 under 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file as a whole or not at all: a temporary beside it, then a rename. A failed
    write (a full disk, a file-size limit) leaves the previous file as it was and no
    temporary."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix or ".txt")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _atomic_write_json(path: Path, data) -> None:
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"number {text} is out of range")
    return x


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def load_json(text: str):
    """Strict JSON of a stored record: NaN, Infinity and a number beyond a double (1e400, which
    Python reads as inf) are refused (ValueError), and so is a nesting deeper than the parser's
    recursion limit (RecursionError becomes ValueError)."""
    try:
        return json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


#: Keys of a record that its checksum does not cover: the checksum itself and the experiment a
#: copy is stored for (a point shared by experiments is the same record under another name).
_UNCHECKED = ("checksum", "experiment")


def record_checksum(record: dict) -> str:
    """SHA-256 of a record's content (canonical JSON, without the keys of _UNCHECKED): stored
    with the record and checked before it is reused, so that an edited result, build identity
    or resolved parameter set is computed again instead of trusted."""
    body = {k: v for k, v in record.items() if k not in _UNCHECKED}
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canon.encode()).hexdigest()


def _clean_stale(pdir: Path) -> int:
    """Remove temporaries that an interrupted or killed campaign left in a points/ folder and
    in the experiment's folder beside it (metrics.json, data.csv, ...)."""
    n = 0
    for d in (pdir, pdir.parent):
        if d.is_dir():
            for f in list(d.glob(".out-*.json")) + list(d.glob(".tmp-*")):
                if f.is_file():
                    f.unlink(missing_ok=True)
                    n += 1
    return n


_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """In the child, before exec: SIGKILL when the process that started it dies (Linux)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


# --------------------------------------------------------------------------------------------
# Build identity and resolved parameters

_HASHES: dict[tuple, str] = {}


def _sha256(path: Path) -> str:
    """The file's SHA-256 (cached by path, size and modification time: a binary is read once per
    campaign however many points it runs)."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _HASHES:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _HASHES[key] = h.hexdigest()
    return _HASHES[key]


_LINKED: dict[tuple, list[Path]] = {}


def _linked_libraries(exe: Path) -> list[Path]:
    """The shared libraries the dynamic loader resolves for a program (``ldd``; none for a
    script or a static program; cached by path, size and modification time)."""
    st = exe.stat()
    key = (str(exe), st.st_size, st.st_mtime_ns)
    if key not in _LINKED:
        _LINKED[key] = _run_ldd(exe)
    return _LINKED[key]


def _run_ldd(exe: Path) -> list[Path]:
    try:
        r = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    libs = []
    for line in r.stdout.splitlines():
        name, arrow, rest = line.strip().partition(" => ")
        if arrow and rest.startswith("/"):
            libs.append(Path(rest.split(" (")[0]))
    return libs


def _ns3_version(libs: list[Path]) -> str | None:
    """ns-3's version from the core library a program loads (libns3.44-core.so -> 3.44; the
    wheel's own version, 3.44.post0, when the library is the ns3 wheel's)."""
    import re

    for lib in libs:
        m = re.match(r"libns(3[.\d]*(?:-dev)?)-core\b", lib.name)
        if not m:
            continue
        version = m.group(1)
        if "site-packages" in lib.parts or "dist-packages" in lib.parts:
            try:
                from importlib.metadata import version as dist_version

                wheel = dist_version("ns3")
                if wheel.startswith(version):
                    version = wheel
            except Exception:  # no wheel metadata: the library's own version
                pass
        return version
    return None


def _git_describe() -> str | None:
    """``git describe --always --dirty`` of the checkout, or None outside one."""
    try:
        r = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() or None if r.returncode == 0 else None


def build_identity(program: str, git: str | None = None) -> dict:
    """The identity of the build that runs ``program``: SHA-256 of the program binary and of the
    module library it loads (the library whose name has "testbed"), the ns-3 version, and (for
    information) ``git describe --dirty``. ``id`` is a hash of the first three: what decides
    a program's output. A commit that changes no binary (documentation, Python analysis) keeps
    the id, so its stored points stay valid; any change to the model's code changes a binary."""
    exe = program_path(program)
    libs = _linked_libraries(exe)
    module = [lib for lib in libs if "testbed" in lib.name]
    ident = {
        "program_sha256": _sha256(exe),
        "module_libraries": {lib.name: _sha256(lib) for lib in module},
        "ns3": _ns3_version(libs),
    }
    canon = json.dumps(ident, sort_keys=True, separators=(",", ":"))
    return {"id": hashlib.sha256(canon.encode()).hexdigest()[:20], **ident,
            "program_path": str(exe),
            "module_library_paths": [str(lib) for lib in module], "git": git}


def _build_guard(build: dict) -> list[tuple[str, int, int]]:
    """(path, size, mtime) of the binaries a build identity hashed: a worker checks them before
    and after a run, so that a rebuild during the campaign cannot give a record the old
    identity (a stat, not a hash, per point)."""
    out = []
    for path in [build["program_path"], *build["module_library_paths"]]:
        st = os.stat(path)
        out.append((path, st.st_size, st.st_mtime_ns))
    return out


def _guard_holds(guard) -> bool:
    for path, size, mtime in guard or []:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return False
    return True


def _describe_options(program: str) -> list[dict] | None:
    """The program's options from its ``--describe`` (None when it has none)."""
    exe = program_path(program)
    try:
        r = subprocess.run([str(exe), "--describe"], capture_output=True, text=True, timeout=60)
        if r.returncode == 0:
            return json.loads(r.stdout).get("options")
    except (OSError, ValueError, subprocess.TimeoutExpired):
        pass
    return None


def resolve_params(options: list[dict] | None, params: dict) -> dict:
    """Every parameter of a run: the program's defaults (its ``--describe``), ns-3's RngSeed and
    RngRun (1), and the point's own values over them."""
    out = {o["name"]: o.get("default") for o in options or []}
    out.update({"RngSeed": 1, "RngRun": 1})
    out.update(params)
    return dict(sorted(out.items()))


def point_inputs(options: list[dict] | None, params: dict) -> dict:
    """SHA-256 of the files a point reads (a text option naming an existing file: --profileFile,
    --sheet, ...), part of the point's identity: an edited input file makes the point stale."""
    kinds = {o["name"]: o.get("type") for o in options or []}
    out = {}
    for name, value in params.items():
        if isinstance(value, str) and kinds.get(name, "string") == "string" \
                and value and os.path.isfile(value):
            out[name] = _sha256(Path(value).resolve())
    return out


# --------------------------------------------------------------------------------------------
# The task that a worker runs

#: Programs running in this (worker) process, killed when the campaign that owns them dies.
_RUNNING: set[subprocess.Popen] = set()
_RUNNING_LOCK = threading.Lock()


def _kill_running():
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
    if not _guard_holds(guard):
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
                                start_new_session=True, preexec_fn=_die_with_parent)
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
        if not _guard_holds(guard):
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
            _atomic_write_json(Path(dest), {"experiment": exp_id, **record})
        return {"ok": True, "wall": wall}
    finally:
        tmp.unlink(missing_ok=True)


#: How long a campaign on an external cluster waits for a worker (at the start, or when every
#: worker is gone) before it gives up with a message.
WORKER_WAIT_S = 120.0


def _package_path(pkg: str):
    """A Dask worker plugin that puts this package on the worker's sys.path at the worker's
    start (every worker, also one that restarts), and makes the worker ignore SIGINT: a ^C in
    the campaign's terminal reaches its process group, and the campaign (not each worker, with
    a traceback) handles it."""
    from distributed.diagnostics.plugin import WorkerPlugin

    campaign = os.getpid()

    class PackagePath(WorkerPlugin):
        name = "testbed-package-path"

        def setup(self, worker):
            if pkg not in sys.path:
                sys.path.insert(0, pkg)
            if os.getpid() == campaign:
                return  # a thread worker of the campaign's own process: its ^C stays
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            except ValueError:  # not the main thread
                pass

    return PackagePath()


def _campaign_watch(pid: int):
    """A Dask worker plugin for the embedded cluster: when the campaign process `pid` disappears
    (killed, even with SIGKILL), the worker kills its running programs and exits."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class CampaignWatch(WorkerPlugin):
        name = "testbed-campaign-watch"

        def setup(self, worker):
            def watch():
                while True:
                    time.sleep(0.5)
                    try:
                        os.kill(pid, 0)
                    except ProcessLookupError:
                        _kill_running()
                        try:  # the nanny would start a new worker for a campaign that is gone
                            os.kill(os.getppid(), signal.SIGKILL)
                        finally:
                            os._exit(1)
                    except PermissionError:
                        pass

            threading.Thread(target=watch, daemon=True).start()

        def teardown(self, worker):
            _kill_running()

    return CampaignWatch()


# --------------------------------------------------------------------------------------------
# The campaign


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


_FIELDS: dict[str, dict[str, dict] | None] = {}


def _declared_fields(program: str) -> dict[str, dict] | None:
    """{field: its --describe entry ("type", "always", ...)} of a program's result record (None
    if unavailable)."""
    if program not in _FIELDS:
        try:
            r = subprocess.run([str(program_path(program)), "--describe"], capture_output=True,
                               text=True, timeout=60)
            _FIELDS[program] = {f["name"]: f for f in json.loads(r.stdout)["fields"]}
        except (OSError, ValueError, KeyError, TypeError, subprocess.SubprocessError):
            _FIELDS[program] = None
    return _FIELDS[program]


def _value_fits(kind: str, v) -> bool:
    def number(x):  # null: the programs write a non-finite real as null (ResultRecord)
        return x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)
                             and math.isfinite(x))

    return {"real": number(v),
            "int": isinstance(v, int) and not isinstance(v, bool),
            "bool": isinstance(v, bool),
            "string": isinstance(v, str),
            "series": isinstance(v, list) and all(number(x) for x in v)}.get(kind, True)


def record_problem(data, params: dict, program: str | None) -> str | None:
    """Why a stored record cannot stand for the point (None if it can): not a JSON object,
    other parameters or program, no result object, a result field the program does not declare
    or of another type than declared, or without a field the program declares always set."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("params") != params:
        return "other parameters"
    if program is not None and data.get("program", program) != program:
        return f"written by {data.get('program')!r}, not {program}"
    result = data.get("result")
    if not isinstance(result, dict):
        return "no result object"
    fields = _declared_fields(program) if program else None
    if fields is not None:
        for k, v in result.items():
            if k not in fields:
                return f"result field {k!r} is not a field of {program}"
            if not _value_fits(fields[k].get("type"), v):
                return f"result field {k!r} is not a {fields[k].get('type')}"
        for k, f in fields.items():
            if f.get("always") is True and k not in result:
                return f"no result field {k!r}, which {program} always sets"
    return None


def _read_point(path: Path, params: dict, program: str | None = None,
                log: Callable[[str], None] | None = None) -> dict | None:
    """A stored record of this program and these parameters (of whatever build), or None
    (missing, or not a valid record of the point: then, with ``log``, says why it is computed
    again). Only a regular file is read (a FIFO named like a record would block)."""
    try:
        if not path.is_file():
            if log is not None and (path.exists() or path.is_symlink()):
                log(f"{path}: not a regular file: computing the point again")
            return None
        data = load_json(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        if log is not None:
            log(f"{path}: unreadable record ({type(e).__name__}: {e}): computing the point "
                f"again")
        return None
    why = record_problem(data, params, program)
    if why is not None:
        if log is not None and why != "other parameters":
            log(f"{path}: {why}: computing the point again")
        return None
    return data


#: The fields of a build identity that decide a program's output (build_identity hashes them
#: into its id).
_IDENTITY = ("id", "program_sha256", "module_libraries", "ns3")


def _is_current(data: dict, build: dict | None, inputs: dict | None = None) -> bool:
    """Whether a stored record was made by this build (every field of its identity, not the id
    alone, and these input files) and is as it was written (its checksum, record_checksum).
    Without a current identity (build None: tests of the storage alone) any record is
    current."""
    if build is None:
        return True
    stored = data.get("build")
    return (isinstance(stored, dict)
            and all(stored.get(k) == build.get(k) for k in _IDENTITY)
            and stored.get("inputs", {}) == (inputs or {})
            and _checksum_holds(data))


def _checksum_holds(data: dict) -> bool:
    try:
        return data.get("checksum") == record_checksum(data)
    except (ValueError, RecursionError):
        return False


def _load_point(path: Path, params: dict, program: str | None = None,
                build: dict | None = None, inputs: dict | None = None,
                log: Callable[[str], None] | None = None) -> Record | None:
    """The stored record of this point made by this build, or None."""
    data = _read_point(path, params, program, log)
    if data is None or not _is_current(data, build, inputs):
        return None
    return Record(params=data["params"], result=data["result"],
                  experiment=data.get("experiment", path.parent.parent.name),
                  program=data.get("program", program or ""), build=data.get("build"),
                  resolved=data.get("resolved"))


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
    from .sweeps import TIME_UNITS, RATE_UNITS, _split

    out = {}
    for k, v in params.items():
        if k == "RngRun" or isinstance(v, bool) or v is None:
            continue
        if isinstance(v, (int, float)):
            x = float(v)
        else:
            sp = _split(str(v))
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


def _point_costs(todo: list[tuple]) -> list[tuple[object, float]]:
    """(unit, estimate) of each point to compute: the experiment's cost estimate (its function is
    the unit: one function's estimates are comparable), else one per point of that experiment
    (unit (COUNTED, id): the ETA fits its run times on the points' parameters)."""
    return [(exp.cost, float(exp.cost(p))) if exp.cost is not None else ((COUNTED, exp.id), 1.0)
            for exp, p, *_ in todo]


def _worker_processes_are_safe() -> bool:
    """Whether the embedded cluster may start worker PROCESSES. Dask starts them with
    multiprocessing's spawn, which imports the parent's ``__main__`` module again: a user's
    script that calls testbed.sweep() at top level, without an ``if __name__ == "__main__":``
    guard, would run again in every worker (and fail with a screen of traceback). Only the
    command line (python -m testbed.cli, which is guarded) gets processes; from any other
    program (a script, a notebook, pytest) the workers are threads of this process, which
    suffices: every point is a subprocess of its own, so the threads only wait for programs."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return spec is not None and spec.name in ("testbed.cli", "testbed.__main__")


class SchedulerError(CampaignError):
    """--scheduler ADDR names no reachable Dask scheduler (a usage error: exit 2, one line)."""


# Connecting to an external scheduler (--scheduler ADDR): the TCP connection must open within
# SCHEDULER_CONNECT_S (a scheduler on a LAN answers in milliseconds; Dask's own default retries a
# refused connection for 30 s), and the Dask handshake must finish within the same time.
SCHEDULER_CONNECT_S = 5.0


def _reach_scheduler(address: str) -> None:
    """Open (and close) a TCP connection to a tcp:// or tls:// scheduler address, or raise
    SchedulerError in one sentence: a malformed address, an unknown host, a refused or unanswered
    connection. Other Dask transports are left to Dask's Client."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, loc = parse_address(address)
        if scheme == "inproc":  # a scheduler of this very process (the Python API) or none
            from distributed.comm.inproc import global_manager

            try:
                listening = global_manager.get_listener_for(loc) is not None
            except ValueError:  # another process's or a malformed in-process address
                listening = False
            if not listening:
                raise ValueError("an inproc:// address names a scheduler inside this process, "
                                 "and none listens there; give tcp://HOST:PORT")
            return
        if scheme not in ("tcp", "tls"):
            return  # another Dask transport (ucx://, ws://): Dask's Client checks it
        host, port = parse_host_port(loc)
        if port is None:
            raise ValueError("no port (use tcp://HOST:PORT)")
    except (ValueError, TypeError) as e:
        raise SchedulerError(f"--scheduler {address}: not an address ({e})") from None
    try:
        with socket.create_connection((host, port), timeout=SCHEDULER_CONNECT_S):
            pass
    except socket.timeout:
        raise SchedulerError(f"--scheduler {address}: no answer within {SCHEDULER_CONNECT_S:g} s")\
            from None
    except OSError as e:
        raise SchedulerError(f"--scheduler {address}: cannot connect "
                            f"({e.strerror or type(e).__name__})") from None


#: The embedded cluster's Dask settings that cost CPU for nothing a campaign uses: Dask's
#: statistical profiler (a stack sample of every worker thread every 10 ms, for the dashboard,
#: which a campaign does not start), its GIL-contention probe (every 1 ms), the event loops'
#: tick watch (20 ms), the system monitor (500 ms) and the worker memory monitor (100 ms;
#: still on, every 5 s), and work stealing (independent points are queued on the scheduler and
#: handed to the next free worker in priority order; stealing only moved queued tasks around).
#: Measured: an idle embedded cluster of 2 worker processes took 3.47 s of CPU per 30 s with
#: Dask's defaults and 0.35 s with these (doc/campaigns.rst). An external scheduler's workers
#: keep their own configuration.
LEAN_DASK = {"distributed.worker.profile.enabled": False,
             "distributed.admin.system-monitor.gil.enabled": False,
             "distributed.admin.tick.interval": "1s",
             "distributed.admin.system-monitor.interval": "5s",
             "distributed.worker.memory.monitor-interval": "5s",
             "distributed.scheduler.work-stealing": False}


#: The embedded cluster's address, and an HTTP server's address on it (any free port).
LOOPBACK = "127.0.0.1"
LOOPBACK_ANY_PORT = f"{LOOPBACK}:0"


class _Cluster:
    """The Dask client: an embedded LocalCluster of `jobs` worker processes, or an existing
    cluster's scheduler."""

    def __init__(self, jobs: int, scheduler: str | None):
        import logging

        import dask
        from distributed import Client, LocalCluster

        dask.config.set({"distributed.scheduler.allowed-failures": 3,
                         "distributed.admin.tick.limit": "60s"})
        if not scheduler:
            dask.config.set(LEAN_DASK)
        self.cluster = None
        if scheduler:
            _reach_scheduler(scheduler)
            try:
                self.client = Client(scheduler, timeout=SCHEDULER_CONNECT_S)
            except (OSError, TimeoutError) as e:
                raise SchedulerError(f"--scheduler {scheduler}: no Dask scheduler answers "
                                    f"within {SCHEDULER_CONNECT_S:g} s ({e})") from None
            except Exception:  # noqa: BLE001  (a server answered, in another protocol)
                raise SchedulerError(f"--scheduler {scheduler}: the server there is not a Dask "
                                    "scheduler (its answer is not Dask's protocol)") from None
        else:
            # Worker processes only where that is safe (see _worker_processes_are_safe), threads
            # otherwise. The scheduler's HTTP server on a free port (":0"), no dashboard:
            # dashboard_address None still bound 8787 and warned "Port 8787 is already in use"
            # for every concurrent campaign. Dask's own log lines only at CRITICAL: its
            # worker processes log at ERROR what an ending campaign causes (a heartbeat that
            # meets the closed scheduler after a ^C printed a traceback: seen once in CI); the
            # campaign reports every point's failure itself.
            # Every server of the embedded cluster listens on the loopback address only: the
            # scheduler and the worker processes (``host``; thread workers talk in-process) and
            # the HTTP servers of the scheduler and of each worker (":0" was every interface).
            self.processes = _worker_processes_are_safe()
            self.cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                        processes=self.processes, dashboard_address=None,
                                        scheduler_kwargs={"dashboard_address": LOOPBACK_ANY_PORT},
                                        worker_dashboard_address=LOOPBACK_ANY_PORT,
                                        silence_logs=logging.CRITICAL,
                                        **({"host": LOOPBACK} if self.processes else {}))
            self.client = Client(self.cluster)
        # Workers import this module: a worker plugin makes the package importable on every
        # worker, also one that joins or restarts later (client.run reached only the workers of
        # the moment: a restarted worker of an external cluster could not import testbed).
        self.client.register_plugin(_package_path(str(Path(__file__).resolve().parents[1])))
        if self.cluster is not None:
            if self.processes:  # thread workers end with this process; the watch would kill it
                self.client.register_plugin(_campaign_watch(os.getpid()))
        else:
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
            except (TimeoutError, OSError):
                self.client.close()
                raise CampaignError(f"--scheduler {scheduler}: no workers for {WORKER_WAIT_S} s")

    def describe(self) -> str:
        """Which scheduler runs the points, in one line for the console."""
        if self.cluster is None:
            n = self.workers()
            return (f"scheduler: {self.client.scheduler.address} (external, "
                    f"{n} worker{'s' if n != 1 else ''} connected)")
        n = len(self.cluster.workers)
        kind = ("process" if self.processes else "thread") + ("es" if self.processes and n != 1
                                                              else "s" if n != 1 else "")
        return (f"scheduler: embedded LocalCluster at {self.client.scheduler.address} "
                f"({n} worker {kind}, listening on {LOOPBACK} only)")

    def workers(self) -> int:
        """Workers connected now."""
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # noqa: BLE001  (a lost scheduler: no workers)
            return 0

    def close(self):
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()


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
        raise CampaignError(f"unknown scale {scale!r}; use one of {', '.join(SCALES)}")
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


def check_out(out: Path) -> None:
    """--out must be a folder this process can write (or one it can create): checked before any
    cluster starts (CampaignError, one line)."""
    probe = Path(out)
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise CampaignError(f"--out {out}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise CampaignError(f"--out {out}: {probe} is not writable")


def lock_folder(folder: Path) -> int:
    """An exclusive lock (fcntl) on <folder>/.lock, held until the returned descriptor is closed
    (also when the process dies): a second campaign into the same folder is refused instead of
    deleting the first one's temporaries."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        raise CampaignError(f"{folder}: another campaign (pid {holder or '?'}) is writing into "
                            f"it; wait for it to end or use another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _run_campaign(exps, scale, jobs, out, log, scheduler, progress, rerun, shared):
    plan: dict[str, list[tuple[dict, Path]]] = {}
    failed: dict[str, Exception] = {}
    # (program, key) -> [(experiment, params, dest)] still missing
    groups: dict[tuple[str, str], list[tuple[Experiment, dict, Path]]] = {}
    stored: dict[tuple[str, str], Path] = {}  # (program, key) -> a current record
    builds: dict[str, dict] = {}  # program -> its build identity (hashed once)
    options: dict[str, list[dict] | None] = {}  # program -> its --describe options
    git = _git_describe()
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
            options[exp.program] = _describe_options(exp.program)
        pdir = out / exp.id / "points"
        removed = _clean_stale(pdir)
        if removed:
            log(f"{exp.id}: removed {removed} temporaries of an interrupted run")
        plan[exp.id] = [(p, pdir / f"{point_key(p)}.json") for p in pts]

    def inputs(exp, p):
        return point_inputs(options[exp.program], p)

    def current(exp, p, path, say=None):
        if rerun:
            return None
        return _load_point(path, p, exp.program, builds[exp.program], inputs(exp, p), say)

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
            if k not in stored and shared and not rerun:
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
                _atomic_write_json(d, data)
                continue
            old = _read_point(d, p, exp.program)
            if old is not None:
                b = old.get("build")
                stale[k] = ("rerun" if rerun else "unknown" if not isinstance(b, dict)
                            else "build" if any(b.get(x) != builds[exp.program].get(x)
                                                for x in _IDENTITY)
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
                        "guard": _build_guard(b)}
        _compute(todo, jobs, scheduler, log, failed, progress, scale, extra)
        # Every point has ended: a temporary output still there is a killed worker's (an
        # external worker's program survives its worker; the folder is this campaign's).
        for exp_id in plan:
            _clean_stale(out / exp_id / "points")

    results: dict[str, list[Record] | Exception] = dict(failed)
    for exp_id, pts in plan.items():
        if exp_id in failed:
            continue
        exp = next(e for e in exps if e.id == exp_id)
        records = []
        for p, d in pts:
            r = _load_point(d, p, exp.program, builds[exp.program], inputs(exp, p))
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

    # No more workers than points (a worker process per --jobs cost memory and start-up time).
    cluster = _Cluster(min(jobs, len(todo)), scheduler)
    log(cluster.describe())
    workers = max(1, min(jobs, len(todo)) if scheduler is None else cluster.workers())
    bar = Progress(len(todo), log, progress, costs=_point_costs(todo),
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
    # Simulated-time progress of paper-scale points only (their runs take minutes; a quick
    # point's run is over before the reporter's first line).
    show = scale == "paper"
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
                elif time.monotonic() - alone_since > WORKER_WAIT_S:
                    raise CampaignError(f"--scheduler {scheduler}: no workers for "
                                        f"{WORKER_WAIT_S:.0f} s ({len(pending)} points left; "
                                        f"finished points are kept)")
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


#: How long one wait for a finished point's result lasts before the campaign looks whether an
#: external cluster still has workers.
RESULT_POLL_S = 10.0


def _result(f, cluster=None, scheduler=None):
    """A finished future's result. Its result lives on the worker that computed it: when that
    worker dies before the result is fetched, Dask computes the point again, which an external
    cluster whose last worker died never does. So the wait is bounded: while no worker is
    connected for WORKER_WAIT_S, CampaignError (as the campaign's own wait says)."""
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
        elif time.monotonic() - alone_since > WORKER_WAIT_S:
            raise CampaignError(f"--scheduler {scheduler}: no workers for {WORKER_WAIT_S:.0f} s "
                                f"(finished points are kept)")


class PointsFailed(CampaignError):
    """Points of an experiment failed: each was logged (with its program's error) as it failed;
    the message counts and names them. ``errors``: every failed point's error text."""

    def __init__(self, exp_id: str, errors: list[str], points: list[dict]):
        self.exp_id, self.errors, self.points = exp_id, errors, points
        super().__init__(self._text())

    def _text(self) -> str:
        n = len(self.points)
        if n == 1:
            return f"{self.exp_id}: {self.errors[0]}"
        shown = ", ".join(str(p) for p in self.points[:5]) + (", ..." if n > 5 else "")
        return f"{self.exp_id}: {n} points failed: {shown}"

    def add(self, error: str, point: dict) -> None:
        self.errors.append(error)
        self.points.append(point)
        self.args = (self._text(),)


def _finish(f, futures, show, failed, log, bar, rank=None, cluster=None, scheduler=None):
    """A point's future is done: its record was written (or it failed); report and release it.
    Every failed point is logged once, as it fails, with its error; the experiment's exception
    (``failed``) counts and names them all."""
    if show:
        time.sleep(0.2)  # the point's last progress events are still on their way
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
    if not res["ok"]:
        log(f"{members[0][0].id}: point FAILED: {res['error']}")
        for e, p, _ in members:
            prev = failed.get(e.id)
            if isinstance(prev, PointsFailed):
                prev.add(res["error"], p)
            elif prev is None:
                failed[e.id] = PointsFailed(e.id, [res["error"]], [p])
    bar.step(index=rank, wall=res.get("wall"))


# --------------------------------------------------------------------------------------------
# Analysis output


def write_csv(path: Path, rows: list[dict]) -> None:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    import io

    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols)
    w.writeheader()
    for r in rows:
        w.writerow(r)
    atomic_write_text(path, buf.getvalue())


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
    from .sensitivity import attach

    sens = attach(exp, out)  # bands and drivers of a sensitivity run of the same build
    if sens is not None:
        metrics["sensitivity"] = sens
    _atomic_write_json(edir / "metrics.json", metrics)
    summary = {"title": exp.title, "notes": analysis.notes,
               "figures": [f.name + ".png" for f in analysis.figures]}
    _atomic_write_json(edir / "summary.json", summary)
    if plots:
        from .plot import render

        for fig in analysis.figures:
            render(fig, edir)
    return metrics

