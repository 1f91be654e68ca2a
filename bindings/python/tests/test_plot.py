"""Figures: gnuplot scripts written by Python without ns-3, measured points on
the same axes as the simulated ones, the key outside the data, distinguishable colours.

The data blocks of the script are read back and compared with the series given (the figure's
data file is its .plt: gnuplot draws what is in it)."""

import re
import subprocess
import sys

import pytest

from testbed.experiment import Figure, Series
from testbed.plot import PALETTE, render


def _blocks(plt_text):
    """The inline data blocks of a gnuplot script, in plot order: lists of number tuples."""
    body = plt_text.split("\nplot ", 1)[1]
    lines = body.splitlines()
    while lines and (lines[0].rstrip().endswith("\\") or lines[0].startswith("plot")
                     or "title" in lines[0]):
        lines.pop(0)
    blocks, cur = [], []
    for ln in lines:
        if ln == "e":
            blocks.append(cur)
            cur = []
        elif ln.strip():
            cur.append(tuple(float(v) for v in ln.split()))
    return blocks


def _figure():
    sim = [Series(f"simulated {k}", [1, 2, 4], [k + 1.0, k + 2.0, k + 4.0]) for k in range(10)]
    measured = Series("measured [PAPER]", [1, 4], [1.5, 4.5], style="points")
    ci = Series("simulated, 95 % CI", [1, 2], [2.0, 3.0], style="errorlines", yerr=[0.5, 0.25])
    return Figure("f", "title", "delay (ms)", "RTT (ms)", [measured] + sim + [ci], logx=True,
                  extra=["set key top left"])


def test_script_holds_the_measured_points_on_the_same_axes(tmp_path):
    fig = _figure()
    png = render(fig, tmp_path)
    assert png.exists() and png.stat().st_size > 1000
    text = (tmp_path / "f.plt").read_text()
    blocks = _blocks(text)
    titles = re.findall(r"'-' title \"([^\"]*)\"", text)
    assert len(blocks) == len(titles) == len(fig.series)
    got = dict(zip(titles, blocks))
    # Every series' data is in the script as given, the measured one included (same plot
    # command: same axes), drawn last (over the curves).
    for s in fig.series:
        rows = [tuple([x, y] + ([s.yerr[i]] if s.yerr else [])) for i, (x, y) in
                enumerate(zip(s.x, s.y))]
        assert got[s.title] == rows, s.title
    assert titles[-1] == "measured [PAPER]"
    assert "set logscale x" in text
    # The key never outside on the right. The data lie at x <= 4 of a log axis to 10 (gnuplot
    # extends it to the decade): the top right corner is free and takes the eleven entries. The
    # figure's own "set key top left" is a hint only (a corner with data is not taken).
    assert "set key inside top right" in text and "set key top left" not in text
    assert "outside" not in text
    # Ten simulated series, ten different colours.
    colours = re.findall(r'lc rgb "(#[0-9a-f]{6})"', text)
    assert len(set(colours[:10])) == 10


def test_palette_has_ten_distinguishable_colours():
    def rgb(c):
        return tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))

    assert len(set(PALETTE)) >= 10
    for i, a in enumerate(PALETTE):
        for b in PALETTE[i + 1:]:
            # Euclidean RGB distance: no two colours nearly the same.
            assert sum((p - q) ** 2 for p, q in zip(rgb(a), rgb(b))) ** 0.5 > 60, (a, b)


def test_rendering_does_not_load_ns3(tmp_path):
    code = ("import sys; from pathlib import Path; from testbed.experiment import Figure, Series;"
            "from testbed.plot import render;"
            f"render(Figure('g', 't', 'x (s)', 'y (s)', [Series('a', [1, 2], [3, 4])]), Path({str(tmp_path)!r}));"
            "assert 'cppyy' not in sys.modules and 'ns' not in sys.modules, 'ns-3 loaded'")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "g.png").exists()


def test_segments_are_separate_pairs(tmp_path):
    """style="segments" (jaxa06's timeline): points 0-1, 2-3, ... each a segment of its own.
    gnuplot joins consecutive data lines and breaks the line at a blank one, so the data block
    must hold exactly one blank line after each pair and none inside a pair."""
    xs, ys = [0, 1, 2, 3, 4, 5], [1, 1, 2, 2, 3, 3]
    render(Figure("s", "t", "x (s)", "lane", [Series("a", xs, ys, style="segments")]), tmp_path)
    text = (tmp_path / "s.plt").read_text()
    assert re.search(r"'-' title \"a\" with lines ", text)
    block = text.split("\nplot ", 1)[1].split("\n", 1)[1].split("\ne\n", 1)[0]
    runs = [[tuple(float(v) for v in ln.split()) for ln in part.splitlines()]
            for part in block.strip("\n").split("\n\n")]
    assert runs == [[(0.0, 1.0), (1.0, 1.0)], [(2.0, 2.0), (3.0, 2.0)], [(4.0, 3.0), (5.0, 3.0)]]
