"""The Python API from a user's script: a campaign started from a
script without an `if __name__ == "__main__":` guard works (its workers are threads; points
are subprocesses); testbed.sweep returns typed columns in base units and to_xarray gives the
grid; a sweep of an ns-3 attribute (--param ns3::Type::Attr) changes the result as the
attribute's definition says; `run EXP --param` overrides an experiment's points; `list` names
the program."""

import os
import subprocess
import sys
import textwrap

import pytest

from testbed import EXAMPLES_DIR, ROOT

PKG = str(ROOT / "bindings" / "python")


def test_campaign_from_a_script_without_main_guard(tmp_path):
    prog = tmp_path / "examples" / "square"
    prog.parent.mkdir()
    prog.write_text(textwrap.dedent("""\
        #!/usr/bin/env python3
        import json, sys
        args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if "=" in a)
        json.dump({"y": float(args["x"]) ** 2}, open(args["output"], "w"))
        """))
    prog.chmod(0o755)
    script = tmp_path / "mine.py"
    script.write_text(textwrap.dedent(f"""\
        from pathlib import Path
        from testbed import campaign
        import testbed.build
        from testbed.experiment import Analysis, Experiment
        testbed.build.EXAMPLES_DIR = Path({str(prog.parent)!r})
        exp = Experiment(id="sq", study="T", title="t", program="square",
                         points=lambda s: [{{"x": i}} for i in range(4)],
                         analyse=lambda r: Analysis(rows=[]))
        res = campaign.run_campaign([exp], "quick", 2, Path({str(tmp_path / "out")!r}),
                                    log=lambda m: None, progress=False)
        print("ys", [r.result["y"] for r in res["sq"]])
        """))  # no __main__ guard, as a user writes it
    env = dict(os.environ, PYTHONPATH=PKG)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       timeout=300, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "ys [0.0, 1.0, 4.0, 9.0]" in r.stdout
    assert "Traceback" not in r.stderr


needs_gine = pytest.mark.skipif(not (EXAMPLES_DIR / "gine-timer").exists(),
                                reason="programs not built")


@needs_gine
def test_sweep_of_an_ns3_attribute_typed_columns_and_xarray(tmp_path):
    """nanosleep wakes TimerSlack after the requested expiry: 1 ms more slack, every measured
    interval 1 ms longer on average. The sweep's frame has the attribute's values as given,
    typed parameter columns (minUs an integer) and to_xarray indexes by both."""
    import testbed
    from testbed.sweeps import to_xarray

    df = testbed.sweep("gine-timer", {"timer": "nanosleep", "minUs": "100,200",
                                       "maxUs": "200", "stepUs": "100", "firings": "50",
                                       "ns3::NanosleepTimer::TimerSlack": "50us,1050us"},
                       jobs=1, out=tmp_path / "s")
    assert str(df["minUs"].dtype) == "int64"
    mean = {}
    for _, row in df.iterrows():
        vals = row["measured_us"]
        mean[(row["minUs"], row["ns3::NanosleepTimer::TimerSlack"])] = sum(vals) / len(vals)
    for m in (100, 200):
        assert mean[(m, "1050us")] - mean[(m, "50us")] == pytest.approx(1000, abs=50)
    df["mean_us"] = [sum(v) / len(v) for v in df["measured_us"]]
    arr = to_xarray(df, "mean_us", ["minUs", "ns3::NanosleepTimer::TimerSlack"])
    assert arr.shape == (2, 2)


@needs_gine
def test_sweep_time_and_rate_parameters_in_base_units(tmp_path):
    """A time keeps its text and gets <name>_s in seconds, a rate <name>_bps in bit/s, a uint
    is an integer: "10ms" sorts after "5ms" as a number, not as text."""
    import testbed

    df = testbed.sweep("jaxa-table2", {"delay": "10ms,5ms", "bandwidth": "1Mbps,512kbps",
                                        "count": "2"}, jobs=1, out=tmp_path / "t")
    assert sorted(set(df["delay"])) == ["10ms", "5ms"]
    assert dict(zip(df["delay"], df["delay_s"])) == {"10ms": 0.01, "5ms": 0.005}
    assert dict(zip(df["bandwidth"], df["bandwidth_bps"])) == {"1Mbps": 1e6, "512kbps": 512e3}
    assert str(df["count"].dtype) == "int64"
    assert list(df.sort_values("delay_s")["delay"])[:2] == ["5ms", "5ms"]


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=PKG)
    return subprocess.run([sys.executable, "-m", "testbed.cli", *args], capture_output=True,
                          text=True, timeout=900, env=env)


def test_list_shows_the_program():
    r = _cli("list")
    assert r.returncode == 0
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("jaxa-table2 "))
    assert "jaxa-table2" in line.split()[2:]  # id, study, program, title


@needs_gine
def test_run_param_is_checked_by_the_program():
    r = _cli("run", "gine-timer", "--param", "ns3::NanosleepTimer::NoSuchAttr=1")
    if "unknown experiment" in r.stderr:
        pytest.skip("no gine-timer experiment")
    assert r.returncode == 2
    assert "NoSuchAttr" in r.stdout + r.stderr
