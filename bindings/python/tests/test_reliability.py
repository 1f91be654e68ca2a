"""What a user types cannot overwrite a file outside --out, run code, abort in range or hang.
Each test gives one such input and checks that it is refused with one line or handled."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import testbed.build
import testbed.cluster
import testbed.outputs
import testbed.points
import testbed.progress
import testbed.records
import testbed.runner
from testbed import EXAMPLES_DIR
from testbed.runner import command_line

ROOT = Path(__file__).resolve().parents[3]


def _prog(name):
    exe = EXAMPLES_DIR / name
    if not exe.exists():
        pytest.skip("programs not built")
    return str(exe)


def _run(args, timeout=60, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def _one_error_line(r):
    """Bad input: exit 2 and one clear line, no traceback, no abort."""
    assert r.returncode == 2, (r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr and "aborted" not in r.stderr.lower(), r.stderr[-500:]
    assert r.stderr.strip(), "no message"


# --- item 1: string options are read verbatim (--output with a blank) ----------------------

def test_output_with_blank_writes_that_file(tmp_path):
    """CommandLine read --output with >>, which stops at the first blank: "x/my results/r.json"
    wrote (and overwrote) x/my."""
    (tmp_path / "my").write_text("DATA\n")
    out = tmp_path / "my results" / "r.json"
    out.parent.mkdir()
    r = _run([_prog("ethernet-saturation"), "--seconds=1ms", f"--output={out}"])
    assert r.returncode == 0, r.stderr[-500:]
    assert (tmp_path / "my").read_text() == "DATA\n", "a file outside the output was overwritten"
    assert out.exists() and out.read_text().lstrip().startswith("{")


# --- item 2: no text reaches gnuplot unescaped --------------------------------------------

def test_gnuplot_script_text_cannot_run_commands(tmp_path):
    """A figure's title, labels, series titles and output folder with '"', a backquote and a
    newline: no command runs, the PNG is drawn."""
    import shutil

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    from testbed.experiment import Figure, Series
    from testbed.plot import render

    pwned = tmp_path / "PWNED"
    evil = f'i";system("touch {pwned}");set output "x'
    outdir = tmp_path / 'out";system("touch PWNED2");set output "x'
    fig = Figure(name="f", title=evil + "`touch " + str(pwned) + "`", xlabel="x\nsystem('ls')",
                 ylabel="y\\", series=[Series(title=evil, x=[1, 2], y=[1, 4])])
    png = render(fig, outdir)
    assert png.exists()
    assert not pwned.exists() and not (outdir / "PWNED2").exists()
    assert not list(tmp_path.rglob("PWNED*"))


def test_sweep_out_with_quote_plots_safely(tmp_path):
    """The issue's reproduction: --out with '";system(...)' and --plot."""
    import shutil

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    _prog("ethernet-saturation")
    out = tmp_path / 'i";system("touch${IFS}PWNED");set output "x'
    r = _run([str(ROOT / "testbed"), "sweep", "ethernet-saturation", "--param",
              "stations=2,3", "--param", "seconds=1ms", "--plot", "efficiency",
              "--x", "stations", "--jobs", "1", "--no-progress", "--out", str(out)],
             timeout=600, cwd=tmp_path)
    assert not list(tmp_path.rglob("PWNED")), "gnuplot ran a command"
    assert r.returncode == 0, r.stderr[-800:]


# --- item 4: mcast-bridge-diff checks its arguments before truncating --out --------------

@pytest.mark.parametrize("bad", ["--groups=10.0.0.1", "--groups=", "--actions=1:join:99:239.1.1.1",
                                 "--actions=nonsense"])
def test_mcast_bridge_diff_keeps_out_on_bad_arguments(tmp_path, bad):
    out = tmp_path / "diff.csv"
    out.write_text("previous,good\n")
    r = _run([_prog("mcast-bridge-diff"), f"--out={out}", bad])
    _one_error_line(r)
    assert out.read_text() == "previous,good\n", "--out truncated before the check"


# --- item 10: exact lower bounds (the reproductions) ------------------------------

@pytest.mark.parametrize("program,option", [("ntt-stream", "--interval=100us"),
                                            ("ntt-stream", "--ttrt=4ms"),
                                            ("ethernet-saturation", "--seconds=1ms")])
def test_exact_lower_bound_accepted(program, option):
    r = _run([_prog(program), option, "--check"])
    assert r.returncode == 0, r.stderr[-300:]


# --- item 12: --check builds and checks everything the run would --------------------------

CHECK_REFUSED = [
    # cross-option rules
    ("gine-timer", ["--minUs=100", "--maxUs=50"]),
    ("mega-flooding", ["--loadLead=10", "--warmup=1"]),
    ("ntt-stream", ["--setup=hub", "--randomRate=5"]),
    # --hostSet: an injected attribute, values the attribute refuses
    ("gine-timer", ["--hostSet=ContextSwitchCost=4000|Frequency=1"]),
    ("gine-timer", ["--hostSet=HostPlatform.Cpu.Frequency=0"]),
    ("gine-timer", ["--hostSet=HostPlatform.Cpu.Cores=0"]),
    ("mega-flooding", ["--hostSet=HostPlatform.Cpu.Cores=0"]),
    ("jaxa-table2", ["--hostSet=HostPlatform.Cpu.Frequency=0"]),
    ("tno-jitter", ["--hostSet=HostPlatform.Cpu.Cores=0"]),
    # --rtiSet
    ("tno-pipeline", ["--rtiSet=NoSuchAttribute=1"]),
    ("tno-pipeline", ["--rtiSet=CallCost=-5"]),
    # an enum attribute's unknown name (ns-3's EnumChecker asserts on it)
    ("tno-pipeline", ["--rtiSet=GaltMode=NoSuchMode"]),
    # --sheet: a directory is no sheet
    ("tno-schedulers", ["--sheet=/"]),
]


@pytest.mark.parametrize("program,args", CHECK_REFUSED)
def test_check_refuses_what_the_run_refuses(program, args):
    r = _run([_prog(program), *args, "--check"])
    _one_error_line(r)


def test_profile_file_values_and_directory_checked(tmp_path):
    prof = tmp_path / "p.txt"
    prof.write_text("[host zero-ghz]\nHostPlatform.Cpu = ns3::HostCpu[Frequency=0|Cores=1]\n")
    r = _run([_prog("gine-timer"), f"--profileFile={prof}", "--hostProfile=zero-ghz", "--check"])
    _one_error_line(r)
    assert "Frequency" in r.stderr
    r = _run([_prog("gine-timer"), f"--profileFile={tmp_path}", "--check"])
    _one_error_line(r)


@pytest.mark.parametrize("frame", ["9300000000s", "1ns", "7200s"])
def test_schedule_sheet_frame_limits(tmp_path, frame):
    sheet = tmp_path / "s.rci"
    sheet.write_text(f"frame {frame}\nupdate x 0ns\n")
    r = _run([_prog("tno-schedulers"), f"--sheet={sheet}", "--check"])
    _one_error_line(r)
    assert "frame" in r.stderr


# --- item 18: leftovers --------------------------------------------------------------------

def test_suites_leave_no_temporary_folders(tmp_path):
    """The emulated-testbed suite's pcap test left an ns-3.* folder in the temp dir each run."""
    runner = ROOT / "build" / "bin" / "testbed-test-runner"
    if not runner.exists():
        pytest.skip("test runner not built")
    env = dict(os.environ, TMPDIR=str(tmp_path), TMP=str(tmp_path), TEMP=str(tmp_path))
    r = _run([str(runner), "--suite=testbed-emulated-testbed"], timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
    assert list(tmp_path.iterdir()) == [], list(tmp_path.iterdir())


@pytest.mark.parametrize("check", [["--check"], []])
def test_unwritable_pcap_prefix_exits_2(tmp_path, check):
    """An --pcap prefix in a missing or read-only folder aborted (exit 134) when the first
    pcap file was opened."""
    r = _run([_prog("jaxa-table2"), "--count=2", f"--pcap={tmp_path}/missing/x",
              "--output=/dev/null", *check])
    _one_error_line(r)
    assert "--pcap" in r.stderr


# --- item 11: in-range values that aborted ------------------------------------------------

@pytest.mark.parametrize("program,args", [
    ("mega-querier", ["--onTime=1000"]),
    ("mega-multiplex", ["--settle=0.01"]),
])
def test_in_range_values_that_aborted_are_refused_or_run(program, args):
    """Either the declared range excludes the value (exit 2 at --check), or the run handles it;
    never exit 134."""
    r = _run([_prog(program), *args, "--check"])
    if r.returncode == 0:
        r = _run([_prog(program), *args, "--output=/dev/null"], timeout=900)
        assert r.returncode == 0, r.stderr[-500:]
    else:
        _one_error_line(r)


# --- item 14: budgets ----------------------------------------------------------------------

def test_event_budget_refuses_runaway_run():
    """tno-pipeline --frequency=100000 --duration=3600 grew ~80 MB/s without end."""
    r = _run([_prog("tno-pipeline"), "--frequency=100000", "--duration=3600", "--check"])
    _one_error_line(r)
    assert "--maxEvents" in r.stderr
    r = _run([_prog("tno-pipeline"), "--frequency=100000", "--duration=3600", "--maxEvents=1e15",
              "--check"])
    assert r.returncode == 0, r.stderr[-300:]


def test_memory_budget_stops_the_run():
    """Beyond --maxMemory the run stops with one line and exit 2 (not the kernel's OOM kill).
    The watch serves programs without a memory estimate: tno-pipeline for 600 s passes 16 MiB
    (the libraries alone) at once. (mega-scale at its maximums, the first example, is now
    refused before it starts: test_mega06_estimates_refuse_over_limit_points.)"""
    r = _run([_prog("tno-pipeline"), "--duration=600", "--maxMemory=16", "--output=/dev/null"],
             timeout=300)
    _one_error_line(r)
    assert "--maxMemory" in r.stderr and "the run uses" in r.stderr, r.stderr[-300:]


def _estimated_events(program, args):
    """The program's up-front event estimate for these options (its --maxEvents message)."""
    import re

    r = _run([_prog(program), *args, "--check", "--maxEvents=1"])
    _one_error_line(r)
    m = re.search(r"about ([0-9.e+]+) simulator events", r.stderr)
    assert m, r.stderr
    return float(m.group(1))


def test_mega06_estimates_refuse_over_limit_points():
    """Item 14: mega-scale at its maximums (256 PCs x 100 000 nodes for an hour) grew to 5.6 GB
    in 60 s and ran for days; only the memory watch stopped it, after it had grown. Every
    MEGA06 program now estimates its events and memory from its options: --check and the run
    refuse such a point before it starts, in one line, exit 2; raising the budget passes."""
    big = ["--senderPcs=256", "--nodesPerPc=100000", "--duration=3600"]
    for extra in (["--check"], ["--output=/dev/null"]):
        r = _run([_prog("mega-scale"), *big, *extra], timeout=60)
        _one_error_line(r)
        assert "--maxEvents" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    r = _run([_prog("mega-scale"), *big, "--maxEvents=1e15", "--maxMemory=4096", "--check"])
    _one_error_line(r)
    assert "--maxMemory=4096" in r.stderr and "MiB" in r.stderr, r.stderr
    r = _run([_prog("mega-scale"), *big, "--maxEvents=1e15", "--maxMemory=65536", "--check"])
    assert r.returncode == 0, r.stderr[-300:]
    for program, args in (("mega-flooding", ["--loadPps=1e7", "--duration=3600"]),
                          ("mega-querier", ["--loadPps=1e7", "--igmpTimeScale=1",
                                            "--durationGmi=20"]),
                          ("mega-multiplex", ["--nodes=100000", "--duration=3600"])):
        r = _run([_prog(program), *args, "--check"])
        _one_error_line(r)
        assert "--maxEvents" in r.stderr, (program, r.stderr)


@pytest.mark.parametrize("program,args", [
    ("mega-scale", ["--senderPcs=2", "--sendersPerGroup=1", "--receivers=2",
                    "--nodesPerPc=1000", "--duration=1"]),
    ("mega-scale", ["--senderPcs=1", "--sendersPerGroup=0", "--receivers=1",
                    "--nodesPerPc=1000", "--duration=1", "--ns3::SendUdp::Interval=100ms"]),
    ("mega-flooding", ["--nodesPerPc=1000", "--loadPps=1e5", "--duration=0.5",
                       "--loadLead=0.25", "--snooping=false"]),
    ("mega-querier", ["--nodesPerPc=1000", "--loadPps=1e5", "--querierItr=0",
                      "--igmpTimeScale=0.02", "--durationGmi=1.25", "--receivers=2"]),
    ("mega-multiplex", ["--nodes=1000", "--duration=3", "--maxLaunch=2", "--seriesLength=10"]),
])
def test_mega06_event_estimate_bounds_a_measured_run(tmp_path, program, args):
    """The estimate is conservative and not far off: a small run's real event count (its
    record's `events`) is at most the estimate, and the estimate at most 10 times it."""
    estimate = _estimated_events(program, args)
    out = tmp_path / "r.json"
    r = _run([_prog(program), *args, f"--output={out}"], timeout=600)
    assert r.returncode == 0, r.stderr[-500:]
    real = json.loads(out.read_text())["events"]
    assert real <= estimate <= 10 * real, (program, args, real, estimate)


def test_mega06_paper_points_within_the_default_budgets():
    """The estimates refuse no point of the paper grids at the default --maxEvents (1e9) and a
    --maxMemory of 4 GiB (every point, checked as the campaign runs it)."""
    from testbed.experiment import get

    for exp_id in ("mega-flooding", "mega-querier", "mega-multiplex", "mega-receiver",
                   "mega-scale", "mega-cat6009"):
        exp = get(exp_id)
        lines = ["\t".join(command_line("x", p, "/dev/null")[1:-1] + ["--maxMemory=4096"])
                 for p in exp.points("paper")]
        r = subprocess.run([_prog(exp.program), "--checkBatch"], input="\n".join(lines) + "\n",
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and set(r.stdout.split("\n")) <= {"0", ""}, \
            (exp_id, r.stdout[-800:], r.stderr[-300:])


# --- item 17: validate --measured input ----------------------------------------------------

def _validate_error(tmp_path, content: bytes):
    from testbed.sweeps import SweepError, validate

    f = tmp_path / "m.csv"
    f.write_bytes(content)
    with pytest.raises(SweepError) as e:
        validate("ethernet-saturation", f, out=tmp_path / "out")
    return str(e.value)


def test_measured_binary_input(tmp_path):
    _prog("ethernet-saturation")
    assert "UTF-8" in _validate_error(tmp_path, b"\xff\xfe\x00\x01stations\x00,x\n\x80\x81\n")


def test_measured_nul_bytes(tmp_path):
    _prog("ethernet-saturation")
    assert "CSV" in _validate_error(tmp_path, b"stations,efficiency\n2\x00,5\n")


def test_measured_overlong_field(tmp_path):
    _prog("ethernet-saturation")
    msg = _validate_error(tmp_path, b"stations,efficiency\n2,\"" + b"9" * 200000 + b"\"\n")
    assert "CSV" in msg


def test_measured_duplicate_columns(tmp_path):
    _prog("ethernet-saturation")
    msg = _validate_error(tmp_path, b"stations,efficiency,efficiency\n2,5,6\n")
    assert "twice" in msg


def test_measured_all_cells_empty(tmp_path):
    _prog("ethernet-saturation")
    msg = _validate_error(tmp_path, b"stations,efficiency\n2,\n3,\n")
    assert "no measured value" in msg


def test_measured_bom_is_not_part_of_the_name(tmp_path, monkeypatch):
    _prog("ethernet-saturation")
    from testbed import sweeps

    f = tmp_path / "m.csv"
    f.write_bytes("\ufeffstations,efficiency\n2,5\n".encode("utf-8"))
    cols, rows, _ = sweeps._read_measured(f)
    assert cols == ["stations", "efficiency"] and rows == [{"stations": "2",
                                                                 "efficiency": "5"}]


def test_measured_many_rows_in_linear_time(tmp_path, monkeypatch):
    """10^5 distinct rows: grouping the points and the runs must not be O(N^2) (hours at 10^6).
    The runs themselves are replaced by a stub that echoes the points."""
    import time

    _prog("ethernet-saturation")
    from testbed import sweeps

    n = 100000
    f = tmp_path / "m.csv"
    f.write_text("cable,efficiency\n" + "".join(f"{i * 1e-4!r},5\n" for i in range(n)))
    monkeypatch.setattr(sweeps, "check_values", lambda *a, **k: None)
    monkeypatch.setattr(sweeps, "_plot_validation", lambda *a, **k: None)
    monkeypatch.setattr(sweeps, "run_points", lambda program, points, reps, out, *a, **k: [
        {**p, "RngRun": 1, "efficiency": 5.0} for p in points])
    t0 = time.monotonic()
    table = sweeps.validate("ethernet-saturation", f, out=tmp_path / "out", frame=False,
                            max_points=n)  # (the default limit is 10 000 rows)
    assert len(table) == n
    assert time.monotonic() - t0 < 60


# --- campaign integrity (items 3, 5, 6, 8, 9) ---------------------------------------------

def _square_program(tmp_path, monkeypatch, kill_at=None, describe=False):
    """A stand-in program: y = x*x; logs each call; with kill_at, the run of that x kills its
    worker (its parent) once, after the earlier points are finished."""
    import stat

    from testbed import campaign

    bindir = tmp_path / "examples"
    bindir.mkdir(exist_ok=True)
    log = tmp_path / "calls.log"
    prog = bindir / "square"
    prog.write_text(f"""#!/usr/bin/env python3
import json, os, signal, sys
if sys.argv[1:] == ["--describe"]:
    print(json.dumps({{"program": "square", "options": [], "fields": [
        {{"name": "y", "type": "real", "help": "x*x", "always": True}},
        {{"name": "note", "type": "string", "help": "sometimes", "always": False}}]}}))
    sys.exit(0 if {describe!r} else 3)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(log)!r}, "a").write(args["x"] + "\\n")
flag = {str(tmp_path / "killed")!r}
if {kill_at!r} is not None and args["x"] == str({kill_at!r}) and not os.path.exists(flag):
    open(flag, "w").close()
    os.kill(os.getppid(), signal.SIGKILL)
json.dump({{"y": float(args["x"]) ** 2}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    getattr(campaign, "_FIELDS", {}).clear()
    return log


def _square_exp(n=3):
    from testbed.experiment import Analysis, Experiment

    return Experiment(id="sq", study="TEST", title="squares", program="square",
                      points=lambda scale: [{"x": i} for i in range(n)],
                      analyse=lambda records: Analysis(rows=[], metrics={}))


def test_derived_file_kept_when_its_write_fails(tmp_path):
    """data.csv (write_csv) was truncated when a write failed (prlimit --fsize)."""
    path = tmp_path / "data.csv"
    path.write_text("x,y\n1,1\n")
    code = f"""
import resource, signal, sys
sys.path.insert(0, {str(ROOT / 'bindings' / 'python')!r})
from testbed.outputs import write_csv
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
try:
    write_csv(__import__('pathlib').Path({str(path)!r}), [{{"x": i, "y": i * i}} for i in range(10000)])
except OSError:
    sys.exit(7)
"""
    r = _run([sys.executable, "-c", code])
    assert r.returncode == 7, r.stderr[-500:]
    assert path.read_text() == "x,y\n1,1\n"
    assert [p.name for p in tmp_path.iterdir()] == ["data.csv"], "a temporary was left"


def test_killed_worker_does_not_recompute_finished_points(tmp_path, monkeypatch):
    """The campaign kept the finished futures: when the worker that held their results died,
    the scheduler computed them again."""
    from testbed import campaign

    # Worker processes, as the command line has them (a campaign started from pytest gets
    # thread workers, and a killed thread worker would be pytest itself).
    monkeypatch.setattr(testbed.cluster, "_worker_processes_are_safe", lambda: True)
    log = _square_program(tmp_path, monkeypatch, kill_at=3)
    res = campaign.run_campaign([_square_exp(4)], "quick", 1, tmp_path / "out",
                                log=lambda m: None, progress=False)
    assert not isinstance(res["sq"], Exception), res["sq"]
    calls = log.read_text().split()
    assert sorted(set(calls)) == ["0", "1", "2", "3"]
    assert [calls.count(x) for x in "012"] == [1, 1, 1], calls


def test_second_campaign_into_the_same_out_is_refused(tmp_path, monkeypatch):
    from testbed import campaign

    _square_program(tmp_path, monkeypatch)
    out = tmp_path / "out"
    fd = testbed.outputs.lock_folder(out / "sq")  # a first campaign, running
    stale = out / "sq" / "points" / ".out-inflight.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("")
    try:
        with pytest.raises(campaign.CampaignError, match="another campaign"):
            campaign.run_campaign([_square_exp()], "quick", 1, out, log=lambda m: None,
                                  progress=False)
        assert stale.exists(), "the first campaign's temporary was deleted"
    finally:
        os.close(fd)
    res = campaign.run_campaign([_square_exp()], "quick", 1, out, log=lambda m: None,
                                progress=False)
    assert not isinstance(res["sq"], Exception)


@pytest.mark.parametrize("content", ["[1, 2]", '{"params": {"x": 1}}',
                                     '{"params": {"x": 1}, "program": "square", '
                                     '"result": {"y": "one"}}',
                                     '{"params": {"x": 1}, "program": "square", '
                                     '"result": {"z": 1.0}}',
                                     # valid fields, but without y, which square always sets
                                     '{"params": {"x": 1}, "program": "square", '
                                     '"result": {"note": "n"}}',
                                     "FIFO"])
def test_bad_stored_record_is_computed_again(tmp_path, monkeypatch, content):
    from testbed import campaign

    log = _square_program(tmp_path, monkeypatch, describe=True)
    out = tmp_path / "out"
    rec = out / "sq" / "points" / f"{testbed.records.point_key({'x': 1})}.json"
    rec.parent.mkdir(parents=True)
    if content == "FIFO":
        os.mkfifo(rec)
    else:
        rec.write_text(content)
    said = []
    res = campaign.run_campaign([_square_exp()], "quick", 1, out, log=said.append,
                                progress=False)
    assert not isinstance(res["sq"], Exception), res["sq"]
    assert [r.result["y"] for r in res["sq"]] == [0.0, 1.0, 4.0]
    assert "1" in log.read_text().split()
    assert any(rec.name in m and "again" in m for m in said), said


def test_programs_declare_which_fields_they_always_set(tmp_path):
    """Item 8: --describe said only a field's type, so a stored record without a field its
    program always writes could not be refused. Every field now says "always"; a field the
    code writes only in some runs is false (mega-scale's rss_mb only with --rssEvery, tno-
    pipeline's latencies only when a message arrived), and a real record holds every always-set
    field (ResultRecord::Write refuses one without)."""
    described = {}
    for name in ("mega-scale", "tno-pipeline", "jaxa-table2", "ethernet-saturation"):
        d = json.loads(_run([_prog(name), "--describe"]).stdout)
        described[name] = {f["name"]: f.get("always") for f in d["fields"]}
        assert all(isinstance(a, bool) for a in described[name].values()), (name, described)
    assert described["mega-scale"]["events"] is True
    assert described["mega-scale"]["rss_mb"] is False
    assert described["tno-pipeline"]["latency_mean_us"] is False
    assert described["tno-pipeline"]["lost"] is True
    assert described["jaxa-table2"]["rtt_mean_ms"] is False
    out = tmp_path / "r.json"
    r = _run([_prog("ethernet-saturation"), "--stations=2", "--seconds=1ms",
              f"--output={out}"], timeout=120)
    assert r.returncode == 0, r.stderr[-500:]
    record = json.loads(out.read_text())
    always = {k for k, a in described["ethernet-saturation"].items() if a}
    assert always and always <= set(record), always - set(record)


def test_out_that_is_a_file_is_one_line_exit_2(tmp_path):
    _prog("ethernet-saturation")
    f = tmp_path / "afile"
    f.write_text("keep\n")
    for args in (["run", "jaxa-table2"],
                 ["sweep", "ethernet-saturation", "--param", "stations=2", "--param",
                  "seconds=1ms"]):
        r = _run([str(ROOT / "testbed"), *args, "--out", str(f), "--no-progress"], timeout=300)
        assert r.returncode == 2, (r.returncode, r.stdout[-500:], r.stderr[-500:])
        assert "Traceback" not in r.stdout + r.stderr, r.stdout[-800:] + r.stderr[-800:]
        assert f.read_text() == "keep\n"


# --- items 7, 15, 16, 18: cluster, grids, sweep arguments -----------------------------------

def test_external_cluster_without_workers_says_so(tmp_path, monkeypatch):
    """A campaign on a scheduler without workers waited silently for ever."""
    from distributed import LocalCluster

    from testbed import campaign

    _square_program(tmp_path, monkeypatch)
    monkeypatch.setattr(testbed.cluster, "WORKER_WAIT_S", 3.0)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with pytest.raises(campaign.CampaignError, match="no workers"):
            campaign.run_campaign([_square_exp()], "quick", 1, tmp_path / "out",
                                  log=lambda m: None, scheduler=cluster.scheduler_address,
                                  progress=False)


def test_jobs_capped_at_the_number_of_points(tmp_path, monkeypatch):
    from testbed import campaign

    _square_program(tmp_path, monkeypatch)
    seen = []
    real = testbed.cluster.Cluster

    class Recording(real):
        def __init__(self, jobs, scheduler):
            seen.append(jobs)
            super().__init__(jobs, scheduler)

    monkeypatch.setattr(testbed.cluster, "Cluster", Recording)
    res = campaign.run_campaign([_square_exp(2)], "quick", 16, tmp_path / "out",
                                log=lambda m: None, progress=False)
    assert not isinstance(res["sq"], Exception)
    assert seen == [2]


def test_no_port_8787_warning(tmp_path, monkeypatch, capfd):
    """Every concurrent campaign warned "Port 8787 is already in use"."""
    import socket

    from testbed import campaign

    _square_program(tmp_path, monkeypatch)
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("", 8787))
            s.listen()
        except OSError:
            pass  # someone else has it: the case itself
        campaign.run_campaign([_square_exp(1)], "quick", 1, tmp_path / "out",
                              log=lambda m: None, progress=False)
    finally:
        s.close()
    out, err = capfd.readouterr()
    assert "8787" not in out + err


def test_grid_size_is_limited_before_any_check():
    """Four 100-value lists were 10^8 points (MemoryError at 3.8 GB)."""
    import time

    _prog("ethernet-saturation")
    from testbed.sweeps import SweepError, expand_grid

    t0 = time.monotonic()
    grid = {"stations": "2:101:1", "payload": "46:145:1", "cable": "0:99:1",
            "seconds": "2ms:101ms:1ms"}
    with pytest.raises(SweepError, match="max-points"):
        expand_grid("ethernet-saturation", grid)
    assert time.monotonic() - t0 < 30


def test_check_batch_answers_each_set(tmp_path):
    """--checkBatch: one set of options a line (tab-separated), each checked as --check does in
    a forked child; one answer a line, in order; a set can neither run (--check=false) nor
    describe itself, and a set's error does not leak into the next one."""
    out = tmp_path / "ran.json"
    sets = ["--seconds=1ms\t--cable=100",
            "--seconds=1000s",
            "--nosuch=1",
            f"--check=false\t--output={out}",
            "--describe",
            "--cable=0"]
    r = _run([_prog("ethernet-saturation"), "--checkBatch"], input="\n".join(sets) + "\n")
    answers = r.stdout.splitlines()
    assert len(answers) == len(sets), r.stdout + r.stderr
    assert answers[0] == "0" and answers[4] == "0" and answers[5] == "0", answers
    assert answers[1].startswith("2 ") and "--seconds=1000s" in answers[1], answers[1]
    assert answers[2].startswith("2 ") and "nosuch" in answers[2], answers[2]
    assert r.returncode == 2
    assert not out.exists(), "a set of --checkBatch ran the program"
    r = _run([_prog("ethernet-saturation"), "--checkBatch", "--cable=1"], input="")
    _one_error_line(r)


def test_check_batch_reads_a_file_once(tmp_path):
    """--checkBatch with its sets in a file (standard input seekable): a child's exit() set the
    shared file offset back to the end of the first line and the parent read the sets again,
    forever. Each set is answered once and the call ends."""
    sets = tmp_path / "sets.txt"
    sets.write_text("".join(f"--cable={c}\n" for c in range(20)))
    with open(sets) as stdin:
        r = _run([_prog("ethernet-saturation"), "--checkBatch"], stdin=stdin, timeout=30)
    assert r.stdout.splitlines() == ["0"] * 20, r.stdout[-300:] + r.stderr[-300:]
    assert r.returncode == 0


def test_sweep_checks_values_in_one_call(monkeypatch):
    """A 2000-value list ran 2000 --check processes one after the other (item 15): now one
    --checkBatch call checks them all, and a bad value is still named."""
    import subprocess as sp

    _prog("ethernet-saturation")
    from testbed import sweeps

    calls = []
    real_run = sp.run

    def counting_run(args, *a, **kw):
        if "--check" in args or "--checkBatch" in args:
            calls.append(args)
        return real_run(args, *a, **kw)

    monkeypatch.setattr(sweeps.subprocess, "run", counting_run)
    values = [f"{i * 0.05:g}" for i in range(2000)]
    sweeps.check_values("ethernet-saturation", {"cable": values})
    assert len(calls) == 1, len(calls)
    calls.clear()
    with pytest.raises(sweeps.SweepError, match="--cable=100.05"):
        sweeps.check_values("ethernet-saturation", {"cable": values + ["100.05"]})
    assert len(calls) == 1, len(calls)


def test_huge_range_bound_is_a_clear_error():
    _prog("ethernet-saturation")
    from testbed.sweeps import SweepError, expand_grid

    for spec in ("1ms:1e400ms:1ms", "1e400ms:1ms:1ms", "log:1e400ms:2s:3", "1ms:2ms:1e400ms"):
        with pytest.raises(SweepError, match="finite"):
            expand_grid("ethernet-saturation", {"seconds": spec})


def test_reps_zero_names_reps(tmp_path):
    r = _run([sys.executable, "-m", "testbed.cli", "sweep", "ethernet-saturation", "--param",
              "stations=2", "--reps", "0", "--out", str(tmp_path / "o")],
             env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")))
    assert r.returncode == 2
    error = r.stderr.strip().splitlines()[-1]
    assert "--reps" in error and "--jobs" not in error, r.stderr


def test_plot_of_a_series_field_refused_before_the_sweep(tmp_path):
    _prog("jaxa-table2")
    out = tmp_path / "o"
    r = _run([sys.executable, "-m", "testbed.cli", "sweep", "jaxa-table2", "--param",
              "count=2,3", "--plot", "rtt_ms", "--x", "count", "--out", str(out),
              "--no-progress"], env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")),
             timeout=300)
    assert r.returncode == 2, r.stdout[-500:] + r.stderr[-500:]
    assert not (out / "jaxa-table2").exists() and not list(out.rglob("*.json")), \
        "the sweep ran before --plot was refused"


def test_relative_pcap_in_a_sweep_stays_inside_out(tmp_path):
    _prog("jaxa-table2")
    out = tmp_path / "o"
    r = _run([sys.executable, "-m", "testbed.cli", "sweep", "jaxa-table2", "--param",
              "count=2", "--param", "pcap=caps/run", "--out", str(out), "--jobs", "1",
              "--no-progress"], env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")),
             timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr[-500:]
    assert list((out / "caps").glob("run-*.pcap")), list(tmp_path.rglob("*.pcap"))
    assert not (tmp_path / "caps").exists()


# --- PCs whose idle ticks never end: refused where the run has no stop time -----------------

IDLE_TICKS = [
    ["--hostSet=HostPlatform.Cpu.IdleInterferenceEvents=true"],
    ["--ns3::HostCpu::IdleInterferenceEvents=true"],
    ["--hostSet=IdleInterferenceEvents=1"],
]


@pytest.mark.parametrize("program", ["jaxa-table1", "jaxa-table2"])
@pytest.mark.parametrize("args", IDLE_TICKS)
def test_idle_ticks_that_never_end_are_refused(program, args):
    """jaxa-table1 and jaxa-table2 have no stop time: their run ends when no event is left. With
    HostCpu IdleInterferenceEvents=true the PCs' kernel ticks (1000 Hz and 100 Hz, never 0) stay
    events while the CPUs are idle, so the run went on for ever without a word (the attribute's
    own documentation says so). Refused with one line, by --check and by the run."""
    for mode in (["--check"], ["--output=/dev/null"]):
        r = _run([_prog(program), *args, *mode], timeout=60)
        _one_error_line(r)
        assert "IdleInterferenceEvents" in r.stderr, r.stderr[-500:]


def test_idle_ticks_without_interference_run():
    """The rule names the cause, not the attribute alone: PCs with IdleInterferenceEvents=true
    but no tick (HostCpu.InterferenceRate=0 on every PC; no shielded core) have no interference
    event, so the run ends by itself and is not refused. A rate of 0 inside the CPU's object
    value is not enough: the profiles' HostCpu.InterferenceRate (1000 and 100 Hz) is set on the
    CPU after it is created and wins, so that run would not end and is refused."""
    idle = "HostPlatform.Cpu.IdleInterferenceEvents=true;"
    r = _run([_prog("jaxa-table2"), "--count=2", "--output=/dev/null",
              f"--hostSet={idle}HostCpu.InterferenceRate=0"], timeout=120)
    assert r.returncode == 0, r.stderr[-500:]
    r = _run([_prog("jaxa-table2"), "--count=2", "--check",
              f"--hostSet={idle}HostPlatform.Cpu.InterferenceRate=0"], timeout=120)
    _one_error_line(r)


# --- items 18 and 7: a terminal's Ctrl-C, a restarted external worker -----------------------

def _records(out):
    """{record path: (inode, mtime_ns)} of every stored point under out."""
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in Path(out).rglob("points/*.json")
            if not p.name.startswith(".")}  # not a point's temporary


def test_terminal_ctrl_c_keeps_finished_points_and_resumes(tmp_path):
    """Item 18: a Ctrl-C in the terminal reaches the whole foreground process group (the
    campaign, the Dask nanny and workers). Simulated as the terminal does it: `./testbed sweep`
    in its own session on a pty, SIGINT to the group once a point is stored. The campaign says
    so in one line and exits 130 (documented in cli.py), with no worker traceback, leaves no
    program running, keeps every finished record; a second run reuses them (same files, not
    rewritten) and computes only the rest."""
    import pty
    import select
    import signal
    import time

    _prog("ethernet-saturation")
    out = tmp_path / "out"
    # 8 points of 2-5 s each on one worker: the ^C comes while points are left.
    cmd = [str(ROOT / "testbed"), "sweep", "ethernet-saturation", "--param",
           "stations=2,3,4,5,6,7,8,9", "--param", "seconds=40s", "--jobs", "1", "--out", str(out)]
    master, slave = pty.openpty()

    def as_a_terminal_job():
        # A terminal's shell starts its foreground job with SIGINT at its default action. The
        # process that runs this test may have inherited SIGINT ignored (a non-interactive
        # shell's background job does, e.g. `nohup bash .ci/run &`); every process would then
        # keep ignoring it, Python too (it installs its ^C handler only over SIG_DFL).
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path,
                            start_new_session=True, preexec_fn=as_a_terminal_job)
    os.close(slave)
    text = b""

    def read_for(seconds):
        nonlocal text
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the pty closed: every process of the session is gone
                    return
                if not chunk:
                    return
                text += chunk

    try:
        deadline = time.monotonic() + 600
        while not _records(out) and proc.poll() is None and time.monotonic() < deadline:
            read_for(0.5)
        assert proc.poll() is None, "the sweep ended before a point was stored: " + \
            text.decode(errors="replace")[-800:]
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on ^C
        try:
            end = time.monotonic() + 120
            while proc.poll() is None and time.monotonic() < end:
                read_for(0.5)
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        read_for(1)
    finally:
        os.close(master)
    said = text.decode(errors="replace")
    assert proc.returncode == 130, (proc.returncode, said[-1500:])
    assert "interrupted: finished points are kept" in said, said[-1500:]
    assert "Traceback" not in said, said[-3000:]
    kept = _records(out)
    assert 1 <= len(kept) < 8, (len(kept), said[-800:])
    for p in kept:
        json.loads(p.read_text())  # complete records only
    time.sleep(1)
    left = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout
    assert not left.strip(), "processes of the interrupted sweep still run: " + left
    # The re-run: the same files, unchanged, and the missing points.
    r = _run(cmd + ["--no-progress"], timeout=900, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-800:]
    after = _records(out)
    assert len(after) == 8
    assert {p: after[p] for p in kept} == kept, "a finished point was computed again"


def test_point_run_again_after_its_record_was_written_is_not_recomputed(tmp_path, monkeypatch):
    """Found by the restarted-worker test (1 run in 4 on a loaded machine): a worker killed after
    it wrote a point's record but before the scheduler heard the task end made the scheduler run
    the task again, and the finished point was computed a second time. A task now finds the
    record this campaign (``since``) wrote and does not run the program; a record from before the
    campaign (``--rerun``) is still computed again."""
    import time

    log = _square_program(tmp_path, monkeypatch)
    dest = tmp_path / "out" / "sq" / "points" / "p.json"
    since = time.time()
    args = (str(testbed.build.EXAMPLES_DIR / "square"), "square", {"x": 5}, [("sq", str(dest))], 60)
    assert testbed.runner.run_point(*args, since=since)["ok"]
    assert testbed.runner.run_point(*args, since=since)["ok"]  # the scheduler's second try
    assert log.read_text().split() == ["5"]
    assert json.loads(dest.read_text())["result"] == {"y": 25.0}
    assert testbed.runner.run_point(*args, since=time.time() + 10)["ok"]  # an older record: rerun
    assert log.read_text().split() == ["5", "5"]


def test_restarted_external_worker_completes_the_campaign(tmp_path, monkeypatch):
    """Item 7: a campaign on an external cluster (--scheduler) whose only dask-worker is killed
    (SIGKILL) mid-run and started again: the new worker (which has no path to the package but
    the campaign's worker plugin) finishes the campaign; a point finished before the kill is
    computed once, the one running then at most twice (recomputed whole), every record is there
    and complete."""
    import stat
    import threading
    import time

    from distributed import LocalCluster

    from testbed import campaign

    bindir = tmp_path / "examples"
    bindir.mkdir()
    calls = tmp_path / "calls.log"
    prog = bindir / "slowsq"
    prog.write_text(f"""#!{sys.executable}
import json, sys, time
if sys.argv[1:] == ["--describe"]:
    print(json.dumps({{"program": "slowsq", "options": [], "fields": [
        {{"name": "y", "type": "real", "help": "x*x", "always": True}}]}}))
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
open({str(calls)!r}, "a").write(args["x"] + "\\n")
time.sleep(1.0)
json.dump({{"y": float(args["x"]) ** 2}}, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    testbed.build._FIELDS.clear()
    from testbed.experiment import Analysis, Experiment

    n = 6
    exp = Experiment(id="sq", study="TEST", title="squares", program="slowsq",
                     points=lambda scale: [{"x": i} for i in range(n)],
                     analyse=lambda records: Analysis(rows=[], metrics={}))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = tmp_path / "out"

    def worker(addr):
        return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr,
                                 "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                                cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    # A scheduler that other processes reach (tcp), as `dask scheduler` would be.
    with LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                      dashboard_address=None) as cluster:
        first = worker(cluster.scheduler_address)
        result = {}
        t = threading.Thread(target=lambda: result.update(campaign.run_campaign(
            [exp], "quick", 1, out, log=lambda m: None, scheduler=cluster.scheduler_address,
            progress=False)))
        t.start()
        second = None
        try:
            deadline = time.monotonic() + 300
            while len(_records(out)) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert len(_records(out)) >= 2, "no point was finished"
            os.killpg(first.pid, 9)
            first.wait()
            finished = {json.loads(p.read_text())["params"]["x"] for p in _records(out)}
            time.sleep(1)
            second = worker(cluster.scheduler_address)
            t.join(timeout=300)
            assert not t.is_alive(), "the campaign did not finish with the restarted worker"
        finally:
            for w in (first, second):
                if w is not None and w.poll() is None:
                    os.killpg(w.pid, 9)
                    w.wait()
    assert not isinstance(result["sq"], Exception), result["sq"]
    assert [r.result["y"] for r in result["sq"]] == [float(i * i) for i in range(n)]
    counts = [calls.read_text().split().count(str(i)) for i in range(n)]
    assert all(counts[i] == 1 for i in finished), (finished, counts)
    assert all(1 <= c <= 2 for c in counts), counts
    assert len(_records(out)) == n


# --- tno-pipeline's CPU shielding rule: inside Parse, so --check sees it ---------------------

@pytest.mark.parametrize("args", [["--hostProfile=pc2006-linux26"],  # one CPU
                                  ["--hostSet=Cores=2"],  # 1b shields 2: needs 3
                                  ["--config=2", "--hostSet=Cores=3"],  # SM shields 3
                                  ["--ns3::HostCpu::Cores=2"]])
def test_pipeline_too_few_cpus_refused_by_check(args):
    """"too few CPUs to shield each federate" was a Require after Parse(): --check accepted the
    options (exit 0) and only the run refused them."""
    for extra in (["--check"], ["--duration=0.1", "--output=/dev/null"]):
        r = _run([_prog("tno-pipeline"), *args, *extra], timeout=300)
        _one_error_line(r)
        assert "too few CPUs to shield each federate" in r.stderr, r.stderr[-300:]
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr[-500:]


def test_pipeline_enough_cpus_pass_check():
    for args in (["--config=2", "--hostSet=Cores=4"], ["--hostSet=Cores=3"],
                 ["--config=4"]):
        r = _run([_prog("tno-pipeline"), *args, "--check"])
        assert r.returncode == 0, (args, r.stderr[-300:])


# =============================================================================================
# No hang without a word, no traceback from any file or argument, no figure lost to a
# full disk, no edited record trusted. Stand-in programs (Python scripts answering --describe
# and --check as the module's programs do) where no simulation is needed.

def _stand_in(bindir, name, options, fields, body="result = {'y': 1.0}"):
    """A stand-in program NAME in bindir: --describe gives ``options`` and ``fields``, --check
    accepts everything, a run executes ``body`` (``args``: its --name=value options) and
    writes ``result`` to --output."""
    import stat

    bindir.mkdir(parents=True, exist_ok=True)
    prog = bindir / name
    desc = {"program": name, "description": name, "options": options, "fields": fields}
    prog.write_text(f"""#!/usr/bin/env python3
import json, os, sys
if sys.argv[1:] == ["--describe"]:
    print(json.dumps({desc!r}))
    sys.exit(0)
if sys.argv[1:2] == ["--check"]:
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
{body}
json.dump(result, open(args["output"], "w"))
""")
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    return prog


_X = {"name": "x", "type": "uint", "default": 0, "help": "x"}
_Y = {"name": "y", "type": "real", "help": "y", "always": True}


@pytest.fixture
def stand_ins(tmp_path, monkeypatch):
    """build/examples/ of stand-in programs (testbed.build.EXAMPLES_DIR points there) and the
    environment that gives a command line (python -m testbed.cli) the same folder."""
    from testbed import sweeps

    build = tmp_path / "build"
    bindir = build / "examples"
    bindir.mkdir(parents=True)
    monkeypatch.setattr(testbed.build, "EXAMPLES_DIR", bindir)
    sweeps._describe_exe.cache_clear()
    testbed.build._FIELDS.clear()
    env = {**os.environ, "TESTBED_BUILD_DIR": str(build),
           "PYTHONPATH": str(ROOT / "bindings" / "python")}
    env.pop("TESTBED_PROGRAMS_DIR", None)
    yield bindir, env
    sweeps._describe_exe.cache_clear()
    testbed.build._FIELDS.clear()


def _cli(args, env, cwd, timeout=120):
    return _run([sys.executable, "-m", "testbed.cli", *args], timeout=timeout, env=env,
                cwd=cwd)


def _clean_exit(r, status):
    """Exit ``status``, no traceback, and for 2 one line naming the problem (error: ...)."""
    text = r.stdout + r.stderr
    assert r.returncode == status, (r.returncode, text[-1500:])
    assert "Traceback" not in text, text[-1500:]
    if status == 2:
        errors = [ln for ln in text.splitlines() if "error:" in ln]
        assert len(errors) == 1, text[-1500:]
        return errors[0]
    return None


# --- item 1: an external cluster's last worker dies holding a finished point's result -------

def test_result_wait_gives_up_when_no_worker_is_left(monkeypatch):
    """_finish called f.result() without a timeout: when the worker that held a finished
    point's result died and no worker was left, the campaign waited for ever."""
    from testbed import campaign

    class Lost:  # a future whose result is gone with its worker
        def result(self, timeout=None):
            if timeout is None:
                raise AssertionError("waited without a timeout: for ever")
            time.sleep(min(timeout, 0.05))
            raise TimeoutError

        def release(self):
            pass

    class NoWorkers:
        def workers(self):
            return 0

    monkeypatch.setattr(testbed.cluster, "WORKER_WAIT_S", 0.3)
    monkeypatch.setattr(testbed.points, "RESULT_POLL_S", 0.05)
    f = Lost()
    bar = testbed.progress.Progress(1, lambda m: None, enabled=False)
    t0 = time.monotonic()
    with pytest.raises(campaign.CampaignError, match="no workers"):
        testbed.points._finish(f, {f: [(_square_exp(), {"x": 0}, Path("p"))]}, False, {},
                         lambda m: None, bar, 0, NoWorkers(), "tcp://127.0.0.1:1")
    assert time.monotonic() - t0 < 10


# --- item 2: a derived column named like a result field --------------------------------------

def test_sweep_frame_when_a_result_field_has_the_derived_name(stand_ins, tmp_path):
    """sweep() raised "cannot insert bandwidth_bps, already exists" after computing every point
    (jaxa-benchmark echoes its bandwidth as the field bandwidth_bps)."""
    from testbed import sweeps

    bindir, _ = stand_ins
    _stand_in(bindir, "bw", [{"name": "bandwidth", "type": "rate", "default": "1Mbps",
                              "help": "b"}],
              [{"name": "bandwidth_bps", "type": "real", "help": "echo", "always": True}, _Y],
              body="result = {'bandwidth_bps': 7.0, 'y': 1.0}")
    frame = sweeps.sweep("bw", {"bandwidth": ["128kbps", "1Mbps"]}, jobs=1,
                         out=tmp_path / "out")
    assert list(frame["bandwidth_bps"]) == [128e3, 1e6]  # the parameter in bit/s
    assert list(frame["result_bandwidth_bps"]) == [7.0, 7.0]  # the program's field


# --- item 3: a full disk ---------------------------------------------------------------------

@pytest.fixture
def tiny_disk(tmp_path):
    """A 200 KiB tmpfs (root only; skipped elsewhere)."""
    d = tmp_path / "disk"
    d.mkdir()
    r = _run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(d)])
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {r.stderr.strip()}")
    yield d
    _run(["umount", "-l", str(d)])


def _fill(disk, leave):
    """Fill the disk up to ``leave`` bytes of free space."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(disk / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave))


def test_full_disk_keeps_the_previous_figure(tiny_disk):
    """gnuplot exits 0 with a truncated PNG when the disk is full: render() replaced the good
    figure with it and said nothing."""
    import shutil

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    from testbed.experiment import Figure, Series
    from testbed.plot import png_is_whole, render

    fig = Figure(name="f", title="t", xlabel="x", ylabel="y",
                 series=[Series(title="s", x=[1, 2, 3], y=[1, 4, 9])])
    png = render(fig, tiny_disk)
    good = png.read_bytes()
    assert png_is_whole(png)
    _fill(tiny_disk, 12288)  # room for the script, not for the PNG
    fig.series[0] = Series(title="s", x=list(range(200)), y=[i % 7 for i in range(200)])
    with pytest.raises((RuntimeError, OSError)):
        render(fig, tiny_disk)
    assert png.read_bytes() == good, "the previous figure was lost"
    assert not list(tiny_disk.glob(".tmp-*")), "a temporary was left"


def test_png_check_finds_a_truncated_file(tmp_path):
    import shutil

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    from testbed.experiment import Figure, Series
    from testbed.plot import png_is_whole, render

    png = render(Figure(name="f", title="t", xlabel="x", ylabel="y",
                        series=[Series(title="s", x=[1, 2], y=[1, 4])]), tmp_path)
    data = png.read_bytes()
    for cut in (len(data) - 1, len(data) // 2, 9):
        (tmp_path / "cut.png").write_bytes(data[:cut])
        assert not png_is_whole(tmp_path / "cut.png"), cut


def test_report_on_a_full_disk_is_no_traceback(stand_ins, tmp_path, monkeypatch, capsys):
    """write_report's OSError ended the run in a traceback (cli.py)."""
    import errno

    from testbed import cli, experiment, report
    from testbed.experiment import Analysis, Experiment

    bindir, _ = stand_ins
    _stand_in(bindir, "square", [_X], [_Y], body="result = {'y': float(args['x']) ** 2}")
    exp = Experiment(id="sq-disk", study="TEST", title="squares", program="square",
                     points=lambda scale: [{"x": 1}],
                     analyse=lambda records: Analysis(rows=[], metrics={}))
    experiment.experiments()  # the studies' experiments registered first
    monkeypatch.setitem(experiment._REGISTRY, exp.id, exp)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report, "write_report", full)
    rc = cli.main(["run", exp.id, "--out", str(tmp_path / "out"), "--jobs", "1",
                   "--no-progress"])
    assert rc == 1
    assert "No space left on device" in capsys.readouterr().out


# --- item 6: limits before unbounded work ----------------------------------------------------

def test_validate_rows_and_reps_are_limited_before_any_check(stand_ins, tmp_path):
    """validate accepted any number of rows and any --reps (20 000 rows: 180 s of checks, then
    20 000 points; --reps 1000000 silent for minutes)."""
    bindir, env = stand_ins
    _stand_in(bindir, "square", [_X], [_Y], body="open(args['x'], 'w')\nresult = {'y': 1.0}")
    f = tmp_path / "m.csv"
    f.write_text("x,y\n" + "".join(f"{i},1\n" for i in range(50)))
    r = _cli(["validate", "square", "--measured", str(f), "--max-points", "40",
              "--out", str(tmp_path / "o")], env, tmp_path)
    assert "more than 40" in _clean_exit(r, 2)
    r = _cli(["validate", "square", "--measured", str(f), "--reps", "1000000",
              "--out", str(tmp_path / "o")], env, tmp_path)
    assert "1000000" in _clean_exit(r, 2)
    assert not [p for p in tmp_path.iterdir() if p.name.isdigit()], "a point ran"


def test_sensitivity_samples_are_limited(tmp_path):
    """sensitivity --samples 1000000000 worked silently for minutes."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "bindings" / "python")}
    t0 = time.monotonic()
    r = _cli(["sensitivity", "mega-scale", "--samples", "1000000000", "--out",
              str(tmp_path / "o")], env, tmp_path)
    assert "--samples" in _clean_exit(r, 2)
    from testbed import experiment, sensitivity

    with pytest.raises(sensitivity.SensitivityError, match="more than"):
        sensitivity.run_sensitivity(experiment.get("tno-pipeline"), "morris", 2000,
                                    out=tmp_path / "o2", log=lambda m: None)
    assert not (tmp_path / "o2").exists()
    assert time.monotonic() - t0 < 60


# --- item 7: stored records ------------------------------------------------------------------

def _stored(out):
    return sorted((out / "sq" / "points").glob("*.json"))


def _edit_and_rerun(tmp_path, edit):
    """Run the 3-point square campaign, edit its record of x=1, run again: the calls and the
    messages of the second run."""
    from testbed import campaign

    out = tmp_path / "out"
    campaign.run_campaign([_square_exp()], "quick", 1, out, log=lambda m: None, progress=False)
    path = out / "sq" / "points" / f"{testbed.records.point_key({'x': 1})}.json"
    edit(path)
    said = []
    res = campaign.run_campaign([_square_exp()], "quick", 1, out, log=said.append,
                                progress=False)
    return res, said


def _json_edit(change):
    def edit(path):
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return edit


@pytest.mark.parametrize("edit", [
    pytest.param(lambda p: p.write_text("[" * 200000 + "]" * 200000), id="deep"),
    pytest.param(lambda p: p.write_text(p.read_text().replace('"y": 1.0', '"y": NaN')),
                 id="nan"),
    pytest.param(lambda p: p.write_text(p.read_text().replace('"y": 1.0', '"y": Infinity')),
                 id="infinity"),
    pytest.param(lambda p: p.write_text(p.read_text().replace('"y": 1.0', '"y": 1e400')),
                 id="1e400"),
    pytest.param(_json_edit(lambda d: d["result"].update(y=-1.0)), id="result"),
    pytest.param(_json_edit(lambda d: d["build"].update(program_sha256="0" * 64)),
                 id="program_sha256"),
    pytest.param(_json_edit(lambda d: d["resolved"].update(x=7)), id="resolved"),
])
def test_an_edited_or_damaged_record_is_computed_again(tmp_path, monkeypatch, edit):
    """A deeply nested record was a RecursionError traceback; NaN, Infinity and 1e400 passed as
    real numbers; an edited result, program_sha256 or resolved parameter set was reused (the
    build identity was trusted by its id alone)."""
    log = _square_program(tmp_path, monkeypatch, describe=True)
    res, said = _edit_and_rerun(tmp_path, edit)
    assert not isinstance(res["sq"], Exception), res["sq"]
    assert [r.result["y"] for r in res["sq"]] == [0.0, 1.0, 4.0]
    calls = log.read_text().split()
    assert [calls.count(x) for x in "012"] == [1, 2, 1], calls  # only x=1 again


def test_a_record_edited_in_place_is_recomputed_not_trusted(tmp_path, monkeypatch):
    """The checksum: a record whose result was edited (build untouched) is computed again, and
    the run says why."""
    log = _square_program(tmp_path, monkeypatch, describe=True)
    res, said = _edit_and_rerun(tmp_path, _json_edit(lambda d: d["result"].update(y=-1.0)))
    assert [r.result["y"] for r in res["sq"]] == [0.0, 1.0, 4.0]
    assert log.read_text().split().count("1") == 2
    assert any("checksum" in m for m in said), said


def test_a_record_missing_an_optional_field_is_recomputed(tmp_path, monkeypatch):
    """A record without a field its program wrote (an optional one: always false) was accepted,
    and the analysis failed with KeyError on every run."""
    import stat

    log = _square_program(tmp_path, monkeypatch, describe=True)
    prog = testbed.build.EXAMPLES_DIR / "square"
    prog.write_text(prog.read_text().replace('json.dump({"y": float(args["x"]) ** 2}',
                                             'json.dump({"y": float(args["x"]) ** 2, '
                                             '"note": "n"}'))
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    res, _ = _edit_and_rerun(tmp_path, _json_edit(lambda d: d["result"].pop("note")))
    assert all(r.result.get("note") == "n" for r in res["sq"])
    assert log.read_text().split().count("1") == 2


def test_records_carry_a_checksum_of_their_content(tmp_path, monkeypatch):
    from testbed import campaign

    _square_program(tmp_path, monkeypatch, describe=True)
    out = tmp_path / "out"
    campaign.run_campaign([_square_exp()], "quick", 1, out, log=lambda m: None, progress=False)
    for f in _stored(out):
        data = json.loads(f.read_text())
        body = {k: v for k, v in data.items() if k not in ("checksum", "experiment")}
        import hashlib

        want = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"))
                              .encode()).hexdigest()
        assert data["checksum"] == want


# --- item 8: fact tables and measured files --------------------------------------------------

_FACT_HEAD = "experiment,metric,value\n"


@pytest.mark.parametrize("content,words", [
    (bytes(range(256)) * 8, "UTF-8"),
    ((_FACT_HEAD + "jaxa-table2,m\n").encode(), "cells"),
    ((_FACT_HEAD + "jaxa-table2,m,1,2\n").encode(), "cells"),
    ((_FACT_HEAD + "jaxa-table2,m," + "1" * 131072 + "\n").encode(), "CSV"),
    ((_FACT_HEAD + "jaxa-table2,m,nan\n").encode(), "not finite"),
    ((_FACT_HEAD + "jaxa-table2,m,inf\n").encode(), "not finite"),
    ((_FACT_HEAD + "jaxa-table2,m,1\n").encode() * 1, None),
    (("\ufeff" + _FACT_HEAD + "jaxa-table2,m,1\n").encode(), None),
])
def test_fact_table_problems_are_one_line(tmp_path, content, words):
    """Random bytes, short or long rows and a 131 072-character cell were tracebacks; a BOM was
    "no column experiment"; nan was accepted."""
    from testbed.validation import FactTableError, read_facts

    f = tmp_path / "facts.csv"
    f.write_bytes(content)
    if words is None:
        assert read_facts(f)[0]["experiment"] == "jaxa-table2"
        return
    with pytest.raises(FactTableError, match=words):
        read_facts(f)


def test_validate_experiment_out_a_file_is_exit_2(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "bindings" / "python")}
    f = tmp_path / "facts.csv"
    f.write_text(_FACT_HEAD + "jaxa-table2,rtt,1\n")
    afile = tmp_path / "afile"
    afile.write_text("keep\n")
    r = _cli(["validate", "--experiment", "jaxa-table2", str(f), "--out", str(afile)], env,
             tmp_path)
    assert "is a file" in _clean_exit(r, 2)
    assert afile.read_text() == "keep\n"


def test_validate_experiment_unknown_metric_before_the_campaign(tmp_path):
    """An unknown metric was reported only after the whole campaign ran: with the metrics of
    an earlier run, before anything runs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "bindings" / "python")}
    f = tmp_path / "facts.csv"
    f.write_text(_FACT_HEAD + "jaxa-table2,rtt_meen,1\n")
    out = tmp_path / "out"
    (out / "jaxa-table2").mkdir(parents=True)
    (out / "jaxa-table2" / "metrics.json").write_text(json.dumps(
        {"experiment": "jaxa-table2", "metrics": {"rtt_mean": 1.0}}))
    r = _cli(["validate", "--experiment", "jaxa-table2", str(f), "--out", str(out)], env,
             tmp_path)
    assert "rtt_meen" in _clean_exit(r, 2)
    assert not (out / "jaxa-table2" / "points").exists(), "the campaign ran"


def _limited(limit_bytes):
    def pre():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    return pre


@pytest.mark.parametrize("kind", ["fifo", "zero", "extra", "short", "1e400"])
def test_measured_file_problems_are_one_line(stand_ins, tmp_path, kind):
    """--measured: a FIFO blocked for ever, /dev/zero ran out of memory, extra cells were
    dropped silently, 1e400 became inf (while inf was refused)."""
    bindir, env = stand_ins
    _stand_in(bindir, "square", [_X], [_Y])
    f = tmp_path / "m.csv"
    if kind == "fifo":
        os.mkfifo(f)
    elif kind == "zero":
        f = Path("/dev/zero")
    elif kind == "extra":
        f.write_text("x,y\n1,1,5\n")
    elif kind == "short":
        f.write_text("x,y\n1\n")
    else:
        f.write_text("x,y\n1,1e400\n")
    r = subprocess.run([sys.executable, "-m", "testbed.cli", "validate", "square",
                        "--measured", str(f), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=30, env=env, cwd=tmp_path,
                       preexec_fn=_limited(4 << 30))
    _clean_exit(r, 2)


# --- item 10: program names ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["/bin/true", "../../../../../bin/true", "", ".", "..",
                                  "CMakeFiles", "nofields", "notjson"])
def test_sweep_program_is_a_record_program_of_the_build(stand_ins, tmp_path, name):
    """/bin/true, a path out of build/examples, '', '.', a folder: tracebacks; programs that
    write no record (mcast-bridge-diff, igmp-pcap) were offered."""
    bindir, env = stand_ins
    (bindir / "CMakeFiles").mkdir()
    _stand_in(bindir, "square", [_X], [_Y])
    _stand_in(bindir, "nofields", [_X], [])
    _stand_in(bindir, "notjson", [_X], [])
    (bindir / "notjson").write_text("#!/bin/sh\necho not json\n")
    r = _cli(["sweep", name, "--param", "x=1", "--out", str(tmp_path / "o")], env, tmp_path)
    line = _clean_exit(r, 2)
    assert "square" in line and "nofields" not in line.split("programs:")[-1], line


def test_run_program_takes_a_name_not_a_path(tmp_path):
    r = _run([str(ROOT / "testbed"), "run-program", "../../../../../bin/echo", "PWNED"],
             timeout=60)
    assert r.returncode == 2 and "PWNED" not in r.stdout, (r.returncode, r.stdout, r.stderr)
    assert "path" in r.stderr


# --- item 11: sensitivity inputs -------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["--out", "AFILE"], "is a file"),
    (["--samples", "0"], "--samples"),
    (["--samples", "-3"], "--samples"),
    (["--samples", "2.5"], "--samples"),
    (["--method", "sobol", "--samples", "3"], "power of 2"),
    (["--scale", "paper"], "--scale"),
])
def test_sensitivity_inputs_are_one_line(tmp_path, args, words):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "bindings" / "python")}
    afile = tmp_path / "afile"
    afile.write_text("keep\n")
    args = [str(afile) if a == "AFILE" else a for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "o")]
    r = _cli(["sensitivity", "mega-scale", *args], env, tmp_path)
    line = _clean_exit(r, 2)
    assert words in line and "--jobs" not in line, line  # it said "--jobs must be >= 1"
    assert afile.read_text() == "keep\n"


# --- item 12: the Python API's argument types ------------------------------------------------

@pytest.mark.parametrize("kwargs,exc,name", [
    ({"jobs": -1}, ValueError, "jobs"),
    ({"jobs": "2"}, TypeError, "jobs"),
    ({"reps": "2"}, TypeError, "reps"),
    ({"reps": 1.5}, TypeError, "reps"),
    ({"program": None}, TypeError, "program"),
    ({"out": 5}, TypeError, "out"),
    ({"grid": {1: [1]}}, TypeError, "grid"),
    ({"grid": {None: [1]}}, TypeError, "grid"),
    ({"grid": "count=1"}, TypeError, "grid"),
    ({"grid": {"x": [None]}}, TypeError, "grid"),
    ({"grid": {"x": {1, 2}}}, TypeError, "grid"),
])
def test_sweep_api_types_named_at_the_boundary(stand_ins, tmp_path, kwargs, exc, name):
    import testbed

    bindir, _ = stand_ins
    _stand_in(bindir, "square", [_X], [_Y])
    args = {"program": "square", "grid": {"x": [1]}, "jobs": 1, "out": tmp_path / "o"}
    args.update(kwargs)
    program, grid = args.pop("program"), args.pop("grid")
    with pytest.raises(exc, match=name):
        testbed.sweep(program, grid, **args)
    assert not (tmp_path / "o" / "points").exists()


@pytest.mark.parametrize("measured", [[1, 2], "NOFILE", [{1: "a"}]])
def test_validate_api_types_named_at_the_boundary(stand_ins, tmp_path, measured):
    import testbed
    from testbed.sweeps import SweepError

    bindir, _ = stand_ins
    _stand_in(bindir, "square", [_X], [_Y])
    if measured == "NOFILE":
        measured = tmp_path / "nofile.csv"
    with pytest.raises((TypeError, SweepError), match="measured|nofile"):
        testbed.validate("square", measured, jobs=1, out=tmp_path / "o")


def test_run_campaign_jobs_checked(tmp_path, monkeypatch):
    from testbed import campaign

    _square_program(tmp_path, monkeypatch)
    with pytest.raises(ValueError, match="jobs"):
        campaign.run_campaign([_square_exp()], "quick", -1, tmp_path / "out",
                              log=lambda m: None, progress=False)


def test_a_value_with_a_newline_is_shown_whole(stand_ins, tmp_path):
    from testbed import sweeps

    bindir, _ = stand_ins
    _stand_in(bindir, "text", [{"name": "label", "type": "string", "default": "",
                                "help": "a label"}], [_Y])
    with pytest.raises(sweeps.SweepError) as e:
        sweeps.sweep("text", {"label": ["first line\nsecond line"]}, jobs=1,
                     out=tmp_path / "o")
    assert "first line\\nsecond line" in str(e.value)


# --- item 13: a relative pcap prefix with .. -------------------------------------------------

def test_relative_output_prefix_cannot_leave_out(stand_ins, tmp_path):
    from testbed import sweeps

    bindir, _ = stand_ins
    _stand_in(bindir, "cap", [{"name": "pcap", "type": "string", "default": "", "help": "p",
                               "output_prefix": True}], [_Y],
              body="open(args['pcap'] + '.pcap', 'w').close() if args.get('pcap') else None\n"
                   "result = {'y': 1.0}")
    out = tmp_path / "a" / "out"
    with pytest.raises(sweeps.SweepError, match="pcap"):
        sweeps.sweep("cap", {"pcap": ["../../escaped/p"]}, jobs=1, out=out)
    assert not (tmp_path / "escaped").exists()
    sweeps.sweep("cap", {"pcap": ["caps/p"]}, jobs=1, out=out)  # inside --out: fine
    assert (out / "caps" / "p.pcap").exists()


# --- item 15: messages -----------------------------------------------------------------------

def test_each_failed_point_is_shown_once_and_all_are_named(stand_ins, tmp_path):
    bindir, env = stand_ins
    _stand_in(bindir, "odd", [_X], [_Y],
              body="import sys\nif int(args['x']) % 2: sys.exit('odd x ' + args['x'])\n"
                   "result = {'y': 1.0}")
    r = _cli(["sweep", "odd", "--param", "x=0:5:1", "--jobs", "1", "--no-progress",
              "--out", str(tmp_path / "o")], env, tmp_path)
    _clean_exit(r, 1)
    for x in "135":
        assert r.stdout.count(f"odd x {x}") == 1, r.stdout


@pytest.mark.parametrize("param,words", [
    ("x=,", "empty value"),
    ("delay=1ms,0.001s", "0.001s given twice (as 1ms)"),
    ("rate=1Mbps,1000kbps", "given twice"),
    ("output=", "set by the sweep itself"),
])
def test_grid_messages_name_the_problem(stand_ins, tmp_path, param, words):
    bindir, env = stand_ins
    _stand_in(bindir, "timed", [_X, {"name": "delay", "type": "time", "default": "0s",
                                     "help": "d"},
                                {"name": "rate", "type": "rate", "default": "1Mbps",
                                 "help": "r"}], [_Y])
    r = _cli(["sweep", "timed", "--param", param, "--out", str(tmp_path / "o")], env, tmp_path)
    assert words in _clean_exit(r, 2)


def test_scheduler_inproc_address_message(stand_ins, tmp_path):
    bindir, env = stand_ins
    _stand_in(bindir, "square", [_X], [_Y])
    r = _cli(["sweep", "square", "--param", "x=1", "--scheduler", "inproc://x",
              "--out", str(tmp_path / "o")], env, tmp_path)
    assert "inproc" in _clean_exit(r, 2) and "none listens" in r.stderr


def test_a_killed_workers_temporary_output_is_removed(stand_ins, tmp_path):
    """A program that outlived its (external) worker left its .out-*.json in points/ until the
    next run."""
    from testbed import sweeps

    bindir, _ = stand_ins
    _stand_in(bindir, "leaky", [_X], [_Y],
              body="import os\nd = os.path.dirname(args['output'])\n"
                   "open(os.path.join(d, '.out-orphan' + args['x'] + '.json'), 'w').close()\n"
                   "result = {'y': 1.0}")
    sweeps.sweep("leaky", {"x": [1, 2]}, jobs=1, out=tmp_path / "o")
    assert not list((tmp_path / "o" / "points").glob(".out-*")), \
        list((tmp_path / "o" / "points").iterdir())


# --- items 2 and 10 with the module's own programs -------------------------------------------

def test_jaxa_benchmark_sweep_frame_keeps_both_bandwidth_columns(tmp_path):
    """The reproduction of item 2: testbed.sweep('jaxa-benchmark', {'bandwidth': ['128kbps'],
    ...}) raised "cannot insert bandwidth_bps, already exists" after computing."""
    _prog("jaxa-benchmark")
    import testbed

    frame = testbed.sweep("jaxa-benchmark", {"bandwidth": ["128kbps"], "exchanges": [10],
                                             "reps": [1]}, jobs=1, out=tmp_path / "o")
    assert list(frame["bandwidth_bps"]) == [128e3]
    assert "result_bandwidth_bps" in frame.columns


@pytest.mark.parametrize("program", ["mcast-bridge-diff", "igmp-pcap"])
def test_programs_without_a_record_are_no_sweep_programs(tmp_path, program):
    _prog(program)
    from testbed import sweeps

    with pytest.raises(sweeps.SweepError, match="no result record") as e:
        sweeps.sweep(program, {"hosts" if program == "mcast-bridge-diff" else "prefix": ["2"]},
                     jobs=1, out=tmp_path / "o")
    offered = str(e.value).split("programs:")[-1]
    assert "jaxa-benchmark" in offered and program not in offered


def test_full_disk_keeps_the_previous_tornado(tiny_disk):
    """sensitivity's tornado .dat and figure were written in place: a full disk left a
    truncated .dat and a broken PNG in place of the previous ones."""
    import shutil

    if shutil.which("gnuplot") is None:
        pytest.skip("gnuplot not installed")
    from testbed.plot import png_is_whole
    from testbed.sensitivity import tornado

    def entry(n):
        return {"metric": "rtt_mean_ms", "central": 1.0, "band_low": 0.5, "band_high": 2.0,
                "ranking": [{"parameter": f"p{i}", "mu_star": 1.0 + i, "sigma": 0.5}
                            for i in range(n)]}

    tornado(entry(2), "morris", tiny_disk)
    before = {p.name: p.read_bytes() for p in tiny_disk.iterdir()}
    assert png_is_whole(tiny_disk / "tornado-rtt_mean_ms.png")
    _fill(tiny_disk, 12288)
    with pytest.raises((RuntimeError, OSError)):
        tornado(entry(60), "morris", tiny_disk)
    (tiny_disk / "filler").unlink()
    after = {p.name: p.read_bytes() for p in tiny_disk.iterdir()}
    assert after == before, "a previous file was changed or a temporary left"
