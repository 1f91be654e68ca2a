"""validation/*.csv: a table of measured points is written in the names of the
program it validates (its parameters, with a unit suffix, and its result fields), so that
`./testbed validate PROGRAM --measured validation/FILE` takes it as it is; each is fed to
validate here. The other files hold an experiment's facts (fitted constants, a knee frequency, a
sentence of the study): quantities of a whole sweep, not of one run, which no program field
carries; their rows are named after the metrics of metrics.json they are compared with, so that
`./testbed validate --experiment EXPERIMENT validation/FILE` takes them; each is fed here."""

import csv

import pytest

from testbed import EXAMPLES_DIR, ROOT, cli, sweeps, validation

#: file -> the program whose runs it measured
POINT_TABLES = {"jaxa06-table1.csv": "jaxa-table1", "jaxa06-table2.csv": "jaxa-table2"}
#: file -> the study module whose analyses compare its facts with their metrics
FACT_TABLES = {"gine14-timers.csv": "gine14", "jaxa06-rti.csv": "jaxa06",
               "jaxa06-spread.csv": "jaxa06",
               "mega06-facts.csv": "mega06", "tno03-jitter.csv": "tno03",
               "tno03-pipeline.csv": "tno03"}


def test_every_file_is_a_point_table_or_a_fact_table():
    files = {p.name for p in (ROOT / "validation").glob("*.csv")}
    assert files == set(POINT_TABLES) | set(FACT_TABLES)
    for name, module in FACT_TABLES.items():
        source = (ROOT / "bindings" / "python" / "testbed" / "experiments" / f"{module}.py")
        assert f'validation.facts("{name}")' in source.read_text(), name


@pytest.mark.parametrize("name,program", sorted(POINT_TABLES.items()))
def test_point_tables_feed_validate(tmp_path, name, program):
    if not (EXAMPLES_DIR / program).exists():
        pytest.skip("programs not built")
    measured = validation.load(name)
    params, fields = sweeps.classify_columns(program, list(measured[0]), name)
    assert fields, name
    rows = sweeps.validate(program, ROOT / "validation" / name, out=tmp_path / "v", jobs=2,
                           frame=False)
    # One row per measured cell, with the file's number and a simulated mean.
    want = sorted((f, float(r[f])) for r in measured for f in fields if r.get(f) != "")
    assert sorted((r["field"], r["measured"]) for r in rows) == want
    assert all(r["simulated_mean"] > 0 and r["runs"] == 1 for r in rows)
    assert (tmp_path / "v" / "validation.csv").exists()


def test_default_out_is_results_of_the_working_directory(tmp_path, monkeypatch, capsys,
                                                         fake_program):
    """Without --out a sweep writes to ./results/sweep-PROGRAM of the working directory (not the
    checkout's results/), and says where first."""
    from testbed import cli

    work = tmp_path / "mine"
    work.mkdir()
    monkeypatch.chdir(work)
    assert cli.main(["sweep", "square", "--param", "x=1,2", "--jobs", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    want = work / "results" / "sweep-square"
    assert out[0] == f"output: {want}"
    assert (want / "data.csv").exists()
    assert not (ROOT / "results" / "sweep-square").exists()


#: (fact table, experiment): every experiment a fact table names
FEEDS = [("gine14-timers.csv", "gine-timer"), ("jaxa06-rti.csv", "jaxa-fig4"),
         ("jaxa06-rti.csv", "jaxa-fig7"), ("jaxa06-spread.csv", "jaxa-spread"),
         ("mega06-facts.csv", "mega-flooding"),
         ("mega06-facts.csv", "mega-querier"), ("tno03-jitter.csv", "tno-jitter"),
         ("tno03-pipeline.csv", "tno-pipeline")]


def test_every_fact_row_names_an_experiment_that_is_fed():
    for name in FACT_TABLES:
        named = {r["experiment"] for r in validation.read_facts(ROOT / "validation" / name)}
        assert named == {e for f, e in FEEDS if f == name}, name


@pytest.mark.parametrize("name,experiment", [f for f in FEEDS if f[1] != "tno-pipeline"])
def test_fact_tables_feed_validate_experiment(tmp_path, capsys, name, experiment):
    """validate --experiment EXP validation/FILE runs EXP and compares each of its rows with the
    metric of that name: one row of validation.csv per fact, with the file's number and a number
    from the run (the verdicts are the study modules' business: a known gap fails here too)."""
    from testbed.experiment import experiments

    if not (EXAMPLES_DIR / experiments()[experiment].program).exists():
        pytest.skip("programs not built")
    out = tmp_path / "v"
    rc = cli.main(["validate", "--experiment", experiment, str(ROOT / "validation" / name),
                   "--out", str(out), "--jobs", "2", "--no-progress", "--no-strict"])
    assert rc == 0
    want = [(r["metric"], float(r["value"]))
            for r in validation.read_facts(ROOT / "validation" / name)
            if r["experiment"] == experiment]
    with open(out / "validation.csv") as f:
        got = list(csv.DictReader(f))
    assert [(r["metric"], float(r["measured"])) for r in got] == want
    assert all(r["simulated"] not in ("", "None") and float(r["simulated"]) == float(
        r["simulated"]) for r in got)  # a number from the run (not nan)
    assert "| metric | measured | simulated |" in capsys.readouterr().out


def test_pipeline_facts_are_tno_pipeline_metrics():
    """tno-pipeline's quick run is 157 points (minutes on a loaded machine): its table is fed to
    compare_facts with the metrics its analysis makes of records of every grid point (the
    metric names are the analysis's; the numbers are the file's)."""
    from testbed.experiment import Record
    from testbed.experiments import tno03

    recs = [Record(params={"config": c, "frequency": f, "duration": 1.0, "RngRun": 1},
                   result={"latency_mean_us": 500.0, "latency_max_us": 600.0, "loss": 0.0,
                           "read_rate_hz": float(f), "send_rate_hz": float(f),
                           "latency_growth": 1.0, "relay_max_burst": 1},
                   experiment="tno-pipeline", program="tno-pipeline")
            for c in tno03.GRID for f in tno03.GRID[c]]
    metrics = tno03.pipeline_analyse(recs).metrics
    rows = validation.read_facts(ROOT / "validation" / "tno03-pipeline.csv")
    table = validation.compare_facts(rows, "tno-pipeline", metrics)
    assert [(r["metric"], r["measured"]) for r in table] == [(r["metric"], r["value"])
                                                               for r in rows]
    assert all(isinstance(r["simulated"], (int, float)) for r in table)


def test_compare_facts_by_hand():
    rows = [{"experiment": "e", "metric": "a_us", "value": 200, "tolerance_pct": 10},
            {"experiment": "e", "metric": "b", "value": 0},
            {"experiment": "e", "metric": "c", "value": 4},
            {"experiment": "other", "metric": "z", "value": 1}]
    table = validation.compare_facts(rows, "e", {"a_us": 215.0, "b": 0, "c": 5.0, "d": 1},
                                     tolerance=20)
    assert [(r["metric"], r["error_pct"], r["pass"], r["tolerance_pct"]) for r in table] == [
        ("a_us", pytest.approx(7.5), True, 10), ("b", 0.0, True, 20), ("c", 25.0, False, 20)]
    # a measured 0 is met by 0 only
    assert not validation.compare_facts(rows[1:2], "e", {"b": 1e-9})[0]["pass"]
    with pytest.raises(validation.FactTableError, match="c_us: not a metric of e.*did you mean"):
        validation.compare_facts([dict(rows[2], metric="c_us")], "e", {"c": 1, "c_u": 2})
    with pytest.raises(validation.FactTableError, match="no row for experiment x .*e, other"):
        validation.compare_facts(rows, "x", {})


@pytest.mark.parametrize("text, message", [
    ("quantity,value_us\nrtc_shortest_interval,122.07\n", "no column experiment, metric, value"),
    ("experiment,metric,value\ngine-timer,rtc_shortest_interval_us,fast\n", "not a number"),
    ("experiment,metric,value\ngine-timer,x,1\ngine-timer,x,2\n", "twice"),
    ("experiment,metric,value\ngine-timer,no_such_metric,1\n", None),
    ("experiment,metric,value\njaxa-fig4,sync_alpha_bytes,1\n", "no row for experiment"),
])
def test_validate_experiment_refuses_bad_tables(tmp_path, capsys, text, message):
    """The table's own faults are one line and exit 2 before anything runs (a metric name is
    known only after the run: that one is exit 2 after it)."""
    if message is None and not (EXAMPLES_DIR / "gine-timer").exists():
        pytest.skip("programs not built")
    f = tmp_path / "facts.csv"
    f.write_text(text)
    rc = cli.main(["validate", "--experiment", "gine-timer", str(f), "--out",
                   str(tmp_path / "v"), "--jobs", "1", "--no-progress"])
    said = capsys.readouterr()
    assert rc == 2
    assert (message or "no_such_metric: not a metric of gine-timer") in said.out + said.err
    if message is not None:
        assert not (tmp_path / "v" / "gine-timer").exists()  # nothing ran
