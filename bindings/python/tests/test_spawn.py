"""A program started by the campaign's runner dies with the process that started it
(ProgramOptions::Parse arms Linux's PR_SET_PDEATHSIG when TESTBED_PARENT_PID names its parent):
a worker killed in the middle of a point leaves no program running. Without the variable the
program outlives its parent (the mechanism is the variable, not the process group); with a pid
that is not its parent's (the parent died before the signal was armed) it stops at once."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from testbed.runner import PARENT_PID_VARIABLE

PROGRAM = Path(EXAMPLES_DIR) / "ntt-stream"
#: A run of many simulated minutes under load (about 17 s of CPU here): it is still running
#: when the test has killed its parent and watched for 2 s.
LONG_RUN = [str(PROGRAM), "--setup=ring", "--packets=100000", "--loadPps=2000",
            "--maxTime=86400s", "--output=/dev/null"]

pytestmark = [pytest.mark.skipif(not PROGRAM.exists(), reason="programs not built"),
              pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended


def _wait_dead(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _parent(with_variable: bool) -> tuple[subprocess.Popen, int]:
    """A parent process that starts the program as the runner does and prints its pid."""
    script = (
        "import os, subprocess, sys, time\n"
        f"env = dict(os.environ)\n"
        f"if {with_variable!r}: env[{PARENT_PID_VARIABLE!r}] = str(os.getpid())\n"
        f"p = subprocess.Popen({LONG_RUN!r}, start_new_session=True, env=env,\n"
        "                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(p.pid, flush=True)\n"
        "time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    return parent, int(parent.stdout.readline())


@pytest.mark.parametrize("with_variable", [True, False])
def test_the_program_dies_with_the_runner_that_started_it(with_variable):
    parent, child = _parent(with_variable)
    try:
        time.sleep(1.0)  # past the program's start-up: it is simulating
        assert _alive(child)
        parent.kill()
        parent.wait()
        assert _wait_dead(child, 2.0) is with_variable
    finally:
        parent.kill()
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def test_a_parent_already_gone_stops_the_program_at_once():
    env = {**os.environ, PARENT_PID_VARIABLE: "1"}  # not its parent: as if the runner had died
    p = subprocess.run(LONG_RUN, env=env, capture_output=True, timeout=60)
    assert p.returncode == -signal.SIGKILL
