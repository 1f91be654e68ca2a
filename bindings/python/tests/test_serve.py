"""A point run through its program's server (ProgramOptions::Serve: the program started once
with --serve forks a child per point) writes the record a new process writes, byte for byte:
the child is the program as it is before it parses its options. A failing point gives its exit
status and message, a point past its timeout is killed and the server goes on, a server whose
binaries changed is started again, and a served child dies with its server."""

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from testbed import EXAMPLES_DIR
from testbed import runner
from testbed.runner import _run_new_process, _run_served, command_line

pytestmark = pytest.mark.skipif(not (Path(EXAMPLES_DIR) / "ntt-stream").exists(),
                                reason="programs not built")

#: Short points of programs whose runs draw random numbers, build hosts from profiles and
#: run the lean simulator: what a child could inherit from its server, if anything.
POINTS = [
    ("ntt-stream", {"setup": "router", "tcp": True, "loadPps": 2000.0, "maxTime": "5s",
                    "RngRun": 3}),
    ("gine-timer", {"RngRun": 2}),
    ("tno-jitter", {"RngRun": 4}),
    ("jaxa-benchmark", {"RngRun": 1}),
    ("tno-schedulers", {"RngRun": 5}),
]


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended


def _exe(program):
    return str(Path(EXAMPLES_DIR) / program)


@pytest.fixture
def servers():
    """A clean set of this thread's servers, closed after the test."""
    yield
    for server in list(getattr(runner._SERVERS, "by_exe", {}).values()):
        server.close()
    runner._SERVERS.by_exe = {}


@pytest.mark.parametrize("program,params", POINTS, ids=[p for p, _ in POINTS])
def test_a_served_point_writes_the_record_of_a_new_process(tmp_path, servers, program, params):
    new, served = tmp_path / "new.json", tmp_path / "served.json"
    code, out, err, cpu, timed_out = _run_new_process(
        program, command_line(_exe(program), params, new), None, False)
    assert code == 0 and not timed_out, err[-500:]
    # twice through one server: the second child comes from a server that already forked one
    for _ in range(2):
        got = _run_served(_exe(program), command_line(_exe(program), params, served)[1:], None,
                          tmp_path / "log", 300)
        assert got is not None and got[0] == 0 and not got[2], (tmp_path / "log").read_text()
        assert served.read_bytes() == new.read_bytes()
        assert got[1] > 0  # the child's CPU seconds, from the kernel


def test_a_failing_point_gives_its_status_and_message(tmp_path, servers):
    log = tmp_path / "log"
    got = _run_served(_exe("ntt-stream"), ["--loadPps=-3", "--output=-"], None, log, 60)
    assert got is not None and got[0] == 2, got
    assert "--loadPps=-3" in log.read_text()


def test_a_point_past_its_timeout_is_killed_and_the_server_goes_on(tmp_path, servers):
    exe = _exe("ntt-stream")
    long_run = ["--setup=ring", "--packets=100000", "--loadPps=2000", "--maxTime=86400s",
                "--output=/dev/null"]
    t0 = time.monotonic()
    code, _, timed_out = _run_served(exe, long_run, None, tmp_path / "log", 1.0)
    assert timed_out and code == -signal.SIGKILL and time.monotonic() - t0 < 10
    out = tmp_path / "next.json"
    got = _run_served(exe, ["--maxTime=2s", f"--output={out}"], None, tmp_path / "log", 60)
    assert got is not None and got[0] == 0 and json.loads(out.read_text())


def test_a_server_is_started_again_when_its_binaries_change(tmp_path, servers):
    exe = _exe("gine-timer")
    out = tmp_path / "r.json"
    _run_served(exe, [f"--output={out}"], [(exe, 1, 1)], tmp_path / "log", 60)
    first = runner._SERVERS.by_exe[exe].proc
    _run_served(exe, [f"--output={out}"], [(exe, 1, 2)], tmp_path / "log", 60)
    assert runner._SERVERS.by_exe[exe].proc is not first
    assert first.poll() is not None  # the old server ended with its input


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_a_served_child_dies_with_its_server(tmp_path, servers):
    exe = _exe("ntt-stream")
    server = runner._Server(exe, ())
    server.proc.stdin.write(f"{tmp_path / 'log'}\t--setup=ring\t--packets=100000\t"
                            "--loadPps=2000\t--maxTime=86400s\t--output=/dev/null\n")
    server.proc.stdin.flush()
    child = int(server.proc.stdout.readline())
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait()
    end = time.monotonic() + 10
    while time.monotonic() < end and _alive(child):
        time.sleep(0.05)
    assert not _alive(child), "the child outlived its server"
    server.close()


def test_an_argument_the_protocol_cannot_carry_runs_as_a_new_process(tmp_path, servers):
    assert _run_served(_exe("gine-timer"), ["--profileFile=a\tb"], None, tmp_path / "l", 60) \
        is None
