"""The experiment programs refuse, with exit 2 and one line naming the problem, what they cannot
run: --check and the run agree (a sweep's pre-check passes only points that run), nothing ends in
an abort (exit 134) or waits for ever, and a run that lasts says so. Each test is one
reproduction that failed before its fix."""

import json
import os
import subprocess
import time

import pytest

from testbed import EXAMPLES_DIR


def _prog(name):
    exe = EXAMPLES_DIR / name
    if not exe.exists():
        pytest.skip("programs not built")
    return str(exe)


def _run(args, timeout=60, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def _refused(r, *words):
    """Exit 2, one line on stderr that names the problem (each of ``words``); no abort, no help
    text."""
    assert r.returncode == 2, (r.returncode, r.stderr[-800:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr[-800:]
    assert lines[0].startswith("error: "), lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])


def _both(program, *args, words=(), timeout=60):
    """Refused alike with --check and without (the run stops in its option checks)."""
    for extra in (["--check"], []):
        r = _run([_prog(program), *args, *extra], timeout=timeout)
        _refused(r, *words)


# --- a time beyond what ns-3's Time holds -------------------------------------------------

def test_time_beyond_int64x64_is_refused_not_aborted(tmp_path):
    """ns-3's Time parser overflows int64x64 and asserts on 1e30 s (exit 134), also under
    --check: the checkers asked it before any range check."""
    _both("jaxa-benchmark", "--ns3::HostCpu::IdleExitLatency=1e30s",
          words=("IdleExitLatency", "1e30s", "Time"))
    _both("jaxa-benchmark", "--ns3::HostCpu::IdleEntryTime=1e30s", words=("1e30s",))
    _both("jaxa-benchmark", "--ns3::HostPlatform::Cpu=ns3::HostCpu[IdleEntryTime=1e30s]",
          words=("1e30s",))
    _both("jaxa-benchmark", "--hostSet=HostNic.InterruptDelay=1e30s",
          words=("--hostSet", "1e30s"))
    prof = tmp_path / "p.txt"
    prof.write_text("[host p1]\nbase = pc2006-linux26\nHostNic.InterruptDelay = 1e30s\n")
    _both("jaxa-benchmark", f"--profileFile={prof}", "--hostProfile=p1", words=("1e30s",))


# --- --check accepts only what the run runs ------------------------------------------------

def test_interrupt_core_beyond_the_cores_is_refused_by_check(tmp_path):
    """HostCpu stopped the run (NS_ABORT, exit 134) over InterruptCore >= Cores; --check
    accepted it."""
    _both("jaxa-benchmark", "--ns3::HostCpu::InterruptCore=99", "--exchanges=1", "--reps=1",
          words=("InterruptCore 99 >= Cores",))
    # Within the profile's cores it runs (pc2006-linux26: one core, number 0).
    r = _run([_prog("jaxa-benchmark"), "--ns3::HostCpu::InterruptCore=0", "--check"])
    assert r.returncode == 0, r.stderr[-500:]


@pytest.mark.parametrize("value,words", [
    ("ns3::NoSuch", ("SimulatorImplementationType", "ns3::NoSuch", "ns3::LeanSimulatorImpl")),
    ("ns3::RealtimeSimulatorImpl", ("wall-clock",)),
    ("ns3::HostCpu", ("not a simulator implementation",)),
])
def test_simulator_implementation_is_checked(value, words):
    """An unknown implementation aborted the run after --check passed; the real-time one ran a
    simulated second in a second."""
    _both("ethernet-saturation", f"--SimulatorImplementationType={value}", "--seconds=1ms",
          words=words)


def test_scheduler_type_is_checked_in_one_line():
    """--SchedulerType=ns3::NoSuch exited 1 with ns-3's whole help text."""
    _both("ethernet-saturation", "--SchedulerType=ns3::NoSuch", "--seconds=1ms",
          words=("SchedulerType", "ns3::MapScheduler"))
    for ok in ("ns3::MapScheduler", "ns3::HeapScheduler"):
        r = _run([_prog("ethernet-saturation"), f"--SchedulerType={ok}", "--check"])
        assert r.returncode == 0, r.stderr[-500:]
    r = _run([_prog("ethernet-saturation"), "--SimulatorImplementationType=ns3::DefaultSimulatorImpl",
              "--check"])
    assert r.returncode == 0, r.stderr[-500:]


# --- pcap and sheets ------------------------------------------------------------------------

def test_pcap_prefix_where_no_file_can_be_created():
    """/proc is a folder root may 'write' by access(), but no file can be created there: ns-3's
    pcap writer stopped the run (NS_FATAL_ERROR, exit 134)."""
    if not os.path.isdir("/proc"):
        pytest.skip("no /proc")
    _both("jaxa-table2", "--pcap=/proc/x", "--count=1", words=("--pcap=/proc/x", "/proc"))


def test_sheet_that_is_a_fifo_is_refused_at_once(tmp_path):
    """Opening a FIFO waits for a writer: --sheet=<FIFO> --check blocked for ever."""
    fifo = tmp_path / "sheet.fifo"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    _both("tno-schedulers", f"--sheet={fifo}", words=("--sheet", "not a file"), timeout=30)
    assert time.monotonic() - t0 < 30


def test_sheet_with_more_actions_than_the_limit(tmp_path):
    """200 000 actions passed --check (each action is events in every frame of the run)."""
    big = tmp_path / "big.rci"
    big.write_text("frame 100ms\n" + "".join(f"sync a{i} {i % 100000}us\n"
                                             for i in range(200000)))
    _both("tno-schedulers", f"--sheet={big}", words=("--sheet", "longer than 1048576 bytes"))
    over = tmp_path / "over.rci"
    over.write_text("frame 100ms\n" + "".join(f"sync a{i} {i}us\n" for i in range(1001)))
    _both("tno-schedulers", f"--sheet={over}", words=(f"{over}:1002: more than 1000 actions",))
    small = tmp_path / "small.rci"
    small.write_text("frame 100ms\n" + "".join(f"sync a{i} {i}us\n" for i in range(1000)))
    r = _run([_prog("tno-schedulers"), f"--sheet={small}", "--check"])
    assert r.returncode == 0, r.stderr[-500:]


def test_sheet_and_profile_with_a_byte_order_mark_are_read(tmp_path):
    """A leading UTF-8 BOM (Windows editors) showed as an invisible character in 'unknown
    statement' / 'expected [KIND NAME]'."""
    sheet = tmp_path / "bom.rci"
    sheet.write_bytes(b"\xef\xbb\xbfframe 100ms\nupdate inputs 0ms\n")
    r = _run([_prog("tno-schedulers"), f"--sheet={sheet}", "--check"])
    assert r.returncode == 0, r.stderr[-500:]
    prof = tmp_path / "bom.txt"
    prof.write_bytes(b"\xef\xbb\xbf[host p1]\nbase = pc2006-linux26\n")
    r = _run([_prog("jaxa-benchmark"), f"--profileFile={prof}", "--hostProfile=p1", "--check"])
    assert r.returncode == 0, r.stderr[-500:]


def test_profile_defined_twice_is_refused_with_its_lines(tmp_path):
    prof = tmp_path / "twice.txt"
    prof.write_text("[host p1]\nbase = pc2006-linux26\n\n[host p1]\nbase = pc2006-linux26\n")
    _both("jaxa-benchmark", f"--profileFile={prof}", "--hostProfile=p1",
          words=(f"{prof}:4:", "[host p1] is defined twice (first at line 1)"))


# --- the benchmark over a long delay --------------------------------------------------------

def _bench(tmp_path, *args, timeout=60, env=None):
    out = tmp_path / "r.json"
    r = _run([_prog("jaxa-benchmark"), *args, f"--output={out}"], timeout=timeout, env=env)
    assert r.returncode == 0, r.stderr[-800:]
    return r, json.loads(out.read_text())


#: NIST Net's 8192 Hz clock: a delayed packet leaves on its first tick after the delay.
RTC_TICK_MS = 1000.0 / 8192


@pytest.mark.parametrize("delay_ms", [320, 350, 1000])
def test_one_exchange_over_a_long_delay_costs_two_crossings(tmp_path, delay_ms):
    """The master registered "ready" at a fixed 1 s; from 350 ms of delay on the sender's join
    (TCP handshake and JOIN: three crossings) completed later, the federation synchronized
    without it and the receiver waited for a grant until the 1e6 s guard (149 s of CPU,
    finished_reps 0). The operator now starts the benchmark once every program has joined.
    One synchronised exchange, on the receiver's clock from "ready" to its grant: the sender
    learns of "ready" one crossing later, its update and request cross back: two crossings more
    than at zero delay, plus at most one NIST Net clock tick per crossing."""
    common = ["--exchanges=1", "--reps=1"]
    _, zero = _bench(tmp_path, "--delay=0ms", *common)
    t0 = time.monotonic()
    _, rec = _bench(tmp_path, f"--delay={delay_ms}ms", *common)
    assert time.monotonic() - t0 < 30
    assert rec["finished_reps"] == 1 and rec["lost"] == 0
    extra = rec["time_per_exchange_ms"] - zero["time_per_exchange_ms"]
    assert 2 * delay_ms <= extra <= 2 * delay_ms + 2 * RTC_TICK_MS + 1e-6, extra


def test_a_long_run_says_that_it_is_still_running(tmp_path):
    """A run gave no sign of life for minutes: past the watch's period (30 s; 1 s here) it says
    on stderr that it runs and how far it is; the record is the same as without the watch."""
    env = dict(os.environ, TESTBED_WATCH_SECONDS="1")
    args = ["--exchanges=20000", "--reps=1", "--delay=1ms"]
    t0 = time.monotonic()
    r, watched = _bench(tmp_path, *args, env=env, timeout=300)
    wall = time.monotonic() - t0
    if wall < 3:
        pytest.skip(f"the run took {wall:.1f} s, too short to see the watch")
    lines = [x for x in r.stderr.splitlines() if "still running" in x]
    assert lines, r.stderr[-800:]
    assert lines[0].startswith("jaxa-benchmark: still running after ")
    assert "repetition 1 of 1" in lines[-1]
    _, plain = _bench(tmp_path, *args, timeout=300)
    assert watched == plain


def test_the_benchmark_record_holds_no_host_measurement(tmp_path):
    """wall_seconds (the host's wall clock) was a result field: a sweep's data.csv differed
    between --jobs 1 and 2. The campaign keeps its own wall time beside the record (wall_s)."""
    r = _run([_prog("jaxa-benchmark"), "--describe"])
    assert r.returncode == 0
    fields = {f["name"] for f in json.loads(r.stdout)["fields"]}
    assert "wall_seconds" not in fields
    _, a = _bench(tmp_path, "--exchanges=20", "--reps=2")
    _, b = _bench(tmp_path, "--exchanges=20", "--reps=2")
    assert a == b


def test_flags_and_globals_ns3_would_refuse_with_its_help():
    """ns-3's CommandLine printed its whole help and exited 1 over a flag or global value it
    could not read (--check=maybe, --ChecksumEnabled=maybe)."""
    _both("ethernet-saturation", "--check=maybe", words=("--check=maybe", "not a bool"))
    _both("ethernet-saturation", "--ChecksumEnabled=maybe", "--seconds=1ms",
          words=("--ChecksumEnabled=maybe", "ChecksumEnabled"))
    r = _run([_prog("ethernet-saturation"), "--ChecksumEnabled=true", "--check=true"])
    assert r.returncode == 0, r.stderr[-500:]
