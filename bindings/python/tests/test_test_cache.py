"""The result cache of `./testbed test` (tools/testcache.py), on a small checkout
of its own: a change to one file re-runs the stages that file feeds and no other; a failing run is
never reused; the environment, the tools and the built files are part of every key."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TOOL = ROOT / "tools" / "testcache.py"
spec = importlib.util.spec_from_file_location("testcache_under_test", TOOL)
testcache = importlib.util.module_from_spec(spec)
spec.loader.exec_module(testcache)

STAGES = ["ctest-release", "ctest-debug", "fuzz-rti", "fuzz-igmp",
          "pytest:bindings/python/tests/test_a.py", "pytest:bindings/python/tests/test_b.py"]
PASSING = "def test_one():\n    assert 1 + 1 == 2\n"
FAILING = "def test_one():\n    assert 1 + 1 == 3\n"


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A git checkout with the module's layout and its three build folders."""
    files = {
        ".gitignore": "/build/\n/build-*/\n__pycache__/\n.pytest_cache/\n",
        "testbed": "#!/bin/sh\n", "README.md": "readme\n", "CMakeLists.txt": "project(x)\n",
        "model/host/cpu.cc": "int cpu;\n", "test/cpu-test-suite.cc": "int t;\n",
        "test/data/fuzz/rti/crash-1": "x", "fuzz/fuzz-common.h": "//\n",
        "fuzz/fuzz-rti.cc": "int r;\n", "fuzz/fuzz-igmp.cc": "int i;\n",
        "doc/host.rst": "Host\n====\n", "validation/x.csv": "a,b\n1,2\n",
        "bindings/python/testbed/plot.py": "X = 1\n",
        "bindings/python/tests/conftest.py": "", "bindings/python/tests/helpers.py": "",
        "bindings/python/tests/test_a.py": PASSING, "bindings/python/tests/test_b.py": PASSING,
        "build/lib/libtestbed.so": "lib", "build/examples/jaxa-table1": "prog",
        "build/CMakeFiles/x.dir/cpu.cc.o": "obj", "build/build.log": "log",
        "build-debug/lib/libtestbed.so": "dlib", "build-debug/fuzz/fuzz-rti": "fr",
        "build-debug/fuzz/fuzz-igmp": "fi", "build-debug/fuzz-work/corpus/rti/1": "c",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True)
    env = {"TESTBED_ROOT": str(tmp_path), "TESTBED_BUILD_DIR": str(tmp_path / "build"),
           "TESTBED_DEBUG_BUILD_DIR": str(tmp_path / "build-debug"),
           "TESTBED_LOGS_BUILD_DIR": str(tmp_path / "build-logs")}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("NS_LOG", raising=False)
    monkeypatch.setattr(testcache, "ROOT", tmp_path)
    return tmp_path


def keys():
    return {s: testcache.stage_key(s, ["10"] if s.startswith("fuzz-") else []) for s in STAGES}


def changed_by(checkout, rel, text="changed\n"):
    before = keys()
    path = checkout / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    after = keys()
    return sorted(s for s in STAGES if before[s] != after[s])


ALL = sorted(STAGES)
PYTEST = sorted(s for s in STAGES if s.startswith("pytest:"))


@pytest.mark.parametrize("rel, stages", [
    ("model/host/cpu.cc", ALL),                                  # the module: every stage
    ("testbed", ALL),
    ("test/cpu-test-suite.cc", ALL),
    ("bindings/python/tests/test_a.py", ["pytest:bindings/python/tests/test_a.py"]),
    ("bindings/python/tests/conftest.py", PYTEST),
    ("bindings/python/tests/helpers.py", PYTEST),
    ("bindings/python/testbed/plot.py", PYTEST),
    ("doc/host.rst", PYTEST),
    ("validation/x.csv", PYTEST),
    ("README.md", PYTEST),
    ("fuzz/fuzz-rti.cc", ["fuzz-rti"] + PYTEST),
    ("test/data/fuzz/rti/crash-2", ["fuzz-rti"] + PYTEST),       # untracked, not ignored
    ("fuzz/fuzz-common.h", ["fuzz-igmp", "fuzz-rti"] + PYTEST),
    # built files
    ("build/lib/libtestbed.so", ["ctest-release"] + PYTEST),
    ("build/examples/jaxa-table1", ["ctest-release"] + PYTEST),
    ("build-logs/examples/jaxa-table1", PYTEST),
    ("build-debug/lib/libtestbed.so", ["ctest-debug", "fuzz-igmp", "fuzz-rti"]),
    ("build-debug/fuzz/fuzz-igmp", ["fuzz-igmp"]),
    # not inputs: ignored files, objects, logs, the fuzzers' working folder
    ("build/CMakeFiles/x.dir/cpu.cc.o", []),
    ("build/build.log", []),
    ("build/install_manifest.txt", []),  # cmake --install's list (a new prefix each time)
    ("build-debug/fuzz-work/corpus/rti/2", []),
    ("bindings/python/tests/__pycache__/x.pyc", []),
])
def test_a_file_reruns_the_stages_it_feeds(checkout, rel, stages):
    assert changed_by(checkout, rel) == sorted(stages)


def test_environment_and_words_are_in_the_key(checkout, monkeypatch):
    before = keys()
    monkeypatch.setenv("NS_LOG", "RtiLrc=level_all")
    assert all(before[s] != v for s, v in keys().items())
    monkeypatch.delenv("NS_LOG")
    monkeypatch.setenv("TESTBED_TEST_RUN", "another run")  # the run's name is not an input
    assert keys() == before
    assert testcache.stage_key("fuzz-rti", ["10"]) != testcache.stage_key("fuzz-rti", ["60"])
    monkeypatch.setattr(testcache, "tools_digest", lambda: "another compiler")
    assert all(before[s] != v for s, v in keys().items())


def cli(checkout, *args, env=None):
    run_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, str(TOOL)] + list(args), cwd=checkout,
                          capture_output=True, text=True, env=run_env)


def test_only_a_pass_is_reused(checkout):
    key = cli(checkout, "key", "ctest-release").stdout.strip()
    assert len(key) == 64
    assert cli(checkout, "reuse", "ctest-release", key).returncode == 1  # nothing recorded yet
    cli(checkout, "passed", "ctest-release", key, env={"TESTBED_TEST_RUN": "run-1"})
    again = cli(checkout, "reuse", "ctest-release", key)
    assert again.returncode == 0
    assert "REUSED" in again.stderr and "run-1" in again.stderr and "--no-cache" in again.stderr
    # a failing run with the same inputs (a flaky test) forgets the pass
    cli(checkout, "failed", "ctest-release")
    assert cli(checkout, "reuse", "ctest-release", key).returncode == 1
    # another key never matches
    cli(checkout, "passed", "ctest-release", key)
    assert cli(checkout, "reuse", "ctest-release", "0" * 64).returncode == 1


def pytest_run(checkout, no_cache=False):
    """testcache.py pytest on the small checkout; the test files that ran (pytest's -rA lines)."""
    r = cli(checkout, "pytest", *(["--no-cache"] if no_cache else []), "--", "-q", "-rA",
            "-p", "no:cacheprovider", env={"TESTBED_TEST_RUN": "run-x"})
    ran = sorted({Path(line.split("::")[0].split()[-1]).name for line in r.stdout.splitlines()
                  if line.startswith(("PASSED ", "FAILED "))})
    return r, ran


def test_pytest_files_rerun_when_they_or_their_inputs_change_or_failed(checkout):
    tests = checkout / "bindings/python/tests"
    (tests / "test_b.py").write_text(FAILING)
    r, ran = pytest_run(checkout, no_cache=True)
    assert r.returncode == 1 and ran == ["test_a.py", "test_b.py"]
    recorded = json.loads((checkout / "build/test-cache/records.json").read_text())
    assert list(recorded) == ["pytest:bindings/python/tests/test_a.py"]  # the failure is not
    # second run: test_a reused (said loudly), test_b runs again and fails again
    r, ran = pytest_run(checkout)
    assert r.returncode == 1 and ran == ["test_b.py"]
    assert "REUSED, not run: 1 pytest file(s)" in r.stderr and "run-x: test_a.py" in r.stderr
    # fixed: runs once, then both are reused
    (tests / "test_b.py").write_text(PASSING)
    r, ran = pytest_run(checkout)
    assert r.returncode == 0 and ran == ["test_b.py"]
    r, ran = pytest_run(checkout)
    assert r.returncode == 0 and ran == [] and "every test file REUSED" in r.stderr
    assert (checkout / "build/test-cache/pytest-reused").read_text() == "pytest: 2 of 2 test files"
    # a change to a file both read (conftest.py) runs both; --no-cache runs both
    (tests / "conftest.py").write_text("# changed\n")
    r, ran = pytest_run(checkout)
    assert ran == ["test_a.py", "test_b.py"]
    r, ran = pytest_run(checkout, no_cache=True)
    assert ran == ["test_a.py", "test_b.py"] and "REUSED" not in r.stderr


def test_pytest_file_keys_are_stage_keys_with_each_file_hashed_once(checkout, monkeypatch):
    """run_pytest's keys (every checkout file hashed once for all test files) are stage_key's
    (which hashes a test file's inputs on its own), and no file is read twice."""
    expected = {s[len("pytest:"):]: testcache.stage_key(s, ["-q"])
                for s in STAGES if s.startswith("pytest:")}
    reads = []
    digest = testcache.file_digest
    monkeypatch.setattr(testcache, "file_digest", lambda p: reads.append(p) or digest(p))
    got = testcache.file_keys_for_pytest(["-q"])
    assert got == expected
    checkout_reads = [p for p in reads if str(p).startswith(str(checkout / "bindings"))
                      or not str(p).startswith(str(checkout / "build"))]
    assert len(checkout_reads) == len(set(checkout_reads)) == len(testcache.tree_files())


def test_testbed_test_refuses_an_unknown_option():
    r = subprocess.run([str(ROOT / "testbed"), "test", "--bogus"], capture_output=True, text=True)
    assert r.returncode == 2 and "--no-cache" in r.stderr
