#!/usr/bin/env python3
"""The result cache of ``./testbed test``: a stage is not run again when everything that can change
its result is byte for byte what it was when it last PASSED.

A stage is one of ``ctest-release``, ``ctest-debug``, ``fuzz-<target>`` and ``pytest:<test file>``
(pytest is keyed per test file). Its key is a SHA-256 over

- the contents of the checkout's files (tracked, and untracked but not ignored: ``git ls-files
  -co --exclude-standard``) that can feed the stage: the C++ stages leave out bindings/, doc/,
  bench/, tools/, validation/, scratch/, .ci/ and the top-level *.md (no C++ test reads them);
  ``ctest-*`` also fuzz/ and ``fuzz-<target>`` the other targets' sources and saved inputs; a
  pytest file leaves out only the OTHER test_*.py files (conftest.py and the helper modules stay);
- the built files of the build folder it runs from (build/ for ctest-release and pytest, plus
  build-logs/ when it exists; build-debug/ for ctest-debug and the fuzzers): every file but
  CMakeFiles/, Testing/, fuzz-work/, the logs, ninja's own state and install_manifest.txt (the
  list of the last `cmake --install`, whose prefix test_scratch.py picks anew each run) (for ctest-debug not the
  fuzzers, for a fuzzer not the other fuzzers);
- the tools: Python's version, the venv's packages and versions (what ``pip freeze`` lists), the
  Debian packages ``./testbed setup`` installs with their versions (compilers, gnuplot, tshark,
  ...), cmake's version, the kernel release, the number of cores;
- the environment variables that can change a result: ``NS_*``, ``TESTBED_*`` (but the cache's
  own ``TESTBED_TEST_RUN`` and ``TESTBED_TEST_OUTCOMES``), ``ASAN_*``, ``UBSAN_*``, ``PYTHON*``, ``LD_*``, ``PATH``, ``LANG``,
  ``LC_*``, ``TZ``;
- what the stage runs (its command words, e.g. the fuzzing seconds).

Only a passing run's key is stored (build/test-cache/records.json, with the run that passed: its
UTC start and ``git describe --dirty``); a failing run removes the stage's record, so it runs again
however often the same inputs come back. ``./testbed test --no-cache`` (and CI=1, and a fresh clone,
which has no build/ yet) runs every stage. Subcommands (for ./testbed; see cmd_test there)::

    testcache.py key STAGE [WORDS...]     print the stage's key (exit 3: no git checkout)
    testcache.py reuse STAGE KEY          exit 0 and say so loudly when KEY passed last time
    testcache.py passed STAGE KEY         record a pass
    testcache.py failed STAGE             forget the stage
    testcache.py pytest [--no-cache] -- ARGS...   pytest ARGS on the test files whose key did not
                                          pass last time; records each file that passed

It is also the pytest plugin (``-p testcache``) that writes each test file's outcome.
"""

import functools
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(os.environ.get("TESTBED_ROOT") or Path(__file__).resolve().parents[1])
TESTS = "bindings/python/tests/"

#: Folders and files of the checkout that no C++ test suite or fuzz target reads or is built from.
CPP_NOT_INPUTS = ("bindings/", "doc/", "bench/", "tools/", "validation/", "scratch/", ".ci/")
#: Build-folder entries that are not build outputs (or change on every build).
BUILD_NOT_OUTPUTS = re.compile(r"(^|/)(CMakeFiles|Testing|fuzz-work|test-cache)(/|$)|"
                               r"(^|/)\.ninja_(log|deps)$|\.log$|(^|/)install_manifest\.txt$")
#: The environment variables that can change a result.
ENV_KEYS = re.compile(r"^(NS_.*|TESTBED_.*|ASAN_.*|UBSAN_.*|PYTHON.*|LD_.*|PATH|LANG|LC_.*|TZ)$")
#: The Debian packages of ./testbed's APT_PACKAGES whose versions go into every key.
APT = ["g++", "make", "cmake", "ninja-build", "pkg-config", "git", "gnuplot-nox", "tshark",
       "iproute2", "libtcmalloc-minimal4", "clang-14", "libclang-rt-14-dev"]


def say(msg: str) -> None:
    print(f"testbed: {msg}", file=sys.stderr, flush=True)


def build_dir(kind: str) -> Path:
    """The build folder of ./testbed (the same environment variables, the same defaults)."""
    env, default = {"release": ("TESTBED_BUILD_DIR", "build"),
                    "debug": ("TESTBED_DEBUG_BUILD_DIR", "build-debug"),
                    "logs": ("TESTBED_LOGS_BUILD_DIR", "build-logs")}[kind]
    return Path(os.environ.get(env) or ROOT / default)


def records_file() -> Path:
    return build_dir("release") / "test-cache" / "records.json"


def tree_files() -> list:
    """The checkout's files: tracked, and untracked but not ignored (relative paths, sorted)."""
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "-c", "-o",
                          "--exclude-standard"], capture_output=True, check=True).stdout
    return sorted({p for p in out.decode().split("\0") if p})


def file_digest(path: Path) -> str:
    """The contents' SHA-256 (a symbolic link: its target's name; a missing file: "missing")."""
    if path.is_symlink():
        return "link:" + os.readlink(path)
    if not path.is_file():
        return "missing"
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def tree_digest(files, root: Path = None, digests: dict = None) -> str:
    """The digest of FILES (relative to ROOT); DIGESTS: file digests already computed."""
    root = ROOT if root is None else root
    h = hashlib.sha256()
    for rel in files:
        d = digests.get(rel) if digests is not None else None
        h.update(f"{rel}\0{d or file_digest(root / rel)}\n".encode())
    return h.hexdigest()


def build_digest(folder: Path, skip=lambda rel: False) -> str:
    """The build folder's outputs (every file but BUILD_NOT_OUTPUTS and those `skip` names)."""
    if not folder.is_dir():
        return "absent"
    rels = []
    for dirpath, dirnames, filenames in os.walk(folder):
        reldir = os.path.relpath(dirpath, folder)
        reldir = "" if reldir == "." else reldir + "/"
        dirnames[:] = [d for d in dirnames if not BUILD_NOT_OUTPUTS.search(reldir + d)]
        rels += [reldir + f for f in filenames
                 if not BUILD_NOT_OUTPUTS.search(reldir + f) and not f.endswith(".o")
                 and not skip(reldir + f)]
    return tree_digest(sorted(rels), folder)


@functools.lru_cache(maxsize=None)
def tools_digest() -> str:
    """Python, the venv's packages, the Debian packages, cmake, the kernel, the cores."""
    from importlib import metadata

    parts = [sys.version, os.path.realpath(sys.executable), platform.release(),
             str(os.cpu_count())]
    parts += sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    dpkg = subprocess.run(["dpkg-query", "-W", "-f", "${Package}=${Version}\n"] + APT,
                          capture_output=True, text=True)
    parts.append(dpkg.stdout)
    try:
        parts.append(subprocess.run(["cmake", "--version"], capture_output=True,
                                    text=True).stdout)
    except OSError:
        parts.append("no cmake")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def env_digest() -> str:
    items = sorted((k, v) for k, v in os.environ.items()
                   if ENV_KEYS.match(k) and not k.startswith("TESTBED_TEST_"))
    return hashlib.sha256(repr(items).encode()).hexdigest()


def cpp_inputs(files, stage: str) -> list:
    """The checkout files a C++ stage depends on."""
    keep = [f for f in files if not f.startswith(CPP_NOT_INPUTS)
            and not (("/" not in f) and f.endswith(".md"))]
    if stage.startswith("ctest-"):
        return [f for f in keep if not f.startswith(("fuzz/", "test/data/fuzz/"))]
    target = stage[len("fuzz-"):]
    own = (f"fuzz/fuzz-{target}.cc", f"test/data/fuzz/{target}/")

    def one_target(f):  # a fuzz target's own source or saved inputs
        return f.startswith("fuzz/fuzz-") and f.endswith(".cc") or f.startswith("test/data/fuzz/")

    return [f for f in keep if not one_target(f) or f.startswith(own)]


def stage_key(stage: str, words=(), files=None, common=None) -> str:
    """The key of STAGE (see the module's text); WORDS: what the stage runs."""
    files = tree_files() if files is None else files
    common = common or (tools_digest() + env_digest())
    if stage == "ctest-release":
        inputs, builds = cpp_inputs(files, stage), [build_digest(build_dir("release"))]
    elif stage == "ctest-debug":
        inputs = cpp_inputs(files, stage)
        builds = [build_digest(build_dir("debug"), lambda r: r.startswith("fuzz/"))]
    elif stage.startswith("fuzz-"):
        inputs = cpp_inputs(files, stage)
        own = f"fuzz/{stage}"
        builds = [build_digest(build_dir("debug"),
                               lambda r: r.startswith("fuzz/fuzz-") and r != own)]
    elif stage.startswith("pytest:"):
        test = stage[len("pytest:"):]
        inputs = [f for f in files if not (f.startswith(TESTS + "test_") and f != test)]
        builds = [built_for_pytest()]
    else:
        raise SystemExit(f"testcache: unknown stage {stage!r}")
    h = hashlib.sha256()
    for part in [stage, repr(list(words)), common, tree_digest(inputs)] + builds:
        h.update(part.encode() + b"\n")
    return h.hexdigest()


def built_for_pytest() -> str:
    return build_digest(build_dir("release")) + build_digest(build_dir("logs"))


def load_records() -> dict:
    try:
        return json.loads(records_file().read_text())
    except (OSError, ValueError):
        return {}


def save_records(records: dict) -> None:
    path = records_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(records, indent=1, sort_keys=True))
    tmp.replace(path)


def this_run() -> str:
    return os.environ.get("TESTBED_TEST_RUN") or "an unnamed run"


def reused(stage: str, key: str, records=None) -> str:
    """The run whose pass STAGE reuses with KEY, or "" when it must run."""
    rec = (load_records() if records is None else records).get(stage)
    return rec["run"] if rec and rec.get("key") == key else ""


def record(stage: str, key, records=None) -> dict:
    """Store KEY as STAGE's last pass (KEY None: forget the stage)."""
    records = load_records() if records is None else records
    if key is None:
        records.pop(stage, None)
    else:
        records[stage] = {"key": key, "run": this_run()}
    return records


# The pytest plugin (-p testcache): each test file's outcome (True: something failed), by absolute
# path, written by the controlling process (with pytest-xdist the workers' reports reach it).
_outcomes = {}
_rootpath = Path.cwd()


def pytest_configure(config):
    global _rootpath
    _rootpath = Path(config.rootpath)


def _test_file(nodeid: str) -> str:
    return str((_rootpath / nodeid.split("::")[0]).resolve())


def pytest_runtest_logreport(report):
    path = _test_file(report.nodeid)
    _outcomes[path] = _outcomes.get(path, False) or report.failed


def pytest_collectreport(report):
    if report.failed:
        _outcomes[_test_file(report.nodeid)] = True


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get("TESTBED_TEST_OUTCOMES")
    if target and not hasattr(session.config, "workerinput"):
        Path(target).write_text(json.dumps(_outcomes))


def file_keys_for_pytest(args, files=None) -> dict:
    """Each test file's stage_key("pytest:FILE", ARGS), every checkout file hashed once.

    (Not named pytest_*: this module is also a pytest plugin, which takes such names for hooks.)
    """
    files = tree_files() if files is None else files
    tests = [f for f in files if f.startswith(TESTS) and re.match(r"test_.*\.py$", Path(f).name)
             and (ROOT / f).is_file()]
    common = tools_digest() + env_digest()
    builds = built_for_pytest()
    digests = {f: file_digest(ROOT / f) for f in files}
    keys = {}
    for t in tests:
        inputs = [f for f in files if not (f.startswith(TESTS + "test_") and f != t)]
        h = hashlib.sha256()
        for part in ["pytest:" + t, repr(list(args)), common, tree_digest(inputs, None, digests),
                     builds]:
            h.update(part.encode() + b"\n")
        keys[t] = h.hexdigest()
    return keys


def run_pytest(args, use_cache: bool) -> int:
    """pytest ARGS on the stale test files; records the files that passed."""
    keys = file_keys_for_pytest(args)
    tests = list(keys)
    records = load_records()
    run, reuse = [], {}
    for t in tests:
        was = reused("pytest:" + t, keys[t], records) if use_cache else ""
        (reuse.setdefault(was, []).append(t) if was else run.append(t))
    summary = records_file().parent / "pytest-reused"
    summary.parent.mkdir(parents=True, exist_ok=True)
    n_reused = len(tests) - len(run)
    summary.write_text(f"pytest: {n_reused} of {len(tests)} test files" if n_reused else "")
    for was, ts in reuse.items():
        say(f"REUSED, not run: {len(ts)} pytest file(s) whose inputs passed in run {was}: "
            + " ".join(Path(t).name for t in ts))
    if not run:
        say("pytest: every test file REUSED (./testbed test --no-cache runs them)")
        return 0
    outcomes_file = records_file().parent / "pytest-outcomes.json"
    outcomes_file.parent.mkdir(parents=True, exist_ok=True)
    outcomes_file.unlink(missing_ok=True)
    env = dict(os.environ, TESTBED_TEST_OUTCOMES=str(outcomes_file),
               PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                        os.environ.get("PYTHONPATH")])))
    if reuse:
        say(f"pytest: running {len(run)} of {len(tests)} test files")
    rc = subprocess.run([sys.executable, "-m", "pytest", "-p", "testcache"] + list(args) + run,
                        cwd=ROOT, env=env).returncode
    try:
        outcomes = json.loads(outcomes_file.read_text())
    except (OSError, ValueError):
        outcomes = {}
    records = load_records()
    for t in run:
        path = str((ROOT / t).resolve())
        ok = rc in (0, 1) and path in outcomes and not outcomes[path]
        record("pytest:" + t, keys[t] if ok else None, records)
    save_records(records)
    return rc


def main(argv) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "key":
        try:
            files = tree_files()
        except (OSError, subprocess.CalledProcessError):
            return 3
        print(stage_key(rest[0], rest[1:], files))
        return 0
    if cmd == "reuse":
        stage, key = rest
        was = reused(stage, key)
        if was:
            say(f"REUSED, not run: {stage}: the same inputs passed in run {was} "
                "(./testbed test --no-cache runs it)")
            return 0
        return 1
    if cmd == "passed":
        save_records(record(rest[0], rest[1]))
        return 0
    if cmd == "failed":
        save_records(record(rest[0], None))
        return 0
    if cmd == "pytest":
        use_cache = True
        if rest and rest[0] == "--no-cache":
            use_cache, rest = False, rest[1:]
        if rest and rest[0] == "--":
            rest = rest[1:]
        try:
            tree_files()
        except (OSError, subprocess.CalledProcessError):
            say("pytest: not a git checkout: no result cache")
            return subprocess.run([sys.executable, "-m", "pytest"] + rest + [TESTS],
                                  cwd=ROOT).returncode
        return run_pytest(rest, use_cache)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
