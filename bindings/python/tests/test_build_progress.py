"""A long build or setup step is never silent: ./testbed passes ninja's output through
build_progress, which keeps the whole log and prints, every TESTBED_PROGRESS_EVERY seconds (30 by
default), the steps done ([n/N]), the time so far and the rest estimated from the pace so far;
heartbeat does the same for a step without steps (pip, cmake's configure). And the Release
build's `all` holds what a user runs, not the test suites (./testbed test builds those)."""

import os
import re
import shutil
import subprocess

import pytest

from testbed import ROOT

FUNCS = ("say", "elapsed", "heartbeat", "build_progress")


def _functions():
    text = (ROOT / "testbed").read_text()
    out = []
    for name in FUNCS:
        m = re.search(rf"^{name}\(\) \{{\n.*?^\}}\n", text, re.S | re.M) or \
            re.search(rf"^{name}\(\) \{{.*?\}}\n", text, re.M)
        assert m, f"./testbed has no function {name}"
        out.append(m.group(0))
    return "\n".join(out)


def _bash(script, tmp_path):
    env = {**os.environ, "TESTBED_PROGRESS_EVERY": "1"}
    return subprocess.run(["bash", "-c", "set -euo pipefail\n" + _functions() + script],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


def test_build_progress_prints_steps_and_estimate(tmp_path):
    # A stand-in for ninja: 3 compilations of 0.1 s, then 3 links of 2 s (LINKS = 3).
    r = _bash("""
{ for i in 1 2 3; do sleep 0.1; echo "[$i/6] Building CXX object f$i.o"; done
  for i in 4 5 6; do sleep 2; echo "[$i/6] Linking CXX executable p$i"; done; } |
    build_progress build.log 3
""", tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "build.log").read_text().count("CXX") == 6
    # (a line before the first link has finished says the links are not timed yet: below)
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("testbed: build: [")
             and "not timed yet" not in ln]
    assert lines, r.stderr
    for ln in lines:
        m = re.match(r"testbed: build: \[(\d)/6\] (\d+) s so far; about (\d+) s to go "
                     r"\((\d) links left\)", ln)
        assert m, ln
        n, t, rest, left = map(int, m.groups())
        assert left == 6 - n  # only links are left after the third step
        # each link has taken (at least) 2 s: the rest is at least about 2 s a link, not the
        # mean pace of all the steps so far (which the fast compilations pull down: at [4/6]
        # after about 2.3 s, that pace would say about 1 s for the last two links)
        assert rest >= 2 * left - 1, ln
    assert "build: done in" in r.stderr


def test_build_progress_says_when_links_are_not_timed_yet(tmp_path):
    r = _bash("""
{ for i in 1 2 3; do sleep 0.6; echo "[$i/5] Building CXX object f$i.o"; done; sleep 0.6; } |
    build_progress build.log 2
""", tmp_path)
    assert re.search(r"\[\d/5\] \d+ s so far; about \d+ s of compiling to go, then 2 links "
                     r"\(not timed yet\)", r.stderr), r.stderr


def test_build_progress_keeps_the_builds_status(tmp_path):
    r = _bash("if (echo '[1/2] x'; exit 3) | build_progress b.log; then echo ok; "
              "else echo failed; fi", tmp_path)
    assert r.stdout.strip() == "failed"


def test_heartbeat_says_a_long_step_goes_on(tmp_path):
    r = _bash("heartbeat 'pip install' sleep 2.5; echo rc=$?", tmp_path)
    assert "rc=0" in r.stdout
    assert re.search(r"testbed: pip install: \d s so far", r.stderr), r.stderr
    r = _bash("if heartbeat x false; then echo ok; else echo failed; fi", tmp_path)
    assert r.stdout.strip() == "failed"


@pytest.mark.skipif(shutil.which("ninja") is None, reason="no ninja")
def test_release_all_leaves_the_test_runner_to_the_tests(tmp_path):
    py = ROOT / ".venv" / "bin" / "python"
    r = subprocess.run(["cmake", "-S", str(ROOT), "-B", str(tmp_path), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={py}"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    q = subprocess.run(["ninja", "-C", str(tmp_path), "-t", "query", "all"],
                       capture_output=True, text=True, check=True).stdout
    # `all` of the top folder: the library and the folders of programs, no test runner.
    assert "lib/libtestbed.so" in q and "examples/all" in q, q
    assert "testbed-test-runner" not in q, q
    t = subprocess.run(["ninja", "-C", str(tmp_path), "-t", "targets", "all"],
                       capture_output=True, text=True, check=True).stdout
    assert "testbed-test-runner" in t  # still a target: ./testbed test builds it


def test_heartbeat_stops_its_command_on_interrupt(tmp_path):
    import signal
    import time

    script = "set -euo pipefail\n" + _functions() + \
        "heartbeat long bash -c 'echo $$ > child.pid; exec sleep 300'\n"
    p = subprocess.Popen(["bash", "-c", script], cwd=tmp_path, stderr=subprocess.PIPE)
    pidfile = tmp_path / "child.pid"
    for _ in range(100):
        if pidfile.exists() and pidfile.read_text().strip():
            break
        time.sleep(0.05)
    child = int(pidfile.read_text())
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=10) == 130
    for _ in range(100):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the command went on after ^C")
