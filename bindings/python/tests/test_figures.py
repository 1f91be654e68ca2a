"""Figures: `sweep --logx/--logy` set logarithmic axes (checked in the gnuplot
script written beside the PNG); a log axis with a value <= 0 is refused before anything is
drawn."""

import pytest

from testbed import cli


def _sweep(monkeypatch, tmp_path, *extra, values="1,2,3"):
    monkeypatch.chdir(tmp_path)
    return cli.main(["sweep", "square", "--param", f"x={values}", "--jobs", "1", "--no-progress",
                     "--plot", "y", "--x", "x", *extra])


@pytest.mark.parametrize("flags,logx,logy", [([], False, False), (["--logx"], True, False),
                                             (["--logy"], False, True),
                                             (["--logx", "--logy"], True, True)])
def test_sweep_log_axes(tmp_path, monkeypatch, fake_program, flags, logx, logy):
    assert _sweep(monkeypatch, tmp_path, *flags) == 0
    plt = (tmp_path / "results" / "sweep-square" / "y-vs-x.plt").read_text()
    assert ("set logscale x" in plt) == logx
    assert ("set logscale y" in plt) == logy
    assert (tmp_path / "results" / "sweep-square" / "y-vs-x.png").stat().st_size > 1000


def test_log_axis_with_a_value_not_positive_is_refused(tmp_path, monkeypatch, capsys,
                                                       fake_program):
    assert _sweep(monkeypatch, tmp_path, "--logx", values="0,1,2") == 2
    assert "--logx: x has a value <= 0 (0)" in capsys.readouterr().out
    # y = x*x is 0 at x = 0
    assert _sweep(monkeypatch, tmp_path, "--logy", values="0,1,2") == 2
    assert "--logy: the mean of y is not positive at x=0" in capsys.readouterr().out


def test_log_flags_need_plot(tmp_path, monkeypatch, capsys, fake_program):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["sweep", "square", "--param", "x=1,2", "--logy", "--no-progress"]) == 2
    assert "--plot FIELD needs --x PARAM" in capsys.readouterr().out


def _plt_series(plt_text):
    """{title: [(x, y), ...]} of a gnuplot script with inline data (plot.py's form: one plot
    command over continued lines, then each series' data ended by a line 'e')."""
    import re

    lines = plt_text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("plot "))
    head = [lines[i]]
    while head[-1].endswith("\\"):
        i += 1
        head.append(lines[i])
    titles = [re.search(r'title "([^"]*)"', h).group(1) for h in head]
    out, pts = {}, []
    for line in lines[i + 1:]:
        if line.strip() == "e":
            out[titles[len(out)]] = pts
            pts = []
        elif line.strip():
            pts.append(tuple(float(v) for v in line.split()[:2]))
    return out


def test_pipeline_figure_holds_the_measured_points(tmp_path):
    """tno-pipeline's figure carries the study's Onyx numbers (validation/tno03-pipeline.csv) on
    the simulated curves' axes: per configuration the measured latency at the grid's lowest
    frequency and at the measured knee; read back from the figure's data (the .plt)."""
    from testbed import validation
    from testbed.experiment import Record
    from testbed.experiments import tno03
    from testbed.plot import render

    recs = []
    for c in ("1a", "1b", "2"):
        for f in tno03.GRID[c]:
            r = {"latency_mean_us": 500.0, "latency_max_us": 600.0, "loss": 0.0,
                 "read_rate_hz": float(f), "send_rate_hz": float(f), "latency_growth": 1.0,
                 "relay_max_burst": 1}
            recs.append(Record(params={"config": c, "frequency": f, "duration": 1.0,
                                       "RngRun": 1}, result=r, experiment="tno-pipeline",
                               program="tno-pipeline"))
    fig = tno03.pipeline_analyse(recs).figures[0]
    render(fig, tmp_path)
    series = _plt_series((tmp_path / "pipeline-latency.plt").read_text())
    prefix = {"1a": "1a_dmso", "1b": "1b_dm", "2": "2_sm"}  # the metric names' configurations
    rows = validation.facts("tno03-pipeline.csv")
    facts = {(c, q): rows[f"{prefix[c]}_{q}"]["value"] for c in prefix
             for q in ("latency_us", "knee_hz")}
    measured = {t: p for t, p in series.items() if t.startswith("measured")}
    assert len(measured) == 3
    for c in ("1a", "1b", "2"):
        pts = next(p for t, p in measured.items() if f"] {c}:" in t)
        lat, knee = facts[(c, "latency_us")], facts[(c, "knee_hz")]
        assert pts == [(tno03.GRID[c][0], lat), (knee, lat)]
    assert (tmp_path / "pipeline-latency.png").stat().st_size > 1000


def _jitter_record(measure, platform, run, lo, hi, counts):
    from testbed.experiment import Record

    r = {"samples": sum(counts), "mean_us": (lo + hi) / 2, "min_us": lo, "max_us": hi,
         "jitter_us": hi - lo, "hist_bin_us": 1.0, "hist_start_us": float(int(lo)),
         "hist_counts": counts}
    return Record(params={"measure": measure, "platform": platform, "RngRun": run}, result=r,
                  experiment="tno-jitter", program="tno-jitter")


def test_jitter_figures_hold_the_studys_spans(tmp_path):
    """tno-jitter's histograms carry the study's numbers of
    validation/tno03-jitter.csv on their x axis, above the bars: the IRIX network latency's
    min, mean and max (259, 281, 475 us); the scheduling jitter's width (39 us IRIX, 3 us
    iHawk: max - min, no position given) from the simulated minimum of the run drawn."""
    from testbed import validation
    from testbed.experiments import tno03
    from testbed.plot import render

    recs = [_jitter_record("sched", "irix", 1, 2.5, 41.0, [50, 0, 7]),
            _jitter_record("sched", "irix", 2, 9.0, 30.0, [1]),  # not the run drawn
            _jitter_record("sched", "ihawk", 1, 0.25, 3.0, [100]),
            _jitter_record("net", "irix", 1, 240.0, 500.0, [10, 400, 3]),
            _jitter_record("net", "ihawk", 1, 30.0, 45.0, [900])]
    facts = validation.facts("tno03-jitter.csv")
    for fig in tno03.jitter_analyse(recs).figures:
        render(fig, tmp_path)
        series = _plt_series((tmp_path / f"{fig.name}.plt").read_text())
        measured = {t: p for t, p in series.items() if t.startswith("measured")}
        top = max(y for t, p in series.items() if t not in measured for _, y in p)
        for pts in measured.values():  # one level each, above the bars
            assert len({y for _, y in pts}) == 1 and pts[0][1] > top
        if fig.name == "jitter-net":
            (pts,) = measured.values()
            assert [x for x, _ in pts] == [facts[f"irix_net_{q}_us"]["value"]
                                           for q in ("min", "mean", "max")] == [259, 281, 475]
        else:
            got = {t.split("]")[1].split(":")[0].strip(): [x for x, _ in p]
                   for t, p in measured.items()}
            assert got == {"IRIX": [2.5, 2.5 + 39], "iHawk": [0.25, 0.25 + 3]}


def test_table2_error_panel_is_simulated_minus_measured(tmp_path):
    """jaxa-table2's error panel: per delay of validation/jaxa06-table2.csv,
    (simulated - measured) / measured in percent, checks and documented gaps apart, with the
    tolerance's band; by hand from records whose RTT is 2 x delay + 1 ms."""
    from testbed import validation
    from testbed.experiment import Record
    from testbed.experiments import jaxa06
    from testbed.plot import render

    recs = [Record(params={"delay": f"{d}ms", "count": 1, "RngRun": 1},
                   result={"rtt_ms": [2 * d + 1.0], "count": 1, "rtt_mean_ms": 2 * d + 1.0,
                           "rtt_min_ms": 2 * d + 1.0, "rtt_max_ms": 2 * d + 1.0},
                   experiment="jaxa-table2", program="jaxa-table2") for d in jaxa06.DELAYS_MS]
    fig = next(f for f in jaxa06.table2_analyse(recs).figures if f.name == "table2-error")
    render(fig, tmp_path)
    series = _plt_series((tmp_path / "table2-error.plt").read_text())
    measured = {r["delay_ms"]: r["rtt_mean_ms"] for r in validation.load("jaxa06-table2.csv")}
    want = {d: 100 * (2 * d + 1.0 - m) / m for d, m in measured.items()}
    gaps = [(float(d), pytest.approx(e)) for d, e in want.items() if d in jaxa06.TABLE2_GAPS]
    checks = [(float(d), pytest.approx(e)) for d, e in want.items()
              if d not in jaxa06.TABLE2_GAPS]
    assert series["simulated - measured, checks"] == checks
    assert series["simulated - measured, documented gaps"] == gaps
    tol = jaxa06.TABLE2_TOLERANCE
    assert series[f"+{tol:g} % (the tolerance)"] == [(0.0, tol), (100.0, tol)]
    assert (tmp_path / "table2-error.png").stat().st_size > 1000
