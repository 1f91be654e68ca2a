"""Figures: drawn by gnuplot from scripts that ns-3's Gnuplot class writes.

ns-3's ns3::Gnuplot / Gnuplot2dDataset (through cppyy) produce the gnuplot script; this module
only maps an experiment.Figure onto them and runs gnuplot to make the PNG.
"""

import math
import shutil
import subprocess
from pathlib import Path

from .experiment import Figure

_STYLES = {
    "lines": "LINES",
    "segments": "LINES",  # consecutive pairs of points, each a segment of its own
    "points": "POINTS",
    "linespoints": "LINES_POINTS",
    "dots": "DOTS",
    "impulses": "IMPULSES",
    "steps": "STEPS",
    "fsteps": "FSTEPS",
    "histeps": "HISTEPS",
}


def _quote(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def render(fig: Figure, outdir: Path) -> Path:
    """Write <outdir>/<name>.plt with ns-3's Gnuplot class and run gnuplot on it."""
    import cppyy

    from . import ns as _ns  # noqa: F401  (loads ns-3)

    ns = _ns
    outdir.mkdir(parents=True, exist_ok=True)
    png = outdir / f"{fig.name}.png"
    plt = outdir / f"{fig.name}.plt"
    g = ns.Gnuplot(str(png), fig.title)
    g.SetTerminal("pngcairo size 900,600 enhanced font 'Sans,11'")
    g.SetLegend(fig.xlabel, fig.ylabel)
    extras = ["set grid", "set key top left"]
    if fig.logx:
        extras.append("set logscale x")
    if fig.logy:
        extras.append("set logscale y")
    if fig.xrange:
        extras.append("set xrange [%s:%s]" % tuple("" if v is None else v for v in fig.xrange))
    if fig.yrange:
        extras.append("set yrange [%s:%s]" % tuple("" if v is None else v for v in fig.yrange))
    extras.extend(fig.extra)
    g.SetExtra("\n".join(extras))
    for s in fig.series:
        ds = ns.Gnuplot2dDataset(s.title)
        if s.yerr is not None:
            # points with error bars; "errorlines" joins them too (gnuplot's yerrorlines)
            ds.SetStyle(ns.Gnuplot2dDataset.LINES_POINTS if s.style == "errorlines"
                        else ns.Gnuplot2dDataset.POINTS)
            ds.SetErrorBars(ns.Gnuplot2dDataset.Y)
        else:
            ds.SetStyle(getattr(ns.Gnuplot2dDataset, _STYLES.get(s.style, "LINES_POINTS")))
        for i, (x, y) in enumerate(zip(s.x, s.y)):
            if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)):
                continue
            if s.yerr is not None:
                ds.Add(float(x), float(y), float(s.yerr[i]))
            else:
                ds.Add(float(x), float(y))
            if s.style == "segments" and i % 2 == 1:
                ds.AddEmptyLine()  # gnuplot breaks the line at a blank line
        g.AddDataset(ds)
    ofs = cppyy.gbl.std.ofstream(str(plt))
    g.GenerateOutput(ofs)
    ofs.close()
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        raise RuntimeError("gnuplot is not installed (./testbed setup installs it)")
    proc = subprocess.run([gnuplot, str(plt)], capture_output=True, text=True, cwd=outdir)
    if proc.returncode != 0 or not png.exists():
        raise RuntimeError(f"gnuplot failed on {plt}: {proc.stderr.strip()}")
    return png
