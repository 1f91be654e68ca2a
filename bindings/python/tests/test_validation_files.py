"""validation/*.csv (issue 31, item 5): a table of measured points is written in the names of the
program it validates (its parameters, with a unit suffix, and its result fields), so that
`./testbed validate PROGRAM --measured validation/FILE` takes it as it is; each is fed to
validate here. The other files hold an experiment's facts (fitted constants, a knee frequency, a
sentence of the study): quantities of a whole sweep, not of one run, which no program field
carries."""

import pytest

from testbed import EXAMPLES_DIR, ROOT, sweeps, validation

#: file -> the program whose runs it measured
POINT_TABLES = {"jaxa06-table1.csv": "jaxa-table1", "jaxa06-table2.csv": "jaxa-table2"}
#: file -> the study module whose analyses compare its facts with their metrics
FACT_TABLES = {"gine14-timers.csv": "gine14", "jaxa06-rti.csv": "jaxa06",
               "mega06-facts.csv": "mega06", "tno03-jitter.csv": "tno03",
               "tno03-pipeline.csv": "tno03"}


def test_every_file_is_a_point_table_or_a_fact_table():
    files = {p.name for p in (ROOT / "validation").glob("*.csv")}
    assert files == set(POINT_TABLES) | set(FACT_TABLES)
    for name, module in FACT_TABLES.items():
        source = (ROOT / "bindings" / "python" / "testbed" / "experiments" / f"{module}.py")
        assert f'validation.load("{name}")' in source.read_text(), name


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
