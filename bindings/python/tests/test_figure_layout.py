"""Figures with room for the data: the layout rules of plot.py, read back from the gnuplot
scripts (.plt) written beside the PNGs.

The rules (plot.layout_problems): no key outside on the right (it left the data 40-55 % of the
width); the key inside a corner no data crosses, or below the plot with a bottom margin for its
rows; explicit margins, a top margin for every title line; a unit on every axis; one tic format
per axis (gnuplot's default wrote 900000 beside 1.9x10^6). The experiments' own figures are
checked by running them at the quick scale; a sweep's figure names its fixed parameters; a
validation draws the user's measured points with their tolerance band over the simulated curve.
"""

import csv
import math
import re
from pathlib import Path

import pytest

from testbed.experiment import Figure, Series
from testbed.plot import (CHAR_W, band, key_layout, layout_problems, measured_with_tolerance,
                          render, script, tic_format)

#: A script of the form plot.py wrote before these rules (the key outside on the right, margins
#: and tic formats left to gnuplot, an axis label without a unit).
OLD_FORM = """set terminal pngcairo size 1000,600 enhanced font 'Sans,11'
set output "f.png"
set title "MEGA06: drop rate against nodes (method A)"
set xlabel "nodes"
set ylabel "drop rate"
set grid
set logscale x
set key outside right top vertical Left reverse box
plot '-' title "receivers (sara)" with linespoints lc rgb "#1f77b4" pt 1 ps 1.2
20000.0 0.0
1000000.0 0.1
e
"""


def _commands(text):
    return text.split("\nplot ", 1)[0].splitlines()


def _blocks(text):
    """{title: rows} of the inline data blocks (plot.py's form)."""
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("plot "))
    head = [lines[i]]
    while head[-1].endswith("\\"):
        i += 1
        head.append(lines[i])
    titles = [(re.search(r'title "([^"]*)"', h) or [None, ""])[1] for h in head]
    out, cur, n = {}, [], 0
    for ln in lines[i + 1:]:
        if ln.strip() == "e":
            out.setdefault(titles[n], []).extend(cur)
            cur, n = [], n + 1
        elif ln.strip():
            cur.append(tuple(float(v) for v in ln.split()))
    return out


def test_checker_flags_the_old_layout():
    problems = layout_problems(OLD_FORM)
    text = "\n".join(problems)
    assert "the key outside on the right" in text
    for side in "lrtb":
        assert f"{side}margin not set" in text
    assert "the x axis label has no unit: 'nodes'" in text
    assert "the y axis label has no unit: 'drop rate'" in text
    assert "the x axis' tic format is gnuplot's default" in text


def _diagonal(n_series=3, title="simulated"):
    return Figure("d", "rising", "size (bytes)", "time (ms)",
                  [Series(f"{title} {k}", [0, 1, 2, 3, 4], [k + v for v in range(5)])
                   for k in range(n_series)])


def test_key_inside_a_free_corner():
    # Lines rising from the bottom left to the top right: the top left corner is free.
    text = script(_diagonal(), Path("d.png"))
    assert "set key inside top left" in text
    assert layout_problems(text) == []
    # Data in the top left (falling lines): the key takes another corner, one without data.
    fig = Figure("f", "falling", "size (bytes)", "time (ms)",
                 [Series(f"s{k}", [0, 1, 2, 3, 4], [10 - 2 * v + 0.1 * k for v in range(5)])
                  for k in range(3)])
    text = script(fig, Path("f.png"))
    assert re.search(r"set key inside (top right|bottom left)", text), text
    # The experiment's hint is taken when its corner is free, refused when data lies there.
    fig.extra = ["set key bottom left"]
    assert "set key inside bottom left" in script(fig, Path("f.png"))
    fig.extra = ["set key top left"]
    assert "set key inside top left" not in script(fig, Path("f.png"))


def test_many_entries_go_below_in_columns_with_room():
    fig = _diagonal(15, title="a series with a long descriptive title")
    text = script(fig, Path("d.png"))
    key = next(c for c in _commands(text) if c.startswith("set key"))
    assert key.startswith("set key below") and "outside" not in key
    cols = int(re.search(r"maxcols (\d+)", key).group(1))
    # Each column holds the longest title and its sample: the columns fit in the width.
    assert cols * (len("a series with a long descriptive title 14") + 8) * CHAR_W <= 1000
    rows = math.ceil(15 / cols)
    bmargin = float(re.search(r"set bmargin ([0-9.]+)", text).group(1))
    assert bmargin >= 4 + rows
    assert layout_problems(text) == []


def test_key_layout_counts_only_titled_series():
    s = [Series("a", [1, 2], [1, 2]), Series("", [1, 2], [2, 3]), Series("", [1, 2], [3, 4])]
    key, rows = key_layout(Figure("k", "t", "x (s)", "y (s)", s), s, 110, 25)
    assert rows == 0 and key[0].startswith("set key inside")


@pytest.mark.parametrize("values,log,want", [
    ([0, 300000, 900000, 1900000], False, "%.0f"),  # one notation: 900000 and 1900000
    ([20000, 1000000], True, "10^{%L}"),  # a log axis over decades: 10^5, 10^6
    ([0.1, 0.5, 2.5], False, "%g"),
    ([1e8, 5e9], False, "%.1t\u00d710^{%T}"),
])
def test_one_tic_format_per_axis(values, log, want):
    fmt = tic_format(values, log)
    assert fmt == want
    if fmt == "%.0f":
        labels = [fmt % v for v in (900000, 1900000)]
        assert all(lbl.isdigit() for lbl in labels), labels


def test_long_title_wrapped_with_its_margin(tmp_path):
    long = ("NTT96 exp. 2 (cf. Fig. 4): TCP jitter through the router, receiving computer "
            "on the Ethernet side, against the offered load, fast switching on and off, "
            "with the route cache's size at its default")
    fig = _diagonal()
    fig.title, fig.subtitle = long, "fixed: size=1024, reps=10; 3 runs per point"
    text = (render(fig, tmp_path).with_suffix(".plt")).read_text()
    title = next(c for c in _commands(text) if c.startswith("set title"))
    lines = title[len('set title "'):-1].split("\\n")
    assert len(lines) == 3 and all(len(ln) <= 100 for ln in lines[:2])
    assert "fixed: size=1024" in lines[2]
    tmargin = float(re.search(r"set tmargin ([0-9.]+)", text).group(1))
    assert tmargin >= len(lines) + 1
    assert layout_problems(text) == []


def test_band_and_measured_with_tolerance(tmp_path):
    sim = Series("simulated", [1, 2, 4], [1.0, 4.0, 16.0])
    fig = Figure("b", "t", "x (s)", "y (ms)",
                 [sim] + measured_with_tolerance("measured [X]", [1, 2, 4], [1.1, 4.4, 15.0], 10)
                 + [band("95 % CI", [1, 4], [2.0, 3.0], 0.5)])
    text = render(fig, tmp_path).with_suffix(".plt").read_text()
    blocks = _blocks(text)
    # The band's rows are x, y - 10 %, y + 10 % of each measured value.
    want = [(x, y * 0.9, y * 1.1) for x, y in zip([1, 2, 4], [1.1, 4.4, 15.0])]
    assert blocks["measured [X]: tolerance \u00b110 %"] == [pytest.approx(w) for w in want]
    assert blocks["95 % CI"] == [(1.0, 1.5, 2.5), (4.0, 2.5, 3.5)]
    # Bands under everything (first), measured points over the curves (last), one colour for
    # the measured points and their band (one group).
    plot = text.split("\nplot ", 1)[1].split("\n1.0", 1)[0]
    entries = re.findall(r"title \"([^\"]*)\" with (\S+) \S+ rgb \"(#\w+)\"", plot)
    assert [e[1] for e in entries[:2]] == ["filledcurves", "filledcurves"]
    assert entries[-1][0] == "measured [X]"
    colour = {t: c for t, _, c in entries}
    assert colour["measured [X]"] == colour["measured [X]: tolerance \u00b110 %"]
    assert colour["simulated"] != colour["measured [X]"]


def _measured_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["x", "y"])
        w.writerows(rows)
    return path


def test_validate_overlays_the_measured_points_on_the_simulated_curve(tmp_path, monkeypatch,
                                                                       fake_program):
    """`validate square --measured FILE.csv`: square's y is x*x, so the simulated curve is
    x*x at the file's x; the measured points are the file's, with a band of +-10 % of each."""
    from testbed import cli

    monkeypatch.chdir(tmp_path)
    measured = [(1, 1.05), (2, 4.5), (4, 15.0), (8, 70.0)]
    f = _measured_csv(tmp_path / "m.csv", measured)
    cli.main(["validate", "square", "--measured", str(f), "--out", str(tmp_path / "v"),
              "--jobs", "1", "--no-progress"])
    plt = (tmp_path / "v" / "y-vs-x-measured.plt").read_text()
    blocks = _blocks(plt)
    assert blocks["simulated"] == [(x, x * x, 0.0) for x, _ in measured]
    assert blocks["measured"] == [(x, y) for x, y in measured]
    assert blocks["measured: tolerance \u00b110 %"] == [
        pytest.approx((x, y * 0.9, y * 1.1)) for x, y in measured]
    assert (tmp_path / "v" / "y-vs-x-measured.png").stat().st_size > 1000
    assert layout_problems(plt) == []
    # The measured-against-simulated figure: the tolerance's band around the diagonal, units.
    plt = (tmp_path / "v" / "measured-vs-simulated.plt").read_text()
    blocks = _blocks(plt)
    lo, hi = 1.0, 70.0
    assert blocks["tolerance \u00b110 %"] == [pytest.approx((lo, lo * 0.9, lo * 1.1)),
                                              pytest.approx((hi, hi * 0.9, hi * 1.1))]
    assert blocks["y"] == [(m, x * x, 0.0) for x, m in measured]
    assert layout_problems(plt) == []


def test_sweep_figure_names_its_fixed_parameters(tmp_path, monkeypatch, fake_program):
    from testbed import cli

    monkeypatch.chdir(tmp_path)
    assert cli.main(["sweep", "square", "--param", "x=1,2,3", "--param", "failx=50",
                     "--reps", "2", "--jobs", "1", "--no-progress", "--plot", "y",
                     "--x", "x"]) == 0
    plt = (tmp_path / "results" / "sweep-square" / "y-vs-x.plt").read_text()
    title = next(c for c in _commands(plt) if c.startswith("set title"))
    assert "fixed: failx=50; 2 runs per point" in title
    assert layout_problems(plt) == []


# The experiments whose figures are checked as drawn: one or more of each study, each under
# about 30 s at the quick scale (tools/render-figures.py --check runs the same check over all).
EXPERIMENTS = ["gine-timer", "gine-burst", "jaxa-table1", "jaxa-table2", "jaxa-fig4",
               "tno-jitter", "ntt-load", "mega-multiplex"]


@pytest.mark.parametrize("exp", EXPERIMENTS)
def test_experiment_figures_follow_the_layout_rules(tmp_path, exp):
    from testbed import cli
    from testbed.build import program_path
    from testbed.experiment import experiments

    e = experiments()[exp]
    if not Path(program_path(e.program)).exists():
        pytest.skip("programs not built")
    assert cli.main(["run", exp, "--out", str(tmp_path), "--jobs", "1", "--no-strict",
                     "--no-progress"]) in (0, 1)
    plts = sorted((tmp_path / exp).glob("*.plt"))
    assert plts, "the experiment draws figures"
    for plt in plts:
        text = plt.read_text()
        assert layout_problems(text) == [], plt.name
        assert plt.with_suffix(".png").stat().st_size > 1000
        # At most a dozen key entries: more belong in groups or in another figure.
        assert len(re.findall(r"'-'(?: using \S+)? title ", text)) <= 12, plt.name
