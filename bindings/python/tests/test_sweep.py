"""Sweeps and validations of the user's own: grids, resume, self-description of every
program, validation against measured data, and bad input (exit 2 naming it).

The runs use jaxa-table2 (ping through NIST Net: a few pings are a fraction of a second)."""

import csv
import json
import math
import os
import re
import subprocess
import sys

import pytest

from testbed import EXAMPLES_DIR, ROOT, cli, sweeps
from testbed.experiment import mean_std_ci, t_quantile_975

PROGRAMS = sorted(p.name for p in EXAMPLES_DIR.glob("*")
                  if p.is_file() and os.access(p, os.X_OK)) if EXAMPLES_DIR.is_dir() else []
built = pytest.mark.skipif("jaxa-table2" not in PROGRAMS, reason="programs not built")
FIELD_TYPES = {"real", "int", "bool", "string", "series"}


def _sources():
    """program name -> its source file (examples/*.cc and examples/<study>/*.cc)."""
    return {p.stem: p for p in list((ROOT / "examples").glob("*.cc"))
            + list((ROOT / "examples").glob("*/*.cc"))}


# --------------------------------------------------------------------------------------------
# Grids (no program needed)

TIME = {"name": "delay", "type": "time"}
RATE = {"name": "bandwidth", "type": "rate"}
UINT = {"name": "count", "type": "uint"}


def test_list_and_linear_ranges_expand():
    assert sweeps.expand_values("delay", "0ms,50ms,150ms", TIME) == ["0ms", "50ms", "150ms"]
    assert sweeps.expand_values("delay", "0ms:150ms:50ms", TIME) == \
        ["0ms", "50ms", "100ms", "150ms"]
    # bounds in other units than the step: values in the step's unit
    assert sweeps.expand_values("delay", "0s:0.3s:100ms", TIME) == \
        ["0ms", "100ms", "200ms", "300ms"]
    assert sweeps.expand_values("delay", "0.1:0.3:0.1", {"name": "x", "type": "real"}) == \
        ["0.1", "0.2", "0.3"]
    assert sweeps.expand_values("count", "1:10:3", UINT) == ["1", "4", "7", "10"]
    assert sweeps.expand_values("bandwidth", "1Mbps:3Mbps:1Mbps", RATE) == \
        ["1Mbps", "2Mbps", "3Mbps"]
    assert sweeps.expand_values("count", [1, 2], UINT) == ["1", "2"]


def test_log_range_is_geometric():
    vals = sweeps.expand_values("bandwidth", "log:128kbps:20Mbps:8", RATE)
    assert len(vals) == 8 and vals[0] == "128000bps" and vals[-1] == "20000000bps"
    bps = [int(v[:-3]) for v in vals]
    ratio = (20e6 / 128e3) ** (1 / 7)
    for a, b in zip(bps, bps[1:]):
        assert b / a == pytest.approx(ratio, rel=1e-5)
    # integers: rounded, no duplicates
    assert sweeps.expand_values("count", "log:1:4:5", UINT) == ["1", "2", "3", "4"]


def test_grid_points_are_the_cartesian_product_first_slowest():
    pts = sweeps.grid_points({"a": ["1", "2"], "b": ["x", "y", "z"]})
    assert len(pts) == 6
    assert pts[:3] == [{"a": "1", "b": "x"}, {"a": "1", "b": "y"}, {"a": "1", "b": "z"}]


@pytest.mark.parametrize("spec,opt,word", [
    ("0furlong:1s:1s", TIME, "furlong"),
    ("1:10:3ms", UINT, "no unit"),
    ("0ms:150ms", TIME, "START:STOP:STEP"),
    ("log:0ms:1s:4", TIME, "> 0"),
    ("10ms:0ms:5ms", TIME, "below"),
    ("0ms:1s:0ms", TIME, "STEP"),
])
def test_bad_ranges_are_refused_by_name(spec, opt, word):
    with pytest.raises(sweeps.SweepError) as e:
        sweeps.expand_values(opt["name"], spec, opt)
    assert opt["name"] in str(e.value) and word in str(e.value)


def test_t_quantiles_match_the_tables():
    # Student's t, 0.975 quantile (any statistics table, three decimals).
    for df, t in [(1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262), (29, 2.045), (30, 2.042),
                  (40, 2.021), (120, 1.980)]:
        assert t_quantile_975(df) == pytest.approx(t, abs=5e-4)
    m, sd, ci = mean_std_ci([1.0, 2.0, 3.0])
    assert (m, sd) == (2.0, 1.0) and ci == pytest.approx(4.303 / math.sqrt(3), rel=1e-3)


def test_jaxa06_intervals_use_students_t_at_every_df():
    # JAXA06's repetition intervals: Student's t, also beyond 30 degrees of freedom (41 values
    # with sample standard deviation 1: half-width t(0.975, 40) / sqrt(41), t = 2.021 by the
    # table, not the normal 1.96).
    from testbed.experiments import jaxa06

    for df, t in [(1, 12.706), (9, 2.262), (30, 2.042), (40, 2.021)]:
        n = df + 1
        xs = [0.0] * n
        xs[0], xs[1] = -math.sqrt((n - 1) / 2), math.sqrt((n - 1) / 2)  # sd exactly 1
        m, half = jaxa06.mean_ci(xs)
        assert m == pytest.approx(0.0, abs=1e-12)
        assert half == pytest.approx(t / math.sqrt(n), abs=5e-4 / math.sqrt(n)), df


# --------------------------------------------------------------------------------------------
# Every program describes its parameters and its result fields


@pytest.mark.skipif(not PROGRAMS, reason="programs not built")
@pytest.mark.parametrize("program", PROGRAMS)
def test_describe_matches_the_command_line(program):
    """--describe lists exactly the options of the program's CommandLine (its --help), and the
    fields of its result record; a program that writes a record declares its fields."""
    exe = str(EXAMPLES_DIR / program)
    d = json.loads(subprocess.run([exe, "--describe"], capture_output=True, text=True,
                                  timeout=30, check=True).stdout)
    help_text = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=30).stdout
    section = help_text.split("Program Options:", 1)[1].split("General Arguments:", 1)[0]
    in_help = set(re.findall(r"^\s+--(\w+):", section, re.M))
    assert in_help - {"output", "describe", "check", "progress", "maxEvents", "maxMemory"} == \
        {o["name"] for o in d["options"]}
    assert isinstance(d.get("fields"), list)
    names = [f["name"] for f in d["fields"]]
    assert len(names) == len(set(names))
    for f in d["fields"]:
        assert f["type"] in FIELD_TYPES and f["help"], f
    source = _sources().get(program)
    if source is None or "GetOutput()" in source.read_text():
        assert d["fields"], f"{program} writes a result record but --describe lists no fields"


@built
def test_record_holds_only_declared_fields_of_their_type(tmp_path):
    exe = str(EXAMPLES_DIR / "jaxa-table2")
    d = json.loads(subprocess.run([exe, "--describe"], capture_output=True, text=True,
                                  check=True).stdout)
    types = {f["name"]: f["type"] for f in d["fields"]}
    subprocess.run([exe, "--count=2", f"--output={tmp_path / 'r.json'}"], check=True)
    rec = json.loads((tmp_path / "r.json").read_text())
    assert set(rec) == set(types)  # jaxa-table2 writes every field it declares
    py = {"real": float, "int": int, "string": str, "series": list, "bool": bool}
    for k, v in rec.items():
        assert isinstance(v, py[types[k]]) or (types[k] == "real" and isinstance(v, int)), k


@built
def test_record_refuses_a_mistyped_field_from_python(tmp_path):
    """ResultRecord's rules (suite testbed-result-record) hold through the Python binding too:
    a declared field is written; one set with another type is what Check (and Write, which
    aborts on it) reports."""
    import testbed

    ns = testbed.ns
    r = ns.ResultRecord()
    r.Declare("a", ns.ResultRecord.REAL, "a number")
    r.Set("a", 1.0)
    r.Write(str(tmp_path / "ok.json"))
    assert json.loads((tmp_path / "ok.json").read_text()) == {"a": 1.0}
    r.SetInt("a", 2)
    assert str(r.Check()) == "field 'a' is declared real but written as int"


# --------------------------------------------------------------------------------------------
# Sweeps


def _csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@built
def test_sweep_runs_reps_with_distinct_rngrun_and_resumes(tmp_path, capsys):
    out = tmp_path / "s"
    rc = cli.main(["sweep", "jaxa-table2", "--param", "delay=0ms:10ms:10ms", "--param",
                   "count=2", "--reps", "2", "--jobs", "2", "--out", str(out), "--no-progress"])
    assert rc == 0
    data = _csv(out / "data.csv")
    assert len(data) == 4
    assert sorted((r["delay"], r["RngRun"]) for r in data) == \
        [("0ms", "1"), ("0ms", "2"), ("10ms", "1"), ("10ms", "2")]
    assert {"rtt_mean_ms", "rtt_ms", "count"} <= set(data[0])
    for r in data:  # the emulator's delay applies each way: RTT >= twice the delay
        assert float(r["rtt_mean_ms"]) >= 2 * float(r["delay"][:-2])
    summary = _csv(out / "summary.csv")
    assert [(s["delay"], s["runs"]) for s in summary] == [("0ms", "2"), ("10ms", "2")]
    for s in summary:
        runs = [float(r["rtt_mean_ms"]) for r in data if r["delay"] == s["delay"]]
        m, sd, ci = mean_std_ci(runs)
        assert float(s["rtt_mean_ms_mean"]) == pytest.approx(m)
        assert float(s["rtt_mean_ms_ci95"]) == pytest.approx(ci, nan_ok=True)
    points = out / "points"
    before = {p.name: p.stat().st_mtime_ns for p in points.glob("*.json")}
    assert len(before) == 4
    capsys.readouterr()
    # A larger grid: only the two new runs are computed; the stored ones are kept untouched.
    rc = cli.main(["sweep", "jaxa-table2", "--param", "delay=0ms,10ms,20ms", "--param",
                   "count=2", "--reps", "2", "--jobs", "1", "--out", str(out), "--no-progress"])
    assert rc == 0
    assert "6 points (4 already done)" in capsys.readouterr().out
    after = {p.name: p.stat().st_mtime_ns for p in points.glob("*.json")}
    assert len(after) == 6 and all(after[k] == v for k, v in before.items())
    assert len(_csv(out / "data.csv")) == 6


@built
def test_python_sweep_returns_rows_and_plots(tmp_path):
    import testbed

    rows = testbed.sweep("jaxa-table2", {"delay": ["0ms", "20ms"], "count": 2}, reps=1, jobs=1,
                         out=tmp_path / "p", frame=False)
    assert [r["delay"] for r in rows] == ["0ms", "20ms"]
    assert all(r["RngRun"] == 1 for r in rows)
    try:
        import pandas  # noqa: F401
    except ImportError:
        assert isinstance(testbed.sweep("jaxa-table2", {"delay": ["0ms"], "count": 2},
                                        out=tmp_path / "p"), list)
    summary = sweeps.summarise(rows, ["delay", "count"], "jaxa-table2")
    png = sweeps.plot_summary("jaxa-table2", summary, {"delay": ["0ms", "20ms"], "count": ["2"]},
                              "rtt_mean_ms", "delay", None, tmp_path / "p")
    assert png.exists() and png.stat().st_size > 1000
    plt = png.with_suffix(".plt").read_text()
    assert "with yerrorlines" in plt and 'set xlabel "delay (ms)"' in plt
    data = [ln.split() for ln in plt.split("with yerrorlines", 1)[1].splitlines()[1:3]]
    assert [float(d[0]) for d in data] == [0.0, 20.0]  # the delays as written, in ms
    assert [float(d[1]) for d in data] == pytest.approx([r["rtt_mean_ms"] for r in rows],
                                                        rel=1e-5)


def test_repetitions_option_spaces_the_run_numbers():
    opts = {"reps": {"name": "reps", "type": "uint", "default": 10, "repetitions": True}}
    runs = sweeps._runs([{"reps": "3"}, {}], 2, opts)
    assert [r["RngRun"] for r in runs] == [1, 4, 1, 11]


# --------------------------------------------------------------------------------------------
# Bad input: exit 2 and a message naming it


@built
@pytest.mark.parametrize("params,word", [
    (["nosuch=1"], "nosuch"),
    (["delay=fast"], "--delay=fast"),
    (["delay=20s"], "--delay=20s"),          # above the program's 10 s
    (["count=5ms"], "--count=5ms"),          # a count takes no unit
    (["delay=0furlong:1s:1s"], "furlong"),
    (["RngRun=3"], "RngRun"),
    (["delay=1ms", "delay=2ms"], "delay"),
    (["delay=1ms,1ms"], "twice"),
])
def test_bad_grid_exits_2_naming_it(tmp_path, capsys, params, word):
    args = ["sweep", "jaxa-table2", "--out", str(tmp_path / "b")]
    for p in params:
        args += ["--param", p]
    assert cli.main(args) == 2
    out = capsys.readouterr().out
    assert "error:" in out and word in out, out
    assert not (tmp_path / "b").exists()  # nothing ran


@built
def test_unknown_program_and_plot_field_exit_2(tmp_path, capsys):
    assert cli.main(["sweep", "no-such-program", "--param", "a=1"]) == 2
    assert "no-such-program" in capsys.readouterr().out
    assert cli.main(["sweep", "jaxa-table2", "--param", "delay=0ms", "--plot", "nope", "--x",
                     "delay", "--out", str(tmp_path / "c")]) == 2
    assert "nope" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# Validation against measured data


def _own_output(tmp_path, delays):
    """The model's own rtt_mean_ms at RngRun 1 (the program run directly, not by the sweep)."""
    vals = []
    for d in delays:
        f = tmp_path / f"own-{d}.json"
        subprocess.run([str(EXAMPLES_DIR / "jaxa-table2"), f"--delay={d}ms", "--count=3",
                        "--RngRun=1", f"--output={f}"], check=True, capture_output=True)
        vals.append(json.loads(f.read_text())["rtt_mean_ms"])
    return vals


@built
def test_validate_passes_on_own_output_and_fails_when_perturbed(tmp_path, capsys):
    delays = [0, 25]
    own = _own_output(tmp_path, delays)
    good = tmp_path / "good.csv"
    good.write_text("# measured on our testbed\ndelay_ms,count,rtt_mean_ms\n"
                    + "".join(f"{d},3,{v!r}\n" for d, v in zip(delays, own)))
    rc = cli.main(["validate", "jaxa-table2", "--measured", str(good), "--tolerance", "0.001",
                   "--jobs", "1", "--out", str(tmp_path / "v1"), "--no-progress"])
    assert rc == 0, capsys.readouterr().out
    table = _csv(tmp_path / "v1" / "validation.csv")
    assert [r["pass"] for r in table] == ["True", "True"]
    assert all(float(r["error_pct"]) == 0 for r in table)
    assert (tmp_path / "v1" / "validation.md").read_text().count("| yes |") == 2
    assert (tmp_path / "v1" / "measured-vs-simulated.png").exists()
    # One point 20 % off, tolerance 10 %: that point fails, the exit status says so.
    bad = tmp_path / "bad.csv"
    bad.write_text("delay,count,rtt_mean_ms\n"
                   f"0ms,3,{own[0]!r}\n25ms,3,{own[1] * 1.2!r}\n")
    rc = cli.main(["validate", "jaxa-table2", "--measured", str(bad), "--tolerance", "10",
                   "--jobs", "1", "--out", str(tmp_path / "v2"), "--no-progress"])
    assert rc == 1
    table = _csv(tmp_path / "v2" / "validation.csv")
    assert [r["pass"] for r in table] == ["True", "False"]
    assert float(table[1]["error_pct"]) == pytest.approx(100 / 1.2 - 100, abs=1e-3)
    # The same from Python.
    import testbed

    rows = testbed.validate("jaxa-table2", [{"delay_ms": 25, "count": 3, "rtt_mean_ms": own[1]}],
                            tolerance=0.001, out=tmp_path / "v3", frame=False)
    assert rows[0]["pass"] is True and rows[0]["simulated_mean"] == own[1]


@built
@pytest.mark.parametrize("header,row,word", [
    ("delay_furlongs,rtt_mean_ms", "1,2", "delay_furlongs"),   # not a time unit
    ("count_ms,rtt_mean_ms", "1,2", "count_ms"),               # a count takes no unit
    ("delay,latency,rtt_mean_ms", "1ms,1,2", "latency"),        # neither parameter nor field
    ("delay_ms,rtt_ms", "1,2", "rtt_ms"),                       # a series, not a number
    ("delay_ms", "1", "no measured column"),
    ("delay,rtt_mean_ms", "fast,2", "--delay=fast"),            # the program refuses it
    ("delay_ms,rtt_mean_ms", "1ms,2", "delay_ms"),              # unit twice
])
def test_bad_measured_file_exits_2_naming_it(tmp_path, capsys, header, row, word):
    f = tmp_path / "m.csv"
    f.write_text(f"{header}\n{row}\n")
    assert cli.main(["validate", "jaxa-table2", "--measured", str(f), "--out",
                     str(tmp_path / "v")]) == 2
    out = capsys.readouterr().out
    assert "error:" in out and word in out, out
