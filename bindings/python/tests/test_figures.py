"""Figures (issue 31, item 4): `sweep --logx/--logy` set logarithmic axes (checked in the gnuplot
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
    from testbed.campaign import Record
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
    facts = {(str(r["config"]), r["quantity"]): float(r["value"])
             for r in validation.load("tno03-pipeline.csv")}
    measured = {t: p for t, p in series.items() if t.startswith("measured")}
    assert len(measured) == 3
    for c in ("1a", "1b", "2"):
        pts = next(p for t, p in measured.items() if f"] {c}:" in t)
        lat, knee = facts[(c, "latency_us")], facts[(c, "knee_hz")]
        assert pts == [(tno03.GRID[c][0], lat), (knee, lat)]
    assert (tmp_path / "pipeline-latency.png").stat().st_size > 1000
