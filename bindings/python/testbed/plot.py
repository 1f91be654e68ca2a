"""Figures: gnuplot scripts written here, drawn by gnuplot.

gnuplot stays the figure tool (as with ns-3's Gnuplot class, which this module used to drive
through cppyy: loading all of ns-3 only to write a text file cost about 10 s per figure). The
script is plain text, so it is written directly, in the same form ns-3's Gnuplot2dDataset gives
(inline data blocks, one per series): render() needs neither ns-3 nor cppyy, and
``<name>.plt`` beside each PNG draws the same figure again with ``gnuplot <name>.plt``.

Every figure: the key outside the plotting area (right), a palette of twelve distinguishable
colours (each series its own colour; measured data as filled points, drawn over the lines),
a grid, and the axis labels the experiment gives (with their units).
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

from .experiment import Figure, Series

#: Twelve colours, distinguishable from each other (Tableau 10, then two darker ones); a figure
#: with more series than this repeats them with other point types.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000080", "#800000")

_STYLES = {"lines", "points", "linespoints", "dots", "impulses", "steps", "fsteps", "histeps"}
#: Styles drawn as gnuplot's own style of another name: "segments" joins consecutive pairs of
#: points, each pair a segment of its own (a blank line after each pair breaks the line).
_ALIASES = {"segments": "lines"}


def script_text(s) -> str:
    """Text safe inside a double-quoted string of a gnuplot script (ns-3's Gnuplot writes titles
    and labels as "..." without escaping): a '"' would end the string and let the rest run as
    commands (system("...")), a backquote runs a shell command even inside "...", a newline
    starts a new command. Those become "'" and blanks; a backslash at the end, which would
    escape the closing quote, is doubled. Escapes such as "\\_" (enhanced text) pass."""
    out = []
    for ch in str(s):
        if ch in '"`':
            out.append("'")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append(" ")
        else:
            out.append(ch)
    text = "".join(out)
    trailing = len(text) - len(text.rstrip("\\"))
    return text + "\\" if trailing % 2 else text


def _file_name(name: str) -> str:
    """A figure's file name: letters, digits and -_.+= only (it enters `set output "..."`)."""
    safe = "".join(c if c.isalnum() or c in "-_.+=" else "_" for c in str(name)).lstrip(".")
    return safe or "figure"


def _num(v) -> str:
    return repr(float(v))


def _is_measured(s: Series) -> bool:
    return s.title.lower().startswith("measured")


def _with(s: Series, i: int) -> str:
    """The `with ...` clause of series i: style, colour (palette), point type."""
    colour = f'lc rgb "{PALETTE[i % len(PALETTE)]}"'
    pt = 7 if _is_measured(s) else (1 + (i // len(PALETTE)) * 2 + i % 6)
    if s.yerr is not None:
        style = "yerrorlines" if s.style == "errorlines" else "yerrorbars"
    else:
        style = _ALIASES.get(s.style, s.style)
        style = style if style in _STYLES else "linespoints"
    extra = f" pt {pt} ps 1.2" if style not in ("lines", "steps", "fsteps", "histeps",
                                                   "impulses", "dots") else " lw 2"
    if _is_measured(s) and style == "lines":
        extra += " dt 2"  # a measured line (a study's fitted line) dashed, apart from the model's
    return f"{style} {colour}{extra}"


def _rows(s: Series) -> list[str]:
    rows = []
    for i, (x, y) in enumerate(zip(s.x, s.y)):
        if x is None or y is None or not (math.isfinite(float(x)) and math.isfinite(float(y))):
            continue
        if s.yerr is not None:
            rows.append(f"{_num(x)} {_num(y)} {_num(s.yerr[i])}")
        else:
            rows.append(f"{_num(x)} {_num(y)}")
        if s.style == "segments" and i % 2 == 1:
            rows.append("")  # gnuplot breaks the line at a blank line of the data
    return rows


def script(fig: Figure, png: Path) -> str:
    """The gnuplot script of a figure, drawing into png."""
    lines = [
        "set terminal pngcairo size 1000,600 enhanced font 'Sans,11'",
        f'set output "{script_text(str(png))}"',
        f'set title "{script_text(fig.title)}"',
        f'set xlabel "{script_text(fig.xlabel)}"',
        f'set ylabel "{script_text(fig.ylabel)}"',
        "set grid",
    ]
    if fig.logx:
        lines.append("set logscale x")
    if fig.logy:
        lines.append("set logscale y")
    if fig.xrange:
        lines.append("set xrange [%s:%s]" % tuple("" if v is None else v for v in fig.xrange))
    if fig.yrange:
        lines.append("set yrange [%s:%s]" % tuple("" if v is None else v for v in fig.yrange))
    # The experiment's own commands, except where it put the key: the key goes outside the data.
    lines.extend(c for c in fig.extra if not c.strip().startswith("set key"))
    lines.append("set key outside right top vertical Left reverse box")
    # Measured data last, so its points lie over the simulated curves.
    order = sorted(range(len(fig.series)), key=lambda i: _is_measured(fig.series[i]))
    drawn = [(i, fig.series[i]) for i in order if _rows(fig.series[i])]
    if not drawn:
        lines.append('plot NaN title "no data"')
        return "\n".join(lines) + "\n"
    lines.append("plot " + ", \\\n     ".join(
        f"'-' title \"{script_text(s.title)}\" with {_with(s, i)}" for i, s in drawn))
    for _, s in drawn:
        lines.extend(_rows(s))
        lines.append("e")
    return "\n".join(lines) + "\n"


def png_is_whole(path: Path) -> bool:
    """Whether a file is a whole PNG: the signature, then chunks whose lengths and CRCs hold, up
    to IEND at the file's end (gnuplot exits 0 when a full disk truncated its PNG)."""
    import struct
    import zlib

    try:
        data = Path(path).read_bytes()
    except OSError:
        return False
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return False
    pos = 8
    while pos + 12 <= len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        end = pos + 12 + n
        if end > len(data):
            return False
        (crc,) = struct.unpack(">I", data[end - 4:end])
        if zlib.crc32(data[pos + 4:end - 4]) != crc:
            return False
        if kind == b"IEND":
            return end == len(data)
        pos = end
    return False


def draw(plt_text, outdir: Path, name: str, what: str = "figure") -> Path:
    """Write <outdir>/<name>.plt and draw <outdir>/<name>.png with gnuplot, each as a whole or
    not at all: the script and the PNG are drawn into temporaries beside them, the PNG checked
    whole (png_is_whole), then both renamed over the previous ones. A failure (a full disk)
    leaves the previous figure as it was, no temporary, and raises RuntimeError or OSError.
    ``plt_text(png_name)``: the script drawing into the PNG of that name (in outdir)."""
    import os
    import tempfile

    from .campaign import atomic_write_text

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    png = outdir / f"{name}.png"
    plt = outdir / f"{name}.plt"
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        raise RuntimeError("gnuplot is not installed (./testbed setup installs it)")
    fd, tmp_png = tempfile.mkstemp(dir=outdir, prefix=".tmp-", suffix=".png")
    os.close(fd)
    tmp_png = Path(tmp_png)
    fd, tmp_plt = tempfile.mkstemp(dir=outdir, prefix=".tmp-", suffix=".plt")
    os.close(fd)
    tmp_plt = Path(tmp_plt)
    try:
        tmp_plt.write_text(plt_text(tmp_png.name))
        proc = subprocess.run([gnuplot, tmp_plt.name], capture_output=True, text=True,
                              cwd=outdir)
        if proc.returncode != 0:
            raise RuntimeError(f"gnuplot failed on {plt}: {proc.stderr.strip()}")
        if not png_is_whole(tmp_png):
            raise RuntimeError(f"{png}: gnuplot wrote no whole PNG (a full disk?); the previous "
                               f"{what} is kept")
        atomic_write_text(plt, plt_text(png.name))
        os.chmod(tmp_png, 0o666 & ~_umask())
        os.replace(tmp_png, png)
    finally:
        tmp_png.unlink(missing_ok=True)
        tmp_plt.unlink(missing_ok=True)
    return png


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def render(fig: Figure, outdir: Path) -> Path:
    """Write <outdir>/<name>.plt and run gnuplot on it: <outdir>/<name>.png (both replaced as
    a whole or not at all: draw)."""
    name = _file_name(fig.name)
    # The script names the PNG without its folder (gnuplot runs in outdir): no path a user
    # typed (--out) enters the script.
    return draw(lambda png: script(fig, Path(png)), Path(outdir), name)
